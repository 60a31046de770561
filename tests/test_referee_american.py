"""The referee's American Dream, on hand-built sheets and on kernel logs changed by hand; each test
quotes the rule it checks (Collector's expansion rules, "The American Dream", 2023).
The rejected logs start from a kernel game's: one row changed, the referee must name the rule."""

from __future__ import annotations

import re

import pytest
from adgoals import CASES, RULE, case_id, layout

from welcome_sim.referee import IllegalMove, load_rules, replay
from welcome_sim.referee.replay import _check_move
from welcome_sim.referee.sheet import PlayerSheet
from welcome_sim.simcore.engine.game import game_seeds, simulate
from welcome_sim.simcore.rules.ruleset import load_ruleset
from welcome_sim.textmarks import AMERICAN_LEGEND
from welcome_sim.textview import LEGEND, render_game
from welcome_sim.verify import check_batch, split_log

X = "american-dream"
MOVE, PLAN, END, PASS, AD_CROSS = 1, 2, 3, 6, 23
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


def test_text_view_of_the_sheet(solo):
    """The text view (`welcome-sim play`) of this sheet: its own legend, no base-game rows (no
    estates on this sheet), and the crossings of a validation card where they happen: "Every time
    you draw an AAA Validation card ... you must immediately cross out several bonuses": the card
    is drawn at the round's start, before the move."""
    res, games, rules = solo
    g = next(k for k, rows in games.items() if any(r[3] == AD_CROSS for r in rows))
    rec = replay(rules, games[g], 1)
    text = render_game(rec, ["P1"], ["?"] * 3)
    assert text[1] == AMERICAN_LEGEND[0] and LEGEND not in text and "'@' roundabout" not in "\n".join(text)
    assert all(len(line) <= 80 for line in AMERICAN_LEGEND)
    assert not any(line.startswith(("estates", "parks", "pools", "temps", "roundabouts")) for line in text)
    assert any(line.startswith("streets ") for line in text) and any(
        line.startswith("columns ") for line in text
    )
    crossed = [i for i, line in enumerate(text) if "the player crosses out the bonus" in line]
    assert crossed
    for i in crossed:
        start = max(k for k in range(i) if text[k].startswith("round "))
        move = next(k for k in range(start, len(text)) if text[k].lstrip().startswith("P1: "))
        assert start < i < move  # after the round's cards, before its move
    assert any(re.search(r"in street \d, house \d \(c\d\)", line) for line in text)
    aaa = next(i for i, line in enumerate(text) if line.startswith("AAA (level 3"))
    assert "parks" not in text[aaa] and "cards given, by type" in text[aaa + 1]
    assert any(line.startswith("  streets: ") for line in text[aaa:])


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


# "For example, with Sam, a level 1 opponent: Each Park, Pool, Temporary worker and Fence card earns
# him 1 point, and each Extension and Improvement card earns him 2 points."
SAM = {"park": 1, "pool": 1, "temp": 1, "fence": 1, "extension": 2, "improvement": 2}


def test_aaa_sam_scores_the_published_values():
    """AAA SOLO MODE: "Columns: Each card you gave to the AAA earns them points. ... with Sam, a
    level 1 opponent: Each Park, Pool, Temporary worker and Fence card earns him 1 point, and each
    Extension and Improvement card earns him 2 points." "Streets: The AAA scores 10 points for each
    crossed out Street bonus." On a hand-built stack and sheet, then on replayed games against a
    count by hand from their logs."""
    rules = load_rules("collector", mode="solo", opponent="1", expansion=X)
    x = rules.expansion
    sh = PlayerSheet(rules)
    st = x.state(sh)
    st["streets"][1] = st["streets"][3] = "crossed"
    st["streets"][2] = "circled"  # circled by the player: nothing for the AAA
    given = {"park": 3, "pool": 2, "temp": 1, "fence": 4, "extension": 2, "improvement": 1}
    cards = [(5, a) for a, n in given.items() for _ in range(n)]
    assert x.aaa_own(1, cards, sh) == (3 + 2 + 1 + 4) * 1 + (2 + 1) * 2 + 2 * 10 == 36
    assert x.aaa_own(1, [], PlayerSheet(rules)) == 0
    # Whole games: the AAA's score card from the replay against the log counted by hand.
    res = simulate(
        load_ruleset(mode="solo", opponent="1", expansion=X), game_seeds(53, 10), 1, ["greedy"], log=True
    )
    crossed_any = False
    for rows in split_log(res.log).values():
        rec = replay(rules, rows, 1)
        passed = [r[4] for r in rows if r[3] == PASS and r[5] == -1]
        streets = sum(1 for r in rows if r[3] == AD_CROSS and r[4] == 0)
        crossed_any = crossed_any or streets > 0
        want = sum(SAM[rules.cards[c][1]] for c in passed) + 10 * streets
        assert rec.aaa["expansion"] == want
        assert rec.aaa["total"] == rec.aaa["plans"] + want
    assert crossed_any


