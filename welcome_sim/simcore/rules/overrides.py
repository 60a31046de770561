"""Varied values: `PATH=V1,V2,...` naming one value of a data file the game uses, parsed, and
applied to a copy of that file's parsed table before its loader's own checks run.

A path's first part names the file: `sheet`, `deck`, `plans`, `opponents` or `expansion.<name>`;
the rest are the file's own keys (`expansion.zombies.start_ammunition`, `sheet.pools.track`).
In an array of tables a part picks one table: a plan card by its `id` (`plans.A-1.first`), an
AAA Opponent card by its level or name (`opponents.1.park`, `opponents.sam.park`), anything else
by its position counted from 1, as every data file counts streets and houses (`positions = "from
1"`: `sheet.streets.2.parks` is the second street from the top, as `sheet show` draws it). A plan
card's `scores` is its two scores together (`plans.A-1.scores=6/3`: first 6, later 3).

A value has the type of the value it replaces: a whole number, true/false, a word, or a list
written with `/` between its items (`sheet.streets.2.parks=0/2/4/6/16`). `A..B` and `A..B/step`
list the whole numbers from A to B. The loader then validates the changed table exactly as it
validates a file (ranges, lengths, order), so a value out of range is its one-line error, named
here with the --vary value that caused it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from welcome_sim.errors import WelcomeSimError

# The files a path may name, by its first part; `expansion` is followed by the expansion's name.
PARTS = ("sheet", "deck", "plans", "opponents", "expansion")
MAX_VALUES = 200  # values of one --vary: each is a grid cell of --games games
# A value's characters: numbers, words, '/' between a list's items ('..' in a range). No ';',
# '=' or ',' (they separate paths, values and the labels' parts) and no spaces.
_VALUE = re.compile(r"[A-Za-z0-9_+./-]+")
_PART = re.compile(r"[A-Za-z0-9_-]+")
_RANGE = re.compile(r"(-?\d+)\.\.(-?\d+)(?:/(\d+))?")
# What a row's `vary` column joins one cell's values with.
LABEL_SEP = "; "
OPTION = "--vary"


@dataclass(frozen=True)
class Override:
    """One varied value: the path as given and the value's text (a grid cell's label)."""

    path: str
    value: str

    @property
    def part(self) -> str:
        """The file the path names: sheet, deck, plans, opponents or expansion."""
        return self.path.split(".", 1)[0]

    @property
    def keys(self) -> tuple[str, ...]:
        """The path's parts inside the file (after `expansion.<name>` for an expansion)."""
        parts = self.path.split(".")
        return tuple(parts[2:] if self.part == "expansion" else parts[1:])

    @property
    def target(self) -> str:
        """The expansion a path names (`expansion.zombies...` -> 'zombies'), or ''."""
        return self.path.split(".")[1] if self.part == "expansion" else ""

    @property
    def label(self) -> str:
        """`path=value`, as rows, the manifest and the report name the cell."""
        return f"{self.path}={self.value}"

    def fail(self, problem: str) -> WelcomeSimError:
        """A one-line error naming this --vary value."""
        return WelcomeSimError(f"{OPTION} {self.label}: {problem}")


Overrides = tuple[Override, ...]


def check_path(path: str, option: str = OPTION) -> str:
    """A path's syntax: known file part, then non-empty parts; else a one-line error."""
    from welcome_sim.simcore.ground.userinput import nearest

    parts = path.split(".")
    if not path or not all(_PART.fullmatch(p) for p in parts):
        raise WelcomeSimError(
            f"{option} {path}=...: '{path}' is not a path: parts of letters, digits, '_' or '-' "
            "joined by '.' (e.g. plans.A-1.scores, sheet.streets.2.parks, expansion.zombies.start_ammunition)"
        )
    if parts[0] not in PARTS:
        raise WelcomeSimError(
            f"{option} {path}=...: unknown file part '{parts[0]}'{nearest(parts[0], PARTS)}; a path starts "
            f"with one of {', '.join(PARTS)}"
        )
    need = 3 if parts[0] == "expansion" else 2
    if len(parts) < need:
        what = "expansion.<name>.<key>" if parts[0] == "expansion" else f"{parts[0]}.<key>"
        raise WelcomeSimError(f"{option} {path}=...: name a value in the file: {what}")
    if parts[0] == "expansion":
        from welcome_sim.simcore.rules.expansions.codes import EXPANSION_NAMES

        if parts[1] not in EXPANSION_NAMES:
            raise WelcomeSimError(
                f"{option} {path}=...: unknown expansion '{parts[1]}'{nearest(parts[1], EXPANSION_NAMES)}; "
                f"valid: {', '.join(EXPANSION_NAMES)}"
            )
    return path


