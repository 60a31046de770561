"""The referee's Quack, on hand-built sheets and logs; each test quotes the rule it checks
(Collector's expansion rules, "Quack", shared/seeds/003). Logs of kernel games are the starting
point of the rejected ones: one row changed, the referee must name the broken rule."""

from __future__ import annotations

import pytest
from handsheets import Spec, referee_sheet

from welcome_sim.referee import IllegalMove, load_rules, replay
from welcome_sim.referee.plans import PlanError, check_plan
from welcome_sim.simcore.game import game_seeds, simulate
from welcome_sim.simcore.ruleset import load_ruleset
from welcome_sim.textview import render_game
from welcome_sim.verify import check_batch, split_log

PHASE, DUCKS, END = 21, 22, 3
LENGTHS = (10, 11, 12)


@pytest.fixture(scope="module")
def rules():
    return load_rules("collector", expansion="quack")


@pytest.fixture(scope="module")
def logged():
    """Two-player greedy games and their logs (rows per game)."""
    rs = load_ruleset(expansion="quack")
    res = simulate(rs, game_seeds(31, 8), 2, ["greedy"], log=True)
    return res, split_log(res.log)


def spec(houses=(), roundabouts=(), fences=None, pools=()) -> Spec:
    """A sheet numbering the given (street, house) pairs (house h numbered h + 1), 'R' at the
    roundabouts, fences as boundaries per street, built pools."""
    rows = []
    for s, n in enumerate(LENGTHS):
        rows.append(
            ["R" if (s, h) in roundabouts else str(h + 1) if (s, h) in houses else "." for h in range(n)]
        )
    return Spec(streets=rows, fences=fences or {}, pools=list(pools))


def sheet(rules, houses=(), roundabouts=(), fences=None, pools=()):
    return referee_sheet(rules, spec(houses, roundabouts, fences, pools))


def houses_of(ducklings) -> set:
    """Both houses of each duckling given (the referee's tuples: colour, house a, house b, between)."""
    return {h for d in ducklings for h in (d[1], d[2])}


def plan(rules, pid: str) -> dict:
    return next(p for p in rules.plans if p["id"] == pid)


def meets(rules, sh, pid: str, items=()) -> bool:
    try:
        check_plan(sh, plan(rules, pid), list(items), False)
    except PlanError:
        return False
    return True


def n_circled(x, sh, colour: str) -> int:
    return sum(1 for d in x.ducklings if d[0] == colour and x.circled(sh, d))


# --- the sheet -------------------------------------------------------------------------------------


def test_circled_when_both_houses_are_numbered(rules):
    """ "As soon as you have 2 numbered houses on each side of a duckling, horizontally or
    vertically, circle the duckling." """
    x = rules.expansion
    top_black = next(d for d in x.ducklings if d[1] == (0, 1))
    assert not x.circled(sheet(rules, {(0, 1)}), top_black)
    assert x.circled(sheet(rules, {(0, 1), (0, 2)}), top_black)
    between = next(d for d in x.ducklings if d[3] and d[1] == (0, 3))
    assert between[2] == (1, 3)  # column 3, streets drawn flush left
    assert x.circled(sheet(rules, {(0, 3), (1, 3)}), between)
    assert not x.circled(sheet(rules, {(0, 1)}, roundabouts={(0, 2)}), top_black)


def test_connected_by_an_uninterrupted_chain(rules):
    """ "A duckling earns points if it is circled and connected to its parent by an uninterrupted
    chain of circled ducklings and numbered houses." """
    x = rules.expansion
    bottom = {(2, h) for h in range(6, 12)}
    assert x.connected(sheet(rules, bottom), "yellow") == 1
    assert x.connected(sheet(rules, bottom | {(1, 6)}), "yellow") == 2
    cut = bottom | {(1, 6), (1, 3), (1, 4)}
    assert x.connected(sheet(rules, cut), "yellow") == 2
    assert x.connected(sheet(rules, cut | {(1, 5)}), "yellow") == 3
    assert x.connected(sheet(rules, bottom - {(2, 10)}, roundabouts={(2, 10)}), "yellow") == 0


def test_a_fence_where_a_duckling_is(rules):
    """ "You can build a fence where there is a duckling. Just be careful not to harm it." (the
    README's reading: a fence between the two numbered houses neither stops circling the duckling
    nor breaks the chain to its parent). Bottom street houses 6-11 (0-based) numbered, yellow
    parent beside house 11, duckling 9|10 on boundary 10."""
    x = rules.expansion
    bottom = {(2, h) for h in range(6, 12)}
    d = next(d for d in x.ducklings if d[1] == (2, 9))
    for fences in ({}, {2: [10]}, {2: [10, 8]}):
        sh = sheet(rules, bottom, fences=fences)
        assert x.circled(sh, d)
        assert x.connected(sh, "yellow") == 1
    # Between the streets too: the yellow duckling of column 6 still links street 2 to the bottom.
    sh = sheet(rules, bottom | {(1, 6)}, fences={2: [6, 7, 10]})
    assert x.connected(sh, "yellow") == 2


