"""The referee's readings of the expansion sheets: one module per expansion, collected by name.

Each module of this package (but base.py) declares `READING`, its class, whose `name` is the
expansion's name in its data file; `readings()` imports them all once (pkgutil over this package,
so a new module joins without an edit here). A reading defined elsewhere (a test's own expansion)
joins through `register_reading`.
"""

from __future__ import annotations

import importlib
import pkgutil
import tomllib

from welcome_sim.referee.datapath import data_path
from welcome_sim.referee.positions import from_one
from welcome_sim.referee.readings.base import RefereeExpansion

__all__ = ["RefereeExpansion", "reading_class", "readings", "referee_expansion", "register_reading"]

_READINGS: dict[str, type[RefereeExpansion]] = {}
_found = False
NOT_READINGS = frozenset({"base"})  # modules of this package that declare no reading


def register_reading(name: str, cls: type[RefereeExpansion]) -> None:
    """Let the referee read expansion `name` (the data file's `name` key) with class `cls`."""
    _discover()
    _add(name, cls, "register_reading")


def _add(name: str, cls: type[RefereeExpansion], where: str) -> None:
    # Two readings of one name would make the referee's verdict depend on import order.
    if not (isinstance(cls, type) and issubclass(cls, RefereeExpansion)):
        raise TypeError(f"{where}: the reading of '{name}' is {cls!r}, not a RefereeExpansion subclass")
    old = _READINGS.get(name)
    if old is not None and old is not cls:
        raise ValueError(
            f"{where}: expansion '{name}' already has a reading ({old.__module__}.{old.__qualname__})"
        )
    _READINGS[name] = cls
    # Every score card carries every reading's columns (0 where a reading counts none).
    for column in cls.columns:
        if column not in RefereeExpansion.every_column:
            RefereeExpansion.every_column.append(column)


def _discover() -> None:
    """Import every reading module of this package once and collect what each declares."""
    global _found
    if _found:
        return
    _found = True
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if info.name in NOT_READINGS:
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        cls = getattr(module, "READING", None)
        if cls is None:
            raise ImportError(f"{module.__file__}: a reading module declares READING (its class); none here")
        _add(cls.name, cls, str(module.__file__))


def readings() -> dict[str, type[RefereeExpansion]]:
    """Every reading the referee knows, by expansion name (a copy)."""
    _discover()
    return dict(_READINGS)


def reading_class(name: str) -> type[RefereeExpansion]:
    """The reading of expansion `name`; a ValueError naming the valid names if there is none."""
    _discover()
    if name not in _READINGS:
        raise ValueError(f"no referee reading of expansion '{name}'; known: {', '.join(sorted(_READINGS))}")
    return _READINGS[name]


def referee_expansion(name: str | None, section: str = "") -> RefereeExpansion:
    """The referee's model of an expansion (its own reading of the data file, by name or path: a
    designer's copy names the expansion whose rules it lays out); a section (the first edition's
    board) overrides the file's keys (the trucks' starts)."""
    _discover()  # every reading's columns are on every score card, the base game's too
    if name in (None, "none"):
        return RefereeExpansion()
    path = data_path("expansions", name)
    with path.open("rb") as fh:
        data = from_one("expansions", tomllib.load(fh), path)  # positions from 1 in the file, from 0 here
    kind = data["name"]  # before a section's keys (a board has a name of its own)
    if section:
        data = {**data, **data[section]}
    try:
        cls = reading_class(kind)
    except ValueError as exc:
        raise ValueError(f"{path}: name = '{kind}': {exc}") from None
    return cls(data)


# Collected when the package is first imported, so that a reading built directly (Halloween(data))
# scores every reading's columns too.
_discover()
