#!/usr/bin/env bash
# The main job on a small default, from a fresh clone: install, play and show one game (checked
# move by move by the referee), then measure kernel speed. Output also goes to runs/demo/.
set -euo pipefail
cd "$(dirname "$0")"
scripts/venv.sh
mkdir -p runs/demo
.venv/bin/welcome-sim data
.venv/bin/welcome-sim play --seed 1 --players 2 --strategy greedy --strategy plan-rusher | tee runs/demo/game.txt
.venv/bin/welcome-sim bench --games 5000 --repeat 1 --players 1 --players 4 --strategy random --strategy greedy \
    | tee runs/demo/bench.txt
echo "wrote runs/demo/game.txt and runs/demo/bench.txt"
