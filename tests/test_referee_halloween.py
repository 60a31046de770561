"""The referee's Halloween, on hand-built sheets and rows and on kernel logs changed by hand; each
test quotes the rule it checks (Collector's expansion rules, "Halloween", 2023)."""

from __future__ import annotations

import contextlib
import copy

import pytest
from handsheets import Spec, referee_sheet

from welcome_sim.referee import IllegalMove, load_rules, replay
from welcome_sim.referee.readings.halloween import Halloween
from welcome_sim.referee.replay import _check_move
from welcome_sim.simcore.engine.game import game_seeds, simulate
from welcome_sim.simcore.rules.ruleset import load_ruleset
from welcome_sim.textview import render_game
from welcome_sim.verify import check_batch, referee_rules, split_log

MARK, CLAIM, BONUS = 17, 18, 19
ALT, POOL, PARK, EXT = 3, 4, 5, 6
GHOST, CANDY = 0, 1
MARKED = [
    (0, 1),
    (0, 4),
    (0, 6),
    (0, 8),
    (1, 1),
    (1, 3),
    (1, 6),
    (1, 9),
    (2, 0),
    (2, 2),
    (2, 5),
    (2, 8),
    (2, 10),
]


@pytest.fixture(scope="module")
def rules():
    return load_rules("collector", expansion="halloween")


def blank() -> Spec:
    return Spec(streets=[["."] * 10, ["."] * 11, ["."] * 12])


def sheet(rules, marks: dict | None = None, spec: Spec | None = None):
    """A referee sheet with these marked houses numbered (2 x (house + 1)) and circled."""
    sh = referee_sheet(rules, spec or blank())
    x = rules.expansion
    x.state(sh)
    for (s, h), kind in (marks or {}).items():
        if sh.streets[s][h].number is None:
            sh.streets[s][h].number = 2 * (h + 1)
        x.state(sh)["marks"][(s, h)] = kind
    return sh


def row(p: int, kind: int, a: int = 0, b: int = 0, c: int = 0, d: int = 0) -> list[int]:
    return [0, 1, p, kind, a, b, c, d, 0, 0, 0, 0]


def ghosts(n: int) -> dict:
    return dict.fromkeys(MARKED[:n], "ghost")


def test_the_referee_reads_the_data_file(rules):
    x = rules.expansion
    assert isinstance(x, Halloween)
    assert sorted(x.marked) == MARKED
    assert x.needs == {"ghost": [4, 6, 9], "candy": [4, 6, 9]}
    assert x.bonuses[1] == [("pool", 2), ("extension", 1)]


def test_a_numbered_house_with_a_ghost_and_a_candy_needs_its_mark(rules):
    """ "Each time you number a house with a ghost and a candy, circle one of the two." """
    x = rules.expansion
    sh = sheet(rules)
    sh.streets[0][1].number = 3
    x.numbered(sh, 0, 1)
    with pytest.raises(ValueError, match="neither was circled"):
        x.after_move(copy.deepcopy(sh), [], "here")
    assert "candy circled in street 1, house 2" in x.after_move(sh, [row(0, MARK, 0, 1, CANDY, 0)], "here")
    assert x.state(sh)["marks"][(0, 1)] == "candy"
    sh.streets[0][0].number = 1
    x.numbered(sh, 0, 0)  # no ghost and candy there
    with pytest.raises(ValueError, match="not a house with a ghost and a candy just numbered"):
        x.after_move(sh, [row(0, MARK, 0, 0, GHOST, 0)], "here")


def test_claims_need_the_exact_count_and_an_open_level(rules):
    """ "If you have exactly 4, 6, or 9 circled ghosts, you can claim the corresponding level or a
    lower level ... if you don't have the exact required number ... you cannot claim any level,
    even a lower one." "The same applies to candies." """
    x = rules.expansion
    for n, level, ok in [
        (4, 0, True),
        (5, 0, False),
        (6, 0, True),
        (6, 2, False),
        (9, 2, True),
        (8, 1, False),
    ]:
        sh = sheet(rules, dict.fromkeys(MARKED[:n], "candy"))
        if ok:
            assert x.round_decisions([sh], [row(0, CLAIM, CANDY, level)], "r") == [
                f"player 1: claims the {[4, 6, 9][level]}-candy level"
            ]
        else:
            with pytest.raises(ValueError, match=r"not exactly|do not reach"):
                x.round_decisions([sh], [row(0, CLAIM, CANDY, level)], "r")


