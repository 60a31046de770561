#!/usr/bin/env bash
# Measure the speed baseline that `welcome-sim bench --compare` reads: benchmarks/baseline.json,
# one row per configuration with its games/s, the commit, the date and the machine. Run it on a
# quiet machine from a clean checkout (a dirty one is recorded as <commit>+dirty), then commit
# the file. Usage: benchmarks/baseline.sh [games per measurement, default 5000]
# WELCOME_SIM overrides the command (default .venv/bin/welcome-sim).
set -euo pipefail
cd "$(dirname "$0")/.."
read -r -a ws <<< "${WELCOME_SIM:-.venv/bin/welcome-sim}"
games="${1:-5000}"
run() { "${ws[@]}" bench --games "$games" --repeat 3 --save-baseline "$@"; }
run -p 1 -p 4 -s random -s greedy
run --edition first -p 1 -p 4 -s random -s greedy
run --mode advanced -p 1 -s greedy
run --mode expert -p 2 -s greedy
run --mode solo -p 1 -s greedy
run --edition first --mode solo -p 1 -s greedy
for x in easter icecream christmas; do run --expansion "$x" -p 1 -s greedy; done
if [ "$(nproc)" -ge 2 ]; then run -p 1 -p 4 -s greedy --jobs 2; fi
