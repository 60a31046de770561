"""An upper bound on a placement's value, so that greedy's search skips combine() for placements
that cannot be among their combination's two best (greedy_search._placements).

A placement changes one street's record, the temp workers (a number it adjusted) and what the
cells decide (the expansion's value, plans other than estate plans); everything else in
combine()'s sum is the turn's sheet's. `placement_base()` splits the turn's sheet once a turn;
`placement_skips()` adds the placement's street record to the rest, the temp, expansion and
non-estate plan terms exactly as combine() computes them, and bounds each open estate plan's
term: a plain estate plan's best-chance sum grows by at most the chances of the new record's
estates of the sizes it needs (the records the placement replaces only take chances away), and an
estate plan with conditions is worth at most its points (progress 1). The terms are added in
another order than combine()'s, so the bound may differ from an equal value in the last bits: the
search keeps a margin far above that (`BOUND_SLACK`) and far below the tie-breaking noise, so the
games are the same as without the bound.
"""

from __future__ import annotations

from welcome_sim.simcore.ground.features import EXPANSIONS
from welcome_sim.simcore.ground.jit import leaf
from welcome_sim.simcore.ground.layout import (
    SC_PLAN_ROUND,
    SC_PLAN_SCORE,
    SC_TEMPS,
)
from welcome_sim.simcore.ground.table import (
    P_EXPANSION,
    P_NSTREETS,
    PK_ESTATES,
    R_PLAN_KIND,
    R_PLAN_NEED,
    R_PLAN_PLAIN,
    R_TEMP_MAJ,
)
from welcome_sim.strategies.context import (
    CTX_PLAN,
    CTX_PLAYERS,
)
from welcome_sim.strategies.greedy_eval import _pow, _x_term, combine, plan_progress
from welcome_sim.strategies.greedy_layout import (
    BLIND,
    PB_ADD,
    PB_DEAD,
    PB_EST,
    PB_GOT,
    PB_KIND,
    PB_LONG,
    PB_ON,
    PB_OPEN,
    PB_REST,
    PB_SIZES,
    PB_STREET,
    PB_TEMP,
    PB_TERM,
    PB_TOTAL,
    PB_W_DEAD,
    PB_W_ESTATE,
    PB_W_LONG,
    PB_W_WASTE,
    PB_WASTE,
    PBK_DONE,
    PBK_ESTATES,
    PBK_OTHER,
    PBK_PLAIN,
    PLAN_EXP,
    ST_E,
    ST_HEAD,
    ST_W,
    T_EXT,
    T_IMPR,
    T_PARK,
    T_PLAN,
    T_POOL,
    T_RB,
    T_REF,
    T_WASTE,
    TEMP_TARGET,
    W_DEAD,
    W_ESTATE,
    W_LONG,
    W_PLAN,
    W_POOL_WASTE,
    W_TEMP,
    W_X,
    WS_PB,
    WS_ST,
    WS_TERMS,
    WS_TOP,
)

# How far above a placement's bound its true value may lie from the order of the additions alone
# (values are a few hundred points, sums of a few dozen terms: about 1e-12), yet far below the
# tie-breaking noise (1e-6, greedy_eval.TIE_JITTER).
BOUND_SLACK = 1e-9


@leaf
def _plan_sum(R, ws, plan) -> float:
    """A plain estate plan's best-chance sum from the lists combine() left in ws, in its order."""
    got = 0.0
    for size in range(1, 7):
        k = R[R_PLAN_NEED + size, plan]
        for j in range(k if k <= 6 else 6):
            got += ws[WS_TOP + size * 6 + j]
    return got


@leaf
def _temp_term(R, prm, ctx, temps) -> float:
    """combine()'s temp-worker term for this many temp workers."""
    if temps <= 0:
        return 0.0
    if ctx[CTX_PLAYERS] == 1:
        return prm[W_TEMP] * R[R_TEMP_MAJ, 0]
    share = temps / prm[TEMP_TARGET]
    return prm[W_TEMP] * R[R_TEMP_MAJ, 0] * (share if share < 1.0 else 1.0)


