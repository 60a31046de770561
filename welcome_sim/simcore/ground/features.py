"""Compile-time switches of the kernel: what a compiled kernel includes.

Numba reads a module's globals as constants when it compiles a function and removes a branch
whose condition compares such constants before it types the branch's calls, so code behind a
switch that is off is never compiled. These values build the whole kernel (every expansion and
strategy); simcore/engine/variants.py compiles smaller kernels from the same functions with some switches
off (a base game with greedy players compiles in about half the time). Code behind a switch must
stay correct with it on: the switch decides what is compiled, never what a game does.
"""

from __future__ import annotations

# 1: the expansions' hooks dispatch to the expansions; 0: every hook does what it does without an
# expansion (a kernel that plays base games only).
EXPANSIONS = 1
# 1: every strategy dispatcher calls greedy for any seat (a kernel for greedy players only);
# 0: each seat's own strategy.
ONLY_GREEDY = 0
# 1: greedy's look-ahead player (look_moves >= 2) is compiled; 0: it is not.
LOOK_AHEAD = 1
