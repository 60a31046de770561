"""Greedy's sheet evaluation: `evaluate()` and the pieces greedy's search re-uses per candidate.

How the evaluation is computed (the contract for whoever adds a term or an expansion):

- `evaluate()` = `prepare_terms()` (the score-sheet terms: parks, improvements, pools,
  penalties, plan weights) + `walk_sheet()` (greedy_walk.py: one record per street, its estates
  with their completion chances and values, dead, long and pool-waste houses) + `combine()` (adds
  the records and terms up in one fixed order: streets in order, estates left to right, then the
  sheet-wide terms). Because the order is fixed, a value built from cached records equals, to the
  last bit, the value of a full walk: the games do not depend on what was cached.
- `choose_greedy()` walks the sheet once a turn; a placement re-walks only its street (none where
  only segments longer than 6 houses overlap its run: greedy_walk.split_record), an action
  only the street it changes (a fence in another street is walked once a turn and reused), and an
  action that changes only the score sheet re-walks nothing (it re-prepares the terms).
- `progress ** plan_exp` is remembered per plan slot (`_pow`), keyed by the exact progress.
- An expansion's value enters in two parts (hooks.py): `x_street_part()`, what one street alone
  decides, computed the first time a walked record is combined and kept beside it (WS_XPART:
  Easter's eggs, Ice Cream's scoops and cones, Christmas's strings, the American Dream's street
  bonus, Halloween's marks and bonus spots packed as whole numbers), and `x_sheet_value()`, which
  gets the parts summed in street order and adds what needs the whole sheet (Easter: the egg points
  of the total; the American Dream: its columns; Halloween: the levels). A street part may read
  only its street's cells and flags and score-sheet entries no move under evaluation changes (a
  record is walked once a turn and reused). `x_value()` of such an expansion is the same
  operations on parts computed afresh (sum them in street order from 0.0, then x_sheet_value), so
  the value is the same to the last bit whichever records were cached
  (tests/test_greedy_records.py checks both). `x_street_parts(R)` says whether an expansion has
  them; one without is valued whole, one `x_value()` call per evaluation (Quack, Roswell, Zombies
  and Doomsday).
- Within one `x_value()`/`x_progress()` call, do each piece of work once: greedy calls them for
  every candidate move (70 or more a turn). A leaf may not allocate, so keep such results in
  locals or small tuples (`simcore/ground/regtuples.py`), and check the faster form against the plain one
  to the last bit in a test.
- Greedy reaches an expansion only through hooks.py (whose branches sit behind the EXPANSIONS
  switch, simcore/ground/features.py) and reaches its look-ahead behind LOOK_AHEAD: the kernel variant
  for base games with plain greedy players (simcore/engine/variants.py) compiles without either. Code of
  an expansion called from here directly must sit behind EXPANSIONS too (greedy_objective).

What the choices here were measured to cost or gain: docs/findings/greedy.md.
"""

from __future__ import annotations

import numpy as np

