"""Hand-built sheets for tests, written once and loaded into both the kernel and the referee."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from welcome_sim.referee import PlayerSheet, RefRules
from welcome_sim.simcore.ground.layout import (
    B_FENCE,
    EMPTY,
    F_EXT,
    F_POOL,
    SC_EXT,
    SC_IMPR,
    SC_NUMBERED,
    SC_PARK,
    SC_PLAN_SCORE,
    SC_POOLS,
    SC_REFUSALS,
    SC_TEMPS,
)
from welcome_sim.simcore.ground.numbers import number_code
from welcome_sim.simcore.rules.sheetops import new_state, place_roundabout


@dataclass
class Spec:
    """A sheet as a player would write it: numbers ('5', '5B' for a bis, '.' empty, 'R' a
    roundabout, which also stands for its two fences) per street,
    fences as boundaries (boundary b is left of house b, 0-based), crossed boxes per track."""

    streets: list[list[str]]
    fences: dict[int, list[int]] = field(default_factory=dict)
    parks: list[int] = field(default_factory=lambda: [0, 0, 0])
    pools: list[tuple[int, int]] = field(default_factory=list)  # built pools (street, house)
    temps: int = 0
    improvements: list[int] = field(default_factory=lambda: [0] * 6)
    plans: list[int] = field(default_factory=lambda: [0, 0, 0])
    refusals: int = 0

    @property
    def extensions(self) -> int:
        return sum(t.endswith("B") for row in self.streets for t in row)


def parse(tok: str) -> tuple[int | float | None, bool]:
    """'.' -> (None, False); '9B' -> (9, True); '9' -> (9, False); '9¾' -> (9.75, False)."""
    if tok in (".", "R"):
        return None, False
    body = tok.rstrip("B")
    num = int(body.rstrip("¾")) + (0.75 if body.endswith("¾") else 0)
    return num, tok.endswith("B")


def kernel_table(R: np.ndarray, specs: list[Spec]):
    """Kernel arrays (cells, flags, fences, sc) holding these sheets, one player each."""
    cells, flags, fences, sc = new_state(R, len(specs))
    for p, spec in enumerate(specs):
        for s, row in enumerate(spec.streets):
            for h, tok in enumerate(row):
                num, bis = parse(tok)
                cells[p, s, h] = EMPTY if num is None else number_code(num)
                if tok == "R":
                    place_roundabout(cells, fences, sc, p, s, h)
                if bis:
                    flags[p, s, h] |= F_EXT
                if num is not None:
                    sc[p, SC_NUMBERED] += 1
        for s, bounds in spec.fences.items():
            for b in bounds:
                fences[p, s, b] |= B_FENCE
        for s, n in enumerate(spec.parks):
            sc[p, SC_PARK + s] = n
        for s, h in spec.pools:
            flags[p, s, h] |= F_POOL
        sc[p, SC_POOLS] = len(spec.pools)
        sc[p, SC_TEMPS] = spec.temps
        sc[p, SC_EXT] = spec.extensions
        sc[p, SC_REFUSALS] = spec.refusals
        for i, n in enumerate(spec.improvements):
            sc[p, SC_IMPR + i] = n
        for i, v in enumerate(spec.plans):
            sc[p, SC_PLAN_SCORE + i] = v
    return cells, flags, fences, sc


def referee_sheet(rules: RefRules, spec: Spec) -> PlayerSheet:
    """The same sheet in the referee's model."""
    sh = PlayerSheet(rules)
    for s, row in enumerate(spec.streets):
        for h, tok in enumerate(row):
            num, bis = parse(tok)
            sh.streets[s][h].number = num
            sh.streets[s][h].bis = bis
            if tok == "R":
                sh.streets[s][h].roundabout = True
                sh.fences[s] |= {h, h + 1}
                sh.roundabouts += 1
    for s, bounds in spec.fences.items():
        sh.fences[s].update(bounds)
    sh.parks = list(spec.parks)
    for s, h in spec.pools:
        sh.streets[s][h].pool = True
    sh.pools = len(spec.pools)
    sh.temps = spec.temps
    sh.extensions = spec.extensions
    sh.refusals = spec.refusals
    sh.improvements = list(spec.improvements)
    sh.plan_scores = {i: v for i, v in enumerate(spec.plans) if v}
    return sh


def empty_spec(temps: int = 0) -> Spec:
    """A blank Classic sheet with some temp workers (an opponent for majority scoring)."""
    return Spec(streets=[["."] * 10, ["."] * 11, ["."] * 12], temps=temps)


# "Welcome to LYON ESTATES", the scored example sheet of the French core rules
# (the French text of the Collector's rules, score line "20 + 20 + 9 + 1 + 6 4 3 21 5 0 - 6 - 0 = 83"). The text gives the
# numbers of each street and the score card; house positions of the gaps, fences, parks and
# pools are drawn on the page, so they are placed here to be consistent with that score card:
# plans 20, parks 20, pools 9, temps 1 (third place), estates by size 1..6 = 6, 4, 3, 21, 5, 0,
# extensions -6, refusals 0.
LYON = Spec(
    streets=[
        ["1", "5", ".", "8", "9", "10", "11", ".", "12", "14"],
        ["2", "2B", "4", "6", "8", "9", "10", "12", "15", "17", "."],
        ["0", "1", "3", "4", "7", "8", "9B", "9", "9B", "10", "13", "15"],
    ],
    fences={0: [1, 2, 3, 5], 1: [5, 8, 10], 2: [4, 8]},
    parks=[2, 4, 1],  # 4 + 14 + 2 = 20
    pools=[(0, 6), (1, 0), (2, 1)],  # three pools: 9
    temps=2,  # third most at the table: 1 point
    improvements=[1, 0, 0, 3, 0, 0],  # size 1 worth 3, size 4 worth 7
    plans=[8, 9, 3],  # the text gives only the total, 20
)
LYON_TABLE = [LYON, empty_spec(temps=5), empty_spec(temps=4)]  # opponents ahead on temps
LYON_EXPECTED = {
    "plans": 20,
    "parks": 20,
    "pools": 9,
    "temps": 1,
    "estate_1": 6,
    "estate_2": 4,
    "estate_3": 3,
    "estate_4": 21,
    "estate_5": 5,
    "estate_6": 0,
    "extension_penalty": 6,
    "refusal_penalty": 0,
    "total": 83,
}
