"""The American Dream (`--expansion american-dream`): its own sheet of five streets whose houses
also form vertical columns; each house is built for a family, and the usual actions do not exist.
The action of the combination only says whether the house just numbered is perfect (the action
matches the house's family: circled) or regular. The first to complete a street circles its
10-point bonus, the first to complete a column its x2 bonus, at the round's end (simultaneous
finishers share; the others cross it out). End: each complete column scores 1 per regular and 3
per perfect house, doubled with its x2 bonus (incomplete columns nothing), plus 10 per street
bonus. Its nine Plan cards (A, B, C) replace every plan set; it cannot be played in Advanced mode.

The sheet itself (sheets/american_dream.toml) has no fences, pools, park, temp, improvement or
extension boxes (their tracks hold no box, `fences = false`), so the kernel never offers those
actions, every base score component is 0, and a move is always a number with action NO_ACTION;
the combination's action reaches this module through hooks.x_on_action.

State: flags F_PERFECT on perfect houses; sc SC_AD_STREET + street and SC_AD_COLUMN + column, the
bonuses (BONUS_OPEN, BONUS_DUE when completed this round, BONUS_CIRCLED, BONUS_CROSSED);
SC_AD_OWED, the bonuses an AAA validation card makes the player cross (street bonuses * 4 + column
bonuses); SC_AD_PERFECT, perfect houses. Table rows: R_X_COLOUR + street, each house's family
(its index in the data file's `colours`); R_X_HOUSE + street, each house's column; R_X_TABLE,
per family the action that matches it; R_X_SCORE: points of a regular house, of a perfect house,
the column bonus's multiplier, the street bonus, the number of columns; R_X_AAA: the AAA's points
per card, level * 6 + action, then (AAA_STREET) its points per street bonus crossed.

AAA solo mode: each validation card makes the player cross one street bonus and two column
bonuses not yet circled (the expansion's decisions, phase 2: hooks.x_options), logged as
LOG_X_AD_CROSS rows. The AAA (level 1+) scores its points per card from the data file's table for
its level and 10 per street bonus the player crossed, in place of its usual parks, pools, temps,
fences and estates (none exist on this sheet); it keeps its plan points.

Greedy: `street_part` and `sheet_value` price each column as its points so far plus
1 + 2 x PERFECT_HOPE per empty house,
times the chance every empty house gets a number (per house: the numbers still free around it
over the empty houses sharing them, FILL_SLACK of room per house needed for certainty), times its
multiplier (2 circled or due, 1 crossed, 1 + RACE_SOLO or RACE_TABLE while open); each street's
bonus at 10 x its completion chance x (1, 0, or the race share). The placement search tries each
house with its combination's action (hooks.x_on_action), so a perfect house is valued where it
is placed; the AAA's crossings are greedy_option's (every option evaluated with this value).
`progress` gives the plans' progress (greedy's plan term).

The data file's keys, compile_rows and the leaves that read a sheet live in american_sheet.py,
greedy's valuation in american_value.py; this module re-exports what others reach through it.
"""

from __future__ import annotations

from welcome_sim.simcore.ground.jit import leaf
from welcome_sim.simcore.ground.layout import (
    BONUS_CIRCLED,
    BONUS_CROSSED,
    BONUS_DUE,
    BONUS_OPEN,
    G_AAA_ESTATES,
    G_AAA_FENCES,
    G_AAA_N_ESTATES,
    G_AAA_PARKS,
    G_AAA_PLANS,
    G_AAA_POOLS,
    G_AAA_TEMPS,
    G_AAA_TOTAL,
    MAX_STREETS,
    O_N_EST,
    O_N_ESTATES,
    O_X_POINTS,
)
from welcome_sim.simcore.ground.table import (
    P_NSTREETS,
    P_OPP_LEVEL,
    R_DECK_ACT,
    R_PLAN_COUNT,
    R_PLAN_XARG,
    R_PLAN_XGOAL,
    R_STREET_LEN,
    R_X_AAA,
    R_X_COLOUR,
    R_X_HOUSE,
    R_X_SCORE,
    R_X_TABLE,
)

