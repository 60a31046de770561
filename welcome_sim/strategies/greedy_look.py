"""The look-ahead player (`look_moves` >= 2; the ladder's `lookahead` level): greedy's search
(`best_moves`) keeps its `look_moves` best moves instead of one; each is played on the sheet (with
its expansion effects, `_play`) and followed by `look_depth` imagined rounds: cards drawn from the
deck's composition (stack modes: a stack's next action is on the back of a card with the number it
shows now), greedy without noise playing them, and every plan met while it still pays its first
score validated at each imagined round end. The move's worth is the mean over `look_samples`
futures of greedy's value of the sheet at the end (minus, in AAA solo mode, the card given to the
AAA); the same futures serve every move (common random numbers: one draw from the game's generator
seeds them), the state is restored after each. With `look_race` the moves race for the futures:
after each batch of `look_batch`, a move whose paired difference to the leader's cannot exceed
`look_tie` (at `look_race` standard errors) is dropped, so the budget goes to the close calls. With
`look_roll` the imagined rounds' greedy values fewer action options (best_moves' `light`). With
`look_gap` the moves greedy values more than that below its best are not looked at (no look at all
when none is that close), with `look_far` they meet a first batch of 2 futures only. Every future
of a move starts its first imagined round from the same sheet, so the placement values found there
are shared by its futures (`look_share`, Search.share: the same games). Only the
seat's own sheet is imagined: the others'
moves, the plans they validate, hordes, hand passing and roundabouts are not. Everything it uses is
greedy's (`best_moves`, `evaluate`) or the game loop's own (the kernel's `apply_move`, the
expansion hooks, `plan_check`), so every mode and expansion the kernel plays is looked ahead
through the same code. `best_moves` is a leaf that allocates nothing (its scratch comes from
choose_greedy), and `look_ahead` is a kernel of its own, the one module above the evaluation on
greedy's move (choose_greedy is inlined into the game): inlined there, it made play_batch's compile
grow more than its module costs (docs/findings/kernel-phases.md, "cold5")."""

from __future__ import annotations

import numpy as np

from welcome_sim.simcore.ground.jit import inlined, kernel, leaf
from welcome_sim.simcore.ground.layout import (
    COMBO_ACT,
    COMBO_NUM,
    EXTENSION,
    SC_NUMBERED,
    SC_PLAN_FIRST,
    SC_PLAN_ROUND,
    SC_PLAN_SCORE,
    SC_REFUSALS,
    SC_ROUNDABOUTS,
    SC_SEALED,
)
from welcome_sim.simcore.ground.rng import rng_below, rng_next
from welcome_sim.simcore.ground.table import (
    DEAL_STACKS,
    P_MAX_REFUSALS,
    P_NCARDS,
    P_TOTAL_HOUSES,
    R_DECK_ACT,
    R_DECK_NUM,
    R_PLAN_FIRST,
)
from welcome_sim.simcore.rules.expansions.hooks import (
    x_bounds,
    x_on_action,
    x_on_move,
    x_on_number,
    x_set_side,
    x_side_pending,
)
from welcome_sim.simcore.rules.plans import plan_check
from welcome_sim.simcore.rules.sheetops import (
    apply_move,
    street_bounds,
)
from welcome_sim.strategies.context import (
    CTX_DEAL,
    CTX_FLIPPED,
    CTX_HAND_ACT,
    CTX_HAND_NUM,
    CTX_PLAN,
    CTX_ROUND,
    Offer,
)
from welcome_sim.strategies.greedy_eval import (
    evaluate,
)
from welcome_sim.strategies.greedy_layout import (
    LOOK_BATCH,
    LOOK_D,
    LOOK_FAR,
    LOOK_GAP,
    LOOK_RACE,
    LOOK_ROLL,
    LOOK_S,
    LOOK_SHARE,
    LOOK_TIE,
    N_CODES,
    N_KEYS,
    NOISE,
    Search,
)
from welcome_sim.strategies.greedy_search import (
    best_moves,
    greedy_side_of,
    to_move,
)


@leaf
def _card_with_number(R, lr, number) -> int:
    """A random card of the deck showing this number code (any card if none does)."""
    n = R[0, P_NCARDS]
    for _ in range(400):
        c = rng_below(lr, n)
        if R[R_DECK_NUM, c] == number:
            return c
    return rng_below(lr, n)


