"""Halloween in the kernel: each rule of the expansion rules ("Halloween", 2023) on
hand-built sheets or on the logs of whole games. The referee's own reading is checked in
test_referee_halloween.py."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from handsheets import Spec, kernel_table

from welcome_sim.simcore.engine.game import game_seeds, simulate
from welcome_sim.simcore.ground.layout import (
    BONUS_CIRCLED,
    BONUS_CROSSED,
    BONUS_DUE,
    BONUS_OPEN,
    F_EXT,
    F_POOL,
    LOG_MOVE,
    LOG_X_BONUS,
    LOG_X_CLAIM,
    LOG_X_MARK,
    SC_EXT,
    SC_NUMBERED,
    SC_PARK,
    SC_POOLS,
)
from welcome_sim.simcore.ground.table import (
    P_NSTREETS,
    P_POOL_LEN,
    R_PARK_LEN,
    R_PARK_TRACK,
    R_POOL_HOUSE,
    R_POOL_TRACK,
    R_X_HOUSE,
)
from welcome_sim.simcore.rules.expansions import halloween as hw
from welcome_sim.simcore.rules.expansions.halloween import F_CANDY, F_GHOST, SC_H_LEVEL, SC_H_STEP
from welcome_sim.simcore.rules.expansions.hooks import x_value
from welcome_sim.simcore.rules.expansions.registry import OUT_COLUMNS, OUT_LEN
from welcome_sim.simcore.rules.ruleset import load_ruleset
from welcome_sim.simcore.rules.sheetops import Sheets, pool_ok
from welcome_sim.strategies.context import CTX_LEN
from welcome_sim.strategies.registry import FIRST_FIT, GREEDY, RANDOM, parse_strategy

DATA = Path(__file__).resolve().parent.parent / "welcome_sim" / "simcore" / "data" / "expansions"
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
def rs():
    return load_ruleset(expansion="halloween")


@pytest.fixture(scope="module")
def games(rs):
    """200 logged one-player greedy games and 200 three-player random games."""
    return [
        simulate(rs, game_seeds(21, 200), 1, ["greedy"], log=True),
        simulate(rs, game_seeds(22, 200), 3, ["random"], log=True),
    ]


def blank() -> Spec:
    return Spec(streets=[["."] * 10, ["."] * 11, ["."] * 12])


def table(rs, specs: list[Spec] | None = None):
    return kernel_table(rs.kernel, specs or [blank()])


def mark(R, cells, flags, p: int, houses, bit: int) -> None:
    """Number these marked houses (with distinct rising numbers per street) and circle `bit`."""
    for s, h in houses:
        cells[p, s, h] = 2 * (h + 1)
        flags[p, s, h] |= bit


def opts_of(rs, cells, flags, fences, sc, p: int, phase: int) -> list[tuple]:
    opts = np.zeros((hw.MAX_OPTIONS, 4), dtype=np.int64)
    n = hw.options(rs.kernel, cells, flags, fences, sc, p, phase, opts)
    return [tuple(int(x) for x in opts[k]) for k in range(n)]


def play(rs, cells, flags, fences, sc, p: int, phase: int, opt: tuple) -> list[int]:
    lg = np.zeros(5, dtype=np.int64)
    hw.apply(rs.kernel, cells, flags, fences, sc, p, phase, np.array(opt, dtype=np.int64), lg)
    return lg.tolist()


def test_data_layout_is_the_reconstructed_sheet(rs):
    """ "Number all 13 houses with a ghost and a candy" (Plan C): 13 houses, labelled reconstructed."""
    R = rs.kernel
    got = [(s, h) for s in range(3) for h in range(12) if R[R_X_HOUSE + s, h] == 1]
    assert got == MARKED
    assert rs.expansion.provenance == "reconstructed"
    assert rs.expansion.data["publisher_stars"] == 3
    assert any("halloween" in p for p in rs.reconstructed)


# --- numbering -------------------------------------------------------------------------------------


def test_numbering_a_house_with_a_ghost_and_a_candy_circles_one(rs):
    """ "Each time you number a house with a ghost and a candy, circle one of the two." """
    cells, flags, fences, sc = table(rs)
    assert opts_of(rs, cells, flags, fences, sc, 0, 0) == []
    cells[0, 0, 0] = 4  # house 0 of street 0 has no ghost and candy: nothing to circle
    assert opts_of(rs, cells, flags, fences, sc, 0, 0) == []
    cells[0, 0, 1] = 6
    got = opts_of(rs, cells, flags, fences, sc, 0, 0)
    assert got == [(hw.H_MARK, 0, 1, hw.GHOST), (hw.H_MARK, 0, 1, hw.CANDY)]
    assert play(rs, cells, flags, fences, sc, 0, 0, got[1]) == [LOG_X_MARK, 0, 1, hw.CANDY, 0]
    assert flags[0, 0, 1] & F_CANDY and not flags[0, 0, 1] & F_GHOST
    assert opts_of(rs, cells, flags, fences, sc, 0, 0) == []


def test_every_numbered_marked_house_has_exactly_one_mark_in_whole_games(games):
    """ "Extension Action: When you number a house with a ghost and a candy using this action, you
    must also circle one of the two": every marked house numbered in the game, by a card or an
    extension, gets one mark row, right after the move that numbered it (or at the round's end for
    a bonus extension)."""
    ext_marks = 0
    for res in games:
        log = res.log
        for g in range(len(res.seeds)):
            r = log[log[:, 0] == g]
            numbered: dict[tuple, int] = {}
            for row in r[r[:, 3] == LOG_MOVE]:
                if row[4] < 0:
                    continue
                key = (int(row[2]), int(row[5]), int(row[6]))
                if key[1:] in MARKED:
                    numbered[key] = int(row[1])
                if row[8] == 5 and (int(row[9]), int(row[11])) in MARKED:  # the Extension action
                    numbered[(int(row[2]), int(row[9]), int(row[11]))] = int(row[1])
                    ext_marks += 1
            for row in r[(r[:, 3] == LOG_X_BONUS) & (r[:, 4] == hw.H_EXT)]:
                if (int(row[5]), int(row[7])) in MARKED:
                    numbered[(int(row[2]), int(row[5]), int(row[7]))] = int(row[1])
            marks = r[r[:, 3] == LOG_X_MARK]
            got = {(int(m[2]), int(m[4]), int(m[5])): int(m[1]) for m in marks}
            assert len(got) == len(marks)
            assert got == numbered
    assert ext_marks > 0


# --- claiming levels -----------------------------------------------------------------------------------


def test_claims_need_the_exact_count(rs):
    """ "If you have exactly 4, 6, or 9 circled ghosts, you can claim the corresponding level or a
    lower level ... if you don't have the exact required number of ghosts or candies, you cannot
    claim any level, even a lower one." """
    for n, levels in [(3, None), (4, [0]), (5, None), (6, [1, 0]), (8, None), (9, [2, 1, 0])]:
        cells, flags, fences, sc = table(rs)
        mark(rs.kernel, cells, flags, 0, MARKED[:n], F_GHOST)
        got = opts_of(rs, cells, flags, fences, sc, 0, 1)
        if levels is None:
            assert got == []
        else:
            want = [(hw.H_CLAIM, hw.GHOST, lv, 0) for lv in levels] + [(hw.H_DECLINE, hw.GHOST, 0, 0)]
            assert got == want


