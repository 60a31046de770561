"""Doomsday: numbering a house with a fallout shelter writes that number in the shelter, its
capacity. At the end each street's highest capacity earns its bonus and the lowest total capacity
earns the optimism bonus; ties all earn them.

State: none on the player's sheet (a shelter's capacity is its house's number, read from `cells`:
a code // 2, so a 9¾ writes 9 and a bis its copied number). In the AAA solo mode the AAA's
shelters live in seat 0's SC_AAA_CAP (capacity built during the game, per street) and
SC_AAA_BUILT (how many); its printed first shelter is R_X_AAA. Table rows: R_X_HOUSE + street, 1
where a house has a shelter; R_X_SCORE: the street bonuses, then the optimism bonus at column
MAX_STREETS; R_X_AAA: the AAA's start capacity per street, then its roundabout value at column
MAX_STREETS; R_X_TABLE: shelters per street.

Who is compared: the other players at the table; in the AAA solo mode the AAA (the player earns a
bonus with a capacity at least the AAA's, the AAA with at least the player's; level 0 scores
nothing). One player without an AAA has nobody to compare with and earns every bonus (the data
file says so).

Greedy values each street's bonus and the optimism bonus by how far its capacity stands from the
best (lowest) opponent's today, through a logistic curve: the bonuses pull the numbers in the
shelters up and the optimism bonus pulls them down, and the curve prices the trade.
"""

from __future__ import annotations

import math

import numpy as np

from welcome_sim.simcore.ground.datafiles import POINTS, POSITION, Sheet, _Reader
from welcome_sim.simcore.ground.jit import leaf
from welcome_sim.simcore.ground.layout import (
    MAX_STREETS,
    O_X_POINTS,
)
from welcome_sim.simcore.ground.schema import Num
from welcome_sim.simcore.ground.table import (
    DEAL_AAA,
    P_DEAL,
    P_NSTREETS,
    R_DECK_NUM,
    R_PLAN_COUNT,
    R_PLAN_XGOAL,
    R_STREET_LEN,
    R_X_AAA,
    R_X_HOUSE,
    R_X_SCORE,
    R_X_TABLE,
)
from welcome_sim.simcore.rules.expansions.checks import check_houses
from welcome_sim.simcore.rules.expansions.record import Counters, Record, allocate

RECORD = Record(
    name="doomsday",
    title="Doomsday",
    stars=2,
    columns=("shelters", "shelter_capacity", "shelter_bonus", "optimism_bonus"),
    columns_doc="Doomsday: fallout shelters built, their total capacity, points of the streets where the capacity is the highest, the optimism bonus (the lowest total)",
    referee="welcome_sim.referee.readings.doomsday:Doomsday",
    # Houses of the estate with a fallout shelter (in a complete estate all built).
    features=("shelters",),
    # Every fallout shelter of the sheet built; total capacity of the shelters at least `count`;
    # in 2 different streets, a capacity of at least `count` each.
    goals=("all_shelters_built", "shelter_capacity", "two_streets_capacity"),
    sc_slots=(("SC_AAA_CAP", 4), ("SC_AAA_BUILT", 4)),
    log_kinds=("LOG_X_SHELTER",),
    hooks=(
        ("x_aaa_reacts", "aaa_validation"),
        ("x_roundabout", "aaa_roundabout"),
        ("x_score", "score"),
        ("x_estate_feature", "estate_shelters"),
        ("x_goal", "goal"),
        ("x_aaa", "aaa_points"),
        ("x_value", "value"),
        ("x_progress", "progress"),
    ),
    counters=Counters(
        "Doomsday: shelters, capacity and the bonuses",
        "Per player (means): fallout shelters built, their total capacity, points from the streets where the capacity is the highest (8 / 10 / 11), and the optimism bonus (9 for the lowest total).",
        ("shelters", "shelter_capacity", "shelter_bonus", "optimism_bonus"),
    ),
    layout_keys=("shelters",),
    layout_words="shelter houses",
    score_detail="{shelters} shelters, capacity {shelter_capacity}, street bonuses {shelter_bonus}, optimism {optimism_bonus}",
    text="welcome_sim.textmarks:Doomsday",
)
_NUMBERS = allocate(RECORD, __name__)
X_CODE = _NUMBERS.code  # hooks.py branches on it (codes.py X_*)
O_X_CAPACITY = _NUMBERS.out["shelter_capacity"]
O_X_OPTIMISM = _NUMBERS.out["optimism_bonus"]
O_X_SHELTER_BONUS = _NUMBERS.out["shelter_bonus"]
O_X_SHELTERS = _NUMBERS.out["shelters"]
FT_SHELTERS = _NUMBERS.features["shelters"]
GL_ALL_SHELTERS = _NUMBERS.goals["all_shelters_built"]
GL_CAPACITY = _NUMBERS.goals["shelter_capacity"]
GL_TWO_STREETS = _NUMBERS.goals["two_streets_capacity"]
# AAA solo mode (seat 0), 4 slots per street each: the capacity of the shelters the AAA built during
# the game (its printed first shelter not included), and how many it built.
SC_AAA_CAP = _NUMBERS.sc["SC_AAA_CAP"]
SC_AAA_BUILT = _NUMBERS.sc["SC_AAA_BUILT"]
LOG_X_SHELTER = _NUMBERS.log["LOG_X_SHELTER"]

