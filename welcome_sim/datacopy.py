"""`welcome-sim data copy`: a designer's variant starts as a copy of a built-in data file.

The copy keeps the built-in file's text (its comments explain every value), names the built-in
it was copied from (`based_on`, read by the report's account of a variant; an expansion's copy
says which expansion it lays out by its `name`) and gets a title of its own, which outputs use to
name the variant.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.ground.datafiles import DATA_DIR, available
from welcome_sim.simcore.ground.userinput import output_file

# Kinds a variant can be made of: data folder -> (word, the sweep option that takes such a file).
KINDS = {
    "sheets": ("sheet", "--sheet"),
    "decks": ("deck", "--deck"),
    "plans": ("plan set", "--plans-file"),
    "expansions": ("expansion", "--expansion"),
}
# Kinds whose files take a `based_on` key (an expansion copy's `name` says what it is based on).
BASED_ON = ("sheets", "decks", "plans")


@dataclass(frozen=True)
class Copied:
    """What `copy` wrote: the file, the built-in it came from and the option that plays it."""

    path: Path
    kind: str
    name: str
    source: Path
    option: str


def find(name: str) -> tuple[str, str]:
    """(kind folder, name) of a built-in file given as NAME or KIND/NAME, or a one-line error
    listing the valid names."""
    kind, _, bare = name.rpartition("/")
    if kind:
        folders = [k for k in KINDS if kind.rstrip("s") == k.rstrip("s") or KINDS[k][0] == kind]
        if not folders:
            raise WelcomeSimError(f"NAME: unknown kind '{kind}' in '{name}'; valid kinds: {', '.join(KINDS)}")
    else:
        folders = list(KINDS)
    hits = [(k, bare) for k in folders if bare in available(k)]
    if len(hits) == 1:
        return hits[0]
    if len(hits) > 1:
        both = ", ".join(f"{k}/{n}" for k, n in hits)
        raise WelcomeSimError(f"NAME: '{name}' names several built-in files ({both}); give one of them")
    valid = "; ".join(f"{k}: {', '.join(available(k))}" for k in folders)
    raise WelcomeSimError(f"NAME: no built-in data file '{name}'; valid: {valid}")


def _retitle(text: str, kind: str, name: str) -> str:
    """The built-in's text with a title of the copy's own and, where the kind takes one, the
    `based_on` key naming the built-in, right after the title line."""
    table = re.search(r"^\[", text, re.M)  # the top-level keys come before the first table
    m = re.search(
        r'^title\s*=\s*"((?:[^"\\]|\\.)*)"\s*$', text[: table.start() if table else len(text)], re.M
    )
    if m is None:
        raise WelcomeSimError(f"{DATA_DIR / kind / name}.toml: no title line to copy")
    line = f'title = "{m.group(1)} (my copy)"'
    if kind in BASED_ON and not re.search(r"^based_on\s*=", text, re.M):
        line += f'\nbased_on = "{name}"'
    return text[: m.start()] + line + text[m.end() :]


def copy(name: str, dest: str | None = None, force: bool = False) -> Copied:
    """Copy built-in data file NAME to DEST (a file, or a folder to put NAME.toml in; default the
    current folder), refusing to overwrite a file unless `force`."""
    kind, bare = find(name.strip())
    source = DATA_DIR / kind / f"{bare}.toml"
    target = Path(dest) if dest else Path(f"{bare}.toml")
    if target.is_dir():
        target = target / f"{bare}.toml"
    if target.suffix != ".toml":
        raise WelcomeSimError(f"DEST: '{target}' must end in .toml (the data files are TOML)")
    if not target.parent.is_dir():
        raise WelcomeSimError(f"DEST: no folder '{target.parent}' to write '{target.name}' in")
    if target.exists() and not force:
        raise WelcomeSimError(f"DEST: '{target}' exists; give another DEST, or --force to overwrite it")
    if target.resolve() == source.resolve():
        raise WelcomeSimError(f"DEST: '{target}' is the built-in file itself")
    output_file("DEST", target)  # the checks of every file the tool writes: no device, /proc, sweep folder
    text = _retitle(source.read_text(encoding="utf-8"), kind, bare)
    try:
        target.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise WelcomeSimError(f"DEST: cannot write '{target}': {exc.strerror or exc}") from None
    return Copied(target, kind, bare, source, KINDS[kind][1])
