"""Compiling an expansion's data file into the kernel table: the one place that maps an
expansion's name to its module (the kernel side dispatches on codes in hooks.py)."""

from __future__ import annotations

import numpy as np

from welcome_sim.expansions import Expansion, christmas, doomsday, easter, halloween, icecream, zombies
from welcome_sim.simcore.datafiles import Sheet, _Reader

MODULES = {
    "easter": easter,
    "icecream": icecream,
    "christmas": christmas,
    "zombies": zombies,
    "doomsday": doomsday,
    "halloween": halloween,
}


def compile_expansion(T: np.ndarray, x: Expansion, sheet: Sheet) -> None:
    """Write the expansion's layout and figures into the kernel table (rows R_X_*)."""
    MODULES[x.name].compile_rows(T, _Reader(x.path, x.data), sheet)
