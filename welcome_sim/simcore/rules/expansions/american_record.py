"""The American Dream's record and the numbers handed out from it (record.allocate), apart from
american.py so that american_sheet.py and american_value.py can use them too without importing
american.py."""

from __future__ import annotations

from welcome_sim.simcore.rules.expansions.record import Counters, Record, allocate

AD_MAX_COLUMNS = 12  # the American Dream sheet's columns (its streets are offset along them)

RECORD = Record(
    name="american-dream",
    title="The American Dream",
    stars=1,
    columns=("perfect", "columns_complete", "column_bonuses", "street_bonuses"),
    columns_doc="The American Dream: perfect houses (circled: the combination's action matched the house's family), complete columns, x2 column bonuses and 10-point street bonuses circled",
    referee="welcome_sim.referee.readings.american_dream:AmericanDream",
    # Every house of the card's colours perfect; every house of its colours numbered; at least
    # `count` complete columns of perfect houses only; at least `count` complete columns; `count`
    # complete columns side by side; at least `count` complete streets of perfect houses only; at
    # least `count` complete streets; `count` x `count` perfect houses side by side in `count`
    # consecutive streets and as many consecutive columns ("9 perfect adjacent houses forming a
    # 3x3 square").
    goals=(
        "colours_perfect",
        "colours_numbered",
        "perfect_columns",
        "complete_columns",
        "adjacent_columns",
        "perfect_streets",
        "complete_streets",
        "perfect_square",
    ),
    flags=("F_PERFECT",),
    sc_slots=(("SC_AD_STREET", 5), ("SC_AD_COLUMN", AD_MAX_COLUMNS), ("SC_AD_OWED", 1), ("SC_AD_PERFECT", 1)),
    log_kinds=("LOG_X_AD_CROSS",),
    hooks=(
        ("x_on_action", "on_action"),
        ("x_options", "options"),
        ("x_apply", "apply"),
        ("x_round_end", "round_end"),
        ("x_validation_card", "validation"),
        ("x_score", "score"),
        ("x_goal", "goal"),
        ("x_aaa", "aaa_points"),
        ("x_street_part", "street_part"),
        ("x_sheet_value", "sheet_value"),
        ("x_progress", "progress"),
        ("x_aaa_card", "aaa_card"),
    ),
    counters=Counters(
        "The American Dream: perfect houses, columns and bonuses",
        "Per player (means): perfect houses (circled: the action matched the family), complete columns, x2 column bonuses and 10-point street bonuses circled.",
        ("perfect", "columns_complete", "column_bonuses", "street_bonuses"),
    ),
    layout_keys=("houses",),
    layout_words="house families",
    not_varied="families, column_offsets, aaa_card_points (levels 2-5)",
    score_detail="{perfect} perfect, {columns_complete} columns, x2 {column_bonuses}, streets {street_bonuses}",
    text="welcome_sim.textmarks:AmericanDream",
    # Its AAA rules are written for the Collector's AAA opponent: the first edition's solo variant
    # is refused, as for Zombie Outbreak and Roswell.
    aaa_solo_only=True,
    # "cannot be played with the Advanced Mode"; "You must play only with the American Dream
    # Expansion Plan cards" (ruleset.py reads both through compile.py).
    no_advanced=True,
    # "The architect with the highest score wins the game. In case of a tie, the victory is
    # shared": no estate tie-break on this sheet (ruleset.py reads it through compile.py).
    tie_shared=True,
    own_plans=True,
)
_NUMBERS = allocate(RECORD, "welcome_sim.simcore.rules.expansions.american")
X_CODE = _NUMBERS.code  # hooks.py branches on it (codes.py X_*)
O_X_COLUMN_BONUSES = _NUMBERS.out["column_bonuses"]
O_X_COLUMNS = _NUMBERS.out["columns_complete"]
O_X_PERFECT = _NUMBERS.out["perfect"]
O_X_STREET_BONUSES = _NUMBERS.out["street_bonuses"]
GL_ADJACENT_COLUMNS = _NUMBERS.goals["adjacent_columns"]
GL_COLOURS_NUMBERED = _NUMBERS.goals["colours_numbered"]
GL_COLOURS_PERFECT = _NUMBERS.goals["colours_perfect"]
GL_COMPLETE_COLUMNS = _NUMBERS.goals["complete_columns"]
GL_COMPLETE_STREETS = _NUMBERS.goals["complete_streets"]
GL_PERFECT_COLUMNS = _NUMBERS.goals["perfect_columns"]
GL_PERFECT_SQUARE = _NUMBERS.goals["perfect_square"]
GL_PERFECT_STREETS = _NUMBERS.goals["perfect_streets"]
# F_PERFECT: the house is perfect (circled: the combination's action matched its family). Its own
# five-street sheet has no park, truck, horde or shelter: SC_AD_STREET, 5 slots, each street's
# 10-point bonus, BONUS_*; SC_AD_COLUMN, AD_MAX_COLUMNS slots, each column's x2 bonus, BONUS_*;
# SC_AD_OWED, bonuses an AAA validation card still makes the player cross (street bonuses * 4 +
# column bonuses); SC_AD_PERFECT, perfect houses circled.
F_PERFECT = _NUMBERS.flags["F_PERFECT"]
SC_AD_STREET = _NUMBERS.sc["SC_AD_STREET"]
SC_AD_COLUMN = _NUMBERS.sc["SC_AD_COLUMN"]
SC_AD_OWED = _NUMBERS.sc["SC_AD_OWED"]
SC_AD_PERFECT = _NUMBERS.sc["SC_AD_PERFECT"]
LOG_X_AD_CROSS = _NUMBERS.log["LOG_X_AD_CROSS"]
