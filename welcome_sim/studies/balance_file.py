"""A balance proposal written as a plan set file `--plans-file` takes: the source set's text (its
comments and notes kept) with the changed cards' scores, marked reconstructed, then loaded back and
checked card by card."""

from __future__ import annotations

import re
from pathlib import Path

from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.ground.datafiles import DATA_DIR
from welcome_sim.simcore.ground.planfile import load_plans

_BLOCK = re.compile(r"^\[\[plans\]\][ \t]*$", re.M)


def _set_key(block: str, key: str, value: str, card: str, after: str = "id") -> str:
    """Replace `key = ...` in one [[plans]] table or the header (its comment kept), or add it after
    the `after` key's line."""
    line = re.compile(rf"^({key}\s*=\s*)(\"(?:[^\"\\]|\\.)*\"|[^#\n]*?)(\s*(#.*)?)$", re.M)
    if line.search(block):
        return line.sub(lambda m: m.group(1) + value + m.group(3), block, count=1)
    ident = re.search(rf"^{after}\s*=.*$", block, re.M)
    if ident is None:
        raise WelcomeSimError(f"{card}: no `{after} = ...` line to write `{key}` after")
    return block[: ident.end()] + f"\n{key} = {value}" + block[ident.end() :]


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def balanced_text(text: str, changes: dict[str, tuple[int, int]], title: str, based_on: str, why: str) -> str:
    """The plan set's text with each changed card's first and later scores, its provenance
    `reconstructed` and a note saying where the scores come from; the set's title, provenance
    (reconstructed: the scores are not the printed ones) and, for a built-in set, `based_on`."""
    parts = _BLOCK.split(text)
    head, blocks = parts[0], parts[1:]
    found = set()
    for n, block in enumerate(blocks):
        m = re.search(r"^id\s*=\s*\"([^\"]*)\"", block, re.M)
        card = m.group(1) if m else ""
        if card not in changes:
            continue
        found.add(card)
        first, later = changes[card]
        block = _set_key(block, "first", str(first), f"plan {card}")
        block = _set_key(block, "later", str(later), f"plan {card}")
        block = _set_key(block, "provenance", '"reconstructed"', f"plan {card}")
        blocks[n] = _set_key(block, "note", _quoted(why), f"plan {card}")
    missing = sorted(set(changes) - found)
    if missing:
        raise WelcomeSimError(
            f"plans {', '.join(missing)}: no [[plans]] table with that id in the source text"
        )
    head = _set_key(head, "title", _quoted(title), "the plan set", "name")
    head = _set_key(head, "provenance", '"reconstructed"', "the plan set", "title")
    if based_on and not re.search(r"^based_on\s*=", head, re.M):
        head = _set_key(head, "based_on", _quoted(based_on), "the plan set", "title")
    return "[[plans]]".join([head, *blocks])


def write_balanced(
    source: str, dest: Path, proposed: dict[str, tuple[int, int]], changed: list[str], title: str, why: str
) -> None:
    """Write the source plan set with the proposal's changed cards to dest, then load it back (every
    check a --plans-file gets) and confirm each card's scores: a file that says otherwise is an error."""
    src = Path(source)
    based_on = src.stem if src.resolve().is_relative_to(DATA_DIR.resolve()) else ""
    text = balanced_text(
        src.read_text(encoding="utf-8"), {c: proposed[c] for c in changed}, title, based_on, why
    )
    try:
        dest.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise WelcomeSimError(f"--out: cannot write {dest}: {exc.strerror or exc}") from None
    loaded = {p.id: (p.first, p.later) for p in load_plans(str(dest)).plans}
    wrong = [c for c, v in proposed.items() if c in loaded and loaded[c] != v]
    if wrong:
        raise WelcomeSimError(
            f"--out: {dest} reads back other scores for {', '.join(wrong)} than proposed (a bug)"
        )
