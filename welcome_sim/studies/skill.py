"""The skill ladder on common seeds: scores per level, deck luck against decision skill, and how
each plan's validation rate depends on skill.

Method of the luck/skill split (stated in every output that shows it): every level plays the same
G deals (game seeds: the same cards, plans and, at a table, every seat of the same level). y[g, l]
is the mean score of the seats of deal g at level l (one number per game, so the seats of one
deal are not counted as independent samples; at a table, each seat's own luck within the deal,
such as its hands in the hand modes, is averaged away with it). A two-way analysis of variance without replication
gives the mean squares of deals (MS_deal, G - 1 degrees of freedom), levels (MS_level, L - 1) and
the rest (MS_rest, (G - 1)(L - 1)), and from them the variance of one game's score as three
components (the usual method-of-moments estimates, negative values set to 0):
- luck, the deal: (MS_deal - MS_rest) / L, how much scores vary with the cards alone;
- skill, the level: (MS_level - MS_rest) / G, the variance of the levels' mean scores (the ladder's
  levels weighted equally);
- the rest: MS_rest, how differently the levels fare on the same deal plus each level's own
  decision noise (levels with noise draw it from the game's generator).
Shares are each component over their sum; their 95% intervals come from a bootstrap over deals.
The skill share depends on how far apart the ladder's levels are; for a player of a given level,
luck / (luck + rest) says how much of the spread of that player's scores the cards make (`within`).
(Raw sums of squares would not do: with L levels, pure noise puts about 1/L of them on the deals.)
Games past the deck's first pass (a reshuffled deck) depend on the moves, so late rounds of a
deal are only approximately common.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from welcome_sim.simcore.engine.game import BatchResult, game_seeds, simulate
from welcome_sim.simcore.rules.ruleset import Ruleset

SLOTS = ("a", "b", "c")
BOOTSTRAP = 400


@dataclass(frozen=True)
class Level:
    """One ladder level's results on the common deals."""

    name: str
    games: int
    players: int
    mean: float  # mean score of a seat
    ci95: float  # half-width, clustered by game (seats of one deal share it)
    winner_mean: float  # mean score of the table's winner (the seat itself when solo)
    winner_ci95: float
    plans: float  # plans validated per seat
    all_three: float  # share of seats validating all three plans
    games_per_second: float
    per_plan: dict[str, tuple[int, int]] = field(default_factory=dict)  # plan id -> (validated, seats)


@dataclass(frozen=True)
class Split:
    """The luck/skill split of the ladder's scores: shares of the three variance components."""

    luck: float
    skill: float
    rest: float
    luck_ci: tuple[float, float]
    skill_ci: tuple[float, float]
    rest_ci: tuple[float, float]
    within: float = 0.0  # luck / (luck + rest): the deal's share of the spread at one level
    within_ci: tuple[float, float] = (0.0, 0.0)


def _shares(y: np.ndarray) -> tuple[float, float, float]:
    """Luck (deal), skill (level) and remaining shares of one game's score variance, y[deal, level]."""
    g, lv = y.shape
    grand = y.mean()
    ss_deal = lv * float(((y.mean(axis=1) - grand) ** 2).sum())
    ss_level = g * float(((y.mean(axis=0) - grand) ** 2).sum())
    ss_rest = float(((y - grand) ** 2).sum()) - ss_deal - ss_level
    ms_rest = max(ss_rest, 0.0) / ((g - 1) * (lv - 1))
    luck = max(0.0, (ss_deal / (g - 1) - ms_rest) / lv)
    skill = max(0.0, (ss_level / (lv - 1) - ms_rest) / g)
    total = luck + skill + ms_rest
    if total == 0.0:
        return 0.0, 0.0, 0.0
    return luck / total, skill / total, ms_rest / total


def luck_skill_split(y: np.ndarray, seed: int = 0, rounds: int = BOOTSTRAP) -> Split:
    """Split y[deal, level] (see the module docstring) with bootstrap 95% intervals over deals."""
    if y.ndim != 2 or y.shape[0] < 2 or y.shape[1] < 2:
        raise ValueError(f"need at least 2 deals and 2 levels, got shape {y.shape}")
    point = _with_within(_shares(y))
    rng = np.random.default_rng(seed)
    boot = np.array(
        [_with_within(_shares(y[rng.integers(0, y.shape[0], y.shape[0])])) for _ in range(rounds)]
    )
    lo, hi = np.percentile(boot, 2.5, axis=0), np.percentile(boot, 97.5, axis=0)
    ci = [(float(lo[i]), float(hi[i])) for i in range(4)]
    return Split(*point[:3], *ci[:3], point[3], ci[3])


