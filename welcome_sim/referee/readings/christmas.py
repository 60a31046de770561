"""The referee's reading of Christmas Lights: strings of lights between consecutive neighbours; each street's longest scores.

Written from the expansion rules' text (see base.py for the calls the replay makes); the module
declares its reading as READING, which the readings package collects by its `name`.
"""

from __future__ import annotations

import math

from welcome_sim.referee.readings.base import RefereeExpansion
from welcome_sim.referee.sheet import PlayerSheet


def consecutive(left: float, right: float) -> bool:
    """Christmas Lights: two neighbouring numbers form a string ("a sequence of neighboring numbers
    without any missing numbers"; an extension beside its source; 9 - 9¾ - 10 and 8 - 9¾ - 10)."""
    if left == right:
        return True
    lw, rw = left == int(left), right == int(right)
    if lw and rw:
        return right == left + 1
    if lw:  # right is n¾: follows n-1 or n
        return left in (math.floor(right) - 1, math.floor(right))
    if rw:  # left is n¾: followed by n+1
        return right == math.floor(left) + 1
    return False


class Christmas(RefereeExpansion):
    """Strings of lights between consecutive neighbours; each street's longest string scores."""

    name = "christmas"
    columns = ("lights",)

    def __init__(self, data: dict) -> None:
        self.per_house, self.per_card = data["points_per_house"], data["aaa_per_card"]

    def joined(self, sh: PlayerSheet, s: int, h: int) -> bool:
        """Houses h and h+1 of street s are joined by a string (roundabouts are no houses)."""
        a, b = sh.streets[s][h], sh.streets[s][h + 1]
        return a.number is not None and b.number is not None and consecutive(a.number, b.number)

    def longest(self, sh: PlayerSheet, s: int) -> int:
        best, run = 0, 1
        for h in range(len(sh.streets[s]) - 1):
            run = run + 1 if self.joined(sh, s, h) else 1
            if run > 1:
                best = max(best, run)
        return best

    def score(self, sh: PlayerSheet) -> dict[str, int]:
        lights = sum(self.longest(sh, s) for s in range(len(sh.streets)))
        return {**super().score(sh), "lights": lights, "expansion_points": lights * self.per_house}

    def feature(self, sh: PlayerSheet, s: int, a: int, b: int, name: str) -> int:
        joined = [self.joined(sh, s, h) for h in range(a, b)]
        if name == "gaps":
            return joined.count(False)
        if name == "links":
            return joined.count(True)
        if name == "lit":
            # "No light": no house of the estate on a string, strings across its fences included.
            n = len(sh.streets[s])
            return sum(
                (h > 0 and self.joined(sh, s, h - 1)) or (h + 1 < n and self.joined(sh, s, h))
                for h in range(a, b + 1)
            )
        return super().feature(sh, s, a, b, name)

    def goal(self, sh: PlayerSheet, plan: dict) -> bool:
        streets = [plan["street"]] if "street" in plan else range(len(sh.streets))
        for s in streets:
            n = len(sh.streets[s])
            through = sh.streets[s][0].number is not None and all(self.joined(sh, s, h) for h in range(n - 1))
            if not through:
                continue
            if plan["goal"] == "street_string":
                return True
            if plan["goal"] == "street_string_parks" and sh.parks[s] >= len(sh.rules.park_tracks[s]) - 1:
                return True
        return False

    def aaa_points(self, cards: list[tuple], sh: PlayerSheet) -> int:
        fences = [i for i, (_, a) in enumerate(cards) if a == "fence"]
        if len(fences) < 2:
            return 0
        return self.per_card * (fences[-1] - fences[0] - 1)


READING = Christmas
