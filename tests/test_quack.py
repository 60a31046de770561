"""Quack in the kernel: each rule of the expansion rules ("Quack", 2023) on hand-built
sheets or on the logs of whole games. The referee's own reading is checked in
test_referee_quack.py."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from handsheets import Spec, kernel_table

from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.engine.game import game_seeds, simulate
from welcome_sim.simcore.ground.layout import LOG_X_DUCKS, LOG_X_PHASE
from welcome_sim.simcore.ground.table import (
    DEAL_AAA,
    P_DEAL,
    P_NSTREETS,
    R_PLAN_COUNT,
    R_PLAN_XMIN,
    R_X_COLOUR,
    R_X_HOUSE,
    R_X_SCORE,
    R_X_TABLE,
)
from welcome_sim.simcore.rules.expansions import quack
from welcome_sim.simcore.rules.expansions.quack import (
    SC_QK_AAA,
    SC_QK_AAA_PTS,
    SC_QK_DONE,
    SC_QK_PAID,
    SC_QK_TRIGGERS,
)
from welcome_sim.simcore.rules.expansions.registry import OUT_COLUMNS, OUT_LEN
from welcome_sim.simcore.rules.plans import plan_check
from welcome_sim.simcore.rules.ruleset import load_ruleset
from welcome_sim.simcore.rules.scoring import score_table
from welcome_sim.strategies.protocol import Move
from welcome_sim.verify import check_batch

COL = {c: i for i, c in enumerate(OUT_COLUMNS)}
LENGTHS = (10, 11, 12)
# The data file's ducklings in table order (street ducklings, then those between streets):
# (colour, house a, house b).
DUCKS = [
    ("black", (0, 1), (0, 2)),
    ("yellow", (0, 4), (0, 5)),
    ("black", (0, 6), (0, 7)),
    ("yellow", (1, 3), (1, 4)),
    ("black", (1, 8), (1, 9)),
    ("yellow", (2, 1), (2, 2)),
    ("yellow", (2, 9), (2, 10)),
    ("yellow", (0, 3), (1, 3)),
    ("black", (0, 8), (1, 8)),
    ("black", (1, 1), (2, 1)),
    ("yellow", (1, 6), (2, 6)),
    ("black", (1, 10), (2, 10)),
]
Y, K = quack.YELLOW, quack.BLACK


@pytest.fixture(scope="module")
def rs():
    return load_ruleset(expansion="quack")


@pytest.fixture(scope="module")
def games(rs):
    """150 logged two-player greedy games and 150 three-player random games."""
    return [
        simulate(rs, game_seeds(21, 150), 2, ["greedy"], log=True),
        simulate(rs, game_seeds(22, 150), 3, ["random"], log=True),
    ]


def spec(houses=(), full=(), roundabouts=(), fences=None) -> Spec:
    """A sheet numbering the given (street, house) pairs and every house of the `full` streets
    (house h numbered h + 1, so numbers rise), 'R' at the roundabouts."""
    rows = []
    for s, n in enumerate(LENGTHS):
        row = []
        for h in range(n):
            if (s, h) in roundabouts:
                row.append("R")
            elif s in full or (s, h) in houses:
                row.append(str(h + 1))
            else:
                row.append(".")
        rows.append(row)
    return Spec(streets=rows, fences=fences or {})


def arrays(rs, *specs):
    return kernel_table(rs.kernel, list(specs))


def num(rs, sp: Spec) -> int:
    cells, _, _, _ = arrays(rs, sp)
    return quack.numbered_mask(rs.kernel, cells, 0)


def both(d) -> set:
    return {d[1], d[2]}


ALL = {h for d in DUCKS for h in both(d)}


# --- circling and the chain ------------------------------------------------------------------------


def test_the_table_holds_the_data_files_ducklings(rs):
    """Not a rule of the text: the duckling layout (places, colours) is RECONSTRUCTED (quack.toml,
    printed only on the sheet); checks the kernel's table holds the data file's ducklings as DUCKS
    lists them, each circled by its own two houses, with its colour."""
    R = rs.kernel
    assert R[R_X_TABLE, 0] == len(DUCKS)
    for i, (colour, a, b) in enumerate(DUCKS):
        mask = quack.numbered_mask(R, *arrays(rs, spec({a, b}))[:1], 0)
        assert quack.is_circled(R, mask, i), (i, colour)
        assert R[quack.R_X_COLOUR, i] == (Y if colour == "yellow" else K)


def test_a_duckling_is_circled_when_both_houses_are_numbered(rs):
    """ "As soon as you have 2 numbered houses on each side of a duckling, horizontally or
    vertically, circle the duckling." """
    R = rs.kernel
    assert not quack.is_circled(R, num(rs, spec({(0, 1)})), 0)  # one side only
    assert quack.is_circled(R, num(rs, spec({(0, 1), (0, 2)})), 0)  # horizontally
    assert quack.is_circled(R, num(rs, spec({(0, 3), (1, 3)})), 7)  # vertically
    assert not quack.is_circled(R, num(rs, spec({(0, 3), (0, 4)})), 7)


