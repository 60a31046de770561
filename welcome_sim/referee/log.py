"""The game log's row kinds and the records a replay builds: what every step of the replay shares.

The format of each kind is described in replay.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from welcome_sim.referee.rules import RefRules
from welcome_sim.referee.sheet import PlayerSheet

STACK, MOVE, PLAN, END, DECK, ROUNDABOUT, PASS, AAA_PLAN, SOLO_CARD, X_CROSS, RESHUFFLE, X_SIDE = range(12)
X_ZOMBIE, X_HOLD, X_INVADE = 12, 13, 14
X_SHELTER = 15  # Doomsday AAA: a = street, b = capacity the AAA writes, c = 0 validation card, 1 roundabout
X_OBJECTIVE = 20  # Roswell: the objective circled at set-up
X_PHASE, X_DUCKS = 21, 22  # Quack: a duckling scoring phase scored, and what it paid each sheet
X_MARK, X_CLAIM, X_BONUS = 17, 18, 19  # Halloween's decisions
X_AD_CROSS = 23  # American Dream AAA: a bonus a validation card makes the player cross
# Special cards are numbered after the construction cards: AAA validation cards A, B, C (+0..2),
# the first edition's solo card (+3), then an expansion's own cards (+4 + i: Zombie card i).
X_SPECIAL = 4
ZOMBIE_ROWS = (X_ZOMBIE, X_HOLD, X_INVADE)
END_STACK = 32  # end reason bit: Zombie Outbreak's first stack ran out
END_DECK = 16  # end reason bit: the deck ran out (first edition's solo; Zombie Outbreak's expert deck)
PAIRS = [(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1)]
# Zombie Outbreak's hand modes hold two cards: (number card, action card) positions in the hand.
PAIRS_TWO = [(0, 1), (1, 0)]
ZOMBIE_REBUILDS = 2  # "If the deck is exhausted for the third time, the game ends"
AAA_BOTTOM = 20


class IllegalMove(Exception):
    """A log entry that breaks a rule; the message says which, where and why."""


@dataclass
class RoundRecord:
    """What happened in one round, for display."""

    number: int
    combos: list[tuple[int, str]]
    moves: list[str] = field(default_factory=list)
    validations: list[str] = field(default_factory=list)
    reshuffled: list[int] = field(default_factory=list)
    # What happened before anyone played, as (player or -1 for the table, text): the cards drawn
    # at the round's start (AAA validation cards and what they set off, the first edition's solo
    # card), Zombie Outbreak's Zombie cards.
    events: list[tuple[int, str]] = field(default_factory=list)
    # False for the round Zombie Outbreak's first stack runs out in: it ends the game unplayed.
    played: bool = True


@dataclass
class GameRecord:
    """A replayed game: rounds, final sheets, score cards and ranks."""

    rules: RefRules
    plans: list[int]
    rounds: list[RoundRecord]
    sheets: list[PlayerSheet]
    scores: list[dict[str, int]]
    ranks: list[int]
    end_reasons: list[str]
    aaa: dict[str, int] | None = None  # the AAA's score card (AAA solo mode)


def _expect(rows: list[list[int]], kind: int, slot: int | None, rnd: int) -> list[int]:
    """Consume and return the log row announcing a special card's effect."""
    for e in rows:
        if e[3] == kind and (slot is None or e[4] == slot):
            rows.remove(e)
            return e
    raise IllegalMove(f"round {rnd}: expected a row of kind {kind} for a special card")


def _shelter_row(e: list[int], cause: int) -> bool:
    """A Doomsday AAA shelter row for a validation card (cause 0) or a roundabout (1)."""
    return e[3] == X_SHELTER and e[6] == cause


def _stacks_from(entries: list[list[int]]) -> dict[int, list[int]]:
    stacks: dict[int, list[tuple[int, int]]] = {}
    for e in entries:
        if e[3] == STACK:
            stacks.setdefault(e[4], []).append((e[5], e[6]))
    return {i: [c for _, c in sorted(v)] for i, v in stacks.items()}


def log_number(code: int) -> int | float:
    """A number as the log writes it (twice the number; odd: the number n¾) -> 9 or 9.75."""
    return code // 2 if code % 2 == 0 else code // 2 + 0.75


def show_number(value: int | float) -> str:
    """9 -> '9', 9.75 -> '9¾' (the referee keeps ¾ numbers as floats), as the sheets print them."""
    whole = int(value)
    return str(whole) if value == whole else f"{whole}¾"


def log_code(number: int | float) -> int:
    """The log's code of a number (the inverse of log_number): 9 -> 18, 9.75 -> 19."""
    whole = int(number)
    return 2 * whole + (0 if number == whole else 1)


@dataclass
class Table:
    """A game being replayed: the rules, the log by round and what lies on the table, which every
    step of the replay reads and changes."""

    rules: RefRules
    n_players: int
    by_round: dict[int, list[list[int]]]
    end_round: int = 0  # the round the log ends the game after
    sheets: list[PlayerSheet] = field(default_factory=list)
    deck: list[int] = field(default_factory=list)  # hand modes: top first
    discard: list[int] = field(default_factory=list)
    stacks: list[list[int]] = field(default_factory=list)  # stack modes: top first
    discards: list[list[int]] = field(default_factory=list)
    hand_of: list[list[int]] = field(default_factory=list)
    flipped: list[bool] = field(default_factory=lambda: [False, False, False])
    plans_in_play: list[int | None] = field(default_factory=lambda: [None, None, None])
    aaa_cards: list[int] = field(default_factory=list)
    aaa_plan_points: int = 0
    rebuilt_rounds: list[int] = field(default_factory=list)  # the rounds this round's deck was rebuilt in
    rebuilds: list[int] = field(default_factory=lambda: [0])  # Zombie Outbreak's hand modes: times rebuilt
    aside: list[int] = field(default_factory=list)  # Expert Zombie Outbreak: Zombie cards set aside

    @property
    def n_cards(self) -> int:
        """The construction cards in the deck."""
        return len(self.rules.cards)

    @property
    def hands(self) -> bool:
        """A hand mode (expert, AAA solo, the first edition's solo), not three stacks."""
        return self.rules.deal != "stacks"

    @property
    def zombies(self) -> bool:
        """Zombie Outbreak is in play."""
        return self.rules.expansion is not None and self.rules.expansion.name == "zombies"

    @property
    def zombie_hands(self) -> bool:
        """Zombie Outbreak in a hand mode: two cards in hand and Zombie cards in the deck."""
        return self.zombies and self.hands
