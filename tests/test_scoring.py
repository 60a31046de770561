"""Final scoring on hand-built sheets, by the kernel and by the referee."""

from __future__ import annotations

import numpy as np
import pytest
from handsheets import LYON, LYON_EXPECTED, LYON_TABLE, Spec, empty_spec, kernel_table, referee_sheet
from hypothesis import given
from hypothesis import strategies as st

from welcome_sim.referee import majority_points
from welcome_sim.simcore.ground.layout import O_RANK
from welcome_sim.simcore.rules.expansions.registry import OUT_COLUMNS, OUT_LEN
from welcome_sim.simcore.rules.scoring import rank_table, score_table, temp_majority_points


def kernel_scores(ruleset, specs: list[Spec]) -> list[dict[str, int]]:
    R = ruleset.kernel
    cells, flags, fences, sc = kernel_table(R, specs)
    out = np.zeros((len(specs), OUT_LEN), dtype=np.int64)
    score_table(R, cells, flags, fences, sc, len(specs), out, -1)
    return [dict(zip(OUT_COLUMNS, map(int, row), strict=True)) for row in out]


def referee_scores(rules, specs: list[Spec]) -> list[dict[str, int]]:
    temps = majority_points([s.temps for s in specs], rules.majority)
    return [referee_sheet(rules, s).components(t) for s, t in zip(specs, temps, strict=True)]


@pytest.mark.parametrize("engine", ["kernel", "referee"])
def test_lyon_estates_scores_83_component_by_component(engine, collector, ref_collector):
    scores = (
        kernel_scores(collector, LYON_TABLE)
        if engine == "kernel"
        else referee_scores(ref_collector, LYON_TABLE)
    )[0]
    got = {k: scores[k] for k in LYON_EXPECTED if k != "plans"}
    got["plans"] = scores["plan_a"] + scores["plan_b"] + scores["plan_c"]
    assert got == LYON_EXPECTED
    # The estates line of the score card: sizes 1..6 -> 2, 2, 1, 3, 1, 0 complete estates.
    assert [scores[f"n_estate_{i}"] for i in range(1, 7)] == [2, 2, 1, 3, 1, 0]


def test_lyon_alone_takes_first_place_on_temps(collector):
    # With no opponent, its 2 temp workers are the most: 7 points instead of 1.
    assert kernel_scores(collector, [LYON])[0]["temps"] == 7
    assert kernel_scores(collector, [LYON])[0]["total"] == 83 - 1 + 7


def test_majority_example_from_rulebook(collector, ref_collector):
    # Alice and Bob 5 temps: 7 each; Cindy 1: second place, 4; Danny none: 0.
    temps = np.array([5, 5, 1, 0], dtype=np.int64)
    pts = np.zeros(4, dtype=np.int64)
    temp_majority_points(collector.kernel, temps, 4, pts)
    assert pts.tolist() == [7, 7, 4, 0]
    assert majority_points([5, 5, 1, 0], ref_collector.majority) == [7, 7, 4, 0]


@given(st.lists(st.integers(min_value=0, max_value=11), min_size=1, max_size=8))
def test_majority_kernel_equals_referee(temps):
    from welcome_sim.simcore.rules.ruleset import load_ruleset

    R = load_ruleset("collector").kernel
    arr = np.array(temps, dtype=np.int64)
    pts = np.zeros(len(temps), dtype=np.int64)
    temp_majority_points(R, arr, len(temps), pts)
    expected = majority_points(temps, [7, 4, 1])
    assert pts.tolist() == expected
    # Property: more temp workers never score fewer points.
    for a, b in zip(temps, pts.tolist(), strict=True):
        for c, d in zip(temps, pts.tolist(), strict=True):
            if a > c:
                assert b >= d


def test_incomplete_and_oversized_estates_score_nothing(collector, ref_collector):
    spec = Spec(
        streets=[
            ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"],  # one estate of 10: nothing
            ["1", "2", ".", "4", "5", "6", "7", "8", "9", "10", "11"],
            ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"],
        ],
        fences={1: [3], 2: [6]},  # street 1: [1 2 .] incomplete; street 2: two estates of 6
    )
    k = kernel_scores(collector, [spec])[0]
    r = referee_scores(ref_collector, [spec])[0]
    assert k["estates"] == r["estates"] == 12  # two size-6 estates at 6 each
    assert k["n_estates"] == r["n_estates"] == 2


def test_every_track_reads_its_lowest_visible_value(collector):
    spec = empty_spec()
    spec.parks = [3, 4, 5]  # full tracks: 10 + 14 + 18
    spec.pools = [(0, 2), (0, 6), (0, 7), (1, 0), (1, 3), (1, 7), (2, 1), (2, 6), (2, 10)]
    spec.refusals = 2
    s = kernel_scores(collector, [spec])[0]
    assert (s["parks"], s["pools"], s["refusal_penalty"]) == (42, 36, 3)
    assert s["total"] == 42 + 36 - 3


def _ranks(ruleset, totals, estates, sizes=None):
    n = len(totals)
    out = np.zeros((n, OUT_LEN), dtype=np.int64)
    for p in range(n):
        out[p, OUT_COLUMNS.index("total")] = totals[p]
        out[p, OUT_COLUMNS.index("n_estates")] = estates[p]
        for i, v in enumerate((sizes or [[0] * 6] * n)[p]):
            out[p, OUT_COLUMNS.index(f"n_estate_{i + 1}")] = v
    rank_table(ruleset.kernel, n, out)
    return out[:, O_RANK].tolist()


def test_tie_break_on_complete_estates_then_shared(collector):
    assert _ranks(collector, [50, 50, 40], [4, 6, 9]) == [2, 1, 3]
    assert _ranks(collector, [50, 50], [5, 5]) == [1, 1]  # shared victory


def test_first_edition_tie_break_goes_on_to_estate_sizes(collector, first):
    sizes = [[1, 2, 0, 0, 0, 0], [2, 1, 0, 0, 0, 0]]
    assert _ranks(first, [50, 50], [3, 3], sizes) == [2, 1]  # more size-1 estates wins
    assert _ranks(collector, [50, 50], [3, 3], sizes) == [1, 1]  # Collector's: shared
