"""The greedy player: one-step look-ahead over every legal move with a weighted sheet evaluation.

For every legal (combination, house, number) placement the sheet is evaluated; for the two best
placements of each combination every option of its action (including not using it) is evaluated
too, and the best move overall is played. The evaluation `evaluate()` is the sum of:

- achieved points: validated plans, park and pool tracks (parks credited linearly per box toward
  the street's last value), temp workers (solo: the first-place points once one is hired; at a
  table: a share of them growing with the count), minus extension and refusal penalties;
- estates: every complete estate of size 1..6 at its current value; every incomplete one at its
  value times its completion chance, the product over its empty houses of their fill chance times
  `rho`. A house's fill chance is how many card numbers can still go there (weighted by how often
  they are in the deck) per empty house of its gap, over `need`; 0 when its gap has fewer
  numbers than houses. Houses in a stretch longer than 6 are worth `long_house` each (a later
  fence can make estates of them);
- improvements: beyond their effect on the estates above, each crossed box counts for
  `impr_prior` estates of that size still to come;
- plan progress: for each plan not yet validated, its value (first score while no one has
  validated it, else the later one) times `plan` times progress**`plan_exp`, where progress
  matches each estate the plan asks for to the unlocked estate of that exact size most likely to
  be completed;
- flexibility: minus `dead` per house that can no longer be numbered, minus `pool_waste` per pool
  house numbered without its pool while pool boxes remain.

Exact ties between moves break at random, and each evaluated move can get uniform noise of width
`noise`; both draw from the game's generator, so games stay deterministic given their seed.
Random tie-breaks also keep two seats of the same strategy from playing identical sheets.

First edition, offered the reshuffle after the first plan (`reshuffle`): 0 never, 1 always, 2 when
the cards left in the stacks fit the sheet worse than the whole deck (fewer empty houses per card
where its number can go).

Plans are validated when the evaluation says so: a plan still worth its first score always; a
plan worth only its later score when the points outweigh the progress its locked estates were
giving the other plans.

How the evaluation is computed (the contract for whoever adds a term or an expansion):

- `evaluate()` = `prepare_terms()` (the score-sheet terms: parks, improvements, pools,
  penalties, plan weights) + `walk_sheet()` (one record per street: its estates with their
  completion chances and values, dead, long and pool-waste houses) + `combine()` (adds the records
  and terms up in one fixed order: streets in order, estates left to right, then the sheet-wide
  terms). Because the order is fixed, a value built from cached records equals, to the last bit,
  the value of a full walk: the games do not depend on what was cached.
- `choose_greedy()` walks the sheet once a turn; a placement re-walks only its street, an action
  only the street it changes (a fence in another street is walked once a turn and reused), and an
  action that changes only the score sheet re-walks nothing (it re-prepares the terms).
- `progress ** plan_exp` is remembered per plan slot (`_pow`), keyed by the exact progress.
- An expansion's value enters in two parts (hooks.py): `x_street_part()`, what one street alone
  decides, computed the first time a walked record is combined and kept beside it (WS_XPART: Easter's
  eggs, Ice Cream's scoops and cones, Christmas's strings, the American Dream's street bonus,
  Halloween's marks and bonus spots packed as whole numbers), and `x_sheet_value()`, which gets
  the parts summed in street order and adds what needs the whole sheet (Easter: the egg points of
  the total; the American Dream: its columns; Halloween: the levels). A street part may read
  only its street's cells and flags and score-sheet entries no move under evaluation changes (a
  record is walked once a turn and reused). `x_value()` of such an expansion is the same
  operations on parts computed afresh (sum them in street order from 0.0, then x_sheet_value),
  so the value is the same to the last bit whichever records were cached
  (tests/test_greedy_records.py checks both). `x_street_parts(R)` says whether an expansion has
  them; one without is valued whole, one `x_value()` call per evaluation, which is where Quack,
  Roswell, Zombies and Doomsday still are. (Asking the part hooks
  of these too cost them 3-5%: Roswell 0.94-0.98 in five rounds, 1.00-1.01 with the question.)
  Within one `x_value()`/`x_progress()` call, do each piece of work once: greedy calls them for
  every candidate move (70 or more a turn), and a result asked for again inside one call (a run's
  fill chance per house, a level's worth per split tried, a per-column count per pick) took
  over a third of greedy's time in the American Dream and a quarter in Halloween and Roswell
  (measured when they were removed: 1.6x, 1.33x and 1.31x). A leaf may not allocate, so keep
  such results in locals or small tuples (`simcore/regtuples.py`), and check the faster form
  against the plain one to the last bit in a test.
- Greedy reaches an expansion only through hooks.py (whose branches sit behind the EXPANSIONS
  switch, simcore/features.py) and reaches its look-ahead behind LOOK_AHEAD: the kernel variant
  for base games with plain greedy players (simcore/variants.py) compiles without either. Code
  of an expansion called from here directly must sit behind EXPANSIONS too (greedy_objective).
- Speed against the whole-sheet evaluation of b17e405 (same games): 1.2x in standard mode, 1.5x
  in the hand modes (where a card's number is in two combinations and its placement values are
  reused). Profile (benchmarks/profile_kernel.py, standard mode): combine ~35%, the street walk
  ~27%, the move loop ~15%. Measured and dropped: splitting combine() into prefix sums and a tail
  (slower), forcing Numba to inline the hot helpers (slower, longer compile), inlining the small
  ones or giving combine() fewer array arguments (no change), re-walking only the segments
  around the run a placement splits, from counts kept at every segment start (slower: 1.14x).
  Read from combine()'s machine code (perf samples per instruction, profile_kernel.py): its
  time is spread over the best-chance pushes (~25% of it), the street loop, the plan sums and
  the `_pow` lookup; the walk's single hottest spot is the division of a run's fill chance.
  Measured and dropped after that (alternating runs against 7b07043, standard mode, 1 player,
  all three together 0.93-0.96, the same games): best-chance lists of every street but one or
  two made once a turn, so that a candidate pushes only its changed streets' estates (combine's
  share of the time did not move); a run's fill chance remembered per run, so that a re-walk
  divides only for the runs a move changed (the walk got slower); the placement memo shared by
  stack-mode combinations whose cards show the same number (best of 6 rounds 1,808 against
  1,821 games/s). The evaluation does the same work per candidate whatever order it is done in:
  a further large gain needs fewer candidates evaluated, or a cheaper evaluation (other games).

The look-ahead player (`look_moves` >= 2; the ladder's `lookahead` level): greedy's search
(`_best_moves`) keeps its `look_moves` best moves instead of one; each is played on the sheet
(with its expansion effects, `_play`) and followed by `look_depth` imagined rounds: cards drawn
from the deck's composition (stack modes: a stack's next action is on the back of a card with the
number it shows now), greedy without noise playing them, and every plan met while it still pays
its first score validated at each imagined round end. The move's worth is the mean over
`look_samples` futures of greedy's value of the sheet at the end (minus, in AAA solo mode, the
card given to the AAA); the same futures serve every move (common random numbers: one draw from
the game's generator seeds them), the state is restored after each. Only the seat's own sheet is
imagined: the others' moves, the plans they validate, hordes, hand passing and roundabouts are
not. Everything it uses is greedy's (`_best_moves`, `evaluate`) or the game loop's own (the
kernel's `apply_move`, the expansion hooks, `plan_check`), so every mode and expansion the kernel
plays is looked ahead through the same code. `_best_moves` is a leaf that allocates nothing (its
scratch comes from choose_greedy), and `_look_ahead` is inlined into choose_greedy: a kernel of
its own would compile the whole evaluation a second time.

Expansion decisions. An alternative to any action (Roswell: a Zoorg infiltrated under the
flying saucer of the house just numbered, hooks.x_alt_ok/x_alt) is one more option of each of the
two best placements that keep the card's own number, valued like the others (the expansion's
x_value prices Zoorgs, infiltrated estates and the objective, expansions/roswell.py); a set-up
objective (Roswell's infiltration objective) is `greedy_objective`: the `objective` parameter's
box, or at 0 the box the expansion's estimate of greedy's infiltrated estates pays best (measured
against fixed boxes in the README).

An expansion's own decisions (Halloween: the ghost or the candy of a house just numbered; at a
round's end the Ghost and Candy claims, the Ghost bonus's alternative and where each of its units
goes) are made in `greedy_option`: every legal option is played on the sheet and evaluated, and the
best is kept (ties: the first). The expansion's valuation (`x_value`: halloween.street_part and
sheet_value) prices what
the options leave unresolved: a claimed Candy level its points, a Ghost bonus still to place its
units' worth (a pool box's marginal points, a park box's share of its street's last value, 1.5 for
an extension), and each kind not claimed yet the best level still in reach, 0.9 of its worth with
the exact count now, 0.6 x 0.8 per missing mark otherwise; a house numbered but not yet marked (a
move under evaluation) counts as whichever mark values more. `xchoice` 1 takes the first option
instead (the fixed policy it is measured against: always the ghost, the highest level at once, the
first alternative). Measured (2,000 paired games, standard mode, one player): 109.2 against 100.8,
+8.4 +- 0.8 points.

Blind to the expansion (`blind` 1; issue 38's blind cost: what ignoring the expansion's own rules
costs a player): the same greedy player with everything the expansion adds to its judgement turned
off, while the kernel still plays the expansion's rules (what is forced is forced). Not valued: the
expansion's points and prospects (`x_value`, whatever the `expansion` weight), progress toward its
own goals (plans of kind expansion: 0), an estate's expansion feature in a plan (eggs, cones,
Zoorgs...: not seen, the estate counts by size, pools and position alone), its AAA rule's price of
a card (`x_aaa_card`). Its decisions by a fixed rule: Roswell, no Zoorg infiltrated and the first
objective box; Zombie Outbreak, the Fence action always a fence (never a barricade) and no horde
held; first-edition Ice Cream, the truck from the left; Halloween and the American Dream's AAA
crossings, the first option (the ghost, the highest level, the first alternative: `xchoice` 1).
Christmas, Easter, Doomsday and Quack have no decision of their own. Plan points printed on a card
are still seen (a blind player validates a met plan as greedy does).

Quack has no decision of its own (a duckling is circled as soon as both its houses are numbered):
its value enters through `x_value` (expansions/quack.py `value`): the phases already scored as
paid, each phase to come at the ducklings connected to their parent now plus the chance of more by
the time it is scored (how likely their empty houses are numbered by the game's end), that chance
discounted by how close an opponent is to triggering the phase (the AAA: the share of the sheet
filled) and dropped when the move itself completes the phase (scored on the sheet as it is).

A sheet where the combination's action marks the house (the American Dream: a perfect house when
the action matches the house's family, hooks.x_on_action) has every placement tried with its own
combination's action, and the hand modes' placement memo is off there (x_action_marks: the value
depends on the action). Its value (`american.street_part` and `sheet_value`) prices the columns and the street and column
bonus races; the AAA's crossings are `greedy_option`'s. Measured (2,000 paired games): 159.0
against 76.3 without the expansion's value in standard mode, one player (+82.7 +- 2.3); the
crossings by evaluation against the first open bonus (`xchoice` 1), AAA level 3: +3.5 +- 0.8.

Advanced mode: a roundabout before the move when it gains `rb_margin` or rescues a refusal,
else after the move when it gains `rb_margin` (one a round). Hand modes, after a refusal: the
card passed on is the one that helps its receiver least (`greedy_pass`).
"""