def parse_vary(text: str, option: str = OPTION) -> tuple[Override, ...]:
    """'PATH=V1,V2,...' or 'PATH=A..B/step' -> one Override per value, in the order given."""
    if "=" not in text:
        raise WelcomeSimError(
            f"{option}: {text!r} has no '='; give PATH=V1,V2,... (e.g. plans.A-1.scores=6/3,8/4) or PATH=A..B/step"
        )
    path, _, rest = text.partition("=")
    path = check_path(path.strip(), option)
    values: list[str] = []
    for item in rest.split(","):
        item = item.strip()
        if not item:
            raise WelcomeSimError(f"{option} {path}={rest}: an empty value; give values separated by ','")
        if ".." in item:
            values += _expand_range(path, item, option)
        elif not _VALUE.fullmatch(item):
            raise WelcomeSimError(
                f"{option} {path}={item}: not a value: a number, a word, true/false, or a list with '/' "
                "between its items (6/3)"
            )
        else:
            values.append(item)
    twice = sorted({v for v in values if values.count(v) > 1})
    if twice:
        raise WelcomeSimError(f"{option} {path}: value {twice[0]} is listed twice; give each value once")
    if len(values) > MAX_VALUES:
        raise WelcomeSimError(
            f"{option} {path}: {len(values)} values; at most {MAX_VALUES} (each is a grid cell)"
        )
    return tuple(Override(path, v) for v in values)


def _expand_range(path: str, item: str, option: str) -> list[str]:
    """'A..B' or 'A..B/step' -> the whole numbers A, A+step, ... up to B."""
    m = _RANGE.fullmatch(item)
    bad = f"{option} {path}={item}: bad range"
    if m is None:
        raise WelcomeSimError(f"{bad}: write A..B or A..B/step with whole numbers (0..4/1)")
    a, b, step = int(m.group(1)), int(m.group(2)), int(m.group(3) or 1)
    if step < 1:
        raise WelcomeSimError(f"{bad}: the step must be at least 1, got {step}")
    if b < a:
        raise WelcomeSimError(f"{bad}: it runs backwards ({a} to {b}); write {b}..{a}")
    if (b - a) // step + 1 > MAX_VALUES:
        raise WelcomeSimError(f"{bad}: {(b - a) // step + 1} values; at most {MAX_VALUES}")
    return [str(v) for v in range(a, b + 1, step)]


def parse_all(texts: list[str], option: str = OPTION) -> list[tuple[Override, ...]]:
    """Every --vary given: one tuple of overrides per path; a path given twice is an error."""
    axes = [parse_vary(t, option) for t in texts]
    paths = [axis[0].path for axis in axes]
    twice = sorted({p for p in paths if paths.count(p) > 1})
    if twice:
        raise WelcomeSimError(
            f"{option} {twice[0]}: the path is given twice; list its values in one {option}"
        )
    return axes


def label(overrides: Overrides) -> str:
    """A cell's varied values as one label ('plans.A-1.scores=6/3; sheet.pools.track=...'); '' for none."""
    return LABEL_SEP.join(o.label for o in overrides)


def parse_label(text: str) -> dict[str, str]:
    """A `vary` label back to {path: value} (the analysis reads rows' labels)."""
    out = {}
    for item in (text or "").split(LABEL_SEP):
        if item:
            path, _, value = item.partition("=")
            out[path] = value
    return out


def editor(overrides: Overrides, parts: tuple[str, ...], section: str = "") -> Callable[[dict], None] | None:
    """The function a loader runs on its file's parsed table (a copy) before its checks: every
    override naming one of `parts` applied; None when none does. A plan card is found by its id in
    whichever plan file holds it (a file without the id is left alone), an expansion's value only
    in that expansion's file. `section`: an edition's own board in an expansion's file, whose keys
    replace the file's (so they are changed there)."""
    mine = tuple(o for o in overrides if o.part in parts)
    if not mine:
        return None

    def apply(data: dict) -> None:
        for o in mine:
            if o.part != "expansion" or data.get("name") == o.target:
                _apply(o, data, section)

    return apply