from welcome_sim.simcore.ground.features import EXPANSIONS
from welcome_sim.simcore.ground.jit import inlined, leaf, spliced
from welcome_sim.simcore.ground.layout import (
    EXTENSION,
    F_EXT,
    F_POOL,
    IMPROVEMENT,
    PARK,
    POOL,
    SC_EXT,
    SC_IMPR,
    SC_PARK,
    SC_PLAN_ROUND,
    SC_PLAN_SCORE,
    SC_POOLS,
    SC_REFUSALS,
    SC_ROUNDABOUTS,
    SC_TEMPS,
)
from welcome_sim.simcore.ground.rng import rng_below
from welcome_sim.simcore.ground.table import (
    P_EXPANSION,
    P_NSTREETS,
    P_POOL_LEN,
    PK_ESTATES,
    PK_EXPANSION,
    R_AAA_VALUE,
    R_ESTATE_VALS,
    R_EXT_TRACK,
    R_PARK_LEN,
    R_PARK_TRACK,
    R_PLAN_FIRST,
    R_PLAN_KIND,
    R_PLAN_LATER,
    R_PLAN_NEED,
    R_PLAN_PLAIN,
    R_PLAN_XFEAT,
    R_POOL_TRACK,
    R_RB_TRACK,
    R_REF_TRACK,
    R_TEMP_MAJ,
)
from welcome_sim.simcore.rules.expansions.hooks import (
    x_aaa_card,
    x_own_goal_exp,
    x_sheet_value,
    x_street_part,
    x_street_parts,
    x_value,
)
from welcome_sim.strategies.context import (
    CTX_FLIPPED,
    CTX_PLAN,
    CTX_PLAYERS,
)
from welcome_sim.strategies.greedy_layout import (
    BLIND,
    MAX_SEGS,
    NOISE,
    PLAN_EXP,
    POW_N,
    POW_W,
    SEG_W,
    ST_E,
    ST_HEAD,
    ST_W,
    T_BLIND,
    T_EXT,
    T_IMPR,
    T_PARK,
    T_PLAN,
    T_PLAN_EXP,
    T_PLAN_ID,
    T_POOL,
    T_RB,
    T_RECORD,
    T_REF,
    T_SIZES,
    T_SOLO,
    T_TEMP_TARGET,
    T_W_DEAD,
    T_W_ESTATE,
    T_W_LONG,
    T_W_TEMP,
    T_W_WASTE,
    T_WASTE,
    TEMP_TARGET,
    W_AAA,
    W_DEAD,
    W_ESTATE,
    W_EXT,
    W_IMPR_PRIOR,
    W_LONG,
    W_PARK,
    W_PLAN,
    W_POOL,
    W_POOL_WASTE,
    W_TEMP,
    W_X,
    WS_NSEG,
    WS_POW,
    WS_SEG,
    WS_ST,
    WS_TERMS,
    WS_TOP,
    WS_XPART,
    X_PLAN_EXP,
)
from welcome_sim.strategies.greedy_plans import plan_progress
from welcome_sim.strategies.greedy_walk import (
    walk_sheet,
)


@leaf
def _pow(ws, slot, progress, exponent) -> float:
    """progress ** exponent, remembered per plan slot: the candidate moves of a turn keep coming
    back to a few progress values of each plan, and pow() was an eighth of greedy's time."""
    c = WS_POW + slot * POW_W
    for k in range(POW_N):
        if ws[c + k] == progress:
            return ws[c + POW_N + k]
    k = int(ws[c + 2 * POW_N])
    ws[c + 2 * POW_N] = (k + 1) % POW_N
    ws[c + k] = progress
    r = progress**exponent
    ws[c + POW_N + k] = r
    return r


@leaf
def _push_top(ws, size, pr) -> None:
    """Keep the six best completion chances per estate size (sorted, descending)."""
    base = WS_TOP + size * 6
    if pr <= ws[base + 5]:
        return
    i = 5
    while i > 0 and ws[base + i - 1] < pr:
        ws[base + i] = ws[base + i - 1]
        i -= 1
    ws[base + i] = pr


# Inlined: a leaf's module makes machine code again for all it calls (combine's whole tree);
# cold compile: docs/findings/kernel-phases.md, "Wrappers inlined".
@inlined
def evaluate(R, prm, sh, p, ctx, ws, skip_slot) -> float:
    """Weighted value of player p's sheet (see the module docstring), walking every street."""
    prepare_terms(R, prm, sh.sc, p, ctx, ws, skip_slot)
    walk_sheet(R, prm, sh, p, ws)
    return combine(R, prm, sh, p, ctx, ws, skip_slot, (-1, 0, -1, 0), False)


