"""Doomsday in the kernel: each rule of the expansion rules ("Doomsday", 2023) on
hand-built sheets or on the logs of whole games. The referee's own reading is checked in
test_referee_doomsday.py, and whole games are replayed by it at the end of this file."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from handsheets import Spec, kernel_table

from welcome_sim.simcore.engine.game import game_seeds, simulate
from welcome_sim.simcore.ground.layout import LOG_AAA_PLAN, LOG_DECK, LOG_PASS, LOG_ROUNDABOUT, LOG_X_SHELTER
from welcome_sim.simcore.ground.table import R_DECK_NUM
from welcome_sim.simcore.rules.expansions import doomsday
from welcome_sim.simcore.rules.expansions.doomsday import SC_AAA_BUILT, SC_AAA_CAP
from welcome_sim.simcore.rules.expansions.registry import OUT_COLUMNS, OUT_LEN
from welcome_sim.simcore.rules.ruleset import load_ruleset
from welcome_sim.simcore.rules.scoring import score_table
from welcome_sim.verify import check_batch

COL = {name: i for i, name in enumerate(OUT_COLUMNS)}
SHELTERS = [(0, 1), (0, 4), (0, 8), (1, 2), (1, 5), (1, 9), (2, 0), (2, 3), (2, 7), (2, 10)]


@pytest.fixture(scope="module")
def rs():
    return load_ruleset(expansion="doomsday")


def blank() -> list[list[str]]:
    return [["."] * 10, ["."] * 11, ["."] * 12]


def with_numbers(numbers: dict[tuple[int, int], str]) -> Spec:
    rows = blank()
    for (s, h), tok in numbers.items():
        rows[s][h] = tok
    return Spec(streets=rows)


def scores(rs, specs: list[Spec]) -> np.ndarray:
    R = rs.kernel
    cells, flags, fences, sc = kernel_table(R, specs)
    out = np.zeros((len(specs), OUT_LEN), dtype=np.int64)
    score_table(R, cells, flags, fences, sc, len(specs), out, -1)
    return out


def test_the_data_file_is_reconstructed_and_rated(rs):
    x = rs.expansion
    assert x.provenance == "reconstructed"
    assert x.data["publisher_stars"] == 2
    assert sorted((s - 1, h - 1) for s, h in x.data["shelters"]) == SHELTERS  # the file counts from 1


def test_a_shelter_holds_the_number_of_its_house(rs):
    """ "When you number a house with a shelter, also write that number inside the shelter. This
    number will define the maximum capacity of that shelter." Houses without a shelter add
    nothing."""
    R = rs.kernel
    cells, *_ = kernel_table(R, [with_numbers({(0, 1): "3", (0, 2): "9", (0, 4): "12"})])
    assert doomsday.capacity(R, cells, 0, 0) == 15
    assert doomsday.capacity(R, cells, 0, 1) == 0


def test_a_nine_three_quarters_writes_nine():
    """ "When you write 9¾ in a house with a shelter, write 9 in the shelter because ¾ of a person
    does not exist!\""""
    rs = load_ruleset(expansion="doomsday", nine=True)
    R = rs.kernel
    cells, *_ = kernel_table(R, [with_numbers({(0, 1): "9¾", (0, 4): "10"})])
    assert doomsday.capacity(R, cells, 0, 0) == 19


def test_an_extension_writes_its_number_in_the_shelter(rs):
    """ "Extension Action: When you number a house with a shelter using this action, you must also
    write the number inside the shelter.\""""
    R = rs.kernel
    cells, *_ = kernel_table(R, [with_numbers({(1, 1): "6", (1, 2): "6B"})])
    assert doomsday.capacity(R, cells, 0, 1) == 6


def test_the_highest_capacity_of_a_street_earns_its_bonus_and_ties_all_earn_it(rs):
    """ "For each street where your capacity is the highest, you earn the corresponding bonus
    points. In case of a tie, each architect earns the bonus points. The 1st street earns 8 points,
    the 2nd street earns 10 points, and the 3rd street earns 11 points.\""""
    a = with_numbers({(0, 1): "5", (1, 2): "4", (2, 0): "1"})
    b = with_numbers({(0, 1): "3", (1, 2): "4", (2, 0): "2"})
    out = scores(rs, [a, b])
    assert out[0, COL["shelter_bonus"]] == 8 + 10
    assert out[1, COL["shelter_bonus"]] == 10 + 11


def test_the_lowest_total_capacity_earns_the_optimism_bonus_and_ties_all_earn_it(rs):
    """ "Add up the capacities of your 3 streets ... If your total capacity is the lowest, you earn
    9 points. In case of a tie, each architect earns 9 points.\""""
    a = with_numbers({(0, 1): "5", (1, 2): "4"})  # 9
    b = with_numbers({(0, 1): "3", (2, 0): "6"})  # 9
    c = with_numbers({(0, 1): "12"})  # 12
    out = scores(rs, [a, b, c])
    assert out[:, COL["optimism_bonus"]].tolist() == [9, 9, 0]
    assert out[:, COL["shelter_capacity"]].tolist() == [9, 9, 12]
    # Every bonus is in the expansion's points, and the expansion's points in the total.
    for p in range(3):
        assert out[p, COL["expansion_points"]] == out[p, COL["shelter_bonus"]] + out[p, COL["optimism_bonus"]]


def test_one_player_without_an_aaa_earns_every_bonus(rs):
    """Our reading (stated in the data file): alone at the table nobody has a higher capacity or a
    lower total, so each comparison is a tie with nobody, and "each architect earns" the bonus."""
    out = scores(rs, [with_numbers({(0, 1): "15", (2, 0): "1"})])
    assert out[0, COL["shelter_bonus"]] == 8 + 10 + 11
    assert out[0, COL["optimism_bonus"]] == 9
    assert out[0, COL["shelters"]] == 2


def test_the_aaa_starts_with_one_shelter_per_street_and_builds_on_validation_cards(rs):
    """ "At the start, the AAA has already built the first shelter in each street with the
    following values: 1st street 20, 2nd street 30, 3rd street 30." "When you draw an AAA
    Validation card ... the AAA immediately builds a shelter in the corresponding street ...
    check the last 3 Construction cards you gave to the AAA and write the value of the highest
    card inside the shelter.\""""
    R = load_ruleset(expansion="doomsday", mode="solo").kernel
    _, _, _, sc = kernel_table(R, [Spec(streets=blank())])
    assert [doomsday.aaa_capacity(R, sc, s) for s in range(3)] == [20, 30, 30]
    number = R[R_DECK_NUM]
    by_value = {int(number[c]) // 2: c for c in range(63)}
    given = np.array([by_value[v] for v in (14, 3, 11, 2, 7)], dtype=np.int64)
    # The last three cards given are 11, 2 and 7: the AAA writes 11 (Validation A, street 1).
    assert doomsday.aaa_validation(R, sc, 0, given, 5) == 11
    assert doomsday.aaa_capacity(R, sc, 0) == 31
    assert sc[0, SC_AAA_BUILT] == 1 and sc[0, SC_AAA_CAP] == 11


def test_the_aaa_builds_only_in_a_free_shelter(rs):
    """ "write "10" for the AAA inside an available shelter": street 1 has 3 shelters (data file),
    the first holds the AAA's start value, so two more can be built and no third."""
    R = load_ruleset(expansion="doomsday", mode="solo-advanced").kernel
    _, _, _, sc = kernel_table(R, [Spec(streets=blank())])
    assert doomsday.aaa_roundabout(R, sc, 0) == 10
    assert doomsday.aaa_roundabout(R, sc, 0) == 10
    assert doomsday.aaa_roundabout(R, sc, 0) == -1
    assert doomsday.aaa_capacity(R, sc, 0) == 40


