"""The kernel's compile helpers (simcore/ground/jit.py): the IR inliner's block copies share one memo per
IR, and inlined code still computes what it did."""

from __future__ import annotations

import gc

import numpy as np
from numba import njit
from numba.core import event, inline_closurecall
from numba.core.compiler import run_frontend

from welcome_sim.simcore.ground import jit


def _branchy(x):
    total = 0
    for i in range(x):
        if i % 3 == 0:
            total += i
        elif i % 3 == 1:
            total -= 1
        else:
            total *= 2
    return total


def test_the_inliner_copies_through_the_shared_memo() -> None:
    assert isinstance(inline_closurecall.copy, jit._InlineCopy)


def test_one_copy_of_an_ir_has_one_scope_and_leaves_the_original_alone() -> None:
    fir = run_frontend(_branchy)
    assert len(fir.blocks) > 3
    copier = jit._InlineCopy()
    copies = {label: copier.deepcopy(block) for label, block in fir.blocks.items()}
    scopes = {id(b.scope) for b in copies.values()}
    assert len(scopes) == 1
    assert scopes.isdisjoint({id(b.scope) for b in fir.blocks.values()})
    # A second copy of the same IR is a copy of its own, not the first one again.
    again = {label: copier.deepcopy(block) for label, block in fir.blocks.items()}
    assert all(again[k] is not copies[k] for k in copies)
    # Changing a copy leaves the original as it was.
    label = next(iter(copies))
    before = len(fir.blocks[label].body)
    copies[label].body.clear()
    assert len(fir.blocks[label].body) == before


def test_inlined_code_computes_what_plain_python_does() -> None:
    inner = njit(inline="always")(_branchy)

    @njit
    def outer(xs):
        out = np.empty(xs.shape[0], dtype=np.int64)
        for i in range(xs.shape[0]):
            out[i] = inner(xs[i]) + inner(xs[i] + 1)
        return out

    xs = np.arange(0, 40, dtype=np.int64)
    assert outer(xs).tolist() == [_branchy(int(x)) + _branchy(int(x) + 1) for x in xs]


def test_a_compile_runs_with_fewer_collections_and_restores_the_thresholds() -> None:
    seen = []

    class _Pass(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            seen.append(gc.get_threshold())

        def on_end(self, ev: event.Event) -> None:
            pass

    before = gc.get_threshold()
    listener = _Pass()
    event.register("numba:run_pass", listener)
    try:
        assert njit(lambda x: x + 1)(3) == 4  # a new dispatcher: it compiles
    finally:
        event.unregister("numba:run_pass", listener)
    assert seen and all(
        t == tuple(max(a, b) for a, b in zip(before, jit._FewerCollections.THRESHOLD, strict=True))
        for t in seen
    )
    assert gc.get_threshold() == before
