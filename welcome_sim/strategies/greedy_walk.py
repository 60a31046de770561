"""Greedy's street walk: one record per street (its estates with their completion chances and
values; dead, long and pool-waste houses), the part of the evaluation (greedy_eval.py) a move
re-does only for the streets it changes."""

from __future__ import annotations

import numpy as np

from welcome_sim.simcore.ground.features import EXPANSIONS
from welcome_sim.simcore.ground.jit import leaf, spliced
from welcome_sim.simcore.ground.layout import (
    B_FENCE,
    EMPTY,
    F_POOL,
    F_TAKEN,
    ROUNDABOUT,
    SC_IMPR,
    ZOMBIE,
)
from welcome_sim.simcore.ground.table import (
    P_EXPANSION,
    P_NSTREETS,
    R_ESTATE_VALS,
    R_POOL_HOUSE,
    R_STREET_LEN,
)
from welcome_sim.strategies.greedy_layout import (
    N_CODES,
    NEED,
    RHO,
    ST_E,
    ST_HEAD,
    ST_W,
    WS_FREQ,
    WS_RUN,
    WS_RUN_MASS,
    WS_SLOTS,
    WS_ST,
    WS_XPART,
)


@leaf
def mass(ws, a, b) -> float:
    """Deck weight of the codes strictly between a and b (a >= -1, b <= 36)."""
    lo = a + 1
    hi = b - 1
    if hi > N_CODES - 1:
        hi = N_CODES - 1
    if hi < lo:
        return 0.0
    return ws[WS_FREQ + hi] - (ws[WS_FREQ + lo - 1] if lo > 0 else 0.0)


@leaf
def _room(ws, a, b) -> int:
    """How many different numbers fit strictly between codes a and b."""
    lo = a + 1
    hi = b - 1
    if hi > N_CODES - 1:
        hi = N_CODES - 1
    if hi < lo:
        return 0
    return int(ws[WS_SLOTS + hi] - (ws[WS_SLOTS + lo - 1] if lo > 0 else 0.0))


@leaf
def _walk_street(R, ws, sh, p, s, need, rho, k) -> None:
    """Walk street s of player p's sheet into street record k of ws: its estates (size, chance,
    first house, whether a plan may still use it) and its dead, long and pool-waste houses.

    Each estate also carries its value at today's improvement level (value x chance); nothing
    else in a record depends on the score sheet (parks, plans): a move that changes only the
    score sheet re-walks nothing (an improvement re-prices the estates when they are combined),
    and a move on one street re-walks only that street.
    """
    cells, flags, fences, sc = sh
    base = WS_ST + ST_W * k
    n = R[R_STREET_LEN, s]
    dead = 0
    long_houses = 0
    waste = 0
    n_est = 0
    seg_start = 0
    seg_prob = 1.0
    seg_filled = 0
    h = 0
    left = -1
    while h <= n:
        # h == n closes the street's last estate.
        closing = h == n or (h > seg_start and (fences[p, s, h] & B_FENCE))
        if closing:
            size = h - seg_start
            if size > 6:
                long_houses += seg_filled
            else:
                pr = 1.0 if seg_filled == size else seg_prob
                if pr > 0.0:
                    e = base + ST_HEAD + ST_E * n_est
                    ws[e] = size
                    ws[e + 1] = pr
                    ws[e + 2] = seg_start
                    ws[e + 3] = 0.0 if flags[p, s, seg_start] & F_TAKEN else 1.0
                    ws[e + 4] = R[R_ESTATE_VALS + size - 1, sc[p, SC_IMPR + size - 1]] * pr
                    n_est += 1
            if h == n:
                break
            seg_start = h
            seg_prob = 1.0
            seg_filled = 0
        c = cells[p, s, h]
        if c == EMPTY:
            # A run of empty houses between numbers: each one's fill chance from the gap.
            m = 0
            while h + m < n and cells[p, s, h + m] == EMPTY:
                m += 1
            right = N_CODES
            r = h + m
            while r < n and cells[p, s, r] == ZOMBIE:  # numbering goes on across a Z
                r += 1
            if r < n and cells[p, s, r] >= 0:
                right = cells[p, s, r]
            room = _room(ws, left, right)
            chance = mass(ws, left, right) / (m * need)
            if chance > 1.0:
                chance = 1.0
            if room < m:
                dead += m - max(room, 0)
                chance *= max(room, 0) / m
            f = chance * rho
            for e in range(h, h + m):
                if e > seg_start and (fences[p, s, e] & B_FENCE):
                    size = e - seg_start
                    if size > 6:
                        long_houses += seg_filled
                    else:
                        pr = 1.0 if seg_filled == size else seg_prob
                        if pr > 0.0:
                            r = base + ST_HEAD + ST_E * n_est
                            ws[r] = size
                            ws[r + 1] = pr
                            ws[r + 2] = seg_start
                            ws[r + 3] = 0.0 if flags[p, s, seg_start] & F_TAKEN else 1.0
                            ws[r + 4] = R[R_ESTATE_VALS + size - 1, sc[p, SC_IMPR + size - 1]] * pr
                            n_est += 1
                    seg_start = e
                    seg_prob = 1.0
                    seg_filled = 0
                seg_prob *= f
            h += m
            continue
        if c == ROUNDABOUT:
            left = -1
        elif c >= 0:
            left = c
            if R[R_POOL_HOUSE + s, h] == 1 and not (flags[p, s, h] & F_POOL):
                waste += 1
        if c >= 0:
            seg_filled += 1
        else:
            seg_prob = 0.0  # a roundabout: never part of an estate
        h += 1
    ws[base] = dead
    ws[base + 1] = long_houses
    ws[base + 2] = waste
    ws[base + 3] = n_est
    if EXPANSIONS == 1 and R[0, P_EXPANSION] != 0:
        ws[WS_XPART + k] = np.nan  # the expansion's part of the street: computed when first asked


