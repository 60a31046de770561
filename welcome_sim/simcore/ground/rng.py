"""A tiny deterministic RNG (splitmix64) for the kernel: one uint64 of state per game."""

from __future__ import annotations

import numpy as np

from welcome_sim.simcore.ground.jit import leaf

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S11 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(11)
_TWO53 = 9007199254740992.0


@leaf
def rng_next(state: np.ndarray) -> np.uint64:
    """Advance the state (uint64[1]) and return 64 random bits."""
    state[0] += _GOLDEN
    z = state[0]
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@leaf
def rng_below(state: np.ndarray, n: int) -> int:
    """Uniform integer in [0, n) (53-bit float multiply; bias below 2**-40 for n < 2**13)."""
    u = np.float64(rng_next(state) >> _S11) / _TWO53
    return int(u * n)


@leaf
def shuffle(state: np.ndarray, arr: np.ndarray, n: int) -> None:
    """Fisher-Yates shuffle of arr[:n] in place."""
    for i in range(n - 1, 0, -1):
        j = rng_below(state, i + 1)
        arr[i], arr[j] = arr[j], arr[i]
