"""A ruleset's compiled form: validated data (edition, sheet, deck, plans, AAA opponent,
expansion) turned into the int64 table the kernel reads, one named step per part."""

from __future__ import annotations

from typing import Any

import numpy as np

from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.ground.datafiles import PLAN_KINDS, Deck, Edition, Opponent, PlanSet, Sheet
from welcome_sim.simcore.ground.layout import SPECIAL_X
from welcome_sim.simcore.ground.numbers import number_code
from welcome_sim.simcore.ground.table import (
    DEAL_AAA,
    DEAL_EXPERT,
    DEAL_SOLO_CARD,
    DEAL_STACKS,
    N_ROWS,
    P_ADVANCED,
    P_DEAL,
    P_EXPANSION,
    P_EXT_LEN,
    P_EXT_SAME_ESTATE,
    P_FENCE_STREETS,
    P_MAX_REFUSALS,
    P_MAXLEN,
    P_NCARDS,
    P_NMAJ,
    P_NPLANS,
    P_NSTACKS,
    P_NSTREETS,
    P_OPP_EXT,
    P_OPP_FENCE,
    P_OPP_IMPR,
    P_OPP_LEVEL,
    P_OPP_NPOS,
    P_OPP_PARK,
    P_OPP_POOL,
    P_OPP_SCORES,
    P_OPP_TEMP,
    P_OPP_VALIDATES,
    P_PASS_DIR,
    P_POOL_LEN,
    P_RB_MAX,
    P_RESHUFFLE,
    P_SOLO_TEMP_MIN,
    P_SOLO_TEMP_PTS,
    P_TEMP_BOXES,
    P_TIEBREAK_SIZES,
    P_TOTAL_HOUSES,
    P_X_AAA_PART,
    P_X_PART,
    P_X_SPECIALS,
    R_AAA_VALUE,
    R_DECK_ACT,
    R_DECK_NUM,
    R_ESTATE_LEN,
    R_ESTATE_VALS,
    R_EXT_TRACK,
    R_OPP_POS,
    R_PARK_LEN,
    R_PARK_TRACK,
    R_PLAN_ADV,
    R_PLAN_COUNT,
    R_PLAN_ENDS,
    R_PLAN_FIRST,
    R_PLAN_KIND,
    R_PLAN_LATER,
    R_PLAN_MINEXT,
    R_PLAN_MINPOOL,
    R_PLAN_NEED,
    R_PLAN_PLAIN,
    R_PLAN_RB,
    R_PLAN_SLOT,
    R_PLAN_STREET,
    R_PLAN_XARG,
    R_PLAN_XFEAT,
    R_PLAN_XGOAL,
    R_PLAN_XMAX,
    R_PLAN_XMIN,
    R_POOL_COUNT,
    R_POOL_HOUSE,
    R_POOL_TRACK,
    R_RB_TRACK,
    R_REF_TRACK,
    R_STREET_LEN,
    R_TEMP_MAJ,
    R_X_AAA,
    TIE_ESTATES,
    TIE_ESTATES_SIZES,
    TIE_SHARED,
)
from welcome_sim.simcore.ground.tomlread import display_path
from welcome_sim.simcore.rules.expansions.codes import FEATURES, GOALS
from welcome_sim.simcore.rules.expansions.compile import aaa_solo_only, compile_expansion, tie_shared


def _row(T: np.ndarray, r: int, values) -> None:
    """Row r of the table holds a track: its values, then its last value repeated (padding)."""
    T[r, : len(values)] = values
    T[r, len(values) :] = values[-1] if len(values) else 0  # pad tracks with their last value


def _new_table(sh: Sheet, dk: Deck, pl: PlanSet) -> np.ndarray:
    """An empty table wide enough for the deck, the plans, the longest street and every track."""
    width = max(40, len(dk.cards) + 8, len(pl.plans), max(s.houses for s in sh.streets) + 1)
    width = max(width, len(sh.pool_track), len(sh.extension_track), len(sh.refusal_track))
    width = max(width, len(sh.temp_majority), *(len(s.parks) for s in sh.streets))
    return np.zeros((N_ROWS, width), dtype=np.int64)


def _fill_sheet_and_deck(T: np.ndarray, sh: Sheet, dk: Deck) -> None:
    """The sheet's streets, pools, parks and score tracks, and the deck's cards in order."""
    for i, st in enumerate(sh.streets):
        T[R_STREET_LEN, i] = st.houses
        T[R_PARK_LEN, i] = len(st.parks)
        T[R_POOL_HOUSE + i, list(st.pools)] = 1
        T[R_POOL_COUNT, i] = len(st.pools)
        _row(T, R_PARK_TRACK + i, st.parks)
    _row(T, R_POOL_TRACK, sh.pool_track)
    _row(T, R_TEMP_MAJ, sh.temp_majority)
    _row(T, R_EXT_TRACK, sh.extension_track)
    _row(T, R_REF_TRACK, sh.refusal_track)
    for i, col in enumerate(sh.estate_values):
        T[R_ESTATE_LEN, i] = len(col)
        _row(T, R_ESTATE_VALS + i, col)
    T[R_DECK_NUM, : len(dk.cards)] = [number_code(c[0]) for c in dk.cards]
    T[R_DECK_ACT, : len(dk.cards)] = [c[1] for c in dk.cards]


