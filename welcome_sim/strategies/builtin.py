"""Simple compiled baselines: uniformly random legal play, first-fit, and spread.

An expansion's alternative to any action (Roswell's Zoorg): random takes it one time in three
where allowed; first-fit and spread take it when they leave the action unused.

Cheap players for speed benchmarks, reference points in tournaments, and referee coverage (spread
plays long games that reach reshuffles, plan races and full sheets). Each fills a move array (see
simcore/rules/sheetops.py) and is deterministic given the game's RNG state.
"""

from __future__ import annotations

import numpy as np

from welcome_sim.simcore.ground.jit import kernel, leaf
from welcome_sim.simcore.ground.layout import (
    B_FENCE,
    EMPTY,
    EXTENSION,
    FENCE,
    IMPROVEMENT,
    MAX_STREETS,
    NO_ACTION,
    PARK,
    POOL,
    TEMP,
)
from welcome_sim.simcore.ground.rng import rng_below
from welcome_sim.simcore.ground.table import P_NSTREETS, R_STREET_LEN
from welcome_sim.simcore.rules.expansions.hooks import x_alt_ok, x_ext_target, x_fence_alt_ok
from welcome_sim.simcore.rules.sheetops import (
    any_fit,
    estate_counts,
    extension_ok,
    fence_ok,
    first_code,
    improvement_ok,
    park_ok,
    place_roundabout,
    pool_ok,
    remove_roundabout,
    roundabout_ok,
    street_bounds,
    temp_ok,
    value_range,
)


@leaf
def _pick_fence(R, flags, fences, p, rng, k_skip: bool):
    """Uniform choice among legal fences (plus 'skip' if k_skip); returns (street, boundary) or -1."""
    # Count, draw, then find the k-th legal fence in the same order: no candidate buffer, so no
    # allocation (and no reference counting) on a turn; the checks are a few loads each.
    n = 0
    for s in range(R[0, P_NSTREETS]):
        for b in range(1, R[R_STREET_LEN, s]):
            if fence_ok(R, flags, fences, p, s, b):
                n += 1
    total = n + 1 if k_skip else n
    if total == 0:
        return -1, -1
    k = rng_below(rng, total)
    if k >= n:
        return -1, -1  # 'skip' was drawn
    for s in range(R[0, P_NSTREETS]):
        for b in range(1, R[R_STREET_LEN, s]):
            if fence_ok(R, flags, fences, p, s, b):
                if k == 0:
                    return s, b
                k -= 1
    return -1, -1


@leaf
def _pick_extension(R, cells, fences, sc, p, rng):
    """Uniform choice among legal (street, source, target) copies plus 'skip'."""
    total = 1
    for s in range(R[0, P_NSTREETS]):
        for h in range(R[R_STREET_LEN, s]):
            for d in (-1, 1):
                if extension_ok(R, cells, fences, sc, p, s, h, x_ext_target(R, cells, p, s, h, d)):
                    total += 1
    k = rng_below(rng, total)
    if k == total - 1:
        return -1, -1, -1  # 'skip' (the last choice) was drawn
    for s in range(R[0, P_NSTREETS]):
        for h in range(R[R_STREET_LEN, s]):
            for d in (-1, 1):
                t = x_ext_target(R, cells, p, s, h, d)
                if extension_ok(R, cells, fences, sc, p, s, h, t):
                    if k == 0:
                        return s, h, t
                    k -= 1
    return -1, -1, -1


@leaf
def _combo_ranges(R, sc, p, cnum, cact):
    """value_range of each of the round's 2-3 (shared stacks) or 6 (hands) combinations, as two
    6-tuples (first codes, last codes); missing combinations get the empty range (0, -1). Kept in
    registers rather than recomputed for every house or held in an allocated array."""
    a0, b0 = value_range(R, sc, p, cnum[0], cact[0])
    a1, b1 = value_range(R, sc, p, cnum[1], cact[1])
    a2, b2, a3, b3, a4, b4, a5, b5 = 0, -1, 0, -1, 0, -1, 0, -1
    if cnum.shape[0] > 2:  # two stacks (Zombie Outbreak) deal two combinations
        a2, b2 = value_range(R, sc, p, cnum[2], cact[2])
    if cnum.shape[0] > 3:
        a3, b3 = value_range(R, sc, p, cnum[3], cact[3])
        a4, b4 = value_range(R, sc, p, cnum[4], cact[4])
        a5, b5 = value_range(R, sc, p, cnum[5], cact[5])
    return (a0, a1, a2, a3, a4, a5), (b0, b1, b2, b3, b4, b5)


