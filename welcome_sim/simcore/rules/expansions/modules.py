"""The expansion modules by name (derived from their records: registry.MODULES), read by the
kernel-table compiler (compile.py) and the data files' schema (each module's KEYS)."""

from __future__ import annotations

from welcome_sim.simcore.rules.expansions.registry import MODULES

__all__ = ["MODULES"]
