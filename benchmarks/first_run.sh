#!/usr/bin/env bash
# The first run on this machine, from a fresh clone (issue 43's first-run figures): the package
# install, ./run.sh after it, a cold `play --seed 1` (the base game's variant), then the whole
# kernel (`play --expansion zombies` in the same cache), and a million-game sweep. Run it on an
# idle machine; one run each. Usage: benchmarks/first_run.sh [REV] [OUTDIR]
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
rev=${1:-HEAD}; out=$(realpath -m "${2:-/tmp/first-run}")
mkdir -p "$out"; d=$(mktemp -d /tmp/first-run-clone.XXXX)
git clone -q "$here" "$d" && cd "$d" && git checkout -q "$rev" || exit 1
export XDG_CACHE_HOME=$d/.xdg-cache
start=$(date +%s)
scripts/venv.sh > "$out/venv.txt" 2>&1
inst=$(date +%s); echo "install $((inst - start)) s" | tee "$out/times.txt"
./run.sh > "$out/run.txt" 2>&1; rc=$?
echo "run.sh rc=$rc $(($(date +%s) - inst)) s after the install" | tee -a "$out/times.txt"
c=$(mktemp -d)
t() { /usr/bin/time -f "%e s wall, %U + %S s CPU" env XDG_CACHE_HOME="$c" "$@" > /dev/null 2> "$out/time.txt"; tail -1 "$out/time.txt"; }
echo "cold play --seed 1: $(t .venv/bin/welcome-sim play --seed 1)" | tee -a "$out/times.txt"
echo "then play --seed 1 --expansion zombies: $(t .venv/bin/welcome-sim play --seed 1 --expansion zombies)" | tee -a "$out/times.txt"
rm -rf "$c"
/usr/bin/time -f "%e s wall, %U + %S s CPU" .venv/bin/welcome-sim sweep --games 1000000 --seed 1 -o "$d/runs/million" \
    > "$out/million.txt" 2> "$out/million.time"
echo "sweep --games 1000000: $(tail -1 "$out/million.time")" | tee -a "$out/times.txt"
echo "clone left in $d (delete it when done); outputs in $out"
