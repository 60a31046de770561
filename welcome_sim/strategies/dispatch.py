"""Kernel-side dispatch from a seat's strategy id to its move choice and plan decisions."""

from __future__ import annotations

import numpy as np
from numba import objmode

from welcome_sim.simcore.ground.features import EXPANSIONS, ONLY_GREEDY
from welcome_sim.simcore.ground.jit import inlined, kernel
from welcome_sim.simcore.ground.rng import rng_below
from welcome_sim.simcore.rules.expansions.hooks import x_invades, x_target
from welcome_sim.simcore.rules.sheetops import street_bounds
from welcome_sim.strategies.builtin import (
    choose_first_fit,
    choose_random,
    choose_spread,
    reshuffle_random,
    roundabout_random,
    roundabout_rescue,
)
from welcome_sim.strategies.context import CTX_HAND_SIZE
from welcome_sim.strategies.greedy import (
    choose_greedy,
    greedy_hold,
    greedy_objective,
    greedy_option,
    greedy_pass,
    greedy_reshuffles,
    greedy_roundabout,
    greedy_roundabout_after,
    greedy_validates,
)
from welcome_sim.strategies.greedy_search import greedy_side_of
from welcome_sim.strategies.protocol import (
    dispatch_python,
    dispatch_python_hold,
    dispatch_python_objective,
    dispatch_python_option,
    dispatch_python_pass,
    dispatch_python_reshuffle,
    dispatch_python_roundabout,
    dispatch_python_side,
)
from welcome_sim.strategies.registry import FIRST_FIT, GREEDY, PYTHON, RANDOM, SPREAD


# Python strategies answer in object mode, which cannot be inlined: each call lives in a small
# kernel function of its own, so that the dispatchers above can be inlined into the game loop.
# (A dispatcher compiled as a function of its own links and re-optimizes all of greedy's code
# below it, ~2-6 s of compile each.) The bundles cross into object mode as Python NamedTuples.
@kernel
def _python_move(R, sh, p, ctx, offer) -> None:
    """A Python strategy's move, written to offer.mv."""
    with objmode():
        dispatch_python(R, sh, p, ctx, offer)


@kernel
def _python_roundabout(R, sh, p, ctx, offer, rbm, after) -> None:
    """A Python strategy's roundabout (before or after its move), written to rbm."""
    with objmode():
        dispatch_python_roundabout(R, sh, p, ctx, offer, rbm, after)


@kernel
def _python_pass(R, sh, p, ctx, offer) -> int:
    """A Python strategy's card passed on after a refusal (hand index)."""
    pick = np.zeros(1, dtype=np.int64)
    with objmode():
        dispatch_python_pass(R, sh, p, ctx, offer, pick)
    return pick[0]


@kernel
def _python_reshuffle(R, sh, p, ctx, stack, stack_n, rng) -> bool:
    """A Python strategy's reshuffle answer."""
    with objmode(ans="int64"):
        ans = dispatch_python_reshuffle(R, sh, p, ctx, stack, stack_n, rng)
    return ans == 1


@kernel
def _python_side(R, sh, p, ctx, offer, s) -> int:
    """A Python strategy's truck side."""
    side = 0
    with objmode(side="int64"):
        side = dispatch_python_side(R, sh, p, ctx, offer, s)
    return side


@kernel
def _python_objective(R, sh, p, ctx, rng, n_obj) -> int:
    """A Python strategy's set-up objective."""
    k = 0
    with objmode(k="int64"):
        k = dispatch_python_objective(R, sh, p, ctx, rng, n_obj)
    return k


@kernel
def _python_option(R, sh, p, ctx, rng, opts, n, phase) -> int:
    """A Python strategy's expansion option."""
    with objmode(k="int64"):
        k = dispatch_python_option(R, sh, p, ctx, rng, opts, n, phase)
    return k


@inlined
def choose_move(strat, prm, R, sh, p, ctx, offer) -> None:
    """Fill offer.mv with seat p's move (mv[0] = -1: permit refusal)."""
    if ONLY_GREEDY == 1 or strat == GREEDY:
        choose_greedy(R, prm, sh, p, ctx, offer)
    elif strat == FIRST_FIT:
        choose_first_fit(R, sh, p, offer)
    elif strat == SPREAD:
        choose_spread(R, sh, p, offer)
    elif strat == PYTHON:
        _python_move(R, sh, p, ctx, offer)
    else:
        choose_random(R, sh, p, offer)


@inlined
def choose_roundabout(strat, prm, R, sh, p, ctx, offer, rbm) -> None:
    """Advanced mode: rbm = (street, house) of a roundabout seat p builds now, or (-1, -1)."""
    if ONLY_GREEDY == 1 or strat == GREEDY:
        greedy_roundabout(R, prm, sh, p, ctx, offer, rbm)
    elif strat == FIRST_FIT or strat == SPREAD:
        roundabout_rescue(R, sh, p, offer, rbm)
    elif strat == PYTHON:
        _python_roundabout(R, sh, p, ctx, offer, rbm, False)
    else:
        roundabout_random(R, sh.cells, sh.sc, p, offer.rng, rbm)


@inlined
def choose_roundabout_after(strat, prm, R, sh, p, ctx, offer, rbm) -> None:
    """Advanced mode, after seat p's move offer.mv: rbm = (street, house) of a roundabout built
    now, or (-1, -1). Only greedy and Python strategies build here: random, first-fit and spread
    keep theirs before the move (the rescue needs it there), so their games are unchanged."""
    if ONLY_GREEDY == 1 or strat == GREEDY:
        greedy_roundabout_after(R, prm, sh, p, ctx, offer, rbm)
    elif strat == PYTHON:
        street_bounds(R, sh.cells, p, offer.lo, offer.hi)  # the sheet as the move left it
        _python_roundabout(R, sh, p, ctx, offer, rbm, True)


