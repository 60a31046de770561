"""The referee's reading of Ice Cream: trucks serving cones in the order houses are numbered; the end-of-delivery bonus.

Written from the expansion rules' text (see base.py for the calls the replay makes); the module
declares its reading as READING, which the readings package collects by its `name`.
"""

from __future__ import annotations

from welcome_sim.referee.readings.base import RefereeExpansion
from welcome_sim.referee.sheet import PlayerSheet


class IceCream(RefereeExpansion):
    """Trucks serving cones in the order houses are numbered; the end-of-delivery bonus."""

    name = "icecream"
    columns = ("cones", "delivery_bonus")

    def __init__(self, data: dict) -> None:
        self.cones = {(s, h): n for s, h, n in data["cones"]}
        # 1: left to right, -1: right to left, 0: "on street 3 the player chooses the side it
        # starts from" (first edition).
        self.dirs = data["directions"]
        self.bonus_per_cone = data["bonus_per_cone"]
        self.per_card, self.per_bonus = data["aaa_per_card"], data["aaa_per_bonus"]

    def _state(self, sh: PlayerSheet) -> dict:
        if not sh.x:
            n = len(sh.streets)
            sh.x.update(
                truck=[None] * n, circled=set(), crossed=set(), bonus=["open"] * n, dirs=list(self.dirs)
            )
        return sh.x

    def _order(self, sh: PlayerSheet, s: int) -> list[int]:
        """Houses of street s in the truck's direction."""
        hs = list(range(len(sh.streets[s])))
        return hs if self._state(sh)["dirs"][s] == 1 else hs[::-1]

    def choose_side(self, sh: PlayerSheet, s: int, side: int) -> str | None:
        st = self._state(sh)
        if not 0 <= s < len(sh.streets) or self.dirs[s] != 0:
            return f"the truck of street {s + 1} starts where the board says, not where the player chooses"
        if st["dirs"][s] != 0:
            return f"the start of street {s + 1}'s truck was already chosen"
        if side not in (0, 1):
            return f"side {side} is neither 0 (left) nor 1 (right)"
        if any(house.number is not None for house in sh.streets[s]):
            return f"street {s + 1} already has a number: the truck's start is chosen with the first"
        st["dirs"][s] = 1 if side == 0 else -1
        return None

    def side_missing(self, sh: PlayerSheet, s: int) -> bool:
        return self._state(sh)["dirs"][s] == 0

    def numbered(self, sh: PlayerSheet, s: int, h: int) -> None:
        st = self._state(sh)
        order = self._order(sh, s)
        at = st["truck"][s]
        pos = order.index(h)
        if at is not None and pos <= order.index(at):
            return  # "Ice cream trucks do not go back"
        start = 0 if at is None else order.index(at) + 1
        for hh in order[start:pos]:
            if (s, hh) in self.cones and (s, hh) not in st["circled"]:
                st["crossed"].add((s, hh))
        if (s, h) in self.cones:
            st["circled"].add((s, h))
        st["truck"][s] = h
        cones = [k for k in self.cones if k[0] == s]
        if st["bonus"][s] == "open" and all(k in st["circled"] or k in st["crossed"] for k in cones):
            st["bonus"][s] = "done this round"

    def round_over(self, sheets: list[PlayerSheet]) -> None:
        states = [self._state(sh) for sh in sheets]
        for s in range(len(sheets[0].streets)):
            if any(st["bonus"][s] == "done this round" for st in states):
                for st in states:
                    st["bonus"][s] = {"done this round": "circled", "open": "crossed"}.get(
                        st["bonus"][s], st["bonus"][s]
                    )

    def must_cross(self, sh: PlayerSheet) -> bool:
        # "you must immediately cross out 1 End of Delivery Bonus of your choice that you have
        # not yet circled" (when one is left).
        return "open" in self._state(sh)["bonus"]

    def cross(self, sh: PlayerSheet, s: int) -> str | None:
        st = self._state(sh)
        if not 0 <= s < len(sh.streets) or st["bonus"][s] != "open":
            return (
                f"the bonus of street {s + 1} is {st['bonus'][s] if 0 <= s < len(sh.streets) else 'missing'}"
            )
        st["bonus"][s] = "crossed"
        return None

    def score(self, sh: PlayerSheet) -> dict[str, int]:
        st = self._state(sh)
        scoops = sum(self.cones[k] for k in st["circled"])
        bonus = sum(self.bonus_per_cone for (s, _) in st["circled"] if st["bonus"][s] == "circled")
        return {
            **super().score(sh),
            "cones": len(st["circled"]),
            "delivery_bonus": bonus,
            "expansion_points": scoops + bonus,
        }

    def feature(self, sh: PlayerSheet, s: int, a: int, b: int, name: str) -> int:
        if name != "cones":
            return super().feature(sh, s, a, b, name)
        return sum((s, h) in self._state(sh)["circled"] for h in range(a, b + 1))

    def goal(self, sh: PlayerSheet, plan: dict) -> bool:
        circled = self._state(sh)["circled"]
        if plan["goal"] == "cones_of_scoops":
            return sum(self.cones[k] == plan["scoops"] for k in circled) >= plan["count"]
        if plan["goal"] == "all_cones_of_street":
            streets = [plan["street"]] if "street" in plan else range(len(sh.streets))
            return any(all(k in circled for k in self.cones if k[0] == s) for s in streets)
        return super().goal(sh, plan)

    def aaa_points(self, cards: list[tuple], sh: PlayerSheet) -> int:
        crossed = sum(b == "crossed" for b in self._state(sh)["bonus"])
        return self.per_card * sum(a != "fence" for _, a in cards) + self.per_bonus * crossed


READING = IceCream
