"""Plan-card balance, the searching half: propose integer first/later scores so that each card's
expected points at a level meet its target (balance.targets) with the fewest, smallest changes,
then play the proposal and today's set on fresh seeds.

Search: Optuna's TPE sampler (Tree-structured Parzen Estimator) through its ask-and-tell interface,
one study per card, on common random numbers. Why Optuna: it searches integer parameters without
gradients, and its ask-and-tell interface lets one simulation answer every card's study at once,
which the problem allows because a card's expected points depend on its own scores (one card of a
letter per game; balance.py); 21 two-parameter searches then cost what one search costs. Each study
starts from today's scores (told as a finished trial) and from the scores that would meet the
target if the card's rates did not move (enqueued); TPE then samples near what did best, so it
follows how the rates move with the scores. Why common random numbers: every candidate set is
played on the same games (seeds and dealt plans), so the difference between two candidates is
their scores, not deal luck; the noise that remains (the search's seeds favouring some scores) is
why the proposal is reported only from its re-play on fresh seeds, with intervals. The cards searched
apart are then played together and settled (balance_settle), since a card's points move a little
with the other letters' scores.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from welcome_sim.simcore.engine.game import game_seeds
from welcome_sim.simcore.rules.ruleset import Ruleset
from welcome_sim.studies import balance as B
from welcome_sim.studies.balance_settle import Round, settle

# How far around today's and the rate-based scores a card's search goes (points each way).
REACH = 3


@dataclass(frozen=True)
class Settings:
    """What a balance run plays and aims at."""

    level: str
    players: int
    games: int  # games per candidate set, on the search seeds
    budget: int  # candidate sets played in the search (after today's set)
    check_games: int  # games of the fresh re-play (today's set and the proposal, same seeds)
    seed: int
    tolerance: float
    target: str  # equal | hardness
    free_later: bool = False  # search later scores too, instead of keeping each card's ratio
    jobs: int = 1
    rounds: int = 0  # whole-set settling rounds after the search (balance_settle)

    def total_games(self) -> int:
        """Every game the run may play: today's set and each candidate on the search seeds, the
        settling rounds (fewer when it stops early), then today's set and the proposal on the fresh
        seeds."""
        return self.games * (1 + self.budget + self.rounds) + 2 * self.check_games


@dataclass(frozen=True)
class Proposal:
    """A balance run's result: today's and the proposed scores, the targets (from today's set on the
    search seeds) and both sets' stats on the fresh seeds."""

    letters: dict[str, list[str]]  # letter -> card ids balanced
    today: B.Scores
    proposed: B.Scores
    targets: dict[str, float]
    search_before: dict[str, B.CardStats]  # today's set on the search seeds
    search_best: dict[str, float]  # each card's best loss in the search
    before: B.Measured  # today's set, fresh seeds
    after: B.Measured  # the proposal, fresh seeds
    later_seen: bool  # whether any seat validated a card after it turned over (later scores count)
    settings: Settings
    settled: tuple[Round, ...] = ()  # the settling rounds played, on the search seeds

    def changed(self) -> list[str]:
        """Ids of the cards whose scores the proposal changes."""
        return [i for ids in self.letters.values() for i in ids if self.proposed[i] != self.today[i]]


