"""Roswell: flying saucers above some houses; numbering one, the architect uses the card's action
or infiltrates a Zoorg instead (circles the saucer). A complete estate of 6 houses at most with an
infiltrated Zoorg is an infiltrated estate; at the end, the infiltration objective circled at
set-up pays its value per infiltrated estate when met, 2 per infiltrated estate when missed.

State: flags F_ZOORG where a saucer is circled; sc SC_RW_OBJECTIVE (the objective's box, 1-based;
0 none) and SC_RW_ZOORGS (Zoorgs infiltrated). Table rows: R_X_HOUSE + street, 1 where a house
carries a saucer; R_X_COLOUR + street, each house's column (for the column plan); R_X_SCORE: the
number of objectives, the points per estate when missed, the largest infiltrated estate, then per
objective its min, max and points; R_X_AAA row 0, the AAA's points per upside-down card.

The infiltration is the move's alternative to its action (hooks.x_alt_ok / x_alt): a move row with
action NO_ACTION and mv[5:8] = (street, house just numbered, 1). A number changed by a temp worker
has spent the action on itself, so it cannot infiltrate; a house an extension numbers was
numbered "using" the Extension action, which is spent on it: only the card's own house can.

Greedy: `value` prices the infiltrated estates and the estates that may still become so at the
objective's points per estate (2 past its maximum), so trying the infiltration against each
action option inside the move search (greedy_search.best_moves) makes the decision; `greedy_objective`
picks the objective whose points are best for the infiltrated estates it expects (ESTIMATE_SHARE
of the sheet's saucers), unless the `objective` parameter fixes one.
"""

from __future__ import annotations

import numpy as np

from welcome_sim.simcore.ground.datafiles import POINTS, POSITION, DataError, Sheet, _Reader
from welcome_sim.simcore.ground.jit import leaf
from welcome_sim.simcore.ground.layout import (
    B_FENCE,
    EMPTY,
    FENCE,
    NO_ACTION,
    O_X_POINTS,
    SC_NUMBERED,
)
from welcome_sim.simcore.ground.schema import Num
from welcome_sim.simcore.ground.table import (
    P_NSTREETS,
    P_OPP_SCORES,
    P_TOTAL_HOUSES,
    R_DECK_ACT,
    R_PLAN_COUNT,
    R_PLAN_STREET,
    R_PLAN_XGOAL,
    R_STREET_LEN,
    R_X_AAA,
    R_X_COLOUR,
    R_X_HOUSE,
    R_X_SCORE,
)
from welcome_sim.simcore.rules.expansions.checks import check_houses
from welcome_sim.simcore.rules.expansions.record import Counters, Record, allocate
from welcome_sim.simcore.rules.sheetops import flagged_houses