def _with_within(shares: tuple[float, float, float]) -> tuple[float, float, float, float]:
    """The three shares and luck's share of the spread left once the level is fixed."""
    luck, skill, rest = shares
    return luck, skill, rest, (luck / (luck + rest) if luck + rest > 0 else 0.0)


def clustered_ci(scores: np.ndarray) -> float:
    """95% half-width of the mean seat score, clustered by game: scores[game, seat]."""
    per_game = scores.mean(axis=1)
    n = len(per_game)
    return 1.96 * float(per_game.std(ddof=1)) / math.sqrt(n) if n > 1 else 0.0


def summarize_level(name: str, res: BatchResult, gps: float) -> Level:
    """A level's row from its batch."""
    tot = res.column("total").astype(np.float64)
    n, players = tot.shape
    winners = tot.max(axis=1)
    done = np.stack([res.column(f"plan_{s}_round") > 0 for s in SLOTS], axis=2)  # game, seat, slot
    per_plan: dict[str, tuple[int, int]] = {}
    ids = np.stack([res.game_column(f"plan_{s}_id") for s in SLOTS], axis=1)
    plans = res.ruleset.plans.plans
    for slot in range(3):
        for k in np.unique(ids[:, slot]):
            rows = ids[:, slot] == k
            pid = plans[int(k)].id
            v, t = per_plan.get(pid, (0, 0))
            per_plan[pid] = (v + int(done[rows, :, slot].sum()), t + int(rows.sum()) * players)
    sd_w = float(winners.std(ddof=1)) if n > 1 else 0.0
    return Level(
        name,
        n,
        players,
        float(tot.mean()),
        clustered_ci(tot),
        float(winners.mean()),
        1.96 * sd_w / math.sqrt(max(n, 1)),
        float(done.sum(axis=2).mean()),
        float(done.all(axis=2).mean()),
        gps,
        per_plan,
    )


def play_ladder(
    ruleset: Ruleset,
    levels: list[str],
    games: int,
    seed: int,
    players: int,
    jobs: int = 1,
    advance: Callable[[int], None] | None = None,
    step: int = 250,
) -> tuple[list[Level], Split, np.ndarray]:
    """Every level at a table of `players` seats of that level, on the same game seeds; their
    rows, the luck/skill split and y[deal, level] (the mean seat score of each game)."""
    from welcome_sim.simcore.engine.parallel import simulate_parallel

    seeds = game_seeds(seed, games)
    rows, cols = [], []
    for name in levels:
        simulate(ruleset, seeds[:1], players, [name] * players)  # compile or load the cache first
        t0 = time.perf_counter()
        res = simulate_parallel(ruleset, seeds, players, [name] * players, jobs, step, advance)
        rows.append(summarize_level(name, res, games / (time.perf_counter() - t0)))
        cols.append(res.column("total").mean(axis=1))
    y = np.stack(cols, axis=1).astype(np.float64)
    return rows, luck_skill_split(y, seed), y


def skill_plans(rows: list[Level], min_seats: int = 30) -> list[tuple[str, list[float], float]]:
    """Per plan in play: validation rate per level (levels in order) and the spread from the
    weakest to the strongest level; plans seen by fewer than min_seats seats are left out."""
    ids = sorted({pid for r in rows for pid in r.per_plan})
    out = []
    for pid in ids:
        rates = []
        for r in rows:
            v, t = r.per_plan.get(pid, (0, 0))
            rates.append(v / t if t else float("nan"))
        if min(r.per_plan.get(pid, (0, 0))[1] for r in rows) >= min_seats:
            out.append((pid, rates, rates[-1] - rates[0]))
    return sorted(out, key=lambda x: -x[2])


def monotone(names: list[str], y: np.ndarray) -> list[str]:
    """Adjacent levels whose mean score does not rise on the same deals (paired difference <= 0),
    each with its paired 95% interval: empty if the ladder is monotone."""
    bad = []
    for i in range(len(names) - 1):
        d = y[:, i + 1] - y[:, i]
        half = 1.96 * float(d.std(ddof=1)) / math.sqrt(len(d)) if len(d) > 1 else 0.0
        if d.mean() <= 0.0:
            bad.append(
                f"{names[i + 1]} scores {d.mean():+.2f} [{d.mean() - half:+.2f}, {d.mean() + half:+.2f}] "
                f"against {names[i]}"
            )
    return bad
