"""The deals of the base game (kernel.play_game's set-up and draws): plans, three shared stacks,
hand-mode decks, and the 9¾ extra cards placed from a stream of their own so a game with them is
dealt as the game without them on the same seed."""

from __future__ import annotations

from welcome_sim.simcore.engine.gamelog import _log
from welcome_sim.simcore.ground.jit import inlined, leaf
from welcome_sim.simcore.ground.layout import (
    LOG_DECK,
    LOG_STACK,
    SPECIAL_SOLO,
)
from welcome_sim.simcore.ground.rng import rng_below, shuffle
from welcome_sim.simcore.ground.table import (
    DEAL_AAA,
    DEAL_SOLO_CARD,
    P_DEAL,
    P_NCARDS,
    P_NEXTRA,
    P_NPLANS,
    R_PLAN_SLOT,
)

AAA_BOTTOM = 20  # cards under the validation card at set-up


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
def _draw(R, rng, deck, deck_n, discard, disc_n, reshuffle, rnd, lg) -> int:
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
        if lg.do_log:
            for j in range(m):
                _log(lg, rnd, -1, LOG_DECK, j, deck[m - 1 - j], 1, 0, 0, 0, 0, 0)
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


@inlined
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
def _setup_hand_deck(R, rng, order, deck, deck_n, discard, disc_n, lg) -> None:
    """Build a hand-mode deck (top = last element) and its discard pile (order: n_cards scratch).
    The deck's own cards are dealt with the main stream exactly as without the extra cards
    (P_NEXTRA, the 9¾ cards), which _insert_extra then inserts from a stream of their own."""
    deal = R[0, P_DEAL]
    n_cards = R[0, P_NCARDS]
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
    if lg.do_log:
        m = deck_n[0]
        for j in range(m):
            _log(lg, 0, -1, LOG_DECK, j, deck[m - 1 - j], 0, 0, 0, 0, 0, 0)


@inlined
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
def _deal_stacks(rng, n_cards, n_extra, order, stack, stack_n, disc_n, rnd, lg) -> None:
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
        if lg.do_log:
            for j in range(per_stack):
                _log(lg, rnd, -1, LOG_STACK, i, j, stack[i, per_stack - 1 - j], 0, 0, 0, 0, 0)
