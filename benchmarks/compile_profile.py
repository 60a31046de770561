"""Where a cold compile's CPU seconds go, per compiled function: Numba's passes (typing, rewrites,
lowering ...) and LLVM (optimizing a library's module, making its machine code), from the events
Numba broadcasts around each (docs/findings/kernel-phases.md, "Cold compile: where the seconds go").

Each event's own time is its span of process CPU time minus the events nested in it (a callee
compiles inside its caller's typing); LLVM time is charged to the function whose pass holds the
lock. Run in an empty cache folder, else nothing compiles:
XDG_CACHE_HOME=$(mktemp -d) .venv/bin/python benchmarks/compile_profile.py [random|greedy|both] [TOP]
"""

from __future__ import annotations

import collections
import gc
import os
import sys
import time

from numba.core import event

_stack: list[list] = []  # [kind, function, start, time of nested events]
own: dict[tuple[str, str], float] = collections.defaultdict(float)
passes: dict[str, float] = collections.defaultdict(float)
compiles: collections.Counter = collections.Counter()


def _function(ev: event.Event) -> str:
    """The compiled function an event belongs to (for the LLVM lock: the innermost pass's)."""
    if ev.kind == "numba:compile":
        return ev.data["dispatcher"].py_func.__qualname__
    if ev.kind == "numba:run_pass":
        return ev.data["qualname"]
    return _stack[-1][1] if _stack else "?"


class _Own(event.Listener):
    """Accumulates each event's own CPU time by (kind, function)."""

    def on_start(self, ev: event.Event) -> None:
        """Push the event."""
        if ev.kind == "numba:compile":
            compiles[_function(ev)] += 1
        _stack.append([ev.kind, _function(ev), time.process_time(), 0.0])

    def on_end(self, ev: event.Event) -> None:
        """Pop it and charge its span less its nested events' to it."""
        kind, fn, start, nested = _stack.pop()
        span = time.process_time() - start
        own[(kind, fn)] += span - nested
        if kind == "numba:run_pass":
            passes[ev.data["name"].split(" [")[0]] += span - nested
        if _stack:
            _stack[-1][3] += span


_gc = {"start": 0.0, "time": collections.defaultdict(float), "count": collections.Counter()}


def _gc_timer(phase: str, info: dict) -> None:
    """Time each of Python's cyclic garbage collections by generation."""
    if phase == "start":
        _gc["start"] = time.process_time()
    else:
        _gc["time"][info["generation"]] += time.process_time() - _gc["start"]
        _gc["count"][info["generation"]] += 1


_llvm_parts: dict[str, float] = collections.defaultdict(float)


def _time_llvm_parts() -> None:
    """Split LLVM's time by what Numba asks of it (codegen.py): the function passes over each
    function's own IR, the module passes over a library's module with its callees linked in, the
    machine code of that module (finalize_object), all of finalize (linking too)."""
    from numba.core import codegen

    parts = (
        (codegen.CPUCodeLibrary, "_optimize_functions", "function passes"),
        (codegen.CPUCodeLibrary, "_optimize_final_module", "module passes"),
        (codegen.JITCodeLibrary, "_finalize_specific", "machine code"),
        (codegen.CPUCodeLibrary, "finalize", "finalize in all"),
    )
    for cls, name, part in parts:
        plain = getattr(cls, name)

        def timed(self, *args, _plain=plain, _part=part, **kwargs):
            start = time.process_time()
            try:
                return _plain(self, *args, **kwargs)
            finally:
                _llvm_parts[_part] += time.process_time() - start

        setattr(cls, name, timed)


def main(argv: list[str]) -> None:
    """Compile the chosen variants in this process and print where the time went."""
    which = argv[0] if argv else "both"
    top = int(argv[1]) if len(argv) > 1 else 30  # 0: every function
    listener = _Own()
    for kind in ("numba:compile", "numba:run_pass", "numba:llvm_lock"):
        event.register(kind, listener)
    try:
        from welcome_sim.simcore.engine.game import game_seeds, simulate
        from welcome_sim.simcore.rules.ruleset import load_ruleset
    except ImportError:  # a tree from before the floors (f31d16a), to compare with
        from welcome_sim.simcore.game import game_seeds, simulate
        from welcome_sim.simcore.ruleset import load_ruleset

    _time_llvm_parts()  # after the imports: the kernel's own patch of finalize is timed too
    rs = load_ruleset()
    gc.callbacks.append(_gc_timer)
    if os.environ.get("PROFILE_GC_THRESHOLD"):  # e.g. 50000,20,100: fewer collections
        gc.set_threshold(*(int(x) for x in os.environ["PROFILE_GC_THRESHOLD"].split(",")))
    t0 = time.process_time()
    for strategy in ("random", "greedy") if which == "both" else (which,):
        simulate(rs, game_seeds(1, 2), 1, [strategy])
    total = time.process_time() - t0
    llvm = sum(v for (k, _), v in own.items() if k == "numba:llvm_lock")
    numba = sum(v for (k, _), v in own.items() if k != "numba:llvm_lock")
    print(f"process CPU {total:.1f} s; LLVM {llvm:.1f} s; Numba's passes and the rest {numba:.1f} s")
    print(f"compiles {sum(compiles.values())} ({len(compiles)} functions)")
    print("LLVM parts: " + ", ".join(f"{k} {v:.1f} s" for k, v in _llvm_parts.items()))
    for gen in sorted(_gc["count"]):
        print(f"gc generation {gen}: {_gc['count'][gen]} collections, {_gc['time'][gen]:.1f} s")
    per: dict[str, list[float]] = collections.defaultdict(lambda: [0.0, 0.0])
    for (kind, fn), v in own.items():
        per[fn][kind == "numba:llvm_lock"] += v
    print(f"\n{'function':60s} {'Numba':>7s} {'LLVM':>7s} {'n':>3s}")
    for fn, (nb, lv) in sorted(per.items(), key=lambda kv: -sum(kv[1]))[: top or None]:
        print(f"{fn[:60]:60s} {nb:7.2f} {lv:7.2f} {compiles[fn]:3d}")
    print(f"\n{'pass':60s} {'s':>7s}")
    for name, v in sorted(passes.items(), key=lambda kv: -kv[1])[:15]:
        print(f"{name[:60]:60s} {v:7.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
