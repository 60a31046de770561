"""Each rule of the base game on hand-built sheets: kernel predicates and the referee agree."""

from __future__ import annotations

import numpy as np
import pytest
from handsheets import Spec, empty_spec, kernel_table, referee_sheet

from welcome_sim.simcore.ground.layout import (
    B_FENCE,
    EXTENSION,
    F_EXT,
    F_LOCK,
    FENCE,
    PARK,
    SC_EXT,
    SC_IMPR,
    SC_PARK,
    SC_POOLS,
    SC_TEMPS,
    TEMP,
)
from welcome_sim.simcore.ground.numbers import number_code
from welcome_sim.simcore.ground.table import R_PLAN_NEED
from welcome_sim.simcore.rules.plans import plan_check
from welcome_sim.simcore.rules.sheetops import (
    apply_move,
    estate_counts,
    extension_ok,
    fence_ok,
    improvement_ok,
    park_ok,
    pool_ok,
    street_bounds,
    temp_ok,
    value_range,
)

STREET0 = ["1", ".", "5", ".", ".", "9", ".", ".", ".", "14"]


def plan_satisfied(R, cells, flags, fences, sc, p, plan) -> bool:
    """The plan could be validated now."""
    return plan_check(R, cells, flags, fences, sc, p, plan, False, np.zeros((16, 3), dtype=np.int64)) >= 0


def sheet(ruleset, spec: Spec):
    R = ruleset.kernel
    cells, flags, fences, sc = kernel_table(R, [spec])
    lo = np.zeros((3, 12), dtype=np.int64)
    hi = np.zeros((3, 12), dtype=np.int64)
    street_bounds(R, cells, 0, lo, hi)
    return R, cells, flags, fences, sc, lo, hi


def fits(lo, hi, cells, s, h, v) -> bool:
    """Number v (9.75 for a 9¾) may go in house (s, h)."""
    return bool(cells[0, s, h] == -1 and lo[s, h] < number_code(v) < hi[s, h])


@pytest.mark.parametrize(
    ("house", "value", "ok"),
    [
        (1, 2, True),  # between 1 and 5
        (1, 5, False),  # not strictly increasing
        (1, 1, False),
        (3, 6, True),  # houses may be skipped
        (4, 8, True),
        (3, 9, False),
        (6, 10, True),
        (8, 13, True),
        (8, 14, False),
        (0, 0, False),  # house already numbered
        (2, 7, False),
    ],
)
def test_numbering_is_strictly_increasing_in_any_empty_house(collector, ref_collector, house, value, ok):
    spec = Spec(streets=[STREET0, ["."] * 11, ["."] * 12])
    R, cells, flags, fences, sc, lo, hi = sheet(collector, spec)
    assert fits(lo, hi, cells, 0, house, value) is ok
    assert (referee_sheet(ref_collector, spec).can_write(0, house, value) is None) is ok


def test_streets_are_independent(collector):
    spec = Spec(streets=[STREET0, ["."] * 11, ["."] * 12])
    R, cells, flags, fences, sc, lo, hi = sheet(collector, spec)
    assert fits(lo, hi, cells, 1, 0, 5)  # 5 is already in street 1, but street 2 is free


def test_temp_worker_range_is_clamped_to_0_and_17(collector):
    spec = empty_spec()
    R, cells, flags, fences, sc, *_ = sheet(collector, spec)
    c = number_code  # the kernel works on codes: twice the number, odd for a ¾ number
    assert value_range(R, sc, 0, c(8), TEMP) == (c(6), c(10))
    assert value_range(R, sc, 0, c(1), TEMP) == (c(0), c(3))
    assert value_range(R, sc, 0, c(15), TEMP) == (c(13), c(17))
    assert value_range(R, sc, 0, c(9.75), TEMP) == (c(7.75), c(11.75))  # 7¾..11¾
    assert value_range(R, sc, 0, c(8), FENCE) == (c(8), c(8))  # other actions never change the number
    sc[0, SC_TEMPS] = 11  # all 11 boxes crossed: no more temp workers
    assert not temp_ok(R, sc, 0)
    assert value_range(R, sc, 0, c(8), TEMP) == (c(8), c(8))


