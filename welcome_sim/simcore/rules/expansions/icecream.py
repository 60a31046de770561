"""Ice Cream Truck: a truck per street follows the houses numbered, circling the cone where it stops
and crossing the cones it passes; a street's end-of-delivery bonus goes to everyone who completes
that delivery in the same round and is crossed for everyone else.

State: F_CONE_IN / F_CONE_OUT per house, SC_TRUCK (houses the truck has reached or passed, along
its direction) and SC_BONUS (BONUS_*) per street, and SC_TRUCK_DIR where the player chooses the
side a street's truck starts from (the first edition's street 3). A roundabout is no house: the
truck never stops there, and passing it crosses its cone.
"""

from __future__ import annotations

import numpy as np

from welcome_sim.simcore.ground.datafiles import POINTS, POSITION, Sheet, _Reader
from welcome_sim.simcore.ground.jit import leaf
from welcome_sim.simcore.ground.layout import (
    BONUS_CIRCLED,
    BONUS_CROSSED,
    BONUS_DUE,
    BONUS_OPEN,
    FENCE,
    O_X_POINTS,
)
from welcome_sim.simcore.ground.schema import Num
from welcome_sim.simcore.ground.table import (
    P_NSTREETS,
    R_DECK_ACT,
    R_PLAN_COUNT,
    R_PLAN_STREET,
    R_PLAN_XARG,
    R_PLAN_XGOAL,
    R_STREET_LEN,
    R_X_AAA,
    R_X_HOUSE,
    R_X_SCORE,
    R_X_TABLE,
)
from welcome_sim.simcore.rules.expansions.checks import check_house
from welcome_sim.simcore.rules.expansions.record import Record, allocate
from welcome_sim.simcore.rules.sheetops import flagged_houses

RECORD = Record(
    name="icecream",
    title="Ice Cream Truck",
    stars=3,
    columns=("cones", "delivery_bonus"),
    columns_doc="Ice Cream Truck: cones circled, points from end-of-delivery bonuses",
    referee="welcome_sim.referee.readings.icecream:IceCream",
    features=("cones",),
    goals=("cones_of_scoops", "all_cones_of_street"),
    flags=("F_CONE_IN", "F_CONE_OUT"),
    sc_slots=(("SC_TRUCK", 4), ("SC_BONUS", 4), ("SC_TRUCK_DIR", 4)),
    log_kinds=("LOG_X_CROSS", "LOG_X_SIDE"),
    hooks=(
        ("x_on_number", "on_number"),
        ("x_side_pending", "side_pending"),
        ("x_set_side", "set_side"),
        ("x_round_end", "round_end"),
        ("x_validation", "validation"),
        ("x_score", "score"),
        ("x_estate_feature", "estate_cones"),
        ("x_goal", "goal"),
        ("x_aaa", "aaa_points"),
        ("x_street_part", "street_part"),
        ("x_sheet_value", "sheet_value"),
        ("x_progress", "progress"),
    ),
    score_detail="{cones} cones, bonus {delivery_bonus}",
)
_NUMBERS = allocate(RECORD, __name__)
X_CODE = _NUMBERS.code  # hooks.py branches on it (codes.py X_*)
O_X_BONUS = _NUMBERS.out["delivery_bonus"]
O_X_CONES = _NUMBERS.out["cones"]
FT_CONES = _NUMBERS.features["cones"]
GL_CONES_SCOOPS = _NUMBERS.goals["cones_of_scoops"]
GL_CONES_STREET = _NUMBERS.goals["all_cones_of_street"]
# Its flag bits: F_CONE_IN, the cone of this house is circled; F_CONE_OUT, crossed out (the truck
# passed it). Its slots, one per street: SC_TRUCK, houses the street's truck has reached or passed;
# SC_BONUS, the street's end-of-delivery bonus, BONUS_*; SC_TRUCK_DIR, the way the street's truck
# goes where the player chooses its start (first-edition street 3): 1 from the left, -1 from the
# right, 0 not chosen yet.
F_CONE_IN = _NUMBERS.flags["F_CONE_IN"]
F_CONE_OUT = _NUMBERS.flags["F_CONE_OUT"]
SC_TRUCK = _NUMBERS.sc["SC_TRUCK"]
SC_BONUS = _NUMBERS.sc["SC_BONUS"]
SC_TRUCK_DIR = _NUMBERS.sc["SC_TRUCK_DIR"]
LOG_X_CROSS = _NUMBERS.log["LOG_X_CROSS"]
LOG_X_SIDE = _NUMBERS.log["LOG_X_SIDE"]

