"""How well a base game and the same game with a deck-changing variant (the 9¾ cards, Zombie
Outbreak) pair on one seed (issue 38, "Fair pairings"): the per-game correlation r of the final
score, and the width of the paired against the independent 95% interval of the variant's effect
on the mean score.

    XDG_CACHE_HOME=.xdg-cache .venv/bin/python scripts/measure_pairing.py --games 2000 --seed 1
    XDG_CACHE_HOME=.xdg-cache .venv/bin/python scripts/measure_pairing.py --variant zombies
"""

from __future__ import annotations

import argparse

import numpy as np

from welcome_sim.simcore.engine.game import game_seeds, simulate
from welcome_sim.simcore.rules.expansions.registry import OUT_COLUMNS
from welcome_sim.simcore.rules.ruleset import load_ruleset

# Per variant, (label, edition, mode, players): for the 9¾ cards the stack deal, the expert deck,
# the AAA and the solo card; for Zombie Outbreak its two stacks at 1, 2 and 4 players, its expert
# deck and its AAA deck.
CONFIGS = {
    "nine": [
        ("collector standard 1p", "collector", "standard", 1),
        ("collector expert 2p", "collector", "expert", 2),
        ("collector solo (AAA) 1p", "collector", "solo", 1),
        ("first solo (solo card) 1p", "first", "solo", 1),
    ],
    "zombies": [
        ("zombies standard 1p", "collector", "standard", 1),
        ("zombies standard 2p", "collector", "standard", 2),
        ("zombies standard 4p", "collector", "standard", 4),
        ("zombies expert 2p", "collector", "expert", 2),
        ("zombies solo (AAA) 1p", "collector", "solo", 1),
    ],
}
VARIANT_ARGS = {"nine": {"nine": True}, "zombies": {"expansion": "zombies"}}
Z95 = 1.959964


def pairing(
    edition: str, mode: str, players: int, games: int, seed: int, strategy: str, variant: str
) -> tuple:
    """(r, paired width, independent width, mean effect) of the variant on seat 0's final score."""
    seeds = game_seeds(seed, games)
    col = OUT_COLUMNS.index("total")
    scores = []
    for extra in ({}, VARIANT_ARGS[variant]):
        rs = load_ruleset(edition, mode=mode, **extra)
        res = simulate(rs, seeds, players, [strategy])
        scores.append(res.out[:, 0, col].astype(float))
    a, b = scores
    r = float(np.corrcoef(a, b)[0, 1])
    paired = 2 * Z95 * np.std(b - a, ddof=1) / np.sqrt(games)
    indep = 2 * Z95 * np.sqrt((np.var(a, ddof=1) + np.var(b, ddof=1)) / games)
    return r, paired, indep, float(np.mean(b - a))


def main() -> None:
    """Print one line per configuration."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--strategy", default="greedy")
    ap.add_argument("--variant", choices=sorted(CONFIGS), default="nine")
    args = ap.parse_args()
    print(
        f"{args.games} games, seed {args.seed}, {args.strategy}; seat 0's final score, base vs {args.variant}"
    )
    for label, edition, mode, players in CONFIGS[args.variant]:
        r, paired, indep, effect = pairing(
            edition, mode, players, args.games, args.seed, args.strategy, args.variant
        )
        print(
            f"{label:28s} r={r:+.3f}  effect {effect:+.2f}  95% width paired {paired:.2f}"
            f" / independent {indep:.2f} (ratio {paired / indep:.2f})",
            flush=True,
        )


if __name__ == "__main__":
    main()
