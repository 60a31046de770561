"""The referee's Quack, on hand-built sheets and logs; each test quotes the rule it checks
(Collector's expansion rules, "Quack", 2023). Logs of kernel games are the starting
point of the rejected ones: one row changed, the referee must name the broken rule."""

from __future__ import annotations

import copy
import dataclasses

import pytest
from handsheets import Spec, referee_sheet

from welcome_sim.referee import IllegalMove, load_rules, replay
from welcome_sim.referee.plans import PlanError, check_plan
from welcome_sim.simcore.engine.game import game_seeds, simulate
from welcome_sim.simcore.rules.ruleset import load_ruleset
from welcome_sim.textview import render_game
from welcome_sim.verify import check_batch, split_log

PHASE, DUCKS, END, PLAN = 21, 22, 3, 2
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
    project's reading, docs/rules/expansions.md: a fence between the two numbered houses neither stops circling the duckling
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


# --- the phases, on hand-built sheets -------------------------------------------------------------


def given(n: int) -> list[tuple]:
    """n cards given to the AAA, as (number, action) (only their count matters here)."""
    return [(1, "park")] * n


def as_rows(events) -> list[list[int]]:
    """The log rows (kinds 21 and 22) of events (round, player, kind, phase, value)."""
    return [[0, rnd, p, kind, a, b, 0, 0, 0, 0, 0, 0] for rnd, p, kind, a, b in events]


def number(sh, houses) -> None:
    """The player numbers these houses (house h numbered h + 1)."""
    for s, h in houses:
        sh.streets[s][h].number = h + 1


BOTTOM_END = {(2, h) for h in range(6, 12)}  # the yellow parent's house and five more: 1 connected


@pytest.fixture(scope="module")
def solo():
    return load_rules("collector", mode="solo", expansion="quack", opponent="3")


def test_the_first_to_circle_every_yellow_duckling_triggers_a_phase_for_all(rules):
    """ "The architect who first circles all the yellow ducklings triggers the scoring phase. At the
    end of the round, each architect scores 1 point for each yellow duckling circled and connected
    to its parent." Round 1: nobody has them all, no phase. Round 2: player 1 circles every yellow
    duckling: the phase pays both players their connected yellow ducklings, once; the log's rows
    must say so."""
    x = rules.expansion
    a, b = sheet(rules, BOTTOM_END), sheet(rules, BOTTOM_END)
    x.round_scored([a, b], [])
    assert x.game(a)["events"] == []
    number(a, houses_of(d for d in x.ducklings if d[0] == "yellow"))
    y = x.connected(a, "yellow")
    assert y > 1 and x.connected(b, "yellow") == 1 and n_circled(x, b, "yellow") < 6
    x.round_scored([a, b], [])
    want = [(2, -1, PHASE, 0, 0), (2, 0, DUCKS, 0, y), (2, 1, DUCKS, 0, 1)]
    assert x.game(a)["events"] == want
    assert x.game(a)["triggers"] == {0: 1}
    x.round_scored([a, b], [])  # round 3: yellow was scored
    assert x.game(a)["events"] == want
    assert x.check_events([a, b], as_rows(want)) is None
    bad = as_rows(want)
    bad[2][5] = 2
    assert "2 points to player 2" in x.check_events([a, b], bad)
    assert "only the rules" in x.check_events([a, b], as_rows(want[:1]))


def test_several_phases_in_one_round(rules):
    """ "It is possible for multiple scoring phases to be triggered in the same round and therefore
    be conducted at the end of that same round." Player 1 numbers every house (every duckling
    circled and connected), player 2 circles every black duckling, in the same round: the three
    phases at that round's end, both players trigger black."""
    x = rules.expansion
    a = sheet(rules, {(s, h) for s, n in enumerate(LENGTHS) for h in range(n)})
    b = sheet(rules, houses_of(d for d in x.ducklings if d[0] == "black"))
    x.round_scored([a, b], [])
    ev = x.game(a)["events"]
    assert [(e[0], e[3], e[4]) for e in ev if e[2] == PHASE] == [(1, 0, 0), (1, 1, 0), (1, 2, 0)]
    paid = {(e[1], e[3]): e[4] for e in ev if e[2] == DUCKS}
    assert paid[(0, 0)] == 6 and paid[(0, 1)] == 6 and paid[(0, 2)] == 12
    assert x.game(a)["triggers"] == {0: 3, 1: 1}