MARKED = F_CONE_IN | F_CONE_OUT


# The file's own keys and the range of each number (checked on load, before compile_rows).
KEYS = {
    "cones": POSITION,  # [street, house (both from 1), scoops (1 to 3)]
    "directions": Num(-1, 1, "a direction (1, -1 or 0)"),
    "bonus_per_cone": POINTS,
    "aaa_per_card": POINTS,
    "aaa_per_bonus": POINTS,
}


def compile_rows(T: np.ndarray, r: _Reader, sheet: Sheet) -> None:
    """Scoops per house, truck direction per street (0: the player chooses), bonus and AAA figures."""
    for i, row in enumerate(r.get("cones", list)):
        key = f"cones[{i}]"
        if not (isinstance(row, list) and len(row) == 3):
            raise r.fail(key, f"expected [street, house, scoops], got {row!r}")
        s, h = check_house(r, key, sheet, row[0], row[1])
        n = row[2]
        if n not in (1, 2, 3):
            raise r.fail(key, f"a cone has 1 to 3 scoops, not {n!r}")
        T[R_X_HOUSE + s, h] = n
    dirs = r.ints("directions")
    if len(dirs) != len(sheet.streets) or any(d not in (1, -1, 0) for d in dirs):
        raise r.fail(
            "directions",
            f"one of 1 (left to right), -1 (right to left) or 0 (the player chooses) per street, got {list(dirs)}",
        )
    T[R_X_TABLE, : len(dirs)] = dirs
    T[R_X_SCORE, 0] = r.points("bonus_per_cone")
    T[R_X_AAA, 0] = r.points("aaa_per_card")
    T[R_X_AAA, 1] = r.points("aaa_per_bonus")


@leaf
def direction(R, sc, p, s) -> int:
    """The way street s's truck goes for player p: 1 left to right, -1 right to left, 0 while the
    player has not chosen its start yet."""
    d = R[R_X_TABLE, s]
    return d if d != 0 else sc[p, SC_TRUCK_DIR + s]


@leaf
def side_pending(R, sc, p, s) -> bool:
    """Player p chooses where street s's truck starts and has not yet."""
    return R[R_X_TABLE, s] == 0 and sc[p, SC_TRUCK_DIR + s] == 0


@leaf
def set_side(sc, p, s, side) -> None:
    """Player p's truck of street s starts from the left (side 0) or the right (1); -1 undoes it."""
    sc[p, SC_TRUCK_DIR + s] = 0 if side < 0 else (1 if side == 0 else -1)


@leaf
def _house(R, d, s, j) -> int:
    """The house at position j along the way d (1 or -1) of street s's truck."""
    return j if d == 1 else R[R_STREET_LEN, s] - 1 - j


@leaf
def delivered(R, flags, p, s) -> bool:
    """Every cone of street s is circled or crossed."""
    for h in range(R[R_STREET_LEN, s]):
        if R[R_X_HOUSE + s, h] > 0 and not (flags[p, s, h] & MARKED):
            return False
    return True


