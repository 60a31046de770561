"""Compiling (or loading) the kernel before anything is timed, and saying so when it compiles.

The kernel compiles once per version into the cache folder (see welcome_sim/__init__.py), as one
or more variants (simcore/engine/variants.py: the whole kernel, and a smaller one for base games with
greedy players that compiles in about half the time). A few tiny games load a variant, or compile
it; commands call warm_kernel() with the variants they will use before they start progress bars
and clocks, so games/s never counts compiling. Variants missing compile at once, one process per
core, and a variant compiling alone gets a helper process that compiles part of it (splitcompile.py).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from welcome_sim import _cache_root, configure_cache, kernel_cache_ready, ready_marker
from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.engine import splitcompile
from welcome_sim.simcore.engine.variants import BASE_GREEDY, FULL

ALL_VARIANTS = (BASE_GREEDY, FULL)  # in the order warm_kernel compiles them

# The figures shown until this machine has measured its own compile: the seconds a cold compile
# takes on an idle machine of the 2-core kind this project is run on, measured on this kernel
# (docs/findings/performance-history.md, "Issue 43, the helper process"). Re-measure when the
# kernel grows. The whole kernel takes less alone than beside the base variant (its helper starts
# only when the base variant is done): 120 lies between.
DEFAULT_COMPILE_S = {FULL: 120, BASE_GREEDY: 50}
# This machine's last measured compile of a variant, as seconds on an idle machine (the time taken
# divided by the load factor when it began; the cache root, shared by every version):
# compile-seconds (the whole kernel), compile-seconds-base_greedy.
COMPILE_SECONDS_FILE = "compile-seconds"
# A warm-up this long did compile (loading the cache takes under a second).
COMPILED_S = 5.0

# (edition, mode, expansion, players, strategy): every deal (stacks, expert, the AAA, the
# first edition's solo card), every expansion hook and every built-in strategy family. The whole
# kernel plays them all; a smaller variant plays those it covers.
FAMILIES = (
    ("collector", "standard", None, 1, "greedy"),
    ("collector", "advanced", None, 2, "random"),
    ("collector", "expert", None, 2, "first-fit"),
    ("collector", "solo", None, 1, "spread"),
    ("first", "standard", None, 2, "greedy"),
    ("first", "solo", None, 1, "greedy"),
    ("collector", "standard", "easter", 1, "greedy"),
    ("collector", "standard", "icecream", 1, "greedy"),
    ("collector", "standard", "christmas", 1, "greedy"),
)


def _seconds_file(variant: str) -> Path:
    name = COMPILE_SECONDS_FILE if variant == FULL else f"{COMPILE_SECONDS_FILE}-{variant}"
    return _cache_root() / name


def _check(variants: Iterable[str]) -> list[str]:
    wanted = list(dict.fromkeys(variants))
    unknown = [v for v in wanted if v not in ALL_VARIANTS]
    if unknown:
        raise ValueError(
            f"unknown kernel variant{'s' * (len(unknown) != 1)} {unknown}; valid: {', '.join(ALL_VARIANTS)}"
        )
    return wanted


def load_factor() -> float:
    """How many times longer than on an idle machine a compile takes now: the square root of the
    1-minute load average per core, at least 1, not the load itself: the compile is one thread, and
    the other processes do not all want the CPU all the time (the fit: docs/findings/performance-history.md)."""
    try:
        load = os.getloadavg()[0]
    except (OSError, AttributeError):  # no load average (Windows): as if idle
        return 1.0
    return max(1.0, (load / (os.cpu_count() or 1)) ** 0.5)


def compile_processes(n_variants: int) -> int:
    """How many variants compile at once (one process each): one per core, at most one per variant
    (WELCOME_SIM_COMPILE_PROCESSES=1: one after the other in this process)."""
    wanted = os.environ.get("WELCOME_SIM_COMPILE_PROCESSES", "").strip()
    if wanted and not wanted.isdigit():
        raise WelcomeSimError(
            f"WELCOME_SIM_COMPILE_PROCESSES: {wanted!r} is not a number of processes; give 1 or more "
            "(1: the variants one after the other), or 0 or nothing for one per core"
        )
    cap = int(wanted) if wanted and int(wanted) > 0 else (os.cpu_count() or 1)
    return max(1, min(n_variants, cap))


def start_helper(variant: str) -> subprocess.Popen | None:
    """A helper process taking part of the variant's compile (splitcompile.py), when two processes
    may compile at once (compile_processes), the helper is not turned off and its record is there;
    else None."""
    if splitcompile.off() or compile_processes(2) < 2 or not splitcompile.RECORD.is_file():
        return None
    return splitcompile.start(variant)


def expected_compile_seconds(variants: Iterable[str] = (FULL,), factor: float | None = None) -> int:
    """Seconds compiling these variants should take now: this machine's last measured compile of
    each (else a default), both as on an idle machine, times the load factor; variants compiled at
    once (compile_processes) take as long as the longest of them."""
    factor = load_factor() if factor is None else factor
    wanted = _check(variants)
    each = []
    for v in wanted:
        seconds = float(DEFAULT_COMPILE_S[v])
        with contextlib.suppress(OSError, ValueError):
            seconds = float(_seconds_file(v).read_text().strip())
        each.append(max(1.0, seconds) * factor)
    total = max(each, default=1.0) if compile_processes(len(wanted)) > 1 else sum(each)
    return max(1, round(total))


def missing_variants(variants: Iterable[str] = ALL_VARIANTS) -> list[str]:
    """The variants not compiled yet into the cache folder in use."""
    return [v for v in _check(variants) if not kernel_cache_ready(v)]


def entry_cached(variant: str) -> bool:
    """Whether the cache folder holds the variant's entry point (play_batch) compiled, though no
    warm-up marked the variant ready: games played through the Python API compile the kernel
    without writing the marker. What the entry calls is then cached too (Numba compiles and saves
    every callee before its caller), so a warm-up mostly loads; a family of games the API did not
    play (another strategy or expansion) may still compile."""
    from welcome_sim.simcore.engine.kernel import play_batch
    from welcome_sim.simcore.engine.variants import specialize

    configure_cache()
    with contextlib.suppress(AttributeError):  # Numba's cache internals: a version without them
        index = Path(specialize(play_batch, variant)._cache._cache_file._index_path)
        # Its subfolder and name in the folder in use (chosen when the function was decorated).
        return (Path(os.environ["NUMBA_CACHE_DIR"]) / index.parent.name / index.name).is_file()
    return False


def notice_line(loading: bool, estimate: int, factor: float) -> str:
    """The one wording of the line said before a warm-up that compiles (or, `loading`, mostly
    loads) the kernel, with the time it should take at this machine's load `factor`."""
    load = f" at this machine's load ({factor:.1f}x an idle one)" if factor > 1.05 else ""
    if loading:
        return f"loading the kernel (compiled outside a warm-up; anything missing compiles, up to about {estimate} s{load})"
    return f"compiling the kernel (first run after install or an update): about {estimate} s{load}; later runs load it in a second"


