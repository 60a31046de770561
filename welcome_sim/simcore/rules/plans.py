"""Compiled city plan checks: is a plan satisfied, and what validating it uses.

Every kind of plans/*.toml (datafiles.PLAN_KINDS) is checked here from the rows R_PLAN_*. A house
already used for a plan (F_LOCK for estates, F_USED for first-edition house plans) never counts
for another plan. Estate plans lock their estates (no fence may divide them afterwards); plans
on houses (a full street, street ends, bis numbers) mark those houses used; plans on tracks
(parks, pools, temps, improvements) use nothing.
"""

from __future__ import annotations

from welcome_sim.simcore.ground.jit import inlined, leaf
from welcome_sim.simcore.ground.layout import (
    B_FENCE,
    EMPTY,
    F_EXT,
    F_LOCK,
    F_POOL,
    F_TAKEN,
    F_USED,
    ROUNDABOUT,
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
    PK_POOLS_FULL,
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
from welcome_sim.simcore.rules.expansions.hooks import x_estate_feature, x_goal


@leaf
def street_roundabouts(R, cells, p, s) -> int:
    """Roundabouts built in street s."""
    k = 0
    for h in range(R[R_STREET_LEN, s]):
        if cells[p, s, h] == ROUNDABOUT:
            k += 1
    return k


@leaf
def park_full(R, sc, p, s) -> bool:
    """Every park box of street s is crossed."""
    return sc[p, SC_PARK + s] >= R[R_PARK_LEN, s] - 1


@leaf
def pools_full(R, flags, p, s) -> bool:
    """Street s has pools and every one of them is built."""
    if R[R_POOL_COUNT, s] == 0:
        return False
    for h in range(R[R_STREET_LEN, s]):
        if R[R_POOL_HOUSE + s, h] == 1 and not (flags[p, s, h] & F_POOL):
            return False
    return True


@leaf
def _estates_in(R, cells, flags, fences, p, plan, streets, lock, used) -> int:
    """Estate plan within streets s0..s1-1 (streets = (s0, s1)): the estates it would use (first
    qualifying ones in sheet order, which is optimal: qualifying estates of one size are
    interchangeable), written to used[]; returns how many, or -1 if the plan is not met there.
    Locks them if asked."""
    s0, s1 = streets
    n0 = 0
    n1 = R[R_PLAN_NEED + 1, plan]
    n2 = R[R_PLAN_NEED + 2, plan]
    n3 = R[R_PLAN_NEED + 3, plan]
    n4 = R[R_PLAN_NEED + 4, plan]
    n5 = R[R_PLAN_NEED + 5, plan]
    n6 = R[R_PLAN_NEED + 6, plan]
    left = n1 + n2 + n3 + n4 + n5 + n6
    min_pool = R[R_PLAN_MINPOOL, plan]
    min_ext = R[R_PLAN_MINEXT, plan]
    ends = R[R_PLAN_ENDS, plan] == 1
    feature = R[R_PLAN_XFEAT, plan]
    k = 0
    for s in range(s0, s1):
        n = R[R_STREET_LEN, s]
        start = 0
        for b in range(1, n + 1):
            if not (b == n or (fences[p, s, b] & B_FENCE)):
                continue
            size = b - start
            a = start
            start = b
            if size > 6 or left == 0:
                continue
            want = (n0, n1, n2, n3, n4, n5, n6)[size]
            if want == 0:
                continue
            if ends and a != 0 and b != n:
                continue
            ok = True
            pools = 0
            exts = 0
            for h in range(a, b):
                f = flags[p, s, h]
                if cells[p, s, h] < 0 or (f & F_TAKEN):
                    ok = False
                    break
                if f & F_POOL:
                    pools += 1
                if f & F_EXT:
                    exts += 1
            if not ok or pools < min_pool or exts < min_ext:
                continue
            if feature != 0:
                m = x_estate_feature(R, cells, flags, p, s, a, b, feature)
                if m < R[R_PLAN_XMIN, plan] or (R[R_PLAN_XMAX, plan] >= 0 and m > R[R_PLAN_XMAX, plan]):
                    continue
            if size == 1:
                n1 -= 1
            elif size == 2:
                n2 -= 1
            elif size == 3:
                n3 -= 1
            elif size == 4:
                n4 -= 1
            elif size == 5:
                n5 -= 1
            else:
                n6 -= 1
            left -= 1
            used[k, 0] = s
            used[k, 1] = a
            used[k, 2] = b - 1
            k += 1
    if left > 0:
        return -1
    if lock:
        for i in range(k):
            for h in range(used[i, 1], used[i, 2] + 1):
                flags[p, used[i, 0], h] |= F_LOCK
    return k


@inlined
def _estate_plan(R, cells, flags, fences, p, plan, lock, used) -> int:
    """Estate plans, with their street and roundabout conditions."""
    st = R[R_PLAN_STREET, plan]
    rb = R[R_PLAN_RB, plan]
    n_streets = R[0, P_NSTREETS]
    if st >= 0:
        if street_roundabouts(R, cells, p, st) < rb:
            return -1
        return _estates_in(R, cells, flags, fences, p, plan, (st, st + 1), lock, used)
    if st == -2:  # all in one street, which also holds the roundabouts
        for s in range(n_streets):
            if street_roundabouts(R, cells, p, s) >= rb:
                k = _estates_in(R, cells, flags, fences, p, plan, (s, s + 1), lock, used)
                if k >= 0:
                    return k
        return -1
    if rb > 0:
        total = 0
        for s in range(n_streets):
            total += street_roundabouts(R, cells, p, s)
        if total < rb:
            return -1
    return _estates_in(R, cells, flags, fences, p, plan, (0, n_streets), lock, used)


@leaf
def plan_check(R, cells, flags, fences, sc, p, plan, lock, used) -> int:
    """-1 if player p cannot validate `plan` now; otherwise how many rows of used[] (street,
    first, last house) describe what it uses (0 for plans on tracks). With lock, marks them."""
    kind = R[R_PLAN_KIND, plan]
    count = R[R_PLAN_COUNT, plan]
    n_streets = R[0, P_NSTREETS]
    if kind == PK_ESTATES:
        return _estate_plan(R, cells, flags, fences, p, plan, lock, used)
    if kind == PK_PARKS:
        total = 0
        for s in range(n_streets):
            total += sc[p, SC_PARK + s]
        return 0 if total >= count else -1
    if kind == PK_PARKS_EACH:
        for s in range(n_streets):
            if sc[p, SC_PARK + s] < count:
                return -1
        return 0
    if kind == PK_PARKS_FULL or kind == PK_POOLS_FULL:
        full = 0
        for s in range(n_streets):
            if (kind == PK_PARKS_FULL and park_full(R, sc, p, s)) or (
                kind == PK_POOLS_FULL and pools_full(R, flags, p, s)
            ):
                full += 1
        return 0 if full >= count else -1
    if kind == PK_PARKS_POOLS_FULL:
        st = R[R_PLAN_STREET, plan]
        for s in range(n_streets):
            if st >= 0 and s != st:
                continue
            if (
                park_full(R, sc, p, s)
                and pools_full(R, flags, p, s)
                and street_roundabouts(R, cells, p, s) >= R[R_PLAN_RB, plan]
            ):
                return 0
        return -1
    if kind == PK_TEMPS:
        return 0 if sc[p, SC_TEMPS] >= count else -1
    if kind == PK_EXPANSION:
        return 0 if x_goal(R, cells, flags, sc, p, plan) else -1
    if kind == PK_IMPROVEMENTS or kind == PK_IMPR_COLUMNS:
        total = 0
        full = 0
        for col in range(6):
            total += sc[p, SC_IMPR + col]
            if sc[p, SC_IMPR + col] >= R[R_ESTATE_LEN, col] - 1:
                full += 1
        if kind == PK_IMPROVEMENTS:
            return 0 if total >= count else -1
        return 0 if full >= count else -1
    if kind == PK_STREET_FULL:
        s = R[R_PLAN_STREET, plan]
        n = R[R_STREET_LEN, s]
        for h in range(n):
            # A roundabout fills its house; Zombie Outbreak: "A Z is not a number".
            c = cells[p, s, h]
            if c == EMPTY or c == ZOMBIE or (flags[p, s, h] & F_TAKEN):
                return -1
        used[0, 0], used[0, 1], used[0, 2] = s, 0, n - 1
        if lock:
            _mark_used(R, cells, flags, p, s, 0, n - 1)
        return 1
    if kind == PK_STREET_ENDS:
        for s in range(n_streets):
            n = R[R_STREET_LEN, s]
            for h in (0, n - 1):
                if cells[p, s, h] < 0 or (flags[p, s, h] & F_TAKEN):
                    return -1
        k = 0
        for s in range(n_streets):
            n = R[R_STREET_LEN, s]
            used[k, 0], used[k, 1], used[k, 2] = s, 0, 0
            used[k + 1, 0], used[k + 1, 1], used[k + 1, 2] = s, n - 1, n - 1
            k += 1 if n == 1 else 2
            if lock:
                _mark_used(R, cells, flags, p, s, 0, 0)
                _mark_used(R, cells, flags, p, s, n - 1, n - 1)
        return k
    if kind == PK_EXT_IN_STREET:
        for s in range(n_streets):
            k = 0
            for h in range(R[R_STREET_LEN, s]):
                if (flags[p, s, h] & F_EXT) and not (flags[p, s, h] & F_TAKEN):
                    if k < count:
                        used[k, 0], used[k, 1], used[k, 2] = s, h, h
                    k += 1
            if k >= count:
                if lock:
                    for i in range(count):
                        _mark_used(R, cells, flags, p, s, used[i, 1], used[i, 1])
                return count
        return -1
    return -1


@leaf
def _mark_used(R, cells, flags, p, s, a, b) -> None:
    """Mark the numbered houses a..b of street s as used for a plan."""
    for h in range(a, b + 1):
        if cells[p, s, h] >= 0:
            flags[p, s, h] |= F_USED


@leaf
def counts_meet(R, counts, plan) -> bool:
    """Estate counts per size (sheetops.estate_counts) cover a plain estate plan."""
    for size in range(1, 7):
        if counts[size] < R[R_PLAN_NEED + size, plan]:
            return False
    return True