def test_roundabouts_make_no_aaa_shelter_outside_the_aaa_mode():
    R = load_ruleset(expansion="doomsday", mode="advanced").kernel
    _, _, _, sc = kernel_table(R, [Spec(streets=blank())])
    assert doomsday.aaa_roundabout(R, sc, 0) == -1


def test_the_aaa_is_compared_by_the_standard_rule(rs):
    """ "Compare your shelters to the AAA's and add up your score and the AAA's (level 1 or higher)
    by following the standard rule": the player earns a street with a capacity at least the AAA's,
    the AAA with at least the player's; the lower total earns the optimism bonus (ties both)."""
    R = load_ruleset(expansion="doomsday", mode="solo", opponent="1").kernel
    spec = with_numbers({(0, 1): "5", (0, 4): "8", (0, 8): "13", (1, 2): "3"})  # 26 / 3 / 0
    cells, flags, fences, sc = kernel_table(R, [spec])
    out = np.zeros((1, OUT_LEN), dtype=np.int64)
    score_table(R, cells, flags, fences, sc, 1, out, 0)
    assert out[0, COL["shelter_bonus"]] == 8  # 26 >= 20; 3 < 30; 0 < 30
    assert out[0, COL["optimism_bonus"]] == 9  # 29 <= 80
    assert doomsday.aaa_points(R, cells, sc) == 10 + 11  # streets 2 and 3; 80 > 29


