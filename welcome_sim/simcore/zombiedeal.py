"""Zombie Outbreak's deals and its special cards in play: the two stacks, the hand modes' deck
with the Zombie cards shuffled in, the expert deck rebuilt, and a Zombie card applied.

Each deal is laid out from the base game's deal on the same seed (deal.py: the main stream taken
exactly as the base game takes it), so that a base game and its Zombie Outbreak game see the same
construction cards as long as they can; the special cards' order and places come from the extra
stream (rng[1])."""

from __future__ import annotations

from welcome_sim.expansions.hooks import x_advance, x_can_hold, x_card_moves, x_card_seen, x_hold, x_target
from welcome_sim.simcore.deal import aligned, deal_stacks, insert_card, setup_hand_deck
from welcome_sim.simcore.gamelog import GameLog, log_row
from welcome_sim.simcore.jit import inlined, leaf
from welcome_sim.simcore.layout import LOG_DECK, LOG_STACK, LOG_X_HOLD, LOG_X_INVADE, LOG_X_ZOMBIE, SPECIAL_X
from welcome_sim.simcore.rng import shuffle
from welcome_sim.simcore.table import (
    DEAL_EXPERT,
    P_NCARDS,
    P_NEXTRA,
    P_X_AAA_PART,
    P_X_DECK_PER,
    P_X_PART,
    P_X_SPECIALS,
)
from welcome_sim.strategies.context import CTX_SEAT
from welcome_sim.strategies.dispatch import choose_hold


@leaf
def deal_special_stacks(R, rng, n_cards, piles, lg) -> None:
    """Two stacks (Zombie Outbreak): the first is P_X_SPECIALS parts of P_X_PART cards, each
    with one special card shuffled in, placed on top of each other; the second is the rest.

    Laid out from the base game's three stacks on the same seed (deal_stacks: the main stream
    taken exactly as the base game takes it): the first stack's construction cards are the base's
    first stack from the top, then its third's from the top; the second stack is the base's second
    from the top, then the rest. The two games flip the same cards from their first two stacks
    until the base game reshuffles one (27 rounds with 81 cards): only the base's third stack has
    no counterpart (its top cards end the first stack). Which special card goes into which part,
    and its place there, come from the extra stream (rng[1]). Every deal as likely as the rules'
    shuffle: the base cards' order is a uniform shuffle laid out by a rule that does not look at
    them, and each part is then its cards with the special card at a uniform place, a uniform
    shuffle of them."""
    order, stack, stack_n, disc_n = piles.order, piles.stack, piles.stack_n, piles.disc_n
    deal_stacks(rng, n_cards, R[0, P_NEXTRA], piles, 0, GameLog(lg.rows, lg.n, False, lg.g))
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
        top = insert_card(extra, stack[0], start, top, stack[2, k])
    stack_n[0] = top
    stack_n[1] = rest
    stack_n[2] = 0
    for i in range(3):
        disc_n[i] = 0
    if lg.on:
        for i in range(2):
            m = stack_n[i]
            for j in range(m):
                log_row(lg, 0, -1, LOG_STACK, i, j, stack[i, m - 1 - j], 0, 0, 0, 0, 0)