@leaf
def on_number(R, cells, flags, sc, p, s, h) -> None:
    """House (s, h) was just numbered: the truck moves up to it if it has not passed it."""
    d = direction(R, sc, p, s)
    if d == 0:
        return  # cannot happen: the kernel has the player choose the start before the truck moves
    j = _house(R, d, s, h)
    t = sc[p, SC_TRUCK + s]
    if j < t:
        return
    for i in range(t, j):
        hh = _house(R, d, s, i)
        if R[R_X_HOUSE + s, hh] > 0 and not (flags[p, s, hh] & MARKED):
            flags[p, s, hh] |= F_CONE_OUT
    if R[R_X_HOUSE + s, h] > 0:
        flags[p, s, h] |= F_CONE_IN
    sc[p, SC_TRUCK + s] = j + 1
    if sc[p, SC_BONUS + s] == BONUS_OPEN and delivered(R, flags, p, s):
        sc[p, SC_BONUS + s] = BONUS_DUE


@leaf
def round_end(R, sc, n_players) -> None:
    """Bonuses of deliveries completed this round are circled; everyone else crosses them."""
    for s in range(R[0, P_NSTREETS]):
        due = False
        for q in range(n_players):
            if sc[q, SC_BONUS + s] == BONUS_DUE:
                due = True
        if not due:
            continue
        for q in range(n_players):
            if sc[q, SC_BONUS + s] == BONUS_DUE:
                sc[q, SC_BONUS + s] = BONUS_CIRCLED
            elif sc[q, SC_BONUS + s] == BONUS_OPEN:
                sc[q, SC_BONUS + s] = BONUS_CROSSED


@leaf
def validation(R, cells, flags, sc, p) -> int:
    """AAA validation card: the player crosses one bonus not yet circled, the one with least at
    stake (fewest cones circled or still open in its street); returns its street or -1."""
    best = -1
    best_stake = 1 << 30
    for s in range(R[0, P_NSTREETS]):
        if sc[p, SC_BONUS + s] != BONUS_OPEN:
            continue
        stake = 0
        for h in range(R[R_STREET_LEN, s]):
            if R[R_X_HOUSE + s, h] > 0 and not (flags[p, s, h] & F_CONE_OUT):
                stake += 1
        if stake < best_stake:
            best_stake = stake
            best = s
    if best >= 0:
        sc[p, SC_BONUS + best] = BONUS_CROSSED
    return best


@leaf
def score(R, cells, flags, sc, p, row) -> None:
    """Scoops of the circled cones, plus the bonus per circled cone in streets whose bonus is
    circled."""
    cones = 0
    pts = 0
    bonus = 0
    for s in range(R[0, P_NSTREETS]):
        for h in range(R[R_STREET_LEN, s]):
            if flags[p, s, h] & F_CONE_IN:
                cones += 1
                pts += R[R_X_HOUSE + s, h]
                if sc[p, SC_BONUS + s] == BONUS_CIRCLED:
                    bonus += R[R_X_SCORE, 0]
    row[O_X_CONES] = cones
    row[O_X_BONUS] = bonus
    row[O_X_POINTS] = pts + bonus


@leaf
def estate_cones(R, cells, flags, p, s, a, b) -> int:
    """Circled cones in houses a..b-1 of street s."""
    return flagged_houses(flags, p, s, a, b, F_CONE_IN)


@leaf
def _circled_of_scoops(R, flags, p, scoops) -> int:
    """Circled cones with this many scoops."""
    k = 0
    for s in range(R[0, P_NSTREETS]):
        for h in range(R[R_STREET_LEN, s]):
            if (flags[p, s, h] & F_CONE_IN) and R[R_X_HOUSE + s, h] == scoops:
                k += 1
    return k


@leaf
def goal(R, cells, flags, sc, p, plan) -> bool:
    """Ice Cream Plan C goals: enough cones of some scoops circled; a street's cones all circled."""
    g = R[R_PLAN_XGOAL, plan]
    if g == GL_CONES_SCOOPS:
        return _circled_of_scoops(R, flags, p, R[R_PLAN_XARG, plan]) >= R[R_PLAN_COUNT, plan]
    if g == GL_CONES_STREET:
        st = R[R_PLAN_STREET, plan]
        for s in range(R[0, P_NSTREETS]):
            if st >= 0 and s != st:
                continue
            ok = True
            for h in range(R[R_STREET_LEN, s]):
                if R[R_X_HOUSE + s, h] > 0 and not (flags[p, s, h] & F_CONE_IN):
                    ok = False
                    break
            if ok:
                return True
        return False
    return False


