"""Advanced mode, the Blueprint sheet, expert mode and both solo modes, rule by rule.

Each rule is checked on a hand-built situation in the kernel and, where the referee has its own
reading, in the referee too; then whole games of every mode are replayed by the referee.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from conftest import run_cli
from handsheets import Spec, kernel_table, referee_sheet

from welcome_sim.errors import DataError, WelcomeSimError
from welcome_sim.referee import load_rules
from welcome_sim.referee.plans import PlanError, check_plan
from welcome_sim.referee.replay import IllegalMove, aaa_score, replay
from welcome_sim.simcore.engine.game import game_seeds, simulate
from welcome_sim.simcore.ground.datafiles import dump_sheet, load_opponents, load_sheet
from welcome_sim.simcore.ground.layout import (
    ACTION_NAMES,
    EMPTY,
    F_LOCK,
    G_AAA_ESTATES,
    G_AAA_FENCES,
    G_AAA_N_ESTATES,
    G_AAA_PARKS,
    G_AAA_POOLS,
    G_AAA_TEMPS,
    G_AAA_TOTAL,
    G_LEN,
    LOG_DECK,
    LOG_PASS,
    O_N_RB,
    O_RB_PEN,
    O_TOTAL,
    ROUNDABOUT,
)
from welcome_sim.simcore.ground.numbers import number_code
from welcome_sim.simcore.ground.table import R_DECK_ACT
from welcome_sim.simcore.rules.aaa import aaa_score as kernel_aaa_score
from welcome_sim.simcore.rules.expansions.registry import OUT_LEN
from welcome_sim.simcore.rules.plans import plan_check
from welcome_sim.simcore.rules.ruleset import load_ruleset
from welcome_sim.simcore.rules.scoring import score_table, solo_temp_points
from welcome_sim.simcore.rules.sheetops import roundabout_ok, street_bounds
from welcome_sim.verify import check_batch, referee_rules, split_log

CLASSIC = [10, 11, 12]


@pytest.fixture(scope="module")
def advanced():
    return load_ruleset("collector", mode="advanced")


@pytest.fixture(scope="module")
def ref_advanced():
    return load_rules("collector", mode="advanced")


def blank(*rows: dict[int, str]) -> list[list[str]]:
    """Classic streets, empty but for {house: token} per street."""
    out = []
    for s, n in enumerate(CLASSIC):
        row = ["."] * n
        for h, tok in (rows[s] if s < len(rows) else {}).items():
            row[h] = tok
        out.append(row)
    return out


# --- roundabouts ----------------------------------------------------------------------------


def test_roundabouts_only_in_advanced_mode_in_empty_houses_at_most_two(collector, advanced):
    spec = Spec(streets=blank({3: "7"}))
    R, cells, _flags, _fences, sc = advanced.kernel, *kernel_table(advanced.kernel, [spec])
    assert roundabout_ok(R, cells, sc, 0, 0, 5)
    assert not roundabout_ok(R, cells, sc, 0, 0, 3)  # a numbered house
    assert not roundabout_ok(collector.kernel, cells, sc, 0, 0, 5)  # standard mode: none
    two = Spec(streets=blank({2: "R"}, {4: "R"}))
    _, cells2, _, _, sc2 = advanced.kernel, *kernel_table(advanced.kernel, [two])
    assert sc2[0, 21] == 2  # SC_ROUNDABOUTS
    assert not roundabout_ok(R, cells2, sc2, 0, 0, 5)  # the third one


def test_a_roundabout_restarts_the_numbering_and_fences_both_sides(advanced, ref_advanced):
    # Street 0: 9 . R . . : left of the roundabout nothing above 9 fits, after it numbers restart at 0.
    spec = Spec(streets=blank({0: "9", 2: "R"}))
    R = advanced.kernel
    cells, flags, fences, sc = kernel_table(R, [spec])
    lo = np.zeros((3, 12), dtype=np.int64)
    hi = np.zeros((3, 12), dtype=np.int64)
    street_bounds(R, cells, 0, lo, hi)
    assert cells[0, 0, 2] == ROUNDABOUT and fences[0, 0, 2] & 1 and fences[0, 0, 3] & 1
    assert lo[0, 1] == number_code(9) and hi[0, 1] > number_code(17)  # house 1: only numbers above 9
    assert lo[0, 3] == -1  # house 3: 0 fits again
    ref = referee_sheet(ref_advanced, spec)
    assert ref.can_write(0, 3, 0) is None and ref.can_write(0, 3, 1) is None
    assert ref.can_write(0, 1, 5) is not None  # 5 < 9 on its left
    assert ref.can_write(0, 2, 12) is not None  # the roundabout itself


def test_a_roundabout_is_no_house_nor_estate_and_costs_its_track(advanced, ref_advanced):
    # Street 0: houses 0-1 numbered, a roundabout at 2: the estate 0-1 is complete (size 2);
    # the roundabout is not an estate of size 1.
    spec = Spec(streets=blank({0: "1", 1: "2", 2: "R", 3: "R"}))
    R = advanced.kernel
    out = np.zeros((1, OUT_LEN), dtype=np.int64)
    score_table(R, *kernel_table(R, [spec]), 1, out, -1)
    ref = referee_sheet(ref_advanced, spec).components(0)
    assert out[0, O_N_RB] == 2 and out[0, O_RB_PEN] == 8  # Collector's track 0, 3, 8
    assert ref["roundabout_penalty"] == 8
    assert out[0, 16] == ref["n_estates"] == 1  # O_N_ESTATES: the size-2 estate only
    assert out[0, O_TOTAL] == ref["total"] == 2 - 8  # a size-2 estate is worth 2 unimproved


def test_first_edition_roundabouts_cost_3_then_5_more():
    """001: "Le premier rond-point coûte 3 points et le second 5 points. À la fin de partie, la plus
    petite valeur visible est décomptée du score final." The second costs 5 more: 3 + 5 = 8 in all,
    the track 0, 3, 8 of the first edition's published online version (the first edition's published online version)."""
    rs = load_ruleset("first", mode="advanced")
    rules = load_rules("first", mode="advanced")
    for spec, penalty in [
        (Spec(streets=blank({2: "R"}, {4: "R"})), 8),
        (Spec(streets=blank({2: "R"})), 3),
        (Spec(streets=blank()), 0),
    ]:
        out = np.zeros((1, OUT_LEN), dtype=np.int64)
        score_table(rs.kernel, *kernel_table(rs.kernel, [spec]), 1, out, -1)
        assert out[0, O_RB_PEN] == penalty
        assert referee_sheet(rules, spec).components(0)["roundabout_penalty"] == penalty


# --- advanced plans -------------------------------------------------------------------------


def _plan(rs, pid: str) -> int:
    return next(i for i, p in enumerate(rs.plans.plans) if p.id == pid)


def _both(rs, rules, spec: Spec, pid: str) -> tuple[bool, bool]:
    """Whether the kernel and the referee (given what the kernel would use) accept the plan."""
    R = rs.kernel
    cells, flags, fences, sc = kernel_table(R, [spec])
    used = np.zeros((16, 3), dtype=np.int64)
    k = _plan(rs, pid)
    n = plan_check(R, cells, flags, fences, sc, 0, k, False, used)
    sh = referee_sheet(rules, spec)
    plan = rules.plans[k]
    items = [tuple(int(x) for x in used[i]) for i in range(max(n, 0))]
    try:
        check_plan(sh, plan, items, plan["kind"] in ("street_full", "street_ends", "extensions_in_street"))
        ref_ok = True
    except PlanError:
        ref_ok = False
    return n >= 0, ref_ok if n >= 0 else False


CASES = [
    # (plan, sheet that meets it, sheet that does not)
    (
        "A-adv-1",  # size-1 estates at both ends of every street
        Spec(
            streets=blank({0: "1", 9: "15"}, {0: "1", 10: "15"}, {0: "1", 11: "15"}),
            fences={0: [1, 9], 1: [1, 10], 2: [1, 11]},
        ),
        Spec(
            streets=blank({0: "1", 9: "15"}, {0: "1", 10: "15"}, {0: "1", 5: "8"}),
            fences={0: [1, 9], 1: [1, 10], 2: [1, 5, 6]},
        ),
    ),
    (
        "A-adv-2",  # street 0: sizes 2 and 6
        Spec(
            streets=blank({0: "1", 1: "2", 2: "3", 3: "4", 4: "5", 5: "6", 6: "7", 7: "8"}),
            fences={0: [2, 8]},
        ),
        Spec(
            streets=blank({}, {0: "1", 1: "2", 2: "3", 3: "4", 4: "5", 5: "6", 6: "7", 7: "8"}),
            fences={1: [2, 8]},
        ),
    ),
    (
        "A-adv-5",  # one street: two size-4 estates and a roundabout
        Spec(
            streets=blank({0: "1", 1: "2", 2: "3", 3: "4", 4: "R", 5: "1", 6: "2", 7: "3", 8: "4"}),
            fences={0: [9]},
        ),
        Spec(
            streets=blank({0: "1", 1: "2", 2: "3", 3: "4"}, {0: "1", 1: "2", 2: "3", 3: "4", 4: "R"}),
            fences={0: [4]},
        ),
    ),
    (
        "B-adv-1",  # sizes 1, 1, 2, a pool built in each
        Spec(
            streets=blank({1: "2", 2: "3", 6: "7", 7: "8"}),
            fences={0: [1, 3, 6, 7, 8]},
            pools=[(0, 2), (0, 6), (0, 7)],
        ),
        Spec(
            streets=blank({1: "2", 2: "3", 6: "7", 7: "8"}),
            fences={0: [1, 3, 6, 7, 8]},
            pools=[(0, 2), (0, 6)],
        ),
    ),
    (
        "B-adv-5",  # sizes 4 and 5, two bis in each
        Spec(
            streets=blank({0: "1", 1: "1B", 2: "2", 3: "2B", 4: "3", 5: "3B", 6: "4", 7: "4B", 8: "5"}),
            fences={0: [4, 9]},
        ),
        Spec(
            streets=blank({0: "1", 1: "1B", 2: "2", 3: "3", 4: "4", 5: "4B", 6: "5", 7: "6", 8: "7"}),
            fences={0: [4, 9]},
        ),
    ),
    ("C-adv-1", Spec(streets=blank(), parks=[2, 3, 2]), Spec(streets=blank(), parks=[2, 2, 2])),
    ("C-adv-2", Spec(streets=blank(), parks=[2, 2, 2]), Spec(streets=blank(), parks=[3, 4, 1])),
    ("C-adv-3", Spec(streets=blank(), parks=[3, 4, 0]), Spec(streets=blank(), parks=[3, 3, 4])),
    ("C-adv-4", Spec(streets=blank(), temps=5), Spec(streets=blank(), temps=4)),
    (
        "C-adv-5",
        Spec(streets=blank(), improvements=[1, 2, 3, 0, 0, 0]),
        Spec(streets=blank(), improvements=[1, 2, 2, 0, 0, 0]),
    ),
    (
        "C-adv-6",
        Spec(streets=blank(), improvements=[1, 2, 3, 0, 0, 0]),
        Spec(streets=blank(), improvements=[1, 2, 2, 3, 0, 0]),
    ),
]


@pytest.mark.parametrize(("pid", "meets", "fails"), CASES, ids=[c[0] for c in CASES])
def test_collector_advanced_plans(advanced, ref_advanced, pid, meets, fails):
    assert _both(advanced, ref_advanced, meets, pid) == (True, True)
    assert _both(advanced, ref_advanced, fails, pid)[0] is False


def test_every_collector_advanced_plan_has_its_rulebook_requirement(advanced):
    adv = [p for p in advanced.plans.plans if p.advanced]
    assert [sum(p.letter == x for p in adv) for x in "ABC"] == [6, 5, 6]
    assert all(p.text for p in adv)


FIRST_CASES = [
    (
        "1-adv-1",
        Spec(streets=[["."] * 10, ["."] * 11, [str(i) for i in range(12)]]),
        Spec(streets=[["."] * 10, ["."] * 11, [str(i) for i in range(11)] + ["."]]),
    ),
    (
        "1-adv-3",
        Spec(
            streets=blank(
                {0: "1", 1: "1B", 2: "2", 3: "2B", 4: "3", 5: "3B", 6: "4", 7: "4B", 8: "5", 9: "5B"}
            )
        ),
        Spec(
            streets=blank(
                {0: "1", 1: "1B", 2: "2", 3: "2B", 4: "3", 5: "3B", 6: "4", 7: "4B"}, {0: "1", 1: "1B"}
            )
        ),
    ),
    (
        "1-adv-5",
        Spec(streets=blank({0: "1", 9: "9"}, {0: "1", 10: "9"}, {0: "1", 11: "9"})),
        Spec(streets=blank({0: "1", 9: "9"}, {0: "1"}, {0: "1", 11: "9"})),
    ),
    ("2-adv-1", Spec(streets=blank(), parks=[3, 4, 0]), Spec(streets=blank(), parks=[3, 3, 4])),
    (
        "2-adv-3",
        Spec(
            streets=blank({2: "2", 6: "6", 7: "7"}, {0: "0", 3: "3", 7: "7"}),
            pools=[(0, 2), (0, 6), (0, 7), (1, 0), (1, 3), (1, 7)],
        ),
        Spec(
            streets=blank({2: "2", 6: "6", 7: "7"}, {0: "0", 3: "3", 7: "7"}),
            pools=[(0, 2), (0, 6), (0, 7), (1, 0), (1, 3)],
        ),
    ),
    (
        "2-adv-2",
        Spec(
            streets=blank({2: "2", 4: "R", 6: "6", 7: "7"}), pools=[(0, 2), (0, 6), (0, 7)], parks=[3, 0, 0]
        ),
        Spec(streets=blank({2: "2", 6: "6", 7: "7"}), pools=[(0, 2), (0, 6), (0, 7)], parks=[3, 0, 0]),
    ),
    (
        "2-adv-5",
        Spec(streets=blank({}, {0: "0", 3: "3", 7: "7"}), pools=[(1, 0), (1, 3), (1, 7)], parks=[0, 4, 0]),
        Spec(streets=blank({}, {0: "0", 3: "3", 7: "7"}), pools=[(1, 0), (1, 3), (1, 7)], parks=[0, 3, 0]),
    ),
]


@pytest.mark.parametrize(("pid", "meets", "fails"), FIRST_CASES, ids=[c[0] for c in FIRST_CASES])
def test_first_edition_advanced_plans(pid, meets, fails):
    rs, rules = load_ruleset("first", mode="advanced"), load_rules("first", mode="advanced")
    assert _both(rs, rules, meets, pid) == (True, True)
    assert _both(rs, rules, fails, pid)[0] is False


def test_houses_used_by_a_plan_count_for_no_other(advanced):
    """Once validated, an estate plan's estates are locked (no fence inside, no second plan)."""
    spec = Spec(
        streets=blank({0: "1", 1: "2", 2: "3", 3: "4", 4: "R", 5: "1", 6: "2", 7: "3", 8: "4"}),
        fences={0: [9]},
    )
    R = advanced.kernel
    cells, flags, fences, sc = kernel_table(R, [spec])
    used = np.zeros((16, 3), dtype=np.int64)
    k = _plan(advanced, "A-adv-5")
    assert plan_check(R, cells, flags, fences, sc, 0, k, True, used) == 2
    assert all(flags[0, 0, h] & F_LOCK for h in (0, 1, 2, 3, 5, 6, 7, 8))
    assert plan_check(R, cells, flags, fences, sc, 0, k, False, used) == -1