from __future__ import annotations

import numpy as np

from welcome_sim.expansions import roswell
from welcome_sim.expansions.hooks import (
    x_aaa_card,
    x_action_marks,
    x_advance,
    x_alt,
    x_alt_ok,
    x_apply,
    x_bounds,
    x_estate_feature,
    x_ext_target,
    x_fence_alt,
    x_fence_alt_ok,
    x_hold,
    x_on_action,
    x_on_move,
    x_on_number,
    x_progress,
    x_set_side,
    x_sheet_value,
    x_side_pending,
    x_street_part,
    x_street_parts,
    x_value,
)
from welcome_sim.simcore.features import EXPANSIONS, LOOK_AHEAD
from welcome_sim.simcore.jit import inlined, kernel, leaf
from welcome_sim.simcore.layout import (
    B_FENCE,
    COMBO_ACT,
    COMBO_NUM,
    EMPTY,
    EXTENSION,
    F_EXT,
    F_POOL,
    F_TAKEN,
    FENCE,
    IMPROVEMENT,
    MAX_STREETS,
    NO_ACTION,
    PARK,
    POOL,
    ROUNDABOUT,
    SC_EXT,
    SC_IMPR,
    SC_NUMBERED,
    SC_PARK,
    SC_PLAN_FIRST,
    SC_PLAN_ROUND,
    SC_PLAN_SCORE,
    SC_POOLS,
    SC_REFUSALS,
    SC_ROUNDABOUTS,
    SC_SEALED,
    SC_TEMPS,
    TEMP,
    ZOMBIE,
)
from welcome_sim.simcore.plans import counts_meet, plan_check, street_roundabouts
from welcome_sim.simcore.rng import rng_below, rng_next
from welcome_sim.simcore.sheetops import (
    any_fit,
    apply_move,
    estate_counts,
    extension_ok,
    fence_ok,
    first_code,
    improvement_ok,
    park_ok,
    place_roundabout,
    pool_ok,
    remove_roundabout,
    roundabout_ok,
    street_bounds,
    temp_ok,
    value_range,
)
from welcome_sim.simcore.table import (
    DEAL_AAA,
    DEAL_STACKS,
    P_EXPANSION,
    P_EXT_LEN,
    P_MAX_REFUSALS,
    P_NCARDS,
    P_NSTREETS,
    P_POOL_LEN,
    P_RB_MAX,
    P_TOTAL_HOUSES,
    PK_ESTATES,
    PK_EXPANSION,
    PK_EXT_IN_STREET,
    PK_IMPR_COLUMNS,
    PK_IMPROVEMENTS,
    PK_PARKS,
    PK_PARKS_EACH,
    PK_PARKS_FULL,
    PK_PARKS_POOLS_FULL,
    PK_STREET_ENDS,
    PK_STREET_FULL,
    PK_TEMPS,
    R_AAA_VALUE,
    R_DECK_ACT,
    R_DECK_NUM,
    R_ESTATE_LEN,
    R_ESTATE_VALS,
    R_EXT_TRACK,
    R_PARK_LEN,
    R_PARK_TRACK,
    R_PLAN_COUNT,
    R_PLAN_ENDS,
    R_PLAN_FIRST,
    R_PLAN_KIND,
    R_PLAN_LATER,
    R_PLAN_MINEXT,
    R_PLAN_MINPOOL,
    R_PLAN_NEED,
    R_PLAN_PLAIN,
    R_PLAN_RB,
    R_PLAN_STREET,
    R_PLAN_XFEAT,
    R_PLAN_XMAX,
    R_PLAN_XMIN,
    R_POOL_COUNT,
    R_POOL_HOUSE,
    R_POOL_TRACK,
    R_RB_TRACK,
    R_REF_TRACK,
    R_STREET_LEN,
    R_TEMP_MAJ,
)
from welcome_sim.strategies.context import (
    CTX_DEAL,
    CTX_FLIPPED,
    CTX_HAND_ACT,
    CTX_HAND_NUM,
    CTX_HAND_SIZE,
    CTX_PLAN,
    CTX_PLAYERS,
    CTX_QUERY,
    CTX_ROUND,
)

# Parameter slots of the greedy family (registry.py names and documents them).
(
    W_PARK,
    W_POOL,
    W_TEMP,
    W_ESTATE,
    W_PLAN,
    PLAN_EXP,
    RHO,
    NEED,
    W_DEAD,
    W_LONG,
    W_IMPR_PRIOR,
    W_POOL_WASTE,
    W_EXT,
    TEMP_TARGET,
    NOISE,
    W_AAA,
    RB_MARGIN,
    W_X,
    RESHUFFLE,
    HOLD,
    LOOK_K,
    LOOK_S,
    LOOK_D,
    OBJECTIVE,
    X_CHOICE,
    BLIND,
    N_PARAMS,
) = range(27)

WS_FREQ = 0  # 36 cumulative weights of number codes (numbers.py)
WS_TOP = 36  # 7 sizes x 6 best completion chances
WS_NSEG = WS_TOP + 42  # how many estate records follow (only when a plan needs them)
WS_SEG = WS_NSEG + 1  # per estate: street, first house, size, completion chance, pools, bis
SEG_W = 6
MAX_SEGS = 64
WS_USED = WS_SEG + SEG_W * MAX_SEGS  # scratch: estate records already matched
WS_BEST = WS_USED + MAX_SEGS  # scratch: best fills of streets / columns
WS_SLOTS = WS_BEST + 6  # 36 cumulative counts of codes a card can show (room in a gap)
# Per plan slot, the last POW_N progress values and progress ** plan_exp, and where the next goes.
POW_N = 8
POW_W = 2 * POW_N + 1
WS_POW = WS_SLOTS + 36
# Street records (see _walk_street): one per street of the sheet as it stands (0..MAX_STREETS-1),
# one for the street a placement changed (ST_PLACED), one for a trial of a move (ST_TRIAL). They
# must not share a slot with a street's own record: with ST_PLACED at 4 the American Dream's fifth
# street was priced as the placed street's record (tests/test_greedy_records.py).
ST_HEAD = 4  # dead houses, long houses, pool-waste houses, number of estates
ST_E = 5  # per estate: size, completion chance, first house, 1 if a plan may use it, value
ST_W = ST_HEAD + ST_E * 15
ST_PLACED, ST_TRIAL = MAX_STREETS, MAX_STREETS + 1
WS_ST = WS_POW + 3 * POW_W
# Prepared terms (prepare_terms): parks per street, improvements per size, pools, whether pool
# waste counts, extension, refusal and roundabout penalties, plan weight x points per slot,
# whether estates are recorded, the estate sizes plain plans ask for.
T_PARK = 0  # MAX_STREETS slots
T_IMPR = T_PARK + MAX_STREETS  # 6 slots
T_POOL = T_IMPR + 6
T_WASTE, T_EXT, T_REF, T_RB = T_POOL + 1, T_POOL + 2, T_POOL + 3, T_POOL + 4
T_PLAN = T_POOL + 5  # 3 slots
T_RECORD = T_PLAN + 3
T_SIZES = T_RECORD + 1
T_BLIND = T_SIZES + 1  # 1 when the player is blind to the expansion (`blind`): read by plan progress
T_LEN = T_BLIND + 1
# Fence trials: the walk of a street with a fence added depends only on that street, so within a
# turn it serves every placement in another street (one record per street and boundary, walked
# when first needed; WS_FMARK says which are walked).
ST_FENCE = ST_TRIAL + 1
# A house's key, street * 16 + house (a street has at most 15 houses): the placement memo and the
# fence records are per key.
N_KEYS = MAX_STREETS * 16
WS_TERMS = WS_ST + ST_W * (ST_FENCE + N_KEYS)
WS_FMARK = WS_TERMS + T_LEN
# Per street record k: the expansion's street part (hooks.x_street_part), apart from the records
# so that a game without street parts reads and writes nothing more.
WS_XPART = WS_FMARK + N_KEYS
WS_LEN = WS_XPART + ST_FENCE + N_KEYS
N_CODES = 36  # codes 0..35: numbers 0..17 and the ¾ numbers between them


@kernel
def new_workspace(R):
    """Scratch space for evaluate(): cumulative deck weights and counts of number codes."""
    # Street records are always walked before they are read: only the rest starts at zero (the
    # records are most of the space).
    ws = np.empty(WS_LEN, dtype=np.float64)
    ws[:WS_ST] = 0.0
    ws[WS_TERMS:] = 0.0
    n = R[0, P_NCARDS]
    freq = np.zeros(N_CODES, dtype=np.float64)
    for c in range(n):
        freq[R[R_DECK_NUM, c]] += 1.0
    mean = n / 15.0
    for v in range(N_CODES):
        # Whole numbers no card shows (0, 16, 17) are reachable only with a temp worker; a ¾
        # number counts only if a card shows it (the 9¾ cards).
        if freq[v] > 0:
            w = freq[v] / mean
        else:
            w = 0.25 if v % 2 == 0 else 0.0
        ws[WS_FREQ + v] = w + (ws[WS_FREQ + v - 1] if v > 0 else 0.0)
        slot = 1.0 if w > 0.0 else 0.0
        ws[WS_SLOTS + v] = slot + (ws[WS_SLOTS + v - 1] if v > 0 else 0.0)
    for slot in range(3):
        for k in range(POW_N):
            ws[WS_POW + slot * POW_W + k] = np.nan  # no progress cached yet
        ws[WS_POW + slot * POW_W + 2 * POW_N] = 0.0
    return ws


