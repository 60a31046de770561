"""Halloween: houses with a ghost and a candy; numbering one circles one of the two. At a round's
end a player with exactly 4, 6 or 9 circled ghosts (candies) may claim that level or a lower one
still open; everyone claiming a level in the same round gets it, the others cross it out; one
Ghost and one Candy level a game. Ghost levels give bonus actions at once (pools, parks, bonus
extensions), Candy levels points at the end.

State: flags F_GHOST / F_CANDY per house; sc SC_H_LEVEL (each level's state, BONUS_*), SC_H_STEP
(the Ghost bonus being used) and SC_H_ASKED (claims asked this round end). Table rows: R_X_HOUSE +
street, 1 where a house has a ghost and a candy; R_X_TABLE, the Ghost levels' counts (0..2), the
Candy levels' counts (3..5) and each Ghost level's two alternatives as (unit, count) pairs from 6
(level * 4 + alternative * 2); R_X_SCORE, the Candy levels' points; R_X_AAA 0, the AAA's points per
crossed level.

The player's choices go through the kernel's generic expansion decisions (engine/steps.py: _x_decisions):
`options` lists the legal choices of the player's next decision as rows [code, a, b, c] (H_*), the
strategy picks one, `apply` plays it. After a move: the mark of each house with a ghost and a candy
just numbered (ghost first). At a round's end, after the plan validations: the Ghost claim (levels
highest first, declining last), its alternative and each unit of it (a unit with no legal place is
lost), the marks of houses a bonus extension numbered, then the Candy claim. Every player decides
from the sheet as the round left it: a claim only becomes a crossed level on the other sheets in
`round_end`, after everyone has decided.

The data file's keys, compile_rows and the leaves that read the marks and levels live in
halloween_sheet.py; this module re-exports what others reach through it.
"""

from __future__ import annotations

import numpy as np

from welcome_sim.simcore.ground.jit import leaf
from welcome_sim.simcore.ground.layout import (
    B_LINK,
    BONUS_CIRCLED,
    BONUS_CROSSED,
    BONUS_DUE,
    BONUS_OPEN,
    EMPTY,
    F_EXT,
    F_POOL,
    MAX_STREETS,
    O_X_POINTS,
    SC_EXT,
    SC_NUMBERED,
    SC_PARK,
    SC_POOLS,
)
from welcome_sim.simcore.ground.regtuples import put3
from welcome_sim.simcore.ground.table import (
    P_EXT_SAME_ESTATE,
    P_NSTREETS,
    P_POOL_LEN,
    R_PARK_LEN,
    R_PARK_TRACK,
    R_PLAN_COUNT,
    R_PLAN_STREET,
    R_PLAN_XGOAL,
    R_POOL_HOUSE,
    R_POOL_TRACK,
    R_STREET_LEN,
    R_X_AAA,
    R_X_SCORE,
    R_X_TABLE,
)

