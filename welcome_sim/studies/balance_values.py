"""Expansion values balanced: one or two values of an expansion's data file (--vary paths, such as
the Zombie Outbreak's `expansion.zombies.start_ammunition`) moved until the points the expansion
costs a player hit a target.

The measure is the points lost: the base game's net score minus the expansion's (net of the
expansion's own points, `total - expansion_points`, as the difficulty index's net score component
counts it), each a deal's mean over its seats, paired by deal (the base game and every candidate
play the same game seeds). The target is a number of points, or the points another expansion loses
on the same deals (`like`: a star level's member, e.g. Roswell for two stars), or the band the
points lost by several expansions span on the same deals (a star level's band: the difficulty index
with the reference level alone is the net score component, the points lost over the base game's
spread, so the band in points lost is the band of that index; the command names the expansions).

Search: Optuna over the candidate values (each path's listed values; the grid of two), on common
random numbers: when the budget covers the grid, its brute-force sampler plays every candidate once;
otherwise TPE samples them. The proposal is then played again, with today's values and the base game,
on fresh seeds, and reported with its interval.
"""

from __future__ import annotations

import math
import tomllib
import warnings
from collections.abc import Callable
from dataclasses import dataclass, replace
from itertools import product
from pathlib import Path
from typing import Any

import numpy as np

from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.engine.game import BatchResult, game_seeds
from welcome_sim.simcore.engine.parallel import simulate_parallel
from welcome_sim.simcore.rules.rulespec import RulesetSpec

LOSS_MISS, LOSS_STEP = 10.0, 0.1  # a point of miss beyond the tolerance outweighs any move


@dataclass(frozen=True)
class Lost:
    """Points lost against the base game on some deals: mean, 95% half-width, per-deal values."""

    mean: float
    ci95: float
    per_deal: np.ndarray


@dataclass(frozen=True)
class ValueProposal:
    """The values proposed for each path, today's (where the file has them), the target, and the
    points lost by today's and the proposed values on fresh deals."""

    paths: tuple[str, ...]
    today: tuple[str, ...] | None
    proposed: tuple[str, ...]
    target: float  # the middle of the band
    target_ci: float  # 0 for a number given; the like-expansion's interval on the search deals
    searched: dict[tuple[str, ...], float]  # candidate -> points lost on the search deals
    before: Lost | None  # today's values, fresh deals
    after: Lost  # the proposal, fresh deals
    difference: Lost | None  # after - before, paired by deal
    band: tuple[float, float] = (math.nan, math.nan)  # the target's low and high (equal for one figure)
    marks: dict[str, float] | None = None  # the band's expansions -> points lost on the search deals

    def miss(self, lost: float) -> float:
        """How far points lost lie outside the target band (0 inside it)."""
        return max(0.0, self.band[0] - lost, lost - self.band[1])

    def off(self, lost: float) -> float:
        """Signed distance of points lost from the band's nearer edge: + above it, - below, 0 inside."""
        return max(0.0, lost - self.band[1]) - max(0.0, self.band[0] - lost)


def net_per_deal(res: BatchResult) -> np.ndarray:
    """Each deal's mean seat score net of the expansion's own points."""
    net = res.column("total") - res.column("expansion_points")
    return net.astype(np.float64).mean(axis=1)


def _lost(base: np.ndarray, item: np.ndarray) -> Lost:
    d = base - item
    half = 1.96 * float(d.std(ddof=1)) / math.sqrt(len(d)) if len(d) > 1 else float("inf")
    return Lost(float(d.mean()), half, d)


def today_value(spec: RulesetSpec, o: Any) -> str | None:
    """The value an override's path names in the expansion's file as it is (overrides.current; None
    when the file does not hold it: the search then has no today's value to stay near)."""
    from welcome_sim.simcore.rules.overrides import current

    rs = spec.load()
    if rs.expansion is None:
        return None
    data = tomllib.loads(Path(rs.expansion.path).read_text(encoding="utf-8"))
    return current(o, data, rs.expansion.section)


