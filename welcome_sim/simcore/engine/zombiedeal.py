"""Zombie Outbreak's deals and special cards: two stacks or a hand-mode deck with the Zombie
cards shuffled in, laid out from the base game's deal on the same seed, and the Zombie cards' moves
(a strategy decides which pieces to hold)."""

from __future__ import annotations

from welcome_sim.simcore.engine.deal import _deal_stacks, _setup_hand_deck
from welcome_sim.simcore.engine.gamelog import GameLog, _log
from welcome_sim.simcore.ground.jit import inlined, leaf
from welcome_sim.simcore.ground.layout import (
    LOG_DECK,
    LOG_STACK,
    LOG_X_HOLD,
    LOG_X_INVADE,
    LOG_X_ZOMBIE,
    SPECIAL_X,
)
from welcome_sim.simcore.ground.rng import rng_below, shuffle
from welcome_sim.simcore.ground.table import (
    DEAL_EXPERT,
    P_DEAL,
    P_NCARDS,
    P_NEXTRA,
    P_X_AAA_PART,
    P_X_DECK_PER,
    P_X_PART,
    P_X_SPECIALS,
)
from welcome_sim.simcore.rules.expansions.hooks import (
    x_advance,
    x_can_hold,
    x_card_moves,
    x_card_seen,
    x_hold,
    x_target,
)
from welcome_sim.strategies.context import (
    CTX_SEAT,
)
from welcome_sim.strategies.dispatch import (
    choose_hold,
)


@inlined
def _insert_card(rng, arr, start, end, card) -> int:
    """Insert `card` into arr[start:end] at a place drawn uniformly among the end - start + 1
    (rng: the extra stream); returns the new end. Cards inserted one by one this way into cards in
    a uniformly shuffled order give every order of the whole as likely as a shuffle of it."""
    p = start + rng_below(rng, end - start + 1)
    for j in range(end, p, -1):
        arr[j] = arr[j - 1]
    arr[p] = card
    return end + 1


@inlined
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
def _deal_special_stacks(R, rng, order, stack, stack_n, disc_n, lg) -> None:
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
    n_cards = R[0, P_NCARDS]
    quiet = GameLog(False, lg.log, lg.logn, lg.g)  # the base game's deal, not logged
    _deal_stacks(rng, n_cards, R[0, P_NEXTRA], order, stack, stack_n, disc_n, 0, quiet)
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
    if lg.do_log:
        for i in range(2):
            m = stack_n[i]
            for j in range(m):
                _log(lg, 0, -1, LOG_STACK, i, j, stack[i, m - 1 - j], 0, 0, 0, 0, 0)


@leaf
def _special_hand_deck(R, rng, n_players, piles, lg):
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
    order = piles.order
    zorder = piles.stack[0]  # the special cards' random order: no hand mode uses the stacks otherwise
    deck = piles.deck
    deck_n = piles.deck_n
    discard = piles.discard[0]
    disc_n = piles.disc_n[0:1]
    deal = R[0, P_DEAL]
    n_cards = R[0, P_NCARDS]
    quiet = GameLog(False, lg.log, lg.logn, lg.g)  # the base game's deal, not logged
    _setup_hand_deck(R, rng, order, deck, deck_n, discard, disc_n, quiet)
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
    if lg.do_log:
        m = deck_n[0]
        for j in range(m):
            _log(lg, 0, -1, LOG_DECK, j, deck[m - 1 - j], 0, 0, 0, 0, 0, 0)


@leaf
def _rebuild_special_deck(R, rng, n_players, special, piles, rnd, lg) -> None:
    """Expert mode with special cards: the shuffled discard pile gives a new deck of P_X_DECK_PER
    cards per architect (all if fewer) with the card `special` shuffled in; the rest stays there."""
    deck = piles.deck
    deck_n = piles.deck_n
    discard = piles.discard[0]
    disc_n = piles.disc_n[0:1]
    m = disc_n[0]
    shuffle(rng, discard, m)
    take = min(m, R[0, P_X_DECK_PER] * n_players)
    for j in range(take):
        deck[j] = discard[m - 1 - j]
    deck[take] = special
    shuffle(rng, deck, take + 1)
    deck_n[0] = take + 1
    disc_n[0] = m - take
    if lg.do_log:
        for j in range(take + 1):
            _log(lg, rnd, -1, LOG_DECK, j, deck[take - j], 1, 0, 0, 0, 0, 0)


@inlined
def _special_cards(R, piles, seats, sh, rnd, lg, offer) -> None:
    """Apply and remove every special card on top of the first stack (Zombie cards): each player,
    piece by piece in street order, holds it with a resource (a strategy decision) or lets it
    move, which may take over a house."""
    stack = piles.stack
    stack_n = piles.stack_n
    n_cards = R[0, P_NCARDS]
    while stack_n[0] > 0 and stack[0, stack_n[0] - 1] >= n_cards:
        stack_n[0] -= 1
        _apply_special(R, stack[0, stack_n[0]], 0, seats, sh, rnd, lg, offer)


@inlined
def _apply_special(R, card, where, seats, sh, rnd, lg, offer) -> None:
    """Apply one special card (a Zombie card) from the first stack (where=0) or drawn (-1). offer:
    the seat's offer, whose generator the random and Python strategies' hold decisions draw from."""
    strats = seats.strats
    sprm = seats.sprm
    ctx = seats.ctx
    n_players = seats.n_players
    cells, flags, fences, sc = sh
    if lg.do_log:
        _log(lg, rnd, -1, LOG_X_ZOMBIE, card, where, 0, 0, 0, 0, 0, 0)
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
                strats[p], sprm[p], R, sh, p, ctx, s, side, offer
            ):
                x_hold(R, sc, p)
                if lg.do_log:
                    _log(lg, rnd, p, LOG_X_HOLD, s, side, 0, 0, 0, 0, 0, 0)
                continue
            code = cells[p, s, h]
            if x_advance(R, cells, flags, fences, sc, p, s, side) >= 0 and lg.do_log:
                _log(lg, rnd, p, LOG_X_INVADE, s, h, code if code >= 0 else -1, 0, 0, 0, 0, 0)
    ctx[CTX_SEAT] = seat
