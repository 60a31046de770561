"""The referee's reading of the expansion sheets, written from the expansion rules' text.

One class per expansion, built from its data file; the replay calls `numbered` after every house
numbered (a card's or an extension's), `round_over` after each round's moves, `round_scored` after
its plan validations (Quack's scoring phases), `cross` for the Ice Cream
bonus an AAA validation card makes the player cross, `choose_side` / `side_missing` for the first
edition's Ice Cream truck whose start the player chooses, `improved` after an Improvement box
crossed, `barricade` for a Fence action that builds a barricade (Zombie Outbreak, whose Zombie
cards the replay applies through `Zombies.move` and `Zombies.hold`), `objective` for the
objective a player circles at set-up and `infiltrate` for a Zoorg infiltrated instead of an action
(Roswell), then `score`, `feature`, `goal`, `aaa_upside` and `aaa_points`. Numbers here are plain
numbers, 9.75 for a 9¾.
"""

from __future__ import annotations

import math
import tomllib
from collections import Counter

from welcome_sim.referee.datapath import data_path
from welcome_sim.referee.positions import from_one
from welcome_sim.referee.sheet import PlayerSheet


class RefereeExpansion:
    """Base game: no expansion, nothing to add."""

    name = "none"

    def numbered(self, sh: PlayerSheet, s: int, h: int) -> None:
        """House (s, h) was just numbered."""

    def round_over(self, sheets: list[PlayerSheet]) -> None:
        """Every player has played the round (before its plan validations)."""

    def round_scored(self, sheets: list[PlayerSheet], given: list[tuple]) -> None:
        """The round's plan validations are over: what the expansion scores at the round's end after
        them (Quack's scoring phases; the log's kind 21 rows with b = 0 come after the round's
        plans). given: the cards given to the AAA so far, as (number, action) (AAA solo mode; else
        empty)."""

    def cross(self, sh: PlayerSheet, s: int) -> str | None:
        """An AAA validation card makes the player cross street s's bonus; None if legal, else why."""
        return "this expansion has nothing to cross when a validation card comes up"

    def must_cross(self, sh: PlayerSheet) -> bool:
        """An AAA validation card obliges the player to cross something (checked when none was)."""
        return False

    def choose_side(self, sh: PlayerSheet, s: int, side: int) -> str | None:
        """The player chooses the side street s's truck starts from; None if legal, else why."""
        return "this expansion has no truck whose start a player chooses"

    def side_missing(self, sh: PlayerSheet, s: int) -> bool:
        """Numbering a house in street s needs a start side the player has not chosen."""
        return False

    def score(self, sh: PlayerSheet) -> dict[str, int]:
        """The expansion's columns of the score card."""
        return {
            "expansion_points": 0,
            "eggs": 0,
            "cones": 0,
            "delivery_bonus": 0,
            "lights": 0,
            "invaded": 0,
            "ammunition_used": 0,
            "barricades": 0,
            "shelters": 0,
            "shelter_capacity": 0,
            "shelter_bonus": 0,
            "optimism_bonus": 0,
            "objective": 0,
            "zoorgs": 0,
            "infiltrated": 0,
            "ghosts": 0,
            "candies": 0,
            "ghost_level": 0,
            "candy_level": 0,
            "ducklings": 0,
            "ducklings_connected": 0,
            "phases_triggered": 0,
            "phases_in_play": 0,
            "perfect": 0,
            "columns_complete": 0,
            "column_bonuses": 0,
            "street_bonuses": 0,
        }

    def improved(self, sh: PlayerSheet, col: int) -> str:
        """An Improvement box of column col (estate size col + 1) was just crossed; returns what it
        adds to the move's description."""
        return ""

    def barricade(self, sh: PlayerSheet, s: int, h: int) -> str | None:
        """The Fence action builds a barricade in front of house (s, h); None if legal, else why."""
        return "barricades belong to Zombie Outbreak"

    def feature(self, sh: PlayerSheet, s: int, a: int, b: int, name: str) -> int:
        """A Plan C card's measure of the estate a..b (inclusive)."""
        raise ValueError(f"no estate feature '{name}' without its expansion")

    def goal(self, sh: PlayerSheet, plan: dict) -> bool:
        """A Plan C card's goal is met."""
        raise ValueError(f"no goal '{plan.get('goal')}' without its expansion")

    def aaa_validation(self, sh: PlayerSheet, slot: int, given: list[tuple]) -> int | None:
        """AAA solo mode: the validation card of plan slot came up and the AAA reacts on the sheet
        (given: the cards given to it so far, as (number, action)); the value it writes, or None."""
        return None

    def aaa_roundabout(self, sh: PlayerSheet, s: int) -> int | None:
        """AAA solo mode: the player built a roundabout in street s; the value the AAA writes, or
        None."""
        return None

    def final(self, sheets: list[PlayerSheet], aaa: bool) -> None:
        """The game is over, before scoring: comparisons between the players' sheets (aaa: the AAA
        solo mode, where the AAA is the one opponent)."""

    def aaa_points(self, cards: list[tuple], sh: PlayerSheet) -> int:
        """The AAA's points (level 1 and up) from the cards given to it, as (number, action)."""
        return 0

    def objectives(self) -> int:
        """How many objectives a player chooses one of at set-up (0: none)."""
        return 0

    def objective(self, sh: PlayerSheet, k: int) -> str | None:
        """The player circles set-up objective k; None if legal, else why."""
        return "this expansion has no objective to choose at set-up"

    def infiltrate(self, sh: PlayerSheet, s: int, h: int) -> str | None:
        """A Zoorg infiltrated instead of the action at house (s, h); None if legal, else why."""
        return "Zoorgs belong to Roswell"

    def aaa_upside(self, actions: list[str]) -> list[bool]:
        """Which cards given to a scoring AAA (level 1 and up) lie upside down, by their actions in
        the order given."""
        return [False] * len(actions)

    def after_move(self, sh: PlayerSheet, rows: list[list[int]], where: str) -> str:
        """The expansion's rows of the player's decisions right after the move (Halloween: the
        ghost or candy circled); returns what they add to the move's description."""
        if rows:
            raise ValueError(f"{where}: rows of an expansion decision in a game without it: {rows[0]}")
        return ""

    def round_decisions(self, sheets: list[PlayerSheet], rows: list[list[int]], where: str) -> list[str]:
        """The expansion's rows of the round's end, after the plan validations (Halloween: claims
        and Ghost bonuses); returns their descriptions."""
        if rows:
            raise ValueError(f"{where}: rows of an expansion decision in a game without it: {rows[0]}")
        return []

    def validation_card(self, sh: PlayerSheet, slot: int) -> str:
        """AAA solo mode: what validation card `slot` (A, B, C) crosses by its letter; the text."""
        return ""

    def check_events(self, sheets: list[PlayerSheet], rows: list[list[int]]) -> str | None:
        """The log's rows of public events the expansion scores on every sheet (Quack's scoring
        phases, kinds 21 and 22) against the referee's own; None if they agree, else why."""
        if rows:
            return f"rows of an expansion's scoring phases in a game without them: {rows[0]}"
        return None

    # Does the AAA's score on this sheet replace its usual parks, pools, temps, fences and estates
    # (American Dream: none of them exists on the sheet)?
    aaa_own_scoring = False
    tie_shared = False  # a tie on score is broken by complete estates (the core rules)

    def used_action(self, sh: PlayerSheet, s: int, h: int, card_action: str, move_action: int) -> str:
        """The player numbered (s, h) with a combination whose action card is card_action (the
        move's own action code: move_action, -1 none); returns what it adds to the description,
        raises ValueError when the sheet forbids it."""
        return ""

    def validation_crosses(self, sh: PlayerSheet, rows: list[list[int]], where: str) -> str:
        """AAA solo mode: the rows of the bonuses a validation card makes the player choose to cross
        (taken off rows, in order); returns their description."""
        return ""


