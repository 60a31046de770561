"""The referee's reading of Quack: ducklings between houses and the three scoring phases.

Written from the expansion rules' text (see base.py for the calls the replay makes); the module
declares its reading as READING, which the readings package collects by its `name`.
"""

from __future__ import annotations

from welcome_sim.referee.readings.base import RefereeExpansion
from welcome_sim.referee.sheet import PlayerSheet

QUACK_PHASES = ("yellow", "black", "yellow and black")
PHASE_COLOURS = (("yellow",), ("black",), ("yellow", "black"))


class Quack(RefereeExpansion):
    """Quack: ducklings between two houses (in a street, or between two streets) circled when both
    houses are numbered; three scoring phases pay each architect 1 point per duckling of the
    phase's colours circled and connected to its parent."""

    name = "quack"
    columns = ("ducklings", "ducklings_connected", "phases_triggered", "phases_in_play")

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
        if not 0 <= k < len(QUACK_PHASES):
            return f"a phase numbered {k} (there are {len(QUACK_PHASES)})"
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


READING = Quack
