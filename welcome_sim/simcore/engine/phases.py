"""The phases of a round and of the game's end (kernel.play_game calls them): a player's turn, the
card passed on in a hand mode, plan validation, the round's end and the final scoring.

Inlined into the game loop and taking the workspace's arrays one by one, as the card phases do
(engine/cards.py says why)."""

from __future__ import annotations

from welcome_sim.simcore.engine.cards import hand_size
from welcome_sim.simcore.engine.deal import _deal_stacks
from welcome_sim.simcore.engine.gamelog import _log
from welcome_sim.simcore.engine.steps import (
    ST_AAA_N,
    ST_AAA_PLAN_PTS,
    ST_SPECIAL_ROUND,
    _roundabout_reaction,
    _x_decisions,
    _x_events,
    end_check,
)
from welcome_sim.simcore.ground.features import ONLY_GREEDY
from welcome_sim.simcore.ground.jit import inlined
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
    LOG_END,
    LOG_MOVE,
    LOG_PASS,
    LOG_PLAN,
    LOG_RESHUFFLE,
    LOG_ROUNDABOUT,
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
)
from welcome_sim.simcore.ground.table import (
    DEAL_AAA,
    DEAL_EXPERT,
    DEAL_SOLO_CARD,
    DEAL_STACKS,
    P_DEAL,
    P_MAX_REFUSALS,
    P_NCARDS,
    P_OPP_SCORES,
    P_PASS_DIR,
    P_RB_MAX,
    P_TIEBREAK_SIZES,
    P_TOTAL_HOUSES,
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
    x_any,
    x_bounds,
    x_decides,
    x_on_action,
    x_on_move,
    x_on_number,
    x_round_end,
    x_set_side,
    x_side_pending,
)
from welcome_sim.simcore.rules.plans import counts_meet, plan_check
from welcome_sim.simcore.rules.scoring import score_table_into, solo_temp_points
from welcome_sim.simcore.rules.sheetops import (
    apply_move,
    estate_counts,
    place_roundabout,
    roundabout_ok,
    street_bounds,
)
from welcome_sim.strategies.builtin import choose_random
from welcome_sim.strategies.context import CTX_FLIPPED, CTX_HAND_ACT, CTX_HAND_NUM, CTX_SEAT
from welcome_sim.strategies.dispatch import (
    choose_move,
    choose_pass,
    choose_roundabout,
    choose_roundabout_after,
    choose_side,
    wants_reshuffle,
    wants_validation,
)
from welcome_sim.strategies.registry import RANDOM


@inlined
def take_turn(R, seats, sh, offer, p, piles, state, rnd, lg) -> None:
    """Seat p's turn: its combinations (a hand mode), a roundabout before or after (Advanced mode),
    its move or a refusal, and what the move makes the expansion ask of it."""
    strats = seats.strats
    sprm = seats.sprm
    ctx = seats.ctx
    cells = sh.cells
    flags = sh.flags
    fences = sh.fences
    sc = sh.sc
    cnum = offer.cnum
    cact = offer.cact
    lo = offer.lo
    hi = offer.hi
    mv = offer.mv
    hand = piles.hand
    rbm = state.rbm
    ctx[CTX_SEAT] = p
    if R[0, P_DEAL] != DEAL_STACKS:
        size = hand_size(R)
        for i in range(size):
            ctx[CTX_HAND_NUM + i] = R[R_DECK_NUM, hand[p, i]]
            ctx[CTX_HAND_ACT + i] = R[R_DECK_ACT, hand[p, i]]
        if size == 2:
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
        choose_roundabout(strats[p], sprm[p], R, sh, p, ctx, offer, rbm)
        if rbm[0] >= 0 and roundabout_ok(R, cells, sc, p, rbm[0], rbm[1]):
            place_roundabout(cells, fences, sc, p, rbm[0], rbm[1])
            rb_now = True
            if lg.do_log:
                _log(lg, rnd, p, LOG_ROUNDABOUT, rbm[0], rbm[1], 0, 0, 0, 0, 0, 0)
            _roundabout_reaction(R, sc, p, rbm[0], rnd, lg)
    street_bounds(R, cells, p, lo, hi)
    if x_any(R):
        x_bounds(R, cells, flags, p, lo, hi)
    if ONLY_GREEDY == 0 and strats[p] == RANDOM:
        # Straight to the random player's leaf (what choose_move would call): through the
        # dispatcher, a kernel that reference-counts its dozen array arguments with atomic
        # operations, the call cost more than the random choice itself.
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
            if lg.do_log:
                _log(lg, rnd, p, LOG_X_SIDE, mv[1], side, 0, 0, 0, 0, 0, 0)
        x_on_number(R, cells, flags, sc, p, mv[1], mv[2])
        if mv[4] == EXTENSION:
            x_on_number(R, cells, flags, sc, p, mv[5], mv[7])
    if lg.do_log:
        _log(lg, rnd, p, LOG_MOVE, mv[0], mv[1], mv[2], mv[3], mv[4], mv[5], mv[6], mv[7])
    if mv[0] >= 0 and x_decides(R):
        # The expansion's decisions the move calls for (Halloween: ghost or candy).
        _x_decisions(R, seats, sh, p, 0, offer.rng, state.xdec, rnd, lg)
    # Advanced mode: "at any time during a round", so also after the move (before this round's
    # plan validation: its fences can close an estate a plan needs). The rules grant "a
    # roundabout" in addition to the house and the action: one a round.
    if rb_max > 0 and not rb_now and sc[p, SC_ROUNDABOUTS] < rb_max:
        rbm[0] = -1
        rbm[1] = -1
        choose_roundabout_after(strats[p], sprm[p], R, sh, p, ctx, offer, rbm)
        if rbm[0] >= 0 and roundabout_ok(R, cells, sc, p, rbm[0], rbm[1]):
            place_roundabout(cells, fences, sc, p, rbm[0], rbm[1])
            if lg.do_log:
                _log(lg, rnd, p, LOG_ROUNDABOUT, rbm[0], rbm[1], 1, 0, 0, 0, 0, 0)
            _roundabout_reaction(R, sc, p, rbm[0], rnd, lg)