def test_fences_anywhere_between_two_houses_but_not_twice_nor_at_the_ends(collector):
    spec = Spec(streets=[STREET0, ["."] * 11, ["."] * 12], fences={0: [3]})
    R, cells, flags, fences, sc, *_ = sheet(collector, spec)
    assert fence_ok(R, flags, fences, 0, 0, 1)  # between numbered and empty houses alike
    assert fence_ok(R, flags, fences, 0, 2, 11)
    assert not fence_ok(R, flags, fences, 0, 0, 3)  # already there
    assert not fence_ok(R, flags, fences, 0, 0, 0)  # street ends are fenced from the start
    assert not fence_ok(R, flags, fences, 0, 0, 10)
    assert not fence_ok(R, flags, fences, 0, 2, 12)


def test_estates_used_for_a_plan_are_locked_against_fences_and_other_plans(collector, ref_collector):
    spec = Spec(
        streets=[["1", "2", "3", "4", ".", ".", ".", ".", ".", "."], ["."] * 11, ["."] * 12],
        fences={0: [4]},
    )
    R, cells, flags, fences, sc, *_ = sheet(collector, spec)
    counts = np.zeros(7, dtype=np.int64)
    plan_44 = next(i for i, p in enumerate(collector.plans.plans) if p.estates == (4, 4))
    plan_4111 = next(i for i, p in enumerate(collector.plans.plans) if p.estates == (4, 1, 1, 1))
    plan_single4 = [i for i, p in enumerate(collector.plans.plans) if 4 in p.estates]
    assert not plan_satisfied(R, cells, flags, fences, sc, 0, plan_44)  # only one size-4 estate
    estate_counts(R, cells, flags, fences, 0, counts, True)
    assert counts[4] == 1
    used = np.zeros((16, 3), dtype=np.int64)
    # Lock the size-4 estate as if validating a plan that needs one estate of 4.
    R2 = R.copy()
    R2[R_PLAN_NEED : R_PLAN_NEED + 7, plan_single4[0]] = 0
    R2[R_PLAN_NEED + 4, plan_single4[0]] = 1
    assert plan_check(R2, cells, flags, fences, sc, 0, plan_single4[0], True, used) == 1
    assert used[0].tolist() == [0, 0, 3]
    assert all(flags[0, 0, h] & F_LOCK for h in range(4))
    for b in (1, 2, 3):
        assert not fence_ok(R, flags, fences, 0, 0, b)  # cannot divide a used estate
    assert fence_ok(R, flags, fences, 0, 0, 5)
    estate_counts(R, cells, flags, fences, 0, counts, True)
    assert counts[4] == 0  # no longer available to another plan
    assert not plan_satisfied(R, cells, flags, fences, sc, 0, plan_4111)
    estate_counts(R, cells, flags, fences, 0, counts, False)
    assert counts[4] == 1  # but it still scores at the end


def test_improvements_go_up_each_column_until_it_is_full(collector):
    R, cells, flags, fences, sc, *_ = sheet(collector, empty_spec())
    assert improvement_ok(R, sc, 0, 0)
    sc[0, SC_IMPR + 0] = 1  # size 1: 1 -> 3, the only box
    assert not improvement_ok(R, sc, 0, 0)
    sc[0, SC_IMPR + 5] = 3
    assert improvement_ok(R, sc, 0, 5)
    sc[0, SC_IMPR + 5] = 4  # size 6: 6, 7, 8, 10, 12 -> four boxes
    assert not improvement_ok(R, sc, 0, 5)
    assert not improvement_ok(R, sc, 0, 6)


