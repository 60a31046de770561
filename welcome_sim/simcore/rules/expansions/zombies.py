"""Zombie Outbreak: six hordes walk in from the streets' ends when a Zombie card surfaces on the
first stack; a house without a barricade that a horde reaches is invaded (Z, a fence on each
side, sealed for good). Ammunition from Improvement boxes holds a horde; the Fence action on a
house without a printed barricade may build one instead of a fence.

State: cells = ZOMBIE for an invaded house; flags F_BARRICADE for a barricade built; sc
SC_HORDE (how far each horde walked), SC_AMMO (ammunition circled), SC_AMMO_USED, SC_BARRICADES,
SC_SEALED (houses invaded) and SC_ZCARDS (Zombie cards applied). Table rows: R_X_HOUSE + street,
1 where a house has no printed barricade; R_X_TABLE, each Zombie card's kind (layout ZOMBIE_*);
R_X_COLOUR row 0, per estate-size column, a bit for each Improvement box (0-based) that shows
ammunition; R_X_SCORE: road length, starting ammunition.

The deal (two stacks, the Zombie cards in the first) is the kernel's generic special-card stack
deal, set up here through P_NSTACKS, P_X_SPECIALS and P_X_PART; it and the hand modes' decks are
laid out from the base game's deal on the same seed, the Zombie cards placed from a stream of
their own (engine/zombiedeal.py: _deal_special_stacks, _special_hand_deck), so that a base game and its Zombie
game pair.
"""

from __future__ import annotations

import numpy as np

from welcome_sim.simcore.ground.datafiles import POSITION, Sheet, _Reader
from welcome_sim.simcore.ground.jit import leaf
from welcome_sim.simcore.ground.layout import (
    B_FENCE,
    EMPTY,
    F_EXT,
    FENCE,
    IMPROVEMENT,
    O_X_POINTS,
    ROUNDABOUT,
    SC_IMPR,
    SC_NUMBERED,
    SC_SEALED,
    SPECIAL_X,
    ZOMBIE,
    ZOMBIE_ALL,
    ZOMBIE_LEFT,
    ZOMBIE_RIGHT,
)
from welcome_sim.simcore.ground.schema import Num
from welcome_sim.simcore.ground.table import (
    P_NCARDS,
    P_NSTACKS,
    P_NSTREETS,
    P_X_AAA_PART,
    P_X_DECK_PER,
    P_X_HAND,
    P_X_PART,
    P_X_SPECIALS,
    R_PLAN_COUNT,
    R_PLAN_STREET,
    R_PLAN_XGOAL,
    R_STREET_LEN,
    R_X_AAA,
    R_X_COLOUR,
    R_X_HOUSE,
    R_X_SCORE,
    R_X_TABLE,
)
from welcome_sim.simcore.rules.expansions.checks import check_house
from welcome_sim.simcore.rules.expansions.record import Counters, Record, allocate
from welcome_sim.simcore.rules.sheetops import flagged_houses