def test_a_roundabout_is_no_numbered_house(rs):
    """Reading: a roundabout "is not a house"; a duckling beside one is never circled."""
    R = rs.kernel
    assert not quack.is_circled(R, num(rs, spec({(0, 2)}, roundabouts={(0, 1)})), 0)


def test_an_extension_numbers_a_house_too(rs):
    """ "Extension Action: By numbering houses with this action, it can help you circle ducklings." """
    R = rs.kernel
    sp = spec({(0, 1)})
    sp.streets[0][2] = "2B"  # a bis copied from house 1
    assert quack.is_circled(R, num(rs, sp), 0)


def test_connected_through_numbered_houses_and_circled_ducklings(rs):
    """ "A duckling earns points if it is circled and connected to its parent by an uninterrupted
    chain of circled ducklings and numbered houses." Yellow parent beside the bottom street's last
    house (reconstructed)."""
    R = rs.kernel
    # Bottom street houses 6-11: duckling 6 (9|10) connected; duckling 10 (street 2 house 6 to
    # bottom house 6) circled and connected once street 2's house 6 is numbered.
    bottom = {(2, h) for h in range(6, 12)}
    assert quack.connected(R, num(rs, spec(bottom)), Y) == 1
    assert quack.connected(R, num(rs, spec(bottom | {(1, 6)})), Y) == 2
    # Duckling 3 (street 2, 3|4) circled but cut off by the empty house 5 of street 2.
    cut = bottom | {(1, 6), (1, 3), (1, 4)}
    assert quack.connected(R, num(rs, spec(cut)), Y) == 2
    assert quack.connected(R, num(rs, spec(cut | {(1, 5)})), Y) == 3
    # Without the parent's house nothing is connected.
    assert quack.connected(R, num(rs, spec((cut | {(1, 5)}) - {(2, 11)})), Y) == 0


def test_a_fence_does_not_break_the_chain_but_a_roundabout_does(rs):
    """ "You can build a fence where there is a duckling. Just be careful not to harm it." (a fence
    changes nothing); a roundabout is no numbered house, so the chain stops there."""
    R = rs.kernel
    bottom = {(2, h) for h in range(6, 12)}
    assert quack.connected(R, num(rs, spec(bottom, fences={2: [10, 8]})), Y) == 1
    cells, _, _, _ = arrays(rs, spec(bottom - {(2, 10)}, roundabouts={(2, 10)}))
    assert quack.connected(R, quack.numbered_mask(R, cells, 0), Y) == 0


def test_black_parent_beside_the_top_streets_first_house(rs):
    """Not a rule of the text: where the black parent is printed is RECONSTRUCTED (quack.toml
    `parents`: beside the top street's first house); the chain is the rule's ("connected to its
    parent by an uninterrupted chain of circled ducklings and numbered houses"), checked from that
    parent: along the top street, across a duckling between streets, not without its house."""
    R = rs.kernel
    top = {(0, h) for h in range(10)}
    assert quack.connected(R, num(rs, spec(top)), K) == 2  # ducklings 0 and 2
    # Across to street 2 through duckling 8 (column 8), then duckling 4 (street 2, 8|9).
    assert quack.connected(R, num(rs, spec(top | {(1, 8), (1, 9)})), K) == 4
    assert quack.connected(R, num(rs, spec(top - {(0, 0)})), K) == 0


# --- the scoring phases ----------------------------------------------------------------------------


def _events(rs, sc, cells, n, when, slot=-1, aaa_n=0):
    ev = np.zeros((96, 4), dtype=np.int64)
    k = quack.events(rs.kernel, cells, sc, n, when, slot, aaa_n, ev)
    return [tuple(int(x) for x in e) for e in ev[:k]]


def test_a_phase_scores_every_architect_at_the_round_end(rs):
    """ "The architect who first circles all the yellow ducklings triggers the scoring phase. At the
    end of the round, each architect scores 1 point for each yellow duckling circled and connected
    to its parent." """
    yellow = {h for d in DUCKS if d[0] == "yellow" for h in both(d)}
    first = spec(yellow | {(2, h) for h in range(12)})
    second = spec({(2, h) for h in range(6, 12)})
    cells, flags, fences, sc = arrays(rs, first, second)
    ev = _events(rs, sc, cells, 2, quack.WHEN_ROUND)
    assert ev[0] == (LOG_X_PHASE, -1, 0, 0)
    pts0 = quack.connected(rs.kernel, quack.numbered_mask(rs.kernel, cells, 0), Y)
    assert ev[1:] == [(LOG_X_DUCKS, 0, 0, pts0), (LOG_X_DUCKS, 1, 0, 1)]
    assert sc[0, SC_QK_TRIGGERS] == 1 and sc[1, SC_QK_TRIGGERS] == 0
    assert sc[0, SC_QK_DONE] == sc[1, SC_QK_DONE] == 1
    assert sc[1, SC_QK_PAID + 0] == 1
    # Scored once: the next round's end adds nothing for yellow.
    assert _events(rs, sc, cells, 2, quack.WHEN_ROUND) == []


