"""The referee's Doomsday, on hand-built sheets and on tampered kernel logs; each test quotes the
rule it checks (Collector's expansion rules, "Doomsday", 2023)."""

from __future__ import annotations

import pytest
from handsheets import Spec, referee_sheet

from welcome_sim.referee import IllegalMove, load_rules, replay
from welcome_sim.referee.replay import X_SHELTER
from welcome_sim.simcore.engine.game import game_seeds, simulate
from welcome_sim.simcore.rules.ruleset import load_ruleset
from welcome_sim.textview import render_game
from welcome_sim.verify import referee_rules, split_log

ROUNDABOUT, PASS = 5, 6


def rules_for(mode: str = "standard", opponent: str | None = None):
    return load_rules("collector", mode=mode, expansion="doomsday", opponent=opponent)


def sheet(rules, numbers: dict[tuple[int, int], str]):
    rows = [["."] * 10, ["."] * 11, ["."] * 12]
    for (s, h), tok in numbers.items():
        rows[s][h] = tok
    return referee_sheet(rules, Spec(streets=rows))


def test_capacities_are_the_numbers_written_in_the_shelters():
    """ "When you number a house with a shelter, also write that number inside the shelter"; "When
    you write 9¾ in a house with a shelter, write 9 in the shelter\"."""
    rules = rules_for()
    sh = sheet(rules, {(0, 1): "9¾", (0, 4): "12", (0, 5): "13", (2, 3): "4B"})
    assert rules.expansion.capacities(sh) == [21, 0, 4]


def test_street_bonuses_and_optimism_between_players():
    """ "For each street where your capacity is the highest, you earn the corresponding bonus
    points. In case of a tie, each architect earns the bonus points." "If your total capacity is
    the lowest, you earn 9 points. In case of a tie, each architect earns 9 points.\""""
    rules = rules_for()
    a = sheet(rules, {(0, 1): "6", (1, 2): "2"})
    b = sheet(rules, {(0, 1): "6", (2, 0): "3"})
    c = sheet(rules, {(1, 2): "2", (2, 0): "1", (2, 3): "5"})
    rules.expansion.final([a, b, c], aaa=False)
    got = [rules.expansion.score(s) for s in (a, b, c)]
    assert [g["shelter_bonus"] for g in got] == [8 + 10, 8, 10 + 11]
    assert [g["optimism_bonus"] for g in got] == [9, 0, 9]  # totals 8, 9, 8
    assert [g["expansion_points"] for g in got] == [27, 8, 30]


def test_scoring_needs_the_comparison_first():
    rules = rules_for()
    with pytest.raises(ValueError, match="final"):
        rules.expansion.score(sheet(rules, {}))


def test_the_aaa_builds_from_the_last_three_cards_and_only_in_free_shelters():
    """ "check the last 3 Construction cards you gave to the AAA and write the value of the highest
    card inside the shelter"; "write "10" for the AAA inside an available shelter\"."""
    rules = rules_for("solo-advanced", "1")
    x = rules.expansion
    sh = sheet(rules, {})
    given = [(15, "pool"), (4, "park"), (9.75, "fence"), (2, "temp")]
    assert x.aaa_validation(sh, 1, given) == 9
    assert x.aaa_roundabout(sh, 1) == 10
    assert x.aaa_roundabout(sh, 1) is None  # street 2 has three shelters: 30, 9, 10
    assert [sum(v) for v in x.aaa_state(sh)] == [20, 49, 30]


def test_the_aaa_is_compared_by_the_standard_rule():
    """ "Compare your shelters to the AAA's and add up your score and the AAA's (level 1 or higher)
    by following the standard rule.\""""
    rules = rules_for("solo", "1")
    x = rules.expansion
    sh = sheet(rules, {(0, 1): "7", (0, 4): "13", (1, 2): "16", (1, 5): "14"})  # 20 / 30 / 0
    x.final([sh], aaa=True)
    assert x.score(sh)["shelter_bonus"] == 8 + 10
    assert x.score(sh)["optimism_bonus"] == 9  # 50 <= 80
    assert x.aaa_points([], sh) == 8 + 10 + 11