@leaf
def prepare_terms(R, prm, sc, p, ctx, ws, skip_slot) -> None:
    """The terms of the evaluation that depend only on player p's score sheet and the plans, into
    ws[WS_TERMS...]: called once a turn, and again around a move that changes the score sheet."""
    t = WS_TERMS
    for s in range(R[0, P_NSTREETS]):
        retouch_terms(R, prm, sc, p, ws, PARK, s, 0)
    for col in range(6):
        retouch_terms(R, prm, sc, p, ws, IMPROVEMENT, 0, col)
    retouch_terms(R, prm, sc, p, ws, POOL, 0, 0)
    retouch_terms(R, prm, sc, p, ws, EXTENSION, 0, 0)
    retouch_penalties(R, sc, p, ws)
    # Which estate sizes the best-chance lists must keep (open plain estate plans), and whether a
    # plan in play asks where, or with what, its estates are (then every estate is recorded).
    record = False
    sizes = 0
    for slot in range(3):
        if sc[p, SC_PLAN_ROUND + slot] == 0 and slot != skip_slot:
            plan = ctx[CTX_PLAN + slot]
            if R[R_PLAN_KIND, plan] == PK_ESTATES and R[R_PLAN_PLAIN, plan] == 0:
                record = True
            if R[R_PLAN_PLAIN, plan] == 1:
                for size in range(1, 7):
                    if R[R_PLAN_NEED + size, plan] > 0:
                        sizes |= 1 << size
            pts = R[R_PLAN_LATER, plan] if ctx[CTX_FLIPPED + slot] else R[R_PLAN_FIRST, plan]
            ws[t + T_PLAN + slot] = prm[W_PLAN] * pts
    ws[t + T_RECORD] = 1.0 if record else 0.0
    ws[t + T_SIZES] = sizes
    ws[t + T_BLIND] = prm[BLIND]
    ws[t + T_W_ESTATE], ws[t + T_W_LONG], ws[t + T_W_DEAD] = prm[W_ESTATE], prm[W_LONG], prm[W_DEAD]
    ws[t + T_W_WASTE], ws[t + T_W_TEMP] = prm[W_POOL_WASTE], prm[W_TEMP]
    ws[t + T_TEMP_TARGET] = prm[TEMP_TARGET]
    ws[t + T_SOLO] = 1.0 if ctx[CTX_PLAYERS] == 1 else 0.0
    for slot in range(3):
        plan = ctx[CTX_PLAN + slot]
        ws[t + T_PLAN_ID + slot] = plan
        ws[t + T_PLAN_EXP + slot] = plan_exponent(R, prm, plan)


@spliced
def retouch_penalties(R, sc, p, ws) -> None:
    """The refusal and roundabout penalties of the prepared terms, from player p's score sheet
    (prepare_terms calls this): all a roundabout tried before the move changes
    (greedy.greedy_roundabout), whose refusal, if any, is not taken."""
    ws[WS_TERMS + T_REF] = R[R_REF_TRACK, sc[p, SC_REFUSALS]]
    ws[WS_TERMS + T_RB] = R[R_RB_TRACK, sc[p, SC_ROUNDABOUTS]]


@spliced
def retouch_terms(R, prm, sc, p, ws, a, s, col) -> None:
    """The prepared terms an action a (in street s, improvement column col) changes, from player
    p's score sheet: the same values as prepare_terms gives them (it calls this), so that a move
    re-prepares only what it changed."""
    t = WS_TERMS
    if a == PARK:
        last = R[R_PARK_LEN, s] - 1
        # A street without a park box (American Dream) has no park term.
        ws[t + T_PARK + s] = (
            prm[W_PARK] * sc[p, SC_PARK + s] * R[R_PARK_TRACK + s, last] / last if last > 0 else 0.0
        )
    elif a == IMPROVEMENT:
        i = sc[p, SC_IMPR + col]
        ws[t + T_IMPR + col] = prm[W_IMPR_PRIOR] * (R[R_ESTATE_VALS + col, i] - R[R_ESTATE_VALS + col, 0])
    elif a == POOL:
        n_pools = sc[p, SC_POOLS]
        ws[t + T_POOL] = prm[W_POOL] * R[R_POOL_TRACK, n_pools]
        ws[t + T_WASTE] = 1.0 if n_pools < R[0, P_POOL_LEN] - 1 else 0.0
    elif a == EXTENSION:
        ws[t + T_EXT] = prm[W_EXT] * R[R_EXT_TRACK, sc[p, SC_EXT]]