RECORD = Record(
    name="zombies",
    title="Zombie Outbreak",
    stars=3,
    columns=("invaded", "ammunition_used", "barricades"),
    columns_doc="Zombie Outbreak: houses invaded (Z), ammunition crossed out to hold a horde, barricades built",
    referee="welcome_sim.referee.readings.zombies:Zombies",
    # Barricades the player built in front of the estate's houses.
    features=("barricades",),
    # At least `count` barricades built; every house of one street without a printed barricade
    # barricaded; at least `count` ammunition used; at least `count` houses invaded.
    goals=("barricades_built", "street_barricades", "ammunition_used", "houses_invaded"),
    flags=("F_BARRICADE",),
    sc_slots=(("SC_HORDE", 8), ("SC_AMMO", 1), ("SC_AMMO_USED", 1), ("SC_BARRICADES", 1), ("SC_ZCARDS", 1)),
    log_kinds=("LOG_X_ZOMBIE", "LOG_X_HOLD", "LOG_X_INVADE"),
    hooks=(
        ("x_on_move", "on_move"),
        ("x_bounds", "bounds"),
        ("x_fence_alt_ok", "barricade_ok"),
        ("x_fence_alt", "barricade"),
        ("x_ext_target", "ext_target"),
        ("x_card_moves", "card_moves"),
        ("x_card_seen", "card_seen"),
        ("x_target", "target"),
        ("x_can_hold", "can_hold"),
        ("x_hold", "hold"),
        ("x_invades", "invades"),
        ("x_advance", "advance"),
        ("x_score", "score"),
        ("x_estate_feature", "estate_barricades"),
        ("x_goal", "goal"),
        ("x_aaa", "aaa_points"),
        ("x_value", "value"),
        ("x_progress", "progress"),
    ),
    counters=Counters(
        "Zombie Outbreak: invasions, ammunition, barricades and the first stack",
        "Per player: houses invaded, ammunition crossed out to hold a horde, barricades built (means). Per game: share of games that ended because the first stack ran out.",
        ("invaded", "ammunition_used", "barricades"),
        "first-stack",
    ),
    legend="zombies: 'Z' invaded house (sealed); under a street, '#' a barricade the player built, '=' a printed one",
    layout_keys=("open_houses",),
    layout_words="houses without a barricade",
    not_varied="road, ammunition_boxes, cards",
    score_detail="{invaded} invaded, {barricades} barricades, {ammunition_used} ammunition used",
    text="welcome_sim.textmarks:Zombies",
)
_NUMBERS = allocate(RECORD, __name__)
X_CODE = _NUMBERS.code  # hooks.py branches on it (codes.py X_*)
O_X_AMMO_USED = _NUMBERS.out["ammunition_used"]
O_X_BARRICADES = _NUMBERS.out["barricades"]
O_X_INVADED = _NUMBERS.out["invaded"]
FT_BARRICADES = _NUMBERS.features["barricades"]
GL_AMMO_USED = _NUMBERS.goals["ammunition_used"]
GL_BARRICADES = _NUMBERS.goals["barricades_built"]
GL_INVADED = _NUMBERS.goals["houses_invaded"]
GL_STREET_BARRICADES = _NUMBERS.goals["street_barricades"]
# F_BARRICADE: a barricade the player built in front of this house. SC_HORDE: 8 slots, street * 2
# + side (0 the horde at the left end, 1 the right): how far the horde has walked along its road
# (0: at the street's end, 1: at its first house...). SC_AMMO: ammunition circled by Improvement
# boxes (the stock starts with one more); SC_AMMO_USED: crossed out to hold a horde;
# SC_BARRICADES: barricades built; SC_ZCARDS: bit i, special card i has been applied (public, the
# same for everyone). Houses sealed by an invasion count in layout.SC_SEALED (the base game's end
# check reads it).
F_BARRICADE = _NUMBERS.flags["F_BARRICADE"]
SC_HORDE = _NUMBERS.sc["SC_HORDE"]
SC_AMMO = _NUMBERS.sc["SC_AMMO"]
SC_AMMO_USED = _NUMBERS.sc["SC_AMMO_USED"]
SC_BARRICADES = _NUMBERS.sc["SC_BARRICADES"]
SC_ZCARDS = _NUMBERS.sc["SC_ZCARDS"]
LOG_X_ZOMBIE = _NUMBERS.log["LOG_X_ZOMBIE"]
LOG_X_HOLD = _NUMBERS.log["LOG_X_HOLD"]
LOG_X_INVADE = _NUMBERS.log["LOG_X_INVADE"]

CARD_KINDS = ("left", "right", "all")  # layout ZOMBIE_LEFT, ZOMBIE_RIGHT, ZOMBIE_ALL


# The file's own keys and the range of each number (checked on load, before compile_rows).
KEYS = {
    "open_houses": POSITION,  # [street, house], both from 1
    "road": Num(1, 7, "a road's length", "arrows"),
    "start_ammunition": Num(0, 9, "a starting ammunition"),
    "ammunition_boxes": Num(1, 61, "an estate size or a box"),  # [estate size, box]
    "cards": None,
    "first_stack_parts": Num(1, 8, "a number of parts"),
    "part_size": Num(1, 20, "a part's size", "cards"),
    "expert_cards_per_architect": Num(1, 13, "a number of cards"),
    "aaa_part_size": Num(1, 26, "a part's size", "cards"),
}