def test_a_crossed_level_cannot_be_claimed_but_a_lower_one_can(rs):
    """ "Even later, Benoit finally has 9 ghosts. He can claim any level, but since the 9-ghost and
    6-ghost levels are no longer available, he claims the 4-ghost level." """
    cells, flags, fences, sc = table(rs)
    mark(rs.kernel, cells, flags, 0, MARKED[:9], F_GHOST)
    sc[0, SC_H_LEVEL + 1] = BONUS_CROSSED
    sc[0, SC_H_LEVEL + 2] = BONUS_CROSSED
    assert opts_of(rs, cells, flags, fences, sc, 0, 1) == [
        (hw.H_CLAIM, hw.GHOST, 0, 0),
        (hw.H_DECLINE, hw.GHOST, 0, 0),
    ]


def test_one_ghost_and_one_candy_level_a_game(rs):
    """ "you can only claim one Ghost level and one Candy level per game." """
    cells, flags, fences, sc = table(rs)
    mark(rs.kernel, cells, flags, 0, MARKED[:6], F_GHOST)
    mark(rs.kernel, cells, flags, 0, MARKED[6:10], F_CANDY)
    sc[0, SC_H_LEVEL + 0] = BONUS_CIRCLED  # the 4-ghost level, claimed earlier
    got = opts_of(rs, cells, flags, fences, sc, 0, 1)
    assert got == [(hw.H_CLAIM, hw.CANDY, 0, 0), (hw.H_DECLINE, hw.CANDY, 0, 0)]
    assert play(rs, cells, flags, fences, sc, 0, 1, got[0]) == [LOG_X_CLAIM, hw.CANDY, 0, 0, 0]
    assert opts_of(rs, cells, flags, fences, sc, 0, 1) == []  # asked once a round end
    hw.round_end(rs.kernel, sc, 1)
    mark(rs.kernel, cells, flags, 0, MARKED[10:12], F_CANDY)  # 6 candies now
    assert opts_of(rs, cells, flags, fences, sc, 0, 1) == []