@leaf
def _n_codes(vmin, vmax, lo, top) -> int:
    """How many codes of vmin, vmin + 2, ..., vmax fit above lo and up to top (lo < v <= top)."""
    if vmin == vmax:  # no temp worker: one number
        return 1 if lo < vmin and vmin <= top else 0
    first = first_code(vmin, lo)
    last = min(vmax, top)
    # Codes of a range share its parity, so first..last holds (last - first) / 2 + 1 of them
    # (last >= first: the halving of a non-negative even difference is a shift).
    return ((last - first) >> 1) + 1 if last >= first else 0


if MAX_STREETS > 5:  # choose_random keeps each street's count in five locals (t0..t4)
    raise ImportError(f"choose_random keeps five streets' counts; layout.MAX_STREETS is {MAX_STREETS}")


@leaf
def choose_random(R, sh, p, offer) -> None:
    """Uniform over legal (combination, house, value) placements, then uniform over the action's
    options including not using it. Refuses only when nothing can be written."""
    cells, sc = sh.cells, sh.sc
    cnum, cact, rng, mv, lo, hi = offer.cnum, offer.cact, offer.rng, offer.mv, offer.lo, offer.hi
    for i in range(8):
        mv[i] = -1
    # A leaf: nothing here allocates, so a turn costs no allocation and no reference counting.
    n_combos = cnum.shape[0]
    vmins, vmaxs = _combo_ranges(R, sc, p, cnum, cact)
    # Count placements by interval arithmetic: v fits an empty house iff lo < v < hi. Combinations
    # inside the street: the sum does not depend on the order, and each inner loop keeps one
    # range (the compiler vectorizes it). Each street's count is kept (MAX_STREETS = 5 locals)
    # so that the search below skips whole streets.
    total = 0
    t0 = t1 = t2 = t3 = t4 = 0
    for s in range(R[0, P_NSTREETS]):
        n_street = 0
        for c in range(n_combos):
            vmin = vmins[c]
            vmax = vmaxs[c]
            for h in range(R[R_STREET_LEN, s]):
                if cells[p, s, h] == EMPTY:
                    n_street += _n_codes(vmin, vmax, lo[s, h], hi[s, h] - 1)
        total += n_street
        if s == 0:
            t0 = n_street
        elif s == 1:
            t1 = n_street
        elif s == 2:
            t2 = n_street
        elif s == 3:
            t3 = n_street
        else:
            t4 = n_street
    if total == 0:
        return
    k = rng_below(rng, total)
    # The k-th placement in (street, house, combination, value) order, house by house only in
    # the street that holds it.
    for s in range(R[0, P_NSTREETS]):
        n_street = t0 if s == 0 else t1 if s == 1 else t2 if s == 2 else t3 if s == 3 else t4
        if k >= n_street:
            k -= n_street
            continue
        for h in range(R[R_STREET_LEN, s]):
            if cells[p, s, h] == EMPTY:
                for c in range(n_combos):
                    n_fit = _n_codes(vmins[c], vmaxs[c], lo[s, h], hi[s, h] - 1)
                    if k < n_fit:
                        mv[0], mv[1], mv[2], mv[3] = c, s, h, first_code(vmins[c], lo[s, h]) + 2 * k
                        break
                    k -= n_fit
            if mv[0] >= 0:
                break
        break
    _random_action(R, sh, p, offer)


