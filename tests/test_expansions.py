"""Expansion sheets (Easter Egg Hunt, Ice Cream Truck, Christmas Lights) and the 9¾ cards: each
rule on hand-built sheets, kernel and referee side by side, then whole games replayed."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from conftest import run_cli
from handsheets import Spec, kernel_table, referee_sheet

from welcome_sim.errors import WelcomeSimError
from welcome_sim.referee import load_rules
from welcome_sim.referee.plans import PlanError, check_plan
from welcome_sim.referee.readings.christmas import consecutive
from welcome_sim.referee.replay import IllegalMove
from welcome_sim.simcore.engine.game import game_seeds, simulate
from welcome_sim.simcore.ground.layout import BONUS_CIRCLED, BONUS_CROSSED, EXTENSION, TEMP
from welcome_sim.simcore.ground.numbers import code_value, number_code, number_text
from welcome_sim.simcore.ground.table import R_DECK_NUM, R_PLAN_STREET, R_X_SCORE
from welcome_sim.simcore.rules.expansions import christmas, easter, icecream
from welcome_sim.simcore.rules.expansions.hooks import x_value
from welcome_sim.simcore.rules.expansions.icecream import F_CONE_IN, F_CONE_OUT, SC_BONUS
from welcome_sim.simcore.rules.expansions.registry import OUT_COLUMNS, OUT_LEN
from welcome_sim.simcore.rules.plans import plan_check
from welcome_sim.simcore.rules.ruleset import load_ruleset
from welcome_sim.simcore.rules.scoring import score_table
from welcome_sim.simcore.rules.sheetops import apply_move, street_bounds, value_range
from welcome_sim.verify import check_batch, referee_rules

EXPANSIONS = ("easter", "icecream", "christmas")


def blank(**streets: list[str]) -> Spec:
    """A Classic sheet with the given streets (s0, s1, s2) and the others empty."""
    rows = [["."] * 10, ["."] * 11, ["."] * 12]
    for key, row in streets.items():
        i = int(key[1])
        rows[i] = row + ["."] * (len(rows[i]) - len(row))
    return Spec(streets=rows)


def kernel_scores(rs, spec: Spec) -> dict[str, int]:
    R = rs.kernel
    arrays = kernel_table(R, [spec])
    out = np.zeros((1, OUT_LEN), dtype=np.int64)
    score_table(R, *arrays, 1, out, -1)
    return dict(zip(OUT_COLUMNS, out[0].tolist(), strict=True))


def plan_index(rs, pid: str) -> int:
    return [p.id for p in rs.plans.plans].index(pid)


def both_plan(
    rs, rules, spec: Spec, pid: str, estates: list[tuple[int, int, int]] | None = None
) -> tuple[bool, bool]:
    """(kernel, referee) verdicts on a plan for this sheet."""
    R = rs.kernel
    cells, flags, fences, sc = kernel_table(R, [spec])
    k = plan_check(
        R, cells, flags, fences, sc, 0, plan_index(rs, pid), False, np.zeros((16, 3), dtype=np.int64)
    )
    sh = referee_sheet(rules, spec)
    plan = rules.plans[plan_index(rs, pid)]
    try:
        check_plan(sh, plan, estates or [], False)
        ref = True
    except PlanError:
        ref = False
    return k >= 0, ref


@pytest.fixture(scope="module")
def rulesets():
    return {
        x: (load_ruleset("collector", expansion=x), load_rules("collector", expansion=x)) for x in EXPANSIONS
    }


# --- numbers and the 9¾ cards ------------------------------------------------------------------


def test_number_codes_round_trip_and_order():
    assert number_code(9) == 18 and number_code(9.75) == 19 and number_code("9¾") == 19
    assert code_value(19) == 9.75 and number_text(19) == "9¾" and number_text(18) == "9"
    assert number_code(9) < number_code(9.75) < number_code(10)
    with pytest.raises(ValueError):
        number_code(9.5)


def test_nine_three_quarters_cards_join_the_deck():
    base = load_ruleset("collector")
    rs = load_ruleset("collector", nine=True)
    assert len(rs.deck.cards) == len(base.deck.cards) + 3 == 66
    codes = rs.kernel[R_DECK_NUM, : len(rs.deck.cards)]
    assert list(codes).count(number_code(9.75)) == 3
    assert "data/cards/nine_three_quarters.toml" in rs.reconstructed  # action faces reconstructed
    assert len(load_ruleset("first", nine=True).deck.cards) == 84


def test_nine_three_quarters_goes_between_9_and_10_only(rulesets):
    rs, rules = rulesets["easter"]
    spec = blank(s0=["1", ".", "9", ".", "10", ".", "12"])
    R = rs.kernel
    cells, flags, fences, sc = kernel_table(R, [spec])
    lo = np.zeros((3, 12), dtype=np.int64)
    hi = np.zeros((3, 12), dtype=np.int64)
    street_bounds(R, cells, 0, lo, hi)
    q = number_code(9.75)
    fits = [h for h in range(10) if cells[0, 0, h] == -1 and lo[0, h] < q < hi[0, h]]
    assert fits == [3]
    sh = referee_sheet(rules, spec)
    assert sh.can_write(0, 3, 9.75) is None and sh.can_write(0, 1, 9.75) is not None
    assert sh.can_write(0, 5, 9.75) is not None


def test_temp_worker_shifts_nine_three_quarters_to_seven_to_eleven_three_quarters(collector):
    sc = np.zeros((1, 40), dtype=np.int64)
    lo, hi = value_range(collector.kernel, sc, 0, number_code(9.75), TEMP)
    assert [number_text(v) for v in range(lo, hi + 1, 2)] == ["7¾", "8¾", "9¾", "10¾", "11¾"]


def test_the_referee_lets_a_temp_worker_shift_nine_three_quarters_only_to_three_quarters(rulesets):
    """003, 9¾ cards: "Temp worker Action: With this action, you can modify a 9¾ and get 7¾, 8¾,
    10¾, or 11¾." A 9 or a 10 from a 9¾ card is refused, and the message prints ¾ numbers as the
    sheets do."""
    from welcome_sim.referee.replay import _check_move

    _, rules = rulesets["easter"]
    temp = rules.actions.index("temp")
    combos = [(9.75, "temp")]

    def move(number: float) -> list[int]:
        # [_, round, player, kind, combination, street, house, number code, action, parameters]
        return [0, 1, 0, 0, 0, 0, 3, number_code(number), temp, -1, -1, -1]

    for wrong in (9, 10):
        sh = referee_sheet(rules, blank(s0=["1", ".", "9", ".", "10", ".", "12"]))
        with pytest.raises(IllegalMove, match=f"temp worker changes 9¾ by 1 or 2, not to {wrong}$"):
            _check_move(rules, sh, combos, move(wrong), 1)
    for right in (8.75, 10.75):
        sh = referee_sheet(rules, blank(s0=["1", ".", "8", ".", "11", ".", "12"]))
        assert _check_move(rules, sh, combos, move(right), 1).startswith(
            f"{number_text(number_code(right))} in street 1, house 4"
        )


def test_extension_copies_nine_three_quarters(rulesets):
    rs, _ = rulesets["christmas"]
    R = rs.kernel
    cells, flags, fences, sc = kernel_table(R, [blank(s0=["1", "9¾"])])
    mv = np.array([0, 0, 5, number_code(12), EXTENSION, 0, 1, 2], dtype=np.int64)
    apply_move(R, cells, flags, fences, sc, 0, mv)
    assert cells[0, 0, 2] == number_code(9.75)


# --- Easter Egg Hunt -----------------------------------------------------------------------------


def test_eggs_circled_by_loops(rulesets):
    rs, rules = rulesets["easter"]
    # Street 0 eggs: house 2 (1), 3 (2), 4 (1), 6 (1), 9 (1).
    spec = blank(s0=["0", "1", "6", "8", "9", ".", "10", ".", ".", "16"])
    k = kernel_scores(rs, spec)
    ref = referee_sheet(rules, spec).components(0)
    # 6 circles one of one; 8 circles two of two; 9 one; 10 one (house 6 has one egg); 16 one.
    assert k["eggs"] == ref["eggs"] == 6
    assert k["expansion_points"] == ref["expansion_points"] == 5  # 6 eggs: first threshold


def test_a_bis_collects_eggs_with_the_loops_of_the_copied_number(rulesets):
    """003, Easter: "Extension Action: This action also allows you to collect eggs by using the
    potential loops of the copied number. However, note that "B" does not allow you to circle eggs."
    """
    rs, rules = rulesets["easter"]
    # Street 0 eggs: house 2 (1), 3 (2), 4 (1). `. . 8 8B`: the 8 on house 2 circles its one egg, the
    # bis copies an 8 onto house 3 and circles both its eggs: 3 in all.
    spec = blank(s0=[".", ".", "8", "8B"])
    assert kernel_scores(rs, spec)["eggs"] == referee_sheet(rules, spec).components(0)["eggs"] == 3
    # A bis of a number without loops circles nothing: "B" itself is no loop.
    spec = blank(s0=[".", ".", "7", "7B"])
    assert kernel_scores(rs, spec)["eggs"] == referee_sheet(rules, spec).components(0)["eggs"] == 0
    # The copied number's loops, capped by the house's eggs: a 6B on the two-egg house circles one.
    spec = blank(s0=[".", ".", ".", "6B", "6"])
    assert kernel_scores(rs, spec)["eggs"] == referee_sheet(rules, spec).components(0)["eggs"] == 2


def test_every_egg_of_a_street_without_a_street_means_any_one_street(rulesets):
    """A card asking for every egg of "one street" without naming it is met by any one street
    with all its eggs (as Ice Cream's every cone of one street), not by no street at all."""
    rs, rules = rulesets["easter"]
    k = plan_index(rs, "C-E5")  # every egg of street 3
    R = rs.kernel.copy()
    R[R_PLAN_STREET, k] = -1
    loose = dataclasses.replace(rs, kernel=R)
    rules = dataclasses.replace(rules, plans=[dict(pl) for pl in rules.plans])
    rules.plans[k].pop("street", None)
    # Street 1's eggs: house 0 (2), 3 (1), 5 (1), 6 (2), 8 (1): all collected with 0, 6, 9, 10, 16.
    full_street_1 = {"s1": ["0", ".", ".", "6", ".", "9", "10", ".", "16"]}
    assert both_plan(loose, rules, blank(**full_street_1), "C-E5") == (True, True)
    assert both_plan(rs, rulesets["easter"][1], blank(**full_street_1), "C-E5") == (False, False)
    assert both_plan(loose, rules, blank(s1=["0", ".", ".", "6", ".", "7", "10", ".", "16"]), "C-E5") == (
        False,
        False,
    )
    assert both_plan(loose, rules, blank(), "C-E5") == (False, False)


def test_a_six_on_a_two_egg_house_collects_one_and_nine_three_quarters_like_a_nine(rulesets):
    rs, rules = rulesets["easter"]
    spec = blank(s0=[".", ".", ".", "6"], s1=[".", "1", ".", "9¾"])
    k = kernel_scores(rs, spec)
    assert k["eggs"] == referee_sheet(rules, spec).components(0)["eggs"] == 2


@pytest.mark.parametrize(("eggs", "points"), [(5, 0), (6, 5), (9, 5), (10, 10), (15, 20), (18, 35), (30, 35)])
def test_egg_thresholds(rulesets, eggs, points):
    rs, _ = rulesets["easter"]
    assert easter.egg_points(rs.kernel, eggs) == points


def test_easter_aaa_counts_eggs_on_six_eight_nine_ten_cards(rulesets):
    rs, rules = rulesets["easter"]
    R = load_ruleset("collector", mode="solo", opponent="1", expansion="easter", nine=True).kernel
    cards_by_number = {}
    deck = load_ruleset("collector", nine=True).deck.cards
    for i, (n, _) in enumerate(deck):
        cards_by_number.setdefault(n, i)
    # 6, 9, 9¾: one egg each; 8, 10: two each -> 7 eggs (threshold 6: 5 points).
    cards = np.array([cards_by_number[n] for n in (6, 9, 9.75, 8, 10, 3)], dtype=np.int64)
    assert easter.aaa_points(R, cards, len(cards)) == 5
    assert easter.aaa_points(R, cards, 4) == 0  # 5 eggs


# --- Ice Cream Truck -----------------------------------------------------------------------------


def _number(rs, cells, flags, sc, s, h, v):
    cells[0, s, h] = number_code(v)
    icecream.on_number(rs.kernel, cells, flags, sc, 0, s, h)


def test_truck_circles_where_it_stops_crosses_what_it_passes_and_never_goes_back(rulesets):
    rs, _ = rulesets["icecream"]
    cells, flags, fences, sc = kernel_table(rs.kernel, [blank()])
    # Street 0 cones at houses 0, 2, 4, 5, 7, 9; the truck drives left to right.
    _number(rs, cells, flags, sc, 0, 2, 3)  # stops at 2 (circled), passes 0 (crossed)
    assert flags[0, 0, 2] & F_CONE_IN and flags[0, 0, 0] & F_CONE_OUT
    _number(rs, cells, flags, sc, 0, 7, 8)  # passes 4 and 5
    assert flags[0, 0, 4] & F_CONE_OUT and flags[0, 0, 5] & F_CONE_OUT and flags[0, 0, 7] & F_CONE_IN
    _number(rs, cells, flags, sc, 0, 5, 6)  # behind the truck: nothing happens
    assert not flags[0, 0, 5] & F_CONE_IN


def test_second_street_truck_drives_right_to_left(rulesets):
    rs, _ = rulesets["icecream"]
    cells, flags, fences, sc = kernel_table(rs.kernel, [blank()])
    _number(rs, cells, flags, sc, 1, 8, 12)  # street 1 cones at 0, 1, 3, 4, 6, 8, 9: passes 9
    assert flags[0, 1, 8] & F_CONE_IN and flags[0, 1, 9] & F_CONE_OUT and not flags[0, 1, 6] & F_CONE_OUT


def test_delivery_bonus_shared_in_the_same_round_and_crossed_for_the_others(rulesets):
    rs, _ = rulesets["icecream"]
    R = rs.kernel
    cells, flags, fences, sc = kernel_table(R, [blank(), blank(), blank()])
    for p in (0, 1):  # both finish street 0 (last cone at house 9) in the same round
        cells[p, 0, 9] = number_code(15)
        icecream.on_number(R, cells, flags, sc, p, 0, 9)
    icecream.round_end(R, sc, 3)
    assert sc[0, SC_BONUS] == sc[1, SC_BONUS] == BONUS_CIRCLED and sc[2, SC_BONUS] == BONUS_CROSSED
    cells[2, 0, 9] = number_code(15)
    icecream.on_number(R, cells, flags, sc, 2, 0, 9)
    icecream.round_end(R, sc, 3)
    assert sc[2, SC_BONUS] == BONUS_CROSSED  # too late: it cannot be obtained afterwards


def test_ice_cream_scoring_with_the_bonus(rulesets):
    rs, _ = rulesets["icecream"]
    R = rs.kernel
    cells, flags, fences, sc = kernel_table(R, [blank()])
    for h, v in ((0, 1), (2, 3), (4, 5), (5, 6), (7, 8), (9, 12)):
        _number(rs, cells, flags, sc, 0, h, v)  # every cone of street 0: 1+2+3+1+2+1 scoops
    icecream.round_end(R, sc, 1)
    row = np.zeros(OUT_LEN, dtype=np.int64)
    icecream.score(R, cells, flags, sc, 0, row)
    assert row[OUT_COLUMNS.index("cones")] == 6
    assert row[OUT_COLUMNS.index("delivery_bonus")] == 6
    assert row[OUT_COLUMNS.index("expansion_points")] == 10 + 6


# --- Christmas Lights ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "joined"),
    [
        (7, 8, True),
        (7, 9, False),
        (7, 7, True),
        (9, 9.75, True),
        (8, 9.75, True),
        (9.75, 10, True),
        (7, 9.75, False),
        (9.75, 11, False),
        (9.75, 9.75, True),
    ],
)
def test_consecutive_numbers_kernel_and_referee(a, b, joined):
    assert christmas.linked(number_code(a), number_code(b)) is joined
    assert consecutive(a, b) is joined


