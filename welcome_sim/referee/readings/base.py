"""What every reading of an expansion sheet answers: the base game's answers, which a reading overrides.

One class per expansion (one module each in this package), built from its data file; the replay calls `numbered` after every house
numbered (a card's or an extension's), `round_over` after each round's moves, `round_scored` after
its plan validations (Quack's scoring phases), `cross` for the Ice Cream
bonus an AAA validation card makes the player cross, `choose_side` / `side_missing` for the first
edition's Ice Cream truck whose start the player chooses, `improved` after an Improvement box
crossed, `barricade` for a Fence action that builds a barricade (Zombie Outbreak, whose Zombie
cards the replay applies through `Zombies.move` and `Zombies.hold`), `objective` for the
objective a player circles at set-up and `infiltrate` for a Zoorg infiltrated instead of an action
(Roswell), then `score`, `feature`, `goal`, `aaa_upside` and `aaa_points`. Numbers here are plain
numbers, 9.75 for a 9¾.
"""

from __future__ import annotations

from typing import ClassVar

from welcome_sim.referee.sheet import PlayerSheet


class RefereeExpansion:
    """Base game: no expansion, nothing to add."""

    name = "none"
    # The score card's columns this reading counts (besides expansion_points).
    columns: tuple[str, ...] = ()
    # Every registered reading's columns, in the order registered: the readings package adds a
    # reading's columns when it registers it, so a new expansion's counters need no edit here.
    every_column: ClassVar[list[str]] = []

    def numbered(self, sh: PlayerSheet, s: int, h: int) -> None:
        """House (s, h) was just numbered."""

    def round_over(self, sheets: list[PlayerSheet]) -> None:
        """Every player has played the round (before its plan validations)."""

    def round_scored(self, sheets: list[PlayerSheet], given: list[tuple]) -> None:
        """The round's plan validations are over: what the expansion scores at the round's end after
        them (Quack's scoring phases; the log's kind 21 rows with b = 0 come after the round's
        plans). given: the cards given to the AAA so far, as (number, action) (AAA solo mode; else
        empty)."""

    def cross(self, sh: PlayerSheet, s: int) -> str | None:
        """An AAA validation card makes the player cross street s's bonus; None if legal, else why."""
        return "this expansion has nothing to cross when a validation card comes up"

    def must_cross(self, sh: PlayerSheet) -> bool:
        """An AAA validation card obliges the player to cross something (checked when none was)."""
        return False

    def choose_side(self, sh: PlayerSheet, s: int, side: int) -> str | None:
        """The player chooses the side street s's truck starts from; None if legal, else why."""
        return "this expansion has no truck whose start a player chooses"

    def side_missing(self, sh: PlayerSheet, s: int) -> bool:
        """Numbering a house in street s needs a start side the player has not chosen."""
        return False

    def score(self, sh: PlayerSheet) -> dict[str, int]:
        """The expansion's columns of the score card: every registered reading's, 0 where this one
        counts nothing (the kernel's output has them all, and the referee re-derives them all)."""
        return {"expansion_points": 0, **dict.fromkeys(RefereeExpansion.every_column, 0)}

    def improved(self, sh: PlayerSheet, col: int) -> str:
        """An Improvement box of column col (estate size col + 1) was just crossed; returns what it
        adds to the move's description."""
        return ""

    def barricade(self, sh: PlayerSheet, s: int, h: int) -> str | None:
        """The Fence action builds a barricade in front of house (s, h); None if legal, else why."""
        return "barricades belong to Zombie Outbreak"

    def feature(self, sh: PlayerSheet, s: int, a: int, b: int, name: str) -> int:
        """A Plan C card's measure of the estate a..b (inclusive)."""
        raise ValueError(f"no estate feature '{name}' without its expansion")

    def goal(self, sh: PlayerSheet, plan: dict) -> bool:
        """A Plan C card's goal is met."""
        raise ValueError(f"no goal '{plan.get('goal')}' without its expansion")

    def aaa_validation(self, sh: PlayerSheet, slot: int, given: list[tuple]) -> int | None:
        """AAA solo mode: the validation card of plan slot came up and the AAA reacts on the sheet
        (given: the cards given to it so far, as (number, action)); the value it writes, or None."""
        return None

    def aaa_roundabout(self, sh: PlayerSheet, s: int) -> int | None:
        """AAA solo mode: the player built a roundabout in street s; the value the AAA writes, or
        None."""
        return None

    def final(self, sheets: list[PlayerSheet], aaa: bool) -> None:
        """The game is over, before scoring: comparisons between the players' sheets (aaa: the AAA
        solo mode, where the AAA is the one opponent)."""

    def aaa_points(self, cards: list[tuple], sh: PlayerSheet) -> int:
        """The AAA's points (level 1 and up) from the cards given to it, as (number, action)."""
        return 0

    def objectives(self) -> int:
        """How many objectives a player chooses one of at set-up (0: none)."""
        return 0

    def objective(self, sh: PlayerSheet, k: int) -> str | None:
        """The player circles set-up objective k; None if legal, else why."""
        return "this expansion has no objective to choose at set-up"

    def infiltrate(self, sh: PlayerSheet, s: int, h: int) -> str | None:
        """A Zoorg infiltrated instead of the action at house (s, h); None if legal, else why."""
        return "Zoorgs belong to Roswell"

    def aaa_upside(self, actions: list[str]) -> list[bool]:
        """Which cards given to a scoring AAA (level 1 and up) lie upside down, by their actions in
        the order given."""
        return [False] * len(actions)

    def after_move(self, sh: PlayerSheet, rows: list[list[int]], where: str) -> str:
        """The expansion's rows of the player's decisions right after the move (Halloween: the
        ghost or candy circled); returns what they add to the move's description."""
        if rows:
            raise ValueError(f"{where}: rows of an expansion decision in a game without it: {rows[0]}")
        return ""

    def round_decisions(self, sheets: list[PlayerSheet], rows: list[list[int]], where: str) -> list[str]:
        """The expansion's rows of the round's end, after the plan validations (Halloween: claims
        and Ghost bonuses); returns their descriptions."""
        if rows:
            raise ValueError(f"{where}: rows of an expansion decision in a game without it: {rows[0]}")
        return []

    def validation_card(self, sh: PlayerSheet, slot: int) -> str:
        """AAA solo mode: what validation card `slot` (A, B, C) crosses by its letter; the text."""
        return ""

    def check_events(self, sheets: list[PlayerSheet], rows: list[list[int]]) -> str | None:
        """The log's rows of public events the expansion scores on every sheet (Quack's scoring
        phases, kinds 21 and 22) against the referee's own; None if they agree, else why."""
        if rows:
            return f"rows of an expansion's scoring phases in a game without them: {rows[0]}"
        return None

    # Does the AAA's score on this sheet replace its usual parks, pools, temps, fences and estates
    # (American Dream: none of them exists on the sheet)?
    aaa_own_scoring = False
    tie_shared = False  # a tie on score is broken by complete estates (the core rules)

    def used_action(self, sh: PlayerSheet, s: int, h: int, card_action: str, move_action: int) -> str:
        """The player numbered (s, h) with a combination whose action card is card_action (the
        move's own action code: move_action, -1 none); returns what it adds to the description,
        raises ValueError when the sheet forbids it."""
        return ""

    def validation_crosses(self, sh: PlayerSheet, rows: list[list[int]], where: str) -> str:
        """AAA solo mode: the rows of the bonuses a validation card makes the player choose to cross
        (taken off rows, in order); returns their description."""
        return ""
