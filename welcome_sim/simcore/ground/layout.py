"""Integer codes and column indices shared by the kernel, its Python wrapper and the log format.

The kernel keeps each player's sheet in a few flat integer arrays; these constants name their
slots. Numba treats module-level ints as compile-time constants, so they cost nothing.
"""

from __future__ import annotations

# Actions, in the order of the deck files' `actions` columns.
FENCE, IMPROVEMENT, PARK, POOL, TEMP, EXTENSION = range(6)
ACTION_NAMES = ("fence", "improvement", "park", "pool", "temp", "extension")
NO_ACTION = -1

# Cell values of `cells[p, street, house]`: a house number's code (numbers.py: 2 x n, n¾ odd),
# or one of these.
EMPTY = -1
ROUNDABOUT = -2
# Zombie Outbreak: a house the zombies invaded ("Z"), sealed for good. It is no number: numbering
# goes on across it as if it were not there (street_bounds skips it), and it never fits a number.
ZOMBIE = -3
MAX_CODE = 34  # code of 17, the highest number a temp worker can make
TEMP_CODES = 4  # a temp worker moves a number by up to 2, a code by up to 4

# Bits of `flags[p, street, house]`.
F_EXT = 1  # number written by the extension action ("bis")
F_POOL = 2  # pool built (circled)
F_LOCK = 4  # house of an estate used to validate a plan (no fence may divide that estate)
F_USED = 8  # house used by a plan that is not an estate plan (first edition advanced plans)
F_TAKEN = F_LOCK | F_USED  # a house no other plan may use
# The expansions' bits follow (from 1 << F_BASE_BITS), handed out from their records
# (simcore/rules/expansions/record.py allocate; each expansion module names its own F_*).
F_BASE_BITS = 4
F_MAX_BITS = 62  # flags are int64: bits 0..61 stay clear of the sign

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
# Houses sealed for good (Zombie Outbreak's invasions): they count with numbered houses and
# roundabouts toward a full sheet, so the base game's end check reads it. Zero in every other game.
SC_SEALED = 26
# The expansions' slots follow, handed out from their records (simcore/rules/expansions/record.py
# allocate; each expansion module names its own SC_*), up to SC_LEN, which leaves room for
# expansions of one's own (allocate stops with an error naming the module when they do not fit).
SC_BASE_LEN = 27
SC_LEN = 112
BONUS_OPEN, BONUS_CIRCLED, BONUS_CROSSED, BONUS_DUE = 0, 1, 2, 3  # due: circled at round end
MAX_STREETS = 5  # the American Dream sheet has five streets; the others 1 to 4

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
    "roundabout_penalty",
    "expansion_points",
)

# Columns of the per-player results `out[game, p, k]`: the base game's; each expansion's follow,
# allocated from its record (simcore/rules/expansions/record.py; the whole list: simcore/rules/expansions/registry.py OUT_COLUMNS).
BASE_OUT_COLUMNS = (
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
    "roundabout_penalty",
    "n_roundabouts",
    "expansion_points",
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
    O_RB_PEN,
    O_N_RB,
    O_X_POINTS,  # the expansion's points (in the total)
) = range(len(BASE_OUT_COLUMNS))
BASE_OUT_LEN = len(BASE_OUT_COLUMNS)

# Columns of the per-game results `out_g[game, k]`.
# The aaa_* columns hold the AAA opponent's score card in the AAA solo mode (0 otherwise);
# `special_round` is the round a special card came up: the first edition's solo card, or the
# last AAA validation card drawn (0: none).
GAME_COLUMNS = (
    "rounds",
    "end_reason",
    "plan_a_id",
    "plan_b_id",
    "plan_c_id",
    "aaa_total",
    "aaa_plans",
    "aaa_parks",
    "aaa_pools",
    "aaa_temps",
    "aaa_fences",
    "aaa_estates",
    "aaa_n_estates",
    "aaa_cards",
    "special_round",
    "aaa_expansion",
    "check",
)
G_ROUNDS, G_END, G_PLAN = 0, 1, 2
(
    G_AAA_TOTAL,
    G_AAA_PLANS,
    G_AAA_PARKS,
    G_AAA_POOLS,
    G_AAA_TEMPS,
    G_AAA_FENCES,
    G_AAA_ESTATES,
    G_AAA_N_ESTATES,
    G_AAA_CARDS,
    G_SPECIAL_ROUND,
    G_AAA_EXPANSION,  # the AAA's points from the expansion (in aaa_total)
    G_CHECK,  # the kernel's end-of-game invariants: 0, or the CHECK_* bits that failed (not a row)
) = range(5, 17)
G_LEN = len(GAME_COLUMNS)

