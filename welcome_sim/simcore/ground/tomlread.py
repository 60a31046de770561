"""The checked TOML reader every data loader shares: a file read and parsed once per process,
typed access that names file and key on error, and the bounds of what rule data can mean."""

from __future__ import annotations

import copy
import hashlib
import re
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from welcome_sim.errors import DataError, WelcomeSimError
from welcome_sim.simcore.ground.readfile import Unreadable, read_regular

# What ruleset.data_label() appends to the name of a data file of one's own: its content's hash.
LABEL_HASH = r"\.[0-9a-f]{8}$"


def is_builtin_label(label: str) -> bool:
    """Whether a label made by data_label() names a built-in file (own files carry '.<8 hex>')."""
    return re.search(LABEL_HASH, label) is None


def label_name(label: str) -> str:
    """The name in a label made by data_label(): 'easter.1a2b3c4d' -> 'easter' (the rules a copy of
    an expansion's file lays out); a built-in's label is its name."""
    return re.sub(LABEL_HASH, "", label)


DATA_DIR = Path(__file__).parent.parent / "data"
PROVENANCES = ("published", "reconstructed")
HEADER_KEYS = ("name", "title", "provenance", "source", "note")


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


# A change a loader makes to its file's parsed table before checking it (a --vary value).
Edit = Callable[[dict[str, Any]], None] | None


def _read(path: Path, edit: Edit = None) -> _Reader:
    """A data file read and parsed (once per content), as a copy; `edit` changes the copy before
    any check reads it (a --vary value: rules/overrides.py)."""
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
    digest = hashlib.sha256(raw).hexdigest()
    data = _PARSED.get(digest)
    if data is None:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise DataError(str(path), "", f"not valid TOML: {exc}") from None
        except ValueError as exc:  # an integer of over 4300 digits
            raise DataError(str(path), "", f"not valid TOML: {str(exc).split(':')[0]}") from None
        if len(_PARSED) >= MAX_PARSED:
            del _PARSED[next(iter(_PARSED))]  # the oldest: a process reads a few dozen files
        _PARSED[digest] = data
    # A copy: a caller changing its tables (an expansion's data, an edition's extras) must not
    # change what the next load of the same bytes gets.
    r = _Reader(str(path), copy.deepcopy(data), digest)
    if edit is not None:
        edit(r.data)
    return r


# Each data file is parsed once per process: its TOML tables, keyed by the sha256 of its bytes,
# which are read (and hashed) on every load, so a file edited since is parsed again, and what is
# built from it carries the new bytes' label (the sweep's "changed since" checks read them).
_PARSED: dict[str, dict[str, Any]] = {}
MAX_PARSED = 512


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


def based_on(r: _Reader, kind: str) -> str:
    """The optional `based_on` key: the built-in file of the same kind a designer's copy was made
    from (what a report compares it with); "" when absent."""
    name = r.get("based_on", str, "")
    if name and name not in available(kind):
        from welcome_sim.simcore.ground.userinput import nearest

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


def _starts_at_zero(r: _Reader, key: str, track: tuple[int, ...], things: str) -> None:
    """A count track's first value is the points for none crossed, 0 on every sheet: any other
    would score for nothing (a one-value `--vary sheet.pools.track=1` set it, and no box)."""
    if track and track[0] != 0:
        raise r.fail(
            f"{key}[0]",
            f"the track lists the points for 0, 1, 2, ... {things} (one value per box after the first), "
            f"so it starts at 0, not {track[0]}",
        )


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


def display_path(path: str) -> str:
    """Built-in data files as 'data/<kind>/<file>', other files as given."""
    p = Path(path).resolve()
    try:
        return str(Path("data") / p.relative_to(DATA_DIR))
    except ValueError:
        return path
