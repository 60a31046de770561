"""The expansion modules by name: the one map from an expansion's name to its module, read by the
kernel-table compiler (compile.py) and the data files' schema (each module's KEYS)."""

from __future__ import annotations

from welcome_sim.expansions import (
    american,
    christmas,
    doomsday,
    easter,
    halloween,
    icecream,
    quack,
    roswell,
    zombies,
)

MODULES = {
    "easter": easter,
    "icecream": icecream,
    "christmas": christmas,
    "zombies": zombies,
    "doomsday": doomsday,
    "roswell": roswell,
    "halloween": halloween,
    "quack": quack,
    "american-dream": american,
}
