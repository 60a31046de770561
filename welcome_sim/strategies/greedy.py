"""The greedy player: one-step look-ahead over every legal move with a weighted sheet evaluation.

For every legal (combination, house, number) placement the sheet is evaluated; for the two best
placements of each combination every option of its action (including not using it) is evaluated
too, and the best move overall is played. The evaluation `evaluate()` is the sum of:

- achieved points: validated plans, park and pool tracks (parks credited linearly per box toward
  the street's last value), temp workers (solo: the first-place points once one is hired; at a
  table: a share of them growing with the count), minus extension and refusal penalties;
- estates: every complete estate of size 1..6 at its current value; every incomplete one at its
  value times its completion chance, the product over its empty houses of their fill chance times
  `rho`. A house's fill chance is how many card numbers can still go there (weighted by how often
  they are in the deck) per empty house of its gap, over `need`; 0 when its gap has fewer
  numbers than houses. Houses in a stretch longer than 6 are worth `long_house` each (a later
  fence can make estates of them);
- improvements: beyond their effect on the estates above, each crossed box counts for
  `impr_prior` estates of that size still to come;
- plan progress: for each plan not yet validated, its value (first score while no one has
  validated it, else the later one) times `plan` times progress**`plan_exp`, where progress
  matches each estate the plan asks for to the unlocked estate of that exact size most likely to
  be completed;
- flexibility: minus `dead` per house that can no longer be numbered, minus `pool_waste` per pool
  house numbered without its pool while pool boxes remain.

Exact ties between moves break at random, and each evaluated move can get uniform noise of width
`noise`; both draw from the game's generator, so games stay deterministic given their seed.
Random tie-breaks also keep two seats of the same strategy from playing identical sheets.

Plans are validated when the evaluation says so: a plan still worth its first score always; a
plan worth only its later score when the points outweigh the progress its locked estates were
giving the other plans.
"""

from __future__ import annotations

import numpy as np

from welcome_sim.simcore.jit import kernel, leaf
from welcome_sim.simcore.layout import (
    B_FENCE,
    EMPTY,
    EXTENSION,
    F_EXT,
    F_LOCK,
    F_POOL,
    FENCE,
    IMPROVEMENT,
    NO_ACTION,
    PARK,
    POOL,
    ROUNDABOUT,
    SC_EXT,
    SC_IMPR,
    SC_NUMBERED,
    SC_PARK,
    SC_PLAN_ROUND,
    SC_PLAN_SCORE,
    SC_POOLS,
    SC_REFUSALS,
    SC_TEMPS,
    TEMP,
)
from welcome_sim.simcore.rng import rng_below
from welcome_sim.simcore.ruleset import (
    P_EXT_LEN,
    P_NCARDS,
    P_NSTREETS,
    P_POOL_LEN,
    R_DECK_NUM,
    R_ESTATE_VALS,
    R_EXT_TRACK,
    R_PARK_LEN,
    R_PARK_TRACK,
    R_PLAN_FIRST,
    R_PLAN_LATER,
    R_PLAN_NEED,
    R_POOL_HOUSE,
    R_POOL_TRACK,
    R_REF_TRACK,
    R_STREET_LEN,
    R_TEMP_MAJ,
)
from welcome_sim.simcore.sheetops import (
    extension_ok,
    fence_ok,
    improvement_ok,
    lock_plan_estates,
    park_ok,
    pool_ok,
    temp_ok,
    value_range,
)

# Context array passed to strategies (ctx[k]).
CTX_PLAYERS, CTX_ROUND, CTX_PLAN, CTX_FLIPPED, CTX_SEAT, CTX_LEN = 0, 1, 2, 5, 8, 9