# Re-exported (`x as x`): its record and numbers, kept in american_record.py so that its siblings
# can import them without a circle.
from welcome_sim.simcore.rules.expansions.american_record import AD_MAX_COLUMNS as AD_MAX_COLUMNS
from welcome_sim.simcore.rules.expansions.american_record import F_PERFECT as F_PERFECT
from welcome_sim.simcore.rules.expansions.american_record import GL_ADJACENT_COLUMNS as GL_ADJACENT_COLUMNS
from welcome_sim.simcore.rules.expansions.american_record import GL_COLOURS_NUMBERED as GL_COLOURS_NUMBERED
from welcome_sim.simcore.rules.expansions.american_record import GL_COLOURS_PERFECT as GL_COLOURS_PERFECT
from welcome_sim.simcore.rules.expansions.american_record import GL_COMPLETE_COLUMNS as GL_COMPLETE_COLUMNS
from welcome_sim.simcore.rules.expansions.american_record import GL_COMPLETE_STREETS as GL_COMPLETE_STREETS
from welcome_sim.simcore.rules.expansions.american_record import GL_PERFECT_COLUMNS as GL_PERFECT_COLUMNS
from welcome_sim.simcore.rules.expansions.american_record import GL_PERFECT_SQUARE as GL_PERFECT_SQUARE
from welcome_sim.simcore.rules.expansions.american_record import GL_PERFECT_STREETS as GL_PERFECT_STREETS
from welcome_sim.simcore.rules.expansions.american_record import LOG_X_AD_CROSS as LOG_X_AD_CROSS
from welcome_sim.simcore.rules.expansions.american_record import O_X_COLUMN_BONUSES as O_X_COLUMN_BONUSES
from welcome_sim.simcore.rules.expansions.american_record import O_X_COLUMNS as O_X_COLUMNS
from welcome_sim.simcore.rules.expansions.american_record import O_X_PERFECT as O_X_PERFECT
from welcome_sim.simcore.rules.expansions.american_record import O_X_STREET_BONUSES as O_X_STREET_BONUSES
from welcome_sim.simcore.rules.expansions.american_record import RECORD as RECORD
from welcome_sim.simcore.rules.expansions.american_record import SC_AD_COLUMN as SC_AD_COLUMN
from welcome_sim.simcore.rules.expansions.american_record import SC_AD_OWED as SC_AD_OWED
from welcome_sim.simcore.rules.expansions.american_record import SC_AD_PERFECT as SC_AD_PERFECT
from welcome_sim.simcore.rules.expansions.american_record import SC_AD_STREET as SC_AD_STREET
from welcome_sim.simcore.rules.expansions.american_record import X_CODE as X_CODE
from welcome_sim.simcore.rules.expansions.american_sheet import (
    AAA_STREET,
    _best_square,
    _colours_state,
    _street_counts,
    column_counts,
    street_complete,
)

# Re-exported (`x as x`): hooks.py calls american.street_part and sheet_value, compile.py and the
# data schema read american.KEYS and compile_rows, the tests reach the sheet's leaves as american.x.
from welcome_sim.simcore.rules.expansions.american_sheet import KEYS as KEYS
from welcome_sim.simcore.rules.expansions.american_sheet import _column_house as _column_house
from welcome_sim.simcore.rules.expansions.american_sheet import _counts as _counts
from welcome_sim.simcore.rules.expansions.american_sheet import _square as _square
from welcome_sim.simcore.rules.expansions.american_sheet import compile_rows as compile_rows
from welcome_sim.simcore.rules.expansions.american_value import PERFECT_HOPE as PERFECT_HOPE
from welcome_sim.simcore.rules.expansions.american_value import RACE_SOLO as RACE_SOLO
from welcome_sim.simcore.rules.expansions.american_value import RACE_TABLE as RACE_TABLE
from welcome_sim.simcore.rules.expansions.american_value import _fill as _fill
from welcome_sim.simcore.rules.expansions.american_value import sheet_value as sheet_value
from welcome_sim.simcore.rules.expansions.american_value import street_part as street_part

