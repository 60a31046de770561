"""The American Dream in the kernel: each rule of the expansion rules ("The American Dream",
2023; its Plan C cards in the French text) on hand-built sheets or on
the logs of whole games. The referee's own reading is checked in test_referee_american.py."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from adgoals import CASES, RULE, case_id, layout

from welcome_sim.errors import DataError, WelcomeSimError
from welcome_sim.simcore.engine.game import game_seeds, simulate
from welcome_sim.simcore.ground.layout import (
    ACTION_NAMES,
    BONUS_CIRCLED,
    BONUS_CROSSED,
    BONUS_DUE,
    BONUS_OPEN,
    END_FULL,
    END_PLANS,
    END_REFUSALS,
    FENCE,
    LOG_END,
    LOG_MOVE,
    LOG_PASS,
    LOG_PLAN,
    LOG_X_AD_CROSS,
    NO_ACTION,
    PARK,
    POOL,
    TEMP,
)
from welcome_sim.simcore.ground.numbers import number_code
from welcome_sim.simcore.ground.table import R_PLAN_XGOAL, R_STREET_LEN
from welcome_sim.simcore.rules.expansions import american
from welcome_sim.simcore.rules.expansions.american import F_PERFECT, SC_AD_COLUMN, SC_AD_OWED, SC_AD_STREET
from welcome_sim.simcore.rules.expansions.hooks import x_value
from welcome_sim.simcore.rules.expansions.registry import OUT_COLUMNS, OUT_LEN
from welcome_sim.simcore.rules.ruleset import load_ruleset
from welcome_sim.simcore.rules.sheetops import (
    Sheets,
    any_fit,
    fence_ok,
    new_state,
    street_bounds,
    value_range,
)
from welcome_sim.strategies.builtin import choose_random
from welcome_sim.strategies.context import Offer
from welcome_sim.strategies.protocol import Move
from welcome_sim.verify import check_batch

X = "american-dream"
COL = {c: i for i, c in enumerate(OUT_COLUMNS)}
DATA = (
    Path(__file__).resolve().parent.parent / "welcome_sim" / "simcore" / "data" / "expansions" / f"{X}.toml"
)
# The data file's layout: street 0 is [green, red, yellow, blue, red, green] under columns 1-6;
# green houses match the Park action, red ones the Fence action.
GREEN_HOUSE = (0, 0)
COLUMN_1 = [(0, 0), (1, 1), (2, 1), (3, 0), (4, 0)]  # the houses of column 1, one per street


@pytest.fixture(scope="module")
def rs():
    return load_ruleset(expansion=X)


@pytest.fixture(scope="module")
def games(rs):
    """Logged two-player greedy games and three-player random games."""
    return [
        simulate(rs, game_seeds(41, 60), 2, ["greedy"], log=True),
        simulate(rs, game_seeds(42, 80), 3, ["random"], log=True),
    ]


@pytest.fixture(scope="module")
def sam():
    """Logged AAA solo games against Sam, the level 1 opponent."""
    rs = load_ruleset(mode="solo", opponent="1", expansion=X)
    return simulate(rs, game_seeds(43, 40), 1, ["greedy"], log=True)


def _number(R, cells, flags, sc, p, s, h, action, value=5) -> None:
    cells[p, s, h] = 2 * value
    american.on_action(R, cells, flags, sc, p, s, h, action, 1)


def test_action_matching_the_family_makes_a_perfect_house(rs):
    """ "Perfect House: If the action matches the house, then the family has a perfect house.
    Circle the house." / "Regular House: If the action does not match the house ... nothing else
    happens.\""""
    R = rs.kernel
    cells, flags, fences, sc = new_state(R, 1)
    _number(R, cells, flags, sc, 0, 0, 0, PARK)  # a green house, the Park action
    _number(R, cells, flags, sc, 0, 0, 1, POOL, 6)  # a red house, the Pool action
    assert flags[0, 0, 0] & F_PERFECT
    assert not flags[0, 0, 1] & F_PERFECT
    american.on_action(R, cells, flags, sc, 0, 0, 0, PARK, -1)  # a strategy's trial undone
    assert not flags[0, 0, 0] & F_PERFECT


def test_no_usual_action_is_ever_offered_or_scored(games, rs):
    """ "You cannot use the usual actions. For example, you cannot use the Temporary worker action
    to change a number.\""""
    R = rs.kernel
    cells, flags, fences, sc = new_state(R, 1)
    assert not any(fence_ok(R, flags, fences, 0, s, b) for s in range(5) for b in range(1, 8))
    for res in games:
        moves = res.log[res.log[:, 3] == LOG_MOVE]
        assert (moves[moves[:, 4] >= 0, 8] == NO_ACTION).all()
        for name in ("parks", "pools", "temps", "estates", "n_fences", "n_temps", "n_parks", "n_pools"):
            assert not res.out[:, :, COL[name]].any(), name
        assert not res.out[:, :, COL["n_improvements"]].any() and not res.out[:, :, COL["n_extensions"]].any()


def test_refusal_although_a_temp_worker_would_fit(rs):
    """ "You cannot use the usual actions. For example, you cannot use the Temporary worker action
    to change a number." Every house numbered but one, between a 5 and a 7: a round of 4, 8 and
    10, all three with the Temp action, is a permit refusal, though 4 + 2 and 8 - 2 would fit on a
    sheet with temp workers (the Classic sheet's range is checked beside)."""
    R = rs.kernel
    cells, flags, fences, sc = new_state(R, 1)
    for s in range(5):
        for h in range(R[R_STREET_LEN, s]):
            cells[0, s, h] = number_code(h)  # 0, 1, 2, ... in every street
    cells[0, 2, 6] = -1  # street 3 (8 houses): 0 1 2 3 4 5 . 7
    lo = np.zeros((5, 12), dtype=np.int64)
    hi = np.zeros((5, 12), dtype=np.int64)
    street_bounds(R, cells, 0, lo, hi)
    c = number_code
    temp = np.full(3, TEMP, dtype=np.int64)
    # No temp worker on this sheet: the Temp card's number is the only one it lets you write.
    assert value_range(R, sc, 0, c(8), TEMP) == (c(8), c(8))
    assert value_range(load_ruleset().kernel, sc, 0, c(8), TEMP) == (c(6), c(10))  # the Classic sheet
    assert not any_fit(R, cells, sc, 0, np.array([c(4), c(8), c(10)]), temp, lo, hi)
    assert any_fit(R, cells, sc, 0, np.array([c(4), c(6), c(10)]), temp, lo, hi)  # 6 itself fits
    # The random player's legal-move generator agrees: a refusal (combination -1).
    mv = np.zeros(8, dtype=np.int64)
    rng = np.ones(1, dtype=np.uint64)
    choose_random(
        R,
        Sheets(cells, flags, fences, sc),
        0,
        Offer(np.array([c(4), c(8), c(10)]), temp, rng, lo, hi, mv, np.empty(0)),
    )
    assert mv[0] == -1
    choose_random(
        R,
        Sheets(cells, flags, fences, sc),
        0,
        Offer(np.array([c(4), c(6), c(10)]), temp, rng, lo, hi, mv, np.empty(0)),
    )
    assert tuple(mv[:5]) == (1, 2, 6, c(6), NO_ACTION)  # 6 in the gap, and no temp worker used


class TempChecker:
    """A Python strategy checking, every turn of whole games, that a Temp combination's legal
    placements all carry its printed number; plays the first one, refuses when there is none."""

    def __init__(self) -> None:
        self.temp_combos = 0
        self.refusals = 0

    def choose(self, turn):
        for k, (number, action) in enumerate(turn.combos):
            spots = turn.legal_placements(k)
            if action == "temp":
                self.temp_combos += 1
            assert all(v == number for _, _, v in spots), (number, action, spots)
        for k in range(len(turn.combos)):
            for s, h, v in turn.legal_placements(k):
                return Move(k, s, h, v)
        self.refusals += 1
        return None


def test_python_strategy_offered_no_temp_worker_range(rs):
    """ "You cannot use the usual actions. For example, you cannot use the Temporary worker action
    to change a number.": the placements offered to a Python strategy never move a number."""
    who = TempChecker()
    res = simulate(rs, game_seeds(49, 2), 1, [who], log=True)
    assert who.temp_combos > 0 and who.refusals > 0
    assert check_batch(res) == []


def test_whole_games_agree_with_the_referee(games):
    for res in games:
        assert check_batch(res) == []
        assert res.out[:, :, COL["perfect"]].sum() > 0


def _end_conditions(res, g, n_houses: int) -> dict[int, int]:
    """From game g's log rows alone: {round: end bits} for each round where some player, counted
    over the rounds so far, has numbered every house (one house per move: no extension exists on
    this sheet), crossed a third refusal, or validated all three plans."""
    rows = res.log[res.log[:, 0] == g]
    n_players = res.out.shape[1]
    numbered = [0] * n_players
    refusals = [0] * n_players
    slots: list[set[int]] = [set() for _ in range(n_players)]
    out = {}
    for rnd in range(1, int(rows[:, 1].max()) + 1):
        here = rows[rows[:, 1] == rnd]
        for r in here[here[:, 3] == LOG_MOVE]:
            if r[4] >= 0:
                numbered[r[2]] += 1
            else:
                refusals[r[2]] += 1
        for r in here[here[:, 3] == LOG_PLAN]:
            slots[r[2]].add(int(r[4]))
        bits = (
            (END_PLANS if any(len(s) == 3 for s in slots) else 0)
            | (END_REFUSALS if max(refusals) >= 3 else 0)
            | (END_FULL if max(numbered) == n_houses else 0)
        )
        if bits:
            out[rnd] = bits
    return out


def test_games_end_on_the_usual_conditions(games, sam, rs):
    """ "The game ends based on the usual end game conditions." The usual ones (the core rules,
    2023): "The game ends after the current round, if one of the following situations
    happens: One architect has validated each of the 3 City Plans A, B and C. One architect crosses
    out their third Permit Refusal. One architect has numbered all the houses" (here the 34 houses
    of the five streets). Each game ends at the first round where one holds, and its end reason
    (the end row and the games table) names exactly those that hold."""
    n_houses = sum(st.houses for st in rs.sheet.streets)
    assert n_houses == 34
    seen = 0
    for res in (*games, sam):
        for g in range(len(res.seeds)):
            rows = res.log[res.log[:, 0] == g]
            holds = _end_conditions(res, g, n_houses)
            end = rows[rows[:, 3] == LOG_END]
            assert len(end) == 1 and holds, g
            first = min(holds)
            assert end[0, 1] == first == res.game_column("rounds")[g]  # not a round later
            assert end[0, 4] == holds[first] == res.game_column("end_reason")[g]
            seen |= holds[first]
        o = res.out
        assert (o[:, :, COL["refusals"]] <= 3).all() and (o[:, :, COL["n_numbered"]] <= n_houses).all()
    assert seen == END_PLANS | END_REFUSALS | END_FULL  # every condition ends some game here


def test_first_to_complete_a_street_circles_its_bonus_shared_in_the_same_round(rs):
    """ "When you are the first to complete a street, at the end of the round, circle the 10-point
    bonus" ... "All the architects who circle the same bonus in the same round can claim it. The
    other architects must cross out that bonus on their sheet.\""""
    R = rs.kernel
    cells, flags, fences, sc = new_state(R, 3)
    for p in (0, 1):
        for h in range(6):
            _number(R, cells, flags, sc, p, 0, h, NO_ACTION, h)
    assert sc[0, SC_AD_STREET] == BONUS_DUE and sc[2, SC_AD_STREET] == BONUS_OPEN
    american.round_end(R, sc, 3)
    assert [sc[p, SC_AD_STREET] for p in range(3)] == [BONUS_CIRCLED, BONUS_CIRCLED, BONUS_CROSSED]
    # Player 3 completes it later: crossed out, no longer claimable.
    for h in range(6):
        _number(R, cells, flags, sc, 2, 0, h, NO_ACTION, h)
    american.round_end(R, sc, 3)
    assert sc[2, SC_AD_STREET] == BONUS_CROSSED


def test_first_to_complete_a_column_circles_its_x2(rs):
    """ "When you are the first to complete a column, at the end of the round, circle the x2 bonus
    at the bottom of the column.\""""
    R = rs.kernel
    cells, flags, fences, sc = new_state(R, 2)
    for s, h in COLUMN_1:
        _number(R, cells, flags, sc, 0, s, h, NO_ACTION)
    american.round_end(R, sc, 2)
    assert sc[0, SC_AD_COLUMN + 1] == BONUS_CIRCLED and sc[1, SC_AD_COLUMN + 1] == BONUS_CROSSED


def _score(R, cells, flags, sc, p=0) -> np.ndarray:
    row = np.zeros(OUT_LEN, dtype=np.int64)
    american.score(R, cells, flags, sc, p, row)
    return row


def test_column_points_regular_perfect_and_doubled(rs):
    """ "For each complete column (all houses numbered), score 1 point per regular house and 3
    points per perfect (circled) house in that column. You double your points if you have the x2
    bonus of that column.\""""
    R = rs.kernel
    cells, flags, fences, sc = new_state(R, 1)
    for s, h in COLUMN_1:
        _number(R, cells, flags, sc, 0, s, h, NO_ACTION)
    flags[0, 0, 0] |= F_PERFECT
    flags[0, 1, 1] |= F_PERFECT
    assert _score(R, cells, flags, sc)[COL["expansion_points"]] == 2 * 3 + 3 * 1
    american.round_end(R, sc, 1)
    row = _score(R, cells, flags, sc)
    assert row[COL["expansion_points"]] == 2 * (2 * 3 + 3 * 1)
    assert row[COL["columns_complete"]] == 1 and row[COL["column_bonuses"]] == 1


def test_incomplete_columns_score_nothing(rs):
    """ "Attention! Incomplete columns score no points!\""""
    R = rs.kernel
    cells, flags, fences, sc = new_state(R, 1)
    for s, h in COLUMN_1[:4]:
        _number(R, cells, flags, sc, 0, s, h, PARK)
    assert _score(R, cells, flags, sc)[COL["expansion_points"]] == 0


def test_street_bonus_adds_ten(rs):
    """ "Streets: Add up the 10-point bonuses you obtained by completing streets first.\""""
    R = rs.kernel
    cells, flags, fences, sc = new_state(R, 1)
    sc[0, SC_AD_STREET + 2] = BONUS_CIRCLED
    sc[0, SC_AD_STREET + 3] = BONUS_CROSSED
    row = _score(R, cells, flags, sc)
    assert row[COL["expansion_points"]] == 10 and row[COL["street_bonuses"]] == 1


def test_score_columns_add_up(games):
    """ "To calculate your total score, add the points from objectives, columns, streets, and
    subtract the penalty points for the Building Permit Refusals.\""""
    for res in games:
        o = res.out
        want = (
            o[:, :, COL["plan_a"]]
            + o[:, :, COL["plan_b"]]
            + o[:, :, COL["plan_c"]]
            + o[:, :, COL["expansion_points"]]
            - o[:, :, COL["refusal_penalty"]]
        )
        assert (o[:, :, COL["total"]] == want).all()


@pytest.mark.parametrize("mode", ["advanced", "expert-advanced", "solo-advanced"])
def test_advanced_mode_is_refused(mode):
    """ "All expansions can be played with the Advanced Mode ... except for the American Dream
    expansion, which cannot be played with the Advanced Mode.\""""
    with pytest.raises(WelcomeSimError, match="cannot be played with the Advanced Mode"):
        load_ruleset(mode=mode, expansion=X)


@pytest.mark.parametrize("edition", ["collector", "first"])
def test_only_its_own_plans(edition):
    """ "You must play only with the American Dream Expansion Plan cards. Among these cards, select
    one Plan A card, one Plan B card, and one Plan C card.\""""
    r = load_ruleset(edition, expansion=X)
    ids = sorted(p.id for p in r.plans.plans)
    assert ids == sorted(f"{x}-AD{i}" for x in "ABC" for i in (1, 2, 3))
    for slot in range(3):
        assert sum(p.slot == slot for p in r.plans.plans) == 3


def test_first_edition_solo_variant_is_refused():
    """A reading, not a sentence of the text: the sheet's AAA SOLO MODE is written for the
    Collector's AAA ("Every time you draw an AAA Validation card ..."; "The value of each card type
    is indicated on the Opponent card"); the first edition's solo variant has neither validation
    cards nor Opponent cards, so it is refused, as for Zombie Outbreak and Roswell."""
    with pytest.raises(WelcomeSimError, match="AAA solo mode"):
        load_ruleset("first", mode="solo", expansion=X)


def _plan(rs, pid) -> int:
    return next(k for k, p in enumerate(rs.plans.plans) if p.id == pid)


def test_plan_goals(rs):
    """ "All your green houses are perfect houses"; "All your blue and orange houses are
    numbered"; "You have completed 2 columns with only perfect houses"; "You have completed 4
    columns"; "You have 3 complete and adjacent columns"; "1 complete street with only perfect
    houses" (Vous avez 1 rue complète avec uniquement des maisons parfaites); "2 complete streets"."""
    R = rs.kernel
    cells, flags, fences, sc = new_state(R, 1)

    def goal(pid):
        return american.goal(R, cells, flags, sc, 0, _plan(rs, pid))

    greens = [(s, h) for s in range(5) for h in range(R[1, s]) if R[american.R_X_COLOUR + s, h] == 2]
    for s, h in greens[:-1]:
        _number(R, cells, flags, sc, 0, s, h, PARK)
    assert not goal("A-AD1")
    _number(R, cells, flags, sc, 0, *greens[-1], PARK)
    assert goal("A-AD1")
    # Columns 1 to 3 complete and regular; column 0 (2 houses) complete and perfect.
    for col in (1, 2, 3):
        for s in range(5):
            h = col - (1 if s in (0, 3, 4) else 0)
            if cells[0, s, h] < 0:
                _number(R, cells, flags, sc, 0, s, h, NO_ACTION)
    assert goal("B-AD3") and not goal("B-AD2")
    for s, h in ((1, 0), (2, 0)):
        cells[0, s, h] = 2
        flags[0, s, h] |= F_PERFECT
    assert goal("B-AD2")
    assert not goal("B-AD1")  # one column of perfect houses only
    assert R[R_PLAN_XGOAL, _plan(rs, "C-AD2")] > 0 and not goal("C-AD2")


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_plan_goals_hold_and_just_fail(rs, case):
    """Each card's sentence (adgoals.RULE): "All your red houses are perfect houses"; "All your
    blue and orange houses are numbered, regardless of whether they are perfect or regular houses";
    "You have completed 2 columns with only perfect houses"; "You have completed 1 street with only
    perfect houses"; "You have completed 2 streets, regardless of whether the houses are perfect or
    regular": a sheet where it holds, and the same sheet one house short (a house regular or
    empty), where it does not."""
    plan, groups, change, holds = case
    assert plan in RULE
    R = rs.kernel
    cells, flags, fences, sc = new_state(R, 1)
    marked, _ = layout(groups, change)
    for (s, h), perfect in marked.items():
        cells[0, s, h] = number_code(h)
        if perfect:
            flags[0, s, h] |= F_PERFECT
    assert american.goal(R, cells, flags, sc, 0, _plan(rs, plan)) is holds


def test_aaa_crossings_and_points(sam):
    """AAA SOLO MODE (the sheet's own section): "Every time you draw an AAA Validation card,
    regardless of whether the AAA validates a plan or not, you must immediately cross out several
    bonuses ... Choose and cross out 1 street bonus and 2 column bonuses that you have not
    circled." "Streets: The AAA scores 10 points for each crossed out Street bonus." (Sam's points
    per card: test_aaa_sam_scores_the_published_values.)"""
    res = sam
    assert check_batch(res) == []
    crosses = res.log[res.log[:, 3] == LOG_X_AD_CROSS]
    assert len(crosses) > 0
    for g in range(40):
        mine = crosses[crosses[:, 0] == g]
        assert (mine[:, 4] == 0).sum() <= 3 and (mine[:, 4] == 1).sum() <= 6
        streets = (mine[:, 4] == 0).sum()
        assert res.game_column("aaa_expansion")[g] >= 10 * streets
    assert (res.game_column("aaa_estates") == 0).all() and (res.game_column("aaa_parks") == 0).all()


# "For example, with Sam, a level 1 opponent: Each Park, Pool, Temporary worker and Fence card earns
# him 1 point, and each Extension and Improvement card earns him 2 points." (the sentence, not the
# data file: the data file's level 1 row must agree with it)
SAM = {"park": 1, "pool": 1, "temp": 1, "fence": 1, "extension": 2, "improvement": 2}


def test_aaa_sam_scores_the_published_values(sam):
    """AAA SOLO MODE: "At the end of the game, in addition to the plans it validated, the AAA also
    earns points for columns and streets. Columns: Each card you gave to the AAA earns them points.
    ... with Sam, a level 1 opponent: Each Park, Pool, Temporary worker and Fence card earns him 1
    point, and each Extension and Improvement card earns him 2 points. Streets: The AAA scores 10
    points for each crossed out Street bonus." Counted by hand from each game's log: the cards
    passed to the AAA (kind 6, seat -1) and the street bonuses the player crossed (kind 23, a = 0).
    """
    res = sam
    cards = res.ruleset.deck.cards  # (number, action code) by card index
    log = res.log
    streets_seen = 0
    for g in range(len(res.seeds)):
        rows = log[log[:, 0] == g]
        given = rows[(rows[:, 3] == LOG_PASS) & (rows[:, 5] == -1), 4]
        by_type = sum(SAM[ACTION_NAMES[cards[c][1]]] for c in given)
        crossed = ((rows[:, 3] == LOG_X_AD_CROSS) & (rows[:, 4] == american.A_STREET)).sum()
        streets_seen += crossed
        assert res.game_column("aaa_cards")[g] == len(given)
        assert res.game_column("aaa_expansion")[g] == by_type + 10 * crossed, g
        assert res.game_column("aaa_total")[g] == res.game_column("aaa_plans")[g] + by_type + 10 * crossed
    assert streets_seen > 0  # the street part is exercised, not only the cards
    assert (res.game_column("aaa_plans") > 0).any()  # ... and the plans it validated are kept


def test_owed_crossing_without_an_open_bonus_is_void(rs):
    """ "Choose and cross out 1 street bonus and 2 column bonuses that you have not circled." Our
    reading where the text is silent: with every street bonus already circled or crossed, the
    street part of the card is void and the player goes on to the column bonuses."""
    R = rs.kernel
    cells, flags, fences, sc = new_state(R, 1)
    for s in range(5):
        sc[0, SC_AD_STREET + s] = BONUS_CIRCLED
    american.validation(R, sc, 0, 0)
    opts = np.zeros((96, 4), dtype=np.int64)
    n = american.options(R, cells, flags, fences, sc, 0, 2, opts)
    assert n == 8 and (opts[:n, 0] == american.A_COLUMN).all()  # straight to the column bonuses
    assert american.options(R, cells, flags, fences, sc, 0, 0, opts) == 0  # phase 2 only


@pytest.mark.parametrize(
    "mode,opp,players", [("standard", None, 1), ("standard", None, 4), ("expert", None, 3), ("solo", "0", 1)]
)
def test_modes_play_and_agree(mode, opp, players):
    rs = load_ruleset(mode=mode, opponent=opp, expansion=X)
    for strat in ("greedy", "random", "first-fit", "spread"):
        res = simulate(rs, game_seeds(44, 6), players, [strat], log=True)
        assert check_batch(res) == [], (mode, strat)


class Crosser:
    """A Python strategy: the first legal placement, and the last option of every crossing."""

    def __init__(self) -> None:
        self.asked = 0

    def choose(self, turn):
        for c in range(len(turn.combos)):
            for s, h, v in turn.legal_placements(c):
                return Move(c, s, h, v)
        return None

    def expansion_option(self, turn, options):
        self.asked += 1
        assert all(o[0] == "cross" for o in options)
        assert len(turn.families) == 5 and turn.street_bonuses
        return len(options) - 1


def test_python_strategy_plays_and_crosses():
    rs = load_ruleset(mode="solo", opponent="2", expansion=X)
    who = Crosser()
    res = simulate(rs, game_seeds(45, 3), 1, [who], log=True)
    assert who.asked > 0 and check_batch(res) == []


def test_python_strategy_action_is_refused(rs):
    class Fencer:
        def choose(self, turn):
            for c, (_, act) in enumerate(turn.combos):
                if act == "fence":
                    s, h, v = turn.legal_placements(c)[0]
                    return Move(c, s, h, v, "fence", (s, 1))
            s, h, v = turn.legal_placements(0)[0]
            return Move(0, s, h, v)

    with pytest.raises(WelcomeSimError):
        simulate(rs, game_seeds(46, 2), 1, [Fencer()])


def test_designer_copy_plays(tmp_path: Path):
    text = DATA.read_text().replace("regular_points = 1", "regular_points = 2")
    path = tmp_path / "my_american.toml"
    path.write_text(text)
    r = load_ruleset(expansion=str(path))
    assert r.kernel[american.R_X_SCORE, 0] == 2
    res = simulate(r, game_seeds(47, 4), 2, ["greedy"], log=True)
    assert check_batch(res) == []


def test_sheet_has_five_streets_without_fences(rs):
    assert len(rs.sheet.streets) == 5 and not rs.sheet.fences
    assert rs.kernel[0, american.P_NSTREETS] == 5


def test_owed_counter_reset_after_crossings(rs):
    R = rs.kernel
    cells, flags, fences, sc = new_state(R, 1)
    american.validation(R, sc, 0, 1)
    opts = np.zeros((96, 4), dtype=np.int64)
    lg = np.zeros(5, dtype=np.int64)
    for _ in range(3):
        n = american.options(R, cells, flags, fences, sc, 0, 2, opts)
        assert n > 0
        american.apply(R, cells, flags, fences, sc, 0, 2, opts[0], lg)
        assert lg[0] == LOG_X_AD_CROSS
    assert sc[0, SC_AD_OWED] == 0 and american.options(R, cells, flags, fences, sc, 0, 2, opts) == 0
    assert sc[0, SC_AD_STREET] == BONUS_CROSSED and sc[0, SC_AD_COLUMN] == BONUS_CROSSED
    assert FENCE == 0  # the families' actions are ACTION_NAMES codes


@pytest.mark.slow
@pytest.mark.parametrize(
    "edition,mode,opp,players",
    [
        ("collector", "standard", None, 1),
        ("collector", "standard", None, 4),
        ("collector", "expert", None, 3),
        ("collector", "solo", "0", 1),
        ("collector", "solo", "3", 1),
        ("collector", "solo", "5", 1),
        ("first", "standard", None, 2),
        ("first", "expert", None, 3),
    ],
)
@pytest.mark.parametrize("strat", ["greedy", "random"])
def test_bulk_games_replay_exactly(edition, mode, opp, players, strat):
    rs = load_ruleset(edition, mode=mode, opponent=opp, expansion=X)
    res = simulate(rs, game_seeds(48, 1000), players, [strat], log=True)
    assert check_batch(res) == []


def test_own_sheet_only_with_the_expansion():
    # "You must play only with the American Dream Expansion Plan cards" and "You cannot use the usual
    # actions": the sheet has no base game of its own; played alone it would score nonsense.
    with pytest.raises(WelcomeSimError, match="american-dream expansion's own sheet"):
        load_ruleset(sheet="american_dream")
    assert load_ruleset(expansion="american-dream").sheet.expansion == "american-dream"


def test_sweep_plays_each_expansion_on_its_own_sheet():
    from welcome_sim.sweep.config import SweepConfig, default_sheets

    sheets = default_sheets(["none", "quack", "american-dream"])
    assert sheets == ["classic", "american_dream"]
    cfg = SweepConfig(games=1, seed=0, sheets=sheets, expansions=["none", "quack", "american-dream"])
    cfg.validate()
    assert [(c.sheet, c.expansion) for c in cfg.cells()] == [
        ("classic", "none"),
        ("classic", "quack"),
        ("american_dream", "american-dream"),
    ]
    lone = SweepConfig(games=1, seed=0, sheets=["classic", "american_dream"], expansions=["none"])
    with pytest.raises(WelcomeSimError, match=r"--sheet american_dream: .*add --expansion american-dream"):
        lone.validate()


def test_designer_sheet_fifth_street_without_parks_or_pools(tmp_path):
    from welcome_sim.simcore.ground.datafiles import load_sheet

    base = Path(load_sheet("american_dream").path).read_text()
    bad = base.replace('expansion = "american-dream"', 'expansion = "american-dreem"')
    (tmp_path / "a.toml").write_text(bad)
    with pytest.raises(DataError, match=r"a.toml.*expansion.*unknown expansion 'american-dreem'"):
        load_sheet(str(tmp_path / "a.toml"))
    # The score state keeps parks and pools for four streets: a fifth street may hold neither.
    text = base.rstrip() + "\n"
    i = text.rindex("[[streets]]")
    fifth = text[i:]
    (tmp_path / "b.toml").write_text(text[:i] + fifth.replace("pools = []", "pools = [1]", 1))
    with pytest.raises(DataError, match=r"b.toml.*streets\[4\].*no pools and no park boxes"):
        load_sheet(str(tmp_path / "b.toml"))


def test_plan_c_perfect_square(rs):
    """ "You have 9 perfect adjacent houses forming a 3x3 square." (Plan C, the third card.)"""
    R = rs.kernel
    cells, flags, fences, sc = new_state(R, 1)
    plan = _plan(rs, "C-AD3")
    assert R[R_PLAN_XGOAL, plan] == american.GL_PERFECT_SQUARE

    def house(s, col):
        return next(h for h in range(R[1, s]) if R[american.R_X_HOUSE + s, h] == col)

    square = [(s, house(s, c)) for s in (1, 2, 3) for c in (2, 3, 4)]
    for s, h in square:
        cells[0, s, h] = 2 * h
        flags[0, s, h] |= F_PERFECT
    assert american.goal(R, cells, flags, sc, 0, plan)
    assert american.progress(R, cells, flags, sc, 0, plan) == 1.0
    s, h = square[4]
    flags[0, s, h] &= ~F_PERFECT  # the middle house regular: no square of nine perfect houses
    assert not american.goal(R, cells, flags, sc, 0, plan)
    assert american.progress(R, cells, flags, sc, 0, plan) < 1.0


def test_a_tie_is_a_shared_victory_without_estates():
    """ "The architect with the highest score wins the game. In case of a tie, the victory is
    shared." The sheet has no estates, so the core rules' tie-break on complete estates does not
    apply (no whole street counts as an estate), against players and against the AAA."""
    rs = load_ruleset(expansion=X)
    res = simulate(rs, game_seeds(5, 600), 2, ["greedy"], log=True)
    out = res.out
    assert (out[:, :, COL["n_estates"]] == 0).all()
    for k in range(1, 7):
        assert (out[:, :, COL[f"n_estate_{k}"]] == 0).all()
    total, rank = out[:, :, COL["total"]], out[:, :, COL["rank"]]
    ties = total[:, 0] == total[:, 1]
    assert ties.sum() >= 10  # ties are common enough on this sheet for the check to bite
    assert (rank[ties] == 1).all()
    assert (rank[~ties].min(axis=1) == 1).all() and (rank[~ties].max(axis=1) == 2).all()
    assert check_batch(res) == []
    solo = simulate(load_ruleset(mode="solo", expansion=X, opponent="3"), game_seeds(6, 3000), 1, ["greedy"])
    mine, theirs = solo.out[:, 0, COL["total"]], solo.game_column("aaa_total")
    tied = mine == theirs
    assert tied.any()  # a tie with the AAA is shared too: the player is ranked first
    assert (solo.out[tied, 0, COL["rank"]] == 1).all()
    assert (solo.out[mine < theirs, 0, COL["rank"]] == 2).all()


def test_its_own_plans_only_refuses_a_plans_file_and_names_no_other_set():
    """ "You must play only with the American Dream Expansion Plan cards": a --plans-file would be
    ignored, so it is refused; the edition's standard plans are not among the data in use (nor in
    the reconstructed-data notice), and the plan set is labelled by the expansion's file."""
    with pytest.raises(WelcomeSimError, match=r"--plans-file .*only its own Plan cards"):
        load_ruleset(expansion=X, plans="collector_standard")
    # Whatever else is wrong with the file (an advanced set; in the AAA mode, other letters), the
    # answer is the same: no fix to the file would get it played.
    for plans, mode in (("collector_advanced", "standard"), ("first_standard", "solo")):
        with pytest.raises(WelcomeSimError, match=r"--plans-file .*only its own Plan cards"):
            load_ruleset(expansion=X, plans=plans, mode=mode)
    rs = load_ruleset(expansion=X)
    assert not any("plans/" in path for path in rs.reconstructed)
    assert rs.plans_label == "american-dream"
    assert all(p.id.endswith(("AD1", "AD2", "AD3")) for p in rs.plans.plans)


def test_a_sweep_plays_it_once_beside_the_editions_own_plans():
    """ "You must play only with the American Dream Expansion Plan cards": a sweep comparing plan
    files plays the base game with each and the American Dream once, with its own cards, where
    the edition's own plans are; with none of them named it is refused, saying why."""
    from welcome_sim.sweep.config import SweepConfig

    sheets = ["classic", "american_dream"]
    both = ["collector_standard", "first_standard"]
    cfg = SweepConfig(games=1, seed=0, sheets=sheets, expansions=["none", X], plans_files=both)
    cfg.validate()
    assert [(c.expansion, c.plans_file) for c in cfg.cells()] == [
        ("none", "collector_standard"),
        ("none", "first_standard"),
        (X, ""),
    ]
    other = SweepConfig(
        games=1, seed=0, sheets=sheets, expansions=["none", X], plans_files=["first_standard"]
    )
    with pytest.raises(
        WelcomeSimError, match=r"--expansion american-dream: it plays only its own Plan cards"
    ):
        other.validate()


def _random_sheet(R, rng, perfect=0.6):
    """A one-player state with about half the houses numbered, some of them perfect."""
    cells, flags, _fences, sc = new_state(R, 1)
    for s in range(5):
        for h in range(R[R_STREET_LEN, s]):
            if rng.random() < 0.5:
                cells[0, s, h] = 2 * int(rng.integers(0, 18))
                if rng.random() < perfect:
                    flags[0, s, h] |= F_PERFECT
    return cells, flags, sc


def test_column_counts_find_each_column_house_by_its_street_offset(rs):
    """Column counts look up one house per street (a street's houses are the contiguous columns
    from its offset on); they equal a count over every house of the sheet filtered by column."""
    R = rs.kernel
    rng = np.random.default_rng(5)
    assert [(s, american._column_house(R, s, 1)) for s in range(5)] == COLUMN_1
    for _ in range(40):
        cells, flags, _sc = _random_sheet(R, rng, perfect=0.4)
        for col in range(american.AD_MAX_COLUMNS):
            assert american.column_counts(R, cells, flags, 0, col) == american._counts(
                R, cells, flags, 0, american.R_X_HOUSE, 1 << col
            )


def test_column_tallies_in_one_pass_equal_each_columns_counts(rs):
    """Greedy's columns progress tallies every column in one pass, packed COL_BITS bits a column;
    unpacked, each column's (houses, numbered, perfect) equals column_counts."""
    R = rs.kernel
    rng = np.random.default_rng(6)
    mask = (1 << american.COL_BITS) - 1
    for _ in range(40):
        cells, flags, _sc = _random_sheet(R, rng, perfect=0.4)
        tn, tk, tp = american._column_tallies(R, cells, flags, 0)
        for col in range(american.AD_MAX_COLUMNS):
            sh = american.COL_BITS * col
            packed = ((tn >> sh) & mask, (tk >> sh) & mask, (tp >> sh) & mask)
            assert packed == american.column_counts(R, cells, flags, 0, col), col


def test_best_square_from_column_masks_equals_every_square_counted(rs):
    """The best k x k square is read from each street's column masks; it equals the best of
    _square over every square (house by house), for k = 1..5 (-1 when none is possible)."""
    R = rs.kernel
    rng = np.random.default_rng(13)
    seen = set()
    for _ in range(60):
        cells, flags, _sc = _random_sheet(R, rng, perfect=0.8)
        for k in range(1, 6):
            plain = max(
                [-1]
                + [
                    american._square(R, cells, flags, 0, s0, c0, k)
                    for s0 in range(5 - k + 1)
                    for c0 in range(int(R[american.R_X_SCORE, 4]) - k + 1)
                ]
            )
            got = american._best_square(R, cells, flags, 0, k)
            assert got == plain, k
            seen.add(got)
    assert -1 in seen and max(seen) >= 3


SHARE_GOALS = [
    american.GL_PERFECT_STREETS,
    american.GL_COMPLETE_STREETS,
    american.GL_PERFECT_COLUMNS,
    american.GL_COMPLETE_COLUMNS,
    american.GL_ADJACENT_COLUMNS,
]


def test_plan_progress_one_pass_equals_the_picking_loop_to_the_bit(rs):
    """Greedy's progress of a streets or columns goal computes each share once and keeps the best
    TOP_N in locals; its value equals the loop that picks the best share need times, to the last
    bit, for every goal and need up to TOP_N (and for fewer streets or columns than need)."""
    R = rs.kernel
    rng = np.random.default_rng(11)
    n_cols = int(R[american.R_X_SCORE, 4])
    compared = 0
    for _ in range(60):
        cells, flags, _sc = _random_sheet(R, rng)
        for g in SHARE_GOALS:
            streets = g in (american.GL_PERFECT_STREETS, american.GL_COMPLETE_STREETS)
            for m in (1, 2, 3, 5) if streets else (1, 2, 3, n_cols):
                for need in range(1, american.TOP_N + 1):
                    fast = american._progress_one_pass(R, cells, flags, 0, g, m, need)
                    slow = american._progress_picked(R, cells, flags, 0, g, m, need)
                    assert fast == slow, (g, m, need)
                    compared += fast > 0
    assert compared > 500  # the sheets were not all empty


def test_perfect_square_looks_up_each_column_house_by_its_street_offset(rs):
    """A k x k square's count looks up one house per street and column; it equals a scan of every
    house of each street for the column (the count before the lookup)."""
    R = rs.kernel
    rng = np.random.default_rng(12)

    def scan(cells, flags, s0, c0, k):
        perf = 0
        for s in range(s0, s0 + k):
            for c in range(c0, c0 + k):
                hs = [h for h in range(R[R_STREET_LEN, s]) if R[american.R_X_HOUSE + s, h] == c]
                if not hs:
                    return -1
                h = hs[0]
                if cells[0, s, h] >= 0:
                    if not flags[0, s, h] & F_PERFECT:
                        return -1
                    perf += 1
        return perf

    seen = set()
    for _ in range(60):
        cells, flags, _sc = _random_sheet(R, rng)
        for k in (1, 2, 3):
            for s0 in range(5 - k + 1):
                for c0 in range(american.AD_MAX_COLUMNS - k + 1):
                    got = american._square(R, cells, flags, 0, s0, c0, k)
                    assert got == scan(cells, flags, s0, c0, k)
                    seen.add(got)
    assert -1 in seen and max(seen) >= 2


def _value_per_house(R, cells, flags, sc, p):
    """The American Dream's valuation (hooks.x_value) with each empty house's fill chance asked of _fill house by house (no run
    memo): the same operations in the same order."""
    race = american.RACE_SOLO if sc.shape[0] == 1 else american.RACE_TABLE
    total = 0.0
    for s in range(5):
        st = sc[p, SC_AD_STREET + s]
        if st in (BONUS_CIRCLED, BONUS_DUE):
            total += float(R[american.R_X_SCORE, 3])
        elif st == BONUS_OPEN:
            chance = 1.0
            for h in range(R[R_STREET_LEN, s]):
                if cells[p, s, h] < 0:
                    chance *= american._fill(R, cells, p, s, h)[0]
            total += R[american.R_X_SCORE, 3] * chance * race
    reg, per = R[american.R_X_SCORE, 0], R[american.R_X_SCORE, 1]
    hope = reg + (per - reg) * american.PERFECT_HOPE
    for col in range(R[american.R_X_SCORE, 4]):
        pts, chance = 0.0, 1.0
        for s in range(5):
            h = american._column_house(R, s, col)
            if h < 0:
                continue
            if cells[p, s, h] >= 0:
                pts += per if flags[p, s, h] & F_PERFECT else reg
            else:
                pts += hope
                chance *= american._fill(R, cells, p, s, h)[0]
        st = sc[p, SC_AD_COLUMN + col]
        mult = float(R[american.R_X_SCORE, 2])
        if st == BONUS_OPEN:
            mult = 1.0 + (mult - 1.0) * race
        elif st == BONUS_CROSSED:
            mult = 1.0
        total += pts * chance * mult
    return total


def test_valuation_remembers_each_streets_run_to_the_bit(rs):
    """Greedy's valuation asks each run of empty houses for its fill chance once (every house of a
    run has the run's chance); it equals asking house by house, to the last bit."""
    R = rs.kernel
    rng = np.random.default_rng(13)
    for i in range(80):
        cells, flags, sc = _random_sheet(R, rng)
        for s in range(5):
            sc[0, SC_AD_STREET + s] = (BONUS_OPEN, BONUS_CIRCLED, BONUS_CROSSED)[i % 3]
        fences = new_state(R, 1)[2]
        assert x_value(R, cells, flags, fences, sc, 0) == _value_per_house(R, cells, flags, sc, 0)
