"""The layout of the compiled ruleset table: its parameter columns (P_*), rows (R_*), deal and
plan-kind codes.

Everything that reads or writes the table imports these names from here: the ruleset compiler
(ruleset.py), the kernel, the strategies and each expansion module. They sit below all of them,
so an expansion can know the table without importing the compiler that imports it.
"""

from __future__ import annotations

from welcome_sim.simcore.ground.datafiles import PLAN_KINDS
from welcome_sim.simcore.ground.layout import MAX_STREETS

# How cards are dealt (ruleset.MODES maps each game mode to one).
DEAL_STACKS, DEAL_EXPERT, DEAL_AAA, DEAL_SOLO_CARD = 0, 1, 2, 3
# The compiled ruleset is ONE int64 table: passing a single array into compiled functions is far
# cheaper than a tuple of arrays (each call would touch every array's reference count).
# Row 0 holds scalar parameters (P_*); the other rows hold tracks and tables (R_*).
(
    P_NSTREETS,
    P_MAXLEN,
    P_TEMP_BOXES,
    P_EXT_SAME_ESTATE,
    P_TIEBREAK_SIZES,  # ties: TIE_ESTATES, TIE_ESTATES_SIZES or TIE_SHARED
    P_TOTAL_HOUSES,
    P_MAX_REFUSALS,
    P_NPLANS,
    P_NCARDS,
    P_NMAJ,
    P_POOL_LEN,
    P_EXT_LEN,
    P_ADVANCED,  # roundabouts allowed
    P_DEAL,  # DEAL_*
    P_PASS_DIR,  # expert mode: +1 next seat (left), -1 previous seat (right)
    P_RB_MAX,  # roundabouts a sheet can hold in this mode (0 outside Advanced mode)
    P_SOLO_TEMP_MIN,  # first-edition solo: temps score P_SOLO_TEMP_PTS from this many boxes
    P_SOLO_TEMP_PTS,
    P_OPP_LEVEL,  # AAA opponent: level, whether it scores, points per card, validation bits
    P_OPP_SCORES,
    P_OPP_PARK,
    P_OPP_POOL,
    P_OPP_TEMP,
    P_OPP_FENCE,
    P_OPP_EXT,
    P_OPP_IMPR,
    P_OPP_VALIDATES,  # bit slot set: the AAA validates that plan letter
    P_OPP_NPOS,  # level 0: how many entries in R_OPP_POS
    P_EXPANSION,  # expansions.codes X_*: which expansion sheet (0: none)
    P_RESHUFFLE,  # 1: the first validator of a plan may reshuffle every card into three new stacks
    P_NSTACKS,  # stacks of the stack deal (3; Zombie Outbreak: 2)
    # Special cards of an expansion shuffled into the first stack, one into each part of P_X_PART
    # construction cards (Zombie Outbreak: 3 of 10); that stack is never reshuffled and its last
    # card flipped ends the game.
    P_X_SPECIALS,
    P_X_PART,
    # Hand modes with the expansion's special cards: cards in hand when playing (Zombie Outbreak: 2,
    # one for the number, one for the action, then one passed on); 0: the usual 3.
    P_X_HAND,
    # Expert mode with special cards: construction cards per architect in each deck (Zombie
    # Outbreak: 10, plus one Zombie card; the deck is rebuilt twice, then the game ends).
    P_X_DECK_PER,
    # AAA solo mode with special cards: construction cards in each of the deck's three parts
    # (Zombie Outbreak: 20; a Zombie card in each, AAA validation cards in the second and third).
    P_X_AAA_PART,
    # Streets where fences may be drawn: P_NSTREETS, or 0 on a sheet without fences (American
    # Dream); fence_ok reads it in place of P_NSTREETS, so the check costs nothing more.
    P_FENCE_STREETS,
    # Extra cards shuffled into the deck (the 9¾ cards: 3), the last P_NEXTRA of P_NCARDS: the deal
    # deals the other cards as the game without them does and inserts these from a stream of their own.
    P_NEXTRA,
) = range(38)
# Ties on score (P_TIEBREAK_SIZES): more complete estates win; then more of size 1, 2, ... (first
# edition); no tie-break, a shared victory (American Dream).
TIE_ESTATES, TIE_ESTATES_SIZES, TIE_SHARED = 0, 1, 2
R_STREET_LEN = 1  # houses per street
R_PARK_LEN = 2  # values on each street's park track
R_POOL_TRACK = 3
R_TEMP_MAJ = 4  # majority points for 1st, 2nd, 3rd...
R_ESTATE_LEN = 5  # values per improvement column
R_EXT_TRACK = 6
R_REF_TRACK = 7
R_DECK_NUM = 8  # per card, in the deck file's canonical order
R_DECK_ACT = 9
R_PLAN_FIRST = 10  # per plan
R_PLAN_LATER = 11
R_PLAN_SLOT = 12
R_POOL_HOUSE = 13  # + street: 1 where a house has a pool
R_PARK_TRACK = R_POOL_HOUSE + MAX_STREETS  # + street
R_ESTATE_VALS = R_PARK_TRACK + MAX_STREETS  # + size - 1
R_PLAN_NEED = R_ESTATE_VALS + 6  # + size (0..6): complete estates of that size, per plan
R_PLAN_KIND = R_PLAN_NEED + 7  # index into datafiles.PLAN_KINDS
R_PLAN_STREET = R_PLAN_KIND + 1  # -1 any street, -2 all in one street, else that street
R_PLAN_COUNT = R_PLAN_KIND + 2
R_PLAN_RB = R_PLAN_KIND + 3  # roundabouts needed in the plan's street
R_PLAN_MINPOOL = R_PLAN_KIND + 4  # per estate
R_PLAN_MINEXT = R_PLAN_KIND + 5  # per estate
R_PLAN_ENDS = R_PLAN_KIND + 6  # 1: every estate at a street end
R_PLAN_ADV = R_PLAN_KIND + 7  # 1: an advanced plan card
R_RB_TRACK = R_PLAN_KIND + 8  # roundabout penalty by roundabouts built
R_OPP_POS = R_PLAN_KIND + 9  # level 0 AAA: fewest temp boxes for 1st, 2nd, 3rd place
R_POOL_COUNT = R_PLAN_KIND + 10  # per street: how many pool houses
R_AAA_VALUE = R_PLAN_KIND + 11  # per action: rough AAA points a card of it is worth (strategies)
R_PLAN_PLAIN = R_PLAN_KIND + 12  # 1: estates of given sizes anywhere (checked by counts alone)
# Expansions (welcome_sim/simcore/rules/expansions): plan conditions and the sheet's extra layout.
R_PLAN_XFEAT = R_PLAN_KIND + 13  # per plan: FT_* every estate is measured by (0: none)
R_PLAN_XMIN = R_PLAN_KIND + 14  # ... at least this much
R_PLAN_XMAX = R_PLAN_KIND + 15  # ... at most this much (-1: no maximum)
R_PLAN_XGOAL = R_PLAN_KIND + 16  # kind "expansion": GL_* goal
R_PLAN_XARG = R_PLAN_KIND + 17  # the goal's argument (a colour bit mask, scoops)
R_X_HOUSE = R_PLAN_KIND + 18  # + street: per house, eggs (Easter) or scoops (Ice Cream)
R_X_COLOUR = R_X_HOUSE + MAX_STREETS  # + street: per house, the egg colour index (-1 none)
R_X_TABLE = R_X_COLOUR + MAX_STREETS  # per whole number: eggs its loops circle; Ice: direction per street
R_X_SCORE = R_X_TABLE + 1  # the expansion's scoring figures (see its module)
R_X_AAA = R_X_TABLE + 2  # the AAA's scoring figures (see the module)
N_ROWS = R_X_TABLE + 3

# Plan kind codes, in datafiles.PLAN_KINDS order.
(
    PK_ESTATES,
    PK_PARKS,
    PK_PARKS_EACH,
    PK_PARKS_FULL,
    PK_POOLS_FULL,
    PK_PARKS_POOLS_FULL,
    PK_TEMPS,
    PK_IMPROVEMENTS,
    PK_IMPR_COLUMNS,
    PK_STREET_FULL,
    PK_STREET_ENDS,
    PK_EXT_IN_STREET,
    PK_EXPANSION,
) = range(len(PLAN_KINDS))
