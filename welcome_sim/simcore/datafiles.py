"""Rules data files (TOML): loading and validation into plain dataclasses."""

from __future__ import annotations

import hashlib
import re
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from welcome_sim.errors import DataError, WelcomeSimError
from welcome_sim.simcore.layout import MAX_STREETS, SC_PARK, SC_POOLS
from welcome_sim.simcore.positions import MARKER_KEY, MARKER_LINE, require_from_one
from welcome_sim.simcore.readfile import Unreadable, read_regular
from welcome_sim.simcore.schema import Keyed, Num, Open, check_keys

# What ruleset.data_label() appends to the name of a data file of one's own: its content's hash.
LABEL_HASH = r"\.[0-9a-f]{8}$"


def is_builtin_label(label: str) -> bool:
    """Whether a label made by data_label() names a built-in file (own files carry '.<8 hex>')."""
    return re.search(LABEL_HASH, label) is None


def label_name(label: str) -> str:
    """The name in a label made by data_label(): 'easter.1a2b3c4d' -> 'easter' (the rules a copy of
    an expansion's file lays out); a built-in's label is its name."""
    return re.sub(LABEL_HASH, "", label)


DATA_DIR = Path(__file__).parent / "data"
PARK_STREETS = SC_POOLS - SC_PARK  # streets whose parks the score state holds
ACTIONS = ("fence", "improvement", "park", "pool", "temp", "extension")
PROVENANCES = ("published", "reconstructed")
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
    "expansion",  # a goal of an expansion's own (eggs, cones, strings): see welcome_sim/expansions
)
# Kinds that need `count`, and kinds that need / may take `street`.
_NEEDS_COUNT = {
    "parks",
    "parks_each",
    "parks_full",
    "pools_full",
    "temps",
    "improvements",
    "improvement_columns",
    "extensions_in_street",
}
_NEEDS_STREET = {"street_full"}
_MAY_STREET = {"estates", "parks_pools_full", "street_full"}


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
        raise WelcomeSimError(f"--opponent: unknown opponent '{key}'; valid levels/names: {valid}")


