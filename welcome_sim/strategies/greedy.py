"""The greedy player: one-step look-ahead over every legal move with a weighted sheet evaluation.

For every legal (combination, house, number) placement the sheet is evaluated; for the two best
placements of each combination every option of its action (including not using it) is evaluated
too, and the best move overall is played (the search: greedy_search.py). The evaluation
`evaluate()` (greedy_eval.py, its contract there) is the sum of:

- achieved points: validated plans, park and pool tracks (parks credited linearly per box toward
  the street's last value), temp workers (solo: the first-place points once one is hired; at a
  table: a share of them growing with the count), minus extension and refusal penalties;
- estates: every complete estate of size 1..6 at its current value; every incomplete one at its
  value times its completion chance, the product over its empty houses of their fill chance times
  `rho`. A house's fill chance is how many card numbers can still go there (weighted by how often
  they are in the deck) per empty house of its gap, over `need`; 0 when its gap has fewer
  numbers than houses. Houses in a stretch longer than 6 are worth `long_house` each (a later
  fence can make estates of them);
- improvements: beyond their effect on the estates above, each crossed box counts for
  `impr_prior` estates of that size still to come;
- plan progress: for each plan not yet validated, its value (first score while no one has
  validated it, else the later one) times `plan` times progress**`plan_exp`, where progress
  matches each estate the plan asks for to the unlocked estate of that exact size most likely to
  be completed;
- flexibility: minus `dead` per house that can no longer be numbered, minus `pool_waste` per pool
  house numbered without its pool while pool boxes remain.

Exact ties between moves break at random, and each evaluated move can get uniform noise of width
`noise`; both draw from the game's generator, so games stay deterministic given their seed.
Random tie-breaks also keep two seats of the same strategy from playing identical sheets.

First edition, offered the reshuffle after the first plan (`reshuffle`): 0 never, 1 always, 2 when
the cards left in the stacks fit the sheet worse than the whole deck (fewer empty houses per card
where its number can go).

Plans are validated when the evaluation says so: a plan still worth its first score always; a
plan worth only its later score when the points outweigh the progress its locked estates were
giving the other plans.

The look-ahead player (`look_moves` >= 2; the ladder's `lookahead` level) keeps greedy's
`look_moves` best moves and picks among them by sampled futures (greedy_look.py).

Expansion decisions. An alternative to any action (Roswell: a Zoorg infiltrated under the
flying saucer of the house just numbered, hooks.x_alt_ok/x_alt) is one more option of each of the
two best placements that keep the card's own number, valued like the others (the expansion's
x_value prices Zoorgs, infiltrated estates and the objective, simcore/rules/expansions/roswell.py); a set-up
objective (Roswell's infiltration objective) is `greedy_objective`: the `objective` parameter's
box, or at 0 the box the expansion's estimate of greedy's infiltrated estates pays best.

An expansion's own decisions (Halloween: the ghost or the candy of a house just numbered; at a
round's end the Ghost and Candy claims, the Ghost bonus's alternative and where each of its units
goes) are made in `greedy_option`: every legal option is played on the sheet and evaluated, and the
best is kept (ties: the first). The expansion's valuation (`x_value`: halloween.street_part and
sheet_value) prices what the options leave unresolved: a claimed Candy level its points, a Ghost
bonus still to place its units' worth (a pool box's marginal points, a park box's share of its
street's last value, 1.5 for an extension), and each kind not claimed yet the best level still in
reach, 0.9 of its worth with the exact count now, 0.6 x 0.8 per missing mark otherwise; a house
numbered but not yet marked (a move under evaluation) counts as whichever mark values more.
`xchoice` 1 takes the first option instead (the fixed policy it is measured against: always the
ghost, the highest level at once, the first alternative).

Blind to the expansion (`blind` 1; issue 38's blind cost: what ignoring the expansion's own rules
costs a player): the same greedy player with everything the expansion adds to its judgement turned
off, while the kernel still plays the expansion's rules (what is forced is forced). Not valued: the
expansion's points and prospects (`x_value`, whatever the `expansion` weight), progress toward its
own goals (plans of kind expansion: 0), an estate's expansion feature in a plan (eggs, cones,
Zoorgs...: not seen, the estate counts by size, pools and position alone), its AAA rule's price of
a card (`x_aaa_card`). Its decisions by a fixed rule: Roswell, no Zoorg infiltrated and the first
objective box; Zombie Outbreak, the Fence action always a fence (never a barricade) and no horde
held; first-edition Ice Cream, the truck from the left; Halloween and the American Dream's AAA
crossings, the first option (the ghost, the highest level, the first alternative: `xchoice` 1).
Christmas, Easter, Doomsday and Quack have no decision of their own. Plan points printed on a card
are still seen (a blind player validates a met plan as greedy does).

Quack has no decision of its own (a duckling is circled as soon as both its houses are numbered):
its value enters through `x_value` (simcore/rules/expansions/quack.py `value`): the phases already scored as
paid, each phase to come at the ducklings connected to their parent now plus the chance of more by
the time it is scored (how likely their empty houses are numbered by the game's end), that chance
discounted by how close an opponent is to triggering the phase (the AAA: the share of the sheet
filled) and dropped when the move itself completes the phase (scored on the sheet as it is).

A sheet where the combination's action marks the house (the American Dream: a perfect house when
the action matches the house's family, hooks.x_on_action) has every placement tried with its own
combination's action, and the hand modes' placement memo is off there (x_action_marks: the value
depends on the action). Its value (`american.street_part` and `sheet_value`) prices the columns and
the street and column bonus races; the AAA's crossings are `greedy_option`'s.

Advanced mode: a roundabout before the move when it gains `rb_margin` or rescues a refusal,
else after the move when it gains `rb_margin` (one a round). Hand modes, after a refusal: the
card passed on is the one that helps its receiver least (`greedy_pass`).

What each of these choices was measured to gain or cost: docs/findings/greedy.md.
"""

