"""Variant data files of the expansions for the reconstruction robustness check (issue 38, "Robust to
reconstruction"): each changes only values whose provenance is `reconstructed`, over a stated
plausible range, and keeps what the Collector's expansion rules (2023) fix.

- Plan C scores x0.7 and x1.3: every Plan C card of the file marked `reconstructed` (first, later),
  rounded half up, first >= later >= 1 kept.
- Two other layouts (where the file's layout is reconstructed): each street's marks mirrored (house
  h of a street of n houses to n-1-h), and re-drawn at random with a fixed seed; each is checked
  against `constraints()` (the text's figures, and the counts the default layout has per street).

The files are copies of the built-in ones with only those values rewritten (the comments and every
other line are kept) and a first comment saying what was varied; they load through the normal
loader (`--expansion path`).
"""

from __future__ import annotations

import json
import math
import re
import tomllib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from welcome_sim.simcore.ground.datafiles import DATA_DIR, load_sheet
from welcome_sim.simcore.ground.positions import ROW_POSITIONS, shift_rows
from welcome_sim.simcore.rules.expansions.registry import RECORDS

PLAN_FACTORS = (0.7, 1.3)
LAYOUT_SEED = 38  # the random layouts' seed (issue 38)
TRIES = 10_000  # random draws before giving up on a layout meeting the constraints

# Per expansion (its record): the reconstructed layout keys varied, what they are in words, and
# what is reconstructed but not varied. Ice Cream's cones are the first edition's published sheet
# and Christmas Lights has no layout: only their Plan C scores are reconstructed.
LAYOUT_KEYS: dict[str, tuple[str, ...]] = {r.name: r.layout_keys for r in RECORDS}
NOT_VARIED: dict[str, str] = {r.name: r.not_varied for r in RECORDS}
LAYOUT_WORDS: dict[str, str] = {r.name: r.layout_words for r in RECORDS if r.layout_words}


@dataclass(frozen=True)
class Variant:
    """One variant file of an expansion: what was varied and the constraints it keeps."""

    expansion: str  # the built-in expansion's name
    kind: str  # "plan_scores" or "layout"
    name: str  # in words: "Plan C x0.7", "layout mirrored", "layout random (seed 38)"
    path: str
    keys: tuple[str, ...]  # the data keys whose values differ from the built-in file's
    keeps: str  # the constraints kept, in words


def builtin_path(name: str) -> Path:
    """A built-in expansion's data file."""
    return DATA_DIR / "expansions" / f"{name}.toml"


def street_houses(data: dict) -> list[int]:
    """The houses of each street of the expansion's sheet."""
    return [st.houses for st in load_sheet(str(data.get("sheet", "classic"))).streets]


def scaled(first: int, later: int, factor: float) -> tuple[int, int]:
    """A card's (first, later) scores times factor, rounded half up, first >= later >= 1 kept."""
    f = max(1, math.floor(first * factor + 0.5))
    lt = max(1, math.floor(later * factor + 0.5))
    return f, min(lt, f)


def _plan_blocks(text: str) -> list[tuple[int, int]]:
    """(start, end) of each top-level [[plans]] block of a file's text (to the next table header)."""
    heads = [m.start() for m in re.finditer(r"^\[\[plans\]\]\s*$", text, re.M)]
    out = []
    for start in heads:
        nxt = re.compile(r"^\[", re.M).search(text, start + 1)
        out.append((start, nxt.start() if nxt else len(text)))
    return out


def scale_plan_scores(text: str, factor: float) -> tuple[str, list[str]]:
    """The text with every reconstructed Plan C card's scores scaled, and the ids changed."""
    data = tomllib.loads(text)
    plans = data.get("plans", [])
    blocks = _plan_blocks(text)
    if len(blocks) != len(plans):
        raise ValueError(f"found {len(blocks)} [[plans]] headers for {len(plans)} plans")
    changed = []
    for (start, end), plan in reversed(list(zip(blocks, plans, strict=True))):
        if plan.get("letter") != "C" or plan.get("provenance") != "reconstructed":
            continue
        first, later = scaled(int(plan["first"]), int(plan["later"]), factor)
        block = text[start:end]
        block = re.sub(r"^first = \d+\s*$", f"first = {first}", block, count=1, flags=re.M)
        block = re.sub(r"^later = \d+\s*$", f"later = {later}", block, count=1, flags=re.M)
        text = text[:start] + block + text[end:]
        changed.append(str(plan.get("id")))
    return text, changed[::-1]


def _toml(value: object) -> str:
    """A value in TOML (numbers, strings, lists, inline tables)."""
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return json.dumps(value)


