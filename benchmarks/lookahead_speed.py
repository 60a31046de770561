"""CPU seconds per game of look-ahead settings, side by side in one process: each round plays the
same GAMES deals with every strategy in turn (A B C A B C ...), so a shared machine's load falls
on every side alike; the ratio is the first strategy's CPU time over each one's.

Run: python benchmarks/lookahead_speed.py GAMES SEED ROUNDS REFERENCE OTHER [OTHER...] [--mode M]
e.g. python benchmarks/lookahead_speed.py 16 11 2 lookahead lookahead:look_race=1,look_tie=5,look_depth=5
Each round plays new deals (game_seeds(SEED, GAMES, start=round * GAMES)); the kernel is compiled
or loaded on one game first. CPU time (time.process_time) rather than wall time: on a machine
loaded beyond its cores the wall time of a run depends mostly on the others' load.
`welcome-sim bench --compare-rev` compares two revisions on one strategy; this compares settings
of one revision.
"""

from __future__ import annotations

import argparse
import time

from welcome_sim.simcore.engine.game import game_seeds, simulate
from welcome_sim.simcore.rules.ruleset import load_ruleset


def main() -> None:
    """Time every strategy round by round and print CPU seconds per game and the ratio."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", type=int)
    ap.add_argument("seed", type=int)
    ap.add_argument("rounds", type=int)
    ap.add_argument("strategies", nargs="+", help="the first is the reference")
    ap.add_argument("--mode", default="standard")
    a = ap.parse_args()
    rs = load_ruleset("collector", mode=a.mode)
    for s in a.strategies:
        simulate(rs, game_seeds(a.seed + 1, 1), 1, [s])  # compile or load; the strategy is checked
    spent = dict.fromkeys(a.strategies, 0.0)
    for r in range(a.rounds):
        seeds = game_seeds(a.seed, a.games, start=r * a.games)
        for s in a.strategies:
            t0 = time.process_time()
            simulate(rs, seeds, 1, [s])
            spent[s] += time.process_time() - t0
    ref = spent[a.strategies[0]]
    print(f"{a.games} x {a.rounds} deals, seed {a.seed}, mode {a.mode}, 1 player, one process")
    for s in a.strategies:
        per = spent[s] / (a.games * a.rounds)
        print(f"{s:80s} CPU s/game {per:7.3f}  speed ratio {ref / spent[s]:6.2f}", flush=True)


if __name__ == "__main__":
    main()