@inlined
def choose_pass(strat, prm, R, sh, p, ctx, offer, to) -> int:
    """Hand modes, after seat p's permit refusal: the hand index 0-2 of the card passed on to
    `to` (a seat, -1 the AAA, -2 the discard pile); the two others go to the discard pile.
    Random, first-fit and spread draw one of the three at random."""
    if ONLY_GREEDY == 1 or strat == GREEDY:
        return greedy_pass(R, prm, sh, p, ctx, offer.rng, to)
    if strat == PYTHON:
        street_bounds(R, sh.cells, p, offer.lo, offer.hi)
        return _python_pass(R, sh, p, ctx, offer)
    return rng_below(offer.rng, ctx[CTX_HAND_SIZE] if ctx[CTX_HAND_SIZE] > 0 else 3)


@inlined
def wants_validation(strat, prm, R, sh, p, ctx, slot) -> bool:
    """Whether seat p validates the plan in this slot now (it is known to be satisfiable)."""
    if ONLY_GREEDY == 1 or strat == GREEDY:
        return greedy_validates(R, prm, sh, p, ctx, slot)
    return True


@inlined
def wants_reshuffle(strat, prm, R, sh, p, ctx, stack, stack_n, rng) -> bool:
    """First edition: whether seat p, a first validator of a plan, reshuffles every card into three
    new stacks. Strategies may use only the multiset of the cards left in the stacks (public by
    counting the discard piles), never their order. first-fit and spread decline."""
    if ONLY_GREEDY == 1 or strat == GREEDY:
        return greedy_reshuffles(R, prm, sh.cells, sh.sc, p, stack, stack_n)
    if strat == RANDOM:
        return reshuffle_random(rng)
    if strat == PYTHON:
        return _python_reshuffle(R, sh, p, ctx, stack, stack_n, rng)
    return False


@inlined
def choose_side(strat, prm, R, sh, p, ctx, offer, s) -> int:
    """First-edition Ice Cream: the side (0 left, 1 right) seat p's truck of street s starts from,
    chosen when p first numbers a house there. Greedy: the side its Ice Cream valuation prefers
    (blind to the expansion: the left); Python: its truck_side(turn, street) method (default:
    left); first-fit, spread: the left; random (and any other): either, evenly."""
    if ONLY_GREEDY == 1 or strat == GREEDY:
        return greedy_side_of(R, prm, sh.cells, sh.flags, sh.fences, sh.sc, p, s)
    if strat == FIRST_FIT or strat == SPREAD:
        return 0
    if strat == PYTHON:
        street_bounds(R, sh.cells, p, offer.lo, offer.hi)  # the sheet as the move left it
        return _python_side(R, sh, p, ctx, offer, s)
    return rng_below(offer.rng, 2)


@inlined
def choose_objective(strat, prm, R, sh, p, ctx, rng, n_obj) -> int:
    """A set-up objective seat p chooses among n_obj (Roswell's infiltration objectives), 0-based.
    Greedy: greedy_objective (its `objective` parameter, or its estimate); Python: its
    objective(turn, n) method (default: the first); first-fit, spread: the first; random (and any
    other): any, evenly."""
    if ONLY_GREEDY == 1 or strat == GREEDY:
        return greedy_objective(R, prm)
    if strat == FIRST_FIT or strat == SPREAD:
        return 0
    if strat == PYTHON:
        return _python_objective(R, sh, p, ctx, rng, n_obj)
    return rng_below(rng, n_obj)


@kernel
def _python_hold(R, sh, p, ctx, rng, s, side) -> bool:
    """A Python strategy's hold_horde answer (object mode cannot be inlined into the game loop)."""
    with objmode(ans="int64"):
        ans = dispatch_python_hold(R, sh, p, ctx, rng, s, side)
    return ans == 1


@inlined
def choose_hold(strat, prm, R, sh, p, ctx, s, side, offer) -> bool:
    """Zombie Outbreak: whether seat p crosses out an ammunition to hold the horde of street s on
    this side (it has ammunition and the horde would move). Greedy: when its evaluation prefers
    the sheet with the horde held; random: evenly; first-fit, spread and Python strategies
    without a hold_horde method: when the house the horde reaches is numbered and would be
    invaded."""
    if EXPANSIONS == 0:
        return False  # the base kernel plays no Zombie cards (x_can_hold is False there)
    if ONLY_GREEDY == 1 or strat == GREEDY:
        return greedy_hold(R, prm, sh, p, ctx, s, side)
    if strat == RANDOM:
        return rng_below(offer.rng, 2) == 1
    if strat == PYTHON:
        return _python_hold(R, sh, p, ctx, offer.rng, s, side)
    h = x_target(R, sh.sc, p, s, side)
    return sh.cells[p, s, h] >= 0 and x_invades(R, sh.cells, sh.flags, p, s, h)


@inlined
def choose_option(strat, prm, R, sh, p, ctx, rng, opts, n, phase) -> int:
    """An expansion's own decision (engine/steps.py: _x_decisions): the index of the option seat p picks
    among the n rows of opts. Greedy: the option whose sheet its evaluation values most (ties: the
    first); random: any, evenly; Python: its expansion_option method (default the first);
    first-fit, spread: the first (Halloween: the ghost, the highest level, the first alternative)."""
    if ONLY_GREEDY == 1 or strat == GREEDY:
        return greedy_option(R, prm, sh, p, ctx, opts, n, phase)
    if strat == RANDOM:
        return rng_below(rng, n)
    if strat == PYTHON:
        return _python_option(R, sh, p, ctx, rng, opts, n, phase)
    return 0