def test_several_phases_in_the_same_round(rs):
    """ "It is possible for multiple scoring phases to be triggered in the same round and therefore
    be conducted at the end of that same round." """
    cells, flags, fences, sc = arrays(rs, spec(ALL))
    ev = _events(rs, sc, cells, 1, quack.WHEN_ROUND)
    assert [e[2] for e in ev if e[0] == LOG_X_PHASE] == [0, 1, 2]
    assert sc[0, SC_QK_TRIGGERS] == 7


def test_missing_phases_are_scored_at_the_end(rs):
    """ "If one or more scoring phases have not been triggered, each architect performs the
    missing scoring phases before calculating their final score." """
    sp = spec({(2, h) for h in range(12)} | {(1, 6)})
    cells, flags, fences, sc = arrays(rs, sp)
    ev = _events(rs, sc, cells, 1, quack.WHEN_END)
    assert [(e[2], e[3]) for e in ev if e[0] == LOG_X_PHASE] == [(0, 2), (1, 2), (2, 2)]
    y = quack.connected(rs.kernel, quack.numbered_mask(rs.kernel, cells, 0), Y)
    assert [e[3] for e in ev if e[0] == LOG_X_DUCKS] == [y, 0, y]
    out = np.zeros((1, OUT_LEN), dtype=np.int64)
    score_table(rs.kernel, cells, flags, fences, sc, 1, out, -1)
    assert out[0, COL["expansion_points"]] == 2 * y
    assert out[0, COL["phases_in_play"]] == 0 and out[0, COL["phases_triggered"]] == 0


def test_each_colour_scores_twice(rs):
    """ "After these 3 phases, each color of duckling will have been scored twice." """
    cells, flags, fences, sc = arrays(rs, spec(full={0, 1, 2}))
    out = np.zeros((1, OUT_LEN), dtype=np.int64)
    score_table(rs.kernel, cells, flags, fences, sc, 1, out, -1)
    assert out[0, COL["ducklings"]] == 12 and out[0, COL["ducklings_connected"]] == 12
    assert out[0, COL["expansion_points"]] == 2 * 12


def test_whole_games_log_three_phases_and_pay_what_the_rows_say(games):
    """ "During the game, there are 3 scoring phases." and "If one or more scoring phases have not
    been triggered, each architect performs the missing scoring phases before calculating their
    final score.": every game logs each phase once, and a player's duckling points are what the
    phase rows paid them."""
    for res in games:
        log = res.log
        for g in range(res.out.shape[0]):
            rows = log[log[:, 0] == g]
            phases = rows[rows[:, 3] == LOG_X_PHASE]
            assert sorted(phases[:, 4].tolist()) == [0, 1, 2]
            for p in range(res.out.shape[1]):
                paid = rows[(rows[:, 3] == LOG_X_DUCKS) & (rows[:, 2] == p)]
                assert paid[:, 5].sum() == res.out[g, p, COL["expansion_points"]]
        assert (res.out[:, :, COL["ducklings_connected"]] <= res.out[:, :, COL["ducklings"]]).all()
    assert (games[0].out[:, :, COL["phases_in_play"]] > 0).any()


def test_whole_games_agree_with_the_referee(games):
    """Not one rule: the independent referee (written from the rules text) replays every game and
    re-scores it to the same score card."""
    assert check_batch(games[0]) == [] and check_batch(games[1]) == []


# --- AAA solo mode ---------------------------------------------------------------------------------