def compile_rows(T: np.ndarray, r: _Reader, sheet: Sheet) -> None:
    """Open houses, road length, starting ammunition, ammunition boxes, the cards and the deal."""
    for i, row in enumerate(r.get("open_houses", list)):
        key = f"open_houses[{i}]"
        if not (isinstance(row, list) and len(row) == 2):
            raise r.fail(key, f"expected [street, house], got {row!r}")
        s, h = check_house(r, key, sheet, row[0], row[1])
        T[R_X_HOUSE + s, h] = 1
    road = r.get("road", int)
    shortest = min(s.houses for s in sheet.streets)
    if not 1 <= road <= shortest // 2:
        raise r.fail(
            "road", f"a horde's road has 1 to {shortest // 2} arrows (half the shortest street), not {road}"
        )
    T[R_X_SCORE, 0] = road
    T[R_X_SCORE, 1] = r.get("start_ammunition", int)
    if not 0 <= T[R_X_SCORE, 1] <= 9:
        raise r.fail("start_ammunition", f"expected 0 to 9, got {T[R_X_SCORE, 1]}")
    for i, row in enumerate(r.get("ammunition_boxes", list)):
        key = f"ammunition_boxes[{i}]"
        if not (isinstance(row, list) and len(row) == 2 and all(isinstance(x, int) for x in row)):
            raise r.fail(key, f"expected [estate size, box], got {row!r}")
        size, box = row
        if not 1 <= size <= 6:
            raise r.fail(key, f"estate sizes are 1 to 6, not {size}")
        boxes = len(sheet.estate_values[size - 1]) - 1
        if not 1 <= box <= boxes:
            raise r.fail(
                key, f"the size-{size} column of sheet {sheet.name} has boxes 1 to {boxes}, not {box}"
            )
        T[R_X_COLOUR, size - 1] |= 1 << (box - 1)
    cards = r.get("cards", list)
    if not 1 <= len(cards) <= 8:
        raise r.fail("cards", f"expected 1 to 8 Zombie cards, got {len(cards)}")
    for i, kind in enumerate(cards):
        if kind not in CARD_KINDS:
            raise r.fail(f"cards[{i}]", f"'{kind}' is not one of {', '.join(CARD_KINDS)}")
        T[R_X_TABLE, i] = CARD_KINDS.index(kind)
    parts = r.get("first_stack_parts", int)
    part = r.get("part_size", int)
    if parts != len(cards):
        raise r.fail(
            "first_stack_parts", f"one Zombie card goes into each part: {len(cards)} cards, not {parts} parts"
        )
    if not 1 <= part <= 20:
        raise r.fail("part_size", f"expected 1 to 20 cards per part, got {part}")
    T[0, P_NSTACKS] = 2
    T[0, P_X_SPECIALS] = parts
    T[0, P_X_PART] = part
    T[0, P_X_HAND] = 2
    T[0, P_X_DECK_PER] = r.get("expert_cards_per_architect", int)
    if not 1 <= T[0, P_X_DECK_PER] <= 13:
        raise r.fail("expert_cards_per_architect", f"expected 1 to 13, got {T[0, P_X_DECK_PER]}")
    T[0, P_X_AAA_PART] = r.get("aaa_part_size", int)
    if not 1 <= T[0, P_X_AAA_PART] <= 26:
        raise r.fail("aaa_part_size", f"expected 1 to 26, got {T[0, P_X_AAA_PART]}")
    T[R_X_AAA, 0] = FENCE  # the AAA counts a Zombie card as a Fence card


@leaf
def barricaded(R, flags, p, s, h) -> bool:
    """House (s, h) has a printed barricade or one the player built."""
    return R[R_X_HOUSE + s, h] == 0 or (flags[p, s, h] & F_BARRICADE) != 0


@leaf
def ammunition(R, sc, p) -> int:
    """Ammunition player p can still cross out."""
    return R[R_X_SCORE, 1] + sc[p, SC_AMMO] - sc[p, SC_AMMO_USED]