from __future__ import annotations

import numpy as np

from welcome_sim.simcore.ground.features import EXPANSIONS, LOOK_AHEAD
from welcome_sim.simcore.ground.jit import inlined, kernel, leaf
from welcome_sim.simcore.ground.layout import (
    B_FENCE,
    EMPTY,
    SC_PLAN_ROUND,
    SC_REFUSALS,
    SC_ROUNDABOUTS,
)
from welcome_sim.simcore.ground.rng import rng_below
from welcome_sim.simcore.ground.table import (
    DEAL_AAA,
    P_NCARDS,
    P_NSTREETS,
    P_RB_MAX,
    PK_STREET_ENDS,
    PK_STREET_FULL,
    R_DECK_NUM,
    R_PLAN_KIND,
    R_PLAN_LATER,
    R_PLAN_NEED,
    R_PLAN_PLAIN,
    R_PLAN_RB,
    R_STREET_LEN,
)
from welcome_sim.simcore.rules.expansions import roswell
from welcome_sim.simcore.rules.expansions.hooks import (
    x_advance,
    x_apply,
    x_hold,
)
from welcome_sim.simcore.rules.plans import counts_meet, plan_check
from welcome_sim.simcore.rules.sheetops import (
    any_fit,
    estate_counts,
    place_roundabout,
    remove_roundabout,
    roundabout_ok,
    street_bounds,
)
from welcome_sim.strategies.context import (
    CTX_DEAL,
    CTX_FLIPPED,
    CTX_HAND_ACT,
    CTX_HAND_NUM,
    CTX_HAND_SIZE,
    CTX_PLAN,
)
from welcome_sim.strategies.greedy_eval import (
    TIE_JITTER,
    aaa_price,
    combine,
    evaluate,
    noisy,
    retouch_penalties,
)
from welcome_sim.strategies.greedy_layout import (
    BLIND,
    HOLD,
    LOOK_K,
    N_CODES,
    N_KEYS,
    OBJECTIVE,
    RB_MARGIN,
    RESHUFFLE,
    ST_TRIAL,
    X_CHOICE,
    Search,
    new_workspace,
    turn_workspace,
)
from welcome_sim.strategies.greedy_look import (
    look_ahead,
)
from welcome_sim.strategies.greedy_search import (
    best_moves,
    to_move,
)
from welcome_sim.strategies.greedy_walk import (
    walk_street,
)


