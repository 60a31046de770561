"""The referee's reading of positions in data files: streets, houses and columns count from 1
(street 1 = top, house 1 = leftmost), as the rulebooks and `sheet show` count them; the referee
works from 0, so it subtracts 1 as it reads. A sheet, plan or expansion file must say
`positions = "from 1"`: one written when positions counted from 0 would otherwise be read shifted
by one, so it is refused."""

from __future__ import annotations

import copy
from pathlib import Path

# The file kinds (data folders) whose positions count from 1 and must say so.
KINDS = ("sheets", "plans", "expansions")
# An expansion file's rows holding positions: key -> the items of a row that are positions. A
# duckling in a street, [street, house, colour], lies between that house and the next; its house
# is kept as the referee's "boundary" (between houses h - 1 and h from 0, which are h and h + 1
# from 1), so only its street moves.
ROWS = {
    "eggs": (0, 1),
    "cones": (0, 1),
    "shelters": (0, 1),
    "saucers": (0, 1),
    "marked": (0, 1),
    "open_houses": (0, 1),
    "street_ducklings": (0,),
    "between_ducklings": (0, 1),  # [upper street, column, colour]
}


class PositionsError(ValueError):
    """A data file that does not say its positions count from 1."""


def _from_zero(row: list, items: tuple[int, ...]) -> list:
    return [v - 1 if i in items else v for i, v in enumerate(row)]


def _plans(table: dict) -> None:
    for plan in table.get("plans", []):
        if "street" in plan:
            plan["street"] -= 1


def from_one(kind: str, data: dict, path: Path | str) -> dict:
    """A parsed data file with its positions counted from 0 (a copy); refused without the marker."""
    if kind not in KINDS:
        return data
    if data.get("positions") != "from 1":
        raise PositionsError(
            f"{path}: positions now count from 1 (street 1 = top, house 1 = leftmost) and this file does "
            f'not say positions = "from 1"; convert it with `welcome-sim data upgrade {path}`'
        )
    out = copy.deepcopy(data)
    if kind == "sheets":
        for street in out["streets"]:
            street["pools"] = [h - 1 for h in street["pools"]]
    _plans(out)
    if kind == "expansions":
        tables = [out, *(v for v in out.values() if isinstance(v, dict) and "plans" in v)]
        for table in tables:
            if table is not out:
                _plans(table)  # an edition's own board's plans
            for key, items in ROWS.items():
                if key in table:
                    table[key] = [_from_zero(row, items) for row in table[key]]
            if "parents" in table:
                table["parents"] = {c: _from_zero(where, (0, 1)) for c, where in table["parents"].items()}
    return out
