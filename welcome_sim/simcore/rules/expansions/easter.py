"""Easter Egg Hunt: eggs circled by the loops of 0, 6, 8, 9, 10, 16 (and 9¾), scored by thresholds.

Eggs are a function of the sheet: a numbered house collects as many of its eggs as its number's
loops allow, so nothing is stored and every hook reads `cells`. A house numbered by an extension
collects with the loops of the number it copies ("This action also allows you to collect eggs by
using the potential loops of the copied number. However, note that "B" does not allow you to circle
eggs."): the copy is in `cells`, the letter B adds nothing. A player always collects
all the eggs they can (the text says "can"; choosing fewer would only matter for the Plan C card
asking for estates without eggs, and a player after it can avoid looped numbers).
"""

from __future__ import annotations

import numpy as np

from welcome_sim.simcore.ground.datafiles import MAX_POINTS, POINTS, POSITION, Sheet, _Reader
from welcome_sim.simcore.ground.jit import leaf
from welcome_sim.simcore.ground.layout import MAX_STREETS, O_X_POINTS
from welcome_sim.simcore.ground.schema import Keyed, Num
from welcome_sim.simcore.ground.table import (
    P_NSTREETS,
    R_DECK_NUM,
    R_PLAN_COUNT,
    R_PLAN_STREET,
    R_PLAN_XARG,
    R_PLAN_XGOAL,
    R_STREET_LEN,
    R_X_AAA,
    R_X_COLOUR,
    R_X_HOUSE,
    R_X_SCORE,
    R_X_TABLE,
)
from welcome_sim.simcore.rules.expansions.checks import check_house
from welcome_sim.simcore.rules.expansions.record import Record, allocate

RECORD = Record(
    name="easter",
    title="Easter Egg Hunt",
    stars=1,
    columns=("eggs",),
    columns_doc="Easter Egg Hunt: eggs collected",
    referee="welcome_sim.referee.readings.easter:Easter",
    features=("eggs",),
    goals=("all_eggs_of_colours", "colours_each_street", "all_eggs_of_street"),
    hooks=(
        ("x_score", "score"),
        ("x_estate_feature", "estate_eggs"),
        ("x_goal", "goal"),
        ("x_aaa", "aaa_points"),
        ("x_street_part", "street_part"),
        ("x_sheet_value", "sheet_value"),
        ("x_progress", "progress"),
    ),
    # The colours only: the egg houses and counts are the published sheet's.
    layout_keys=("eggs",),
    layout_words="egg colours",
    score_detail="{eggs} eggs",
)
_NUMBERS = allocate(RECORD, __name__)
X_CODE = _NUMBERS.code  # hooks.py branches on it (codes.py X_*)
O_X_EGGS = _NUMBERS.out["eggs"]
FT_EGGS = _NUMBERS.features["eggs"]
GL_COLOURS_EACH_STREET = _NUMBERS.goals["colours_each_street"]
GL_EGG_COLOURS = _NUMBERS.goals["all_eggs_of_colours"]
GL_EGGS_STREET = _NUMBERS.goals["all_eggs_of_street"]

MAX_COLOURS = 16
MAX_EGGS = 120  # two eggs in each house of a sheet of 4 streets of 15 houses

# The file's own keys and the range of each number (checked on load, before compile_rows).
KEYS = {
    "colours": None,
    "eggs": POSITION,  # [street, house (both from 1), eggs (1 or 2), colour]
    "loops": Keyed(Num(1, 2, "a number of loops", "eggs")),
    "thresholds": Num(0, MAX_EGGS, "an egg count"),
    "points": POINTS,
    "aaa_eggs": Keyed(Num(0, 2, "the eggs of an AAA card")),
}