@pytest.mark.parametrize("first,second", [(0, 1), (1, 0)])
def test_aaa_validation_cards_a_and_b(solo, first, second):
    """ "If the AAA triggers a duckling scoring phase, it takes place immediately." "Validation A
    card: The AAA triggers the scoring phase for yellow ducklings"; "Validation B card: ... for
    black ducklings"; "Validation A and B cards: When either of these two cards is drawn, while the
    other has already been drawn previously, the AAA triggers the scoring phase for both yellow
    AND black ducklings". The AAA (level 3) scores "1 point for each pair of Construction cards
    you have given them since the beginning of the game" in each phase."""
    x = solo.expansion
    sh = sheet(solo, BOTTOM_END)
    paid = {0: 1, 1: 0}  # yellow connected: 1, black: 0
    x.aaa_validation(sh, first, given(6))  # round 1, 6 cards given
    assert x.game(sh)["events"] == [
        (1, -1, PHASE, first, 1),
        (1, 0, DUCKS, first, paid[first]),
        (1, -1, DUCKS, first, 3),
    ]
    x.round_scored([sh], given(7))  # nobody circled all: nothing more
    x.aaa_validation(sh, second, given(9))  # round 2
    assert x.game(sh)["events"][3:] == [
        (2, -1, PHASE, second, 1),
        (2, 0, DUCKS, second, paid[second]),
        (2, -1, DUCKS, second, 4),
        (2, -1, PHASE, 2, 1),
        (2, 0, DUCKS, 2, 1),
        (2, -1, DUCKS, 2, 4),
    ]
    assert x.check_events([sh], as_rows(x.game(sh)["events"])) is None


def test_aaa_does_not_trigger_what_the_player_triggered(solo):
    """ "Validation A card: The AAA triggers the scoring phase for yellow ducklings if you haven't
    already triggered it yourself." ... "Validation A and B cards: ... the AAA triggers the scoring
    phase for both yellow AND black ducklings if you haven't already triggered it yourself." The
    player circles every yellow duckling in round 1; card A then triggers nothing, card B black and
    then both."""
    x = solo.expansion
    sh = sheet(solo, BOTTOM_END | houses_of(d for d in x.ducklings if d[0] == "yellow"))
    y = x.connected(sh, "yellow")
    x.round_scored([sh], given(1))
    assert x.game(sh)["events"] == [(1, -1, PHASE, 0, 0), (1, 0, DUCKS, 0, y), (1, -1, DUCKS, 0, 0)]
    x.aaa_validation(sh, 0, given(1))  # round 2
    assert len(x.game(sh)["events"]) == 3
    x.round_scored([sh], given(2))
    x.aaa_validation(sh, 1, given(2))  # round 3
    assert [(e[0], e[3], e[4]) for e in x.game(sh)["events"][3:] if e[2] == PHASE] == [(3, 1, 1), (3, 2, 1)]
    x.round_scored([sh], given(3))
    x.final([sh], True)  # nothing missing at the end
    assert len(x.game(sh)["events"]) == 9
    # The player circles everything: the AAA's cards trigger nothing.
    sh = sheet(solo, houses_of(x.ducklings))
    x.round_scored([sh], given(1))
    x.aaa_validation(sh, 0, given(1))
    x.aaa_validation(sh, 1, given(1))
    assert [e[4] for e in x.game(sh)["events"] if e[2] == PHASE] == [0, 0, 0]


def test_validation_card_c_triggers_nothing(solo):
    """ "Validation card C does not trigger any scoring phase." Nor is it the other card of "When
    either of these two cards [A and B] is drawn, while the other has already been drawn
    previously": C then A triggers yellow only."""
    x = solo.expansion
    sh = sheet(solo, BOTTOM_END)
    x.aaa_validation(sh, 2, given(4))
    assert x.game(sh)["events"] == []
    x.round_scored([sh], given(5))
    x.aaa_validation(sh, 0, given(5))
    assert [e[3] for e in x.game(sh)["events"] if e[2] == PHASE] == [0]
    x.aaa_validation(sh, 2, given(5))
    assert [e[3] for e in x.game(sh)["events"] if e[2] == PHASE] == [0]


def test_a_level_0_aaa_triggers_but_scores_nothing():
    """ "To add up the score for the AAA (level 1 or higher)": a level 0 AAA's card B triggers the
    black phase, which pays the player, and no row of points goes to the AAA."""
    rules0 = load_rules("collector", mode="solo", expansion="quack", opponent="0")
    x = rules0.expansion
    sh = sheet(rules0)
    x.aaa_validation(sh, 1, given(10))
    assert x.game(sh)["events"] == [(1, -1, PHASE, 1, 1), (1, 0, DUCKS, 1, 0)]


def test_the_aaa_scores_the_cards_given_to_it(solo):
    """ "the AAA scores 1 point for each pair of Construction cards you have given them since the
    beginning of the game": at a round's end, the stack given to it (7 cards: 3 points), not a
    count of rounds (this is round 1)."""
    x = solo.expansion
    sh = sheet(solo, houses_of(d for d in x.ducklings if d[0] == "yellow"))
    x.round_scored([sh], given(7))
    assert x.game(sh)["events"][-1] == (1, -1, DUCKS, 0, 3)
    x.final([sh], True)  # the missing phases at the game's end: the same stack
    assert [e[4] for e in x.game(sh)["events"] if e[1] == -1 and e[2] == DUCKS] == [3, 3, 3]