@leaf
def _random_action(R, sh, p, offer) -> None:
    """The action of the random player's placement mv[0:4]: uniform over its options including
    not using it (mv[4:8])."""
    cells, flags, fences, sc = sh
    cnum, cact, rng, mv = offer.cnum, offer.cact, offer.rng, offer.mv
    c, s, h, v = mv[0], mv[1], mv[2], mv[3]
    a = cact[c]
    if v == cnum[c]:
        # The expansion's alternative to any action (a Zoorg) one time in three where allowed.
        cells[p, s, h] = v
        alt = x_alt_ok(R, cells, flags, p, s, h)
        cells[p, s, h] = EMPTY
        if alt and rng_below(rng, 3) == 0:
            mv[5], mv[6], mv[7] = s, h, 1
            return
    if a == TEMP:
        if v != cnum[c] or (temp_ok(R, sc, p) and rng_below(rng, 2) == 1):
            mv[4] = TEMP
    elif a == FENCE:
        # The expansion's alternative (a barricade) one time in three where it is allowed.
        cells[p, s, h] = v
        alt = x_fence_alt_ok(R, cells, flags, p, s, h)
        cells[p, s, h] = EMPTY
        if alt and rng_below(rng, 3) == 0:
            mv[4], mv[5], mv[6], mv[7] = FENCE, s, h, 1
            return
        fs, fb = _pick_fence(R, flags, fences, p, rng, True)
        if fs >= 0:
            mv[4], mv[5], mv[6] = FENCE, fs, fb
    elif a == IMPROVEMENT:
        n_ok = 1
        for col in range(6):
            if improvement_ok(R, sc, p, col):
                n_ok += 1
        k = rng_below(rng, n_ok)
        for col in range(6):
            if improvement_ok(R, sc, p, col):
                if k == 0:
                    mv[4], mv[5] = IMPROVEMENT, col
                k -= 1
    elif a == PARK:
        if park_ok(R, sc, p, s) and rng_below(rng, 2) == 1:
            mv[4] = PARK
    elif a == POOL:
        if pool_ok(R, flags, sc, p, s, h) and rng_below(rng, 2) == 1:
            mv[4] = POOL
    elif a == EXTENSION:
        cells[p, s, h] = v  # the copy may be of the house just numbered
        es, src, tgt = _pick_extension(R, cells, fences, sc, p, rng)
        cells[p, s, h] = EMPTY
        if es >= 0:
            mv[4], mv[5], mv[6], mv[7] = EXTENSION, es, src, tgt


