"""Quack: yellow and black ducklings sit between two houses, horizontally in a street or
vertically between two streets; a duckling is circled as soon as both its houses are numbered
(extensions count; a roundabout is no numbered house). Three scoring phases (yellow, black, both)
each pay every architect 1 point per duckling of its colours circled and connected to its parent
by an unbroken chain of circled ducklings and numbered houses; a phase is scored at the end of the
round in which an architect first circles all its ducklings, or at once when the AAA triggers it
(validation card A: yellow, B: black, the second of A and B: both), and a phase never triggered
is scored at the game's end.

Reading of the chain: two numbered neighbours in a street are linked (houses side by side on the
sheet), a circled duckling links its two houses (the only link between two streets); a fence
breaks nothing ("You can build a fence where there is a duckling"); a roundabout is not numbered
and breaks the chain. A parent is printed beside one house (data `parents`): a chain reaches it
through that house.

State: nothing per house (circled is both houses numbered); sc SC_QK_DONE (phases scored, the same
in every row; bit 4 + k: phase k scored at the end), SC_QK_PAID + k (the points phase k paid),
SC_QK_TRIGGERS (phases the player triggered), SC_QK_AAA / SC_QK_AAA_PTS (seat 0 in the AAA solo
mode: phases the AAA triggered, validation cards seen, its points). Table rows: R_X_HOUSE + 0..3,
per duckling i, the streets and houses of its two houses (a, b); R_X_COLOUR + 0 its colour (0
yellow, 1 black), R_X_COLOUR + 1, 1 when it lies between two streets; R_X_TABLE: the number of
ducklings, then per colour its parent's street and house; R_X_SCORE 0: points per duckling;
R_X_AAA: construction cards per AAA point, and its points per such group, in each phase.

The phases are public events logged by the kernel (hooks.x_events, rows LOG_X_PHASE and
LOG_X_DUCKS). The reachability search works on one int64 bit mask of the sheet's houses (16 bits
a street), so it allocates nothing.

Greedy (`value`): for each phase not scored yet, the connected ducklings of its colours, plus the
ones that may still count by then: with q the chance an empty house is numbered by the game's end
(`later_share`: END_SHARE of the sheet numbered by then, ~30 of 33 houses in greedy's games), a
duckling circled but not connected CONNECT x q, one with one house numbered CONNECT x q, with none
CONNECT x q^2 (none with a roundabout beside it). Early, q is high and circling now adds little
over circling later; as the sheet fills, each duckling's houses matter more. That hope is
discounted by the race: (1 - r)^2, r the largest share of the phase's ducklings an opponent has
circled (in the AAA solo mode, the share of the sheet filled, 1 - q: the validation cards come
with the deck); it is 0 when the move circles all the phase's ducklings itself (the phase is
scored at this round's end on the sheet as it is). Points already paid count as they are. Plan C
goals enter through `progress` (shares of the ducklings they ask circled). What it gains against
greedy without the expansion's value (`greedy:expansion=0`): docs/findings/expansions.md.

The data file's keys, compile_rows and the leaves that read a sheet's ducklings live in
quack_ducklings.py; this module re-exports what others reach through it.
"""

from __future__ import annotations

from welcome_sim.simcore.ground.jit import leaf
from welcome_sim.simcore.ground.layout import (
    O_X_POINTS,
    SC_NUMBERED,
)
from welcome_sim.simcore.ground.table import (
    DEAL_AAA,
    P_DEAL,
    P_NSTREETS,
    P_OPP_SCORES,
    P_TOTAL_HOUSES,
    R_PLAN_COUNT,
    R_PLAN_XGOAL,
    R_X_AAA,
    R_X_COLOUR,
    R_X_HOUSE,
    R_X_SCORE,
    R_X_TABLE,
)
from welcome_sim.simcore.rules.expansions.quack_ducklings import (
    BLACK,
    N_PHASES,
    PH_BLACK,
    PH_BOTH,
    PH_YELLOW,
    YELLOW,
    _a,
    _b,
    _circled_by_colour,
    circled_count,
    connected,
    is_circled,
    numbered_mask,
    phase_colours,
    phase_complete,
    phase_points,
    reach,
)

