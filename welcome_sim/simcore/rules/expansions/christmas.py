"""Christmas Lights: strings of lights join neighbouring houses with consecutive numbers; each
street's longest string scores per house.

Strings are a function of the sheet (a string is drawn as soon as both numbers are written, and
roundabouts only go in empty houses), so nothing is stored: every hook reads `cells`.
"""

from __future__ import annotations

import numpy as np

from welcome_sim.simcore.ground.datafiles import POINTS, Sheet, _Reader
from welcome_sim.simcore.ground.jit import leaf
from welcome_sim.simcore.ground.layout import FENCE, O_X_POINTS, SC_PARK
from welcome_sim.simcore.ground.table import (
    P_NSTREETS,
    R_DECK_ACT,
    R_PARK_LEN,
    R_PLAN_STREET,
    R_PLAN_XGOAL,
    R_STREET_LEN,
    R_X_AAA,
    R_X_SCORE,
)
from welcome_sim.simcore.rules.expansions.record import Record, allocate

RECORD = Record(
    name="christmas",
    title="Christmas Lights",
    stars=1,
    columns=("lights",),
    columns_doc="Christmas Lights: houses on each street's longest string, summed",
    referee="welcome_sim.referee.readings.christmas:Christmas",
    # "lit": houses of the estate a string touches, strings across its fences included (first-
    # edition Christmas "no light").
    features=("gaps", "links", "lit"),
    goals=("street_string", "street_string_parks"),
    hooks=(
        ("x_score", "score"),
        ("x_estate_feature", "estate_links"),
        ("x_estate_feature", "estate_lit"),
        ("x_goal", "goal"),
        ("x_aaa", "aaa_points"),
        ("x_street_part", "street_part"),
        ("x_sheet_value", "sheet_value"),
        ("x_progress", "progress"),
    ),
    score_detail="{lights} lit houses",
)
_NUMBERS = allocate(RECORD, __name__)
X_CODE = _NUMBERS.code  # hooks.py branches on it (codes.py X_*)
O_X_LIGHTS = _NUMBERS.out["lights"]
FT_GAPS = _NUMBERS.features["gaps"]
FT_LINKS = _NUMBERS.features["links"]
FT_LIT = _NUMBERS.features["lit"]
GL_STRING_PARKS = _NUMBERS.goals["street_string_parks"]
GL_STRING_STREET = _NUMBERS.goals["street_string"]

# The file's own keys and the range of each number (checked on load, before compile_rows).
KEYS = {"points_per_house": POINTS, "aaa_per_card": POINTS}


def compile_rows(T: np.ndarray, r: _Reader, sheet: Sheet) -> None:
    """Points per house of a street's longest string; the AAA's points per card."""
    T[R_X_SCORE, 0] = r.points("points_per_house")
    T[R_X_AAA, 0] = r.points("aaa_per_card")


@leaf
def linked(a, b) -> bool:
    """Codes a (left) and b (right), both numbers, are consecutive: b is a or one more; a n¾
    follows n-1 or n and is followed by n+1 (9 - 9¾ - 10 and 8 - 9¾ - 10)."""
    if a < 0 or b < 0:
        return False
    d = b - a
    if d == 0:
        return True  # an extension beside its source
    if a % 2 == 0 and b % 2 == 0:
        return d == 2
    if a % 2 == 0:
        return d == 1 or d == 3
    if b % 2 == 0:
        return d == 1
    return False


@leaf
def street_best(R, cells, p, s) -> int:
    """Houses on the longest string of street s (0 when no two houses are joined)."""
    best, _ = _strings(R, cells, p, s)
    return best


@leaf
def _strings(R, cells, p, s):
    """(houses on the longest string, joined neighbouring pairs) of street s, in one pass."""
    best = 0
    run = 1
    links = 0
    for h in range(1, R[R_STREET_LEN, s]):
        if linked(cells[p, s, h - 1], cells[p, s, h]):
            links += 1
            run += 1
            if run > best:
                best = run
        else:
            run = 1
    return best, links


@leaf
def score(R, cells, flags, sc, p, row) -> None:
    """The longest string of each street, one point per house."""
    lights = 0
    for s in range(R[0, P_NSTREETS]):
        lights += street_best(R, cells, p, s)
    row[O_X_LIGHTS] = lights
    row[O_X_POINTS] = lights * R[R_X_SCORE, 0]