# --- the AAA --------------------------------------------------------------------------------


def _cards(rs, actions: list[str]) -> np.ndarray:
    """Deck card indices with these actions (any number)."""
    R = rs.kernel
    by_action = {ACTION_NAMES[R[R_DECK_ACT, c]]: c for c in range(int(R[0, 8]))}
    return np.array([by_action[a] for a in actions], dtype=np.int64)


def test_sam_scores_the_rulebook_example_estate():
    """Sam: 3 cards of one house each and an extension card worth 2 houses, with an improvement
    in the estate: 5 houses x 2 points = 10 (core rules example)."""
    rs = load_ruleset("collector", mode="solo", opponent="sam")
    cards = _cards(rs, ["fence", "park", "improvement", "temp", "extension", "fence"])
    out = np.zeros(G_LEN, dtype=np.int64)
    pts = np.zeros(2, dtype=np.int64)
    solo_temp_points(rs.kernel, 0, 1, pts)  # a player without temps: the AAA's one temp card is first
    kernel_aaa_score(rs.kernel, cards, len(cards), 0, int(pts[1]), out)
    assert out[G_AAA_ESTATES] == 10 and out[G_AAA_N_ESTATES] == 1
    assert out[G_AAA_PARKS] == 1 and out[G_AAA_FENCES] == 2  # 1 per park card, 1 per fence card
    ref = aaa_score(referee_rules(rs), [int(c) for c in cards], 0, 0)
    assert ref["estates"] == 10 and ref["total"] == out[G_AAA_TOTAL]