# Re-exported (`x as x`): compile.py and the data schema read quack.KEYS and compile_rows.
from welcome_sim.simcore.rules.expansions.quack_ducklings import COLOURS as COLOURS
from welcome_sim.simcore.rules.expansions.quack_ducklings import KEYS as KEYS
from welcome_sim.simcore.rules.expansions.quack_ducklings import compile_rows as compile_rows
from welcome_sim.simcore.rules.expansions.record import Counters, Record, allocate

RECORD = Record(
    name="quack",
    title="Quack",
    stars=2,
    columns=("ducklings", "ducklings_connected", "phases_triggered", "phases_in_play"),
    columns_doc="Quack: ducklings circled; of them connected to their parent at the end; duckling scoring phases the player triggered (first to circle all their ducklings); phases scored during the game (the others at its end)",
    referee="welcome_sim.referee.readings.quack:Quack",
    # Circled ducklings entirely inside the estate (between two of its houses).
    features=("ducklings",),
    # At least `count` yellow and `count` black ducklings circled; in `count` streets, every
    # duckling of the street circled; the yellow ducklings of the bottom street and the black ones
    # of the top street circled; every duckling between the streets circled.
    goals=("ducklings_circled", "street_ducklings", "edge_ducklings", "between_ducklings"),
    sc_slots=(
        ("SC_QK_DONE", 1),
        ("SC_QK_PAID", 3),
        ("SC_QK_TRIGGERS", 1),
        ("SC_QK_AAA", 1),
        ("SC_QK_AAA_PTS", 1),
    ),
    log_kinds=("LOG_X_PHASE", "LOG_X_DUCKS"),
    hooks=(
        ("x_events", "events"),
        ("x_score", "score"),
        ("x_estate_feature", "estate_ducklings"),
        ("x_goal", "goal"),
        ("x_aaa", "aaa_points"),
        ("x_value", "value"),
        ("x_progress", "progress"),
    ),
    counters=Counters(
        "Quack: ducklings circled and connected, the scoring phases",
        "Per player (means): ducklings circled and those connected to their parent at the end, the scoring phases the player triggered (first to circle all their ducklings), the phases scored during the game (the others at its end), and the phases' points.",
        ("ducklings", "ducklings_connected", "phases_triggered", "phases_in_play", "expansion_points"),
    ),
    legend="quack: under a street, at a boundary a duckling of the street, under a house one between it and the street below; 'y'/'k' yellow/black not circled, 'Y'/'K' circled",
    layout_keys=("street_ducklings", "between_ducklings", "parents"),
    layout_words="duckling places and parents",
    not_varied="column_offsets",
    score_detail="{ducklings} ducklings, {ducklings_connected} connected, {phases_triggered} phases triggered",
    text="welcome_sim.textmarks:Quack",
    # The rules' solo part is written for the AAA opponent ("If the AAA triggers a duckling scoring
    # phase"); like Zombie Outbreak, the first edition's solo variant is not played.
    aaa_solo_only=True,
)
_NUMBERS = allocate(RECORD, __name__)
X_CODE = _NUMBERS.code  # hooks.py branches on it (codes.py X_*)
O_X_CONNECTED = _NUMBERS.out["ducklings_connected"]
O_X_DUCKLINGS = _NUMBERS.out["ducklings"]
O_X_PHASES = _NUMBERS.out["phases_in_play"]
O_X_TRIGGERED = _NUMBERS.out["phases_triggered"]
FT_DUCKLINGS = _NUMBERS.features["ducklings"]
GL_BETWEEN_DUCKLINGS = _NUMBERS.goals["between_ducklings"]
GL_DUCKLINGS = _NUMBERS.goals["ducklings_circled"]
GL_EDGE_DUCKLINGS = _NUMBERS.goals["edge_ducklings"]
GL_STREET_DUCKLINGS = _NUMBERS.goals["street_ducklings"]
# SC_QK_DONE: bit k, duckling scoring phase k (0 yellow, 1 black, 2 both) has been scored (the same
# in every player's row); bit 4 + k, it was scored at the game's end (never triggered). SC_QK_PAID
# + k (3 slots): the points phase k paid this player. SC_QK_TRIGGERS: bit k, this player circled all
# of phase k's ducklings in the round that triggered it. SC_QK_AAA (seat 0, AAA solo mode): bit k,
# the AAA triggered phase k; bit 3 + slot, validation card slot came up. SC_QK_AAA_PTS (seat 0):
# the AAA's points from the phases (level 1+).
SC_QK_DONE = _NUMBERS.sc["SC_QK_DONE"]
SC_QK_PAID = _NUMBERS.sc["SC_QK_PAID"]
SC_QK_TRIGGERS = _NUMBERS.sc["SC_QK_TRIGGERS"]
SC_QK_AAA = _NUMBERS.sc["SC_QK_AAA"]
SC_QK_AAA_PTS = _NUMBERS.sc["SC_QK_AAA_PTS"]
LOG_X_PHASE = _NUMBERS.log["LOG_X_PHASE"]
LOG_X_DUCKS = _NUMBERS.log["LOG_X_DUCKS"]

