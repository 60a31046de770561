"""Plan-card files: a set of standard (or advanced) plan cards, and the `plans` table an
expansion's file holds, each card checked against what its kind asks for."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from welcome_sim.errors import DataError
from welcome_sim.simcore.ground.datatypes import PLAN_KINDS, Plan, PlanSet
from welcome_sim.simcore.ground.layout import MAX_STREETS
from welcome_sim.simcore.ground.positions import MARKER_KEY, require_from_one
from welcome_sim.simcore.ground.schema import Num, Open, check_keys
from welcome_sim.simcore.ground.tomlread import (
    HEADER_KEYS,
    MAX_POINTS,
    PROVENANCES,
    Edit,
    _read,
    _Reader,
    _resolve,
    based_on,
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
MAX_PLAN_COUNT = 999  # a plan's count: parks, temps, ... or a Doomsday capacity (up to 999)
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


def load_plans(name_or_path: str, edit: Edit = None) -> PlanSet:
    """Load and validate a set of standard plan cards (`edit`: a --vary change, checked too)."""
    r = _read(_resolve("plans", name_or_path), edit)
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
        from welcome_sim.simcore.ground.userinput import nearest

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