# Parameter slots of the greedy family (registry.py names and documents them).
(
    W_PARK,
    W_POOL,
    W_TEMP,
    W_ESTATE,
    W_PLAN,
    PLAN_EXP,
    RHO,
    NEED,
    W_DEAD,
    W_LONG,
    W_IMPR_PRIOR,
    W_POOL_WASTE,
    W_EXT,
    TEMP_TARGET,
    NOISE,
    N_PARAMS,
) = range(16)

WS_FREQ = 0  # 18 cumulative number weights
WS_TOP = 18  # 7 sizes x 6 best completion chances
WS_LEN = WS_TOP + 42


@kernel
def new_workspace(R):
    """Scratch space for evaluate(): cumulative deck weights of house numbers 0..17."""
    ws = np.zeros(WS_LEN, dtype=np.float64)
    n = R[0, P_NCARDS]
    freq = np.zeros(18, dtype=np.float64)
    for c in range(n):
        freq[R[R_DECK_NUM, c]] += 1.0
    mean = n / 15.0
    for v in range(18):
        # Numbers no card shows (0, 16, 17) are reachable only with a temp worker.
        w = freq[v] / mean if freq[v] > 0 else 0.25
        ws[WS_FREQ + v] = w + (ws[WS_FREQ + v - 1] if v > 0 else 0.0)
    return ws


@leaf
def _mass(ws, a, b) -> float:
    """Deck weight of the numbers strictly between a and b (a >= -1, b <= 18)."""
    lo = a + 1
    hi = b - 1
    if hi < lo:
        return 0.0
    if hi > 17:
        hi = 17
    return ws[WS_FREQ + hi] - (ws[WS_FREQ + lo - 1] if lo > 0 else 0.0)


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