def test_plan_c1_the_duckling_must_be_entirely_inside(rules):
    """ "Build 2 complete housing estates of size 3, each with at least 1 built swimming pool and 1
    circled duckling that must be entirely inside the estate." (houses 0-based) Top street estate
    0-2, pool at 2, duckling 1|2 inside. Middle street houses 1-4, pool at 3, its duckling 3|4
    circled: fences at 1 and 4 make the estate 1-3, complete, size 3, a pool, but the duckling on
    its fence; fences at 2 and 5 make the estate 2-4 with the duckling inside."""
    x = rules.expansion
    houses = {(0, 0), (0, 1), (0, 2)} | {(1, h) for h in (1, 2, 3, 4)}
    on_fence = sheet(rules, houses, fences={0: [3], 1: [1, 4]}, pools=[(0, 2), (1, 3)])
    inside = sheet(rules, houses, fences={0: [3], 1: [2, 5]}, pools=[(0, 2), (1, 3)])
    d = next(d for d in x.ducklings if d[1] == (1, 3))
    assert x.circled(on_fence, d) and x.circled(inside, d)
    assert x.feature(on_fence, 0, 0, 2, "ducklings") == 1
    assert x.feature(on_fence, 1, 1, 3, "ducklings") == 0
    assert x.feature(inside, 1, 2, 4, "ducklings") == 1
    assert meets(rules, inside, "C-Q1", [(0, 0, 2), (1, 2, 4)])
    # Only the duckling fails: the estates are there, complete, with their pools.
    with pytest.raises(PlanError, match="estate 2:2-4 has ducklings 0"):
        check_plan(on_fence, plan(rules, "C-Q1"), [(0, 0, 2), (1, 1, 3)], False)


def test_plan_c2_five_of_each_colour(rules):
    """ "Circle 5 yellow ducklings and 5 black ducklings." 5 and 5 holds; 4 and 5, 5 and 4 not."""
    x = rules.expansion
    yellow = [d for d in x.ducklings if d[0] == "yellow"]
    black = [d for d in x.ducklings if d[0] == "black"]
    # Chosen so that no other duckling shares both houses with them (checked by the counts).
    ys = [yellow[i] for i in (0, 1, 2, 3, 5)]
    ks = [black[i] for i in (0, 1, 2, 3, 4)]
    for n_y, n_k, met in ((5, 5, True), (4, 5, False), (5, 4, False)):
        sh = sheet(rules, houses_of(ys[:n_y] + ks[:n_k]))
        assert (n_circled(x, sh, "yellow"), n_circled(x, sh, "black")) == (n_y, n_k)
        assert meets(rules, sh, "C-Q2") == met


def test_plan_c3_every_duckling_of_two_streets(rules):
    """ "In 2 different streets: circle all the ducklings." The ducklings between the streets
    belong to no street: not required. One street alone, or two streets with one duckling
    missing, is not enough."""
    x = rules.expansion
    of = {s: [d for d in x.ducklings if not d[3] and d[1][0] == s] for s in range(3)}
    sh = sheet(rules, houses_of(of[0] + of[2]))
    assert not any(x.circled(sh, d) for d in x.ducklings if d[3])  # none between the streets
    assert meets(rules, sh, "C-Q3")
    assert not meets(rules, sheet(rules, houses_of(of[0] + [d for d in x.ducklings if d[3]])), "C-Q3")
    assert not meets(rules, sheet(rules, houses_of(of[0] + of[2]) - {of[2][1][2]}), "C-Q3")
    assert meets(rules, sheet(rules, houses_of(of[1] + of[2])), "C-Q3")


def test_plan_c4_the_bottom_yellow_and_the_top_black(rules):
    """ "Circle the 2 yellow ducklings in the 3rd street (bottom) and the 2 black ducklings in the
    1st street (top)." Those four, and nothing else, hold; every other duckling circled but one
    of the four does not."""
    x = rules.expansion
    four = [
        d
        for d in x.ducklings
        if not d[3] and ((d[1][0] == 2 and d[0] == "yellow") or (d[1][0] == 0 and d[0] == "black"))
    ]
    assert len(four) == 4
    sh = sheet(rules, houses_of(four))
    assert sum(x.circled(sh, d) for d in x.ducklings) == 4
    assert meets(rules, sh, "C-Q4")
    every = houses_of(x.ducklings)
    for d in four:
        sh = sheet(rules, every - {d[2]})
        assert not x.circled(sh, d)
        assert not meets(rules, sh, "C-Q4")


