"""The referee's Roswell, on hand-built logs and sheets; each test quotes the rule it checks
(Collector's expansion rules, "Roswell", 2023). Logs of kernel games are the starting
point of the rejected ones: one row changed, the referee must name the broken rule."""

from __future__ import annotations

import copy

import pytest
from handsheets import Spec, referee_sheet

from welcome_sim.referee import IllegalMove, load_rules, replay
from welcome_sim.referee.replay import _check_move, aaa_score
from welcome_sim.simcore.engine.game import game_seeds, simulate
from welcome_sim.simcore.rules.ruleset import load_ruleset
from welcome_sim.textview import render_game
from welcome_sim.verify import check_batch, split_log

MOVE, OBJECTIVE = 1, 20
SAUCER = (0, 1)  # street 1, house 2 carries a flying saucer in the data file
PLAIN = (0, 2)  # ... and street 1, house 3 none


@pytest.fixture(scope="module")
def rules():
    return load_rules("collector", expansion="roswell")


@pytest.fixture(scope="module")
def logged():
    """Two-player greedy games and their logs (rows per game)."""
    rs = load_ruleset(expansion="roswell")
    res = simulate(rs, game_seeds(31, 6), 2, ["greedy"], log=True)
    return res, split_log(res.log)


def blank() -> Spec:
    return Spec(streets=[["."] * 10, ["."] * 11, ["."] * 12])


def sheet(rules, spec: Spec | None = None):
    sh = referee_sheet(rules, spec or blank())
    return sh


# --- set-up ----------------------------------------------------------------------------------------


def test_kernel_games_replay(logged, rules):
    res, games = logged
    assert check_batch(res) == []
    rec = replay(rules, games[0], 2)
    text = "\n".join(render_game(rec, ["P1", "P2"], ["?"] * 3))
    assert "infiltration objective" in text and "Zoorgs infiltrated" in text


def test_each_player_circles_exactly_one_objective(logged, rules):
    """ "choose one infiltration objective from the 4 objectives at the bottom left of your sheet
    and secretly circle it. Once each architect has made their choice, reveal your objective.\""""
    _, games = logged
    rows = games[0]
    without = [r for r in rows if not (r[3] == OBJECTIVE and r[2] == 1)]
    with pytest.raises(IllegalMove, match="each player circles one objective"):
        replay(rules, without, 2)
    twice = [*rows, next(r for r in rows if r[3] == OBJECTIVE)]
    with pytest.raises(IllegalMove, match="each player circles one objective"):
        replay(rules, twice, 2)
    late = [[*r[:1], 3, *r[2:]] if r[3] == OBJECTIVE and r[2] == 0 else r for r in rows]
    with pytest.raises(IllegalMove, match="at set-up"):
        replay(rules, late, 2)
    bad = [[*r[:4], 4, *r[5:]] if r[3] == OBJECTIVE and r[2] == 0 else r for r in rows]
    with pytest.raises(IllegalMove, match="not one of the sheet's 4"):
        replay(rules, bad, 2)


def test_no_objective_without_roswell(logged):
    _, games = logged
    base = load_rules("collector")
    with pytest.raises(IllegalMove, match="no objective to choose"):
        replay(base, games[0], 2)