STREET_OWED = 4  # SC_AD_OWED: a street bonus owed counts 4, a column bonus 1
A_STREET, A_COLUMN = 0, 1  # option rows / log rows: which kind of bonus is crossed


# --- the rules ---------------------------------------------------------------------------------


@leaf
def on_action(R, cells, flags, sc, p, s, h, action, sign) -> None:
    """The house (s, h) was just numbered with a combination showing `action` (sign 1), or that is
    undone (-1, greedy trying it out): perfect when the action matches its family; a street or a
    column it completes has its open bonus due at the round's end."""
    col = R[R_X_HOUSE + s, h]
    if sign > 0:
        if R[R_X_TABLE, R[R_X_COLOUR + s, h]] == action:
            flags[p, s, h] |= F_PERFECT
            sc[p, SC_AD_PERFECT] += 1
        if sc[p, SC_AD_STREET + s] == BONUS_OPEN and street_complete(R, cells, p, s):
            sc[p, SC_AD_STREET + s] = BONUS_DUE
        if sc[p, SC_AD_COLUMN + col] == BONUS_OPEN:
            n, k, _ = column_counts(R, cells, flags, p, col)
            if k == n:
                sc[p, SC_AD_COLUMN + col] = BONUS_DUE
    else:
        # The house was empty before: it was not perfect, and what it completed was open.
        if flags[p, s, h] & F_PERFECT:
            flags[p, s, h] &= ~F_PERFECT
            sc[p, SC_AD_PERFECT] -= 1
        if sc[p, SC_AD_STREET + s] == BONUS_DUE:
            sc[p, SC_AD_STREET + s] = BONUS_OPEN
        if sc[p, SC_AD_COLUMN + col] == BONUS_DUE:
            sc[p, SC_AD_COLUMN + col] = BONUS_OPEN


@leaf
def _settle(sc, n_players, k) -> None:
    """Bonus sc column k: circled by everyone who completed it this round, crossed by the rest."""
    due = False
    for q in range(n_players):
        if sc[q, k] == BONUS_DUE:
            due = True
    if not due:
        return
    for q in range(n_players):
        if sc[q, k] == BONUS_DUE:
            sc[q, k] = BONUS_CIRCLED
        elif sc[q, k] == BONUS_OPEN:
            sc[q, k] = BONUS_CROSSED


@leaf
def round_end(R, sc, n_players) -> None:
    """Street and column bonuses completed this round are circled; the others cross them out."""
    for s in range(R[0, P_NSTREETS]):
        _settle(sc, n_players, SC_AD_STREET + s)
    for col in range(R[R_X_SCORE, 4]):
        _settle(sc, n_players, SC_AD_COLUMN + col)


@leaf
def validation(R, sc, p, slot) -> None:
    """AAA validation card: the player owes the crossing of one street bonus and two column
    bonuses not yet circled (chosen in phase 2 of the expansion's decisions)."""
    sc[p, SC_AD_OWED] += STREET_OWED + 2


@leaf
def options(R, cells, flags, fences, sc, p, phase, opts) -> int:
    """Phase 2 (an AAA validation card): the bonuses the player may cross now, street bonuses first
    while one is owed; an owed crossing with no open bonus left is void."""
    if phase != 2:
        return 0
    while sc[p, SC_AD_OWED] > 0:
        street = sc[p, SC_AD_OWED] >= STREET_OWED
        n = 0
        if street:
            for s in range(R[0, P_NSTREETS]):
                if sc[p, SC_AD_STREET + s] == BONUS_OPEN:
                    opts[n, 0], opts[n, 1], opts[n, 2], opts[n, 3] = A_STREET, s, 0, 0
                    n += 1
        else:
            for col in range(R[R_X_SCORE, 4]):
                if sc[p, SC_AD_COLUMN + col] == BONUS_OPEN:
                    opts[n, 0], opts[n, 1], opts[n, 2], opts[n, 3] = A_COLUMN, col, 0, 0
                    n += 1
        if n > 0:
            return n
        # Nothing of that kind left to cross: that part of the card is void.
        if street:
            sc[p, SC_AD_OWED] -= STREET_OWED
        else:
            sc[p, SC_AD_OWED] = 0
    return 0


