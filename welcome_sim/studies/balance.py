"""Plan-card balance, the measuring half: which cards are balanced, how their games are dealt,
a card set with other scores, and each card's validation rates and expected points with intervals.

A card's expected points at a level are the mean points it gives a seat in the games it is in play
(first rate x first score + later rate x later score; the rates themselves move with the scores,
since greedy weighs plans by their points). One card of each letter is in play per game, so cards
of one letter never meet: a card's expected points depend on its own scores and only weakly on the
other letters' cards. Every game is dealt its plans (not drawn by the kernel): each letter's cards
in turn, shuffled, so every card gets the same number of games and every candidate set is played
on the same games with the same cards (common random numbers).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.engine.game import BatchResult, simulate
from welcome_sim.simcore.ground.datatypes import PlanSet
from welcome_sim.simcore.ground.table import R_PLAN_FIRST, R_PLAN_LATER
from welcome_sim.simcore.ground.tomlread import display_path
from welcome_sim.simcore.rules.ruleset import Ruleset

SLOTS = ("a", "b", "c")
BOOTSTRAP = 400
MIN_GAMES_PER_CARD = 10  # below this a card's interval means little
# The highest first score a proposal may give: plan cards score 3 to 13 in the published sets; the
# search and the settling step stay well below the data files' 999.
MAX_SCORE = 60
# Balanced modes: the advanced ones mix the edition's advanced cards into the draw, which a dealt
# game of standard cards would not play.
MODES = ("standard", "expert", "solo")

Scores = dict[str, tuple[int, int]]  # plan id -> (first, later)


@dataclass(frozen=True)
class CardStats:
    """One card's results at one set of scores, from the games it was in play."""

    plan: str
    first: int  # the scores played
    later: int
    games: int
    first_rate: float  # share of seats validating it first
    later_rate: float  # share of seats validating it after it turned over
    points: float  # mean points a seat scores from it
    ci95: float  # 95% half-width, clustered by game (the seats of one game share its deal)

    @property
    def rate(self) -> float:
        """Share of seats validating the card at all."""
        return self.first_rate + self.later_rate


@dataclass(frozen=True)
class Measured:
    """Every card's stats in one batch, and each card's per-game mean seat points (for intervals
    of figures over cards, such as a letter's spread)."""

    stats: dict[str, CardStats]
    samples: dict[str, np.ndarray]


def standard_set(rs: Ruleset) -> PlanSet:
    """The standard plan set file in use (the edition's or --plans-file): the file a proposal rewrites."""
    for item in rs.sources:
        if isinstance(item, PlanSet) and not item.advanced:
            return item
    title = rs.expansion.title if rs.expansion is not None else "this configuration"
    raise WelcomeSimError(
        f"--expansion: the {title} plays only its own plan cards, kept in its data file; balance plans "
        "rewrites a standard plan set file (--plans-file), so play without it"
    )


def check_mode(rs: Ruleset) -> None:
    """Balance deals the standard cards itself: the advanced modes, which draw advanced cards too,
    are refused rather than played differently."""
    if rs.mode not in MODES:
        raise WelcomeSimError(
            f"--mode: balance deals each game's standard plan cards itself, so it plays {', '.join(MODES)}, "
            f"not '{rs.mode}' (which mixes in the advanced cards)"
        )


def cards_by_slot(rs: Ruleset) -> list[list[int]]:
    """The indices (into rs.plans.plans) of each letter's cards in play, slot by slot."""
    return [[k for k, p in enumerate(rs.plans.plans) if p.slot == slot] for slot in range(3)]


