"""Greedy's options: the ways of using a placed number's action (a fence in any street, a bis,
an improvement, a park, a pool, the temp worker, and the expansion's alternatives) valued on each of
a combination's best placements (`options`, called by greedy_search.best_moves once per
combination), and the helpers the search shares with them: an action applied and undone, a
trial's value re-walking only the street it changed, and the sorted list of the best moves
(`offer_move`)."""

from __future__ import annotations

from welcome_sim.simcore.ground.features import EXPANSIONS
from welcome_sim.simcore.ground.jit import inlined, spliced
from welcome_sim.simcore.ground.layout import (
    B_FENCE,
    EMPTY,
    EXTENSION,
    F_EXT,
    F_POOL,
    FENCE,
    IMPROVEMENT,
    NO_ACTION,
    PARK,
    POOL,
    SC_EXT,
    SC_IMPR,
    SC_NUMBERED,
    SC_PARK,
    SC_POOLS,
    SC_TEMPS,
    TEMP,
)
from welcome_sim.simcore.ground.table import (
    P_EXT_LEN,
    P_NSTREETS,
    R_STREET_LEN,
)
from welcome_sim.simcore.rules.expansions.hooks import (
    x_alt,
    x_alt_ok,
    x_ext_target,
    x_fence_alt,
    x_fence_alt_ok,
    x_on_action,
)
from welcome_sim.simcore.rules.sheetops import (
    extension_ok,
    fence_ok,
    improvement_ok,
    park_ok,
    pool_ok,
    temp_ok,
)
from welcome_sim.strategies.greedy_eval import (
    combine,
    noisy,
    retouch_terms,
)
from welcome_sim.strategies.greedy_layout import (
    BLIND,
    N_KEYS,
    ST_BIS,
    ST_FENCE,
    ST_PLACED,
    ST_TRIAL,
    WS_BMARK,
    WS_FMARK,
)
from welcome_sim.strategies.greedy_screen import (
    draws_first,
    keep_gain,
    screen_draw,
    screen_place,
    screen_value,
    screened,
    zone_of,
)
from welcome_sim.strategies.greedy_walk import (
    walk_street,
)


@spliced
def _apply_action(sh, p, s, h, a, x, y, z, sign) -> None:
    """Apply (sign=1) or undo (sign=-1) an action on top of a placed number."""
    cells, flags, fences, sc = sh
    if a == FENCE:
        if sign > 0:
            fences[p, x, y] |= B_FENCE
        else:
            fences[p, x, y] &= ~B_FENCE
    elif a == IMPROVEMENT:
        sc[p, SC_IMPR + x] += sign
    elif a == PARK:
        sc[p, SC_PARK + s] += sign
    elif a == POOL:
        sc[p, SC_POOLS] += sign
        if sign > 0:
            flags[p, s, h] |= F_POOL
        else:
            flags[p, s, h] &= ~F_POOL
    elif a == TEMP:
        sc[p, SC_TEMPS] += sign
    elif a == EXTENSION:
        sc[p, SC_EXT] += sign
        sc[p, SC_NUMBERED] += sign
        if sign > 0:
            cells[p, x, z] = cells[p, x, y]
            flags[p, x, z] |= F_EXT
        else:
            cells[p, x, z] = EMPTY
            flags[p, x, z] &= ~F_EXT


# Inlined: a leaf's module makes machine code again for all it calls (combine's whole tree);
# cold compile: docs/findings/kernel-phases.md, "Wrappers inlined".
@inlined
def _trial(R, prm, sh, p, ctx, ws, placed, changed, fresh) -> float:
    """Value of the sheet with a placement in street `placed` (walked into ST_PLACED) and an
    action that changed street `changed` (-1: only the score sheet), re-walking only that one."""
    if changed < 0:
        return combine(R, prm, sh, p, ctx, ws, -1, (placed, ST_PLACED, -1, 0), fresh)
    walk_street(R, prm, sh, p, changed, ws, ST_TRIAL)
    if changed == placed:
        return combine(R, prm, sh, p, ctx, ws, -1, (changed, ST_TRIAL, -1, 0), fresh)
    return combine(R, prm, sh, p, ctx, ws, -1, (changed, ST_TRIAL, placed, ST_PLACED), fresh)


@spliced
def offer_move(cand, val, c, s, h, v, a, xyz) -> None:
    """Keep the best moves in cand (rows sorted by value, best first; ties keep the earlier)."""
    x, y, z = xyz  # the action's parameters
    k = cand.shape[0] - 1
    if not val > cand[k, 0]:
        return
    while k > 0 and val > cand[k - 1, 0]:
        for j in range(9):
            cand[k, j] = cand[k - 1, j]
        k -= 1
    cand[k, 0], cand[k, 1], cand[k, 2], cand[k, 3], cand[k, 4] = val, c, s, h, v
    cand[k, 5], cand[k, 6], cand[k, 7], cand[k, 8] = a, x, y, z