RECORD = Record(
    name="roswell",
    title="Roswell",
    stars=2,
    columns=("objective", "zoorgs", "infiltrated"),
    columns_doc="Roswell: the infiltration objective circled at set-up (its box, 1-4 in the sheet's order; 0 in other games), Zoorgs infiltrated (flying saucers circled), infiltrated estates (complete, 6 houses at most, with a Zoorg)",
    referee="welcome_sim.referee.readings.roswell:Roswell",
    # Zoorgs infiltrated in the estate's houses.
    features=("zoorgs",),
    # Every Zoorg of one street infiltrated; at least `count` columns of houses with two Zoorgs
    # infiltrated each.
    goals=("street_zoorgs", "columns_zoorgs"),
    flags=("F_ZOORG",),
    sc_slots=(("SC_RW_OBJECTIVE", 1), ("SC_RW_ZOORGS", 1)),
    log_kinds=("LOG_X_OBJECTIVE",),
    hooks=(
        ("x_on_move", "on_move"),
        ("x_alt_ok", "alt_ok"),
        ("x_alt", "infiltrate"),
        ("x_objectives", "objectives"),
        ("x_set_objective", "set_objective"),
        ("x_score", "score"),
        ("x_estate_feature", "estate_zoorgs"),
        ("x_goal", "goal"),
        ("x_aaa", "aaa_points"),
        ("x_value", "value"),
        ("x_progress", "progress"),
        ("x_aaa_upside", "upside"),
    ),
    counters=Counters(
        "Roswell: Zoorgs, infiltrated estates and the objective's points",
        "Per player (means): Zoorgs infiltrated, infiltrated estates (complete, 6 houses at most, with a Zoorg) and the infiltration objective's points. The next table splits them by the objective box chosen at set-up.",
        ("zoorgs", "infiltrated", "expansion_points"),
    ),
    legend="roswell: under a street, 'v' a flying saucer, 'V' a saucer circled (a Zoorg infiltrated)",
    layout_keys=("saucers",),
    layout_words="saucer houses",
    not_varied="middle objective ranges, column_offsets",
    score_detail="objective {objective}, {zoorgs} Zoorgs, {infiltrated} infiltrated",
    text="welcome_sim.textmarks:Roswell",
    # The rules' solo part is written for the AAA opponent ("With a level 1 or higher AAA
    # opponent"); like Zombie Outbreak, the first edition's solo variant is not played.
    aaa_solo_only=True,
)
_NUMBERS = allocate(RECORD, __name__)
X_CODE = _NUMBERS.code  # hooks.py branches on it (codes.py X_*)
O_X_INFILTRATED = _NUMBERS.out["infiltrated"]
O_X_OBJECTIVE = _NUMBERS.out["objective"]
O_X_ZOORGS = _NUMBERS.out["zoorgs"]
FT_ZOORGS = _NUMBERS.features["zoorgs"]
GL_COLUMNS_ZOORGS = _NUMBERS.goals["columns_zoorgs"]
GL_STREET_ZOORGS = _NUMBERS.goals["street_zoorgs"]
# F_ZOORG: the flying saucer above this house is circled (a Zoorg infiltrated). SC_RW_OBJECTIVE:
# the infiltration objective circled at set-up (its box, 1-based; 0 none); SC_RW_ZOORGS: the Zoorgs
# infiltrated (flying saucers circled).
F_ZOORG = _NUMBERS.flags["F_ZOORG"]
SC_RW_OBJECTIVE = _NUMBERS.sc["SC_RW_OBJECTIVE"]
SC_RW_ZOORGS = _NUMBERS.sc["SC_RW_ZOORGS"]
LOG_X_OBJECTIVE = _NUMBERS.log["LOG_X_OBJECTIVE"]

MAX_OBJECTIVES = 6
NO_MAX = 99  # an objective's "or more"
PER_COLUMN = 2  # Plan C: "In 3 vertical columns of houses: at least 2 Zoorgs are infiltrated"
if not 2 <= PER_COLUMN <= 3:  # _columns keeps counts of one to three Zoorgs per column in bit masks
    raise ImportError(f"roswell._columns counts 1 to 3 Zoorgs a column; PER_COLUMN is {PER_COLUMN}")


# The file's own keys and the range of each number (checked on load, before compile_rows).
KEYS = {
    "saucers": POSITION,  # [street, house], both from 1
    "column_offsets": Num(0, 8, "a column offset"),
    "max_estate_size": Num(1, 6, "an estate size"),
    "objectives": [
        {
            "min": Num(1, NO_MAX, "an objective's bound"),
            "max": Num(1, NO_MAX, "an objective's bound"),
            "points": POINTS,
        }
    ],
    "fail_points": POINTS,
    "aaa_points_per_card": POINTS,
}


