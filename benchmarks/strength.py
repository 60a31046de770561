"""Paired strength of a strategy between two source trees: the same deals, mean score difference.

Each tree plays in its own process (PYTHONPATH=TREE, XDG_CACHE_HOME=TREE/.xdg-cache unless
STRENGTH_CACHE_OLD / STRENGTH_CACHE_NEW name another), the same game seeds in each
configuration; the difference new - old is taken per game (the same deal, shuffles and plans),
with its 95% interval (mean +- 1.96 sd / sqrt(n)); the half-width two independent samples of the
same sizes would give is printed beside it (pairing helps only where it is narrower).

Make OLD with `git archive REV | tar -x -C /tmp/old` (a worktree of its own works too):

    .venv/bin/python benchmarks/strength.py /tmp/old . 10000
    .venv/bin/python benchmarks/strength.py /tmp/old . 10000 standard solo x:easter

Configurations (default: all of them): standard, advanced, expert (two players, their mean score
per game: the mode needs a neighbour), solo (the AAA Opponent, level 0), and x:NAME for each
expansion in standard mode; one player otherwise. STRATEGY (env STRENGTH_STRATEGY) is greedy
unless named.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np


def _configs() -> list[str]:
    """Every configuration: the modes, then each expansion the records declare (in the parent only:
    a child may run an older tree without the records)."""
    from welcome_sim.simcore.rules.expansions.registry import NAMES

    return ["standard", "advanced", "expert", "solo", *(f"x:{x}" for x in NAMES)]


def _scores(configs: list[str], games: int, strategy: str) -> dict[str, np.ndarray]:
    """Mean score per game of each configuration in this process's tree, seeds 0..games-1 of 99."""
    try:  # the floors (simcore/engine, simcore/rules); a tree from before them (f31d16a)
        from welcome_sim.simcore.engine.game import game_seeds, simulate
        from welcome_sim.simcore.rules.ruleset import load_ruleset
    except ModuleNotFoundError:
        from welcome_sim.simcore.game import game_seeds, simulate
        from welcome_sim.simcore.ruleset import load_ruleset
    out = {}
    for config in configs:
        mode, expansion = ("standard", config[2:]) if config.startswith("x:") else (config, None)
        rs = load_ruleset("collector", mode=mode, expansion=expansion)
        players = 2 if mode == "expert" else 1  # the expert mode passes a card to a neighbour
        result = simulate(rs, game_seeds(99, games), players, [strategy])
        out[config] = result.column("total").mean(axis=1).astype(np.float64)
    return out


def _run_tree(tree: Path, cache: str, configs: list[str], games: int, strategy: str) -> dict:
    """Start this script in TREE's own process and read back its scores."""
    with tempfile.TemporaryDirectory() as tmp:
        dest = Path(tmp) / "scores.npz"
        env = {**os.environ, "PYTHONPATH": str(tree), "XDG_CACHE_HOME": cache}
        cmd = [sys.executable, __file__, "--child", str(dest), str(games), strategy, *configs]
        subprocess.run(cmd, env=env, check=True)
        with np.load(dest) as data:
            return {k: data[k] for k in data.files}


def main(argv: list[str]) -> None:
    """Print per configuration both means and the paired difference new - old with its interval."""
    if argv and argv[0] == "--child":
        dest, games, strategy, configs = argv[1], int(argv[2]), argv[3], argv[4:]
        np.savez(dest, **_scores(configs, games, strategy))
        return
    if len(argv) < 3 or not argv[2].isdigit():
        raise SystemExit("usage: strength.py OLD_TREE NEW_TREE GAMES [CONFIG ...]")
    old, new, games = Path(argv[0]).resolve(), Path(argv[1]).resolve(), int(argv[2])
    known = _configs()
    configs = argv[3:] or known
    unknown = [c for c in configs if c not in known]
    if unknown:
        raise SystemExit(f"unknown configuration {unknown[0]!r}; known: {', '.join(known)}")
    strategy = os.environ.get("STRENGTH_STRATEGY", "greedy")
    a = _run_tree(
        old, os.environ.get("STRENGTH_CACHE_OLD", str(old / ".xdg-cache")), configs, games, strategy
    )
    b = _run_tree(
        new, os.environ.get("STRENGTH_CACHE_NEW", str(new / ".xdg-cache")), configs, games, strategy
    )
    print(f"{strategy}, {games} paired games per configuration (seed 99)")
    print(
        f"{'configuration':<20} {'old':>8} {'new':>8} {'new-old':>8} {'95% interval':>18} {'unpaired +-':>12}"
    )
    for config in configs:
        d = b[config] - a[config]
        half = 1.96 * d.std(ddof=1) / np.sqrt(d.size)
        unpaired = 1.96 * np.sqrt((a[config].var(ddof=1) + b[config].var(ddof=1)) / d.size)
        interval = f"[{d.mean() - half:+.2f}, {d.mean() + half:+.2f}]"
        means = f"{a[config].mean():8.2f} {b[config].mean():8.2f} {d.mean():+8.2f}"
        print(f"{config:<20} {means} {interval:>18} {unpaired:12.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
