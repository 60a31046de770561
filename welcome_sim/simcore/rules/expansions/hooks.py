"""The expansion hooks the kernel calls; each dispatches on the ruleset's P_EXPANSION.

Without an expansion every hook returns at once (one comparison per call). Every branch into an
expansion sits behind the EXPANSIONS switch (ground/features.py): the base-game kernel variant
(engine/variants.py) compiles with it off, so no expansion code at all, in half the time. A new
branch must do the same (`if EXPANSIONS == 1 and R[0, P_EXPANSION] == X_...`, or `if EXPANSIONS
== 0: return <no expansion>` first); tests/test_variants.py checks the base variant.

The branches stay written out (Numba needs each call static) and are checked against the records
both ways (tests/test_expansion_contract.py). An expansion of one's own ($WELCOME_SIM_EXPANSIONS)
plugs into extra.PLUGIN_HOOKS through the last branch of each, behind extra.py's switch EXTRA,
compiled away when no such module is named.
"""

from __future__ import annotations

from welcome_sim.simcore.ground.features import EXPANSIONS
from welcome_sim.simcore.ground.jit import inlined, leaf
from welcome_sim.simcore.ground.layout import FENCE, G_AAA_EXPANSION, G_AAA_TOTAL
from welcome_sim.simcore.ground.table import P_EXPANSION, P_NSTREETS, P_OPP_SCORES, R_STREET_LEN, R_X_AAA
from welcome_sim.simcore.rules.expansions import (
    american,
    christmas,
    doomsday,
    easter,
    halloween,
    icecream,
    quack,
    roswell,
    zombies,
)
from welcome_sim.simcore.rules.expansions.codes import (
    FT_BARRICADES,
    FT_CONES,
    FT_DUCKLINGS,
    FT_EGGS,
    FT_GAPS,
    FT_LINKS,
    FT_LIT,
    FT_SHELTERS,
    FT_ZOORGS,
    X_AMERICAN,
    X_CHRISTMAS,
    X_DOOMSDAY,
    X_EASTER,
    X_HALLOWEEN,
    X_ICECREAM,
    X_QUACK,
    X_ROSWELL,
    X_ZOMBIES,
)
from welcome_sim.simcore.rules.expansions.extra import (
    EXTRA,
    X_EXTRA,
    extra_estate_feature,
    extra_goal,
    extra_on_number,
    extra_progress,
    extra_round_end,
    extra_score,
    extra_value,
)


@leaf
def x_on_number(R, cells, flags, sc, p, s, h) -> None:
    """A house was just numbered (by a card or an extension)."""
    if EXPANSIONS == 1 and R[0, P_EXPANSION] == X_ICECREAM:
        icecream.on_number(R, cells, flags, sc, p, s, h)
    elif EXPANSIONS == 1 and EXTRA == 1 and R[0, P_EXPANSION] == X_EXTRA:
        extra_on_number(R, cells, flags, sc, p, s, h)


@leaf
def x_on_move(R, cells, flags, sc, p, mv) -> None:
    """A move was just applied (its number, its action; mv[7] == 1 with the Fence action: the
    expansion's alternative to a fence)."""
    if EXPANSIONS == 1 and R[0, P_EXPANSION] == X_ZOMBIES:
        zombies.on_move(R, cells, flags, sc, p, mv)
    elif EXPANSIONS == 1 and R[0, P_EXPANSION] == X_ROSWELL:
        roswell.on_move(R, cells, flags, sc, p, mv)


@leaf
def x_bounds(R, cells, flags, p, lo, hi) -> None:
    """lo/hi of every empty house (sheetops.street_bounds), as the expansion's numbering rules
    have them; called after street_bounds."""
    if EXPANSIONS == 1 and R[0, P_EXPANSION] == X_ZOMBIES:
        zombies.bounds(R, cells, flags, p, lo, hi)