def test_longest_string_per_street_and_roundabouts_break_it(rulesets):
    rs, rules = rulesets["christmas"]
    spec = blank(
        s0=["1", "2", "3", ".", "5", "6"], s1=["3", "4", "4B", "5", "9", "10"], s2=["1", "2", "R", "3", "4"]
    )
    k = kernel_scores(rs, spec)
    ref = referee_sheet(rules, spec).components(0)
    assert k["lights"] == ref["lights"] == 3 + 4 + 2
    assert k["expansion_points"] == ref["expansion_points"] == 9


def test_christmas_aaa_counts_cards_between_first_and_last_fence(rulesets):
    R = load_ruleset("collector", mode="solo", opponent="2", expansion="christmas").kernel
    deck = load_ruleset("collector").deck.cards
    fence = next(i for i, c in enumerate(deck) if c[1] == 0)
    park = next(i for i, c in enumerate(deck) if c[1] == 2)
    cards = np.array([park, fence, park, park, fence, park], dtype=np.int64)
    assert christmas.aaa_points(R, cards, len(cards)) == 2


# --- Plan C cards: kernel and referee ----------------------------------------------------------


@pytest.mark.parametrize(
    ("x", "pid", "streets", "fences", "estates", "met"),
    [
        # Easter C-E1: two size-3 estates with 3+ eggs each (street 0 houses 2-4: 1+2+1 eggs).
        (
            "easter",
            "C-E1",
            {"s0": [".", ".", "6", "8", "10"], "s2": [".", ".", ".", "8", "10", "16"]},
            {0: [2, 5], 2: [3, 6]},
            [(0, 2, 4), (2, 3, 5)],
            True,
        ),
        (
            "easter",
            "C-E1",
            {"s0": [".", ".", "6", "8", "10"], "s2": [".", ".", ".", "3", "4", "5"]},
            {0: [2, 5], 2: [3, 6]},
            [(0, 2, 4), (2, 3, 5)],
            False,
        ),
        (
            "easter",
            "C-E2",
            {"s0": ["1", "2", "3", "4", "5", "7", "11", "12", "13"]},
            {0: [2, 5, 9]},
            [(0, 0, 1), (0, 2, 4), (0, 5, 8)],
            True,
        ),
        ("easter", "C-E5", {"s2": [".", ".", "6", ".", "8", "9", ".", "10", ".", "16"]}, {}, [], True),
        ("easter", "C-E5", {"s2": [".", ".", "6", ".", "9", "9B", ".", "10", ".", "16"]}, {}, [], False),
        ("christmas", "C-X4", {"s2": [str(v) for v in range(12)]}, {}, [], True),
        ("christmas", "C-X4", {"s2": [str(v) for v in range(11)] + ["13"]}, {}, [], False),
        (
            "christmas",
            "C-X1",
            {"s0": ["1", "2", "3", "5", "6", "7", "9", "10", "11"]},
            {0: [3, 6, 9]},
            [(0, 0, 2), (0, 3, 5), (0, 6, 8)],
            True,
        ),
        (
            "christmas",
            "C-X3",
            {"s0": ["1", "3", "5", "7", "9", "11"]},
            {0: [3, 6]},
            [(0, 0, 2), (0, 3, 5)],
            True,
        ),
        (
            "christmas",
            "C-X3",
            {"s0": ["1", "2", "5", "7", "9", "11"]},
            {0: [3, 6]},
            [(0, 0, 2), (0, 3, 5)],
            False,
        ),
    ],
)
def test_expansion_plans_kernel_and_referee_agree(rulesets, x, pid, streets, fences, estates, met):
    rs, rules = rulesets[x]
    spec = blank(**streets)
    spec.fences = fences
    k, ref = both_plan(rs, rules, spec, pid, estates)
    assert k is met and ref is met