def test_plan_c5_the_ducklings_between_the_streets(rules):
    """ "Circle the 2 yellow ducklings and the 3 black ducklings between the streets." The five
    between the streets hold without any street duckling; every street duckling and four of the
    five do not."""
    x = rules.expansion
    between = [d for d in x.ducklings if d[3]]
    assert sorted(d[0] for d in between) == ["black"] * 3 + ["yellow"] * 2
    sh = sheet(rules, houses_of(between))
    assert not any(x.circled(sh, d) for d in x.ducklings if not d[3])
    assert meets(rules, sh, "C-Q5")
    streets = houses_of(d for d in x.ducklings if not d[3])
    for d in between:
        sh = sheet(rules, (streets | houses_of(between)) - {d[1]})
        assert not x.circled(sh, d)
        assert not meets(rules, sh, "C-Q5")


# --- the phases, in logs ---------------------------------------------------------------------------


def test_kernel_games_replay_and_show_the_ducklings(logged, rules):
    res, games = logged
    assert check_batch(res) == []
    rec = replay(rules, games[0], 2)
    text = "\n".join(render_game(rec, ["P1", "P2"], ["?"] * 3))
    assert "ducklings: yellow circled" in text and "phases:" in text


def _changed(rows, pick, change):
    out = [list(r) for r in rows]
    i = next(i for i, r in enumerate(out) if pick(r))
    change(out, i)
    return out


def test_a_phase_points_row_changed_is_rejected(logged, rules):
    """ "each architect scores 1 point for each yellow duckling circled and connected to its
    parent": the referee re-scores every phase."""
    _, games = logged

    def plus_one(out, i):
        out[i][5] += 1

    bad = _changed(games[0], lambda r: r[3] == DUCKS and r[2] == 0, plus_one)
    with pytest.raises(IllegalMove, match="points to player 1"):
        replay(rules, bad, 2)


def test_a_phase_moved_to_another_round_is_rejected(logged, rules):
    """ "Each scoring phase takes place at the end of the round in which it is triggered." """
    _, games = logged
    rows = next(g for g in games.values() if any(r[3] == PHASE and r[5] == 0 for r in g))

    def later(out, i):
        for r in out[i : i + 3]:
            r[1] += 1

    bad = _changed(rows, lambda r: r[3] == PHASE and r[5] == 0, later)
    with pytest.raises(IllegalMove, match="phase"):
        replay(rules, bad, 2)


def test_a_missing_phase_is_rejected(logged, rules):
    """ "If one or more scoring phases have not been triggered, each architect performs the missing
    scoring phases before calculating their final score": three phases in every game."""
    _, games = logged
    rows = games[0]
    cut = [r for r in rows if r[3] not in (PHASE, DUCKS) or r[4] != 2]
    with pytest.raises(IllegalMove, match="only the rules"):
        replay(rules, cut, 2)


def test_no_phase_rows_without_quack():
    res = simulate(load_ruleset(), game_seeds(3, 1), 2, ["greedy"], log=True)
    rows = split_log(res.log)[0]
    last = rows[-1][1]
    rows = [*rows[:-1], [0, last, -1, PHASE, 0, 2, 0, 0, 0, 0, 0, 0], rows[-1]]
    with pytest.raises(IllegalMove, match="scoring phases in a game without them"):
        replay(load_rules("collector"), rows, 2)


def test_aaa_validation_cards_trigger_phases():
    """ "If the AAA triggers a duckling scoring phase, it takes place immediately." ... "the AAA
    scores 1 point for each pair of Construction cards you have given them" in each phase."""
    rs = load_ruleset(expansion="quack", mode="solo", opponent="3")
    res = simulate(rs, game_seeds(7, 40), 1, ["greedy"], log=True)
    assert check_batch(res) == []
    games = split_log(res.log)
    rules = load_rules("collector", mode="solo", expansion="quack", opponent="3")
    rows = next(g for g in games.values() if any(r[3] == PHASE and r[5] == 1 for r in g))
    # The AAA's row of an immediate phase, one point more: rejected.

    def more(out, i):
        out[i + 2][5] += 1

    bad = _changed(rows, lambda r: r[3] == PHASE and r[5] == 1, more)
    with pytest.raises(IllegalMove, match="to the AAA"):
        replay(rules, bad, 1)


# --- bulk ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "mode,opp,players",
    [
        ("standard", None, 1),
        ("standard", None, 4),
        ("advanced", None, 2),
        ("expert", None, 3),
        ("solo", "0", 1),
        ("solo", "1", 1),
        ("solo", "4", 1),
        ("solo-advanced", "5", 1),
    ],
)
@pytest.mark.parametrize("strategy", ["greedy", "random"])
def test_kernel_games_agree(mode, opp, players, strategy):
    rs = load_ruleset(mode=mode, expansion="quack", opponent=opp)
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
    """1,000 games per mode and strategy (scripts/referee_check.py --expansion quack runs the same)."""
    rs = load_ruleset(edition, mode=mode, expansion="quack", opponent=opp)
    for strategy in ("greedy", "random"):
        res = simulate(rs, game_seeds(2026, 1000), players, [strategy], log=True)
        assert check_batch(res) == []