# A kernel of its own, not inlined: the game has three call sites (engine/cards.py), and inlined
# there its two evaluations lengthened play_batch's LLVM optimization more than this module costs
# (docs/findings/kernel-phases.md, "cold5").
@kernel
def greedy_hold(R, prm, sh, p, ctx, s, side) -> bool:
    """Zombie Outbreak: hold the horde of street s on this side with an ammunition when the sheet
    it leaves is worth more than the sheet after the horde moves (the evaluation prices the
    ammunition kept, the house lost and the plans' progress); `hold` policy 1 never holds, 2
    always does when it can. Rare (a few times a game): it works on copies."""
    cells, flags, fences, sc = sh
    policy = int(prm[HOLD] + 0.5) if prm[BLIND] == 0.0 else 1  # blind: never holds
    if policy != 0:
        return policy == 2
    ws = new_workspace(R)
    c0, f0, fe0, s0 = cells.copy(), flags.copy(), fences.copy(), sc.copy()
    x_hold(R, sc, p)
    held = evaluate(R, prm, sh, p, ctx, ws, -1)
    sc[:, :] = s0
    x_advance(R, cells, flags, fences, sc, p, s, side)
    moved = evaluate(R, prm, sh, p, ctx, ws, -1)
    cells[:, :, :] = c0
    flags[:, :, :] = f0
    fences[:, :, :] = fe0
    sc[:, :] = s0
    return held > moved


# Inlined into its one caller (dispatch.choose_move, itself inlined into the game): a function of
# its own linked in and re-optimized all of greedy's evaluation below it once more.
@inlined
def choose_greedy(R, prm, sh, p, ctx, offer) -> None:
    """One-step greedy move choice (see the module docstring)."""
    cnum, mv = offer.cnum, offer.mv
    ws = turn_workspace(R, offer.gws)
    n_combos = cnum.shape[0]
    cost = np.empty(n_combos, dtype=np.float64)
    top = np.empty((n_combos, 3, 5), dtype=np.float64)
    mdim = 3 if n_combos == 6 else 1
    mval = np.empty((mdim, N_KEYS, N_CODES), dtype=np.float64)
    mlo = np.empty((mdim, N_KEYS), dtype=np.int64)
    mhi = np.empty((mdim, N_KEYS), dtype=np.int64)
    look = int(prm[LOOK_K] + 0.5)
    cand = np.empty((max(look, 1), 9), dtype=np.float64)
    no_share = np.empty((0, N_KEYS, N_CODES), dtype=np.float64)
    sx = Search(ws, cost, top, mval, mlo, mhi, cand, no_share)
    best_moves(R, prm, sh, p, ctx, offer, sx, 0)
    if LOOK_AHEAD == 1 and look >= 2 and cand[1, 0] > -1e17:
        # The look-ahead player: the best candidates, each followed by sampled futures.
        pick = look_ahead(R, prm, sh, p, ctx, offer, sx)
        cand[0, :] = cand[pick, :]
    to_move(cand, mv)


@inlined
def greedy_validates(R, prm, sh, p, ctx, slot) -> bool:
    """Validate now? Always while the plan is worth its first score; otherwise only if its points
    outweigh the progress the estates it would lock give the other plans."""
    cells, flags, fences, sc = sh
    if ctx[CTX_FLIPPED + slot] == 0:
        return True
    ws = new_workspace(R)
    before = evaluate(R, prm, sh, p, ctx, ws, slot)
    saved = flags.copy()
    used = np.zeros((16, 3), dtype=np.int64)
    plan_check(R, cells, flags, fences, sc, p, ctx[CTX_PLAN + slot], True, used)
    after = evaluate(R, prm, sh, p, ctx, ws, slot) + R[R_PLAN_LATER, ctx[CTX_PLAN + slot]]
    flags[:, :, :] = saved
    return after >= before