def _rows_text(rows: list) -> str:
    """A list of rows, one line per street (its first item), as the built-in files write them."""
    if not rows or not isinstance(rows[0], list):
        return _toml(rows)
    lines: dict[object, list[str]] = {}
    for k, row in enumerate(rows):
        # Rows led by a street index share its line; rows of names (a street's houses) are one each.
        lines.setdefault(row[0] if isinstance(row[0], int) else k, []).append(_toml(row))
    return "[\n" + "".join(f"  {', '.join(items)},\n" for items in lines.values()) + "]"


def replace_value(text: str, key: str, value: object) -> str:
    """The text with the top-level `key = ...` assignment's value replaced (brackets matched)."""
    m = re.search(rf"^{re.escape(key)} = ", text, re.M)
    if m is None:
        raise ValueError(f"no top-level key '{key}'")
    i = m.end()
    depth, quoted = 0, False
    j = i
    while j < len(text):
        c = text[j]
        if c == '"':
            quoted = not quoted
        elif not quoted and c in "[{":
            depth += 1
        elif not quoted and c in "]}":
            depth -= 1
            if depth == 0:
                break
        elif not quoted and depth == 0 and c == "\n":
            j -= 1
            break
        j += 1
    new = _rows_text(value) if isinstance(value, list) and key != "parents" else _toml(value)
    return text[:i] + new + text[j + 1 :]


# ---- layouts: mirrored and random, one pair per expansion whose layout is reconstructed ----


def _mirror(data: dict, n: list[int]) -> dict:
    """Each street's marks mirrored: house h of a street of n houses to n-1-h."""
    x = data["name"]
    if x == "easter":
        # The egg houses are published: the colours are reversed along each street's eggs.
        out = []
        for s in range(len(n)):
            row = [e for e in data["eggs"] if e[0] == s]
            out += [[*e[:3], c[3]] for e, c in zip(row, reversed(row), strict=True)]
        return {"eggs": out}
    if x in ("halloween", "doomsday", "roswell", "zombies"):
        key = LAYOUT_KEYS[x][0]
        return {key: sorted([s, n[s] - 1 - h] for s, h in data[key])}
    if x == "quack":
        between = _between_width(n)
        return {
            "street_ducklings": sorted([s, n[s] - b, c] for s, b, c in data["street_ducklings"]),
            "between_ducklings": sorted(
                [s, between[s] - 1 - col, c] for s, col, c in data["between_ducklings"]
            ),
            "parents": {c: [s, n[s] - 1 - h] for c, (s, h) in data["parents"].items()},
        }
    if x == "american-dream":
        return {"houses": [list(reversed(row)) for row in data["houses"]]}
    raise ValueError(f"{x}: no reconstructed layout to mirror")


def _between_width(n: list[int]) -> list[int]:
    """Columns between street s and s+1 (streets flush left: the shorter street's houses)."""
    return [min(n[s], n[s + 1]) for s in range(len(n) - 1)]


def _random(data: dict, n: list[int], rng: np.random.Generator) -> dict:
    """Each street's marks re-drawn at random: as many per street (and per colour) as the default."""
    x = data["name"]

    def pick(count: int, choices: range) -> list[int]:
        return sorted(int(v) for v in rng.choice(np.array(choices), size=count, replace=False))

    if x == "easter":
        colours = [e[3] for e in data["eggs"]]
        rng.shuffle(colours)
        return {"eggs": [[*e[:3], c] for e, c in zip(data["eggs"], colours, strict=True)]}
    if x in ("halloween", "doomsday", "roswell", "zombies"):
        key = LAYOUT_KEYS[x][0]
        per = Counter(s for s, _ in data[key])
        return {key: [[s, h] for s in range(len(n)) for h in pick(per[s], range(n[s]))]}
    if x == "quack":
        width = _between_width(n)
        out: dict = {"street_ducklings": [], "between_ducklings": []}
        for key, span in (
            ("street_ducklings", lambda s: range(1, n[s])),
            ("between_ducklings", lambda s: range(width[s])),
        ):
            for s in sorted({d[0] for d in data[key]}):
                cols = [d[2] for d in data[key] if d[0] == s]
                rng.shuffle(cols)
                out[key] += [[s, p, c] for p, c in zip(pick(len(cols), span(s)), cols, strict=True)]
        out["parents"] = dict(data["parents"])  # the parents stay beside their default houses
        return out
    if x == "american-dream":
        rows = [list(row) for row in data["houses"]]
        for row in rows:
            rng.shuffle(row)
        return {"houses": rows}
    raise ValueError(f"{x}: no reconstructed layout to draw")


