"""Strategies against each other on common seeds: alone and at mixed tables."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from welcome_sim.simcore.engine.game import BatchResult, game_seeds, simulate
from welcome_sim.simcore.ground.layout import SCORE_COMPONENTS
from welcome_sim.simcore.rules.ruleset import Ruleset

COMPONENTS = SCORE_COMPONENTS


@dataclass(frozen=True)
class Row:
    """One strategy's results in one setting."""

    setting: str  # "alone" or "table of N"
    strategy: str
    games: int
    mean: float
    ci95: float  # half-width of the normal-approximation 95% interval of the mean
    win_rate: float | None  # share of games ranked first (shared first places count as wins)
    components: dict[str, float]
    games_per_second: float


def summarize(
    setting: str,
    label: str,
    scores: np.ndarray,
    ranks: np.ndarray | None,
    res: BatchResult,
    seat: int,
    gps: float,
) -> Row:
    """Mean, 95% CI, win rate and mean components of one seat over a batch."""
    n = len(scores)
    sd = float(scores.std(ddof=1)) if n > 1 else 0.0
    comps = {c: float(res.column(c)[:, seat].mean()) for c in COMPONENTS}
    win = None if ranks is None else float((ranks == 1).mean())
    return Row(setting, label, n, float(scores.mean()), 1.96 * sd / math.sqrt(max(n, 1)), win, comps, gps)


def _play(
    ruleset: Ruleset, seeds: np.ndarray, strategies: list[str], step: int, advance, jobs: int = 1
) -> tuple[BatchResult, float]:
    """Play in chunks over `jobs` processes (for progress); return the result and games per second."""
    import time

    from welcome_sim.simcore.engine.parallel import simulate_parallel

    simulate(ruleset, seeds[:2], len(strategies), strategies)  # compile or load the cache first
    t0 = time.perf_counter()
    res = simulate_parallel(ruleset, seeds, len(strategies), strategies, jobs, step, advance)
    return res, len(seeds) / (time.perf_counter() - t0)


def tournament(
    ruleset: Ruleset,
    strategies: list[str],
    games: int,
    seed: int,
    mixed: bool = True,
    advance: Callable[[int], None] | None = None,
    step: int = 2000,
    jobs: int = 1,
) -> list[Row]:
    """Each strategy alone on the same seeds, then all of them at one table on the same seeds.
    `advance(n)` is called after every n games played (for a progress bar); the games are split
    over `jobs` processes (-1: every core) with the same results as one."""
    from welcome_sim.simcore.ground.table import DEAL_AAA, DEAL_EXPERT, DEAL_SOLO_CARD

    seeds = game_seeds(seed, games)
    rows = []
    # Expert mode needs a table; the solo modes are played alone (against the AAA: wins count).
    alone = ruleset.deal != DEAL_EXPERT
    mixed = mixed and ruleset.deal not in (DEAL_AAA, DEAL_SOLO_CARD)
    versus_aaa = ruleset.deal == DEAL_AAA and ruleset.opponent is not None and ruleset.opponent.scores
    for label in strategies if alone else []:
        res, gps = _play(ruleset, seeds, [label], step, advance, jobs)
        ranks = res.column("rank")[:, 0] if versus_aaa else None
        setting = f"vs AAA level {ruleset.opponent.level}" if versus_aaa else "alone"
        rows.append(summarize(setting, label, res.column("total")[:, 0], ranks, res, 0, gps))
    if mixed and len(strategies) > 1:
        res, gps = _play(ruleset, seeds, strategies, step, advance, jobs)
        for seat, label in enumerate(strategies):
            rows.append(
                summarize(
                    f"table of {len(strategies)}",
                    label,
                    res.column("total")[:, seat],
                    res.column("rank")[:, seat],
                    res,
                    seat,
                    gps,
                )
            )
    return rows
