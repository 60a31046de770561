"""The old home of the referee's expansion readings, kept so that older import paths still work.

The readings live one module per expansion in welcome_sim.referee.readings, which collects them.
"""

from __future__ import annotations

from welcome_sim.referee.readings import RefereeExpansion, referee_expansion, register_reading
from welcome_sim.referee.readings.american_dream import AmericanDream
from welcome_sim.referee.readings.christmas import Christmas, consecutive
from welcome_sim.referee.readings.doomsday import Doomsday
from welcome_sim.referee.readings.easter import Easter
from welcome_sim.referee.readings.halloween import Halloween
from welcome_sim.referee.readings.icecream import IceCream
from welcome_sim.referee.readings.quack import Quack
from welcome_sim.referee.readings.roswell import Roswell
from welcome_sim.referee.readings.zombies import SIDES, ZOMBIE_TEXT, Zombies

__all__ = [
    "SIDES",
    "ZOMBIE_TEXT",
    "AmericanDream",
    "Christmas",
    "Doomsday",
    "Easter",
    "Halloween",
    "IceCream",
    "Quack",
    "RefereeExpansion",
    "Roswell",
    "Zombies",
    "consecutive",
    "referee_expansion",
    "register_reading",
]
