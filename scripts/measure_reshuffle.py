"""Does the first edition's reshuffle help greedy? Paired comparison of reshuffle policies.

First edition, standard mode, greedy at every seat with `reshuffle` = 0 (never), 1 (always) and
2 (when the cards left fit the sheet worse than the deck), on common seeds: games are identical
until the first validation. Prints the mean score at reshuffle=0 and, for each other policy, the
mean difference with a 95% interval (normal approximation over games; a game's difference is the
mean over its seats, since seats of one game are not independent).

    PYTHONPATH=. python scripts/measure_reshuffle.py --games 2000 --seed 12
"""

from __future__ import annotations

import argparse

import numpy as np

from welcome_sim.simcore.engine.game import game_seeds, simulate
from welcome_sim.simcore.rules.ruleset import load_ruleset


def main() -> None:
    """Print one table row per player count and policy."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--players", type=int, nargs="+", default=[1, 2, 3, 4])
    args = ap.parse_args()
    rs = load_ruleset("first", mode="standard")
    seeds = game_seeds(args.seed, args.games)
    print(
        "| players | never: mean score | always - never | smart (2) - never | offered and taken (always / smart) |"
    )
    print("| --- | --- | --- | --- | --- |")
    for n in args.players:
        res = {k: simulate(rs, seeds, n, [f"greedy:reshuffle={k}"], log=True) for k in (0, 1, 2)}
        base = res[0].column("total").astype(float)
        cells = [f"{base.mean():.2f} ± {1.96 * base.mean(axis=1).std(ddof=1) / np.sqrt(args.games):.2f}"]
        taken = []
        for k in (1, 2):
            d = (res[k].column("total") - res[0].column("total")).mean(axis=1)
            cells.append(f"{d.mean():+.2f} ± {1.96 * d.std(ddof=1) / np.sqrt(args.games):.2f}")
            taken.append(f"{int((res[k].log[:, 3] == 10).sum()) / args.games:.0%}")
        print(f"| {n} | " + " | ".join(cells) + f" | {' / '.join(taken)} |", flush=True)


if __name__ == "__main__":
    main()