@leaf
def _sample_round(R, ctx, lr, showing, cnum, cact) -> None:
    """A sampled next round's combinations, drawn from the deck's composition (not counting the
    cards seen). Stack modes (three stacks, or two with Zombie Outbreak): stack i's next action is
    on the back of the card whose number it shows now (`showing`), its next number is any card's;
    hand modes: a hand of random cards."""
    n = R[0, P_NCARDS]
    k = cnum.shape[0]
    if ctx[CTX_DEAL] == DEAL_STACKS:
        for i in range(k):
            cact[i] = R[R_DECK_ACT, _card_with_number(R, lr, showing[i])]
            showing[i] = R[R_DECK_NUM, rng_below(lr, n)]
            cnum[i] = showing[i]
        return
    size = 2 if k == 2 else 3
    for i in range(size):
        c = rng_below(lr, n)
        ctx[CTX_HAND_NUM + i] = R[R_DECK_NUM, c]
        ctx[CTX_HAND_ACT + i] = R[R_DECK_ACT, c]
    for j in range(k):
        if k == 2:
            cnum[j] = ctx[CTX_HAND_NUM + j]
            cact[j] = ctx[CTX_HAND_ACT + 1 - j]
        else:
            cnum[j] = ctx[CTX_HAND_NUM + COMBO_NUM[j]]
            cact[j] = ctx[CTX_HAND_ACT + COMBO_ACT[j]]


@leaf
def _over(R, sc, p) -> bool:
    """Whether seat p's own sheet ends the game: all three plans, the last refusal box, or every
    house numbered (or a roundabout, or sealed)."""
    if sc[p, SC_PLAN_ROUND] > 0 and sc[p, SC_PLAN_ROUND + 1] > 0 and sc[p, SC_PLAN_ROUND + 2] > 0:
        return True
    if sc[p, SC_REFUSALS] >= R[0, P_MAX_REFUSALS]:
        return True
    return sc[p, SC_NUMBERED] + sc[p, SC_ROUNDABOUTS] + sc[p, SC_SEALED] >= R[0, P_TOTAL_HOUSES]


# Inlined into _future: as leaves their modules made machine code again for apply_move, plan_check
# and the expansions' hooks (docs/findings/kernel-phases.md, "Wrappers inlined").
@inlined
def _play(R, prm, cells, flags, fences, sc, p, mv, act) -> None:
    """Apply a legal move to seat p's sheet with its expansion effects, as the game loop does (a
    first-edition ice cream truck starts from the side greedy prefers); act: its combination's
    action."""
    apply_move(R, cells, flags, fences, sc, p, mv)
    x_on_move(R, cells, flags, sc, p, mv)
    x_on_action(R, cells, flags, sc, p, mv[1], mv[2], act, 1)
    if x_side_pending(R, sc, p, mv[1]):
        x_set_side(R, sc, p, mv[1], greedy_side_of(R, prm, cells, flags, fences, sc, p, mv[1]))
    x_on_number(R, cells, flags, sc, p, mv[1], mv[2])
    if mv[4] == EXTENSION:
        x_on_number(R, cells, flags, sc, p, mv[5], mv[7])


@inlined
def _validate_first(R, cells, flags, fences, sc, p, ctx, used, rnd) -> None:
    """In a look-ahead's imagined round end: validate every plan seat p meets that still pays its
    first score (as greedy_validates always does), locking what it uses."""
    for slot in range(3):
        if sc[p, SC_PLAN_ROUND + slot] != 0 or ctx[CTX_FLIPPED + slot] != 0:
            continue
        plan = ctx[CTX_PLAN + slot]
        if plan_check(R, cells, flags, fences, sc, p, plan, False, used) < 0:
            continue
        plan_check(R, cells, flags, fences, sc, p, plan, True, used)
        sc[p, SC_PLAN_ROUND + slot] = rnd
        sc[p, SC_PLAN_SCORE + slot] = R[R_PLAN_FIRST, plan]
        sc[p, SC_PLAN_FIRST + slot] = 1