GOALS_WITH_COUNT = ("shelter_capacity", "two_streets_capacity")
NOBODY = 1 << 40  # the lowest total of no opponent: one player alone is the lowest


# The file's own keys and the range of each number (checked on load, before compile_rows).
KEYS = {
    "shelters": POSITION,  # [street, house], both from 1
    "street_bonus": Num(0, 99, "a street bonus", "points"),
    "optimism_bonus": POINTS,
    "aaa_start": Num(0, 999, "a capacity"),
    "aaa_roundabout": POINTS,
}


def compile_rows(T: np.ndarray, r: _Reader, sheet: Sheet) -> None:
    """Shelter houses, street and optimism bonuses, the AAA's start and roundabout values."""
    n_streets = len(sheet.streets)
    for s, h in check_houses(
        r, "shelters", sheet, r.get("shelters", list), "house {2} has a shelter already"
    ):
        T[R_X_HOUSE + s, h] = 1
        T[R_X_TABLE, s] += 1
    bonus = r.ints("street_bonus")
    if len(bonus) != n_streets:
        raise r.fail(
            "street_bonus", f"one bonus per street of sheet {sheet.name} ({n_streets}), got {list(bonus)}"
        )
    for s, b in enumerate(bonus):
        if not 0 <= b <= 99:
            raise r.fail("street_bonus", f"a bonus is 0 to 99 points, got {b}")
        T[R_X_SCORE, s] = b
    T[R_X_SCORE, MAX_STREETS] = r.points("optimism_bonus")
    start = r.ints("aaa_start")
    if len(start) != n_streets or any(not 0 <= v <= 999 for v in start):
        raise r.fail("aaa_start", f"one capacity (0 to 999) per street ({n_streets}), got {list(start)}")
    for s, v in enumerate(start):
        T[R_X_AAA, s] = v
        if T[R_X_TABLE, s] == 0:
            raise r.fail(
                "aaa_start", f"street {s} has no shelter to hold the AAA's first one; add one to 'shelters'"
            )
    T[R_X_AAA, MAX_STREETS] = r.points("aaa_roundabout")
    for i, plan in enumerate(r.get("plans", list, [])):
        if isinstance(plan, dict) and plan.get("goal") in GOALS_WITH_COUNT and plan.get("count", 0) < 1:
            raise r.fail(f"plans[{i}].count", f"goal '{plan['goal']}' needs a capacity of 1 or more")


@leaf
def capacity(R, cells, p, s) -> int:
    """Total capacity of player p's shelters in street s (the numbers written in them)."""
    k = 0
    for h in range(R[R_STREET_LEN, s]):
        if R[R_X_HOUSE + s, h] != 0 and cells[p, s, h] >= 0:
            k += cells[p, s, h] // 2
    return k


@leaf
def _built(R, cells, p) -> int:
    """Shelters player p has built (their houses numbered)."""
    k = 0
    for s in range(R[0, P_NSTREETS]):
        for h in range(R[R_STREET_LEN, s]):
            if R[R_X_HOUSE + s, h] != 0 and cells[p, s, h] >= 0:
                k += 1
    return k


@leaf
def _total(R, cells, p) -> int:
    k = 0
    for s in range(R[0, P_NSTREETS]):
        k += capacity(R, cells, p, s)
    return k


@leaf
def aaa_capacity(R, sc, s) -> int:
    """The AAA's capacity in street s: its first shelter plus those it built."""
    return R[R_X_AAA, s] + sc[0, SC_AAA_CAP + s]


@leaf
def _aaa_build(R, sc, s, value) -> int:
    """The AAA writes value in a free shelter of street s; returns it, or -1 when none is free."""
    if s < 0 or s >= R[0, P_NSTREETS] or 1 + sc[0, SC_AAA_BUILT + s] >= R[R_X_TABLE, s]:
        return -1
    sc[0, SC_AAA_BUILT + s] += 1
    sc[0, SC_AAA_CAP + s] += value
    return value