# Re-exported (`x as x`): its record and numbers, kept in halloween_record.py so that
# halloween_sheet.py can import them without a circle; compile.py and the data schema read
# halloween.KEYS and compile_rows.
from welcome_sim.simcore.rules.expansions.halloween_record import F_CANDY as F_CANDY
from welcome_sim.simcore.rules.expansions.halloween_record import F_GHOST as F_GHOST
from welcome_sim.simcore.rules.expansions.halloween_record import GL_CANDIES as GL_CANDIES
from welcome_sim.simcore.rules.expansions.halloween_record import GL_GHOSTS_CANDIES as GL_GHOSTS_CANDIES
from welcome_sim.simcore.rules.expansions.halloween_record import GL_MARKED_ALL as GL_MARKED_ALL
from welcome_sim.simcore.rules.expansions.halloween_record import GL_STREET_CANDIES as GL_STREET_CANDIES
from welcome_sim.simcore.rules.expansions.halloween_record import GL_STREET_GHOSTS as GL_STREET_GHOSTS
from welcome_sim.simcore.rules.expansions.halloween_record import LOG_X_BONUS as LOG_X_BONUS
from welcome_sim.simcore.rules.expansions.halloween_record import LOG_X_CLAIM as LOG_X_CLAIM
from welcome_sim.simcore.rules.expansions.halloween_record import LOG_X_MARK as LOG_X_MARK
from welcome_sim.simcore.rules.expansions.halloween_record import O_X_CANDIES as O_X_CANDIES
from welcome_sim.simcore.rules.expansions.halloween_record import O_X_CANDY_LEVEL as O_X_CANDY_LEVEL
from welcome_sim.simcore.rules.expansions.halloween_record import O_X_GHOST_LEVEL as O_X_GHOST_LEVEL
from welcome_sim.simcore.rules.expansions.halloween_record import O_X_GHOSTS as O_X_GHOSTS
from welcome_sim.simcore.rules.expansions.halloween_record import RECORD as RECORD
from welcome_sim.simcore.rules.expansions.halloween_record import SC_H_ASKED as SC_H_ASKED
from welcome_sim.simcore.rules.expansions.halloween_record import SC_H_LEVEL as SC_H_LEVEL
from welcome_sim.simcore.rules.expansions.halloween_record import SC_H_STEP as SC_H_STEP
from welcome_sim.simcore.rules.expansions.halloween_record import X_CODE as X_CODE
from welcome_sim.simcore.rules.expansions.halloween_sheet import KEYS as KEYS
from welcome_sim.simcore.rules.expansions.halloween_sheet import (
    T_BONUS,
    circled,
    claimed,
    exact_level,
    marked,
)
from welcome_sim.simcore.rules.expansions.halloween_sheet import compile_rows as compile_rows
from welcome_sim.simcore.rules.sheetops import extension_ok, park_ok

# Option codes (column 0 of an option row) and the Ghost bonus units; H_POOL + unit is the code
# of a unit's placement.
H_DECLINE, H_MARK, H_CLAIM, H_ALT, H_POOL, H_PARK, H_EXT = range(7)
GHOST, CANDY = 0, 1
H_UNITS = 10  # SC_H_STEP from here on: units still to place
MAX_OPTIONS = 96  # rows of the decisions' option table: every (street, house, side) of an extension


@leaf
def pool_bonus_ok(R, cells, flags, sc, p, s, h) -> bool:
    """A Pool bonus may circle the pool of house (s, h), "whether the house is numbered or not"
    (a house that is a roundabout or invaded has none left), crossing a pool box."""
    return (
        R[R_POOL_HOUSE + s, h] == 1
        and cells[p, s, h] >= EMPTY
        and not (flags[p, s, h] & F_POOL)
        and sc[p, SC_POOLS] < R[0, P_POOL_LEN] - 1
    )


@leaf
def ext_bonus_ok(R, cells, fences, sc, p, s, src, tgt) -> bool:
    """An Extension bonus may copy src into tgt: every rule of the Extension action but its box."""
    saved = sc[p, SC_EXT]
    sc[p, SC_EXT] = 0  # "without crossing out a box": a full extension track does not stop it
    ok = extension_ok(R, cells, fences, sc, p, s, src, tgt)
    sc[p, SC_EXT] = saved
    return ok


@leaf
def _units(R, cells, flags, fences, sc, p, unit, opts) -> int:
    """Every legal placement of one Ghost bonus unit, as option rows; their number."""
    n = 0
    for s in range(R[0, P_NSTREETS]):
        m = R[R_STREET_LEN, s]
        if unit == 1:
            if park_ok(R, sc, p, s) and n < opts.shape[0]:
                opts[n, 0], opts[n, 1], opts[n, 2], opts[n, 3] = H_PARK, s, 0, 0
                n += 1
            continue
        for h in range(m):
            if unit == 0:
                if pool_bonus_ok(R, cells, flags, sc, p, s, h) and n < opts.shape[0]:
                    opts[n, 0], opts[n, 1], opts[n, 2], opts[n, 3] = H_POOL, s, h, 0
                    n += 1
            elif cells[p, s, h] >= 0:
                for d in (-1, 1):
                    t = h + d
                    if 0 <= t < m and ext_bonus_ok(R, cells, fences, sc, p, s, h, t) and n < opts.shape[0]:
                        opts[n, 0], opts[n, 1], opts[n, 2], opts[n, 3] = H_EXT, s, h, t
                        n += 1
    return n