@leaf
def _mass(ws, a, b) -> float:
    """Deck weight of the codes strictly between a and b (a >= -1, b <= 36)."""
    lo = a + 1
    hi = b - 1
    if hi > N_CODES - 1:
        hi = N_CODES - 1
    if hi < lo:
        return 0.0
    return ws[WS_FREQ + hi] - (ws[WS_FREQ + lo - 1] if lo > 0 else 0.0)


@leaf
def _room(ws, a, b) -> int:
    """How many different numbers fit strictly between codes a and b."""
    lo = a + 1
    hi = b - 1
    if hi > N_CODES - 1:
        hi = N_CODES - 1
    if hi < lo:
        return 0
    return int(ws[WS_SLOTS + hi] - (ws[WS_SLOTS + lo - 1] if lo > 0 else 0.0))


@leaf
def _pow(ws, slot, progress, exponent) -> float:
    """progress ** exponent, remembered per plan slot: the candidate moves of a turn keep coming
    back to a few progress values of each plan, and pow() was an eighth of greedy's time."""
    c = WS_POW + slot * POW_W
    for k in range(POW_N):
        if ws[c + k] == progress:
            return ws[c + POW_N + k]
    k = int(ws[c + 2 * POW_N])
    ws[c + 2 * POW_N] = (k + 1) % POW_N
    ws[c + k] = progress
    r = progress**exponent
    ws[c + POW_N + k] = r
    return r


@leaf
def _push_top(ws, size, pr) -> None:
    """Keep the six best completion chances per estate size (sorted, descending)."""
    base = WS_TOP + size * 6
    if pr <= ws[base + 5]:
        return
    i = 5
    while i > 0 and ws[base + i - 1] < pr:
        ws[base + i] = ws[base + i - 1]
        i -= 1
    ws[base + i] = pr


@leaf
def _walk_street(R, ws, cells, flags, fences, sc, p, s, need, rho, k) -> None:
    """Walk street s of player p's sheet into street record k of ws: its estates (size, chance,
    first house, whether a plan may still use it) and its dead, long and pool-waste houses.

    Each estate also carries its value at today's improvement level (value x chance); nothing
    else in a record depends on the score sheet (parks, plans): a move that changes only the
    score sheet re-walks nothing (an improvement re-prices the estates when they are combined),
    and a move on one street re-walks only that street.
    """
    base = WS_ST + ST_W * k
    n = R[R_STREET_LEN, s]
    dead = 0
    long_houses = 0
    waste = 0
    n_est = 0
    seg_start = 0
    seg_prob = 1.0
    seg_filled = 0
    h = 0
    left = -1
    while h <= n:
        # h == n closes the street's last estate.
        closing = h == n or (h > seg_start and (fences[p, s, h] & B_FENCE))
        if closing:
            size = h - seg_start
            if size > 6:
                long_houses += seg_filled
            else:
                pr = 1.0 if seg_filled == size else seg_prob
                if pr > 0.0:
                    e = base + ST_HEAD + ST_E * n_est
                    ws[e] = size
                    ws[e + 1] = pr
                    ws[e + 2] = seg_start
                    ws[e + 3] = 0.0 if flags[p, s, seg_start] & F_TAKEN else 1.0
                    ws[e + 4] = R[R_ESTATE_VALS + size - 1, sc[p, SC_IMPR + size - 1]] * pr
                    n_est += 1
            if h == n:
                break
            seg_start = h
            seg_prob = 1.0
            seg_filled = 0
        c = cells[p, s, h]
        if c == EMPTY:
            # A run of empty houses between numbers: each one's fill chance from the gap.
            m = 0
            while h + m < n and cells[p, s, h + m] == EMPTY:
                m += 1
            right = N_CODES
            r = h + m
            while r < n and cells[p, s, r] == ZOMBIE:  # numbering goes on across a Z
                r += 1
            if r < n and cells[p, s, r] >= 0:
                right = cells[p, s, r]
            room = _room(ws, left, right)
            chance = _mass(ws, left, right) / (m * need)
            if chance > 1.0:
                chance = 1.0
            if room < m:
                dead += m - max(room, 0)
                chance *= max(room, 0) / m
            f = chance * rho
            for e in range(h, h + m):
                if e > seg_start and (fences[p, s, e] & B_FENCE):
                    size = e - seg_start
                    if size > 6:
                        long_houses += seg_filled
                    else:
                        pr = 1.0 if seg_filled == size else seg_prob
                        if pr > 0.0:
                            r = base + ST_HEAD + ST_E * n_est
                            ws[r] = size
                            ws[r + 1] = pr
                            ws[r + 2] = seg_start
                            ws[r + 3] = 0.0 if flags[p, s, seg_start] & F_TAKEN else 1.0
                            ws[r + 4] = R[R_ESTATE_VALS + size - 1, sc[p, SC_IMPR + size - 1]] * pr
                            n_est += 1
                    seg_start = e
                    seg_prob = 1.0
                    seg_filled = 0
                seg_prob *= f
            h += m
            continue
        if c == ROUNDABOUT:
            left = -1
        elif c >= 0:
            left = c
            if R[R_POOL_HOUSE + s, h] == 1 and not (flags[p, s, h] & F_POOL):
                waste += 1
        if c >= 0:
            seg_filled += 1
        else:
            seg_prob = 0.0  # a roundabout: never part of an estate
        h += 1
    ws[base] = dead
    ws[base + 1] = long_houses
    ws[base + 2] = waste
    ws[base + 3] = n_est
    if EXPANSIONS == 1 and R[0, P_EXPANSION] != 0:
        ws[WS_XPART + k] = np.nan  # the expansion's part of the street: computed when first asked


@leaf
def walk_sheet(R, prm, cells, flags, fences, sc, p, ws) -> None:
    """Walk every street of player p's sheet into its own record (0..streets-1) of ws."""
    for s in range(R[0, P_NSTREETS]):
        _walk_street(R, ws, cells, flags, fences, sc, p, s, prm[NEED], prm[RHO], s)


@leaf
def walk_street(R, prm, cells, flags, fences, sc, p, s, ws, k) -> None:
    """Walk street s of player p's sheet into street record k of ws (ST_PLACED or ST_TRIAL)."""
    _walk_street(R, ws, cells, flags, fences, sc, p, s, prm[NEED], prm[RHO], k)


@leaf
def evaluate(R, prm, cells, flags, fences, sc, p, ctx, ws, skip_slot) -> float:
    """Weighted value of player p's sheet (see the module docstring), walking every street."""
    prepare_terms(R, prm, sc, p, ctx, ws, skip_slot)
    walk_sheet(R, prm, cells, flags, fences, sc, p, ws)
    return combine(R, prm, cells, flags, fences, sc, p, ctx, ws, skip_slot, -1, 0, -1, 0, False)


@leaf
def prepare_terms(R, prm, sc, p, ctx, ws, skip_slot) -> None:
    """The terms of the evaluation that depend only on player p's score sheet and the plans, into
    ws[WS_TERMS...]: called once a turn, and again around a move that changes the score sheet."""
    t = WS_TERMS
    for s in range(R[0, P_NSTREETS]):
        last = R[R_PARK_LEN, s] - 1
        # A street without a park box (American Dream) has no park term.
        ws[t + T_PARK + s] = (
            prm[W_PARK] * sc[p, SC_PARK + s] * R[R_PARK_TRACK + s, last] / last if last > 0 else 0.0
        )
    for size in range(1, 7):
        i = sc[p, SC_IMPR + size - 1]
        ws[t + T_IMPR + size - 1] = prm[W_IMPR_PRIOR] * (
            R[R_ESTATE_VALS + size - 1, i] - R[R_ESTATE_VALS + size - 1, 0]
        )
    n_pools = sc[p, SC_POOLS]
    ws[t + T_POOL] = prm[W_POOL] * R[R_POOL_TRACK, n_pools]
    ws[t + T_WASTE] = 1.0 if n_pools < R[0, P_POOL_LEN] - 1 else 0.0
    ws[t + T_EXT] = prm[W_EXT] * R[R_EXT_TRACK, sc[p, SC_EXT]]
    ws[t + T_REF] = R[R_REF_TRACK, sc[p, SC_REFUSALS]]
    ws[t + T_RB] = R[R_RB_TRACK, sc[p, SC_ROUNDABOUTS]]
    # Which estate sizes the best-chance lists must keep (open plain estate plans), and whether a
    # plan in play asks where, or with what, its estates are (then every estate is recorded).
    record = False
    sizes = 0
    for slot in range(3):
        if sc[p, SC_PLAN_ROUND + slot] == 0 and slot != skip_slot:
            plan = ctx[CTX_PLAN + slot]
            if R[R_PLAN_KIND, plan] == PK_ESTATES and R[R_PLAN_PLAIN, plan] == 0:
                record = True
            if R[R_PLAN_PLAIN, plan] == 1:
                for size in range(1, 7):
                    if R[R_PLAN_NEED + size, plan] > 0:
                        sizes |= 1 << size
            pts = R[R_PLAN_LATER, plan] if ctx[CTX_FLIPPED + slot] else R[R_PLAN_FIRST, plan]
            ws[t + T_PLAN + slot] = prm[W_PLAN] * pts
    ws[t + T_RECORD] = 1.0 if record else 0.0
    ws[t + T_SIZES] = sizes
    ws[t + T_BLIND] = prm[BLIND]