def test_aaa_validation_cards_trigger_at_once(rs):
    """ "Validation A card: The AAA triggers the scoring phase for yellow ducklings if you haven't
    already triggered it yourself." "Validation B card: ... black". "Validation A and B cards: When
    either of these two cards is drawn, while the other has already been drawn previously, the AAA
    triggers the scoring phase for both yellow AND black ducklings". "Validation card C does not
    trigger any scoring phase." The AAA "scores 1 point for each pair of Construction cards you have
    given them" in each phase."""
    rs1 = load_ruleset(expansion="quack", mode="solo", opponent="3")
    cells, flags, fences, sc = arrays(rs1, spec({(2, h) for h in range(6, 12)}))
    assert _events(rs1, sc, cells, 1, quack.WHEN_AAA, 2, 9) == []  # C
    ev = _events(rs1, sc, cells, 1, quack.WHEN_AAA, 0, 9)  # A: yellow
    assert ev == [(LOG_X_PHASE, -1, 0, 1), (LOG_X_DUCKS, 0, 0, 1), (LOG_X_DUCKS, -1, 0, 4)]
    ev = _events(rs1, sc, cells, 1, quack.WHEN_AAA, 1, 12)  # B after A: black, then both
    assert [e[2] for e in ev if e[0] == LOG_X_PHASE] == [1, 2]
    assert sc[0, SC_QK_AAA] & 7 == 7 and sc[0, SC_QK_AAA_PTS] == 4 + 6 + 6


def test_aaa_does_not_trigger_what_the_player_triggered(rs):
    """ "Validation A card: The AAA triggers the scoring phase for yellow ducklings if you haven't
    already triggered it yourself." And the AAA also scores in a phase the player triggered: "To
    add up the score for the AAA (level 1 or higher): Follow the same process regardless of the
    scoring phase, the AAA scores 1 point for each pair of Construction cards you have given them
    since the beginning of the game." (4 cards at the round's end: 2 points)"""
    rs1 = load_ruleset(expansion="quack", mode="solo", opponent="1")
    yellow = {h for d in DUCKS if d[0] == "yellow" for h in both(d)}
    cells, flags, fences, sc = arrays(rs1, spec(yellow))
    assert [e[2] for e in _events(rs1, sc, cells, 1, quack.WHEN_ROUND, -1, 4) if e[0] == LOG_X_PHASE] == [0]
    assert _events(rs1, sc, cells, 1, quack.WHEN_AAA, 0, 6) == []
    assert sc[0, SC_QK_AAA_PTS] == 2


def test_aaa_b_after_a_scores_black_then_both_when_the_player_triggered_yellow(rs):
    """ "Validation A card: The AAA triggers the scoring phase for yellow ducklings if you haven't
    already triggered it yourself." "Validation B card: The AAA triggers the scoring phase for
    black ducklings if you haven't already triggered it yourself." "Validation A and B cards: When
    either of these two cards is drawn, while the other has already been drawn previously, the AAA
    triggers the scoring phase for both yellow AND black ducklings if you haven't already
    triggered it yourself." The player circles every yellow duckling (round's end, 4 cards given
    to a level 1 AAA); card A adds nothing; card B then scores black and then both, at once."""
    rs1 = load_ruleset(expansion="quack", mode="solo", opponent="1")
    yellow = {h for d in DUCKS if d[0] == "yellow" for h in both(d)}
    cells, flags, fences, sc = arrays(rs1, spec(yellow | {(2, h) for h in range(12)}))
    y = quack.connected(rs1.kernel, quack.numbered_mask(rs1.kernel, cells, 0), Y)
    assert y > 0
    ev = _events(rs1, sc, cells, 1, quack.WHEN_ROUND, -1, 4)
    assert ev == [(LOG_X_PHASE, -1, 0, 0), (LOG_X_DUCKS, 0, 0, y), (LOG_X_DUCKS, -1, 0, 2)]
    assert _events(rs1, sc, cells, 1, quack.WHEN_AAA, 0, 6) == []  # A: yellow already scored
    ev = _events(rs1, sc, cells, 1, quack.WHEN_AAA, 1, 8)  # B, A drawn before: black, then both
    assert ev == [
        (LOG_X_PHASE, -1, 1, 1),
        (LOG_X_DUCKS, 0, 1, 0),
        (LOG_X_DUCKS, -1, 1, 4),
        (LOG_X_PHASE, -1, 2, 1),
        (LOG_X_DUCKS, 0, 2, y),
        (LOG_X_DUCKS, -1, 2, 4),
    ]
    assert sc[0, SC_QK_TRIGGERS] == 1  # the player triggered yellow
    assert sc[0, SC_QK_AAA] & 7 == 6  # the AAA black and both, not yellow
    assert sc[0, SC_QK_AAA_PTS] == 2 + 4 + 4
    assert _events(rs1, sc, cells, 1, quack.WHEN_END, -1, 10) == []  # nothing missing at the end


def test_level_0_aaa_triggers_but_scores_nothing(rs):
    """ "Validation B card: The AAA triggers the scoring phase for black ducklings if you haven't
    already triggered it yourself." and only "To add up the score for the AAA (level 1 or
    higher)": a level 0 AAA triggers the phase (the player is scored) but gets no row of points."""
    rs0 = load_ruleset(expansion="quack", mode="solo", opponent="0")
    cells, flags, fences, sc = arrays(rs0, spec())
    ev = _events(rs0, sc, cells, 1, quack.WHEN_AAA, 1, 10)
    assert ev == [(LOG_X_PHASE, -1, 1, 1), (LOG_X_DUCKS, 0, 1, 0)]