@leaf
def card_moves(R, card) -> int:
    """Bits street * 2 + side of the hordes a Zombie card (deck index) moves."""
    kind = R[R_X_TABLE, card - R[0, P_NCARDS] - SPECIAL_X]
    mask = 0
    for s in range(R[0, P_NSTREETS]):
        if kind == ZOMBIE_LEFT or kind == ZOMBIE_ALL:
            mask |= 1 << (2 * s)
        if kind == ZOMBIE_RIGHT or kind == ZOMBIE_ALL:
            mask |= 1 << (2 * s + 1)
    return mask


@leaf
def card_seen(R, sc, n_players, card) -> None:
    """Everyone knows the card has been applied (the greedy player's threat estimate reads it)."""
    for p in range(n_players):
        sc[p, SC_ZCARDS] |= 1 << (card - R[0, P_NCARDS] - SPECIAL_X)


@leaf
def target(R, sc, p, s, side) -> int:
    """The house the horde of street s on this side reaches if it moves now; -1 at its road's end."""
    k = sc[p, SC_HORDE + 2 * s + side]
    if k >= R[R_X_SCORE, 0]:
        return -1
    return k if side == 0 else R[R_STREET_LEN, s] - 1 - k


@leaf
def can_hold(R, sc, p, s, side) -> bool:
    """Player p may cross out an ammunition to hold this horde (it would move, ammunition left)."""
    return target(R, sc, p, s, side) >= 0 and ammunition(R, sc, p) > 0


@leaf
def hold(sc, p) -> None:
    """Cross out one ammunition: the horde does not move."""
    sc[p, SC_AMMO_USED] += 1


@leaf
def invades(R, cells, flags, p, s, h) -> bool:
    """A horde arriving at house (s, h) invades it: not barricaded, no roundabout, no Z yet."""
    c = cells[p, s, h]
    return c != ROUNDABOUT and c != ZOMBIE and not barricaded(R, flags, p, s, h)


@leaf
def advance(R, cells, flags, fences, sc, p, s, side) -> int:
    """Move the horde one house inward; returns the house it invades, or -1."""
    h = target(R, sc, p, s, side)
    if h < 0:
        return -1
    sc[p, SC_HORDE + 2 * s + side] += 1
    if not invades(R, cells, flags, p, s, h):
        return -1
    if cells[p, s, h] >= 0:
        sc[p, SC_NUMBERED] -= 1  # the number is erased; pool and extension marks keep their points
    # "If the house is numbered, erase the number": a bis erased is no bis number (first edition
    # plan "5 bis numbers in one street"); its penalty stays in SC_EXT.
    flags[p, s, h] &= ~F_EXT
    cells[p, s, h] = ZOMBIE
    fences[p, s, h] |= B_FENCE
    fences[p, s, h + 1] |= B_FENCE
    sc[p, SC_SEALED] += 1
    return h


@leaf
def on_move(R, cells, flags, sc, p, mv) -> None:
    """After a move: a barricade built instead of a fence; an Improvement box showing ammunition."""
    a = mv[4]
    if a == FENCE and mv[7] == 1:
        barricade(flags, sc, p, mv[1], mv[2], 1)
    elif a == IMPROVEMENT:
        col = mv[5]
        if (R[R_X_COLOUR, col] >> (sc[p, SC_IMPR + col] - 1)) & 1:
            sc[p, SC_AMMO] += 1


@leaf
def barricade(flags, sc, p, s, h, sign) -> None:
    """Build (sign 1) or take back (-1, greedy trying it out) a barricade in front of (s, h)."""
    if sign > 0:
        flags[p, s, h] |= F_BARRICADE
    else:
        flags[p, s, h] &= ~F_BARRICADE
    sc[p, SC_BARRICADES] += sign


@leaf
def barricade_ok(R, cells, flags, p, s, h) -> bool:
    """The Fence action may build a barricade in front of the house (s, h) just numbered."""
    return cells[p, s, h] >= 0 and not barricaded(R, flags, p, s, h)


