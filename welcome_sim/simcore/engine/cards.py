"""The phases of a game that move cards (kernel.play_game calls them): the set-up and deal, the
flip of the stacks, the filling of the hands, and the validation and solo cards drawn into them.

Like every phase, each is inlined into the game loop and takes the workspace's arrays one by one:
an inlined function's parameters are the caller's own variables (simcore/ground/jit.py), while a
bundle's fields read in a phase would each cost a reference count (docs/findings/kernel-phases.md).
Bundles (Sheets, Offer, the workspace's pairs) are passed where a phase only hands them on or reads
them off the hot path (special cards, expansions)."""

from __future__ import annotations

import numpy as np

from welcome_sim.simcore.engine.deal import _deal_stacks, _draw, _draw_plans, _setup_hand_deck
from welcome_sim.simcore.engine.gamelog import _log
from welcome_sim.simcore.engine.steps import (
    ST_AAA_N,
    ST_AAA_PLAN_PTS,
    ST_REBUILDS,
    ST_SPECIAL_ROUND,
    _x_decisions,
    _x_events,
)
from welcome_sim.simcore.engine.zombiedeal import (
    _apply_special,
    _deal_special_stacks,
    _rebuild_special_deck,
    _special_cards,
    _special_hand_deck,
)
from welcome_sim.simcore.ground.jit import inlined
from welcome_sim.simcore.ground.layout import (
    END_STACK,
    LOG_AAA_PLAN,
    LOG_SOLO_CARD,
    LOG_STACK,
    LOG_X_CROSS,
    LOG_X_OBJECTIVE,
    LOG_X_SHELTER,
    SPECIAL_SOLO,
    SPECIAL_X,
)
from welcome_sim.simcore.ground.rng import shuffle
from welcome_sim.simcore.ground.table import (
    DEAL_AAA,
    DEAL_EXPERT,
    DEAL_SOLO_CARD,
    DEAL_STACKS,
    P_DEAL,
    P_NCARDS,
    P_NEXTRA,
    P_NSTACKS,
    P_OPP_SCORES,
    P_OPP_VALIDATES,
    P_X_HAND,
    P_X_SPECIALS,
    R_DECK_ACT,
    R_DECK_NUM,
    R_PLAN_FIRST,
    R_PLAN_LATER,
)
from welcome_sim.simcore.rules.expansions.hooks import (
    x_aaa_reacts,
    x_decides,
    x_objectives,
    x_set_objective,
    x_validation,
    x_validation_card,
)
from welcome_sim.simcore.rules.sheetops import reset_player
from welcome_sim.strategies.context import CTX_DEAL, CTX_FLIPPED, CTX_PLAN, CTX_PLAYERS, CTX_SEAT
from welcome_sim.strategies.dispatch import choose_objective

# Mixed into a game's seed for the extra cards' stream: the main stream deals as without them.
_EXTRA_STREAM = np.uint64(0x6A09E667F3BCC909)

# fill_hands' answers besides a special card drawn: every hand is full; the deck ran out.
HANDS_FULL, DECK_OUT = -1, -2


@inlined
def hand_size(R) -> int:
    """Cards in a hand: three, or P_X_HAND in a hand mode with special cards (Zombie Outbreak)."""
    if R[0, P_DEAL] != DEAL_STACKS and R[0, P_X_SPECIALS] > 0:
        return R[0, P_X_HAND]
    return 3


@inlined
def reset_game(R, g, batch, seats, sh, offer, piles, state) -> None:
    """Reset the workspace where game g reads it to what a fresh allocation holds; draw the plans."""
    n_players = seats.n_players
    ctx = seats.ctx
    rng = offer.rng
    cells = sh.cells
    flags = sh.flags
    fences = sh.fences
    sc = sh.sc
    plans = state.plans
    seed = batch.seeds[g]
    rng[0] = seed
    rng[1] = seed ^ _EXTRA_STREAM  # where the extra cards go in the deal (9¾ cards)
    for p in range(n_players):
        reset_player(R, cells, flags, fences, sc, p)
    state.used[:, :] = 0
    _draw_plans(R, rng, batch.plans_in[g], plans)
    # Context strategies see (strategies/context.py): players, round, plans, flipped, seat, deal, hand.
    ctx[:] = 0
    ctx[CTX_PLAYERS] = n_players
    ctx[CTX_DEAL] = R[0, P_DEAL]
    for slot in range(3):
        ctx[CTX_PLAN + slot] = plans[slot]
    state.flipped[:] = False
    state.new_flip[:] = False
    piles.stack_n[:] = 0
    piles.disc_n[:] = 0
    piles.deck_n[0] = 0
    piles.hand_n[:] = 0
    state.st[:] = 0


