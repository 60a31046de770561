"""Checks an expansion module makes of its data file (below the package, which loads the files
and reads each module's KEYS)."""

from __future__ import annotations

from welcome_sim.simcore.ground.datafiles import Sheet, _Reader
from welcome_sim.simcore.ground.schema import shown


def _shown(v: object) -> str:
    # A number as the file has it (an enormous one cut short), anything else as Python shows it.
    return shown(v) if isinstance(v, int) and not isinstance(v, bool) else repr(v)


def check_street(r: _Reader, key: str, sheet: Sheet, s: object) -> int:
    """A data file's street, counted from 1 (1 = top), on the sheet: its 0-based index; else an
    error naming file, key, value and the valid range."""
    n = len(sheet.streets)
    if not (isinstance(s, int) and not isinstance(s, bool) and 1 <= s <= n):
        raise r.fail(
            key,
            f"street {_shown(s)} is not on sheet {sheet.name}: use 1 to {n} (streets count from 1, 1 = top)",
        )
    return s - 1


def check_house(r: _Reader, key: str, sheet: Sheet, s: object, h: object) -> tuple[int, int]:
    """A data file's (street, house), counted from 1, on the sheet: its 0-based (street, house) for
    the kernel's tables; else an error naming file, key, value and the valid range."""
    si = check_street(r, key, sheet, s)
    n = sheet.streets[si].houses
    if not (isinstance(h, int) and not isinstance(h, bool) and 1 <= h <= n):
        raise r.fail(
            key, f"house {_shown(h)} is not in street {s}: use 1 to {n} (houses count from 1, 1 = leftmost)"
        )
    return si, h - 1


def check_houses(
    r: _Reader, key: str, sheet: Sheet, rows: list, twice: str = "street {0} house {1} is listed twice"
) -> list[tuple[int, int]]:
    """A data file's list of [street, house] pairs (counted from 1), each on the sheet and none
    twice: their 0-based (street, house); else an error naming file, key[i], value and why (`twice`
    formatted with the street, the house and the pair as given)."""
    houses: list[tuple[int, int]] = []
    for i, row in enumerate(rows):
        item = f"{key}[{i}]"
        if not (isinstance(row, list) and len(row) == 2):
            raise r.fail(item, f"expected [street, house], got {row!r}")
        s, h = check_house(r, item, sheet, row[0], row[1])
        if (s, h) in houses:
            raise r.fail(item, twice.format(row[0], row[1], row))
        houses.append((s, h))
    return houses
