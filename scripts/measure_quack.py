"""Quack: greedy with its duckling valuation against greedy without it (`greedy:expansion=0`), paired
over the same deals; prints one line per table.

    PYTHONPATH=. python scripts/measure_quack.py --games 2000
"""

from __future__ import annotations

import argparse

import numpy as np

from welcome_sim.simcore.engine.game import game_seeds, simulate
from welcome_sim.simcore.rules.expansions.registry import OUT_COLUMNS
from welcome_sim.simcore.rules.ruleset import load_ruleset

TABLES = ((1, "standard", None), (3, "standard", None), (1, "solo", "3"))
OTHERS = ("greedy:expansion=0",)
POINTS = OUT_COLUMNS.index("expansion_points")


def main() -> None:
    """Mean score per seat of greedy and each simpler policy on the same deals, and their difference."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=2027)
    args = ap.parse_args()
    n = args.games
    for players, mode, opp in TABLES:
        rs = load_ruleset(mode=mode, expansion="quack", opponent=opp)
        seeds = game_seeds(args.seed, n)
        res = simulate(rs, seeds, players, ["greedy"]).out
        base = res[:, :, 0].mean(axis=1)
        for other in OTHERS:
            o_res = simulate(rs, seeds, players, [other]).out
            o = o_res[:, :, 0].mean(axis=1)
            d = base - o
            half = 1.96 * d.std(ddof=1) / np.sqrt(n)
            print(
                f"{players}p {mode} {opp or ''}: greedy {base.mean():.2f} vs {other} {o.mean():.2f}: "
                f"diff {d.mean():+.2f} +- {half:.2f} (paired, {n} games); Quack points "
                f"{res[:, :, POINTS].mean():.2f} vs {o_res[:, :, POINTS].mean():.2f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
