"""Parts of the game loop compiled on their own: the workspace of arrays a batch allocates once,
an expansion's decisions, events and roundabout reactions, and the end-of-game invariants."""

from __future__ import annotations

import numpy as np

from welcome_sim.simcore.engine.gamelog import _log
from welcome_sim.simcore.ground.jit import kernel, leaf
from welcome_sim.simcore.ground.layout import (
    CHECK_HOUSES,
    CHECK_NO_END,
    CHECK_REFUSALS,
    END_DECK,
    END_ROUND_CAP,
    END_STACK,
    LOG_X_SHELTER,
    SC_NUMBERED,
    SC_PLAN_ROUND,
    SC_REFUSALS,
    SC_ROUNDABOUTS,
    SC_SEALED,
    SPECIAL_X,
)
from welcome_sim.simcore.ground.table import (
    DEAL_AAA,
    DEAL_STACKS,
    P_DEAL,
    P_NCARDS,
    P_NSTACKS,
    P_X_HAND,
    P_X_SPECIALS,
)
from welcome_sim.simcore.rules.expansions.hooks import (
    x_apply,
    x_events,
    x_options,
    x_roundabout,
)
from welcome_sim.simcore.rules.sheetops import new_state
from welcome_sim.strategies.context import (
    CTX_LEN,
    CTX_SEAT,
)
from welcome_sim.strategies.dispatch import (
    choose_option,
)

X_MAX_OPTIONS = 96  # rows of an expansion decision's option table (halloween.MAX_OPTIONS)

# The game's scalar state that phases change (the workspace's `st`, an array so that a phase
# changes it in place): the AAA's cards, its plan points, the round a validation or solo card came
# up, and how often an expert deck with special cards was rebuilt.
ST_AAA_N, ST_AAA_PLAN_PTS, ST_SPECIAL_ROUND, ST_REBUILDS = 0, 1, 2, 3
ST_LEN = 4


@kernel
def _x_decisions(R, seats, sh, p, phase, rng, xdec, rnd, lg) -> None:
    """An expansion's own decisions of seat p (phase 0 after its move, 1 at the round's end after
    the plan validations, 2 when an AAA validation card came up), one after the other until none is left: the expansion
    lists the legal options, the seat's strategy picks one, the expansion plays it and names its log
    row (seats: engine/bundles.py). xdec: the
    workspace's option table and log row. A function of its own, not inlined: inlined twice into
    the game loop, it made random play of the base game about 10% slower."""
    cells, flags, fences, sc = sh
    strats, sprm, ctx, _ = seats
    xopt, xlog = xdec
    seat = ctx[CTX_SEAT]
    ctx[CTX_SEAT] = p
    while True:
        n = x_options(R, cells, flags, fences, sc, p, phase, xopt)
        if n == 0:
            break
        k = choose_option(strats[p], sprm[p], R, sh, p, ctx, rng, xopt, n, phase)
        x_apply(R, cells, flags, fences, sc, p, phase, xopt[k], xlog)
        if lg.do_log and xlog[0] >= 0:
            _log(lg, rnd, p, xlog[0], xlog[1], xlog[2], xlog[3], xlog[4], 0, 0, 0, 0)
    ctx[CTX_SEAT] = seat


@leaf
def _x_events(R, sh, n_players, when, slot, aaa_n, ev, rnd, lg) -> None:
    """An expansion's public events (Quack: duckling scoring phases; when 0 at a round's end, 1
    for an AAA validation card, 2 at the game's end), settled on every sheet and logged."""
    n = x_events(R, sh.cells, sh.sc, n_players, when, slot, aaa_n, ev)
    if lg.do_log:
        for i in range(n):
            _log(lg, rnd, ev[i, 1], ev[i, 0], ev[i, 2], ev[i, 3], 0, 0, 0, 0, 0, 0)