@leaf
def evaluate(R, prm, cells, flags, fences, sc, p, ctx, ws, skip_slot) -> float:
    """Weighted value of player p's sheet (see the module docstring)."""
    for k in range(42):
        ws[WS_TOP + k] = 0.0
    rho = prm[RHO]
    need = prm[NEED]
    value = 0.0
    dead_total = 0.0
    waste = 0
    est = 0.0
    long_houses = 0
    for s in range(R[0, P_NSTREETS]):
        n = R[R_STREET_LEN, s]
        # Parks: linear credit toward the last value of the track.
        last = R[R_PARK_LEN, s] - 1
        value += prm[W_PARK] * sc[p, SC_PARK + s] * R[R_PARK_TRACK + s, last] / last
        # Fill chance of each empty house from its gap (run of empty houses between numbers).
        seg_start = 0
        seg_prob = 1.0
        seg_filled = 0
        h = 0
        left = -1
        while h < n:
            c = cells[p, s, h]
            if c == EMPTY:
                k = 0
                while h + k < n and cells[p, s, h + k] == EMPTY:
                    k += 1
                right = 18
                if h + k < n and cells[p, s, h + k] >= 0:
                    right = cells[p, s, h + k]
                room = right - left - 1
                chance = _mass(ws, left, right) / (k * need)
                if chance > 1.0:
                    chance = 1.0
                if room < k:
                    dead_total += k - max(room, 0)
                    chance *= max(room, 0) / k
                # Walk the empty run, closing estates at fences as we go.
                for e in range(h, h + k):
                    if e > seg_start and (fences[p, s, e] & B_FENCE):
                        est, long_houses = _close(
                            R, prm, flags, sc, p, s, seg_start, e, seg_filled, seg_prob, ws, est, long_houses
                        )
                        seg_start = e
                        seg_prob = 1.0
                        seg_filled = 0
                    seg_prob *= chance * rho
                h += k
                continue
            if c == ROUNDABOUT:
                left = -1
            else:
                left = c
                if R[R_POOL_HOUSE + s, h] == 1 and not (flags[p, s, h] & F_POOL):
                    waste += 1
            if h > seg_start and (fences[p, s, h] & B_FENCE):
                est, long_houses = _close(
                    R, prm, flags, sc, p, s, seg_start, h, seg_filled, seg_prob, ws, est, long_houses
                )
                seg_start = h
                seg_prob = 1.0
                seg_filled = 0
            if c >= 0:
                seg_filled += 1
            h += 1
        est, long_houses = _close(
            R, prm, flags, sc, p, s, seg_start, n, seg_filled, seg_prob, ws, est, long_houses
        )
    value += prm[W_ESTATE] * est + prm[W_LONG] * long_houses - prm[W_DEAD] * dead_total
    # Improvements: estates of each size still to come.
    for size in range(1, 7):
        i = sc[p, SC_IMPR + size - 1]
        value += prm[W_IMPR_PRIOR] * (R[R_ESTATE_VALS + size - 1, i] - R[R_ESTATE_VALS + size - 1, 0])
    # Pools.
    n_pools = sc[p, SC_POOLS]
    value += prm[W_POOL] * R[R_POOL_TRACK, n_pools]
    if n_pools < R[0, P_POOL_LEN] - 1:
        value -= prm[W_POOL_WASTE] * waste
    # Temp workers.
    temps = sc[p, SC_TEMPS]
    if temps > 0:
        if ctx[CTX_PLAYERS] == 1:
            value += prm[W_TEMP] * R[R_TEMP_MAJ, 0]
        else:
            share = temps / prm[TEMP_TARGET]
            value += prm[W_TEMP] * R[R_TEMP_MAJ, 0] * (share if share < 1.0 else 1.0)
    # Penalties.
    value -= prm[W_EXT] * R[R_EXT_TRACK, sc[p, SC_EXT]]
    value -= R[R_REF_TRACK, sc[p, SC_REFUSALS]]
    # Plans.
    for slot in range(3):
        if sc[p, SC_PLAN_ROUND + slot] > 0:
            value += sc[p, SC_PLAN_SCORE + slot]
            continue
        if slot == skip_slot:
            continue
        plan = ctx[CTX_PLAN + slot]
        pts = R[R_PLAN_LATER, plan] if ctx[CTX_FLIPPED + slot] else R[R_PLAN_FIRST, plan]
        got = 0.0
        total = 0
        for size in range(1, 7):
            k = R[R_PLAN_NEED + size, plan]
            for j in range(k if k <= 6 else 6):
                got += ws[WS_TOP + size * 6 + j]
            total += k
        if total > 0:
            value += prm[W_PLAN] * pts * (got / total) ** prm[PLAN_EXP]
    return value


@leaf
def _close(R, prm, flags, sc, p, s, a, b, filled, prob, ws, est, long_houses):
    """Account for the estate [a, b) of street s; returns the updated (est, long_houses)."""
    size = b - a
    if size > 6:
        return est, long_houses + filled
    pr = 1.0 if filled == size else prob
    est += R[R_ESTATE_VALS + size - 1, sc[p, SC_IMPR + size - 1]] * pr
    if not (flags[p, s, a] & F_LOCK):
        _push_top(ws, size, pr)
    return est, long_houses


@leaf
def _apply_action(R, cells, flags, fences, sc, p, s, h, a, x, y, z, sign) -> None:
    """Apply (sign=1) or undo (sign=-1) an action on top of a placed number."""
    if a == FENCE:
        if sign > 0:
            fences[p, x, y] |= B_FENCE
        else:
            fences[p, x, y] &= ~B_FENCE
    elif a == IMPROVEMENT:
        sc[p, SC_IMPR + x] += sign
    elif a == PARK:
        sc[p, SC_PARK + s] += sign
    elif a == POOL:
        sc[p, SC_POOLS] += sign
        if sign > 0:
            flags[p, s, h] |= F_POOL
        else:
            flags[p, s, h] &= ~F_POOL
    elif a == TEMP:
        sc[p, SC_TEMPS] += sign
    elif a == EXTENSION:
        sc[p, SC_EXT] += sign
        sc[p, SC_NUMBERED] += sign
        if sign > 0:
            cells[p, x, z] = cells[p, x, y]
            flags[p, x, z] |= F_EXT
        else:
            cells[p, x, z] = EMPTY
            flags[p, x, z] &= ~F_EXT


