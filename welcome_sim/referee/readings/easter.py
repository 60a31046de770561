"""The referee's reading of Easter: eggs circled by the loops of numbers, scored by thresholds.

Written from the expansion rules' text (see base.py for the calls the replay makes); the module
declares its reading as READING, which the readings package collects by its `name`.
"""

from __future__ import annotations

import math

from welcome_sim.referee.readings.base import RefereeExpansion
from welcome_sim.referee.sheet import PlayerSheet


def _threshold(count: int, thresholds: list[int], points: list[int]) -> int:
    got = 0
    for t, pt in zip(thresholds, points, strict=True):
        if count >= t:
            got = pt
    return got


class Easter(RefereeExpansion):
    """Eggs circled by the loops of numbers, scored by thresholds."""

    name = "easter"
    columns = ("eggs",)

    def __init__(self, data: dict) -> None:
        self.eggs = {(s, h): (n, colour) for s, h, n, colour in data["eggs"]}
        self.loops = {int(k): v for k, v in data["loops"].items()}
        self.thresholds, self.points = data["thresholds"], data["points"]
        self.aaa_eggs = {int(k): v for k, v in data["aaa_eggs"].items()}

    def collected(self, sh: PlayerSheet, s: int, h: int) -> int:
        """Eggs the house's number circles: a 9¾ like a 9 ("just like with a number 9"); a bis with
        "the potential loops of the copied number" (its letter B circles nothing)."""
        house = sh.streets[s][h]
        if house.number is None or (s, h) not in self.eggs:
            return 0
        return min(self.eggs[(s, h)][0], self.loops.get(math.floor(house.number), 0))

    def total(self, sh: PlayerSheet) -> int:
        return sum(self.collected(sh, s, h) for s, h in self.eggs)

    def score(self, sh: PlayerSheet) -> dict[str, int]:
        eggs = self.total(sh)
        return {
            **super().score(sh),
            "eggs": eggs,
            "expansion_points": _threshold(eggs, self.thresholds, self.points),
        }

    def feature(self, sh: PlayerSheet, s: int, a: int, b: int, name: str) -> int:
        if name != "eggs":
            return super().feature(sh, s, a, b, name)
        return sum(self.collected(sh, s, h) for h in range(a, b + 1))

    def goal(self, sh: PlayerSheet, plan: dict) -> bool:
        g = plan["goal"]
        if g == "all_eggs_of_colours":
            want = [k for k, (_, c) in self.eggs.items() if c in plan["colours"]]
            return all(self.collected(sh, s, h) == self.eggs[(s, h)][0] for s, h in want)
        if g == "all_eggs_of_street":
            # "every egg of one street": the card's street, or any street when it names none.
            streets = [plan["street"]] if "street" in plan else range(len(sh.streets))
            return any(
                all(self.collected(sh, s, h) == n for (s, h), (n, _) in self.eggs.items() if s == street)
                for street in streets
            )
        if g == "colours_each_street":
            for s in range(len(sh.streets)):
                colours = {c for (s2, h), (_, c) in self.eggs.items() if s2 == s and self.collected(sh, s, h)}
                if len(colours) < plan["count"]:
                    return False
            return True
        return super().goal(sh, plan)

    def aaa_points(self, cards: list[tuple], sh: PlayerSheet) -> int:
        eggs = sum(self.aaa_eggs.get(math.floor(number), 0) for number, _ in cards)
        return _threshold(eggs, self.thresholds, self.points)


READING = Easter
