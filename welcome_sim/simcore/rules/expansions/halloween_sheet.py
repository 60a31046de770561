"""Halloween's marks and levels (halloween.py's RECORD): its data file's own keys and compile_rows,
which write the houses with a ghost and a candy, the levels' counts, the Ghost bonuses'
alternatives, the Candy points and the AAA's figure into the kernel table, and the leaves that read
them with a player's sheet (a marked house, circled marks, the level claimed, the level a count
reaches), which its rules, plans and greedy's valuation in halloween.py share."""

from __future__ import annotations

import numpy as np

from welcome_sim.simcore.ground.datafiles import MAX_POINTS, POINTS, POSITION, Sheet, _Reader
from welcome_sim.simcore.ground.jit import leaf
from welcome_sim.simcore.ground.layout import (
    BONUS_CIRCLED,
    BONUS_DUE,
)
from welcome_sim.simcore.ground.schema import Num
from welcome_sim.simcore.ground.table import (
    P_NSTREETS,
    R_STREET_LEN,
    R_X_AAA,
    R_X_HOUSE,
    R_X_SCORE,
    R_X_TABLE,
)
from welcome_sim.simcore.rules.expansions.checks import check_houses
from welcome_sim.simcore.rules.expansions.halloween_record import SC_H_LEVEL

UNIT_NAMES = ("pool", "park", "extension")
T_BONUS = 6  # R_X_TABLE column of the first Ghost level's first alternative


# The file's own keys and the range of each number (checked on load, before compile_rows).
KEYS = {
    "marked": POSITION,  # [street, house], both from 1
    "ghost_levels": Num(1, 60, "a count of circled marks"),
    "candy_levels": Num(1, 60, "a count of circled marks"),
    "ghost_bonuses": Num(1, 3, "a bonus's uses"),  # [[bonus, uses], [bonus, uses]] per level
    "candy_points": POINTS,
    "aaa_per_level": POINTS,
}


def compile_rows(T: np.ndarray, r: _Reader, sheet: Sheet) -> None:
    """Marked houses, level counts, Ghost bonus alternatives, Candy points and the AAA figure."""
    marked = check_houses(r, "marked", sheet, r.get("marked", list))
    for s, h in marked:
        T[R_X_HOUSE + s, h] = 1
    for kind, key in enumerate(("ghost_levels", "candy_levels")):
        counts = r.ints(key)
        if len(counts) != 3 or any(c < 1 for c in counts) or list(counts) != sorted(set(counts)):
            raise r.fail(key, f"three rising counts of circled marks, one per level, got {list(counts)}")
        if counts[2] > len(marked):
            raise r.fail(key, f"{counts[2]} asks more than the {len(marked)} houses of `marked`")
        T[R_X_TABLE, kind * 3 : kind * 3 + 3] = counts
    bonuses = r.get("ghost_bonuses", list)
    if len(bonuses) != 3:
        raise r.fail("ghost_bonuses", f"one pair of alternatives per Ghost level (3), got {len(bonuses)}")
    for lv, alts in enumerate(bonuses):
        if not (isinstance(alts, list) and len(alts) == 2):
            raise r.fail(
                f"ghost_bonuses[{lv}]", f"two alternatives [[bonus, count], [bonus, count]], got {alts!r}"
            )
        for a, alt in enumerate(alts):
            key = f"ghost_bonuses[{lv}][{a}]"
            if not (isinstance(alt, list) and len(alt) == 2 and alt[0] in UNIT_NAMES):
                raise r.fail(
                    key, f"expected [bonus, count] with bonus one of {', '.join(UNIT_NAMES)}, got {alt!r}"
                )
            if not (isinstance(alt[1], int) and not isinstance(alt[1], bool) and 1 <= alt[1] <= 3):
                raise r.fail(key, f"a bonus is used 1 to 3 times, not {alt[1]!r}")
            T[R_X_TABLE, T_BONUS + lv * 4 + a * 2] = UNIT_NAMES.index(alt[0])
            T[R_X_TABLE, T_BONUS + lv * 4 + a * 2 + 1] = alt[1]
    pts = r.ints("candy_points")
    if len(pts) != 3:
        raise r.fail("candy_points", f"one value per Candy level (3), got {list(pts)}")
    for i, v in enumerate(pts):
        if not 0 <= v <= MAX_POINTS:
            raise r.fail(f"candy_points[{i}]", f"{v} is not a score value: use 0 to {MAX_POINTS} points")
    T[R_X_SCORE, :3] = pts
    T[R_X_AAA, 0] = r.points("aaa_per_level")


@leaf
def marked(R, s, h) -> bool:
    """House (s, h) has a ghost and a candy."""
    return R[R_X_HOUSE + s, h] == 1


@leaf
def circled(R, flags, p, bit) -> int:
    """Houses of player p with this mark circled (F_GHOST or F_CANDY)."""
    k = 0
    for s in range(R[0, P_NSTREETS]):
        for h in range(R[R_STREET_LEN, s]):
            if flags[p, s, h] & bit:
                k += 1
    return k


@leaf
def claimed(sc, p, kind) -> int:
    """The level of this kind player p has claimed (circled or due), or -1."""
    for lv in range(3):
        st = sc[p, SC_H_LEVEL + kind * 3 + lv]
        if st == BONUS_CIRCLED or st == BONUS_DUE:
            return lv
    return -1


@leaf
def exact_level(R, kind, count) -> int:
    """The level whose count is exactly `count`, or -1 ("you cannot claim any level, even a lower
    one")."""
    for lv in range(3):
        if R[R_X_TABLE, kind * 3 + lv] == count:
            return lv
    return -1
