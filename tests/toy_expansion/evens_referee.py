"""The referee's reading of Even Marks (a test's own expansion, evens.toml): written from the
rule in the data file, apart from the kernel's module (evens.py)."""

from __future__ import annotations

from welcome_sim.referee.readings.base import RefereeExpansion
from welcome_sim.referee.sheet import PlayerSheet


class Evens(RefereeExpansion):
    """Marked houses numbered with an even number score points."""

    name = "evens"
    columns = ("even_marks",)

    def __init__(self, data: dict) -> None:
        # The referee turns only the built-in keys' positions to 0-based: the marks count from 1.
        self.marks = [(s - 1, h - 1) for s, h in data["marks"]]
        self.points = data["points_per_mark"]

    def count(self, sh: PlayerSheet) -> int:
        """'Each marked house numbered with an even number' (a bis: the number it copies; a ¾
        number is not even)."""
        n = 0
        for s, h in self.marks:
            house = sh.streets[s][h]
            number = house.number
            if not house.roundabout and number is not None and number == int(number) and int(number) % 2 == 0:
                n += 1
        return n

    def score(self, sh: PlayerSheet) -> dict[str, int]:
        n = self.count(sh)
        return {**super().score(sh), "even_marks": n, "expansion_points": n * self.points}

    def goal(self, sh: PlayerSheet, plan: dict) -> bool:
        if plan["goal"] == "even_marks":
            return self.count(sh) >= plan["count"]
        return super().goal(sh, plan)


READING = Evens