def test_sams_card_is_the_published_one():
    """The expansions' rulebook reads Sam's Opponent card out (The American Dream, "AAA SOLO MODE"):
    "with Sam, a level 1 opponent: Each Park, Pool, Temporary worker and Fence card earns him 1
    point, and each Extension and Improvement card earns him 2 points". The core AAA mode scores
    from the same card: 1 per pool card too, in the kernel and the referee."""
    sam = load_opponents("collector").find("sam")
    assert (sam.level, sam.park, sam.pool, sam.temp, sam.fence) == (1, 1, 1, 1, 1)
    assert (sam.extension, sam.improvement) == (2, 2)
    rs = load_ruleset("collector", mode="solo", opponent="sam")
    cards = _cards(rs, ["pool", "pool", "fence", "pool"])
    out = np.zeros(G_LEN, dtype=np.int64)
    kernel_aaa_score(rs.kernel, cards, len(cards), 0, 0, out)
    assert out[G_AAA_POOLS] == 3 and out[G_AAA_FENCES] == 1
    ref = aaa_score(referee_rules(rs), [int(c) for c in cards], 0, 0)
    assert ref["pools"] == 3 and ref["fences"] == 1 and ref["total"] == out[G_AAA_TOTAL]


def test_aaa_keeps_only_its_five_best_estates_and_no_fence_means_one_estate():
    rs = load_ruleset("collector", mode="solo", opponent="sam")
    acts = ["park"] * 6 + ["fence", "park"] * 5  # estates of 6,1,1,1,1,1 houses
    cards = _cards(rs, acts)
    out = np.zeros(G_LEN, dtype=np.int64)
    kernel_aaa_score(rs.kernel, cards, len(cards), 0, 0, out)
    assert out[G_AAA_N_ESTATES] == 6 and out[G_AAA_ESTATES] == 6 + 4
    assert aaa_score(referee_rules(rs), [int(c) for c in cards], 0, 0)["estates"] == 10


