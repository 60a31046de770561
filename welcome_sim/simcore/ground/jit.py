"""The two compilation modes of the kernel.

`kernel` is plain `njit(cache=True)`. `leaf` is for small helpers that never allocate: it also
turns off Numba's reference counting inside them (`_nrt=False`). Numba's refcount pruning does not
remove the atomic increment/decrement pairs of array arguments in a callee that branches, which
made a small branching helper cost more in atomic operations than in its work (figures:
docs/findings/performance-history.md). Callers keep their arrays alive, so the leaf only borrows them.
"""

from __future__ import annotations

import copy
import gc
import os

import welcome_sim

# Numba reads its cache folder when a function is decorated: choose it before anything compiles.
welcome_sim.configure_cache()

from numba import njit, types  # noqa: E402
from numba.core import event, inline_closurecall, ir, sigutils  # noqa: E402

from welcome_sim.simcore.ground import latelink  # noqa: E402, F401  (patches Numba's linking)
from welcome_sim.simcore.ground.inlinefields import forward_fields  # noqa: E402


class _InlineCopy:
    """Numba's IR inliner (inline="always") copies the callee's IR twice per call site, one
    `copy.deepcopy` per block, each with a memo of its own: every block's copy takes along a copy
    of the function's whole variable scope, so a copy costs blocks x variables. The game and
    greedy's decisions are thousands of blocks and variables: a cold compile spent a large part
    of its time in these copies. Standing in for the `copy` module inside that one Numba module,
    this gives the blocks of one IR one memo, so the scope is copied once (as one IR has one
    scope). The inliner renames the variables and gives every inlined block the caller's scope
    afterwards, so the compiled code is the same (what it saves: docs/findings/performance-history.md).
    WELCOME_SIM_PLAIN_INLINE_COPY=1 leaves Numba's own copies in place (to compare, or should a
    Numba version need it)."""

    def __init__(self) -> None:
        self._scope = None
        self._memo: dict = {}

    def deepcopy(self, x, memo=None):
        """copy.deepcopy, sharing one memo between the blocks of one IR."""
        if memo is not None or not isinstance(x, ir.Block):
            return copy.deepcopy(x, memo)
        # A block of another IR, or a second copy of the same IR: a fresh memo.
        if x.scope is not self._scope or id(x) in self._memo:
            self._scope, self._memo = x.scope, {}
        return copy.deepcopy(x, self._memo)

    def __getattr__(self, name: str):
        return getattr(copy, name)


if getattr(inline_closurecall, "copy", None) is copy and not os.environ.get("WELCOME_SIM_PLAIN_INLINE_COPY"):
    inline_closurecall.copy = _InlineCopy()


def _forward_args(blocks, args) -> None:
    """Numba's _replace_args_with, but a parameter the inlined body never reassigns becomes the
    caller's own variable instead of a copy of it. Each copy of an array is a reference-counted
    variable: an atomic increment where it is made and a decrement where it dies, in blocks far
    apart, which Numba's refcount pruning leaves in place: a call of a phase of the game taking a
    dozen arrays cost more than the phase's work (docs/findings/kernel-phases.md)."""
    defined: dict[str, int] = {}
    for block in blocks.values():
        for stmt in block.find_insts(ir.Assign):
            defined[stmt.target.name] = defined.get(stmt.target.name, 0) + 1
    rename = {}
    for block in blocks.values():
        body = []
        for stmt in block.body:
            if (
                isinstance(stmt, ir.Assign)
                and isinstance(stmt.value, ir.Arg)
                and isinstance(args[stmt.value.index], ir.Var)
                and defined[stmt.target.name] == 1
            ):
                rename[stmt.target.name] = args[stmt.value.index]
            else:
                body.append(stmt)
        block.body = body
    if rename:
        inline_closurecall.replace_vars(blocks, rename)
        if _callers:
            # A bundle parameter's field reads become the caller's variables too (inlinefields.py).
            forward_fields(blocks, _callers[-1], list(rename.values()))
    _plain_replace_args(blocks, args)  # the parameters left: reassigned ones, constants


# The IR an inlined body goes into (InlineWorker.inline_ir's caller_ir), for forward_fields:
# _replace_args_with is handed only the callee's blocks and the call's arguments.
_callers: list = []


def _inline_ir(self, caller_ir, *args, **kwargs):
    """InlineWorker.inline_ir, noting the caller's IR while it runs."""
    _callers.append(caller_ir)
    try:
        return _plain_inline_ir(self, caller_ir, *args, **kwargs)
    finally:
        _callers.pop()