def compile_rows(T: np.ndarray, r: _Reader, sheet: Sheet) -> None:
    """Saucer houses, columns, objectives, the points of a missed objective and the AAA's share."""
    saucers = r.get("saucers", list)
    if not saucers:
        raise r.fail("saucers", "expected at least one [street, house] under a flying saucer")
    for s, h in check_houses(r, "saucers", sheet, saucers):
        T[R_X_HOUSE + s, h] = 1
    offsets = r.ints("column_offsets")
    if len(offsets) != len(sheet.streets):
        raise r.fail(
            "column_offsets",
            f"expected one offset per street of sheet {sheet.name} ({len(sheet.streets)}), got {len(offsets)}",
        )
    for s, off in enumerate(offsets):
        if not 0 <= off <= 8:
            raise r.fail(f"column_offsets[{s}]", f"expected 0 to 8 columns, got {off}")
        for h in range(sheet.streets[s].houses):
            T[R_X_COLOUR + s, h] = h + off
    size = r.get("max_estate_size", int)
    if not 1 <= size <= 6:
        raise r.fail("max_estate_size", f"expected 1 to 6 houses (estates score up to size 6), got {size}")
    objectives = r.get("objectives", list)
    if not 1 <= len(objectives) <= MAX_OBJECTIVES:
        raise r.fail("objectives", f"expected 1 to {MAX_OBJECTIVES} objective boxes, got {len(objectives)}")
    T[R_X_SCORE, 0] = len(objectives)
    T[R_X_SCORE, 1] = r.points("fail_points")
    T[R_X_SCORE, 2] = size
    prev = 0
    for k, obj in enumerate(objectives):
        key = f"objectives[{k}]"
        if not isinstance(obj, dict):
            raise r.fail(key, f"expected a table {{ min = ..., max = ..., points = ... }}, got {obj!r}")
        sub = _Reader(r.path, obj)
        try:
            lo = sub.get("min", int)
            hi = sub.get("max", int, NO_MAX)
            pts = sub.points("points")
        except DataError as exc:  # name the whole key
            raise r.fail(f"{key}.{exc.key}", exc.problem) from None
        unknown = set(obj) - {"min", "max", "points"}
        if unknown:
            raise r.fail(f"{key}.{sorted(unknown)[0]}", "unknown key; valid: min, max, points")
        if not (prev < lo <= hi <= NO_MAX):
            raise r.fail(
                key,
                f"min {lo} and max {hi} must satisfy {prev + 1} <= min <= max <= {NO_MAX} "
                "(ranges in increasing order, not overlapping)",
            )
        prev = hi
        T[R_X_SCORE, 3 + 3 * k] = lo
        T[R_X_SCORE, 4 + 3 * k] = hi
        T[R_X_SCORE, 5 + 3 * k] = pts
    T[R_X_AAA, 0] = r.points("aaa_points_per_card")


# --- the rules ---------------------------------------------------------------------------------


@leaf
def alt_ok(R, cells, flags, p, s, h) -> bool:
    """The house (s, h) just numbered carries a flying saucer not yet circled: a Zoorg may be
    infiltrated instead of the card's action."""
    return R[R_X_HOUSE + s, h] == 1 and cells[p, s, h] >= 0 and (flags[p, s, h] & F_ZOORG) == 0


@leaf
def infiltrate(flags, sc, p, s, h, sign) -> None:
    """Circle (sign 1) or un-circle (-1, greedy trying it out) the saucer above (s, h)."""
    if sign > 0:
        flags[p, s, h] |= F_ZOORG
    else:
        flags[p, s, h] &= ~F_ZOORG
    sc[p, SC_RW_ZOORGS] += sign


@leaf
def on_move(R, cells, flags, sc, p, mv) -> None:
    """After a move: the Zoorg infiltrated instead of the action."""
    if mv[4] == NO_ACTION and mv[7] == 1:
        infiltrate(flags, sc, p, mv[5], mv[6], 1)


@leaf
def objectives(R) -> int:
    """How many objective boxes a player chooses among at set-up."""
    return R[R_X_SCORE, 0]


@leaf
def set_objective(sc, p, k) -> None:
    """Player p circles objective k (0-based)."""
    sc[p, SC_RW_OBJECTIVE] = k + 1


@leaf
def infiltrated(R, cells, flags, fences, p) -> int:
    """Infiltrated estates: complete, at most max_estate_size houses, a Zoorg in one of them."""
    n = 0
    cap = R[R_X_SCORE, 2]
    for s in range(R[0, P_NSTREETS]):
        start = 0
        length = R[R_STREET_LEN, s]
        for b in range(1, length + 1):
            if b == length or (fences[p, s, b] & B_FENCE):
                if b - start <= cap:
                    complete = True
                    zoorg = False
                    for h in range(start, b):
                        if cells[p, s, h] < 0:
                            complete = False
                            break
                        if flags[p, s, h] & F_ZOORG:
                            zoorg = True
                    if complete and zoorg:
                        n += 1
                start = b
    return n


@leaf
def objective_points(R, k, n) -> int:
    """Points of n infiltrated estates under objective k (0-based; -1 none chosen: missed)."""
    if k >= 0:
        lo = R[R_X_SCORE, 3 + 3 * k]
        hi = R[R_X_SCORE, 4 + 3 * k]
        if lo <= n <= hi:
            return R[R_X_SCORE, 5 + 3 * k] * n
    return R[R_X_SCORE, 1] * n


