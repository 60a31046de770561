"""The greedy family's parameter slots, the layout of its float64 scratch array (`new_workspace`)
and the named bundles its search passes around (NamedTuples of arrays, which Numba passes as flat
structs)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from welcome_sim.simcore.ground.jit import inlined, kernel, leaf
from welcome_sim.simcore.ground.layout import (
    MAX_STREETS,
)
from welcome_sim.simcore.ground.table import (
    P_NCARDS,
    R_DECK_NUM,
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
    LOOK_RACE,
    LOOK_TIE,
    LOOK_BATCH,
    LOOK_ROLL,
    X_PLAN_EXP,
    LOOK_GAP,
    LOOK_FAR,
    LOOK_SHARE,
    N_PARAMS,
) = range(35)

WS_FREQ = 0  # 36 cumulative weights of number codes (numbers.py)
WS_TOP = 36  # 7 sizes x 6 best completion chances
WS_NSEG = WS_TOP + 42  # how many estate records follow (only when a plan needs them)
WS_SEG = WS_NSEG + 1  # per estate: street, first house, size, completion chance, pools, bis
SEG_W = 6
MAX_SEGS = 64
WS_USED = WS_SEG + SEG_W * MAX_SEGS  # scratch: one size's estate records valued for a plan (-1: taken)
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
# What combine() reads of the parameters and the context, copied here by prepare_terms so that
# combine's calls pass neither array (every array argument is seven words pushed per call): the
# weights, solo or not, each plan slot's plan and its exponent (plan_exponent).
T_W_ESTATE, T_W_LONG, T_W_DEAD, T_W_WASTE = T_BLIND + 1, T_BLIND + 2, T_BLIND + 3, T_BLIND + 4
T_W_TEMP, T_TEMP_TARGET, T_SOLO = T_BLIND + 5, T_BLIND + 6, T_BLIND + 7
T_PLAN_ID = T_BLIND + 8  # 3 slots
T_PLAN_EXP = T_PLAN_ID + 3  # 3 slots
T_LEN = T_PLAN_EXP + 3
# Fence trials: the walk of a street with a fence added depends only on that street, so within a
# turn it serves every placement in another street (one record per street and boundary, walked
# when first needed; WS_FMARK says which are walked).
ST_FENCE = ST_TRIAL + 1
# A house's key, street * 16 + house (a street has at most 15 houses): the placement memo and the
# fence records are per key.
N_KEYS = MAX_STREETS * 16
# Extension trials likewise: an extension in a street other than the placement's is walked once a
# turn, one record per source house and side (ST_BIS + 2 * key + side, side 1 toward the right).
ST_BIS = ST_FENCE + N_KEYS
N_RECORDS = ST_BIS + 2 * N_KEYS
WS_TERMS = WS_ST + ST_W * N_RECORDS
WS_FMARK = WS_TERMS + T_LEN
WS_BMARK = WS_FMARK + N_KEYS  # which extension records are walked this turn
# Per street record k: the expansion's street part (hooks.x_street_part), apart from the records
# so that a game without street parts reads and writes nothing more.
WS_XPART = WS_BMARK + 2 * N_KEYS
# The option screen (greedy_options.options): per fence key, extension record (N_KEYS + ...) and
# improvement column (3 * N_KEYS + column), what the option last added to a placement's value,
# and the street of that placement (-1: not measured this turn).
N_GAINS = 3 * N_KEYS + 6
WS_GAIN = WS_XPART + N_RECORDS
WS_GST = WS_GAIN + N_GAINS
# Per house key, its empty run and the codes around it where a placement's record needs no walk
# (greedy_walk.mark_runs): first house (-1: walk), last house, left code, right code.
WS_RUN = WS_GST + N_GAINS
# Per house key, the deck weight of the codes between its run's bounding codes (mark_runs), which
# greedy_walk.fits divides by for every code it checks in the run.
WS_RUN_MASS = WS_RUN + 4 * N_KEYS
WS_LEN = WS_RUN_MASS + N_KEYS
N_CODES = 36  # codes 0..35: numbers 0..17 and the ¾ numbers between them


@kernel
def new_workspace(R):
    """Scratch space for evaluate(): cumulative deck weights and counts of number codes."""
    ws = np.empty(WS_LEN, dtype=np.float64)
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
    clear_workspace(ws)
    return ws


@leaf
def clear_workspace(ws) -> None:
    """ws as new_workspace makes it, but for the deck weights and counts, which depend only on
    the ruleset and are never written after: a workspace made once a batch (Offer.gws) serves
    every turn cleared by this."""
    # Street records are always walked before they are read, and what follows the prepared terms
    # is written before it is read within a search (the marks and gains reset by _placements, the
    # runs by mark_runs, an expansion's street part by the walk of its record): only the rest
    # starts at zero (zeroing all of it was a memset of 11 kB a turn).
    ws[WS_TOP:WS_SLOTS] = 0.0
    ws[WS_POW:WS_ST] = 0.0
    ws[WS_TERMS:WS_FMARK] = 0.0
    for slot in range(3):
        for k in range(POW_N):
            ws[WS_POW + slot * POW_W + k] = np.nan  # no progress cached yet


@inlined
def turn_workspace(R, gws):
    """The batch's workspace gws cleared for a new search, or a new one when the caller has none
    (an Offer made outside the game loop carries an empty gws)."""
    if gws.shape[0] < WS_LEN:
        return new_workspace(R)
    clear_workspace(gws)
    return gws


class Search(NamedTuple):
    """Greedy's search scratch, allocated by choose_greedy once a turn (the look-ahead reuses it
    without allocating)."""

    ws: np.ndarray  # the batch's Offer.gws cleared (turn_workspace), or a new_workspace(R) of its own
    cost: np.ndarray  # (combos,): the AAA's price of the card each combination leaves over
    top: np.ndarray  # (combos, 3, 5): the two best placements per combination, then the best
    # placement taking the expansion's alternative (its value, street, house, number, action)
    mval: np.ndarray  # the placement memo: values per card, house key and code
    mlo: np.ndarray  # ... the codes it holds, from
    mhi: np.ndarray  # ... to
    cand: np.ndarray  # (kept, 9): the best moves, sorted, value first
    # The look-ahead's first imagined round: placement values shared by every future of one
    # candidate, whose sheet they all start from (per adjusted-by-the-temp-worker, house key and
    # code; NaN: not valued yet). Empty: no sharing (greedy's own turn, later imagined rounds).
    share: np.ndarray
