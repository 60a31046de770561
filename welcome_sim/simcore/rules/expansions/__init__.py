"""Expansion sheets: one module and one data file each (data/expansions/<name>.toml).

Every expansion plugs into the same hooks (hooks.py): numbering a house, the end of a round, final
scoring, an estate feature and goals for its Plan C cards, the AAA's share, and the greedy
player's valuation. The core kernel only calls the hooks; it knows no expansion by name.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.ground.datafiles import (
    HEADER_KEYS,
    PLAN_FIELDS,
    DataError,
    Edit,
    PlanSet,
    _read,
    _Reader,
    _resolve,
    available,
    check_keys,
    load_edition,
    plans_from,
)
from welcome_sim.simcore.ground.positions import MARKER_KEY, require_from_one
from welcome_sim.simcore.ground.schema import Num
from welcome_sim.simcore.rules.expansions.registry import FEATURES, GOALS
from welcome_sim.simcore.rules.expansions.registry import NAMES as EXPANSION_NAMES


@dataclass(frozen=True)
class Expansion:
    """An expansion's data file: its sheet layout additions, scoring figures and Plan C cards."""

    name: str
    title: str
    path: str
    provenance: str
    sheet: str
    data: dict
    plans: PlanSet
    section: str = ""  # the edition's own section in use (first edition's board), or ""
    sha256: str = field(default="", compare=False)  # of the bytes parsed: a label names the content loaded

    @property
    def code(self) -> int:
        """X_* code (1-based position in EXPANSION_NAMES)."""
        return EXPANSION_NAMES.index(self.name) + 1


def _nearest(word: str, valid) -> str:
    from welcome_sim.simcore.ground.userinput import nearest

    return nearest(word, valid)


def check_expansion(name: str) -> None:
    """Reject an unknown expansion name, listing the valid ones."""
    if name not in EXPANSION_NAMES:
        raise WelcomeSimError(
            f"--expansion: unknown expansion '{name}'{_nearest(name, ('none', *EXPANSION_NAMES))}; "
            f"valid: none, {', '.join(EXPANSION_NAMES)}"
        )


# Keys every expansion file may hold besides its module's own KEYS (the publisher's rating is read
# by the difficulty analysis).
COMMON_KEYS = {
    **dict.fromkeys(
        (
            *HEADER_KEYS,
            "sheet",
            "colours",
            "replaces_scoring",
            "publisher_stars_note",
            "race_rule",
            MARKER_KEY,
        )
    ),
    "publisher_stars": Num(0, 5, "a star rating"),
    "plans": [PLAN_FIELDS],
}


def expansion_schema(name: str, section: str = "") -> dict:
    """The keys an expansion's file may hold and the range of each number: the common ones, the
    module's own, and a table per edition's own board (its plans, and keys that replace the file's)."""
    from welcome_sim.simcore.rules.expansions.registry import MODULES

    own = {**COMMON_KEYS, **MODULES[name].KEYS}
    board = {**own, "letters": None}
    return {**own, **{b: board for b in sorted(_edition_boards() | {section}) if b}}


@functools.cache
def _edition_boards() -> frozenset[str]:
    """The sections the shipped editions read from an expansion's file (their own boards)."""
    return frozenset(load_edition(e).expansion_section for e in available("editions"))


def names_a_file(name: str) -> bool:
    """An --expansion value names a data file (a copy of an expansion's file), not a built-in."""
    return name.endswith(".toml") or "/" in name


def _own_data_file(name: str) -> str:
    """The data file an expansion's record names beside its module (an expansion of one's own), or
    "" for a built-in's (data/expansions/<name>.toml)."""
    from welcome_sim.simcore.rules.expansions.record import data_file
    from welcome_sim.simcore.rules.expansions.registry import record

    return data_file(record(name))


def load_expansion(name: str, section: str = "", edit: Edit = None) -> Expansion:
    """Load and validate an expansion's data file by name or path (a copy of a built-in file whose
    `name` says which expansion's rules it lays out); with a section (an edition's own board,
    e.g. "first") present in the file, its plans and its keys (truck starts) replace the file's."""
    if not names_a_file(name):
        check_expansion(name)
    else:
        from pathlib import Path

        if not Path(name).exists():  # a device or pipe: the reader says what it is
            raise WelcomeSimError(
                f"--expansion: no file '{name}'; give one of none, {', '.join(EXPANSION_NAMES)} or the path "
                "of a copy of an expansion's .toml file"
            )
    own = "" if names_a_file(name) else _own_data_file(name)
    r = _read(own or _resolve("expansions", name), edit)
    ename, title, prov = r.header()
    if ename not in EXPANSION_NAMES:
        # A designer's copy of an expansion file (the printed sheet's values) names the expansion
        # whose rules it lays out.
        raise r.fail("name", f"'{ename}' is not an expansion; valid: {', '.join(EXPANSION_NAMES)}")
    require_from_one(r)  # its houses, streets and columns count from 1 (positions.py)
    check_keys(r, expansion_schema(ename, section))
    colours = tuple(r.get("colours", list, []))
    plans = plans_from(r, ["A", "B", "C"], False, GOALS, FEATURES, colours, partial=True)
    data = r.data
    if section and section in r.data:
        sec = r.get(section, dict)
        sr = _Reader(r.path, sec, r.sha256)
        try:
            plans = plans_from(sr, sr.get("letters", list), False, GOALS, FEATURES, colours, partial=True)
        except DataError as exc:
            raise r.fail(f"{section}.{exc.key}", exc.problem) from None
        data = {**r.data, **sec}
    else:
        section = ""
    return Expansion(ename, title, r.path, prov, r.get("sheet", str), data, plans, section, r.sha256)