@inlined
def greedy_roundabout(R, prm, sh, p, ctx, offer, rbm) -> None:
    """Advanced mode: build the roundabout whose sheet evaluates best, if it beats building none
    by `rb_margin`, or, when no number of the round fits, if it beats taking the refusal."""
    cells, fences, sc = sh.cells, sh.fences, sh.sc
    cnum, cact, rng, lo, hi = offer.cnum, offer.cact, offer.rng, offer.lo, offer.hi
    if sc[p, SC_ROUNDABOUTS] >= R[0, P_RB_MAX]:
        return
    ws = turn_workspace(R, offer.gws)
    stuck = not any_fit(R, cells, sc, p, cnum, cact, lo, hi)
    if stuck:
        sc[p, SC_REFUSALS] += 1
        base = evaluate(R, prm, sh, p, ctx, ws, -1)
        sc[p, SC_REFUSALS] -= 1
    else:
        base = evaluate(R, prm, sh, p, ctx, ws, -1) + prm[RB_MARGIN]
    best = base
    for s in range(R[0, P_NSTREETS]):
        for h in range(R[R_STREET_LEN, s]):
            if not roundabout_ok(R, cells, sc, p, s, h):
                continue
            f0, f1 = fences[p, s, h], fences[p, s, h + 1]
            place_roundabout(cells, fences, sc, p, s, h)
            ok = True
            if stuck:
                street_bounds(R, cells, p, lo, hi)
                ok = any_fit(R, cells, sc, p, cnum, cact, lo, hi)
            if ok:
                # The roundabout changes its street and the roundabout penalty (and a refusal
                # counted in `base` is not taken): only those are re-priced (the other streets
                # keep the records the base evaluation walked, the other terms its preparation).
                retouch_penalties(R, sc, p, ws)
                walk_street(R, prm, sh, p, s, ws, ST_TRIAL)
                val = noisy(
                    combine(R, prm, sh, p, ctx, ws, -1, (s, ST_TRIAL, -1, 0), False),
                    prm,
                    rng,
                )
                if val > best:
                    best = val
                    rbm[0], rbm[1] = s, h
            remove_roundabout(cells, fences, sc, p, s, h, f0, f1)
    if stuck:
        street_bounds(R, cells, p, lo, hi)


@leaf
def _fit_per_card(R, fit, cards, n) -> float:
    """Mean over cards[0:n] of the empty houses where the card's number can be written."""
    total = 0.0
    for j in range(n):
        total += fit[R[R_DECK_NUM, cards[j]]]
    return total / n if n > 0 else 0.0


@inlined
def greedy_reshuffles(R, prm, cells, sc, p, stack, stack_n) -> bool:
    """First edition, first validator: reshuffle per the `reshuffle` policy (module docstring). The
    smart policy looks only at which cards are left in the stacks, not at their order."""
    mode = int(prm[RESHUFFLE] + 0.5)
    if mode <= 0:
        return False
    if mode == 1:
        return True
    n_cards = R[0, P_NCARDS]
    lo = np.empty((cells.shape[1], cells.shape[2]), dtype=np.int64)
    hi = np.empty((cells.shape[1], cells.shape[2]), dtype=np.int64)
    street_bounds(R, cells, p, lo, hi)
    # Houses each number code can go to now.
    fit = np.zeros(N_CODES, dtype=np.float64)
    for s in range(R[0, P_NSTREETS]):
        for h in range(R[R_STREET_LEN, s]):
            if cells[p, s, h] == EMPTY:
                for v in range(max(lo[s, h] + 1, 0), min(hi[s, h], N_CODES)):
                    fit[v] += 1.0
    left = np.empty(n_cards, dtype=np.int64)
    n_left = 0
    for i in range(3):
        for j in range(stack_n[i]):
            left[n_left] = stack[i, j]
            n_left += 1
    deck = np.arange(n_cards)
    return _fit_per_card(R, fit, left, n_left) < _fit_per_card(R, fit, deck, n_cards)


@leaf
def greedy_objective(R, prm) -> int:
    """Set-up objective (Roswell): the `objective` parameter's box (1-based) when set, else the
    one the expansion's estimate of greedy's infiltrated estates pays best (roswell.greedy_objective)."""
    if EXPANSIONS == 0:
        return 0  # only Roswell asks for an objective
    if prm[BLIND] != 0.0:
        return 0  # blind to the expansion: the first objective box
    return roswell.greedy_objective(R, int(prm[OBJECTIVE] + 0.5))


