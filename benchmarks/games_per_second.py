"""Games per second of one configuration, best of 5 timed batches, CPU time, after compiling.

Run: python benchmarks/games_per_second.py STRATEGY PLAYERS MODE GAMES [EDITION [EXPANSION]]
(benchmarks/compare_trees.sh runs it for two source trees in turn.)
"""

from __future__ import annotations

import os
import sys
import time

import numpy as np

from welcome_sim.errors import WelcomeSimError

try:  # the floors (simcore/engine, simcore/rules); a tree from before them (f31d16a), as it was
    from welcome_sim.simcore.engine.game import game_seeds, simulate
    from welcome_sim.simcore.rules.ruleset import Ruleset, load_ruleset
except ModuleNotFoundError:
    from welcome_sim.simcore.game import game_seeds, simulate
    from welcome_sim.simcore.ruleset import Ruleset, load_ruleset


def variant() -> str | None:
    """The kernel variant to time (KERNEL_VARIANT=full or base_greedy); unset: simulate's pick."""
    return os.environ.get("KERNEL_VARIANT") or None


def variant_kw() -> dict:
    """simulate()'s variant argument when one is asked for: none otherwise, so that the trees of
    revisions before kernel variants (compare_trees.sh) run this script too."""
    return {"variant": variant()} if variant() else {}


def configuration(argv: list[str]) -> tuple[Ruleset, np.ndarray, int, str]:
    """(ruleset, seeds, players, strategy) from STRATEGY PLAYERS MODE GAMES [EDITION [EXPANSION]],
    after one small batch (the kernel compiled or loaded outside any timing)."""
    usage = "usage: STRATEGY PLAYERS MODE GAMES [EDITION [EXPANSION]], e.g. greedy 1 standard 800"
    if not 4 <= len(argv) <= 6 or not argv[1].isdigit() or not argv[3].isdigit() or int(argv[3]) < 1:
        raise SystemExit(f"{usage}; got {' '.join(argv) or 'nothing'}")
    strategy, players, mode, games = argv[0], int(argv[1]), argv[2], int(argv[3])
    edition = argv[4] if len(argv) > 4 else "collector"
    expansion = argv[5] if len(argv) > 5 and argv[5] != "none" else None
    try:
        rs = load_ruleset(edition, mode=mode, expansion=expansion)
        seeds = game_seeds(99, games)
        simulate(rs, seeds[:5], players, [strategy], **variant_kw())
    except WelcomeSimError as exc:
        raise SystemExit(f"error: {exc}") from None
    return rs, seeds, players, strategy


def main(argv: list[str]) -> None:
    """Print the best games/s of five batches of the same games."""
    rs, seeds, players, strategy = configuration(argv)
    best = float("inf")
    for _ in range(5):
        t0 = time.process_time()
        simulate(rs, seeds, players, [strategy], **variant_kw())
        best = min(best, time.process_time() - t0)
    rate = len(seeds) / best
    # The look-ahead plays a few games a second: whole games/s would hide a 10-times ratio's digits.
    print(f"{rate:.0f}" if rate >= 100 else f"{rate:.3f}")


if __name__ == "__main__":
    main(sys.argv[1:])
