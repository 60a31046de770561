"""The American Dream's sheet (american.py's RECORD): its data file's own keys and compile_rows, which
writes each house's family and column, the points and the AAA's table into the kernel table, and
the leaves that read a player's sheet through those rows (a column's houses; houses, numbered and
perfect by street, column and family; perfect squares), which its rules, plans and greedy's
valuation share (american.py, american_value.py)."""

from __future__ import annotations

import numpy as np

from welcome_sim.simcore.ground.datafiles import POINTS, Sheet, _Reader
from welcome_sim.simcore.ground.jit import leaf
from welcome_sim.simcore.ground.layout import (
    ACTION_NAMES,
)
from welcome_sim.simcore.ground.regtuples import put5
from welcome_sim.simcore.ground.schema import Num
from welcome_sim.simcore.ground.table import (
    P_NSTREETS,
    R_STREET_LEN,
    R_X_AAA,
    R_X_COLOUR,
    R_X_HOUSE,
    R_X_SCORE,
    R_X_TABLE,
)
from welcome_sim.simcore.rules.expansions.american_record import AD_MAX_COLUMNS, F_PERFECT

N_LEVELS = 6
AAA_STREET = N_LEVELS * 6  # R_X_AAA column: the AAA's points per street bonus crossed


# The file's own keys and the range of each number (checked on load, before compile_rows).
KEYS = {
    "colours": None,
    "families": None,
    "houses": None,
    "column_offsets": Num(0, AD_MAX_COLUMNS - 1, "a column offset"),
    "regular_points": POINTS,
    "perfect_points": POINTS,
    "column_multiplier": Num(1, 10, "a column multiplier"),
    "street_bonus": POINTS,
    "aaa_card_points": Num(0, 10, "an AAA card's points", "points"),
    "aaa_street_points": POINTS,
}


def compile_rows(T: np.ndarray, r: _Reader, sheet: Sheet) -> None:
    """Families and columns of every house, the family each action matches, the points and the
    AAA's table; errors name the file and the key."""
    if sheet.fences:
        raise r.fail(
            "sheet",
            f"sheet {sheet.name} has fences; the American Dream's sheet has none (its sheet file says fences = false)",
        )
    colours = r.get("colours", list)
    if not 1 <= len(colours) <= 6 or len(set(colours)) != len(colours):
        raise r.fail("colours", f"expected 1 to 6 different family colours, got {colours!r}")
    fam = r.get("families", dict)
    for c in fam:
        if c not in colours:
            raise r.fail(f"families.{c}", f"'{c}' is not one of the colours {', '.join(colours)}")
    seen_actions = set()
    for i, c in enumerate(colours):
        if c not in fam:
            raise r.fail(
                "families", f"colour '{c}' has no action; give each colour one of {', '.join(ACTION_NAMES)}"
            )
        a = fam[c]
        if a not in ACTION_NAMES:
            raise r.fail(f"families.{c}", f"'{a}' is not an action; valid: {', '.join(ACTION_NAMES)}")
        if a in seen_actions:
            raise r.fail(f"families.{c}", f"action '{a}' already matches another family")
        seen_actions.add(a)
        T[R_X_TABLE, i] = ACTION_NAMES.index(a)
    for i in range(len(colours), T.shape[1]):
        T[R_X_TABLE, i] = -1
    houses = r.get("houses", list)
    if len(houses) != len(sheet.streets):
        raise r.fail(
            "houses", f"expected one list of colours per street of sheet {sheet.name} ({len(sheet.streets)})"
        )
    offsets = r.ints("column_offsets", min_len=0)
    if len(offsets) != len(sheet.streets):
        raise r.fail(
            "column_offsets",
            f"expected one offset per street of sheet {sheet.name} ({len(sheet.streets)}), got {len(offsets)}",
        )
    n_cols = 0
    for s, row in enumerate(houses):
        n = sheet.streets[s].houses
        if not isinstance(row, list) or len(row) != n:
            raise r.fail(f"houses[{s}]", f"expected {n} colours (street {s + 1} has {n} houses), got {row!r}")
        off = offsets[s]
        if not off >= 0 or off + n > AD_MAX_COLUMNS:
            raise r.fail(
                f"column_offsets[{s}]",
                f"{off}: street {s + 1}'s columns must lie in 1..{AD_MAX_COLUMNS} (columns count from 1)",
            )
        for h, c in enumerate(row):
            if c not in colours:
                raise r.fail(f"houses[{s}][{h}]", f"'{c}' is not one of the colours {', '.join(colours)}")
            T[R_X_COLOUR + s, h] = colours.index(c)
            T[R_X_HOUSE + s, h] = h + off
        n_cols = max(n_cols, off + n)
    for col in range(n_cols):
        if not any(offsets[s] <= col < offsets[s] + sheet.streets[s].houses for s in range(len(houses))):
            raise r.fail(
                "column_offsets",
                f"column {col + 1} has no house (columns count from 1 and must be contiguous)",
            )
    T[R_X_SCORE, 0] = r.points("regular_points")
    T[R_X_SCORE, 1] = r.points("perfect_points")
    mult = r.get("column_multiplier", int)
    if not 1 <= mult <= 10:
        raise r.fail("column_multiplier", f"expected 1 to 10, got {mult}")
    T[R_X_SCORE, 2] = mult
    T[R_X_SCORE, 3] = r.points("street_bonus")
    T[R_X_SCORE, 4] = n_cols
    table = r.get("aaa_card_points", list)
    if len(table) != N_LEVELS:
        raise r.fail("aaa_card_points", f"expected one row per AAA level 0-5 ({N_LEVELS}), got {len(table)}")
    for lv, row in enumerate(table):
        key = f"aaa_card_points[{lv}]"
        vals = r.ints(key, row)
        if len(vals) != 6:
            raise r.fail(key, f"expected 6 points (per {', '.join(ACTION_NAMES)} card), got {len(vals)}")
        for a, v in enumerate(vals):
            if not 0 <= v <= 10:
                raise r.fail(f"{key}[{a}]", f"{v}: expected 0 to 10 points per card")
            T[R_X_AAA, lv * 6 + a] = v
    T[R_X_AAA, AAA_STREET] = r.points("aaa_street_points")