@leaf
def combine(R, prm, cells, flags, fences, sc, p, ctx, ws, skip_slot, s1, k1, s2, k2, fresh) -> float:
    """Weighted value of player p's sheet from street records and prepared terms: street s1 from
    record k1, s2 from k2, every other street s from record s (-1: none); `fresh` re-prices the
    estates from today's improvement levels (the records carry the levels they were walked at).
    The terms are added in one fixed order (streets in order, estates left to right, then the
    sheet-wide terms), so the value is the same to the last bit however the records were made."""
    t = WS_TERMS
    sizes = int(ws[t + T_SIZES])
    if sizes != 0:
        for size in range(1, 7):
            if (sizes >> size) & 1:
                for j in range(6):
                    ws[WS_TOP + size * 6 + j] = 0.0
    record = ws[t + T_RECORD] != 0.0
    n_seg = 0
    value = 0.0
    dead_total = 0.0
    waste = 0
    est = 0.0
    long_houses = 0
    for s in range(R[0, P_NSTREETS]):
        value += ws[t + T_PARK + s]
        k = k1 if s == s1 else (k2 if s == s2 else s)
        base = WS_ST + ST_W * k
        dead_total += ws[base]
        long_houses += int(ws[base + 1])
        waste += int(ws[base + 2])
        for i in range(int(ws[base + 3])):
            e = base + ST_HEAD + ST_E * i
            if fresh:
                size = int(ws[e])
                est += R[R_ESTATE_VALS + size - 1, sc[p, SC_IMPR + size - 1]] * ws[e + 1]
            else:
                est += ws[e + 4]
            if ws[e + 3] != 0.0:
                size = int(ws[e])
                if (sizes >> size) & 1:
                    _push_top(ws, size, ws[e + 1])
                if record and n_seg < MAX_SEGS:
                    a = int(ws[e + 2])
                    pools = 0
                    exts = 0
                    for h in range(a, a + size):
                        pools += (flags[p, s, h] & F_POOL) != 0
                        exts += (flags[p, s, h] & F_EXT) != 0
                    r = WS_SEG + SEG_W * n_seg
                    ws[r], ws[r + 1], ws[r + 2] = s, a, size
                    ws[r + 3], ws[r + 4], ws[r + 5] = ws[e + 1], pools, exts
                    n_seg += 1
    ws[WS_NSEG] = n_seg if record else -1.0
    value += prm[W_ESTATE] * est + prm[W_LONG] * long_houses - prm[W_DEAD] * dead_total
    # Improvements: estates of each size still to come.
    for i in range(6):
        value += ws[t + T_IMPR + i]
    # Pools.
    value += ws[t + T_POOL]
    if ws[t + T_WASTE] != 0.0:
        value -= prm[W_POOL_WASTE] * waste
    # Temp workers (a placement can hire one: not prepared).
    temps = sc[p, SC_TEMPS]
    if temps > 0:
        if ctx[CTX_PLAYERS] == 1:
            value += prm[W_TEMP] * R[R_TEMP_MAJ, 0]
        else:
            share = temps / prm[TEMP_TARGET]
            value += prm[W_TEMP] * R[R_TEMP_MAJ, 0] * (share if share < 1.0 else 1.0)
    # The expansion's own scoring (eggs, cones, strings); none for a player blind to it.
    if EXPANSIONS == 1 and R[0, P_EXPANSION] != 0 and prm[BLIND] == 0.0:
        value += prm[W_X] * _x_term(R, cells, flags, fences, sc, p, ws, s1, k1, s2, k2)
    # Penalties.
    value -= ws[t + T_EXT]
    value -= ws[t + T_REF]
    value -= ws[t + T_RB]
    # Plans.
    for slot in range(3):
        if sc[p, SC_PLAN_ROUND + slot] > 0:
            value += sc[p, SC_PLAN_SCORE + slot]
            continue
        if slot == skip_slot:
            continue
        plan = ctx[CTX_PLAN + slot]
        if R[R_PLAN_PLAIN, plan] == 1:
            got = 0.0
            total = 0
            for size in range(1, 7):
                k = R[R_PLAN_NEED + size, plan]
                for j in range(k if k <= 6 else 6):
                    got += ws[WS_TOP + size * 6 + j]
                total += k
            progress = got / total if total > 0 else 0.0
        else:
            progress = plan_progress(R, cells, flags, sc, p, plan, ws)
        value += ws[t + T_PLAN + slot] * _pow(ws, slot, progress, prm[PLAN_EXP])
    return value


@leaf
def _x_term(R, cells, flags, fences, sc, p, ws, s1, k1, s2, k2) -> float:
    """The expansion's valuation for combine(): from the street parts kept beside the records
    (street s1 from record k1, s2 from k2, any other s from s), or valued whole. A record's part
    is computed the first time it is asked (the walk leaves NaN): a record stands for its street
    as the sheet has it whenever it is used, so the part is the one the walk would have made."""
    # Computed here, not in the walk: the part hooks in the walk's code made every walk slower,
    # base games' too (measured 2-5%).
    if x_street_parts(R):
        x_parts = 0.0
        for s in range(R[0, P_NSTREETS]):
            i = WS_XPART + (k1 if s == s1 else (k2 if s == s2 else s))
            if np.isnan(ws[i]):
                ws[i] = x_street_part(R, cells, flags, sc, p, s)
            x_parts += ws[i]
        return x_sheet_value(R, cells, flags, sc, p, x_parts)
    return x_value(R, cells, flags, fences, sc, p)


@leaf
def _frac(have, need) -> float:
    """have/need, at most 1."""
    if need <= 0:
        return 1.0
    return min(have, need) / need


@leaf
def _street_estates(R, cells, flags, p, plan, ws, street) -> float:
    """Sum over the estates an estate plan asks for of the best matching recorded estate's chance
    (in `street`, or anywhere at -1), discounted when it lacks the pools / bis / end position /
    expansion feature (an estate past a feature's maximum is out)."""
    n_seg = int(ws[WS_NSEG])
    for i in range(n_seg):
        ws[WS_USED + i] = 0.0
    got = 0.0
    min_pool = R[R_PLAN_MINPOOL, plan]
    min_ext = R[R_PLAN_MINEXT, plan]
    ends = R[R_PLAN_ENDS, plan] == 1
    # Blind to the expansion: an estate's feature (eggs, cones, Zoorgs...) is not seen.
    feat = R[R_PLAN_XFEAT, plan] if ws[WS_TERMS + T_BLIND] == 0.0 else 0
    for size in range(6, 0, -1):
        for _ in range(R[R_PLAN_NEED + size, plan]):
            best = 0.0
            bi = -1
            for i in range(n_seg):
                b = WS_SEG + SEG_W * i
                if ws[WS_USED + i] != 0.0 or int(ws[b + 2]) != size or (street >= 0 and int(ws[b]) != street):
                    continue
                v = ws[b + 3]
                if ws[b + 4] < min_pool:
                    v *= 0.35
                if ws[b + 5] < min_ext:
                    v *= 0.35 ** (min_ext - ws[b + 5])
                if ends and ws[b + 1] != 0.0 and ws[b + 1] + size != R[R_STREET_LEN, int(ws[b])]:
                    v *= 0.2
                if feat != 0:
                    a = int(ws[b + 1])
                    m = x_estate_feature(R, cells, flags, p, int(ws[b]), a, a + size, feat)
                    if R[R_PLAN_XMAX, plan] >= 0 and m > R[R_PLAN_XMAX, plan]:
                        v = 0.0
                    elif m < R[R_PLAN_XMIN, plan]:
                        v *= 0.5 ** (R[R_PLAN_XMIN, plan] - m)
                if v > best:
                    best = v
                    bi = i
            if bi >= 0:
                ws[WS_USED + bi] = 1.0
                got += best
    return got


@leaf
def plan_progress(R, cells, flags, sc, p, plan, ws) -> float:
    """How close player p is to a plan other than a plain estate plan, 0..1 (a heuristic)."""
    kind = R[R_PLAN_KIND, plan]
    count = R[R_PLAN_COUNT, plan]
    n_streets = R[0, P_NSTREETS]
    if kind == PK_ESTATES:
        return _estate_progress(R, cells, flags, plan, ws, p)
    if kind == PK_PARKS:
        total = 0
        for s in range(n_streets):
            total += sc[p, SC_PARK + s]
        return _frac(total, count)
    if kind == PK_PARKS_EACH:
        got = 0.0
        for s in range(n_streets):
            got += _frac(sc[p, SC_PARK + s], count)
        return got / n_streets
    if kind == PK_TEMPS:
        return _frac(sc[p, SC_TEMPS], count)
    if kind == PK_EXPANSION:
        # Blind to the expansion: its own goals are not understood, so not pursued.
        return x_progress(R, cells, flags, sc, p, plan) if ws[WS_TERMS + T_BLIND] == 0.0 else 0.0
    if kind == PK_IMPROVEMENTS:
        total = 0
        for col in range(6):
            total += sc[p, SC_IMPR + col]
        return _frac(total, count)
    if kind == PK_EXT_IN_STREET:
        best = 0.0
        for s in range(n_streets):
            k = 0
            for h in range(R[R_STREET_LEN, s]):
                if (flags[p, s, h] & F_EXT) and not (flags[p, s, h] & F_TAKEN):
                    k += 1
            best = max(best, _frac(k, count))
        return best
    if kind == PK_STREET_ENDS:
        k = 0
        for s in range(n_streets):
            n = R[R_STREET_LEN, s]
            k += (cells[p, s, 0] >= 0) + (cells[p, s, n - 1] >= 0)
        return k / (2.0 * n_streets)
    if kind == PK_STREET_FULL:
        s = R[R_PLAN_STREET, plan]
        n = R[R_STREET_LEN, s]
        k = 0
        for h in range(n):
            if cells[p, s, h] == ZOMBIE:
                return 0.0  # "A Z is not a number": the street can never be full
            if cells[p, s, h] != EMPTY:
                k += 1
        return k / n
    # Kinds that need `count` streets (or columns) full: mean fill of the best ones.
    for j in range(6):
        ws[WS_BEST + j] = 0.0
    n_items = 6 if kind == PK_IMPR_COLUMNS else n_streets
    for i in range(n_items):
        if kind == PK_IMPR_COLUMNS:
            f = _frac(sc[p, SC_IMPR + i], R[R_ESTATE_LEN, i] - 1)
        elif kind == PK_PARKS_FULL:
            f = _frac(sc[p, SC_PARK + i], R[R_PARK_LEN, i] - 1)
        else:
            f = _pool_fill(R, cells, flags, p, i)
            if kind == PK_PARKS_POOLS_FULL:
                st = R[R_PLAN_STREET, plan]
                if st >= 0 and i != st:
                    continue
                rb = R[R_PLAN_RB, plan]
                f = (f + _frac(sc[p, SC_PARK + i], R[R_PARK_LEN, i] - 1)) / 2.0
                if rb > 0:
                    f = (2.0 * f + _frac(street_roundabouts(R, cells, p, i), rb)) / 3.0
        # Insert into the sorted top list.
        j = 5
        if f > ws[WS_BEST + j]:
            while j > 0 and ws[WS_BEST + j - 1] < f:
                ws[WS_BEST + j] = ws[WS_BEST + j - 1]
                j -= 1
            ws[WS_BEST + j] = f
    k = 1 if kind == PK_PARKS_POOLS_FULL else count
    got = 0.0
    for j in range(min(k, 6)):
        got += ws[WS_BEST + j]
    return got / k


