"""Greedy's move search: the legal placements of each combination near their proportional slot
valued (`_placements`, greedy_walk.fits; a noisy player's every placement), then the options of the
actions of the two best placements per combination (`options`, greedy_options.py; the fences, bis
and improvements another placement showed too weak are screened out: greedy_screen.py; a player
without wide noise values the best placement's only, and apart from it only fences beside a
number), the best kept in a sorted list (`best_moves`); and the truck side the decisions share
(`greedy_side`)."""

from __future__ import annotations

import numpy as np

from welcome_sim.simcore.ground.features import EXPANSIONS, LOOK_AHEAD
from welcome_sim.simcore.ground.jit import inlined, leaf
from welcome_sim.simcore.ground.layout import (
    COMBO_ACT,
    COMBO_NUM,
    EMPTY,
    FENCE,
    NO_ACTION,
    SC_TEMPS,
    TEMP,
)
from welcome_sim.simcore.ground.table import (
    DEAL_AAA,
    P_EXPANSION,
    P_NSTREETS,
    R_STREET_LEN,
)
from welcome_sim.simcore.rules.expansions.hooks import (
    x_action_marks,
    x_alt,
    x_alt_ok,
    x_fence_alt,
    x_fence_alt_ok,
    x_on_action,
    x_set_side,
    x_value,
)
from welcome_sim.simcore.rules.sheetops import (
    first_code,
    value_range,
)
from welcome_sim.strategies.context import (
    CTX_DEAL,
    CTX_HAND_ACT,
    CTX_HAND_NUM,
)
from welcome_sim.strategies.greedy_eval import (
    aaa_price,
    combine,
    noisy,
    prepare_terms,
)
from welcome_sim.strategies.greedy_layout import (
    BLIND,
    N_GAINS,
    N_KEYS,
    NOISE,
    ST_TRIAL,
    W_AAA,
    WS_BMARK,
    WS_FMARK,
    WS_GST,
    WS_RUN,
)
from welcome_sim.strategies.greedy_options import offer_move, options
from welcome_sim.strategies.greedy_walk import (
    fits,
    mark_runs,
    split_record,
    walk_sheet,
    walk_street,
)


@inlined
def to_move(cand, mv) -> None:
    """mv = the best move in cand, or -1s (a refusal) when there is none."""
    for i in range(8):
        mv[i] = int(cand[0, i + 1]) if cand[0, 0] > -1e18 else -1