class _Reader:
    """Typed access to a parsed TOML table that reports file and key on error."""

    def __init__(self, path: str, data: dict[str, Any], sha256: str = "") -> None:
        # sha256: of the file's bytes as read, so what is built from them carries their identity
        # (a file changed since is never labelled as what was loaded).
        self.path, self.data, self.sha256 = path, data, sha256

    def fail(self, key: str, problem: str) -> DataError:
        return DataError(self.path, key, problem)

    def get(self, key: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
        node: Any = self.data
        for part in key.split("."):
            if not isinstance(node, dict) or part not in node:
                if default is not ...:
                    return default
                raise self.fail(key, "missing")
            node = node[part]
        if kind is int and isinstance(node, bool):
            raise self.fail(key, f"expected an integer, got {node!r}")
        if not isinstance(node, kind):
            names = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
            raise self.fail(key, f"expected {names}, got {type(node).__name__} {node!r}")
        return node

    def points(self, key: str, default: Any = ...) -> int:
        """A score value: an integer of 0 to MAX_POINTS points."""
        v = self.get(key, int, default)
        if not 0 <= v <= MAX_POINTS:
            raise self.fail(key, f"{v} is not a score value: use 0 to {MAX_POINTS} points")
        return v

    def ints(self, key: str, value: Any = ..., min_len: int = 1) -> tuple[int, ...]:
        seq = self.get(key, list) if value is ... else value
        if len(seq) < min_len:
            raise self.fail(key, f"needs at least {min_len} values, got {len(seq)}")
        for i, v in enumerate(seq):
            if not isinstance(v, int) or isinstance(v, bool):
                raise self.fail(f"{key}[{i}]", f"expected an integer, got {v!r}")
        return tuple(seq)

    def header(self) -> tuple[str, str, str]:
        name = self.get("name", str)
        title = self.get("title", str, name)
        prov = self.get("provenance", str)
        if prov not in PROVENANCES:
            raise self.fail("provenance", f"'{prov}' is not one of {', '.join(PROVENANCES)}")
        return name, title, prov


def _read(path: Path) -> _Reader:
    try:
        raw = read_regular(path)
        text = raw.decode("utf-8")
    except Unreadable as exc:
        raise DataError(str(path), "", exc.problem) from None
    except UnicodeDecodeError as exc:
        raise DataError(
            str(path),
            "",
            f"not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset {exc.start}); save it as UTF-8",
        ) from None
    try:
        return _Reader(str(path), tomllib.loads(text), hashlib.sha256(raw).hexdigest())
    except tomllib.TOMLDecodeError as exc:
        raise DataError(str(path), "", f"not valid TOML: {exc}") from None
    except ValueError as exc:  # an integer of over 4300 digits
        raise DataError(str(path), "", f"not valid TOML: {str(exc).split(':')[0]}") from None


# What rule data can mean: a score track's value (points on a printed box), a track's length
# (boxes on a sheet of at most 4 x 15 houses) and the refusal boxes. Within these, every score a
# game can reach fits the dataset's Int32 score columns, and every round its Int8 round columns.
MAX_POINTS = 999
MAX_TRACK_LEN = 61
MAX_REFUSALS = 20


def _bounded(r: _Reader, key: str, seq: tuple[int, ...], max_len: int = MAX_TRACK_LEN) -> tuple[int, ...]:
    """A track's values within 0..MAX_POINTS and its length within max_len, or a DataError."""
    if len(seq) > max_len:
        raise r.fail(key, f"a track has at most {max_len} boxes, got {len(seq)}")
    for i, v in enumerate(seq):
        if not 0 <= v <= MAX_POINTS:
            raise r.fail(f"{key}[{i}]", f"{v} is not a track value: use 0 to {MAX_POINTS} points")
    return seq


# What a number in a data file may be, declared once per key (schema.py): scores and track boxes,
# street and house positions (counted from 1: positions.py; a street has at most 15 houses), a
# deck's and a plan's counts.
POINTS = Num(0, MAX_POINTS, "a score value", "points")
TRACK = Num(0, MAX_POINTS, "a track value", "points")
# Streets 1..5, houses 1..15. The lower bound is 0, not 1, so that a 0 reaches the loader, whose
# message gives the range of that very street ("house 0 is not in street 1: use 1 to 10").
POSITION = Num(0, 15, "a street or house position (counted from 1)")
# Enough for any deck a designer may try (the game's is 81): every table the kernel builds has a
# column per card, so a count of a billion would take gigabytes before any check.
MAX_DECK_CARDS = 300
MAX_PLAN_COUNT = 999  # a plan's count: parks, temps, ... or a Doomsday capacity (up to 999)

# The keys a sheet file may hold: a typo in an optional key would otherwise be ignored silently.
SHEET_KEYS: dict[str, Any] = {
    "name": None,
    "title": None,
    "provenance": None,
    "source": None,
    "note": None,
    MARKER_KEY: None,
    "streets": [{"houses": Num(1, 15, "a street's length", "houses"), "pools": POSITION, "parks": TRACK}],
    "pools": {"track": TRACK},
    "temps": {"boxes": Num(0, 40, "a number of boxes"), "majority": TRACK},
    "estates": {"values": TRACK},
    "extensions": {"track": TRACK},
    "refusals": {"track": TRACK},
    "roundabouts": {"track": TRACK},
    "expansion": None,
    "based_on": None,
    "fences": None,
}
HEADER_KEYS = ("name", "title", "provenance", "source", "note")
# A plan card's fields: which apply to which kind is _plan's to say (an Open table).
PLAN_FIELDS = Open(
    {
        "estates": Num(1, 6, "an estate size"),
        "first": Num(0, MAX_POINTS, "a plan score", "points"),
        "later": Num(0, MAX_POINTS, "a plan score", "points"),
        "street": Num(1, MAX_STREETS, "a street (counted from 1, 1 = top; leave it out for any street)"),
        "count": Num(0, MAX_PLAN_COUNT, "a plan's count"),
        "roundabouts": Num(0, 2, "a number of roundabouts"),
        "pools": Num(0, 6, "a number of pools per estate"),  # an estate has 1 to 6 houses
        "extensions": Num(0, 6, "a number of extensions per estate"),
        "feature_min": Num(0, 99, "a feature count"),
        "feature_max": Num(-1, 99, "a feature count (-1: no maximum)"),
        "scoops": Num(0, 99, "a number of scoops"),
    }
)
PLAN_FILE_KEYS: dict[str, Any] = {
    **dict.fromkeys((*HEADER_KEYS, "letters", "advanced", "based_on", MARKER_KEY)),
    "plans": [PLAN_FIELDS],
}
_CARD_COUNT = Num(0, MAX_DECK_CARDS, "a card count")
DECK_KEYS: dict[str, Any] = {
    **dict.fromkeys((*HEADER_KEYS, "actions", "based_on")),
    "number_totals": _CARD_COUNT,
    "action_totals": _CARD_COUNT,
    "counts": Keyed(_CARD_COUNT),
}
# An AAA Opponent card: points per card of each action (the rules' ranges), its level, and the
# temp-track positions it validates at (99: none).
OPPONENT_POINTS = {
    "park": Num(0, 4, "allowed by the rules", "points"),
    "pool": Num(0, 5, "allowed by the rules", "points"),
    "temp": Num(1, 2, "allowed by the rules", "points"),
    "fence": Num(1, 3, "allowed by the rules", "points"),
    "extension": Num(1, 4, "allowed by the rules", "points"),
    "improvement": Num(1, 4, "allowed by the rules", "points"),
}
OPPONENT_KEYS: dict[str, Any] = {
    **dict.fromkeys(HEADER_KEYS),
    "opponents": [
        {
            "level": Num(0, 99, "an AAA level"),
            "name": None,
            "scores": None,
            "validates": None,
            "temp_positions": Num(0, 99, "a temp-track position"),
            **OPPONENT_POINTS,
        }
    ],
}


def based_on(r: _Reader, kind: str) -> str:
    """The optional `based_on` key: the built-in file of the same kind a designer's copy was made
    from (what a report compares it with); "" when absent."""
    name = r.get("based_on", str, "")
    if name and name not in available(kind):
        from welcome_sim.userinput import nearest

        valid = ", ".join(available(kind))
        raise r.fail(
            "based_on",
            f"'{name}' is not a built-in {kind[:-1]}{nearest(name, available(kind))}; valid: {valid}",
        )
    return name


def _non_decreasing(r: _Reader, key: str, seq: tuple[int, ...], *, increasing: bool) -> None:
    for i in range(1, len(seq)):
        if seq[i] < seq[i - 1] or (increasing and seq[i] == seq[i - 1]):
            word = "increasing" if increasing else "non-decreasing"
            raise r.fail(f"{key}[{i}]", f"track must be {word}: {seq[i - 1]} then {seq[i]}")


def _resolve(kind: str, name_or_path: str) -> Path:
    """Map a built-in name (e.g. 'classic') or a file path to a data file."""
    candidate = Path(name_or_path)
    if candidate.suffix == ".toml" or candidate.parent != Path("."):
        return candidate
    path = DATA_DIR / kind / f"{name_or_path}.toml"
    if not path.exists() and candidate.exists():
        return candidate  # one's own file in this folder, of any name (mine.txt); the referee's rule too
    if not path.exists():
        valid = ", ".join(available(kind)) or "none"
        raise WelcomeSimError(
            f"unknown {kind[:-1]} '{name_or_path}': built-in {kind} are {valid}; or give a path to a .toml file"
        )
    return path


def available(kind: str) -> list[str]:
    """Names of the built-in data files of one kind ('sheets', 'decks', 'plans', 'editions')."""
    return sorted(p.stem for p in (DATA_DIR / kind).glob("*.toml"))


def load_sheet(name_or_path: str) -> Sheet:
    """Load and validate a sheet by built-in name or path."""
    r = _read(_resolve("sheets", name_or_path))
    require_from_one(r)
    check_keys(r, SHEET_KEYS)
    name, title, prov = r.header()
    raw_streets = r.get("streets", list)
    if not 1 <= len(raw_streets) <= MAX_STREETS:
        raise r.fail("streets", f"a sheet has 1 to {MAX_STREETS} streets, got {len(raw_streets)}")
    streets = []
    for i, raw in enumerate(raw_streets):
        key = f"streets[{i}]"
        if not isinstance(raw, dict):
            raise r.fail(key, "expected a table with houses, pools and parks")
        sub = _Reader(r.path, raw)
        try:
            houses = sub.get("houses", int)
            if not 1 <= houses <= 15:
                raise sub.fail("houses", f"a street has 1 to 15 houses, got {houses}")
            numbers = sub.ints("pools", min_len=0)
            parks = _bounded(sub, "parks", sub.ints("parks"))
            for j, h in enumerate(numbers):
                if not 1 <= h <= houses:
                    raise sub.fail(
                        f"pools[{j}]",
                        f"house {h} is not in street {i + 1}: use 1 to {houses} (houses count from 1, 1 = leftmost)",
                    )
            if len(set(numbers)) != len(numbers):
                raise sub.fail("pools", "a house is listed twice")
            pools = tuple(h - 1 for h in numbers)  # the file counts from 1, the tables from 0
            _non_decreasing(sub, "parks", parks, increasing=False)
        except DataError as exc:
            raise r.fail(f"{key}.{exc.key}", exc.problem) from None
        if i >= PARK_STREETS and (pools or len(parks) > 1):
            # The score state keeps parks per street for four streets only (layout SC_PARK).
            raise r.fail(key, f"a street after the {PARK_STREETS}th can have no pools and no park boxes")
        streets.append(Street(houses, pools, parks))
    pool_track = _bounded(r, "pools.track", r.ints("pools.track"))
    _non_decreasing(r, "pools.track", pool_track, increasing=False)
    temp_boxes = r.get("temps.boxes", int)
    if not 0 <= temp_boxes <= 40:
        raise r.fail("temps.boxes", f"expected 0 to 40 boxes, got {temp_boxes}")
    majority = _bounded(r, "temps.majority", r.ints("temps.majority"))
    values_raw = r.get("estates.values", list)
    if len(values_raw) != 6:
        raise r.fail("estates.values", f"expected 6 columns (estate sizes 1..6), got {len(values_raw)}")
    estate_values = []
    for i, col in enumerate(values_raw):
        key = f"estates.values[{i}]"
        if not isinstance(col, list):
            raise r.fail(key, f"expected a list of values, got {col!r}")
        vals = _bounded(r, key, r.ints(key, col))
        _non_decreasing(r, key, vals, increasing=False)
        estate_values.append(vals)
    ext = _bounded(r, "extensions.track", r.ints("extensions.track"))
    refusals = _bounded(r, "refusals.track", r.ints("refusals.track", min_len=2), MAX_REFUSALS + 1)
    roundabouts = _bounded(
        r, "roundabouts.track", r.ints("roundabouts.track", r.get("roundabouts.track", list, [0]))
    )
    for key, track in (("extensions.track", ext), ("refusals.track", refusals)):
        _non_decreasing(r, key, track, increasing=False)
    return Sheet(
        name,
        title,
        r.path,
        prov,
        tuple(streets),
        pool_track,
        temp_boxes,
        majority,
        tuple(estate_values),
        ext,
        refusals,
        roundabouts,
        based_on(r, "sheets"),
        r.get("fences", bool, True),
        _own_expansion(r),
        r.sha256,
    )


def _own_expansion(r: _Reader) -> str:
    """The sheet's `expansion` key: the expansion whose own sheet it is ('' for none)."""
    # The names the expansions' records declare (registry.py finds their modules by name, so this
    # loader of the ground floor does not import the expansion modules built on it).
    from welcome_sim.expansions.registry import NAMES as EXPANSION_NAMES

    name = r.get("expansion", str, "")
    if name and name not in EXPANSION_NAMES:
        raise r.fail("expansion", f"unknown expansion '{name}'; valid: {', '.join(EXPANSION_NAMES)}")
    return name


def load_deck(name_or_path: str) -> Deck:
    """Load and validate a construction deck; totals, where given, must match the table."""
    r = _read(_resolve("decks", name_or_path))
    check_keys(r, DECK_KEYS)
    name, title, prov = r.header()
    actions = tuple(r.get("actions", list))
    if actions != ACTIONS:
        raise r.fail("actions", f"columns must be {list(ACTIONS)}, got {list(actions)}")
    counts = r.get("counts", dict)
    cards: list[tuple[int, int]] = []
    number_totals = [0] * 15
    action_totals = [0] * 6
    # The deck's size before any card is built (each count is 0..MAX_DECK_CARDS: check_keys).
    total = sum(v for row in counts.values() if isinstance(row, list) for v in row if isinstance(v, int))
    if total > MAX_DECK_CARDS:
        raise r.fail("counts", f"{total} cards; a deck has at most {MAX_DECK_CARDS} cards")
    for key, row in counts.items():
        if not key.isdigit() or not 0 <= int(key) <= 15:
            fraction = any(c in key for c in "¾./")
            extra = " (the 9¾ cards are added with --nine-three-quarters)" if fraction else ""
            raise r.fail(f"counts.{key}", f"house numbers on cards are whole numbers 0..15{extra}")
        n = int(key)
        vals = r.ints(f"counts.{key}", row)
        if len(vals) != 6 or any(v < 0 for v in vals):
            raise r.fail(f"counts.{key}", f"expected 6 non-negative counts, got {list(vals)}")
        for a, c in enumerate(vals):
            cards.extend([(n, a)] * c)
            action_totals[a] += c
            if 1 <= n <= 15:
                number_totals[n - 1] += c
    if len(cards) < 6:
        raise r.fail("counts", f"a deck needs at least 6 cards (two per stack), got {len(cards)}")
    if len(cards) % 3:
        raise r.fail("counts", f"{len(cards)} cards cannot form 3 equal stacks")
    for key, got in (("number_totals", number_totals), ("action_totals", action_totals)):
        want = r.get(key, list, None)
        if want is not None and list(r.ints(key, want)) != got:
            raise r.fail(key, f"the counts table gives {got}, but {key} says {list(want)}")
    cards.sort()
    return Deck(name, title, r.path, prov, tuple(cards), based_on(r, "decks"), r.sha256)


def load_plans(name_or_path: str) -> PlanSet:
    """Load and validate a set of standard plan cards."""
    r = _read(_resolve("plans", name_or_path))
    require_from_one(r)
    check_keys(r, PLAN_FILE_KEYS)
    found = plans_from(r, r.get("letters", list), r.get("advanced", bool, False))
    return replace(found, based_on=based_on(r, "plans"))


def plans_from(
    r: _Reader,
    letters: list,
    advanced: bool,
    goals: tuple[str, ...] = (),
    features: tuple[str, ...] = (),
    colours: tuple[str, ...] = (),
    partial: bool = False,
) -> PlanSet:
    """The `plans` table of a file; an expansion's file names its goals, features and colours
    and may cover only some letters (`partial`)."""
    name, title, prov = r.header()
    if len(letters) != 3 or not all(isinstance(x, str) for x in letters):
        raise r.fail("letters", f"expected three plan letters, got {letters!r}")
    plans = []
    seen = set()
    for i, raw in enumerate(r.get("plans", list)):
        key = f"plans[{i}]"
        if not isinstance(raw, dict):
            raise r.fail(key, "expected a table")
        sub = _Reader(r.path, raw)
        try:
            pid = sub.get("id", str)
            letter = sub.get("letter", str)
            if letter not in letters:
                raise sub.fail("letter", f"'{letter}' is not one of {letters}")
            plan = _plan(sub, pid, letter, letters.index(letter), advanced, goals, features, colours, prov)
        except DataError as exc:
            raise r.fail(f"{key}.{exc.key}", exc.problem) from None
        if pid in seen:
            raise r.fail(f"{key}.id", f"duplicate plan id '{pid}'")
        if plan.provenance == "reconstructed" and prov == "published":
            raise r.fail(
                f"{key}.provenance",
                "a reconstructed card in a file whose provenance is 'published' (mark the file reconstructed)",
            )
        seen.add(pid)
        plans.append(plan)
    for slot, letter in enumerate(letters):
        # Advanced cards join the standard ones, so they need not cover every letter.
        if not (advanced or partial) and not any(p.slot == slot for p in plans):
            raise r.fail("plans", f"no plan with letter '{letter}'")
    return PlanSet(name, title, r.path, prov, tuple(letters), tuple(plans), advanced, sha256=r.sha256)


def _plan(
    sub: _Reader,
    pid: str,
    letter: str,
    slot: int,
    advanced: bool,
    goals: tuple[str, ...] = (),
    features: tuple[str, ...] = (),
    colours: tuple[str, ...] = (),
    file_provenance: str = "published",
) -> Plan:
    """One plan table; every kind checks the fields it needs and rejects the ones it ignores.
    A card's `provenance` defaults to its file's; `invented = true` needs it reconstructed."""
    kind = sub.get("kind", str, "estates")
    kinds = PLAN_KINDS if goals else PLAN_KINDS[:-1]
    if kind not in kinds:
        raise sub.fail("kind", f"'{kind}' is not one of {', '.join(kinds)}")
    allowed = {"id", "letter", "kind", "first", "later", "text", "provenance", "invented", "note"}
    estates: tuple[int, ...] = ()
    if kind == "estates":
        estates = sub.ints("estates")
        if any(not 1 <= s <= 6 for s in estates):
            raise sub.fail("estates", f"estate sizes are 1..6, got {list(estates)}")
        allowed |= {"estates", "same_street", "ends", "roundabouts", "pools", "extensions"}
        if features:
            allowed |= {"feature", "feature_min", "feature_max"}
    if kind == "expansion":
        allowed |= {"goal", "street", "count", "colours", "scoops"}
    if kind == "parks_pools_full":
        allowed.add("roundabouts")
    if kind in _MAY_STREET:
        allowed.add("street")
    if kind in _NEEDS_COUNT:
        allowed.add("count")
    extra = sorted(set(sub.data) - allowed)
    if extra:
        from welcome_sim.userinput import nearest

        raise sub.fail(
            extra[0],
            f"not a field of a '{kind}' plan{nearest(extra[0], allowed)} (fields: {', '.join(sorted(allowed))})",
        )
    # The file counts streets from 1 (1 = top); a Plan holds them from 0, -1 for any street.
    street = sub.get("street", int, ... if kind in _NEEDS_STREET else 0) - 1
    if street < -1 or (street == -1 and "street" in sub.data):
        raise sub.fail(
            "street",
            f"{street + 1} is not a street: streets count from 1 (1 = top); leave `street` out for any street",
        )
    count = sub.get("count", int, ... if kind in _NEEDS_COUNT else 0)
    if kind in _NEEDS_COUNT and count < 1:
        raise sub.fail("count", f"expected at least 1, got {count}")
    rb = sub.get("roundabouts", int, 0)
    if not 0 <= rb <= 2:
        raise sub.fail("roundabouts", f"a sheet holds at most 2 roundabouts, got {rb}")
    pools, exts = sub.get("pools", int, 0), sub.get("extensions", int, 0)
    for key, v in (("pools", pools), ("extensions", exts)):
        if v < 0:
            raise sub.fail(key, f"expected 0 or more, got {v}")
    same = sub.get("same_street", bool, False)
    if same and street >= 0:
        raise sub.fail("same_street", "give either `street` or `same_street`, not both")
    feature = sub.get("feature", str, "")
    if feature and feature not in features:
        raise sub.fail("feature", f"'{feature}' is not one of {', '.join(features)}")
    goal = sub.get("goal", str, ... if kind == "expansion" else "")
    if goal and goal not in goals:
        raise sub.fail("goal", f"'{goal}' is not one of {', '.join(goals)}")
    plan_colours = tuple(sub.get("colours", list, []))
    for i, c in enumerate(plan_colours):
        if c not in colours:
            raise sub.fail(f"colours[{i}]", f"'{c}' is not one of {', '.join(colours) or 'no colours'}")
    prov = sub.get("provenance", str, file_provenance)
    if prov not in PROVENANCES:
        raise sub.fail("provenance", f"'{prov}' is not one of {', '.join(PROVENANCES)}")
    invented = sub.get("invented", bool, False)
    if invented and prov != "reconstructed":
        raise sub.fail("invented", f"an invented card is reconstructed, but its provenance is '{prov}'")
    first, later = sub.get("first", int), sub.get("later", int)
    for key, value in (("first", first), ("later", later)):
        if not 0 <= value <= MAX_POINTS:
            raise sub.fail(key, f"{value} is not a plan score: use 0 to {MAX_POINTS} points")
    if later > first:
        raise sub.fail("later", f"later score {later} exceeds first score {first}")
    return Plan(
        pid,
        letter,
        slot,
        estates,
        first,
        later,
        kind=kind,
        street=street,
        same_street=same,
        ends=sub.get("ends", bool, False),
        roundabouts=rb,
        pools=pools,
        extensions=exts,
        count=count,
        text=sub.get("text", str, ""),
        advanced=advanced,
        feature=feature,
        feature_min=sub.get("feature_min", int, 0),
        feature_max=sub.get("feature_max", int, -1),
        goal=goal,
        colours=plan_colours,
        scoops=sub.get("scoops", int, 0),
        provenance=prov,
        invented=invented,
        note=sub.get("note", str, ""),
    )


def load_opponents(name_or_path: str) -> OpponentSet:
    """Load and validate a set of AAA Opponent cards."""
    r = _read(_resolve("opponents", name_or_path))
    check_keys(r, OPPONENT_KEYS)
    name, title, prov = r.header()
    out = []
    for i, raw in enumerate(r.get("opponents", list)):
        key = f"opponents[{i}]"
        if not isinstance(raw, dict):
            raise r.fail(key, "expected a table")
        sub = _Reader(r.path, raw)
        try:
            level = sub.get("level", int)
            scores = sub.get("scores", bool, True)
            vals = {}
            for k in OPPONENT_POINTS:  # a card that scores names every value (in range: check_keys)
                vals[k] = sub.get(k, int, ... if scores else 0)
            validates = tuple(sub.get("validates", list, []))
            positions = sub.ints("temp_positions", sub.get("temp_positions", list, [99]))
            _non_decreasing(sub, "temp_positions", tuple(-x for x in positions), increasing=False)
        except DataError as exc:
            raise r.fail(f"{key}.{exc.key}", exc.problem) from None
        out.append(
            Opponent(
                level,
                sub.get("name", str, f"level-{level}"),
                scores,
                **vals,
                validates=validates,
                temp_positions=positions,
            )
        )
    if not out:
        raise r.fail("opponents", "no opponent cards")
    return OpponentSet(name, title, r.path, prov, tuple(out))


def load_edition(name_or_path: str) -> Edition:
    """Load and validate an edition file."""
    r = _read(_resolve("editions", name_or_path))
    name, title, prov = r.header()
    tiebreak = r.get("rules.tiebreak", str)
    if tiebreak not in ("estates", "estates_then_sizes"):
        raise r.fail("rules.tiebreak", f"'{tiebreak}' is not one of estates, estates_then_sizes")
    known = {
        "name",
        "title",
        "provenance",
        "source",
        "deck",
        "plans",
        "advanced_plans",
        "opponents",
        "default_sheet",
        "rules",
    }
    solo = r.get("rules.solo", str, "aaa")
    if solo not in ("aaa", "solo_card"):
        raise r.fail("rules.solo", f"'{solo}' is not one of aaa, solo_card")
    direction = r.get("rules.expert_pass", str, "left")
    if direction not in ("left", "right"):
        raise r.fail("rules.expert_pass", f"'{direction}' is not one of left, right")
    rb = r.get("rules.roundabout_track", list, None)
    return Edition(
        name,
        title,
        r.path,
        prov,
        r.get("deck", str),
        r.get("plans", str),
        r.get("default_sheet", str),
        r.get("rules.extension_same_estate", bool),
        tiebreak,
        {k: v for k, v in r.data.get("rules", {}).items()}
        | {k: v for k, v in r.data.items() if k not in known},
        advanced_plans=r.get("advanced_plans", str, None),
        opponents=r.get("opponents", str, None),
        roundabout_track=None
        if rb is None
        else _bounded(r, "rules.roundabout_track", r.ints("rules.roundabout_track", rb)),
        expert_pass=1 if direction == "left" else -1,
        solo=solo,
        solo_temp_min=r.get("rules.solo_temp_min", int, 0),
        solo_temp_points=r.points("rules.solo_temp_points", 0),
        expansion_plans=r.get("rules.expansion_plans", bool, False),
        reshuffle_on_first_plan=r.get("rules.reshuffle_on_first_plan", bool, False),
        expansion_section=r.get("rules.expansion_section", str, ""),
    )


def dump_sheet(sheet: Sheet) -> str:
    """A sheet as TOML text that load_sheet() reads back to an equal Sheet (designer templates)."""

    def ints(xs) -> str:
        return "[" + ", ".join(str(x) for x in xs) + "]"

    lines = [
        f"name = {sheet.name!r}".replace("'", '"'),
        f"title = {sheet.title!r}".replace("'", '"'),
        f'provenance = "{sheet.provenance}"',
        MARKER_LINE,
        "",
    ]
    for st in sheet.streets:
        lines += [
            "[[streets]]",
            f"houses = {st.houses}",
            f"pools = {ints(h + 1 for h in st.pools)}",  # houses count from 1 in files
            f"parks = {ints(st.parks)}",
            "",
        ]
    lines += ["[pools]", f"track = {ints(sheet.pool_track)}", ""]
    lines += ["[temps]", f"boxes = {sheet.temp_boxes}", f"majority = {ints(sheet.temp_majority)}", ""]
    lines += ["[estates]", "values = [" + ", ".join(ints(c) for c in sheet.estate_values) + "]", ""]
    lines += ["[extensions]", f"track = {ints(sheet.extension_track)}", ""]
    lines += ["[refusals]", f"track = {ints(sheet.refusal_track)}", ""]
    lines += ["[roundabouts]", f"track = {ints(sheet.roundabout_track)}", ""]
    if sheet.based_on:
        lines.insert(3, f'based_on = "{sheet.based_on}"')
    return "\n".join(lines)


def load_extra_cards(name_or_path: str) -> Deck:
    """Extra construction cards of one number (the 9¾ cards): `number` and one action per card."""
    from welcome_sim.simcore.numbers import code_value, number_code

    r = _read(_resolve("cards", name_or_path))
    name, title, prov = r.header()
    raw = r.get("number", (str, int, float))
    try:
        number = code_value(number_code(raw))
    except ValueError:
        raise r.fail("number", f"{raw!r} is not a house number (whole numbers and n¾)") from None
    cards = []
    for i, a in enumerate(r.get("actions", list)):
        if a not in ACTIONS:
            raise r.fail(f"actions[{i}]", f"'{a}' is not one of {', '.join(ACTIONS)}")
        cards.append((number, ACTIONS.index(a)))
    return Deck(name, title, r.path, prov, tuple(cards), sha256=r.sha256)