def test_shelter_plans_count_shelters_in_estates(rs):
    """Plan C "Build 3 complete housing estates of size 3, each with exactly 1 shelter": the
    estate feature counts the shelters of an estate's houses."""
    R = rs.kernel
    cells, flags, *_ = kernel_table(R, [Spec(streets=blank())])
    assert doomsday.estate_shelters(R, cells, flags, 0, 0, 0, 3) == 1  # houses 1-3: shelter at 2
    assert doomsday.estate_shelters(R, cells, flags, 0, 0, 2, 4) == 0
    assert doomsday.estate_shelters(R, cells, flags, 0, 2, 0, 4) == 2


@pytest.mark.parametrize(
    "plan,numbers,met",
    [
        # "Build all the fallout shelters."
        ("C-D3", {sh: "1" for sh in SHELTERS}, True),
        ("C-D3", {sh: "1" for sh in SHELTERS[:-1]}, False),
        # "The total capacity of your fallout shelters is 50 or more."
        ("C-D4", {(0, 1): "17", (1, 2): "17", (2, 0): "16"}, True),
        ("C-D4", {(0, 1): "17", (1, 2): "17", (2, 0): "15"}, False),
        # "In 2 different streets: the total capacity of your fallout shelters is 30 or more."
        ("C-D5", {(0, 1): "15", (0, 4): "15", (2, 0): "14", (2, 3): "16"}, True),
        ("C-D5", {(0, 1): "15", (0, 4): "15", (2, 0): "14", (2, 3): "15"}, False),
    ],
)
def test_plan_c_goals(rs, plan, numbers, met):
    R = rs.kernel
    k = [p.id for p in rs.plans.plans].index(plan)
    cells, flags, fences, sc = kernel_table(R, [with_numbers(numbers)])
    assert doomsday.goal(R, cells, flags, sc, 0, k) is met
    progress = doomsday.progress(R, cells, flags, sc, 0, k)
    assert (progress == 1.0) is met and 0.0 <= progress <= 1.0


def test_a_designers_copy_plays(tmp_path: Path):
    src = Path(load_ruleset(expansion="doomsday").expansion.path)
    path = tmp_path / "printed.toml"
    path.write_text(src.read_text().replace("optimism_bonus = 9", "optimism_bonus = 12"))
    out = scores(load_ruleset(expansion=str(path)), [Spec(streets=blank())])
    assert out[0, COL["optimism_bonus"]] == 12


# --- whole games, checked by the referee ---------------------------------------------------------


@pytest.mark.parametrize(
    "mode,players,strategy,opponent",
    [
        ("standard", 1, "greedy", None),
        ("standard", 3, "random", None),
        ("standard", 4, "greedy", None),
        ("advanced", 2, "greedy", None),
        ("expert", 3, "greedy", None),
        ("solo", 1, "greedy", "3"),
        ("solo", 1, "random", "0"),
        ("solo-advanced", 1, "greedy", "5"),
        ("solo-advanced", 1, "random", "2"),
    ],
)
def test_the_referee_agrees_with_the_kernel(mode, players, strategy, opponent):
    rs = load_ruleset(expansion="doomsday", mode=mode, opponent=opponent)
    res = simulate(rs, game_seeds(5, 60), players, [strategy], log=True)
    problems = check_batch(res)
    assert problems == [], problems[:3]
    if players > 1 and strategy == "greedy":
        # The comparisons are live: some street bonuses are lost to someone.
        bonus = res.out[:, :, COL["shelter_bonus"]]
        assert (bonus < 29).any() and (bonus > 0).any()


def test_the_aaa_logs_each_shelter_it_builds():
    """Each validation card makes the AAA build (or find no free shelter), each roundabout in the
    AAA solo mode too; the log's kind-15 rows carry the value, and a validation card's shelter is
    the highest of the last three cards given to the AAA."""
    rs = load_ruleset(expansion="doomsday", mode="solo-advanced", opponent="1")
    res = simulate(rs, game_seeds(8, 40), 1, ["greedy"], log=True)
    log = res.log
    seen = {0: 0, 1: 0}
    number = rs.kernel[R_DECK_NUM]
    for g in range(40):
        r = log[log[:, 0] == g]
        for row in r[r[:, 3] == LOG_X_SHELTER]:
            seen[int(row[6])] += 1
            if row[6] == 0:
                given = r[(r[:, 3] == LOG_PASS) & (r[:, 1] < row[1]) & (r[:, 5] == -1), 4]
                assert row[5] == max(int(number[c]) // 2 for c in given[-3:])
            else:
                rb = r[(r[:, 3] == LOG_ROUNDABOUT) & (r[:, 1] == row[1])]
                assert len(rb) == 1 and rb[0, 4] == row[4] and row[5] == 10
        assert len(r[r[:, 3] == LOG_AAA_PLAN]) <= 3
        assert (r[:, 3] == LOG_DECK).any()
    assert seen[0] > 20 and seen[1] > 5
