"""Zombie Outbreak in the kernel: each rule of the expansion rules ("Zombie Outbreak", "Expert mode
for Zombie Outbreak", 2023) on hand-built sheets or on the logs of whole games. The
referee's own reading is checked in test_referee_zombies.py."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from handsheets import Spec, kernel_table

from welcome_sim.errors import DataError, WelcomeSimError
from welcome_sim.simcore.engine.game import game_seeds, simulate
from welcome_sim.simcore.engine.steps import end_check
from welcome_sim.simcore.ground.layout import (
    B_FENCE,
    END_DECK,
    END_FULL,
    END_STACK,
    F_LOCK,
    F_POOL,
    FENCE,
    G_AAA_N_ESTATES,
    G_LEN,
    IMPROVEMENT,
    LOG_DECK,
    LOG_END,
    LOG_MOVE,
    LOG_PASS,
    LOG_STACK,
    LOG_X_HOLD,
    LOG_X_INVADE,
    LOG_X_ZOMBIE,
    PARK,
    ROUNDABOUT,
    SC_EXT,
    SC_FENCES,
    SC_IMPR,
    SC_NUMBERED,
    SC_PLAN_SCORE,
    SC_POOLS,
    SC_SEALED,
    SPECIAL_X,
    ZOMBIE,
)
from welcome_sim.simcore.ground.numbers import number_code
from welcome_sim.simcore.rules.aaa import aaa_score
from welcome_sim.simcore.rules.expansions import zombies
from welcome_sim.simcore.rules.expansions.registry import OUT_COLUMNS, OUT_LEN
from welcome_sim.simcore.rules.expansions.zombies import (
    F_BARRICADE,
    SC_AMMO_USED,
    SC_BARRICADES,
    SC_HORDE,
    SC_ZCARDS,
)
from welcome_sim.simcore.rules.plans import plan_check
from welcome_sim.simcore.rules.ruleset import load_ruleset
from welcome_sim.simcore.rules.scoring import score_table
from welcome_sim.simcore.rules.sheetops import Sheets, apply_move, estate_counts, extension_ok, street_bounds
from welcome_sim.strategies.context import CTX_LEN, Offer
from welcome_sim.strategies.dispatch import choose_hold
from welcome_sim.strategies.registry import GREEDY

N_CARDS = 63  # the Collector's Edition deck


@pytest.fixture(scope="module")
def rs():
    return load_ruleset(expansion="zombies")


@pytest.fixture(scope="module")
def games(rs):
    """200 logged one-player greedy games and 200 three-player random games."""
    return [
        simulate(rs, game_seeds(11, 200), 1, ["greedy"], log=True),
        simulate(rs, game_seeds(12, 200), 3, ["random"], log=True),
    ]


def blank() -> Spec:
    return Spec(streets=[["."] * 10, ["."] * 11, ["."] * 12])


def sheet(rs, spec: Spec | None = None):
    return kernel_table(rs.kernel, [spec or blank()])


def rows_of(res, g: int) -> np.ndarray:
    log = res.log
    return log[log[:, 0] == g]


def is_zombie(card: int) -> bool:
    return card >= N_CARDS + SPECIAL_X


# --- the deal ------------------------------------------------------------------------------------


def test_first_stack_is_three_tens_each_with_a_zombie_card(games):
    """ "form 3 stacks of 10 cards. Randomly shuffle 1 Zombie card into each of these 3 stacks.
    Place these 3 stacks on top of each other to create the first card stack ... With the
    remaining cards, form the second card stack.\""""
    for res in games:
        for g in range(len(res.seeds)):
            r = rows_of(res, g)
            setup = r[(r[:, 3] == LOG_STACK) & (r[:, 1] == 0)]
            first = setup[setup[:, 4] == 0]
            second = setup[setup[:, 4] == 1]
            first_cards = first[np.argsort(first[:, 5]), 6]
            assert len(first_cards) == 33 and len(second) == N_CARDS - 30
            for part in range(3):
                assert sum(is_zombie(c) for c in first_cards[part * 11 : (part + 1) * 11]) == 1
            cards = sorted(int(c) for c in first_cards if not is_zombie(c)) + sorted(second[:, 6].tolist())
            assert sorted(cards) == list(range(N_CARDS))
            assert sorted(int(c) for c in first_cards if is_zombie(c)) == [
                N_CARDS + SPECIAL_X + k for k in range(3)
            ]
            assert not (setup[:, 4] == 2).any()


def test_two_combinations_a_round(games):
    """ "you must play with only 2 stacks of Construction cards instead of 3. Each round, you will
    have a choice between 2 combinations of cards instead of 3.\""""
    for res in games:
        moves = res.log[res.log[:, 3] == LOG_MOVE]
        assert set(np.unique(moves[:, 4]).tolist()) <= {-1, 0, 1}
        assert (moves[:, 4] == 1).any()


def test_a_zombie_card_acts_when_it_surfaces_and_leaves_the_game(games):
    """ "After flipping the first card from each stack, if a Zombie card appears, you must
    immediately apply its effect. Then, remove it from the game and continue playing normally.\"
    A Zombie card with k construction cards above it surfaces once k cards were flipped: in
    round k (round 1 before the first flip when it is on top)."""
    for res in games:
        for g in range(len(res.seeds)):
            r = rows_of(res, g)
            setup = r[(r[:, 3] == LOG_STACK) & (r[:, 1] == 0) & (r[:, 4] == 0)]
            first_cards = setup[np.argsort(setup[:, 5]), 6]
            applied = r[r[:, 3] == LOG_X_ZOMBIE]
            last_round = int(r[r[:, 3] == LOG_END][0, 1])
            for pos, card in enumerate(first_cards):
                if not is_zombie(card):
                    continue
                above = sum(not is_zombie(c) for c in first_cards[:pos])
                when = max(1, above)
                row = applied[applied[:, 4] == card]
                if when <= last_round:
                    assert len(row) == 1 and row[0, 1] == when and row[0, 5] == 0
                else:
                    assert len(row) == 0


def test_the_last_card_of_the_first_stack_ends_the_game_at_once(games):
    """ "When you flip the last card from the first stack, do not shuffle the cards because the
    game is over" and "when the last card of the first Construction stack is flipped, the game
    ends immediately": 30 cards, one flipped a round, so round 30 is never played."""
    seen = 0
    for res in games:
        ends = res.game_column("end_reason")
        for g in np.flatnonzero(ends & END_STACK):
            seen += 1
            assert ends[g] == END_STACK
            assert res.game_column("rounds")[g] == 29
            r = rows_of(res, g)
            assert int(r[r[:, 3] == LOG_END][0, 1]) == 30
            assert not ((r[:, 3] == LOG_MOVE) & (r[:, 1] == 30)).any()
            assert (r[:, 3] == LOG_X_ZOMBIE).sum() == 3
            # The first stack is never reshuffled: no stack rows for it after set-up.
            assert not ((r[:, 3] == LOG_STACK) & (r[:, 1] > 0) & (r[:, 4] == 0)).any()
    assert seen > 20


