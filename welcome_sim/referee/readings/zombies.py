"""The referee's reading of Zombie Outbreak: hordes, ammunition, barricades and invaded houses (the sheet's side of it).

Written from the expansion rules' text (see base.py for the calls the replay makes); the module
declares its reading as READING, which the readings package collects by its `name`.
"""

from __future__ import annotations

from welcome_sim.referee.readings.base import RefereeExpansion
from welcome_sim.referee.sheet import PlayerSheet

ZOMBIE_TEXT = {
    "left": "the 3 hordes on the left move right",
    "right": "the 3 hordes on the right move left",
    "all": "all 6 hordes move",
}
SIDES = ("left", "right")


class Zombies(RefereeExpansion):
    """Zombie Outbreak: six hordes walking in from the streets' ends, ammunition that holds them,
    barricades that stop them, and invaded houses (Z) sealed for good."""

    name = "zombies"
    columns = ("invaded", "ammunition_used", "barricades")
    # "A Z is not a number and does not stop the numbering ... 5B-Z-5, or ... 5B-Z-5B": a number
    # may equal a bis in the order (never an equal number that is no bis), and an extension may
    # copy across Z houses.
    twins_across_z = True

    def __init__(self, data: dict) -> None:
        self.open_houses = {(s, h) for s, h in data["open_houses"]}
        self.road = data["road"]
        self.start_ammunition = data["start_ammunition"]
        self.ammunition_boxes = {(size, box) for size, box in data["ammunition_boxes"]}
        self.kinds = list(data["cards"])
        self.parts, self.part_size = data["first_stack_parts"], data["part_size"]
        # Expert mode: construction cards per architect in the deck; AAA solo: cards per stack.
        self.expert_per = data["expert_cards_per_architect"]
        self.aaa_part_size = data["aaa_part_size"]

    def state(self, sh: PlayerSheet) -> dict:
        """The player's hordes (moves made by [street][side]), ammunition and invaded houses."""
        if not sh.x:
            sh.x.update(hordes=[[0, 0] for _ in sh.streets], gained=0, used=0, built=0, invaded=[])
        return sh.x

    def ammunition(self, sh: PlayerSheet) -> int:
        """Circled ammunition not yet crossed out ("You start the game with one ammunition")."""
        st = self.state(sh)
        return self.start_ammunition + st["gained"] - st["used"]

    def moving(self, kind: str, n_streets: int) -> list[tuple[int, int]]:
        """The hordes a Zombie card moves, in the order they move: "starting with the 1st street,
        then the 2nd, and finally the 3rd" (in a street the left one first)."""
        sides = {"left": (0,), "right": (1,), "all": (0, 1)}[kind]
        return [(s, side) for s in range(n_streets) for side in sides]

    def at_end(self, sh: PlayerSheet, s: int, side: int) -> bool:
        """The horde has walked every arrow of its road and moves no more."""
        return self.state(sh)["hordes"][s][side] >= self.road

    def hold(self, sh: PlayerSheet, s: int, side: int) -> str | None:
        """Hold a horde ("Cross out 1 circled ammunition and choose 1 zombie horde"): None if legal,
        else why."""
        if self.at_end(sh, s, side):
            return "that horde has reached the end of its road and does not move"
        if self.ammunition(sh) <= 0:
            return "no circled ammunition left"
        self.state(sh)["used"] += 1
        return None

    def move(self, sh: PlayerSheet, s: int, side: int) -> tuple[int, float | None] | None:
        """Move the horde one house inward; if the house it arrives at is invaded, apply it and
        return (house, number erased or None)."""
        st = self.state(sh)
        k = st["hordes"][s][side]
        st["hordes"][s][side] = k + 1
        row = sh.streets[s]
        h = k if side == 0 else len(row) - 1 - k
        house = row[h]
        # "If it is barricaded, nothing happens"; Advanced mode: "If a horde of zombies reaches a
        # roundabout, nothing happens"; a Z is already sealed.
        if (s, h) not in self.open_houses or house.barricade or house.roundabout or house.invaded:
            return None
        # "If the house is numbered, erase the number. Write a Z on the house and draw a fence on
        # each side". The pool stays circled and the extension box crossed: their points stay.
        erased = house.number
        house.number, house.bis, house.invaded = None, False, True
        sh.fences[s] |= {h, h + 1}
        st["invaded"].append((s, h))
        return h, erased

    def improved(self, sh: PlayerSheet, col: int) -> str:
        # "When you cross out an Improvement box with ammunition, circle an ammunition".
        if (col + 1, sh.improvements[col]) in self.ammunition_boxes:
            self.state(sh)["gained"] += 1
            return " (an ammunition circled)"
        return ""

    def barricade(self, sh: PlayerSheet, s: int, h: int) -> str | None:
        if (s, h) not in self.open_houses:
            return f"street {s + 1} house {h + 1} already has a printed barricade"
        house = sh.streets[s][h]
        if house.barricade:
            return f"street {s + 1} house {h + 1} is already barricaded"
        house.barricade = True
        self.state(sh)["built"] += 1
        return None

    def score(self, sh: PlayerSheet) -> dict[str, int]:
        st = self.state(sh)
        return {
            **super().score(sh),
            "invaded": len(st["invaded"]),
            "ammunition_used": st["used"],
            "barricades": st["built"],
        }

    def feature(self, sh: PlayerSheet, s: int, a: int, b: int, name: str) -> int:
        if name != "barricades":
            return super().feature(sh, s, a, b, name)
        return sum(sh.streets[s][h].barricade for h in range(a, b + 1))

    def goal(self, sh: PlayerSheet, plan: dict) -> bool:
        st = self.state(sh)
        g = plan["goal"]
        if g == "barricades_built":
            return st["built"] >= plan["count"]
        if g == "street_barricades":
            # "In 1 street: build all the barricades": every house without a printed barricade
            # of one street (a street that has such houses) barricaded by the player.
            for s, row in enumerate(sh.streets):
                open_here = [h for s2, h in self.open_houses if s2 == s]
                if open_here and all(row[h].barricade for h in open_here):
                    return True
            return False
        if g == "ammunition_used":
            return st["used"] >= plan["count"]
        if g == "houses_invaded":
            return len(st["invaded"]) >= plan["count"]
        return super().goal(sh, plan)


READING = Zombies
