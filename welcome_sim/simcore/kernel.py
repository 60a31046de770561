"""The compiled game loop: plays a batch of games of the base rules and returns columnar arrays.

One call plays many games (`play_batch`); each game has its own uint64 seed, so results do not
depend on how games are split into batches. With logging on, every deal, move and plan
validation is written as int32 rows (layout.py: LOG_*) for the referee and `welcome-sim play`.
"""

from __future__ import annotations

import numpy as np

from welcome_sim.simcore.jit import kernel
from welcome_sim.simcore.layout import (
    END_FULL,
    END_PLANS,
    END_REFUSALS,
    END_ROUND_CAP,
    G_END,
    G_PLAN,
    G_ROUNDS,
    LOG_END,
    LOG_MOVE,
    LOG_PLAN,
    LOG_STACK,
    SC_NUMBERED,
    SC_PLAN_FIRST,
    SC_PLAN_ROUND,
    SC_PLAN_SCORE,
    SC_REFUSALS,
)
from welcome_sim.simcore.rng import rng_below, shuffle
from welcome_sim.simcore.ruleset import (
    P_MAX_REFUSALS,
    P_MAXLEN,
    P_NCARDS,
    P_NPLANS,
    P_NSTREETS,
    P_TOTAL_HOUSES,
    R_DECK_ACT,
    R_DECK_NUM,
    R_PLAN_FIRST,
    R_PLAN_LATER,
    R_PLAN_NEED,
    R_PLAN_SLOT,
)
from welcome_sim.simcore.scoring import score_table
from welcome_sim.simcore.sheetops import (
    apply_move,
    counts_meet,
    estate_counts,
    lock_plan_estates,
    new_state,
    street_bounds,
)
from welcome_sim.strategies.dispatch import choose_move, wants_validation


@kernel
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


@kernel
def _draw_plans(R, rng, plans_in, plans) -> None:
    """Plans in play: given ids, or one random card of each letter (-1)."""
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


