"""The referee's reading of The American Dream: perfect houses, street and column bonuses, the AAA's own scoring.

Written from the expansion rules' text (see base.py for the calls the replay makes); the module
declares its reading as READING, which the readings package collects by its `name`.
"""

from __future__ import annotations

from collections import Counter

from welcome_sim.referee.readings.base import RefereeExpansion
from welcome_sim.referee.sheet import PlayerSheet


class AmericanDream(RefereeExpansion):
    """The American Dream: no usual actions; the action makes the house just numbered perfect when
    it matches the house's family; street and column bonuses for the first to complete them;
    complete columns score 1 per regular and 3 per perfect house, doubled with the x2 bonus."""

    name = "american-dream"
    columns = ("perfect", "columns_complete", "column_bonuses", "street_bonuses")
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


READING = AmericanDream