def test_expansion_plans_replace_plan_c_only_in_the_collectors_edition():
    rs = load_ruleset("collector", expansion="icecream")
    ids = {p.id for p in rs.plans.plans}
    assert {f"C-I{i}" for i in range(1, 6)} <= ids and "C-1" not in ids and "A-1" in ids
    adv = load_ruleset("collector", mode="advanced", expansion="icecream")
    assert all(p.letter != "C" or p.id.startswith("C-I") for p in adv.plans.plans)
    first = load_ruleset("first", expansion="icecream")  # the first edition's board has its own n°3
    assert not any(p.id.startswith("C-I") for p in first.plans.plans)
    assert [p.id for p in first.plans.plans if p.letter == "3"] == [f"3-icecream-{i}" for i in (1, 2, 3)]


# --- whole games: the referee replays every move and score -----------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("x", [*EXPANSIONS, "none"])
def test_referee_bulk_expansions_with_and_without_nine(x):
    for ed, modes in (
        ("collector", ("standard", "expert", "solo-advanced")),
        ("first", ("standard", "solo")),
    ):
        for mode in modes:
            players = 1 if mode.startswith("solo") else 2
            for nine in (False, True):
                rs = load_ruleset(
                    ed,
                    mode=mode,
                    expansion=x,
                    nine=nine,
                    opponent="3" if ed == "collector" and mode.startswith("solo") else None,
                )
                res = simulate(rs, game_seeds(21, 500), players, ["greedy"], log=True)
                assert check_batch(res) == []