def test_temp_majority_against_the_aaa_rulebook_example():
    """You crossed 4 temp boxes and gave Sam 4 temp cards: both take first place, and Sam scores
    1 more per temp card."""
    rs = load_ruleset("collector", mode="solo", opponent="sam")
    pts = np.zeros(2, dtype=np.int64)
    solo_temp_points(rs.kernel, 4, 4, pts)
    assert pts.tolist() == [7, 7]
    cards = _cards(rs, ["temp"] * 4)
    out = np.zeros(G_LEN, dtype=np.int64)
    kernel_aaa_score(rs.kernel, cards, 4, 0, int(pts[1]), out)
    assert out[G_AAA_TEMPS] == 7 + 4
    ref = aaa_score(referee_rules(rs), [int(c) for c in cards], 0, 4)
    assert ref["temps"] == 11 and ref["player_temps"] == 7
    solo_temp_points(rs.kernel, 3, 0, pts)  # no temp card: the AAA scores none, the player is first
    assert pts.tolist() == [7, 0]


def test_level_0_scores_nothing_and_places_the_player_by_the_card():
    rs = load_ruleset("collector", mode="solo", opponent="0")
    res = simulate(rs, game_seeds(5, 40), 1, ["greedy"], log=True)
    assert (res.game_column("aaa_total") == 0).all()
    assert (res.column("rank") == 1).all()
    assert check_batch(res) == []