@leaf
def aaa_points(R, cards, n, sc) -> int:
    """The AAA: points per card given to it except fence cards, and per bonus crossed (in the
    solo game only validation cards cross bonuses)."""
    k = 0
    for i in range(n):
        if R[R_DECK_ACT, cards[i]] != FENCE:
            k += 1
    crossed = 0
    for s in range(R[0, P_NSTREETS]):
        if sc[0, SC_BONUS + s] == BONUS_CROSSED:
            crossed += 1
    return k * R[R_X_AAA, 0] + crossed * R[R_X_AAA, 1]


OPEN_WORTH = 0.4  # an open cone's scoops, as a share: it may still be circled
BONUS_HOPE = 0.3  # per circled cone while the street's bonus is still open


@leaf
def _street_value(R, cells, flags, sc, p, s, d) -> float:
    """Greedy's value of street s with its truck going the way d (see value)."""
    total = 0.0
    n = R[R_STREET_LEN, s]
    t = sc[p, SC_TRUCK + s]
    state = sc[p, SC_BONUS + s]
    per = 0.0
    if state == BONUS_CIRCLED or state == BONUS_DUE:
        per = float(R[R_X_SCORE, 0])
    elif state == BONUS_OPEN:
        per = BONUS_HOPE * R[R_X_SCORE, 0]
    last = t - 1
    for j in range(n):
        h = _house(R, d, s, j)
        scoops = R[R_X_HOUSE + s, h]
        if j < t:
            if flags[p, s, h] & F_CONE_IN:
                total += scoops + per
        elif cells[p, s, h] >= 0:
            last = j
            if scoops > 0:
                total += scoops + per
    for j in range(last + 1, n):
        total += OPEN_WORTH * R[R_X_HOUSE + s, _house(R, d, s, j)]
    return total


@leaf
def street_part(R, cells, flags, sc, p, s) -> float:
    """Greedy's valuation, the part street s decides (all of it: the valuation is the parts' sum
    in street order, hooks.x_value; greedy keeps each with its street's record): circled scoops
    (with the bonus), plus a share of the cones still open. It reads street s's cells and flags
    and its truck's entries of the score sheet, which no move under evaluation changes.

    A move under evaluation has written numbers without moving the trucks, so numbered houses
    past a truck are trial numbers: the truck is moved over them here, virtually (the cones it
    passes on the way are lost). A truck whose start the player has still to choose is valued
    from the better side (the choice greedy will make)."""
    d = direction(R, sc, p, s)
    if d != 0:
        return _street_value(R, cells, flags, sc, p, s, d)
    return max(_street_value(R, cells, flags, sc, p, s, 1), _street_value(R, cells, flags, sc, p, s, -1))


@leaf
def sheet_value(R, parts) -> float:
    """Greedy's valuation from the streets' parts summed in street order: their sum."""
    return parts


@leaf
def progress(R, cells, flags, sc, p, plan) -> float:
    """Greedy: how far a goal is, 0..1 (cones of the scoops asked for; a street's cones, 0 once
    one of them is crossed)."""
    g = R[R_PLAN_XGOAL, plan]
    if g == GL_CONES_SCOOPS:
        k = _circled_of_scoops(R, flags, p, R[R_PLAN_XARG, plan])
        need = R[R_PLAN_COUNT, plan]
        return min(k, need) / need if need > 0 else 0.0
    st = R[R_PLAN_STREET, plan]
    best = 0.0
    for s in range(R[0, P_NSTREETS]):
        if st >= 0 and s != st:
            continue
        k = 0
        total = 0
        lost = False
        for h in range(R[R_STREET_LEN, s]):
            if R[R_X_HOUSE + s, h] > 0:
                total += 1
                if flags[p, s, h] & F_CONE_IN:
                    k += 1
                elif flags[p, s, h] & F_CONE_OUT:
                    lost = True
        if total > 0 and not lost:
            best = max(best, k / total)
    return best