@pytest.mark.parametrize("lv", ["0", "1", "5"])
def test_aaa_games_agree_with_the_referee(lv):
    """ "If the AAA triggers a duckling scoring phase, it takes place immediately." In whole AAA
    games the AAA triggers some phases (b = 1 in the phase rows), a scoring AAA (level 1+) earns
    duckling points, and the referee re-scores every game the same."""
    rs1 = load_ruleset(expansion="quack", mode="solo", opponent=lv)
    res = simulate(rs1, game_seeds(4, 60), 1, ["greedy"], log=True)
    assert check_batch(res) == []
    log = res.log
    assert (log[log[:, 3] == LOG_X_PHASE][:, 5] == 1).any()  # the AAA triggered some
    if lv != "0":
        assert (res.game_column("aaa_expansion") > 0).all()


# --- Plan C ----------------------------------------------------------------------------------------


def _meets(rs, sp: Spec, pid: str, R=None) -> bool:
    R = rs.kernel if R is None else R
    k = [p.id for p in rs.plans.plans].index(pid)
    cells, flags, fences, sc = arrays(rs, sp)
    used = np.zeros((16, 3), dtype=np.int64)
    return plan_check(R, cells, flags, fences, sc, 0, k, False, used) >= 0


def test_plan_c_cards_are_the_expansions(rs):
    """ "Each Expansion sheet has its own 5 Expansion Plan cards, all of which are type C." """
    assert sorted(p.id for p in rs.plans.plans if p.letter == "C") == [f"C-Q{i}" for i in range(1, 6)]


def test_plan_two_size_3_estates_with_a_pool_and_a_duckling_inside(rs):
    """ "Build 2 complete housing estates of size 3, each with at least 1 built swimming pool and 1
    circled duckling that must be entirely inside the estate." Top street: pools at houses 2, 6, 7;
    ducklings at 1|2 and 6|7."""
    sp = spec({(0, h) for h in (0, 1, 2, 5, 6, 7)}, fences={0: [3, 5, 8]})
    sp.pools = [(0, 2), (0, 6)]
    assert _meets(rs, sp, "C-Q1")


def test_plan_c1_a_duckling_on_the_estates_fence_is_not_inside(rs):
    """ "Build 2 complete housing estates of size 3, each with at least 1 built swimming pool and 1
    circled duckling that must be entirely inside the estate." and "You can build a fence where
    there is a duckling." (houses 0-based) Top street: estate 0-2, pool at 2, duckling 1|2 inside.
    Middle street, houses 1-4 numbered, pool at 3 (a printed pool), its yellow duckling 3|4
    circled: with fences at 1 and 4 the estate 1-3 is complete, of size 3, with its pool, but that
    duckling sits on its fence, not inside; with fences at 2 and 5 it is inside the estate 2-4."""
    R = rs.kernel
    houses = {(0, 0), (0, 1), (0, 2)} | {(1, h) for h in (1, 2, 3, 4)}
    k = [p.id for p in rs.plans.plans].index("C-Q1")
    anything = R.copy()
    anything[R_PLAN_XMIN, k] = 0  # the same plan without its duckling
    for mid_fences, inside, met in (([1, 4], (1, 4), False), ([2, 5], (2, 5), True)):
        sp = spec(houses, fences={0: [3], 1: mid_fences})
        sp.pools = [(0, 2), (1, 3)]
        cells, flags, _, _ = arrays(rs, sp)
        assert quack.is_circled(R, num(rs, sp), 3)  # duckling 3: middle street 3|4, circled
        assert quack.estate_ducklings(R, cells, flags, 0, 0, 0, 3) == 1  # the top estate's
        # The middle street's size-3 estate (houses a..b-1): the duckling inside or not.
        assert quack.estate_ducklings(R, cells, flags, 0, 1, *inside) == (1 if met else 0)
        assert _meets(rs, sp, "C-Q1") == met
        # Sizes, completeness and pools hold both times: only "entirely inside" fails.
        assert _meets(rs, sp, "C-Q1", anything)


def test_plan_five_yellow_and_five_black(rs):
    """ "Circle 5 yellow ducklings and 5 black ducklings." """
    R = rs.kernel
    blacks = {h for d in DUCKS if d[0] == "black" for h in both(d)}
    yellows = [d for d in DUCKS if d[0] == "yellow"]
    for n_yellow, met in ((5, True), (4, False)):
        houses = blacks | {h for d in yellows[:n_yellow] for h in both(d)}
        sp = spec(houses)
        while quack.circled_count(R, num(rs, sp), Y) > n_yellow:  # shared houses circle more
            houses = houses - {yellows[-1][1]}
            sp = spec(houses)
        assert quack.circled_count(R, num(rs, sp), Y) == n_yellow
        assert _meets(rs, sp, "C-Q2") == met