def test_greedy_values_the_expansion(rulesets):
    rs, _ = rulesets["icecream"]
    seeds = game_seeds(4, 300)
    with_x = simulate(rs, seeds, 1, ["greedy"]).column("expansion_points").mean()
    blind = simulate(rs, seeds, 1, ["greedy:expansion=0"]).column("expansion_points").mean()
    assert with_x > blind + 3  # valuing cones circles clearly more of them


# --- errors and the CLI --------------------------------------------------------------------------


def test_unknown_expansion_and_wrong_sheet_are_clear_errors():
    with pytest.raises(WelcomeSimError, match=r"--expansion: unknown expansion 'werewolves'.*easter"):
        load_ruleset("collector", expansion="werewolves")
    with pytest.raises(WelcomeSimError, match="--sheet: the Easter Egg Hunt is played on its own sheet"):
        load_ruleset("collector", sheet="blueprint", expansion="easter")


def test_cli_play_with_an_expansion_and_nine_three_quarters():
    r = run_cli("play", "--seed", "3", "--expansion", "christmas", "--nine-three-quarters")
    assert r.returncode == 0, r.stderr
    assert "lit houses" in r.stdout  # the score card shows the expansion's strings
    assert (
        "expansion Christmas Lights" in r.stdout
        and "9¾" in r.stdout
        and "referee: every move legal" in r.stdout
    )
    bad = run_cli("play", "--expansion", "zombie")
    assert bad.returncode == 2 and "--expansion: unknown expansion 'zombie'" in bad.stderr