@inlined
def options(R, prm, sh, p, ctx, offer, sx, c, bar, few) -> float:
    """Every option of combination c's action (and the expansion's alternatives) on each of its two
    best placements (the best only with `few`: greedy_search.best_moves clears the second), offered
    to sx.cand when it beats `bar`, the value the last kept move has, but for those the screen skips
    (screened) and, with `few`, the fences and bis apart from the placement that _fences and
    _extensions leave out; returns the new bar."""
    cells, flags, fences, sc = sh
    cnum, cact, rng = offer.cnum, offer.cact, offer.rng
    ws, cost, top, cand = sx.ws, sx.cost, sx.top, sx.cand
    last = cand.shape[0] - 1
    a = cact[c]
    for t in range(2):
        if top[c, t, 0] <= -1e17:
            continue
        s, h, v = int(top[c, t, 1]), int(top[c, t, 2]), int(top[c, t, 3])
        if v != cnum[c]:  # the number itself needed the temp worker: offered in best_moves
            continue
        cells[p, s, h] = v
        x_on_action(R, cells, flags, sc, p, s, h, a, 1)
        # Every option below re-walks at most the street it changes; the placement's street
        # is walked once here. Not using the action was offered before any option (best_moves).
        walk_street(R, prm, sh, p, s, ws, ST_PLACED)
        zlo, zhi = zone_of(R, cells, fences, p, s, h, h)
        if EXPANSIONS == 1 and prm[BLIND] == 0.0 and x_alt_ok(R, cells, flags, p, s, h):
            # The expansion's alternative to any action (a Zoorg infiltrated): its value is
            # the expansion's, street estates unchanged. Never offered to a blind player.
            x_alt(R, flags, sc, p, s, h, 1)
            val = noisy(_trial(R, prm, sh, p, ctx, ws, s, -1, False), prm, rng)
            x_alt(R, flags, sc, p, s, h, -1)
            val -= cost[c]
            if val > bar:
                offer_move(cand, val, c, s, h, v, NO_ACTION, (s, h, 1))
                bar = cand[last, 0]
        if a == FENCE:
            if EXPANSIONS == 1 and prm[BLIND] == 0.0 and x_fence_alt_ok(R, cells, flags, p, s, h):
                # The expansion's alternative to a fence (a barricade): its value is the
                # expansion's, street estates unchanged. A blind player builds the fence.
                x_fence_alt(R, flags, sc, p, s, h, 1)
                val = noisy(_trial(R, prm, sh, p, ctx, ws, s, -1, False), prm, rng)
                x_fence_alt(R, flags, sc, p, s, h, -1)
                val -= cost[c]
                if val > bar:
                    offer_move(cand, val, c, s, h, v, a, (s, h, 1))
                    bar = cand[last, 0]
            bar = _fences(R, prm, sh, p, ctx, offer, sx, c, t, (zlo, zhi), bar, few)
        elif a == IMPROVEMENT:
            early = draws_first(prm)
            place = screen_place(top, c, t, early)
            for col in range(6):
                if improvement_ok(R, sc, p, col):
                    gi = 3 * N_KEYS + col
                    draw = screen_draw(prm, rng, early)
                    if screened(ws, gi, place - cost[c] + draw, bar):
                        continue
                    _apply_action(sh, p, s, h, a, col, 0, 0, 1)
                    retouch_terms(R, prm, sc, p, ws, a, 0, col)
                    raw = _trial(R, prm, sh, p, ctx, ws, s, -1, True)
                    val = screen_value(raw, draw, prm, rng, early)
                    _apply_action(sh, p, s, h, a, col, 0, 0, -1)
                    retouch_terms(R, prm, sc, p, ws, a, 0, col)
                    keep_gain(ws, gi, (raw if early else val) - place)
                    val -= cost[c]  # the AAA gets the card left over
                    if val > bar:
                        offer_move(cand, val, c, s, h, v, a, (col, -1, -1))
                        bar = cand[last, 0]
        elif (
            (a == PARK and park_ok(R, sc, p, s))
            or (a == POOL and pool_ok(R, flags, sc, p, s, h))
            or (a == TEMP and temp_ok(R, sc, p))
        ):
            _apply_action(sh, p, s, h, a, 0, 0, 0, 1)
            retouch_terms(R, prm, sc, p, ws, a, s, 0)
            # A pool changes its house's street; park and temp only the score sheet.
            changed = s if a == POOL else -1
            val = noisy(_trial(R, prm, sh, p, ctx, ws, s, changed, False), prm, rng)
            _apply_action(sh, p, s, h, a, 0, 0, 0, -1)
            retouch_terms(R, prm, sc, p, ws, a, s, 0)
            val -= cost[c]  # the AAA gets the card left over
            if val > bar:
                offer_move(cand, val, c, s, h, v, a, (-1, -1, -1))
                bar = cand[last, 0]
        elif a == EXTENSION and sc[p, SC_EXT] < R[0, P_EXT_LEN] - 1:
            bar = _extensions(R, prm, sh, p, ctx, offer, sx, c, t, (zlo, zhi), bar, few)
        x_on_action(R, cells, flags, sc, p, s, h, a, -1)
        cells[p, s, h] = EMPTY
    return bar