def test_plan_all_ducklings_of_two_streets(rs):
    """ "In 2 different streets: circle all the ducklings." (the ducklings between streets belong
    to no street)"""
    assert _meets(rs, spec(full={0, 2}), "C-Q3")
    assert not _meets(rs, spec(full={0}), "C-Q3")


def test_plan_bottom_yellow_and_top_black(rs):
    """ "Circle the 2 yellow ducklings in the 3rd street (bottom) and the 2 black ducklings in the
    1st street (top)." """
    houses = {(2, 1), (2, 2), (2, 9), (2, 10), (0, 1), (0, 2), (0, 6), (0, 7)}
    assert _meets(rs, spec(houses), "C-Q4")
    assert not _meets(rs, spec(houses - {(0, 7)}), "C-Q4")


def test_plan_the_ducklings_between_the_streets(rs):
    """ "Circle the 2 yellow ducklings and the 3 black ducklings between the streets." """
    between = {h for d in DUCKS[7:] for h in both(d)}
    assert _meets(rs, spec(between), "C-Q5")
    assert not _meets(rs, spec(between - {(2, 10)}), "C-Q5")


def test_data_file_matches_the_plan_texts(rs):
    """The reconstruction's constraints: at least 5 of each colour; the bottom street's 2 yellow,
    the top street's 2 black; 2 yellow and 3 black between the streets."""
    assert sum(d[0] == "yellow" for d in DUCKS) >= 5 and sum(d[0] == "black" for d in DUCKS) >= 5
    street = DUCKS[:7]
    assert sorted(d[0] for d in street if d[1][0] == 2) == ["yellow", "yellow"]
    assert [d[0] for d in street if d[1][0] == 0].count("black") == 2
    assert sorted(d[0] for d in DUCKS[7:]) == ["black"] * 3 + ["yellow"] * 2


# --- modes, editions, strategies, data ------------------------------------------------------------


@pytest.mark.parametrize(
    "edition,mode,opp,players",
    [
        ("collector", "advanced", None, 2),
        ("collector", "expert", None, 3),
        ("collector", "solo-advanced", "2", 1),
        ("first", "standard", None, 2),
        ("first", "expert-advanced", None, 2),
    ],
)
def test_modes_play_and_agree(edition, mode, opp, players):
    rs1 = load_ruleset(edition, mode=mode, expansion="quack", opponent=opp)
    for strat in ("greedy", "random", "first-fit", "spread", "plan-rusher", "builder"):
        res = simulate(rs1, game_seeds(8, 12), players, [strat], log=True)
        assert check_batch(res) == []


def test_first_edition_solo_variant_is_refused():
    """Like Zombie Outbreak: the rules' solo part is written for the AAA opponent."""
    with pytest.raises(WelcomeSimError, match="AAA solo mode"):
        load_ruleset("first", mode="solo", expansion="quack")


def test_first_edition_keeps_its_own_plans():
    rs1 = load_ruleset("first", expansion="quack")
    assert not any(p.id.startswith("C-Q") for p in rs1.plans.plans)


class FirstPlacement:
    """A Python strategy: the first legal placement of the card's own number."""

    def choose(self, turn):
        for combo in range(len(turn.combos)):
            for s, h, number in turn.legal_placements(combo):
                if number == turn.combos[combo][0]:
                    return Move(combo, s, h, number)
        return None


def test_python_strategy_plays(rs):
    res = simulate(rs, game_seeds(5, 4), 2, [FirstPlacement()], log=True)
    assert check_batch(res) == []


def test_greedy_values_the_ducklings(rs):
    """greedy's x_value makes it connect more ducklings than greedy without the expansion's value."""
    seeds = game_seeds(31, 200)
    on = simulate(rs, seeds, 1, ["greedy"])
    off = simulate(rs, seeds, 1, ["greedy:expansion=0"])
    assert on.out[:, 0, COL["ducklings_connected"]].mean() > off.out[:, 0, COL["ducklings_connected"]].mean()


def test_designer_copy_plays(tmp_path: Path, rs):
    src = Path(rs.expansion.path).read_text()
    mine = tmp_path / "my_quack.toml"
    mine.write_text(src.replace("parents = { yellow = [3, 12]", "parents = { yellow = [3, 1]"))
    rs2 = load_ruleset(expansion=str(mine))
    assert rs2.kernel[R_X_TABLE, 1] == 2 and rs2.kernel[R_X_TABLE, 2] == 0
    res = simulate(rs2, game_seeds(6, 20), 2, ["random"], log=True)
    assert check_batch(res) == []