def test_referee_rules_follow_the_ruleset():
    rs = load_ruleset("collector", expansion="easter", nine=True)
    rules = referee_rules(rs)
    assert rules.expansion.name == "easter" and rules.nine and len(rules.cards) == 66


def test_christmas_strings_in_one_pass_equal_the_two_counts(rulesets):
    """Greedy's Christmas valuation counts a street's longest string and its joined pairs in one
    pass; both equal counts made from the joined pairs apart, and estate_links over the street."""
    rs, _ = rulesets["christmas"]
    R = rs.kernel
    rng = np.random.default_rng(23)
    seen = set()
    for _ in range(200):
        cells, flags, fences, sc = kernel_table(R, [blank()])
        for s in range(3):
            n = len(blank().streets[s])
            v = int(rng.integers(0, 6))
            for h in range(n):
                r = rng.random()
                if r < 0.55:  # mostly rising by one: strings form
                    v += 2 if rng.random() < 0.8 else 3
                    cells[0, s, h] = min(v, 34)
                elif r < 0.6:
                    cells[0, s, h] = -2  # a roundabout
            joined = [christmas.linked(cells[0, s, h - 1], cells[0, s, h]) for h in range(1, n)]
            longest = run = 0
            for j in joined:
                run = run + 1 if j else 0
                longest = max(longest, run)
            best, links = christmas._strings(R, cells, 0, s)
            assert best == (longest + 1 if longest else 0) == christmas.street_best(R, cells, 0, s)
            assert links == sum(joined) == christmas.estate_links(R, cells, 0, s, 0, n, False)
            seen.add((best, links))
    assert max(b for b, _ in seen) >= 4 and len(seen) > 10


