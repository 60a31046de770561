"""An inlined function's parameters are the caller's own variables (simcore/ground/jit.py
_forward_args): an array passed to it costs no reference count, and a parameter it reassigns is
still its own."""

from __future__ import annotations

import re
from typing import NamedTuple

import numpy as np
from numba import njit

import welcome_sim.simcore.ground.jit  # noqa: F401  (installs the forwarding in Numba's inliner)


@njit
def _bump(a, i):
    a[i % a.shape[0]] += 1


@njit
def _allocates(a):
    # A callee that may allocate: the refcount pruning keeps a pair around such a call.
    if a[0] == -1:
        return np.empty(1, dtype=np.int64)[0]
    return 0


@njit(inline="always")
def _phase(a0, a1, a2, a3, a4, a5, i):
    _bump(a0, i)
    _bump(a1, i)
    _bump(a2, i)
    _bump(a3, i)
    _bump(a4, i)
    _bump(a5, i)
    return _allocates(a0)


@njit
def _through_phase(a0, a1, a2, a3, a4, a5, n):
    t = 0
    for i in range(n):
        t += _phase(a0, a1, a2, a3, a4, a5, i)
    return t


@njit
def _written_in_place(a0, a1, a2, a3, a4, a5, n):
    t = 0
    for i in range(n):
        _bump(a0, i)
        _bump(a1, i)
        _bump(a2, i)
        _bump(a3, i)
        _bump(a4, i)
        _bump(a5, i)
        t += _allocates(a0)
    return t


@njit(inline="always")
def _shifts(a, k):
    a = a[1:]  # the parameter reassigned: its own variable, not the caller's
    k += 1
    a[0] = k
    return a.shape[0]


@njit
def _calls_shifts(a, k):
    n = _shifts(a, k)
    return n, a.shape[0], k


def _refcount_calls(dispatcher) -> int:
    """NRT_incref and NRT_decref calls in the function's own optimized LLVM (not its callees')."""
    llvm = dispatcher.inspect_llvm(dispatcher.signatures[0])
    name = dispatcher.py_func.__name__
    body = re.search(r"define [^\n]*" + name + r"[^\n]*\{\n(.*?)\n\}", llvm, re.S).group(1)
    return len(re.findall(r"call void @NRT_(?:incref|decref)\(", body))


def test_an_inlined_call_counts_no_more_references_than_the_body_in_place() -> None:
    arrays = [np.zeros(3 + k, dtype=np.int64) for k in range(6)]
    assert _through_phase(*arrays, 10) == _written_in_place(*arrays, 10) == 0
    assert arrays[0].sum() == 20
    assert _refcount_calls(_through_phase) == _refcount_calls(_written_in_place)


def test_a_reassigned_parameter_stays_the_inlined_functions_own() -> None:
    a = np.zeros(4, dtype=np.int64)
    assert _calls_shifts(a, 7) == (3, 4, 7)
    assert list(a) == [0, 8, 0, 0]


class _Bundle(NamedTuple):
    a0: np.ndarray
    a1: np.ndarray
    a2: np.ndarray
    a3: np.ndarray
    a4: np.ndarray
    a5: np.ndarray


@njit(inline="always")
def _phase_of_bundle(b, i):
    # Fields read by name, by index and by unpacking: each the caller's variable, not a copy.
    _bump(b.a0, i)
    _bump(b[1], i)
    _, _, a2, a3, a4, a5 = b
    _bump(a2, i)
    _bump(a3, i)
    _bump(a4, i)
    _bump(a5, i)
    return _allocates(b.a0)


@njit
def _through_bundle(a0, a1, a2, a3, a4, a5, n):
    b = _Bundle(a0, a1, a2, a3, a4, a5)
    t = 0
    for i in range(n):
        t += _phase_of_bundle(b, i)
    return t


@njit(inline="always")
def _phase_of_tuple(b, i):
    a0, a1, a2, a3, a4, a5 = b
    _bump(a0, i)
    _bump(a1, i)
    _bump(a2, i)
    _bump(a3, i)
    _bump(a4, i)
    _bump(a5, i)
    return _allocates(a0)


@njit
def _through_tuple(a0, a1, a2, a3, a4, a5, n):
    b = (a0, a1, a2, a3, a4, a5)
    t = 0
    for i in range(n):
        t += _phase_of_tuple(b, i)
    return t


@njit(inline="always")
def _first(b):
    return b.a0[0]


@njit
def _bundle_of_a_reassigned_field(a0, a1, n):
    # x is assigned twice: the bundle keeps the first array, which the field read must return.
    x = a0
    b = _Bundle(x, a1, a1, a1, a1, a1)
    x = a1
    return _first(b), x[0]


def test_a_bundles_fields_read_in_an_inlined_call_count_no_more_references_than_in_place() -> None:
    """The phases of the game take bundles (Sheets, GameLog, ...) at no cost only if this holds."""
    arrays = [np.zeros(3 + k, dtype=np.int64) for k in range(6)]
    assert _through_bundle(*arrays, 10) == _through_tuple(*arrays, 10) == 0
    assert arrays[0].sum() == 20
    assert arrays[5].sum() == 20
    in_place = _refcount_calls(_written_in_place)
    assert _refcount_calls(_through_bundle) == in_place
    assert _refcount_calls(_through_tuple) == in_place


def test_a_bundle_built_from_a_variable_assigned_twice_keeps_its_own_fields() -> None:
    a0 = np.full(2, 5, dtype=np.int64)
    a1 = np.full(2, 9, dtype=np.int64)
    assert _bundle_of_a_reassigned_field(a0, a1, 1) == (5, 9)


@njit(inline="always")
def _game_of_bundle(b, i):
    # As play_game hands play_batch's bundles on to its phases: two inlined levels.
    return _phase_of_bundle(b, i)


@njit
def _through_two_levels(a0, a1, a2, a3, a4, a5, n):
    b = _Bundle(a0, a1, a2, a3, a4, a5)
    t = 0
    for i in range(n):
        t += _game_of_bundle(b, i)
    return t


def test_a_bundle_handed_on_through_an_inlined_function_is_read_as_freely() -> None:
    arrays = [np.zeros(3 + k, dtype=np.int64) for k in range(6)]
    assert _through_two_levels(*arrays, 10) == 0
    assert arrays[3].sum() == 10
    assert _refcount_calls(_through_two_levels) == _refcount_calls(_written_in_place)