def test_levels_claimed_in_the_same_round_are_shared_and_crossed_for_the_others(rs):
    """ "Multiple architects can claim the same level in the same round. The other architects must
    cross out that level and can no longer claim it." Every player decides from the round's own
    sheets: a level another player claims this round is still open for the next player."""
    cells, flags, fences, sc = table(rs, [blank(), blank(), blank()])
    for p in range(3):
        mark(rs.kernel, cells, flags, p, MARKED[:4] if p < 2 else MARKED[:5], F_GHOST)
    got0 = opts_of(rs, cells, flags, fences, sc, 0, 1)
    play(rs, cells, flags, fences, sc, 0, 1, got0[0])
    assert sc[0, SC_H_LEVEL] == BONUS_DUE
    assert opts_of(rs, cells, flags, fences, sc, 1, 1)[0] == (hw.H_CLAIM, hw.GHOST, 0, 0)
    play(rs, cells, flags, fences, sc, 1, 1, (hw.H_CLAIM, hw.GHOST, 0, 0))
    hw.round_end(rs.kernel, sc, 3)
    assert sc[:, SC_H_LEVEL].tolist() == [BONUS_CIRCLED, BONUS_CIRCLED, BONUS_CROSSED]
    assert sc[:, SC_H_LEVEL + 1].tolist() == [BONUS_OPEN] * 3


# --- Ghost bonuses ---------------------------------------------------------------------------------


def claim_ghost(rs, cells, flags, fences, sc, level: int, alt: int) -> None:
    """Claim a Ghost level and choose its alternative."""
    play(rs, cells, flags, fences, sc, 0, 1, (hw.H_CLAIM, hw.GHOST, level, 0))
    got = opts_of(rs, cells, flags, fences, sc, 0, 1)
    assert got == [(hw.H_ALT, 0, 0, 0), (hw.H_ALT, 1, 0, 0)]
    assert play(rs, cells, flags, fences, sc, 0, 1, got[alt])[:3] == [LOG_X_BONUS, hw.H_ALT, alt]