@leaf
def x_fence_alt_ok(R, cells, flags, p, s, h) -> bool:
    """The Fence action on the house (s, h) just numbered may do the expansion's alternative
    (Zombie Outbreak: a barricade in front of it)."""
    if EXPANSIONS == 1 and R[0, P_EXPANSION] == X_ZOMBIES:
        return zombies.barricade_ok(R, cells, flags, p, s, h)
    return False


@leaf
def x_fence_alt(R, flags, sc, p, s, h, sign) -> None:
    """Do (sign 1) or undo (-1) the Fence action's alternative on (s, h), for trying it out."""
    if EXPANSIONS == 1 and R[0, P_EXPANSION] == X_ZOMBIES:
        zombies.barricade(flags, sc, p, s, h, sign)


@leaf
def x_alt_ok(R, cells, flags, p, s, h) -> bool:
    """Any action's alternative: the house (s, h) just numbered with the card's own number (no
    temp worker) may do the expansion's move instead of the card's action (Roswell: infiltrate a
    Zoorg under its flying saucer). Such a move has action NO_ACTION and mv[5:8] = (s, h, 1)."""
    if EXPANSIONS == 1 and R[0, P_EXPANSION] == X_ROSWELL:
        return roswell.alt_ok(R, cells, flags, p, s, h)
    return False


@leaf
def x_alt(R, flags, sc, p, s, h, sign) -> None:
    """Do (sign 1) or undo (-1) the action's alternative on (s, h), for trying it out."""
    if EXPANSIONS == 1 and R[0, P_EXPANSION] == X_ROSWELL:
        roswell.infiltrate(flags, sc, p, s, h, sign)


@leaf
def x_on_action(R, cells, flags, sc, p, s, h, action, sign) -> None:
    """The house (s, h) was just numbered with a combination whose action card shows `action`
    (sign 1), or that is undone (-1, a strategy trying it out): on a sheet without the usual
    actions, what the action says of the house (American Dream: perfect when it matches the
    house's family) and what the number completes."""
    if EXPANSIONS == 1 and R[0, P_EXPANSION] == X_AMERICAN:
        american.on_action(R, cells, flags, sc, p, s, h, action, sign)


@leaf
def x_own_goal_exp(R) -> bool:
    """The greedy player values this expansion's own goals (kind "expansion" plans, estate plans
    asking for its feature) at `x_plan_exp`, not `plan_exp`. The American Dream and Easter keep
    `plan_exp`: a lower exponent cost them points (docs/findings/expansions.md)."""
    if EXPANSIONS == 0:
        return False
    x = R[0, P_EXPANSION]
    return x != 0 and x != X_AMERICAN and x != X_EASTER


@leaf
def x_action_marks(R) -> bool:
    """A placement's value depends on its combination's action (x_on_action marks the house), so a
    strategy may not reuse it for another combination with the same number card."""
    return R[0, P_EXPANSION] == X_AMERICAN


@leaf
def x_objectives(R) -> int:
    """How many set-up objectives each player chooses one of before round 1 (Roswell's
    infiltration objectives); 0: no such choice."""
    if EXPANSIONS == 1 and R[0, P_EXPANSION] == X_ROSWELL:
        return roswell.objectives(R)
    return 0


@leaf
def x_set_objective(R, sc, p, k) -> None:
    """Player p chose set-up objective k (0-based)."""
    if EXPANSIONS == 1 and R[0, P_EXPANSION] == X_ROSWELL:
        roswell.set_objective(sc, p, k)


@leaf
def x_ext_target(R, cells, p, s, src, d) -> int:
    """The house an extension copying src toward d (-1 left, 1 right) fills, or the street's length
    when there is none: the next house, or past invaded houses (Zombie Outbreak)."""
    n = R[R_STREET_LEN, s]
    if EXPANSIONS == 1 and R[0, P_EXPANSION] == X_ZOMBIES:
        return zombies.ext_target(cells, p, s, n, src, d)
    t = src + d
    return t if 0 <= t < n else n