@inlined
def pass_card(R, seats, sh, offer, p, piles, state, rnd, lg) -> None:
    """A hand mode after seat p's turn: the two cards used go to the discard pile, the third is
    passed on (expert: to a neighbour; Collector's solo: to the AAA); on a refusal, or with two
    cards both used, the player chooses which."""
    n_players = seats.n_players
    strats = seats.strats
    sprm = seats.sprm
    ctx = seats.ctx
    mv = offer.mv
    hand = piles.hand
    hand_n = piles.hand_n
    discard = piles.discard
    disc_n = piles.disc_n
    pending = piles.pending
    aaa = state.aaa
    st = state.st
    deal = R[0, P_DEAL]
    size = hand_size(R)
    to = -2
    if deal == DEAL_EXPERT:
        to = (p + R[0, P_PASS_DIR] + n_players) % n_players
    elif deal == DEAL_AAA:
        to = -1
    if mv[0] >= 0 and size == 3:
        third = 3 - COMBO_NUM[mv[0]] - COMBO_ACT[mv[0]]
    else:
        third = choose_pass(strats[p], sprm[p], R, sh, p, ctx, offer, to)
    for i in range(size):
        if i != third:
            discard[0, disc_n[0]] = hand[p, i]
            disc_n[0] += 1
    card = hand[p, third]
    if deal == DEAL_EXPERT:
        pending[to] = card
    elif deal == DEAL_AAA:
        aaa[st[ST_AAA_N]] = card
        st[ST_AAA_N] += 1
    else:
        discard[0, disc_n[0]] = card
        disc_n[0] += 1
    hand_n[p] = 0
    if lg.do_log:
        _log(lg, rnd, p, LOG_PASS, card, to, 0, 0, 0, 0, 0, 0)


@inlined
def validate_plans(R, seats, sh, state, rnd, lg) -> None:
    """Plan validation at the round's end; everyone validating in this round scores the value shown,
    and the plans validated turn over afterwards."""
    n_players = seats.n_players
    strats = seats.strats
    sprm = seats.sprm
    ctx = seats.ctx
    cells = sh.cells
    flags = sh.flags
    fences = sh.fences
    sc = sh.sc
    plans = state.plans
    flipped = state.flipped
    new_flip = state.new_flip
    counts = state.counts
    used = state.used
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
            if lg.do_log:
                houses = 0 if R[R_PLAN_KIND, k] == 0 else 1
                for u in range(n_used):
                    _log(lg, rnd, p, LOG_PLAN, slot, k, used[u, 0], used[u, 1], used[u, 2], score, houses, 0)
                if n_used == 0:
                    _log(lg, rnd, p, LOG_PLAN, slot, k, -1, -1, -1, score, 0, 0)
    for slot in range(3):
        if new_flip[slot]:
            flipped[slot] = True
            ctx[CTX_FLIPPED + slot] = 1