@leaf
def apply(R, cells, flags, fences, sc, p, phase, opt, lg) -> None:
    """Cross the bonus of an option row; lg its log row."""
    kind, i = opt[0], opt[1]
    if kind == A_STREET:
        sc[p, SC_AD_STREET + i] = BONUS_CROSSED
        sc[p, SC_AD_OWED] -= STREET_OWED
    else:
        sc[p, SC_AD_COLUMN + i] = BONUS_CROSSED
        sc[p, SC_AD_OWED] -= 1
    lg[0], lg[1], lg[2], lg[3], lg[4] = LOG_X_AD_CROSS, kind, i, 0, 0


@leaf
def column_points(R, cells, flags, sc, p, col) -> int:
    """Points of column col: 0 while incomplete; else 1 per regular and 3 per perfect house,
    times the multiplier with its bonus circled."""
    n, k, perf = column_counts(R, cells, flags, p, col)
    if k < n or n == 0:
        return 0
    pts = (n - perf) * R[R_X_SCORE, 0] + perf * R[R_X_SCORE, 1]
    if sc[p, SC_AD_COLUMN + col] == BONUS_CIRCLED:
        pts *= R[R_X_SCORE, 2]
    return pts


@leaf
def score(R, cells, flags, sc, p, row) -> None:
    """Columns and street bonuses, and the counters (perfect houses, complete columns, bonuses).
    The sheet has no estates (its scoring has none, and no fence divides a street): the base
    scoring's count of whole streets as estates is cleared."""
    row[O_N_ESTATES] = 0
    for k in range(6):
        row[O_N_EST + k] = 0
    pts = 0
    complete = 0
    col_bonus = 0
    for col in range(R[R_X_SCORE, 4]):
        n, k, _ = column_counts(R, cells, flags, p, col)
        if k == n and n > 0:
            complete += 1
        pts += column_points(R, cells, flags, sc, p, col)
        if sc[p, SC_AD_COLUMN + col] == BONUS_CIRCLED:
            col_bonus += 1
    streets = 0
    for s in range(R[0, P_NSTREETS]):
        if sc[p, SC_AD_STREET + s] == BONUS_CIRCLED:
            streets += 1
    row[O_X_POINTS] = pts + streets * R[R_X_SCORE, 3]
    row[O_X_PERFECT] = sc[p, SC_AD_PERFECT]
    row[O_X_COLUMNS] = complete
    row[O_X_COLUMN_BONUSES] = col_bonus
    row[O_X_STREET_BONUSES] = streets


@leaf
def goal(R, cells, flags, sc, p, plan) -> bool:
    """The American Dream's plan goals (codes.GL_*: colours perfect or numbered, complete
    columns, perfect columns, adjacent columns, complete or perfect streets)."""
    g = R[R_PLAN_XGOAL, plan]
    need = R[R_PLAN_COUNT, plan]
    if g == GL_COLOURS_PERFECT or g == GL_COLOURS_NUMBERED:
        n, k, perf = _colours_state(R, cells, flags, p, R[R_PLAN_XARG, plan])
        return n > 0 and (perf == n if g == GL_COLOURS_PERFECT else k == n)
    if g == GL_PERFECT_SQUARE:
        return need > 0 and _best_square(R, cells, flags, p, need) == need * need
    if g == GL_PERFECT_STREETS or g == GL_COMPLETE_STREETS:
        got = 0
        for s in range(R[0, P_NSTREETS]):
            n, k, perf = _street_counts(R, cells, flags, p, s)
            if k == n and (g == GL_COMPLETE_STREETS or perf == n):
                got += 1
        return got >= need
    run = 0
    got = 0
    for col in range(R[R_X_SCORE, 4]):
        n, k, perf = column_counts(R, cells, flags, p, col)
        ok = k == n and n > 0 and (g != GL_PERFECT_COLUMNS or perf == n)
        if g == GL_ADJACENT_COLUMNS:
            run = run + 1 if ok else 0
            got = max(got, run)
        elif ok:
            got += 1
    if g == GL_PERFECT_COLUMNS or g == GL_COMPLETE_COLUMNS or g == GL_ADJACENT_COLUMNS:
        return got >= need
    return False