# --- hordes, invasions, barricades, ammunition --------------------------------------------------


def test_hordes_walk_inward_one_house_a_move(rs):
    """ "There is one zombie horde at each end of the 3 streets." The left horde walks to house 0,
    1, 2 of its street, the right one to the last houses; past its road (3 arrows) it stops."""
    R = rs.kernel
    cells, flags, fences, sc = sheet(rs)
    assert [zombies.target(R, sc, 0, 0, 0), zombies.target(R, sc, 0, 0, 1)] == [0, 9]
    for k in range(3):
        zombies.advance(R, cells, flags, fences, sc, 0, 2, 1)
        assert sc[0, SC_HORDE + 2 * 2 + 1] == k + 1
    assert zombies.target(R, sc, 0, 2, 1) == -1
    assert zombies.advance(R, cells, flags, fences, sc, 0, 2, 1) == -1
    assert sc[0, SC_HORDE + 5] == 3


def test_a_zombie_card_moves_the_hordes_it_shows(rs):
    """ "The 3 hordes on the left move to the right. The 3 hordes on the right move to the left.
    All 6 hordes move.\""""
    R = rs.kernel
    kinds = {zombies.CARD_KINDS.index(k): i for i, k in enumerate(rs.expansion.data["cards"])}
    left = zombies.card_moves(R, N_CARDS + SPECIAL_X + kinds[0])
    right = zombies.card_moves(R, N_CARDS + SPECIAL_X + kinds[1])
    both = zombies.card_moves(R, N_CARDS + SPECIAL_X + kinds[2])
    assert left == 0b010101 and right == 0b101010 and both == 0b111111


def test_invasion_erases_the_number_writes_z_and_fences_both_sides(rs):
    """ "If it is not barricaded, the zombies invade the house. If the house is numbered, erase the
    number. Write a Z on the house and draw a fence on each side to contain the invasion.\""""
    R = rs.kernel
    spec = blank()
    spec.streets[0][:3] = ["1", "3", "4"]
    cells, flags, fences, sc = sheet(rs, spec)
    assert zombies.advance(R, cells, flags, fences, sc, 0, 0, 0) == -1  # house 0: printed barricade
    assert cells[0, 0, 0] == number_code(1)
    assert zombies.advance(R, cells, flags, fences, sc, 0, 0, 0) == 1  # house 1: none
    assert cells[0, 0, 1] == ZOMBIE
    assert fences[0, 0, 1] & B_FENCE and fences[0, 0, 2] & B_FENCE
    assert sc[0, SC_NUMBERED] == 2 and sc[0, SC_SEALED] == 1 and sc[0, SC_FENCES] == 0


