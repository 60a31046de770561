"""What the rules data files load into: plain frozen dataclasses of sheets, decks, plans,
editions and AAA Opponent cards (datafiles.py and planfile.py build and check them)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.ground.userinput import nearest

ACTIONS = ("fence", "improvement", "park", "pool", "temp", "extension")
MAX_NUMBER = 17  # highest house number a temp worker can make (15 + 2)


@dataclass(frozen=True)
class Street:
    """One street of a sheet."""

    houses: int
    pools: tuple[int, ...]
    parks: tuple[int, ...]


@dataclass(frozen=True)
class Sheet:
    """A score sheet: streets, pools and every score track."""

    name: str
    title: str
    path: str
    provenance: str
    streets: tuple[Street, ...]
    pool_track: tuple[int, ...]
    temp_boxes: int
    temp_majority: tuple[int, ...]
    estate_values: tuple[tuple[int, ...], ...]
    extension_track: tuple[int, ...]
    refusal_track: tuple[int, ...]
    roundabout_track: tuple[int, ...]
    based_on: str = ""  # a designer's copy: the built-in sheet it was copied from
    fences: bool = True  # False: the sheet has no fences (American Dream), none may be drawn
    expansion: str = ""  # an expansion's own sheet (American Dream): played only with it
    # Of the bytes this was parsed from (a label names the content loaded); not part of equality:
    # the same values written out again are the same sheet, deck or plan set.
    sha256: str = field(default="", compare=False)


@dataclass(frozen=True)
class Deck:
    """Construction cards as (number, action index) pairs in a fixed canonical order."""

    name: str
    title: str
    path: str
    provenance: str
    cards: tuple[tuple[int | float, int], ...]  # numbers: 9.75 for a 9¾
    based_on: str = ""  # a designer's copy: the built-in deck it was copied from
    # Of the bytes this was parsed from (a label names the content loaded); not part of equality:
    # the same values written out again are the same sheet, deck or plan set.
    sha256: str = field(default="", compare=False)


PLAN_KINDS = (
    "estates",
    "parks",
    "parks_each",
    "parks_full",
    "pools_full",
    "parks_pools_full",
    "temps",
    "improvements",
    "improvement_columns",
    "street_full",
    "street_ends",
    "extensions_in_street",
    "expansion",  # a goal of an expansion's own (eggs, cones, strings): see welcome_sim/simcore/rules/expansions
)


@dataclass(frozen=True)
class Plan:
    """A city plan: its kind (`estates` for the standard ones) and what it asks for."""

    id: str
    letter: str
    slot: int
    estates: tuple[int, ...]
    first: int
    later: int
    kind: str = "estates"
    street: int = -1  # -1: any street
    same_street: bool = False
    ends: bool = False
    roundabouts: int = 0
    pools: int = 0  # per estate
    extensions: int = 0  # per estate
    count: int = 0
    text: str = ""
    advanced: bool = False
    feature: str = ""  # expansions: a property every estate must have (eggs, cones, ...)
    feature_min: int = 0
    feature_max: int = -1  # -1: no maximum
    goal: str = ""  # kind "expansion": the expansion's goal
    colours: tuple[str, ...] = ()
    scoops: int = 0
    provenance: str = "published"  # this card's own: a published file may not hold a reconstructed card
    invented: bool = False  # made up to fill a set (always reconstructed), not a stand-in for a real card
    note: str = ""  # what about the card is reconstructed, or where it comes from


@dataclass(frozen=True)
class PlanSet:
    """The plan cards of one edition, grouped by letter (slot 0, 1, 2)."""

    name: str
    title: str
    path: str
    provenance: str
    letters: tuple[str, str, str]
    plans: tuple[Plan, ...]
    advanced: bool = False
    based_on: str = ""  # a designer's copy: the built-in plan set it was copied from
    # Of the bytes this was parsed from (a label names the content loaded); not part of equality:
    # the same values written out again are the same sheet, deck or plan set.
    sha256: str = field(default="", compare=False)


@dataclass(frozen=True)
class Edition:
    """An edition: which deck and plans it uses and its rule variants."""

    name: str
    title: str
    path: str
    provenance: str
    deck: str
    plans: str
    default_sheet: str
    extension_same_estate: bool
    tiebreak: str
    extra: dict[str, Any] = field(default_factory=dict)
    advanced_plans: str | None = None
    opponents: str | None = None
    roundabout_track: tuple[int, ...] | None = None
    expert_pass: int = 1  # +1: to the left (next seat), -1: to the right
    solo: str = "aaa"  # "aaa" (opponent cards) or "solo_card" (first edition)
    solo_temp_min: int = 0
    solo_temp_points: int = 0
    expansion_plans: bool = False  # expansions bring their own Plan C cards (Collector's)
    reshuffle_on_first_plan: bool = False  # first edition: the first validator may reshuffle all cards
    # An expansion file's section with this edition's own board: its plans replace the letters
    # they name, its other keys (Ice Cream truck starts) the file's (first edition: "first").
    expansion_section: str = ""


@dataclass(frozen=True)
class Opponent:
    """One AAA Opponent card: points per card given to it, and the plans it validates."""

    level: int
    name: str
    scores: bool
    park: int
    pool: int
    temp: int
    fence: int
    extension: int
    improvement: int
    validates: tuple[str, ...]
    temp_positions: tuple[int, ...]


@dataclass(frozen=True)
class OpponentSet:
    """The AAA Opponent cards of an edition."""

    name: str
    title: str
    path: str
    provenance: str
    opponents: tuple[Opponent, ...]

    def find(self, key: str) -> Opponent:
        """An opponent by level number or name (case-insensitive)."""
        k = key.strip().lower()
        for o in self.opponents:
            if k == str(o.level) or k == o.name.lower():
                return o
        valid = ", ".join(f"{o.level} ({o.name})" for o in self.opponents)
        near = nearest(k, [o.name.lower() for o in self.opponents])
        raise WelcomeSimError(f"--opponent: unknown opponent '{key}'{near}; valid levels/names: {valid}")
