"""A cold compile of one kernel variant on two cores: a helper process compiles part of it.

Numba compiles a variant's entry (play_batch) in one thread: typing the entry compiles each
function it calls, one after the other, and saves each to the cache. A second process that
compiles, at the same time, the callees the entry reaches last (in the reverse order) saves them
to the same cache, and the entry's compile loads each from there when it gets to it instead of
compiling it (Numba looks in its cache before compiling a function). The games are the same
(tests/test_splitcompile.py); the machine code may differ a little, since a library loaded from the
cache is linked whole (latelink.py), and games/s showed no difference.

The helper needs each callee's argument types before the entry's typing has found them; they are
recorded in splitcompile.json (scripts/compile_split.py writes it from a cold compile, and
tests/test_splitcompile.py checks it against the kernel). A stale record costs only time: the
helper compiles a signature the entry does not use, or fails to type it and goes on, and the
entry compiles what it needs itself. WELCOME_SIM_SPLIT_COMPILE=0 turns the helper off (to compare).
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from numba.core import types
from numba.core.dispatcher import Dispatcher

from welcome_sim.errors import WelcomeSimError

RECORD = Path(__file__).with_name("splitcompile.json")
OFF_ENV = "WELCOME_SIM_SPLIT_COMPILE"


def encode(t: types.Type) -> Any:
    """A JSON form of an argument type the kernel's functions take."""
    if isinstance(t, types.Integer | types.Float | types.Boolean):
        return t.name
    if isinstance(t, types.Array) and t.mutable and t.aligned:
        return {"array": encode(t.dtype), "ndim": t.ndim, "layout": t.layout}
    if isinstance(t, types.BaseNamedTuple):
        cls = t.instance_class
        return {"bundle": f"{cls.__module__}:{cls.__qualname__}", "fields": [encode(x) for x in t.types]}
    if isinstance(t, types.BaseTuple):
        return {"tuple": [encode(x) for x in t.types]}
    raise ValueError(f"splitcompile cannot record the argument type {t}")


def decode(x: Any) -> types.Type:
    """The argument type `encode` wrote."""
    if isinstance(x, str):
        t = getattr(types, x, None)
        if not isinstance(t, types.Integer | types.Float | types.Boolean):
            raise ValueError(f"{RECORD.name}: {x!r} is not a scalar type")
        return t
    if "array" in x:
        return types.Array(decode(x["array"]), int(x["ndim"]), str(x["layout"]))
    if "bundle" in x:
        module, name = x["bundle"].split(":")
        cls = getattr(importlib.import_module(module), name)
        return types.BaseTuple.from_types([decode(f) for f in x["fields"]], cls)
    return types.BaseTuple.from_types([decode(f) for f in x["tuple"]])


def function_name(d: Dispatcher) -> str:
    """module:name of the function d is (a variant's copy: of its original)."""
    fn = d.py_func
    return f"{fn.__module__}:{fn.__name__}"


def targets(variant: str) -> list[tuple[Dispatcher, tuple]]:
    """The variant's recorded callees with their argument types, in the helper's order."""
    from welcome_sim.simcore.engine.kernel import play_batch
    from welcome_sim.simcore.engine.variants import variant_function

    try:
        record = json.loads(RECORD.read_text(encoding="utf-8"))
    except (OSError, ValueError):  # a damaged or missing record: no helper, nothing else changes
        return []
    found = []
    for item in record.get("variants", {}).get(variant, []):
        # A function renamed, moved or retyped since the record: skipped, the rest still helps.
        with contextlib.suppress(ValueError, KeyError, TypeError, AttributeError, ImportError):
            module, name = item["function"].split(":")
            original = getattr(importlib.import_module(module), name, None)
            if isinstance(original, Dispatcher):
                sig = tuple(decode(a) for a in item["signature"])
                found.append((variant_function(play_batch, variant, original), sig))
    return found


def compile_targets(variant: str) -> int:
    """Compile (or load) the variant's recorded callees in order; returns how many compiled."""
    done = 0
    for d, sig in targets(variant):
        try:
            d.compile(sig)
        except Exception:  # a stale record: the entry's own compile covers it
            continue
        done += 1
    return done


def off() -> bool:
    """The helper is turned off ($WELCOME_SIM_SPLIT_COMPILE=0; a process that must not start one);
    a value other than 0, 1 or nothing is a one-line error."""
    value = os.environ.get(OFF_ENV, "").strip()
    if value not in ("", "0", "1"):
        raise WelcomeSimError(
            f"{OFF_ENV}: {value!r} is not 0 or 1; give 0 (no helper process) or 1 or nothing (a helper "
            "process takes part of a compile on two cores)"
        )
    return value == "0"


def env_without_helper() -> dict[str, str]:
    """This process's environment, for a child that must start no helper of its own."""
    return dict(os.environ, **{OFF_ENV: "0"})


def start(variant: str) -> subprocess.Popen:
    """A helper process compiling the variant's recorded callees into the cache in use (its
    NUMBA_CACHE_DIR, set by the caller's configure_cache)."""
    code = "import sys; from welcome_sim.simcore.engine.splitcompile import main; main(sys.argv[1])"
    return subprocess.Popen(
        [sys.executable, "-c", code, variant],
        env=env_without_helper(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def stop(helper: subprocess.Popen | None) -> None:
    """End the helper at once (its work is done or no longer needed) and reap it."""
    if helper is None:
        return
    # Killed, not asked: a Python signal handler would wait for LLVM to finish a module. Numba
    # writes a cache file under a temporary name and renames it into place, so a kill leaves at
    # most a stray temporary file, never a half-written one that loads.
    if helper.poll() is None:
        helper.kill()
    helper.wait()


def main(variant: str) -> None:
    """The helper process: compile the variant's recorded callees."""
    from welcome_sim import configure_cache

    configure_cache()
    compile_targets(variant)