@leaf
def score(R, cells, flags, fences, sc, p, row) -> None:
    """The objective's points and the counters (objective box, Zoorgs, infiltrated estates)."""
    n = infiltrated(R, cells, flags, fences, p)
    row[O_X_POINTS] = objective_points(R, sc[p, SC_RW_OBJECTIVE] - 1, n)
    row[O_X_OBJECTIVE] = sc[p, SC_RW_OBJECTIVE]
    row[O_X_ZOORGS] = sc[p, SC_RW_ZOORGS]
    row[O_X_INFILTRATED] = n


@leaf
def estate_zoorgs(R, cells, flags, p, s, a, b) -> int:
    """Zoorgs infiltrated in houses a..b-1 of street s."""
    return flagged_houses(flags, p, s, a, b, F_ZOORG)


@leaf
def _street_share(R, cells, flags, p, s) -> float:
    """Share of street s's saucers circled, or -1 when it can no longer be all of them (a saucer
    house numbered without its Zoorg) or has no saucer."""
    n = 0
    done = 0
    for h in range(R[R_STREET_LEN, s]):
        if R[R_X_HOUSE + s, h] == 0:
            continue
        n += 1
        if flags[p, s, h] & F_ZOORG:
            done += 1
        elif cells[p, s, h] != EMPTY:
            return -1.0
    if n == 0:
        return -1.0
    return done / n


@leaf
def _columns(R, flags, p, need) -> int:
    """Columns (0..31) of houses with at least `need` Zoorgs infiltrated, need 1..3 (PER_COLUMN
    or one less)."""
    # One pass over the houses: bit c of at_k is set once column c has k Zoorgs.
    at_1 = 0
    at_2 = 0
    at_3 = 0
    for s in range(R[0, P_NSTREETS]):
        for h in range(R[R_STREET_LEN, s]):
            col = R[R_X_COLOUR + s, h]
            if flags[p, s, h] & F_ZOORG and 0 <= col < 32:
                bit = 1 << col
                at_3 |= at_2 & bit
                at_2 |= at_1 & bit
                at_1 |= bit
    bits = at_1 if need == 1 else (at_2 if need == 2 else at_3)
    k = 0
    while bits:
        bits &= bits - 1
        k += 1
    return k


@leaf
def goal(R, cells, flags, sc, p, plan) -> bool:
    """Roswell Plan C goals: every Zoorg of one street infiltrated; `count` columns with two
    Zoorgs infiltrated each."""
    g = R[R_PLAN_XGOAL, plan]
    if g == GL_STREET_ZOORGS:
        st = R[R_PLAN_STREET, plan]
        for s in range(R[0, P_NSTREETS]):
            if (st < 0 or s == st) and _street_share(R, cells, flags, p, s) == 1.0:
                return True
        return False
    if g == GL_COLUMNS_ZOORGS:
        return _columns(R, flags, p, PER_COLUMN) >= R[R_PLAN_COUNT, plan]
    return False


@leaf
def upside(R, i, prev) -> bool:
    """AAA solo mode (level 1+): the i-th card given to the AAA lies upside down, given the
    previous card's action as it counts (NO_ACTION when that card lies upside down): the first
    card, and each card given immediately after a Fence card."""
    if R[0, P_OPP_SCORES] == 0:
        return False
    return i == 0 or prev == FENCE


@leaf
def aaa_points(R, cards, n) -> int:
    """The AAA's share: aaa_points_per_card for each upside-down card."""
    k = 0
    prev = NO_ACTION
    for i in range(n):
        a = R[R_DECK_ACT, cards[i]]
        if upside(R, i, prev):
            k += 1
            a = NO_ACTION
        prev = a
    return k * R[R_X_AAA, 0]


# --- the greedy player's valuation --------------------------------------------------------------

OPEN_ESTATE = 0.55  # an incomplete estate of 6 at most with a Zoorg: its chance to be completed
OPEN_SAUCER = 0.25  # an estate of 6 at most with an empty saucer house: its chance to be infiltrated
LONG_SAUCER = 0.3  # per Zoorg or empty saucer house in a stretch longer than 6: a later estate
ESTIMATE_SHARE = 0.4  # infiltrated estates greedy expects per saucer on the sheet (see greedy_objective)


