"""game_seeds: the array computation gives exactly NumPy's per-game SeedSequence seeds."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.engine.game import game_seeds


def reference_seeds(seed: int, count: int, start: int = 0) -> np.ndarray:
    """The former game_seeds: one SeedSequence per game, its child keyed by the game index."""
    return np.array(
        [
            np.random.SeedSequence(seed, spawn_key=(start + i,)).generate_state(1, dtype=np.uint64)[0]
            for i in range(count)
        ],
        dtype=np.uint64,
    )


# Seeds of 1 to 5 words, with the word boundaries on both sides (a seed of fewer than 4 words is
# padded to 4, a longer one mixes its extra words after the pool's cross-mixing).
SEEDS = [
    0,
    1,
    12345,
    2**31,
    2**32 - 1,
    2**32,
    2**63,
    2**64 - 1,
    2**64,
    2**96 - 1,
    2**96,
    2**128 - 1,
    2**128,
    3**100,
]
# Game indices whose key has 1, 2 or 3 words, and runs that cross a 2**32 (or 2**64) boundary.
STARTS = [0, 1, 999, 2**32 - 4, 2**32, 2**40 - 1, 2**64 - 3, 2**64, 2**96 + 7]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("start", STARTS)
def test_equal_to_seedsequence_across_word_boundaries(seed: int, start: int) -> None:
    got = game_seeds(seed, 8, start=start)
    assert got.dtype == np.uint64
    assert got.shape == (8,)
    assert np.array_equal(got, reference_seeds(seed, 8, start))


@given(
    seed=st.integers(min_value=0, max_value=2**128 - 1),
    start=st.integers(min_value=0, max_value=2**40 - 1),
    count=st.integers(min_value=0, max_value=40),
)
@settings(max_examples=300, deadline=None)
def test_equal_to_seedsequence_for_any_seed_and_start(seed: int, start: int, count: int) -> None:
    assert np.array_equal(game_seeds(seed, count, start=start), reference_seeds(seed, count, start))


def test_a_long_run_equals_seedsequence_and_its_slices() -> None:
    whole = game_seeds(2026, 5000)
    assert np.array_equal(whole, reference_seeds(2026, 5000))
    # A chunk starting mid-way gives the same seeds as the same games of the whole run.
    assert np.array_equal(game_seeds(2026, 1234, start=1000), whole[1000:2234])
    assert len(np.unique(whole)) == 5000


def test_count_zero_and_one() -> None:
    empty = game_seeds(7, 0, start=2**35)
    assert empty.dtype == np.uint64
    assert empty.shape == (0,)
    one = game_seeds(7, 1, start=2**35)
    assert one.shape == (1,)
    assert int(one[0]) == int(reference_seeds(7, 1, 2**35)[0])


def test_numpy_integer_seed_and_start_give_the_python_int_seeds() -> None:
    assert np.array_equal(game_seeds(np.int64(99), 5, start=np.uint64(3)), game_seeds(99, 5, start=3))


def test_pinned_values() -> None:
    # Literal values (from NumPy 2.4's SeedSequence): a change on either side would show here even
    # if the reference and game_seeds changed together.
    assert game_seeds(0, 3).tolist() == [8668861027912758289, 4881901421217228719, 16452687389592421897]
    assert game_seeds(2**64 + 1, 2, start=2**33).tolist() == [10415705616226614032, 17306371216606602158]


def test_negative_seed_is_refused_naming_the_option() -> None:
    with pytest.raises(WelcomeSimError, match=r"--seed: must be a non-negative integer, got -1"):
        game_seeds(-1, 1)
    with pytest.raises(WelcomeSimError, match=r"--seed: must be a non-negative integer, got -5"):
        game_seeds(-5, 0)


def test_negative_start_is_refused() -> None:
    with pytest.raises(ValueError, match="start"):
        game_seeds(1, 3, start=-1)
