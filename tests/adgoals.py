"""The American Dream's Plan cards on hand-built sheets, each goal holding and just failing: one
table for the kernel's tests (test_american.py) and the referee's (test_referee_american.py).

Houses are picked from the data file itself (its `colours`, `houses` and `column_offsets`), read
here with tomllib, so neither side's reading of the layout decides which houses a case numbers.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "welcome_sim" / "simcore" / "data" / "expansions"
_AD = tomllib.loads((DATA / "american-dream.toml").read_text())

# Each card's requirement, as the rules text prints it (Collector's expansion rules, "PLAN CARDS").
RULE = {
    "A-AD2": "All your red houses are perfect houses.",
    "A-AD3": "All your blue and orange houses are numbered, regardless of whether they are perfect or "
    "regular houses.",
    "B-AD1": "You have completed 2 columns with only perfect houses.",
    "C-AD1": "You have completed 1 street with only perfect houses.",
    "C-AD2": "You have completed 2 streets, regardless of whether the houses are perfect or regular.",
}


def houses(kind: str, arg) -> list[tuple[int, int]]:
    """(street, house) of every house of a colour set, a column or a street (0-based)."""
    rows, offsets = _AD["houses"], _AD["column_offsets"]
    if kind == "colour":
        return [(s, h) for s, row in enumerate(rows) for h, c in enumerate(row) if c in arg]
    if kind == "column":
        return [(s, arg - offsets[s]) for s in range(len(rows)) if 0 <= arg - offsets[s] < len(rows[s])]
    return [(arg, h) for h in range(len(rows[arg]))]


# (plan, groups of houses numbered as (kind, arg, perfect?), what happens to the last house of the
# last group: None, "regular" (numbered but not perfect) or "empty", whether the goal holds).
CASES = [
    ("A-AD2", [("colour", ("red",), True)], None, True),
    ("A-AD2", [("colour", ("red",), True)], "regular", False),
    ("A-AD2", [("colour", ("red",), True)], "empty", False),
    ("A-AD3", [("colour", ("blue", "orange"), False)], None, True),
    ("A-AD3", [("colour", ("blue", "orange"), True)], None, True),
    ("A-AD3", [("colour", ("blue", "orange"), False)], "empty", False),
    ("A-AD3", [("colour", ("blue",), False)], None, False),  # the orange ones missing
    ("B-AD1", [("column", 0, True), ("column", 1, True)], None, True),
    ("B-AD1", [("column", 0, True), ("column", 1, True)], "regular", False),
    ("B-AD1", [("column", 0, True), ("column", 1, True)], "empty", False),
    ("B-AD1", [("column", 0, True), ("column", 1, False)], None, False),  # complete, not perfect
    ("C-AD1", [("street", 0, True)], None, True),
    ("C-AD1", [("street", 0, True)], "regular", False),
    ("C-AD1", [("street", 0, True)], "empty", False),
    ("C-AD2", [("street", 0, False), ("street", 4, False)], None, True),
    ("C-AD2", [("street", 0, True), ("street", 4, False)], None, True),
    ("C-AD2", [("street", 0, False), ("street", 4, False)], "empty", False),
]


def case_id(case) -> str:
    plan, groups, change, holds = case
    what = "+".join(f"{k}{'-'.join(a) if isinstance(a, tuple) else a + 1}" for k, a, _ in groups)
    return f"{plan}-{what}-{change or 'as-is'}-{'holds' if holds else 'fails'}"


def layout(groups, change) -> tuple[dict[tuple[int, int], bool], tuple[int, int]]:
    """{(street, house): perfect} of the houses to number, and the house the change applies to."""
    marked: dict[tuple[int, int], bool] = {}
    for kind, arg, perfect in groups:
        for x in houses(kind, arg):
            marked[x] = perfect
    last = houses(*groups[-1][:2])[-1]
    if change == "regular":
        marked[last] = False
    elif change == "empty":
        del marked[last]
    return marked, last