@inlined
def _race(vals, nd, alive, gift, cand, z, tie) -> int:
    """Drop from `alive` every move whose mean paired difference to the leading move's over its
    first nd[k] futures, plus z standard errors, is below `tie` (it is worse, or at most `tie`
    better); the leader's row index, among the moves that met the most futures. The futures are
    common to every move, so the differences are much narrower than either mean."""
    most = 0
    for k in range(alive.shape[0]):
        if alive[k] and nd[k] > most:
            most = nd[k]
    lead, best = -1, -1e300
    for k in range(alive.shape[0]):
        if alive[k] and nd[k] == most:
            m = 0.0
            for i in range(most):
                m += vals[k, i]
            m = m / most - gift[int(cand[k, 1])]
            if m > best:
                best, lead = m, k
    if z <= 0.0:
        return lead
    g0 = gift[int(cand[lead, 1])]
    for k in range(alive.shape[0]):
        if not alive[k] or k == lead:
            continue
        n = nd[k]  # at most the leader's: the same first futures
        m = 0.0
        for i in range(n):
            m += vals[k, i] - vals[lead, i]
        m /= n
        ss = 0.0
        for i in range(n):
            d = vals[k, i] - vals[lead, i] - m
            ss += d * d
        se = np.sqrt(ss / (n - 1) / n) if n > 1 else 1e300
        if m - (gift[int(cand[k, 1])] - g0) + z * se < tie:
            alive[k] = False
    return lead


@inlined
def _future(R, prm, inner, sh, p, ctx, offer, sx, k, smp, seed, share, tmp) -> float:
    """Candidate k played on seat p's sheet and followed by `look_depth` imagined rounds of future
    smp (its cards from `seed`); greedy's value of the sheet at the end. share: the first round's
    shared placement values (an empty array: none). The caller restores the sheet."""
    cells, flags, fences, sc = sh
    cnum, cact, lo, hi = offer.cnum, offer.cact, offer.lo, offer.hi
    ws, cand = sx.ws, sx.cand
    one, mv, lr, used, showing, cnum2, cact2, no_share = tmp
    depth = max(1, int(prm[LOOK_D] + 0.5))
    light = int(prm[LOOK_ROLL] + 0.5)  # how greedy plays the imagined rounds (best_moves)
    rnd = max(1, ctx[CTX_ROUND])
    for i in range(8):
        mv[i] = int(cand[k, i + 1])
    _play(R, prm, cells, flags, fences, sc, p, mv, cact[mv[0]])
    _validate_first(R, cells, flags, fences, sc, p, ctx, used, rnd)
    for i in range(3):
        showing[i] = cnum[i] if i < cnum.shape[0] else 0
    for d in range(depth):
        if _over(R, sc, p):
            break
        # Each imagined round's cards from a seed of their own: greedy's tie-breaks draw from
        # the same stream, as many times as there are legal moves, so one running stream would
        # deal every candidate different cards after the first.
        lr[0] = (
            seed
            + np.uint64(smp) * np.uint64(0xD1B54A32D192ED03)
            + np.uint64(d + 1) * np.uint64(0x8CB92BA72F3D8DD7)
        )
        _sample_round(R, ctx, lr, showing, cnum2, cact2)
        street_bounds(R, cells, p, lo, hi)
        x_bounds(R, cells, flags, p, lo, hi)
        # The search's scratch, with `one` for its single best move; the first round's sheet is
        # the same in every future of this move, so its placement values are shared.
        one_sx = Search(ws, sx.cost, sx.top, sx.mval, sx.mlo, sx.mhi, one, share if d == 0 else no_share)
        # gws is the outer search's live workspace: nothing under best_moves may clear it
        # (turn_workspace), or the candidates' street records would be lost mid-look.
        best_moves(R, inner, sh, p, ctx, Offer(cnum2, cact2, lr, lo, hi, mv, ws), one_sx, light)
        if one[0, 0] <= -1e17:
            sc[p, SC_REFUSALS] += 1
        else:
            to_move(one, mv)
            _play(R, prm, cells, flags, fences, sc, p, mv, cact2[mv[0]])
            _validate_first(R, cells, flags, fences, sc, p, ctx, used, rnd + 1 + d)
    # The sheet after the last imagined round, plans validated: its greedy value.
    return evaluate(R, inner, sh, p, ctx, ws, -1)


