"""Compiled final scoring of a table: every component, temp-worker majority, ranks and ties."""

from __future__ import annotations

import numpy as np

from welcome_sim.simcore.ground.jit import kernel, leaf
from welcome_sim.simcore.ground.layout import (
    O_EST,
    O_ESTATES,
    O_EXT_PEN,
    O_N_EST,
    O_N_ESTATES,
    O_N_EXT,
    O_N_FENCES,
    O_N_IMPR,
    O_N_PARKS,
    O_N_POOLS,
    O_N_RB,
    O_N_TEMPS,
    O_NUMBERED,
    O_PARKS,
    O_PLAN,
    O_PLAN_FIRST,
    O_PLAN_ROUND,
    O_POOLS,
    O_RANK,
    O_RB_PEN,
    O_REF_PEN,
    O_REFUSALS,
    O_TEMPS,
    O_TOTAL,
    O_X_POINTS,
    SC_EXT,
    SC_FENCES,
    SC_IMPR,
    SC_NUMBERED,
    SC_PARK,
    SC_PLAN_FIRST,
    SC_PLAN_ROUND,
    SC_PLAN_SCORE,
    SC_POOLS,
    SC_REFUSALS,
    SC_ROUNDABOUTS,
    SC_TEMPS,
)
from welcome_sim.simcore.ground.table import (
    DEAL_AAA,
    DEAL_SOLO_CARD,
    P_DEAL,
    P_NMAJ,
    P_NSTREETS,
    P_OPP_NPOS,
    P_OPP_SCORES,
    P_SOLO_TEMP_MIN,
    P_SOLO_TEMP_PTS,
    P_TIEBREAK_SIZES,
    R_ESTATE_VALS,
    R_EXT_TRACK,
    R_OPP_POS,
    R_PARK_TRACK,
    R_POOL_TRACK,
    R_RB_TRACK,
    R_REF_TRACK,
    R_TEMP_MAJ,
    TIE_ESTATES_SIZES,
    TIE_SHARED,
)
from welcome_sim.simcore.rules.expansions.hooks import x_score
from welcome_sim.simcore.rules.sheetops import Sheets, estate_counts


@leaf
def temp_majority_points(R, temps, n_players, out_pts) -> None:
    """Majority scoring: the highest distinct count gets the first value, the next the second...

    Ties share a place, and the next distinct count takes the next place (the rulebook's example:
    5, 5, 1 -> 7, 7, 4). A player with no temp worker scores nothing.
    """
    places = R[0, P_NMAJ]
    for p in range(n_players):
        out_pts[p] = 0
        if temps[p] <= 0:
            continue
        higher = 0  # distinct counts above this player's
        for q in range(n_players):
            if temps[q] > temps[p]:
                seen = False
                for r in range(q):
                    if temps[r] == temps[q]:
                        seen = True
                        break
                if not seen:
                    higher += 1
        if higher < places:
            out_pts[p] = R[R_TEMP_MAJ, higher]


@leaf
def solo_temp_points(R, temps, aaa_temps, pts) -> None:
    """Temp points of the solo modes: pts[0] for the player, pts[1] for the AAA (if any).

    First-edition solo: a fixed score from a number of boxes. AAA level 0: the player's place
    from the card's box thresholds. AAA level 1+: the usual majority between the player's boxes
    and the AAA's temp cards."""
    pts[0] = 0
    pts[1] = 0
    if R[0, P_DEAL] == DEAL_SOLO_CARD:
        if temps >= R[0, P_SOLO_TEMP_MIN]:
            pts[0] = R[0, P_SOLO_TEMP_PTS]
        return
    if R[0, P_OPP_SCORES] == 0:
        if temps > 0:
            for i in range(R[0, P_OPP_NPOS]):
                if temps >= R[R_OPP_POS, i]:
                    pts[0] = R[R_TEMP_MAJ, i]
                    break
        return
    # temp_majority_points of the two counts, without allocating them an array: with two
    # players, one is a place behind exactly when the other has more.
    for i in range(2):
        mine = temps if i == 0 else aaa_temps
        theirs = aaa_temps if i == 0 else temps
        higher = 1 if theirs > mine else 0
        if mine > 0 and higher < R[0, P_NMAJ]:
            pts[i] = R[R_TEMP_MAJ, higher]


@kernel
def score_table(R, cells, flags, fences, sc, n_players, out, aaa_temps) -> None:
    """Fill out[p, :] with every score component, the total and the rank of each player.

    aaa_temps: the AAA's temp cards (AAA solo mode; the ranks are then set by the caller)."""
    counts = np.zeros(7, dtype=np.int64)
    temps = np.zeros(n_players, dtype=np.int64)
    pts = np.zeros(max(n_players, 2), dtype=np.int64)
    score_table_into(R, Sheets(cells, flags, fences, sc), n_players, out, aaa_temps, (counts, temps, pts))


