"""The expansions' part of a Python strategy's view (protocol.py): the fields of Turn each
expansion fills (Zombie Outbreak's barricades and ammunition, Roswell's saucers, Zoorgs and
objective, Halloween's marks, Quack's ducklings and phases, the American Dream's families, perfect
houses and bonuses; empty or neutral in other games), and its decisions' option rows as readable
tuples."""

from __future__ import annotations

from typing import Any

from welcome_sim.simcore.ground.layout import ACTION_NAMES
from welcome_sim.simcore.ground.table import (
    P_EXPANSION,
    R_X_COLOUR,
    R_X_HOUSE,
    R_X_SCORE,
    R_X_TABLE,
)
from welcome_sim.simcore.rules.expansions import american, halloween, quack, zombies
from welcome_sim.simcore.rules.expansions.american import F_PERFECT, SC_AD_COLUMN, SC_AD_STREET
from welcome_sim.simcore.rules.expansions.codes import X_AMERICAN, X_HALLOWEEN, X_QUACK, X_ROSWELL, X_ZOMBIES
from welcome_sim.simcore.rules.expansions.halloween import F_CANDY, F_GHOST
from welcome_sim.simcore.rules.expansions.quack import SC_QK_DONE
from welcome_sim.simcore.rules.expansions.roswell import F_ZOORG, SC_RW_OBJECTIVE


def expansion_fields(R, cells, flags, sc, p: int, lens: list[int]) -> dict[str, Any]:
    """Turn's expansion fields for seat p, by field name (protocol._turn passes them on)."""
    n_streets = len(lens)
    roswell_game = int(R[0, P_EXPANSION]) == X_ROSWELL
    american_game = int(R[0, P_EXPANSION]) == X_AMERICAN
    return {
        "barricaded": [
            [bool(zombies.barricaded(R, flags, p, s, h)) for h in range(lens[s])]
            if int(R[0, P_EXPANSION]) == X_ZOMBIES
            else [False] * lens[s]
            for s in range(n_streets)
        ],
        "ammunition": int(zombies.ammunition(R, sc, p)) if int(R[0, P_EXPANSION]) == X_ZOMBIES else 0,
        "saucers": [
            [bool(R[R_X_HOUSE + s, h]) and roswell_game for h in range(lens[s])] for s in range(n_streets)
        ],
        "zoorgs": [[bool(f & F_ZOORG) for f in flags[p, s, : lens[s]]] for s in range(n_streets)],
        "objective": int(sc[p, SC_RW_OBJECTIVE]) - 1,
        "marks": [[_mark(R, flags, p, s, h) for h in range(lens[s])] for s in range(n_streets)],
        "ducklings": _ducklings(R, cells, p),
        "duck_phases_done": [
            k for k in range(3) if int(R[0, P_EXPANSION]) == X_QUACK and sc[p, SC_QK_DONE] >> k & 1
        ],
        "families": [
            [
                ACTION_NAMES[int(R[R_X_TABLE, R[R_X_COLOUR + s, h]])] if american_game else ""
                for h in range(lens[s])
            ]
            for s in range(n_streets)
        ],
        "perfect": [[bool(f & F_PERFECT) for f in flags[p, s, : lens[s]]] for s in range(n_streets)],
        "street_bonuses": [BONUS_WORDS[int(sc[p, SC_AD_STREET + s])] for s in range(n_streets)]
        if american_game
        else [],
        "column_bonuses": [BONUS_WORDS[int(sc[p, SC_AD_COLUMN + c])] for c in range(int(R[R_X_SCORE, 4]))]
        if american_game
        else [],
    }


BONUS_WORDS = ("open", "circled", "crossed", "due")  # layout.BONUS_* in order


def _mark(R, flags, p: int, s: int, h: int) -> str:
    """Halloween: a house's ghost-and-candy mark as Turn.marks has it."""
    if int(R[0, P_EXPANSION]) != X_HALLOWEEN or not halloween.marked(R, s, h):
        return ""
    f = int(flags[p, s, h])
    return "ghost" if f & F_GHOST else ("candy" if f & F_CANDY else "open")


def _ducklings(R, cells, p) -> list[tuple[str, tuple[int, int], tuple[int, int], bool]]:
    """Quack: the sheet's ducklings as Turn.ducklings has them (none in other games)."""
    if int(R[0, P_EXPANSION]) != X_QUACK:
        return []
    out = []
    for i in range(int(R[R_X_TABLE, 0])):
        a = (int(R[R_X_HOUSE, i]), int(R[R_X_HOUSE + 1, i]))
        b = (int(R[R_X_HOUSE + 2, i]), int(R[R_X_HOUSE + 3, i]))
        circled = bool(cells[p, a[0], a[1]] >= 0 and cells[p, b[0], b[1]] >= 0)
        out.append((quack.COLOURS[int(R[R_X_COLOUR, i])], a, b, circled))
    return out


def describe_option(R, opt) -> tuple:
    """An expansion's option row as a readable tuple (Halloween: ("mark", street, house, "ghost"),
    ("claim", "ghost", level), ("decline", "candy"), ("alternative", 0), ("pool", street, house),
    ("park", street), ("extension", street, source, target); American Dream: ("cross", "street",
    street) or ("cross", "column", column)); streets, houses, columns and levels 0-based."""
    hw = halloween
    code, a, b, c = (int(x) for x in opt[:4])
    if int(R[0, P_EXPANSION]) == X_AMERICAN:
        return ("cross", "street" if code == american.A_STREET else "column", a)
    kinds = ("ghost", "candy")
    if code == hw.H_MARK:
        return ("mark", a, b, kinds[c])
    if code == hw.H_CLAIM:
        return ("claim", kinds[a], b)
    if code == hw.H_DECLINE:
        return ("decline", kinds[a])
    if code == hw.H_ALT:
        return ("alternative", a)
    if code == hw.H_POOL:
        return ("pool", a, b)
    if code == hw.H_PARK:
        return ("park", a)
    return ("extension", a, b, c)