def test_irene_validates_plans_a_and_c_not_b():
    rs = load_ruleset("collector", mode="solo", opponent="irene")
    res = simulate(rs, game_seeds(9, 300), 1, ["first-fit"], log=True)
    plans_rows = res.log[res.log[:, 3] == 7]  # LOG_AAA_PLAN
    assert set(plans_rows[:, 4].tolist()) == {0, 2}
    assert check_batch(res) == []


def test_aaa_setup_and_card_flow():
    """20 cards and one validation card at the bottom, two validation cards in the discard pile;
    every round the card not used goes to the AAA, and only the player ends the game."""
    rs = load_ruleset("collector", mode="solo", opponent="3")
    res = simulate(rs, game_seeds(2, 50), 1, ["greedy"], log=True)
    n = 63
    for g, rows in split_log(res.log).items():
        deck = [r[5] for r in sorted((r for r in rows if r[3] == LOG_DECK and r[1] == 0), key=lambda r: r[4])]
        special = [i for i, c in enumerate(deck) if c >= n]
        assert len(deck) == 64 and len(special) == 1 and special[0] >= 64 - 21
        passes = [r for r in rows if r[3] == LOG_PASS]
        assert all(r[5] == -1 for r in passes)
        assert res.game_column("aaa_cards")[g] == len(passes) == res.game_column("rounds")[g]
    assert check_batch(res) == []