@leaf
def options(R, cells, flags, fences, sc, p, phase, opts) -> int:
    """Player p's next decision (phase 0 after a move, 1 at a round's end) as option rows in opts;
    their number, 0 when nothing is left to decide. Steps that leave no choice are taken here: a
    bonus unit with no legal place is lost, a claim with no level to claim is skipped."""
    for s in range(R[0, P_NSTREETS]):
        for h in range(R[R_STREET_LEN, s]):
            if marked(R, s, h) and cells[p, s, h] >= 0 and not (flags[p, s, h] & (F_GHOST | F_CANDY)):
                opts[0, 0], opts[0, 1], opts[0, 2], opts[0, 3] = H_MARK, s, h, GHOST
                opts[1, 0], opts[1, 1], opts[1, 2], opts[1, 3] = H_MARK, s, h, CANDY
                return 2
    if phase == 0:
        return 0
    while sc[p, SC_H_STEP] != 0:
        step = sc[p, SC_H_STEP]
        if step < H_UNITS:
            for a in range(2):
                opts[a, 0], opts[a, 1], opts[a, 2], opts[a, 3] = H_ALT, a, 0, 0
            return 2
        n = _units(R, cells, flags, fences, sc, p, (step - H_UNITS) >> 2, opts)
        if n > 0:
            return n
        sc[p, SC_H_STEP] = 0  # no legal place: the rest of the bonus is lost
    for kind in range(2):
        if (sc[p, SC_H_ASKED] >> kind) & 1:
            continue
        sc[p, SC_H_ASKED] |= 1 << kind
        if claimed(sc, p, kind) >= 0:
            continue
        top = exact_level(R, kind, circled(R, flags, p, F_GHOST if kind == GHOST else F_CANDY))
        n = 0
        for lv in range(top, -1, -1):
            if sc[p, SC_H_LEVEL + kind * 3 + lv] == BONUS_OPEN:
                opts[n, 0], opts[n, 1], opts[n, 2], opts[n, 3] = H_CLAIM, kind, lv, 0
                n += 1
        if n > 0:
            opts[n, 0], opts[n, 1], opts[n, 2], opts[n, 3] = H_DECLINE, kind, 0, 0
            return n + 1
    return 0


@leaf
def apply(R, cells, flags, fences, sc, p, phase, opt, lg) -> None:
    """Play one option row of `options`; lg = the log row it makes (kind, a, b, c, d), kind -1 none."""
    code, a, b, c = opt[0], opt[1], opt[2], opt[3]
    lg[0], lg[1], lg[2], lg[3], lg[4] = -1, 0, 0, 0, 0
    if code == H_MARK:
        flags[p, a, b] |= F_GHOST if c == GHOST else F_CANDY
        lg[0], lg[1], lg[2], lg[3], lg[4] = LOG_X_MARK, a, b, c, phase
        return
    if code == H_CLAIM:
        sc[p, SC_H_LEVEL + a * 3 + b] = BONUS_DUE
        if a == GHOST:
            sc[p, SC_H_STEP] = 1 + b
        lg[0], lg[1], lg[2] = LOG_X_CLAIM, a, b
        return
    if code == H_DECLINE:
        return
    lg[0], lg[1], lg[2], lg[3], lg[4] = LOG_X_BONUS, code, a, b, c
    step = sc[p, SC_H_STEP]
    if code == H_ALT:
        col = T_BONUS + (step - 1) * 4 + a * 2
        sc[p, SC_H_STEP] = H_UNITS + R[R_X_TABLE, col] * 4 + R[R_X_TABLE, col + 1]
        return
    if code == H_POOL:
        flags[p, a, b] |= F_POOL
        sc[p, SC_POOLS] += 1
    elif code == H_PARK:
        sc[p, SC_PARK + a] += 1
    else:
        cells[p, a, c] = cells[p, a, b]
        flags[p, a, c] |= F_EXT
        sc[p, SC_NUMBERED] += 1
        if R[0, P_EXT_SAME_ESTATE] == 1:
            fences[p, a, max(b, c)] |= B_LINK
    left = (step - H_UNITS) & 3
    sc[p, SC_H_STEP] = step - 1 if left > 1 else 0


