"""Rules data files (TOML): loading and validation of sheets, decks, editions and AAA Opponent
cards into plain dataclasses. The shared reader is tomlread.py, the dataclasses datatypes.py, the
plan-card files planfile.py; their names are re-exported here, where the rest of the package
imports them from."""

from __future__ import annotations

from typing import Any

from welcome_sim.errors import DataError, WelcomeSimError
from welcome_sim.simcore.ground.datatypes import (
    ACTIONS,
    MAX_NUMBER,
    PLAN_KINDS,
    Deck,
    Edition,
    Opponent,
    OpponentSet,
    Plan,
    PlanSet,
    Sheet,
    Street,
)
from welcome_sim.simcore.ground.layout import MAX_STREETS, SC_PARK, SC_POOLS
from welcome_sim.simcore.ground.planfile import (
    MAX_PLAN_COUNT,
    PLAN_FIELDS,
    PLAN_FILE_KEYS,
    load_plans,
    plans_from,
)
from welcome_sim.simcore.ground.positions import MARKER_KEY, MARKER_LINE, require_from_one
from welcome_sim.simcore.ground.schema import Keyed, Num, Position, check_keys, shown
from welcome_sim.simcore.ground.tomlread import (
    DATA_DIR,
    HEADER_KEYS,
    LABEL_HASH,
    MAX_POINTS,
    MAX_REFUSALS,
    MAX_TRACK_LEN,
    PROVENANCES,
    Edit,
    _bounded,
    _non_decreasing,
    _read,
    _Reader,
    _resolve,
    _starts_at_zero,
    available,
    based_on,
    is_builtin_label,
    label_name,
)

__all__ = [
    "ACTIONS",
    "DATA_DIR",
    "HEADER_KEYS",
    "LABEL_HASH",
    "MAX_NUMBER",
    "MAX_PLAN_COUNT",
    "MAX_POINTS",
    "MAX_REFUSALS",
    "MAX_TRACK_LEN",
    "PLAN_FIELDS",
    "PLAN_FILE_KEYS",
    "PLAN_KINDS",
    "PROVENANCES",
    "DataError",
    "Deck",
    "Edit",
    "Edition",
    "Opponent",
    "OpponentSet",
    "Plan",
    "PlanSet",
    "Sheet",
    "Street",
    "WelcomeSimError",
    "_Reader",
    "_read",
    "_resolve",
    "available",
    "based_on",
    "check_keys",
    "dump_sheet",
    "is_builtin_label",
    "label_name",
    "load_deck",
    "load_edition",
    "load_extra_cards",
    "load_opponents",
    "load_plans",
    "load_sheet",
    "plans_from",
]

PARK_STREETS = SC_POOLS - SC_PARK  # streets whose parks the score state holds

# What a number in a data file may be, declared once per key (schema.py): scores and track boxes,
# street and house positions (counted from 1: positions.py; a street has at most 15 houses), a
# deck's and a plan's counts.
POINTS = Num(0, MAX_POINTS, "a score value", "points")
TRACK = Num(0, MAX_POINTS, "a track value", "points")
# Streets and houses count from 1; each loader checks them against the sheet, so its message gives
# the range of that very street ("house 18 is not in street 1: use 1 to 10"), not a fixed one.
POSITION = Position()
# Enough for any deck a designer may try (the game's is 81): every table the kernel builds has a
# column per card, so a count of a billion would take gigabytes before any check.
MAX_DECK_CARDS = 300

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


def load_sheet(name_or_path: str, edit: Edit = None) -> Sheet:
    """Load and validate a sheet by built-in name or path (`edit`: a --vary change, checked too)."""
    r = _read(_resolve("sheets", name_or_path), edit)
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
                        f"house {shown(h)} is not in street {i + 1}: use 1 to {houses} (houses count from 1, 1 = leftmost)",
                    )
            if len(set(numbers)) != len(numbers):
                raise sub.fail("pools", "a house is listed twice")
            pools = tuple(h - 1 for h in numbers)  # the file counts from 1, the tables from 0
            _starts_at_zero(sub, "parks", parks, "parks")
            _non_decreasing(sub, "parks", parks, increasing=False)
        except DataError as exc:
            raise r.fail(f"{key}.{exc.key}", exc.problem) from None
        if i >= PARK_STREETS and (pools or len(parks) > 1):
            # The score state keeps parks per street for four streets only (layout SC_PARK).
            raise r.fail(key, f"a street after the {PARK_STREETS}th can have no pools and no park boxes")
        streets.append(Street(houses, pools, parks))
    pool_track = _bounded(r, "pools.track", r.ints("pools.track"))
    _starts_at_zero(r, "pools.track", pool_track, "pools")
    _non_decreasing(r, "pools.track", pool_track, increasing=False)
    n_pools = sum(len(st.pools) for st in streets)
    if len(pool_track) == 1 and n_pools:
        # A track of one value has no box: the streets' pools could never be built.
        raise r.fail(
            "pools.track",
            f"one value is a track with no box, so none of the sheet's {n_pools} pools could be built: "
            "list the points for 0, 1, 2, ... pools (all 0 to build them for no points)",
        )
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
    for key, track, things in (
        ("extensions.track", ext, "extensions"),
        ("refusals.track", refusals, "permit refusals"),
        ("roundabouts.track", roundabouts, "roundabouts"),
    ):
        _starts_at_zero(r, key, track, things)
        if key != "roundabouts.track":
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
    # The expansions shipped, by their data files (each record has one of its name: the contract
    # test checks it), so that this loader of the ground floor reads nothing of the rules above.
    names = available("expansions")
    name = r.get("expansion", str, "")
    if name and name not in names:
        raise r.fail("expansion", f"unknown expansion '{name}'; valid: {', '.join(names)}")
    return name


def load_deck(name_or_path: str, edit: Edit = None) -> Deck:
    """Load and validate a construction deck; totals, where given, must match the table."""
    r = _read(_resolve("decks", name_or_path), edit)
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


def load_opponents(name_or_path: str, edit: Edit = None) -> OpponentSet:
    """Load and validate a set of AAA Opponent cards."""
    r = _read(_resolve("opponents", name_or_path), edit)
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
    from welcome_sim.simcore.ground.numbers import code_value, number_code

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