def test_pool_bonus_circles_a_pool_whether_the_house_is_numbered_or_not(rs):
    """ "4-ghost level: 1 Pool bonus OR 1 Park bonus." "Pool bonus: Circle 1 pool anywhere, whether
    the house is numbered or not, and cross out 1 box in the pool section." """
    cells, flags, fences, sc = table(rs)
    mark(rs.kernel, cells, flags, 0, MARKED[:4], F_GHOST)
    cells[0, 0, 2] = 6  # a numbered pool house without its pool
    flags[0, 1, 0] |= F_POOL  # a pool already circled: not again
    sc[0, SC_POOLS] = 1
    claim_ghost(rs, cells, flags, fences, sc, 0, 0)
    got = opts_of(rs, cells, flags, fences, sc, 0, 1)
    pools = [(s, h) for s, houses in enumerate([[2, 6, 7], [0, 3, 7], [1, 6, 10]]) for h in houses]
    assert got == [(hw.H_POOL, s, h, 0) for s, h in pools if (s, h) != (1, 0)]
    play(rs, cells, flags, fences, sc, 0, 1, (hw.H_POOL, 2, 6, 0))  # an empty house
    assert flags[0, 2, 6] & F_POOL and sc[0, SC_POOLS] == 2 and cells[0, 2, 6] < 0
    assert sc[0, SC_H_STEP] == 0
    # Numbered later, the house cannot take the Pool action: its pool is circled already.
    assert not pool_ok(rs.kernel, flags, sc, 0, 2, 6)
    assert pool_ok(rs.kernel, flags, sc, 0, 2, 10)


def test_park_bonuses_and_a_bonus_without_a_place_is_lost(rs):
    """ "9-ghost level: 3 Park bonuses OR 2 Extension bonuses." "Park bonus: Cross out 1 Park box on
    any street." With every park track full but one box, the other two are lost."""
    cells, flags, fences, sc = table(rs)
    mark(rs.kernel, cells, flags, 0, MARKED[:9], F_GHOST)
    sc[0, SC_PARK + 0] = 3  # street 1: 3 boxes of 3 crossed
    sc[0, SC_PARK + 1] = 4
    sc[0, SC_PARK + 2] = 4  # street 3: one box of 5 left
    claim_ghost(rs, cells, flags, fences, sc, 2, 0)
    assert opts_of(rs, cells, flags, fences, sc, 0, 1) == [(hw.H_PARK, 2, 0, 0)]
    play(rs, cells, flags, fences, sc, 0, 1, (hw.H_PARK, 2, 0, 0))
    assert sc[0, SC_PARK + 2] == 5
    # No park box left anywhere: the two others have no place; then the Candy claim is asked.
    assert opts_of(rs, cells, flags, fences, sc, 0, 1) == []
    assert sc[0, SC_H_STEP] == 0


def test_extension_bonus_crosses_no_box_and_can_enable_a_candy_claim(rs):
    """ "Extension bonus: Perform 1 Extension action without crossing out a box in the extension
    section. This bonus can allow you to claim a Candy level in the same round." "6-ghost level:
    2 Pool bonuses OR 1 Extension bonus." Even with the extension track full."""
    cells, flags, fences, sc = table(rs)
    mark(rs.kernel, cells, flags, 0, MARKED[:6], F_GHOST)  # street 1's four, street 2's first two
    mark(rs.kernel, cells, flags, 0, MARKED[8:11], F_CANDY)  # 3 candies in street 3
    sc[0, SC_EXT] = 6  # every extension box crossed
    numbered = int(sc[0, SC_NUMBERED])
    claim_ghost(rs, cells, flags, fences, sc, 1, 1)
    got = opts_of(rs, cells, flags, fences, sc, 0, 1)
    assert (hw.H_EXT, 2, 0, 1) in got  # street 3's first house copied into the second
    assert all(o[0] == hw.H_EXT and abs(o[2] - o[3]) == 1 for o in got)
    # Copied into a house with a ghost and a candy (street 2, house 10, from house 9).
    cells[0, 1, 8] = 18
    got = opts_of(rs, cells, flags, fences, sc, 0, 1)
    assert (hw.H_EXT, 1, 8, 9) in got
    play(rs, cells, flags, fences, sc, 0, 1, (hw.H_EXT, 1, 8, 9))
    assert cells[0, 1, 9] == 18 and flags[0, 1, 9] & F_EXT
    assert sc[0, SC_EXT] == 6 and sc[0, SC_NUMBERED] == numbered + 1
    got = opts_of(rs, cells, flags, fences, sc, 0, 1)
    assert got == [(hw.H_MARK, 1, 9, hw.GHOST), (hw.H_MARK, 1, 9, hw.CANDY)]
    assert play(rs, cells, flags, fences, sc, 0, 1, got[1]) == [LOG_X_MARK, 1, 9, hw.CANDY, 1]
    # 4 candies now: the 4-candy level can be claimed in the same round.
    assert opts_of(rs, cells, flags, fences, sc, 0, 1) == [
        (hw.H_CLAIM, hw.CANDY, 0, 0),
        (hw.H_DECLINE, hw.CANDY, 0, 0),
    ]


