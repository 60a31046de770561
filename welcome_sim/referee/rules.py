"""What the referee knows about one ruleset, as read from the data files by tables.load_rules."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class RefRules:
    """What the referee needs to know about one ruleset."""

    street_len: list[int]
    pool_houses: list[set[int]]
    park_tracks: list[list[int]]
    pool_track: list[int]
    temp_boxes: int
    majority: list[int]
    estate_values: list[list[int]]
    extension_track: list[int]
    refusal_track: list[int]
    actions: list[str]  # action names by column of the deck file
    cards: list[tuple[int, str]]  # (number, action name)
    plans: list[dict]  # the plan table as written (kind, estates, ...) plus slot and sizes
    letters: list[str]
    bis_same_estate: bool
    tiebreak_sizes: bool
    mode: str = "standard"
    advanced: bool = False
    roundabout_track: list[int] | None = None
    deal: str = "stacks"  # stacks | expert | aaa | solo_card
    pass_right: bool = False
    solo_temp_min: int = 0
    solo_temp_points: int = 0
    opponent: dict | None = None  # the AAA Opponent card's table
    expansion: Any = None  # referee.readings.RefereeExpansion
    nine: bool = False  # the 9¾ cards are in the deck
    reshuffle_on_first_plan: bool = False  # first edition: the first to fulfil a plan may reshuffle