def constraints(name: str, data: dict, default: dict) -> list[tuple[str, bool]]:
    """The constraints a layout of the expansion keeps, each (in words, met): the rules text's
    figures (quoted by the Plan C card or the rule they come from) and the default's counts."""
    n = street_houses(default)
    x = name
    if x == "easter":
        eggs, d_eggs = data["eggs"], default["eggs"]
        return [
            (
                "egg houses and egg counts as the published sheet's",
                [e[:3] for e in eggs] == [e[:3] for e in d_eggs],
            ),
            (
                "as many eggs of each colour as the default",
                Counter(e[3] for e in eggs) == Counter(e[3] for e in d_eggs),
            ),
            (
                "orange and pink eggs ('Collect all the orange eggs and all the pink eggs')",
                {"orange", "pink"} <= {e[3] for e in eggs},
            ),
            (
                "3 colours in each street ('In each street: collect 3 eggs of a different color')",
                all(len({e[3] for e in eggs if e[0] == s}) >= 3 for s in range(len(n))),
            ),
        ]
    if x in ("halloween", "doomsday", "roswell", "zombies"):
        key = LAYOUT_KEYS[x][0]
        marks, d_marks = [tuple(m) for m in data[key]], [tuple(m) for m in default[key]]
        out = [
            (
                "distinct houses of the sheet",
                len(set(marks)) == len(marks) and all(0 <= h < n[s] for s, h in marks),
            ),
            (
                "as many per street as the default",
                Counter(s for s, _ in marks) == Counter(s for s, _ in d_marks),
            ),
        ]
        return out + _own_constraints(x, marks, n, data)
    if x == "quack":
        sd, bd = data["street_ducklings"], data["between_ducklings"]
        width = _between_width(n)
        colours = Counter(d[2] for d in sd + bd)
        return [
            ("between two houses of a street", all(1 <= b < n[s] for s, b, _ in sd)),
            ("between two houses of one column", all(0 <= col < width[s] for s, col, _ in bd)),
            (
                "distinct places",
                len({tuple(d[:2]) for d in sd}) == len(sd) and len({tuple(d[:2]) for d in bd}) == len(bd),
            ),
            (
                "each street's and each gap's ducklings per colour as the default",
                _per_colour(sd) == _per_colour(default["street_ducklings"])
                and _per_colour(bd) == _per_colour(default["between_ducklings"]),
            ),
            (
                "2 yellow in the bottom street, 2 black in the top one ('Circle the 2 yellow ducklings in "
                "the 3rd street (bottom) and the 2 black ducklings in the 1st street (top)')",
                _per_colour(sd).get((len(n) - 1, "yellow")) == 2 and _per_colour(sd).get((0, "black")) == 2,
            ),
            (
                "2 yellow and 3 black between the streets ('Circle the 2 yellow ducklings and the 3 black "
                "ducklings between the streets')",
                Counter(d[2] for d in bd) == Counter({"black": 3, "yellow": 2}),
            ),
            (
                "5 or more of each colour ('Circle 5 yellow ducklings and 5 black ducklings')",
                colours["yellow"] >= 5 and colours["black"] >= 5,
            ),
            ("parents beside a house of the sheet", all(0 <= h < n[s] for s, h in data["parents"].values())),
        ]
    if x == "american-dream":
        rows, cols = data["houses"], _columns(data)
        return [
            (
                "each street's families as the default's (a family's share follows its action's share of "
                "the deck)",
                all(Counter(a) == Counter(b) for a, b in zip(rows, default["houses"], strict=True)),
            ),
            ("no column of one family", all(len(set(c)) > 1 for c in cols if len(c) > 1)),
            (
                "green, red, blue and orange houses (the Plan A cards)",
                {"green", "red", "blue", "orange"} <= {c for row in rows for c in row},
            ),
        ]
    return []