def test_extension_bonus_obeys_the_first_editions_same_estate_rule():
    """The first edition: a bis is in the same estate as its twin (no fence between them); the
    Extension bonus is "1 Extension action" and follows it."""
    rs = load_ruleset(edition="first", expansion="halloween")
    cells, flags, fences, sc = table(rs)
    cells[0, 0, 2] = 6
    fences[0, 0, 3] |= 1
    ok = [hw.ext_bonus_ok(rs.kernel, cells, fences, sc, 0, 0, 2, t) for t in (1, 3)]
    assert ok == [True, False]


# --- end of game, AAA, plans -----------------------------------------------------------------------


def test_candy_level_scores_its_points(rs):
    """ "If you have claimed a Candy level, add the indicated points to your score." A Ghost level
    scores nothing itself (its bonuses are on the sheet)."""
    cells, flags, fences, sc = table(rs)
    mark(rs.kernel, cells, flags, 0, MARKED[:6], F_CANDY)
    mark(rs.kernel, cells, flags, 0, MARKED[6:10], F_GHOST)
    sc[0, SC_H_LEVEL + 3 + 1] = BONUS_CIRCLED
    sc[0, SC_H_LEVEL + 0] = BONUS_CIRCLED
    row = np.zeros(OUT_LEN, dtype=np.int64)
    hw.score(rs.kernel, cells, flags, sc, 0, row)
    col = {c: row[i] for i, c in enumerate(OUT_COLUMNS)}
    assert (col["expansion_points"], col["ghosts"], col["candies"]) == (9, 4, 6)
    assert (col["ghost_level"], col["candy_level"]) == (4, 6)


def test_aaa_validation_cards_cross_the_levels_of_their_rank():
    """ "Validation A card: Cross out the 1st Ghost level AND the 1st Candy level" ... "if you
    haven't circled them"; "the AAA earns 4 points for each crossed out Ghost and Candy level"."""
    rs = load_ruleset(expansion="halloween", mode="solo", opponent="3")
    cells, flags, fences, sc = table(rs)
    sc[0, SC_H_LEVEL + 3 + 1] = BONUS_CIRCLED  # the 6-candy level, circled
    hw.validation(rs.kernel, sc, 0, 1)  # card B
    assert sc[0, SC_H_LEVEL + 1] == BONUS_CROSSED and sc[0, SC_H_LEVEL + 4] == BONUS_CIRCLED
    hw.validation(rs.kernel, sc, 0, 2)  # card C
    assert hw.aaa_points(rs.kernel, sc) == 4 * 3
    res = simulate(rs, game_seeds(3, 100), 1, ["greedy"])
    assert res.game_column("aaa_expansion").max() > 0
    assert set(np.unique(res.game_column("aaa_expansion")).tolist()) <= {0, 4, 8, 12, 16, 20, 24}


def plan_index(rs, pid: str) -> int:
    return next(i for i, p in enumerate(rs.plans.plans) if p.id == pid)


