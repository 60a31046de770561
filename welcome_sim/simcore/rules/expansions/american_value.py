"""The American Dream's greedy valuation (hooks x_street_part and x_sheet_value, reached as
american.street_part and american.sheet_value): each street's bonus and each column's points at
their completion chance and the state of their bonus (american.py's docstring gives the model)."""

from __future__ import annotations

from welcome_sim.simcore.ground.jit import leaf
from welcome_sim.simcore.ground.layout import (
    BONUS_CIRCLED,
    BONUS_CROSSED,
    BONUS_DUE,
    BONUS_OPEN,
    EMPTY,
    MAX_STREETS,
)
from welcome_sim.simcore.ground.regtuples import put5
from welcome_sim.simcore.ground.table import (
    P_NSTREETS,
    R_STREET_LEN,
    R_X_SCORE,
)
from welcome_sim.simcore.rules.expansions.american_record import F_PERFECT, SC_AD_COLUMN, SC_AD_STREET
from welcome_sim.simcore.rules.expansions.american_sheet import _column_house

PERFECT_HOPE = 0.3  # chance an empty house ends up perfect (its action comes with a fitting number)
FILL_SLACK = 1.5  # free numbers per empty house of a gap for the house to be sure of a number
if MAX_STREETS != 5:  # sheet_value() remembers one run of empty houses per street in five-tuples
    raise ImportError(f"american.sheet_value keeps five streets' runs; layout.MAX_STREETS is {MAX_STREETS}")
RACE_SOLO = 0.8  # an open bonus alone against the AAA: the share of its worth counted
RACE_TABLE = 0.45  # ... at a table, where a rival may complete it first
NUMBERS = 16  # card numbers 0..15: codes 0..30, the gap above the last house ends at 32


@leaf
def _fill(R, cells, p, s, h):
    """(chance, last house) of the run of empty houses holding (s, h): the chance that each of
    them gets a number is the numbers free between the run's numbered neighbours over the run's
    houses, over FILL_SLACK (at most 1)."""
    n = R[R_STREET_LEN, s]
    lo = -2
    a = h
    while a > 0 and cells[p, s, a - 1] == EMPTY:
        a -= 1
    if a > 0:
        lo = cells[p, s, a - 1]
    hi = 2 * NUMBERS
    b = h
    while b < n - 1 and cells[p, s, b + 1] == EMPTY:
        b += 1
    if b < n - 1:
        hi = cells[p, s, b + 1]
    room = (hi - lo) // 2 - 1 if hi - lo > 1 else 0  # whole numbers strictly between the codes
    q = room / (FILL_SLACK * (b - a + 1))
    return (q if q < 1.0 else 1.0), b


@leaf
def street_part(R, cells, flags, sc, p, s) -> float:
    """Greedy's valuation, the part street s decides: its street bonus's expected points (greedy
    keeps it with the street's record). It reads street s's cells and its bonus's state, which a
    move under evaluation changes only in the street it numbers (on_action), walked again."""
    race = RACE_SOLO if sc.shape[0] == 1 else RACE_TABLE
    st = sc[p, SC_AD_STREET + s]
    if st == BONUS_CIRCLED or st == BONUS_DUE:
        return float(R[R_X_SCORE, 3])
    if st != BONUS_OPEN:
        return 0.0
    chance = 1.0
    h = 0
    n = R[R_STREET_LEN, s]
    while h < n:
        if cells[p, s, h] != EMPTY:
            h += 1
            continue
        # Every house of a run of empty houses has the run's fill chance (_fill): one call per
        # run, the same products house by house.
        q, _ = _fill(R, cells, p, s, h)
        while h < n and cells[p, s, h] == EMPTY:
            chance *= q
            h += 1
    return R[R_X_SCORE, 3] * chance * race


@leaf
def sheet_value(R, cells, flags, sc, p, parts) -> float:
    """Greedy's valuation from the street parts summed in street order (the street bonuses): plus
    each column's expected points at its completion chance and the state of its bonus."""
    race = RACE_SOLO if sc.shape[0] == 1 else RACE_TABLE
    n_streets = R[0, P_NSTREETS]
    total = parts
    reg = R[R_X_SCORE, 0]
    per = R[R_X_SCORE, 1]
    hope = reg + (per - reg) * PERFECT_HOPE
    # A street's houses come up left to right as the columns do, so each street's last run of empty
    # houses (its last house and fill chance) is remembered: one _fill per run, not per house.
    run_end = (-1, -1, -1, -1, -1)
    run_q = (0.0, 0.0, 0.0, 0.0, 0.0)
    for col in range(R[R_X_SCORE, 4]):
        pts = 0.0
        chance = 1.0
        for s in range(n_streets):
            h = _column_house(R, s, col)
            if h < 0:
                continue
            if cells[p, s, h] >= 0:
                pts += per if flags[p, s, h] & F_PERFECT else reg
            else:
                pts += hope
                if h > run_end[s]:
                    q, b = _fill(R, cells, p, s, h)
                    run_end = put5(run_end, s, b)
                    run_q = put5(run_q, s, q)
                chance *= run_q[s]
        st = sc[p, SC_AD_COLUMN + col]
        mult = float(R[R_X_SCORE, 2])
        if st == BONUS_OPEN:
            mult = 1.0 + (mult - 1.0) * race
        elif st == BONUS_CROSSED:
            mult = 1.0
        total += pts * chance * mult
    return total
