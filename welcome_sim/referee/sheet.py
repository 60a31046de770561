"""The referee's model of one player's sheet, written directly from the rulebook."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from welcome_sim.referee.rules import RefRules


@dataclass
class House:
    """One house box: its number (None while empty), bis mark, circled pool, plan line."""

    number: int | None = None
    bis: bool = False
    pool: bool = False
    plan: str | None = None  # letter of the estate plan that used this house (no fence inside)
    house_plan: str | None = None  # letter of a first-edition plan on houses that used it

    @property
    def used(self) -> bool:
        """Already used for a plan: it counts for no other."""
        return self.plan is not None or self.house_plan is not None

    roundabout: bool = False  # Advanced mode: not a house any more
    invaded: bool = False  # Zombie Outbreak: a Z, "permanently sealed off"
    barricade: bool = False  # Zombie Outbreak: a barricade the player built in front of it

    @property
    def empty(self) -> bool:
        """Neither numbered nor a roundabout nor invaded (a Z is never numbered again)."""
        return self.number is None and not self.roundabout and not self.invaded


@dataclass
class PlayerSheet:
    """Everything a player writes on the sheet."""

    rules: RefRules
    streets: list[list[House]] = field(init=False)
    fences: list[set[int]] = field(init=False)  # boundary b is left of house b; ends included
    links: list[set[int]] = field(init=False)  # first edition: boundaries joining a bis to its twin
    parks: list[int] = field(init=False)
    pools: int = 0
    temps: int = 0
    extensions: int = 0
    refusals: int = 0
    improvements: list[int] = field(default_factory=lambda: [0] * 6)
    plan_scores: dict[int, int] = field(default_factory=dict)  # slot -> points
    plan_rounds: dict[int, int] = field(default_factory=dict)
    roundabouts: int = 0
    x: dict = field(default_factory=dict)  # an expansion's own marks (Ice Cream: trucks, cones)

    def __post_init__(self) -> None:
        self.streets = [[House() for _ in range(n)] for n in self.rules.street_len]
        self.fences = [{0, n} for n in self.rules.street_len]
        self.links = [set() for _ in self.rules.street_len]
        self.parks = [0] * len(self.rules.street_len)

    # --- rules of numbering -------------------------------------------------------------------
    def can_write(self, street: int, house: int, number: int) -> str | None:
        """None if number may go in (street, house); otherwise the reason it may not."""
        if not 0 <= street < len(self.streets):
            return f"there is no street {street}"
        row = self.streets[street]
        if not 0 <= house < len(row):
            return f"street {street} has no house {house}"
        if row[house].number is not None:
            return f"house {house} of street {street} is already numbered"
        if row[house].roundabout:
            return f"house {house} of street {street} is a roundabout"
        if row[house].invaded:
            return f"house {house} of street {street} was invaded by zombies (Z)"
        if not 0 <= number <= 17:
            return f"{number} is not a house number (0..17)"
        # Numbers increase between roundabouts; each roundabout starts the numbering again. Empty
        # and invaded houses (Zombie Outbreak: "A Z is not a number and does not stop the
        # numbering") are skipped.
        first = max((i + 1 for i, h in enumerate(row) if h.roundabout and i < house), default=0)
        last = min((i for i, h in enumerate(row) if h.roundabout and i > house), default=len(row))
        # Zombie Outbreak ("5B-Z-5"): the number may equal a bis in the order (an extension whose
        # twin the zombies erased), never an equal number that is not a bis.
        twins = getattr(self.rules.expansion, "twins_across_z", False)
        for i in range(first, last):
            h = row[i]
            if h.number is None or (twins and h.bis and h.number == number):
                continue
            if i < house and h.number >= number:
                return f"{number} is not greater than {h.number} written on its left"
            if i > house and h.number <= number:
                return f"{number} is not smaller than {h.number} written on its right"
        return None

    def fits_somewhere(self, number: int) -> bool:
        """Some empty house can take this number."""
        return any(
            self.can_write(s, h, number) is None
            for s, row in enumerate(self.streets)
            for h in range(len(row))
        )

    def estate_of(self, street: int, house: int) -> tuple[int, int]:
        """(first, last) house of the estate containing this house."""
        first = max(b for b in self.fences[street] if b <= house)
        end = min(b for b in self.fences[street] if b > house)
        return first, end - 1

    def estates(self) -> list[tuple[int, int, int, bool]]:
        """Every estate as (street, first, last, complete); a roundabout is not one."""
        out = []
        for s, row in enumerate(self.streets):
            bounds = sorted(self.fences[s])
            for a, b in itertools.pairwise(bounds):
                if b - a == 1 and row[a].roundabout:
                    continue
                out.append((s, a, b - 1, all(row[h].number is not None for h in range(a, b))))
        return out

    @property
    def numbered(self) -> int:
        """Houses with a number (bis included)."""
        return sum(h.number is not None for row in self.streets for h in row)

    @property
    def full(self) -> bool:
        """Every house of the streets is numbered (roundabouts are not houses; a Z counts as
        filled: it can never be numbered)."""
        return all(not h.empty for row in self.streets for h in row)

    # --- scoring -------------------------------------------------------------------------------
    def complete_estates_by_size(self) -> list[int]:
        """Complete estates of sizes 1..6 (index 0 = size 1); larger ones score nothing."""
        counts = [0] * 6
        for _s, a, b, complete in self.estates():
            size = b - a + 1
            if complete and size <= 6:
                counts[size - 1] += 1
        return counts

    def components(self, temp_points: int) -> dict[str, int]:
        """Score card of this sheet (temp points come from the table's majority)."""
        r = self.rules
        counts = self.complete_estates_by_size()
        est = [counts[i] * r.estate_values[i][self.improvements[i]] for i in range(6)]
        comp = {
            "plan_a": self.plan_scores.get(0, 0),
            "plan_b": self.plan_scores.get(1, 0),
            "plan_c": self.plan_scores.get(2, 0),
            "parks": sum(r.park_tracks[s][n] for s, n in enumerate(self.parks)),
            "pools": r.pool_track[self.pools],
            "temps": temp_points,
            "estates": sum(est),
            "extension_penalty": r.extension_track[self.extensions],
            "refusal_penalty": r.refusal_track[self.refusals],
            "roundabout_penalty": (r.roundabout_track or [0])[self.roundabouts],
            "n_estates": sum(counts),
        }
        for i in range(6):
            comp[f"estate_{i + 1}"] = est[i]
            comp[f"n_estate_{i + 1}"] = counts[i]
        comp.update(r.expansion.score(self) if r.expansion is not None else {"expansion_points": 0})
        comp["total"] = (
            comp["expansion_points"]
            + comp["plan_a"]
            + comp["plan_b"]
            + comp["plan_c"]
            + comp["parks"]
            + comp["pools"]
            + comp["temps"]
            + comp["estates"]
            - comp["extension_penalty"]
            - comp["refusal_penalty"]
            - comp["roundabout_penalty"]
        )
        return comp


def majority_points(temps: list[int], majority: list[int]) -> list[int]:
    """Temp-worker points: distinct counts ranked high to low share 1st, 2nd, 3rd place."""
    levels = sorted({t for t in temps if t > 0}, reverse=True)
    out = []
    for t in temps:
        place = levels.index(t) if t > 0 else len(majority)
        out.append(majority[place] if place < len(majority) else 0)
    return out