@leaf
def aaa_points(R, cards, n, sc, out_g) -> int:
    """The AAA's share (level 1+): its points per card for its level and per street bonus the
    player crossed; its usual parks, pools, temps, fences and estates do not exist on this sheet
    (zeroed here: only its plan points stay in its total)."""
    lv = R[0, P_OPP_LEVEL]
    pts = 0
    for i in range(n):
        a = R[R_DECK_ACT, cards[i]]
        if a >= 0:
            pts += R[R_X_AAA, lv * 6 + a]
    for s in range(R[0, P_NSTREETS]):
        if sc[0, SC_AD_STREET + s] == BONUS_CROSSED:
            pts += R[R_X_AAA, AAA_STREET]
    out_g[G_AAA_PARKS] = 0
    out_g[G_AAA_POOLS] = 0
    out_g[G_AAA_TEMPS] = 0
    out_g[G_AAA_FENCES] = 0
    out_g[G_AAA_ESTATES] = 0
    out_g[G_AAA_N_ESTATES] = 0
    out_g[G_AAA_TOTAL] = out_g[G_AAA_PLANS]
    return pts


@leaf
def aaa_card(R, action) -> float:
    """Greedy's price, in AAA points, of giving the AAA a card of this action."""
    return float(R[R_X_AAA, R[0, P_OPP_LEVEL] * 6 + action])


# --- the plans' progress, greedy's plan term ---------------------------------------------------

TOP_N = 4  # progress() keeps this many best shares in locals; a plan needing more takes the slow path
COL_BITS = (
    4  # bits per column in packed column tallies (_column_tallies); a column holds <= MAX_STREETS houses
)
if AD_MAX_COLUMNS * COL_BITS > 63 or MAX_STREETS >= 1 << COL_BITS:
    raise ImportError(
        f"american._column_tallies packs {AD_MAX_COLUMNS} columns of {COL_BITS} bits in an int64"
    )


@leaf
def _share(R, cells, flags, p, g, i) -> float:
    """Progress of street or column i toward goal g: numbered share, or perfect share (0 once a
    numbered house in it is regular)."""
    if g == GL_PERFECT_STREETS or g == GL_COMPLETE_STREETS:
        n, k, perf = _street_counts(R, cells, flags, p, i)
    else:
        n, k, perf = column_counts(R, cells, flags, p, i)
    return _share_of(g, n, k, perf)


@leaf
def _share_of(g, n, k, perf) -> float:
    """_share from a street's or column's (houses, numbered, perfect)."""
    if n == 0:
        return 0.0
    if g == GL_PERFECT_STREETS or g == GL_PERFECT_COLUMNS:
        return 0.0 if perf < k else perf / n
    return k / n


@leaf
def _column_tallies(R, cells, flags, p):
    """Every column's (houses, numbered, perfect) in one pass over the sheet, packed COL_BITS
    bits a column (column c at bit COL_BITS * c): what column_counts gives one column at a time."""
    n = 0
    k = 0
    perf = 0
    for s in range(R[0, P_NSTREETS]):
        for h in range(R[R_STREET_LEN, s]):
            one = 1 << (COL_BITS * R[R_X_HOUSE + s, h])
            n += one
            if cells[p, s, h] >= 0:
                k += one
                if flags[p, s, h] & F_PERFECT:
                    perf += one
    return n, k, perf


@leaf
def _share_fast(R, cells, flags, p, g, i, tn, tk, tp) -> float:
    """_share, a column's from the packed tallies (tn, tk, tp: _column_tallies)."""
    if g == GL_PERFECT_STREETS or g == GL_COMPLETE_STREETS:
        return _share(R, cells, flags, p, g, i)
    mask = (1 << COL_BITS) - 1
    sh = COL_BITS * i
    return _share_of(g, (tn >> sh) & mask, (tk >> sh) & mask, (tp >> sh) & mask)