@leaf
def x_card_moves(R, card) -> int:
    """An expansion's special card surfaced on the first stack: bits street * 2 + side of the
    pieces it moves (Zombie hordes), each of which a player may hold with a resource."""
    if EXPANSIONS == 1 and R[0, P_EXPANSION] == X_ZOMBIES:
        return zombies.card_moves(R, card)
    return 0


@leaf
def x_card_seen(R, sc, n_players, card) -> None:
    """Every player learns the special card was applied."""
    if EXPANSIONS == 1 and R[0, P_EXPANSION] == X_ZOMBIES:
        zombies.card_seen(R, sc, n_players, card)


@leaf
def x_target(R, sc, p, s, side) -> int:
    """The house the piece of street s on this side reaches if it moves now; -1 if it cannot move."""
    if EXPANSIONS == 1 and R[0, P_EXPANSION] == X_ZOMBIES:
        return zombies.target(R, sc, p, s, side)
    return -1


@leaf
def x_can_hold(R, sc, p, s, side) -> bool:
    """Player p may spend a resource to hold that piece."""
    if EXPANSIONS == 1 and R[0, P_EXPANSION] == X_ZOMBIES:
        return zombies.can_hold(R, sc, p, s, side)
    return False


@leaf
def x_hold(R, sc, p) -> None:
    """Spend the resource: the piece stays."""
    if EXPANSIONS == 1 and R[0, P_EXPANSION] == X_ZOMBIES:
        zombies.hold(sc, p)


@leaf
def x_invades(R, cells, flags, p, s, h) -> bool:
    """The piece arriving at house (s, h) would take it over."""
    if EXPANSIONS == 1 and R[0, P_EXPANSION] == X_ZOMBIES:
        return zombies.invades(R, cells, flags, p, s, h)
    return False


@leaf
def x_advance(R, cells, flags, fences, sc, p, s, side) -> int:
    """Move the piece; the house it takes over (a Zombie invasion), or -1."""
    if EXPANSIONS == 1 and R[0, P_EXPANSION] == X_ZOMBIES:
        return zombies.advance(R, cells, flags, fences, sc, p, s, side)
    return -1


@leaf
def x_side_pending(R, sc, p, s) -> bool:
    """Seat p has just numbered a house in street s and must now choose the side its truck starts
    from (first-edition Ice Cream, street 3) before the truck moves."""
    if EXPANSIONS == 1 and R[0, P_EXPANSION] == X_ICECREAM:
        return icecream.side_pending(R, sc, p, s)
    return False


@leaf
def x_set_side(R, sc, p, s, side) -> None:
    """Seat p's truck of street s starts from the left (side 0) or the right (1); -1 undoes it."""
    if EXPANSIONS == 1 and R[0, P_EXPANSION] == X_ICECREAM:
        icecream.set_side(sc, p, s, side)


@leaf
def x_any(R) -> bool:
    """The game has an expansion: the kernel skips the calls of hooks that do nothing without one
    in a base game (x_bounds, x_round_end, x_events: each call passes a handful of arrays, and
    they cost random base games ~3% of their time)."""
    return EXPANSIONS == 1 and R[0, P_EXPANSION] != 0


@leaf
def x_decides(R) -> bool:
    """The expansion has decisions of its own after a move and at a round's end (x_options)."""
    return R[0, P_EXPANSION] == X_HALLOWEEN or R[0, P_EXPANSION] == X_AMERICAN


@leaf
def x_options(R, cells, flags, fences, sc, p, phase, opts) -> int:
    """Player p's next decision of the expansion (phase 0 after p's move, 1 at the round's end
    after the plan validations, 2 when an AAA validation card came up): its legal options as rows
    of opts; 0 when none is left. (Halloween: the ghost or the candy of a house just numbered, the
    level claims, the Ghost bonus's alternative and each of its units; American Dream, phase 2:
    the bonuses the card makes the player cross.)"""
    if EXPANSIONS == 1 and R[0, P_EXPANSION] == X_HALLOWEEN and phase < 2:
        return halloween.options(R, cells, flags, fences, sc, p, phase, opts)
    if EXPANSIONS == 1 and R[0, P_EXPANSION] == X_AMERICAN:
        return american.options(R, cells, flags, fences, sc, p, phase, opts)
    return 0