@leaf
def walk_sheet(R, prm, sh, p, ws) -> None:
    """Walk every street of player p's sheet into its own record (0..streets-1) of ws."""
    for s in range(R[0, P_NSTREETS]):
        _walk_street(R, ws, sh, p, s, prm[NEED], prm[RHO], s)


@leaf
def walk_street(R, prm, sh, p, s, ws, k) -> None:
    """Walk street s of player p's sheet into street record k of ws (ST_PLACED or ST_TRIAL)."""
    _walk_street(R, ws, sh, p, s, prm[NEED], prm[RHO], k)


@leaf
def mark_runs(R, cells, fences, p, ws) -> None:
    """For each empty house of player p's sheet, its empty run a..b with the codes that bound it
    (left, right: as _walk_street finds them) into ws[WS_RUN + 4 * key...], where a number
    written in the run changes only the run's dead houses and its segment's long houses (every
    segment the run overlaps is longer than 6 houses: no estate, so no chance to re-compute;
    and no Z beside the run, which would let the number reach the runs beyond it): then
    split_record() makes the placement's record without a walk. Elsewhere -a - 2 (negative; the
    placement screen, fits, still reads the run), and the run's deck weight (WS_RUN_MASS, what
    fits divides by). Once a turn."""
    for s in range(R[0, P_NSTREETS]):
        n = R[R_STREET_LEN, s]
        left = -1
        h = 0
        while h < n:
            c = cells[p, s, h]
            if c != EMPTY:
                if c == ROUNDABOUT:
                    left = -1
                elif c >= 0:
                    left = c
                h += 1
                continue
            a = h
            b = h
            while b < n - 1 and cells[p, s, b + 1] == EMPTY:
                b += 1
            ok = not (
                (a > 0 and cells[p, s, a - 1] == ZOMBIE) or (b < n - 1 and cells[p, s, b + 1] == ZOMBIE)
            )
            if ok:
                start = a
                while start > 0 and not (fences[p, s, start] & B_FENCE):
                    start -= 1
                for x in range(start + 1, n + 1):
                    if x == n or (fences[p, s, x] & B_FENCE):
                        if x - start <= 6:
                            ok = False
                            break
                        if x > b:
                            break
                        start = x
            right = N_CODES
            if b < n - 1 and cells[p, s, b + 1] >= 0:
                right = cells[p, s, b + 1]
            total = mass(ws, left, right)
            for x in range(a, b + 1):
                r = WS_RUN + 4 * (s * 16 + x)
                ws[r], ws[r + 1], ws[r + 2], ws[r + 3] = a if ok else -a - 2, b, left, right
                ws[WS_RUN_MASS + s * 16 + x] = total
            h = b + 1


@leaf
def _dead(ws, left, right, m) -> int:
    """Dead houses of an empty run of m houses between codes left and right (as _walk_street)."""
    if m <= 0:
        return 0
    room = _room(ws, left, right)
    return m - max(room, 0) if room < m else 0


@spliced
def split_record(R, ws, flags, p, s, h, v, k) -> None:
    """Street record k of street s with code v written in empty house h, from the street's record
    s (walked on the turn's sheet) and h's run (mark_runs, a >= 0): the same record _walk_street
    makes, without the walk (the estates are the record's; the dead, long and pool-waste houses
    change by the run's split)."""
    r = WS_RUN + 4 * (s * 16 + h)
    a, b, left, right = int(ws[r]), int(ws[r + 1]), int(ws[r + 2]), int(ws[r + 3])
    src = WS_ST + ST_W * s
    dst = WS_ST + ST_W * k
    n_est = int(ws[src + 3])
    for i in range(ST_HEAD, ST_HEAD + ST_E * n_est):
        ws[dst + i] = ws[src + i]
    dead = int(ws[src]) - _dead(ws, left, right, b - a + 1)
    dead += _dead(ws, left, v, h - a) + _dead(ws, v, right, b - h)
    waste = int(ws[src + 2])
    if R[R_POOL_HOUSE + s, h] == 1 and not (flags[p, s, h] & F_POOL):
        waste += 1
    ws[dst] = dead
    ws[dst + 1] = ws[src + 1] + 1.0  # h's segment is longer than 6 houses
    ws[dst + 2] = waste
    ws[dst + 3] = n_est
    if EXPANSIONS == 1 and R[0, P_EXPANSION] != 0:
        ws[WS_XPART + k] = np.nan


# How far (in houses) from its proportional slot in its empty run a number may be written and
# still be valued (fits): half a house, the slot's nearest house (two where the slot falls
# half-way). A whole house values half as many more (docs/findings/greedy.md: both widths' strength).
PLACE_WIDTH = 0.5


@leaf
def fits(ws, key, h, v) -> bool:
    """Code v in empty house h (key) lies within PLACE_WIDTH houses of its proportional slot in
    its empty run (mark_runs): the house the deck's weight of the codes between the run's bounding
    numbers gives v if the run's houses were filled evenly. Runs of one or two houses: every house.
    Placements off their slot are not valued: in a run every segment of which is longer than 6
    houses, they differ from the slot's only by dead houses and pool waste (split_record)."""
    r = WS_RUN + 4 * key
    a = int(ws[r])
    if a < 0:
        a = -a - 2
    m = int(ws[r + 1]) - a + 1
    if m <= 2:
        return True
    left = int(ws[r + 2])
    total = ws[WS_RUN_MASS + key]
    if total <= 0.0:
        return True
    q = (mass(ws, left, v) + 0.5 * mass(ws, v - 1, v + 1)) / total
    return abs(h - a - (q * m - 0.5)) <= PLACE_WIDTH
