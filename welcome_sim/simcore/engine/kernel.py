"""The compiled game loop: plays a batch of games in any mode and returns columnar arrays.

One call plays many games (`play_batch`); each game has its own uint64 seed, so results do not
depend on how games are split into batches. With logging on, every deal, move and plan
validation is written as int32 rows (layout.py: LOG_*) for the referee and `welcome-sim play`.

Deals (ruleset P_DEAL): three shared stacks (standard and Advanced mode); hands of three with the
third card passed on (expert); hands of three with the third card given to the AAA and its
validation cards in the deck (Collector's solo); hands of three with the solo card in the lower
half of the deck (first edition's solo variant). Advanced mode adds roundabouts to any of them.
"""

from __future__ import annotations

import numpy as np

from welcome_sim.simcore.ground.features import ONLY_GREEDY
from welcome_sim.simcore.ground.jit import inlined, kernel, leaf
from welcome_sim.simcore.ground.layout import (
    CHECK_HOUSES,
    CHECK_NO_END,
    CHECK_REFUSALS,
    COMBO_ACT,
    COMBO_NUM,
    END_DECK,
    END_FULL,
    END_PLANS,
    END_REFUSALS,
    END_ROUND_CAP,
    END_STACK,
    EXTENSION,
    G_AAA_N_ESTATES,
    G_AAA_TOTAL,
    G_CHECK,
    G_END,
    G_PLAN,
    G_ROUNDS,
    G_SPECIAL_ROUND,
    LOG_AAA_PLAN,
    LOG_DECK,
    LOG_END,
    LOG_MOVE,
    LOG_PASS,
    LOG_PLAN,
    LOG_RESHUFFLE,
    LOG_ROUNDABOUT,
    LOG_SOLO_CARD,
    LOG_STACK,
    LOG_X_CROSS,
    LOG_X_HOLD,
    LOG_X_INVADE,
    LOG_X_OBJECTIVE,
    LOG_X_SHELTER,
    LOG_X_SIDE,
    LOG_X_ZOMBIE,
    O_N_ESTATES,
    O_RANK,
    O_TOTAL,
    SC_NUMBERED,
    SC_PLAN_FIRST,
    SC_PLAN_ROUND,
    SC_PLAN_SCORE,
    SC_REFUSALS,
    SC_ROUNDABOUTS,
    SC_SEALED,
    SC_TEMPS,
    SPECIAL_SOLO,
    SPECIAL_X,
)
from welcome_sim.simcore.ground.rng import rng_below, shuffle
from welcome_sim.simcore.ground.table import (
    DEAL_AAA,
    DEAL_EXPERT,
    DEAL_SOLO_CARD,
    DEAL_STACKS,
    P_DEAL,
    P_MAX_REFUSALS,
    P_NCARDS,
    P_NEXTRA,
    P_NPLANS,
    P_NSTACKS,
    P_OPP_SCORES,
    P_OPP_VALIDATES,
    P_PASS_DIR,
    P_RB_MAX,
    P_RESHUFFLE,
    P_TIEBREAK_SIZES,
    P_TOTAL_HOUSES,
    P_X_AAA_PART,
    P_X_DECK_PER,
    P_X_HAND,
    P_X_PART,
    P_X_SPECIALS,
    R_DECK_ACT,
    R_DECK_NUM,
    R_PLAN_FIRST,
    R_PLAN_KIND,
    R_PLAN_LATER,
    R_PLAN_PLAIN,
    R_PLAN_SLOT,
    TIE_SHARED,
)
from welcome_sim.simcore.rules.aaa import aaa_score, aaa_temp_cards
from welcome_sim.simcore.rules.expansions.hooks import (
    x_aaa,
    x_aaa_reacts,
    x_advance,
    x_any,
    x_apply,
    x_bounds,
    x_can_hold,
    x_card_moves,
    x_card_seen,
    x_decides,
    x_events,
    x_hold,
    x_objectives,
    x_on_action,
    x_on_move,
    x_on_number,
    x_options,
    x_round_end,
    x_roundabout,
    x_set_objective,
    x_set_side,
    x_side_pending,
    x_target,
    x_validation,
    x_validation_card,
)
from welcome_sim.simcore.rules.plans import counts_meet, plan_check
from welcome_sim.simcore.rules.scoring import score_table_into, solo_temp_points
from welcome_sim.simcore.rules.sheetops import (
    Sheets,
    apply_move,
    estate_counts,
    new_state,
    place_roundabout,
    reset_player,
    roundabout_ok,
    street_bounds,
)
from welcome_sim.strategies.builtin import choose_random
from welcome_sim.strategies.context import (
    CTX_DEAL,
    CTX_FLIPPED,
    CTX_HAND_ACT,
    CTX_HAND_NUM,
    CTX_HAND_SIZE,
    CTX_LEN,
    CTX_PLAN,
    CTX_PLAYERS,
    CTX_ROUND,
    CTX_SEAT,
    Offer,
)
from welcome_sim.strategies.dispatch import (
    choose_hold,
    choose_move,
    choose_objective,
    choose_option,
    choose_pass,
    choose_roundabout,
    choose_roundabout_after,
    choose_side,
    wants_reshuffle,
    wants_validation,
)
from welcome_sim.strategies.registry import RANDOM

AAA_BOTTOM = 20  # cards under the validation card at set-up
# Mixed into a game's seed for the extra cards' stream: the main stream deals as without them.
_EXTRA_STREAM = np.uint64(0x6A09E667F3BCC909)
X_MAX_OPTIONS = 96  # rows of an expansion decision's option table (halloween.MAX_OPTIONS)


@leaf
def _log(log, logn, g, rnd, p, kind, a, b, c, d, e, f, gg, hh) -> None:
    i = logn[0]
    if i >= log.shape[0]:
        logn[1] = 1  # overflow: the caller retries with a larger buffer
        return
    row = log[i]
    row[0], row[1], row[2], row[3] = g, rnd, p, kind
    row[4], row[5], row[6], row[7] = a, b, c, d
    row[8], row[9], row[10], row[11] = e, f, gg, hh
    logn[0] = i + 1


@leaf
def _draw_plans(R, rng, plans_in, plans) -> None:
    """Plans in play: given ids, or one random card of each letter (-1); advanced cards join the
    draw only in Advanced mode."""
    n_plans = R[0, P_NPLANS]
    for slot in range(3):
        if plans_in[slot] >= 0:
            plans[slot] = plans_in[slot]
            continue
        count = 0
        for k in range(n_plans):
            if R[R_PLAN_SLOT, k] == slot:
                count += 1
        j = rng_below(rng, count)
        for k in range(n_plans):
            if R[R_PLAN_SLOT, k] == slot:
                if j == 0:
                    plans[slot] = k
                j -= 1


@leaf
def _draw(R, rng, deck, deck_n, discard, disc_n, reshuffle, g, rnd, do_log, log, logn) -> int:
    """Top card of a hand-mode deck (-1 if none); an empty deck is rebuilt from the shuffled
    discard pile when the mode allows it."""
    if deck_n[0] == 0:
        if not reshuffle:
            return -1
        m = disc_n[0]
        for j in range(m):
            deck[j] = discard[j]
        shuffle(rng, deck, m)
        deck_n[0] = m
        disc_n[0] = 0
        if do_log:
            for j in range(m):
                _log(log, logn, g, rnd, -1, LOG_DECK, j, deck[m - 1 - j], 1, 0, 0, 0, 0, 0)
        if m == 0:
            return -1
    deck_n[0] -= 1
    return deck[deck_n[0]]