def goal(rs, cells, flags, sc, pid: str) -> bool:
    return bool(hw.goal(rs.kernel, cells, flags, sc, 0, plan_index(rs, pid)))


def test_plan_c_cards(rs):
    """Plan C: "Circle at least 7 candies." "Circle at least 4 ghosts and 4 candies." "Number all
    13 houses with a ghost and a candy." "In 2 different streets: circle all the ghosts." "In the
    3rd street (bottom): circle all the candies." """
    cells, flags, fences, sc = table(rs)
    mark(rs.kernel, cells, flags, 0, MARKED[8:13], F_CANDY)  # street 3's five candies
    assert goal(rs, cells, flags, sc, "C-H5")
    assert not goal(rs, cells, flags, sc, "C-H1")
    mark(rs.kernel, cells, flags, 0, MARKED[4:6], F_CANDY)
    assert goal(rs, cells, flags, sc, "C-H1")
    assert not goal(rs, cells, flags, sc, "C-H2")
    mark(rs.kernel, cells, flags, 0, MARKED[:4], F_GHOST)  # street 1's four ghosts
    assert goal(rs, cells, flags, sc, "C-H2")
    assert not goal(rs, cells, flags, sc, "C-H4")  # street 2 has candies circled
    assert not goal(rs, cells, flags, sc, "C-H3")
    mark(rs.kernel, cells, flags, 0, MARKED[6:8], F_GHOST)
    assert goal(rs, cells, flags, sc, "C-H3")
    cells2, flags2, _, sc2 = table(rs)
    mark(rs.kernel, cells2, flags2, 0, MARKED[:8], F_GHOST)
    assert goal(rs, cells2, flags2, sc2, "C-H4")
    flags2[0, 1, 9] = F_CANDY
    assert not goal(rs, cells2, flags2, sc2, "C-H4")


# --- strategies ---------------------------------------------------------------------------------------


def test_every_strategy_makes_the_decisions(rs):
    """Greedy, random, first-fit and a Python strategy all claim levels and place bonuses; the
    first option policy (first-fit, greedy:xchoice=1) always circles the ghost."""
    from welcome_sim.strategies.dispatch import choose_option

    cells, flags, fences, sc = table(rs)
    mark(rs.kernel, cells, flags, 0, MARKED[:4], F_GHOST)
    opts = np.zeros((hw.MAX_OPTIONS, 4), dtype=np.int64)
    n = hw.options(rs.kernel, cells, flags, fences, sc, 0, 1, opts)
    ctx = np.zeros(CTX_LEN, dtype=np.int64)
    ctx[0] = 1
    rng = np.array([7], dtype=np.uint64)
    prm = parse_strategy("greedy").vector()
    for strat in (GREEDY, RANDOM, FIRST_FIT):
        k = choose_option(strat, prm, rs.kernel, Sheets(cells, flags, fences, sc), 0, ctx, rng, opts, n, 1)
        assert 0 <= k < n
    # Greedy claims the 4-ghost level (its bonus beats the hope of waiting with 4 ghosts).
    assert (
        choose_option(GREEDY, prm, rs.kernel, Sheets(cells, flags, fences, sc), 0, ctx, rng, opts, n, 1) == 0
    )
    for strat, seats in [("first-fit", 1), ("greedy:xchoice=1", 1), ("random", 2), ("greedy", 3)]:
        res = simulate(rs, game_seeds(4, 60), seats, [strat], log=True)
        marks = res.log[res.log[:, 3] == LOG_X_MARK]
        claims = res.log[res.log[:, 3] == LOG_X_CLAIM]
        assert len(marks) > 0 and len(claims) > 0
        if strat in ("first-fit", "greedy:xchoice=1"):
            assert (marks[:, 6] == hw.GHOST).all()
        else:
            assert (marks[:, 6] == hw.CANDY).any() and (marks[:, 6] == hw.GHOST).any()


