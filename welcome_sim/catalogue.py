"""The catalogue of shipped data files that `welcome-sim data` lists, each with its provenance
and the plan cards it holds (expansion files included, so it sits above expansions/)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from welcome_sim.simcore.ground.datafiles import (
    DATA_DIR,
    Plan,
    PlanSet,
    _read,
    load_deck,
    load_edition,
    load_extra_cards,
    load_opponents,
    load_plans,
    load_sheet,
)
from welcome_sim.simcore.rules.expansions import load_expansion


@dataclass(frozen=True)
class DataFile:
    """One shipped data file as `welcome-sim data` lists it: what it is and where it comes from."""

    kind: str  # its folder under simcore/data: editions, sheets, decks, plans, ...
    name: str
    title: str
    provenance: str
    source: str
    path: Path
    plans: tuple[Plan, ...] = ()  # plan cards it holds (plan sets, expansions' Plan C cards)


def shipped_files() -> list[Path]:
    """Every data file the package ships (simcore/data/<kind>/<name>.toml), sorted."""
    return sorted(DATA_DIR.glob("*/*.toml"))


def _edition_sections() -> list[str]:
    """Expansion-file sections the shipped editions play their own boards from."""
    sections = {load_edition(str(p)).expansion_section for p in sorted(DATA_DIR.glob("editions/*.toml"))}
    return sorted(s for s in sections if s)


def describe_file(path: Path) -> DataFile:
    """Load and validate one shipped file with its kind's loader; a kind without one is only
    checked for its header (name, title, provenance)."""
    kind = path.parent.name
    loaders: dict[str, Any] = {
        "editions": load_edition,
        "sheets": load_sheet,
        "decks": load_deck,
        "plans": load_plans,
        "opponents": load_opponents,
        "cards": load_extra_cards,
    }
    r = _read(path)
    name, title, prov = r.header()
    source = r.get("source", str, "")
    plans: tuple[Plan, ...] = ()
    if kind == "expansions":
        # The Collector's Plan C cards, then each edition's own board (first edition: n°3 cards).
        plans = load_expansion(path.stem).plans.plans
        for section in _edition_sections():
            if section in r.data:
                plans += tuple(pl for pl in load_expansion(path.stem, section).plans.plans if pl not in plans)
    elif kind in loaders:
        item = loaders[kind](str(path))
        plans = item.plans if isinstance(item, PlanSet) else ()
    return DataFile(kind, name, title, prov, source, path, plans)