def _fill_plans(T: np.ndarray, sh: Sheet, pl: PlanSet, expansion: Any) -> None:
    """One column per plan card: its scores, slot, estates needed and what its kind asks for."""
    n_streets = len(sh.streets)
    for k, plan in enumerate(pl.plans):
        if plan.street >= n_streets:
            raise WelcomeSimError(
                f"{display_path(pl.path)}: key 'street' of plan {plan.id}: street {plan.street + 1} is not on "
                f"sheet {sh.name}: use 1 to {n_streets} (streets count from 1, 1 = top)"
            )
        T[R_PLAN_FIRST, k] = plan.first
        T[R_PLAN_LATER, k] = plan.later
        T[R_PLAN_SLOT, k] = plan.slot
        for size in plan.estates:
            T[R_PLAN_NEED + size, k] += 1
        T[R_PLAN_KIND, k] = PLAN_KINDS.index(plan.kind)
        T[R_PLAN_STREET, k] = -2 if plan.same_street else plan.street
        T[R_PLAN_COUNT, k] = plan.count
        T[R_PLAN_RB, k] = plan.roundabouts
        T[R_PLAN_MINPOOL, k] = plan.pools
        T[R_PLAN_MINEXT, k] = plan.extensions
        T[R_PLAN_ENDS, k] = int(plan.ends)
        T[R_PLAN_ADV, k] = int(plan.advanced)
        T[R_PLAN_PLAIN, k] = int(
            plan.kind == "estates"
            and plan.street < 0
            and not (
                plan.same_street
                or plan.ends
                or plan.roundabouts
                or plan.pools
                or plan.extensions
                or plan.feature
            )
        )
        T[R_PLAN_XFEAT, k] = FEATURES.index(plan.feature) + 1 if plan.feature else 0
        T[R_PLAN_XMIN, k] = plan.feature_min
        T[R_PLAN_XMAX, k] = plan.feature_max
        T[R_PLAN_XGOAL, k] = GOALS.index(plan.goal) + 1 if plan.goal else 0
        if plan.colours:
            names = list(expansion.data.get("colours", [])) if expansion is not None else []
            T[R_PLAN_XARG, k] = sum(1 << names.index(c) for c in plan.colours)
        elif plan.scoops:
            T[R_PLAN_XARG, k] = plan.scoops


def _fill_sizes(T: np.ndarray, ed: Edition, sh: Sheet, dk: Deck, pl: PlanSet, expansion: Any) -> None:
    """Row 0's counts of streets, houses, refusals, plans and cards, and the tie-break rule; an
    expansion's special cards join the deck's columns as what the AAA counts them as."""
    n_streets = len(sh.streets)
    P = T[0]
    P[P_NSTREETS] = n_streets
    P[P_FENCE_STREETS] = n_streets if sh.fences else 0
    P[P_MAXLEN] = max(s.houses for s in sh.streets)
    P[P_TEMP_BOXES] = sh.temp_boxes
    P[P_EXT_SAME_ESTATE] = int(ed.extension_same_estate)
    P[P_TIEBREAK_SIZES] = (
        TIE_SHARED
        if expansion is not None and tie_shared(expansion)
        else (TIE_ESTATES_SIZES if ed.tiebreak == "estates_then_sizes" else TIE_ESTATES)
    )
    P[P_TOTAL_HOUSES] = sum(s.houses for s in sh.streets)
    P[P_MAX_REFUSALS] = len(sh.refusal_track) - 1
    P[P_NPLANS] = len(pl.plans)
    P[P_NCARDS] = len(dk.cards)
    for k in range(P[P_X_SPECIALS]):
        # What an expansion's special card counts as in the AAA's stack (Zombie: a Fence card).
        T[R_DECK_NUM, len(dk.cards) + SPECIAL_X + k] = -1
        T[R_DECK_ACT, len(dk.cards) + SPECIAL_X + k] = T[R_X_AAA, 0]