@leaf
def round_end(R, sc, n_players) -> None:
    """Levels claimed this round are circled on the claimers' sheets and crossed on the others'."""
    for k in range(6):
        due = False
        for q in range(n_players):
            if sc[q, SC_H_LEVEL + k] == BONUS_DUE:
                due = True
        if due:
            for q in range(n_players):
                if sc[q, SC_H_LEVEL + k] == BONUS_DUE:
                    sc[q, SC_H_LEVEL + k] = BONUS_CIRCLED
                elif sc[q, SC_H_LEVEL + k] == BONUS_OPEN:
                    sc[q, SC_H_LEVEL + k] = BONUS_CROSSED
    for q in range(n_players):
        sc[q, SC_H_ASKED] = 0


@leaf
def validation(R, sc, p, slot) -> None:
    """AAA validation card A/B/C: the player crosses the 1st/2nd/3rd Ghost and Candy levels unless
    circled."""
    for kind in range(2):
        k = SC_H_LEVEL + kind * 3 + slot
        if sc[p, k] == BONUS_OPEN:
            sc[p, k] = BONUS_CROSSED


@leaf
def score(R, cells, flags, sc, p, row) -> None:
    """Circled ghosts and candies, the levels claimed and the Candy level's points."""
    row[O_X_GHOSTS] = circled(R, flags, p, F_GHOST)
    row[O_X_CANDIES] = circled(R, flags, p, F_CANDY)
    g = claimed(sc, p, GHOST)
    c = claimed(sc, p, CANDY)
    row[O_X_GHOST_LEVEL] = R[R_X_TABLE, g] if g >= 0 else 0
    row[O_X_CANDY_LEVEL] = R[R_X_TABLE, 3 + c] if c >= 0 else 0
    row[O_X_POINTS] = R[R_X_SCORE, c] if c >= 0 else 0


@leaf
def _street_all(R, flags, p, s, bit) -> bool:
    """Street s has houses with a ghost and a candy, and every one has this mark circled."""
    k = 0
    for h in range(R[R_STREET_LEN, s]):
        if marked(R, s, h):
            if not (flags[p, s, h] & bit):
                return False
            k += 1
    return k > 0


@leaf
def goal(R, cells, flags, sc, p, plan) -> bool:
    """Halloween Plan C goals."""
    g = R[R_PLAN_XGOAL, plan]
    count = R[R_PLAN_COUNT, plan]
    if g == GL_CANDIES:
        return circled(R, flags, p, F_CANDY) >= count
    if g == GL_GHOSTS_CANDIES:
        return circled(R, flags, p, F_GHOST) >= count and circled(R, flags, p, F_CANDY) >= count
    if g == GL_MARKED_ALL:
        for s in range(R[0, P_NSTREETS]):
            for h in range(R[R_STREET_LEN, s]):
                if marked(R, s, h) and cells[p, s, h] < 0:
                    return False
        return True
    if g == GL_STREET_GHOSTS:
        k = 0
        for s in range(R[0, P_NSTREETS]):
            if _street_all(R, flags, p, s, F_GHOST):
                k += 1
        return k >= count
    if g == GL_STREET_CANDIES:
        st = R[R_PLAN_STREET, plan]
        for s in range(R[0, P_NSTREETS]):
            if (st < 0 or s == st) and _street_all(R, flags, p, s, F_CANDY):
                return True
        return False
    return False


@leaf
def aaa_points(R, sc) -> int:
    """The AAA: points per Ghost or Candy level crossed out (in the solo game, by its cards)."""
    k = 0
    for i in range(6):
        if sc[0, SC_H_LEVEL + i] == BONUS_CROSSED:
            k += 1
    return k * R[R_X_AAA, 0]


# Greedy's valuation (value): a level claimable now is worth NOW of its worth (the player may wait
# for a better one), a level still to reach HOPE times DECAY per mark still missing; a bonus
# extension is worth EXT_WORTH (a house numbered, often a mark, without the penalty box).
NOW = 0.9
HOPE = 0.6
DECAY = 0.8
EXT_WORTH = 1.5