class _CardSearch:
    """One card's Optuna study: its search space, today's scores as its first finished trial, and
    each round the rate-based step from its best trial enqueued (when not yet played), else TPE's
    sample."""

    def __init__(
        self, card: str, old: tuple[int, int], base: B.CardStats, aim: tuple[float, float], s: Settings
    ):
        import optuna

        self.card, self.old, self.free, self.aim = card, old, s.free_later, aim
        guess = self._step(base)
        # Wide enough for the rate-based step to move on: the rates rise with the scores.
        lo = max(1, min(old[0], guess[0]) // 2 - REACH)
        hi = min(B.MAX_SCORE, max(old[0], guess[0]) * 3 // 2 + REACH)
        self.space = {"first": optuna.distributions.IntDistribution(lo, hi)}
        if self.free:
            self.space["later"] = optuna.distributions.IntDistribution(0, hi)
        sampler = optuna.samplers.TPESampler(
            seed=s.seed * 1000 + hash_id(card), n_startup_trials=4, multivariate=self.free
        )
        self.study = optuna.create_study(direction="minimize", sampler=sampler)
        self.trial = None
        self.seen: dict[tuple[int, int], B.CardStats] = {old: base}
        self.best: tuple[float, tuple[int, int]] = (math.inf, old)

    def _step(self, at: B.CardStats) -> tuple[int, int]:
        """The scores meeting the target at the rates measured at `at` (balance.rate_guess)."""
        return B.rate_guess(at, self.aim[0], self.aim[1], self.old, self.free, B.MAX_SCORE)

    def _params(self, scores: tuple[int, int]) -> dict[str, int]:
        return {"first": scores[0], "later": scores[1]} if self.free else {"first": scores[0]}

    def told_today(self, value: float) -> None:
        """Today's scores, measured with the baseline, as the study's first finished trial."""
        import optuna

        self.study.add_trial(
            optuna.trial.create_trial(params=self._params(self.old), distributions=self.space, value=value)
        )
        self.best = (value, self.old)

    def ask(self) -> tuple[int, int]:
        """The next scores to play: later kept at or below first (a card's rule, planfile.py)."""
        step = self._step(self.seen[self.best[1]])
        lo, hi = self.space["first"].low, self.space["first"].high
        step = (min(max(step[0], lo), hi), step[1])
        if step not in self.seen and (not self.free or step[1] <= self.space["later"].high):
            self.study.enqueue_trial(self._params(step))
        self.trial = self.study.ask(self.space)
        first = int(self.trial.params["first"])
        if not self.free:
            return first, B.later_for(first, self.old)
        return first, min(int(self.trial.params["later"]), first)

    def tell(self, value: float, played: tuple[int, int], stats: B.CardStats) -> None:
        """The loss of the scores played (and their stats, for the next rate-based step)."""
        self.study.tell(self.trial, value)
        self.seen[played] = stats
        if value < self.best[0]:
            self.best = (value, played)


def hash_id(card: str) -> int:
    """A small stable number per card id (Python's hash() of a str changes from run to run)."""
    return sum((i + 1) * ord(ch) for i, ch in enumerate(card)) % 1000


def _losses(
    stats: dict[str, B.CardStats], scores: B.Scores, today: B.Scores, goal: dict[str, float], tol: float
) -> dict[str, float]:
    return {i: B.loss(stats[i].points, t, tol, scores[i], today[i]) for i, t in goal.items()}


def balance_plans(
    rs: Ruleset,
    letter: str,
    settings: Settings,
    advance: Callable[[int], None] | None = None,
    say: Callable[[str], None] | None = None,
) -> Proposal:
    """Measure today's cards, search scores that meet the targets, re-play today's set and the
    proposal on fresh seeds (balance.py says how games are dealt; this module's docstring how the
    search goes)."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    s = settings
    B.check_mode(rs)
    slots = zip(rs.plans.letters, B.cards_by_slot(rs), strict=True)
    every = {x: [rs.plans.plans[k].id for k in cards] for x, cards in slots}
    letters = {x: every[x] for x in B.chosen_letters(rs, letter)}
    seeds = game_seeds(s.seed, s.games)
    dealt = B.deal_plans(rs, s.games, np.random.default_rng([s.seed, 0]))
    today = B.current_scores(rs)

    def played(scores: B.Scores) -> B.Measured:
        return B.measure(B.play(B.with_scores(rs, scores), seeds, dealt, s.players, s.level, s.jobs, advance))

    base = played(today).stats
    goal = B.targets(base, letters, s.target)
    searches = {c: _CardSearch(c, today[c], base[c], (t, s.tolerance), s) for c, t in sorted(goal.items())}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Optuna's notes on its experimental options
        for card, v in _losses(base, today, today, goal, s.tolerance).items():
            searches[card].told_today(v)
        for r in range(s.budget):
            scores = dict(today) | {c: srch.ask() for c, srch in searches.items()}
            got = played(scores).stats
            for c, v in _losses(got, scores, today, goal, s.tolerance).items():
                searches[c].tell(v, scores[c], got[c])
            if say:
                best = sum(srch.best[0] for srch in searches.values())
                say(f"candidate set {r + 1}/{s.budget}: the best scores so far lose {best:.2f} in all")
    proposed = dict(today) | {c: srch.best[1] for c, srch in searches.items()}
    # The cards searched apart, played together until their points settle (balance_settle).
    proposed, rounds = settle(
        lambda sc: played(sc).stats, proposed, today, goal, s.tolerance, s.rounds, s.free_later, say
    )
    # Fresh: game indices the search never played, dealt anew; today's set and the proposal on them.
    fresh = game_seeds(s.seed, s.check_games, start=s.games)
    dealt_fresh = B.deal_plans(rs, s.check_games, np.random.default_rng([s.seed, 1]))

    def checked(scores: B.Scores) -> B.Measured:
        rules = B.with_scores(rs, scores)
        return B.measure(B.play(rules, fresh, dealt_fresh, s.players, s.level, s.jobs, advance))

    return Proposal(
        letters,
        today,
        proposed,
        goal,
        base,
        {c: srch.best[0] for c, srch in searches.items()},
        checked(today),
        checked(proposed),
        any(st.later_rate > 0 for st in base.values()),
        s,
        tuple(rounds),
    )