def _end_reasons_from_sheets(rec) -> list[str]:
    """The usual end conditions, read off the final sheets: three plans validated, a third
    refusal, every house of the sheet numbered."""
    out = []
    if any(len(sh.plan_scores) == 3 for sh in rec.sheets):
        out.append("plans")
    if any(sh.refusals == 3 for sh in rec.sheets):
        out.append("refusals")
    if any(all(x.number is not None for row in sh.streets for x in row) for sh in rec.sheets):
        out.append("full")
    return out


def test_games_end_on_the_usual_conditions(logged, solo):
    """ "The game ends based on the usual end game conditions." The usual ones (the core rules,
    2023): "The game ends after the current round, if one of the following situations
    happens: One architect has validated each of the 3 City Plans A, B and C. One architect crosses
    out their third Permit Refusal. One architect has numbered all the houses". The replay's end
    reasons are those that hold on its final sheets; a log that ends a round early is refused."""
    rules2 = load_rules("collector", expansion=X)
    random3 = simulate(load_ruleset(expansion=X), game_seeds(54, 6), 3, ["random"], log=True)
    batches = [
        (split_log(logged[0].log), 2, rules2),
        (solo[1], 1, solo[2]),
        (split_log(random3.log), 3, rules2),
    ]
    seen = set()
    for games, n, rules in batches:
        for rows in games.values():
            rec = replay(rules, rows, n)
            assert sorted(rec.end_reasons) == sorted(_end_reasons_from_sheets(rec)) != []
            seen |= set(rec.end_reasons)
    assert seen == {"plans", "refusals", "full"}
    # The same game stopped one round earlier, where no condition holds yet: refused.
    rows = [list(r) for r in next(iter(split_log(logged[0].log).values()))]
    last = max(r[1] for r in rows)
    end = next(r for r in rows if r[3] == END)
    short = [r for r in rows if r[1] < last] + [[end[0], last - 1, *end[2:]]]
    with pytest.raises(IllegalMove, match="no end condition holds"):
        replay(rules2, short, 2)


def test_refusal_although_a_temp_worker_would_fit():
    """ "You cannot use the usual actions. For example, you cannot use the Temporary worker action
    to change a number." Every house numbered but one, between a 5 and a 7, and 4, 8 and 10 on
    Temp cards: writing 6 with the 8 is refused here (on the Classic sheet the same move is a
    legal temp worker), and the round is a permit refusal; a round with a 6 cannot be refused."""
    rules = load_rules("collector", expansion=X)
    classic = load_rules("collector")

    def one_gap(r, s: int) -> PlayerSheet:
        sh = PlayerSheet(r)
        for row in sh.streets:
            for h, house in enumerate(row):
                house.number = h
        sh.streets[s][6].number = None  # street s + 1: 0 1 2 3 4 5 . 7 ...
        return sh

    combos = [(4, "temp"), (8, "temp"), (10, "temp")]
    temp = rules.actions.index("temp")
    six_with_the_8 = [0, 9, 0, MOVE, 1, 2, 6, 12, temp, -1, -1, -1]  # number code 12: a 6
    with pytest.raises(IllegalMove, match="no temp worker box left"):
        _check_move(rules, one_gap(rules, 2), combos, six_with_the_8, 9)
    no_action = [*six_with_the_8[:8], -1, -1, -1, -1]
    with pytest.raises(IllegalMove, match="wrote 6 with a 8 card and no temp worker"):
        _check_move(rules, one_gap(rules, 2), combos, no_action, 9)
    on_classic = [0, 9, 0, MOVE, 1, 0, 6, 12, temp, -1, -1, -1]
    assert "temp worker (8 -> 6)" in _check_move(classic, one_gap(classic, 0), combos, on_classic, 9)
    sh = one_gap(rules, 2)
    assert not any(sh.fits_somewhere(n) for n, _ in combos) and sh.fits_somewhere(6)
    refusal = [0, 9, 0, MOVE, -1, -1, -1, -1, -1, -1, -1, -1]
    assert _check_move(rules, sh, combos, refusal, 9) == "permit refusal" and sh.refusals == 1
    with pytest.raises(IllegalMove, match="permit refusal although 6 can be written"):
        _check_move(rules, one_gap(rules, 2), [(4, "temp"), (6, "park"), (10, "temp")], refusal, 9)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_plan_goals_hold_and_just_fail(rules, case):
    """Each card's sentence (adgoals.RULE): "All your red houses are perfect houses"; "All your
    blue and orange houses are numbered, regardless of whether they are perfect or regular houses";
    "You have completed 2 columns with only perfect houses"; "You have completed 1 street with only
    perfect houses"; "You have completed 2 streets, regardless of whether the houses are perfect or
    regular": a sheet where it holds, and the same sheet one house short (a house regular or
    empty), where it does not."""
    plan_id, groups, change, holds = case
    assert plan_id in RULE
    x = rules.expansion
    plan = next(p for p in rules.plans if p["id"] == plan_id)
    sh = PlayerSheet(rules)
    marked, _ = layout(groups, change)
    for (s, h), perfect in marked.items():
        sh.streets[s][h].number = h
        if perfect:
            x.state(sh)["perfect"].add((s, h))
    assert x.goal(sh, plan) is holds


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