@leaf
def _unit_worth(R, sc, p, unit, pools, exts) -> float:
    """Greedy's rough points for one Ghost bonus unit placed now (0 with no legal place), from the
    streets' bonus spots (street_part): pools, the streets with a house whose pool a Pool bonus
    may circle (the pool track aside); exts, the streets with a numbered house beside an empty one
    (a valuation, not the legality the options check: the first edition's fence rule aside)."""
    best = 0.0
    if unit == 1:
        for s in range(R[0, P_NSTREETS]):
            last = R[R_PARK_LEN, s] - 1
            if park_ok(R, sc, p, s):
                best = max(best, R[R_PARK_TRACK + s, last] / last)
        return best
    if unit == 0:
        if pools > 0 and sc[p, SC_POOLS] < R[0, P_POOL_LEN] - 1:
            n = sc[p, SC_POOLS]
            return float(R[R_POOL_TRACK, n + 1] - R[R_POOL_TRACK, n])
        return best
    if unit == 2 and exts > 0:
        return EXT_WORTH
    return best


@leaf
def _level_worth(R, sc, p, kind, lv, pools, exts) -> float:
    """Greedy's worth of claiming a level now: a Candy level's points, the better Ghost
    alternative's units (priced from the streets' bonus spots, _unit_worth)."""
    if kind == CANDY:
        return float(R[R_X_SCORE, lv])
    best = 0.0
    for a in range(2):
        col = T_BONUS + lv * 4 + a * 2
        best = max(best, R[R_X_TABLE, col + 1] * _unit_worth(R, sc, p, R[R_X_TABLE, col], pools, exts))
    return best


@leaf
def _kind_value(R, sc, p, kind, count, room, worth, pools, exts):
    """(value, worth): greedy's value of one kind of levels not yet claimed, with `count` marks of
    it circled and `room` houses with a ghost and a candy still empty. worth holds the levels'
    _level_worth asked so far (NaN: not yet), so that sheet_value() asks each level once however many
    splits of the free houses it tries (the same numbers, so the same result); pools and exts are
    the sheet's bonus spots (_unit_worth)."""
    if claimed(sc, p, kind) >= 0:
        return 0.0, worth
    best = 0.0
    for j in range(3):
        need = R[R_X_TABLE, kind * 3 + j]
        if need < count or need - count > room:
            continue
        chance = NOW if need == count else HOPE * DECAY ** (need - count)
        for lv in range(j + 1):
            if sc[p, SC_H_LEVEL + kind * 3 + lv] == BONUS_OPEN:
                w = worth[lv]
                if np.isnan(w):
                    w = _level_worth(R, sc, p, kind, lv, pools, exts)
                    worth = put3(worth, lv, w)
                best = max(best, chance * w)
    return best, worth


PACK = 128  # street parts pack whole counts in base PACK (a street has fewer houses)
if MAX_STREETS * 16 > PACK:  # a count summed over every street must stay below PACK
    raise ImportError(f"halloween.street_part packs counts of {MAX_STREETS} streets in base {PACK}")


@leaf
def street_part(R, cells, flags, sc, p, s) -> float:
    """Greedy's valuation, the part street s decides: its houses with a ghost and a candy (the
    ghosts, the candies, the numbered ones with neither mark, the empty ones) and whether it has
    a spot for a Pool bonus (the track aside) and for an Extension bonus, packed in base PACK:
    whole numbers, so their sum over the streets is exact (greedy keeps each with its street's
    record). It reads street s's cells and flags only."""
    g = 0
    c = 0
    free = 0
    room = 0
    pool = 0
    ext = 0
    n = R[R_STREET_LEN, s]
    for h in range(n):
        cell = cells[p, s, h]
        f = flags[p, s, h]
        if marked(R, s, h):
            if f & F_GHOST:
                g += 1
            elif f & F_CANDY:
                c += 1
            elif cell >= 0:
                free += 1
            elif cell == EMPTY:
                room += 1
        if R[R_POOL_HOUSE + s, h] == 1 and cell >= EMPTY and not (f & F_POOL):
            pool = 1
        if cell >= 0 and (
            (h > 0 and cells[p, s, h - 1] == EMPTY) or (h + 1 < n and cells[p, s, h + 1] == EMPTY)
        ):
            ext = 1
    return float(g + PACK * (c + PACK * (free + PACK * (room + PACK * (pool + PACK * ext)))))


