"""What an expansion's data file says of it as a difficulty item: its publisher rating, whether its
points replace the base game's scoring, and the race rule that makes a lone player's game easier."""

from __future__ import annotations

import functools

from welcome_sim.simcore.ground.datafiles import label_name

# Settings a difficulty item changes against its base game; any other setting is held fixed.
ITEM_SETTINGS = ("sheet", "expansion", "nine_three_quarters", "mode")


@functools.cache
def replaces_scoring(name: str) -> bool:
    """Whether an expansion's points replace the base game's scoring (its data file's
    `replaces_scoring`: the American Dream's own sheet) rather than add to it: then its net score is
    its total score (netting them out would leave only plans and refusals). A copy's label
    ('american-dream.1a2b3c4d') answers for the expansion it lays out: the key describes its rules,
    which the game code decides, not a value a copy can change."""
    from welcome_sim.errors import WelcomeSimError
    from welcome_sim.simcore.rules.expansions import load_expansion

    try:
        x = load_expansion(label_name(name))
    except (WelcomeSimError, OSError, ValueError):
        return False
    value = x.data.get("replaces_scoring", False)
    if not isinstance(value, bool):
        # A string "false" would read as true: refuse it, naming the file and the key.
        raise WelcomeSimError(f"{x.path}: key 'replaces_scoring': expected true or false, got {value!r}")
    return value


REPLACES_NOTE = "its own sheet's points replace the base game's: compared apart, not ranked on score"
# The blind cost's cell and legend where it is 0 by construction (Item.no_blind_cost): a measured
# +0.0 [+0.0, +0.0] would read as a finding.
NO_BLIND_COST = "n/a"
NO_BLIND_LEGEND = (
    "blind cost n/a: no expansion, so the blind player plays as the seeing one (0 by construction)"
)
LONE_RACE = "1 player without an AAA: no rival in its race, so it plays easier than with rivals"


@functools.cache
def race_rule(name: str) -> str:
    """The rule that makes an expansion a race between the architects (its data file's
    `race_rule`: a bonus the first or the best takes and the others cross out), or ''."""
    from welcome_sim.errors import WelcomeSimError
    from welcome_sim.simcore.rules.expansions import load_expansion

    try:
        x = load_expansion(label_name(name))
    except (WelcomeSimError, OSError, ValueError):
        return ""
    value = x.data.get("race_rule", "")
    if not isinstance(value, str):
        raise WelcomeSimError(
            f"{x.path}: key 'race_rule': expected the rule's sentence as a string, got {value!r}"
        )
    return value


def lone_race(expansion: object, players: object, mode: object) -> str:
    """The race rule of an expansion played by 1 player without an AAA (solo modes have one), else
    '': such a game is degenerate for the difficulty of a race expansion."""
    if expansion in (None, "none") or str(players) != "1" or str(mode).startswith("solo"):
        return ""
    return race_rule(str(expansion))


def expansion_rating(name: str) -> tuple[int | None, str]:
    """An expansion's publisher stars and note from its data file ((None, '') when unrated or unknown)."""
    from welcome_sim.errors import WelcomeSimError
    from welcome_sim.simcore.rules.expansions import load_expansion

    try:
        data = load_expansion(name).data
    except (WelcomeSimError, OSError, ValueError):
        # A copy's label: no stars (they rate the printed game), but what its index compares holds.
        return None, REPLACES_NOTE if replaces_scoring(name) else ""
    stars = data.get("publisher_stars")
    note = str(data.get("publisher_stars_note", ""))
    if replaces_scoring(name):
        note = "; ".join(n for n in (note, REPLACES_NOTE) if n)
    return (stars if isinstance(stars, int) else None), note