@leaf
def x_apply(R, cells, flags, fences, sc, p, phase, opt, lg) -> None:
    """Play the option row opt of x_options; lg = its log row (kind, a, b, c, d), kind -1: none."""
    lg[0] = -1
    if EXPANSIONS == 1 and R[0, P_EXPANSION] == X_HALLOWEEN:
        halloween.apply(R, cells, flags, fences, sc, p, phase, opt, lg)
    elif EXPANSIONS == 1 and R[0, P_EXPANSION] == X_AMERICAN:
        american.apply(R, cells, flags, fences, sc, p, phase, opt, lg)


@inlined
def x_round_end(R, sc, n_players) -> None:
    """Everyone has played the round."""
    if EXPANSIONS == 1 and R[0, P_EXPANSION] == X_ICECREAM:
        icecream.round_end(R, sc, n_players)
    elif EXPANSIONS == 1 and R[0, P_EXPANSION] == X_HALLOWEEN:
        halloween.round_end(R, sc, n_players)
    elif EXPANSIONS == 1 and R[0, P_EXPANSION] == X_AMERICAN:
        american.round_end(R, sc, n_players)
    elif EXPANSIONS == 1 and EXTRA == 1 and R[0, P_EXPANSION] == X_EXTRA:
        extra_round_end(R, sc, n_players)


@leaf
def x_validation(R, cells, flags, sc, p) -> int:
    """AAA solo mode: a validation card came up; returns a street whose bonus the player crossed
    (Ice Cream), or -1."""
    if EXPANSIONS == 1 and R[0, P_EXPANSION] == X_ICECREAM:
        return icecream.validation(R, cells, flags, sc, p)
    return -1


@leaf
def x_aaa_reacts(R, sc, slot, aaa, aaa_n) -> int:
    """AAA solo mode: the validation card of plan slot came up; the AAA's own reaction on the
    expansion's sheet (Doomsday: it builds a shelter from the last cards given to it, aaa[:aaa_n]).
    Returns the value it wrote (logged), or -1."""
    if EXPANSIONS == 1 and R[0, P_EXPANSION] == X_DOOMSDAY:
        return doomsday.aaa_validation(R, sc, slot, aaa, aaa_n)
    return -1


@leaf
def x_roundabout(R, sc, p, s) -> int:
    """Seat p built a roundabout in street s (Doomsday AAA: the AAA builds a shelter there).
    Returns the value the AAA wrote (logged), or -1."""
    if EXPANSIONS == 1 and R[0, P_EXPANSION] == X_DOOMSDAY:
        return doomsday.aaa_roundabout(R, sc, s)
    return -1


@leaf
def x_validation_card(R, sc, p, slot) -> None:
    """AAA solo mode: validation card `slot` (A, B, C) came up; what it crosses by its letter
    (Halloween: that rank's Ghost and Candy levels; American Dream: one street bonus and two
    column bonuses owed, crossed in the expansion's decisions, phase 2)."""
    if EXPANSIONS == 1 and R[0, P_EXPANSION] == X_HALLOWEEN:
        halloween.validation(R, sc, p, slot)
    elif EXPANSIONS == 1 and R[0, P_EXPANSION] == X_AMERICAN:
        american.validation(R, sc, p, slot)


@leaf
def x_events(R, cells, sc, n_players, when, slot, aaa_n, ev) -> int:
    """Public events the expansion settles on every sheet (Quack: its duckling scoring phases):
    when 0 at a round's end, 1 for AAA validation card `slot` (aaa_n cards given to the AAA so
    far), 2 at the game's end before scoring. Their log rows (kind, player, a, b) go into ev;
    returns how many."""
    if EXPANSIONS == 1 and R[0, P_EXPANSION] == X_QUACK:
        return quack.events(R, cells, sc, n_players, when, slot, aaa_n, ev)
    return 0


