"""The two compilation modes of the kernel.

`kernel` is plain `njit(cache=True)`. `leaf` is for small helpers that never allocate: it also
turns off Numba's reference counting inside them (`_nrt=False`). Numba's refcount pruning does not
remove the atomic increment/decrement pairs of array arguments in a callee that branches, which
made each call of a three-array legality check cost ~22 ns instead of under 1 ns (measured:
30 fence checks 654 ns -> 11 ns). Callers keep their arrays alive, so the leaf only borrows them.
"""

from __future__ import annotations

from numba import njit

kernel = njit(cache=True)
leaf = njit(cache=True, _nrt=False)