@leaf
def best_moves(R, prm, sh, p, ctx, offer, sx, light) -> None:
    """Greedy's search: the best moves and their values into sx.cand (see choose_greedy; the other
    arrays of sx are its scratch space, so that the look-ahead can call it without allocating):
    the two best placements of each combination (_placements), each offered without its action,
    then the options of their actions (greedy_options.options). light (the look-ahead's imagined
    rounds, `look_roll`): 1 the options of the best placement only, 2 none; 0 the full search (for a
    player without wide noise, the best placement's options only and fewer of them: `few`)."""
    sc = sh.sc
    ws, cost, cand = sx.ws, sx.cost, sx.cand
    prepare_terms(R, prm, sc, p, ctx, ws, -1)
    walk_sheet(R, prm, sh, p, ws)
    for i in range(cand.shape[0]):
        cand[i, 0] = -1e18
    n_combos = offer.cnum.shape[0]
    # AAA solo mode: the card not used goes to the AAA; price it.
    for c in range(n_combos):
        cost[c] = 0.0
    if ctx[CTX_DEAL] == DEAL_AAA and prm[W_AAA] != 0.0 and n_combos == 6:
        for c in range(n_combos):
            third = 3 - COMBO_NUM[c] - COMBO_ACT[c]
            cost[c] = aaa_price(R, prm, ctx[CTX_HAND_NUM + third], ctx[CTX_HAND_ACT + third])
    _placements(R, prm, sh, p, ctx, offer, sx)
    # The value a move must beat to enter cand (the last kept one's), kept in a local: most moves
    # do not enter.
    bar = -1e18
    # Each placement without its action first (with the temp worker, for a number it adjusted):
    # the bar they set lets the option screen skip most options (screened).
    top = sx.top
    for c in range(n_combos):
        for t in range(2):
            if top[c, t, 0] > -1e17 and top[c, t, 0] - cost[c] > bar:
                s, h, v = int(top[c, t, 1]), int(top[c, t, 2]), int(top[c, t, 3])
                a = TEMP if v != offer.cnum[c] else NO_ACTION
                offer_move(cand, top[c, t, 0] - cost[c], c, s, h, v, a, (-1, -1, -1))
                bar = cand[cand.shape[0] - 1, 0]
    # A player without wide noise values fewer options (`few`): its best placement's only, and of
    # the fences and bis apart from the placement's zone only the fences beside a number. Most of
    # the options' worth is there, at a fraction of their cost (docs/findings/greedy.md, "Issue 43:
    # fewer options"); the ladder's noisy levels keep their games.
    few = prm[NOISE] < PLACE_NOISE
    for c in range(n_combos):
        if light == 2:
            break  # every placement is offered above, without its action
        if light == 1 or few:
            sx.top[c, 1, 0] = -1e18  # the second best placement's options not valued
        bar = options(R, prm, sh, p, ctx, offer, sx, c, bar, few)
        # The best placement taking the expansion's alternative, unless options valued it.
        if (
            EXPANSIONS == 1
            and top[c, 2, 0] > -1e17
            and top[c, 2, 0] - cost[c] > bar
            and not _same(top, c, 0)
            and not _same(top, c, 1)
        ):
            s, h, v = int(top[c, 2, 1]), int(top[c, 2, 2]), int(top[c, 2, 3])
            offer_move(cand, top[c, 2, 0] - cost[c], c, s, h, v, int(top[c, 2, 4]), (s, h, 1))
            bar = cand[cand.shape[0] - 1, 0]


@leaf
def _same(top, c, t) -> bool:
    """Combination c's placement t (valued) is the placement its best alternative was taken on."""
    return (
        top[c, t, 0] > -1e17
        and top[c, t, 1] == top[c, 2, 1]
        and top[c, t, 2] == top[c, 2, 2]
        and (top[c, t, 3] == top[c, 2, 3])
    )


@leaf
def _alt_of(R, prm, sh, p, s, h, v, num, act) -> int:
    """The action the expansion's alternative is offered as if number v on (s, h) may take it
    (FENCE: a barricade instead of the fence; NO_ACTION: a Zoorg instead of any action), else -1.
    Only the card's own number (no temp worker) may."""
    if v != num:
        return -1
    cells, flags = sh.cells, sh.flags
    cells[p, s, h] = v
    alt = -1
    if act == FENCE and x_fence_alt_ok(R, cells, flags, p, s, h):
        alt = FENCE
    elif x_alt_ok(R, cells, flags, p, s, h):
        alt = NO_ACTION
    cells[p, s, h] = EMPTY
    return alt


@leaf
def _do_alt(R, sh, p, s, h, alt, sign) -> None:
    """Do (sign 1) or undo (-1) the alternative _alt_of found."""
    if alt == FENCE:
        x_fence_alt(R, sh.flags, sh.sc, p, s, h, sign)
    else:
        x_alt(R, sh.flags, sh.sc, p, s, h, sign)


# A player whose decision noise is this wide or wider values every placement and every option of
# its two best (best_moves' `few`): its noise may pick one off its slot or a weaker option (the
# ladder's noisy levels play as before).
PLACE_NOISE = 1.0