_plain_replace_args = inline_closurecall._replace_args_with
if getattr(_plain_replace_args, "__name__", "") == "_replace_args_with":
    inline_closurecall._replace_args_with = _forward_args
    _plain_inline_ir = inline_closurecall.InlineWorker.inline_ir
    inline_closurecall.InlineWorker.inline_ir = _inline_ir


class _FewerCollections(event.Listener):
    """While Numba compiles, Python's cyclic garbage collector runs its full collections rarely.
    A compile makes millions of IR and typing objects, and each full collection walks every object
    alive (what that cost: docs/findings/kernel-phases.md). The youngest generation is collected every 10,000 allocations instead of
    700 (short-lived cycles still go at once) and a full collection waits for 100 middle ones
    instead of 10; the thresholds come back when the outermost compile ends, so nothing else runs
    differently, and loading a compiled kernel from the cache never gets here.
    WELCOME_SIM_PLAIN_GC=1 leaves the collector alone (to compare)."""

    THRESHOLD = (10_000, 10, 100)

    def __init__(self) -> None:
        self._depth = 0
        self._saved: tuple[int, ...] = ()

    def on_start(self, ev: event.Event) -> None:
        """The outermost compile starts: raise the thresholds (a callee compiles inside it)."""
        self._depth += 1
        if self._depth == 1:
            self._saved = gc.get_threshold()
            gc.set_threshold(*(max(a, b) for a, b in zip(self._saved, self.THRESHOLD, strict=True)))

    def on_end(self, ev: event.Event) -> None:
        """The outermost compile ended, done or failed: the thresholds as they were."""
        self._depth -= 1
        if self._depth == 0 and self._saved:
            gc.set_threshold(*self._saved)


if not os.environ.get("WELCOME_SIM_PLAIN_GC"):
    event.register("numba:compile", _FewerCollections())


def signature_checked(load_overload):
    """A cache's load_overload that returns None (compile instead) when the file it read holds
    another signature's code. Numba names a function's data file from the index it read before
    saving, so two processes saving two signatures of one function at once (the variants' compiles,
    the helper of splitcompile.py) can leave the index naming the other's file, and Numba loads a
    file without checking the signature in it."""

    def load(sig, target_context):
        cres = load_overload(sig, target_context)
        if cres is not None and tuple(cres.signature.args) != tuple(sigutils.normalize_signature(sig)[0]):
            return None
        return cres

    return load


def _general(decorate):
    """decorate, but each function compiles once for the plain types of its arguments."""

    def wrap(fn):
        dispatcher = decorate(fn)
        cache = getattr(dispatcher, "_cache", None)
        if cache is not None and hasattr(cache, "load_overload"):
            cache.load_overload = signature_checked(cache.load_overload)
        typed = dispatcher.get_call_template

        def get_call_template(args, kws):
            # Numba types a constant argument of a call from compiled code as a literal and
            # compiles the callee once per literal value: combine() was compiled 11 times and
            # _log() 25 times. Plain types give one compile per function.
            plain = tuple(types.unliteral(a) for a in args)
            return typed(plain, {k: types.unliteral(v) for k, v in kws.items()})

        dispatcher.get_call_template = get_call_template
        dispatcher.welcome_sim_decorator = wrap  # simcore/engine/variants.py compiles copies the same way
        return dispatcher

    return wrap


# forceinline=False is given, not left to the default: a function Numba compiles while compiling a
# `spliced` one would otherwise inherit its forceinline (Numba's flags pass down to callees
# compiled on their caller's behalf) and be inlined everywhere.
kernel = _general(njit(cache=True, forceinline=False))
leaf = _general(njit(cache=True, _nrt=False, forceinline=False))
# A leaf LLVM inlines into each of its callers (`alwaysinline`): for small helpers of greedy's
# search loops, whose calls cost more than their work. Numba passes every array as its whole
# struct, seven to eleven words, pushed on the stack at each call: `_apply_action` (the sheet's
# four arrays) took 46 words a call, and the pushes were a third of best_moves' time
# (docs/findings/greedy.md, "the calls' arguments").
spliced = _general(njit(cache=True, _nrt=False, forceinline=True))
# Inlined into their caller at Numba IR level: the game itself (into play_batch), the strategy
# dispatchers and greedy's decisions other than its move. Every compiled function's module links
# in its callees and re-optimizes them, so each of these as a function of its own re-optimized all
# of greedy's evaluation below it; inlined, a cold compile is shorter and the games run no slower
# (docs/findings/performance-history.md, "Compile time and the random regression").
# Object mode cannot be inlined: Python strategies are called from small kernels of their own.
inlined = _general(njit(cache=True, inline="always", forceinline=False))
