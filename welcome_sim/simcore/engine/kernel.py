"""The compiled game loop: plays a batch of games in any mode and returns columnar arrays.

One call plays many games (`play_batch`); each game has its own uint64 seed, so results do not
depend on how games are split into batches. With logging on, every deal, move and plan
validation is written as int32 rows (layout.py: LOG_*) for the referee and `welcome-sim play`.

Deals (ruleset P_DEAL; engine/deal.py, Zombie Outbreak's in zombiedeal.py): three shared stacks (standard and Advanced mode); hands of three with the
third card passed on (expert); hands of three with the third card given to the AAA and its
validation cards in the deck (Collector's solo); hands of three with the solo card in the lower
half of the deck (first edition's solo variant). Advanced mode adds roundabouts to any of them.
"""

from __future__ import annotations

import numpy as np

from welcome_sim.simcore.engine.deal import _deal_stacks, _draw, _draw_plans, _setup_hand_deck
from welcome_sim.simcore.engine.gamelog import _log
from welcome_sim.simcore.engine.steps import (
    _roundabout_reaction,
    _x_decisions,
    _x_events,
    end_check,
    new_workspace,
)
from welcome_sim.simcore.engine.zombiedeal import (
    _apply_special,
    _deal_special_stacks,
    _rebuild_special_deck,
    _special_cards,
    _special_hand_deck,
)
from welcome_sim.simcore.ground.features import ONLY_GREEDY
from welcome_sim.simcore.ground.jit import inlined, kernel
from welcome_sim.simcore.ground.layout import (
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
from welcome_sim.simcore.ground.rng import shuffle
from welcome_sim.simcore.ground.table import (
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
from welcome_sim.simcore.rules.aaa import aaa_score, aaa_temp_cards
from welcome_sim.simcore.rules.expansions.hooks import (
    x_aaa,
    x_aaa_reacts,
    x_any,
    x_bounds,
    x_decides,
    x_objectives,
    x_on_action,
    x_on_move,
    x_on_number,
    x_round_end,
    x_set_objective,
    x_set_side,
    x_side_pending,
    x_validation,
    x_validation_card,
)
from welcome_sim.simcore.rules.plans import counts_meet, plan_check
from welcome_sim.simcore.rules.scoring import score_table_into, solo_temp_points
from welcome_sim.simcore.rules.sheetops import (
    Sheets,
    apply_move,
    estate_counts,
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
    CTX_PLAN,
    CTX_PLAYERS,
    CTX_ROUND,
    CTX_SEAT,
    Offer,
)
from welcome_sim.strategies.dispatch import (
    choose_move,
    choose_objective,
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