@inlined
def deal_game(R, seats, sh, offer, piles, lg) -> None:
    """Deal the cards as the mode says (module docstring of kernel.py); then each player circles an
    objective where the expansion has them."""
    n_players = seats.n_players
    strats = seats.strats
    sprm = seats.sprm
    ctx = seats.ctx
    rng = offer.rng
    order = piles.order
    stack = piles.stack
    stack_n = piles.stack_n
    discard = piles.discard
    disc_n = piles.disc_n
    deck = piles.deck
    deck_n = piles.deck_n
    hand = piles.hand
    hand_n = piles.hand_n
    deal = R[0, P_DEAL]
    hands = deal != DEAL_STACKS
    n_cards = R[0, P_NCARDS]
    specials = R[0, P_X_SPECIALS] > 0
    if hands and specials:
        # The special cards' random order goes in stack[0], which no hand mode uses otherwise.
        _special_hand_deck(R, rng, n_players, piles, lg)
        if deal == DEAL_EXPERT:
            for p in range(n_players):
                deck_n[0] -= 1
                hand[p, 0] = deck[deck_n[0]]
                hand_n[p] = 1
    elif hands:
        _setup_hand_deck(R, rng, order, deck, deck_n, discard[0], disc_n[0:1], lg)
        if deal == DEAL_EXPERT:
            for p in range(n_players):
                hand[p, 0] = _draw(R, rng, deck, deck_n, discard[0], disc_n[0:1], True, 0, lg)
                hand_n[p] = 1
    elif specials:
        _deal_special_stacks(R, rng, order, stack, stack_n, disc_n, lg)
    else:
        _deal_stacks(rng, n_cards, R[0, P_NEXTRA], order, stack, stack_n, disc_n, 0, lg)
    n_objectives = x_objectives(R)
    if n_objectives > 0:
        # Set-up (Roswell): each player secretly circles an objective; none sees another's.
        sc = sh.sc
        for p in range(n_players):
            ctx[CTX_SEAT] = p
            k = choose_objective(strats[p], sprm[p], R, sh, p, ctx, rng, n_objectives)
            x_set_objective(R, sc, p, k)
            if lg.do_log:
                _log(lg, 0, p, LOG_X_OBJECTIVE, k, 0, 0, 0, 0, 0, 0, 0)
        ctx[CTX_SEAT] = 0


@inlined
def flip_stacks(R, seats, sh, offer, piles, rnd, lg) -> int:
    """Flip the stacks (three shared stacks): each top card shows its action, the next card its
    number. Returns END_STACK when Zombie Outbreak's first stack ran out (the round is not
    played), else 0."""
    rng = offer.rng
    cnum = offer.cnum
    cact = offer.cact
    stack = piles.stack
    stack_n = piles.stack_n
    discard = piles.discard
    disc_n = piles.disc_n
    # Special cards in the first stack (Zombie Outbreak): it is never reshuffled, and its last card
    # flipped ends the game at once.
    specials = R[0, P_X_SPECIALS] > 0
    if specials and rnd == 1:
        # A special card on top at set-up acts before the first flip.
        _special_cards(R, piles, seats, sh, rnd, lg, offer)
    for i in range(R[0, P_NSTACKS]):
        stack_n[i] -= 1
        card = stack[i, stack_n[i]]
        cact[i] = R[R_DECK_ACT, card]
        if specials and i == 0:
            # Never reshuffled: its flipped cards need no discard pile.
            _special_cards(R, piles, seats, sh, rnd, lg, offer)
            if stack_n[0] == 0:
                return END_STACK
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
            if lg.do_log:
                for j in range(m):
                    _log(lg, rnd, -1, LOG_STACK, i, j, stack[i, m - 1 - j], 0, 0, 0, 0, 0)
        discard[i, disc_n[i]] = card
        disc_n[i] += 1
        cnum[i] = R[R_DECK_NUM, stack[i, stack_n[i] - 1]]
    return 0


