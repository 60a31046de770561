"""Roswell in the kernel: each rule of the expansion rules ("Roswell", 2023) on
hand-built sheets or on the logs of whole games. The referee's own reading is checked in
test_referee_roswell.py."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from handsheets import Spec, kernel_table

from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.engine.game import game_seeds, simulate
from welcome_sim.simcore.ground.layout import (
    EXTENSION,
    FENCE,
    G_AAA_ESTATES,
    G_AAA_FENCES,
    G_AAA_N_ESTATES,
    G_AAA_PARKS,
    G_LEN,
    LOG_MOVE,
    LOG_STACK,
    LOG_X_OBJECTIVE,
    NO_ACTION,
    PARK,
    TEMP,
)
from welcome_sim.simcore.ground.table import (
    P_NCARDS,
    P_NSTREETS,
    R_DECK_ACT,
    R_DECK_NUM,
    R_STREET_LEN,
    R_X_HOUSE,
)
from welcome_sim.simcore.rules.aaa import aaa_score, aaa_temp_cards
from welcome_sim.simcore.rules.expansions import roswell
from welcome_sim.simcore.rules.expansions.registry import OUT_COLUMNS, OUT_LEN
from welcome_sim.simcore.rules.expansions.roswell import F_ZOORG, SC_RW_OBJECTIVE, SC_RW_ZOORGS
from welcome_sim.simcore.rules.plans import plan_check
from welcome_sim.simcore.rules.ruleset import load_ruleset
from welcome_sim.simcore.rules.scoring import score_table
from welcome_sim.strategies.protocol import Move
from welcome_sim.verify import check_batch

SAUCERS = {
    (0, 1),
    (0, 3),
    (0, 6),
    (0, 8),
    (1, 1),
    (1, 4),
    (1, 6),
    (1, 9),
    (2, 0),
    (2, 3),
    (2, 6),
    (2, 8),
    (2, 10),
}
COL = {c: i for i, c in enumerate(OUT_COLUMNS)}


@pytest.fixture(scope="module")
def rs():
    return load_ruleset(expansion="roswell")


@pytest.fixture(scope="module")
def games(rs):
    """150 logged two-player greedy games and 150 three-player random games."""
    return [
        simulate(rs, game_seeds(21, 150), 2, ["greedy"], log=True),
        simulate(rs, game_seeds(22, 150), 3, ["random"], log=True),
    ]


def blank() -> Spec:
    return Spec(streets=[["."] * 10, ["."] * 11, ["."] * 12])


def moves(res) -> np.ndarray:
    return res.log[res.log[:, 3] == LOG_MOVE]


def zoorg_moves(res) -> np.ndarray:
    m = moves(res)
    return m[(m[:, 4] >= 0) & (m[:, 8] == NO_ACTION) & (m[:, 11] == 1)]


# --- set-up ----------------------------------------------------------------------------------------


def test_each_player_circles_one_objective_at_set_up(games):
    """ "After the regular set up, choose one infiltration objective from the 4 objectives at the
    bottom left of your sheet and secretly circle it.\""""
    for res in games:
        n_players = res.out.shape[1]
        for g in range(len(res.seeds)):
            r = res.log[(res.log[:, 0] == g) & (res.log[:, 3] == LOG_X_OBJECTIVE)]
            assert sorted(r[:, 2].tolist()) == list(range(n_players))
            assert (r[:, 1] == 0).all()
            for row in r:
                assert 0 <= row[4] < 4
                assert res.out[g, row[2], COL["objective"]] == row[4] + 1
    # Random draws every box; greedy (13 saucers, 0.4 expected per saucer: 5) circles 5-6.
    assert set(np.unique(games[1].out[:, :, COL["objective"]]).tolist()) == {1, 2, 3, 4}
    assert set(np.unique(games[0].out[:, :, COL["objective"]]).tolist()) == {2}


def test_greedy_objective_parameter_fixes_the_box(rs):
    for box in (1, 4):
        res = simulate(rs, game_seeds(3, 10), 2, [f"greedy:objective={box}"])
        assert (res.out[:, :, COL["objective"]] == box).all()
    assert roswell.greedy_objective(rs.kernel, 0) == 1  # 13 saucers x 0.4 = 5: the 5-6 box


# --- infiltration ----------------------------------------------------------------------------------


def test_a_zoorg_only_under_a_saucer_instead_of_the_action(games, rs):
    """ "If you have numbered a house with a flying saucer positioned above it, you have 2 options:
    Use the action ... OR Infiltrate a Zoorg by circling the flying saucer (and therefore do not
    perform the action on the card).\" The house is the one just numbered, with the card's own
    number (a temp worker's change uses the action)."""
    R = rs.kernel
    for res in games:
        z = zoorg_moves(res)
        assert len(z) > 50
        for row in z:
            s, h = row[5], row[6]
            assert (s, h) in SAUCERS and (row[9], row[10]) == (s, h)
        # Every Zoorg is counted, at most one per saucer.
        assert res.out[:, :, COL["zoorgs"]].sum() == len(z)
        assert res.out[:, :, COL["zoorgs"]].max() <= len(SAUCERS)
    assert R[R_X_HOUSE + 0, 1] == 1 and R[R_X_HOUSE + 0, 0] == 0


def _combo(res, g, rnd, combo) -> tuple[int, int] | None:
    """(number code, action) of combination `combo` in round rnd of a three-stack game, from the
    set-up rows (None once a stack may have been reshuffled)."""
    log = res.log[res.log[:, 0] == g]
    setup = log[(log[:, 3] == LOG_STACK) & (log[:, 1] == 0) & (log[:, 4] == combo)]
    order = [int(c) for _, c in sorted(zip(setup[:, 5].tolist(), setup[:, 6].tolist(), strict=True))]
    if rnd >= len(order):
        return None
    R = res.ruleset.kernel
    # Round r flips position r - 1 (its action); position r shows the number.
    return int(R[R_DECK_NUM, order[rnd]]), int(R[R_DECK_ACT, order[rnd - 1]])


def test_infiltration_with_every_kind_of_card(games):
    """ "Use the action associated with the chosen number ... OR Infiltrate a Zoorg": any card's
    action may give way to the Zoorg (random play tries it with all six)."""
    res = games[1]
    seen = set()
    for row in zoorg_moves(res):
        combo = _combo(res, row[0], row[1], row[4])
        if combo is not None:
            seen.add(combo[1])
    assert seen == {0, 1, 2, 3, 4, 5}


def test_a_temp_worker_change_never_infiltrates(games):
    """A number a temp worker changed used the Temp card's action: a Zoorg move's number is always
    its card's own."""
    n = 0
    for res in games:
        for row in zoorg_moves(res):
            combo = _combo(res, row[0], row[1], row[4])
            if combo is not None:
                assert row[7] == combo[0]
                n += 1
    assert n > 50


def test_whole_games_agree_with_the_referee(games):
    assert check_batch(games[0]) == [] and check_batch(games[1]) == []


def test_alt_ok_only_on_a_numbered_saucer_house_not_yet_circled(rs):
    R = rs.kernel
    cells, flags, fences, sc = kernel_table(R, [blank()])
    assert not roswell.alt_ok(R, cells, flags, 0, 0, 1)  # empty
    cells[0, 0, 1] = 8
    cells[0, 0, 2] = 10
    assert roswell.alt_ok(R, cells, flags, 0, 0, 1)
    assert not roswell.alt_ok(R, cells, flags, 0, 0, 2)  # no saucer
    roswell.infiltrate(flags, sc, 0, 0, 1, 1)
    assert flags[0, 0, 1] & F_ZOORG and sc[0, SC_RW_ZOORGS] == 1
    assert not roswell.alt_ok(R, cells, flags, 0, 0, 1)  # already circled
    roswell.infiltrate(flags, sc, 0, 0, 1, -1)
    assert flags[0, 0, 1] == 0 and sc[0, SC_RW_ZOORGS] == 0


# --- infiltrated estates and the objective ---------------------------------------------------------


def _score(rs, spec: Spec, zoorgs, objective: int):
    R = rs.kernel
    cells, flags, fences, sc = kernel_table(R, [spec])
    for s, h in zoorgs:
        roswell.infiltrate(flags, sc, 0, s, h, 1)
    sc[0, SC_RW_OBJECTIVE] = objective
    out = np.zeros((1, OUT_LEN), dtype=np.int64)
    score_table(R, cells, flags, fences, sc, 1, out, -1)
    return out[0]


def test_an_infiltrated_estate_is_complete_of_six_at_most_with_a_zoorg(rs):
    """ "an infiltrated estate must be complete with all its houses numbered and have a maximum
    size of 6 houses ... A housing estate can have more than one infiltrated Zoorg, but it is not
    necessary.\""""
    spec = Spec(
        streets=[
            ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"],
            ["1", "2", "3", "4", "5", "6", "7", ".", "9", "10", "11"],
            ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"],
        ],
        fences={0: [3], 1: [5, 8], 2: [3, 6]},
    )
    row = _score(rs, spec, [(0, 1), (0, 6), (1, 1), (1, 4), (1, 6), (2, 0)], 1)
    # Infiltrated: street 1 houses 0-2; street 2 houses 0-4 (two Zoorgs: once); street 3 houses
    # 0-2. Not: street 1's 3-9 (7 houses), street 2's 5-7 (house 7 empty), street 3's 3-5 (no Zoorg).
    assert row[COL["infiltrated"]] == 3
    assert row[COL["zoorgs"]] == 6
    assert row[COL["expansion_points"]] == 3 * 4  # the first objective (3 or 4) met: 4 each


def test_objective_met_or_missed(rs):
    """ "If you have the requested number of infiltrated estates, you earn the highest score
    indicated for each infiltrated estate"; "If you have too few or too many infiltrated estates,
    you only earn 2 points per infiltrated housing estate." The rulebook's examples: 48 (8 x 6,
    the 7-8 box met) and 12 (6 x 2, missed)."""
    R = rs.kernel
    assert roswell.objective_points(R, 2, 8) == 48
    assert roswell.objective_points(R, 2, 6) == 12
    assert roswell.objective_points(R, 0, 3) == 12 and roswell.objective_points(R, 0, 4) == 16
    assert roswell.objective_points(R, 0, 5) == 10  # too many
    assert roswell.objective_points(R, 3, 9) == 63 and roswell.objective_points(R, 3, 12) == 84  # "or more"
    assert roswell.objective_points(R, 1, 0) == 0


def test_score_columns_add_up(games):
    for res in games:
        out = res.out
        assert (out[:, :, COL["expansion_points"]] >= 2 * out[:, :, COL["infiltrated"]]).all()
        assert (out[:, :, COL["infiltrated"]] <= out[:, :, COL["zoorgs"]]).all()
        assert (out[:, :, COL["infiltrated"]] > 0).any()


# --- Plan C ----------------------------------------------------------------------------------------


def _plan(rs, pid):
    return [p.id for p in rs.plans.plans].index(pid)


def _meets(rs, spec, zoorgs, pid) -> bool:
    R = rs.kernel
    cells, flags, fences, sc = kernel_table(R, [spec])
    for s, h in zoorgs:
        roswell.infiltrate(flags, sc, 0, s, h, 1)
    used = np.zeros((16, 3), dtype=np.int64)
    return plan_check(R, cells, flags, fences, sc, 0, _plan(rs, pid), False, used) >= 0


def test_plan_c_cards_are_the_expansions(rs):
    assert sorted(p.id for p in rs.plans.plans if p.letter == "C") == [f"C-R{i}" for i in range(1, 6)]


def test_plan_two_size_4_estates_each_with_a_zoorg(rs):
    """ "Build 2 complete housing estates of size 4, each with at least 1 infiltrated Zoorg.\""""
    spec = blank()
    spec.streets[0][:8] = [str(i) for i in range(1, 9)]
    spec.fences = {0: [4, 8]}
    assert _meets(rs, spec, [(0, 1), (0, 6)], "C-R1")
    assert not _meets(rs, spec, [(0, 1)], "C-R1")


def test_plan_size_3_and_4_with_two_zoorgs_each(rs):
    """ "Build 1 complete housing estate of size 3 and 1 complete housing estate of size 4, each
    with at least 2 infiltrated Zoorgs.\""""
    spec = blank()
    spec.streets[0][:8] = [str(i) for i in range(1, 9)]
    spec.streets[2][:4] = [str(i) for i in range(1, 5)]
    # Street 1 houses 1-3 (size 3, saucers 1 and 3); street 3 houses 0-3 (size 4, saucers 0 and 3).
    spec.fences = {0: [1, 4], 2: [4]}
    assert _meets(rs, spec, [(0, 1), (0, 3), (2, 0), (2, 3)], "C-R2")
    assert not _meets(rs, spec, [(0, 1), (2, 0), (2, 3)], "C-R2")


def test_plan_two_size_5_estates_without_zoorgs(rs):
    """ "Build 2 complete housing estates of size 5, each without any infiltrated Zoorgs.\""""
    spec = blank()
    spec.streets[0] = [str(i) for i in range(1, 11)]
    spec.fences = {0: [5]}
    assert _meets(rs, spec, [], "C-R3")
    assert not _meets(rs, spec, [(0, 6)], "C-R3")


def test_plan_all_zoorgs_of_a_street(rs):
    """ "In 1 street: all Zoorgs are infiltrated (there can be multiple in the same estate).\""""
    spec = blank()
    zoorgs = [(0, 1), (0, 3), (0, 6)]
    assert not _meets(rs, spec, zoorgs, "C-R4")
    assert _meets(rs, spec, [*zoorgs, (0, 8)], "C-R4")


def test_plan_three_columns_with_two_zoorgs(rs):
    """ "In 3 vertical columns of houses: at least 2 Zoorgs are infiltrated." Columns: house h of
    every street (column_offsets [0, 0, 0], reconstructed)."""
    spec = blank()
    two = [(0, 1), (1, 1), (0, 3), (2, 3)]
    assert not _meets(rs, spec, two, "C-R5")
    assert _meets(rs, spec, [*two, (0, 6), (2, 6)], "C-R5")
    assert not _meets(rs, spec, [*two, (0, 6), (2, 8)], "C-R5")


# --- AAA solo mode ---------------------------------------------------------------------------------


def _card(R, action: int, number: int = 10) -> int:
    for c in range(R[0, P_NCARDS]):
        if R[R_DECK_ACT, c] == action and R[R_DECK_NUM, c] >= number:
            return c
    raise AssertionError("no such card")


def test_aaa_upside_down_cards():
    """ "The first card you give to the AAA must be placed upside down ... each card given
    immediately after a Fence card must also be placed upside down"; "An upside-down card no longer
    follows its regular action but represents a house infiltrated by a Zoorg. For example, an
    upside-down Fence card does not represent a fence"; "the AAA earns 5 points for each
    upside-down card"; "each upside-down card represents 1 house"; "Do not take the upside-down
    cards into account for the remaining points (parks, pools, temp workers, fences)."""
    rs = load_ruleset(expansion="roswell", mode="solo", opponent="3")
    R = rs.kernel
    fence, park, ext, temp = (_card(R, a) for a in (FENCE, PARK, EXTENSION, TEMP))
    # park(up) fence park(up: after a fence) fence(face up) temp(up) -> 3 upside down
    cards = np.array([park, fence, park, fence, temp, park], dtype=np.int64)
    assert roswell.aaa_points(R, cards, len(cards)) == 3 * 5
    out = np.zeros(G_LEN, dtype=np.int64)
    aaa_score(R, cards, len(cards), 0, 0, out)
    opp = rs.opponent
    assert out[G_AAA_PARKS] == 1 * opp.park  # only the last park is face up
    assert out[G_AAA_FENCES] == 2 * opp.fence
    assert aaa_temp_cards(R, cards, len(cards)) == 0
    # Estates: [park(up)] | [park(up)] | [temp(up), park] -> 1, 1, 2 houses.
    assert out[G_AAA_N_ESTATES] == 3 and out[G_AAA_ESTATES] == 4
    # An upside-down Fence card is a house: the next card lies face up.
    cards2 = np.array([fence, ext, park], dtype=np.int64)
    assert roswell.aaa_points(R, cards2, 3) == 5
    out2 = np.zeros(G_LEN, dtype=np.int64)
    aaa_score(R, cards2, 3, 0, 0, out2)
    assert out2[G_AAA_FENCES] == 0 and out2[G_AAA_N_ESTATES] == 1
    assert out2[G_AAA_ESTATES] == 1 + max(1, opp.extension) + 1


def test_level_0_turns_nothing_over():
    """ "With a level 1 or higher AAA opponent": level 0 scores nothing and flips nothing."""
    rs = load_ruleset(expansion="roswell", mode="solo", opponent="0")
    R = rs.kernel
    cards = np.array([_card(R, PARK), _card(R, FENCE), _card(R, PARK)], dtype=np.int64)
    assert not roswell.upside(R, 0, NO_ACTION)
    assert aaa_temp_cards(R, cards, 3) == 0


def test_aaa_games_agree_with_the_referee():
    for lv in ("1", "5"):
        rs = load_ruleset(expansion="roswell", mode="solo", opponent=lv)
        res = simulate(rs, game_seeds(4, 60), 1, ["greedy"], log=True)
        assert check_batch(res) == []
        assert (res.game_column("aaa_expansion") >= 5).all()  # the first card at least


# --- modes, editions, data -------------------------------------------------------------------------


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
    rs = load_ruleset(edition, mode=mode, expansion="roswell", opponent=opp)
    for strat in ("greedy", "random", "first-fit", "spread"):
        res = simulate(rs, game_seeds(8, 15), players, [strat], log=True)
        assert check_batch(res) == []


def test_first_edition_solo_variant_is_refused():
    """Like Zombie Outbreak: the rules' solo part is written for the AAA opponent."""
    with pytest.raises(WelcomeSimError, match="AAA solo mode"):
        load_ruleset("first", mode="solo", expansion="roswell")


def test_first_edition_keeps_its_own_plans():
    rs = load_ruleset("first", expansion="roswell")
    assert not any(p.id.startswith("C-R") for p in rs.plans.plans)


class Infiltrator:
    """A Python strategy: the 9+ objective, a Zoorg whenever it can."""

    def objective(self, turn, n):
        return n - 1

    def choose(self, turn):
        for combo in range(len(turn.combos)):
            for s, h, number in turn.legal_placements(combo):
                if turn.saucers[s][h] and not turn.zoorgs[s][h] and number == turn.combos[combo][0]:
                    return Move(combo, s, h, number, "infiltrate", (s, h))
        for combo in range(len(turn.combos)):
            for s, h, number in turn.legal_placements(combo):
                if number == turn.combos[combo][0]:
                    return Move(combo, s, h, number)
        return None


def test_python_strategy_makes_both_decisions(rs):
    res = simulate(rs, game_seeds(5, 4), 1, [Infiltrator()], log=True)
    assert (res.out[:, 0, COL["objective"]] == 4).all()
    assert (res.out[:, 0, COL["zoorgs"]] > 3).all()
    assert check_batch(res) == []


def test_python_strategy_bad_infiltration_is_refused(rs):
    class Bad:
        def choose(self, turn):
            s, h, number = turn.legal_placements(0)[0]
            return Move(0, s, h, number, "infiltrate", (s, h + 1))

    with pytest.raises(WelcomeSimError, match="Zoorg"):
        simulate(rs, game_seeds(5, 1), 1, [Bad()])


def test_designer_copy_plays(tmp_path: Path, rs):
    src = Path(rs.expansion.path).read_text()
    mine = tmp_path / "my_roswell.toml"
    mine.write_text(src.replace("saucers = [\n", "saucers = [\n  [1, 1],\n"))
    rs2 = load_ruleset(expansion=str(mine))
    assert rs2.kernel[R_X_HOUSE + 0, 0] == 1
    res = simulate(rs2, game_seeds(6, 20), 2, ["random"], log=True)
    assert check_batch(res) == []


def test_data_file_says_what_is_reconstructed(rs):
    x = rs.expansion
    assert x.provenance == "reconstructed" and x.data["publisher_stars"] == 2
    text = Path(x.path).read_text()
    for word in ("saucers", "middle two objective ranges", "column_offsets", "Plan C"):
        assert word in text
    assert all(p.provenance == "reconstructed" for p in rs.plans.plans if p.letter == "C")


def test_roswell_table_of_the_report():
    """The report's Roswell table: per configuration and objective box, the share of players who
    chose it and their means of Zoorgs, infiltrated estates and points."""
    import polars as pl

    from welcome_sim.analysis.tables import roswell_outcomes

    lf = pl.LazyFrame(
        {
            "expansion": ["roswell"] * 4 + ["none"] * 2,
            "players": [2] * 6,
            "seed": [1, 1, 2, 2, 1, 1],
            "seat": [0, 1, 0, 1, 0, 1],
            "objective": [1, 2, 2, 2, 0, 0],
            "zoorgs": [3, 5, 4, 6, 0, 0],
            "infiltrated": [3, 4, 2, 5, 0, 0],
            "expansion_points": [12, 8, 4, 25, 0, 0],
        }
    )
    t = roswell_outcomes(lf, ["players"])
    assert t["objective"].to_list() == [1, 2]
    second = t.row(1, named=True)
    assert second["player_games"] == 3 and second["chosen_share"] == 0.75
    assert (
        second["zoorgs"] == 5.0 and second["infiltrated"] == 11 / 3 and second["expansion_points"] == 37 / 3
    )
    assert roswell_outcomes(lf.drop("zoorgs"), ["players"]).height == 0  # a sweep from before
    assert roswell_outcomes(lf.filter(pl.col("expansion") == "none"), ["players"]).height == 0


def test_columns_with_zoorgs_by_one_pass_equal_a_count_per_column(rs):
    """The column plan's count ("In 3 vertical columns of houses: at least 2 Zoorgs are
    infiltrated") takes one pass over the houses; it equals counting each column's Zoorgs."""
    R = rs.kernel
    rng = np.random.default_rng(19)
    seen = set()
    for _ in range(100):
        cells, flags, fences, sc = kernel_table(R, [blank()])
        for s in range(R[0, P_NSTREETS]):
            for h in range(R[R_STREET_LEN, s]):
                if rng.random() < 0.35:
                    flags[0, s, h] |= F_ZOORG
        per_column = [0] * 32
        for s in range(R[0, P_NSTREETS]):
            for h in range(R[R_STREET_LEN, s]):
                col = R[roswell.R_X_COLOUR + s, h]
                if flags[0, s, h] & F_ZOORG and 0 <= col < 32:
                    per_column[col] += 1
        for need in (1, 2, 3):
            got = roswell._columns(R, flags, 0, need)
            assert got == sum(z >= need for z in per_column)
            seen.add((need, got))
    assert {got for need, got in seen if need == 2} - {0}  # some columns reached two Zoorgs
