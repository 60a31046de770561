"""Checks an expansion module makes of its data file (below the package, which loads the files
and reads each module's KEYS)."""

from __future__ import annotations

from welcome_sim.simcore.datafiles import Sheet, _Reader


def check_house(r: _Reader, key: str, sheet: Sheet, s: object, h: object) -> None:
    """A data file's (street, house) exists on the sheet; else an error naming file and key."""
    if not (isinstance(s, int) and 0 <= s < len(sheet.streets)):
        raise r.fail(key, f"street {s!r} is not on sheet {sheet.name} ({len(sheet.streets)} streets)")
    if not (isinstance(h, int) and 0 <= h < sheet.streets[s].houses):
        raise r.fail(key, f"house {h!r} is not in street {s} ({sheet.streets[s].houses} houses)")