def test_barricaded_houses_and_roundabouts_stop_nothing(rs):
    """ "If it is barricaded, nothing happens." and "If a horde of zombies reaches a roundabout,
    nothing happens.\""""
    R = rs.kernel
    spec = blank()
    spec.streets[0][9] = "R"  # open house, but a roundabout
    spec.streets[1][0] = "2"  # open house, barricade built below
    spec.streets[2][11] = "15"  # printed barricade
    cells, flags, fences, sc = sheet(rs, spec)
    flags[0, 1, 0] |= F_BARRICADE
    assert zombies.advance(R, cells, flags, fences, sc, 0, 0, 1) == -1
    assert zombies.advance(R, cells, flags, fences, sc, 0, 1, 0) == -1
    assert zombies.advance(R, cells, flags, fences, sc, 0, 2, 1) == -1
    assert cells[0, 0, 9] == ROUNDABOUT and cells[0, 1, 0] == number_code(2)
    assert cells[0, 2, 11] == number_code(15) and sc[0, SC_SEALED] == 0


def test_ammunition_starts_at_one_and_improvement_boxes_add_more(rs):
    """ "You start the game with one ammunition already circled and available." "Cross out 1
    circled ammunition and choose 1 zombie horde." "When you cross out an Improvement box with
    ammunition, circle an ammunition in your stock.\""""
    R = rs.kernel
    cells, flags, fences, sc = sheet(rs)
    assert zombies.ammunition(R, sc, 0) == 1 and zombies.can_hold(R, sc, 0, 0, 0)
    zombies.hold(sc, 0)
    assert zombies.ammunition(R, sc, 0) == 0 and not zombies.can_hold(R, sc, 0, 0, 0)
    assert sc[0, SC_AMMO_USED] == 1
    boxes = {(size, box) for size, box in rs.expansion.data["ammunition_boxes"]}
    for size in range(1, 7):
        for box in range(1, len(rs.sheet.estate_values[size - 1])):
            before = zombies.ammunition(R, sc, 0)
            mv = np.array([0, 0, 0, 0, IMPROVEMENT, size - 1, -1, -1], dtype=np.int64)
            sc[0, SC_IMPR + size - 1] += 1  # what apply_move does
            zombies.on_move(R, cells, flags, sc, 0, mv)
            assert zombies.ammunition(R, sc, 0) - before == ((size, box) in boxes)


def test_a_barricade_instead_of_a_fence(rs):
    """ "If you write the number associated with this action in a house without a barricade, you can
    choose to build a barricade instead of a fence.\""""
    R = rs.kernel
    cells, flags, fences, sc = sheet(rs)
    mv = np.array([0, 0, 4, number_code(6), FENCE, 0, 4, 1], dtype=np.int64)
    assert zombies.barricade_ok(R, cells, flags, 0, 0, 3) is False or cells[0, 0, 3] < 0
    cells[0, 0, 4] = number_code(6)
    assert zombies.barricade_ok(R, cells, flags, 0, 0, 4)
    cells[0, 0, 4] = -1
    apply_move(R, cells, flags, fences, sc, 0, mv)
    zombies.on_move(R, cells, flags, sc, 0, mv)
    assert flags[0, 0, 4] & F_BARRICADE and sc[0, SC_BARRICADES] == 1
    assert sc[0, SC_FENCES] == 0 and not fences[0, 0, 4:6].any()
    assert not zombies.barricade_ok(R, cells, flags, 0, 0, 4)  # one barricade a house
    cells[0, 0, 3] = number_code(5)
    assert not zombies.barricade_ok(R, cells, flags, 0, 0, 3)  # printed barricade already


# --- the clarifications --------------------------------------------------------------------------


def test_an_estate_with_a_z_validates_nothing_and_scores_nothing(rs):
    """ "A housing estate with a zombie-infested house cannot be used to validate a plan and does
    not earn any points at the end of the game.\""""
    R = rs.kernel
    spec = blank()
    spec.streets[0][:3] = ["1", "2", "3"]
    spec.fences = {0: [3]}
    cells, flags, fences, sc = sheet(rs, spec)
    counts = np.zeros(7, dtype=np.int64)
    estate_counts(R, cells, flags, fences, 0, counts, True)
    assert counts[3] == 1
    zombies.advance(R, cells, flags, fences, sc, 0, 0, 0)
    zombies.advance(R, cells, flags, fences, sc, 0, 0, 0)  # house 1 invaded
    estate_counts(R, cells, flags, fences, 0, counts, True)
    assert counts[1] == 2 and counts[3] == 0  # the 1 and the 3; the Z is no estate
    out = np.zeros((1, OUT_LEN), dtype=np.int64)
    score_table(R, cells, flags, fences, sc, 1, out, -1)
    assert out[0, OUT_COLUMNS.index("n_estates")] == 2
    assert out[0, OUT_COLUMNS.index("invaded")] == 1


