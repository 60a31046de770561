"""Quack's ducklings (quack.py's RECORD): its data file's own keys and compile_rows, which write
each duckling's two houses and colour, the parents, the points and the AAA's share into the kernel
table, and the leaves that read a sheet's ducklings through those rows (circled, reached from a
parent, connected; the phases' colours, completion and points), which its rules, plans and greedy's
valuation in quack.py share."""

from __future__ import annotations

import numpy as np

from welcome_sim.simcore.ground.datafiles import POINTS, POSITION, Sheet, _Reader
from welcome_sim.simcore.ground.jit import leaf
from welcome_sim.simcore.ground.schema import Keyed, Num
from welcome_sim.simcore.ground.table import (
    P_NSTREETS,
    R_STREET_LEN,
    R_X_AAA,
    R_X_COLOUR,
    R_X_HOUSE,
    R_X_SCORE,
    R_X_TABLE,
)
from welcome_sim.simcore.rules.expansions.checks import check_house, check_street

COLOURS = ("yellow", "black")
YELLOW, BLACK = 0, 1
# Phases: 0 yellow, 1 black, 2 yellow and black; bit c of PHASE_COLOURS[k]: colour c scores in k.
PH_YELLOW, PH_BLACK, PH_BOTH = 0, 1, 2
N_PHASES = 3
STREET_BITS = 16  # bits of a street in the house mask; a street holds at most STREET_BITS - 1 houses


def _colour(r: _Reader, key: str, value: object) -> int:
    if value not in COLOURS:
        raise r.fail(key, f"colour {value!r} is not one of {', '.join(COLOURS)}")
    return COLOURS.index(value)


# The file's own keys and the range of each number (checked on load, before compile_rows).
KEYS = {
    "column_offsets": Num(0, 8, "a column offset"),
    "street_ducklings": POSITION,  # [street, house (both from 1): between it and the next, colour]
    "between_ducklings": Num(0, 23, "a street or column (counted from 1)"),  # [upper street, column, colour]
    "parents": Keyed(POSITION),  # colour = [street, house], both from 1
    "points_per_duckling": POINTS,
    "aaa_cards_per_point": Num(1, 81, "a number of cards"),
    "aaa_points": POINTS,
}


def compile_rows(T: np.ndarray, r: _Reader, sheet: Sheet) -> None:
    """Ducklings (their two houses and colour), parents, the points per duckling and the AAA's share."""
    if len(sheet.streets) > 4 or any(st.houses >= STREET_BITS for st in sheet.streets):
        raise r.fail(
            "sheet", f"sheet {sheet.name}: Quack handles 4 streets of at most {STREET_BITS - 1} houses"
        )
    n_streets = len(sheet.streets)
    offsets = r.ints("column_offsets")
    if len(offsets) != n_streets:
        raise r.fail(
            "column_offsets",
            f"expected one offset per street of sheet {sheet.name} ({n_streets}), got {len(offsets)}",
        )
    for s, off in enumerate(offsets):
        if not 0 <= off <= 8:
            raise r.fail(f"column_offsets[{s}]", f"expected 0 to 8 columns, got {off}")
    ducks: list[tuple[int, int, int, int, int, int]] = []
    for i, row in enumerate(r.get("street_ducklings", list)):
        key = f"street_ducklings[{i}]"
        if not (isinstance(row, list) and len(row) == 3):
            raise r.fail(key, f"expected [street, house, colour], got {row!r}")
        s = check_street(r, key, sheet, row[0])
        h, c = row[1], row[2]
        n = sheet.streets[s].houses
        # The duckling between house h and house h + 1 (both from 1): 0-based houses h - 1 and h.
        if not (isinstance(h, int) and not isinstance(h, bool) and 1 <= h < n):
            raise r.fail(
                key,
                f"house {h!r}: a duckling lies between a house and the next one of street {row[0]}: "
                f"use 1 to {n - 1} (houses count from 1, 1 = leftmost)",
            )
        ducks.append((s, h - 1, s, h, _colour(r, key, c), 0))
    for i, row in enumerate(r.get("between_ducklings", list)):
        key = f"between_ducklings[{i}]"
        if not (isinstance(row, list) and len(row) == 3):
            raise r.fail(key, f"expected [upper street, column, colour], got {row!r}")
        upper, col, c = row
        if not (isinstance(upper, int) and not isinstance(upper, bool) and 1 <= upper < n_streets):
            raise r.fail(
                key,
                f"upper street {upper!r} has no street below it: use 1 to {n_streets - 1} "
                "(streets count from 1, 1 = top)",
            )
        if not isinstance(col, int) or isinstance(col, bool):
            raise r.fail(key, f"column {col!r} is not a whole number")
        s = upper - 1
        # Columns count from 1 as houses do: house h (from 1) of street s is in column h + offset.
        ha, hb = col - 1 - offsets[s], col - 1 - offsets[s + 1]
        if not (0 <= ha < sheet.streets[s].houses and 0 <= hb < sheet.streets[s + 1].houses):
            raise r.fail(
                key,
                f"column {col} has no house in street {upper} or street {upper + 1} (columns count from 1; "
                f"column_offsets {offsets})",
            )
        ducks.append((s, ha, s + 1, hb, _colour(r, key, c), 1))
    if not ducks:
        raise r.fail("street_ducklings", "expected at least one duckling")
    if len(ducks) > T.shape[1]:
        raise r.fail("street_ducklings", f"at most {T.shape[1]} ducklings in all, got {len(ducks)}")
    seen = set()
    for d in ducks:
        if d[:4] in seen:
            raise r.fail(
                "street_ducklings",
                f"two ducklings between street {d[0] + 1} house {d[1] + 1} and street {d[2] + 1} house {d[3] + 1}",
            )
        seen.add(d[:4])
    for c, name in enumerate(COLOURS):
        if not any(d[4] == c for d in ducks):
            raise r.fail("street_ducklings", f"no {name} duckling: each colour has a scoring phase")
    for i, (sa, ha, sb, hb, c, vert) in enumerate(ducks):
        T[R_X_HOUSE + 0, i] = sa
        T[R_X_HOUSE + 1, i] = ha
        T[R_X_HOUSE + 2, i] = sb
        T[R_X_HOUSE + 3, i] = hb
        T[R_X_COLOUR + 0, i] = c
        T[R_X_COLOUR + 1, i] = vert
    T[R_X_TABLE, 0] = len(ducks)
    parents = r.get("parents", dict)
    for c, name in enumerate(COLOURS):
        key = f"parents.{name}"
        where = parents.get(name)
        if not (isinstance(where, list) and len(where) == 2):
            raise r.fail(key, f"expected [street, house] beside which the {name} parent is, got {where!r}")
        ps, ph = check_house(r, key, sheet, where[0], where[1])
        T[R_X_TABLE, 1 + 2 * c] = ps
        T[R_X_TABLE, 2 + 2 * c] = ph
    unknown = set(parents) - set(COLOURS)
    if unknown:
        raise r.fail(f"parents.{sorted(unknown)[0]}", f"unknown colour; valid: {', '.join(COLOURS)}")
    T[R_X_SCORE, 0] = r.points("points_per_duckling")
    per = r.get("aaa_cards_per_point", int)
    if per < 1:
        raise r.fail("aaa_cards_per_point", f"expected 1 or more cards, got {per}")
    T[R_X_AAA, 0] = per
    T[R_X_AAA, 1] = r.points("aaa_points")