class Varied:
    """A ruleset's overrides as its loader applies them: each file's loader called with its
    editor, a file's own check failing named with the --vary values that changed it, and, once
    the ruleset is built, every override checked to have changed something in play."""

    def __init__(self, overrides: Overrides) -> None:
        self.overrides = overrides

    def load(self, parts: tuple[str, ...], loader: Callable[..., Any], *args: Any, section: str = "") -> Any:
        """loader(*args) with the editor of `parts` (edit=...), its DataError named by the values."""
        from welcome_sim.errors import DataError

        edit = editor(self.overrides, parts, section)
        if edit is None:
            return loader(*args)
        try:
            return loader(*args, edit=edit)
        except DataError as exc:
            from welcome_sim.simcore.ground.tomlread import display_path

            mine = tuple(o for o in self.overrides if o.part in parts)
            where = display_path(exc.path) + (f": key '{exc.key}'" if exc.key else "")
            raise WelcomeSimError(f"{OPTION} {label(mine)}: {where}: {exc.problem}") from None

    def check(self, plan_ids: set[str], expansion: str, opponent: tuple[str, ...]) -> None:
        """Every override names a value the game plays: a plan card in play, the expansion played,
        the AAA Opponent card played (`opponent`: its level and name; () outside the solo mode)."""
        for o in self.overrides:
            if o.part == "plans" and o.keys[0] not in plan_ids:
                raise o.fail(f"no plan card '{o.keys[0]}' in play; in play: {', '.join(sorted(plan_ids))}")
            if o.part == "expansion" and o.target != expansion:
                raise o.fail(f"the game plays expansion '{expansion or 'none'}', not {o.target}")
            if o.part == "opponents" and o.keys[0] not in opponent:
                played = f"AAA level {opponent[0]} ({opponent[1]})" if opponent else "no AAA Opponent card"
                raise o.fail(f"the game plays {played}; vary that card's values (--opponent picks the card)")


def _apply(o: Override, data: dict, section: str) -> None:
    """Set the value a path names in a parsed table; a plan id not in this file is skipped."""
    found = _locate(o, data, section)
    if found is None:
        return
    node, last, at = found
    if (
        isinstance(node, dict)
        and last == "scores"
        and "scores" not in node
        and {"first", "later"} <= set(node)
    ):
        expected = f"two whole numbers, first/later (now {node['first']}/{node['later']})"
        items = o.value.split("/")
        if len(items) != 2 or not all(_is_int(x) for x in items):
            raise o.fail(f"wrong type: 'scores' is {expected}, not '{o.value}'")
        node["first"], node["later"] = (int(x) for x in items)
    else:
        node[last] = _convert(o, node[last], at)


def current(o: Override, data: dict, section: str = "") -> str | None:
    """The value a path names in a parsed table, written as --vary writes it ('8/4', '1',
    '0/2/4/10'); None when the file does not hold it (a plan id of another file)."""
    found = _locate(o, data, section)
    if found is None:
        return None
    node, last, _at = found
    if isinstance(node, dict) and last == "scores" and "scores" not in node:
        value: Any = [node["first"], node["later"]]
    else:
        value = node[last]
    items = value if isinstance(value, list) else [value]
    return "/".join(_written(x) for x in items)


def _locate(o: Override, data: dict, section: str) -> tuple[Any, Any, str] | None:
    """(the table or list holding the value, its key or index, the path inside the file), or
    None for a plan id this file does not hold; a path naming nothing is a one-line error."""
    # An opponents file is one array of cards: its path starts at a card (opponents.1.park).
    keys = ("opponents", *o.keys) if o.part == "opponents" else o.keys
    node: Any = data
    if section and isinstance(data.get(section), dict) and keys[0] in data[section]:
        node = data[section]  # the edition's board replaces the file's key: change it there
    if o.part == "plans":
        node = _plan_card(o, data, section)
        if node is None:
            return None
        keys = keys[1:]
        if not keys:
            raise o.fail("name a value of the card: plans.<id>.first, .later, .scores, .count, ...")
    for i, key in enumerate(keys[:-1]):
        node = _step(o, node, key, ".".join(keys[:i]))
    last, at = keys[-1], ".".join(keys)
    if isinstance(node, dict):
        if last == "scores" and "scores" not in node and {"first", "later"} <= set(node):
            return node, last, at
        if last not in node:
            raise _unknown(o, last, node, ".".join(keys[:-1]))
        return node, last, at
    if isinstance(node, list):
        return node, _position(o, node, last, ".".join(keys[:-1])), at
    raise o.fail(f"'{'.'.join(keys[:-1])}' holds {node!r}, not a table or a list")


