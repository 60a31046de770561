"""Plan-card balance, the settling step: a deterministic fixed point on the whole proposed set,
after the per-card search (balance_search).

Why: the search measures each card's candidates in sets where the other cards have other
candidates, but a card's expected points move with the other letters' scores (greedy weighs a
game's three plans against each other), so cards searched apart drift apart once played together.
The settling step plays the whole proposed set on the search's games (common random numbers),
measures each card's rates there, moves every card that misses its target by more than half the
tolerance toward it, and plays the set again, a few rounds.

"Expected points equal" is then a fixed point: scores s such that points(s) = target for every
card, where points depends on all the scores. The step is a damped Jacobi (Mann) iteration on the
integer grid: each card's rate-based guess (balance.rate_guess: the score that meets the target if
its rates stayed) overshoots, because a card's rates rise with its score, so a card moves half the
way to it (at least one point), its later score kept in the card's ratio (the rulebook's pattern).
A card whose next score it has already played (on the grid between two scores that miss on either
side) takes the best of them and holds. It stops when every card is within half the tolerance,
when no card moves, or when a set comes back (a cycle); the best set played (the least loss judged
at half the tolerance, so a margin is left for the fresh games' noise) is the proposal. No library:
the root finders (scipy.optimize) want continuous, noiseless functions; this step needs only the
rates one simulation measures.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from welcome_sim.studies import balance as B

DAMPING = 0.5  # the share of the way to the rate-based guess a card moves each round


@dataclass(frozen=True)
class Round:
    """One settling round: the set played and its largest miss and loss on the search games."""

    scores: B.Scores
    worst: float  # largest |points - target| over the cards balanced
    loss: float  # sum of the cards' losses at half the tolerance


def step(
    at: B.CardStats,
    target: float,
    tol: float,
    now: tuple[int, int],
    ratio: tuple[int, int],
    tried: dict[tuple[int, int], float],
) -> tuple[int, int]:
    """One card's next scores from its stats at `now`: held within half the tolerance; else half
    the way (at least one point) to the rate-based guess, later in `ratio`'s proportion; a score
    already tried gives way to the best tried (tried: scores -> |miss| last measured)."""
    if abs(at.points - target) <= tol / 2:
        return now
    guess = B.rate_guess(at, target, 0.0, ratio, False, B.MAX_SCORE)[0]
    d = guess - now[0]
    if d == 0:  # the grid's nearest already: no integer score does better at these rates
        return now
    move = int(math.copysign(max(1, math.floor(DAMPING * abs(d) + 0.5)), d))
    first = min(max(1, now[0] + move), B.MAX_SCORE)
    nxt = (first, B.later_for(first, ratio))
    if nxt in tried:
        return min(tried, key=lambda k: (tried[k], k != now))
    return nxt


def settle(
    played: Callable[[B.Scores], dict[str, B.CardStats]],
    start: B.Scores,
    today: B.Scores,
    goal: dict[str, float],
    tol: float,
    rounds: int,
    free_later: bool = False,
    say: Callable[[str], None] | None = None,
) -> tuple[B.Scores, list[Round]]:
    """Up to `rounds` whole-set rounds from `start` (module docstring); the best set played and
    every round."""
    now = dict(start)
    tried: dict[str, dict[tuple[int, int], float]] = {c: {} for c in goal}
    seen: list[B.Scores] = []
    history: list[Round] = []
    for r in range(rounds):
        stats = played(now)
        miss = {c: abs(stats[c].points - t) for c, t in goal.items()}
        lost = sum(B.loss(stats[c].points, t, tol / 2, now[c], today[c]) for c, t in goal.items())
        history.append(Round(dict(now), max(miss.values(), default=0.0), lost))
        for c in goal:
            tried[c][now[c]] = miss[c]
        nxt = dict(now)
        for c, t in goal.items():
            ratio = now[c] if free_later else today[c]
            nxt[c] = step(stats[c], t, tol, now[c], ratio, tried[c])
        moved = sum(nxt[c] != now[c] for c in goal)
        if say:
            say(
                f"settling round {r + 1}/{rounds}: largest miss {history[-1].worst:.2f} points, "
                f"{moved} card{'s' * (moved != 1)} to move"
            )
        seen.append(now)
        if moved == 0 or nxt in seen:
            break
        now = nxt
    if not history:
        return dict(start), history
    best = min(history, key=lambda h: (h.loss, h.worst))
    return dict(best.scores), history