@leaf
def choose_first_fit(R, sh, p, offer) -> None:
    """First legal house scanning combinations 1-3, streets top to bottom, houses left to right;
    temp-adjusted values (closest first) only when no plain number fits; uses every action it can
    in the simplest way."""
    cells, flags, fences, sc = sh
    cnum, cact, mv, lo, hi = offer.cnum, offer.cact, offer.mv, offer.lo, offer.hi
    for i in range(8):
        mv[i] = -1
    for c in range(cnum.shape[0]):
        v = cnum[c]
        for s in range(R[0, P_NSTREETS]):
            for h in range(R[R_STREET_LEN, s]):
                if mv[0] < 0 and cells[p, s, h] == EMPTY and lo[s, h] < v < hi[s, h]:
                    mv[0], mv[1], mv[2], mv[3] = c, s, h, v
    if mv[0] < 0:
        for delta in (-1, 1, -2, 2):
            for c in range(cnum.shape[0]):
                vmin, vmax = value_range(R, sc, p, cnum[c], cact[c])
                v = cnum[c] + 2 * delta  # codes: two per number
                if vmin <= v <= vmax:
                    for s in range(R[0, P_NSTREETS]):
                        for h in range(R[R_STREET_LEN, s]):
                            if mv[0] < 0 and cells[p, s, h] == EMPTY and lo[s, h] < v < hi[s, h]:
                                mv[0], mv[1], mv[2], mv[3] = c, s, h, v
    if mv[0] < 0:
        return
    c, s, h, v = mv[0], mv[1], mv[2], mv[3]
    a = cact[c]
    if a == TEMP and temp_ok(R, sc, p):
        mv[4] = TEMP
    elif a == FENCE:
        # Close the estate right of the new house, else left of it.
        if fence_ok(R, flags, fences, p, s, h + 1):
            mv[4], mv[5], mv[6] = FENCE, s, h + 1
        elif fence_ok(R, flags, fences, p, s, h):
            mv[4], mv[5], mv[6] = FENCE, s, h
    elif a == IMPROVEMENT:
        for col in range(5, -1, -1):
            if mv[4] < 0 and improvement_ok(R, sc, p, col):
                mv[4], mv[5] = IMPROVEMENT, col
    elif a == PARK and park_ok(R, sc, p, s):
        mv[4] = PARK
    elif a == POOL and pool_ok(R, flags, sc, p, s, h):
        mv[4] = POOL
    elif a == EXTENSION:
        cells[p, s, h] = v
        right = x_ext_target(R, cells, p, s, h, 1)
        left = x_ext_target(R, cells, p, s, h, -1)
        if extension_ok(R, cells, fences, sc, p, s, h, right):
            mv[4], mv[5], mv[6], mv[7] = EXTENSION, s, h, right
        elif extension_ok(R, cells, fences, sc, p, s, h, left):
            mv[4], mv[5], mv[6], mv[7] = EXTENSION, s, h, left
        cells[p, s, h] = EMPTY
    if mv[4] == NO_ACTION:
        mv[5], mv[6], mv[7] = -1, -1, -1
        # The action unused: the expansion's alternative to it (a Zoorg) where allowed.
        cells[p, s, h] = v
        if v == cnum[c] and x_alt_ok(R, cells, flags, p, s, h):
            mv[5], mv[6], mv[7] = s, h, 1
        cells[p, s, h] = EMPTY


@leaf
def _complete_small(R, cells, flags, fences, p, counts) -> int:
    """Complete estates of size 1..6 on the sheet (the ones that score)."""
    estate_counts(R, cells, flags, fences, p, counts, False)
    return counts[1] + counts[2] + counts[3] + counts[4] + counts[5] + counts[6]


@kernel
def choose_spread(R, sh, p, offer) -> None:
    """Writes each number near its proportional place in a street (v/17 of the way along), so
    streets fill up; fences and extensions only where they complete more estates. A simple
    baseline that plays long games (full sheets, plan races, reshuffles), not a strong player."""
    cells, flags, fences, sc = sh
    cnum, cact, mv, lo, hi = offer.cnum, offer.cact, offer.mv, offer.lo, offer.hi
    for i in range(8):
        mv[i] = -1
    best = 1e9
    for c in range(cnum.shape[0]):
        vmin, vmax = value_range(R, sc, p, cnum[c], cact[c])
        for s in range(R[0, P_NSTREETS]):
            n = R[R_STREET_LEN, s]
            for h in range(n):
                if cells[p, s, h] != EMPTY:
                    continue
                for v in range(vmin, vmax + 1, 2):
                    if lo[s, h] < v < hi[s, h]:
                        cost = abs(h - v * (n - 1) / 34.0) + (0.75 if v != cnum[c] else 0.0)
                        if cost < best:
                            best = cost
                            mv[0], mv[1], mv[2], mv[3] = c, s, h, v
    if mv[0] < 0:
        return
    c, s, h, v = mv[0], mv[1], mv[2], mv[3]
    a = cact[c]
    cells[p, s, h] = v  # evaluate actions on the sheet as it will be
    counts = np.empty(7, dtype=np.int64)
    base = _complete_small(R, cells, flags, fences, p, counts)
    if a == TEMP:
        if v != cnum[c] or temp_ok(R, sc, p):
            mv[4] = TEMP
    elif a == FENCE:
        gain = 0
        for fs in range(R[0, P_NSTREETS]):
            for fb in range(1, R[R_STREET_LEN, fs]):
                if fence_ok(R, flags, fences, p, fs, fb):
                    fences[p, fs, fb] |= B_FENCE
                    g = _complete_small(R, cells, flags, fences, p, counts) - base
                    fences[p, fs, fb] &= ~B_FENCE
                    if g > gain:
                        gain = g
                        mv[4], mv[5], mv[6] = FENCE, fs, fb
        if mv[4] < 0:
            # No immediate gain: split the first estate longer than 6 in its middle.
            for fs in range(R[0, P_NSTREETS]):
                start = 0
                n = R[R_STREET_LEN, fs]
                for b in range(1, n + 1):
                    if b == n or (fences[p, fs, b] & B_FENCE):
                        mid = (start + b) // 2
                        if mv[4] < 0 and b - start > 6 and fence_ok(R, flags, fences, p, fs, mid):
                            mv[4], mv[5], mv[6] = FENCE, fs, mid
                        start = b
    elif a == IMPROVEMENT:
        for col in (2, 3, 4, 5, 1, 0):
            if mv[4] < 0 and improvement_ok(R, sc, p, col):
                mv[4], mv[5] = IMPROVEMENT, col
    elif a == PARK and park_ok(R, sc, p, s):
        mv[4] = PARK
    elif a == POOL and pool_ok(R, flags, sc, p, s, h):
        mv[4] = POOL
    elif a == EXTENSION:
        for es in range(R[0, P_NSTREETS]):
            for src in range(R[R_STREET_LEN, es]):
                for d in (-1, 1):
                    t = x_ext_target(R, cells, p, es, src, d)
                    if mv[4] < 0 and extension_ok(R, cells, fences, sc, p, es, src, t):
                        cells[p, es, t] = cells[p, es, src]
                        if _complete_small(R, cells, flags, fences, p, counts) > base:
                            mv[4], mv[5], mv[6], mv[7] = EXTENSION, es, src, t
                        cells[p, es, t] = EMPTY
    if mv[4] < 0 and v == cnum[c] and x_alt_ok(R, cells, flags, p, s, h):
        mv[5], mv[6], mv[7] = s, h, 1  # the action unused: the expansion's alternative (a Zoorg)
    cells[p, s, h] = EMPTY