@inlined
def end_round(R, seats, sh, offer, piles, state, reshuffle_offer, rnd, lg) -> tuple[int, bool]:
    """The round's end: the expansion's decisions and events, the end conditions, and (first
    edition) the reshuffle offered. Returns the game's end bits (0: it goes on) and whether the
    reshuffle is still to be offered."""
    n_players = seats.n_players
    strats = seats.strats
    sprm = seats.sprm
    ctx = seats.ctx
    sc = sh.sc
    rng = offer.rng
    xdec = state.xdec
    deck = piles.deck
    deck_n = piles.deck_n
    stack = piles.stack
    stack_n = piles.stack_n
    new_flip = state.new_flip
    if x_decides(R):
        # Every player decides from the round's own sheet: x_round_end settles what the others
        # see of it (Halloween: levels claimed now are crossed on the other sheets) afterwards.
        for p in range(n_players):
            _x_decisions(R, seats, sh, p, 1, rng, xdec, rnd, lg)
    if x_any(R):
        x_round_end(R, sc, n_players)
        _x_events(R, sh, n_players, 0, -1, state.st[ST_AAA_N], xdec[0], rnd, lg)
    # End of round: all three plans, the last refusal box, every house numbered (or a
    # roundabout), or (first-edition solo) the deck ran out.
    max_ref = R[0, P_MAX_REFUSALS]
    end = 0
    for p in range(n_players):
        if sc[p, SC_PLAN_ROUND] > 0 and sc[p, SC_PLAN_ROUND + 1] > 0 and sc[p, SC_PLAN_ROUND + 2] > 0:
            end |= END_PLANS
        if sc[p, SC_REFUSALS] >= max_ref:
            end |= END_REFUSALS
        if sc[p, SC_NUMBERED] + sc[p, SC_ROUNDABOUTS] + sc[p, SC_SEALED] >= R[0, P_TOTAL_HOUSES]:
            end |= END_FULL
    n_cards = R[0, P_NCARDS]
    if R[0, P_DEAL] == DEAL_SOLO_CARD:
        # The deck is exhausted when it cannot fill another hand (the solo card may be last).
        left = 0
        for j in range(deck_n[0]):
            if deck[j] < n_cards:
                left += 1
        if left < 3:
            end |= END_DECK
    if end == 0 and rnd >= R[0, P_TOTAL_HOUSES] + max_ref + 1:
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
                if lg.do_log:
                    _log(lg, rnd, p, LOG_RESHUFFLE, p, 0, 0, 0, 0, 0, 0, 0)
                _deal_stacks(rng, n_cards, 0, piles.order, stack, stack_n, piles.disc_n, rnd, lg)
                break
    return end, reshuffle_offer


@inlined
def finish_game(R, seats, sh, batch, state, rnd, end, lg) -> None:
    """The game's end: what the expansion scores then, the score table, the game's columns, and
    with an AAA its score and who won."""
    n_players = seats.n_players
    cells = sh.cells
    sc = sh.sc
    out = batch.out
    out_g = batch.out_g
    st = state.st
    aaa = state.aaa
    plans = state.plans
    temp_pts = state.temp_pts
    g = lg.g
    deal = R[0, P_DEAL]
    aaa_n = st[ST_AAA_N]
    # What the expansion scores at the game's end, before the score cards (Quack: the phases
    # never triggered).
    if x_any(R):
        _x_events(R, sh, n_players, 2, -1, aaa_n, state.xdec[0], rnd, lg)
    if lg.do_log:
        _log(lg, rnd, -1, LOG_END, end, 0, 0, 0, 0, 0, 0, 0)
    if end == END_STACK:
        rnd -= 1  # the round the first stack ran out in was not played
    aaa_temps = aaa_temp_cards(R, aaa, aaa_n) if deal == DEAL_AAA else -1
    score_table_into(R, sh, n_players, out[g], aaa_temps, (state.counts, state.temps, temp_pts))
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
    out_g[g, G_SPECIAL_ROUND] = st[ST_SPECIAL_ROUND]
    for slot in range(3):
        out_g[g, G_PLAN + slot] = plans[slot]
    if deal == DEAL_AAA:
        solo_temp_points(R, sc[0, SC_TEMPS], aaa_temps, temp_pts)
        aaa_score(R, aaa, aaa_n, st[ST_AAA_PLAN_PTS], temp_pts[1], out_g[g])
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