# Inlined into best_moves, their one caller: as LLVM modules of their own each re-optimised what
# lies below it, and the cold compile grew (docs/findings/kernel-phases.md, "Cold compile: where
# the seconds go").
@inlined
def _placements(R, prm, sh, p, ctx, offer, sx) -> None:
    """The two best placements of each combination into sx.top: value (with noise), street,
    house, number, value without noise (the option screen's, screen_place), of those near their
    slot (fits) unless the player is noisy; and the best placement taking the expansion's
    alternative: value, street, house, number, the alternative."""
    cells, flags, fences, sc = sh
    cnum, cact, rng, lo, hi = offer.cnum, offer.cact, offer.rng, offer.lo, offer.hi
    ws, top, mval, mlo, mhi, share = sx.ws, sx.top, sx.mval, sx.mlo, sx.mhi, sx.share
    n_combos = cnum.shape[0]
    # Hand modes: each card's number is in two of the six combinations, and a placement's value
    # does not depend on the action: the second combination reuses the first one's values (the
    # noise is still drawn per candidate, so the games are the same).
    # Not where the action marks the house (American Dream: a perfect house), which makes the
    # placement's value depend on the combination's action.
    memo = n_combos == 6 and not x_action_marks(R)
    # The look-ahead's first imagined round: the values other futures of this move found (the
    # sheet is the same; the action does not change the value unless it marks the house).
    shared = share.shape[0] > 0 and not x_action_marks(R)
    mdim = 3 if memo else 1
    for i in range(mdim):
        for key in range(N_KEYS):
            mlo[i, key] = 1
            mhi[i, key] = 0
    for key in range(N_KEYS):
        ws[WS_FMARK + key] = 0.0
        ws[WS_BMARK + 2 * key] = 0.0
        ws[WS_BMARK + 2 * key + 1] = 0.0
    for i in range(N_GAINS):
        ws[WS_GST + i] = -1.0
    # The expansion's alternative to an action (a barricade, a Zoorg) is valued on every placement
    # that may take it, not only on the two best placements: a placement is ranked without its
    # action, and the plain fence's placements rarely are the houses a barricade goal needs.
    xalt = prm[BLIND] == 0.0 and R[0, P_EXPANSION] != 0
    # `EXPANSIONS == 1` and `LOOK_AHEAD == 1` in the conditions below: Numba prunes a branch on a switch
    # before typing, so the base variant compiles neither the alternatives nor the shared values.
    mark_runs(R, cells, fences, p, ws)
    narrow = prm[NOISE] < PLACE_NOISE
    for c in range(n_combos):
        top[c, 0, 0] = -1e18
        top[c, 1, 0] = -1e18
        top[c, 2, 0] = -1e18
        vmin, vmax = value_range(R, sc, p, cnum[c], cact[c])
        card = COMBO_NUM[c] if memo else 0
        # The first sweep skips the placements off their slot (fits) unless the player is
        # noisy; should that leave the combination none (a legal number only off its slot), the
        # second values every one (without the memo, which the first marked for codes it skipped).
        skipped = False
        for sweep in range(2):
            if sweep == 1 and (top[c, 0, 0] > -1e17 or not skipped):
                break
            screen = narrow and sweep == 0
            for s in range(R[0, P_NSTREETS]):
                for h in range(R[R_STREET_LEN, s]):
                    if cells[p, s, h] != EMPTY:
                        continue
                    key = s * 16 + h
                    v_from = first_code(vmin, lo[s, h])
                    v_to = min(vmax, hi[s, h] - 1)
                    m_lo = mlo[card, key]
                    m_hi = mhi[card, key]
                    for v in range(v_from, v_to + 1, 2):
                        alt = (
                            _alt_of(R, prm, sh, p, s, h, v, cnum[c], cact[c])
                            if EXPANSIONS == 1 and xalt
                            else -1
                        )
                        if alt < 0 and screen and not fits(ws, key, h, v):
                            skipped = True
                            continue
                        alt_raw = -1e18
                        adj = 1 if v != cnum[c] else 0
                        if alt < 0 and memo and sweep == 0 and m_lo <= v <= m_hi and (v - m_lo) % 2 == 0:
                            raw = mval[card, key, v]
                        elif LOOK_AHEAD == 1 and alt < 0 and shared and not np.isnan(share[adj, key, v]):
                            raw = share[adj, key, v]
                            if memo:  # the card's other combination reads it there
                                mval[card, key, v] = raw
                        else:
                            cells[p, s, h] = v
                            x_on_action(R, cells, flags, sc, p, s, h, cact[c], 1)
                            adjusted = v != cnum[c]
                            if adjusted:
                                sc[p, SC_TEMPS] += 1
                            # A number in a run only long segments overlap changes the street's
                            # record by the run's split alone (mark_runs, split_record).
                            if ws[WS_RUN + 4 * key] >= 0.0:
                                split_record(R, ws, flags, p, s, h, v, ST_TRIAL)
                            else:
                                walk_street(R, prm, sh, p, s, ws, ST_TRIAL)
                            raw = combine(R, prm, sh, p, ctx, ws, -1, (s, ST_TRIAL, -1, 0), False)
                            if EXPANSIONS == 1 and alt >= 0:
                                # The alternative leaves the street's estates as they are: the same
                                # walk, the expansion's marks and goals re-valued.
                                _do_alt(R, sh, p, s, h, alt, 1)
                                alt_raw = combine(R, prm, sh, p, ctx, ws, -1, (s, ST_TRIAL, -1, 0), False)
                                _do_alt(R, sh, p, s, h, alt, -1)
                            if adjusted:
                                sc[p, SC_TEMPS] -= 1
                            x_on_action(R, cells, flags, sc, p, s, h, cact[c], -1)
                            cells[p, s, h] = EMPTY
                            if memo:
                                mval[card, key, v] = raw
                            if LOOK_AHEAD == 1 and shared:
                                share[adj, key, v] = raw
                        val = noisy(raw, prm, rng)
                        if val > top[c, 1, 0]:
                            if val > top[c, 0, 0]:
                                for j in range(5):  # no slices: a leaf runs without reference counting
                                    top[c, 1, j] = top[c, 0, j]
                                top[c, 0, 0], top[c, 0, 1], top[c, 0, 2], top[c, 0, 3] = val, s, h, v
                                top[c, 0, 4] = raw
                            else:
                                top[c, 1, 0], top[c, 1, 1], top[c, 1, 2], top[c, 1, 3] = val, s, h, v
                                top[c, 1, 4] = raw
                        if EXPANSIONS == 1 and alt >= 0:
                            val = noisy(alt_raw, prm, rng)
                            if val > top[c, 2, 0]:
                                top[c, 2, 0], top[c, 2, 1], top[c, 2, 2], top[c, 2, 3] = val, s, h, v
                                top[c, 2, 4] = alt
                    if memo and sweep == 0 and m_lo > m_hi:
                        mlo[card, key] = v_from
                        mhi[card, key] = v_to


@inlined
def greedy_side(R, cells, flags, fences, sc, p, s) -> int:
    """First-edition Ice Cream: start street s's truck from the side (0 left, 1 right) whose run
    the expansion valuation (icecream.street_part, with the number just written) prizes more; ties: left."""
    x_set_side(R, sc, p, s, 0)
    left = x_value(R, cells, flags, fences, sc, p)
    x_set_side(R, sc, p, s, 1)
    right = x_value(R, cells, flags, fences, sc, p)
    x_set_side(R, sc, p, s, -1)
    return 0 if left >= right else 1


@inlined
def greedy_side_of(R, prm, cells, flags, fences, sc, p, s) -> int:
    """The truck side greedy with parameters prm picks (greedy_side); blind to the expansion, the left."""
    if prm[BLIND] != 0.0:
        return 0
    return greedy_side(R, cells, flags, fences, sc, p, s)