def test_a_split_estate_used_for_a_plan_keeps_the_plan_and_validates_no_other(rs):
    """ "If this housing estate has already been used to validate a plan, the housing estates created
    by this division cannot be used to validate another plan. The already validated plan remains
    validated, and you do not lose the corresponding points.\""""
    R = rs.kernel
    spec = blank()
    spec.streets[0][:3] = ["1", "2", "3"]
    spec.fences = {0: [3]}
    cells, flags, fences, sc = sheet(rs, spec)
    flags[0, 0, 0:3] |= F_LOCK
    sc[0, SC_PLAN_SCORE] = 8
    zombies.advance(R, cells, flags, fences, sc, 0, 0, 0)
    zombies.advance(R, cells, flags, fences, sc, 0, 0, 0)
    counts = np.zeros(7, dtype=np.int64)
    estate_counts(R, cells, flags, fences, 0, counts, True)
    assert counts.sum() == 0  # the pieces are still the used estate's
    estate_counts(R, cells, flags, fences, 0, counts, False)
    assert counts[1] == 2  # ... and they still score as estates
    assert sc[0, SC_PLAN_SCORE] == 8
    out = np.zeros((1, OUT_LEN), dtype=np.int64)
    score_table(R, cells, flags, fences, sc, 1, out, -1)
    assert out[0, OUT_COLUMNS.index("plan_a")] == 8


def test_an_invaded_pool_keeps_its_points_and_a_bis_its_penalty(rs):
    """ "If zombies invade a house with an already built swimming pool, you do not lose the points for
    that swimming pool." "If zombies invade a house numbered with the Extension action (with a B),
    you do not regain the lost points for building that extension.\""""
    R = rs.kernel
    spec = blank()
    spec.streets[0][:2] = ["3", "3B"]
    spec.streets[1][:3] = [".", "0", "4"]
    spec.pools = [(1, 0)]
    cells, flags, fences, sc = sheet(rs, spec)
    cells[0, 1, 0] = number_code(1)
    sc[0, SC_NUMBERED] += 1
    out = np.zeros((1, OUT_LEN), dtype=np.int64)
    score_table(R, cells, flags, fences, sc, 1, out, -1)
    before = out[0].copy()
    assert zombies.advance(R, cells, flags, fences, sc, 0, 0, 0) == -1
    assert zombies.advance(R, cells, flags, fences, sc, 0, 0, 0) == 1  # the 3B
    assert zombies.advance(R, cells, flags, fences, sc, 0, 1, 0) == 0  # the pool house
    assert sc[0, SC_POOLS] == 1 and sc[0, SC_EXT] == 1
    score_table(R, cells, flags, fences, sc, 1, out, -1)
    for name in ("pools", "extension_penalty"):
        assert out[0, OUT_COLUMNS.index(name)] == before[OUT_COLUMNS.index(name)]
    assert flags[0, 1, 0] & F_POOL


def test_a_z_is_no_number_and_does_not_stop_the_numbering(rs):
    """ "A Z is not a number and does not stop the numbering. Example: You have a numbered house with
    an adjacent extension: 5B-5. But this house is then invaded by zombies: 5B-Z. Afterwards, it is
    possible to continue to number like this: 5B-Z-5, or like this, using the Extension action:
    5B-Z-5B.\""""
    R = rs.kernel
    spec = blank()
    spec.streets[2][:9] = [".", ".", ".", ".", ".", "5B", "5", ".", "."]
    cells, flags, fences, sc = sheet(rs, spec)
    cells[0, 2, 6] = ZOMBIE  # 5B-Z (house 6 invaded)
    sc[0, SC_NUMBERED] -= 1
    lo = np.empty((3, 12), dtype=np.int64)
    hi = np.empty((3, 12), dtype=np.int64)
    zombies.bounds(R, cells, flags, 0, lo, hi)
    five = number_code(5)
    assert lo[2, 7] < five < hi[2, 7]  # 5B-Z-5
    assert not lo[2, 7] < number_code(4) < hi[2, 7]
    assert hi[2, 4] > five and lo[2, 4] < number_code(4)  # left of the 5B: below 5, 5 itself too
    assert extension_ok(R, cells, fences, sc, 0, 2, 5, 7)  # 5B-Z-5B, copying across the Z
    assert not extension_ok(R, cells, fences, sc, 0, 2, 5, 8)  # not past an empty house
    # Without the expansion's reading the base order is strict and a Z is skipped all the same.
    street_bounds(R, cells, 0, lo, hi)
    assert lo[2, 7] == five