def test_another_objective_changes_only_the_score(logged, rules):
    """The objective chosen decides the points: the same moves under box 1 or box 4."""
    _, games = logged
    rows = games[1]
    scores = []
    for k in (0, 3):
        changed = [[*r[:4], k, *r[5:]] if r[3] == OBJECTIVE else r for r in rows]
        rec = replay(rules, changed, 2)
        scores.append([c["expansion_points"] for c in rec.scores])
        for c in rec.scores:
            n = c["infiltrated"]
            lo, hi, per = ((3, 4, 4), (9, None, 7))[k // 3]
            met = lo <= n and (hi is None or n <= hi)
            assert c["expansion_points"] == (per if met else 2) * n
            assert c["objective"] == k + 1


# --- infiltration ----------------------------------------------------------------------------------


def _move(p, combo, s, h, number, action=-1, params=(-1, -1, -1)):
    return [0, 1, p, MOVE, combo, s, h, 2 * number, action, *params]


def test_infiltrate_instead_of_the_action(rules):
    """ "If you have numbered a house with a flying saucer positioned above it, you have 2 options:
    Use the action ... OR Infiltrate a Zoorg by circling the flying saucer (and therefore do not
    perform the action on the card).\""""
    sh = sheet(rules)
    text = _check_move(rules, sh, [(5, "park")], _move(0, 0, *SAUCER, 5, params=(*SAUCER, 1)), 1)
    assert "Zoorg" in text
    assert sh.x["zoorgs"] == {SAUCER} and sh.parks == [0, 0, 0]


def test_no_zoorg_without_a_saucer(rules):
    sh = sheet(rules)
    with pytest.raises(IllegalMove, match="no flying saucer"):
        _check_move(rules, sh, [(5, "park")], _move(0, 0, *PLAIN, 5, params=(*PLAIN, 1)), 1)


def test_the_zoorg_goes_under_the_house_just_numbered(rules):
    sh = sheet(rules)
    with pytest.raises(IllegalMove, match="house just numbered"):
        _check_move(rules, sh, [(5, "park")], _move(0, 0, *PLAIN, 5, params=(*SAUCER, 1)), 1)


def test_a_temp_worker_cannot_change_the_number_of_a_zoorg_move(rules):
    """Infiltrating means not using the card's action; a number changed by a temp worker uses the
    Temp card's action, so the number must be the card's own."""
    sh = sheet(rules)
    with pytest.raises(IllegalMove, match="no temp worker"):
        _check_move(rules, sh, [(5, "temp")], _move(0, 0, *SAUCER, 6, params=(*SAUCER, 1)), 1)


def test_a_saucer_is_circled_once(rules):
    x = rules.expansion
    sh = sheet(rules)
    assert x.infiltrate(sh, *SAUCER) is None
    assert "already circled" in x.infiltrate(sh, *SAUCER)


def test_zoorgs_belong_to_roswell(rules):
    base = load_rules("collector")
    sh = referee_sheet(base, blank())
    with pytest.raises(IllegalMove, match="Roswell"):
        _check_move(base, sh, [(5, "park")], _move(0, 0, *SAUCER, 5, params=(*SAUCER, 1)), 1)


def test_a_log_zoorg_on_a_plain_house_is_rejected(logged, rules):
    _, games = logged
    rows = copy.deepcopy(games[2])
    x = rules.expansion
    for r in rows:
        if r[3] == MOVE and r[4] >= 0 and r[8] == -1 and (r[5], r[6]) not in x.saucers:
            r[9], r[10], r[11] = r[5], r[6], 1
            break
    else:
        pytest.skip("no plain move without an action")
    with pytest.raises(IllegalMove, match="no flying saucer"):
        replay(rules, rows, 2)


# --- infiltrated estates, objectives, plans --------------------------------------------------------


def test_infiltrated_estates(rules):
    """ "an infiltrated estate must be complete with all its houses numbered and have a maximum
    size of 6 houses. Remember that we only count infiltrated estates. A housing estate can have
    more than one infiltrated Zoorg, but it is not necessary.\""""
    spec = Spec(
        streets=[
            ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"],
            ["1", "2", "3", "4", "5", "6", "7", ".", "9", "10", "11"],
            ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"],
        ],
        fences={0: [3], 1: [5, 8], 2: [3, 6]},
    )
    sh = sheet(rules, spec)
    x = rules.expansion
    x.state(sh)["zoorgs"] |= {(0, 1), (0, 6), (1, 1), (1, 4), (1, 6), (2, 0)}
    x.objective(sh, 0)
    assert x.infiltrated_estates(sh) == 3
    card = x.score(sh)
    assert (card["infiltrated"], card["zoorgs"], card["objective"], card["expansion_points"]) == (3, 6, 1, 12)


def test_objective_examples(rules):
    """The rulebook's examples: "48" for the objective met with 8 estates at 6 points, "12" for 6
    estates at 2 points, missed (the 7-8 box: reconstructed)."""
    x = rules.expansion
    assert x.boxes[2][:2] == (7, 8) and x.boxes[2][2] * 8 == 48
    assert x.fail * 6 == 12
    assert x.boxes[0] == (3, 4, 4) and x.boxes[3] == (9, None, 7)


def test_street_and_column_goals(rules):
    """ "In 1 street: all Zoorgs are infiltrated"; "In 3 vertical columns of houses: at least 2
    Zoorgs are infiltrated.\""""
    x = rules.expansion
    sh = sheet(rules)
    street = {"goal": "street_zoorgs"}
    columns = {"goal": "columns_zoorgs", "count": 3}
    x.state(sh)["zoorgs"] |= {(0, 1), (0, 3), (0, 6), (1, 1), (2, 3)}
    assert not x.goal(sh, street) and not x.goal(sh, columns)
    x.state(sh)["zoorgs"] |= {(0, 8), (2, 6)}
    assert x.goal(sh, street) and x.goal(sh, columns)


def test_zoorgs_feature(rules):
    x = rules.expansion
    sh = sheet(rules)
    x.state(sh)["zoorgs"] |= {(0, 1), (0, 3)}
    assert x.feature(sh, 0, 0, 3, "zoorgs") == 2 and x.feature(sh, 0, 4, 9, "zoorgs") == 0


# --- AAA -------------------------------------------------------------------------------------------


def _card_ids(rules, actions):
    out, used = [], set()
    for a in actions:
        i = next(i for i, (_, act) in enumerate(rules.cards) if act == a and i not in used)
        used.add(i)
        out.append(i)
    return out


def test_aaa_upside_down_cards():
    """ "The first card you give to the AAA must be placed upside down ... each card given
    immediately after a Fence card must also be placed upside down"; "an upside-down Fence card
    does not represent a fence but an infiltrated house"; "the AAA earns 5 points for each
    upside-down card"; "each upside-down card represents 1 house. Do not apply any of the actions
    of these upside-down cards"; "Do not take the upside-down cards into account for the remaining
    points (parks, pools, temp workers, fences).\""""
    rules = load_rules("collector", mode="solo", opponent="3", expansion="roswell")
    x = rules.expansion
    actions = ["park", "fence", "park", "fence", "temp", "park"]
    assert x.aaa_upside(actions) == [True, False, True, False, True, False]
    assert x.aaa_upside(["fence", "extension", "fence", "pool"]) == [True, False, False, True]
    card = aaa_score(rules, _card_ids(rules, actions), 0, 0, sheet(rules))
    opp = rules.opponent
    assert card["expansion"] == 15
    assert card["parks"] == opp["park"] and card["fences"] == 2 * opp["fence"] and card["temps"] == 0
    assert card["n_estates"] == 3 and card["estates"] == 4


def test_level_0_aaa_turns_nothing_over():
    rules = load_rules("collector", mode="solo", opponent="0", expansion="roswell")
    card = aaa_score(rules, _card_ids(rules, ["park", "fence", "park"]), 0, 0, sheet(rules))
    assert card["expansion"] == 0 and card["n_estates"] == 2


# --- bulk ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "mode,opp,players",
    [
        ("standard", None, 1),
        ("standard", None, 4),
        ("advanced", None, 2),
        ("expert", None, 3),
        ("solo", "1", 1),
        ("solo", "4", 1),
        ("solo-advanced", "5", 1),
    ],
)
@pytest.mark.parametrize("strategy", ["greedy", "random"])
def test_kernel_games_agree(mode, opp, players, strategy):
    rs = load_ruleset(mode=mode, expansion="roswell", opponent=opp)
    res = simulate(rs, game_seeds(41, 60), players, [strategy], log=True)
    assert check_batch(res) == []


@pytest.mark.slow
@pytest.mark.parametrize(
    "edition,mode,opp,players",
    [
        ("collector", "standard", None, 1),
        ("collector", "standard", None, 3),
        ("collector", "advanced", None, 2),
        ("collector", "expert", None, 3),
        ("collector", "expert-advanced", None, 2),
        ("collector", "solo", "0", 1),
        ("collector", "solo", "1", 1),
        ("collector", "solo", "3", 1),
        ("collector", "solo", "5", 1),
        ("collector", "solo-advanced", "4", 1),
        ("first", "standard", None, 2),
        ("first", "advanced", None, 1),
        ("first", "expert", None, 3),
    ],
)
def test_thousands_of_kernel_games_agree(edition, mode, opp, players):
    """1,000 games per mode and strategy (scripts/referee_check.py --expansion roswell runs the same)."""
    rs = load_ruleset(edition, mode=mode, expansion="roswell", opponent=opp)
    for strategy in ("greedy", "random"):
        res = simulate(rs, game_seeds(2026, 1000), players, [strategy], log=True)
        assert check_batch(res) == []
