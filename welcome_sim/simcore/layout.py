"""Integer codes and column indices shared by the kernel, its Python wrapper and the log format.

The kernel keeps each player's sheet in a few flat integer arrays; these constants name their
slots. Numba treats module-level ints as compile-time constants, so they cost nothing.
"""

from __future__ import annotations

# Actions, in the order of the deck files' `actions` columns.
FENCE, IMPROVEMENT, PARK, POOL, TEMP, EXTENSION = range(6)
ACTION_NAMES = ("fence", "improvement", "park", "pool", "temp", "extension")
NO_ACTION = -1

# Cell values of `cells[p, street, house]`.
EMPTY = -1
ROUNDABOUT = -2
MAX_NUMBER = 17

# Bits of `flags[p, street, house]`.
F_EXT = 1  # number written by the extension action ("bis")
F_POOL = 2  # pool built (circled)
F_LOCK = 4  # house of an estate used to validate a plan

# Bits of `fences[p, street, boundary]`; boundary b lies left of house b (0 and len are the ends).
B_FENCE = 1
B_LINK = 2  # first edition: a bis and its twin on both sides; no fence may go here

# Columns of the per-player scalar state `sc[p, k]`.
SC_PARK = 0  # 4 slots, one per street
SC_POOLS = 4
SC_TEMPS = 5
SC_EXT = 6
SC_REFUSALS = 7
SC_IMPR = 8  # 6 slots, one per estate size
SC_PLAN_ROUND = 14  # 3 slots: round a plan was validated, 0 if not
SC_PLAN_SCORE = 17  # 3 slots
SC_NUMBERED = 20
SC_ROUNDABOUTS = 21
SC_FENCES = 22
SC_PLAN_FIRST = 23  # 3 slots: 1 if the plan scored its first value
SC_LEN = 26
MAX_STREETS = 4

# The score card: components that add up to the total (penalties subtracted).
SCORE_COMPONENTS = (
    "plan_a",
    "plan_b",
    "plan_c",
    "parks",
    "pools",
    "temps",
    "estates",
    "extension_penalty",
    "refusal_penalty",
)

# Columns of the per-player results `out[game, p, k]`.
OUT_COLUMNS = (
    "total",
    "plan_a",
    "plan_b",
    "plan_c",
    "parks",
    "pools",
    "temps",
    "estates",
    "estate_1",
    "estate_2",
    "estate_3",
    "estate_4",
    "estate_5",
    "estate_6",
    "extension_penalty",
    "refusal_penalty",
    "n_estates",
    "n_estate_1",
    "n_estate_2",
    "n_estate_3",
    "n_estate_4",
    "n_estate_5",
    "n_estate_6",
    "plan_a_round",
    "plan_b_round",
    "plan_c_round",
    "plan_a_first",
    "plan_b_first",
    "plan_c_first",
    "refusals",
    "n_temps",
    "n_extensions",
    "n_parks",
    "n_pools",
    "n_improvements",
    "n_fences",
    "n_numbered",
    "rank",
)
(
    O_TOTAL,
    O_PLAN,  # 3 columns
    _O_PB,
    _O_PC,
    O_PARKS,
    O_POOLS,
    O_TEMPS,
    O_ESTATES,
    O_EST,  # 6 columns, points per estate size
    _E2,
    _E3,
    _E4,
    _E5,
    _E6,
    O_EXT_PEN,
    O_REF_PEN,
    O_N_ESTATES,
    O_N_EST,  # 6 columns, complete estates per size
    _N2,
    _N3,
    _N4,
    _N5,
    _N6,
    O_PLAN_ROUND,  # 3 columns
    _R2,
    _R3,
    O_PLAN_FIRST,  # 3 columns
    _F2,
    _F3,
    O_REFUSALS,
    O_N_TEMPS,
    O_N_EXT,
    O_N_PARKS,
    O_N_POOLS,
    O_N_IMPR,
    O_N_FENCES,
    O_NUMBERED,
    O_RANK,
) = range(len(OUT_COLUMNS))
OUT_LEN = len(OUT_COLUMNS)

# Columns of the per-game results `out_g[game, k]`.
GAME_COLUMNS = ("rounds", "end_reason", "plan_a_id", "plan_b_id", "plan_c_id")
G_ROUNDS, G_END, G_PLAN = 0, 1, 2
G_LEN = len(GAME_COLUMNS)

# End reasons (bits: several can hold in the same round).
END_PLANS, END_REFUSALS, END_FULL, END_ROUND_CAP = 1, 2, 4, 8
END_NAMES = {END_PLANS: "plans", END_REFUSALS: "refusals", END_FULL: "full", END_ROUND_CAP: "round-cap"}

# Game log: int32 rows of LOG_LEN columns [game, round, player, kind, a..h].
LOG_LEN = 12
LOG_STACK = 0  # player=-1; a=stack, b=position from the top, c=card index in the deck file order
LOG_MOVE = 1  # a=combo (-1 refusal), b=street, c=house, d=value, e=action or -1, f,g,h=params
LOG_PLAN = 2  # a=plan slot, b=plan index, c=street, d=first house, e=last house (c=-1: no estate), f=score
LOG_END = 3  # player=-1; a=end reason