def _threshold(count: int, thresholds: list[int], points: list[int]) -> int:
    got = 0
    for t, pt in zip(thresholds, points, strict=True):
        if count >= t:
            got = pt
    return got


class Easter(RefereeExpansion):
    """Eggs circled by the loops of numbers, scored by thresholds."""

    name = "easter"

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


class IceCream(RefereeExpansion):
    """Trucks serving cones in the order houses are numbered; the end-of-delivery bonus."""

    name = "icecream"

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


class Doomsday(RefereeExpansion):
    """Doomsday: "When you number a house with a shelter, also write that number inside the
    shelter"; at the end each street's highest capacity and the lowest total capacity earn bonuses."""

    name = "doomsday"

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


class Roswell(RefereeExpansion):
    """Roswell: Zoorgs infiltrated under flying saucers instead of an action, the infiltration
    objective circled at set-up, infiltrated estates, and the AAA's upside-down cards."""

    name = "roswell"

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


KINDS = ("ghost", "candy")
MARK, CLAIM, BONUS = 17, 18, 19  # log kinds of the Halloween decisions
ALT, POOL, PARK, EXTENSION = 3, 4, 5, 6  # a kind 19 row's a: what the Ghost bonus does


class Halloween(RefereeExpansion):
    """Halloween: houses with a ghost and a candy, one of the two circled when numbered; Ghost and
    Candy levels claimed with an exact count at a round's end; Ghost bonuses used at once."""

    name = "halloween"

    def __init__(self, data: dict) -> None:
        self.marked = {(s, h) for s, h in data["marked"]}
        self.needs = {"ghost": list(data["ghost_levels"]), "candy": list(data["candy_levels"])}
        self.bonuses = [[(name, n) for name, n in alts] for alts in data["ghost_bonuses"]]
        self.candy_points = list(data["candy_points"])
        self.aaa_per_level = data["aaa_per_level"]

    def state(self, sh: PlayerSheet) -> dict:
        """The player's circled marks by house, houses numbered but not yet marked, and each
        level's state: open, due (claimed this round), circled or crossed."""
        if not sh.x:
            sh.x.update(marks={}, pending=[], levels={k: ["open"] * 3 for k in KINDS})
        return sh.x

    def count(self, sh: PlayerSheet, kind: str) -> int:
        return sum(1 for m in self.state(sh)["marks"].values() if m == kind)

    def claimed(self, sh: PlayerSheet, kind: str) -> int | None:
        """The level of this kind the player has (circled or claimed this round), or None."""
        for lv, st in enumerate(self.state(sh)["levels"][kind]):
            if st in ("circled", "due"):
                return lv
        return None

    def numbered(self, sh: PlayerSheet, s: int, h: int) -> None:
        # "Each time you number a house with a ghost and a candy, circle one of the two" (the
        # Extension action's house too: "you must also circle one of the two").
        if (s, h) in self.marked:
            self.state(sh)["pending"].append((s, h))

    def _mark(self, sh: PlayerSheet, e: list[int], where: str) -> str:
        st = self.state(sh)
        s, h, which = e[4], e[5], e[6]
        if (s, h) not in st["pending"]:
            raise ValueError(
                f"{where}: circles a mark of street {s + 1} house {h + 1}, not a house with a ghost and a candy just numbered"
            )
        if which not in (0, 1):
            raise ValueError(f"{where}: mark {which} is neither the ghost (0) nor the candy (1)")
        st["pending"].remove((s, h))
        st["marks"][(s, h)] = KINDS[which]
        return f"{KINDS[which]} circled in street {s + 1}, house {h + 1}"

    def after_move(self, sh: PlayerSheet, rows: list[list[int]], where: str) -> str:
        texts = [self._mark(sh, e, where) for e in rows]
        if self.state(sh)["pending"]:
            s, h = self.state(sh)["pending"][0]
            raise ValueError(
                f"{where}: street {s + 1} house {h + 1} has a ghost and a candy and neither was circled"
            )
        return "".join(f", {t}" for t in texts)

    # --- the Ghost bonuses ----------------------------------------------------------------------
    def _pool_ok(self, sh: PlayerSheet, s: int, h: int) -> bool:
        # "Circle 1 pool anywhere, whether the house is numbered or not, and cross out 1 box in the
        # pool section": a printed pool not yet circled (a roundabout or a Z has no house left).
        if not (0 <= s < len(sh.streets) and 0 <= h < len(sh.streets[s])):
            return False
        house = sh.streets[s][h]
        return (
            h in sh.rules.pool_houses[s]
            and not house.pool
            and not house.roundabout
            and not house.invaded
            and sh.pools < len(sh.rules.pool_track) - 1
        )

    def _park_ok(self, sh: PlayerSheet, s: int) -> bool:
        # "Cross out 1 Park box on any street".
        return 0 <= s < len(sh.streets) and sh.parks[s] < len(sh.rules.park_tracks[s]) - 1

    def _ext_ok(self, sh: PlayerSheet, s: int, src: int, tgt: int) -> bool:
        # "Perform 1 Extension action without crossing out a box in the extension section": the
        # number of a house copied into the empty house directly left or right of it (the first
        # edition: in the same estate); a full extension track does not matter.
        if not 0 <= s < len(sh.streets) or abs(src - tgt) != 1:
            return False
        row = sh.streets[s]
        if not (0 <= src < len(row) and 0 <= tgt < len(row)):
            return False
        if row[src].number is None or not row[tgt].empty:
            return False
        return not (sh.rules.bis_same_estate and max(src, tgt) in sh.fences[s])

    def _any(self, sh: PlayerSheet, unit: str) -> bool:
        """Some place is left for one unit of this bonus."""
        n = len(sh.streets)
        if unit == "pool":
            return any(self._pool_ok(sh, s, h) for s in range(n) for h in range(len(sh.streets[s])))
        if unit == "park":
            return any(self._park_ok(sh, s) for s in range(n))
        return any(
            self._ext_ok(sh, s, h, h + d)
            for s in range(n)
            for h in range(len(sh.streets[s]))
            for d in (-1, 1)
        )

    def _unit(self, sh: PlayerSheet, e: list[int], unit: str, where: str) -> str:
        op, s, h, t = e[4], e[5], e[6], e[7]
        if op == POOL and unit == "pool":
            if not self._pool_ok(sh, s, h):
                raise ValueError(
                    f"{where}: the Pool bonus cannot circle a pool at street {s + 1} house {h + 1}"
                )
            sh.streets[s][h].pool = True
            sh.pools += 1
            return f"Pool bonus: pool of street {s + 1}, house {h + 1}"
        if op == PARK and unit == "park":
            if not self._park_ok(sh, s):
                raise ValueError(f"{where}: the Park bonus finds no park box left in street {s + 1}")
            sh.parks[s] += 1
            return f"Park bonus: park in street {s + 1}"
        if op == EXTENSION and unit == "extension":
            if not self._ext_ok(sh, s, h, t):
                raise ValueError(
                    f"{where}: the Extension bonus cannot copy house {h + 1} into house {t + 1} of street {s + 1}"
                )
            row = sh.streets[s]
            row[t].number = row[h].number
            row[t].bis = True
            if sh.rules.bis_same_estate:
                sh.links[s].add(max(h, t))
            self.numbered(sh, s, t)
            return f"Extension bonus: {row[t].number}B in street {s + 1}, house {t + 1}"
        raise ValueError(f"{where}: a Ghost bonus row {e} where a {unit} bonus is due")

    def round_decisions(self, sheets: list[PlayerSheet], rows: list[list[int]], where: str) -> list[str]:
        texts = []
        for p, sh in enumerate(sheets):
            mine = [e for e in rows if e[2] == p]
            texts += [
                f"player {p + 1}: {t}" for t in self._player_round(sh, mine, f"{where}, player {p + 1}")
            ]
        # "Multiple architects can claim the same level in the same round. The other architects
        # must cross out that level and can no longer claim it."
        for kind in KINDS:
            for lv in range(3):
                if any(self.state(sh)["levels"][kind][lv] == "due" for sh in sheets):
                    for sh in sheets:
                        levels = self.state(sh)["levels"][kind]
                        levels[lv] = (
                            "circled"
                            if levels[lv] == "due"
                            else ("crossed" if levels[lv] == "open" else levels[lv])
                        )
        return texts

    def _player_round(self, sh: PlayerSheet, rows: list[list[int]], where: str) -> list[str]:
        st = self.state(sh)
        texts: list[str] = []
        due: tuple | None = None  # ("alternative", level) or (unit, how many left)
        claimed_now: set[str] = set()

        def close_units() -> None:
            # A bonus is used at once; one left over is lost only where it has no place at all.
            nonlocal due
            if due is None:
                return
            if due[0] == "alternative":
                raise ValueError(f"{where}: a Ghost level claimed without choosing its bonus")
            if self._any(sh, due[0]):
                raise ValueError(f"{where}: {due[1]} {due[0]} bonus(es) left unused although one has a place")
            due = None

        for e in rows:
            if e[3] == MARK:
                if e[7] != 1:
                    raise ValueError(f"{where}: a mark row of the move among the round's end rows: {e}")
                texts.append(self._mark(sh, e, where))
            elif e[3] == CLAIM:
                close_units()
                if st["pending"]:
                    raise ValueError(f"{where}: a level claimed before the house just numbered has its mark")
                texts.append(self._claim(sh, e, claimed_now, where))
                if e[4] == 0:
                    due = ("alternative", e[5])
            elif e[3] == BONUS:
                if due is None:
                    raise ValueError(f"{where}: a Ghost bonus row without a Ghost level claimed: {e}")
                if e[4] == ALT:
                    if due[0] != "alternative" or e[5] not in (0, 1):
                        raise ValueError(f"{where}: a Ghost bonus alternative {e[5]} where none is to choose")
                    unit, n = self.bonuses[due[1]][e[5]]
                    texts.append(f"Ghost bonus: {n} {unit} bonus{'es' if n > 1 else ''}")
                    due = (unit, n)
                    continue
                if due[0] == "alternative":
                    raise ValueError(f"{where}: a Ghost bonus used before choosing the level's alternative")
                texts.append(self._unit(sh, e, due[0], where))
                due = (due[0], due[1] - 1) if due[1] > 1 else None
            else:
                raise ValueError(f"{where}: unexpected row {e}")
        close_units()
        if st["pending"]:
            s, h = st["pending"][0]
            raise ValueError(
                f"{where}: street {s + 1} house {h + 1} has a ghost and a candy and neither was circled"
            )
        return texts

    def _claim(self, sh: PlayerSheet, e: list[int], claimed_now: set[str], where: str) -> str:
        if e[4] not in (0, 1) or e[5] not in (0, 1, 2):
            raise ValueError(f"{where}: no level {e[5]} of kind {e[4]}")
        kind, lv = KINDS[e[4]], e[5]
        # "you can only claim one Ghost level and one Candy level per game"
        if self.claimed(sh, kind) is not None or kind in claimed_now:
            raise ValueError(f"{where}: a second {kind} level claimed")
        claimed_now.add(kind)
        n = self.count(sh, kind)
        # "If you have exactly 4, 6, or 9 circled ghosts, you can claim the corresponding level or a
        # lower level ... if you don't have the exact required number ... you cannot claim any level"
        if n not in self.needs[kind]:
            raise ValueError(
                f"{where}: claims a {kind} level with {n} {kind}s circled, not exactly one of {self.needs[kind]}"
            )
        if lv > self.needs[kind].index(n):
            raise ValueError(
                f"{where}: {n} {kind}s circled do not reach the {self.needs[kind][lv]}-{kind} level"
            )
        state = self.state(sh)["levels"][kind][lv]
        if state != "open":
            raise ValueError(f"{where}: the {self.needs[kind][lv]}-{kind} level is {state}")
        self.state(sh)["levels"][kind][lv] = "due"
        return f"claims the {self.needs[kind][lv]}-{kind} level"

    def validation_card(self, sh: PlayerSheet, slot: int) -> str:
        # "Validation A card: Cross out the 1st Ghost level AND the 1st Candy level" (B: 2nd, C:
        # 3rd), "if you haven't circled them".
        crossed = []
        for kind in KINDS:
            levels = self.state(sh)["levels"][kind]
            if levels[slot] == "open":
                levels[slot] = "crossed"
                crossed.append(f"the {self.needs[kind][slot]}-{kind} level")
        return f"the player crosses {' and '.join(crossed)}" if crossed else ""

    def score(self, sh: PlayerSheet) -> dict[str, int]:
        g, c = self.claimed(sh, "ghost"), self.claimed(sh, "candy")
        return {
            **super().score(sh),
            "ghosts": self.count(sh, "ghost"),
            "candies": self.count(sh, "candy"),
            "ghost_level": self.needs["ghost"][g] if g is not None else 0,
            "candy_level": self.needs["candy"][c] if c is not None else 0,
            # "If you have claimed a Candy level, add the indicated points to your score."
            "expansion_points": self.candy_points[c] if c is not None else 0,
        }

    def _street_all(self, sh: PlayerSheet, s: int, kind: str) -> bool:
        houses = [h for s2, h in self.marked if s2 == s]
        return bool(houses) and all(self.state(sh)["marks"].get((s, h)) == kind for h in houses)

    def goal(self, sh: PlayerSheet, plan: dict) -> bool:
        g = plan["goal"]
        if g == "candies_circled":  # "Circle at least 7 candies."
            return self.count(sh, "candy") >= plan["count"]
        if g == "ghosts_and_candies":  # "Circle at least 4 ghosts and 4 candies."
            return self.count(sh, "ghost") >= plan["count"] and self.count(sh, "candy") >= plan["count"]
        if g == "marked_numbered":  # "Number all 13 houses with a ghost and a candy."
            return all(sh.streets[s][h].number is not None for s, h in self.marked)
        if g == "street_ghosts":  # "In 2 different streets: circle all the ghosts."
            return sum(self._street_all(sh, s, "ghost") for s in range(len(sh.streets))) >= plan["count"]
        if g == "street_candies":  # "In the 3rd street (bottom): circle all the candies."
            streets = [plan["street"]] if plan.get("street", -1) >= 0 else range(len(sh.streets))
            return any(self._street_all(sh, s, "candy") for s in streets)
        return super().goal(sh, plan)

    def aaa_points(self, cards: list[tuple], sh: PlayerSheet) -> int:
        # "the AAA earns 4 points for each crossed out Ghost and Candy level"
        if sh is None:
            return 0
        levels = self.state(sh)["levels"]
        return self.aaa_per_level * sum(st == "crossed" for k in KINDS for st in levels[k])