@leaf
def bounds(R, cells, flags, p, lo, hi) -> None:
    """lo/hi as sheetops.street_bounds gives them, with the Zombie reading of "5B-Z-5": a number may
    equal a bis beside it in the order (the bis's twin may have been erased by an invasion). A Z is
    skipped (street_bounds already ignores it); a roundabout starts a new order."""
    for s in range(R[0, P_NSTREETS]):
        n = R[R_STREET_LEN, s]
        m = -1
        for h in range(n):
            lo[s, h] = m
            c = cells[p, s, h]
            if c == ROUNDABOUT:
                m = -1
            elif c >= 0:
                b = c - 1 if flags[p, s, h] & F_EXT else c
                if b > m:
                    m = b
        m = 99
        for h in range(n - 1, -1, -1):
            hi[s, h] = m
            c = cells[p, s, h]
            if c == ROUNDABOUT:
                m = 99
            elif c >= 0:
                b = c + 1 if flags[p, s, h] & F_EXT else c
                if b < m:
                    m = b


@leaf
def ext_target(cells, p, s, n, src, d) -> int:
    """The house an extension from src toward d (-1 left, 1 right) fills: the next house with the
    Z houses skipped ("5B-Z-5B"); n when it runs off the street."""
    t = src + d
    while 0 <= t < n and cells[p, s, t] == ZOMBIE:
        t += d
    return t if 0 <= t < n else n


@leaf
def score(R, cells, flags, sc, p, row) -> None:
    """Counters only: Zombie Outbreak scores no points of its own."""
    row[O_X_INVADED] = sc[p, SC_SEALED]
    row[O_X_AMMO_USED] = sc[p, SC_AMMO_USED]
    row[O_X_BARRICADES] = sc[p, SC_BARRICADES]
    row[O_X_POINTS] = 0


@leaf
def estate_barricades(R, cells, flags, p, s, a, b) -> int:
    """Barricades the player built in front of houses a..b-1 of street s."""
    return flagged_houses(flags, p, s, a, b, F_BARRICADE)


@leaf
def _street_done(R, cells, flags, p, s) -> float:
    """Share of street s's open houses barricaded, or -1 when it can no longer be all of them (an
    open house invaded or numbered without its barricade) or has none."""
    n_open = 0
    done = 0
    for h in range(R[R_STREET_LEN, s]):
        if R[R_X_HOUSE + s, h] == 0:
            continue
        n_open += 1
        if flags[p, s, h] & F_BARRICADE:
            done += 1
        elif cells[p, s, h] != EMPTY:
            return -1.0
    if n_open == 0:
        return -1.0
    return done / n_open


@leaf
def goal(R, cells, flags, sc, p, plan) -> bool:
    """Zombie Plan C goals: barricades built, one street's barricades all built, ammunition used,
    houses invaded."""
    g = R[R_PLAN_XGOAL, plan]
    count = R[R_PLAN_COUNT, plan]
    if g == GL_BARRICADES:
        return sc[p, SC_BARRICADES] >= count
    if g == GL_AMMO_USED:
        return sc[p, SC_AMMO_USED] >= count
    if g == GL_INVADED:
        return sc[p, SC_SEALED] >= count
    if g == GL_STREET_BARRICADES:
        st = R[R_PLAN_STREET, plan]
        for s in range(R[0, P_NSTREETS]):
            if (st < 0 or s == st) and _street_done(R, cells, flags, p, s) == 1.0:
                return True
    return False


@leaf
def aaa_points(R, cards, n) -> int:
    """The AAA's share: none of its own (a Zombie card in its stack counts as a Fence card in the
    base scoring)."""
    return 0


# Greedy valuation. A numbered house a horde can still reach is worth less: losing it costs about
# its estate's points; an empty one costs less (it is sealed, and its fences can even help).
THREAT_NUMBERED = 2.0
THREAT_EMPTY = 0.5
AMMO_WORTH = 1.0  # an ammunition in stock: one house saved, at a chance


@leaf
def _moves_left(R, sc, p, side) -> int:
    """Zombie cards not yet applied that move the hordes on this side."""
    seen = sc[p, SC_ZCARDS]
    k = 0
    for i in range(R[0, P_X_SPECIALS]):
        if (seen >> i) & 1:
            continue
        kind = R[R_X_TABLE, i]
        if kind == ZOMBIE_ALL or (kind == ZOMBIE_LEFT) == (side == 0):
            k += 1
    return k