@leaf
def _pool_fill(R, cells, flags, p, s) -> float:
    """Share of street s's pools built; 0 once a pool house is numbered without its pool."""
    if R[R_POOL_COUNT, s] == 0:
        return 0.0
    k = 0
    for h in range(R[R_STREET_LEN, s]):
        if R[R_POOL_HOUSE + s, h] == 1:
            if flags[p, s, h] & F_POOL:
                k += 1
            elif cells[p, s, h] != EMPTY:
                return 0.0
    return k / R[R_POOL_COUNT, s]


@leaf
def _estate_progress(R, cells, flags, plan, ws, p) -> float:
    """Progress of an estate plan with street / pool / bis / end / roundabout conditions."""
    total = 0
    for size in range(1, 7):
        total += R[R_PLAN_NEED + size, plan]
    rb = R[R_PLAN_RB, plan]
    st = R[R_PLAN_STREET, plan]
    items = total + rb
    if st == -2:
        best = 0.0
        for s in range(R[0, P_NSTREETS]):
            got = _street_estates(R, cells, flags, p, plan, ws, s) + min(
                street_roundabouts(R, cells, p, s), rb
            )
            best = max(best, got)
        return best / items
    got = _street_estates(R, cells, flags, p, plan, ws, st)
    if rb > 0:
        n_rb = 0
        for s in range(R[0, P_NSTREETS]):
            if st < 0 or s == st:
                n_rb += street_roundabouts(R, cells, p, s)
        got += min(n_rb, rb)
    return got / items


@leaf
def _apply_action(R, cells, flags, fences, sc, p, s, h, a, x, y, z, sign) -> None:
    """Apply (sign=1) or undo (sign=-1) an action on top of a placed number."""
    if a == FENCE:
        if sign > 0:
            fences[p, x, y] |= B_FENCE
        else:
            fences[p, x, y] &= ~B_FENCE
    elif a == IMPROVEMENT:
        sc[p, SC_IMPR + x] += sign
    elif a == PARK:
        sc[p, SC_PARK + s] += sign
    elif a == POOL:
        sc[p, SC_POOLS] += sign
        if sign > 0:
            flags[p, s, h] |= F_POOL
        else:
            flags[p, s, h] &= ~F_POOL
    elif a == TEMP:
        sc[p, SC_TEMPS] += sign
    elif a == EXTENSION:
        sc[p, SC_EXT] += sign
        sc[p, SC_NUMBERED] += sign
        if sign > 0:
            cells[p, x, z] = cells[p, x, y]
            flags[p, x, z] |= F_EXT
        else:
            cells[p, x, z] = EMPTY
            flags[p, x, z] &= ~F_EXT


@leaf
def aaa_price(R, prm, number, action) -> float:
    """Greedy's price, in points of its evaluation, of a card of this number code and action
    going to the AAA (`aaa` weight): the card's rough AAA value plus the expansion's share."""
    cost = prm[W_AAA] * R[R_AAA_VALUE, action] / 10.0
    if prm[BLIND] == 0.0:  # blind to the expansion: its AAA rule is not seen
        cost += prm[W_AAA] * x_aaa_card(R, number, action)
    return cost


TIE_JITTER = 1e-6  # far below any real difference in value


@leaf
def _noisy(value, prm, rng) -> float:
    """Evaluation plus uniform noise from the game's generator, of width prm[NOISE] or, at 0, just
    enough to break exact ties at random. Breaking ties by scan order (top street, leftmost
    house first) cost about 11 points a game: measured 87.9 -> 98.9 on 4,000 solo games."""
    width = prm[NOISE] if prm[NOISE] > 0.0 else TIE_JITTER
    return value + width * (rng_below(rng, 1 << 20) / float(1 << 20) - 0.5)


@leaf
def _trial(R, prm, cells, flags, fences, sc, p, ctx, ws, placed, changed, fresh) -> float:
    """Value of the sheet with a placement in street `placed` (walked into ST_PLACED) and an
    action that changed street `changed` (-1: only the score sheet), re-walking only that one."""
    if changed < 0:
        return combine(R, prm, cells, flags, fences, sc, p, ctx, ws, -1, placed, ST_PLACED, -1, 0, fresh)
    walk_street(R, prm, cells, flags, fences, sc, p, changed, ws, ST_TRIAL)
    if changed == placed:
        return combine(R, prm, cells, flags, fences, sc, p, ctx, ws, -1, changed, ST_TRIAL, -1, 0, fresh)
    return combine(
        R, prm, cells, flags, fences, sc, p, ctx, ws, -1, changed, ST_TRIAL, placed, ST_PLACED, fresh
    )


@leaf
def _offer(cand, val, c, s, h, v, a, x, y, z) -> None:
    """Keep the best moves in cand (rows sorted by value, best first; ties keep the earlier)."""
    k = cand.shape[0] - 1
    if not val > cand[k, 0]:
        return
    while k > 0 and val > cand[k - 1, 0]:
        for j in range(9):
            cand[k, j] = cand[k - 1, j]
        k -= 1
    cand[k, 0], cand[k, 1], cand[k, 2], cand[k, 3], cand[k, 4] = val, c, s, h, v
    cand[k, 5], cand[k, 6], cand[k, 7], cand[k, 8] = a, x, y, z


@leaf
def _to_move(cand, mv) -> None:
    """mv = the best move in cand, or -1s (a refusal) when there is none."""
    for i in range(8):
        mv[i] = int(cand[0, i + 1]) if cand[0, 0] > -1e18 else -1