def _plan_card(o: Override, data: dict, section: str) -> dict | None:
    """The plan table of id keys[0] in a file's `plans` (or its section's), or None."""
    pid = o.keys[0]
    tables = [data.get("plans")]
    if section and isinstance(data.get(section), dict):
        tables.insert(0, data[section].get("plans"))
    for table in tables:
        for card in table if isinstance(table, list) else []:
            if isinstance(card, dict) and card.get("id") == pid:
                return card
    return None


def _step(o: Override, node: Any, key: str, at: str) -> Any:
    """One part of a path: a table's key, or an array's item (by id, level or name, or position)."""
    if isinstance(node, dict):
        if key not in node:
            raise _unknown(o, key, node, at)
        return node[key]
    if isinstance(node, list):
        if node and all(isinstance(x, dict) for x in node):
            for field in ("id", "level", "name"):
                found = [x for x in node if field in x and str(x[field]) == key]
                if found:
                    return found[0]
            if any("id" in x or "level" in x for x in node):
                ids = [str(x.get("id", x.get("level"))) for x in node]
                raise o.fail(f"no item '{key}' in '{at}'; valid: {', '.join(ids)}")
        return node[_position(o, node, key, at)]
    raise o.fail(f"'{at}' holds {node!r}, not a table or a list; shorten the path")


def _position(o: Override, node: list, key: str, at: str) -> int:
    """An array's index from a part counted from 1 (as the files count streets and houses)."""
    if not key.isdigit() or not 1 <= int(key) <= len(node):
        raise o.fail(
            f"'{at}' has {len(node)} item{'s' * (len(node) != 1)}: give a position 1 to {len(node)} "
            "(counted from 1, 1 = first/top)"
        )
    return int(key) - 1


def _unknown(o: Override, key: str, node: dict, at: str) -> WelcomeSimError:
    from welcome_sim.simcore.ground.userinput import nearest

    # A plan card's `scores` is both its values at once (first/later): a key --vary accepts.
    valid = sorted({*node, "scores"} if o.part == "plans" and {"first", "later"} <= set(node) else node)
    card = f" on plan card '{o.keys[0]}'" if o.part == "plans" else f" in the {o.part} file"
    inside = f" in '{at}'" if at else card
    # The same words in another order first (ammunition_start -> start_ammunition), then spelling.
    same = [k for k in valid if sorted(k.split("_")) == sorted(key.split("_"))]
    hint = f" (did you mean '{same[0]}'?)" if same else nearest(key, valid)
    return o.fail(f"unknown key '{key}'{inside}{hint}; keys there: {', '.join(valid)}")


def _convert(o: Override, old: Any, at: str) -> Any:
    """The value's text as the type of the value it replaces (a list: '/' between items)."""
    text = o.value
    if isinstance(old, list):
        if any(isinstance(x, (list, dict)) for x in old):
            raise o.fail(f"'{at}' is a list of lists or tables: vary one item ({o.path}.1, counted from 1)")
        items = text.split("/")
        kind = type(old[0]) if old else (int if all(_is_int(x) for x in items) else str)
        now = "/".join(_written(x) for x in old)
        return [
            _scalar(o, kind, x, at, f"a list of {_KINDS.get(kind, kind.__name__)}s joined by '/' (now {now})")
            for x in items
        ]
    if isinstance(old, dict):
        raise o.fail(f"'{at}' is a table; name one of its keys: {', '.join(sorted(old))}")
    return _scalar(o, type(old), text, at)


# What a value of each type is, as a wrong-type error words it.
_KINDS = {int: "whole number", bool: "true/false value", str: "word"}


def _written(x: Any) -> str:
    return str(x).lower() if isinstance(x, bool) else str(x)


def _is_int(text: str) -> bool:
    return re.fullmatch(r"-?\d+", text) is not None


def _scalar(o: Override, kind: type, text: str, at: str, expected: str = "") -> Any:
    """One item of a value as `kind` (int, bool or str), or a one-line wrong-type error saying
    what `at` is (`expected`, by default one value of `kind`) and what was given."""
    what = expected or ("true or false" if kind is bool else f"a {_KINDS.get(kind, kind.__name__)}")
    if (kind is bool and text not in ("true", "false")) or (kind is int and not _is_int(text)):
        raise o.fail(f"wrong type: '{at}' is {what}, not '{o.value}'")
    if kind is bool:
        return text == "true"
    if kind is int:
        return int(text)
    if kind is str:
        return text
    raise o.fail(f"'{at}' holds a {kind.__name__}, which --vary cannot set")
