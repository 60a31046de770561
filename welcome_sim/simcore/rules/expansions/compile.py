"""Compiling an expansion's data file into the kernel table, by the module its name maps to
(registry.MODULES; the kernel side dispatches on codes in hooks.py), and the rules an expansion's
record declares about the game around it."""

from __future__ import annotations

import numpy as np

from welcome_sim.simcore.ground.datafiles import Sheet, _Reader
from welcome_sim.simcore.rules.expansions import Expansion
from welcome_sim.simcore.rules.expansions.registry import MODULES, record


def compile_expansion(T: np.ndarray, x: Expansion, sheet: Sheet) -> None:
    """Write the expansion's layout and figures into the kernel table (rows R_X_*)."""
    MODULES[x.name].compile_rows(T, _Reader(x.path, x.data), sheet)


def aaa_solo_only(x: Expansion) -> bool:
    """The expansion's solo rules are written for the Collector's AAA solo mode only (the first
    edition's solo variant is refused, as Zombie Outbreak's deal refuses it)."""
    return record(x.name).aaa_solo_only


def no_advanced(x: Expansion) -> bool:
    """The expansion cannot be played with the Advanced Mode (American Dream)."""
    return record(x.name).no_advanced


def tie_shared(x: Expansion) -> bool:
    """A tie is a shared victory, with no tie-break on estates (American Dream)."""
    return record(x.name).tie_shared


def own_plans(x: Expansion) -> bool:
    """The expansion's own A, B and C cards replace every plan set, in every edition (American
    Dream), rather than only the letters the edition lets an expansion replace."""
    return record(x.name).own_plans