def test_a_tie_goes_to_the_player_only_with_more_complete_estates():
    rs = load_ruleset("collector", mode="solo", opponent="2")
    res = simulate(rs, game_seeds(4, 400), 1, ["greedy"])
    total, aaa = res.column("total")[:, 0], res.game_column("aaa_total")
    won = res.column("rank")[:, 0] == 1
    n_est, aaa_est = res.column("n_estates")[:, 0], res.game_column("aaa_n_estates")
    expect = (total > aaa) | ((total == aaa) & (n_est > aaa_est))
    assert (won == expect).all()
    assert 0.2 < won.mean() < 0.95  # a contest, not a formality


def test_tampered_aaa_log_is_rejected():
    rs = load_ruleset("collector", mode="solo", opponent="1")
    res = simulate(rs, game_seeds(6, 1), 1, ["greedy"], log=True)
    rows = res.log.tolist()
    i = next(i for i, r in enumerate(rows) if r[3] == LOG_PASS and r[1] == 3)
    rows[i][4] = (rows[i][4] + 1) % 63  # give the AAA another card
    with pytest.raises(IllegalMove, match="passed card"):
        replay(referee_rules(rs), rows, 1)


# --- expert mode ----------------------------------------------------------------------------


def test_expert_mode_passes_the_third_card_left_and_the_first_edition_right():
    for edition, step in (("collector", 1), ("first", -1)):
        rs = load_ruleset(edition, mode="expert")
        res = simulate(rs, game_seeds(3, 20), 3, ["greedy"], log=True)
        passes = res.log[res.log[:, 3] == LOG_PASS]
        assert ((passes[:, 2] + step) % 3 == passes[:, 5]).all()
        assert check_batch(res) == []