# --- reading a player's sheet ------------------------------------------------------------------


@leaf
def street_complete(R, cells, p, s) -> bool:
    """Every house of street s is numbered."""
    for h in range(R[R_STREET_LEN, s]):
        if cells[p, s, h] < 0:
            return False
    return True


@leaf
def _house_tally(cells, flags, p, s, h):
    """(numbered, perfect) of house (s, h), each 0 or 1."""
    if cells[p, s, h] < 0:
        return 0, 0
    return 1, (1 if flags[p, s, h] & F_PERFECT else 0)


@leaf
def _counts(R, cells, flags, p, row, mask):
    """(houses, numbered, perfect) of the houses whose entry in rows row.. is a bit of mask."""
    n = 0
    k = 0
    perf = 0
    for s in range(R[0, P_NSTREETS]):
        for h in range(R[R_STREET_LEN, s]):
            if (mask >> R[row + s, h]) & 1:
                n += 1
                dk, dp = _house_tally(cells, flags, p, s, h)
                k += dk
                perf += dp
    return n, k, perf


@leaf
def _column_house(R, s, col) -> int:
    """The house of street s in column col, or -1: a street's houses are the contiguous columns
    from its offset on (compile_rows), so a column has at most one house per street."""
    h = col - R[R_X_HOUSE + s, 0]
    return h if 0 <= h < R[R_STREET_LEN, s] else -1


@leaf
def column_counts(R, cells, flags, p, col):
    """(houses, numbered, perfect) of column col."""
    n = 0
    k = 0
    perf = 0
    for s in range(R[0, P_NSTREETS]):
        h = _column_house(R, s, col)
        if h >= 0:
            n += 1
            dk, dp = _house_tally(cells, flags, p, s, h)
            k += dk
            perf += dp
    return n, k, perf


@leaf
def _colours_state(R, cells, flags, p, mask):
    """(houses, numbered, perfect) of the houses of the colours in mask."""
    return _counts(R, cells, flags, p, R_X_COLOUR, mask)


@leaf
def _street_counts(R, cells, flags, p, s):
    """(houses, numbered, perfect) of street s."""
    n = R[R_STREET_LEN, s]
    k = 0
    perf = 0
    for h in range(n):
        if cells[p, s, h] >= 0:
            k += 1
            if flags[p, s, h] & F_PERFECT:
                perf += 1
    return n, k, perf


@leaf
def _square(R, cells, flags, p, s0, c0, k) -> int:
    """Perfect houses of the k x k square of streets s0.. and columns c0.., or -1 when a house of
    it is missing (a street without that column) or numbered but regular."""
    perf = 0
    for s in range(s0, s0 + k):
        for c in range(c0, c0 + k):
            h = _column_house(R, s, c)
            if h < 0:
                return -1
            if cells[p, s, h] >= 0:
                if not flags[p, s, h] & F_PERFECT:
                    return -1
                perf += 1
    return perf


@leaf
def _best_square(R, cells, flags, p, k) -> int:
    """The most perfect houses of a k x k square still possible (-1: none is): the best of
    _square over every square, read from each street's column masks (one pass over the sheet
    instead of k x k lookups per square; greedy asks for every candidate move)."""
    n_streets = R[0, P_NSTREETS]
    bad = (0, 0, 0, 0, 0)
    good = (0, 0, 0, 0, 0)
    for s in range(n_streets):
        b, g = _street_masks(R, cells, flags, p, s)
        bad = put5(bad, s, b)
        good = put5(good, s, g)
    best = -1
    for s0 in range(n_streets - k + 1):
        for c0 in range(R[R_X_SCORE, 4] - k + 1):
            window = ((1 << k) - 1) << c0
            perf = 0
            for s in range(s0, s0 + k):
                if bad[s] & window:
                    perf = -1
                    break
                perf += _bits(good[s] & window)
            best = max(best, perf)
    return best


@leaf
def _street_masks(R, cells, flags, p, s):
    """(bad, perfect) column masks of street s: bad, a column where it has no house or a numbered
    regular one (no square through it counts); perfect, a column where its house is perfect."""
    n = R[R_STREET_LEN, s]
    off = R[R_X_HOUSE + s, 0]
    bad = ((1 << AD_MAX_COLUMNS) - 1) & ~(((1 << n) - 1) << off)
    good = 0
    for h in range(n):
        if cells[p, s, h] >= 0:
            if flags[p, s, h] & F_PERFECT:
                good |= 1 << (off + h)
            else:
                bad |= 1 << (off + h)
    return bad, good


@leaf
def _bits(x) -> int:
    """Set bits of x."""
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c