@leaf
def estate_links(R, cells, p, s, a, b, gaps) -> int:
    """Neighbouring pairs inside houses a..b-1 of street s that a string joins (or, with gaps,
    that none joins)."""
    k = 0
    for h in range(a + 1, b):
        if linked(cells[p, s, h - 1], cells[p, s, h]) != gaps:
            k += 1
    return k


@leaf
def estate_lit(R, cells, p, s, a, b) -> int:
    """Houses a..b-1 of street s that a string touches, strings to the houses beyond the estate's
    fences included: a fence does not cut a string of lights."""
    k = 0
    n = R[R_STREET_LEN, s]
    for h in range(a, b):
        if (h > 0 and linked(cells[p, s, h - 1], cells[p, s, h])) or (
            h + 1 < n and linked(cells[p, s, h], cells[p, s, h + 1])
        ):
            k += 1
    return k


@leaf
def _string_through(R, cells, p, s) -> bool:
    """One string joins every house of street s."""
    n = R[R_STREET_LEN, s]
    if cells[p, s, 0] < 0:
        return False
    for h in range(1, n):
        if not linked(cells[p, s, h - 1], cells[p, s, h]):
            return False
    return True


@leaf
def goal(R, cells, flags, sc, p, plan) -> bool:
    """Christmas Plan C goals: one string through a street (and its park boxes all crossed)."""
    g = R[R_PLAN_XGOAL, plan]
    st = R[R_PLAN_STREET, plan]
    for s in range(R[0, P_NSTREETS]):
        if st >= 0 and s != st:
            continue
        if not _string_through(R, cells, p, s):
            continue
        if g == GL_STRING_STREET:
            return True
        if g == GL_STRING_PARKS and sc[p, SC_PARK + s] >= R[R_PARK_LEN, s] - 1:
            return True
    return False


@leaf
def aaa_points(R, cards, n) -> int:
    """The AAA: points per card between its first and its last fence card."""
    first = -1
    last = -1
    for i in range(n):
        if R[R_DECK_ACT, cards[i]] == FENCE:
            if first < 0:
                first = i
            last = i
    if last <= first:
        return 0
    return (last - first - 1) * R[R_X_AAA, 0]


LINK_WORTH = 0.25  # a joined pair off the longest string: strings grow and merge


@leaf
def street_part(R, cells, flags, sc, p, s) -> float:
    """Greedy's valuation, the part street s decides (all of it: the valuation is the parts' sum
    in street order, hooks.x_value; greedy keeps each with its street's record): its longest string's points and
    LINK_WORTH per other joined pair. Every term is a multiple of 1/4, so sums of them are exact
    in any order."""
    # One pass for both (the same counts as street_best and estate_links over the street).
    best, links = _strings(R, cells, p, s)
    extra = links - (best - 1 if best > 0 else 0)
    return best * R[R_X_SCORE, 0] + LINK_WORTH * extra


@leaf
def sheet_value(R, parts) -> float:
    """Greedy's valuation from the streets' parts summed in street order: their sum."""
    return parts


@leaf
def progress(R, cells, flags, sc, p, plan) -> float:
    """Greedy: how far a goal is, 0..1 (joined pairs of the best street, with its park boxes)."""
    g = R[R_PLAN_XGOAL, plan]
    st = R[R_PLAN_STREET, plan]
    best = 0.0
    for s in range(R[0, P_NSTREETS]):
        if st >= 0 and s != st:
            continue
        n = R[R_STREET_LEN, s]
        links = 0
        broken = False
        for h in range(1, n):
            a = cells[p, s, h - 1]
            b = cells[p, s, h]
            if linked(a, b):
                links += 1
            elif (a >= 0 and b >= 0) or a == -2 or b == -2:
                broken = True  # two numbers that are not consecutive, or a roundabout
        if broken:
            continue
        f = links / (n - 1) if n > 1 else 1.0
        if g == GL_STRING_PARKS:
            last = R[R_PARK_LEN, s] - 1
            f = (f + min(sc[p, SC_PARK + s], last) / last) / 2.0
        best = max(best, f)
    return best