def test_expert_mode_needs_a_table_and_solo_mode_one_player():
    with pytest.raises(WelcomeSimError, match="use 2 to 8 players"):
        simulate(load_ruleset("collector", mode="expert"), game_seeds(1, 1), 1, ["greedy"])
    with pytest.raises(WelcomeSimError, match="solo mode; use --players 1"):
        simulate(load_ruleset("collector", mode="solo"), game_seeds(1, 1), 2, ["greedy"])
    with pytest.raises(WelcomeSimError, match="--opponent: only the AAA solo mode"):
        load_ruleset("collector", mode="expert", opponent="2")
    with pytest.raises(WelcomeSimError, match="unknown opponent 'bob'"):
        load_ruleset("collector", mode="solo", opponent="bob")
    with pytest.raises(WelcomeSimError, match="unknown opponent 'Irine' \\(did you mean 'irene'\\?\\)"):
        load_ruleset("collector", mode="solo", opponent="Irine")


def test_tampered_expert_log_is_rejected():
    rs = load_ruleset("collector", mode="expert")
    res = simulate(rs, game_seeds(8, 1), 2, ["greedy"], log=True)
    rows = res.log.tolist()
    i = next(i for i, r in enumerate(rows) if r[3] == LOG_PASS and r[1] == 2)
    rows[i][5] = rows[i][2]  # pass the card to oneself
    with pytest.raises(IllegalMove, match="the third card goes to"):
        replay(referee_rules(rs), rows, 2)


# --- first-edition solo variant -------------------------------------------------------------


def test_first_edition_solo_card_deck_temps_and_end():
    rs = load_ruleset("first", mode="solo")
    res = simulate(rs, game_seeds(12, 200), 1, ["spread"], log=True)
    assert check_batch(res) == []
    for rows in split_log(res.log).values():
        deck = [r[5] for r in sorted((r for r in rows if r[3] == LOG_DECK and r[1] == 0), key=lambda r: r[4])]
        pos = next(i for i, c in enumerate(deck) if c >= 81)
        assert pos >= 82 - 42  # in the lower pile
    temps = res.column("n_temps")[:, 0]
    pts = res.column("temps")[:, 0]
    assert ((pts == 7) == (temps >= 6)).all() and set(np.unique(pts)) <= {0, 7}
    ends = res.game_column("end_reason")
    assert (ends & 16).any()  # some games end with the deck (27 rounds of 3 cards)
    assert (res.game_column("rounds") <= 27).all()
    # After the solo card, no plan scores its first value.
    special = res.game_column("special_round")
    for letter in "abc":
        rnd = res.column(f"plan_{letter}_round")[:, 0]
        first = res.column(f"plan_{letter}_first")[:, 0]
        late = (rnd > 0) & (special > 0) & (rnd >= special)
        assert not first[late].any()


# --- every mode through the referee ---------------------------------------------------------

MODES = [
    ("collector", "advanced", None, 3),
    ("collector", "expert", None, 4),
    ("collector", "expert-advanced", None, 2),
    ("collector", "solo", "1", 1),
    ("collector", "solo", "5", 1),
    ("collector", "solo-advanced", "2", 1),
    ("first", "advanced", None, 2),
    ("first", "expert-advanced", None, 3),
    ("first", "solo", None, 1),
    ("first", "solo-advanced", None, 1),
]