@spliced
def combine(R, prm, sh, p, ctx, ws, skip_slot, recs, fresh) -> float:
    """Weighted value of player p's sheet (sh: sheetops.Sheets) from street records and prepared
    terms (prepare_terms, with the same prm and ctx): recs = (s1, k1, s2, k2), street s1 from
    record k1, s2 from k2, every other street s from record s (-1: none); `fresh` re-prices the
    estates from today's improvement levels (the records carry the levels they were walked at).
    The terms are added in one fixed order (streets in order, estates left to right, then the
    sheet-wide terms), so the value is the same to the last bit however the records were made.

    Inlined into its callers (jit.spliced), it calls _combine with only the arrays that needs:
    the expansion's term, the one reader of the fences, is valued here first (it reads and
    writes nothing _combine does) and added by _combine in its place in the order."""
    x = 0.0
    if EXPANSIONS == 1 and R[0, P_EXPANSION] != 0 and prm[BLIND] == 0.0:
        x = prm[W_X] * _x_term(R, sh, p, ws, recs)
    return _combine(R, sh.cells, sh.flags, sh.sc, p, ws, skip_slot, recs, fresh, x)


@leaf
def _combine(R, cells, flags, sc, p, ws, skip_slot, recs, fresh, x) -> float:
    """combine() from the prepared terms alone; x: the expansion's weighted term."""
    s1, k1, s2, k2 = recs
    t = WS_TERMS
    sizes = int(ws[t + T_SIZES])
    if sizes != 0:
        for size in range(1, 7):
            if (sizes >> size) & 1:
                for j in range(6):
                    ws[WS_TOP + size * 6 + j] = 0.0
    record = ws[t + T_RECORD] != 0.0
    n_seg = 0
    value = 0.0
    dead_total = 0.0
    waste = 0
    est = 0.0
    long_houses = 0
    for s in range(R[0, P_NSTREETS]):
        value += ws[t + T_PARK + s]
        k = k1 if s == s1 else (k2 if s == s2 else s)
        base = WS_ST + ST_W * k
        dead_total += ws[base]
        long_houses += int(ws[base + 1])
        waste += int(ws[base + 2])
        for i in range(int(ws[base + 3])):
            e = base + ST_HEAD + ST_E * i
            if fresh:
                size = int(ws[e])
                est += R[R_ESTATE_VALS + size - 1, sc[p, SC_IMPR + size - 1]] * ws[e + 1]
            else:
                est += ws[e + 4]
            if ws[e + 3] != 0.0:
                size = int(ws[e])
                if (sizes >> size) & 1:
                    _push_top(ws, size, ws[e + 1])
                if record and n_seg < MAX_SEGS:
                    a = int(ws[e + 2])
                    pools = 0
                    exts = 0
                    for h in range(a, a + size):
                        pools += (flags[p, s, h] & F_POOL) != 0
                        exts += (flags[p, s, h] & F_EXT) != 0
                    r = WS_SEG + SEG_W * n_seg
                    ws[r], ws[r + 1], ws[r + 2] = s, a, size
                    ws[r + 3], ws[r + 4], ws[r + 5] = ws[e + 1], pools, exts
                    n_seg += 1
    ws[WS_NSEG] = n_seg if record else -1.0
    value += ws[t + T_W_ESTATE] * est + ws[t + T_W_LONG] * long_houses - ws[t + T_W_DEAD] * dead_total
    # Improvements: estates of each size still to come.
    for i in range(6):
        value += ws[t + T_IMPR + i]
    # Pools.
    value += ws[t + T_POOL]
    if ws[t + T_WASTE] != 0.0:
        value -= ws[t + T_W_WASTE] * waste
    # Temp workers (a placement can hire one: not prepared).
    temps = sc[p, SC_TEMPS]
    if temps > 0:
        if ws[t + T_SOLO] != 0.0:
            value += ws[t + T_W_TEMP] * R[R_TEMP_MAJ, 0]
        else:
            share = temps / ws[t + T_TEMP_TARGET]
            value += ws[t + T_W_TEMP] * R[R_TEMP_MAJ, 0] * (share if share < 1.0 else 1.0)
    # The expansion's own scoring (eggs, cones, strings): combine passes 0.0 without an expansion
    # and for a player blind to it.
    if EXPANSIONS == 1:
        value += x
    # Penalties.
    value -= ws[t + T_EXT]
    value -= ws[t + T_REF]
    value -= ws[t + T_RB]
    # Plans.
    for slot in range(3):
        if sc[p, SC_PLAN_ROUND + slot] > 0:
            value += sc[p, SC_PLAN_SCORE + slot]
            continue
        if slot == skip_slot:
            continue
        plan = int(ws[t + T_PLAN_ID + slot])
        if R[R_PLAN_PLAIN, plan] == 1:
            got = 0.0
            total = 0
            for size in range(1, 7):
                k = R[R_PLAN_NEED + size, plan]
                for j in range(k if k <= 6 else 6):
                    got += ws[WS_TOP + size * 6 + j]
                total += k
            progress = got / total if total > 0 else 0.0
        else:
            progress = plan_progress(R, cells, flags, sc, p, plan, ws)
        value += ws[t + T_PLAN + slot] * _pow(ws, slot, progress, ws[t + T_PLAN_EXP + slot])
    return value