@kernel
def look_ahead(R, prm, sh, p, ctx, offer, sx) -> int:
    """The look-ahead player's pick among greedy's best moves in cand: each is played on the sheet
    (restored from copies afterwards) and followed by `look_depth` rounds of sampled cards where
    greedy (without noise) plays; its worth is the mean, over its futures, of greedy's value of the
    sheet at the end. Every candidate meets the same futures (common random numbers). With
    `look_race` the moves race: after each batch of `look_batch` futures (the first batch 2 for
    moves more than `look_far` below greedy's best), those clearly no better than the leader are
    dropped (_race), and the look stops when one is left or the futures are spent; without it every
    move meets all `look_samples` futures. Moves more than `look_gap` below greedy's best are not
    looked at."""
    cells, flags, fences, sc = sh
    cnum, cact, rng, lo, hi = offer.cnum, offer.cact, offer.rng, offer.lo, offer.hi
    cost, cand = sx.cost, sx.cand
    k_max = cand.shape[0]
    n_samples = max(1, int(prm[LOOK_S] + 0.5))
    z, tie = prm[LOOK_RACE], prm[LOOK_TIE] / 10.0
    gap, far = prm[LOOK_GAP] / 10.0, prm[LOOK_FAR] / 10.0
    batch = max(2, int(prm[LOOK_BATCH] + 0.5)) if z > 0.0 else n_samples
    base = rng_next(rng)  # one draw from the game's generator seeds every future of this turn
    alive = np.zeros(k_max, dtype=np.bool_)
    n_alive = 0
    for k in range(k_max):
        alive[k] = cand[k, 0] > -1e17 and (gap <= 0.0 or cand[0, 0] - cand[k, 0] <= gap)
        n_alive += alive[k]
    if n_alive <= 1:
        return 0  # greedy's best is always kept: nothing to compare it with
    inner = prm.copy()
    inner[NOISE] = 0.0
    c0, f0, fe0, s0 = cells.copy(), flags.copy(), fences.copy(), sc.copy()
    ctx0 = ctx.copy()
    lo0, hi0 = lo.copy(), hi.copy()
    no_share = np.empty((0, N_KEYS, N_CODES), dtype=np.float64)
    n_share = k_max if prm[LOOK_SHARE] > 0.5 else 0
    share = np.full((max(n_share, 1), 2, N_KEYS, N_CODES), np.nan)
    tmp = (
        np.empty((1, 9), dtype=np.float64),  # the imagined round's best move
        np.empty(8, dtype=np.int64),  # a move
        np.zeros(1, dtype=np.uint64),  # the imagined rounds' generator
        np.zeros((16, 3), dtype=np.int64),  # plan_check's scratch
        np.zeros(3, dtype=np.int64),  # stack modes: the numbers the stacks show
        cnum.copy(),
        cact.copy(),
        no_share,
    )
    vals = np.zeros((k_max, n_samples), dtype=np.float64)
    nd = np.zeros(k_max, dtype=np.int64)  # futures each move has met
    gift = cost.copy()  # AAA solo mode: what each combination's card left over is worth to the AAA
    while n_alive > 1:
        most = 0
        for k in range(k_max):
            if alive[k] and nd[k] > most:
                most = nd[k]
        if most >= n_samples:
            break
        for k in range(k_max):
            if not alive[k]:
                continue
            upto = most + batch
            if most == 0 and far > 0.0 and cand[0, 0] - cand[k, 0] > far:
                upto = 2
            upto = min(n_samples, upto)
            sh_k = share[k] if n_share > 0 else no_share
            for smp in range(nd[k], upto):
                vals[k, smp] = _future(R, prm, inner, sh, p, ctx, offer, sx, k, smp, base, sh_k, tmp)
                cells[:, :, :] = c0
                flags[:, :, :] = f0
                fences[:, :, :] = fe0
                sc[:, :] = s0
                ctx[:] = ctx0
            nd[k] = upto
        _race(vals, nd, alive, gift, cand, z, tie)
        n_alive = 0
        for k in range(k_max):
            n_alive += alive[k]
    lo[:, :] = lo0
    hi[:, :] = hi0
    return _race(vals, nd, alive, gift, cand, 0.0, 0.0)
