"""Roswell: greedy's own decisions (the objective it estimates, its Zoorg valuation) against fixed
policies, paired over the same deals; prints one line per table and policy.

    PYTHONPATH=. python scripts/measure_roswell.py --games 2000
"""

from __future__ import annotations

import argparse

import numpy as np

from welcome_sim.simcore.engine.game import game_seeds, simulate
from welcome_sim.simcore.rules.ruleset import load_ruleset

TABLES = ((1, "standard", None), (3, "standard", None), (1, "solo", "3"))
OTHERS = ("greedy:objective=1", "greedy:objective=3", "greedy:expansion=0")


def main() -> None:
    """Mean score per seat of greedy and each fixed policy on the same deals, and their difference."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=2027)
    args = ap.parse_args()
    n = args.games
    for players, mode, opp in TABLES:
        rs = load_ruleset(mode=mode, expansion="roswell", opponent=opp)
        seeds = game_seeds(args.seed, n)
        base = simulate(rs, seeds, players, ["greedy"]).out[:, :, 0].mean(axis=1)
        for other in OTHERS:
            o = simulate(rs, seeds, players, [other]).out[:, :, 0].mean(axis=1)
            d = base - o
            half = 1.96 * d.std(ddof=1) / np.sqrt(n)
            print(
                f"{players}p {mode} {opp or ''}: greedy {base.mean():.2f} vs {other} {o.mean():.2f}: "
                f"diff {d.mean():+.2f} +- {half:.2f} (paired, {n} games)",
                flush=True,
            )


if __name__ == "__main__":
    main()