def test_a_z_is_no_number_for_the_first_editions_full_street_and_bis_plans():
    """ "A Z is not a number" and "If the house is numbered, erase the number. Write a Z on the
    house": a street with a Z is not "every house ... numbered" (first edition plan 1-adv-2, the
    top street), and an invaded bis is no longer a bis number (1-adv-3, "5 bis numbers in one
    street"); a Z can never be numbered again, so the street can no longer meet either plan."""
    first = load_ruleset("first", mode="advanced", expansion="zombies")
    R = first.kernel
    spec = blank()
    spec.streets[0] = [str(h) for h in range(10)]
    # The middle street: 1 1B 2 2B 3 3B 4 4B 5 5B: bis numbers in houses 2, 4, 6, 8, 10.
    spec.streets[1][:10] = ["1", "1B", "2", "2B", "3", "3B", "4", "4B", "5", "5B"]
    cells, flags, fences, sc = kernel_table(R, [spec])
    assert plan_met(first, cells, flags, fences, sc, "1-adv-2")
    assert plan_met(first, cells, flags, fences, sc, "1-adv-3")
    assert zombies.advance(R, cells, flags, fences, sc, 0, 0, 0) == -1  # house 1: barricaded
    assert zombies.advance(R, cells, flags, fences, sc, 0, 0, 0) == 1  # house 2 invaded
    assert not plan_met(first, cells, flags, fences, sc, "1-adv-2")
    spec.streets[1][:10] = ["1B", "1", "2", "2B", "3", "3B", "4", "4B", "5", "5B"]
    cells, flags, fences, sc = kernel_table(R, [spec])
    assert plan_met(first, cells, flags, fences, sc, "1-adv-3")
    assert zombies.advance(R, cells, flags, fences, sc, 0, 1, 0) == 0  # the 1B erased
    assert not plan_met(first, cells, flags, fences, sc, "1-adv-3")
    assert sc[0, SC_EXT] == 5  # the extension keeps its penalty


def test_an_invaded_house_counts_toward_a_full_sheet(rs):
    """A house with a Z is sealed for good: with every other house numbered, the sheet is full
    ("the end of the game ... every house numbered" holds as it does with roundabouts)."""
    sc = np.zeros((1, 60), dtype=np.int64)
    sc[0, SC_NUMBERED] = 31
    sc[0, SC_SEALED] = 2
    assert end_check(sc, 1, END_FULL, 3, 33, False) == 0
    sc[0, SC_SEALED] = 1
    assert end_check(sc, 1, END_FULL, 3, 33, False) != 0


# --- Plan C cards --------------------------------------------------------------------------------


def plan_met(rs, cells, flags, fences, sc, pid: str) -> bool:
    k = [p.id for p in rs.plans.plans].index(pid)
    used = np.zeros((16, 3), dtype=np.int64)
    return plan_check(rs.kernel, cells, flags, fences, sc, 0, k, False, used) >= 0


def test_zombie_plan_c_cards(rs):
    """The five Plan C cards: "Build 2 complete housing estates of size 3, each with at least 1
    barricade built." "Build 5 barricades." "In 1 street: build all the barricades." "Use 4
    ammunitions to slow down the zombies." "You have at least 5 houses invaded by zombies.\""""
    assert sorted(p.id for p in rs.plans.plans if p.letter == "C") == [f"C-Z{i}" for i in range(1, 6)]
    spec = blank()
    spec.streets[0][:6] = ["1", "2", "3", "4", "5", "6"]
    spec.fences = {0: [3, 6]}
    cells, flags, fences, sc = sheet(rs, spec)
    flags[0, 0, 1] |= F_BARRICADE
    assert not plan_met(rs, cells, flags, fences, sc, "C-Z1")
    flags[0, 0, 4] |= F_BARRICADE
    assert plan_met(rs, cells, flags, fences, sc, "C-Z1")
    sc[0, SC_BARRICADES] = 4
    assert not plan_met(rs, cells, flags, fences, sc, "C-Z2")
    sc[0, SC_BARRICADES] = 5
    assert plan_met(rs, cells, flags, fences, sc, "C-Z2")
    # Street 1's open houses: 0, 6 and 9.
    for h in (0, 6):
        cells[0, 1, h] = number_code(h)
        flags[0, 1, h] |= F_BARRICADE
    assert not plan_met(rs, cells, flags, fences, sc, "C-Z3")
    cells[0, 1, 9] = number_code(12)
    assert not plan_met(rs, cells, flags, fences, sc, "C-Z3")  # numbered without its barricade
    flags[0, 1, 9] |= F_BARRICADE
    assert plan_met(rs, cells, flags, fences, sc, "C-Z3")
    sc[0, SC_AMMO_USED] = 3
    assert not plan_met(rs, cells, flags, fences, sc, "C-Z4")
    sc[0, SC_AMMO_USED] = 4
    assert plan_met(rs, cells, flags, fences, sc, "C-Z4")
    sc[0, SC_SEALED] = 4
    assert not plan_met(rs, cells, flags, fences, sc, "C-Z5")
    sc[0, SC_SEALED] = 5
    assert plan_met(rs, cells, flags, fences, sc, "C-Z5")


# --- whole games ---------------------------------------------------------------------------------


def test_log_holds_and_invasions_follow_the_rules(games, rs):
    """Holds only with ammunition; invasions only of houses without a barricade; the score card's
    counters equal the log's."""
    opened = {(s - 1, h - 1) for s, h in rs.expansion.data["open_houses"]}  # the file counts from 1
    for res in games:
        n_players = res.out.shape[1]
        for g in range(len(res.seeds)):
            r = rows_of(res, g)
            for p in range(n_players):
                holds = r[(r[:, 3] == LOG_X_HOLD) & (r[:, 2] == p)]
                invaded = r[(r[:, 3] == LOG_X_INVADE) & (r[:, 2] == p)]
                assert all((int(s), int(h)) in opened for s, h in invaded[:, 4:6])
                assert len(invaded) == res.out[g, p, OUT_COLUMNS.index("invaded")]
                assert len(holds) == res.out[g, p, OUT_COLUMNS.index("ammunition_used")]
                barricades = r[(r[:, 3] == LOG_MOVE) & (r[:, 2] == p) & (r[:, 8] == FENCE) & (r[:, 11] == 1)]
                assert len(barricades) == res.out[g, p, OUT_COLUMNS.index("barricades")]
                assert all(m[5] == m[9] and m[6] == m[10] for m in barricades)


