#!/usr/bin/env bash
# The main job on a small default, from a fresh clone: install, a short sweep into a Parquet
# dataset, one game shown move by move (checked by the referee), the difficulty ranking, kernel
# speed, and the HTML balance report of the sweep. Output: runs/demo/ (report: runs/demo/report.html).
set -euo pipefail
cd "$(dirname "$0")"
scripts/venv.sh
# Compile the kernel once now (it says so, with the time it takes), so no later step's progress
# bar or games/s counts compiling. Its two variants compile at once, one process per core.
.venv/bin/welcome-sim warmup
mkdir -p runs/demo
.venv/bin/welcome-sim data
# A short sweep; run again, it finishes an interrupted one or finds it complete.
resume=()
if [ -f runs/demo/modes/manifest.json ]; then resume=(--resume); fi
# Standard games at 1-4 players, and the AAA solo mode against each Opponent card (1 player).
.venv/bin/welcome-sim sweep --games 2000 --players 1-4 --mode standard --mode solo --opponent 0-5 \
    --strategy greedy --seed 1 --out runs/demo/modes "${resume[@]}"
# Each expansion against the base game, with and without the 9¾ cards (1 player).
resume=()
if [ -f runs/demo/expansions/manifest.json ]; then resume=(--resume); fi
# Every expansion the records declare (welcome_sim/simcore/rules/expansions/registry.py), in their order.
expansions=$(.venv/bin/python -c 'from welcome_sim.simcore.rules.expansions.registry import NAMES; print(",".join(NAMES))')
.venv/bin/welcome-sim sweep --games 1000 --players 1 --expansion "none,$expansions" \
    --nine-three-quarters both --strategy greedy --seed 1 --out runs/demo/expansions "${resume[@]}"
.venv/bin/welcome-sim play --seed 1 --players 2 --strategy greedy --strategy plan-rusher | tee runs/demo/game.txt
.venv/bin/welcome-sim bench --games 5000 --repeat 1 --players 1 --players 4 --strategy random --strategy greedy \
    | tee runs/demo/bench.txt
# Every sheet, expansion, mode and the 9¾ cards ranked by difficulty, beside the publisher's stars.
.venv/bin/welcome-sim difficulty --games 1000 --seed 1 | tee runs/demo/difficulty.txt
.venv/bin/welcome-sim report runs/demo/modes runs/demo/expansions -o runs/demo/report.html
echo "wrote runs/demo/report.html (open it in a browser), runs/demo/modes and runs/demo/expansions (Parquet + manifest.json),"
echo "      runs/demo/game.txt, runs/demo/difficulty.txt and runs/demo/bench.txt"
