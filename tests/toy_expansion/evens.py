"""Even Marks, a test's own expansion: marked houses of the Classic sheet score points when
numbered with an even number; its one Plan C card asks for a count of them.

Named by $WELCOME_SIM_EXPANSIONS=toy_expansion.evens (with tests/ on the import path), it plays,
sweeps, is refereed (evens_referee.py) and reaches the report with no edit outside these files.
"""

from __future__ import annotations

import numpy as np

from welcome_sim.simcore.ground.datafiles import Sheet, _Reader
from welcome_sim.simcore.ground.jit import leaf
from welcome_sim.simcore.ground.layout import MAX_STREETS, O_X_POINTS
from welcome_sim.simcore.ground.schema import Num
from welcome_sim.simcore.ground.table import (
    P_NSTREETS,
    R_PLAN_COUNT,
    R_PLAN_XGOAL,
    R_STREET_LEN,
    R_X_HOUSE,
    R_X_SCORE,
)
from welcome_sim.simcore.rules.expansions.checks import check_house
from welcome_sim.simcore.rules.expansions.record import Counters, Record, allocate

RECORD = Record(
    name="evens",
    title="Even Marks",
    stars=1,
    columns=("even_marks",),
    columns_doc="Even Marks: marked houses numbered with an even number",
    referee="toy_expansion.evens_referee:Evens",
    goals=("even_marks",),
    hooks=(
        ("x_score", "score"),
        ("x_goal", "goal"),
        ("x_progress", "progress"),
        ("x_value", "value"),
    ),
    counters=Counters(
        title="Even Marks", note="marked houses numbered with an even number", columns=("even_marks",)
    ),
    score_detail="{even_marks} even marks",
    data="evens.toml",
    goal_texts=(("even_marks", "at least {count} marked houses numbered with an even number"),),
)
_NUMBERS = allocate(RECORD, __name__)
X_CODE = _NUMBERS.code
O_X_EVEN = _NUMBERS.out["even_marks"]
GL_EVEN_MARKS = _NUMBERS.goals["even_marks"]

KEYS = {"marks": None, "points_per_mark": Num(0, 10, "points per mark", "points")}


def compile_rows(T: np.ndarray, r: _Reader, sheet: Sheet) -> None:
    """The marked houses (R_X_HOUSE rows) and the points per mark (R_X_SCORE[0])."""
    for s in range(MAX_STREETS):
        T[R_X_HOUSE + s, :] = 0
    for i, row in enumerate(r.get("marks", list)):
        if not (isinstance(row, list) and len(row) == 2):
            raise r.fail(f"marks[{i}]", f"expected [street, house], got {row!r}")
        s, h = check_house(r, f"marks[{i}]", sheet, row[0], row[1])
        T[R_X_HOUSE + s, h] = 1
    T[R_X_SCORE, 0] = r.get("points_per_mark", int)


@leaf
def even_marks(R, cells, p) -> int:
    """Marked houses numbered with an even whole number (code 2 x n: n even is a multiple of 4)."""
    n = 0
    for s in range(R[0, P_NSTREETS]):
        for h in range(R[R_STREET_LEN, s]):
            c = cells[p, s, h]
            if R[R_X_HOUSE + s, h] > 0 and c >= 0 and c % 4 == 0:
                n += 1
    return n


@leaf
def score(R, cells, flags, sc, p, row) -> None:
    """The even marks and their points."""
    n = even_marks(R, cells, p)
    row[O_X_EVEN] = n
    row[O_X_POINTS] = n * R[R_X_SCORE, 0]


@leaf
def goal(R, cells, flags, sc, p, plan) -> bool:
    """The Plan C card: at least `count` even marks."""
    return R[R_PLAN_XGOAL, plan] == GL_EVEN_MARKS and even_marks(R, cells, p) >= R[R_PLAN_COUNT, plan]


@leaf
def progress(R, cells, flags, sc, p, plan) -> float:
    """Greedy: the share of the card's count reached."""
    need = R[R_PLAN_COUNT, plan]
    return min(1.0, even_marks(R, cells, p) / need) if need > 0 else 1.0


@leaf
def value(R, cells, flags, fences, sc, p) -> float:
    """Greedy: the points of the even marks so far."""
    return float(even_marks(R, cells, p) * R[R_X_SCORE, 0])