def greedy_hold(R, prm, cells, flags, fences, sc, p, ctx, s, side) -> bool:
    """Greedy's answer through the kernel's dispatch (a question put to its move choice)."""
    rng = np.ones(1, dtype=np.uint64)
    cnum = np.zeros(2, dtype=np.int64)
    mv = np.zeros(8, dtype=np.int64)
    lo = np.zeros(cells.shape[1:], dtype=np.int64)
    return choose_hold(
        GREEDY,
        prm,
        R,
        Sheets(cells, flags, fences, sc),
        p,
        ctx,
        s,
        side,
        Offer(cnum, cnum, rng, lo, lo, mv, np.empty(0)),
    )


def test_greedy_holds_a_horde_only_where_it_saves_something(rs):
    """Greedy crosses out its ammunition for a horde about to erase a numbered house of an estate
    when no Zombie card is left to bring it later, not for one walking to an empty house while
    ammunition may still be needed."""
    R = rs.kernel
    from welcome_sim.strategies.registry import parse_strategy

    prm = parse_strategy("greedy").vector()
    ctx = np.zeros(CTX_LEN, dtype=np.int64)
    ctx[0] = 1
    ids = [p.id for p in rs.plans.plans]
    # Plans that ask for estates of size 3 and 4, not 1, nor ammunition or invasions.
    ctx[2:5] = [ids.index("A-3"), ids.index("B-3"), ids.index("C-Z1")]
    spec = blank()
    spec.streets[0][:3] = ["1", "2", "3"]
    spec.fences = {0: [3]}
    cells, flags, fences, sc = sheet(rs, spec)
    sc[0, SC_HORDE] = 1  # the left horde of street 1 next reaches house 1, the 2
    sc[0, SC_ZCARDS] = 0b111  # the card being applied is the last one
    assert greedy_hold(R, prm, cells, flags, fences, sc, 0, ctx, 0, 0)
    before = (cells.copy(), sc.copy())
    sc[0, SC_ZCARDS] = 0b001  # two cards to come
    assert not greedy_hold(R, prm, cells, flags, fences, sc, 0, ctx, 1, 0)  # house 0 of street 2: empty
    sc[0, SC_ZCARDS] = 0b111
    assert (cells == before[0]).all() and (sc == before[1]).all()


def test_expert_deck_of_ten_cards_per_architect_and_a_zombie_card(rs):
    """ "Give 1 Construction card to each architect. Then, form a deck with 10 Construction cards
    per architect and 1 Zombie card." "When the deck is exhausted, shuffle the discard pile and
    reconstruct a deck with 10 cards per architect and a new Zombie card. If the deck is exhausted
    for the third time, the game ends." "each architect only draws 1 additional Construction card.
    Use one card for its number and the other for its action.\""""
    ex = load_ruleset(expansion="zombies", mode="expert-advanced")
    res = simulate(ex, game_seeds(5, 120), 2, ["greedy"], log=True)
    rounds = res.game_column("rounds")
    assert rounds.max() <= 30
    ends = res.game_column("end_reason")
    for g in range(120):
        r = rows_of(res, g)
        decks = r[r[:, 3] == LOG_DECK]
        first = decks[decks[:, 1] == 0]
        assert len(first) == 2 + 20 + 1  # the two first cards on top, then the deck
        order = first[np.argsort(first[:, 4]), 5]
        assert not any(is_zombie(c) for c in order[:2]) and sum(is_zombie(c) for c in order) == 1
        rebuilt = decks[decks[:, 6] == 1]
        for rnd in np.unique(rebuilt[:, 1]):
            new = rebuilt[rebuilt[:, 1] == rnd]
            assert len(new) == 21 and sum(is_zombie(c) for c in new[:, 5]) == 1
        moves = r[r[:, 3] == LOG_MOVE]
        assert set(np.unique(moves[:, 4]).tolist()) <= {-1, 0, 1}
        if ends[g] & END_DECK:
            assert rounds[g] == 30 and len(np.unique(rebuilt[:, 1])) == 2
    assert (ends & END_DECK).any()


def zombie_order(res, g: int) -> tuple[int, ...]:
    """The Zombie cards (0, 1, 2: the data file's order) of game g's decks as dealt: the set-up deck
    top first, then each rebuilt deck's."""
    r = rows_of(res, g)
    decks = r[r[:, 3] == LOG_DECK]
    out = []
    for rebuilt in (0, 1):
        rows = decks[decks[:, 6] == rebuilt]
        rows = rows[np.lexsort((rows[:, 4], rows[:, 1]))]  # by round, then top first
        out += [int(c) - N_CARDS - SPECIAL_X for c in rows[:, 5] if is_zombie(c)]
    return tuple(out)