@leaf
def _bury(rng, order, n_cards, bottom, special, deck) -> None:
    """deck (top = last element) = the shuffled `order`, with `special` shuffled in among its
    bottom `bottom` cards."""
    for j in range(bottom):
        deck[j] = order[j]
    deck[bottom] = special
    shuffle(rng, deck, bottom + 1)
    for j in range(bottom, n_cards):
        deck[j + 1] = order[j]


@leaf
def _insert_extra(rng, deck, m, at, below, below_new, first, n_extra) -> None:
    """Insert the extra cards first..first+n_extra-1 (the 9¾ cards) into a hand-mode deal of the
    deck's other cards, deck[:m] (top = last element), each at a place drawn from the extra stream
    (rng[1]): the other cards keep their order, so the game with the extra cards is dealt as the
    game without them on the same seed. A special card at index `at` (-1: none), one of the
    `below` + 1 places at the bottom, is set aside and put back at one of the `below_new` + 1
    places, the same place when they are as many."""
    extra = rng[1:]
    special = -1
    if at >= 0:
        special = deck[at]
        for j in range(at, m - 1):
            deck[j] = deck[j + 1]
        m -= 1
    # Each card at a uniform place among the m + 1 around the m already there: every order of the
    # whole deck as likely as a shuffle of it (the others' order is a uniform shuffle already).
    for k in range(n_extra):
        p = rng_below(extra, m + 1)
        for j in range(m, p, -1):
            deck[j] = deck[j - 1]
        deck[p] = first + k
        m += 1
    if at >= 0:
        if below_new != below:
            # at*(below_new+1) + r is uniform over (below+1)*(below_new+1) values: divided by
            # below+1, a uniform place among below_new+1 that stays near the one it had.
            at = (at * (below_new + 1) + rng_below(extra, below_new + 1)) // (below + 1)
        for j in range(m, at, -1):
            deck[j] = deck[j - 1]
        deck[at] = special


@leaf
def _setup_hand_deck(
    R, rng, deal, n_cards, order, deck, deck_n, discard, disc_n, g, do_log, log, logn
) -> None:
    """Build a hand-mode deck (top = last element) and its discard pile (order: n_cards scratch).
    The deck's own cards are dealt with the main stream exactly as without the extra cards
    (P_NEXTRA, the 9¾ cards), which _insert_extra then inserts from a stream of their own."""
    n_extra = R[0, P_NEXTRA]
    n_base = n_cards - n_extra
    for j in range(n_base):
        order[j] = j
    shuffle(rng, order, n_base)
    if deal == DEAL_AAA:
        # 20 cards with one validation card shuffled in at the bottom, the rest on top; the two
        # other validation cards start in the discard pile.
        v = rng_below(rng, 3)
        _bury(rng, order, n_base, min(AAA_BOTTOM, n_base), n_cards + v, deck)
        if n_extra > 0:
            at = 0
            while deck[at] != n_cards + v:
                at += 1
            below = min(AAA_BOTTOM, n_base)
            _insert_extra(rng, deck, n_base + 1, at, below, min(AAA_BOTTOM, n_cards), n_base, n_extra)
        deck_n[0] = n_cards + 1
        for slot in range(3):
            if slot != v:
                discard[disc_n[0]] = n_cards + slot
                disc_n[0] += 1
    elif deal == DEAL_SOLO_CARD:
        # Two piles of (nearly) equal size; the solo card is shuffled into one, which goes under
        # the other.
        upper = n_base // 2 + (rng_below(rng, 2) if n_base % 2 else 0)
        _bury(rng, order, n_base, n_base - upper, n_cards + SPECIAL_SOLO, deck)
        if n_extra > 0:
            at = 0
            while deck[at] != n_cards + SPECIAL_SOLO:
                at += 1
            upper_new = n_cards // 2 + (rng_below(rng[1:], 2) if n_cards % 2 else 0)
            _insert_extra(rng, deck, n_base + 1, at, n_base - upper, n_cards - upper_new, n_base, n_extra)
        deck_n[0] = n_cards + 1
    else:
        for j in range(n_base):
            deck[j] = order[j]
        if n_extra > 0:
            _insert_extra(rng, deck, n_base, -1, 0, 0, n_base, n_extra)
        deck_n[0] = n_cards
    if do_log:
        m = deck_n[0]
        for j in range(m):
            _log(log, logn, g, 0, -1, LOG_DECK, j, deck[m - 1 - j], 0, 0, 0, 0, 0, 0)


