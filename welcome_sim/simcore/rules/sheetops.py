"""Compiled operations on one player's sheet: legality of every rule, applying a move, estates.

A player's sheet lives in four arrays indexed by player `p` (see layout.py): `cells` (house
numbers), `flags` (bis / pool / plan-lock bits), `fences` (per boundary) and `sc` (counters).
A move is an int64[8] array: combo (-1 = refusal), street, house, value, action (-1 = none),
and up to three action parameters.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from welcome_sim.simcore.ground.jit import kernel, leaf, spliced
from welcome_sim.simcore.ground.layout import (
    B_FENCE,
    B_LINK,
    EMPTY,
    EXTENSION,
    F_EXT,
    F_LOCK,
    F_POOL,
    F_TAKEN,
    FENCE,
    IMPROVEMENT,
    MAX_CODE,
    NO_ACTION,
    PARK,
    POOL,
    ROUNDABOUT,
    SC_EXT,
    SC_FENCES,
    SC_IMPR,
    SC_LEN,
    SC_NUMBERED,
    SC_PARK,
    SC_POOLS,
    SC_ROUNDABOUTS,
    SC_TEMPS,
    TEMP,
    TEMP_CODES,
    ZOMBIE,
)
from welcome_sim.simcore.ground.table import (
    P_EXT_LEN,
    P_EXT_SAME_ESTATE,
    P_FENCE_STREETS,
    P_MAXLEN,
    P_NSTREETS,
    P_POOL_LEN,
    P_RB_MAX,
    P_TEMP_BOXES,
    R_ESTATE_LEN,
    R_PARK_LEN,
    R_POOL_HOUSE,
    R_STREET_LEN,
)

BIG = 99


class Sheets(NamedTuple):
    """Every player's sheet (new_state) as one bundle: the four arrays every rule reads. Numba
    passes a NamedTuple of arrays as a flat struct, so a field read costs nothing."""

    cells: np.ndarray  # (players, streets, houses): number codes, EMPTY, ...
    flags: np.ndarray  # (players, streets, houses): house marks (bis, pools, locks, expansions)
    fences: np.ndarray  # (players, streets, houses + 1)
    sc: np.ndarray  # (players, SC_LEN): the score sheet's counters


@leaf
def street_bounds(R, cells, p, lo, hi) -> None:
    """lo[s,h] / hi[s,h]: largest number left / smallest right of house h within its segment.

    A number v fits an empty house h iff lo < v < hi; roundabouts start a new segment.
    """
    for s in range(R[0, P_NSTREETS]):
        n = R[R_STREET_LEN, s]
        m = -1
        for h in range(n):
            lo[s, h] = m
            c = cells[p, s, h]
            if c == ROUNDABOUT:
                m = -1
            elif c > m:
                m = c
        m = BIG
        for h in range(n - 1, -1, -1):
            hi[s, h] = m
            c = cells[p, s, h]
            if c == ROUNDABOUT:
                m = BIG
            elif c >= 0 and c < m:
                m = c


@leaf
def value_range(R, sc, p, number, action):
    """Codes a combination lets this player write: (number, number) or the temp range, whose codes
    run in steps of 2 (a temp worker keeps a 9¾ a ¾ number)."""
    if action == TEMP and sc[p, SC_TEMPS] < R[0, P_TEMP_BOXES]:
        lo = number - TEMP_CODES
        while lo < 0:
            lo += 2
        hi = number + TEMP_CODES
        while hi > MAX_CODE + 1:
            hi -= 2
        return lo, hi
    return number, number


@leaf
def first_code(vmin, lo) -> int:
    """Smallest code above lo reachable from vmin in steps of 2 (codes of a range share parity)."""
    v = vmin if vmin > lo else lo + 1
    if (v - vmin) & 1:  # the parity test without the sign fix-up of a signed modulo
        v += 1
    return v


@leaf
def number_fits_anywhere(R, cells, p, lo, hi, v) -> bool:
    """Whether value v can be written in some empty house."""
    for s in range(R[0, P_NSTREETS]):
        for h in range(R[R_STREET_LEN, s]):
            if cells[p, s, h] == EMPTY and lo[s, h] < v < hi[s, h]:
                return True
    return False


@leaf
def any_fit(R, cells, sc, p, cnum, cact, lo, hi) -> bool:
    """Some combination of the round can be written somewhere (else: a permit refusal)."""
    for c in range(cnum.shape[0]):
        vmin, vmax = value_range(R, sc, p, cnum[c], cact[c])
        for s in range(R[0, P_NSTREETS]):
            for h in range(R[R_STREET_LEN, s]):
                if cells[p, s, h] == EMPTY and first_code(vmin, lo[s, h]) <= min(vmax, hi[s, h] - 1):
                    return True
    return False


@leaf
def fence_ok(R, flags, fences, p, s, b) -> bool:
    """A new fence at boundary b of street s (left of house b) is allowed."""
    if s < 0 or s >= R[0, P_FENCE_STREETS] or b < 1 or b >= R[R_STREET_LEN, s]:
        return False
    if fences[p, s, b] != 0:  # a fence already, or a first-edition bis link
        return False
    # Never inside an estate already used for a plan.
    return not ((flags[p, s, b - 1] & F_LOCK) and (flags[p, s, b] & F_LOCK))


@leaf
def improvement_ok(R, sc, p, col) -> bool:
    """The improvement column for estate size col+1 still has a box to cross."""
    return 0 <= col < 6 and sc[p, SC_IMPR + col] < R[R_ESTATE_LEN, col] - 1


@leaf
def park_ok(R, sc, p, s) -> bool:
    """Street s still has a park box to cross."""
    return sc[p, SC_PARK + s] < R[R_PARK_LEN, s] - 1


@leaf
def pool_ok(R, flags, sc, p, s, h) -> bool:
    """House (s, h) has a pool not yet circled (Halloween's Pool bonus circles one "whether the
    house is numbered or not") and the pool track still has a box."""
    return (
        R[R_POOL_HOUSE + s, h] == 1
        and not (flags[p, s, h] & F_POOL)
        and sc[p, SC_POOLS] < R[0, P_POOL_LEN] - 1
    )


@leaf
def temp_ok(R, sc, p) -> bool:
    """The temp worker track still has a box."""
    return sc[p, SC_TEMPS] < R[0, P_TEMP_BOXES]


@spliced
def extension_ok(R, cells, fences, sc, p, s, src, tgt) -> bool:
    """Copying house src into the adjacent empty house tgt of street s is allowed."""
    if sc[p, SC_EXT] >= R[0, P_EXT_LEN] - 1:
        return False
    if s < 0 or s >= R[0, P_NSTREETS]:
        return False
    n = R[R_STREET_LEN, s]
    if src < 0 or src >= n or tgt < 0 or tgt >= n or src == tgt:
        return False
    if cells[p, s, src] < 0 or cells[p, s, tgt] != EMPTY:
        return False
    if abs(src - tgt) != 1:
        # Zombie Outbreak ("5B-Z-5B"): only invaded houses between.
        d = 1 if tgt > src else -1
        for h in range(src + d, tgt, d):
            if cells[p, s, h] != ZOMBIE:
                return False
    if R[0, P_EXT_SAME_ESTATE] == 1:
        b = max(src, tgt)
        if fences[p, s, b] & B_FENCE:
            return False
    return True


@leaf
def apply_move(R, cells, flags, fences, sc, p, mv) -> None:
    """Write the number and perform the action of a legal move (refusals are counted elsewhere)."""
    s, h, v, a = mv[1], mv[2], mv[3], mv[4]
    cells[p, s, h] = v
    sc[p, SC_NUMBERED] += 1
    if a == NO_ACTION:
        return
    if a == FENCE:
        if mv[7] != 1:  # 1: the expansion's alternative (a barricade), applied by x_on_move
            fences[p, mv[5], mv[6]] |= B_FENCE
            sc[p, SC_FENCES] += 1
    elif a == IMPROVEMENT:
        sc[p, SC_IMPR + mv[5]] += 1
    elif a == PARK:
        sc[p, SC_PARK + s] += 1
    elif a == POOL:
        flags[p, s, h] |= F_POOL
        sc[p, SC_POOLS] += 1
    elif a == TEMP:
        sc[p, SC_TEMPS] += 1
    elif a == EXTENSION:
        es, src, tgt = mv[5], mv[6], mv[7]
        cells[p, es, tgt] = cells[p, es, src]
        flags[p, es, tgt] |= F_EXT
        sc[p, SC_EXT] += 1
        sc[p, SC_NUMBERED] += 1
        if R[0, P_EXT_SAME_ESTATE] == 1:
            fences[p, es, max(src, tgt)] |= B_LINK


@leaf
def roundabout_ok(R, cells, sc, p, s, h) -> bool:
    """A roundabout may replace the empty house (s, h): Advanced mode, fewer than the maximum."""
    if sc[p, SC_ROUNDABOUTS] >= R[0, P_RB_MAX]:
        return False
    if s < 0 or s >= R[0, P_NSTREETS] or h < 0 or h >= R[R_STREET_LEN, s]:
        return False
    return cells[p, s, h] == EMPTY


@leaf
def place_roundabout(cells, fences, sc, p, s, h) -> None:
    """Draw a roundabout in (s, h) with a fence on both sides and cross a roundabout box."""
    cells[p, s, h] = ROUNDABOUT
    fences[p, s, h] |= B_FENCE
    fences[p, s, h + 1] |= B_FENCE
    sc[p, SC_ROUNDABOUTS] += 1


@leaf
def remove_roundabout(cells, fences, sc, p, s, h, f0, f1) -> None:
    """Undo place_roundabout (for trying one out): the house empty again, the fence bits on
    either side back to f0 and f1 as they were before."""
    cells[p, s, h] = EMPTY
    fences[p, s, h] = f0
    fences[p, s, h + 1] = f1
    sc[p, SC_ROUNDABOUTS] -= 1


@leaf
def flagged_houses(flags, p, s, a, b, bit) -> int:
    """Houses a..b-1 of street s whose flags have this bit (an expansion's mark: cone, barricade)."""
    k = 0
    for h in range(a, b):
        if flags[p, s, h] & bit:
            k += 1
    return k


@leaf
def estate_counts(R, cells, flags, fences, p, counts, unlocked_only) -> None:
    """counts[size] = complete estates of that size (1..6); counts[0] = those larger than 6.

    With unlocked_only, estates holding a house already used for a plan are left out."""
    for k in range(7):
        counts[k] = 0
    # One pass over each street's houses (no re-scan from a segment's start).
    for s in range(R[0, P_NSTREETS]):
        n = R[R_STREET_LEN, s]
        start = 0
        complete = True
        for h in range(n):
            free = cells[p, s, h] >= 0
            if unlocked_only:
                free = free & ((flags[p, s, h] & F_TAKEN) == 0)
            complete = complete & free
            b = h + 1
            if b == n or (fences[p, s, b] & B_FENCE):
                if complete:
                    size = b - start
                    counts[size if size <= 6 else 0] += 1
                start = b
                complete = True


@leaf
def reset_player(R, cells, flags, fences, sc, p) -> None:
    """Blank sheet: empty houses, a fence at both ends of every street, all counters zero."""
    cells[p, :, :] = EMPTY
    flags[p, :, :] = 0
    fences[p, :, :] = 0
    sc[p, :] = 0
    for s in range(R[0, P_NSTREETS]):
        n = R[R_STREET_LEN, s]
        fences[p, s, 0] = B_FENCE
        fences[p, s, n] = B_FENCE
        # Houses past a short street's end do not exist: mark them as roundabouts so they never fit.
        for h in range(n, cells.shape[2]):
            cells[p, s, h] = ROUNDABOUT


@kernel
def new_state(R, n_players):
    """Blank sheets for a table: (cells, flags, fences, sc), every player reset."""
    n_streets = R[0, P_NSTREETS]
    max_len = R[0, P_MAXLEN]
    cells = np.empty((n_players, n_streets, max_len), dtype=np.int64)
    flags = np.empty((n_players, n_streets, max_len), dtype=np.int64)
    fences = np.empty((n_players, n_streets, max_len + 1), dtype=np.int64)
    sc = np.empty((n_players, SC_LEN), dtype=np.int64)
    for p in range(n_players):
        reset_player(R, cells, flags, fences, sc, p)
    return cells, flags, fences, sc