@leaf
def special_hand_deck(R, rng, deal, n_players, piles, lg) -> None:
    """Hand modes with special cards (Zombie Outbreak). The special cards are shuffled first into
    zorder (the text names none: "1 Zombie card", "set aside the remaining Zombie cards face
    down"). Expert: the architects' first cards on top of a deck of P_X_DECK_PER cards per
    architect with special card zorder[0] shuffled in (the rebuilds take zorder[1], zorder[2]); the
    other cards start in the discard pile. AAA: three parts of P_X_AAA_PART cards, special card
    zorder[k] in part k, one AAA validation card in the second and two in the third, the first part
    on top; the other cards are out of the game. Returns nothing; deck top = last element.

    Laid out from the base game's deck on the same seed (setup_hand_deck: the main stream taken
    exactly as the base game takes it), so that each round's cards are among the base game's cards
    of that round: the architects' first cards are the base's; then, where the base game draws two
    cards a seat (expert) or three a round (AAA), this deck holds the first one (two) of them, and
    after those the cards passed over (aligned). The AAA's second part takes the validation card
    the base game has in its deck. The special cards' order and places come from the extra stream
    (rng[1]): every deal as likely as the rules' shuffle (insert_card, aligned)."""
    setup_hand_deck(R, rng, deal, piles, GameLog(lg.rows, lg.n, False, lg.g))
    n_cards = R[0, P_NCARDS]
    order, deck, deck_n = piles.order, piles.deck, piles.deck_n
    discard, disc_n = piles.discard[0], piles.disc_n[0:1]
    zorder = piles.stack[0]  # the special cards' random order: no hand mode uses the stacks
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
            deck[j] = order[aligned(m - 1 - j, n_players, n_cards, 1, 2)]
        top = insert_card(extra, deck, 0, m, zorder[0])
        for p in range(n_players):
            deck[top + p] = order[n_players - 1 - p]  # drawn first: seat 0 gets the base's first
        deck_n[0] = top + n_players
        for t in range(m, n_cards - n_players):
            discard[disc_n[0]] = order[aligned(t, n_players, n_cards, 1, 2)]
            disc_n[0] += 1
    else:
        part = R[0, P_X_AAA_PART]
        top = 0
        for k in range(2, -1, -1):  # bottom part first
            start = top
            for j in range(part):
                deck[top] = order[aligned(k * part + part - 1 - j, 0, n_cards, 2, 3)]
                top += 1
            top = insert_card(extra, deck, start, top, zorder[k])
            if k == 1:
                top = insert_card(extra, deck, start, top, n_cards + v)
            elif k == 2:
                for slot in range(3):
                    if slot != v:
                        top = insert_card(extra, deck, start, top, n_cards + slot)
        deck_n[0] = top
    if lg.on:
        m = deck_n[0]
        for j in range(m):
            log_row(lg, 0, -1, LOG_DECK, j, deck[m - 1 - j], 0, 0, 0, 0, 0, 0)


@leaf
def rebuild_special_deck(R, rng, n_players, special, piles, rnd, lg) -> None:
    """Expert mode with special cards: the shuffled discard pile gives a new deck of P_X_DECK_PER
    cards per architect (all if fewer) with the card `special` shuffled in; the rest stays there."""
    deck, deck_n, discard, disc_n = piles.deck, piles.deck_n, piles.discard[0], piles.disc_n[0:1]
    m = disc_n[0]
    shuffle(rng, discard, m)
    take = min(m, R[0, P_X_DECK_PER] * n_players)
    for j in range(take):
        deck[j] = discard[m - 1 - j]
    deck[take] = special
    shuffle(rng, deck, take + 1)
    deck_n[0] = take + 1
    disc_n[0] = m - take
    if lg.on:
        for j in range(take + 1):
            log_row(lg, rnd, -1, LOG_DECK, j, deck[take - j], 1, 0, 0, 0, 0, 0)


@inlined
def special_cards(R, strats, sprm, ws, n_players, rnd, lg) -> None:
    """Apply and remove every special card on top of the first stack (Zombie cards): each player,
    piece by piece in street order, holds it with a resource (a strategy decision) or lets it
    move, which may take over a house."""
    n_cards = R[0, P_NCARDS]
    stack, stack_n = ws.piles.stack, ws.piles.stack_n
    while stack_n[0] > 0 and stack[0, stack_n[0] - 1] >= n_cards:
        stack_n[0] -= 1
        apply_special(R, stack[0, stack_n[0]], 0, strats, sprm, ws, n_players, rnd, lg)


@inlined
def apply_special(R, card, where, strats, sprm, ws, n_players, rnd, lg) -> None:
    """Apply one special card (a Zombie card) from the first stack (where=0) or drawn (-1). The
    workspace's turn arrays (cnum, cact, mv, lo, hi) go to strategies that decide through their
    move choice."""
    cells, flags, fences, sc = ws.sheets
    cnum, cact, mv, lo, hi, ctx, rng = ws.cnum, ws.cact, ws.mv, ws.lo, ws.hi, ws.ctx, ws.rng
    if lg.on:
        log_row(lg, rnd, -1, LOG_X_ZOMBIE, card, where, 0, 0, 0, 0, 0, 0)
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
                strats[p], sprm[p], R, cells, flags, fences, sc, p, ctx, s, side, rng, cnum, cact, mv, lo, hi
            ):
                x_hold(R, sc, p)
                if lg.on:
                    log_row(lg, rnd, p, LOG_X_HOLD, s, side, 0, 0, 0, 0, 0, 0)
                continue
            code = cells[p, s, h]
            if x_advance(R, cells, flags, fences, sc, p, s, side) >= 0 and lg.on:
                log_row(lg, rnd, p, LOG_X_INVADE, s, h, code if code >= 0 else -1, 0, 0, 0, 0, 0)
    ctx[CTX_SEAT] = seat