def compile_rows(T: np.ndarray, r: _Reader, sheet: Sheet) -> None:
    """Eggs and colours per house, loops per whole number, thresholds, the AAA's eggs per card."""
    colours = r.get("colours", list)
    if not 1 <= len(colours) <= MAX_COLOURS:
        raise r.fail("colours", f"expected 1 to {MAX_COLOURS} colour names, got {len(colours)}")
    for s in range(MAX_STREETS):
        T[R_X_COLOUR + s, :] = -1
    for i, row in enumerate(r.get("eggs", list)):
        key = f"eggs[{i}]"
        if not (isinstance(row, list) and len(row) == 4):
            raise r.fail(key, f"expected [street, house, eggs, colour], got {row!r}")
        s, h = check_house(r, key, sheet, row[0], row[1])
        n, colour = row[2], row[3]
        if n not in (1, 2):
            raise r.fail(key, f"a house holds 1 or 2 eggs, not {n!r}")
        if colour not in colours:
            raise r.fail(key, f"colour '{colour}' is not one of {', '.join(colours)}")
        T[R_X_HOUSE + s, h] = n
        T[R_X_COLOUR + s, h] = colours.index(colour)
    T[R_X_TABLE, :] = 0
    for k, v in r.get("loops", dict).items():
        if not (k.isdigit() and 0 <= int(k) <= 17 and v in (1, 2)):
            raise r.fail(f"loops.{k}", "expected number (0..17) = eggs (1 or 2)")
        T[R_X_TABLE, int(k)] = v
    thresholds = r.ints("thresholds")
    points = r.ints("points")
    if len(points) != len(thresholds) or list(thresholds) != sorted(thresholds):
        raise r.fail("points", "one point value per threshold, thresholds increasing")
    for i, v in enumerate(points):
        if not 0 <= v <= MAX_POINTS:
            raise r.fail(f"points[{i}]", f"{v} is not a score value: use 0 to {MAX_POINTS} points")
    k = len(thresholds)
    T[R_X_SCORE, 0] = k
    T[R_X_SCORE, 1 : 1 + k] = thresholds
    T[R_X_SCORE, 1 + k : 1 + 2 * k] = points
    T[R_X_AAA, :] = 0
    for key, v in r.get("aaa_eggs", dict).items():
        if not (key.isdigit() and 0 <= int(key) <= 17 and isinstance(v, int)):
            raise r.fail(f"aaa_eggs.{key}", "expected number (0..17) = eggs")
        T[R_X_AAA, int(key)] = v