def test_expert_zombie_cards_are_dealt_in_a_random_order(rs):
    """ "form a deck with 10 Construction cards per architect and 1 Zombie card ... set aside the
    remaining Zombie cards face down" ... "reconstruct a deck with 10 cards per architect and a new
    Zombie card": no card is named, so the first deck's card is any of the three and each rebuild
    takes the next of the others in a random order, never one already used."""
    ex = load_ruleset(expansion="zombies", mode="expert")
    res = simulate(ex, game_seeds(7, 300), 3, ["random"], log=True)
    orders = [zombie_order(res, g) for g in range(300)]
    assert all(len(set(o)) == len(o) >= 1 for o in orders)
    firsts = [o[0] for o in orders]
    assert all(firsts.count(k) > 60 for k in range(3))  # each about 100 of 300
    pairs = [o[:2] for o in orders if len(o) >= 2]  # the games rebuilt at least once
    counts = {o: pairs.count(o) for o in set(pairs)}
    assert len(counts) == 6 and min(counts.values()) > 20  # each ordered pair about 45 of 270


def test_aaa_zombie_cards_go_into_the_stacks_in_a_random_order(rs):
    """AAA solo: "Randomly shuffle the following cards into each stack: 1st stack: 1 Zombie card.
    2nd stack: 1 Zombie card and 1 AAA Validation card. 3rd stack: 1 Zombie card and 2 AAA
    Validation cards": any Zombie card may go into any stack, one into each."""
    solo = load_ruleset(expansion="zombies", mode="solo", opponent="3")
    res = simulate(solo, game_seeds(8, 240), 1, ["random"], log=True)
    orders = [zombie_order(res, g)[:3] for g in range(240)]
    assert all(sorted(o) == [0, 1, 2] for o in orders)
    counts = {o: orders.count(o) for o in set(orders)}
    assert len(counts) == 6 and min(counts.values()) > 20  # each about 40 of 240


def test_aaa_deck_and_zombie_cards_replacing_the_aaas_last_two(rs):
    """AAA solo: "take 60 cards ... 3 stacks of 20 cards ... 1st stack: 1 Zombie card. 2nd stack:
    1 Zombie card and 1 AAA Validation card. 3rd stack: 1 Zombie card and 2 AAA Validation cards."
    "When you draw a Zombie card, remove the last 2 cards given to the AAA from the game and
    replace them with the Zombie card.\""""
    solo = load_ruleset(expansion="zombies", mode="solo", opponent="3")
    res = simulate(solo, game_seeds(6, 80), 1, ["greedy"], log=True)
    for g in range(80):
        r = rows_of(res, g)
        first = r[(r[:, 3] == LOG_DECK) & (r[:, 1] == 0)]
        order = first[np.argsort(first[:, 4]), 5]
        assert len(order) == 66
        parts = [order[:21], order[21:43], order[43:]]
        for k, part in enumerate(parts):
            assert sum(is_zombie(c) for c in part) == 1
            assert sum(N_CARDS <= c < N_CARDS + 3 for c in part) == k
        given = 0
        for row in r:
            if row[3] == LOG_PASS and row[5] == -1:
                given += 1
            elif row[3] == LOG_X_ZOMBIE:
                given = max(0, given - 2) + 1
        assert res.game_column("aaa_cards")[g] == given


def test_aaa_deck_running_out_is_rebuilt_from_the_discard_pile(rs):
    """The Zombie AAA text is silent on the deck running out (60 cards give 30 rounds); read as the
    core AAA mode: "When the deck of Construction cards is exhausted, shuffle only your discard
    pile ... to form a new deck. The cards given to the AAA do not come back into play" (nor do
    the Zombie and validation cards, removed when drawn)."""
    solo = load_ruleset(expansion="zombies", mode="solo", opponent="3")
    res = simulate(solo, game_seeds(6, 80), 1, ["greedy"], log=True)
    rebuilt_games = 0
    for g in range(80):
        r = rows_of(res, g)
        rebuilt = r[(r[:, 3] == LOG_DECK) & (r[:, 6] == 1)]
        if len(rebuilt) == 0:
            continue
        rebuilt_games += 1
        first = int(rebuilt[0, 1])
        assert (rebuilt[:, 1] == first).all()  # rebuilt once, in one round
        dealt = r[(r[:, 3] == LOG_DECK) & (r[:, 1] == 0), 5]
        given = r[(r[:, 3] == LOG_PASS) & (r[:, 5] == -1) & (r[:, 1] < first), 4]
        assert sorted(rebuilt[:, 5].tolist()) == sorted(
            set(dealt[dealt < N_CARDS].tolist()) - set(given.tolist())
        )
        assert res.game_column("rounds")[g] > 30
    assert rebuilt_games > 5  # about a fifth of level-3 games