def balance_values(
    spec: RulesetSpec,
    axes: list[tuple[Any, ...]],
    players: int,
    level: str,
    games: int,
    check_games: int,
    budget: int,
    seed: int,
    tolerance: float,
    points: float | None = None,
    like: str | tuple[str, ...] | None = None,
    jobs: int = 1,
    advance: Callable[[int], None] | None = None,
) -> ValueProposal:
    """Search the axes' values (each a tuple of overrides.Override of one path) whose points lost
    meet the target within the tolerance, nearest today's values; check it on fresh deals. `like`
    several expansions: the target is the band their points lost span."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    if (points is None) == (like is None):
        raise WelcomeSimError("--points-lost, --like: give one target, a number of points or an expansion")
    paths = tuple(axis[0].path for axis in axes)
    base = replace(spec, expansion=None, overrides=(), mode="standard", nine=False, sheet=None)
    seeds = game_seeds(seed, games)
    lvl = [level] * players

    def net(s: RulesetSpec, on: np.ndarray) -> np.ndarray:
        return net_per_deal(simulate_parallel(s.load(), on, players, lvl, jobs, advance=advance))

    base_net = net(base, seeds)
    target_ci = 0.0
    marks: dict[str, float] | None = None
    if like is not None:
        likes = (like,) if isinstance(like, str) else tuple(like)
        lost = {n: _lost(base_net, net(replace(spec, expansion=n, overrides=()), seeds)) for n in likes}
        marks = {n: m.mean for n, m in lost.items()}
        band = (min(marks.values()), max(marks.values()))
        points = (band[0] + band[1]) / 2
        target_ci = lost[likes[0]].ci95 if len(likes) == 1 else 0.0
    else:
        band = (float(points), float(points))
    today = tuple(today_value(spec, axis[0]) for axis in axes)
    known = None if any(v is None for v in today) else today
    cells = list(product(*axes))
    searched: dict[tuple[str, ...], float] = {}

    def loss(cell: tuple[Any, ...]) -> float:
        values = tuple(o.value for o in cell)
        if values not in searched:
            searched[values] = _lost(base_net, net(replace(spec, overrides=tuple(cell)), seeds)).mean
        miss = max(0.0, band[0] - searched[values], searched[values] - band[1]) - tolerance
        miss = max(0.0, miss)
        steps = (
            0
            if known is None
            else sum(_steps(axis, v, t) for axis, v, t in zip(axes, values, known, strict=True))
        )
        return LOSS_MISS * miss + LOSS_STEP * steps

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Optuna marks its brute-force sampler experimental
        if budget >= len(cells):
            sampler: Any = optuna.samplers.BruteForceSampler(seed=seed)
        else:
            sampler = optuna.samplers.TPESampler(seed=seed, n_startup_trials=min(4, budget))
    study = optuna.create_study(direction="minimize", sampler=sampler)
    names = [f"v{i}" for i in range(len(axes))]

    def objective(trial: Any) -> float:
        pick = [
            trial.suggest_categorical(n, [o.value for o in axis]) for n, axis in zip(names, axes, strict=True)
        ]
        return loss(tuple(next(o for o in axis if o.value == v) for axis, v in zip(axes, pick, strict=True)))

    study.optimize(objective, n_trials=min(budget, len(cells)))
    best = tuple(study.best_params[n] for n in names)
    fresh = game_seeds(seed, check_games, start=games)
    fresh_base = net(base, fresh)
    pick = tuple(next(o for o in axis if o.value == v) for axis, v in zip(axes, best, strict=True))
    after_net = net(replace(spec, overrides=pick), fresh)
    after = _lost(fresh_base, after_net)
    before = diff = None
    if known is not None:
        before_net = net(replace(spec, overrides=()), fresh)
        before = _lost(fresh_base, before_net)
        diff = _lost(before_net, after_net)  # (base - after) - (base - before): after's minus today's
    return ValueProposal(
        paths, known, best, float(points), target_ci, searched, before, after, diff, band, marks
    )


def _steps(axis: tuple[Any, ...], value: str, today: str) -> int:
    """How far a value is from today's, in the axis's own steps (today's not listed: its distance
    in whole numbers where both are numbers, else 1 for any change)."""
    values = [o.value for o in axis]
    if today in values:
        return abs(values.index(value) - values.index(today))
    try:
        return abs(int(value) - int(today))
    except ValueError:
        return int(value != today)
