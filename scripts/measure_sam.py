"""The AAA at level 1 (Sam) against greedy, Classic and Blueprint sheets: the player's and the AAA's
mean score and the player's win rate, with 95% intervals.

Issue 37 ran it with Sam's published card (pool 1) and, on the same seeds, with the reconstructed
pool 0 of before (data/opponents/collector.toml's `pool` under `name = "sam"` set to 0 for that run).
Run: .venv/bin/python scripts/measure_sam.py --games 4000 --seed 1
"""

from __future__ import annotations

import argparse

import numpy as np

from welcome_sim.simcore.engine.game import game_seeds, simulate
from welcome_sim.simcore.rules.ruleset import load_ruleset


def main() -> None:
    """Print one line per sheet."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    for sheet in ("classic", "blueprint"):
        rs = load_ruleset("collector", sheet, mode="solo", opponent="sam")
        res = simulate(rs, game_seeds(args.seed, args.games), 1, ["greedy"])
        me = res.column("total")[:, 0].astype(float)
        aaa = res.game_column("aaa_total").astype(float)
        win = (res.column("rank")[:, 0] == 1).astype(float)

        def ci(x: np.ndarray) -> float:
            return 1.96 * x.std(ddof=1) / np.sqrt(len(x))

        print(
            f"{sheet}: {args.games} games, seed {args.seed}: player {me.mean():.2f} ± {ci(me):.2f}, "
            f"AAA {aaa.mean():.2f} ± {ci(aaa):.2f}, player wins {100 * win.mean():.1f}% ± {100 * ci(win):.1f}"
        )


if __name__ == "__main__":
    main()