@inlined
def _fences(R, prm, sh, p, ctx, offer, sx, c, t, zone, bar, few) -> float:
    """Every fence with combination c's placement t (placed, its street walked into ST_PLACED),
    offered when it beats `bar`, but for those the screen skips (screened): fences apart from
    the placement's zone that another placement this turn showed to add too little, and with
    `few` those apart from it with neither house beside the boundary numbered. Returns the new
    bar."""
    cells, flags, fences = sh.cells, sh.flags, sh.fences
    ws, cost, top, cand = sx.ws, sx.cost, sx.top, sx.cand
    s, h, v = int(top[c, t, 1]), int(top[c, t, 2]), int(top[c, t, 3])
    a = offer.cact[c]
    zlo, zhi = zone
    early = draws_first(prm)
    place = screen_place(top, c, t, early)
    for fs in range(R[0, P_NSTREETS]):
        for fb in range(1, R[R_STREET_LEN, fs]):
            if not fence_ok(R, flags, fences, p, fs, fb):
                continue
            gi = fs * 16 + fb
            apart = fs != s or not zlo < fb <= zhi
            if few and apart and cells[p, fs, fb - 1] < 0 and cells[p, fs, fb] < 0:
                continue  # neither house beside the boundary numbered (`few`, best_moves)
            draw = screen_draw(prm, offer.rng, early)
            if apart and screened(ws, gi, place - cost[c] + draw, bar):
                continue
            _apply_action(sh, p, s, h, a, fs, fb, 0, 1)
            if fs == s:
                walk_street(R, prm, sh, p, s, ws, ST_TRIAL)
                recs = (s, ST_TRIAL, -1, 0)
            else:
                # The fenced street as this turn found it: walked once a turn.
                recs = (fs, ST_FENCE + gi, s, ST_PLACED)
                if ws[WS_FMARK + gi] == 0.0:
                    walk_street(R, prm, sh, p, fs, ws, ST_FENCE + gi)
                    ws[WS_FMARK + gi] = 1.0
            raw = combine(R, prm, sh, p, ctx, ws, -1, recs, False)
            val = screen_value(raw, draw, prm, offer.rng, early)
            _apply_action(sh, p, s, h, a, fs, fb, 0, -1)
            if apart:
                keep_gain(ws, gi, (raw if early else val) - place)
            val -= cost[c]  # the AAA gets the card left over
            if val > bar:
                offer_move(cand, val, c, s, h, v, a, (fs, fb, -1))
                bar = cand[cand.shape[0] - 1, 0]
    return bar


@inlined
def _extensions(R, prm, sh, p, ctx, offer, sx, c, t, zone, bar, few) -> float:
    """Every extension (bis) with combination c's placement t, as _fences does fences; with `few`
    only those in the placement's zone."""
    cells, fences, sc = sh.cells, sh.fences, sh.sc
    ws, cost, top, cand = sx.ws, sx.cost, sx.top, sx.cand
    s, h, v = int(top[c, t, 1]), int(top[c, t, 2]), int(top[c, t, 3])
    a = offer.cact[c]
    zlo, zhi = zone
    early = draws_first(prm)
    place = screen_place(top, c, t, early)
    for es in range(R[0, P_NSTREETS]):
        for src in range(R[R_STREET_LEN, es]):
            for d in (-1, 1):
                tgt = x_ext_target(R, cells, p, es, src, d)
                if not extension_ok(R, cells, fences, sc, p, es, src, tgt):
                    continue
                kb = 2 * (es * 16 + src) + (1 if d > 0 else 0)
                gi = N_KEYS + kb
                apart = es != s
                if not apart:
                    tlo, thi = zone_of(R, cells, fences, p, es, tgt, tgt)
                    apart = thi < zlo or tlo > zhi
                if few and apart:
                    continue  # a bis apart from the placement (`few`, best_moves)
                draw = screen_draw(prm, offer.rng, early)
                if apart and screened(ws, gi, place - cost[c] + draw, bar):
                    continue
                _apply_action(sh, p, s, h, a, es, src, tgt, 1)
                retouch_terms(R, prm, sc, p, ws, a, 0, 0)
                if es == s:
                    walk_street(R, prm, sh, p, s, ws, ST_TRIAL)
                    recs = (s, ST_TRIAL, -1, 0)
                else:
                    # The extended street as this turn found it: walked once a turn.
                    recs = (es, ST_BIS + kb, s, ST_PLACED)
                    if ws[WS_BMARK + kb] == 0.0:
                        walk_street(R, prm, sh, p, es, ws, ST_BIS + kb)
                        ws[WS_BMARK + kb] = 1.0
                raw = combine(R, prm, sh, p, ctx, ws, -1, recs, False)
                val = screen_value(raw, draw, prm, offer.rng, early)
                _apply_action(sh, p, s, h, a, es, src, tgt, -1)
                retouch_terms(R, prm, sc, p, ws, a, 0, 0)
                if apart:
                    keep_gain(ws, gi, (raw if early else val) - place)
                val -= cost[c]  # the AAA gets the card left over
                if val > bar:
                    offer_move(cand, val, c, s, h, v, a, (es, src, tgt))
                    bar = cand[cand.shape[0] - 1, 0]
    return bar