@leaf
def aaa_validation(R, sc, slot, aaa, aaa_n) -> int:
    """AAA validation card of plan slot (A street 1, B 2, C 3): the AAA builds a shelter holding
    the highest number of the last three construction cards given to it; returns that value, or
    -1 when the street has no free shelter."""
    best = 0
    for i in range(max(0, aaa_n - 3), aaa_n):
        best = max(best, R[R_DECK_NUM, aaa[i]] // 2)
    return _aaa_build(R, sc, slot, best)


@leaf
def aaa_roundabout(R, sc, s) -> int:
    """AAA solo mode, Advanced: the player built a roundabout in street s; the AAA builds a
    shelter there with the roundabout value (or -1: no free shelter, or not the AAA mode)."""
    if R[0, P_DEAL] != DEAL_AAA:
        return -1
    return _aaa_build(R, sc, s, R[R_X_AAA, MAX_STREETS])


@leaf
def _rival(R, cells, sc, p, s) -> int:
    """The highest capacity in street s among player p's opponents (the AAA in its solo mode);
    -1 with no opponent."""
    if R[0, P_DEAL] == DEAL_AAA:
        return aaa_capacity(R, sc, s)
    best = -1
    for q in range(cells.shape[0]):
        if q != p:
            best = max(best, capacity(R, cells, q, s))
    return best


@leaf
def _rival_total(R, cells, sc, p) -> int:
    """The lowest total capacity among player p's opponents; NOBODY with no opponent."""
    if R[0, P_DEAL] == DEAL_AAA:
        t = 0
        for s in range(R[0, P_NSTREETS]):
            t += aaa_capacity(R, sc, s)
        return t
    low = NOBODY
    for q in range(cells.shape[0]):
        if q != p:
            low = min(low, _total(R, cells, q))
    return low


@leaf
def score(R, cells, flags, sc, p, row) -> None:
    """Street bonuses where p's capacity is the highest (ties earn it), the optimism bonus for
    the lowest total (ties earn it)."""
    bonus = 0
    total = 0
    for s in range(R[0, P_NSTREETS]):
        mine = capacity(R, cells, p, s)
        total += mine
        if mine >= _rival(R, cells, sc, p, s):
            bonus += R[R_X_SCORE, s]
    optimism = R[R_X_SCORE, MAX_STREETS] if total <= _rival_total(R, cells, sc, p) else 0
    row[O_X_SHELTERS] = _built(R, cells, p)
    row[O_X_CAPACITY] = total
    row[O_X_SHELTER_BONUS] = bonus
    row[O_X_OPTIMISM] = optimism
    row[O_X_POINTS] = bonus + optimism


@leaf
def aaa_points(R, cells, sc) -> int:
    """The AAA's street bonuses (its capacity at least the player's) and optimism bonus (its
    total at most the player's)."""
    pts = 0
    t_aaa = 0
    t_me = 0
    for s in range(R[0, P_NSTREETS]):
        a = aaa_capacity(R, sc, s)
        m = capacity(R, cells, 0, s)
        t_aaa += a
        t_me += m
        if a >= m:
            pts += R[R_X_SCORE, s]
    if t_aaa <= t_me:
        pts += R[R_X_SCORE, MAX_STREETS]
    return pts


@leaf
def estate_shelters(R, cells, flags, p, s, a, b) -> int:
    """Shelters in houses a..b-1 of street s."""
    k = 0
    for h in range(a, b):
        if R[R_X_HOUSE + s, h] != 0:
            k += 1
    return k


@leaf
def _shelters(R) -> int:
    k = 0
    for s in range(R[0, P_NSTREETS]):
        k += R[R_X_TABLE, s]
    return k


@leaf
def goal(R, cells, flags, sc, p, plan) -> bool:
    """Doomsday Plan C goals: every shelter built; a total capacity; a capacity in two streets."""
    g = R[R_PLAN_XGOAL, plan]
    count = R[R_PLAN_COUNT, plan]
    if g == GL_ALL_SHELTERS:
        return _built(R, cells, p) == _shelters(R)
    if g == GL_CAPACITY:
        return _total(R, cells, p) >= count
    if g == GL_TWO_STREETS:
        k = 0
        for s in range(R[0, P_NSTREETS]):
            if capacity(R, cells, p, s) >= count:
                k += 1
        return k >= 2
    return False


@leaf
def progress(R, cells, flags, sc, p, plan) -> float:
    """Greedy: how far a Doomsday goal is, 0..1 (two streets: the mean of the two best)."""
    g = R[R_PLAN_XGOAL, plan]
    count = R[R_PLAN_COUNT, plan]
    if g == GL_ALL_SHELTERS:
        return _built(R, cells, p) / max(1, _shelters(R))
    if g == GL_CAPACITY:
        return min(1.0, _total(R, cells, p) / count)
    if g == GL_TWO_STREETS:
        a = 0.0
        b = 0.0
        for s in range(R[0, P_NSTREETS]):
            x = min(1.0, capacity(R, cells, p, s) / count)
            if x > a:
                b = a
                a = x
            elif x > b:
                b = x
        return 0.5 * (a + b)
    return 0.0


# Greedy: a capacity lead of SCALE makes a bonus about 73% sure (logistic).
SCALE = 4.0


@leaf
def _sure(lead) -> float:
    return 1.0 / (1.0 + math.exp(-lead / SCALE))


@leaf
def value(R, cells, flags, sc, p) -> float:
    """Greedy valuation: each bonus times how sure it looks from today's capacities (nothing at
    stake for one player without an AAA: every comparison is won)."""
    if cells.shape[0] == 1 and R[0, P_DEAL] != DEAL_AAA:
        return 0.0
    total = 0.0
    mine_total = 0
    for s in range(R[0, P_NSTREETS]):
        mine = capacity(R, cells, p, s)
        mine_total += mine
        total += R[R_X_SCORE, s] * _sure(mine - _rival(R, cells, sc, p, s) + 0.5)
    total += R[R_X_SCORE, MAX_STREETS] * _sure(_rival_total(R, cells, sc, p) - mine_total + 0.5)
    return total
