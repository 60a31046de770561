"""Games per second of one configuration, best of 5 timed batches, CPU time, after compiling.

Run: python benchmarks/games_per_second.py STRATEGY PLAYERS MODE GAMES [EDITION [EXPANSION]]
(benchmarks/compare_trees.sh runs it for two source trees in turn.)
"""

from __future__ import annotations

import sys
import time

from welcome_sim.simcore.game import game_seeds, simulate
from welcome_sim.simcore.ruleset import load_ruleset


def main(argv: list[str]) -> None:
    """Print the best games/s of five batches of the same games."""
    strategy, players, mode, games = argv[0], int(argv[1]), argv[2], int(argv[3])
    edition = argv[4] if len(argv) > 4 else "collector"
    expansion = argv[5] if len(argv) > 5 and argv[5] != "none" else None
    rs = load_ruleset(edition, mode=mode, expansion=expansion)
    seeds = game_seeds(99, games)
    simulate(rs, seeds[:5], players, [strategy])  # compile or load the cache outside the timing
    best = float("inf")
    for _ in range(5):
        t0 = time.process_time()
        simulate(rs, seeds, players, [strategy])
        best = min(best, time.process_time() - t0)
    print(f"{games / best:.0f}")


if __name__ == "__main__":
    main(sys.argv[1:])