def test_a_zombie_card_in_the_aaas_stack_is_a_fence_card(rs):
    """ "each Zombie card in the stack of AAA cards is considered as a Fence card ... When
    calculating housing estate points for the AAA, each Zombie card acts as a Fence card, creating
    estates.\""""
    solo = load_ruleset(expansion="zombies", mode="solo", opponent="3")
    R = solo.kernel
    park = next(i for i, c in enumerate(solo.deck.cards) if c[1] == PARK)
    cards = np.array([park, park, N_CARDS + SPECIAL_X, park], dtype=np.int64)
    out_g = np.zeros(G_LEN, dtype=np.int64)
    aaa_score(R, cards, 4, 0, 0, out_g)
    assert out_g[G_AAA_N_ESTATES] == 2


def test_greedy_beats_random_and_games_are_deterministic(rs):
    a = simulate(rs, game_seeds(21, 40), 2, ["greedy"])
    b = simulate(rs, game_seeds(21, 40), 2, ["greedy"])
    assert (a.out == b.out).all()
    r = simulate(rs, game_seeds(21, 40), 2, ["random"])
    assert a.column("total").mean() > r.column("total").mean() + 30


def test_a_designers_copy_with_another_road_loads(tmp_path):
    # Its bad data (open_houses) is one of tests/test_expansion_contract.py's BAD_DATA cases.
    src = Path(load_ruleset(expansion="zombies").expansion.path)
    good = tmp_path / "printed.toml"
    good.write_text(src.read_text().replace("road = 3", "road = 2"))
    assert load_ruleset(expansion=str(good)).kernel is not None
    with pytest.raises(WelcomeSimError, match="unknown expansion 'zombie'"):
        load_ruleset(expansion="zombie")


def test_zombie_table_of_the_report():
    """The report's Zombie Outbreak table: per-player means of the counters, and the share of games
    (seat 0 rows) the first stack ended."""
    import polars as pl

    from welcome_sim.analysis.tables import zombie_outcomes

    lf = pl.LazyFrame(
        {
            "expansion": ["zombies"] * 4 + ["none"] * 2,
            "players": [2] * 6,
            "seed": [1, 1, 2, 2, 1, 1],
            "seat": [0, 1, 0, 1, 0, 1],
            "total": [60, 70, 65, 75, 90, 95],
            "rounds": [29, 29, 20, 20, 30, 30],
            "end_reason": ["first-stack", "first-stack", "refusals", "refusals", "refusals", "refusals"],
            "invaded": [4, 6, 2, 0, 0, 0],
            "ammunition_used": [1, 2, 3, 2, 0, 0],
            "barricades": [0, 1, 0, 1, 0, 0],
        }
    )
    t = zombie_outcomes(lf, ["players"])
    assert t.height == 1
    row = t.row(0, named=True)
    assert row["player_games"] == 4 and row["games"] == 2
    assert row["invaded"] == 3.0 and row["ammunition_used"] == 2.0 and row["barricades"] == 0.5
    assert row["first_stack_share"] == 0.5
    assert zombie_outcomes(lf.drop("invaded"), ["players"]).height == 0  # a sweep from before
    assert zombie_outcomes(lf.filter(pl.col("expansion") == "none"), ["players"]).height == 0


def test_the_first_editions_solo_variant_has_no_zombie_rules():
    """The rules give Zombie Outbreak an AAA solo variant (Collector's) and an Expert one; the first
    edition's solo variant with its solo card has none: a clear error, not a guess."""
    with pytest.raises(WelcomeSimError, match=r"--mode solo: .*use --edition collector"):
        load_ruleset("first", mode="solo", expansion="zombies")


def test_zombie_card_count_is_checked(tmp_path):
    """A designer's file with no Zombie card, or too few for the variants that need three, is a
    one-line error naming the file and the key, never a game with a missing card."""
    src = Path(load_ruleset(expansion="zombies").expansion.path).read_text()
    none = tmp_path / "none.toml"
    none.write_text(src.replace('cards = ["left", "right", "all"]', "cards = []"))
    with pytest.raises(DataError, match="'cards': expected 1 to 8 Zombie cards, got 0"):
        load_ruleset(expansion=str(none))
    # No part at all is out of first_stack_parts' range, checked when the file is read.
    none.write_text(src.replace("first_stack_parts = 3", "first_stack_parts = 0"))
    with pytest.raises(DataError, match="'first_stack_parts': 0 is not a number of parts: use 1 to 8"):
        load_ruleset(expansion=str(none))
    two = tmp_path / "two.toml"
    two.write_text(
        src.replace('cards = ["left", "right", "all"]', 'cards = ["left", "right"]').replace(
            "first_stack_parts = 3", "first_stack_parts = 2"
        )
    )
    assert load_ruleset(expansion=str(two)).kernel is not None  # the stack modes take any count
    for mode in ("expert", "solo"):
        with pytest.raises(WelcomeSimError, match=r"key 'cards': .* use three Zombie cards"):
            load_ruleset(expansion=str(two), mode=mode)