def test_data_file_says_what_is_reconstructed(rs):
    x = rs.expansion
    assert x.provenance == "reconstructed" and x.data["publisher_stars"] == 2
    text = Path(x.path).read_text()
    for word in ("RECONSTRUCTED", "street_ducklings", "column_offsets", "parents", "Plan C"):
        assert word in text


def test_quack_table_of_the_report():
    """The report's Quack table (EXPANSION_COUNTERS): per configuration, means of ducklings circled
    and connected, phases triggered and scored during the game, and the phases' points."""
    import polars as pl

    from welcome_sim.analysis.tables import expansion_outcomes

    lf = pl.LazyFrame(
        {
            "expansion": ["quack"] * 4 + ["none"] * 2,
            "players": [2] * 6,
            "seed": [1, 1, 2, 2, 1, 1],
            "seat": [0, 1, 0, 1, 0, 1],
            "ducklings": [10, 8, 12, 6, 0, 0],
            "ducklings_connected": [9, 5, 12, 2, 0, 0],
            "phases_triggered": [1, 0, 2, 0, 0, 0],
            "phases_in_play": [1, 1, 2, 2, 0, 0],
            "expansion_points": [17, 9, 24, 4, 0, 0],
        }
    )
    t = expansion_outcomes(lf, "quack", ["players"])
    row = t.row(0, named=True)
    assert row["player_games"] == 4 and row["ducklings"] == 9.0 and row["ducklings_connected"] == 7.0
    assert (
        row["phases_triggered"] == 0.75 and row["phases_in_play"] == 1.5 and row["expansion_points"] == 13.5
    )
    assert expansion_outcomes(lf.drop("ducklings"), "quack", ["players"]).height == 0  # a sweep from before


def test_python_strategy_sees_the_ducklings(rs):
    """The Python protocol shows Quack's ducklings (no decision of its own to make)."""
    seen = []

    class Watcher(FirstPlacement):
        def choose(self, turn):
            seen.append((list(turn.ducklings), list(turn.duck_phases_done)))
            return super().choose(turn)

    simulate(rs, game_seeds(5, 1), 1, [Watcher()])
    first, last = seen[0], seen[-1]
    assert len(first[0]) == 12 and not any(d[3] for d in first[0])
    assert [d[0] for d in first[0]].count("yellow") == 6
    assert sum(d[3] for d in last[0]) > 0


# --- greedy's valuation in one pass, against the plain form ----------------------------------------


def _plain_value(R, cells, flags, sc, p) -> float:
    """quack.value as it was written before its one-pass form: each colour's connected ducklings
    and reach searched separately, each phase's completeness and each opponent's counts asked
    again (the same float operations in the same order)."""
    num = quack.numbered_mask(R, cells, p)
    q = quack.later_share(R, sc, p)
    conn_y = float(quack.connected(R, num, Y))
    conn_b = float(quack.connected(R, num, K))
    hope_y = hope_b = 0.0
    ry, rb = quack.reach(R, num, Y), quack.reach(R, num, K)
    for i in range(R[R_X_TABLE, 0]):
        c = R[R_X_COLOUR, i]
        a, b = quack._a(R, i), quack._b(R, i)
        if num & a and num & b:
            h = 0.0 if (ry if c == Y else rb) & a else quack.CONNECT * q
        elif quack._dead(R, cells, p, i):
            h = 0.0
        elif num & a or num & b:
            h = quack.CONNECT * q
        else:
            h = quack.CONNECT * q * q
        if c == Y:
            hope_y += h
        else:
            hope_b += h
    done = int(sc[p, SC_QK_DONE])
    races = (0.0, 0.0, 0.0)
    if done & quack.ALL_PHASES != quack.ALL_PHASES:
        if R[0, P_DEAL] == DEAL_AAA:
            races = (1.0 - q,) * 3
        else:
            ny = sum(1 for i in range(R[R_X_TABLE, 0]) if R[R_X_COLOUR, i] == Y)
            nb = R[R_X_TABLE, 0] - ny
            by = bb = bboth = 0.0
            for o in range(sc.shape[0]):
                if o != p:
                    m = quack.numbered_mask(R, cells, o)
                    cy, cb = quack.circled_count(R, m, Y), quack.circled_count(R, m, K)
                    by, bb, bboth = max(by, cy / ny), max(bb, cb / nb), max(bboth, (cy + cb) / (ny + nb))
            races = (by, bb, bboth)
    total = 0.0
    for k in range(quack.N_PHASES):
        if (done >> k) & 1:
            total += sc[p, SC_QK_PAID + k]
            continue
        cols = quack.phase_colours(k)
        base = (conn_y if cols & 1 else 0.0) + (conn_b if cols & 2 else 0.0)
        hope = (hope_y if cols & 1 else 0.0) + (hope_b if cols & 2 else 0.0)
        if quack.phase_complete(R, num, k):
            hope = 0.0
        else:
            left = 1.0 - races[k]
            hope *= left * left
        total += R[R_X_SCORE, 0] * (base + hope)
    return total