def test_one_level_of_each_kind_a_game_and_crossed_levels_are_gone(rules):
    """ "you can only claim one Ghost level and one Candy level per game"; "The other architects must
    cross out that level and can no longer claim it." """
    x = rules.expansion
    a, b = sheet(rules, dict.fromkeys(MARKED[:4], "candy")), sheet(rules, dict.fromkeys(MARKED[:6], "candy"))
    x.round_decisions([a, b], [row(0, CLAIM, CANDY, 0)], "r")
    assert x.state(a)["levels"]["candy"] == ["circled", "open", "open"]
    assert x.state(b)["levels"]["candy"] == ["crossed", "open", "open"]
    with pytest.raises(ValueError, match="is crossed"):
        x.round_decisions([copy.deepcopy(a), copy.deepcopy(b)], [row(1, CLAIM, CANDY, 0)], "r")
    x.state(a)["marks"].update(dict.fromkeys(MARKED[4:6], "candy"))
    with pytest.raises(ValueError, match="a second candy level"):
        x.round_decisions([a, b], [row(0, CLAIM, CANDY, 1)], "r")


def test_the_same_level_claimed_in_the_same_round_goes_to_everyone_who_claims_it(rules):
    """ "Multiple architects can claim the same level in the same round." """
    x = rules.expansion
    sheets = [sheet(rules, dict.fromkeys(MARKED[:4], "candy")) for _ in range(3)]
    x.round_decisions(sheets, [row(0, CLAIM, CANDY, 0), row(2, CLAIM, CANDY, 0)], "r")
    assert [x.state(s)["levels"]["candy"][0] for s in sheets] == ["circled", "crossed", "circled"]


def test_ghost_bonuses_follow_the_levels_alternatives(rules):
    """ "4-ghost level: 1 Pool bonus OR 1 Park bonus." "Pool bonus: Circle 1 pool anywhere, whether
    the house is numbered or not, and cross out 1 box in the pool section." """
    x = rules.expansion
    sh = sheet(rules, ghosts(4))
    texts = x.round_decisions(
        [sh], [row(0, CLAIM, GHOST, 0), row(0, BONUS, ALT, 0), row(0, BONUS, POOL, 2, 6)], "r"
    )
    assert "player 1: Pool bonus: pool of street 3, house 7" in texts
    assert sh.streets[2][6].pool and sh.streets[2][6].number is None and sh.pools == 1
    for bad, why in [
        ([row(0, BONUS, ALT, 0), row(0, BONUS, PARK, 0)], "a park bonus|a pool bonus"),  # the wrong unit
        ([row(0, BONUS, ALT, 0), row(0, BONUS, POOL, 0, 0)], "cannot circle a pool"),  # no pool there
        ([row(0, BONUS, ALT, 0)], "left unused although one has a place"),
        ([], "without choosing its bonus"),
        ([row(0, BONUS, POOL, 2, 6)], "before choosing"),
    ]:
        with pytest.raises(ValueError, match=why):
            x.round_decisions([sheet(rules, ghosts(4))], [row(0, CLAIM, GHOST, 0), *bad], "r")


def test_a_pool_circled_by_the_bonus_takes_no_pool_action_later(rules):
    """The Pool bonus circles the pool of a house "whether the house is numbered or not"; numbering
    that house later, the Pool action cannot circle it a second time."""
    m = [0, 1, 0, 1, 0, 2, 6, 16, 3, 0, 0, 0]  # 8 in street 3, house 7, with the Pool action
    sh = sheet(rules)
    assert "pool" in _check_move(rules, sh, [(8, "pool")], m, 1)
    sh = sheet(rules)
    sh.streets[2][6].pool = True
    sh.pools = 1
    with pytest.raises(IllegalMove, match="already circled"):
        _check_move(rules, sh, [(8, "pool")], m, 1)


def test_park_bonuses_lost_only_without_a_place(rules):
    """ "9-ghost level: 3 Park bonuses OR 2 Extension bonuses." "Park bonus: Cross out 1 Park box on
    any street." A bonus is used "immediately": one is lost only when no park box is left."""
    x = rules.expansion
    full = blank()
    full.parks = [3, 4, 4]
    sh = sheet(rules, ghosts(9), full)
    x.round_decisions([sh], [row(0, CLAIM, GHOST, 2), row(0, BONUS, ALT, 0), row(0, BONUS, PARK, 2)], "r")
    assert sh.parks == [3, 4, 5]
    with pytest.raises(ValueError, match="left unused"):
        x.round_decisions([sheet(rules, ghosts(9))], [row(0, CLAIM, GHOST, 2), row(0, BONUS, ALT, 0)], "r")


