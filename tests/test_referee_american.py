"""The referee's American Dream, on hand-built sheets and on kernel logs changed by hand; each test
quotes the rule it checks (Collector's expansion rules, "The American Dream", shared/seeds/003).
The rejected logs start from a kernel game's: one row changed, the referee must name the rule."""

from __future__ import annotations

import pytest

from welcome_sim.referee import IllegalMove, load_rules, replay
from welcome_sim.referee.sheet import PlayerSheet
from welcome_sim.simcore.game import game_seeds, simulate
from welcome_sim.simcore.ruleset import load_ruleset
from welcome_sim.textview import render_game
from welcome_sim.verify import check_batch, split_log

X = "american-dream"
MOVE, AD_CROSS = 1, 23
COLUMN_1 = [(0, 0), (1, 1), (2, 1), (3, 0), (4, 0)]


@pytest.fixture(scope="module")
def rules():
    return load_rules("collector", expansion=X)


@pytest.fixture(scope="module")
def logged():
    rs = load_ruleset(expansion=X)
    res = simulate(rs, game_seeds(51, 6), 2, ["greedy"], log=True)
    return res, split_log(res.log)


@pytest.fixture(scope="module")
def solo():
    rs = load_ruleset(mode="solo", opponent="3", expansion=X)
    res = simulate(rs, game_seeds(52, 12), 1, ["greedy"], log=True)
    return res, split_log(res.log), load_rules("collector", mode="solo", opponent="3", expansion=X)


def test_kernel_games_replay(logged, rules):
    res, games = logged
    assert check_batch(res) == []
    rec = replay(rules, games[0], 2)
    text = "\n".join(render_game(rec, ["P1", "P2"], ["?"] * 3))
    assert "perfect house" in text


def test_a_usual_action_is_rejected(logged, rules):
    """ "You cannot use the usual actions. For example, you cannot use the Temporary worker action
    to change a number.\""""
    _, games = logged
    rows = [list(r) for r in games[0]]
    i = next(k for k, r in enumerate(rows) if r[3] == MOVE and r[4] >= 0)
    rows[i][8] = 2  # the park action
    rows[i][9:12] = [-1, -1, -1]
    with pytest.raises(IllegalMove):
        replay(rules, rows, 2)


def test_perfect_only_when_the_action_matches(rules):
    """ "Check if the action corresponds to the house you just numbered. Perfect House: If the
    action matches the house ... Circle the house." (house 1 of street 1 is green: the Park
    action)."""
    x = rules.expansion
    sh = PlayerSheet(rules)
    sh.streets[0][0].number = 3
    assert "regular" in x.used_action(sh, 0, 0, "pool", -1)
    assert "perfect" in x.used_action(sh, 0, 0, "park", -1)
    assert x.score(sh)["perfect"] == 1


def test_simultaneous_finishers_share_others_cross(rules):
    """ "All the architects who circle the same bonus in the same round can claim it. The other
    architects must cross out that bonus on their sheet and will no longer be able to claim
    it.\""""
    x = rules.expansion
    sheets = [PlayerSheet(rules) for _ in range(3)]
    for sh in sheets[:2]:
        for h in range(6):
            sh.streets[0][h].number = h
    x.round_over(sheets)
    assert [x.state(sh)["streets"][0] for sh in sheets] == ["circled", "circled", "crossed"]
    assert [x.score(sh)["expansion_points"] for sh in sheets] == [10, 10, 0]


def test_column_points(rules):
    """ "For each complete column ... score 1 point per regular house and 3 points per perfect
    (circled) house ... You double your points if you have the x2 bonus"; "Incomplete columns
    score no points!\""""
    x = rules.expansion
    sh = PlayerSheet(rules)
    for s, h in COLUMN_1[:4]:
        sh.streets[s][h].number = 5
    assert x.column_points(sh, 1) == 0
    sh.streets[4][0].number = 5
    x.state(sh)["perfect"].add((0, 0))
    assert x.column_points(sh, 1) == 3 + 4
    x.round_over([sh])
    assert x.column_points(sh, 1) == 2 * (3 + 4)


def test_aaa_crossings_are_checked(solo):
    """AAA SOLO MODE (the sheet's own section): "Every time you draw an AAA Validation card,
    regardless of whether the AAA validates a plan or not, you must immediately cross out several
    bonuses that you will no longer be able to obtain. Choose and cross out 1 street bonus and 2
    column bonuses that you have not circled.\""""
    res, games, rules = solo
    assert check_batch(res) == []
    g = next(k for k, rows in games.items() if any(r[3] == AD_CROSS for r in rows))
    rows = [list(r) for r in games[g]]
    crosses = [r for r in rows if r[3] == AD_CROSS]
    # A card's crossings left out: refused.
    without = [r for r in rows if r is not crosses[0]]
    with pytest.raises(IllegalMove, match="must be crossed"):
        replay(rules, without, 1)
    # The same column crossed twice: refused (the second is no longer open).
    cols = [r for r in crosses if r[4] == 1]
    twice = [list(r) for r in rows]
    k = next(i for i, r in enumerate(twice) if r == cols[1])
    twice[k][5] = cols[0][5]
    with pytest.raises(IllegalMove, match="not open"):
        replay(rules, twice, 1)


def test_aaa_scores_per_card_and_per_street_crossed(solo):
    res, games, rules = solo
    x = rules.expansion
    sh = PlayerSheet(rules)
    x.state(sh)["streets"][1] = "crossed"
    cards = [(3, "fence"), (5, "improvement"), (8, "extension")]
    lv = 3
    t = x.aaa_table[lv]
    assert x.aaa_own(lv, cards, sh) == t[0] + t[1] + t[5] + 10


def test_its_plans_fill_every_slot():
    """ "You must play only with the American Dream Expansion Plan cards.\""""
    for edition in ("collector", "first"):
        r = load_rules(edition, expansion=X)
        assert sorted(p["id"] for p in r.plans) == sorted(f"{a}-AD{i}" for a in "ABC" for i in (1, 2, 3))


def test_plan_c_perfect_square():
    """ "You have 9 perfect adjacent houses forming a 3x3 square.\""""
    rules = load_rules("collector", expansion=X)
    x = rules.expansion
    plan = next(p for p in rules.plans if p["id"] == "C-AD3")
    assert plan["goal"] == "perfect_square" and plan["count"] == 3
    sh = PlayerSheet(rules)
    where = {(s, c): h for s, row in enumerate(x.column) for h, c in enumerate(row)}
    square = [(s, where[(s, c)]) for s in (1, 2, 3) for c in (2, 3, 4)]
    for s, h in square:
        sh.streets[s][h].number = 2 * h
        x.state(sh)["perfect"].add((s, h))
    assert x.goal(sh, plan)
    x.state(sh)["perfect"].discard(square[4])
    assert not x.goal(sh, plan)
