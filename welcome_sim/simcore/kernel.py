"""The compiled game loop: plays a batch of games in any mode and returns columnar arrays.

One call plays many games (`play_batch`); each game has its own uint64 seed, so results do not
depend on how games are split into batches. With logging on, every deal, move and plan
validation is written as int32 rows (layout.py: LOG_*) for the referee and `welcome-sim play`.

A game (`play_game`) is a set-up and then rounds until an end condition, each round in phases:
the cards come up (`_flip_stacks`, or `_fill_hands` in the hand modes), each seat plays its turn
(`_turn`) and passes a card on (`_pass_on`), the plans are validated (`_validate_plans`) and the
round ends (`_round_end`); then the sheets are scored (`_score_game`). Each phase is inlined into
the game at Numba's IR level (jit.inlined): one compiled function, as before the cut. The arrays
live in one workspace (workspace.py), the deals in deal.py and zombiedeal.py.
"""

from __future__ import annotations

import numpy as np

from welcome_sim.expansions.hooks import (
    x_aaa,
    x_aaa_reacts,
    x_any,
    x_apply,
    x_bounds,
    x_decides,
    x_events,
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
    x_validation,
    x_validation_card,
)
from welcome_sim.simcore.aaa import aaa_score, aaa_temp_cards
from welcome_sim.simcore.deal import deal_stacks, draw, draw_plans, setup_hand_deck
from welcome_sim.simcore.features import ONLY_GREEDY
from welcome_sim.simcore.gamelog import GameLog, log_row
from welcome_sim.simcore.jit import inlined, kernel, leaf
from welcome_sim.simcore.layout import (
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
    LOG_END,
    LOG_MOVE,
    LOG_PASS,
    LOG_PLAN,
    LOG_RESHUFFLE,
    LOG_ROUNDABOUT,
    LOG_SOLO_CARD,
    LOG_STACK,
    LOG_X_CROSS,
    LOG_X_OBJECTIVE,
    LOG_X_SHELTER,
    LOG_X_SIDE,
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
from welcome_sim.simcore.plans import counts_meet, plan_check
from welcome_sim.simcore.rng import shuffle
from welcome_sim.simcore.scoring import score_table_into, solo_temp_points
from welcome_sim.simcore.sheetops import (
    apply_move,
    estate_counts,
    place_roundabout,
    reset_player,
    roundabout_ok,
    street_bounds,
)
from welcome_sim.simcore.table import (
    DEAL_AAA,
    DEAL_EXPERT,
    DEAL_SOLO_CARD,
    DEAL_STACKS,
    P_DEAL,
    P_MAX_REFUSALS,
    P_NCARDS,
    P_NEXTRA,
    P_NSTACKS,
    P_OPP_SCORES,
    P_OPP_VALIDATES,
    P_PASS_DIR,
    P_RB_MAX,
    P_RESHUFFLE,
    P_TIEBREAK_SIZES,
    P_TOTAL_HOUSES,
    P_X_HAND,
    P_X_SPECIALS,
    R_DECK_ACT,
    R_DECK_NUM,
    R_PLAN_FIRST,
    R_PLAN_KIND,
    R_PLAN_LATER,
    R_PLAN_PLAIN,
    TIE_SHARED,
)
from welcome_sim.simcore.workspace import new_workspace
from welcome_sim.simcore.zombiedeal import (
    apply_special,
    deal_special_stacks,
    rebuild_special_deck,
    special_cards,
    special_hand_deck,
)
from welcome_sim.strategies.builtin import choose_random
from welcome_sim.strategies.context import (
    CTX_DEAL,
    CTX_FLIPPED,
    CTX_HAND_ACT,
    CTX_HAND_NUM,
    CTX_HAND_SIZE,
    CTX_PLAN,
    CTX_PLAYERS,
    CTX_ROUND,
    CTX_SEAT,
)
from welcome_sim.strategies.dispatch import (
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

# Mixed into a game's seed for the extra cards' stream: the main stream deals as without them.
_EXTRA_STREAM = np.uint64(0x6A09E667F3BCC909)


@kernel
def _x_decisions(R, strats, sprm, sheets, p, phase, ctx, rng, xopt, xlog, rnd, lg) -> None:
    """An expansion's own decisions of seat p (phase 0 after its move, 1 at the round's end after
    the plan validations, 2 when an AAA validation card came up), one after the other until none
    is left: the expansion lists the legal options, the seat's strategy picks one, the expansion
    plays it and names its log row. A function of its own, not inlined: inlined twice into the
    game loop, it made random play of the base game about 10% slower."""
    cells, flags, fences, sc = sheets
    seat = ctx[CTX_SEAT]
    ctx[CTX_SEAT] = p
    while True:
        n = x_options(R, cells, flags, fences, sc, p, phase, xopt)
        if n == 0:
            break
        k = choose_option(strats[p], sprm[p], R, cells, flags, fences, sc, p, ctx, rng, xopt, n, phase)
        x_apply(R, cells, flags, fences, sc, p, phase, xopt[k], xlog)
        if lg.on and xlog[0] >= 0:
            log_row(lg, rnd, p, xlog[0], xlog[1], xlog[2], xlog[3], xlog[4], 0, 0, 0, 0)
    ctx[CTX_SEAT] = seat


@leaf
def _x_events(R, sheets, n_players, when, slot, aaa_n, ev, rnd, lg) -> None:
    """An expansion's public events (Quack: duckling scoring phases; when 0 at a round's end, 1
    for an AAA validation card, 2 at the game's end), settled on every sheet and logged."""
    n = x_events(R, sheets.cells, sheets.sc, n_players, when, slot, aaa_n, ev)
    if lg.on:
        for i in range(n):
            log_row(lg, rnd, ev[i, 1], ev[i, 0], ev[i, 2], ev[i, 3], 0, 0, 0, 0, 0, 0)


@leaf
def _roundabout_reaction(R, sc, p, s, rnd, lg) -> None:
    """An expansion's reaction to a roundabout (Doomsday AAA: a shelter in its street), logged."""
    built = x_roundabout(R, sc, p, s)
    if built >= 0 and lg.on:
        log_row(lg, rnd, -1, LOG_X_SHELTER, s, built, 1, 0, 0, 0, 0, 0)


@inlined
def _set_up(R, seed, n_players, strats, sprm, plans_in, ws, lg) -> None:
    """Before the first round: the workspace reset to what a fresh allocation would hold where
    the game reads it, the plans drawn, the cards dealt, and (Roswell) each player's secret
    set-up objective."""
    cells, flags, fences, sc = ws.sheets
    rng, ctx, plans, piles = ws.rng, ws.ctx, ws.plans, ws.piles
    rng[0] = seed
    rng[1] = seed ^ _EXTRA_STREAM  # where the extra cards go in the deal (9¾ cards)
    deal = R[0, P_DEAL]
    hands = deal != DEAL_STACKS
    n_cards = R[0, P_NCARDS]
    for p in range(n_players):
        reset_player(R, cells, flags, fences, sc, p)
    ws.used[:, :] = 0
    draw_plans(R, rng, plans_in, plans)
    # Context strategies see (strategies/context.py): players, round, plans, flipped, seat, deal, hand.
    ctx[:] = 0
    ctx[CTX_PLAYERS] = n_players
    ctx[CTX_DEAL] = deal
    for slot in range(3):
        ctx[CTX_PLAN + slot] = plans[slot]
    ws.flipped[:] = False
    ws.new_flip[:] = False
    piles.stack_n[:] = 0
    piles.disc_n[:] = 0
    piles.deck_n[0] = 0
    piles.hand_n[:] = 0
    specials = R[0, P_X_SPECIALS] > 0
    if hands and specials:
        # The special cards' random order goes in stack[0], which no hand mode uses otherwise.
        special_hand_deck(R, rng, deal, n_players, piles, lg)
        if deal == DEAL_EXPERT:
            for p in range(n_players):
                piles.deck_n[0] -= 1
                piles.hand[p, 0] = piles.deck[piles.deck_n[0]]
                piles.hand_n[p] = 1
    elif hands:
        setup_hand_deck(R, rng, deal, piles, lg)
        if deal == DEAL_EXPERT:
            for p in range(n_players):
                piles.hand[p, 0] = draw(R, rng, piles, True, 0, lg)
                piles.hand_n[p] = 1
    elif specials:
        deal_special_stacks(R, rng, n_cards, piles, lg)
    else:
        deal_stacks(rng, n_cards, R[0, P_NEXTRA], piles, 0, lg)
    n_objectives = x_objectives(R)
    if n_objectives > 0:
        # Set-up (Roswell): each player secretly circles an objective; none sees another's.
        for p in range(n_players):
            ctx[CTX_SEAT] = p
            k = choose_objective(strats[p], sprm[p], R, cells, flags, fences, sc, p, ctx, rng, n_objectives)
            x_set_objective(R, sc, p, k)
            if lg.on:
                log_row(lg, 0, p, LOG_X_OBJECTIVE, k, 0, 0, 0, 0, 0, 0, 0)
        ctx[CTX_SEAT] = 0
    # Special cards in the first stack (Zombie Outbreak): it is never reshuffled, and its last card
    # flipped ends the game at once.
    ctx[CTX_HAND_SIZE] = R[0, P_X_HAND] if specials and hands else 3


@inlined
def _flip_stacks(R, n_players, strats, sprm, ws, rnd, lg) -> int:
    """A round's cards in the standard deal: each stack's top card shows its action, the next
    card its number. Returns END_STACK when the first stack (Zombie Outbreak) ran out: the game is
    over before this round is played; else 0."""
    piles, cnum, cact, rng = ws.piles, ws.cnum, ws.cact, ws.rng
    stack, stack_n, discard, disc_n = piles.stack, piles.stack_n, piles.discard, piles.disc_n
    specials = R[0, P_X_SPECIALS] > 0
    if specials and rnd == 1:
        # A special card on top at set-up acts before the first flip.
        special_cards(R, strats, sprm, ws, n_players, rnd, lg)
    for i in range(R[0, P_NSTACKS]):
        stack_n[i] -= 1
        card = stack[i, stack_n[i]]
        cact[i] = R[R_DECK_ACT, card]
        if specials and i == 0:
            # Never reshuffled: its flipped cards need no discard pile.
            special_cards(R, strats, sprm, ws, n_players, rnd, lg)
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
            if lg.on:
                for j in range(m):
                    log_row(lg, rnd, -1, LOG_STACK, i, j, stack[i, m - 1 - j], 0, 0, 0, 0, 0)
        discard[i, disc_n[i]] = card
        disc_n[i] += 1
        cnum[i] = R[R_DECK_NUM, stack[i, stack_n[i] - 1]]
    return 0


@inlined
def _fill_hands(R, n_players, strats, sprm, ws, rnd, aaa_n, aaa_plan_pts, special_round, rebuilds, lg):
    """A round's cards in the hand modes: everyone fills a hand before anyone plays; special
    cards (the solo card, the AAA's validation cards, Zombie cards) act at once. Returns (short,
    aaa_n, aaa_plan_pts, special_round, rebuilds): short when the deck cannot fill the hands."""
    piles = ws.piles
    deck_n, hand, hand_n, aaa = piles.deck_n, piles.hand, piles.hand_n, piles.aaa
    deal = R[0, P_DEAL]
    n_cards = R[0, P_NCARDS]
    specials = R[0, P_X_SPECIALS] > 0
    hand_size = R[0, P_X_HAND] if specials else 3
    short = False
    for p in range(n_players):
        while hand_n[p] < hand_size:
            if specials and deal == DEAL_EXPERT and deck_n[0] == 0:
                # The deck is exhausted: rebuilt twice, the third time the game ends.
                if rebuilds == 2:
                    short = True
                    break
                rebuilds += 1
                # The next Zombie card set aside at the deal.
                rebuild_special_deck(R, ws.rng, n_players, piles.stack[0, rebuilds], piles, rnd, lg)
            c = draw(R, ws.rng, piles, deal != DEAL_SOLO_CARD, rnd, lg)
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
                apply_special(R, c, -1, strats, sprm, ws, n_players, rnd, lg)
                continue
            special_round = rnd
            if c - n_cards == SPECIAL_SOLO:
                # Every plan counts as validated by the competition.
                for slot in range(3):
                    ws.flipped[slot] = True
                    ws.ctx[CTX_FLIPPED + slot] = 1
                if lg.on:
                    log_row(lg, rnd, -1, LOG_SOLO_CARD, 0, 0, 0, 0, 0, 0, 0, 0)
            else:
                aaa_plan_pts += _validation_card(R, strats, sprm, ws, n_players, c - n_cards, rnd, aaa_n, lg)
        if short:
            break
    return short, aaa_n, aaa_plan_pts, special_round, rebuilds


@inlined
def _validation_card(R, strats, sprm, ws, n_players, slot, rnd, aaa_n, lg) -> int:
    """An AAA validation card came up (Collector's solo): the AAA validates the plan of its slot
    when its Opponent card says so, and the expansions react. Returns the AAA's plan points."""
    plans, flipped = ws.plans, ws.flipped
    pts = 0
    if (R[0, P_OPP_VALIDATES] >> slot) & 1:
        pts = R[R_PLAN_LATER, plans[slot]] if flipped[slot] else R[R_PLAN_FIRST, plans[slot]]
        flipped[slot] = True
        ws.ctx[CTX_FLIPPED + slot] = 1
        if lg.on:
            log_row(lg, rnd, -1, LOG_AAA_PLAN, slot, pts, plans[slot], 0, 0, 0, 0, 0)
    # Expansions react to every validation card (Ice Cream: a bonus crossed; Doomsday: the AAA
    # builds a shelter).
    sheets = ws.sheets
    crossed = x_validation(R, sheets.cells, sheets.flags, sheets.sc, 0)
    if crossed >= 0 and lg.on:
        log_row(lg, rnd, 0, LOG_X_CROSS, crossed, 0, 0, 0, 0, 0, 0, 0)
    built = x_aaa_reacts(R, sheets.sc, slot, ws.piles.aaa, aaa_n)
    if built >= 0 and lg.on:
        log_row(lg, rnd, -1, LOG_X_SHELTER, slot, built, 0, 0, 0, 0, 0, 0)
    x_validation_card(R, sheets.sc, 0, slot)
    # Quack: the AAA's validation card may trigger a scoring phase, at once.
    _x_events(R, sheets, n_players, 1, slot, aaa_n, ws.xopt, rnd, lg)
    if x_decides(R):
        # What the card makes the player decide (American Dream: the bonuses crossed), phase 2.
        _x_decisions(R, strats, sprm, sheets, 0, 2, ws.ctx, ws.rng, ws.xopt, ws.xlog, rnd, lg)
    return pts


@inlined
def _turn(R, p, strats, sprm, ws, rnd, lg) -> None:
    """Seat p's turn: a roundabout before the move (Advanced mode), the move, what it makes the
    player decide (the expansions), a roundabout after the move."""
    cells, flags, fences, sc = ws.sheets
    ctx, cnum, cact, rng, mv, lo, hi, rbm = ws.ctx, ws.cnum, ws.cact, ws.rng, ws.mv, ws.lo, ws.hi, ws.rbm
    ctx[CTX_SEAT] = p
    if R[0, P_DEAL] != DEAL_STACKS:
        hand = ws.piles.hand
        hand_size = R[0, P_X_HAND] if R[0, P_X_SPECIALS] > 0 else 3
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
    # Advanced mode: a roundabout may go in first (it can make a number fit), or after the move
    # (below), one a round at most.
    rb_max = R[0, P_RB_MAX]
    rb_now = False
    if rb_max > 0 and sc[p, SC_ROUNDABOUTS] < rb_max:
        street_bounds(R, cells, p, lo, hi)
        rbm[0] = -1
        rbm[1] = -1
        choose_roundabout(
            strats[p], sprm[p], R, cells, flags, fences, sc, p, ctx, cnum, cact, rng, lo, hi, rbm
        )
        if rbm[0] >= 0 and roundabout_ok(R, cells, sc, p, rbm[0], rbm[1]):
            place_roundabout(cells, fences, sc, p, rbm[0], rbm[1])
            rb_now = True
            if lg.on:
                log_row(lg, rnd, p, LOG_ROUNDABOUT, rbm[0], rbm[1], 0, 0, 0, 0, 0, 0)
            _roundabout_reaction(R, sc, p, rbm[0], rnd, lg)
    street_bounds(R, cells, p, lo, hi)
    if x_any(R):
        x_bounds(R, cells, flags, p, lo, hi)
    if ONLY_GREEDY == 0 and strats[p] == RANDOM:
        # Straight to the random player's leaf (what choose_move would call): through the
        # dispatcher, a kernel that reference-counts its dozen array arguments with atomic
        # operations, the call cost more than the random choice itself.
        choose_random(R, cells, flags, fences, sc, p, cnum, cact, rng, mv, lo, hi)
    else:
        choose_move(strats[p], sprm[p], R, cells, flags, fences, sc, p, ctx, cnum, cact, rng, mv, lo, hi)
    if mv[0] < 0:
        sc[p, SC_REFUSALS] += 1
    else:
        apply_move(R, cells, flags, fences, sc, p, mv)
        x_on_move(R, cells, flags, sc, p, mv)
        x_on_action(R, cells, flags, sc, p, mv[1], mv[2], cact[mv[0]], 1)
        if x_side_pending(R, sc, p, mv[1]):
            # First-edition Ice Cream: the player chooses where the truck starts when first
            # numbering a house in its street (an extension never numbers a street first).
            side = choose_side(
                strats[p], sprm[p], R, cells, flags, fences, sc, p, ctx, cnum, cact, rng, lo, hi, mv[1]
            )
            x_set_side(R, sc, p, mv[1], side)
            if lg.on:
                log_row(lg, rnd, p, LOG_X_SIDE, mv[1], side, 0, 0, 0, 0, 0, 0)
        x_on_number(R, cells, flags, sc, p, mv[1], mv[2])
        if mv[4] == EXTENSION:
            x_on_number(R, cells, flags, sc, p, mv[5], mv[7])
    if lg.on:
        log_row(lg, rnd, p, LOG_MOVE, mv[0], mv[1], mv[2], mv[3], mv[4], mv[5], mv[6], mv[7])
    if mv[0] >= 0 and x_decides(R):
        # The expansion's decisions the move calls for (Halloween: ghost or candy).
        _x_decisions(R, strats, sprm, ws.sheets, p, 0, ctx, rng, ws.xopt, ws.xlog, rnd, lg)
    # Advanced mode: "at any time during a round", so also after the move (before this round's
    # plan validation: its fences can close an estate a plan needs). The rules grant "a
    # roundabout" in addition to the house and the action: one a round.
    if rb_max > 0 and not rb_now and sc[p, SC_ROUNDABOUTS] < rb_max:
        rbm[0] = -1
        rbm[1] = -1
        choose_roundabout_after(
            strats[p], sprm[p], R, cells, flags, fences, sc, p, ctx, cnum, cact, rng, lo, hi, mv, rbm
        )
        if rbm[0] >= 0 and roundabout_ok(R, cells, sc, p, rbm[0], rbm[1]):
            place_roundabout(cells, fences, sc, p, rbm[0], rbm[1])
            if lg.on:
                log_row(lg, rnd, p, LOG_ROUNDABOUT, rbm[0], rbm[1], 1, 0, 0, 0, 0, 0)
            _roundabout_reaction(R, sc, p, rbm[0], rnd, lg)


@inlined
def _pass_on(R, p, n_players, strats, sprm, ws, rnd, aaa_n, lg) -> int:
    """Hand modes, after seat p's turn: the two cards used go to the discard pile, the third is
    passed on (expert), given to the AAA (solo) or discarded; on a refusal the player chooses
    which of the three. Returns the AAA's card count."""
    cells, flags, fences, sc = ws.sheets
    piles, mv = ws.piles, ws.mv
    discard, disc_n, hand, hand_n = piles.discard, piles.disc_n, piles.hand, piles.hand_n
    deal = R[0, P_DEAL]
    hand_size = R[0, P_X_HAND] if R[0, P_X_SPECIALS] > 0 else 3
    to = -2
    if deal == DEAL_EXPERT:
        to = (p + R[0, P_PASS_DIR] + n_players) % n_players
    elif deal == DEAL_AAA:
        to = -1
    if mv[0] >= 0 and hand_size == 3:
        third = 3 - COMBO_NUM[mv[0]] - COMBO_ACT[mv[0]]
    else:
        # A refusal, or two cards both used: the player chooses the card passed on.
        third = choose_pass(
            strats[p],
            sprm[p],
            R,
            cells,
            flags,
            fences,
            sc,
            p,
            ws.ctx,
            ws.cnum,
            ws.cact,
            ws.rng,
            ws.lo,
            ws.hi,
            to,
        )
    for i in range(hand_size):
        if i != third:
            discard[0, disc_n[0]] = hand[p, i]
            disc_n[0] += 1
    card = hand[p, third]
    if deal == DEAL_EXPERT:
        piles.pending[to] = card
    elif deal == DEAL_AAA:
        piles.aaa[aaa_n] = card
        aaa_n += 1
    else:
        discard[0, disc_n[0]] = card
        disc_n[0] += 1
    hand_n[p] = 0
    if lg.on:
        log_row(lg, rnd, p, LOG_PASS, card, to, 0, 0, 0, 0, 0, 0)
    return aaa_n


@inlined
def _validate_plans(R, n_players, strats, sprm, ws, rnd, lg) -> None:
    """Plan validation at the round's end; everyone validating in this round scores the value
    shown, and the plans validated are flipped after."""
    cells, flags, fences, sc = ws.sheets
    ctx, counts, used, plans, flipped, new_flip = (
        ws.ctx,
        ws.counts,
        ws.used,
        ws.plans,
        ws.flipped,
        ws.new_flip,
    )
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
            if not wants_validation(strats[p], sprm[p], R, cells, flags, fences, sc, p, ctx, slot):
                continue
            n_used = plan_check(R, cells, flags, fences, sc, p, k, True, used)
            estate_counts(R, cells, flags, fences, p, counts, True)
            score = R[R_PLAN_LATER, k] if flipped[slot] else R[R_PLAN_FIRST, k]
            sc[p, SC_PLAN_ROUND + slot] = rnd
            sc[p, SC_PLAN_SCORE + slot] = score
            sc[p, SC_PLAN_FIRST + slot] = 0 if flipped[slot] else 1
            new_flip[slot] = True
            if lg.on:
                houses = 0 if R[R_PLAN_KIND, k] == 0 else 1
                for u in range(n_used):
                    log_row(
                        lg, rnd, p, LOG_PLAN, slot, k, used[u, 0], used[u, 1], used[u, 2], score, houses, 0
                    )
                if n_used == 0:
                    log_row(lg, rnd, p, LOG_PLAN, slot, k, -1, -1, -1, score, 0, 0)
    for slot in range(3):
        if new_flip[slot]:
            flipped[slot] = True
            ctx[CTX_FLIPPED + slot] = 1


@inlined
def _round_end(R, n_players, strats, sprm, ws, rnd, aaa_n, reshuffle_offer, lg):
    """After the validations: the expansion's round-end decisions and events, the end conditions,
    and (first edition) the reshuffle offer. Returns (end, reshuffle_offer): end's END_* bits, 0
    when the game goes on."""
    sheets = ws.sheets
    sc = sheets.sc
    if x_decides(R):
        # Every player decides from the round's own sheet: x_round_end settles what the others
        # see of it (Halloween: levels claimed now are crossed on the other sheets) afterwards.
        for p in range(n_players):
            _x_decisions(R, strats, sprm, sheets, p, 1, ws.ctx, ws.rng, ws.xopt, ws.xlog, rnd, lg)
    if x_any(R):
        x_round_end(R, sc, n_players)
        _x_events(R, sheets, n_players, 0, -1, aaa_n, ws.xopt, rnd, lg)
    # End of round: all three plans, the last refusal box, every house numbered (or a
    # roundabout), or (first-edition solo) the deck ran out.
    max_ref = R[0, P_MAX_REFUSALS]
    total_houses = R[0, P_TOTAL_HOUSES]
    end = 0
    for p in range(n_players):
        if sc[p, SC_PLAN_ROUND] > 0 and sc[p, SC_PLAN_ROUND + 1] > 0 and sc[p, SC_PLAN_ROUND + 2] > 0:
            end |= END_PLANS
        if sc[p, SC_REFUSALS] >= max_ref:
            end |= END_REFUSALS
        if sc[p, SC_NUMBERED] + sc[p, SC_ROUNDABOUTS] + sc[p, SC_SEALED] >= total_houses:
            end |= END_FULL
    piles = ws.piles
    if R[0, P_DEAL] == DEAL_SOLO_CARD:
        # The deck is exhausted when it cannot fill another hand (the solo card may be last).
        left = 0
        for j in range(piles.deck_n[0]):
            if piles.deck[j] < R[0, P_NCARDS]:
                left += 1
        if left < 3:
            end |= END_DECK
    if end == 0 and rnd >= total_houses + max_ref + 1:
        end = END_ROUND_CAP
    new_flip = ws.new_flip
    # No offer when the game has just ended: there is no "suite de la partie" to deal.
    if reshuffle_offer and end == 0 and (new_flip[0] or new_flip[1] or new_flip[2]):
        reshuffle_offer = False
        # Asked in seat order among this round's validators; the first who accepts reshuffles.
        for p in range(n_players):
            mine = False
            for slot in range(3):
                if sc[p, SC_PLAN_ROUND + slot] == rnd:
                    mine = True
            ws.ctx[CTX_SEAT] = p
            if mine and wants_reshuffle(
                strats[p],
                sprm[p],
                R,
                sheets.cells,
                sheets.flags,
                sheets.fences,
                sc,
                p,
                ws.ctx,
                piles.stack,
                piles.stack_n,
                ws.rng,
            ):
                if lg.on:
                    log_row(lg, rnd, p, LOG_RESHUFFLE, p, 0, 0, 0, 0, 0, 0, 0)
                deal_stacks(ws.rng, R[0, P_NCARDS], 0, piles, rnd, lg)
                break
    return end, reshuffle_offer


@inlined
def _score_game(R, n_players, ws, out, out_g, rnd, end, aaa_n, aaa_plan_pts, special_round, lg) -> None:
    """After the last round: what the expansion scores at the game's end, the score cards, the
    game's record (rounds, end, invariants, plans) and, in AAA solo mode, the AAA's score."""
    cells, flags, fences, sc = ws.sheets
    piles, temp_pts = ws.piles, ws.temp_pts
    g = lg.g
    deal = R[0, P_DEAL]
    # What the expansion scores at the game's end, before the score cards (Quack: the phases
    # never triggered).
    if x_any(R):
        _x_events(R, ws.sheets, n_players, 2, -1, aaa_n, ws.xopt, rnd, lg)
    if lg.on:
        log_row(lg, rnd, -1, LOG_END, end, 0, 0, 0, 0, 0, 0, 0)
    if end == END_STACK:
        rnd -= 1  # the round the first stack ran out in was not played
    aaa_temps = aaa_temp_cards(R, piles.aaa, aaa_n) if deal == DEAL_AAA else -1
    score_table_into(R, cells, flags, fences, sc, n_players, out[g], aaa_temps, ws.counts, ws.temps, temp_pts)
    out_g[g, G_ROUNDS] = rnd
    out_g[g, G_END] = end
    out_g[g, G_CHECK] = end_check(
        sc,
        n_players,
        end,
        R[0, P_MAX_REFUSALS],
        R[0, P_TOTAL_HOUSES],
        deal == DEAL_SOLO_CARD or (R[0, P_X_SPECIALS] > 0 and deal == DEAL_EXPERT),
    )
    out_g[g, G_SPECIAL_ROUND] = special_round
    for slot in range(3):
        out_g[g, G_PLAN + slot] = ws.plans[slot]
    if deal == DEAL_AAA:
        solo_temp_points(R, sc[0, SC_TEMPS], aaa_temps, temp_pts)
        aaa_score(R, piles.aaa, aaa_n, aaa_plan_pts, temp_pts[1], out_g[g])
        x_aaa(R, cells, piles.aaa, aaa_n, sc, out_g[g])
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


@inlined
def play_game(R, seed, n_players, strats, sprm, plans_in, out, out_g, ws, lg) -> None:
    """Play one game; write results for game lg.g. ws: new_workspace(R, n_players), whose arrays
    are reset by the set-up. (Not a leaf: Numba compiles what a leaf calls without reference
    counting too, and the strategies it dispatches to allocate. Inlined into play_batch, its only
    caller: one module to optimize instead of two, and random games 1.2x faster.)"""
    _set_up(R, seed, n_players, strats, sprm, plans_in, ws, lg)
    deal = R[0, P_DEAL]
    hands = deal != DEAL_STACKS
    # First edition: the reshuffle is offered once, in the first round anyone validates a plan.
    reshuffle_offer = R[0, P_RESHUFFLE] == 1
    aaa_n = 0  # cards given to the AAA
    aaa_plan_pts = 0
    special_round = 0
    rebuilds = 0  # expert mode with special cards: decks rebuilt so far
    rnd = 0
    end = 0
    while end == 0:
        rnd += 1
        ws.ctx[CTX_ROUND] = rnd
        if not hands:
            end = _flip_stacks(R, n_players, strats, sprm, ws, rnd, lg)
            if end != 0:
                # The first stack ran out: the game is over before this round is played.
                break
        else:
            short, aaa_n, aaa_plan_pts, special_round, rebuilds = _fill_hands(
                R, n_players, strats, sprm, ws, rnd, aaa_n, aaa_plan_pts, special_round, rebuilds, lg
            )
            if short:
                # The first edition's solo deck runs out (it never does mid-round with a deck of a
                # multiple of three cards), or an expert deck with special cards the third time:
                # the game ends before this round.
                rnd -= 1
                end = END_DECK
                break
        for p in range(n_players):
            _turn(R, p, strats, sprm, ws, rnd, lg)
            if hands:
                aaa_n = _pass_on(R, p, n_players, strats, sprm, ws, rnd, aaa_n, lg)
        if deal == DEAL_EXPERT:
            for p in range(n_players):
                ws.piles.hand[p, 0] = ws.piles.pending[p]
                ws.piles.hand_n[p] = 1
        _validate_plans(R, n_players, strats, sprm, ws, rnd, lg)
        end, reshuffle_offer = _round_end(R, n_players, strats, sprm, ws, rnd, aaa_n, reshuffle_offer, lg)
    _score_game(R, n_players, ws, out, out_g, rnd, end, aaa_n, aaa_plan_pts, special_round, lg)


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
        play_game(
            R, seeds[g], n_players, strats, sprm, plans_in[g], out, out_g, ws, GameLog(log, logn, do_log, g)
        )


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