@leaf
def progress(R, cells, flags, sc, p, plan) -> float:
    """Greedy: how far a plan goal is, 0..1 (0 once a house it needs perfect is regular)."""
    g = R[R_PLAN_XGOAL, plan]
    need = max(1, R[R_PLAN_COUNT, plan])
    if g == GL_COLOURS_PERFECT or g == GL_COLOURS_NUMBERED:
        n, k, perf = _colours_state(R, cells, flags, p, R[R_PLAN_XARG, plan])
        if n == 0:
            return 0.0
        if g == GL_COLOURS_NUMBERED:
            return k / n
        return 0.0 if perf < k else perf / n
    if g == GL_PERFECT_SQUARE:
        return max(0, _best_square(R, cells, flags, p, need)) / (need * need)
    streets = g == GL_PERFECT_STREETS or g == GL_COMPLETE_STREETS
    m = R[0, P_NSTREETS] if streets else R[R_X_SCORE, 4]
    if need <= TOP_N:
        return _progress_one_pass(R, cells, flags, p, g, m, need)
    return _progress_picked(R, cells, flags, p, g, m, need)


@leaf
def _progress_one_pass(R, cells, flags, p, g, m, need) -> float:
    """_progress_picked for need <= TOP_N with each share computed once: the TOP_N best shares
    (or the last TOP_N, for adjacent columns) are kept in locals, then summed in the order the
    picking loop adds them (largest first; left to right), so the result is the same to the bit."""
    w0 = w1 = w2 = w3 = -1.0
    # A columns goal reads every column: their tallies in one pass over the sheet.
    tn, tk, tp = 0, 0, 0
    if not (g == GL_PERFECT_STREETS or g == GL_COMPLETE_STREETS):
        tn, tk, tp = _column_tallies(R, cells, flags, p)
    if g == GL_ADJACENT_COLUMNS:
        best = 0.0
        for j in range(m):
            # w3 is column j, w2 column j - 1 and so on.
            w0, w1, w2, w3 = w1, w2, w3, _share_fast(R, cells, flags, p, g, j, tn, tk, tp)
            if j >= need - 1:
                best = max(best, _sum_slots(w0, w1, w2, w3, TOP_N - need, TOP_N) / need)
        return best
    for i in range(m):
        v = _share_fast(R, cells, flags, p, g, i, tn, tk, tp)
        if v > w3:
            if v > w0:
                w0, w1, w2, w3 = v, w0, w1, w2
            elif v > w1:
                w1, w2, w3 = v, w1, w2
            elif v > w2:
                w2, w3 = v, w2
            else:
                w3 = v
    # The picking loop adds min(need, m) shares; the unused locals keep -1.0 and are not added.
    return _sum_slots(w0, w1, w2, w3, 0, min(need, m)) / need


@leaf
def _sum_slots(w0, w1, w2, w3, lo, hi) -> float:
    """0.0 + the locals lo..hi-1, in order (the picking loop's sum)."""
    t = 0.0
    if lo <= 0 < hi:
        t += w0
    if lo <= 1 < hi:
        t += w1
    if lo <= 2 < hi:
        t += w2
    if lo <= 3 < hi:
        t += w3
    return t


@leaf
def _progress_picked(R, cells, flags, p, g, m, need) -> float:
    """The best `need` shares (or adjacent columns' shares) of the m streets or columns, averaged;
    any need (a designer's plan may ask for more than TOP_N)."""
    if g == GL_ADJACENT_COLUMNS:
        best = 0.0
        for a in range(m - need + 1):
            t = 0.0
            for j in range(a, a + need):
                t += _share(R, cells, flags, p, g, j)
            best = max(best, t / need)
        return best
    # The `need` best shares, averaged (picked one by one: no allocation in a leaf).
    picked = 0
    t = 0.0
    for _ in range(min(need, m)):
        best = -1.0
        bi = 0
        for i in range(m):
            if not (picked >> i) & 1:
                v = _share(R, cells, flags, p, g, i)
                if v > best:
                    best, bi = v, i
        picked |= 1 << bi
        t += best
    return t / need