def test_extension_bonus_crosses_no_box_and_can_enable_a_candy_claim(rules):
    """ "Extension bonus: Perform 1 Extension action without crossing out a box in the extension
    section. This bonus can allow you to claim a Candy level in the same round." """
    x = rules.expansion
    marks = {**ghosts(6), **dict.fromkeys(MARKED[8:11], "candy")}
    sh = sheet(rules, marks)
    sh.streets[1][8].number = 18
    sh.extensions = 6
    rows = [
        row(0, CLAIM, GHOST, 1),
        row(0, BONUS, ALT, 1),
        row(0, BONUS, EXT, 1, 8, 9),
        row(0, MARK, 1, 9, CANDY, 1),
        row(0, CLAIM, CANDY, 0),
    ]
    texts = x.round_decisions([sh], rows, "r")
    assert "player 1: Extension bonus: 18B in street 2, house 10" in texts
    assert sh.streets[1][9].bis and sh.extensions == 6
    assert x.state(sh)["levels"]["candy"][0] == "circled"
    # Without the mark the candy is not there yet; an extension across a house is no extension.
    for bad in (rows[:3] + rows[4:], [*rows[:2], row(0, BONUS, EXT, 1, 8, 10)]):
        s2 = sheet(rules, marks)
        s2.streets[1][8].number = 18
        with pytest.raises(ValueError):
            x.round_decisions([s2], bad, "r")


def test_aaa_validation_cards_cross_their_levels_unless_circled():
    """ "Validation B card: Cross out the 2nd Ghost level AND the 2nd Candy level" "if you haven't
    circled them"; "the AAA earns 4 points for each crossed out Ghost and Candy level"."""
    rules = load_rules("collector", mode="solo", opponent="3", expansion="halloween")
    x = rules.expansion
    sh = sheet(rules)
    x.state(sh)["levels"]["candy"][1] = "circled"
    assert x.validation_card(sh, 1) == "the player crosses the 6-ghost level"
    assert x.validation_card(sh, 0) == "the player crosses the 4-ghost level and the 4-candy level"
    assert x.aaa_points([], sh) == 12


def test_candy_points_and_plan_c_goals(rules):
    """ "If you have claimed a Candy level, add the indicated points to your score." "In 2 different
    streets: circle all the ghosts." "In the 3rd street (bottom): circle all the candies." """
    x = rules.expansion
    sh = sheet(rules, {**ghosts(8), **dict.fromkeys(MARKED[8:], "candy")})
    x.state(sh)["levels"]["candy"][2] = "circled"
    assert x.score(sh)["expansion_points"] == 14 and x.score(sh)["candy_level"] == 9
    plans = {p["id"]: p for p in rules.plans}
    assert x.goal(sh, plans["C-H4"]) and x.goal(sh, plans["C-H5"]) and x.goal(sh, plans["C-H3"])
    x.state(sh)["marks"][(2, 10)] = "ghost"
    assert not x.goal(sh, plans["C-H5"])


# --- kernel logs changed by hand --------------------------------------------------------------------


@pytest.fixture(scope="module")
def played():
    rs = load_ruleset(expansion="halloween")
    res = simulate(rs, game_seeds(41, 30), 3, ["greedy", "random", "greedy"], log=True)
    return referee_rules(rs), split_log(res.log), res


def first_row(logs, test) -> tuple[int, int]:
    for g, log in logs.items():
        for i, e in enumerate(log):
            if test(e):
                return g, i
    raise AssertionError("no such row in these games")