@leaf
def value(R, cells, flags, sc, p) -> float:
    """Greedy valuation: ammunition in stock, minus the houses the hordes can still reach."""
    # Ammunition is worth something only while Zombie cards are still to come.
    cards_left = 0
    for i in range(R[0, P_X_SPECIALS]):
        if not (sc[p, SC_ZCARDS] >> i) & 1:
            cards_left += 1
    total = AMMO_WORTH * min(ammunition(R, sc, p), 2 * cards_left)
    road = R[R_X_SCORE, 0]
    for side in range(2):
        left = _moves_left(R, sc, p, side)
        if left == 0:
            continue
        for s in range(R[0, P_NSTREETS]):
            n = R[R_STREET_LEN, s]
            k0 = sc[p, SC_HORDE + 2 * s + side]
            for k in range(k0, min(k0 + left, road)):
                h = k if side == 0 else n - 1 - k
                if not invades(R, cells, flags, p, s, h):
                    continue
                w = 1.0 if k == k0 else 0.5
                if cells[p, s, h] >= 0:
                    total -= THREAT_NUMBERED * w
                else:
                    total -= THREAT_EMPTY * w
    return total


# A goal's step not taken yet but still open (an empty house that can take a barricade, an
# ammunition in stock a horde can still be held with) counts for this share of a step taken: the
# steps a goal can still take are what numbering a house without its barricade, or an ammunition
# spent elsewhere, throws away, and a goal that can no longer be met is worth nothing.
OPEN_STEP = 0.3


@leaf
def _open_houses(R, cells, p, s) -> int:
    """Empty houses of street s (every street at -1) without a printed barricade."""
    k = 0
    for t in range(R[0, P_NSTREETS]):
        if s >= 0 and t != s:
            continue
        for h in range(R[R_STREET_LEN, t]):
            k += R[R_X_HOUSE + t, h] == 1 and cells[p, t, h] == EMPTY
    return k


@leaf
def _holds_left(R, sc, p) -> int:
    """Horde moves still to come that an ammunition could hold (each horde's moves left, up to
    its road's end)."""
    road = R[R_X_SCORE, 0]
    k = 0
    for side in range(2):
        left = _moves_left(R, sc, p, side)
        for s in range(R[0, P_NSTREETS]):
            k += min(left, max(0, road - sc[p, SC_HORDE + 2 * s + side]))
    return k


@leaf
def _count_progress(done, open_steps, count) -> float:
    """A count goal's progress: steps done, plus OPEN_STEP for each step still open (up to the
    steps missing); 0 when the open steps cannot make up the missing ones."""
    if done >= count:
        return 1.0
    if done + open_steps < count:
        return 0.0
    return (done + OPEN_STEP * min(open_steps, count - done)) / count


@leaf
def progress(R, cells, flags, sc, p, plan) -> float:
    """Greedy: how far a Zombie goal is, 0..1."""
    g = R[R_PLAN_XGOAL, plan]
    count = R[R_PLAN_COUNT, plan]
    if g == GL_BARRICADES:
        return _count_progress(sc[p, SC_BARRICADES], _open_houses(R, cells, p, -1), count)
    if g == GL_AMMO_USED:
        # Open: the ammunition in stock, as far as the horde moves still to come can use it (an
        # Improvement box may still add some: only the moves decide that the goal is lost).
        used = sc[p, SC_AMMO_USED]
        holds = _holds_left(R, sc, p)
        if used < count and used + holds < count:
            return 0.0
        return min(1.0, (used + OPEN_STEP * min(ammunition(R, sc, p), holds, max(0, count - used))) / count)
    if g == GL_INVADED:
        return min(1.0, sc[p, SC_SEALED] / count)
    if g == GL_STREET_BARRICADES:
        st = R[R_PLAN_STREET, plan]
        best = 0.0
        for s in range(R[0, P_NSTREETS]):
            if st < 0 or s == st:
                share = _street_done(R, cells, flags, p, s)
                if 0.0 <= share < 1.0:
                    n_open = 0
                    for h in range(R[R_STREET_LEN, s]):
                        n_open += R[R_X_HOUSE + s, h] == 1
                    share += OPEN_STEP * _open_houses(R, cells, p, s) / n_open
                best = max(best, share)
        return best
    return 0.0