@leaf
def _closed_pair(R, cells, fences, p, s, h) -> int:
    """The estates a roundabout on the empty house (s, h) would close, as left size * 8 + right
    size (0: none on that side): on a side, every house up to the nearest fence numbered, at
    most 6, and no fence at h on that side yet."""
    pair = 0
    for d in (-1, 1):
        near = h if d < 0 else h + 1  # the boundary between h and that side
        if fences[p, s, near] & B_FENCE:
            continue
        k = 0
        j = h + d
        while 0 <= j < R[R_STREET_LEN, s] and cells[p, s, j] >= 0 and k < 6:
            k += 1
            far = j if d < 0 else j + 1
            if fences[p, s, far] & B_FENCE:
                pair += k * 8 if d < 0 else k
                break
            j += d
    return pair


@inlined
def greedy_roundabout_after(R, prm, sh, p, ctx, offer, rbm) -> None:
    """Advanced mode, after the move mv: a roundabout that lets a plan be validated this round
    (it closes an estate of a size the plan asks for, or the plan counts roundabouts or filled
    houses), if the sheet then evaluates better. Any other roundabout can wait for the next
    round, where greedy weighs it before its move knowing the cards (docs/findings/greedy.md:
    what building those here cost, and what this look costs)."""
    cells, flags, fences, sc = sh
    rng, mv = offer.rng, offer.mv
    if sc[p, SC_ROUNDABOUTS] >= R[0, P_RB_MAX] or mv[0] < 0:
        return
    # Cheap filters first: which roundabouts could matter to a plan not yet validated.
    need = 0
    anywhere = False
    for slot in range(3):
        if sc[p, SC_PLAN_ROUND + slot] != 0:
            continue
        plan = ctx[CTX_PLAN + slot]
        kind = R[R_PLAN_KIND, plan]
        if R[R_PLAN_RB, plan] > 0 or kind == PK_STREET_FULL or kind == PK_STREET_ENDS:
            anywhere = True
        for size in range(1, 7):
            if R[R_PLAN_NEED + size, plan] > 0:
                need |= 1 << size
    if need == 0 and not anywhere:
        return
    open_slots = -1  # found at the first candidate: most turns have none, and the plan checks cost
    counts = np.zeros(7, dtype=np.int64)
    used = np.zeros((16, 3), dtype=np.int64)
    ws = offer.gws  # cleared (turn_workspace) before its first use
    best = 0.0
    for s in range(R[0, P_NSTREETS]):
        for h in range(R[R_STREET_LEN, s]):
            if not roundabout_ok(R, cells, sc, p, s, h):
                continue
            pair = _closed_pair(R, cells, fences, p, s, h)
            left, right = pair // 8, pair % 8
            if not anywhere and not ((1 << left) | (1 << right)) & need & ~1:
                continue
            if open_slots < 0:
                # Plans not yet met; a plain estate plan (sizes anywhere) is answered by counts.
                estate_counts(R, cells, flags, fences, p, counts, True)
                open_slots = 0
                for slot in range(3):
                    plan = ctx[CTX_PLAN + slot]
                    if sc[p, SC_PLAN_ROUND + slot] != 0:
                        continue
                    if R[R_PLAN_PLAIN, plan] == 1:
                        met = counts_meet(R, counts, plan)
                    else:
                        met = plan_check(R, cells, flags, fences, sc, p, plan, False, used) >= 0
                    if not met:
                        open_slots |= 1 << slot
                if open_slots == 0:
                    return
                ws = turn_workspace(R, offer.gws)
                best = evaluate(R, prm, sh, p, ctx, ws, -1)
            counts[left] += 1
            counts[right] += 1
            f0, f1 = fences[p, s, h], fences[p, s, h + 1]
            place_roundabout(cells, fences, sc, p, s, h)
            enables = False
            for slot in range(3):
                if not (open_slots >> slot) & 1:
                    continue
                plan = ctx[CTX_PLAN + slot]
                if R[R_PLAN_PLAIN, plan] == 1:
                    enables = enables or counts_meet(R, counts, plan)
                else:
                    enables = enables or plan_check(R, cells, flags, fences, sc, p, plan, False, used) >= 0
            if enables:
                val = noisy(evaluate(R, prm, sh, p, ctx, ws, -1), prm, rng)
                if val > best:
                    best = val
                    rbm[0], rbm[1] = s, h
            remove_roundabout(cells, fences, sc, p, s, h, f0, f1)
            counts[left] -= 1
            counts[right] -= 1


