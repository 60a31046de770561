"""Replay kernel games through the independent referee over a grid of rulesets and strategies.

Every game of every configuration is replayed move by move by the referee (welcome_sim/referee),
which re-scores the sheets; the script prints games checked and disagreements per configuration
and exits 1 on any disagreement. Use it after a rules change to check thousands of games:

    PYTHONPATH=. python scripts/referee_check.py --games 300
"""

from __future__ import annotations

import argparse
import itertools
import sys

from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.engine.game import game_seeds, simulate
from welcome_sim.simcore.rules.expansions import load_expansion
from welcome_sim.simcore.rules.expansions.compile import aaa_solo_only
from welcome_sim.simcore.rules.ruleset import load_ruleset
from welcome_sim.verify import check_batch

# (edition, mode, expansion, opponent, players): the rulesets issue 12 changed, and their neighbours.
CONFIGS = [
    *[("collector", m, "easter", None, n) for m, n in [("standard", 2), ("advanced", 1), ("expert", 3)]],
    *[("collector", "solo", x, lv, 1) for x in (None, "easter", "icecream") for lv in ("0", "3", "5")],
    *[("collector", m, None, None, n) for m, n in [("advanced", 1), ("advanced", 3), ("expert-advanced", 2)]],
    ("collector", "solo-advanced", None, "4", 1),
    *[("first", m, None, None, n) for m, n in [("standard", 1), ("standard", 3), ("advanced", 2)]],
    *[("first", m, None, None, n) for m, n in [("expert", 2), ("expert-advanced", 4), ("solo", 1)]],
    *[
        ("first", m, x, None, n)
        for x in ("easter", "icecream", "christmas")
        for m, n in [("standard", 2), ("advanced", 1), ("solo", 1), ("expert", 3)]
    ],
    # Roswell (Collector's: every mode and AAA level; first edition: no solo variant).
    *[
        ("collector", m, "roswell", lv, n)
        for m, lv, n in [
            ("standard", None, 1),
            ("standard", None, 3),
            ("advanced", None, 2),
            ("expert", None, 3),
            ("expert-advanced", None, 2),
            ("solo", "0", 1),
            ("solo", "1", 1),
            ("solo", "3", 1),
            ("solo", "5", 1),
            ("solo-advanced", "4", 1),
        ]
    ],
    *[("first", m, "roswell", None, n) for m, n in [("standard", 2), ("advanced", 1), ("expert", 3)]],
]
STRATEGIES = ["greedy", "random", "greedy:reshuffle=1"]


def expansion_grid(x: str) -> list[tuple]:
    """One expansion in every mode and player count band, both editions (--expansion)."""
    return [
        *[
            ("collector", m, x, None, n)
            for m, n in [("standard", 1), ("standard", 2), ("standard", 4), ("advanced", 1), ("advanced", 3)]
        ],
        *[("collector", m, x, None, n) for m, n in [("expert", 2), ("expert", 4), ("expert-advanced", 3)]],
        *[("collector", "solo", x, lv, 1) for lv in ("0", "1", "3", "5")],
        ("collector", "solo-advanced", x, "2", 1),
        *[
            ("first", m, x, None, n)
            for m, n in [("standard", 2), ("advanced", 1), ("expert", 3), ("solo", 1)]
        ],
    ]


def main() -> None:
    """Replay the grid; print one line per configuration and strategy."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300, help="games per configuration and strategy")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--nine", action="store_true", help="add the 9¾ cards")
    ap.add_argument("--expansion", help="replay this expansion's grid (every mode) instead of issue 12's")
    ap.add_argument("--strategies", default=",".join(STRATEGIES), help="comma-separated strategies")
    args = ap.parse_args()
    total = bad = 0
    grid = expansion_grid(args.expansion) if args.expansion else CONFIGS
    for (edition, mode, x, opp, n), strat in itertools.product(grid, args.strategies.split(",")):
        if strat.endswith("reshuffle=1") and edition != "first":
            continue
        if args.expansion is not None and x != args.expansion:
            continue
        if edition == "first" and mode.startswith("solo") and x and aaa_solo_only(load_expansion(x)):
            continue  # the rules' solo part is for the AAA (Zombie Outbreak, Roswell, Quack)
        try:
            rs = load_ruleset(edition, mode=mode, expansion=x, opponent=opp, nine=args.nine)
        except WelcomeSimError as exc:  # a mode the expansion's rules do not have (American Dream: Advanced)
            print(f"{edition} {mode} {x} opp={opp}: refused by the rules: {exc}", flush=True)
            continue
        res = simulate(rs, game_seeds(args.seed, args.games), n, [strat], log=True)
        problems = check_batch(res)
        total += args.games
        bad += len(problems)
        label = f"{edition} {mode} {x or 'base'} opp={opp} players={n} {strat}"
        print(f"{label}: {args.games} games, {len(problems)} disagreements", flush=True)
        for line in problems[:5]:
            print("   ", line)
    print(f"total: {total} games replayed, {bad} disagreements")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