@leaf
def eggs_at(R, cells, flags, p, s, h) -> int:
    """Eggs house (s, h) collects: its number's loops (a bis: the copied number's), at most its eggs."""
    c = cells[p, s, h]
    if c < 0:
        return 0
    e = R[R_X_HOUSE + s, h]
    loops = R[R_X_TABLE, c // 2]  # a ¾ number collects like its whole part (9¾ as a 9)
    return e if loops > e else loops


@leaf
def egg_points(R, eggs) -> int:
    """Points of the highest threshold reached."""
    k = R[R_X_SCORE, 0]
    pts = 0
    for i in range(k):
        if eggs >= R[R_X_SCORE, 1 + i]:
            pts = R[R_X_SCORE, 1 + k + i]
    return pts


@leaf
def total_eggs(R, cells, flags, p) -> int:
    """Eggs collected on the whole sheet."""
    n = 0
    for s in range(R[0, P_NSTREETS]):
        for h in range(R[R_STREET_LEN, s]):
            if R[R_X_HOUSE + s, h] > 0:
                n += eggs_at(R, cells, flags, p, s, h)
    return n


@leaf
def score(R, cells, flags, sc, p, row) -> None:
    """Eggs collected and their points."""
    eggs = total_eggs(R, cells, flags, p)
    row[O_X_EGGS] = eggs
    row[O_X_POINTS] = egg_points(R, eggs)


@leaf
def estate_eggs(R, cells, flags, p, s, a, b) -> int:
    """Eggs collected in houses a..b-1 of street s."""
    n = 0
    for h in range(a, b):
        n += eggs_at(R, cells, flags, p, s, h)
    return n


@leaf
def _street_colours(R, cells, flags, p, s) -> int:
    """Different egg colours collected in street s."""
    seen = 0
    for h in range(R[R_STREET_LEN, s]):
        if eggs_at(R, cells, flags, p, s, h) > 0:
            seen |= 1 << R[R_X_COLOUR + s, h]
    k = 0
    while seen:
        k += seen & 1
        seen >>= 1
    return k


@leaf
def goal(R, cells, flags, sc, p, plan) -> bool:
    """Easter Plan C goals: every egg of some colours, colours in each street, a street's eggs."""
    g = R[R_PLAN_XGOAL, plan]
    n_streets = R[0, P_NSTREETS]
    if g == GL_EGGS_STREET:
        # A given street, or (no street given) any one street with every egg collected.
        st = R[R_PLAN_STREET, plan]
        for s in range(n_streets):
            if st >= 0 and s != st:
                continue
            ok = True
            for h in range(R[R_STREET_LEN, s]):
                e = R[R_X_HOUSE + s, h]
                if e > 0 and eggs_at(R, cells, flags, p, s, h) < e:
                    ok = False
                    break
            if ok:
                return True
        return False
    if g == GL_EGG_COLOURS:
        mask = R[R_PLAN_XARG, plan]
        for s in range(n_streets):
            for h in range(R[R_STREET_LEN, s]):
                e = R[R_X_HOUSE + s, h]
                if e == 0 or not ((mask >> R[R_X_COLOUR + s, h]) & 1):
                    continue
                if eggs_at(R, cells, flags, p, s, h) < e:
                    return False
        return True
    if g == GL_COLOURS_EACH_STREET:
        for s in range(n_streets):
            k = _street_colours(R, cells, flags, p, s)
            if k < R[R_PLAN_COUNT, plan]:
                return False
        return True
    return False


@leaf
def aaa_points(R, cards, n) -> int:
    """The AAA's eggs from the numbers of the cards given to it (a 9¾ as a 9), at the thresholds."""
    eggs = 0
    for i in range(n):
        eggs += R[R_X_AAA, R[R_DECK_NUM, cards[i]] // 2]
    return egg_points(R, eggs)


@leaf
def street_part(R, cells, flags, sc, p, s) -> float:
    """Greedy's valuation, the part street s decides: the eggs its houses collect (greedy keeps
    it with the street's record and re-counts it only when a move changes the street)."""
    n = 0
    for h in range(R[R_STREET_LEN, s]):
        if R[R_X_HOUSE + s, h] > 0:
            n += eggs_at(R, cells, flags, p, s, h)
    return float(n)


@leaf
def sheet_value(R, parts) -> float:
    """Greedy's valuation from the streets' parts summed in street order (eggs, a whole number):
    egg points interpolated between thresholds (each egg counts toward the next threshold, not
    only when it is reached)."""
    eggs = int(parts)
    k = R[R_X_SCORE, 0]
    prev_t = 0
    prev_p = 0
    for i in range(k):
        t = R[R_X_SCORE, 1 + i]
        pt = R[R_X_SCORE, 1 + k + i]
        if eggs < t:
            return prev_p + (pt - prev_p) * (eggs - prev_t) / (t - prev_t)
        prev_t = t
        prev_p = pt
    return float(prev_p)


@leaf
def _egg_progress(R, cells, flags, p, street, mask) -> float:
    """Eggs collected of those a goal needs (street -1: every street; mask -1: every colour), 0
    once a house is numbered without all its eggs."""
    have = 0
    total = 0
    for s in range(R[0, P_NSTREETS]):
        if street >= 0 and s != street:
            continue
        for h in range(R[R_STREET_LEN, s]):
            e = R[R_X_HOUSE + s, h]
            if e == 0 or (mask >= 0 and not ((mask >> R[R_X_COLOUR + s, h]) & 1)):
                continue
            total += e
            got_h = eggs_at(R, cells, flags, p, s, h)
            if cells[p, s, h] != -1 and got_h < e:
                return 0.0  # numbered without all its eggs: the goal is lost
            have += got_h
    return have / total if total > 0 else 0.0


@leaf
def progress(R, cells, flags, sc, p, plan) -> float:
    """Greedy: how far a goal is, 0..1 (eggs collected of those it needs; colours per street)."""
    g = R[R_PLAN_XGOAL, plan]
    n_streets = R[0, P_NSTREETS]
    if g == GL_COLOURS_EACH_STREET:
        need = R[R_PLAN_COUNT, plan]
        got = 0.0
        for s in range(n_streets):
            k = _street_colours(R, cells, flags, p, s)
            got += min(k, need) / need
        return got / n_streets
    if g == GL_EGG_COLOURS:
        return _egg_progress(R, cells, flags, p, -1, R[R_PLAN_XARG, plan])
    st = R[R_PLAN_STREET, plan]
    if st >= 0:
        return _egg_progress(R, cells, flags, p, st, -1)
    best = 0.0  # any one street: the closest
    for s in range(n_streets):
        best = max(best, _egg_progress(R, cells, flags, p, s, -1))
    return best