@kernel
def play_game(R, seed, n_players, strats, sprm, plans_in, g, out, out_g, do_log, log, logn) -> None:
    """Play one game with N players sharing the three stacks; write results for game index g."""
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = seed
    n_cards = R[0, P_NCARDS]
    per_stack = n_cards // 3
    n_streets = R[0, P_NSTREETS]
    max_len = R[0, P_MAXLEN]
    cells, flags, fences, sc = new_state(R, n_players)
    lo = np.empty((n_streets, max_len), dtype=np.int64)
    hi = np.empty((n_streets, max_len), dtype=np.int64)
    mv = np.empty(8, dtype=np.int64)
    counts = np.zeros(7, dtype=np.int64)
    used = np.zeros((12, 3), dtype=np.int64)
    plans = np.empty(3, dtype=np.int64)
    _draw_plans(R, rng, plans_in, plans)
    # Context strategies see: players, round, plans in play, which are flipped, seat.
    ctx = np.zeros(9, dtype=np.int64)
    ctx[0] = n_players
    for slot in range(3):
        ctx[2 + slot] = plans[slot]

    # Three stacks (top = last element) and their discard piles.
    order = np.arange(n_cards)
    shuffle(rng, order, n_cards)
    stack = np.empty((3, n_cards), dtype=np.int64)
    stack_n = np.zeros(3, dtype=np.int64)
    discard = np.empty((3, n_cards), dtype=np.int64)
    disc_n = np.zeros(3, dtype=np.int64)
    for i in range(3):
        for j in range(per_stack):
            stack[i, j] = order[i * per_stack + j]
        stack_n[i] = per_stack
        if do_log:
            for j in range(per_stack):
                _log(log, logn, g, 0, -1, LOG_STACK, i, j, stack[i, per_stack - 1 - j], 0, 0, 0, 0, 0)
    cnum = np.empty(3, dtype=np.int64)
    cact = np.empty(3, dtype=np.int64)
    flipped = np.zeros(3, dtype=np.bool_)
    new_flip = np.zeros(3, dtype=np.bool_)
    max_ref = R[0, P_MAX_REFUSALS]
    total_houses = R[0, P_TOTAL_HOUSES]
    round_cap = total_houses + max_ref + 1
    rnd = 0
    end = 0
    while end == 0:
        rnd += 1
        ctx[1] = rnd
        # 1. Flip: each stack's top card shows its action; the next card shows the number.
        for i in range(3):
            stack_n[i] -= 1
            card = stack[i, stack_n[i]]
            cact[i] = R[R_DECK_ACT, card]
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
        # 2-4. Every player chooses a combination, numbers a house and uses the action.
        for p in range(n_players):
            street_bounds(R, cells, p, lo, hi)
            ctx[8] = p
            choose_move(strats[p], sprm[p], R, cells, flags, fences, sc, p, ctx, cnum, cact, rng, mv, lo, hi)
            if mv[0] < 0:
                sc[p, SC_REFUSALS] += 1
            else:
                apply_move(R, cells, flags, fences, sc, p, mv)
            if do_log:
                _log(log, logn, g, rnd, p, LOG_MOVE, mv[0], mv[1], mv[2], mv[3], mv[4], mv[5], mv[6], mv[7])
        # 5. Plan validation; everyone validating in this round scores the first value.
        for slot in range(3):
            new_flip[slot] = False
        for p in range(n_players):
            estate_counts(R, cells, flags, fences, p, counts, True)
            for slot in range(3):
                if sc[p, SC_PLAN_ROUND + slot] != 0:
                    continue
                k = plans[slot]
                if not counts_meet(R, counts, k):
                    continue
                ctx[8] = p
                if not wants_validation(strats[p], sprm[p], R, cells, flags, fences, sc, p, ctx, slot):
                    continue
                n_used = lock_plan_estates(R, cells, flags, fences, p, k, used)
                for size in range(1, 7):
                    counts[size] -= R[R_PLAN_NEED + size, k]
                score = R[R_PLAN_LATER, k] if flipped[slot] else R[R_PLAN_FIRST, k]
                sc[p, SC_PLAN_ROUND + slot] = rnd
                sc[p, SC_PLAN_SCORE + slot] = score
                sc[p, SC_PLAN_FIRST + slot] = 0 if flipped[slot] else 1
                new_flip[slot] = True
                if do_log:
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
                            0,
                            0,
                        )
                    if n_used == 0:
                        _log(log, logn, g, rnd, p, LOG_PLAN, slot, k, -1, -1, -1, score, 0, 0)
        for slot in range(3):
            if new_flip[slot]:
                flipped[slot] = True
                ctx[5 + slot] = 1
        # End of round: all three plans, the last refusal box, or every house numbered.
        for p in range(n_players):
            if sc[p, SC_PLAN_ROUND] > 0 and sc[p, SC_PLAN_ROUND + 1] > 0 and sc[p, SC_PLAN_ROUND + 2] > 0:
                end |= END_PLANS
            if sc[p, SC_REFUSALS] >= max_ref:
                end |= END_REFUSALS
            if sc[p, SC_NUMBERED] >= total_houses:
                end |= END_FULL
        if end == 0 and rnd >= round_cap:
            end = END_ROUND_CAP
    if do_log:
        _log(log, logn, g, rnd, -1, LOG_END, end, 0, 0, 0, 0, 0, 0, 0)
    score_table(R, cells, flags, fences, sc, n_players, out[g])
    out_g[g, G_ROUNDS] = rnd
    out_g[g, G_END] = end
    for slot in range(3):
        out_g[g, G_PLAN + slot] = plans[slot]


@kernel
def play_batch(R, seeds, n_players, strats, sprm, plans_in, out, out_g, do_log, log, logn) -> None:
    """Play len(seeds) games; plans_in[g] holds plan ids per slot (-1 = draw at random)."""
    for g in range(seeds.shape[0]):
        play_game(R, seeds[g], n_players, strats, sprm, plans_in[g], g, out, out_g, do_log, log, logn)


def log_capacity(R, n_games: int, n_players: int) -> int:
    """Rows enough for the log of n_games games (deals, moves, validations)."""
    n_cards = int(R[0, P_NCARDS])
    rounds = int(R[0, P_TOTAL_HOUSES] + R[0, P_MAX_REFUSALS] + 1)
    reshuffles = rounds // max(1, n_cards // 3 - 1) + 1
    per_game = n_cards * (1 + reshuffles) + rounds * n_players + 3 * n_players * 12 + 1
    return n_games * per_game
