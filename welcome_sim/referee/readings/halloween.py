"""The referee's reading of Halloween: ghosts and candies circled, levels claimed, Ghost bonuses.

Written from the expansion rules' text (see base.py for the calls the replay makes); the module
declares its reading as READING, which the readings package collects by its `name`.
"""

from __future__ import annotations

from welcome_sim.referee.readings.base import RefereeExpansion
from welcome_sim.referee.sheet import PlayerSheet

KINDS = ("ghost", "candy")
MARK, CLAIM, BONUS = 17, 18, 19  # log kinds of the Halloween decisions
ALT, POOL, PARK, EXTENSION = 3, 4, 5, 6  # a kind 19 row's a: what the Ghost bonus does


class Halloween(RefereeExpansion):
    """Halloween: houses with a ghost and a candy, one of the two circled when numbered; Ghost and
    Candy levels claimed with an exact count at a round's end; Ghost bonuses used at once."""

    name = "halloween"
    columns = ("ghosts", "candies", "ghost_level", "candy_level")

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


READING = Halloween