@leaf
def roundabout_random(R, cells, sc, p, rng, rbm) -> None:
    """The random player's roundabout: on one turn in 16, in a uniformly chosen empty house."""
    if rng_below(rng, 16) != 0:
        return
    total = 0
    for s in range(R[0, P_NSTREETS]):
        for h in range(R[R_STREET_LEN, s]):
            if roundabout_ok(R, cells, sc, p, s, h):
                total += 1
    if total == 0:
        return
    k = rng_below(rng, total)
    for s in range(R[0, P_NSTREETS]):
        for h in range(R[R_STREET_LEN, s]):
            if roundabout_ok(R, cells, sc, p, s, h):
                if k == 0:
                    rbm[0], rbm[1] = s, h
                k -= 1


@kernel
def roundabout_rescue(R, sh, p, offer, rbm) -> None:
    """A roundabout only to avoid a permit refusal: the first empty house (top street, leftmost)
    where one makes some number of the round fit. Leaves lo/hi as they were."""
    cells, fences, sc = sh.cells, sh.fences, sh.sc
    cnum, cact, lo, hi = offer.cnum, offer.cact, offer.lo, offer.hi
    if any_fit(R, cells, sc, p, cnum, cact, lo, hi):
        return
    for s in range(R[0, P_NSTREETS]):
        for h in range(R[R_STREET_LEN, s]):
            if rbm[0] < 0 and roundabout_ok(R, cells, sc, p, s, h):
                f0, f1 = fences[p, s, h], fences[p, s, h + 1]
                place_roundabout(cells, fences, sc, p, s, h)
                street_bounds(R, cells, p, lo, hi)
                if any_fit(R, cells, sc, p, cnum, cact, lo, hi):
                    rbm[0], rbm[1] = s, h
                remove_roundabout(cells, fences, sc, p, s, h, f0, f1)
    street_bounds(R, cells, p, lo, hi)


@kernel
def reshuffle_random(rng) -> bool:
    """First edition, offered the reshuffle after the first plan: accept with probability 1/2."""
    return rng_below(rng, 2) == 1
