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

from welcome_sim.simcore.engine.bundles import Batch, GameState, Piles, Seats
from welcome_sim.simcore.engine.cards import (
    DECK_OUT,
    deal_game,
    fill_hands,
    flip_stacks,
    hand_size,
    reset_game,
    validation_card,
)
from welcome_sim.simcore.engine.gamelog import GameLog
from welcome_sim.simcore.engine.phases import end_round, finish_game, pass_card, take_turn, validate_plans
from welcome_sim.simcore.engine.steps import new_workspace
from welcome_sim.simcore.ground.jit import inlined, kernel
from welcome_sim.simcore.ground.layout import END_DECK
from welcome_sim.simcore.ground.table import (
    DEAL_EXPERT,
    DEAL_STACKS,
    P_DEAL,
    P_MAX_REFUSALS,
    P_NCARDS,
    P_RESHUFFLE,
    P_TOTAL_HOUSES,
    P_X_SPECIALS,
)
from welcome_sim.simcore.rules.sheetops import Sheets
from welcome_sim.strategies.context import CTX_HAND_SIZE, CTX_ROUND, Offer
from welcome_sim.strategies.greedy_layout import new_workspace as new_greedy_workspace


@inlined
def play_game(R, g, batch, seats, sh, offer, piles, state, log_of) -> None:
    """Play game g of the batch and write its results. The bundles (engine/bundles.py) hold the
    batch's workspace, reset here to what a fresh allocation would hold where the game reads it;
    log_of: the batch's GameLog (its g is this game's). (Not a leaf: Numba compiles what a leaf
    calls without reference counting too, and the strategies it dispatches to allocate. Inlined
    into play_batch, its only caller: one module to optimize instead of two.)"""
    lg = GameLog(log_of.do_log, log_of.log, log_of.logn, g)
    ctx = seats.ctx
    hand = piles.hand
    hand_n = piles.hand_n
    pending = piles.pending
    reset_game(R, g, batch, seats, sh, offer, piles, state)
    deal_game(R, seats, sh, offer, piles, lg)
    deal = R[0, P_DEAL]
    hands = deal != DEAL_STACKS
    ctx[CTX_HAND_SIZE] = hand_size(R)
    # First edition: the reshuffle is offered once, in the first round anyone validates a plan.
    reshuffle_offer = R[0, P_RESHUFFLE] == 1
    rnd = 0
    end = 0
    while end == 0:
        rnd += 1
        ctx[CTX_ROUND] = rnd
        if not hands:
            end = flip_stacks(R, seats, sh, offer, piles, rnd, lg)
            if end != 0:
                # The first stack ran out: the game is over before this round is played.
                break
        else:
            # Everyone fills a hand before anyone plays; a validation or solo card drawn is
            # settled at once, then the filling goes on.
            while True:
                card = fill_hands(R, seats, sh, offer, piles, state, rnd, lg)
                if card < 0:
                    break
                validation_card(R, card, seats, sh, offer, state, rnd, lg)
            if card == DECK_OUT:
                # The first edition's solo deck runs out (it never does mid-round with a deck of a
                # multiple of three cards), or an expert deck with special cards the third time:
                # the game ends before this round.
                rnd -= 1
                end = END_DECK
                break
        for p in range(seats.n_players):
            take_turn(R, seats, sh, offer, p, piles, state, rnd, lg)
            if hands:
                pass_card(R, seats, sh, offer, p, piles, state, rnd, lg)
        if deal == DEAL_EXPERT:
            for p in range(seats.n_players):
                hand[p, 0] = pending[p]
                hand_n[p] = 1
        validate_plans(R, seats, sh, state, rnd, lg)
        end, reshuffle_offer = end_round(R, seats, sh, offer, piles, state, reshuffle_offer, rnd, lg)
    finish_game(R, seats, sh, batch, state, rnd, end, lg)


@kernel
def play_batch(R, seeds, n_players, strats, sprm, plans_in, out, out_g, do_log, log, logn) -> None:
    """Play len(seeds) games; plans_in[g] holds plan ids per slot (-1 = draw at random)."""
    # The workspace, allocated once, and its bundles, made once: a phase's field reads are these
    # variables (simcore/ground/inlinefields.py), and the bundles' reference counts are paid once
    # a batch rather than once a game.
    (
        rng, cells, flags, fences, sc, lo, hi, mv, rbm, counts, used, plans, ctx, cnum, cact, flipped,
        new_flip, stack, stack_n, discard, disc_n, deck, deck_n, hand, hand_n, pending, aaa, order,
        scratch, xdec,
    ) = new_workspace(R, n_players)  # fmt: skip
    temp_pts, temps, st = scratch
    xopt, xlog = xdec
    batch = Batch(seeds, plans_in, out, out_g)
    seats = Seats(strats, sprm, ctx, n_players)
    sh = Sheets(cells, flags, fences, sc)
    offer = Offer(cnum, cact, rng, lo, hi, mv, new_greedy_workspace(R))
    piles = Piles(stack, stack_n, discard, disc_n, deck, deck_n, hand, hand_n, pending, order)
    xdec2 = (xopt, xlog)
    state = GameState(plans, flipped, new_flip, counts, used, st, aaa, rbm, xdec2, temps, temp_pts)
    log_of = GameLog(do_log, log, logn, 0)
    for g in range(seeds.shape[0]):
        play_game(R, g, batch, seats, sh, offer, piles, state, log_of)


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
