"""Kernel speed: random-player games per second for 1 and 4 players, one core, after compilation.

Run: .venv/bin/python benchmarks/bench_kernel.py [games]   (or: welcome-sim bench)
"""

from __future__ import annotations

import sys
import time

from welcome_sim.simcore.engine.game import game_seeds, simulate
from welcome_sim.simcore.rules.ruleset import load_ruleset


def main(games: int = 100_000) -> None:
    """Print games per second for each edition, strategy and player count."""
    seeds = game_seeds(2026, games)
    for edition in ("collector", "first"):
        rs = load_ruleset(edition)
        for strategy in ("random", "first-fit", "spread"):
            for players in (1, 4):
                simulate(rs, seeds[:10], players, [strategy])  # compile or load the cache
                best = min(_timed(rs, seeds, players, strategy) for _ in range(3))
                print(f"{edition:9} {strategy:9} {players} players: {games / best:10,.0f} games/s")


def _timed(rs, seeds, players: int, strategy: str) -> float:
    t0 = time.perf_counter()
    simulate(rs, seeds, players, [strategy])
    return time.perf_counter() - t0


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100_000)