@leaf
def plan_exponent(R, prm, plan) -> float:
    """The exponent on a plan's progress: `x_plan_exp` for an expansion's own goal (its kind
    "expansion" plans and estate plans asking for its feature) where the expansion says so
    (x_own_goal_exp) and the player sees it, else `plan_exp`. Base games have no such plan."""
    own = R[R_PLAN_KIND, plan] == PK_EXPANSION or R[R_PLAN_XFEAT, plan] != 0
    if own and prm[BLIND] == 0.0 and x_own_goal_exp(R):
        return prm[X_PLAN_EXP]
    return prm[PLAN_EXP]


# Inlined into combine, its one caller (cold compile: docs/findings/kernel-phases.md, "Wrappers inlined").
@inlined
def _x_term(R, sh, p, ws, recs) -> float:
    """The expansion's valuation for combine(): from the street parts kept beside the records
    (street s1 from record k1, s2 from k2, any other s from s), or valued whole. A record's part
    is computed the first time it is asked (the walk leaves NaN): a record stands for its street
    as the sheet has it whenever it is used, so the part is the one the walk would have made."""
    cells, flags, fences, sc = sh
    s1, k1, s2, k2 = recs
    # Computed here, not in the walk: the part hooks in the walk's code made every walk slower,
    # base games' too (measured 2-5%).
    if x_street_parts(R):
        x_parts = 0.0
        for s in range(R[0, P_NSTREETS]):
            i = WS_XPART + (k1 if s == s1 else (k2 if s == s2 else s))
            if np.isnan(ws[i]):
                ws[i] = x_street_part(R, cells, flags, sc, p, s)
            x_parts += ws[i]
        return x_sheet_value(R, cells, flags, sc, p, x_parts)
    return x_value(R, cells, flags, fences, sc, p)


@leaf
def aaa_price(R, prm, number, action) -> float:
    """Greedy's price, in points of its evaluation, of a card of this number code and action
    going to the AAA (`aaa` weight): the card's rough AAA value plus the expansion's share."""
    cost = prm[W_AAA] * R[R_AAA_VALUE, action] / 10.0
    if prm[BLIND] == 0.0:  # blind to the expansion: its AAA rule is not seen
        cost += prm[W_AAA] * x_aaa_card(R, number, action)
    return cost


TIE_JITTER = 1e-6  # far below any real difference in value


@leaf
def noisy(value, prm, rng) -> float:
    """Evaluation plus uniform noise from the game's generator, of width prm[NOISE] or, at 0, just
    enough to break exact ties at random (scan order instead costs points: docs/findings/greedy.md)."""
    width = prm[NOISE] if prm[NOISE] > 0.0 else TIE_JITTER
    return value + width * (rng_below(rng, 1 << 20) / float(1 << 20) - 0.5)