@leaf
def score_table_into(R, sh, n_players, out, aaa_temps, scratch) -> None:
    """score_table on the sheets sh (Sheets) with its scratch arrays given (counts int64[7], temps
    int64[n_players], pts int64[max(n_players, 2)]; their contents on entry do not matter): the
    kernel allocates them once per batch instead of three times a game, and a leaf needs no
    reference counting."""
    cells, flags, fences, sc = sh
    counts, temps, pts = scratch
    pts[:] = 0
    for p in range(n_players):
        temps[p] = sc[p, SC_TEMPS]
    deal = R[0, P_DEAL]
    if deal == DEAL_SOLO_CARD or deal == DEAL_AAA:
        solo_temp_points(R, temps[0], aaa_temps, pts)
    else:
        temp_majority_points(R, temps, n_players, pts)
    for p in range(n_players):
        plans = 0
        for i in range(3):
            out[p, O_PLAN + i] = sc[p, SC_PLAN_SCORE + i]
            out[p, O_PLAN_ROUND + i] = sc[p, SC_PLAN_ROUND + i]
            out[p, O_PLAN_FIRST + i] = sc[p, SC_PLAN_FIRST + i]
            plans += sc[p, SC_PLAN_SCORE + i]
        parks = 0
        n_parks = 0
        for s in range(R[0, P_NSTREETS]):
            parks += R[R_PARK_TRACK + s, sc[p, SC_PARK + s]]
            n_parks += sc[p, SC_PARK + s]
        pools = R[R_POOL_TRACK, sc[p, SC_POOLS]]
        estate_counts(R, cells, flags, fences, p, counts, False)
        estates = 0
        n_est = 0
        n_impr = 0
        for size in range(1, 7):
            pts_size = counts[size] * R[R_ESTATE_VALS + size - 1, sc[p, SC_IMPR + size - 1]]
            out[p, O_EST + size - 1] = pts_size
            out[p, O_N_EST + size - 1] = counts[size]
            estates += pts_size
            n_est += counts[size]
            n_impr += sc[p, SC_IMPR + size - 1]
        ext_pen = R[R_EXT_TRACK, sc[p, SC_EXT]]
        ref_pen = R[R_REF_TRACK, sc[p, SC_REFUSALS]]
        rb_pen = R[R_RB_TRACK, sc[p, SC_ROUNDABOUTS]]
        out[p, O_RB_PEN] = rb_pen
        out[p, O_N_RB] = sc[p, SC_ROUNDABOUTS]
        out[p, O_PARKS] = parks
        out[p, O_POOLS] = pools
        out[p, O_TEMPS] = pts[p]
        out[p, O_ESTATES] = estates
        out[p, O_EXT_PEN] = ext_pen
        out[p, O_REF_PEN] = ref_pen
        out[p, O_N_ESTATES] = n_est
        out[p, O_REFUSALS] = sc[p, SC_REFUSALS]
        out[p, O_N_TEMPS] = sc[p, SC_TEMPS]
        out[p, O_N_EXT] = sc[p, SC_EXT]
        out[p, O_N_PARKS] = n_parks
        out[p, O_N_POOLS] = sc[p, SC_POOLS]
        out[p, O_N_IMPR] = n_impr
        out[p, O_N_FENCES] = sc[p, SC_FENCES]
        out[p, O_NUMBERED] = sc[p, SC_NUMBERED]
        x_score(R, cells, flags, fences, sc, p, out[p])
        out[p, O_TOTAL] = (
            plans + parks + pools + pts[p] + estates + out[p, O_X_POINTS] - ext_pen - ref_pen - rb_pen
        )
    rank_table(R, n_players, out)


@leaf
def _beats(R, out, q, p) -> bool:
    """Player q finishes ahead of p: score, then complete estates (then sizes 1, 2, ... if set;
    nothing where a tie is a shared victory)."""
    if out[q, O_TOTAL] != out[p, O_TOTAL]:
        return out[q, O_TOTAL] > out[p, O_TOTAL]
    if R[0, P_TIEBREAK_SIZES] == TIE_SHARED:
        return False
    if out[q, O_N_ESTATES] != out[p, O_N_ESTATES]:
        return out[q, O_N_ESTATES] > out[p, O_N_ESTATES]
    if R[0, P_TIEBREAK_SIZES] == TIE_ESTATES_SIZES:
        for k in range(6):
            if out[q, O_N_EST + k] != out[p, O_N_EST + k]:
                return out[q, O_N_EST + k] > out[p, O_N_EST + k]
    return False


@leaf
def rank_table(R, n_players, out) -> None:
    """Rank = 1 + players strictly ahead; players still tied share the rank (shared victory)."""
    for p in range(n_players):
        ahead = 0
        for q in range(n_players):
            if q != p and _beats(R, out, q, p):
                ahead += 1
        out[p, O_RANK] = ahead + 1
