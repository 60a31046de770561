"""The referee's own reading of the rules data files (it shares no code with the kernel).

Conventions of the game log that the referee relies on:
- card index = position of the card in the deck file's table expanded in order of house number,
  then action column (the `actions` list), each pair repeated by its count;
- plan index = position of the plan in the plans file; its slot is the position of its letter in
  `letters`.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "simcore" / "data"


def _toml(kind: str, name_or_path: str) -> dict:
    path = Path(name_or_path)
    if path.suffix != ".toml":
        path = DATA / kind / f"{name_or_path}.toml"
    with path.open("rb") as fh:
        return tomllib.load(fh)


@dataclass
class RefRules:
    """What the referee needs to know about one ruleset."""

    street_len: list[int]
    pool_houses: list[set[int]]
    park_tracks: list[list[int]]
    pool_track: list[int]
    temp_boxes: int
    majority: list[int]
    estate_values: list[list[int]]
    extension_track: list[int]
    refusal_track: list[int]
    actions: list[str]  # action names by column of the deck file
    cards: list[tuple[int, str]]  # (number, action name)
    plans: list[dict]  # id, slot, sizes (sorted list), first, later
    letters: list[str]
    bis_same_estate: bool
    tiebreak_sizes: bool


def load_rules(edition: str, sheet: str | None = None, plans: str | None = None) -> RefRules:
    """Read edition, sheet, deck and plan files into a RefRules."""
    ed = _toml("editions", edition)
    sh = _toml("sheets", sheet or ed["default_sheet"])
    dk = _toml("decks", ed["deck"])
    pl = _toml("plans", plans or ed["plans"])
    actions = dk["actions"]
    cards = []
    for number in sorted(dk["counts"], key=int):
        for col, count in enumerate(dk["counts"][number]):
            cards += [(int(number), actions[col])] * count
    letters = pl["letters"]
    plans = [
        {
            "id": p["id"],
            "slot": letters.index(p["letter"]),
            "sizes": sorted(p["estates"]),
            "first": p["first"],
            "later": p["later"],
        }
        for p in pl["plans"]
    ]
    return RefRules(
        street_len=[s["houses"] for s in sh["streets"]],
        pool_houses=[set(s["pools"]) for s in sh["streets"]],
        park_tracks=[list(s["parks"]) for s in sh["streets"]],
        pool_track=list(sh["pools"]["track"]),
        temp_boxes=sh["temps"]["boxes"],
        majority=list(sh["temps"]["majority"]),
        estate_values=[list(c) for c in sh["estates"]["values"]],
        extension_track=list(sh["extensions"]["track"]),
        refusal_track=list(sh["refusals"]["track"]),
        actions=list(actions),
        cards=cards,
        plans=plans,
        letters=letters,
        bis_same_estate=bool(ed["rules"]["extension_same_estate"]),
        tiebreak_sizes=ed["rules"]["tiebreak"] == "estates_then_sizes",
    )