TIE_JITTER = 1e-6  # far below any real difference in value


@leaf
def _noisy(value, prm, rng) -> float:
    """Evaluation plus uniform noise from the game's generator, of width prm[NOISE] or, at 0, just
    enough to break exact ties at random. Breaking ties by scan order (top street, leftmost
    house first) cost about 11 points a game: measured 87.9 -> 98.9 on 4,000 solo games."""
    width = prm[NOISE] if prm[NOISE] > 0.0 else TIE_JITTER
    return value + width * (rng_below(rng, 1 << 20) / float(1 << 20) - 0.5)


@kernel
def choose_greedy(R, prm, cells, flags, fences, sc, p, ctx, cnum, cact, rng, mv, lo, hi) -> None:
    """One-step greedy move choice (see the module docstring)."""
    ws = new_workspace(R)
    for i in range(8):
        mv[i] = -1
    best_total = -1e18
    # Best two placements per combination: value, street, house, number.
    top = np.full((3, 2, 4), -1.0)
    for c in range(3):
        top[c, 0, 0] = -1e18
        top[c, 1, 0] = -1e18
        vmin, vmax = value_range(R, sc, p, cnum[c], cact[c])
        for s in range(R[0, P_NSTREETS]):
            for h in range(R[R_STREET_LEN, s]):
                if cells[p, s, h] != EMPTY:
                    continue
                for v in range(max(vmin, lo[s, h] + 1), min(vmax, hi[s, h] - 1) + 1):
                    cells[p, s, h] = v
                    adjusted = v != cnum[c]
                    if adjusted:
                        sc[p, SC_TEMPS] += 1
                    val = _noisy(evaluate(R, prm, cells, flags, fences, sc, p, ctx, ws, -1), prm, rng)
                    if adjusted:
                        sc[p, SC_TEMPS] -= 1
                    cells[p, s, h] = EMPTY
                    if val > top[c, 1, 0]:
                        if val > top[c, 0, 0]:
                            top[c, 1, :] = top[c, 0, :]
                            top[c, 0, 0], top[c, 0, 1], top[c, 0, 2], top[c, 0, 3] = val, s, h, v
                        else:
                            top[c, 1, 0], top[c, 1, 1], top[c, 1, 2], top[c, 1, 3] = val, s, h, v
    for c in range(3):
        a = cact[c]
        for t in range(2):
            if top[c, t, 0] <= -1e17:
                continue
            s, h, v = int(top[c, t, 1]), int(top[c, t, 2]), int(top[c, t, 3])
            cells[p, s, h] = v
            adjusted = v != cnum[c]
            if adjusted:  # the number itself needed the temp worker: the action is used
                sc[p, SC_TEMPS] += 1
                val = top[c, t, 0]
                if val > best_total:
                    best_total = val
                    mv[0], mv[1], mv[2], mv[3], mv[4], mv[5], mv[6], mv[7] = c, s, h, v, TEMP, -1, -1, -1
                sc[p, SC_TEMPS] -= 1
                cells[p, s, h] = EMPTY
                continue
            # Not using the action.
            val = top[c, t, 0]
            if val > best_total:
                best_total = val
                mv[0], mv[1], mv[2], mv[3], mv[4], mv[5], mv[6], mv[7] = c, s, h, v, NO_ACTION, -1, -1, -1
            if a == FENCE:
                for fs in range(R[0, P_NSTREETS]):
                    for fb in range(1, R[R_STREET_LEN, fs]):
                        if fence_ok(R, flags, fences, p, fs, fb):
                            _apply_action(R, cells, flags, fences, sc, p, s, h, a, fs, fb, 0, 1)
                            val = _noisy(evaluate(R, prm, cells, flags, fences, sc, p, ctx, ws, -1), prm, rng)
                            _apply_action(R, cells, flags, fences, sc, p, s, h, a, fs, fb, 0, -1)
                            if val > best_total:
                                best_total = val
                                mv[0], mv[1], mv[2], mv[3], mv[4], mv[5], mv[6], mv[7] = (
                                    c,
                                    s,
                                    h,
                                    v,
                                    a,
                                    fs,
                                    fb,
                                    -1,
                                )
            elif a == IMPROVEMENT:
                for col in range(6):
                    if improvement_ok(R, sc, p, col):
                        _apply_action(R, cells, flags, fences, sc, p, s, h, a, col, 0, 0, 1)
                        val = _noisy(evaluate(R, prm, cells, flags, fences, sc, p, ctx, ws, -1), prm, rng)
                        _apply_action(R, cells, flags, fences, sc, p, s, h, a, col, 0, 0, -1)
                        if val > best_total:
                            best_total = val
                            mv[0], mv[1], mv[2], mv[3], mv[4], mv[5], mv[6], mv[7] = (
                                c,
                                s,
                                h,
                                v,
                                a,
                                col,
                                -1,
                                -1,
                            )
            elif (
                (a == PARK and park_ok(R, sc, p, s))
                or (a == POOL and pool_ok(R, sc, p, s, h))
                or (a == TEMP and temp_ok(R, sc, p))
            ):
                _apply_action(R, cells, flags, fences, sc, p, s, h, a, 0, 0, 0, 1)
                val = _noisy(evaluate(R, prm, cells, flags, fences, sc, p, ctx, ws, -1), prm, rng)
                _apply_action(R, cells, flags, fences, sc, p, s, h, a, 0, 0, 0, -1)
                if val > best_total:
                    best_total = val
                    mv[0], mv[1], mv[2], mv[3], mv[4], mv[5], mv[6], mv[7] = c, s, h, v, a, -1, -1, -1
            elif a == EXTENSION and sc[p, SC_EXT] < R[0, P_EXT_LEN] - 1:
                for es in range(R[0, P_NSTREETS]):
                    for src in range(R[R_STREET_LEN, es]):
                        for d in (-1, 1):
                            tgt = src + d
                            if extension_ok(R, cells, fences, sc, p, es, src, tgt):
                                _apply_action(R, cells, flags, fences, sc, p, s, h, a, es, src, tgt, 1)
                                val = _noisy(
                                    evaluate(R, prm, cells, flags, fences, sc, p, ctx, ws, -1), prm, rng
                                )
                                _apply_action(R, cells, flags, fences, sc, p, s, h, a, es, src, tgt, -1)
                                if val > best_total:
                                    best_total = val
                                    mv[0], mv[1], mv[2], mv[3], mv[4], mv[5], mv[6], mv[7] = (
                                        c,
                                        s,
                                        h,
                                        v,
                                        a,
                                        es,
                                        src,
                                        tgt,
                                    )
            cells[p, s, h] = EMPTY


@kernel
def greedy_validates(R, prm, cells, flags, fences, sc, p, ctx, slot) -> bool:
    """Validate now? Always while the plan is worth its first score; otherwise only if its points
    outweigh the progress the estates it would lock give the other plans."""
    if ctx[CTX_FLIPPED + slot] == 0:
        return True
    ws = new_workspace(R)
    before = evaluate(R, prm, cells, flags, fences, sc, p, ctx, ws, slot)
    saved = flags.copy()
    used = np.zeros((12, 3), dtype=np.int64)
    lock_plan_estates(R, cells, flags, fences, p, ctx[CTX_PLAN + slot], used)
    after = (
        evaluate(R, prm, cells, flags, fences, sc, p, ctx, ws, slot) + R[R_PLAN_LATER, ctx[CTX_PLAN + slot]]
    )
    flags[:, :, :] = saved
    return after >= before
