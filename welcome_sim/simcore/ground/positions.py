"""Street, house and column positions in data files count from 1, as `sheet show`, the rulebooks
and a designer count them (street 1 = top, house 1 = leftmost).

Files written before counted them from 0, so the same numbers now mean another house. Every file
of a kind that can hold positions (sheets, plan sets, expansions) must therefore say
`positions = "from 1"`: a file without the line is refused with how to convert it, never read
shifted by one. The loaders subtract 1 as they read, so the kernel's tables stay 0-based.
"""

from __future__ import annotations

from typing import Any, Protocol

MARKER_KEY = "positions"
MARKER = "from 1"
MARKER_LINE = f'{MARKER_KEY} = "{MARKER}"'
COUNTING = "street 1 = top, house 1 = leftmost"

# An expansion file's keys holding positions as rows: key -> the row items that are positions.
# A Quack duckling in a street, [street, h, colour], lay between houses h - 1 and h counted from
# 0, which are houses h and h + 1 counted from 1: it now reads "between house h and the next", so
# only its street moves.
ROW_POSITIONS: dict[str, tuple[int, ...]] = {
    "eggs": (0, 1),
    "cones": (0, 1),
    "shelters": (0, 1),
    "saucers": (0, 1),
    "marked": (0, 1),
    "open_houses": (0, 1),
    "street_ducklings": (0,),
    "between_ducklings": (0, 1),  # upper street, column
    "parents": (0, 1),  # a table of colour = [street, house]
}


def shift_rows(value: Any, items: tuple[int, ...], by: int = 1) -> Any:
    """Rows (or a table of rows) with `by` added to the listed items."""
    if isinstance(value, dict):
        return {k: shift_rows([v], items, by)[0] for k, v in value.items()}
    return [[v + by if i in items else v for i, v in enumerate(row)] for row in value]


class _Failing(Protocol):
    path: str
    data: dict[str, Any]

    def fail(self, key: str, problem: str) -> Exception: ...


def old_form(path: str) -> str:
    """The one-line problem of a file without the marker: what changed and how to convert it."""
    return (
        f"positions now count from 1 ({COUNTING}) and this file has no `{MARKER_LINE}` line, so it may "
        f"count them from 0 as files did before: run `welcome-sim data upgrade {path}` to convert it, or "
        f"add 1 to every street, house and column position in it and add the line {MARKER_LINE}"
    )


def require_from_one(r: _Failing) -> None:
    """Refuse a file that does not say its positions count from 1 (before any value is read)."""
    value = r.data.get(MARKER_KEY)
    if value == MARKER or (value is None and "name" not in r.data):
        return  # without a name it is no data file of any time: the loader says what it lacks
    if value is None:
        raise r.fail("", old_form(r.path))
    raise r.fail(MARKER_KEY, f"{value!r}: the only value is {MARKER!r} ({COUNTING})")
