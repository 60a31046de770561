#!/usr/bin/env bash
# Speed of two source trees side by side: alternates OLD and NEW ROUNDS times, each a fresh
# process that plays the same games (best of 5 timed batches, CPU time, after compiling), and
# prints both games/s and their ratio. Make OLD with `git archive REV | tar -x -C /tmp/old`.
# A tree with a `.xdg-cache` folder compiles into it (XDG_CACHE_HOME per tree, so one tree's
# compile never replaces the other's); otherwise the inherited XDG_CACHE_HOME is used.
# Usage: benchmarks/compare_trees.sh OLD_TREE NEW_TREE ROUNDS STRATEGY PLAYERS MODE GAMES [EDITION [EXPANSION]]
set -euo pipefail
old=$1 new=$2 rounds=$3
shift 3
py="$(cd "$(dirname "$0")/.." && pwd)/.venv/bin/python"
here="$(cd "$(dirname "$0")" && pwd)"
cache_of() {
    if [ -d "$1/.xdg-cache" ]; then echo "$1/.xdg-cache"; else echo "${XDG_CACHE_HOME:-$HOME/.cache}"; fi
}
run() {
    local tree=$1
    shift
    (cd /tmp && PYTHONPATH="$tree" XDG_CACHE_HOME="$(cache_of "$tree")" "$py" "$here/games_per_second.py" "$@")
}
for _ in $(seq "$rounds"); do
    a=$(run "$old" "$@")
    b=$(run "$new" "$@")
    echo "$* | old $a new $b ratio $("$py" -c "print(round($b / $a, 2))")"
done