def test_parks_in_the_numbered_street_until_its_track_is_full(collector):
    R, cells, flags, fences, sc, *_ = sheet(collector, empty_spec())
    sc[0, SC_PARK + 0] = 3  # street 1: 0, 2, 4, 10 -> three boxes
    assert not park_ok(R, sc, 0, 0)
    assert park_ok(R, sc, 0, 1)
    mv = np.array([0, 1, 4, number_code(7), PARK, -1, -1, -1], dtype=np.int64)
    apply_move(R, cells, flags, fences, sc, 0, mv)
    assert sc[0, SC_PARK + 1] == 1


def test_pools_only_on_pool_houses(collector, ref_collector):
    R, cells, flags, fences, sc, *_ = sheet(collector, empty_spec())
    pools = {0: [2, 6, 7], 1: [0, 3, 7], 2: [1, 6, 10]}
    for s, houses in pools.items():
        for h in range(int(R[1, s])):
            assert pool_ok(R, flags, sc, 0, s, h) is (h in houses)
        assert ref_collector.pool_houses[s] == set(houses)
    sc[0, SC_POOLS] = 9
    assert not pool_ok(R, flags, sc, 0, 0, 2)  # the 9 pool boxes are all crossed


def test_extension_copies_a_neighbour_into_an_adjacent_empty_house(collector, first):
    spec = Spec(
        streets=[["1", ".", "5", ".", ".", "9", ".", ".", ".", "14"], ["."] * 11, ["."] * 12], fences={0: [3]}
    )
    for ruleset in (collector, first):
        R, cells, flags, fences, sc, *_ = sheet(ruleset, spec)
        assert extension_ok(R, cells, fences, sc, 0, 0, 0, 1)  # 1 -> 1B on its right
        assert extension_ok(R, cells, fences, sc, 0, 0, 2, 1)  # 5 -> 5B on its left
        assert not extension_ok(R, cells, fences, sc, 0, 0, 0, 2)  # not adjacent
        assert not extension_ok(R, cells, fences, sc, 0, 0, 1, 0)  # source must be numbered
        assert not extension_ok(R, cells, fences, sc, 0, 0, 9, 10)  # off the street
    # Across the fence between houses 3 and 4 (boundary 3): allowed in the Collector's Edition...
    R, cells, flags, fences, sc, *_ = sheet(collector, spec)
    assert extension_ok(R, cells, fences, sc, 0, 0, 2, 3)
    # ...but a first-edition bis must stay in its twin's estate.
    R, cells, flags, fences, sc, *_ = sheet(first, spec)
    assert not extension_ok(R, cells, fences, sc, 0, 0, 2, 3)


def test_first_edition_bis_link_forbids_a_later_fence(collector, first):
    spec = Spec(streets=[STREET0, ["."] * 11, ["."] * 12])
    for ruleset, fence_after in ((collector, True), (first, False)):
        R, cells, flags, fences, sc, *_ = sheet(ruleset, spec)
        # Write 12 in house index 7 and copy the 9 (index 5) into the empty index 6.
        mv = np.array([0, 0, 7, number_code(12), EXTENSION, 0, 5, 6], dtype=np.int64)
        apply_move(R, cells, flags, fences, sc, 0, mv)
        assert cells[0, 0, 6] == number_code(9) and flags[0, 0, 6] & F_EXT and sc[0, SC_EXT] == 1
        assert fence_ok(R, flags, fences, 0, 0, 6) is fence_after


def test_extension_track_limits_the_number_of_bis(collector):
    R, cells, flags, fences, sc, *_ = sheet(collector, Spec(streets=[STREET0, ["."] * 11, ["."] * 12]))
    sc[0, SC_EXT] = 9  # track 0, 1, 3, ..., 28: nine boxes
    assert not extension_ok(R, cells, fences, sc, 0, 0, 0, 1)


def test_fence_move_is_recorded(collector):
    R, cells, flags, fences, sc, *_ = sheet(collector, empty_spec())
    mv = np.array([0, 2, 3, number_code(4), FENCE, 1, 5, -1], dtype=np.int64)
    apply_move(R, cells, flags, fences, sc, 0, mv)
    assert cells[0, 2, 3] == number_code(4)
    assert fences[0, 1, 5] & B_FENCE