@inlined
def fill_hands(R, seats, sh, offer, piles, state, rnd, lg) -> int:
    """Fill every hand, seat by seat, before anyone plays; Zombie cards act at once. Returns
    HANDS_FULL, DECK_OUT (the game ends before this round), or a validation or solo card drawn,
    for validation_card: then called again, it goes on where it stopped."""
    n_players = seats.n_players
    rng = offer.rng
    deck = piles.deck
    deck_n = piles.deck_n
    discard = piles.discard
    disc_n = piles.disc_n
    hand = piles.hand
    hand_n = piles.hand_n
    aaa = state.aaa
    st = state.st
    deal = R[0, P_DEAL]
    n_cards = R[0, P_NCARDS]
    specials = R[0, P_X_SPECIALS] > 0
    size = hand_size(R)
    for p in range(n_players):
        while hand_n[p] < size:
            if specials and deal == DEAL_EXPERT and deck_n[0] == 0:
                # The deck is exhausted: rebuilt twice, the third time the game ends.
                if st[ST_REBUILDS] == 2:
                    return DECK_OUT
                st[ST_REBUILDS] += 1
                # The next Zombie card set aside at the deal.
                _rebuild_special_deck(R, rng, n_players, piles.stack[0, st[ST_REBUILDS]], piles, rnd, lg)
            c = _draw(R, rng, deck, deck_n, discard[0], disc_n[0:1], deal != DEAL_SOLO_CARD, rnd, lg)
            if c < 0:
                return DECK_OUT
            if c < n_cards:
                hand[p, hand_n[p]] = c
                hand_n[p] += 1
                continue
            if c - n_cards < SPECIAL_X:
                return c
            # A Zombie card: applied at once and removed, and a new card drawn. With a scoring AAA
            # it replaces the last two cards given to the AAA.
            if deal == DEAL_AAA and R[0, P_OPP_SCORES] == 1:
                st[ST_AAA_N] = max(0, st[ST_AAA_N] - 2)
                aaa[st[ST_AAA_N]] = c
                st[ST_AAA_N] += 1
            _apply_special(R, c, -1, seats, sh, rnd, lg, offer)
    return HANDS_FULL


@inlined
def validation_card(R, c, seats, sh, offer, state, rnd, lg) -> None:
    """A validation card (Collector's solo: the AAA validates its plan) or the solo card (the first
    edition's solo: every plan counts as validated by the competition) drawn into a hand."""
    ctx = seats.ctx
    aaa = state.aaa
    st = state.st
    plans = state.plans
    flipped = state.flipped
    n_cards = R[0, P_NCARDS]
    st[ST_SPECIAL_ROUND] = rnd
    if c - n_cards == SPECIAL_SOLO:
        # Every plan counts as validated by the competition.
        for slot in range(3):
            flipped[slot] = True
            ctx[CTX_FLIPPED + slot] = 1
        if lg.do_log:
            _log(lg, rnd, -1, LOG_SOLO_CARD, 0, 0, 0, 0, 0, 0, 0, 0)
        return
    slot = c - n_cards
    if (R[0, P_OPP_VALIDATES] >> slot) & 1:
        pts = R[R_PLAN_LATER, plans[slot]] if flipped[slot] else R[R_PLAN_FIRST, plans[slot]]
        st[ST_AAA_PLAN_PTS] += pts
        flipped[slot] = True
        ctx[CTX_FLIPPED + slot] = 1
        if lg.do_log:
            _log(lg, rnd, -1, LOG_AAA_PLAN, slot, pts, plans[slot], 0, 0, 0, 0, 0)
    # Expansions react to every validation card (Ice Cream: a bonus crossed; Doomsday: the AAA
    # builds a shelter).
    cells, flags, _, sc = sh
    crossed = x_validation(R, cells, flags, sc, 0)
    if crossed >= 0 and lg.do_log:
        _log(lg, rnd, 0, LOG_X_CROSS, crossed, 0, 0, 0, 0, 0, 0, 0)
    aaa_n = st[ST_AAA_N]
    built = x_aaa_reacts(R, sc, slot, aaa, aaa_n)
    if built >= 0 and lg.do_log:
        _log(lg, rnd, -1, LOG_X_SHELTER, slot, built, 0, 0, 0, 0, 0, 0)
    x_validation_card(R, sc, 0, slot)
    # Quack: the AAA's validation card may trigger a scoring phase, at once.
    _x_events(R, sh, seats.n_players, 1, slot, aaa_n, state.xdec[0], rnd, lg)
    if x_decides(R):
        # What the card makes the player decide (American Dream: the bonuses crossed), phase 2.
        _x_decisions(R, seats, sh, 0, 2, offer.rng, state.xdec, rnd, lg)