def _check_special_cards(
    P: np.ndarray, ed: Edition, dk: Deck, deal: int, advanced: bool, expansion: Any
) -> None:
    """Refuse an expansion's special cards (Zombie) the mode or the deck cannot deal."""
    if deal in (DEAL_EXPERT, DEAL_AAA) and 0 < P[P_X_SPECIALS] < 3:
        raise WelcomeSimError(
            f"{display_path(expansion.path)}: key 'cards': the {expansion.title} expert and AAA variants use three "
            f"Zombie cards (one per deck or part), this file has {P[P_X_SPECIALS]}"
        )
    if deal == DEAL_SOLO_CARD and (
        P[P_X_SPECIALS] > 0 or (expansion is not None and aaa_solo_only(expansion))
    ):
        raise WelcomeSimError(
            f"--mode {'solo' if not advanced else 'solo-advanced'}: the {expansion.title} rules have a variant for "
            f"the Collector's AAA solo mode, not for the {ed.title}'s solo variant; use --edition collector"
        )
    if deal == DEAL_AAA and 3 * P[P_X_AAA_PART] > len(dk.cards):
        raise WelcomeSimError(
            f"{display_path(expansion.path)}: three AAA parts of {P[P_X_AAA_PART]} cards need more than the deck's "
            f"{len(dk.cards)} cards"
        )
    if P[P_X_SPECIALS] * P[P_X_PART] > len(dk.cards) - 3:
        raise WelcomeSimError(
            f"{display_path(expansion.path)}: {P[P_X_SPECIALS]} parts of {P[P_X_PART]} cards leave too few of the "
            f"{len(dk.cards)} cards for the second stack"
        )


def _fill_mode(P: np.ndarray, ed: Edition, sh: Sheet, deal: int, advanced: bool, rb_track) -> None:
    """Row 0's track lengths and the mode: deal, Advanced, expert passing, solo scoring, reshuffle."""
    P[P_NMAJ] = len(sh.temp_majority)
    P[P_POOL_LEN] = len(sh.pool_track)
    P[P_EXT_LEN] = len(sh.extension_track)
    P[P_ADVANCED] = int(advanced)
    P[P_DEAL] = deal
    P[P_PASS_DIR] = ed.expert_pass
    P[P_RB_MAX] = min(2, len(rb_track) - 1) if advanced else 0
    P[P_SOLO_TEMP_MIN] = ed.solo_temp_min
    P[P_SOLO_TEMP_PTS] = ed.solo_temp_points
    # Only the three-stack deal has "trois nouvelles piles" to form; hand modes never offer it.
    P[P_RESHUFFLE] = int(ed.reshuffle_on_first_plan and deal == DEAL_STACKS and P[P_NSTACKS] == 3)


def _fill_opponent(T: np.ndarray, o: Opponent, sh: Sheet, pl: PlanSet) -> None:
    """The AAA Opponent card: its points per action, the plans it validates, its temp positions."""
    P = T[0]
    P[P_OPP_LEVEL] = o.level
    P[P_OPP_SCORES] = int(o.scores)
    P[P_OPP_PARK], P[P_OPP_POOL], P[P_OPP_TEMP] = o.park, o.pool, o.temp
    P[P_OPP_FENCE], P[P_OPP_EXT], P[P_OPP_IMPR] = o.fence, o.extension, o.improvement
    P[P_OPP_VALIDATES] = sum(1 << pl.letters.index(x) for x in o.validates if x in pl.letters)
    P[P_OPP_NPOS] = min(len(o.temp_positions), len(sh.temp_majority))
    T[R_OPP_POS, : len(o.temp_positions)] = o.temp_positions
    if o.scores:
        # A strategy's rough price of handing the AAA one card of each action (x10, integer
        # table): an improvement lifts an estate of about three houses, an extension adds
        # houses worth about 1.5 points each.
        T[R_AAA_VALUE, :6] = [
            10 * o.fence,
            10 * 3 * (o.improvement - 1) + 10,
            10 * o.park,
            10 * o.pool,
            10 * o.temp + 10,
            15 * o.extension,
        ]


def compile_rules(
    ed: Edition,
    sh: Sheet,
    dk: Deck,
    pl: PlanSet,
    deal: int = DEAL_STACKS,
    advanced: bool = False,
    opponent: Opponent | None = None,
    expansion: Any = None,
) -> np.ndarray:
    """Turn validated data into the int64 table the kernel reads (rows R_*, params in row 0)."""
    T = _new_table(sh, dk, pl)
    _fill_sheet_and_deck(T, sh, dk)
    _fill_plans(T, sh, pl, expansion)
    T[0, P_NSTACKS] = 3
    if expansion is not None:
        # The expansion's rows and params, before the ones below that read them (specials, stacks).
        compile_expansion(T, expansion, sh)
        T[0, P_EXPANSION] = expansion.code
    rb_track = ed.roundabout_track or sh.roundabout_track
    _row(T, R_RB_TRACK, rb_track)
    _fill_sizes(T, ed, sh, dk, pl, expansion)
    _check_special_cards(T[0], ed, dk, deal, advanced, expansion)
    _fill_mode(T[0], ed, sh, deal, advanced, rb_track)
    if opponent is not None:
        _fill_opponent(T, opponent, sh, pl)
    return T