ALL_PHASES = 7
END_SHIFT = 4  # SC_QK_DONE bit END_SHIFT + k: phase k scored at the game's end
SEEN_SHIFT = 3  # SC_QK_AAA bit SEEN_SHIFT + slot: validation card slot came up
# When: a player circled all of a phase's ducklings this round; the AAA's validation card; the end.
WHEN_ROUND, WHEN_AAA, WHEN_END = 0, 1, 2


# --- the rules ---------------------------------------------------------------------------------


@leaf
def events(R, cells, sc, n_players, when, slot, aaa_n, ev) -> int:
    """Score the duckling phases due now (when: WHEN_ROUND at a round's end, WHEN_AAA for AAA
    validation card `slot`, WHEN_END at the game's end), on every sheet; their log rows (kind,
    player, a, b) go into ev, their count is returned."""
    done = sc[0, SC_QK_DONE]
    due = 0
    if when == WHEN_ROUND:
        # "The architect who first circles all the yellow ducklings triggers the scoring phase":
        # circled ducklings stay circled, so whoever has them all now circled them this round.
        for p in range(n_players):
            num = numbered_mask(R, cells, p)
            for k in range(N_PHASES):
                if (done >> k) & 1 == 0 and phase_complete(R, num, k):
                    due |= 1 << k
                    sc[p, SC_QK_TRIGGERS] |= 1 << k
    elif when == WHEN_AAA:
        seen = sc[0, SC_QK_AAA] >> SEEN_SHIFT
        if slot == 0 or slot == 1:
            due = 1 << slot
            if (seen >> (1 - slot)) & 1:
                due |= 1 << PH_BOTH  # the second of A and B: yellow AND black
        sc[0, SC_QK_AAA] |= 1 << (SEEN_SHIFT + slot)
        due &= ~done  # "if you haven't already triggered it yourself"
        sc[0, SC_QK_AAA] |= due
    else:
        due = ALL_PHASES & ~done
    n = 0
    if due == 0:
        return 0
    aaa = R[0, P_DEAL] == DEAL_AAA and R[0, P_OPP_SCORES] == 1
    for k in range(N_PHASES):
        if (due >> k) & 1 == 0:
            continue
        ev[n, 0] = LOG_X_PHASE
        ev[n, 1] = -1
        ev[n, 2] = k
        ev[n, 3] = when
        n += 1
        for p in range(n_players):
            pts = phase_points(R, numbered_mask(R, cells, p), k)
            sc[p, SC_QK_PAID + k] = pts
            ev[n, 0] = LOG_X_DUCKS
            ev[n, 1] = p
            ev[n, 2] = k
            ev[n, 3] = pts
            n += 1
        if aaa:
            # "the AAA scores 1 point for each pair of Construction cards you have given them"
            pts = (aaa_n // R[R_X_AAA, 0]) * R[R_X_AAA, 1]
            sc[0, SC_QK_AAA_PTS] += pts
            ev[n, 0] = LOG_X_DUCKS
            ev[n, 1] = -1
            ev[n, 2] = k
            ev[n, 3] = pts
            n += 1
    done |= due
    if when == WHEN_END:
        done |= due << END_SHIFT
    for p in range(n_players):
        sc[p, SC_QK_DONE] = done
    return n


@leaf
def _popcount3(x) -> int:
    return (x & 1) + ((x >> 1) & 1) + ((x >> 2) & 1)


@leaf
def points(R, cells, sc, p) -> int:
    """The phases' points: what each phase scored paid, and for a phase not scored yet what it
    would pay the sheet now (the game's end scores it so)."""
    done = sc[p, SC_QK_DONE]
    num = numbered_mask(R, cells, p)
    t = 0
    for k in range(N_PHASES):
        if (done >> k) & 1:
            t += sc[p, SC_QK_PAID + k]
        else:
            t += phase_points(R, num, k)
    return t


@leaf
def score(R, cells, flags, sc, p, row) -> None:
    """The phases' points and the counters (ducklings circled and connected, phases triggered,
    phases scored during the game)."""
    num = numbered_mask(R, cells, p)
    row[O_X_POINTS] = points(R, cells, sc, p)
    row[O_X_DUCKLINGS] = circled_count(R, num, -1)
    row[O_X_CONNECTED] = connected(R, num, YELLOW) + connected(R, num, BLACK)
    row[O_X_TRIGGERED] = _popcount3(sc[p, SC_QK_TRIGGERS])
    done = sc[p, SC_QK_DONE]
    row[O_X_PHASES] = _popcount3(done & ~(done >> END_SHIFT))


@leaf
def estate_ducklings(R, cells, flags, p, s, a, b) -> int:
    """Circled ducklings entirely inside houses a..b-1 of street s (between two of them)."""
    k = 0
    # Only this street's houses matter, so its cells are read directly instead of masking the
    # whole sheet (greedy asks once per estate it prices).
    for i in range(R[R_X_TABLE, 0]):
        if (
            R[R_X_COLOUR + 1, i] == 0
            and R[R_X_HOUSE, i] == s
            and R[R_X_HOUSE + 1, i] >= a
            and R[R_X_HOUSE + 3, i] < b
            and cells[p, s, R[R_X_HOUSE + 1, i]] >= 0
            and cells[p, s, R[R_X_HOUSE + 3, i]] >= 0
        ):
            k += 1
    return k


@leaf
def _wanted(R, g, i) -> bool:
    """Duckling i is one goal g asks circled (edge: the bottom street's yellow and the top
    street's black ones; between: those between two streets)."""
    if g == GL_EDGE_DUCKLINGS:
        if R[R_X_COLOUR + 1, i] == 1:
            return False
        s = R[R_X_HOUSE, i]
        c = R[R_X_COLOUR, i]
        return (s == R[0, P_NSTREETS] - 1 and c == YELLOW) or (s == 0 and c == BLACK)
    return R[R_X_COLOUR + 1, i] == 1


@leaf
def _street_share(R, num, cells, p, s) -> float:
    """Share of street s's ducklings circled; -1 without any, 0 when one can no longer be (a
    roundabout beside it)."""
    n = 0
    done = 0
    for i in range(R[R_X_TABLE, 0]):
        if R[R_X_COLOUR + 1, i] == 1 or R[R_X_HOUSE, i] != s:
            continue
        n += 1
        if is_circled(R, num, i):
            done += 1
        elif _dead(R, cells, p, i):
            return 0.0
    if n == 0:
        return -1.0
    return done / n


@leaf
def _dead(R, cells, p, i) -> bool:
    """Duckling i can never be circled: a roundabout (or no house) beside it."""
    return (
        cells[p, R[R_X_HOUSE, i], R[R_X_HOUSE + 1, i]] < -1
        or cells[p, R[R_X_HOUSE + 2, i], R[R_X_HOUSE + 3, i]] < -1
    )


@leaf
def goal(R, cells, flags, sc, p, plan) -> bool:
    """Quack Plan C goals (codes.GL_*DUCKLINGS)."""
    g = R[R_PLAN_XGOAL, plan]
    num = numbered_mask(R, cells, p)
    if g == GL_DUCKLINGS:
        need = R[R_PLAN_COUNT, plan]
        return circled_count(R, num, YELLOW) >= need and circled_count(R, num, BLACK) >= need
    if g == GL_STREET_DUCKLINGS:
        k = 0
        for s in range(R[0, P_NSTREETS]):
            if _street_share(R, num, cells, p, s) == 1.0:
                k += 1
        return k >= R[R_PLAN_COUNT, plan]
    if g == GL_EDGE_DUCKLINGS or g == GL_BETWEEN_DUCKLINGS:
        for i in range(R[R_X_TABLE, 0]):
            if _wanted(R, g, i) and not is_circled(R, num, i):
                return False
        return True
    return False


@leaf
def aaa_points(R, sc) -> int:
    """The AAA's points from the phases (level 1+), as the phases paid them: the kernel scores the
    phases never triggered (x_events at the game's end) before the score cards."""
    return sc[0, SC_QK_AAA_PTS]


# --- the greedy player's valuation --------------------------------------------------------------

END_SHARE = 0.9  # houses numbered by the game's end, as a share of the sheet (greedy's games: ~30 of 33)
CONNECT = 0.85  # a duckling circled by the end: its chance to be connected to its parent by then


@leaf
def later_share(R, sc, p) -> float:
    """The chance an empty house of player p's sheet is numbered by the game's end: the houses
    still to come (END_SHARE of the sheet) over the houses still empty."""
    total = R[0, P_TOTAL_HOUSES]
    n = sc[p, SC_NUMBERED]
    if n >= total:
        return 0.0
    return min(1.0, max(0.0, (END_SHARE * total - n) / (total - n)))


@leaf
def _races(R, cells, sc, p, filled, ny, nb):
    """How close the others are to scoring each phase (yellow, black, both): the largest share of
    its ducklings an opponent has circled (ny, nb: the sheet's yellow and black ducklings), each
    opponent's sheet read once (AAA solo mode: the share of the sheet filled, as the validation
    cards come with the deck)."""
    if R[0, P_DEAL] == DEAL_AAA:
        return filled, filled, filled
    by = 0.0
    bb = 0.0
    bboth = 0.0
    for q in range(sc.shape[0]):
        if q == p:
            continue
        cy, cb = _circled_by_colour(R, numbered_mask(R, cells, q))
        by = max(by, cy / ny)
        bb = max(bb, cb / nb)
        bboth = max(bboth, (cy + cb) / (ny + nb))
    return by, bb, bboth


@leaf
def value(R, cells, flags, sc, p) -> float:
    """Greedy valuation: paid phases as paid, each phase to come at its connected ducklings plus
    the hope of more, discounted by the race (module docstring)."""
    # Greedy asks this for every candidate move, so each duckling is looked at once: one pass
    # counts the connected and open ducklings and sums the hope (in duckling order, as the
    # phases' sums always were), and each colour's reach is searched once.
    num = numbered_mask(R, cells, p)
    q = later_share(R, sc, p)
    ry = reach(R, num, YELLOW)
    rb = reach(R, num, BLACK)
    n_y = 0
    n_b = 0
    conn_yi = 0
    conn_bi = 0
    open_y = 0
    open_b = 0
    hope_y = 0.0
    hope_b = 0.0
    for i in range(R[R_X_TABLE, 0]):
        c = R[R_X_COLOUR, i]
        a = _a(R, i)
        b = _b(R, i)
        linked = False
        if (num & a) != 0 and (num & b) != 0:
            r = ry if c == YELLOW else rb
            linked = (r & a) != 0
            h = 0.0 if linked else CONNECT * q
        elif _dead(R, cells, p, i):
            h = 0.0
        elif (num & a) != 0 or (num & b) != 0:
            h = CONNECT * q
        else:
            h = CONNECT * q * q
        circled = (num & a) != 0 and (num & b) != 0
        if c == YELLOW:
            n_y += 1
            hope_y += h
            conn_yi += linked
            open_y += not circled
        else:
            n_b += 1
            hope_b += h
            conn_bi += linked
            open_b += not circled
    conn_y = float(conn_yi)
    conn_b = float(conn_bi)
    done = sc[p, SC_QK_DONE]
    pts = R[R_X_SCORE, 0]
    total = 0.0
    race_y, race_b, race_both = 0.0, 0.0, 0.0
    if (done & ALL_PHASES) != ALL_PHASES:
        race_y, race_b, race_both = _races(R, cells, sc, p, 1.0 - q, n_y, n_b)
    for k in range(N_PHASES):
        if (done >> k) & 1:
            total += sc[p, SC_QK_PAID + k]
            continue
        cols = phase_colours(k)
        base = (conn_y if cols & 1 else 0.0) + (conn_b if cols & 2 else 0.0)
        hope = (hope_y if cols & 1 else 0.0) + (hope_b if cols & 2 else 0.0)
        left_open = (open_y if cols & 1 else 0) + (open_b if cols & 2 else 0)
        if left_open == 0:
            hope = 0.0  # every duckling of the phase circled: scored at this round's end as the sheet is
        else:
            left = 1.0 - (race_y if k == PH_YELLOW else race_b if k == PH_BLACK else race_both)
            hope *= left * left
        total += pts * (base + hope)
    return total


@leaf
def progress(R, cells, flags, sc, p, plan) -> float:
    """Greedy: how far a Quack goal is, 0..1."""
    g = R[R_PLAN_XGOAL, plan]
    num = numbered_mask(R, cells, p)
    if g == GL_DUCKLINGS:
        need = R[R_PLAN_COUNT, plan]
        cy, cb = _circled_by_colour(R, num)
        got = min(need, cy) + min(need, cb)
        return got / (2.0 * need)
    if g == GL_STREET_DUCKLINGS:
        need = R[R_PLAN_COUNT, plan]
        # The best `need` streets' shares (the first street of an equal share first), each
        # street's share computed once (compile_rows allows at most 4 streets).
        ns = R[0, P_NSTREETS]
        shares = (
            _street_share(R, num, cells, p, 0) if ns > 0 else -1.0,
            _street_share(R, num, cells, p, 1) if ns > 1 else -1.0,
            _street_share(R, num, cells, p, 2) if ns > 2 else -1.0,
            _street_share(R, num, cells, p, 3) if ns > 3 else -1.0,
        )
        t = 0.0
        taken = 0
        for _ in range(need):
            best = -1.0
            best_s = -1
            for s in range(ns):
                if (taken >> s) & 1:
                    continue
                sh = shares[s]
                if sh > best:
                    best, best_s = sh, s
            if best_s < 0:
                break
            taken |= 1 << best_s
            t += max(0.0, best)
        return t / need
    if g == GL_EDGE_DUCKLINGS or g == GL_BETWEEN_DUCKLINGS:
        n = 0
        k = 0
        for i in range(R[R_X_TABLE, 0]):
            if _wanted(R, g, i):
                n += 1
                if is_circled(R, num, i):
                    k += 1
                elif _dead(R, cells, p, i):
                    return 0.0
        return k / n if n > 0 else 0.0
    return 0.0