def test_missing_phases_are_scored_before_the_final_score(rules):
    """ "If one or more scoring phases have not been triggered, each architect performs the missing
    scoring phases before calculating their final score." Player 1 triggered yellow in round 1;
    black and both, never triggered, are scored at the game's end (b = 2), on both sheets."""
    x = rules.expansion
    a = sheet(rules, BOTTOM_END | houses_of(d for d in x.ducklings if d[0] == "yellow"))
    b = sheet(rules, BOTTOM_END | {(1, 6)})
    x.round_scored([a, b], [])
    x.round_scored([a, b], [])
    with pytest.raises(ValueError, match="missing phases"):
        x.score(a)
    x.final([a, b], False)
    ev = x.game(a)["events"]
    assert [(e[0], e[3], e[4]) for e in ev if e[2] == PHASE] == [(1, 0, 0), (2, 1, 2), (2, 2, 2)]
    ya, yb = x.connected(a, "yellow"), x.connected(b, "yellow")
    assert yb == 2
    assert [(e[1], e[3], e[4]) for e in ev if e[2] == DUCKS] == [
        (0, 0, ya),
        (1, 0, yb),
        (0, 1, 0),
        (1, 1, 0),
        (0, 2, ya),
        (1, 2, yb),
    ]
    sa, sb = x.score(a), x.score(b)
    assert sa["expansion_points"] == 2 * ya and sb["expansion_points"] == 2 * yb
    assert sa["phases_in_play"] == sb["phases_in_play"] == 1
    assert sa["phases_triggered"] == 1 and sb["phases_triggered"] == 0


def test_each_architect_keeps_what_the_phases_paid_them(rules):
    """ "each architect scores 1 point for each yellow duckling circled and connected to its
    parent" in the phase: what a phase paid a sheet stays that sheet's, even when two sheets end
    the game alike (kernel greedy games, three players, seed 6474450443972037694: players 1 and 3
    finish with equal sheets; the referee gave player 3 player 1's duckling points)."""
    x = rules.expansion
    a = sheet(rules, BOTTOM_END | houses_of(d for d in x.ducklings if d[0] == "yellow"))
    b = sheet(rules, BOTTOM_END)
    x.round_scored([a, b], [])  # yellow: a is paid y, b 1
    y = x.connected(a, "yellow")
    number(b, houses_of(d for d in x.ducklings if d[0] == "yellow"))
    assert a == b  # equal sheets (the dataclass compares fields), different payments
    x.final([a, b], False)
    paid = {(e[1], e[3]): e[4] for e in x.game(a)["events"] if e[2] == DUCKS}
    assert paid[(0, 0)] == y and paid[(1, 0)] == 1
    sa, sb = x.score(a), x.score(b)
    assert sa["expansion_points"] == sum(v for (p, _), v in paid.items() if p == 0)
    assert sb["expansion_points"] == sum(v for (p, _), v in paid.items() if p == 1)
    assert sb["expansion_points"] == sa["expansion_points"] - y + 1
    assert (sa["phases_triggered"], sb["phases_triggered"]) == (1, 0)


# --- the phases, in logs ---------------------------------------------------------------------------


def test_kernel_games_replay_and_show_the_ducklings(logged, rules):
    """Not a rule: kernel games replay and the play view shows the ducklings and the phases."""
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


def test_round_end_phases_come_after_the_rounds_plan_validations(logged, rules):
    """The log's order (kind 21, b = 0: "at a round's end, after the plan validations", as the
    kernel scores them): the replay settles the round's phases once that round's plans are
    validated, and gives them the AAA's stack as tracked. A spy on the hook records, each round,
    the plans already validated."""
    _, games = logged
    rows = next(g for g in games.values() if any(r[3] == PLAN for r in g))
    seen: list[set] = []

    class Spy(type(rules.expansion)):
        def round_scored(self, sheets, given):
            seen.append({(p, slot) for p, sh in enumerate(sheets) for slot in sh.plan_scores})
            assert given == []  # no AAA in a two-player game
            super().round_scored(sheets, given)

    spy = copy.copy(rules.expansion)
    spy.__class__ = Spy
    replay(dataclasses.replace(rules, expansion=spy), rows, 2)
    assert len(seen) == max(r[1] for r in rows)
    for rnd, have in enumerate(seen, start=1):
        assert have == {(r[2], r[4]) for r in rows if r[3] == PLAN and r[1] <= rnd}
    assert any(seen)


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
    """Not a rule of Quack's text: a game without the expansion has no scoring phase to log."""
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
    """Not one rule: the referee re-scores kernel games of every mode the same."""
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
