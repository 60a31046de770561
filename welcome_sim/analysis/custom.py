"""How a sweep's data files of one's own (sheets, decks, plan sets, expansions) differ from the
built-in files they were copied from: the report's account of a designer's variant.

A file's own `based_on` key names the built-in it was copied from; without one, the built-in of
the same kind with the fewest differences is taken; a copy of an expansion's file is compared with
the built-in file of the expansion its `name` says it lays out. A file is compared only if it still holds the
content the sweep recorded (its sha256 in the manifest): a file gone, changed or no longer valid
gives an entry saying so, never a comparison with other content.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from welcome_sim.errors import DataError, WelcomeSimError
from welcome_sim.simcore.ground.datafiles import (
    ACTIONS,
    DATA_DIR,
    Deck,
    PlanSet,
    Sheet,
    available,
    load_deck,
    load_plans,
    load_sheet,
)
from welcome_sim.simcore.rules.expansions import Expansion, load_expansion
from welcome_sim.sweep.store import file_digest

# Manifest kinds compared, with their data folder and loader.
KINDS: dict[str, tuple[str, Any]] = {
    "sheet": ("sheets", load_sheet),
    "deck": ("decks", load_deck),
    "plans": ("plans", load_plans),
    "expansion": ("expansions", load_expansion),
}
# Plan fields that say what a card asks and scores; its wording and provenance notes are not rules.
PLAN_RULE_FIELDS = (
    "letter",
    "kind",
    "estates",
    "first",
    "later",
    "street",
    "same_street",
    "ends",
    "roundabouts",
    "pools",
    "extensions",
    "count",
)


def _text(value: Any) -> str:
    """A value as the difference lines show it: tracks as '0,2,4,10', nothing as '(none)'."""
    if value is None:
        return "(none)"
    if isinstance(value, (tuple, list)):
        return ",".join(_text(v) for v in value) if value else "(empty)"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _change(key: str, built_in: Any, custom: Any) -> dict[str, str]:
    b, c = _text(built_in), _text(custom)
    return {"key": key, "built_in": b, "custom": c, "text": f"{key}: {b} -> {c}"}


def _compare(pairs: list[tuple[str, Any, Any]]) -> list[dict[str, str]]:
    return [_change(key, b, c) for key, b, c in pairs if b != c]


def sheet_differences(built_in: Sheet, custom: Sheet) -> list[dict[str, str]]:
    """Every layout and track value that differs, street by street (streets and houses 1-based)."""
    pairs: list[tuple[str, Any, Any]] = []
    for s in range(max(len(built_in.streets), len(custom.streets))):
        b = built_in.streets[s] if s < len(built_in.streets) else None
        c = custom.streets[s] if s < len(custom.streets) else None
        if b is None or c is None:
            pairs.append((f"street {s + 1}", _street_text(b), _street_text(c)))
            continue
        pairs.append((f"houses street {s + 1}", b.houses, c.houses))
        pairs.append((f"pool houses street {s + 1}", _houses(b.pools), _houses(c.pools)))
        pairs.append((f"parks track street {s + 1}", b.parks, c.parks))
    pairs += [
        ("pools track", built_in.pool_track, custom.pool_track),
        ("temps boxes", built_in.temp_boxes, custom.temp_boxes),
        ("temps majority", built_in.temp_majority, custom.temp_majority),
    ]
    for size in range(6):
        pairs.append(
            (f"estate values size {size + 1}", built_in.estate_values[size], custom.estate_values[size])
        )
    pairs += [
        ("extensions (bis) track", built_in.extension_track, custom.extension_track),
        ("refusals track", built_in.refusal_track, custom.refusal_track),
        ("roundabouts track", built_in.roundabout_track, custom.roundabout_track),
    ]
    return _compare(pairs)


def _houses(pools: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(h + 1 for h in pools)


def _street_text(street: Any) -> str | None:
    if street is None:
        return None
    return f"{street.houses} houses, pools at {_text(_houses(street.pools))}, parks {_text(street.parks)}"


def deck_differences(built_in: Deck, custom: Deck) -> list[dict[str, str]]:
    """Card counts that differ, per house number and action, and the deck's size."""

    def counts(deck: Deck) -> dict[tuple[Any, int], int]:
        out: dict[tuple[Any, int], int] = {}
        for card in deck.cards:
            out[card] = out.get(card, 0) + 1
        return out

    b, c = counts(built_in), counts(custom)
    pairs: list[tuple[str, Any, Any]] = [("cards", len(built_in.cards), len(custom.cards))]
    for number, action in sorted(b.keys() | c.keys()):
        pairs.append(
            (f"cards {number} {ACTIONS[action]}", b.get((number, action), 0), c.get((number, action), 0))
        )
    return _compare(pairs)


def _as_in_file(plan: Any) -> dict[str, Any]:
    """A plan's fields as its file writes them: its street counted from 1 ('any' for none)."""
    fields = asdict(plan)
    fields["street"] = "any" if plan.street < 0 else plan.street + 1
    return fields


def plan_differences(built_in: PlanSet, custom: PlanSet) -> list[dict[str, str]]:
    """Letters, and per plan id every rule field that differs; a card only one side has is shown
    whole against '(none)'."""
    from welcome_sim.plantext import requirement

    pairs: list[tuple[str, Any, Any]] = [("letters", built_in.letters, custom.letters)]
    b = {p.id: p for p in built_in.plans}
    c = {p.id: p for p in custom.plans}
    for pid in [*b, *(k for k in c if k not in b)]:
        if pid not in c or pid not in b:
            card = b.get(pid) or c[pid]
            whole = f"{card.letter}: {requirement(card)} ({card.first}/{card.later})"
            pairs.append((f"plan {pid}", whole if pid in b else None, whole if pid in c else None))
            continue
        old, new = _as_in_file(b[pid]), _as_in_file(c[pid])
        pairs += [(f"plan {pid} {field}", old[field], new[field]) for field in PLAN_RULE_FIELDS]
    return _compare(pairs)


