"""Per expansion Plan C card: how often greedy validates it, and its mean score, in two source trees
on the same deals (each card forced into the C slot, A and B drawn at random once for both trees).

Each tree plays in its own process (PYTHONPATH=TREE, XDG_CACHE_HOME=TREE/.xdg-cache), as in
strength.py; the difference new - old is taken per game (paired) with its 95% interval.

    .venv/bin/python benchmarks/plan_goals.py /tmp/old . 1000 [SEED] [EXPANSION ...]

Standard mode, one player, greedy (env GOALS_OLD_STRATEGY / GOALS_NEW_STRATEGY name another
strategy string, e.g. greedy:plan=0.8, for each tree); game seeds 0..GAMES-1 of SEED (default 11) per card.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np


def _plans(rs, games: int, seed: int, card: int) -> np.ndarray:
    """Games x 3 plan indices: A and B at random (from the seed and card), C the card."""
    rng = np.random.default_rng([seed, card])
    plans = rs.plans.plans
    out = np.empty((games, 3), dtype=np.int64)
    for slot in range(2):
        ks = [k for k, p in enumerate(plans) if p.slot == slot]
        out[:, slot] = rng.choice(ks, size=games)
    out[:, 2] = card
    return out


def _child(dest: str, games: int, seed: int, strategy: str, expansions: list[str]) -> None:
    """Per expansion C card: validated (0/1) and total score per game, saved under 'x:id'."""
    from welcome_sim.simcore.engine.game import game_seeds, simulate
    from welcome_sim.simcore.rules.ruleset import load_ruleset

    res = {}
    for x in expansions:
        rs = load_ruleset("collector", mode="standard", expansion=x)
        for k, plan in enumerate(rs.plans.plans):
            if plan.slot != 2:
                continue
            r = simulate(
                rs, game_seeds(seed, games), 1, [strategy], plans_per_game=_plans(rs, games, seed, k)
            )
            ok = (r.column("plan_c_round")[:, 0] > 0).astype(np.float64)
            res[f"{x}:{plan.id}:ok"] = ok
            res[f"{x}:{plan.id}:total"] = r.column("total")[:, 0].astype(np.float64)
    np.savez(dest, **res)


def _run_tree(tree: Path, games: int, seed: int, strategy: str, expansions: list[str]) -> dict:
    """Start this script in TREE's own process and read back its results."""
    with tempfile.TemporaryDirectory() as tmp:
        dest = Path(tmp) / "goals.npz"
        env = {**os.environ, "PYTHONPATH": str(tree), "XDG_CACHE_HOME": str(tree / ".xdg-cache")}
        cmd = [sys.executable, __file__, "--child", str(dest), str(games), str(seed), strategy, *expansions]
        subprocess.run(cmd, env=env, check=True)
        with np.load(dest) as data:
            return {k: data[k] for k in data.files}


def _ci(d: np.ndarray) -> str:
    """Mean of d with its 95% interval."""
    half = 1.96 * d.std(ddof=1) / np.sqrt(d.size)
    return f"{d.mean():+6.2f} [{d.mean() - half:+.2f}, {d.mean() + half:+.2f}]"


def main(argv: list[str]) -> None:
    """Print per card both validation rates and mean scores, with the paired score difference."""
    if argv and argv[0] == "--child":
        _child(argv[1], int(argv[2]), int(argv[3]), argv[4], argv[5:])
        return
    if len(argv) < 3 or not argv[2].isdigit():
        raise SystemExit("usage: plan_goals.py OLD_TREE NEW_TREE GAMES [SEED] [EXPANSION ...]")
    old, new, games = Path(argv[0]).resolve(), Path(argv[1]).resolve(), int(argv[2])
    rest = argv[3:]
    seed = int(rest.pop(0)) if rest and rest[0].isdigit() else 11
    if not rest:
        from welcome_sim.simcore.rules.expansions.registry import NAMES

        rest = list(NAMES)
    old_strategy = os.environ.get("GOALS_OLD_STRATEGY", "greedy")
    new_strategy = os.environ.get("GOALS_NEW_STRATEGY", "greedy")
    a = _run_tree(old, games, seed, old_strategy, rest)
    b = _run_tree(new, games, seed, new_strategy, rest)
    print(
        f"{old_strategy} -> {new_strategy}, standard, 1 player, {games} games per card (seed {seed}), C card forced"
    )
    print(f"{'card':<22} {'valid old':>9} {'valid new':>9} {'score old':>9} {'score new':>9}  new-old (95%)")
    keys = sorted({k.rsplit(":", 1)[0] for k in a}, key=lambda k: list(a).index(k + ":ok"))
    for key in keys:
        ok_a, ok_b = a[key + ":ok"], b[key + ":ok"]
        t_a, t_b = a[key + ":total"], b[key + ":total"]
        print(
            f"{key:<22} {100 * ok_a.mean():8.1f}% {100 * ok_b.mean():8.1f}% {t_a.mean():9.2f} {t_b.mean():9.2f}"
            f"  {_ci(t_b - t_a)}"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