@leaf
def _best_moves(
    R, prm, cells, flags, fences, sc, p, ctx, cnum, cact, rng, lo, hi, ws, cost, top, mval, mlo, mhi, cand
) -> None:
    """Greedy's search: the best moves and their values into cand (see choose_greedy; the other
    arrays are its scratch space, so that the look-ahead can call it without allocating)."""
    prepare_terms(R, prm, sc, p, ctx, ws, -1)
    walk_sheet(R, prm, cells, flags, fences, sc, p, ws)
    for i in range(cand.shape[0]):
        cand[i, 0] = -1e18
    # The value a move must beat to enter cand (the last kept one's), kept in a local: most moves
    # do not enter. (Measured: no gain over reading cand; plain greedy with this search and its
    # top-K list runs at 0.96-1.00 of cf1706f's speed, the price of a search the look-ahead can
    # call without allocating.)
    last = cand.shape[0] - 1
    bar = -1e18
    n_combos = cnum.shape[0]
    # AAA solo mode: the card not used goes to the AAA; price it.
    for c in range(n_combos):
        cost[c] = 0.0
    if ctx[CTX_DEAL] == DEAL_AAA and prm[W_AAA] != 0.0 and n_combos == 6:
        for c in range(n_combos):
            third = 3 - COMBO_NUM[c] - COMBO_ACT[c]
            cost[c] = aaa_price(R, prm, ctx[CTX_HAND_NUM + third], ctx[CTX_HAND_ACT + third])
    # Best two placements per combination: value, street, house, number.
    # Hand modes: each card's number is in two of the six combinations, and a placement's value
    # does not depend on the action: the second combination reuses the first one's values (the
    # noise is still drawn per candidate, so the games are the same).
    # Not where the action marks the house (American Dream: a perfect house), which makes the
    # placement's value depend on the combination's action.
    memo = n_combos == 6 and not x_action_marks(R)
    mdim = 3 if memo else 1
    for i in range(mdim):
        for key in range(N_KEYS):
            mlo[i, key] = 1
            mhi[i, key] = 0
    for key in range(N_KEYS):
        ws[WS_FMARK + key] = 0.0
    for c in range(n_combos):
        top[c, 0, 0] = -1e18
        top[c, 1, 0] = -1e18
        vmin, vmax = value_range(R, sc, p, cnum[c], cact[c])
        card = COMBO_NUM[c] if memo else 0
        for s in range(R[0, P_NSTREETS]):
            for h in range(R[R_STREET_LEN, s]):
                if cells[p, s, h] != EMPTY:
                    continue
                key = s * 16 + h
                v_from = first_code(vmin, lo[s, h])
                v_to = min(vmax, hi[s, h] - 1)
                m_lo = mlo[card, key]
                m_hi = mhi[card, key]
                for v in range(v_from, v_to + 1, 2):
                    if memo and m_lo <= v <= m_hi and (v - m_lo) % 2 == 0:
                        raw = mval[card, key, v]
                    else:
                        cells[p, s, h] = v
                        x_on_action(R, cells, flags, sc, p, s, h, cact[c], 1)
                        adjusted = v != cnum[c]
                        if adjusted:
                            sc[p, SC_TEMPS] += 1
                        walk_street(R, prm, cells, flags, fences, sc, p, s, ws, ST_TRIAL)
                        raw = combine(
                            R, prm, cells, flags, fences, sc, p, ctx, ws, -1, s, ST_TRIAL, -1, 0, False
                        )
                        if adjusted:
                            sc[p, SC_TEMPS] -= 1
                        x_on_action(R, cells, flags, sc, p, s, h, cact[c], -1)
                        cells[p, s, h] = EMPTY
                        if memo:
                            mval[card, key, v] = raw
                    val = _noisy(raw, prm, rng)
                    if val > top[c, 1, 0]:
                        if val > top[c, 0, 0]:
                            for j in range(4):  # no slices: a leaf runs without reference counting
                                top[c, 1, j] = top[c, 0, j]
                            top[c, 0, 0], top[c, 0, 1], top[c, 0, 2], top[c, 0, 3] = val, s, h, v
                        else:
                            top[c, 1, 0], top[c, 1, 1], top[c, 1, 2], top[c, 1, 3] = val, s, h, v
                if memo and m_lo > m_hi:
                    mlo[card, key] = v_from
                    mhi[card, key] = v_to
    for c in range(n_combos):
        a = cact[c]
        for t in range(2):
            if top[c, t, 0] <= -1e17:
                continue
            s, h, v = int(top[c, t, 1]), int(top[c, t, 2]), int(top[c, t, 3])
            cells[p, s, h] = v
            x_on_action(R, cells, flags, sc, p, s, h, a, 1)
            adjusted = v != cnum[c]
            if adjusted:  # the number itself needed the temp worker: the action is used
                sc[p, SC_TEMPS] += 1
                val = top[c, t, 0]
                val -= cost[c]  # the AAA gets the card left over
                if val > bar:
                    _offer(cand, val, c, s, h, v, TEMP, -1, -1, -1)
                    bar = cand[last, 0]
                sc[p, SC_TEMPS] -= 1
                x_on_action(R, cells, flags, sc, p, s, h, a, -1)
                cells[p, s, h] = EMPTY
                continue
            # Every option below re-walks at most the street it changes; the placement's street
            # is walked once here.
            walk_street(R, prm, cells, flags, fences, sc, p, s, ws, ST_PLACED)
            # Not using the action.
            val = top[c, t, 0]
            val -= cost[c]  # the AAA gets the card left over
            if val > bar:
                _offer(cand, val, c, s, h, v, NO_ACTION, -1, -1, -1)
                bar = cand[last, 0]
            if prm[BLIND] == 0.0 and x_alt_ok(R, cells, flags, p, s, h):
                # The expansion's alternative to any action (a Zoorg infiltrated): its value is
                # the expansion's, street estates unchanged. Never offered to a blind player.
                x_alt(R, flags, sc, p, s, h, 1)
                val = _noisy(_trial(R, prm, cells, flags, fences, sc, p, ctx, ws, s, -1, False), prm, rng)
                x_alt(R, flags, sc, p, s, h, -1)
                val -= cost[c]
                if val > bar:
                    _offer(cand, val, c, s, h, v, NO_ACTION, s, h, 1)
                    bar = cand[last, 0]
            if a == FENCE:
                if prm[BLIND] == 0.0 and x_fence_alt_ok(R, cells, flags, p, s, h):
                    # The expansion's alternative to a fence (a barricade): its value is the
                    # expansion's, street estates unchanged. A blind player builds the fence.
                    x_fence_alt(R, flags, sc, p, s, h, 1)
                    val = _noisy(_trial(R, prm, cells, flags, fences, sc, p, ctx, ws, s, -1, False), prm, rng)
                    x_fence_alt(R, flags, sc, p, s, h, -1)
                    val -= cost[c]
                    if val > bar:
                        _offer(cand, val, c, s, h, v, a, s, h, 1)
                        bar = cand[last, 0]
                for fs in range(R[0, P_NSTREETS]):
                    for fb in range(1, R[R_STREET_LEN, fs]):
                        if fence_ok(R, flags, fences, p, fs, fb):
                            _apply_action(R, cells, flags, fences, sc, p, s, h, a, fs, fb, 0, 1)
                            if fs == s:
                                val = _noisy(
                                    _trial(R, prm, cells, flags, fences, sc, p, ctx, ws, s, fs, False),
                                    prm,
                                    rng,
                                )
                            else:
                                # The fenced street as this turn found it: walked once a turn.
                                kf = ST_FENCE + fs * 16 + fb
                                if ws[WS_FMARK + fs * 16 + fb] == 0.0:
                                    walk_street(R, prm, cells, flags, fences, sc, p, fs, ws, kf)
                                    ws[WS_FMARK + fs * 16 + fb] = 1.0
                                val = _noisy(
                                    combine(
                                        R,
                                        prm,
                                        cells,
                                        flags,
                                        fences,
                                        sc,
                                        p,
                                        ctx,
                                        ws,
                                        -1,
                                        fs,
                                        kf,
                                        s,
                                        ST_PLACED,
                                        False,
                                    ),
                                    prm,
                                    rng,
                                )
                            _apply_action(R, cells, flags, fences, sc, p, s, h, a, fs, fb, 0, -1)
                            val -= cost[c]  # the AAA gets the card left over
                            if val > bar:
                                _offer(cand, val, c, s, h, v, a, fs, fb, -1)
                                bar = cand[last, 0]
            elif a == IMPROVEMENT:
                for col in range(6):
                    if improvement_ok(R, sc, p, col):
                        _apply_action(R, cells, flags, fences, sc, p, s, h, a, col, 0, 0, 1)
                        prepare_terms(R, prm, sc, p, ctx, ws, -1)
                        val = _noisy(
                            _trial(R, prm, cells, flags, fences, sc, p, ctx, ws, s, -1, True), prm, rng
                        )
                        _apply_action(R, cells, flags, fences, sc, p, s, h, a, col, 0, 0, -1)
                        prepare_terms(R, prm, sc, p, ctx, ws, -1)
                        val -= cost[c]  # the AAA gets the card left over
                        if val > bar:
                            _offer(cand, val, c, s, h, v, a, col, -1, -1)
                            bar = cand[last, 0]
            elif (
                (a == PARK and park_ok(R, sc, p, s))
                or (a == POOL and pool_ok(R, flags, sc, p, s, h))
                or (a == TEMP and temp_ok(R, sc, p))
            ):
                _apply_action(R, cells, flags, fences, sc, p, s, h, a, 0, 0, 0, 1)
                prepare_terms(R, prm, sc, p, ctx, ws, -1)
                # A pool changes its house's street; park and temp only the score sheet.
                changed = s if a == POOL else -1
                val = _noisy(
                    _trial(R, prm, cells, flags, fences, sc, p, ctx, ws, s, changed, False), prm, rng
                )
                _apply_action(R, cells, flags, fences, sc, p, s, h, a, 0, 0, 0, -1)
                prepare_terms(R, prm, sc, p, ctx, ws, -1)
                val -= cost[c]  # the AAA gets the card left over
                if val > bar:
                    _offer(cand, val, c, s, h, v, a, -1, -1, -1)
                    bar = cand[last, 0]
            elif a == EXTENSION and sc[p, SC_EXT] < R[0, P_EXT_LEN] - 1:
                for es in range(R[0, P_NSTREETS]):
                    for src in range(R[R_STREET_LEN, es]):
                        for d in (-1, 1):
                            tgt = x_ext_target(R, cells, p, es, src, d)
                            if extension_ok(R, cells, fences, sc, p, es, src, tgt):
                                _apply_action(R, cells, flags, fences, sc, p, s, h, a, es, src, tgt, 1)
                                prepare_terms(R, prm, sc, p, ctx, ws, -1)
                                val = _noisy(
                                    _trial(R, prm, cells, flags, fences, sc, p, ctx, ws, s, es, False),
                                    prm,
                                    rng,
                                )
                                _apply_action(R, cells, flags, fences, sc, p, s, h, a, es, src, tgt, -1)
                                prepare_terms(R, prm, sc, p, ctx, ws, -1)
                                val -= cost[c]  # the AAA gets the card left over
                                if val > bar:
                                    _offer(cand, val, c, s, h, v, a, es, src, tgt)
                                    bar = cand[last, 0]
            x_on_action(R, cells, flags, sc, p, s, h, a, -1)
            cells[p, s, h] = EMPTY


@leaf
def _card_with_number(R, lr, number) -> int:
    """A random card of the deck showing this number code (any card if none does)."""
    n = R[0, P_NCARDS]
    for _ in range(400):
        c = rng_below(lr, n)
        if R[R_DECK_NUM, c] == number:
            return c
    return rng_below(lr, n)


@leaf
def _sample_round(R, ctx, lr, showing, cnum, cact) -> None:
    """A sampled next round's combinations, drawn from the deck's composition (not counting the
    cards seen). Stack modes (three stacks, or two with Zombie Outbreak): stack i's next action is
    on the back of the card whose number it shows now (`showing`), its next number is any card's;
    hand modes: a hand of random cards."""
    n = R[0, P_NCARDS]
    k = cnum.shape[0]
    if ctx[CTX_DEAL] == DEAL_STACKS:
        for i in range(k):
            cact[i] = R[R_DECK_ACT, _card_with_number(R, lr, showing[i])]
            showing[i] = R[R_DECK_NUM, rng_below(lr, n)]
            cnum[i] = showing[i]
        return
    size = 2 if k == 2 else 3
    for i in range(size):
        c = rng_below(lr, n)
        ctx[CTX_HAND_NUM + i] = R[R_DECK_NUM, c]
        ctx[CTX_HAND_ACT + i] = R[R_DECK_ACT, c]
    for j in range(k):
        if k == 2:
            cnum[j] = ctx[CTX_HAND_NUM + j]
            cact[j] = ctx[CTX_HAND_ACT + 1 - j]
        else:
            cnum[j] = ctx[CTX_HAND_NUM + COMBO_NUM[j]]
            cact[j] = ctx[CTX_HAND_ACT + COMBO_ACT[j]]


@leaf
def _over(R, sc, p) -> bool:
    """Whether seat p's own sheet ends the game: all three plans, the last refusal box, or every
    house numbered (or a roundabout, or sealed)."""
    if sc[p, SC_PLAN_ROUND] > 0 and sc[p, SC_PLAN_ROUND + 1] > 0 and sc[p, SC_PLAN_ROUND + 2] > 0:
        return True
    if sc[p, SC_REFUSALS] >= R[0, P_MAX_REFUSALS]:
        return True
    return sc[p, SC_NUMBERED] + sc[p, SC_ROUNDABOUTS] + sc[p, SC_SEALED] >= R[0, P_TOTAL_HOUSES]


@leaf
def _play(R, prm, cells, flags, fences, sc, p, mv, act) -> None:
    """Apply a legal move to seat p's sheet with its expansion effects, as the game loop does (a
    first-edition ice cream truck starts from the side greedy prefers); act: its combination's
    action."""
    apply_move(R, cells, flags, fences, sc, p, mv)
    x_on_move(R, cells, flags, sc, p, mv)
    x_on_action(R, cells, flags, sc, p, mv[1], mv[2], act, 1)
    if x_side_pending(R, sc, p, mv[1]):
        x_set_side(R, sc, p, mv[1], greedy_side_of(R, prm, cells, flags, fences, sc, p, mv[1]))
    x_on_number(R, cells, flags, sc, p, mv[1], mv[2])
    if mv[4] == EXTENSION:
        x_on_number(R, cells, flags, sc, p, mv[5], mv[7])


@leaf
def _validate_first(R, cells, flags, fences, sc, p, ctx, used, rnd) -> None:
    """In a look-ahead's imagined round end: validate every plan seat p meets that still pays its
    first score (as greedy_validates always does), locking what it uses."""
    for slot in range(3):
        if sc[p, SC_PLAN_ROUND + slot] != 0 or ctx[CTX_FLIPPED + slot] != 0:
            continue
        plan = ctx[CTX_PLAN + slot]
        if plan_check(R, cells, flags, fences, sc, p, plan, False, used) < 0:
            continue
        plan_check(R, cells, flags, fences, sc, p, plan, True, used)
        sc[p, SC_PLAN_ROUND + slot] = rnd
        sc[p, SC_PLAN_SCORE + slot] = R[R_PLAN_FIRST, plan]
        sc[p, SC_PLAN_FIRST + slot] = 1