@leaf
def quick_skip(ws, s, k, adjusted, bar) -> int:
    """placement_skips() from the turn's split alone (a few arguments: a leaf's call costs per
    array), every plan the placement may change at full progress: 1 the placement is at most
    `bar`, 0 it may exceed it, 2 placement_skips() may tell (a plan's progress, or the
    expansion's value, to see)."""
    b = WS_PB
    if ws[b + PB_OPEN] != 0.0:
        return 2  # the expansion's value: placement_skips() sees it
    t = WS_TERMS
    base = WS_ST + ST_W * k
    n_est = int(ws[base + 3])
    est = 0.0
    for i in range(n_est):
        est += ws[base + ST_HEAD + ST_E * i + 4]
    r = b + PB_STREET + 4 * s
    est += ws[b + PB_EST] - ws[r]
    dead = ws[b + PB_DEAD] - ws[r + 1] + ws[base]
    long_houses = ws[b + PB_LONG] - ws[r + 2] + ws[base + 1]
    value = ws[b + PB_REST] + ws[b + PB_W_ESTATE] * est + ws[b + PB_W_LONG] * long_houses
    value -= ws[b + PB_W_DEAD] * dead
    if ws[t + T_WASTE] != 0.0:
        value -= ws[b + PB_W_WASTE] * (ws[b + PB_WASTE] - ws[r + 3] + ws[base + 2])
    value += ws[b + PB_TEMP + (1 if adjusted else 0)]
    more = False
    for slot in range(3):
        kind = ws[b + PB_KIND + slot]
        if kind == PBK_PLAIN:
            sizes = int(ws[b + PB_SIZES + slot])
            add = False
            for i in range(n_est):
                e = base + ST_HEAD + ST_E * i
                if ws[e + 3] != 0.0 and (sizes >> int(ws[e])) & 1:
                    add = True
            if add:
                value += ws[t + T_PLAN + slot]
                more = True
            else:
                value += ws[b + PB_TERM + slot]
        elif kind != PBK_DONE:
            value += ws[t + T_PLAN + slot]  # progress at most 1
            more = more or kind == PBK_OTHER
    if value + BOUND_SLACK <= bar:
        return 1
    return 2 if more else 0


@leaf
def placement_base(R, prm, sh, p, ctx, ws) -> None:
    """Split the turn's sheet (street records 0..streets-1, walked) for placement_skips(); the
    bound is off (PB_ON 0) where a weight would make a plan's term fall as its progress grows."""
    sc = sh.sc
    b = WS_PB
    t = WS_TERMS
    ws[b + PB_ON] = 1.0 if prm[W_PLAN] >= 0.0 and prm[PLAN_EXP] > 0.0 else 0.0
    ws[b + PB_W_ESTATE], ws[b + PB_W_LONG] = prm[W_ESTATE], prm[W_LONG]
    ws[b + PB_W_DEAD], ws[b + PB_W_WASTE] = prm[W_DEAD], prm[W_POOL_WASTE]
    # The turn's sheet valued once: the best-chance lists it leaves are the plans' sums.
    combine(R, prm, sh, p, ctx, ws, -1, (-1, 0, -1, 0), False)
    rest = 0.0
    est = 0.0
    dead = 0.0
    long_houses = 0.0
    waste = 0.0
    for s in range(R[0, P_NSTREETS]):
        rest += ws[t + T_PARK + s]
        base = WS_ST + ST_W * s
        e_s = 0.0
        for i in range(int(ws[base + 3])):
            e_s += ws[base + ST_HEAD + ST_E * i + 4]
        r = b + PB_STREET + 4 * s
        ws[r], ws[r + 1], ws[r + 2], ws[r + 3] = e_s, ws[base], ws[base + 1], ws[base + 2]
        est += e_s
        dead += ws[base]
        long_houses += ws[base + 1]
        waste += ws[base + 2]
    ws[b + PB_EST], ws[b + PB_DEAD], ws[b + PB_LONG], ws[b + PB_WASTE] = est, dead, long_houses, waste
    for i in range(6):
        rest += ws[t + T_IMPR + i]
    rest += ws[t + T_POOL] - ws[t + T_EXT] - ws[t + T_REF] - ws[t + T_RB]
    for slot in range(3):
        if sc[p, SC_PLAN_ROUND + slot] > 0:
            rest += sc[p, SC_PLAN_SCORE + slot]
            ws[b + PB_KIND + slot] = PBK_DONE
            continue
        plan = ctx[CTX_PLAN + slot]
        if R[R_PLAN_PLAIN, plan] == 1:
            ws[b + PB_KIND + slot] = PBK_PLAIN
            got = _plan_sum(R, ws, plan)
            total = 0
            sizes = 0
            for size in range(1, 7):
                total += R[R_PLAN_NEED + size, plan]
                if R[R_PLAN_NEED + size, plan] > 0:
                    sizes |= 1 << size
            progress = got / total if total > 0 else 0.0
            ws[b + PB_SIZES + slot] = sizes
            ws[b + PB_TOTAL + slot] = total
            ws[b + PB_GOT + slot] = got
            ws[b + PB_TERM + slot] = ws[t + T_PLAN + slot] * _pow(ws, slot, progress, prm[PLAN_EXP])
        elif R[R_PLAN_KIND, plan] == PK_ESTATES:
            ws[b + PB_KIND + slot] = PBK_ESTATES
        else:
            ws[b + PB_KIND + slot] = PBK_OTHER
    ws[b + PB_REST] = rest
    ws[b + PB_TEMP] = _temp_term(R, prm, ctx, sc[p, SC_TEMPS])
    ws[b + PB_TEMP + 1] = _temp_term(R, prm, ctx, sc[p, SC_TEMPS] + 1)
    ws[b + PB_OPEN] = 1.0 if EXPANSIONS == 1 and R[0, P_EXPANSION] != 0 and prm[BLIND] == 0.0 else 0.0