QUACK_PHASES = ("yellow", "black", "yellow and black")
PHASE_COLOURS = (("yellow",), ("black",), ("yellow", "black"))


class Quack(RefereeExpansion):
    """Quack: ducklings between two houses (in a street, or between two streets) circled when both
    houses are numbered; three scoring phases pay each architect 1 point per duckling of the
    phase's colours circled and connected to its parent."""

    name = "quack"

    def __init__(self, data: dict) -> None:
        offsets = list(data["column_offsets"])
        # Each duckling as (colour, house a, house b, between streets).
        self.ducklings: list[tuple[str, tuple[int, int], tuple[int, int], bool]] = []
        for s, b, colour in data["street_ducklings"]:
            self.ducklings.append((colour, (s, b - 1), (s, b), False))
        for s, col, colour in data["between_ducklings"]:
            self.ducklings.append((colour, (s, col - offsets[s]), (s + 1, col - offsets[s + 1]), True))
        self.parents = {c: tuple(where) for c, where in data["parents"].items()}
        self.per_duckling = data["points_per_duckling"]
        self.aaa_cards = data["aaa_cards_per_point"]
        self.aaa_pts = data["aaa_points"]

    def game(self, sh: PlayerSheet) -> dict:
        """The game's public record, shared by every sheet: rounds over, phases scored (phase ->
        when: 0 a round's end, 1 the AAA at once, 2 the game's end), validation cards seen, the
        events as the log should have them, and each sheet's points per phase."""
        if "quack" not in sh.x:
            sh.x["quack"] = dict(rounds=0, done={}, seen=set(), events=[], paid={}, triggers={})
        return sh.x["quack"]

    def _share(self, sheets: list[PlayerSheet]) -> dict:
        g = self.game(sheets[0])
        for sh in sheets[1:]:
            sh.x["quack"] = g
        g["sheets"] = sheets
        return g

    @staticmethod
    def _numbered(sh: PlayerSheet, s: int, h: int) -> bool:
        # A roundabout "is not a house": never numbered.
        return sh.streets[s][h].number is not None

    def circled(self, sh: PlayerSheet, d: tuple) -> bool:
        """ "As soon as you have 2 numbered houses on each side of a duckling, horizontally or
        vertically, circle the duckling" (extensions number houses too)."""
        return self._numbered(sh, *d[1]) and self._numbered(sh, *d[2])

    def connected(self, sh: PlayerSheet, colour: str) -> int:
        """Ducklings of the colour "circled and connected to its parent by an uninterrupted chain
        of circled ducklings and numbered houses": a search from the parent's house over numbered
        neighbours in a street and circled ducklings."""
        start = self.parents[colour]
        if not self._numbered(sh, *start):
            return 0
        seen = {start}
        todo = [start]
        while todo:
            s, h = todo.pop()
            nxt = [(s, h - 1), (s, h + 1)]
            for d in self.ducklings:
                if d[3] and self.circled(sh, d) and (s, h) in (d[1], d[2]):
                    nxt.append(d[2] if (s, h) == d[1] else d[1])
            for s2, h2 in nxt:
                if 0 <= h2 < len(sh.streets[s2]) and (s2, h2) not in seen and self._numbered(sh, s2, h2):
                    seen.add((s2, h2))
                    todo.append((s2, h2))
        return sum(1 for d in self.ducklings if d[0] == colour and self.circled(sh, d) and d[1] in seen)

    def _score_phase(
        self, sheets: list[PlayerSheet], k: int, when: int, rnd: int, aaa_cards: int | None
    ) -> None:
        g = self._share(sheets)
        g["done"][k] = when
        g["events"].append((rnd, -1, 21, k, when))
        for p, sh in enumerate(sheets):
            pts = self.per_duckling * sum(self.connected(sh, c) for c in PHASE_COLOURS[k])
            g["paid"][(p, k)] = pts
            g["events"].append((rnd, p, 22, k, pts))
        if aaa_cards is not None:
            # "the AAA scores 1 point for each pair of Construction cards you have given them since
            # the beginning of the game"
            g["events"].append((rnd, -1, 22, k, (aaa_cards // self.aaa_cards) * self.aaa_pts))

    @staticmethod
    def _aaa_scores(sh: PlayerSheet) -> bool:
        return sh.rules.deal == "aaa" and sh.rules.opponent.get("scores", True)

    def round_scored(self, sheets: list[PlayerSheet], given: list[tuple]) -> None:
        # After the round's plan validations, as the kernel scores them and the log orders them
        # (kind 21 with b = 0: "at a round's end, after the plan validations").
        g = self._share(sheets)
        g["rounds"] += 1
        rnd = g["rounds"]
        due = []
        for k, colours in enumerate(PHASE_COLOURS):
            if k in g["done"]:
                continue
            # "The architect who first circles all the yellow ducklings triggers the scoring phase.
            # At the end of the round, each architect scores".
            full = [
                p
                for p, sh in enumerate(sheets)
                if all(self.circled(sh, d) for d in self.ducklings if d[0] in colours)
            ]
            if full:
                due.append(k)
                for p in full:
                    g["triggers"][p] = g["triggers"].get(p, 0) + 1
        # The AAA's stack as the replay tracks it (one card a round, each checked as given).
        g["aaa_given"] = len(given)
        cards = len(given) if self._aaa_scores(sheets[0]) else None
        for k in due:
            self._score_phase(sheets, k, 0, rnd, cards)

    def aaa_validation(self, sh: PlayerSheet, slot: int, given: list[tuple]) -> int | None:
        # "If the AAA triggers a duckling scoring phase, it takes place immediately." "Validation
        # A card: The AAA triggers the scoring phase for yellow ducklings if you haven't already
        # triggered it yourself"; B black; "When either of these two cards is drawn, while the
        # other has already been drawn previously, the AAA triggers the scoring phase for both";
        # "Validation card C does not trigger any scoring phase."
        g = self.game(sh)
        rnd = g["rounds"] + 1
        due = []
        if slot in (0, 1):
            due.append(slot)
            if 1 - slot in g["seen"]:
                due.append(2)
        g["seen"].add(slot)
        cards = len(given) if self._aaa_scores(sh) else None
        g["just"] = [k for k in due if k not in g["done"]]
        for k in g["just"]:
            self._score_phase([sh], k, 1, rnd, cards)
        return None

    def round_decisions(self, sheets: list[PlayerSheet], rows: list[list[int]], where: str) -> list[str]:
        # No decision; the phases scored at this round's end (round_scored), for the play view.
        super().round_decisions(sheets, rows, where)
        g = self._share(sheets)
        return [
            f"the {QUACK_PHASES[k]} ducklings' scoring phase: "
            + ", ".join(f"{g['paid'][(p, k)]} to player {p + 1}" for p in range(len(sheets)))
            for k, w in g["done"].items()
            if w == 0 and any(e[0] == g["rounds"] and e[2] == 21 and e[3] == k for e in g["events"])
        ]

    def validation_card(self, sh: PlayerSheet, slot: int) -> str:
        g = self.game(sh)
        now, g["just"] = g.get("just", []), []
        return "; ".join(
            f"the AAA triggers the {QUACK_PHASES[k]} ducklings' scoring phase: "
            f"{g['paid'][(0, k)]} points to the player" + (f", {e[4]} to the AAA" if e else "")
            for k in now
            for e in [next((e for e in g["events"] if e[1] == -1 and e[2] == 22 and e[3] == k), None)]
        )

    def final(self, sheets: list[PlayerSheet], aaa: bool) -> None:
        # "If one or more scoring phases have not been triggered, each architect performs the
        # missing scoring phases before calculating their final score."
        g = self._share(sheets)
        g["final"] = True
        for k in range(3):
            if k not in g["done"]:
                # The AAA's stack: counted at each round's end (round_scored) and by aaa_points
                # (the AAA's score card, before this); none before any round.
                cards = g.get("aaa_given", 0) if aaa and self._aaa_scores(sheets[0]) else None
                self._score_phase(sheets, k, 2, g["rounds"], cards)

    def check_events(self, sheets: list[PlayerSheet], rows: list[list[int]]) -> str | None:
        want = self.game(sheets[0])["events"]
        got = [(r[1], r[2], r[3], r[4], r[5]) for r in rows]
        for w, r in zip(want, got, strict=False):
            if w != r:
                return f"round {r[0]}: the log scores {self._event_text(r)}, the rules {self._event_text(w)}"
        if len(want) != len(got):
            extra = (want if len(want) > len(got) else got)[min(len(want), len(got))]
            side = "the rules" if len(want) > len(got) else "the log"
            return f"round {extra[0]}: only {side} has {self._event_text(extra)}"
        return None

    @staticmethod
    def _event_text(e: tuple) -> str:
        _rnd, p, kind, k, v = e
        if kind == 21:
            when = ("at the round's end", "at once (the AAA)", "at the game's end")
            return f"the {QUACK_PHASES[k]} phase {when[v] if 0 <= v < 3 else v}"
        who = "the AAA" if p < 0 else f"player {p + 1}"
        return f"{v} points to {who} in the {QUACK_PHASES[k]} phase"

    def score(self, sh: PlayerSheet) -> dict[str, int]:
        g = self.game(sh)
        if not g.get("final"):
            raise ValueError("Quack is scored after the missing phases (final)")
        # The sheet itself, not an equal one: list.index compares the dataclass's fields, and two
        # architects can end the game with equal sheets after different payments.
        p = [o is sh for o in g.get("sheets", [sh])].index(True)
        pts = sum(v for (q, _), v in g["paid"].items() if q == p)
        return {
            **super().score(sh),
            "expansion_points": pts,
            "ducklings": sum(self.circled(sh, d) for d in self.ducklings),
            "ducklings_connected": self.connected(sh, "yellow") + self.connected(sh, "black"),
            "phases_triggered": g["triggers"].get(p, 0),
            "phases_in_play": sum(1 for w in g["done"].values() if w != 2),
        }

    def feature(self, sh: PlayerSheet, s: int, a: int, b: int, name: str) -> int:
        if name != "ducklings":
            return super().feature(sh, s, a, b, name)
        # "1 circled duckling that must be entirely inside the estate": between two of its houses.
        return sum(
            1
            for d in self.ducklings
            if not d[3] and d[1][0] == s and a <= d[1][1] and d[2][1] <= b and self.circled(sh, d)
        )

    def goal(self, sh: PlayerSheet, plan: dict) -> bool:
        g = plan["goal"]
        if g == "ducklings_circled":
            # "Circle 5 yellow ducklings and 5 black ducklings."
            return all(
                sum(1 for d in self.ducklings if d[0] == c and self.circled(sh, d)) >= plan["count"]
                for c in ("yellow", "black")
            )
        if g == "street_ducklings":
            # "In 2 different streets: circle all the ducklings."
            full = 0
            for s in range(len(sh.streets)):
                mine = [d for d in self.ducklings if not d[3] and d[1][0] == s]
                full += bool(mine) and all(self.circled(sh, d) for d in mine)
            return full >= plan["count"]
        if g == "edge_ducklings":
            # "Circle the 2 yellow ducklings in the 3rd street (bottom) and the 2 black ducklings in
            # the 1st street (top)."
            last = len(sh.streets) - 1
            want = [
                d
                for d in self.ducklings
                if not d[3] and ((d[1][0] == last and d[0] == "yellow") or (d[1][0] == 0 and d[0] == "black"))
            ]
            return all(self.circled(sh, d) for d in want)
        if g == "between_ducklings":
            # "Circle the 2 yellow ducklings and the 3 black ducklings between the streets."
            return all(self.circled(sh, d) for d in self.ducklings if d[3])
        return super().goal(sh, plan)

    def aaa_points(self, cards: list[tuple], sh: PlayerSheet) -> int:
        # "Follow the same process regardless of the scoring phase, the AAA scores 1 point for each
        # pair of Construction cards you have given them": its kind 22 rows.
        if sh is None:
            return 0
        g = self.game(sh)
        g["aaa_given"] = len(cards)
        paid = sum(e[4] for e in g["events"] if e[2] == 22 and e[1] == -1)
        # The phases still to come at the game's end (final) pay it for every card given.
        missing = sum(1 for k in range(3) if k not in g["done"])
        return paid + missing * (len(cards) // self.aaa_cards) * self.aaa_pts


class AmericanDream(RefereeExpansion):
    """The American Dream: no usual actions; the action makes the house just numbered perfect when
    it matches the house's family; street and column bonuses for the first to complete them;
    complete columns score 1 per regular and 3 per perfect house, doubled with the x2 bonus."""

    name = "american-dream"
    aaa_own_scoring = True
    # "The architect with the highest score wins the game. In case of a tie, the victory is
    # shared." (no tie-break on estates, which this sheet does not have).
    tie_shared = True

    def __init__(self, data: dict) -> None:
        colours = list(data["colours"])
        fam = data["families"]
        # The family of each house, as the action that matches it.
        self.matches = [[fam[c] for c in row] for row in data["houses"]]
        self.column = [
            [h + off for h in range(len(row))]
            for row, off in zip(data["houses"], data["column_offsets"], strict=True)
        ]
        self.n_columns = max(c for row in self.column for c in row) + 1
        self.colour = [[colours.index(c) for c in row] for row in data["houses"]]
        self.colours = colours
        self.regular = data["regular_points"]
        self.perfect_pts = data["perfect_points"]
        self.mult = data["column_multiplier"]
        self.street_pts = data["street_bonus"]
        self.aaa_table = [list(r) for r in data["aaa_card_points"]]
        self.aaa_street = data["aaa_street_points"]
        self.actions = ["fence", "improvement", "park", "pool", "temp", "extension"]

    def state(self, sh: PlayerSheet) -> dict:
        """Perfect houses; street and column bonuses: open, circled or crossed."""
        if not sh.x:
            sh.x.update(perfect=set(), streets=["open"] * len(sh.streets), columns=["open"] * self.n_columns)
        return sh.x

    def used_action(self, sh: PlayerSheet, s: int, h: int, card_action: str, move_action: int) -> str:
        # "You cannot use the usual actions."
        if move_action != -1:
            raise ValueError(
                f"the American Dream sheet has no usual actions (action code {move_action} used)"
            )
        # The house's column too ("The houses form horizontal streets and vertical columns"), as
        # the text view's sheet heads it (c1, c2, ...).
        where = f" (c{self.column[s][h] + 1})"
        # "If the action matches the house, then the family has a perfect house. Circle the house."
        if self.matches[s][h] == card_action:
            self.state(sh)["perfect"].add((s, h))
            return f"{where}, a perfect house (circled)"
        return f"{where}, a regular house"

    def _houses_of_column(self, col: int) -> list[tuple[int, int]]:
        return [(s, h) for s, row in enumerate(self.column) for h, c in enumerate(row) if c == col]

    def column_complete(self, sh: PlayerSheet, col: int) -> bool:
        """Every house of the column numbered ("regardless of whether perfect or regular")."""
        houses = self._houses_of_column(col)
        return bool(houses) and all(sh.streets[s][h].number is not None for s, h in houses)

    def street_complete(self, sh: PlayerSheet, s: int) -> bool:
        """Every house of the street numbered."""
        return all(x.number is not None for x in sh.streets[s])

    def round_over(self, sheets: list[PlayerSheet]) -> None:
        # "When you are the first to complete a street, at the end of the round, circle the
        # 10-point bonus"; the same for a column's x2 bonus. "All the architects who circle the same
        # bonus in the same round can claim it. The other architects must cross out that bonus."
        for kind, n, complete in (
            ("streets", len(sheets[0].streets), self.street_complete),
            ("columns", self.n_columns, self.column_complete),
        ):
            for i in range(n):
                now = [sh for sh in sheets if self.state(sh)[kind][i] == "open" and complete(sh, i)]
                if not now:
                    continue
                for sh in sheets:
                    st = self.state(sh)[kind]
                    if sh in now:
                        st[i] = "circled"
                    elif st[i] == "open":
                        st[i] = "crossed"

    def validation_crosses(self, sh: PlayerSheet, rows: list[list[int]], where: str) -> str:
        # AAA SOLO MODE: "Every time you draw an AAA Validation card, regardless of whether the
        # AAA validates a plan or not, you must immediately cross out several bonuses that you will
        # no longer be able to obtain. Choose and cross out 1 street bonus and 2 column bonuses
        # that you have not circled." Which ones is the player's choice; with none of a kind left
        # open, that part of the card is void (our reading: the text does not say).
        st = self.state(sh)
        texts = []  # "street 1", "column 2", ...
        for kind, want in (("streets", 1), ("columns", 2)):
            code = 0 if kind == "streets" else 1
            for _ in range(want):
                open_ = [i for i, v in enumerate(st[kind]) if v == "open"]
                if not open_:
                    break
                if not rows or rows[0][4] != code:
                    raise ValueError(
                        f"{where}: a validation card: a {kind[:-1]} bonus must be crossed, none is"
                    )
                i = rows.pop(0)[5]
                if i not in open_:
                    raise ValueError(
                        f"{where}: the {kind[:-1]} bonus {i + 1} is not open (circled or crossed)"
                    )
                st[kind][i] = "crossed"
                texts.append(f"{kind[:-1]} {i + 1}")
        if not texts:
            return ""
        what = texts[0] if len(texts) == 1 else ", ".join(texts[:-1]) + " and " + texts[-1]
        return f"the player crosses out the bonus{'es' if len(texts) > 1 else ''} of {what}"

    def column_points(self, sh: PlayerSheet, col: int) -> int:
        """1 per regular and 3 per perfect house of a complete column, doubled with its x2 bonus;
        "Incomplete columns score no points!"."""
        if not self.column_complete(sh, col):
            return 0
        st = self.state(sh)
        houses = self._houses_of_column(col)
        perf = sum(1 for x in houses if x in st["perfect"])
        pts = perf * self.perfect_pts + (len(houses) - perf) * self.regular
        return pts * self.mult if st["columns"][col] == "circled" else pts

    def score(self, sh: PlayerSheet) -> dict[str, int]:
        st = self.state(sh)
        cols = sum(self.column_points(sh, c) for c in range(self.n_columns))
        streets = st["streets"].count("circled")
        return {
            **super().score(sh),
            # "add the points from objectives, columns, streets, and subtract the penalty points
            # for the Building Permit Refusals": no estates on this sheet (nothing to count).
            "n_estates": 0,
            **{f"n_estate_{i}": 0 for i in range(1, 7)},
            "expansion_points": cols + streets * self.street_pts,
            "perfect": len(st["perfect"]),
            "columns_complete": sum(self.column_complete(sh, c) for c in range(self.n_columns)),
            "column_bonuses": st["columns"].count("circled"),
            "street_bonuses": streets,
        }

    def _shares(self, sh: PlayerSheet, of_streets: bool, perfect: bool) -> list[bool]:
        st = self.state(sh)
        if of_streets:
            groups = [[(s, h) for h in range(len(sh.streets[s]))] for s in range(len(sh.streets))]
        else:
            groups = [self._houses_of_column(c) for c in range(self.n_columns)]
        return [
            bool(g)
            and all(sh.streets[s][h].number is not None for s, h in g)
            and (not perfect or all(x in st["perfect"] for x in g))
            for g in groups
        ]

    def goal(self, sh: PlayerSheet, plan: dict) -> bool:
        g = plan["goal"]
        st = self.state(sh)
        if g in ("colours_perfect", "colours_numbered"):
            # "All your green houses are perfect houses"; "All your blue and orange houses are
            # numbered, regardless of whether they are perfect or regular houses."
            want = {self.colours.index(c) for c in plan["colours"]}
            houses = [(s, h) for s, row in enumerate(self.colour) for h, c in enumerate(row) if c in want]
            if g == "colours_perfect":
                return all(x in st["perfect"] for x in houses)
            return all(sh.streets[s][h].number is not None for s, h in houses)
        if g == "perfect_columns":  # "2 columns with only perfect houses"
            return sum(self._shares(sh, False, True)) >= plan["count"]
        if g == "complete_columns":  # "You have completed 4 columns"
            return sum(self._shares(sh, False, False)) >= plan["count"]
        if g == "adjacent_columns":  # "3 complete and adjacent columns"
            run = best = 0
            for ok in self._shares(sh, False, False):
                run = run + 1 if ok else 0
                best = max(best, run)
            return best >= plan["count"]
        if g == "perfect_streets":  # "1 complete street with only perfect houses"
            return sum(self._shares(sh, True, True)) >= plan["count"]
        if g == "complete_streets":  # "2 complete streets"
            return sum(self._shares(sh, True, False)) >= plan["count"]
        if g == "perfect_square":  # "You have 9 perfect adjacent houses forming a 3x3 square."
            k = plan["count"]
            where = {(s, c): h for s, row in enumerate(self.column) for h, c in enumerate(row)}
            return any(
                all(
                    (s, c) in where and (s, where[(s, c)]) in st["perfect"]
                    for s in range(s0, s0 + k)
                    for c in range(c0, c0 + k)
                )
                for s0 in range(len(sh.streets) - k + 1)
                for c0 in range(self.n_columns - k + 1)
            )
        return super().goal(sh, plan)

    def aaa_points(self, cards: list[tuple], sh: PlayerSheet) -> int:
        return 0  # replaced by aaa_own (the points per card depend on the AAA's level)

    def aaa_own(self, level: int, cards: list[tuple], sh: PlayerSheet) -> int:
        """The AAA's points on this sheet: per card given by its action for its level, and per
        street bonus the player crossed. "Columns: Each card you gave to the AAA earns them points.
        ... The value of each card type is indicated on the Opponent card. For example, with Sam, a
        level 1 opponent: Each Park, Pool, Temporary worker and Fence card earns him 1 point, and
        each Extension and Improvement card earns him 2 points." "Streets: The AAA scores 10
        points for each crossed out Street bonus." (Levels 2-5: the data file's reconstructed
        values.)"""
        pts = sum(self.aaa_table[level][self.actions.index(a)] for _, a in cards)
        return pts + self.aaa_street * self.state(sh)["streets"].count("crossed")

    def aaa_detail(self, cards: list[tuple], sh: PlayerSheet) -> dict[str, int]:
        """What aaa_own counts: the cards given of each type (cards_fence, ...) and the street
        bonuses the player crossed (streets_crossed)."""
        n = Counter(a for _, a in cards)
        return {
            **{f"cards_{a}": n[a] for a in self.actions},
            "streets_crossed": self.state(sh)["streets"].count("crossed"),
        }


def referee_expansion(name: str | None, section: str = "") -> RefereeExpansion:
    """The referee's model of an expansion (its own reading of the data file, by name or path: a
    designer's copy names the expansion whose rules it lays out); a section (the first edition's
    board) overrides the file's keys (the trucks' starts)."""
    if name in (None, "none"):
        return RefereeExpansion()
    path = data_path("expansions", name)
    with path.open("rb") as fh:
        data = from_one("expansions", tomllib.load(fh), path)  # positions from 1 in the file, from 0 here
    kind = data["name"]  # before a section's keys (a board has a name of its own)
    if section:
        data = {**data, **data[section]}
    kinds = {
        "easter": Easter,
        "icecream": IceCream,
        "christmas": Christmas,
        "zombies": Zombies,
        "doomsday": Doomsday,
        "roswell": Roswell,
        "halloween": Halloween,
        "quack": Quack,
        "american-dream": AmericanDream,
    }
    return kinds[kind](data)