class CandyLover:
    """A Python strategy: first-fit moves, always the candy, never a claim."""

    def __init__(self) -> None:
        self.asked = 0

    def choose(self, turn):
        from welcome_sim.strategies.protocol import Move

        for combo in range(len(turn.combos)):
            for s, h, v in turn.legal_placements(combo):
                if v == turn.combos[combo][0]:
                    return Move(combo, s, h, v)
        return None

    def expansion_option(self, turn, options):
        self.asked += 1
        assert turn.marks[0][1] in ("", "open", "ghost", "candy") and turn.marks[0][0] == ""
        for i, o in enumerate(options):
            if (o[0] == "mark" and o[3] == "candy") or o[0] == "decline":
                return i
        return 0


def test_python_strategy_answers_expansion_option(rs):
    player = CandyLover()
    res = simulate(rs, game_seeds(5, 3), 1, [player], log=True)
    marks = res.log[res.log[:, 3] == LOG_X_MARK]
    assert player.asked > 0 and len(marks) > 0 and (marks[:, 6] == hw.CANDY).all()
    assert not (res.log[:, 3] == LOG_X_CLAIM).any()


# --- data files ------------------------------------------------------------------------------------------


def test_designer_copy_plays(tmp_path):
    """A designer's copy with other houses and Candy points runs with --expansion ./file.toml."""
    text = (DATA / "halloween.toml").read_text()
    text = text.replace("candy_points = [5, 9, 14]", "candy_points = [6, 10, 20]")
    text = text.replace("[1, 7], [1, 9],", "[1, 7], [1, 10],")  # street 1's house 9 -> 10 (from 1)
    path = tmp_path / "my_halloween.toml"
    path.write_text(text)
    rs = load_ruleset(expansion=str(path))
    res = simulate(rs, game_seeds(6, 40), 1, ["greedy"])
    pts = set(res.column("expansion_points").ravel().tolist())
    assert pts <= {0, 6, 10, 20} and pts - {0}
    assert rs.kernel[R_X_HOUSE, 9] == 1 and rs.kernel[R_X_HOUSE, 8] == 0


def _unit_worth_of_sheet(R, cells, flags, sc, p, unit) -> float:
    """A Ghost bonus unit's worth as first written: its legal places looked for on the whole
    sheet (greedy now reads whether one exists from the street parts)."""
    best = 0.0
    for s in range(R[0, P_NSTREETS]):
        if unit == 1:
            last = R[R_PARK_LEN, s] - 1
            if hw.park_ok(R, sc, p, s):
                best = max(best, R[R_PARK_TRACK + s, last] / last)
            continue
        for h in range(R[hw.R_STREET_LEN, s]):
            if unit == 0 and hw.pool_bonus_ok(R, cells, flags, sc, p, s, h):
                n = sc[p, SC_POOLS]
                return float(R[R_POOL_TRACK, n + 1] - R[R_POOL_TRACK, n])
            if unit == 2 and cells[p, s, h] >= 0:
                for t in (h - 1, h + 1):
                    if 0 <= t < R[hw.R_STREET_LEN, s] and cells[p, s, t] == hw.EMPTY:
                        return hw.EXT_WORTH
    return best


def _level_worth_of_sheet(R, cells, flags, sc, p, kind, lv) -> float:
    """A level's worth as first written (its Ghost units from _unit_worth_of_sheet)."""
    if kind == hw.CANDY:
        return float(R[hw.R_X_SCORE, lv])
    best = 0.0
    for a in range(2):
        col = hw.T_BONUS + lv * 4 + a * 2
        unit = _unit_worth_of_sheet(R, cells, flags, sc, p, R[hw.R_X_TABLE, col])
        best = max(best, R[hw.R_X_TABLE, col + 1] * unit)
    return best


