"""Compiled scoring of the AAA opponent (Collector's AAA solo mode) from its stack of cards.

The rules (core rulebook, "AAA Opponent card - level 1 or more"): points per park, pool, temp and
fence card; temp cards also compete with the player's temp boxes for the majority; estates are
the runs of cards between fence cards (a fence stands at both ends of the stack), each card one
house except extensions (worth the opponent's extension value), each house worth 1 point, or the
improvement value if the estate holds an improvement card; only the five best estates score. The
AAA has no refusals and no extension penalty. An expansion may turn cards upside down
(hooks.x_aaa_upside, Roswell): such a card is one house and nothing else.
"""

from __future__ import annotations

import numpy as np

from welcome_sim.simcore.ground.jit import kernel
from welcome_sim.simcore.ground.layout import (
    EXTENSION,
    FENCE,
    G_AAA_CARDS,
    G_AAA_ESTATES,
    G_AAA_FENCES,
    G_AAA_N_ESTATES,
    G_AAA_PARKS,
    G_AAA_PLANS,
    G_AAA_POOLS,
    G_AAA_TEMPS,
    G_AAA_TOTAL,
    IMPROVEMENT,
    NO_ACTION,
    PARK,
    POOL,
    TEMP,
)
from welcome_sim.simcore.ground.table import (
    P_OPP_EXT,
    P_OPP_FENCE,
    P_OPP_IMPR,
    P_OPP_PARK,
    P_OPP_POOL,
    P_OPP_SCORES,
    P_OPP_TEMP,
    R_DECK_ACT,
)
from welcome_sim.simcore.rules.expansions.hooks import x_aaa_upside

BEST_ESTATES = 5


@kernel
def aaa_temp_cards(R, cards, n) -> int:
    """Temp cards in the AAA's stack (an upside-down one is none)."""
    k = 0
    prev = NO_ACTION
    for i in range(n):
        a = R[R_DECK_ACT, cards[i]]
        if x_aaa_upside(R, i, prev):
            a = NO_ACTION
        prev = a
        if a == TEMP:
            k += 1
    return k


@kernel
def aaa_score(R, cards, n, plan_points, temp_points, out_g) -> None:
    """Write the AAA's score card (G_AAA_* columns) from its n cards, in the order given."""
    count = np.zeros(6, dtype=np.int64)
    best = np.zeros(BEST_ESTATES, dtype=np.int64)
    houses = 0
    improved = False
    n_estates = 0
    prev = NO_ACTION
    for i in range(n + 1):
        a = FENCE if i == n else R[R_DECK_ACT, cards[i]]
        if i < n:
            if x_aaa_upside(R, i, prev):
                a = NO_ACTION  # one house, its action not counted
            prev = a
            if a != NO_ACTION:
                count[a] += 1
        if a == FENCE:
            if houses > 0:
                n_estates += 1
                value = houses * (R[0, P_OPP_IMPR] if improved else 1)
                # Keep the five best (sorted, descending).
                j = BEST_ESTATES - 1
                if value > best[j]:
                    while j > 0 and best[j - 1] < value:
                        best[j] = best[j - 1]
                        j -= 1
                    best[j] = value
            houses = 0
            improved = False
        elif a == EXTENSION:
            houses += max(1, R[0, P_OPP_EXT])  # level 0 has no value: count the card
        else:
            houses += 1
            if a == IMPROVEMENT:
                improved = True
    scores = R[0, P_OPP_SCORES] == 1
    parks = count[PARK] * R[0, P_OPP_PARK] if scores else 0
    pools = count[POOL] * R[0, P_OPP_POOL] if scores else 0
    temps = count[TEMP] * R[0, P_OPP_TEMP] + temp_points if scores else 0
    fences = count[FENCE] * R[0, P_OPP_FENCE] if scores else 0
    estates = 0
    if scores:
        for j in range(BEST_ESTATES):
            estates += best[j]
    plans = plan_points if scores else 0
    out_g[G_AAA_PLANS] = plans
    out_g[G_AAA_PARKS] = parks
    out_g[G_AAA_POOLS] = pools
    out_g[G_AAA_TEMPS] = temps
    out_g[G_AAA_FENCES] = fences
    out_g[G_AAA_ESTATES] = estates
    out_g[G_AAA_N_ESTATES] = n_estates
    out_g[G_AAA_CARDS] = n
    out_g[G_AAA_TOTAL] = plans + parks + pools + temps + fences + estates
