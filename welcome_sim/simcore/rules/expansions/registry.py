"""Every registry keyed by expansion, derived from the records the expansion modules declare
(record.py): nothing here is kept by hand."""

from __future__ import annotations

import importlib
from types import ModuleType

from welcome_sim.simcore.ground.layout import BASE_OUT_COLUMNS
from welcome_sim.simcore.rules.expansions.record import Record, module_names, record_of

RECORDS: tuple[Record, ...] = tuple(record_of(m) for m in module_names())
BY_NAME: dict[str, Record] = {r.name: r for r in RECORDS}
if len(BY_NAME) != len(RECORDS):
    raise ValueError(f"two expansion records share a name: {[r.name for r in RECORDS]}")
NAMES: tuple[str, ...] = tuple(BY_NAME)
TITLES: tuple[str, ...] = tuple(r.title for r in RECORDS)
MODULES: dict[str, ModuleType] = {r.name: importlib.import_module(r.module) for r in RECORDS}
# Columns of the per-player results `out[game, p, k]`: the base game's, then each record's.
OUT_COLUMNS: tuple[str, ...] = BASE_OUT_COLUMNS + tuple(c for r in RECORDS for c in r.columns)
OUT_LEN = len(OUT_COLUMNS)
FEATURES: tuple[str, ...] = tuple(f for r in RECORDS for f in r.features)
GOALS: tuple[str, ...] = tuple(g for r in RECORDS for g in r.goals)
# The referee reading of each expansion, "module:Class" (the referee's own map is checked against it).
REFEREES: dict[str, str] = {r.name: r.referee for r in RECORDS}


def record(name: str) -> Record:
    """The record of an expansion by name (a KeyError for an unknown one)."""
    return BY_NAME[name]
