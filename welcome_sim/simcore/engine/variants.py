"""Smaller kernels compiled from the same functions: a variant turns switches of
simcore/ground/features.py off, so its compile leaves out the code behind them.

A variant of an entry point is a copy of every compiled function on a path from it to a function
that reads a switch: the same code object under a copy of its module's globals, with the switches
overridden and the copied functions' names bound to their copies (module attributes through copied
modules), compiled by the same decorator under a name of its own (`play_batch__base_greedy`),
so that Numba's cache keeps it apart from the whole kernel. Functions that read no switch and call
none are shared with the whole kernel. simulate() picks the smallest variant that covers a batch
(variant_for) and the games are the same: a switch decides what is compiled, never what a game does.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from types import ModuleType

import numpy as np
from numba.core.dispatcher import Dispatcher

from welcome_sim.simcore.ground import features
from welcome_sim.simcore.ground.table import P_EXPANSION, R_PLAN_XFEAT, R_PLAN_XGOAL

FULL = "full"
BASE_GREEDY = "base_greedy"

# Each variant's switches (features.py); the whole kernel overrides none.
VARIANTS: dict[str, dict[str, int]] = {
    FULL: {},
    BASE_GREEDY: {"EXPANSIONS": 0, "ONLY_GREEDY": 1, "LOOK_AHEAD": 0},
}
SWITCHES = frozenset(k for k in vars(features) if k.isupper())

_made: dict[tuple[int, str], Dispatcher] = {}
# (id(entry), variant) -> {id(original function): its copy in the variant}
_copies: dict[tuple[int, str], dict[int, Dispatcher]] = {}


def variant_for(base_game: bool, strats: np.ndarray, look_moves: np.ndarray) -> str:
    """The smallest variant that plays a batch exactly as the whole kernel does: a base game (no
    expansion) whose seats are all greedy-family players without the look-ahead (GREEDY kernel
    ids, look_moves < 2) plays on BASE_GREEDY; anything else on FULL."""
    from welcome_sim.strategies.registry import GREEDY

    if base_game and bool(np.all(strats == GREEDY)) and bool(np.all(look_moves < 1.5)):
        return BASE_GREEDY
    return FULL


def base_table(R: np.ndarray) -> bool:
    """The compiled ruleset is a base game's: no expansion, and no plan measured or met by an
    expansion's feature (the data loader allows those only in an expansion's file)."""
    return int(R[0, P_EXPANSION]) == 0 and not R[R_PLAN_XFEAT].any() and not R[R_PLAN_XGOAL].any()


def specialize(entry: Dispatcher, variant: str) -> Dispatcher:
    """entry compiled as `variant` (made once per process; the whole kernel is entry itself)."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown kernel variant {variant!r}; valid: {', '.join(VARIANTS)}")
    if not VARIANTS[variant]:
        return entry
    key = (id(entry), variant)
    if key not in _made:
        _made[key], _copies[key] = _copy_graph(entry, variant, VARIANTS[variant])
    return _made[key]


def variant_function(entry: Dispatcher, variant: str, original: Dispatcher) -> Dispatcher:
    """original as entry's variant compiles it: its copy, or original itself where the variant
    shares it with the whole kernel."""
    specialize(entry, variant)
    return _copies.get((id(entry), variant), {}).get(id(original), original)


def _code_names(code: types.CodeType) -> set[str]:
    """Every global and attribute name the code (and code nested in it) reads."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _code_names(const)
    return names


def _callees(d: Dispatcher) -> list[Dispatcher]:
    """The compiled functions d's code may call: by global name, or as an attribute of a module
    it names (an over-estimate is harmless: it only copies more)."""
    fn = d.py_func
    names = _code_names(fn.__code__)
    found = []
    for name in names:
        obj = fn.__globals__.get(name)
        if isinstance(obj, Dispatcher):
            found.append(obj)
        elif isinstance(obj, ModuleType):
            found += [a for a in (getattr(obj, n, None) for n in names) if isinstance(a, Dispatcher)]
    return found


def _to_copy(entry: Dispatcher, switches: dict[str, int]) -> list[Dispatcher]:
    """The functions on a path from entry to a reader of a switch (entry first if any)."""
    reaches: dict[int, bool] = {}
    order: list[Dispatcher] = []

    def visit(d: Dispatcher) -> bool:
        if id(d) in reaches:
            return reaches[id(d)]
        reaches[id(d)] = False  # a cycle back here adds nothing
        hit = any(n in switches and n in d.py_func.__globals__ for n in _code_names(d.py_func.__code__))
        for c in _callees(d):
            hit = visit(c) or hit
        reaches[id(d)] = hit
        if hit:
            order.append(d)
        return hit

    visit(entry)
    return order[::-1]


def _copy_graph(
    entry: Dispatcher, variant: str, switches: dict[str, int]
) -> tuple[Dispatcher, dict[int, Dispatcher]]:
    """Copy the functions between entry and the switches' readers, bound to each other: entry's
    copy, and every copy by id of its original."""
    unknown = set(switches) - SWITCHES
    if unknown:
        raise ValueError(f"variant {variant!r} names unknown switches {sorted(unknown)}")
    originals = _to_copy(entry, switches)
    if not originals:
        return entry, {}
    spaces: dict[int, dict] = {}  # id(original module globals) -> the variant's copy
    copies: dict[int, Dispatcher] = {}
    for d in originals:
        g = d.py_func.__globals__
        if id(g) not in spaces:
            space = dict(g)
            space.update({k: v for k, v in switches.items() if k in g})
            spaces[id(g)] = space
        copies[id(d)] = _copy_function(d, spaces[id(g)], variant)
    modules: dict[str, ModuleType] = {}
    for space in spaces.values():
        for name, obj in list(space.items()):
            if isinstance(obj, Dispatcher) and id(obj) in copies:
                space[name] = copies[id(obj)]
            elif isinstance(obj, ModuleType) and id(vars(obj)) in spaces:
                if obj.__name__ not in modules:
                    proxy = ModuleType(obj.__name__, obj.__doc__)
                    modules[obj.__name__] = proxy
                space[name] = modules[obj.__name__]
    for name, proxy in modules.items():
        original = next(s for s in spaces.values() if s.get("__name__") == name)
        vars(proxy).update(original)
    return copies[id(entry)], copies


def _copy_function(d: Dispatcher, space: dict, variant: str) -> Dispatcher:
    """d's Python function under the globals `space`, compiled as d was, named for the variant."""
    fn = d.py_func
    decorate: Callable | None = getattr(d, "welcome_sim_decorator", None)
    if decorate is None:
        raise TypeError(
            f"{fn.__module__}.{fn.__qualname__} is compiled without welcome_sim.simcore.ground.jit, so a "
            "kernel variant cannot copy it: decorate it with jit.kernel, jit.leaf or jit.inlined"
        )
    new = types.FunctionType(fn.__code__, space, fn.__name__, fn.__defaults__, fn.__closure__)
    new.__qualname__ = f"{fn.__qualname__}__{variant}"
    new.__module__ = fn.__module__
    new.__doc__ = fn.__doc__
    new.__kwdefaults__ = fn.__kwdefaults__
    new.__annotations__ = dict(fn.__annotations__)
    return decorate(new)
