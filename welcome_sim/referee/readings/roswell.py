"""The referee's reading of Roswell: Zoorgs infiltrated under flying saucers, the set-up objective, upside-down AAA cards.

Written from the expansion rules' text (see base.py for the calls the replay makes); the module
declares its reading as READING, which the readings package collects by its `name`.
"""

from __future__ import annotations

from collections import Counter

from welcome_sim.referee.readings.base import RefereeExpansion
from welcome_sim.referee.sheet import PlayerSheet


class Roswell(RefereeExpansion):
    """Roswell: Zoorgs infiltrated under flying saucers instead of an action, the infiltration
    objective circled at set-up, infiltrated estates, and the AAA's upside-down cards."""

    name = "roswell"
    columns = ("objective", "zoorgs", "infiltrated")

    def __init__(self, data: dict) -> None:
        self.saucers = {(s, h) for s, h in data["saucers"]}
        self.offsets = list(data["column_offsets"])
        self.max_size = data["max_estate_size"]
        # (min, max or None for "or more", points per estate)
        self.boxes = [(o["min"], o.get("max"), o["points"]) for o in data["objectives"]]
        self.fail = data["fail_points"]
        self.per_card = data["aaa_points_per_card"]

    def state(self, sh: PlayerSheet) -> dict:
        """The objective circled (None before set-up) and the saucers circled."""
        if not sh.x:
            sh.x.update(objective=None, zoorgs=set())
        return sh.x

    def objectives(self) -> int:
        # "choose one infiltration objective from the 4 objectives at the bottom left of your sheet"
        return len(self.boxes)

    def objective(self, sh: PlayerSheet, k: int) -> str | None:
        st = self.state(sh)
        if st["objective"] is not None:
            return "an objective is already circled"
        if not 0 <= k < len(self.boxes):
            return f"objective {k} is not one of the sheet's {len(self.boxes)} (0 to {len(self.boxes) - 1})"
        st["objective"] = k
        return None

    def infiltrate(self, sh: PlayerSheet, s: int, h: int) -> str | None:
        # "If you have numbered a house with a flying saucer positioned above it ... Infiltrate a
        # Zoorg by circling the flying saucer (and therefore do not perform the action on the card)."
        if (s, h) not in self.saucers:
            return f"street {s + 1} house {h + 1} has no flying saucer above it"
        st = self.state(sh)
        if (s, h) in st["zoorgs"]:
            return f"the flying saucer above street {s + 1} house {h + 1} is already circled"
        st["zoorgs"].add((s, h))
        return None

    def infiltrated_estates(self, sh: PlayerSheet) -> int:
        """ "an infiltrated estate must be complete with all its houses numbered and have a maximum
        size of 6 houses", with at least 1 infiltrated Zoorg."""
        zoorgs = self.state(sh)["zoorgs"]
        return sum(
            1
            for s, a, b, complete in sh.estates()
            if complete and b - a + 1 <= self.max_size and any((s, h) in zoorgs for h in range(a, b + 1))
        )

    def score(self, sh: PlayerSheet) -> dict[str, int]:
        st = self.state(sh)
        n = self.infiltrated_estates(sh)
        k = st["objective"]
        points = self.fail * n  # "too few or too many ... only 2 points per infiltrated estate"
        if k is not None:
            lo, hi, per = self.boxes[k]
            if lo <= n and (hi is None or n <= hi):
                points = per * n  # "the highest score indicated for each infiltrated estate"
        return {
            **super().score(sh),
            "expansion_points": points,
            "objective": 0 if k is None else k + 1,
            "zoorgs": len(st["zoorgs"]),
            "infiltrated": n,
        }

    def feature(self, sh: PlayerSheet, s: int, a: int, b: int, name: str) -> int:
        if name != "zoorgs":
            return super().feature(sh, s, a, b, name)
        zoorgs = self.state(sh)["zoorgs"]
        return sum((s, h) in zoorgs for h in range(a, b + 1))

    def goal(self, sh: PlayerSheet, plan: dict) -> bool:
        zoorgs = self.state(sh)["zoorgs"]
        g = plan["goal"]
        if g == "street_zoorgs":
            # "In 1 street: all Zoorgs are infiltrated": every saucer of one street circled.
            streets = [plan["street"]] if "street" in plan else range(len(sh.streets))
            for s in streets:
                mine = [(s2, h) for s2, h in self.saucers if s2 == s]
                if mine and all(x in zoorgs for x in mine):
                    return True
            return False
        if g == "columns_zoorgs":
            # "In 3 vertical columns of houses: at least 2 Zoorgs are infiltrated."
            per_column = Counter(h + self.offsets[s] for s, h in zoorgs)
            return sum(1 for c in per_column.values() if c >= 2) >= plan["count"]
        return super().goal(sh, plan)

    def aaa_upside(self, actions: list[str]) -> list[bool]:
        # "The first card you give to the AAA must be placed upside down ... each card given
        # immediately after a Fence card must also be placed upside down"; "an upside-down Fence
        # card does not represent a fence": the card after it lies face up.
        out: list[bool] = []
        for i in range(len(actions)):
            out.append(i == 0 or (actions[i - 1] == "fence" and not out[i - 1]))
        return out

    def aaa_points(self, cards: list[tuple], sh: PlayerSheet) -> int:
        # "the AAA earns 5 points for each upside-down card"
        return self.per_card * sum(self.aaa_upside([a for _, a in cards]))


READING = Roswell
