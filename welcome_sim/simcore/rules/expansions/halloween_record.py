"""Halloween's record and the numbers handed out from it (record.allocate), apart from halloween.py
so that halloween_sheet.py can use them too without importing halloween.py."""

from __future__ import annotations

from welcome_sim.simcore.rules.expansions.record import Counters, Record, allocate

RECORD = Record(
    name="halloween",
    title="Halloween",
    stars=3,
    columns=("ghosts", "candies", "ghost_level", "candy_level"),
    columns_doc="Halloween: ghosts and candies circled; the Ghost and Candy level claimed, by the count it asks (4, 6, 9; 0 none)",
    referee="welcome_sim.referee.readings.halloween:Halloween",
    # At least `count` candies circled; at least `count` ghosts and `count` candies circled; every
    # house with a ghost and a candy numbered; in `count` streets, every ghost circled; in the
    # card's street, every candy circled.
    goals=("candies_circled", "ghosts_and_candies", "marked_numbered", "street_ghosts", "street_candies"),
    flags=("F_GHOST", "F_CANDY"),
    sc_slots=(("SC_H_LEVEL", 6), ("SC_H_STEP", 1), ("SC_H_ASKED", 1)),
    log_kinds=("LOG_X_MARK", "LOG_X_CLAIM", "LOG_X_BONUS"),
    hooks=(
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
    ),
    counters=Counters(
        "Halloween: ghosts, candies and the levels claimed",
        "Per player (means): ghosts and candies circled, and the Ghost and Candy level claimed by the count it asks (4, 6 or 9; 0 when none was claimed).",
        ("ghosts", "candies", "ghost_level", "candy_level"),
    ),
    legend="halloween: before a house with a ghost and a candy, 'g' ghost circled, 'c' candy circled, ':' neither yet",
    layout_keys=("marked",),
    layout_words="ghost-and-candy houses",
    not_varied="candy_points",
    score_detail="{ghosts} ghosts, {candies} candies, levels {ghost_level}/{candy_level}",
    text="welcome_sim.textmarks:Halloween",
)
_NUMBERS = allocate(RECORD, "welcome_sim.simcore.rules.expansions.halloween")
X_CODE = _NUMBERS.code  # hooks.py branches on it (codes.py X_*)
O_X_CANDIES = _NUMBERS.out["candies"]
O_X_CANDY_LEVEL = _NUMBERS.out["candy_level"]
O_X_GHOST_LEVEL = _NUMBERS.out["ghost_level"]
O_X_GHOSTS = _NUMBERS.out["ghosts"]
GL_CANDIES = _NUMBERS.goals["candies_circled"]
GL_GHOSTS_CANDIES = _NUMBERS.goals["ghosts_and_candies"]
GL_MARKED_ALL = _NUMBERS.goals["marked_numbered"]
GL_STREET_CANDIES = _NUMBERS.goals["street_candies"]
GL_STREET_GHOSTS = _NUMBERS.goals["street_ghosts"]
# F_GHOST / F_CANDY: the ghost / the candy of this house is circled. SC_H_LEVEL: 6 slots, kind * 3
# + level (kind 0 the Ghost levels, 1 the Candy levels; level 0 the 4-level, 1 the 6, 2 the 9):
# BONUS_OPEN, BONUS_CIRCLED, BONUS_CROSSED, or BONUS_DUE while claimed this round (settled at the
# round's end). SC_H_STEP: the Ghost bonus the player is using: 0 none; 1 + level, its alternative
# still to choose; or H_UNITS + unit * 4 + count, `count` units (H_POOL, H_PARK, H_EXT) still to
# place. SC_H_ASKED: bit kind, the player has been asked for this kind's claim at this round's end.
F_GHOST = _NUMBERS.flags["F_GHOST"]
F_CANDY = _NUMBERS.flags["F_CANDY"]
SC_H_LEVEL = _NUMBERS.sc["SC_H_LEVEL"]
SC_H_STEP = _NUMBERS.sc["SC_H_STEP"]
SC_H_ASKED = _NUMBERS.sc["SC_H_ASKED"]
LOG_X_MARK = _NUMBERS.log["LOG_X_MARK"]
LOG_X_CLAIM = _NUMBERS.log["LOG_X_CLAIM"]
LOG_X_BONUS = _NUMBERS.log["LOG_X_BONUS"]