@inlined
def x_score(R, cells, flags, fences, sc, p, row) -> None:
    """The expansion's score columns of player p (O_X_*)."""
    if EXPANSIONS == 0:
        return
    x = R[0, P_EXPANSION]
    if x == X_EASTER:
        easter.score(R, cells, flags, sc, p, row)
    elif x == X_ICECREAM:
        icecream.score(R, cells, flags, sc, p, row)
    elif x == X_CHRISTMAS:
        christmas.score(R, cells, flags, sc, p, row)
    elif x == X_ZOMBIES:
        zombies.score(R, cells, flags, sc, p, row)
    elif x == X_DOOMSDAY:
        doomsday.score(R, cells, flags, sc, p, row)
    elif x == X_ROSWELL:
        roswell.score(R, cells, flags, fences, sc, p, row)
    elif x == X_HALLOWEEN:
        halloween.score(R, cells, flags, sc, p, row)
    elif x == X_QUACK:
        quack.score(R, cells, flags, sc, p, row)
    elif x == X_AMERICAN:
        american.score(R, cells, flags, sc, p, row)
    elif EXTRA == 1 and x == X_EXTRA:
        extra_score(R, cells, flags, sc, p, row)


@inlined
def x_estate_feature(R, cells, flags, p, s, a, b, feature) -> int:
    """Measure of the estate a..b-1 of street s that a plan bounds (FT_*)."""
    if EXPANSIONS == 0:
        return 0
    if feature == FT_EGGS:
        return easter.estate_eggs(R, cells, flags, p, s, a, b)
    if feature == FT_CONES:
        return icecream.estate_cones(R, cells, flags, p, s, a, b)
    if feature == FT_GAPS:
        return christmas.estate_links(R, cells, p, s, a, b, True)
    if feature == FT_LINKS:
        return christmas.estate_links(R, cells, p, s, a, b, False)
    if feature == FT_LIT:
        return christmas.estate_lit(R, cells, p, s, a, b)
    if feature == FT_BARRICADES:
        return zombies.estate_barricades(R, cells, flags, p, s, a, b)
    if feature == FT_SHELTERS:
        return doomsday.estate_shelters(R, cells, flags, p, s, a, b)
    if feature == FT_ZOORGS:
        return roswell.estate_zoorgs(R, cells, flags, p, s, a, b)
    if feature == FT_DUCKLINGS:
        return quack.estate_ducklings(R, cells, flags, p, s, a, b)
    if EXTRA == 1 and R[0, P_EXPANSION] == X_EXTRA:
        return extra_estate_feature(R, cells, flags, p, s, a, b, feature)
    return 0


@inlined
def x_goal(R, cells, flags, sc, p, plan) -> bool:
    """A kind "expansion" plan's goal is met."""
    if EXPANSIONS == 0:
        return False
    x = R[0, P_EXPANSION]
    if x == X_EASTER:
        return easter.goal(R, cells, flags, sc, p, plan)
    if x == X_ICECREAM:
        return icecream.goal(R, cells, flags, sc, p, plan)
    if x == X_CHRISTMAS:
        return christmas.goal(R, cells, flags, sc, p, plan)
    if x == X_ZOMBIES:
        return zombies.goal(R, cells, flags, sc, p, plan)
    if x == X_DOOMSDAY:
        return doomsday.goal(R, cells, flags, sc, p, plan)
    if x == X_ROSWELL:
        return roswell.goal(R, cells, flags, sc, p, plan)
    if x == X_HALLOWEEN:
        return halloween.goal(R, cells, flags, sc, p, plan)
    if x == X_QUACK:
        return quack.goal(R, cells, flags, sc, p, plan)
    if x == X_AMERICAN:
        return american.goal(R, cells, flags, sc, p, plan)
    if EXTRA == 1 and x == X_EXTRA:
        return extra_goal(R, cells, flags, sc, p, plan)
    return False


