"""Integer codes of the expansions, their estate features and goals (compile-time constants), all
derived from the expansions' records (record.py, registry.py): the X_* code of an expansion is its
position among the records, FT_* and GL_* the position of a feature or goal among all records'."""

from __future__ import annotations

from welcome_sim.simcore.rules.expansions import (
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
from welcome_sim.simcore.rules.expansions.registry import FEATURES, GOALS, NAMES, TITLES

EXPANSION_NAMES = NAMES
EXPANSION_TITLES = TITLES  # for help texts (the data files' `title` is what outputs print)
X_NONE = 0
# The built-in expansions' codes, by the names hooks.py and the strategies' protocol branch on.
X_EASTER = easter.X_CODE
X_ICECREAM = icecream.X_CODE
X_CHRISTMAS = christmas.X_CODE
X_ZOMBIES = zombies.X_CODE
X_DOOMSDAY = doomsday.X_CODE
X_ROSWELL = roswell.X_CODE
X_HALLOWEEN = halloween.X_CODE
X_QUACK = quack.X_CODE
X_AMERICAN = american.X_CODE

# Estate features a plan can bound (R_PLAN_XFEAT), 1-based; each record says what its own measure.
FT_NONE = 0
FT_EGGS = easter.FT_EGGS
FT_CONES = icecream.FT_CONES
FT_GAPS = christmas.FT_GAPS
FT_LINKS = christmas.FT_LINKS
FT_LIT = christmas.FT_LIT
FT_BARRICADES = zombies.FT_BARRICADES
FT_SHELTERS = doomsday.FT_SHELTERS
FT_ZOORGS = roswell.FT_ZOORGS
FT_DUCKLINGS = quack.FT_DUCKLINGS
# Goals of kind "expansion" plans (R_PLAN_XGOAL): each expansion module names its own GL_*.
GL_NONE = 0
__all__ = ["FEATURES", "GOALS"]