@pytest.mark.parametrize(("edition", "mode", "opp", "players"), MODES)
def test_referee_replays_every_mode(edition, mode, opp, players):
    rs = load_ruleset(edition, mode=mode, opponent=opp)
    for strat, games in (("random", 300), ("spread", 300), ("first-fit", 200), ("greedy", 25)):
        res = simulate(rs, game_seeds(21, games), players, [strat], log=True)
        assert check_batch(res) == [], (strat, check_batch(res)[:3])
    if mode.endswith("advanced"):
        assert res.column("n_roundabouts").sum() > 0  # roundabouts were built


@pytest.mark.slow
@pytest.mark.parametrize(("edition", "mode", "opp", "players"), MODES)
def test_referee_replays_thousands_of_games_per_mode(edition, mode, opp, players):
    rs = load_ruleset(edition, mode=mode, opponent=opp)
    for strat, games in (("random", 2000), ("spread", 2000), ("greedy", 300)):
        res = simulate(rs, game_seeds(77, games), players, [strat], log=True)
        assert check_batch(res) == []


# --- sheets ---------------------------------------------------------------------------------


def test_blueprint_is_a_reconstructed_sheet_unlike_the_classic():
    bp, cl = load_sheet("blueprint"), load_sheet("classic")
    assert bp.provenance == "reconstructed"
    assert [s.houses for s in bp.streets] != [s.houses for s in cl.streets]
    assert bp.pool_track != cl.pool_track and bp.estate_values != cl.estate_values
    rs = load_ruleset("collector", "blueprint", mode="advanced")
    assert "data/sheets/blueprint.toml" in rs.reconstructed
    res = simulate(rs, game_seeds(1, 100), 2, ["spread"], log=True)
    assert check_batch(res) == []


def test_a_custom_sheet_round_trips(tmp_path):
    for name in ("classic", "blueprint"):
        sheet = load_sheet(name)
        path = tmp_path / f"{name}.toml"
        path.write_text(dump_sheet(sheet))
        again = load_sheet(str(path))
        assert dataclasses.replace(again, path=sheet.path) == sheet


def test_a_custom_sheet_plays_and_a_malformed_one_fails_clearly(tmp_path):
    sheet = dataclasses.replace(load_sheet("classic"), name="two-streets", provenance="reconstructed")
    sheet = dataclasses.replace(sheet, streets=sheet.streets[:2])
    good = tmp_path / "two.toml"
    good.write_text(dump_sheet(sheet))
    rs = load_ruleset("collector", str(good))
    assert check_batch(simulate(rs, game_seeds(2, 50), 1, ["spread"], log=True)) == []
    # A plan on a street the sheet does not have is refused, naming the plan and the sheet.
    with pytest.raises(
        WelcomeSimError, match="plan A-adv-4: street 3 is not on sheet two-streets: use 1 to 2"
    ):
        load_ruleset("collector", str(good), mode="advanced")
    bad = tmp_path / "bad.toml"
    bad.write_text(dump_sheet(sheet).replace("houses = 11", "houses = 40"))
    with pytest.raises(
        DataError, match=r"bad.toml.*streets\[1\].houses.*40 is not a street's length: use 1 to 15 houses"
    ):
        load_sheet(str(bad))
    res = run_cli("play", "--sheet", str(bad))
    assert res.returncode == 2 and "streets[1].houses" in res.stderr


def test_play_shows_a_solo_game_against_the_aaa():
    res = run_cli("play", "--mode", "solo", "--opponent", "irene", "--seed", "3")
    assert res.returncode == 0, res.stderr
    assert "AAA opponent level 2 (irene)" in res.stdout
    assert "AAA" in res.stdout and "referee: every move legal" in res.stdout
    res = run_cli("play", "--mode", "expert", "--players", "1")
    assert res.returncode == 2 and "use 2 to 8 players" in res.stderr


def test_empty_cells_constant_is_what_the_sheet_uses():
    assert EMPTY == -1 and ROUNDABOUT == -2