@inlined
def greedy_pass(R, prm, sh, p, ctx, rng, to) -> int:
    """After a permit refusal in a hand mode: the hand index of the card that helps its receiver
    least, exact ties drawn at random (all three equal: the same single draw of 0-2 as the
    random player). The AAA (to = -1): greedy's price of the card left over when it plays
    (`aaa` weight). A neighbour (to >= 0): the best gain the card's number gives the
    neighbour's sheet under `evaluate`, 0 when it fits nowhere or gains nothing. The discard
    pile (to = -2, first edition's solo variant): every card is equal."""
    cells = sh.cells
    # 3, or 2 with Zombie Outbreak (both cards used: one is passed on); 0 (not set) means 3.
    nh = ctx[CTX_HAND_SIZE] if ctx[CTX_HAND_SIZE] > 0 else 3
    cost = np.zeros(3, dtype=np.float64)
    if to == -1 and ctx[CTX_DEAL] == DEAL_AAA:
        for i in range(nh):
            cost[i] = aaa_price(R, prm, ctx[CTX_HAND_NUM + i], ctx[CTX_HAND_ACT + i])
    elif to >= 0:
        ws = new_workspace(R)
        n_streets = cells.shape[1]
        lo = np.empty((n_streets, cells.shape[2]), dtype=np.int64)
        hi = np.empty((n_streets, cells.shape[2]), dtype=np.int64)
        street_bounds(R, cells, to, lo, hi)
        base = evaluate(R, prm, sh, to, ctx, ws, -1)
        for i in range(nh):
            v = ctx[CTX_HAND_NUM + i]
            for s in range(R[0, P_NSTREETS]):
                for h in range(R[R_STREET_LEN, s]):
                    if cells[to, s, h] != EMPTY or not lo[s, h] < v < hi[s, h]:
                        continue
                    cells[to, s, h] = v
                    gain = evaluate(R, prm, sh, to, ctx, ws, -1) - base
                    cells[to, s, h] = EMPTY
                    if gain > cost[i]:
                        cost[i] = gain
    low = cost[0]
    for i in range(1, nh):
        low = min(low, cost[i])
    ties = 0
    for i in range(nh):
        if cost[i] <= low + TIE_JITTER:
            ties += 1
    k = rng_below(rng, ties) if ties > 1 else 0
    for i in range(nh):
        if cost[i] <= low + TIE_JITTER:
            if k == 0:
                return i
            k -= 1
    return 0


@inlined
def greedy_option(R, prm, sh, p, ctx, opts, n, phase) -> int:
    """An expansion's own decision (Halloween: the ghost or the candy of a house just numbered, a
    level claimed or declined, the Ghost bonus's alternative and each unit's place): each option
    is played on the sheet and the one whose evaluation (with the expansion's valuation x_value,
    which prices a claim and a bonus still to place) is highest is chosen, ties to the first.
    Policy `xchoice` 1: always the first option (the fixed policy greedy is measured against)."""
    cells, flags, fences, sc = sh
    if int(prm[X_CHOICE] + 0.5) == 1 or prm[BLIND] != 0.0:
        return 0
    ws = new_workspace(R)
    c0, f0, fe0, s0 = cells.copy(), flags.copy(), fences.copy(), sc.copy()
    lg = np.empty(5, dtype=np.int64)
    best = -1e18
    pick = 0
    for k in range(n):
        x_apply(R, cells, flags, fences, sc, p, phase, opts[k], lg)
        v = evaluate(R, prm, sh, p, ctx, ws, -1)
        if v > best:
            best = v
            pick = k
        cells[:, :, :] = c0
        flags[:, :, :] = f0
        fences[:, :, :] = fe0
        sc[:, :] = s0
    return pick