@inlined
def _look_ahead(
    R, prm, cells, flags, fences, sc, p, ctx, cnum, cact, rng, lo, hi, ws, cost, top, mval, mlo, mhi, cand
) -> int:
    """The look-ahead player's pick among greedy's best moves in cand: each is played on the sheet
    (restored from copies afterwards) and followed by `look_depth` rounds of sampled cards where greedy (without noise)
    plays; its worth is the mean, over `look_samples` futures, of greedy's value of the sheet at
    the end. Every candidate meets the same futures (common random numbers), so the comparison
    between candidates is much less noisy than each mean."""
    k_max = cand.shape[0]
    n_samples = max(1, int(prm[LOOK_S] + 0.5))
    depth = max(1, int(prm[LOOK_D] + 0.5))
    inner = prm.copy()
    inner[NOISE] = 0.0
    c0, f0, fe0, s0 = cells.copy(), flags.copy(), fences.copy(), sc.copy()
    ctx0 = ctx.copy()
    lo0, hi0 = lo.copy(), hi.copy()
    cnum2, cact2 = cnum.copy(), cact.copy()
    showing = np.zeros(3, dtype=np.int64)
    one = np.empty((1, 9), dtype=np.float64)
    mv = np.empty(8, dtype=np.int64)
    lr = np.zeros(1, dtype=np.uint64)
    used = np.zeros((16, 3), dtype=np.int64)
    rnd = max(1, ctx[CTX_ROUND])
    gift = cost.copy()  # AAA solo mode: what each combination's card left over is worth to the AAA
    base = rng_next(rng)  # one draw from the game's generator seeds every future of this turn
    best, pick = -1e300, 0
    for k in range(k_max):
        if cand[k, 0] <= -1e17:
            break
        total = 0.0
        for smp in range(n_samples):
            for i in range(8):
                mv[i] = int(cand[k, i + 1])
            _play(R, prm, cells, flags, fences, sc, p, mv, cact[mv[0]])
            _validate_first(R, cells, flags, fences, sc, p, ctx, used, rnd)
            for i in range(3):
                showing[i] = cnum[i] if i < cnum.shape[0] else 0
            for d in range(depth):
                if _over(R, sc, p):
                    break
                # Each imagined round's cards from a seed of their own: greedy's tie-breaks draw
                # from the same stream, as many times as there are legal moves, so one running
                # stream would deal every candidate different cards after the first round.
                lr[0] = (
                    base
                    + np.uint64(smp) * np.uint64(0xD1B54A32D192ED03)
                    + np.uint64(d + 1) * np.uint64(0x8CB92BA72F3D8DD7)
                )
                _sample_round(R, ctx, lr, showing, cnum2, cact2)
                street_bounds(R, cells, p, lo, hi)
                x_bounds(R, cells, flags, p, lo, hi)
                _best_moves(
                    R,
                    inner,
                    cells,
                    flags,
                    fences,
                    sc,
                    p,
                    ctx,
                    cnum2,
                    cact2,
                    lr,
                    lo,
                    hi,
                    ws,
                    cost,
                    top,
                    mval,
                    mlo,
                    mhi,
                    one,
                )
                if one[0, 0] <= -1e17:
                    sc[p, SC_REFUSALS] += 1
                else:
                    _to_move(one, mv)
                    _play(R, prm, cells, flags, fences, sc, p, mv, cact2[mv[0]])
                    _validate_first(R, cells, flags, fences, sc, p, ctx, used, rnd + 1 + d)
            # The sheet after the last imagined round, plans validated: its greedy value.
            total += evaluate(R, inner, cells, flags, fences, sc, p, ctx, ws, -1)
            cells[:, :, :] = c0
            flags[:, :, :] = f0
            fences[:, :, :] = fe0
            sc[:, :] = s0
            ctx[:] = ctx0
        worth = total / n_samples - gift[int(cand[k, 1])]
        if worth > best:
            best, pick = worth, k
    lo[:, :] = lo0
    hi[:, :] = hi0
    return pick


@kernel
def choose_greedy(R, prm, cells, flags, fences, sc, p, ctx, cnum, cact, rng, mv, lo, hi) -> None:
    """One-step greedy move choice (see the module docstring); with ctx[CTX_QUERY] set, the answer
    to a question instead (mv[0] = 1 yes, 0 no)."""
    ws = new_workspace(R)
    if ctx[CTX_QUERY] > 0:
        # Zombie Outbreak: hold the horde of street s on this side with an ammunition when the
        # sheet it leaves is worth more than the sheet after the horde moves (the evaluation prices
        # the ammunition kept, the house lost and the plans' progress); `hold` policy 1 never
        # holds, 2 always does when it can. Rare (a few times a game): it works on copies.
        s = (ctx[CTX_QUERY] - 1) >> 1
        side = (ctx[CTX_QUERY] - 1) & 1
        policy = int(prm[HOLD] + 0.5) if prm[BLIND] == 0.0 else 1  # blind: never holds
        if policy != 0:
            mv[0] = 1 if policy == 2 else 0
            return
        c0, f0, fe0, s0 = cells.copy(), flags.copy(), fences.copy(), sc.copy()
        x_hold(R, sc, p)
        held = evaluate(R, prm, cells, flags, fences, sc, p, ctx, ws, -1)
        sc[:, :] = s0
        x_advance(R, cells, flags, fences, sc, p, s, side)
        moved = evaluate(R, prm, cells, flags, fences, sc, p, ctx, ws, -1)
        cells[:, :, :] = c0
        flags[:, :, :] = f0
        fences[:, :, :] = fe0
        sc[:, :] = s0
        mv[0] = 1 if held > moved else 0
        return
    n_combos = cnum.shape[0]
    cost = np.empty(n_combos, dtype=np.float64)
    top = np.empty((n_combos, 2, 4), dtype=np.float64)
    mdim = 3 if n_combos == 6 else 1
    mval = np.empty((mdim, N_KEYS, N_CODES), dtype=np.float64)
    mlo = np.empty((mdim, N_KEYS), dtype=np.int64)
    mhi = np.empty((mdim, N_KEYS), dtype=np.int64)
    look = int(prm[LOOK_K] + 0.5)
    cand = np.empty((max(look, 1), 9), dtype=np.float64)
    _best_moves(
        R, prm, cells, flags, fences, sc, p, ctx, cnum, cact, rng, lo, hi, ws, cost, top, mval, mlo, mhi, cand
    )
    if LOOK_AHEAD == 1 and look >= 2 and cand[1, 0] > -1e17:
        # The look-ahead player: the best candidates, each followed by sampled futures.
        pick = _look_ahead(
            R,
            prm,
            cells,
            flags,
            fences,
            sc,
            p,
            ctx,
            cnum,
            cact,
            rng,
            lo,
            hi,
            ws,
            cost,
            top,
            mval,
            mlo,
            mhi,
            cand,
        )
        cand[0, :] = cand[pick, :]
    _to_move(cand, mv)


@inlined
def greedy_validates(R, prm, cells, flags, fences, sc, p, ctx, slot) -> bool:
    """Validate now? Always while the plan is worth its first score; otherwise only if its points
    outweigh the progress the estates it would lock give the other plans."""
    if ctx[CTX_FLIPPED + slot] == 0:
        return True
    ws = new_workspace(R)
    before = evaluate(R, prm, cells, flags, fences, sc, p, ctx, ws, slot)
    saved = flags.copy()
    used = np.zeros((16, 3), dtype=np.int64)
    plan_check(R, cells, flags, fences, sc, p, ctx[CTX_PLAN + slot], True, used)
    after = (
        evaluate(R, prm, cells, flags, fences, sc, p, ctx, ws, slot) + R[R_PLAN_LATER, ctx[CTX_PLAN + slot]]
    )
    flags[:, :, :] = saved
    return after >= before


@inlined
def greedy_roundabout(R, prm, cells, flags, fences, sc, p, ctx, cnum, cact, rng, lo, hi, rbm) -> None:
    """Advanced mode: build the roundabout whose sheet evaluates best, if it beats building none
    by `rb_margin`, or, when no number of the round fits, if it beats taking the refusal."""
    if sc[p, SC_ROUNDABOUTS] >= R[0, P_RB_MAX]:
        return
    ws = new_workspace(R)
    stuck = not any_fit(R, cells, sc, p, cnum, cact, lo, hi)
    if stuck:
        sc[p, SC_REFUSALS] += 1
        base = evaluate(R, prm, cells, flags, fences, sc, p, ctx, ws, -1)
        sc[p, SC_REFUSALS] -= 1
    else:
        base = evaluate(R, prm, cells, flags, fences, sc, p, ctx, ws, -1) + prm[RB_MARGIN]
    best = base
    for s in range(R[0, P_NSTREETS]):
        for h in range(R[R_STREET_LEN, s]):
            if not roundabout_ok(R, cells, sc, p, s, h):
                continue
            f0, f1 = fences[p, s, h], fences[p, s, h + 1]
            place_roundabout(cells, fences, sc, p, s, h)
            ok = True
            if stuck:
                street_bounds(R, cells, p, lo, hi)
                ok = any_fit(R, cells, sc, p, cnum, cact, lo, hi)
            if ok:
                # The roundabout changes its street and the roundabout penalty: only those are
                # re-priced (the other streets keep the records the base evaluation walked).
                prepare_terms(R, prm, sc, p, ctx, ws, -1)
                walk_street(R, prm, cells, flags, fences, sc, p, s, ws, ST_TRIAL)
                val = _noisy(
                    combine(R, prm, cells, flags, fences, sc, p, ctx, ws, -1, s, ST_TRIAL, -1, 0, False),
                    prm,
                    rng,
                )
                if val > best:
                    best = val
                    rbm[0], rbm[1] = s, h
            remove_roundabout(cells, fences, sc, p, s, h, f0, f1)
    if stuck:
        street_bounds(R, cells, p, lo, hi)


@leaf
def _fit_per_card(R, fit, cards, n) -> float:
    """Mean over cards[0:n] of the empty houses where the card's number can be written."""
    total = 0.0
    for j in range(n):
        total += fit[R[R_DECK_NUM, cards[j]]]
    return total / n if n > 0 else 0.0


