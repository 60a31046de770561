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
# Rare paths of the game loop that call a strategy (Zombie cards): inlined into their caller at
# Numba IR level. As functions of their own, each would link and re-optimize the whole strategy
# code below it (every compiled function's module takes in its callees): about 8 s of compile each.
inlined = njit(cache=True, inline="always")