# Keys of an expansion's file that are not rules: its header, the publisher's rating (a copy's own
# rating is not the publisher's) and its Plan cards (compared card by card).
_NOT_RULES = (
    "name",
    "title",
    "provenance",
    "source",
    "note",
    "publisher_stars",
    "publisher_stars_note",
    "race_rule",  # the rule quoted that makes it a race: words, not a value played
    "plans",
)


def _flat(prefix: str, value: Any, out: dict[str, Any]) -> None:
    """Nested tables and lists of tables as dotted keys ('eggs[3].house'); lists of plain values
    stay whole (a track reads as one value)."""
    if isinstance(value, dict):
        for k, v in value.items():
            _flat(f"{prefix}.{k}" if prefix else str(k), v, out)
    elif isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
        for i, v in enumerate(value):
            _flat(f"{prefix}[{i + 1}]", v, out)
    else:
        out[prefix] = value


def expansion_differences(built_in: Expansion, custom: Expansion) -> list[dict[str, str]]:
    """Every value of an expansion's file that differs from the built-in file of the expansion it
    lays out (its `name`), by dotted key (lists 1-based), then its Plan cards as plan sets are."""
    b: dict[str, Any] = {}
    c: dict[str, Any] = {}
    for data, out in ((built_in.data, b), (custom.data, c)):
        for k, v in data.items():
            if k not in _NOT_RULES:
                _flat(str(k), v, out)
    pairs = [(key, b.get(key), c.get(key)) for key in [*b, *(k for k in c if k not in b)]]
    return _compare(pairs) + plan_differences(built_in.plans, custom.plans)


DIFFERENCES = {
    "sheet": sheet_differences,
    "deck": deck_differences,
    "plans": plan_differences,
    "expansion": expansion_differences,
}


def manifest_label(f: dict[str, Any]) -> str:
    """The label the rows give a manifest's file of one's own: its name and 8 hex digits of its sha256."""
    return f"{f.get('name')}.{str(f.get('sha256', ''))[:8]}"


def unchanged_own_files(manifests: Iterable[dict], kinds: tuple[str, ...] | None = None) -> dict[str, str]:
    """label -> path of every file of one's own (of these kinds) that the sweeps' manifests record
    and that still holds the bytes they played (same sha256); a file changed or gone is left out."""
    out: dict[str, str] = {}
    for manifest in manifests:
        for f in manifest.get("data_files", []):
            shown, sha = str(f.get("path", "")), str(f.get("sha256", ""))
            if (kinds is not None and f.get("kind") not in kinds) or is_shipped(shown) or not sha:
                continue
            if Path(shown).is_file() and file_digest(shown) == sha:
                out[manifest_label(f)] = shown
    return out


def _entry(f: dict[str, Any], status: str, message: str, **more: Any) -> dict[str, Any]:
    return {
        "kind": f.get("kind"),
        "name": f.get("name"),
        "label": manifest_label(f),
        "path": f.get("path"),
        "status": status,
        "message": message,
        "based_on": None,
        "based_on_source": None,
        "differences": [],
    } | more


def is_shipped(shown: str) -> bool:
    """Manifest paths of shipped files read 'data/<kind>/<file>' (ruleset.display_path)."""
    return shown.startswith("data/") and (DATA_DIR / shown.removeprefix("data/")).is_file()


def custom_differences(manifest: dict) -> list[dict]:
    """For every sheet, deck, plan set or expansion of one's own that a sweep manifest records: what differs
    from the built-in it was copied from (its `based_on`, else the nearest built-in of its kind),
    or why it cannot be compared (file gone, changed since the sweep, no longer valid)."""
    out: list[dict] = []
    seen: set[str] = set()
    for f in manifest.get("data_files", []):
        kind, shown = f.get("kind"), str(f.get("path", ""))
        if kind not in KINDS or is_shipped(shown) or shown in seen:
            continue
        seen.add(shown)
        folder, load = KINDS[kind]
        path = Path(shown)
        if not path.is_file():
            out.append(_entry(f, "missing", f"{shown}: file not found; it cannot be compared"))
            continue
        digest = file_digest(str(path))
        if digest != f.get("sha256"):
            out.append(
                _entry(
                    f,
                    "changed",
                    f"{shown}: changed since the sweep (sha256 {str(f.get('sha256'))[:12]}.. then, "
                    f"{digest[:12]}.. now); the sweep's version cannot be compared",
                )
            )
            continue
        try:
            custom = load(str(path))
        except (DataError, WelcomeSimError) as exc:
            out.append(_entry(f, "invalid", f"{shown}: no longer loads ({exc})"))
            continue
        diff = DIFFERENCES[kind]
        if kind == "expansion":
            # A copy of an expansion's file names the expansion whose rules it lays out.
            base, source = custom.name, "name"
            changes = diff(load(base), custom)
        elif custom.based_on:
            base, source = custom.based_on, "based_on"
            changes = diff(load(base), custom)
        else:
            # The nearest built-in: fewest differences, then the first name in order.
            scored = [(len(d), name, d) for name in available(folder) for d in [diff(load(name), custom)]]
            _, base, changes = min(scored, key=lambda t: (t[0], t[1]))
            source = "nearest"
        how = {"based_on": "its based_on key", "name": "its name key"}.get(source, "the nearest built-in")
        message = f"{shown}: {len(changes)} difference{'s' * (len(changes) != 1)} from {kind} {base} ({how})"
        out.append(_entry(f, "compared", message, based_on=base, based_on_source=source, differences=changes))
    return out
