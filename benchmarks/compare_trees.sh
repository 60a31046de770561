#!/usr/bin/env bash
# Speed of two source trees side by side: alternates OLD and NEW ROUNDS times, each a fresh
# process that plays the same games (best of 5 timed batches, CPU time, after compiling), and
# prints both games/s and their ratio. Make OLD with `git worktree add /tmp/old REV`.
# Usage: benchmarks/compare_trees.sh OLD_TREE NEW_TREE ROUNDS STRATEGY PLAYERS MODE GAMES [EDITION [EXPANSION]]
set -euo pipefail
old=$1 new=$2 rounds=$3
shift 3
py="$(cd "$(dirname "$0")/.." && pwd)/.venv/bin/python"
here="$(cd "$(dirname "$0")" && pwd)"
for _ in $(seq "$rounds"); do
    a=$(PYTHONPATH="$old" "$py" "$here/games_per_second.py" "$@")
    b=$(PYTHONPATH="$new" "$py" "$here/games_per_second.py" "$@")
    echo "$* | old $a new $b ratio $("$py" -c "print(round($b / $a, 2))")"
done
