"""A ruleset: edition + sheet + deck + plans, loaded from data and compiled into kernel arrays."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.datafiles import (
    DATA_DIR,
    Deck,
    Edition,
    PlanSet,
    Sheet,
    available,
    load_deck,
    load_edition,
    load_plans,
    load_sheet,
)
from welcome_sim.simcore.layout import MAX_STREETS

# The compiled ruleset is ONE int64 table: passing a single array into compiled functions is far
# cheaper than a tuple of arrays (each call would touch every array's reference count).
# Row 0 holds scalar parameters (P_*); the other rows hold tracks and tables (R_*).
(
    P_NSTREETS,
    P_MAXLEN,
    P_TEMP_BOXES,
    P_EXT_SAME_ESTATE,
    P_TIEBREAK_SIZES,
    P_TOTAL_HOUSES,
    P_MAX_REFUSALS,
    P_NPLANS,
    P_NCARDS,
    P_NMAJ,
    P_POOL_LEN,
    P_EXT_LEN,
) = range(12)
R_STREET_LEN = 1  # houses per street
R_PARK_LEN = 2  # values on each street's park track
R_POOL_TRACK = 3
R_TEMP_MAJ = 4  # majority points for 1st, 2nd, 3rd...
R_ESTATE_LEN = 5  # values per improvement column
R_EXT_TRACK = 6
R_REF_TRACK = 7
R_DECK_NUM = 8  # per card, in the deck file's canonical order
R_DECK_ACT = 9
R_PLAN_FIRST = 10  # per plan
R_PLAN_LATER = 11
R_PLAN_SLOT = 12
R_POOL_HOUSE = 13  # + street: 1 where a house has a pool
R_PARK_TRACK = R_POOL_HOUSE + MAX_STREETS  # + street
R_ESTATE_VALS = R_PARK_TRACK + MAX_STREETS  # + size - 1
R_PLAN_NEED = R_ESTATE_VALS + 6  # + size (0..6): complete estates of that size, per plan
N_ROWS = R_PLAN_NEED + 7


@dataclass(frozen=True)
class Ruleset:
    """Everything one game configuration needs, as data and as compiled arrays."""

    edition: Edition
    sheet: Sheet
    deck: Deck
    plans: PlanSet
    kernel: np.ndarray

    @property
    def reconstructed(self) -> list[str]:
        """Paths of the data files in use whose provenance is `reconstructed`."""
        items = (self.edition, self.sheet, self.deck, self.plans)
        return [display_path(x.path) for x in items if x.provenance == "reconstructed"]

    def describe(self) -> str:
        """One line naming edition, sheet, deck and plans."""
        return (
            f"{self.edition.title}; sheet {self.sheet.title}; deck {self.deck.title}; "
            f"plans {self.plans.title}"
        )


def display_path(path: str) -> str:
    """Built-in data files as 'data/<kind>/<file>', other files as given."""
    p = Path(path).resolve()
    try:
        return str(Path("data") / p.relative_to(DATA_DIR))
    except ValueError:
        return path


def load_ruleset(edition: str = "collector", sheet: str | None = None, plans: str | None = None) -> Ruleset:
    """Load an edition (by name) with a sheet and optionally other plan cards (names or paths)."""
    if edition not in available("editions"):
        valid = ", ".join(available("editions"))
        raise WelcomeSimError(f"--edition: unknown edition '{edition}'; valid: {valid}")
    ed = load_edition(edition)
    sh = load_sheet(sheet or ed.default_sheet)
    dk = load_deck(ed.deck)
    pl = load_plans(plans or ed.plans)
    return Ruleset(ed, sh, dk, pl, compile_rules(ed, sh, dk, pl))


def compile_rules(ed: Edition, sh: Sheet, dk: Deck, pl: PlanSet) -> np.ndarray:
    """Turn validated data into the int64 table the kernel reads (rows R_*, params in row 0)."""
    n_streets = len(sh.streets)
    width = max(32, len(dk.cards), len(pl.plans), max(s.houses for s in sh.streets) + 1)
    width = max(width, len(sh.pool_track), len(sh.extension_track), len(sh.refusal_track))
    width = max(width, len(sh.temp_majority), *(len(s.parks) for s in sh.streets))
    T = np.zeros((N_ROWS, width), dtype=np.int64)

    def row(r: int, values) -> None:
        T[r, : len(values)] = values
        T[r, len(values) :] = values[-1] if len(values) else 0  # pad tracks with their last value

    for i, st in enumerate(sh.streets):
        T[R_STREET_LEN, i] = st.houses
        T[R_PARK_LEN, i] = len(st.parks)
        T[R_POOL_HOUSE + i, list(st.pools)] = 1
        row(R_PARK_TRACK + i, st.parks)
    row(R_POOL_TRACK, sh.pool_track)
    row(R_TEMP_MAJ, sh.temp_majority)
    row(R_EXT_TRACK, sh.extension_track)
    row(R_REF_TRACK, sh.refusal_track)
    for i, col in enumerate(sh.estate_values):
        T[R_ESTATE_LEN, i] = len(col)
        row(R_ESTATE_VALS + i, col)
    T[R_DECK_NUM, : len(dk.cards)] = [c[0] for c in dk.cards]
    T[R_DECK_ACT, : len(dk.cards)] = [c[1] for c in dk.cards]
    for k, plan in enumerate(pl.plans):
        T[R_PLAN_FIRST, k] = plan.first
        T[R_PLAN_LATER, k] = plan.later
        T[R_PLAN_SLOT, k] = plan.slot
        for size in plan.estates:
            T[R_PLAN_NEED + size, k] += 1
    P = T[0]
    P[P_NSTREETS] = n_streets
    P[P_MAXLEN] = max(s.houses for s in sh.streets)
    P[P_TEMP_BOXES] = sh.temp_boxes
    P[P_EXT_SAME_ESTATE] = int(ed.extension_same_estate)
    P[P_TIEBREAK_SIZES] = int(ed.tiebreak == "estates_then_sizes")
    P[P_TOTAL_HOUSES] = sum(s.houses for s in sh.streets)
    P[P_MAX_REFUSALS] = len(sh.refusal_track) - 1
    P[P_NPLANS] = len(pl.plans)
    P[P_NCARDS] = len(dk.cards)
    P[P_NMAJ] = len(sh.temp_majority)
    P[P_POOL_LEN] = len(sh.pool_track)
    P[P_EXT_LEN] = len(sh.extension_track)
    return T