# End reasons (bits: several can hold in the same round).
# END_STACK: Zombie Outbreak's first stack ran out (the game ends at once, the round unplayed).
END_PLANS, END_REFUSALS, END_FULL, END_ROUND_CAP, END_DECK, END_STACK = 1, 2, 4, 8, 16, 32
# Invariants the kernel checks at the end of every game (bits of G_CHECK): the game ended with an
# end condition holding (not at the round cap: a bug), no player crossed more refusal boxes than
# the track has, or numbered more houses than the sheet has.
CHECK_NO_END, CHECK_REFUSALS, CHECK_HOUSES = 1, 2, 4
CHECK_NAMES = {
    CHECK_NO_END: "the game ended with no end condition holding",
    CHECK_REFUSALS: "a player crossed more refusal boxes than the track has",
    CHECK_HOUSES: "a player numbered more houses than the sheet has",
}
END_NAMES = {
    END_PLANS: "plans",
    END_REFUSALS: "refusals",
    END_FULL: "full",
    END_ROUND_CAP: "round-cap",
    END_DECK: "deck",
    END_STACK: "first-stack",
}

# Game log: int32 rows of LOG_LEN columns [game, round, player, kind, a..h].
LOG_LEN = 12
LOG_STACK = 0  # player=-1; a=stack, b=position from the top, c=card index in the deck file order
LOG_MOVE = 1  # a=combo (-1 refusal), b=street, c=house, d=value, e=action or -1, f,g,h=params
LOG_PLAN = 2  # a=plan slot, b=plan index, c=street, d=first house, e=last house (c=-1: no estate), f=score
LOG_END = 3  # player=-1; a=end reason
LOG_DECK = 4  # hand modes; player=-1; a=position from the top, b=card (>= deck size: special), c=1 reshuffle
LOG_ROUNDABOUT = 5  # a=street, b=house, c=0 before the player's move, 1 after it
LOG_PASS = 6  # a=card, b=seat receiving it, -1 the AAA, -2 the discard pile
LOG_AAA_PLAN = 7  # player=-1; a=plan slot the AAA validates, b=points, c=plan index
LOG_SOLO_CARD = 8  # player=-1; the first edition's solo card came up: every plan turns over
LOG_X_CROSS = 9  # Ice Cream AAA: a validation card makes the player cross a bonus; a=street
# First edition: the first validator reshuffles every card into three new stacks after the round's
# validations; a=the player; kind LOG_STACK rows of the same round follow with the new stacks.
LOG_RESHUFFLE = 10
# First-edition Ice Cream: a=street whose truck start the player chose, b=side (0 left, 1 right).
LOG_X_SIDE = 11
# Zombie Outbreak. A Zombie card surfaced on the first stack (or was drawn, in the hand modes) and
# is applied at once: player=-1, a=card (deck size + SPECIAL_X + its index in the data file's
# `cards`), b=stack (0), or -1 when drawn in a hand mode. For each player, in horde order (street
# 1, 2, 3; in a street the left horde first): kind 13, a horde held with one ammunition (a=street,
# b=side: 0 the left horde, 1 the right); kind 14, a house invaded (a=street, b=house, c=the code
# erased or -1 if it was empty). A barricade is a move row with action fence and f=street,
# g=house, h=1 (a fence has h=-1).
LOG_X_ZOMBIE = 12
LOG_X_HOLD = 13
LOG_X_INVADE = 14
# Doomsday AAA solo mode: the AAA builds a shelter; player=-1, a=street, b=the capacity written,
# c=0 for a validation card (the highest of the last three cards given to it), 1 for a roundabout
# the player built (Advanced mode: a 10 in that street). Kind 16 is reserved.
LOG_X_SHELTER = 15
# Roswell. Kind 20: the infiltration objective a player circled at set-up (round 0; a = its index
# in the data file's `objectives`, 0-based). A Zoorg infiltrated instead of the card's action is a
# move row with action -1 and f=street, g=house (the house just numbered), h=1.
LOG_X_OBJECTIVE = 20
# Quack. Kind 21: a duckling scoring phase is scored; player=-1, a=phase (0 yellow, 1 black, 2
# yellow and black), b=0 at a round's end (a player circled all its ducklings in the round), 1 at
# once (the AAA triggered it with a validation card), 2 at the game's end (never triggered).
# Kind 22, after it, one per player in seat order then the AAA (player=-1, level 1+): a=phase,
# b=the points it paid.
LOG_X_PHASE = 21
LOG_X_DUCKS = 22
# Halloween (rows of an expansion's decisions, after a move or at a round's end after the plan
# validations). Kind 17: a house with a ghost and a candy numbered, one circled: a=street, b=house,
# c=0 the ghost, 1 the candy, d=0 after the move, 1 at the round's end (a bonus extension).
# Kind 18: a level claimed: a=0 Ghost, 1 Candy, b=level (0: 4, 1: 6, 2: 9). Kind 19: the Ghost
# bonus: a=H_ALT (b=the alternative chosen, 0 or 1), a=H_POOL (b=street, c=house), a=H_PARK
# (b=street), a=H_EXT (b=street, c=house copied, d=house filled).
LOG_X_MARK = 17
LOG_X_CLAIM = 18
LOG_X_BONUS = 19
# American Dream AAA solo mode: a validation card makes the player cross a bonus not yet circled
# (one street bonus and two column bonuses a card; rows of the expansion's decisions, phase 2):
# a=0 a street bonus, 1 a column bonus; b=the street or the column. Kind 24 is reserved.
LOG_X_AD_CROSS = 23
# The built-in expansions' log kinds, above, as one table. The log is a documented format (the
# documentation's game-log format names kinds; the referee reads rows with its own numbers,
# referee/log.py), so these are declared here and never move, unlike flag bits and slots: each is named by exactly one record,
# record.allocate hands it out from this table, and tests/test_expansion_contract.py checks the
# table against the records and the referee's numbers. An expansion of one's own gets kinds from
# LOG_X_FREE on.
LOG_X_KINDS = {
    "LOG_X_CROSS": LOG_X_CROSS,
    "LOG_X_SIDE": LOG_X_SIDE,
    "LOG_X_ZOMBIE": LOG_X_ZOMBIE,
    "LOG_X_HOLD": LOG_X_HOLD,
    "LOG_X_INVADE": LOG_X_INVADE,
    "LOG_X_SHELTER": LOG_X_SHELTER,
    "LOG_X_MARK": LOG_X_MARK,
    "LOG_X_CLAIM": LOG_X_CLAIM,
    "LOG_X_BONUS": LOG_X_BONUS,
    "LOG_X_OBJECTIVE": LOG_X_OBJECTIVE,
    "LOG_X_PHASE": LOG_X_PHASE,
    "LOG_X_DUCKS": LOG_X_DUCKS,
    "LOG_X_AD_CROSS": LOG_X_AD_CROSS,
}
LOG_X_FREE = 25

# Hand modes (expert, solo): the six combinations of three cards in hand, as (number card,
# action card) positions in the hand; the third card is the one passed on.
COMBO_NUM = (0, 0, 1, 1, 2, 2)
COMBO_ACT = (1, 2, 0, 2, 0, 1)
# Special cards in hand-mode decks: AAA validation cards A, B, C and the first edition's solo card,
# numbered after the construction cards (deck size + SPECIAL_*).
SPECIAL_VALIDATION = 0  # + plan slot
SPECIAL_SOLO = 3
SPECIAL_X = 4  # + i: an expansion's special card i (Zombie Outbreak's Zombie cards)
# Zombie Outbreak's cards (deck size + kind): the left hordes move right, the right hordes move
# left, all six hordes move.
ZOMBIE_LEFT, ZOMBIE_RIGHT, ZOMBIE_ALL = 0, 1, 2