def compile_notice(variants: Iterable[str] = ALL_VARIANTS) -> str | None:
    """The line to print before a command that has to compile; None if all it needs is cached."""
    missing = missing_variants(variants)
    if not missing:
        return None
    factor = load_factor()
    return notice_line(
        all(entry_cached(v) for v in missing), expected_compile_seconds(missing, factor), factor
    )


def play_families(variant: str = FULL) -> None:
    """Play two games of every deal, expansion and strategy family the variant plays (compiles or
    loads all of it)."""
    from welcome_sim.simcore.engine.game import batch_variant, game_seeds, simulate
    from welcome_sim.simcore.rules.rulespec import RulesetSpec

    seeds = game_seeds(0, 2)
    for edition, mode, expansion, players, strategy in FAMILIES:
        if variant != FULL and batch_variant(expansion is None, [strategy], players) != variant:
            continue
        rs = RulesetSpec(edition, mode=mode, expansion=expansion).load()
        simulate(rs, seeds, players, [strategy], log=players == 1, variant=variant)


def warm_kernel(
    notice: Callable[[str], None] | None = None, variants: Iterable[str] = ALL_VARIANTS, helper: bool = True
) -> float:
    """Compile or load the kernel variants; call `notice` first if one must compile (`helper`: a
    helper process may take part of a compile, splitcompile.py). Returns seconds."""
    wanted = _check(variants)
    splitcompile.off()  # a bad $WELCOME_SIM_SPLIT_COMPILE is said before anything starts
    message = compile_notice(wanted)
    if message is not None and notice is not None:
        notice(message)
    t0 = time.perf_counter()
    _compile_others(missing_variants(wanted))
    total = time.perf_counter() - t0
    for v in wanted:
        compiled = not kernel_cache_ready(v)
        factor = load_factor()
        t0 = time.perf_counter()
        # Compiling one variant alone: a helper process takes part of it (splitcompile.py).
        helping = start_helper(v) if helper and compiled and not entry_cached(v) else None
        try:
            play_families(v)
        finally:
            splitcompile.stop(helping)
        seconds = time.perf_counter() - t0
        total += seconds
        if compiled:
            _mark_ready(v, seconds, factor)
    return total


def _compile_others(missing: list[str]) -> None:
    """Compile all but the first of the missing variants in processes of their own, at once, while
    the caller compiles the first (on two cores the warm-up takes as long as the longest compile,
    not the sum). Each process marks its variant ready; one that fails leaves its variant to
    the caller, which compiles it after the others (its error is on stderr)."""
    n = compile_processes(len(missing))
    if n <= 1:
        return
    configure_cache()  # the children inherit the keyed folder chosen here
    code = "import sys; from welcome_sim.simcore.engine.warmup import warm_kernel; warm_kernel(variants=sys.argv[1:])"
    # The largest variants (listed last) go to the children: the caller's own finishes under their time.
    others = list(reversed(missing))[: n - 1]
    # Every core has a variant of its own: no child starts a helper process (splitcompile.py).
    env = splitcompile.env_without_helper()
    children = [(v, subprocess.Popen([sys.executable, "-c", code, v], env=env)) for v in others]
    try:
        warm_kernel(variants=[v for v in missing if v not in others], helper=False)
        # The caller's compile is done: its core helps the children still compiling, one at a time.
        for v, child in children:
            if child.poll() is None:
                helper = start_helper(v)
                try:
                    child.wait()
                finally:
                    splitcompile.stop(helper)
    except BaseException:  # an error or Ctrl-C here: the children's compiles stop too
        for _, child in children:
            child.terminate()
        raise
    finally:
        for _, child in children:
            child.wait()


def _mark_ready(variant: str, seconds: float, factor: float = 1.0) -> None:
    """Record that the variant is compiled in the cache folder, and (if it compiled) how long it
    took, as on an idle machine (divided by the load factor when it began)."""
    configure_cache()
    folder = Path(os.environ["NUMBA_CACHE_DIR"])
    with contextlib.suppress(OSError):  # an unwritable cache: the notice shows again, no harm
        _write_atomic(folder / ready_marker(variant), f"{seconds:.1f}\n")
        if seconds >= COMPILED_S:
            _write_atomic(_seconds_file(variant), f"{seconds / factor:.1f}\n")


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
