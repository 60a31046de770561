"""The referee's reading of Doomsday: shelters numbered with their houses; capacity bonuses at the end.

Written from the expansion rules' text (see base.py for the calls the replay makes); the module
declares its reading as READING, which the readings package collects by its `name`.
"""

from __future__ import annotations

import math

from welcome_sim.referee.readings.base import RefereeExpansion
from welcome_sim.referee.sheet import PlayerSheet


class Doomsday(RefereeExpansion):
    """Doomsday: "When you number a house with a shelter, also write that number inside the
    shelter"; at the end each street's highest capacity and the lowest total capacity earn bonuses."""

    name = "doomsday"
    columns = ("shelters", "shelter_capacity", "shelter_bonus", "optimism_bonus")

    def __init__(self, data: dict) -> None:
        self.shelters = {(s, h) for s, h in data["shelters"]}
        self.street_bonus = list(data["street_bonus"])
        self.optimism = data["optimism_bonus"]
        self.aaa_start = list(data["aaa_start"])
        self.aaa_roundabout_value = data["aaa_roundabout"]

    def capacities(self, sh: PlayerSheet) -> list[int]:
        """Each street's total capacity: "a 9¾ in a house with a shelter writes 9 in the shelter
        because ¾ of a person does not exist"."""
        caps = [0] * len(sh.streets)
        for s, h in self.shelters:
            n = sh.streets[s][h].number
            if n is not None:
                caps[s] += math.floor(n)
        return caps

    def aaa_state(self, sh: PlayerSheet) -> list[list[int]]:
        """The AAA's shelters per street (the lower halves of the player's split shelters): "At
        the start, the AAA has already built the first shelter in each street"."""
        if "aaa" not in sh.x:
            sh.x["aaa"] = [[v] for v in self.aaa_start]
        return sh.x["aaa"]

    def _aaa_build(self, sh: PlayerSheet, s: int, value: int) -> int | None:
        # "write ... inside an available shelter": a street holds as many AAA shelters as shelters.
        built = self.aaa_state(sh)[s]
        if len(built) >= sum(1 for s2, _ in self.shelters if s2 == s):
            return None
        built.append(value)
        return value

    def aaa_validation(self, sh: PlayerSheet, slot: int, given: list[tuple]) -> int | None:
        # "Validation A card: 1st street ... check the last 3 Construction cards you gave to the
        # AAA and write the value of the highest card inside the shelter."
        last = [math.floor(n) for n, _ in given[-3:]]
        return self._aaa_build(sh, slot, max(last, default=0))

    def aaa_roundabout(self, sh: PlayerSheet, s: int) -> int | None:
        # "if you build a roundabout, the AAA immediately reacts by building a shelter. In the same
        # street, write "10" for the AAA inside an available shelter."
        return self._aaa_build(sh, s, self.aaa_roundabout_value)

    def final(self, sheets: list[PlayerSheet], aaa: bool) -> None:
        caps = [self.capacities(sh) for sh in sheets]
        for p, sh in enumerate(sheets):
            if aaa:
                rivals = [[sum(v) for v in self.aaa_state(sh)]]
            else:
                rivals = [c for q, c in enumerate(caps) if q != p]
            mine = caps[p]
            # "For each street where your capacity is the highest ... In case of a tie, each
            # architect earns the bonus points"; alone at the table, nobody is higher.
            bonus = sum(b for s, b in enumerate(self.street_bonus) if all(mine[s] >= r[s] for r in rivals))
            # "If your total capacity is the lowest, you earn 9 points. In case of a tie, each
            # architect earns 9 points."
            lowest = all(sum(mine) <= sum(r) for r in rivals)
            sh.x["doomsday"] = {"bonus": bonus, "optimism": self.optimism if lowest else 0}

    def score(self, sh: PlayerSheet) -> dict[str, int]:
        won = sh.x.get("doomsday")
        if won is None:
            raise ValueError("Doomsday is scored after the comparisons between sheets (final)")
        caps = self.capacities(sh)
        built = sum(sh.streets[s][h].number is not None for s, h in self.shelters)
        return {
            **super().score(sh),
            "shelters": built,
            "shelter_capacity": sum(caps),
            "shelter_bonus": won["bonus"],
            "optimism_bonus": won["optimism"],
            "expansion_points": won["bonus"] + won["optimism"],
        }

    def feature(self, sh: PlayerSheet, s: int, a: int, b: int, name: str) -> int:
        if name != "shelters":
            return super().feature(sh, s, a, b, name)
        return sum((s, h) in self.shelters for h in range(a, b + 1))

    def goal(self, sh: PlayerSheet, plan: dict) -> bool:
        caps = self.capacities(sh)
        g = plan["goal"]
        if g == "all_shelters_built":
            return all(sh.streets[s][h].number is not None for s, h in self.shelters)
        if g == "shelter_capacity":
            return sum(caps) >= plan["count"]
        if g == "two_streets_capacity":
            return sum(c >= plan["count"] for c in caps) >= 2
        return super().goal(sh, plan)

    def aaa_points(self, cards: list[tuple], sh: PlayerSheet) -> int:
        # "Compare your shelters to the AAA's and add up your score and the AAA's (level 1 or
        # higher) by following the standard rule."
        mine = self.capacities(sh)
        theirs = [sum(v) for v in self.aaa_state(sh)]
        pts = sum(b for s, b in enumerate(self.street_bonus) if theirs[s] >= mine[s])
        return pts + (self.optimism if sum(theirs) <= sum(mine) else 0)


READING = Doomsday