def _own_constraints(
    x: str, marks: list[tuple[int, int]], n: list[int], data: dict
) -> list[tuple[str, bool]]:
    """The rules text's figures for the expansions marking houses."""
    per = Counter(s for s, _ in marks)
    if x == "halloween":
        return [("13 houses ('Number all 13 houses with a ghost and a candy')", len(marks) == 13)]
    if x == "doomsday":
        return [
            (
                "4 or more shelters ('Build 4 complete housing estates of size 1, each with 1 shelter')",
                len(marks) >= 4,
            ),
            (
                "2 or more shelters in 2 streets (a capacity of 30 needs two numbers: 'In 2 different "
                "streets: the total capacity ... is 30 or more')",
                sum(c >= 2 for c in per.values()) >= 2,
            ),
        ]
    if x == "roswell":
        cols = Counter(h + int(data["column_offsets"][s]) for s, h in marks)
        return [
            (
                "9 or more saucers ('the last objective requires infiltrating 9 estates or more')",
                len(marks) >= 9,
            ),
            (
                "no two saucers side by side (so 9 separate estates stay possible)",
                all((s, h + 1) not in set(marks) for s, h in marks),
            ),
            (
                "3 columns with 2 saucers or more ('In 3 vertical columns of houses: at least 2 Zoorgs are "
                "infiltrated')",
                sum(c >= 2 for c in cols.values()) >= 3,
            ),
        ]
    if x == "zombies":
        road = int(data["road"])
        ends = [(s, side) for s in range(len(n)) for side in (0, 1)]
        reach = all(
            any((s, h if side == 0 else n[s] - 1 - h) in set(marks) for h in range(2)) for s, side in ends
        )
        return [
            (
                "5 or more without a barricade ('Build 5 barricades'; 'at least 5 houses invaded')",
                len(marks) >= 5,
            ),
            (
                "fewer than half ('most houses are already barricaded, but some are not')",
                2 * len(marks) < sum(n),
            ),
            (f"one of the first two houses each horde walks to (of its road of {road})", reach),
        ]
    return []


def _per_colour(ducks: list) -> Counter:
    return Counter((d[0], d[2]) for d in ducks)


def _columns(data: dict) -> list[list[str]]:
    """The American Dream sheet's columns, by family colour."""
    cols: dict[int, list[str]] = {}
    for s, row in enumerate(data["houses"]):
        for h, c in enumerate(row):
            cols.setdefault(h + int(data["column_offsets"][s]), []).append(c)
    return [cols[k] for k in sorted(cols)]


def _layout(name: str, default: dict, make: Callable[[], dict], what: str) -> dict:
    """A layout from make() that meets every constraint (random ones drawn until one does)."""
    for _ in range(TRIES):
        new = make()
        failed = [c for c, ok in constraints(name, {**default, **new}, default) if not ok]
        if not failed:
            return new
        if what == "mirrored":
            raise ValueError(f"{name}: the mirrored layout breaks: {'; '.join(failed)}")
    raise ValueError(f"{name}: no random layout meets the constraints in {TRIES} draws")


def shift_positions(data: dict, by: int) -> dict:
    """A file's data with its position rows moved by `by` (-1: from the files' count from 1 to the
    layouts' from 0, as the kernel's tables count)."""
    return {k: shift_rows(v, ROW_POSITIONS[k], by) if k in ROW_POSITIONS else v for k, v in data.items()}


def write_variants(name: str, folder: str | Path) -> list[Variant]:
    """Write an expansion's variant files into folder: Plan C scores x0.7 and x1.3, and, where its
    layout is reconstructed, the mirrored and a random layout."""
    text = builtin_path(name).read_text(encoding="utf-8")
    default = shift_positions(tomllib.loads(text), -1)
    n = street_houses(default)
    folder = Path(folder)
    out = []

    def save(tag: str, body: str, kind: str, words: str, keys: tuple[str, ...], keeps: str) -> None:
        path = folder / f"{name}-{tag}.toml"
        head = f"# Robustness variant of {name}.toml (welcome_sim/analysis/variants.py): {words}. "
        head += f"Keeps: {keeps}.\n"
        path.write_text(head + body, encoding="utf-8")
        out.append(Variant(name, kind, words, str(path), keys, keeps))

    for factor in PLAN_FACTORS:
        body, ids = scale_plan_scores(text, factor)
        if ids:
            keeps = "the requirements; first >= later >= 1; " + ", ".join(ids)
            save(f"planc-x{factor}", body, "plan_scores", f"Plan C x{factor}", ("plans",), keeps)
    keys = LAYOUT_KEYS.get(name, ())
    if keys:
        rng = np.random.default_rng(LAYOUT_SEED)
        for tag, make in (
            ("mirrored", lambda: _mirror(default, n)),
            ("random", lambda: _random(default, n, rng)),
        ):
            new = _layout(name, default, make, tag)
            body = text
            written = shift_positions(new, +1)
            for key in keys:
                body = replace_value(body, key, written[key])
            keeps = "; ".join(c for c, _ in constraints(name, {**default, **new}, default))
            words = "layout mirrored" if tag == "mirrored" else f"layout random (seed {LAYOUT_SEED})"
            moved = tuple(k for k in keys if new[k] != default[k])  # the random one keeps Quack's parents
            save(f"layout-{tag}", body, "layout", words, moved, keeps)
    return out
