"""Greedy's progress of a plan other than a plain estate plan (0..1, a heuristic): estate plans
with conditions from the estate records combine() leaves, and the other kinds (parks, pools,
improvements, streets, the expansions' own goals) from the sheet; combine() raises it to the plan's
exponent (greedy_eval.plan_exponent)."""

from __future__ import annotations

from welcome_sim.simcore.ground.jit import leaf, spliced
from welcome_sim.simcore.ground.layout import (
    EMPTY,
    F_EXT,
    F_POOL,
    F_TAKEN,
    SC_IMPR,
    SC_PARK,
    SC_TEMPS,
    ZOMBIE,
)
from welcome_sim.simcore.ground.table import (
    P_NSTREETS,
    PK_ESTATES,
    PK_EXPANSION,
    PK_EXT_IN_STREET,
    PK_IMPR_COLUMNS,
    PK_IMPROVEMENTS,
    PK_PARKS,
    PK_PARKS_EACH,
    PK_PARKS_FULL,
    PK_PARKS_POOLS_FULL,
    PK_STREET_ENDS,
    PK_STREET_FULL,
    PK_TEMPS,
    R_ESTATE_LEN,
    R_PARK_LEN,
    R_PLAN_COUNT,
    R_PLAN_ENDS,
    R_PLAN_KIND,
    R_PLAN_MINEXT,
    R_PLAN_MINPOOL,
    R_PLAN_NEED,
    R_PLAN_RB,
    R_PLAN_STREET,
    R_PLAN_XFEAT,
    R_PLAN_XMAX,
    R_PLAN_XMIN,
    R_POOL_COUNT,
    R_POOL_HOUSE,
    R_STREET_LEN,
)
from welcome_sim.simcore.rules.expansions.hooks import (
    x_estate_feature,
    x_progress,
)
from welcome_sim.simcore.rules.plans import street_roundabouts
from welcome_sim.strategies.greedy_layout import (
    SEG_W,
    T_BLIND,
    WS_BEST,
    WS_NSEG,
    WS_SEG,
    WS_TERMS,
    WS_USED,
)

# 0.35 ** k, the discount of an estate k bis short of a plan's minimum: the same pow() of the same
# C library Numba calls (so the same bits), once at import instead of per record valued (pow was
# 1.6% of advanced mode's profile from here).
_BIS_SHORT = tuple(0.35 ** float(k) for k in range(8))


@leaf
def _frac(have, need) -> float:
    """have/need, at most 1."""
    if need <= 0:
        return 1.0
    return min(have, need) / need


@spliced
def _street_estates(R, cells, flags, p, plan, ws, street) -> float:
    """Sum over the estates an estate plan asks for of the best matching recorded estate's chance
    (in `street`, or anywhere at -1), discounted when it lacks the pools / bis / end position /
    expansion feature (an estate past a feature's maximum is out). Largest sizes first; each asked
    estate takes the best record of its size not taken yet (ties: the first recorded)."""
    n_seg = int(ws[WS_NSEG])
    got = 0.0
    min_pool = R[R_PLAN_MINPOOL, plan]
    min_ext = R[R_PLAN_MINEXT, plan]
    ends = R[R_PLAN_ENDS, plan] == 1
    # Blind to the expansion: an estate's feature (eggs, cones, Zoorgs...) is not seen.
    feat = R[R_PLAN_XFEAT, plan] if ws[WS_TERMS + T_BLIND] == 0.0 else 0
    for size in range(6, 0, -1):
        need = R[R_PLAN_NEED + size, plan]
        if need == 0:
            continue
        # The records of this size, each valued once (in record order, into WS_USED), not once
        # per estate asked: the same values, so the same picks.
        n_cand = 0
        for i in range(n_seg):
            b = WS_SEG + SEG_W * i
            if int(ws[b + 2]) != size or (street >= 0 and int(ws[b]) != street):
                continue
            v = ws[b + 3]
            if ws[b + 4] < min_pool:
                v *= 0.35
            if ws[b + 5] < min_ext:
                short = int(min_ext - ws[b + 5])
                v *= _BIS_SHORT[short] if short < len(_BIS_SHORT) else 0.35 ** (min_ext - ws[b + 5])
            if ends and ws[b + 1] != 0.0 and ws[b + 1] + size != R[R_STREET_LEN, int(ws[b])]:
                v *= 0.2
            if feat != 0:
                a = int(ws[b + 1])
                m = x_estate_feature(R, cells, flags, p, int(ws[b]), a, a + size, feat)
                if R[R_PLAN_XMAX, plan] >= 0 and m > R[R_PLAN_XMAX, plan]:
                    v = 0.0
                elif m < R[R_PLAN_XMIN, plan]:
                    v *= 0.5 ** (R[R_PLAN_XMIN, plan] - m)
            ws[WS_USED + n_cand] = v
            n_cand += 1
        for _ in range(need):
            best = 0.0
            bi = -1
            for j in range(n_cand):
                if ws[WS_USED + j] > best:
                    best = ws[WS_USED + j]
                    bi = j
            if bi < 0:
                break  # nothing left worth anything: the later asks of this size get nothing too
            ws[WS_USED + bi] = -1.0  # taken (every value is at least 0)
            got += best
    return got