def _value_asking_every_time(R, cells, flags, sc, p):
    """Halloween's valuation (hooks.x_value) as first written: the counts and the bonus units' worth read from the whole sheet
    (not from street parts), every level's worth asked of the sheet: the same operations in the
    same order."""
    g = c = free = room = 0
    for s in range(3):
        for h in range(len(cells[p, s])):
            if h >= R[hw.R_STREET_LEN, s] or not hw.marked(R, s, h):
                continue
            f = flags[p, s, h]
            if f & F_GHOST:
                g += 1
            elif f & F_CANDY:
                c += 1
            elif cells[p, s, h] >= 0:
                free += 1
            elif cells[p, s, h] == hw.EMPTY:
                room += 1
    total = 0.0
    lv = hw.claimed(sc, p, hw.CANDY)
    if lv >= 0:
        total += R[hw.R_X_SCORE, lv]
    step = sc[p, SC_H_STEP]
    if step != 0 and step < hw.H_UNITS:
        total += _level_worth_of_sheet(R, cells, flags, sc, p, hw.GHOST, step - 1)
    elif step != 0:
        total += ((step - hw.H_UNITS) & 3) * _unit_worth_of_sheet(
            R, cells, flags, sc, p, (step - hw.H_UNITS) >> 2
        )
    # Every level's worth asked of the whole sheet and handed to _kind_value, which
    # then asks nothing itself.
    ghost = tuple(_level_worth_of_sheet(R, cells, flags, sc, p, hw.GHOST, lv) for lv in range(3))
    candy = tuple(_level_worth_of_sheet(R, cells, flags, sc, p, hw.CANDY, lv) for lv in range(3))
    best = -1.0
    for x in range(free + 1):
        vg = hw._kind_value(R, sc, p, hw.GHOST, g + x, room, ghost, -1, -1)[0]
        vc = hw._kind_value(R, sc, p, hw.CANDY, c + free - x, room, candy, -1, -1)[0]
        best = max(best, vg + vc)
    return total + best


def test_valuation_asks_each_levels_worth_once_to_the_bit(rs):
    """Greedy's valuation remembers each level's worth across the splits of the numbered but
    unmarked houses it tries and reads the counts and the bonus units' places from the street
    parts; its value equals asking the whole sheet anew every time, to the last bit."""
    R = rs.kernel
    rng = np.random.default_rng(17)
    marked = [(s, h) for s in range(3) for h in range(R[hw.R_STREET_LEN, s]) if hw.marked(R, s, h)]
    levels = (BONUS_OPEN, BONUS_OPEN, BONUS_CROSSED, BONUS_CIRCLED)
    nonzero = 0
    for _ in range(150):
        cells, flags, fences, sc = table(rs)
        for s, h in marked:
            r = rng.random()
            if r < 0.6:
                cells[0, s, h] = 2 * (h + 1)
                if r < 0.2:
                    flags[0, s, h] |= F_GHOST
                elif r < 0.4:
                    flags[0, s, h] |= F_CANDY
        if rng.random() < 0.15:  # every house numbered: no spot for an Extension bonus
            for s in range(3):
                for h in range(R[hw.R_STREET_LEN, s]):
                    if cells[0, s, h] == hw.EMPTY:
                        cells[0, s, h] = 2 * (h + 1)
        for k in range(6):
            sc[0, SC_H_LEVEL + k] = levels[rng.integers(0, 4)]
        # Pool bonus spots taken or the pool track full, so that a unit has no place sometimes.
        taken = (0.0, 0.7, 1.0)[rng.integers(0, 3)]
        for s in range(3):
            for h in range(R[hw.R_STREET_LEN, s]):
                if R[R_POOL_HOUSE + s, h] == 1 and rng.random() < taken:
                    flags[0, s, h] |= F_POOL
        if rng.random() < 0.3:
            sc[0, SC_POOLS] = R[0, P_POOL_LEN] - 1
        sc[0, SC_H_STEP] = 0 if rng.random() < 0.6 else int(rng.integers(1, hw.H_UNITS + 8))
        got = x_value(R, cells, flags, fences, sc, 0)
        assert got == _value_asking_every_time(R, cells, flags, sc, 0)
        nonzero += got > 0
    assert nonzero > 50