@leaf
def sheet_value(R, cells, flags, sc, p, parts) -> float:
    """Greedy valuation from the street parts summed in street order: a circled Candy level's
    points, the Ghost bonus being used, and the levels still to claim (see _kind_value). A house
    with a ghost and a candy numbered but neither circled (a move under evaluation) is counted as
    whichever mark values the sheet more."""
    x = int(parts)
    g = x % PACK
    x //= PACK
    c = x % PACK
    x //= PACK
    free = x % PACK
    x //= PACK
    room = x % PACK
    x //= PACK
    pools = x % PACK
    exts = x // PACK
    total = 0.0
    lv = claimed(sc, p, CANDY)
    if lv >= 0:
        total += R[R_X_SCORE, lv]
    step = sc[p, SC_H_STEP]
    if step != 0 and step < H_UNITS:
        total += _level_worth(R, sc, p, GHOST, step - 1, pools, exts)
    elif step != 0:
        total += ((step - H_UNITS) & 3) * _unit_worth(R, sc, p, (step - H_UNITS) >> 2, pools, exts)
    best = -1.0
    g_worth = (np.nan, np.nan, np.nan)
    c_worth = (np.nan, np.nan, np.nan)
    for k in range(free + 1):
        vg, g_worth = _kind_value(R, sc, p, GHOST, g + k, room, g_worth, pools, exts)
        vc, c_worth = _kind_value(R, sc, p, CANDY, c + free - k, room, c_worth, pools, exts)
        best = max(best, vg + vc)
    return total + best


@leaf
def progress(R, cells, flags, sc, p, plan) -> float:
    """Greedy: how far a Halloween goal is, 0..1."""
    g = R[R_PLAN_XGOAL, plan]
    count = R[R_PLAN_COUNT, plan]
    if g == GL_CANDIES:
        return min(1.0, circled(R, flags, p, F_CANDY) / count)
    if g == GL_GHOSTS_CANDIES:
        return 0.5 * (
            min(1.0, circled(R, flags, p, F_GHOST) / count) + min(1.0, circled(R, flags, p, F_CANDY) / count)
        )
    if g == GL_MARKED_ALL:
        k = 0
        n = 0
        for s in range(R[0, P_NSTREETS]):
            for h in range(R[R_STREET_LEN, s]):
                if marked(R, s, h):
                    n += 1
                    if cells[p, s, h] >= 0:
                        k += 1
        return k / n if n > 0 else 0.0
    # A street's ghosts (candies): the share circled, 0 once one of them has the other mark.
    bit = F_GHOST if g == GL_STREET_GHOSTS else F_CANDY
    if g == GL_STREET_CANDIES:
        st = R[R_PLAN_STREET, plan]
        best = 0.0
        for s in range(R[0, P_NSTREETS]):
            if st < 0 or s == st:
                best = max(best, _share(R, cells, flags, p, s, bit))
        return best
    # The `count` best streets, picked one by one (no allocation in a leaf).
    need = max(1, count)
    chosen = 0
    total = 0.0
    for _ in range(need):
        best = -1.0
        pick = -1
        for s in range(R[0, P_NSTREETS]):
            if not (chosen >> s) & 1:
                v = _share(R, cells, flags, p, s, bit)
                if v > best:
                    best = v
                    pick = s
        if pick < 0:
            break
        chosen |= 1 << pick
        total += best
    return total / need


@leaf
def _share(R, cells, flags, p, s, bit) -> float:
    """Greedy: the share of street s's houses with a ghost and a candy circled with this mark; 0
    once one has the other mark or can no longer be numbered, or with no such house."""
    other = F_CANDY if bit == F_GHOST else F_GHOST
    k = 0
    n = 0
    for h in range(R[R_STREET_LEN, s]):
        if marked(R, s, h):
            n += 1
            if flags[p, s, h] & bit:
                k += 1
            elif flags[p, s, h] & other or cells[p, s, h] < EMPTY:
                return 0.0
    return k / n if n > 0 else 0.0
