"""`welcome-sim data upgrade FILE`: rewrite a data file written when positions counted from 0.

Street, house and column positions in data files count from 1 now (simcore/ground/positions.py); an old
file has no `positions = "from 1"` line and is refused. This adds 1 to each of its positions, in
its own text (its comments and layout kept), adds the line, and checks the result parses to
exactly the old values shifted by one before writing it; the original is kept as FILE.bak.
"""

from __future__ import annotations

import copy as copying
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.ground.positions import MARKER_KEY, MARKER_LINE, ROW_POSITIONS, shift_rows
from welcome_sim.simcore.ground.readfile import Unreadable, read_regular


@dataclass(frozen=True)
class Upgraded:
    """What `upgrade` did: the file rewritten, its kind, the positions moved and the backup."""

    path: Path
    kind: str
    moved: int
    backup: Path


def _fail(path: Path, problem: str) -> WelcomeSimError:
    return WelcomeSimError(f"{path}: {problem}")


def _kind(data: dict[str, Any]) -> str:
    if "streets" in data:
        return "sheet"
    if "sheet" in data:
        return "expansion"
    if "plans" in data:
        return "plan set"
    return ""


def _expected(data: dict[str, Any], kind: str) -> dict[str, Any]:
    """The values the upgraded file must hold: every position plus 1, the marker added."""
    new = copying.deepcopy(data)

    def plans(table: dict[str, Any]) -> None:
        for plan in table.get("plans", []):
            if "street" in plan:
                if plan["street"] < 0:
                    del plan["street"]  # -1 said "any street": now said by leaving it out
                else:
                    plan["street"] += 1

    if kind == "sheet":
        for street in new["streets"]:
            street["pools"] = [h + 1 for h in street["pools"]]
    plans(new)
    if kind == "expansion":
        for table in [new, *(v for v in new.values() if isinstance(v, dict) and "plans" in v)]:
            if table is not new:
                plans(table)  # an edition's own board (the first edition's)
            for key, items in ROW_POSITIONS.items():
                if key in table:
                    table[key] = shift_rows(table[key], items)
    new[MARKER_KEY] = MARKER_LINE.split('"')[1]
    return new


def _value_end(text: str, start: int) -> int:
    """The end of the bracketed TOML value starting at `start` (strings and comments skipped)."""
    depth, i = 0, start
    while i < len(text):
        c = text[i]
        if c in "\"'":
            i = text.index(c, i + 1)
        elif c == "#":
            i = text.index("\n", i)
            continue
        elif c in "[{":
            depth += 1
        elif c in "]}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ValueError("unbalanced brackets")


def _plus(m: re.Match, items: tuple[int, ...]) -> str:
    nums = [int(m.group(g)) for g in (1, 2)]
    shifted = [n + 1 if i in items else n for i, n in enumerate(nums)]
    return f"[{shifted[0]}, {shifted[1]}"


def _rewrite(text: str, kind: str) -> tuple[str, int]:
    """The text with every position moved (and how many), the marker line added."""
    moved = 0

    def street_line(m: re.Match) -> str:
        nonlocal moved
        moved += 1
        if int(m.group(2)) < 0:
            return f"{m.group(1)}# street: any street (was -1: now said by leaving `street` out)"
        return f"{m.group(1)}street = {int(m.group(2)) + 1}{m.group(3)}"

    text = re.sub(r"^([ \t]*)street[ \t]*=[ \t]*(-?\d+)(.*)$", street_line, text, flags=re.M)
    if kind == "sheet":

        def pools(m: re.Match) -> str:
            nonlocal moved
            nums = [int(x) for x in re.findall(r"-?\d+", m.group(2))]
            moved += len(nums)
            return f"{m.group(1)}[{', '.join(str(n + 1) for n in nums)}]"

        text = re.sub(r"^([ \t]*pools[ \t]*=[ \t]*)\[([^\]\n]*)\]", pools, text, flags=re.M)
    if kind == "expansion":
        for key, items in ROW_POSITIONS.items():
            for m in reversed(list(re.finditer(rf"^[ \t]*{key}[ \t]*=[ \t]*", text, re.M))):
                end = _value_end(text, m.end())
                body, n = re.subn(
                    r"\[\s*(-?\d+)\s*,\s*(-?\d+)", lambda r, items=items: _plus(r, items), text[m.end() : end]
                )
                moved += n
                text = text[: m.end()] + body + text[end:]
    table = re.search(r"^\s*\[", text, re.M)
    head = text[: table.start()] if table else text
    title = re.search(r"^title\s*=.*$", head, re.M)
    line = f"{MARKER_LINE}  # street 1 = top, house 1 = leftmost (upgraded from positions counted from 0)\n"
    at = title.end() + 1 if title else (table.start() if table else len(text))
    return text[:at] + line + text[at:], moved


def upgrade(file: str) -> Upgraded:
    """Rewrite FILE, a sheet, plan set or expansion file whose positions count from 0, so they
    count from 1; the original is kept as FILE.bak."""
    path = Path(file)
    try:
        text = read_regular(path).decode("utf-8")
        data = tomllib.loads(text)
    except Unreadable as exc:
        raise _fail(path, exc.problem) from None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, ValueError) as exc:
        raise _fail(path, f"not a readable TOML data file ({exc})") from None
    if MARKER_KEY in data:
        raise _fail(path, f"already says {MARKER_KEY} = {data[MARKER_KEY]!r}: nothing to upgrade")
    kind = _kind(data)
    if not kind:
        raise _fail(path, "not a sheet, plan set or expansion file: it holds no positions to upgrade")
    backup = path.with_name(path.name + ".bak")
    if backup.exists():
        raise _fail(path, f"{backup} exists (kept from an earlier upgrade?); move it away first")
    try:
        new_text, moved = _rewrite(text, kind)
        ok = tomllib.loads(new_text) == _expected(data, kind)
    except (ValueError, TypeError, KeyError, tomllib.TOMLDecodeError):
        ok = False
    if not ok:
        raise _fail(
            path,
            f"could not rewrite its positions safely; edit it by hand: add 1 to every street, house and "
            f"column position and add the line {MARKER_LINE}",
        )
    try:
        backup.write_bytes(text.encode("utf-8"))
        path.write_text(new_text, encoding="utf-8")
    except OSError as exc:
        raise _fail(path, f"cannot write: {exc.strerror or exc}") from None
    return Upgraded(path, kind, moved, backup)