def chosen_letters(rs: Ruleset, letter: str) -> list[str]:
    """The letters to balance ('all' or one of the set's letters), each of whose cards in play must
    be the standard file's (an expansion's own Plan C cards are in its file, not this one)."""
    pl = standard_set(rs)
    letters = list(rs.plans.letters)
    if letter.strip().lower() == "all":
        wanted = letters
    else:
        match = [x for x in letters if x.lower() == letter.strip().lower()]
        if not match:
            raise WelcomeSimError(
                f"--letter: '{letter}' is not a plan letter; valid: {', '.join(letters)}, all"
            )
        wanted = match
    ids = {p.id for p in pl.plans}
    for x in wanted:
        theirs = [p.id for p in rs.plans.plans if p.letter == x and p.id not in ids]
        if theirs:
            raise WelcomeSimError(
                f"--letter: the letter {x} cards in play ({', '.join(theirs)}) are not in the standard plan set "
                f"{display_path(pl.path)} (they come with the expansion); balance another letter, or change them "
                "in a copy of the expansion's file"
            )
    return wanted


def deal_plans(rs: Ruleset, games: int, rng: np.random.Generator) -> np.ndarray:
    """games x 3 plan indices: each letter's cards in turn, as evenly as the count allows, shuffled."""
    out = np.empty((games, 3), dtype=np.int64)
    for slot, cards in enumerate(cards_by_slot(rs)):
        out[:, slot] = rng.permutation(np.resize(np.asarray(cards, dtype=np.int64), games))
    return out


def current_scores(rs: Ruleset) -> Scores:
    """Every card's (first, later) in the ruleset."""
    return {p.id: (p.first, p.later) for p in rs.plans.plans}


def with_scores(rs: Ruleset, scores: Scores) -> Ruleset:
    """The ruleset with some cards' scores replaced: in its plan set and in the compiled table (the
    two cells a card's scores fill, rulestable.compile_rules), so it plays as if loaded with them."""
    kernel = rs.kernel.copy()
    plans = list(rs.plans.plans)
    for k, p in enumerate(plans):
        if p.id in scores:
            first, later = scores[p.id]
            if not 0 <= later <= first:
                raise ValueError(f"plan {p.id}: scores {first}/{later} break 0 <= later <= first")
            kernel[R_PLAN_FIRST, k], kernel[R_PLAN_LATER, k] = first, later
            plans[k] = replace(p, first=first, later=later)
    return replace(rs, plans=replace(rs.plans, plans=tuple(plans)), kernel=kernel)


def _chunk(
    rs: Ruleset, seeds: np.ndarray, players: int, level: str, plans_in: np.ndarray, parent: int
) -> tuple[np.ndarray, np.ndarray]:
    from welcome_sim.simcore.engine.parallel import watch_parent

    watch_parent(parent)
    res = simulate(rs, seeds, players, [level] * players, plans_per_game=plans_in)
    return res.out, res.games


def play(
    rs: Ruleset,
    seeds: np.ndarray,
    plans_in: np.ndarray,
    players: int,
    level: str,
    jobs: int = 1,
    advance: Callable[[int], None] | None = None,
) -> BatchResult:
    """The dealt games at one level, split over `jobs` processes in chunks (the same arrays as one
    process: every game has its own seed); advance(n) as each chunk of n games is done."""
    import os

    from welcome_sim.simcore.engine.parallel import chunk_bounds, processes_for

    n = processes_for(len(seeds), jobs)
    bounds = chunk_bounds(len(seeds), n)
    parts = []
    if n == 1 or len(bounds) <= 1:
        for a, b in bounds:
            parts.append(_chunk(rs, seeds[a:b], players, level, plans_in[a:b], 0))
            if advance:
                advance(b - a)
    else:
        from joblib import Parallel, delayed

        parallel = Parallel(n_jobs=n, return_as="generator")
        jobs_ = (
            delayed(_chunk)(rs, seeds[a:b], players, level, plans_in[a:b], os.getpid()) for a, b in bounds
        )
        for (a, b), part in zip(bounds, parallel(jobs_), strict=True):
            parts.append(part)
            if advance:
                advance(b - a)
    out = np.concatenate([p[0] for p in parts])
    games = np.concatenate([p[1] for p in parts])
    return BatchResult(rs, np.asarray(seeds, dtype=np.uint64), (level,) * players, out, games, None)