def _plain_street_progress(R, cells, p, plan) -> float:
    """The street-ducklings goal's progress as first written: the best street picked `need`
    times, every street's share asked again at each pick."""
    num = quack.numbered_mask(R, cells, p)
    need = R[R_PLAN_COUNT, plan]
    t, taken = 0.0, set()
    for _ in range(need):
        best, best_s = -1.0, -1
        for s in range(R[0, P_NSTREETS]):
            if s not in taken:
                sh = quack._street_share(R, num, cells, p, s)
                if sh > best:
                    best, best_s = sh, s
        if best_s < 0:
            break
        taken.add(best_s)
        t += max(0.0, best)
    return t / need


def _random_sheets(rs, rng, players):
    """Sheets of `players` players, each house numbered with a chance drawn per sheet, a few
    roundabouts, and random phases already scored with random points paid."""
    specs = []
    for _ in range(players):
        fill = rng.uniform(0.0, 1.0)
        houses = {(s, h) for s, n in enumerate(LENGTHS) for h in range(n) if rng.random() < fill}
        rbs = {(s, h) for s, n in enumerate(LENGTHS) for h in range(n) if rng.random() < 0.04}
        specs.append(spec(houses - rbs, roundabouts=rbs))
    cells, flags, fences, sc = arrays(rs, *specs)
    done = int(rng.integers(0, 8)) if rng.random() < 0.5 else 0
    sc[:, SC_QK_DONE] = done
    for k in range(quack.N_PHASES):
        sc[:, SC_QK_PAID + k] = rng.integers(0, 8, size=players) if (done >> k) & 1 else 0
    return cells, flags, sc


def test_value_in_one_pass_equals_the_plain_form(rs):
    """quack.value counts each duckling once; it equals the plain form to the last bit, at a
    table (opponents' races) and in the AAA solo mode (the share of the sheet filled)."""
    rng = np.random.default_rng(7)
    aaa = rs.kernel.copy()
    aaa[0, P_DEAL] = DEAL_AAA
    for trial in range(400):
        players = 1 + trial % 4
        cells, flags, sc = _random_sheets(rs, rng, players)
        for R in (rs.kernel, aaa):
            for p in range(players):
                assert quack.value(R, cells, flags, sc, p) == _plain_value(R, cells, flags, sc, p)


def test_progress_in_one_pass_equals_the_plain_form(rs):
    """The goals' progress computes each street's share and each colour's count once; the same
    values as the plain form (street goals asking for 1 to 4 streets: ties go to the first street)."""
    rng = np.random.default_rng(8)
    ids = [p.id for p in rs.plans.plans]
    street_plan = ids.index("C-Q3")
    five_plan = ids.index("C-Q2")
    for trial in range(300):
        cells, flags, sc = _random_sheets(rs, rng, 1)
        R = rs.kernel.copy()
        R[R_PLAN_COUNT, street_plan] = 1 + trial % 4
        got = quack.progress(R, cells, flags, sc, 0, street_plan)
        assert got == _plain_street_progress(R, cells, 0, street_plan)
        num = quack.numbered_mask(R, cells, 0)
        need = R[R_PLAN_COUNT, five_plan]
        cy, cb = quack.circled_count(R, num, Y), quack.circled_count(R, num, K)
        plain = (min(need, cy) + min(need, cb)) / (2.0 * need)
        assert quack.progress(R, cells, flags, sc, 0, five_plan) == plain


def test_estate_ducklings_read_from_the_street_equal_the_mask(rs):
    """estate_ducklings reads the street's cells directly: the same count as the sheet mask's."""
    rng = np.random.default_rng(9)
    R = rs.kernel
    for _ in range(200):
        cells, flags, _ = _random_sheets(rs, rng, 1)
        num = quack.numbered_mask(R, cells, 0)
        for s, n in enumerate(LENGTHS):
            a = int(rng.integers(0, n))
            b = int(rng.integers(a + 1, n + 1))
            want = sum(
                1
                for i in range(R[R_X_TABLE, 0])
                if R[R_X_COLOUR + 1, i] == 0
                and R[R_X_HOUSE, i] == s
                and R[R_X_HOUSE + 1, i] >= a
                and R[R_X_HOUSE + 3, i] < b
                and quack.is_circled(R, num, i)
            )
            assert quack.estate_ducklings(R, cells, flags, 0, s, a, b) == want
