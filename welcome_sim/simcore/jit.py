"""The two compilation modes of the kernel.

`kernel` is plain `njit(cache=True)`. `leaf` is for small helpers that never allocate: it also
turns off Numba's reference counting inside them (`_nrt=False`). Numba's refcount pruning does not
remove the atomic increment/decrement pairs of array arguments in a callee that branches, which
made each call of a three-array legality check cost ~22 ns instead of under 1 ns (measured:
30 fence checks 654 ns -> 11 ns). Callers keep their arrays alive, so the leaf only borrows them.
"""

from __future__ import annotations

from numba import njit, types


def _general(decorate):
    """decorate, but each function compiles once for the plain types of its arguments."""

    def wrap(fn):
        dispatcher = decorate(fn)
        typed = dispatcher.get_call_template

        def get_call_template(args, kws):
            # Numba types a constant argument of a call from compiled code as a literal and
            # compiles the callee once per literal value: combine() was compiled 11 times and
            # _log() 25 times. Plain types give one compile per function.
            plain = tuple(types.unliteral(a) for a in args)
            return typed(plain, {k: types.unliteral(v) for k, v in kws.items()})

        dispatcher.get_call_template = get_call_template
        return dispatcher

    return wrap


kernel = _general(njit(cache=True))
leaf = _general(njit(cache=True, _nrt=False))
# Inlined into their caller at Numba IR level: the game itself (into play_batch), the strategy
# dispatchers and greedy's decisions other than its move. Every compiled function's module links
# in its callees and re-optimizes them, so each of these as a function of its own re-optimized all
# of greedy's evaluation below it (2-8 s of compile each). Measured with them inlined: a cold
# compile takes about a quarter less CPU, greedy plays as fast, random one-player games 1.2x faster.
# Object mode cannot be inlined: Python strategies are called from small kernels of their own.
inlined = _general(njit(cache=True, inline="always"))