@kernel
def new_workspace(R, n_players):
    """Every array a game needs, allocated once per batch (play_batch) and reset by play_game:
    a dozen small allocations a game were a large part of a short random game's time."""
    n_cards = R[0, P_NCARDS]
    deal = R[0, P_DEAL]
    hands = deal != DEAL_STACKS
    cells, flags, fences, sc = new_state(R, n_players)
    n_streets = cells.shape[1]
    max_len = cells.shape[2]
    hn = n_cards + SPECIAL_X + 8 if hands else 1
    n_combos = R[0, P_NSTACKS]
    if hands:
        n_combos = 2 if R[0, P_X_SPECIALS] > 0 and R[0, P_X_HAND] == 2 else 6
    return (
        np.empty(2, dtype=np.uint64),  # rng: the main stream, the extra cards' stream
        cells,
        flags,
        fences,
        sc,
        np.empty((n_streets, max_len), dtype=np.int64),  # lo
        np.empty((n_streets, max_len), dtype=np.int64),  # hi
        np.empty(8, dtype=np.int64),  # mv
        np.empty(2, dtype=np.int64),  # rbm
        np.zeros(7, dtype=np.int64),  # counts
        np.zeros((16, 3), dtype=np.int64),  # used
        np.empty(3, dtype=np.int64),  # plans
        np.zeros(CTX_LEN, dtype=np.int64),  # ctx
        np.empty(n_combos, dtype=np.int64),  # cnum
        np.empty(n_combos, dtype=np.int64),  # cact
        np.zeros(3, dtype=np.bool_),  # flipped
        np.zeros(3, dtype=np.bool_),  # new_flip
        # Standard deal: three stacks (top = last element) and their discard piles.
        np.empty((3, n_cards), dtype=np.int64),  # stack
        np.zeros(3, dtype=np.int64),  # stack_n
        np.empty((3, n_cards + 4), dtype=np.int64),  # discard
        np.zeros(3, dtype=np.int64),  # disc_n
        # Hand deals: one deck, one discard pile, hands of up to three, the AAA's stack.
        np.empty(hn, dtype=np.int64),  # deck
        np.zeros(1, dtype=np.int64),  # deck_n
        np.empty((n_players, 3), dtype=np.int64),  # hand
        np.zeros(n_players, dtype=np.int64),  # hand_n
        np.empty(n_players, dtype=np.int64),  # pending
        np.empty(hn if deal == DEAL_AAA else 1, dtype=np.int64),  # aaa
        np.empty(n_cards, dtype=np.int64),  # order: shuffle scratch
        # Scoring scratch: temp_pts, temps; the game's scalar state the phases change (cards.py:
        # ST_*). Grouped to keep the tuple at 30 items, Numba's limit for a tuple literal.
        (
            np.zeros(max(n_players, 2), dtype=np.int64),
            np.zeros(n_players, dtype=np.int64),
            np.zeros(ST_LEN, dtype=np.int64),
        ),
        # An expansion decision's options and the log row of the option chosen.
        (np.zeros((X_MAX_OPTIONS, 4), dtype=np.int64), np.zeros(5, dtype=np.int64)),
    )


@leaf
def _roundabout_reaction(R, sc, p, s, rnd, lg) -> None:
    """An expansion's reaction to a roundabout (Doomsday AAA: a shelter in its street), logged."""
    built = x_roundabout(R, sc, p, s)
    if built >= 0 and lg.do_log:
        _log(lg, rnd, -1, LOG_X_SHELTER, s, built, 1, 0, 0, 0, 0, 0)


@leaf
def end_check(sc, n_players, end, max_ref, total_houses, solo_card) -> int:
    """The end-of-game invariants (layout CHECK_*): 0 when they hold, else the bits that fail.
    An end condition must hold: a player with every plan, the last refusal box or every house,
    the deck run out (solo_card: the first edition's solo, or Zombie Outbreak's expert deck the
    third time), or Zombie Outbreak's first stack run out; never the round cap."""
    bad = 0
    holds = (solo_card and (end & END_DECK) != 0) or end == END_STACK
    for p in range(n_players):
        if sc[p, SC_PLAN_ROUND] > 0 and sc[p, SC_PLAN_ROUND + 1] > 0 and sc[p, SC_PLAN_ROUND + 2] > 0:
            holds = True
        if sc[p, SC_REFUSALS] >= max_ref:
            holds = True
            if sc[p, SC_REFUSALS] > max_ref:
                bad |= CHECK_REFUSALS
        houses = sc[p, SC_NUMBERED] + sc[p, SC_ROUNDABOUTS] + sc[p, SC_SEALED]
        if houses >= total_houses:
            holds = True
            if houses > total_houses:
                bad |= CHECK_HOUSES
    if not holds or end == 0 or (end & END_ROUND_CAP) != 0:
        bad |= CHECK_NO_END
    return bad