@inlined
def greedy_reshuffles(R, prm, cells, sc, p, stack, stack_n) -> bool:
    """First edition, first validator: reshuffle per the `reshuffle` policy (module docstring). The
    smart policy looks only at which cards are left in the stacks, not at their order."""
    mode = int(prm[RESHUFFLE] + 0.5)
    if mode <= 0:
        return False
    if mode == 1:
        return True
    n_cards = R[0, P_NCARDS]
    lo = np.empty((cells.shape[1], cells.shape[2]), dtype=np.int64)
    hi = np.empty((cells.shape[1], cells.shape[2]), dtype=np.int64)
    street_bounds(R, cells, p, lo, hi)
    # Houses each number code can go to now.
    fit = np.zeros(N_CODES, dtype=np.float64)
    for s in range(R[0, P_NSTREETS]):
        for h in range(R[R_STREET_LEN, s]):
            if cells[p, s, h] == EMPTY:
                for v in range(max(lo[s, h] + 1, 0), min(hi[s, h], N_CODES)):
                    fit[v] += 1.0
    left = np.empty(n_cards, dtype=np.int64)
    n_left = 0
    for i in range(3):
        for j in range(stack_n[i]):
            left[n_left] = stack[i, j]
            n_left += 1
    deck = np.arange(n_cards)
    return _fit_per_card(R, fit, left, n_left) < _fit_per_card(R, fit, deck, n_cards)


@leaf
def greedy_objective(R, prm) -> int:
    """Set-up objective (Roswell): the `objective` parameter's box (1-based) when set, else the
    one the expansion's estimate of greedy's infiltrated estates pays best (roswell.greedy_objective)."""
    if EXPANSIONS == 0:
        return 0  # only Roswell asks for an objective
    if prm[BLIND] != 0.0:
        return 0  # blind to the expansion: the first objective box
    return roswell.greedy_objective(R, int(prm[OBJECTIVE] + 0.5))


@leaf
def greedy_side(R, cells, flags, fences, sc, p, s) -> int:
    """First-edition Ice Cream: start street s's truck from the side (0 left, 1 right) whose run
    the expansion valuation (icecream.street_part, with the number just written) prizes more; ties: left."""
    x_set_side(R, sc, p, s, 0)
    left = x_value(R, cells, flags, fences, sc, p)
    x_set_side(R, sc, p, s, 1)
    right = x_value(R, cells, flags, fences, sc, p)
    x_set_side(R, sc, p, s, -1)
    return 0 if left >= right else 1


@leaf
def greedy_side_of(R, prm, cells, flags, fences, sc, p, s) -> int:
    """The truck side greedy with parameters prm picks (greedy_side); blind to the expansion, the left."""
    if prm[BLIND] != 0.0:
        return 0
    return greedy_side(R, cells, flags, fences, sc, p, s)


@leaf
def _closed_pair(R, cells, fences, p, s, h) -> int:
    """The estates a roundabout on the empty house (s, h) would close, as left size * 8 + right
    size (0: none on that side): on a side, every house up to the nearest fence numbered, at
    most 6, and no fence at h on that side yet."""
    pair = 0
    for d in (-1, 1):
        near = h if d < 0 else h + 1  # the boundary between h and that side
        if fences[p, s, near] & B_FENCE:
            continue
        k = 0
        j = h + d
        while 0 <= j < R[R_STREET_LEN, s] and cells[p, s, j] >= 0 and k < 6:
            k += 1
            far = j if d < 0 else j + 1
            if fences[p, s, far] & B_FENCE:
                pair += k * 8 if d < 0 else k
                break
            j += d
    return pair


@inlined
def greedy_roundabout_after(
    R, prm, cells, flags, fences, sc, p, ctx, cnum, cact, rng, lo, hi, mv, rbm
) -> None:
    """Advanced mode, after the move mv: a roundabout that lets a plan be validated this round
    (it closes an estate of a size the plan asks for, or the plan counts roundabouts or filled
    houses), if the sheet then evaluates better. Any other roundabout can wait for the next
    round, where greedy weighs it before its move knowing the cards: building those after the
    move by the same margin rule cost 0.7 points a game (Collector's, 1 player, 4,000 paired
    games). This look costs greedy about 6% of its Advanced-mode speed (974 -> 915 games/s)."""
    if sc[p, SC_ROUNDABOUTS] >= R[0, P_RB_MAX] or mv[0] < 0:
        return
    # Cheap filters first: which roundabouts could matter to a plan not yet validated.
    need = 0
    anywhere = False
    for slot in range(3):
        if sc[p, SC_PLAN_ROUND + slot] != 0:
            continue
        plan = ctx[CTX_PLAN + slot]
        kind = R[R_PLAN_KIND, plan]
        if R[R_PLAN_RB, plan] > 0 or kind == PK_STREET_FULL or kind == PK_STREET_ENDS:
            anywhere = True
        for size in range(1, 7):
            if R[R_PLAN_NEED + size, plan] > 0:
                need |= 1 << size
    if need == 0 and not anywhere:
        return
    open_slots = -1  # found at the first candidate: most turns have none, and the plan checks cost
    counts = np.zeros(7, dtype=np.int64)
    used = np.zeros((16, 3), dtype=np.int64)
    ws = np.zeros(1, dtype=np.float64)
    best = 0.0
    for s in range(R[0, P_NSTREETS]):
        for h in range(R[R_STREET_LEN, s]):
            if not roundabout_ok(R, cells, sc, p, s, h):
                continue
            pair = _closed_pair(R, cells, fences, p, s, h)
            left, right = pair // 8, pair % 8
            if not anywhere and not ((1 << left) | (1 << right)) & need & ~1:
                continue
            if open_slots < 0:
                # Plans not yet met; a plain estate plan (sizes anywhere) is answered by counts.
                estate_counts(R, cells, flags, fences, p, counts, True)
                open_slots = 0
                for slot in range(3):
                    plan = ctx[CTX_PLAN + slot]
                    if sc[p, SC_PLAN_ROUND + slot] != 0:
                        continue
                    if R[R_PLAN_PLAIN, plan] == 1:
                        met = counts_meet(R, counts, plan)
                    else:
                        met = plan_check(R, cells, flags, fences, sc, p, plan, False, used) >= 0
                    if not met:
                        open_slots |= 1 << slot
                if open_slots == 0:
                    return
                ws = new_workspace(R)
                best = evaluate(R, prm, cells, flags, fences, sc, p, ctx, ws, -1)
            counts[left] += 1
            counts[right] += 1
            f0, f1 = fences[p, s, h], fences[p, s, h + 1]
            place_roundabout(cells, fences, sc, p, s, h)
            enables = False
            for slot in range(3):
                if not (open_slots >> slot) & 1:
                    continue
                plan = ctx[CTX_PLAN + slot]
                if R[R_PLAN_PLAIN, plan] == 1:
                    enables = enables or counts_meet(R, counts, plan)
                else:
                    enables = enables or plan_check(R, cells, flags, fences, sc, p, plan, False, used) >= 0
            if enables:
                val = _noisy(evaluate(R, prm, cells, flags, fences, sc, p, ctx, ws, -1), prm, rng)
                if val > best:
                    best = val
                    rbm[0], rbm[1] = s, h
            remove_roundabout(cells, fences, sc, p, s, h, f0, f1)
            counts[left] -= 1
            counts[right] -= 1


@inlined
def greedy_pass(R, prm, cells, flags, fences, sc, p, ctx, rng, to) -> int:
    """After a permit refusal in a hand mode: the hand index of the card that helps its receiver
    least, exact ties drawn at random (all three equal: the same single draw of 0-2 as the
    random player). The AAA (to = -1): greedy's price of the card left over when it plays
    (`aaa` weight). A neighbour (to >= 0): the best gain the card's number gives the
    neighbour's sheet under `evaluate`, 0 when it fits nowhere or gains nothing. The discard
    pile (to = -2, first edition's solo variant): every card is equal."""
    # 3, or 2 with Zombie Outbreak (both cards used: one is passed on); 0 (not set) means 3.
    nh = ctx[CTX_HAND_SIZE] if ctx[CTX_HAND_SIZE] > 0 else 3
    cost = np.zeros(3, dtype=np.float64)
    if to == -1 and ctx[CTX_DEAL] == DEAL_AAA:
        for i in range(nh):
            cost[i] = aaa_price(R, prm, ctx[CTX_HAND_NUM + i], ctx[CTX_HAND_ACT + i])
    elif to >= 0:
        ws = new_workspace(R)
        n_streets = cells.shape[1]
        lo = np.empty((n_streets, cells.shape[2]), dtype=np.int64)
        hi = np.empty((n_streets, cells.shape[2]), dtype=np.int64)
        street_bounds(R, cells, to, lo, hi)
        base = evaluate(R, prm, cells, flags, fences, sc, to, ctx, ws, -1)
        for i in range(nh):
            v = ctx[CTX_HAND_NUM + i]
            for s in range(R[0, P_NSTREETS]):
                for h in range(R[R_STREET_LEN, s]):
                    if cells[to, s, h] != EMPTY or not lo[s, h] < v < hi[s, h]:
                        continue
                    cells[to, s, h] = v
                    gain = evaluate(R, prm, cells, flags, fences, sc, to, ctx, ws, -1) - base
                    cells[to, s, h] = EMPTY
                    if gain > cost[i]:
                        cost[i] = gain
    low = cost[0]
    for i in range(1, nh):
        low = min(low, cost[i])
    ties = 0
    for i in range(nh):
        if cost[i] <= low + TIE_JITTER:
            ties += 1
    k = rng_below(rng, ties) if ties > 1 else 0
    for i in range(nh):
        if cost[i] <= low + TIE_JITTER:
            if k == 0:
                return i
            k -= 1
    return 0


@inlined
def greedy_option(R, prm, cells, flags, fences, sc, p, ctx, opts, n, phase) -> int:
    """An expansion's own decision (Halloween: the ghost or the candy of a house just numbered, a
    level claimed or declined, the Ghost bonus's alternative and each unit's place): each option
    is played on the sheet and the one whose evaluation (with the expansion's valuation x_value,
    which prices a claim and a bonus still to place) is highest is chosen, ties to the first.
    Policy `xchoice` 1: always the first option (the fixed policy greedy is measured against)."""
    if int(prm[X_CHOICE] + 0.5) == 1 or prm[BLIND] != 0.0:
        return 0
    ws = new_workspace(R)
    c0, f0, fe0, s0 = cells.copy(), flags.copy(), fences.copy(), sc.copy()
    lg = np.empty(5, dtype=np.int64)
    best = -1e18
    pick = 0
    for k in range(n):
        x_apply(R, cells, flags, fences, sc, p, phase, opts[k], lg)
        v = evaluate(R, prm, cells, flags, fences, sc, p, ctx, ws, -1)
        if v > best:
            best = v
            pick = k
        cells[:, :, :] = c0
        flags[:, :, :] = f0
        fences[:, :, :] = fe0
        sc[:, :] = s0
    return pick