@leaf
def _pay(R, k, x) -> float:
    """Points of x (a real) infiltrated estates under objective k as greedy reckons them: the
    objective's points per estate up to its maximum (its minimum is hoped for while the sheet is
    open), the missed rate past it."""
    if k < 0:
        return R[R_X_SCORE, 1] * x
    hi = R[R_X_SCORE, 4 + 3 * k]
    if x <= hi:
        return R[R_X_SCORE, 5 + 3 * k] * x
    return R[R_X_SCORE, 1] * x


@leaf
def value(R, cells, flags, fences, sc, p) -> float:
    """Greedy valuation: infiltrated estates and the estates that may still become so, at the
    chosen objective's points; below its minimum the sure part fades to the missed rate as the
    sheet fills."""
    done = 0
    maybe = 0.0
    cap = R[R_X_SCORE, 2]
    for s in range(R[0, P_NSTREETS]):
        start = 0
        length = R[R_STREET_LEN, s]
        for b in range(1, length + 1):
            if b == length or (fences[p, s, b] & B_FENCE):
                empty = 0
                zoorgs = 0
                saucers = 0
                blocked = False
                for h in range(start, b):
                    c = cells[p, s, h]
                    if c == EMPTY:
                        empty += 1
                        if R[R_X_HOUSE + s, h] == 1:
                            saucers += 1
                    elif c < 0:
                        blocked = True  # a roundabout: never complete
                    if flags[p, s, h] & F_ZOORG:
                        zoorgs += 1
                if not blocked:
                    if b - start <= cap:
                        if zoorgs > 0:
                            if empty == 0:
                                done += 1
                            else:
                                maybe += OPEN_ESTATE
                        elif saucers > 0:
                            maybe += OPEN_SAUCER
                    else:
                        maybe += LONG_SAUCER * (zoorgs + saucers)
                start = b
    k = sc[p, SC_RW_OBJECTIVE] - 1
    total = _pay(R, k, done + maybe)
    if k >= 0 and done + maybe < R[R_X_SCORE, 3 + 3 * k]:
        # Short of the minimum: as the sheet fills, the objective's rate becomes the missed one.
        filled = sc[p, SC_NUMBERED] / R[0, P_TOTAL_HOUSES]
        total = (1.0 - filled) * total + filled * R[R_X_SCORE, 1] * (done + maybe)
    return total


@leaf
def progress(R, cells, flags, sc, p, plan) -> float:
    """Greedy: how far a Roswell goal is, 0..1."""
    g = R[R_PLAN_XGOAL, plan]
    if g == GL_STREET_ZOORGS:
        st = R[R_PLAN_STREET, plan]
        best = 0.0
        for s in range(R[0, P_NSTREETS]):
            if st < 0 or s == st:
                best = max(best, _street_share(R, cells, flags, p, s))
        return best
    if g == GL_COLUMNS_ZOORGS:
        full = _columns(R, flags, p, PER_COLUMN)
        half = _columns(R, flags, p, PER_COLUMN - 1) - full
        return min(1.0, (full + 0.5 * half) / R[R_PLAN_COUNT, plan])
    return 0.0


@leaf
def greedy_objective(R, policy) -> int:
    """Greedy's objective (0-based): the box `policy` (1-based) when set, else the one paying
    most, averaged over one fewer, as many and one more infiltrated estates than
    ESTIMATE_SHARE of the sheet's saucers."""
    n_obj = R[R_X_SCORE, 0]
    if 1 <= policy <= n_obj:
        return policy - 1
    n = 0
    for s in range(R[0, P_NSTREETS]):
        for h in range(R[R_STREET_LEN, s]):
            n += R[R_X_HOUSE + s, h]
    guess = int(ESTIMATE_SHARE * n + 0.5)
    best = 0
    best_pts = -1.0
    for k in range(n_obj):
        pts = (
            0.25 * objective_points(R, k, max(0, guess - 1))
            + 0.5 * objective_points(R, k, guess)
            + 0.25 * objective_points(R, k, guess + 1)
        )
        if pts > best_pts:
            best, best_pts = k, pts
    return best