def test_kernel_logs_replay_and_changed_ones_are_rejected(played):
    r, logs, res = played
    assert check_batch(res) == []
    cases = [
        (lambda e: e[3] == MARK, lambda e: e.__setitem__(6, 1 - e[6]), None),  # the other mark: legal
        (lambda e: e[3] == MARK and e[7] == 0, lambda e: e.__setitem__(5, e[5] + 1), "ghost and a candy"),
        (lambda e: e[3] == CLAIM and e[5] == 0, lambda e: e.__setitem__(5, 2), r"do not reach|level"),
        (lambda e: e[3] == BONUS and e[4] == ALT, lambda e: e.__setitem__(5, 2), "alternative"),
        (lambda e: e[3] == BONUS and e[4] == PARK, lambda e: e.__setitem__(4, POOL), r"pool|bonus"),
    ]
    for test, change, why in cases:
        g, i = first_row(logs, test)
        log = copy.deepcopy(logs[g])
        change(log[i])
        if why is None:
            with contextlib.suppress(IllegalMove):
                replay(r, log, 3)  # may be legal or break a later rule; never crashes
            continue
        with pytest.raises(IllegalMove, match=why):
            replay(r, log, 3)
    g, i = first_row(logs, lambda e: e[3] == MARK)
    with pytest.raises(IllegalMove, match="neither was circled"):
        replay(r, logs[g][:i] + logs[g][i + 1 :], 3)
    g, i = first_row(logs, lambda e: e[3] == CLAIM)
    extra = copy.deepcopy(logs[g][i])
    # Rejected as a second claim, or (a Ghost level) as a claim whose bonus is never chosen.
    with pytest.raises(IllegalMove, match=r"second|crossed|exactly|reach|without choosing its bonus"):
        replay(r, [*logs[g][: i + 1], extra, *logs[g][i + 1 :]], 3)


def test_marks_without_the_expansion_are_rejected():
    rs = load_ruleset()
    res = simulate(rs, game_seeds(3, 1), 1, ["greedy"], log=True)
    log = split_log(res.log)[0]
    move = next(e for e in log if e[3] == 1 and e[4] >= 0)
    bad = [*log, [0, move[1], 0, MARK, move[5], move[6], 0, 0, 0, 0, 0, 0]]
    bad.sort(key=lambda e: e[1])
    with pytest.raises(IllegalMove, match="without it"):
        replay(referee_rules(rs), bad, 1)


def test_text_view_shows_marks_and_levels(played):
    r, logs, res = played
    rec = replay(r, logs[0], 3)
    text = "\n".join(render_game(rec, ["a", "b", "c"], ["A", "B", "C"]))
    assert "halloween: before a house with a ghost and a candy" in text
    assert "ghost levels 4:" in text and "candy levels" in text
    assert "ghosts, " in text and " candies, levels " in text
    assert "claims the" in text or "circled in street" in text


# --- kernel games in every mode --------------------------------------------------------------------

MODES = [
    ("collector", "standard", None, 2),
    ("collector", "advanced", None, 1),
    ("collector", "expert", None, 3),
    ("collector", "expert-advanced", None, 2),
    ("collector", "solo", "3", 1),
    ("collector", "solo-advanced", "1", 1),
    ("first", "standard", None, 3),
    ("first", "advanced", None, 1),
    ("first", "expert", None, 2),
    ("first", "solo", None, 1),
]


@pytest.mark.parametrize("edition,mode,opp,players", MODES)
def test_kernel_games_replay_in_every_mode(edition, mode, opp, players):
    """Greedy and random games of every mode, replayed and re-scored by the referee, reach every
    decision: both marks, claims of both kinds, each bonus unit."""
    rs = load_ruleset(edition, mode=mode, opponent=opp, expansion="halloween")
    kinds: set[tuple] = set()
    for k, seats in enumerate((["greedy"], ["random"])):
        res = simulate(rs, game_seeds(100 + k, 40), players, seats, log=True)
        assert check_batch(res) == []
        log = res.log
        kinds |= {(int(e[3]), int(e[4]) if e[3] != MARK else int(e[6])) for e in log if e[3] >= MARK}
    assert {(MARK, GHOST), (MARK, CANDY), (CLAIM, GHOST), (CLAIM, CANDY), (BONUS, ALT)} <= kinds
    assert {(BONUS, POOL), (BONUS, PARK)} & kinds


@pytest.mark.slow
@pytest.mark.parametrize("edition,mode,opp,players", MODES)
def test_thousands_of_kernel_games_replay_exactly(edition, mode, opp, players):
    rs = load_ruleset(edition, mode=mode, opponent=opp, expansion="halloween")
    for k, seats in enumerate((["greedy"], ["random"])):
        res = simulate(rs, game_seeds(7100 + k, 1000), players, seats, log=True)
        assert check_batch(res) == []
