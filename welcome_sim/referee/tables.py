"""The referee's own reading of the rules data files (it shares no code with the kernel).

Conventions of the game log that the referee relies on:
- card index = position of the card in the deck file's table expanded in order of house number,
  then action column (the `actions` list), each pair repeated by its count;
- plan index = position of the plan in the plans file; its slot is the position of its letter in
  `letters`.
"""

from __future__ import annotations

import tomllib

from welcome_sim.referee.datapath import data_path
from welcome_sim.referee.positions import from_one
from welcome_sim.referee.readings import referee_expansion
from welcome_sim.referee.rules import RefRules


def _toml(kind: str, name_or_path: str) -> dict:
    path = data_path(kind, name_or_path)
    with path.open("rb") as fh:
        return from_one(kind, tomllib.load(fh), path)  # positions from 1 in the file, from 0 here


def load_rules(
    edition: str,
    sheet: str | None = None,
    plans: str | None = None,
    mode: str = "standard",
    opponent: str | None = None,
    expansion: str | None = None,
    nine: bool = False,
    deck: str | None = None,
) -> RefRules:
    """Read edition, sheet, deck and plan files (and in Advanced mode the advanced plans, in the
    AAA solo mode the opponent card) into a RefRules; `plans` and `deck` replace the edition's."""

    ed = _toml("editions", edition)
    x_data = _toml("expansions", expansion) if expansion not in (None, "none") else None
    if x_data is not None:
        sheet = x_data["sheet"]
    sh = _toml("sheets", sheet or ed["default_sheet"])
    dk = _toml("decks", deck or ed["deck"])
    pl = _toml("plans", plans or ed["plans"])
    rules = ed["rules"]
    advanced = mode.endswith("advanced")
    if mode.startswith("expert"):
        deal = "expert"
    elif mode.startswith("solo"):
        deal = "aaa" if rules.get("solo", "aaa") == "aaa" else "solo_card"
    else:
        deal = "stacks"
    std = list(pl["plans"])
    adv = list(_toml("plans", ed["advanced_plans"])["plans"]) if advanced else []
    section = rules.get("expansion_section", "")
    board = x_data.get(section) if x_data is not None and section else None
    if x_data is not None and (rules.get("expansion_plans", False) or board is not None):
        # Collector's: "1 Expansion-specific Plan C card for the sheet you are playing." First
        # edition: each thematic board's three plans "replace the basic plan stack n°3".
        cards = board["plans"] if board is not None else x_data["plans"]
        own = {p["letter"] for p in cards}
        std = [p for p in std if p["letter"] not in own] + list(cards)
        adv = [p for p in adv if p["letter"] not in own]
    raw_plans = std + adv
    opp = None
    if deal == "aaa":
        cards = _toml("opponents", ed["opponents"])["opponents"]
        key = str(opponent if opponent is not None else 0).lower()
        opp = next(c for c in cards if str(c["level"]) == key or c.get("name", "").lower() == key)
    actions = dk["actions"]
    cards = []
    for number in sorted(dk["counts"], key=int):
        for col, count in enumerate(dk["counts"][number]):
            cards += [(int(number), actions[col])] * count
    if nine:
        extra = _toml("cards", "nine_three_quarters")
        whole = int(extra["number"].rstrip("¾"))
        cards += [(whole + 0.75, a) for a in extra["actions"]]
    letters = pl["letters"]
    if x_data is not None and x_data["name"] == "american-dream":
        # "You must play only with the American Dream Expansion Plan cards. Among these cards,
        # select one Plan A card, one Plan B card, and one Plan C card": its A, B, C cards in the
        # edition's three slots, whatever their letters.
        raw_plans = [dict(p, letter=letters["ABC".index(p["letter"])]) for p in x_data["plans"]]
    plans = [
        dict(
            p,
            slot=letters.index(p["letter"]),
            sizes=sorted(p.get("estates", [])),
            kind=p.get("kind", "estates"),
        )
        for p in raw_plans
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
        bis_same_estate=bool(rules["extension_same_estate"]),
        tiebreak_sizes=rules["tiebreak"] == "estates_then_sizes",
        mode=mode,
        advanced=advanced,
        roundabout_track=list(rules.get("roundabout_track", sh.get("roundabouts", {}).get("track", [0]))),
        deal=deal,
        pass_right=rules.get("expert_pass", "left") == "right",
        solo_temp_min=rules.get("solo_temp_min", 0),
        solo_temp_points=rules.get("solo_temp_points", 0),
        opponent=opp,
        expansion=referee_expansion(expansion, section if board is not None else ""),
        nine=nine,
        reshuffle_on_first_plan=bool(rules.get("reshuffle_on_first_plan", False)),
    )