@leaf
def plan_progress(R, cells, flags, sc, p, plan, ws) -> float:
    """How close player p is to a plan other than a plain estate plan, 0..1 (a heuristic)."""
    kind = R[R_PLAN_KIND, plan]
    count = R[R_PLAN_COUNT, plan]
    n_streets = R[0, P_NSTREETS]
    if kind == PK_ESTATES:
        return _estate_progress(R, cells, flags, plan, ws, p)
    if kind == PK_PARKS:
        total = 0
        for s in range(n_streets):
            total += sc[p, SC_PARK + s]
        return _frac(total, count)
    if kind == PK_PARKS_EACH:
        got = 0.0
        for s in range(n_streets):
            got += _frac(sc[p, SC_PARK + s], count)
        return got / n_streets
    if kind == PK_TEMPS:
        return _frac(sc[p, SC_TEMPS], count)
    if kind == PK_EXPANSION:
        # Blind to the expansion: its own goals are not understood, so not pursued.
        return x_progress(R, cells, flags, sc, p, plan) if ws[WS_TERMS + T_BLIND] == 0.0 else 0.0
    if kind == PK_IMPROVEMENTS:
        total = 0
        for col in range(6):
            total += sc[p, SC_IMPR + col]
        return _frac(total, count)
    if kind == PK_EXT_IN_STREET:
        best = 0.0
        for s in range(n_streets):
            k = 0
            for h in range(R[R_STREET_LEN, s]):
                if (flags[p, s, h] & F_EXT) and not (flags[p, s, h] & F_TAKEN):
                    k += 1
            best = max(best, _frac(k, count))
        return best
    if kind == PK_STREET_ENDS:
        k = 0
        for s in range(n_streets):
            n = R[R_STREET_LEN, s]
            k += (cells[p, s, 0] >= 0) + (cells[p, s, n - 1] >= 0)
        return k / (2.0 * n_streets)
    if kind == PK_STREET_FULL:
        s = R[R_PLAN_STREET, plan]
        n = R[R_STREET_LEN, s]
        k = 0
        for h in range(n):
            if cells[p, s, h] == ZOMBIE:
                return 0.0  # "A Z is not a number": the street can never be full
            if cells[p, s, h] != EMPTY:
                k += 1
        return k / n
    # Kinds that need `count` streets (or columns) full: mean fill of the best ones.
    for j in range(6):
        ws[WS_BEST + j] = 0.0
    n_items = 6 if kind == PK_IMPR_COLUMNS else n_streets
    for i in range(n_items):
        if kind == PK_IMPR_COLUMNS:
            f = _frac(sc[p, SC_IMPR + i], R[R_ESTATE_LEN, i] - 1)
        elif kind == PK_PARKS_FULL:
            f = _frac(sc[p, SC_PARK + i], R[R_PARK_LEN, i] - 1)
        else:
            f = _pool_fill(R, cells, flags, p, i)
            if kind == PK_PARKS_POOLS_FULL:
                st = R[R_PLAN_STREET, plan]
                if st >= 0 and i != st:
                    continue
                rb = R[R_PLAN_RB, plan]
                f = (f + _frac(sc[p, SC_PARK + i], R[R_PARK_LEN, i] - 1)) / 2.0
                if rb > 0:
                    f = (2.0 * f + _frac(street_roundabouts(R, cells, p, i), rb)) / 3.0
        # Insert into the sorted top list.
        j = 5
        if f > ws[WS_BEST + j]:
            while j > 0 and ws[WS_BEST + j - 1] < f:
                ws[WS_BEST + j] = ws[WS_BEST + j - 1]
                j -= 1
            ws[WS_BEST + j] = f
    k = 1 if kind == PK_PARKS_POOLS_FULL else count
    got = 0.0
    for j in range(min(k, 6)):
        got += ws[WS_BEST + j]
    return got / k


@leaf
def _pool_fill(R, cells, flags, p, s) -> float:
    """Share of street s's pools built; 0 once a pool house is numbered without its pool."""
    if R[R_POOL_COUNT, s] == 0:
        return 0.0
    k = 0
    for h in range(R[R_STREET_LEN, s]):
        if R[R_POOL_HOUSE + s, h] == 1:
            if flags[p, s, h] & F_POOL:
                k += 1
            elif cells[p, s, h] != EMPTY:
                return 0.0
    return k / R[R_POOL_COUNT, s]


@spliced
def _estate_progress(R, cells, flags, plan, ws, p) -> float:
    """Progress of an estate plan with street / pool / bis / end / roundabout conditions."""
    total = 0
    for size in range(1, 7):
        total += R[R_PLAN_NEED + size, plan]
    rb = R[R_PLAN_RB, plan]
    st = R[R_PLAN_STREET, plan]
    items = total + rb
    if st == -2:
        best = 0.0
        for s in range(R[0, P_NSTREETS]):
            got = _street_estates(R, cells, flags, p, plan, ws, s) + min(
                street_roundabouts(R, cells, p, s), rb
            )
            best = max(best, got)
        return best / items
    got = _street_estates(R, cells, flags, p, plan, ws, st)
    if rb > 0:
        n_rb = 0
        for s in range(R[0, P_NSTREETS]):
            if st < 0 or s == st:
                n_rb += street_roundabouts(R, cells, p, s)
        got += min(n_rb, rb)
    return got / items