def measure(res: BatchResult) -> Measured:
    """Each card's rates, expected points and interval from a batch of dealt games."""
    stats: dict[str, CardStats] = {}
    samples: dict[str, np.ndarray] = {}
    plans = res.ruleset.plans.plans
    for s in SLOTS:
        ids = res.game_column(f"plan_{s}_id")
        pts = res.column(f"plan_{s}").astype(np.float64).mean(axis=1)  # per game, over seats
        done = res.column(f"plan_{s}_round") > 0
        first = res.column(f"plan_{s}_first") == 1
        first_share = (done & first).mean(axis=1)
        later_share = (done & ~first).mean(axis=1)
        for k in np.unique(ids):
            rows = ids == k
            p = plans[int(k)]
            y = pts[rows]
            n = len(y)
            half = 1.96 * float(y.std(ddof=1)) / math.sqrt(n) if n > 1 else float("inf")
            stats[p.id] = CardStats(
                p.id,
                p.first,
                p.later,
                n,
                float(first_share[rows].mean()),
                float(later_share[rows].mean()),
                float(y.mean()),
                half,
            )
            samples[p.id] = y
    return Measured(stats, samples)


def targets(stats: dict[str, CardStats], letters: dict[str, list[str]], how: str) -> dict[str, float]:
    """Each card's target expected points, per letter, keeping the letter's total expected points:
    'equal', the same for every card; 'hardness', proportional to 1 / validation rate (the games
    it takes on average to validate it once), so a harder card pays more even on average. A card
    never validated has no target (no score gives it points)."""
    if how not in ("equal", "hardness"):
        raise WelcomeSimError(f"--target: '{how}' is not one of equal, hardness")
    out: dict[str, float] = {}
    for ids in letters.values():
        live = [i for i in ids if stats[i].rate > 0]
        if not live:
            continue
        # The letter's points today (a card never validated has none) shared among the cards that
        # can score.
        total = sum(stats[i].points for i in ids)
        weight = {i: 1.0 if how == "equal" else 1.0 / stats[i].rate for i in live}
        scale = total / sum(weight.values())
        out.update({i: scale * weight[i] for i in live})
    return out


def loss(points: float, target: float, tol: float, new: tuple[int, int], old: tuple[int, int]) -> float:
    """What the search minimizes for one card: the miss beyond the tolerance first (x10), then the
    size of the change (0.1 a point) and whether the card changes at all (0.2): a card within the
    tolerance keeps its scores, and of two scores that meet it the nearer to today's wins."""
    miss = max(0.0, abs(points - target) - tol)
    change = abs(new[0] - old[0]) + abs(new[1] - old[1])
    return 10.0 * miss + 0.1 * change + (0.2 if change else 0.0)


def later_for(first: int, old: tuple[int, int]) -> int:
    """The later score that keeps the card's later/first ratio (8/4 -> 12/6), at most `first`."""
    return min(first, round(first * old[1] / old[0])) if old[0] else min(first, old[1])


def rate_guess(
    s: CardStats, target: float, tol: float, old: tuple[int, int], free: bool, high: int
) -> tuple[int, int]:
    """The scores that would meet the target if the card's rates did not move with its scores:
    the search's first candidate for the card (later free, or kept in ratio: later_for)."""
    best, best_loss = old, math.inf
    for first in range(1, high + 1):
        laters = range(0, first + 1) if free else [later_for(first, old)]
        for later in laters:
            v = loss(s.first_rate * first + s.later_rate * later, target, tol, (first, later), old)
            if v < best_loss:
                best, best_loss = (first, later), v
    return best


def spread(samples: dict[str, np.ndarray], ids: list[str], seed: int) -> tuple[float, float, float]:
    """The spread of a letter's expected points (highest card minus lowest) and its 95% bootstrap
    interval (each card's games resampled on their own: cards of a letter never share a game)."""
    means = np.array([samples[i].mean() for i in ids])
    rng = np.random.default_rng(seed)
    boot = np.empty(BOOTSTRAP)
    for b in range(BOOTSTRAP):
        m = [samples[i][rng.integers(0, len(samples[i]), len(samples[i]))].mean() for i in ids]
        boot[b] = max(m) - min(m)
    lo, hi = np.percentile(boot, [2.5, 97.5])
    return float(means.max() - means.min()), float(lo), float(hi)