@leaf
def _spread_extra(rng, order, n_base, n_extra, stack, stack_n, per_stack) -> None:
    """Three stacks of per_stack cards (top = last element) holding the extra cards n_base..
    n_base+n_extra-1 (the 9¾ cards) and the base cards as the game without them deals them
    (order[:n_base], stacks of n_base // 3): the extra cards in places drawn from their own stream
    (rng[1]); each stack's other places, from the top, take its stack's cards from the top, so
    both games flip the same cards until an extra card comes up. A stack with two or more extra
    cards passes its bottom cards on to the bottom of a stack with none (the only cards that move
    between stacks). Every order of the cards in the stacks is as likely as after a shuffle of them
    all: the extra cards' places are uniform, the base cards a uniform shuffle put in the other
    places by a rule that does not look at them."""
    extra = rng[1:]
    per_base = n_base // 3
    # The extra cards' places among all the cards (counted from stack 0's bottom, kept in the free
    # end of order): each at a uniform place among the n_base + k + 1 around those before it, which
    # move up one when it comes below them (no scan of the stacks for the r-th free place).
    for k in range(n_extra):
        q = rng_below(extra, n_base + k + 1)
        for e in range(n_base, n_base + k):
            if order[e] >= q:
                order[e] += 1
        order[n_base + k] = q
    for i in range(3):
        for j in range(per_stack):
            stack[i, j] = -1
    for k in range(n_extra):
        q = order[n_base + k]
        stack[q // per_stack, q % per_stack] = n_base + k
    # Each stack's free places from the top: its own base cards from the top, while it has some
    # (stack_n[i]: how many of stack i's base cards are placed; the caller sets the sizes after).
    for i in range(3):
        stack_n[i] = 0
        for j in range(per_stack - 1, -1, -1):
            if stack[i, j] == -1 and stack_n[i] < per_base:
                stack[i, j] = order[i * per_base + per_base - 1 - stack_n[i]]
                stack_n[i] += 1
    # The places still free, at the bottom of stacks with no extra card, take in order the cards
    # left at the bottom of the others (then any past the three stacks: none for a deck file, a
    # multiple of 3 cards).
    src = 0
    left = 3 * per_base
    for i in range(3):
        for j in range(per_stack - 1, -1, -1):
            if stack[i, j] != -1:
                continue
            while src < 3 and stack_n[src] >= per_base:
                src += 1
            if src < 3:
                stack[i, j] = order[src * per_base + per_base - 1 - stack_n[src]]
                stack_n[src] += 1
            elif left < n_base:
                stack[i, j] = order[left]
                left += 1


@leaf
def _deal_stacks(rng, n_cards, n_extra, order, stack, stack_n, disc_n, g, rnd, do_log, log, logn) -> None:
    """Shuffle every card into three equal stacks (top = last element) with empty discard piles
    (order: n_cards scratch). The main stream deals the deck's own cards as without the extra
    cards (the 9¾ cards, the last n_extra; 0: every card shuffled alike, as the first edition's
    reshuffle does); _spread_extra adds them from a stream of their own."""
    per_stack = n_cards // 3
    n_base = n_cards - n_extra
    for j in range(n_base):
        order[j] = j
    shuffle(rng, order, n_base)
    if n_extra > 0:
        _spread_extra(rng, order, n_base, n_extra, stack, stack_n, per_stack)
    for i in range(3):
        if n_extra == 0:
            for j in range(per_stack):
                stack[i, j] = order[i * per_stack + j]
        stack_n[i] = per_stack
        disc_n[i] = 0
        if do_log:
            for j in range(per_stack):
                _log(log, logn, g, rnd, -1, LOG_STACK, i, j, stack[i, per_stack - 1 - j], 0, 0, 0, 0, 0)


@leaf
def _insert_card(rng, arr, start, end, card) -> int:
    """Insert `card` into arr[start:end] at a place drawn uniformly among the end - start + 1
    (rng: the extra stream); returns the new end. Cards inserted one by one this way into cards in
    a uniformly shuffled order give every order of the whole as likely as a shuffle of it."""
    p = start + rng_below(rng, end - start + 1)
    for j in range(end, p, -1):
        arr[j] = arr[j - 1]
    arr[p] = card
    return end + 1


@leaf
def _aligned(t, first, n, take, of) -> int:
    """Where, in the base game's draw order of n cards, a deal drawing fewer cards a round finds
    its t-th card after the first `first` (the architects' first cards): `take` of each `of` the
    base game draws in a round (the first ones, so both games see them in the same round), then the
    cards passed over, in order, then any past the last full round. A fixed rule that does not
    look at the cards: a uniform order stays uniform."""
    groups = (n - first) // of
    if t < take * groups:
        return first + (t // take) * of + t % take
    u = t - take * groups
    skip = of - take
    if u < skip * groups:
        return first + (u // skip) * of + take + u % skip
    return first + groups * of + u - skip * groups


@leaf
def _deal_special_stacks(R, rng, n_cards, order, stack, stack_n, disc_n, g, do_log, log, logn) -> None:
    """Two stacks (Zombie Outbreak): the first is P_X_SPECIALS parts of P_X_PART cards, each
    with one special card shuffled in, placed on top of each other; the second is the rest.

    Laid out from the base game's three stacks on the same seed (_deal_stacks: the main stream
    taken exactly as the base game takes it): the first stack's construction cards are the base's
    first stack from the top, then its third's from the top; the second stack is the base's second
    from the top, then the rest. The two games flip the same cards from their first two stacks
    until the base game reshuffles one (27 rounds with 81 cards): only the base's third stack has
    no counterpart (its top cards end the first stack). Which special card goes into which part,
    and its place there, come from the extra stream (rng[1]). Every deal as likely as the rules'
    shuffle: the base cards' order is a uniform shuffle laid out by a rule that does not look at
    them, and each part is then its cards with the special card at a uniform place, a uniform
    shuffle of them."""
    _deal_stacks(rng, n_cards, R[0, P_NEXTRA], order, stack, stack_n, disc_n, g, 0, False, log, logn)
    per = n_cards // 3  # a deck file holds a multiple of 3 cards: no card outside the stacks
    # order[t]: the first stack's construction cards from the top (t < need), then the second's
    # from the bottom.
    for t in range(per):
        order[t] = stack[0, per - 1 - t]
        order[per + t] = stack[2, per - 1 - t]
        order[2 * per + t] = stack[1, t]
    specials = R[0, P_X_SPECIALS]
    part = R[0, P_X_PART]
    need = specials * part
    rest = n_cards - need
    for j in range(rest):
        stack[1, j] = order[need + j]
    extra = rng[1:]
    # Which special card goes into which part (top part first): the third stack's room is free.
    for k in range(specials):
        stack[2, k] = n_cards + SPECIAL_X + k
    shuffle(extra, stack[2], specials)
    top = 0
    for k in range(specials - 1, -1, -1):  # the bottom part first
        start = top
        for j in range(part):
            stack[0, top] = order[k * part + part - 1 - j]
            top += 1
        top = _insert_card(extra, stack[0], start, top, stack[2, k])
    stack_n[0] = top
    stack_n[1] = rest
    stack_n[2] = 0
    for i in range(3):
        disc_n[i] = 0
    if do_log:
        for i in range(2):
            m = stack_n[i]
            for j in range(m):
                _log(log, logn, g, 0, -1, LOG_STACK, i, j, stack[i, m - 1 - j], 0, 0, 0, 0, 0)


@leaf
def _special_hand_deck(
    R, rng, deal, n_cards, n_players, order, zorder, deck, deck_n, discard, disc_n, g, do_log, log, logn
):
    """Hand modes with special cards (Zombie Outbreak). The special cards are shuffled first into
    zorder (the text names none: "1 Zombie card", "set aside the remaining Zombie cards face
    down"). Expert: the architects' first cards on top of a deck of P_X_DECK_PER cards per
    architect with special card zorder[0] shuffled in (the rebuilds take zorder[1], zorder[2]); the
    other cards start in the discard pile. AAA: three parts of P_X_AAA_PART cards, special card
    zorder[k] in part k, one AAA validation card in the second and two in the third, the first part
    on top; the other cards are out of the game. Returns nothing; deck top = last element.

    Laid out from the base game's deck on the same seed (_setup_hand_deck: the main stream taken
    exactly as the base game takes it), so that each round's cards are among the base game's cards
    of that round: the architects' first cards are the base's; then, where the base game draws two
    cards a seat (expert) or three a round (AAA), this deck holds the first one (two) of them, and
    after those the cards passed over (_aligned). The AAA's second part takes the validation card
    the base game has in its deck. The special cards' order and places come from the extra stream
    (rng[1]): every deal as likely as the rules' shuffle (_insert_card, _aligned)."""
    _setup_hand_deck(R, rng, deal, n_cards, order, deck, deck_n, discard, disc_n, g, False, log, logn)
    # The base game's construction cards in the order it draws them, and its validation card.
    t = 0
    v = 0
    for j in range(deck_n[0] - 1, -1, -1):
        c = deck[j]
        if c < n_cards:
            order[t] = c
            t += 1
        else:
            v = c - n_cards
    disc_n[0] = 0
    extra = rng[1:]
    specials = R[0, P_X_SPECIALS]
    for k in range(specials):
        zorder[k] = n_cards + SPECIAL_X + k
    shuffle(extra, zorder, specials)
    if deal == DEAL_EXPERT:
        # With many architects the deck takes what there is ("With 6 architects, you must use all
        # the Construction cards").
        m = min(R[0, P_X_DECK_PER] * n_players, n_cards - n_players)
        for j in range(m):
            deck[j] = order[_aligned(m - 1 - j, n_players, n_cards, 1, 2)]
        top = _insert_card(extra, deck, 0, m, zorder[0])
        for p in range(n_players):
            deck[top + p] = order[n_players - 1 - p]  # drawn first: seat 0 gets the base's first
        deck_n[0] = top + n_players
        for t in range(m, n_cards - n_players):
            discard[disc_n[0]] = order[_aligned(t, n_players, n_cards, 1, 2)]
            disc_n[0] += 1
    else:
        part = R[0, P_X_AAA_PART]
        top = 0
        for k in range(2, -1, -1):  # bottom part first
            start = top
            for j in range(part):
                deck[top] = order[_aligned(k * part + part - 1 - j, 0, n_cards, 2, 3)]
                top += 1
            top = _insert_card(extra, deck, start, top, zorder[k])
            if k == 1:
                top = _insert_card(extra, deck, start, top, n_cards + v)
            elif k == 2:
                for slot in range(3):
                    if slot != v:
                        top = _insert_card(extra, deck, start, top, n_cards + slot)
        deck_n[0] = top
    if do_log:
        m = deck_n[0]
        for j in range(m):
            _log(log, logn, g, 0, -1, LOG_DECK, j, deck[m - 1 - j], 0, 0, 0, 0, 0, 0)


@leaf
def _rebuild_special_deck(
    R, rng, n_cards, n_players, special, deck, deck_n, discard, disc_n, g, rnd, do_log, log, logn
) -> None:
    """Expert mode with special cards: the shuffled discard pile gives a new deck of P_X_DECK_PER
    cards per architect (all if fewer) with the card `special` shuffled in; the rest stays there."""
    m = disc_n[0]
    shuffle(rng, discard, m)
    take = min(m, R[0, P_X_DECK_PER] * n_players)
    for j in range(take):
        deck[j] = discard[m - 1 - j]
    deck[take] = special
    shuffle(rng, deck, take + 1)
    deck_n[0] = take + 1
    disc_n[0] = m - take
    if do_log:
        for j in range(take + 1):
            _log(log, logn, g, rnd, -1, LOG_DECK, j, deck[take - j], 1, 0, 0, 0, 0, 0)


@inlined
def _special_cards(
    R,
    stack,
    stack_n,
    strats,
    sprm,
    cells,
    flags,
    fences,
    sc,
    n_players,
    ctx,
    rng,
    g,
    rnd,
    do_log,
    log,
    logn,
    dec,
) -> None:
    """Apply and remove every special card on top of the first stack (Zombie cards): each player,
    piece by piece in street order, holds it with a resource (a strategy decision) or lets it
    move, which may take over a house."""
    n_cards = R[0, P_NCARDS]
    while stack_n[0] > 0 and stack[0, stack_n[0] - 1] >= n_cards:
        stack_n[0] -= 1
        _apply_special(
            R,
            stack[0, stack_n[0]],
            0,
            strats,
            sprm,
            cells,
            flags,
            fences,
            sc,
            n_players,
            ctx,
            rng,
            g,
            rnd,
            do_log,
            log,
            logn,
            dec,
        )


@inlined
def _apply_special(
    R,
    card,
    where,
    strats,
    sprm,
    cells,
    flags,
    fences,
    sc,
    n_players,
    ctx,
    rng,
    g,
    rnd,
    do_log,
    log,
    logn,
    dec,
) -> None:
    """Apply one special card (a Zombie card) from the first stack (where=0) or drawn (-1).
    dec: (cnum, cact, mv, lo, hi) of the workspace, for strategies that decide through their move
    choice."""
    cnum, cact, mv, lo, hi = dec
    if do_log:
        _log(log, logn, g, rnd, -1, LOG_X_ZOMBIE, card, where, 0, 0, 0, 0, 0, 0)
    x_card_seen(R, sc, n_players, card)
    mask = x_card_moves(R, card)
    seat = ctx[CTX_SEAT]
    for p in range(n_players):
        ctx[CTX_SEAT] = p
        for bit in range(8):
            if not (mask >> bit) & 1:
                continue
            s = bit >> 1
            side = bit & 1
            h = x_target(R, sc, p, s, side)
            if h < 0:
                continue
            if x_can_hold(R, sc, p, s, side) and choose_hold(
                strats[p],
                sprm[p],
                R,
                Sheets(cells, flags, fences, sc),
                p,
                ctx,
                s,
                side,
                Offer(cnum, cact, rng, lo, hi, mv),
            ):
                x_hold(R, sc, p)
                if do_log:
                    _log(log, logn, g, rnd, p, LOG_X_HOLD, s, side, 0, 0, 0, 0, 0, 0)
                continue
            code = cells[p, s, h]
            if x_advance(R, cells, flags, fences, sc, p, s, side) >= 0 and do_log:
                _log(log, logn, g, rnd, p, LOG_X_INVADE, s, h, code if code >= 0 else -1, 0, 0, 0, 0, 0)
    ctx[CTX_SEAT] = seat


@kernel
def _x_decisions(
    R, strats, sprm, cells, flags, fences, sc, p, phase, ctx, rng, xopt, xlog, g, rnd, do_log, log, logn
) -> None:
    """An expansion's own decisions of seat p (phase 0 after its move, 1 at the round's end after
    the plan validations, 2 when an AAA validation card came up), one after the other until none is left: the expansion lists the legal
    options, the seat's strategy picks one, the expansion plays it and names its log row. A
    function of its own, not inlined: inlined twice into the game loop, it made random play of the
    base game about 10% slower."""
    seat = ctx[CTX_SEAT]
    ctx[CTX_SEAT] = p
    while True:
        n = x_options(R, cells, flags, fences, sc, p, phase, xopt)
        if n == 0:
            break
        k = choose_option(
            strats[p], sprm[p], R, Sheets(cells, flags, fences, sc), p, ctx, rng, xopt, n, phase
        )
        x_apply(R, cells, flags, fences, sc, p, phase, xopt[k], xlog)
        if do_log and xlog[0] >= 0:
            _log(log, logn, g, rnd, p, xlog[0], xlog[1], xlog[2], xlog[3], xlog[4], 0, 0, 0, 0)
    ctx[CTX_SEAT] = seat


@leaf
def _x_events(R, cells, sc, n_players, when, slot, aaa_n, ev, g, rnd, do_log, log, logn) -> None:
    """An expansion's public events (Quack: duckling scoring phases; when 0 at a round's end, 1
    for an AAA validation card, 2 at the game's end), settled on every sheet and logged."""
    n = x_events(R, cells, sc, n_players, when, slot, aaa_n, ev)
    if do_log:
        for i in range(n):
            _log(log, logn, g, rnd, ev[i, 1], ev[i, 0], ev[i, 2], ev[i, 3], 0, 0, 0, 0, 0, 0)


@kernel
def new_workspace(R, n_players):
    """Every array a game needs, allocated once per batch (play_batch) and reset by play_game:
    a dozen small allocations a game were a large part of a short random game's time."""
    n_cards = R[0, P_NCARDS]
    deal = R[0, P_DEAL]
    hands = deal != DEAL_STACKS
    cells, flags, fences, sc = new_state(R, n_players)
    n_streets = cells.shape[1]
    max_len = cells.shape[2]
    hn = n_cards + SPECIAL_X + 8 if hands else 1
    n_combos = R[0, P_NSTACKS]
    if hands:
        n_combos = 2 if R[0, P_X_SPECIALS] > 0 and R[0, P_X_HAND] == 2 else 6
    return (
        np.empty(2, dtype=np.uint64),  # rng: the main stream, the extra cards' stream
        cells,
        flags,
        fences,
        sc,
        np.empty((n_streets, max_len), dtype=np.int64),  # lo
        np.empty((n_streets, max_len), dtype=np.int64),  # hi
        np.empty(8, dtype=np.int64),  # mv
        np.empty(2, dtype=np.int64),  # rbm
        np.zeros(7, dtype=np.int64),  # counts
        np.zeros((16, 3), dtype=np.int64),  # used
        np.empty(3, dtype=np.int64),  # plans
        np.zeros(CTX_LEN, dtype=np.int64),  # ctx
        np.empty(n_combos, dtype=np.int64),  # cnum
        np.empty(n_combos, dtype=np.int64),  # cact
        np.zeros(3, dtype=np.bool_),  # flipped
        np.zeros(3, dtype=np.bool_),  # new_flip
        # Standard deal: three stacks (top = last element) and their discard piles.
        np.empty((3, n_cards), dtype=np.int64),  # stack
        np.zeros(3, dtype=np.int64),  # stack_n
        np.empty((3, n_cards + 4), dtype=np.int64),  # discard
        np.zeros(3, dtype=np.int64),  # disc_n
        # Hand deals: one deck, one discard pile, hands of up to three, the AAA's stack.
        np.empty(hn, dtype=np.int64),  # deck
        np.zeros(1, dtype=np.int64),  # deck_n
        np.empty((n_players, 3), dtype=np.int64),  # hand
        np.zeros(n_players, dtype=np.int64),  # hand_n
        np.empty(n_players, dtype=np.int64),  # pending
        np.empty(hn if deal == DEAL_AAA else 1, dtype=np.int64),  # aaa
        np.empty(n_cards, dtype=np.int64),  # order: shuffle scratch
        # Scoring scratch: temp_pts, temps (pairs keep the tuple at 30 items, Numba's limit for a
        # tuple literal).
        (np.zeros(max(n_players, 2), dtype=np.int64), np.zeros(n_players, dtype=np.int64)),
        # An expansion decision's options and the log row of the option chosen.
        (np.zeros((X_MAX_OPTIONS, 4), dtype=np.int64), np.zeros(5, dtype=np.int64)),
    )


@leaf
def _roundabout_reaction(R, sc, p, s, g, rnd, do_log, log, logn) -> None:
    """An expansion's reaction to a roundabout (Doomsday AAA: a shelter in its street), logged."""
    built = x_roundabout(R, sc, p, s)
    if built >= 0 and do_log:
        _log(log, logn, g, rnd, -1, LOG_X_SHELTER, s, built, 1, 0, 0, 0, 0, 0)


@inlined
def play_game(R, seed, n_players, strats, sprm, plans_in, g, out, out_g, do_log, log, logn, ws) -> None:
    """Play one game; write results for game index g. ws: new_workspace(R, n_players), whose
    arrays are reset here to what a fresh allocation would hold where the game reads them.
    (Not a leaf: Numba compiles what a leaf calls without reference counting too, and the
    strategies it dispatches to allocate. Inlined into play_batch, its only caller: one module
    to optimize instead of two, and random games 1.2x faster.)"""
    (
        rng,
        cells,
        flags,
        fences,
        sc,
        lo,
        hi,
        mv,
        rbm,
        counts,
        used,
        plans,
        ctx,
        cnum,
        cact,
        flipped,
        new_flip,
        stack,
        stack_n,
        discard,
        disc_n,
        deck,
        deck_n,
        hand,
        hand_n,
        pending,
        aaa,
        order,
        scratch,
        xdec,
    ) = ws
    temp_pts, temps = scratch
    xopt, xlog = xdec
    # The bundles every player is handed (strategies/context.py): made once a game.
    sh = Sheets(cells, flags, fences, sc)
    offer = Offer(cnum, cact, rng, lo, hi, mv)
    rng[0] = seed
    rng[1] = seed ^ _EXTRA_STREAM  # where the extra cards go in the deal (9¾ cards)
    deal = R[0, P_DEAL]
    hands = deal != DEAL_STACKS
    n_cards = R[0, P_NCARDS]
    for p in range(n_players):
        reset_player(R, cells, flags, fences, sc, p)
    used[:, :] = 0
    _draw_plans(R, rng, plans_in, plans)
    # Context strategies see (strategies/context.py): players, round, plans, flipped, seat, deal, hand.
    ctx[:] = 0
    ctx[CTX_PLAYERS] = n_players
    ctx[CTX_DEAL] = deal
    for slot in range(3):
        ctx[CTX_PLAN + slot] = plans[slot]
    flipped[:] = False
    new_flip[:] = False
    stack_n[:] = 0
    disc_n[:] = 0
    deck_n[0] = 0
    hand_n[:] = 0
    aaa_n = 0
    aaa_plan_pts = 0
    special_round = 0
    specials = R[0, P_X_SPECIALS] > 0
    hand_size = R[0, P_X_HAND] if specials and hands else 3
    rebuilds = 0  # expert mode with special cards: decks rebuilt so far
    if hands and specials:
        # The special cards' random order goes in stack[0], which no hand mode uses otherwise.
        _special_hand_deck(
            R,
            rng,
            deal,
            n_cards,
            n_players,
            order,
            stack[0],
            deck,
            deck_n,
            discard[0],
            disc_n[0:1],
            g,
            do_log,
            log,
            logn,
        )
        if deal == DEAL_EXPERT:
            for p in range(n_players):
                deck_n[0] -= 1
                hand[p, 0] = deck[deck_n[0]]
                hand_n[p] = 1
    elif hands:
        _setup_hand_deck(
            R, rng, deal, n_cards, order, deck, deck_n, discard[0], disc_n[0:1], g, do_log, log, logn
        )
        if deal == DEAL_EXPERT:
            for p in range(n_players):
                hand[p, 0] = _draw(
                    R, rng, deck, deck_n, discard[0], disc_n[0:1], True, g, 0, do_log, log, logn
                )
                hand_n[p] = 1
    elif R[0, P_X_SPECIALS] > 0:
        _deal_special_stacks(R, rng, n_cards, order, stack, stack_n, disc_n, g, do_log, log, logn)
    else:
        _deal_stacks(rng, n_cards, R[0, P_NEXTRA], order, stack, stack_n, disc_n, g, 0, do_log, log, logn)
    n_objectives = x_objectives(R)
    if n_objectives > 0:
        # Set-up (Roswell): each player secretly circles an objective; none sees another's.
        for p in range(n_players):
            ctx[CTX_SEAT] = p
            k = choose_objective(strats[p], sprm[p], R, sh, p, ctx, rng, n_objectives)
            x_set_objective(R, sc, p, k)
            if do_log:
                _log(log, logn, g, 0, p, LOG_X_OBJECTIVE, k, 0, 0, 0, 0, 0, 0, 0)
        ctx[CTX_SEAT] = 0
    n_stacks = R[0, P_NSTACKS]
    # Special cards in the first stack (Zombie Outbreak): it is never reshuffled, and its last card
    # flipped ends the game at once.
    ctx[CTX_HAND_SIZE] = hand_size
    max_ref = R[0, P_MAX_REFUSALS]
    total_houses = R[0, P_TOTAL_HOUSES]
    round_cap = total_houses + max_ref + 1
    rb_max = R[0, P_RB_MAX]
    pass_dir = R[0, P_PASS_DIR]
    # First edition: the reshuffle is offered once, in the first round anyone validates a plan.
    reshuffle_offer = R[0, P_RESHUFFLE] == 1
    rnd = 0
    end = 0
    while end == 0:
        rnd += 1
        ctx[CTX_ROUND] = rnd
        if not hands:
            if specials and rnd == 1:
                # A special card on top at set-up acts before the first flip.
                _special_cards(
                    R,
                    stack,
                    stack_n,
                    strats,
                    sprm,
                    cells,
                    flags,
                    fences,
                    sc,
                    n_players,
                    ctx,
                    rng,
                    g,
                    rnd,
                    do_log,
                    log,
                    logn,
                    (cnum, cact, mv, lo, hi),
                )
            # Flip: each stack's top card shows its action; the next card shows the number.
            for i in range(n_stacks):
                stack_n[i] -= 1
                card = stack[i, stack_n[i]]
                cact[i] = R[R_DECK_ACT, card]
                if specials and i == 0:
                    # Never reshuffled: its flipped cards need no discard pile.
                    _special_cards(
                        R,
                        stack,
                        stack_n,
                        strats,
                        sprm,
                        cells,
                        flags,
                        fences,
                        sc,
                        n_players,
                        ctx,
                        rng,
                        g,
                        rnd,
                        do_log,
                        log,
                        logn,
                        (cnum, cact, mv, lo, hi),
                    )
                    if stack_n[0] == 0:
                        end = END_STACK
                        break
                    cnum[0] = R[R_DECK_NUM, stack[0, stack_n[0] - 1]]
                    continue
                if stack_n[i] == 0:
                    # Last card flipped: the discard pile (without this card) becomes the new stack.
                    m = disc_n[i]
                    for j in range(m):
                        stack[i, j] = discard[i, j]
                    shuffle(rng, stack[i], m)
                    stack_n[i] = m
                    disc_n[i] = 0
                    if do_log:
                        for j in range(m):
                            _log(log, logn, g, rnd, -1, LOG_STACK, i, j, stack[i, m - 1 - j], 0, 0, 0, 0, 0)
                discard[i, disc_n[i]] = card
                disc_n[i] += 1
                cnum[i] = R[R_DECK_NUM, stack[i, stack_n[i] - 1]]
            if end != 0:
                # The first stack ran out: the game is over before this round is played.
                break
        else:
            # Everyone fills a hand of three before anyone plays; special cards act at once.
            short = False
            for p in range(n_players):
                while hand_n[p] < hand_size:
                    if specials and deal == DEAL_EXPERT and deck_n[0] == 0:
                        # The deck is exhausted: rebuilt twice, the third time the game ends.
                        if rebuilds == 2:
                            short = True
                            break
                        rebuilds += 1
                        _rebuild_special_deck(
                            R,
                            rng,
                            n_cards,
                            n_players,
                            stack[0, rebuilds],  # the next Zombie card set aside at the deal
                            deck,
                            deck_n,
                            discard[0],
                            disc_n[0:1],
                            g,
                            rnd,
                            do_log,
                            log,
                            logn,
                        )
                    c = _draw(
                        R,
                        rng,
                        deck,
                        deck_n,
                        discard[0],
                        disc_n[0:1],
                        deal != DEAL_SOLO_CARD,
                        g,
                        rnd,
                        do_log,
                        log,
                        logn,
                    )
                    if c < 0:
                        short = True
                        break
                    if c < n_cards:
                        hand[p, hand_n[p]] = c
                        hand_n[p] += 1
                        continue
                    if c - n_cards >= SPECIAL_X:
                        # A Zombie card: applied at once and removed, and a new card drawn. With a
                        # scoring AAA it replaces the last two cards given to the AAA.
                        if deal == DEAL_AAA and R[0, P_OPP_SCORES] == 1:
                            aaa_n = max(0, aaa_n - 2)
                            aaa[aaa_n] = c
                            aaa_n += 1
                        _apply_special(
                            R,
                            c,
                            -1,
                            strats,
                            sprm,
                            cells,
                            flags,
                            fences,
                            sc,
                            n_players,
                            ctx,
                            rng,
                            g,
                            rnd,
                            do_log,
                            log,
                            logn,
                            (cnum, cact, mv, lo, hi),
                        )
                        continue
                    special_round = rnd
                    if c - n_cards == SPECIAL_SOLO:
                        # Every plan counts as validated by the competition.
                        for slot in range(3):
                            flipped[slot] = True
                            ctx[CTX_FLIPPED + slot] = 1
                        if do_log:
                            _log(log, logn, g, rnd, -1, LOG_SOLO_CARD, 0, 0, 0, 0, 0, 0, 0, 0)
                    else:
                        slot = c - n_cards
                        if (R[0, P_OPP_VALIDATES] >> slot) & 1:
                            pts = (
                                R[R_PLAN_LATER, plans[slot]]
                                if flipped[slot]
                                else R[R_PLAN_FIRST, plans[slot]]
                            )
                            aaa_plan_pts += pts
                            flipped[slot] = True
                            ctx[CTX_FLIPPED + slot] = 1
                            if do_log:
                                _log(
                                    log, logn, g, rnd, -1, LOG_AAA_PLAN, slot, pts, plans[slot], 0, 0, 0, 0, 0
                                )
                        # Expansions react to every validation card (Ice Cream: a bonus crossed;
                        # Doomsday: the AAA builds a shelter).
                        crossed = x_validation(R, cells, flags, sc, 0)
                        if crossed >= 0 and do_log:
                            _log(log, logn, g, rnd, 0, LOG_X_CROSS, crossed, 0, 0, 0, 0, 0, 0, 0)
                        built = x_aaa_reacts(R, sc, slot, aaa, aaa_n)
                        if built >= 0 and do_log:
                            _log(log, logn, g, rnd, -1, LOG_X_SHELTER, slot, built, 0, 0, 0, 0, 0, 0)
                        x_validation_card(R, sc, 0, slot)
                        # Quack: the AAA's validation card may trigger a scoring phase, at once.
                        _x_events(R, cells, sc, n_players, 1, slot, aaa_n, xopt, g, rnd, do_log, log, logn)
                        if x_decides(R):
                            # What the card makes the player decide (American Dream: the bonuses
                            # crossed), phase 2.
                            _x_decisions(
                                R,
                                strats,
                                sprm,
                                cells,
                                flags,
                                fences,
                                sc,
                                0,
                                2,
                                ctx,
                                rng,
                                xopt,
                                xlog,
                                g,
                                rnd,
                                do_log,
                                log,
                                logn,
                            )
                if short:
                    break
            if short:
                # The first edition's solo deck runs out (it never does mid-round with a deck of a
                # multiple of three cards), or an expert deck with special cards the third time:
                # the game ends before this round.
                rnd -= 1
                end = END_DECK
                break
        for p in range(n_players):
            ctx[CTX_SEAT] = p
            if hands:
                for i in range(hand_size):
                    ctx[CTX_HAND_NUM + i] = R[R_DECK_NUM, hand[p, i]]
                    ctx[CTX_HAND_ACT + i] = R[R_DECK_ACT, hand[p, i]]
                if hand_size == 2:
                    # Two cards: one for its number, the other for its action.
                    for k in range(2):
                        cnum[k] = ctx[CTX_HAND_NUM + k]
                        cact[k] = ctx[CTX_HAND_ACT + 1 - k]
                else:
                    for k in range(6):
                        cnum[k] = ctx[CTX_HAND_NUM + COMBO_NUM[k]]
                        cact[k] = ctx[CTX_HAND_ACT + COMBO_ACT[k]]
            # Advanced mode: a roundabout may go in first (it can make a number fit), or after
            # the move (below), one a round at most.
            rb_now = False
            if rb_max > 0 and sc[p, SC_ROUNDABOUTS] < rb_max:
                street_bounds(R, cells, p, lo, hi)
                rbm[0] = -1
                rbm[1] = -1
                choose_roundabout(strats[p], sprm[p], R, sh, p, ctx, offer, rbm)
                if rbm[0] >= 0 and roundabout_ok(R, cells, sc, p, rbm[0], rbm[1]):
                    place_roundabout(cells, fences, sc, p, rbm[0], rbm[1])
                    rb_now = True
                    if do_log:
                        _log(log, logn, g, rnd, p, LOG_ROUNDABOUT, rbm[0], rbm[1], 0, 0, 0, 0, 0, 0)
                    _roundabout_reaction(R, sc, p, rbm[0], g, rnd, do_log, log, logn)
            street_bounds(R, cells, p, lo, hi)
            if x_any(R):
                x_bounds(R, cells, flags, p, lo, hi)
            if ONLY_GREEDY == 0 and strats[p] == RANDOM:
                # Straight to the random player's leaf (what choose_move would call): through the
                # dispatcher, a kernel that reference-counts its dozen array arguments with
                # atomic operations, the call cost more than the random choice itself.
                choose_random(R, sh, p, offer)
            else:
                choose_move(strats[p], sprm[p], R, sh, p, ctx, offer)
            if mv[0] < 0:
                sc[p, SC_REFUSALS] += 1
            else:
                apply_move(R, cells, flags, fences, sc, p, mv)
                x_on_move(R, cells, flags, sc, p, mv)
                x_on_action(R, cells, flags, sc, p, mv[1], mv[2], cact[mv[0]], 1)
                if x_side_pending(R, sc, p, mv[1]):
                    # First-edition Ice Cream: the player chooses where the truck starts when first
                    # numbering a house in its street (an extension never numbers a street first).
                    side = choose_side(strats[p], sprm[p], R, sh, p, ctx, offer, mv[1])
                    x_set_side(R, sc, p, mv[1], side)
                    if do_log:
                        _log(log, logn, g, rnd, p, LOG_X_SIDE, mv[1], side, 0, 0, 0, 0, 0, 0)
                x_on_number(R, cells, flags, sc, p, mv[1], mv[2])
                if mv[4] == EXTENSION:
                    x_on_number(R, cells, flags, sc, p, mv[5], mv[7])
            if do_log:
                _log(log, logn, g, rnd, p, LOG_MOVE, mv[0], mv[1], mv[2], mv[3], mv[4], mv[5], mv[6], mv[7])
            if mv[0] >= 0 and x_decides(R):
                # The expansion's decisions the move calls for (Halloween: ghost or candy).
                _x_decisions(
                    R,
                    strats,
                    sprm,
                    cells,
                    flags,
                    fences,
                    sc,
                    p,
                    0,
                    ctx,
                    rng,
                    xopt,
                    xlog,
                    g,
                    rnd,
                    do_log,
                    log,
                    logn,
                )
            # Advanced mode: "at any time during a round", so also after the move (before this
            # round's plan validation: its fences can close an estate a plan needs). The rules
            # grant "a roundabout" in addition to the house and the action: one a round.
            if rb_max > 0 and not rb_now and sc[p, SC_ROUNDABOUTS] < rb_max:
                rbm[0] = -1
                rbm[1] = -1
                choose_roundabout_after(strats[p], sprm[p], R, sh, p, ctx, offer, rbm)
                if rbm[0] >= 0 and roundabout_ok(R, cells, sc, p, rbm[0], rbm[1]):
                    place_roundabout(cells, fences, sc, p, rbm[0], rbm[1])
                    if do_log:
                        _log(log, logn, g, rnd, p, LOG_ROUNDABOUT, rbm[0], rbm[1], 1, 0, 0, 0, 0, 0)
                    _roundabout_reaction(R, sc, p, rbm[0], g, rnd, do_log, log, logn)
            if hands:
                # The two cards used go to the discard pile, the third is passed on; on a
                # refusal the player chooses which of the three.
                to = -2
                if deal == DEAL_EXPERT:
                    to = (p + pass_dir + n_players) % n_players
                elif deal == DEAL_AAA:
                    to = -1
                if mv[0] >= 0 and hand_size == 3:
                    third = 3 - COMBO_NUM[mv[0]] - COMBO_ACT[mv[0]]
                else:
                    # A refusal, or two cards both used: the player chooses the card passed on.
                    third = choose_pass(strats[p], sprm[p], R, sh, p, ctx, offer, to)
                for i in range(hand_size):
                    if i != third:
                        discard[0, disc_n[0]] = hand[p, i]
                        disc_n[0] += 1
                card = hand[p, third]
                if deal == DEAL_EXPERT:
                    pending[to] = card
                elif deal == DEAL_AAA:
                    aaa[aaa_n] = card
                    aaa_n += 1
                else:
                    discard[0, disc_n[0]] = card
                    disc_n[0] += 1
                hand_n[p] = 0
                if do_log:
                    _log(log, logn, g, rnd, p, LOG_PASS, card, to, 0, 0, 0, 0, 0, 0)
        if deal == DEAL_EXPERT:
            for p in range(n_players):
                hand[p, 0] = pending[p]
                hand_n[p] = 1
        # Plan validation; everyone validating in this round scores the value shown.
        for slot in range(3):
            new_flip[slot] = False
        for p in range(n_players):
            # One count of the free complete estates answers every plain estate plan at once.
            estate_counts(R, cells, flags, fences, p, counts, True)
            for slot in range(3):
                if sc[p, SC_PLAN_ROUND + slot] != 0:
                    continue
                k = plans[slot]
                if R[R_PLAN_PLAIN, k] == 1:
                    if not counts_meet(R, counts, k):
                        continue
                elif plan_check(R, cells, flags, fences, sc, p, k, False, used) < 0:
                    continue
                ctx[CTX_SEAT] = p
                if not wants_validation(strats[p], sprm[p], R, sh, p, ctx, slot):
                    continue
                n_used = plan_check(R, cells, flags, fences, sc, p, k, True, used)
                estate_counts(R, cells, flags, fences, p, counts, True)
                score = R[R_PLAN_LATER, k] if flipped[slot] else R[R_PLAN_FIRST, k]
                sc[p, SC_PLAN_ROUND + slot] = rnd
                sc[p, SC_PLAN_SCORE + slot] = score
                sc[p, SC_PLAN_FIRST + slot] = 0 if flipped[slot] else 1
                new_flip[slot] = True
                if do_log:
                    houses = 0 if R[R_PLAN_KIND, k] == 0 else 1
                    for u in range(n_used):
                        _log(
                            log,
                            logn,
                            g,
                            rnd,
                            p,
                            LOG_PLAN,
                            slot,
                            k,
                            used[u, 0],
                            used[u, 1],
                            used[u, 2],
                            score,
                            houses,
                            0,
                        )
                    if n_used == 0:
                        _log(log, logn, g, rnd, p, LOG_PLAN, slot, k, -1, -1, -1, score, 0, 0)
        for slot in range(3):
            if new_flip[slot]:
                flipped[slot] = True
                ctx[CTX_FLIPPED + slot] = 1
        if x_decides(R):
            # Every player decides from the round's own sheet: x_round_end settles what the others
            # see of it (Halloween: levels claimed now are crossed on the other sheets) afterwards.
            for p in range(n_players):
                _x_decisions(
                    R,
                    strats,
                    sprm,
                    cells,
                    flags,
                    fences,
                    sc,
                    p,
                    1,
                    ctx,
                    rng,
                    xopt,
                    xlog,
                    g,
                    rnd,
                    do_log,
                    log,
                    logn,
                )
        if x_any(R):
            x_round_end(R, sc, n_players)
            _x_events(R, cells, sc, n_players, 0, -1, aaa_n, xopt, g, rnd, do_log, log, logn)
        # End of round: all three plans, the last refusal box, every house numbered (or a
        # roundabout), or (first-edition solo) the deck ran out.
        for p in range(n_players):
            if sc[p, SC_PLAN_ROUND] > 0 and sc[p, SC_PLAN_ROUND + 1] > 0 and sc[p, SC_PLAN_ROUND + 2] > 0:
                end |= END_PLANS
            if sc[p, SC_REFUSALS] >= max_ref:
                end |= END_REFUSALS
            if sc[p, SC_NUMBERED] + sc[p, SC_ROUNDABOUTS] + sc[p, SC_SEALED] >= total_houses:
                end |= END_FULL
        if deal == DEAL_SOLO_CARD:
            # The deck is exhausted when it cannot fill another hand (the solo card may be last).
            left = 0
            for j in range(deck_n[0]):
                if deck[j] < n_cards:
                    left += 1
            if left < 3:
                end |= END_DECK
        if end == 0 and rnd >= round_cap:
            end = END_ROUND_CAP
        # No offer when the game has just ended: there is no "suite de la partie" to deal.
        if reshuffle_offer and end == 0 and (new_flip[0] or new_flip[1] or new_flip[2]):
            reshuffle_offer = False
            # Asked in seat order among this round's validators; the first who accepts reshuffles.
            for p in range(n_players):
                mine = False
                for slot in range(3):
                    if sc[p, SC_PLAN_ROUND + slot] == rnd:
                        mine = True
                ctx[CTX_SEAT] = p
                if mine and wants_reshuffle(strats[p], sprm[p], R, sh, p, ctx, stack, stack_n, rng):
                    if do_log:
                        _log(log, logn, g, rnd, p, LOG_RESHUFFLE, p, 0, 0, 0, 0, 0, 0, 0)
                    _deal_stacks(rng, n_cards, 0, order, stack, stack_n, disc_n, g, rnd, do_log, log, logn)
                    break
    # What the expansion scores at the game's end, before the score cards (Quack: the phases
    # never triggered).
    if x_any(R):
        _x_events(R, cells, sc, n_players, 2, -1, aaa_n, xopt, g, rnd, do_log, log, logn)
    if do_log:
        _log(log, logn, g, rnd, -1, LOG_END, end, 0, 0, 0, 0, 0, 0, 0)
    if end == END_STACK:
        rnd -= 1  # the round the first stack ran out in was not played
    aaa_temps = aaa_temp_cards(R, aaa, aaa_n) if deal == DEAL_AAA else -1
    score_table_into(R, cells, flags, fences, sc, n_players, out[g], aaa_temps, counts, temps, temp_pts)
    out_g[g, G_ROUNDS] = rnd
    out_g[g, G_END] = end
    out_g[g, G_CHECK] = end_check(
        sc,
        n_players,
        end,
        max_ref,
        total_houses,
        deal == DEAL_SOLO_CARD or (specials and deal == DEAL_EXPERT),
    )
    out_g[g, G_SPECIAL_ROUND] = special_round
    for slot in range(3):
        out_g[g, G_PLAN + slot] = plans[slot]
    if deal == DEAL_AAA:
        solo_temp_points(R, sc[0, SC_TEMPS], aaa_temps, temp_pts)
        aaa_score(R, aaa, aaa_n, aaa_plan_pts, temp_pts[1], out_g[g])
        x_aaa(R, cells, aaa, aaa_n, sc, out_g[g])
        if R[0, P_OPP_SCORES] == 1:
            mine = out[g, 0, O_TOTAL]
            theirs = out_g[g, G_AAA_TOTAL]
            # A tie goes to the player only with more complete estates (all the AAA's count), or
            # is a shared victory where the sheet says so (American Dream).
            won = mine > theirs or (
                mine == theirs
                and (
                    R[0, P_TIEBREAK_SIZES] == TIE_SHARED or out[g, 0, O_N_ESTATES] > out_g[g, G_AAA_N_ESTATES]
                )
            )
            out[g, 0, O_RANK] = 1 if won else 2


@leaf
def end_check(sc, n_players, end, max_ref, total_houses, solo_card) -> int:
    """The end-of-game invariants (layout CHECK_*): 0 when they hold, else the bits that fail.
    An end condition must hold: a player with every plan, the last refusal box or every house,
    the deck run out (solo_card: the first edition's solo, or Zombie Outbreak's expert deck the
    third time), or Zombie Outbreak's first stack run out; never the round cap."""
    bad = 0
    holds = (solo_card and (end & END_DECK) != 0) or end == END_STACK
    for p in range(n_players):
        if sc[p, SC_PLAN_ROUND] > 0 and sc[p, SC_PLAN_ROUND + 1] > 0 and sc[p, SC_PLAN_ROUND + 2] > 0:
            holds = True
        if sc[p, SC_REFUSALS] >= max_ref:
            holds = True
            if sc[p, SC_REFUSALS] > max_ref:
                bad |= CHECK_REFUSALS
        houses = sc[p, SC_NUMBERED] + sc[p, SC_ROUNDABOUTS] + sc[p, SC_SEALED]
        if houses >= total_houses:
            holds = True
            if houses > total_houses:
                bad |= CHECK_HOUSES
    if not holds or end == 0 or (end & END_ROUND_CAP) != 0:
        bad |= CHECK_NO_END
    return bad


@kernel
def play_batch(R, seeds, n_players, strats, sprm, plans_in, out, out_g, do_log, log, logn) -> None:
    """Play len(seeds) games; plans_in[g] holds plan ids per slot (-1 = draw at random)."""
    ws = new_workspace(R, n_players)
    for g in range(seeds.shape[0]):
        play_game(R, seeds[g], n_players, strats, sprm, plans_in[g], g, out, out_g, do_log, log, logn, ws)


def log_capacity(R, n_games: int, n_players: int) -> int:
    """Rows enough for the log of n_games games (deals, moves, validations)."""
    n_cards = int(R[0, P_NCARDS])
    rounds = int(R[0, P_TOTAL_HOUSES] + R[0, P_MAX_REFUSALS] + 1)
    if int(R[0, P_DEAL]) == DEAL_STACKS:
        reshuffles = rounds // max(1, n_cards // 3 - 1) + 1
    else:
        drawn = rounds * 3 * n_players + n_players + 4
        reshuffles = drawn // max(1, n_cards - 3 * n_players - 3) + 2
    reshuffles += int(R[0, P_RESHUFFLE])  # the first edition's reshuffle after the first plan
    per_game = (n_cards + 4) * (1 + reshuffles) + rounds * n_players * 3 + 3 * n_players * 16 + 8
    # Special cards (Zombie Outbreak): a row each, and per player a hold or an invasion per piece.
    per_game += int(R[0, P_X_SPECIALS]) * (1 + 8 * n_players)
    per_game += n_players  # set-up objectives (Roswell)
    # An expansion's own decisions (Halloween: 13 marks, 2 claims and up to 4 bonus rows a player).
    per_game += 24 * n_players
    # Public events (Quack: three scoring phases, a row each and one per player and the AAA).
    per_game += 3 * (n_players + 2)
    return n_games * per_game