@inlined
def x_aaa(R, cells, cards, n, sc, out_g) -> None:
    """The AAA's points from the expansion (level 1 and up), added to its total."""
    if EXPANSIONS == 0:
        return
    x = R[0, P_EXPANSION]
    if x == 0 or R[0, P_OPP_SCORES] == 0:
        return
    pts = 0
    if x == X_EASTER:
        pts = easter.aaa_points(R, cards, n)
    elif x == X_ICECREAM:
        pts = icecream.aaa_points(R, cards, n, sc)
    elif x == X_CHRISTMAS:
        pts = christmas.aaa_points(R, cards, n)
    elif x == X_ZOMBIES:
        pts = zombies.aaa_points(R, cards, n)
    elif x == X_DOOMSDAY:
        pts = doomsday.aaa_points(R, cells, sc)
    elif x == X_ROSWELL:
        pts = roswell.aaa_points(R, cards, n)
    elif x == X_HALLOWEEN:
        pts = halloween.aaa_points(R, sc)
    elif x == X_QUACK:
        pts = quack.aaa_points(R, sc)
    elif x == X_AMERICAN:
        pts = american.aaa_points(R, cards, n, sc, out_g)
    out_g[G_AAA_EXPANSION] = pts
    out_g[G_AAA_TOTAL] += pts


@leaf
def x_value(R, cells, flags, fences, sc, p) -> float:
    """The greedy player's valuation of the expansion's part of the sheet: of an expansion with
    street parts, x_sheet_value of the parts summed in street order (the operations greedy's
    kept parts repeat, so both give the same value to the last bit)."""
    if EXPANSIONS == 0:
        return 0.0
    x = R[0, P_EXPANSION]
    if x_street_parts(R):
        parts = 0.0
        for s in range(R[0, P_NSTREETS]):
            parts += x_street_part(R, cells, flags, sc, p, s)
        return x_sheet_value(R, cells, flags, sc, p, parts)
    if x == X_ZOMBIES:
        return zombies.value(R, cells, flags, sc, p)
    if x == X_DOOMSDAY:
        return doomsday.value(R, cells, flags, sc, p)
    if x == X_ROSWELL:
        return roswell.value(R, cells, flags, fences, sc, p)
    if x == X_QUACK:
        return quack.value(R, cells, flags, sc, p)
    if EXTRA == 1 and x == X_EXTRA:
        return extra_value(R, cells, flags, fences, sc, p)
    return 0.0


@leaf
def x_street_parts(R) -> bool:
    """The expansion's valuation has street parts (x_street_part, x_sheet_value)."""
    if EXPANSIONS == 0:
        return False
    x = R[0, P_EXPANSION]
    return x == X_EASTER or x == X_ICECREAM or x == X_CHRISTMAS or x == X_AMERICAN or x == X_HALLOWEEN


@inlined
def x_street_part(R, cells, flags, sc, p, s) -> float:
    """The greedy player's valuation, the part street s alone decides (0 for an expansion whose
    value is sheet-wide). Greedy computes it when it walks the street and keeps it with the
    street's record, so a candidate move re-prices only the street it changes; it may read only
    street s's cells and flags and score-sheet entries that no move under evaluation changes.
    Inlined into its callers (greedy's _x_term, x_value): as a function of its own, its call
    cost about what a small part saves."""
    if EXPANSIONS == 0:
        return 0.0
    x = R[0, P_EXPANSION]
    if x == X_EASTER:
        return easter.street_part(R, cells, flags, sc, p, s)
    if x == X_ICECREAM:
        return icecream.street_part(R, cells, flags, sc, p, s)
    if x == X_CHRISTMAS:
        return christmas.street_part(R, cells, flags, sc, p, s)
    if x == X_AMERICAN:
        return american.street_part(R, cells, flags, sc, p, s)
    if x == X_HALLOWEEN:
        return halloween.street_part(R, cells, flags, sc, p, s)
    return 0.0