# --- reading a sheet's ducklings ----------------------------------------------------------------


@leaf
def _bit(s, h) -> int:
    """The house's bit in a sheet mask."""
    return 1 << (s * STREET_BITS + h)


@leaf
def numbered_mask(R, cells, p) -> int:
    """Bits of player p's numbered houses (a roundabout is no number)."""
    m = 0
    for s in range(R[0, P_NSTREETS]):
        for h in range(R[R_STREET_LEN, s]):
            if cells[p, s, h] >= 0:
                m |= _bit(s, h)
    return m


@leaf
def _a(R, i) -> int:
    return _bit(R[R_X_HOUSE, i], R[R_X_HOUSE + 1, i])


@leaf
def _b(R, i) -> int:
    return _bit(R[R_X_HOUSE + 2, i], R[R_X_HOUSE + 3, i])


@leaf
def is_circled(R, num, i) -> bool:
    """Duckling i is circled: both its houses are numbered (num: numbered_mask)."""
    ab = _a(R, i) | _b(R, i)
    return (num & ab) == ab


@leaf
def reach(R, num, colour) -> int:
    """Houses connected to the colour's parent by numbered neighbours in a street and circled
    ducklings between streets (0 while the parent's house is not numbered)."""
    start = _bit(R[R_X_TABLE, 1 + 2 * colour], R[R_X_TABLE, 2 + 2 * colour])
    if (num & start) == 0:
        return 0
    r = start
    n = R[R_X_TABLE, 0]
    while True:
        # Along the streets: bit STREET_BITS - 1 of every street is never numbered, so shifts stop
        # at a street's end.
        while True:
            nr = r | ((r << 1) & num) | ((r >> 1) & num)
            if nr == r:
                break
            r = nr
        changed = False
        for i in range(n):
            if R[R_X_COLOUR + 1, i] == 1 and is_circled(R, num, i):
                a = _a(R, i)
                b = _b(R, i)
                if (r & a) != 0 and (r & b) == 0:
                    r |= b
                    changed = True
                elif (r & b) != 0 and (r & a) == 0:
                    r |= a
                    changed = True
        if not changed:
            return r


@leaf
def connected(R, num, colour) -> int:
    """Ducklings of the colour circled and connected to their parent."""
    r = reach(R, num, colour)
    k = 0
    if r == 0:
        return 0
    for i in range(R[R_X_TABLE, 0]):
        if R[R_X_COLOUR, i] == colour and is_circled(R, num, i) and (r & _a(R, i)) != 0:
            k += 1
    return k


@leaf
def circled_count(R, num, colour) -> int:
    """Ducklings of the colour circled (colour -1: both)."""
    k = 0
    for i in range(R[R_X_TABLE, 0]):
        if (colour < 0 or R[R_X_COLOUR, i] == colour) and is_circled(R, num, i):
            k += 1
    return k


@leaf
def _circled_by_colour(R, num):
    """(yellow, black) ducklings circled, in one pass: circled_count of each colour."""
    cy = 0
    cb = 0
    for i in range(R[R_X_TABLE, 0]):
        if is_circled(R, num, i):
            if R[R_X_COLOUR, i] == YELLOW:
                cy += 1
            else:
                cb += 1
    return cy, cb


@leaf
def phase_colours(k) -> int:
    """Bit c: colour c scores in phase k."""
    return 3 if k == PH_BOTH else 1 << k


@leaf
def phase_complete(R, num, k) -> bool:
    """Every duckling of phase k's colours is circled."""
    cols = phase_colours(k)
    for i in range(R[R_X_TABLE, 0]):
        if (cols >> R[R_X_COLOUR, i]) & 1 and not is_circled(R, num, i):
            return False
    return True


@leaf
def phase_points(R, num, k) -> int:
    """What phase k pays a sheet: points per duckling of its colours circled and connected."""
    cols = phase_colours(k)
    n = 0
    for c in range(2):
        if (cols >> c) & 1:
            n += connected(R, num, c)
    return n * R[R_X_SCORE, 0]