@leaf
def placement_skips(R, prm, sh, p, ctx, ws, s, k, bar) -> bool:
    """Whether the value combine() gives the sheet with street s from record k (a placement in it,
    walked) and every other street from its own record is at most `bar`, by a bound: first with
    every plain plan the placement adds to at full progress, then, if that is not enough, at the
    progress it can reach at most."""
    cells, flags, sc = sh.cells, sh.flags, sh.sc
    b = WS_PB
    t = WS_TERMS
    base = WS_ST + ST_W * k
    n_est = int(ws[base + 3])
    est = 0.0
    for i in range(n_est):
        est += ws[base + ST_HEAD + ST_E * i + 4]
    r = b + PB_STREET + 4 * s
    est += ws[b + PB_EST] - ws[r]
    dead = ws[b + PB_DEAD] - ws[r + 1] + ws[base]
    long_houses = ws[b + PB_LONG] - ws[r + 2] + ws[base + 1]
    value = ws[b + PB_REST] + prm[W_ESTATE] * est + prm[W_LONG] * long_houses - prm[W_DEAD] * dead
    if ws[t + T_WASTE] != 0.0:
        value -= prm[W_POOL_WASTE] * (ws[b + PB_WASTE] - ws[r + 3] + ws[base + 2])
    value += _temp_term(R, prm, ctx, sc[p, SC_TEMPS])
    if EXPANSIONS == 1 and R[0, P_EXPANSION] != 0 and prm[BLIND] == 0.0:
        value += prm[W_X] * _x_term(R, sh, p, ws, (s, k, -1, 0))
    refine = False
    for slot in range(3):
        kind = ws[b + PB_KIND + slot]
        if kind == PBK_PLAIN:
            sizes = int(ws[b + PB_SIZES + slot])
            add = 0.0
            for i in range(n_est):
                e = base + ST_HEAD + ST_E * i
                if ws[e + 3] != 0.0 and (sizes >> int(ws[e])) & 1:
                    add += ws[e + 1]
            ws[b + PB_ADD + slot] = add
            if add == 0.0:
                value += ws[b + PB_TERM + slot]
            else:
                value += ws[t + T_PLAN + slot]  # progress at most 1; refined below if need be
                refine = True
        elif kind == PBK_ESTATES:
            value += ws[t + T_PLAN + slot]  # progress at most 1
        elif kind == PBK_OTHER:
            progress = plan_progress(R, cells, flags, sc, p, ctx[CTX_PLAN + slot], ws)
            value += ws[t + T_PLAN + slot] * _pow(ws, slot, progress, prm[PLAN_EXP])
    if value + BOUND_SLACK <= bar:
        return True
    if not refine:
        return False
    for slot in range(3):
        if ws[b + PB_KIND + slot] == PBK_PLAIN and ws[b + PB_ADD + slot] != 0.0:
            progress = (ws[b + PB_GOT + slot] + ws[b + PB_ADD + slot]) / ws[b + PB_TOTAL + slot]
            # pow() itself, not _pow(): a bound's progress seldom comes back, and it would push
            # the values combine() asks for out of _pow's memory.
            full = ws[t + T_PLAN + slot]
            value += full * (progress ** prm[PLAN_EXP] if progress < 1.0 else 1.0) - full
    return value + BOUND_SLACK <= bar