def _random_numbers(R, rng):
    """A one-player Classic sheet whose numbers mostly rise by one (strings, eggs on loops) with
    a few roundabouts."""
    cells, flags, fences, sc = kernel_table(R, [blank()])
    for s in range(3):
        v = int(rng.integers(0, 6))
        for h in range(len(blank().streets[s])):
            r = rng.random()
            if r < 0.55:
                v += 2 if rng.random() < 0.8 else 3
                cells[0, s, h] = min(v, 34)
            elif r < 0.6:
                cells[0, s, h] = -2
    return cells, flags, fences, sc


def test_street_parts_sum_to_the_plain_valuations(rulesets):
    """Greedy keeps Easter's eggs and Christmas's strings per street (street_part); the sheet
    value from the parts equals the valuations as first written: Easter's egg points interpolated
    from the sheet's egg count, Christmas's longest string and LINK_WORTH per other joined pair
    added street by street, two additions a street (its parts are quarters: exact in any order)."""
    rng = np.random.default_rng(29)
    re, rc = rulesets["easter"][0].kernel, rulesets["christmas"][0].kernel
    for _ in range(300):
        cells, flags, fences, sc = _random_numbers(re, rng)
        eggs = easter.total_eggs(re, cells, flags, 0)
        k, prev_t, prev_p = re[R_X_SCORE, 0], 0, 0
        plain = None
        for i in range(k):
            t, pt = re[R_X_SCORE, 1 + i], re[R_X_SCORE, 1 + k + i]
            if eggs < t:
                plain = prev_p + (pt - prev_p) * (eggs - prev_t) / (t - prev_t)
                break
            prev_t, prev_p = t, pt
        plain = float(prev_p) if plain is None else plain
        assert x_value(re, cells, flags, fences, sc, 0) == plain
        cells, flags, fences, sc = _random_numbers(rc, rng)
        plain = 0.0
        for s in range(3):
            best, links = christmas._strings(rc, cells, 0, s)
            plain += best * rc[R_X_SCORE, 0]
            plain += christmas.LINK_WORTH * (links - (best - 1 if best > 0 else 0))
        assert x_value(rc, cells, flags, fences, sc, 0) == plain