@pytest.mark.parametrize(
    "plan,numbers,met",
    [
        ("all_shelters_built", {}, False),
        ("shelter_capacity", {(0, 1): "17", (1, 2): "17", (2, 0): "16"}, True),
        ("shelter_capacity", {(0, 1): "17", (1, 2): "17", (2, 0): "15"}, False),
        ("two_streets_capacity", {(0, 1): "15", (0, 4): "15", (2, 0): "14", (2, 3): "16"}, True),
        ("two_streets_capacity", {(0, 1): "15", (0, 4): "15"}, False),
    ],
)
def test_plan_c_goals(plan, numbers, met):
    """ "Build all the fallout shelters." "The total capacity of your fallout shelters is 50 or
    more." "In 2 different streets: the total capacity of your fallout shelters is 30 or more.\""""
    rules = rules_for()
    card = {"goal": plan, "count": {"shelter_capacity": 50, "two_streets_capacity": 30}.get(plan, 0)}
    assert rules.expansion.goal(sheet(rules, numbers), card) is met


def test_the_shelter_feature_counts_shelters_of_an_estate():
    """ "Build 3 complete housing estates of size 3, each with exactly 1 shelter.\""""
    rules = rules_for()
    sh = sheet(rules, {})
    assert rules.expansion.feature(sh, 0, 0, 2, "shelters") == 1
    assert rules.expansion.feature(sh, 2, 0, 3, "shelters") == 2


@pytest.fixture(scope="module")
def aaa_games():
    rs = load_ruleset(expansion="doomsday", mode="solo-advanced", opponent="2")
    res = simulate(rs, game_seeds(21, 30), 1, ["greedy"], log=True)
    return referee_rules(rs), split_log(res.log)


def _with_shelters(games, cause):
    for rows in games.values():
        if any(r[3] == X_SHELTER and r[6] == cause for r in rows):
            return rows
    raise AssertionError(f"no game with an AAA shelter of cause {cause}")


@pytest.mark.parametrize("cause", [0, 1])
def test_a_wrong_or_missing_aaa_shelter_is_caught(aaa_games, cause):
    rules, games = aaa_games
    rows = _with_shelters(games, cause)
    rec = replay(rules, rows, 1)
    # A validation card's shelter among the events before the moves, a roundabout's in the move.
    lines = [line for rd in rec.rounds for line in [e for _, e in rd.events] + rd.moves]
    assert any("the AAA builds a shelter" in line for line in lines)
    i = next(i for i, r in enumerate(rows) if r[3] == X_SHELTER and r[6] == cause)
    wrong = [list(r) for r in rows]
    wrong[i][5] += 1
    with pytest.raises(IllegalMove, match="the AAA builds a shelter of"):
        replay(rules_for("solo-advanced", "2"), wrong, 1)
    missing = rows[:i] + rows[i + 1 :]
    with pytest.raises(IllegalMove, match=r"the AAA builds a shelter of .* the log says none"):
        replay(rules_for("solo-advanced", "2"), missing, 1)


def test_a_shelter_row_outside_the_aaa_mode_is_rejected():
    rs = load_ruleset(expansion="doomsday", mode="advanced")
    res = simulate(rs, game_seeds(4, 5), 2, ["greedy"], log=True)
    rows = split_log(res.log)[0]
    rnd = max(r[1] for r in rows if r[3] == 1)
    extra = [*rows, [0, 1, -1, X_SHELTER, 0, 10, 1, 0, 0, 0, 0, 0]]
    assert rnd >= 1
    with pytest.raises(IllegalMove, match="AAA shelter"):
        replay(referee_rules(rs), extra, 2)


def test_the_text_view_shows_shelters_and_bonuses(aaa_games):
    rules, games = aaa_games
    rec = replay(rules, _with_shelters(games, 0), 1)
    text = "\n".join(render_game(rec, ["you"], ["A", "B", "C"]))
    assert "shelters: street 1" in text and "AAA shelters: street 1 20" in text
    assert "street bonuses" in text and "optimism" in text