@leaf
def x_sheet_value(R, cells, flags, sc, p, parts) -> float:
    """The valuation of an expansion with street parts (x_street_parts) from its streets' parts
    (x_street_part) summed in street order, adding what needs the whole sheet; 0 for an
    expansion without them (x_value values it whole)."""
    if EXPANSIONS == 0:
        return 0.0
    x = R[0, P_EXPANSION]
    if x == X_EASTER:
        return easter.sheet_value(R, parts)
    if x == X_ICECREAM:
        return icecream.sheet_value(R, parts)
    if x == X_CHRISTMAS:
        return christmas.sheet_value(R, parts)
    if x == X_AMERICAN:
        return american.sheet_value(R, cells, flags, sc, p, parts)
    if x == X_HALLOWEEN:
        return halloween.sheet_value(R, cells, flags, sc, p, parts)
    return 0.0


@inlined
def x_progress(R, cells, flags, sc, p, plan) -> float:
    """The greedy player's progress toward a kind "expansion" plan, 0..1."""
    if EXPANSIONS == 0:
        return 0.0
    x = R[0, P_EXPANSION]
    if x == X_EASTER:
        return easter.progress(R, cells, flags, sc, p, plan)
    if x == X_ICECREAM:
        return icecream.progress(R, cells, flags, sc, p, plan)
    if x == X_CHRISTMAS:
        return christmas.progress(R, cells, flags, sc, p, plan)
    if x == X_ZOMBIES:
        return zombies.progress(R, cells, flags, sc, p, plan)
    if x == X_DOOMSDAY:
        return doomsday.progress(R, cells, flags, sc, p, plan)
    if x == X_ROSWELL:
        return roswell.progress(R, cells, flags, sc, p, plan)
    if x == X_HALLOWEEN:
        return halloween.progress(R, cells, flags, sc, p, plan)
    if x == X_QUACK:
        return quack.progress(R, cells, flags, sc, p, plan)
    if x == X_AMERICAN:
        return american.progress(R, cells, flags, sc, p, plan)
    if EXTRA == 1 and x == X_EXTRA:
        return extra_progress(R, cells, flags, sc, p, plan)
    return 0.0


@leaf
def x_aaa_card(R, number, action) -> float:
    """The greedy player's rough price, in AAA points, of giving the AAA a card of this number
    code and action under the expansion's AAA rule (level 1 and up)."""
    if EXPANSIONS == 0:
        return 0.0
    x = R[0, P_EXPANSION]
    if x == 0 or x == X_ZOMBIES or x == X_DOOMSDAY or x == X_HALLOWEEN or R[0, P_OPP_SCORES] == 0:
        return 0.0  # Zombie Outbreak, Doomsday, Halloween: no points per card of its own
    if x == X_QUACK:
        return 0.0  # Quack: the AAA's points count the cards, whichever card is given
    if x == X_EASTER:
        return 1.9 * R[R_X_AAA, number // 2]  # about 35 points for 18 eggs
    if x == X_AMERICAN:
        return american.aaa_card(R, action)
    if x == X_ROSWELL:
        # A Fence card given turns the next card given upside down (a house and its points).
        return 0.8 * (R[R_X_AAA, 0] + 1) if action == FENCE else 0.0
    if action == FENCE:
        return 0.0
    if x == X_ICECREAM:
        return float(R[R_X_AAA, 0])
    return 0.8 * R[R_X_AAA, 0]  # Christmas: most cards end up between two fence cards


@leaf
def x_aaa_upside(R, i, prev) -> bool:
    """AAA solo mode: the i-th card given to the AAA lies upside down (Roswell: a house, none of
    its action counted), given the previous card's action as it counted (NO_ACTION if upside
    down)."""
    if EXPANSIONS == 1 and R[0, P_EXPANSION] == X_ROSWELL:
        return roswell.upside(R, i, prev)
    return False
