"""Compiling (or loading) the kernel before anything is timed, and saying so when it compiles.

The kernel compiles once per version into the cache folder (see welcome_sim/__init__.py); a few
tiny games of every deal and strategy family load all of it, or compile what is missing. Commands
call warm_kernel() before they start progress bars and clocks, so games/s never counts compiling.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable
from pathlib import Path

from welcome_sim import READY_MARKER, _cache_root, kernel_cache_ready

# The figure shown until this machine has measured its own compile. Measured on the 2-core
# machines: a cold `welcome-sim play --seed 3` took 125-132 s of CPU with the kernel's calls
# compiled once per plain argument types and the game, dispatchers and greedy's decisions inlined
# (Quack and the American Dream included), against 213-226 s before those two changes (side by
# side, alternating; the wall time is about the CPU time on an idle machine).
DEFAULT_COMPILE_S = 135
# This machine's last measured compile, in seconds (the cache root, shared by every version).
COMPILE_SECONDS_FILE = "compile-seconds"
# A warm-up this long did compile (loading the cache takes under a second).
COMPILED_S = 5.0

# (edition, mode, expansion, players, strategy): every deal (stacks, expert, the AAA, the
# first edition's solo card), every expansion hook and every built-in strategy family.
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


def expected_compile_seconds() -> int:
    """Seconds the next compile should take: this machine's last measured one, else a default."""
    with contextlib.suppress(OSError, ValueError):
        return max(1, round(float((_cache_root() / COMPILE_SECONDS_FILE).read_text().strip())))
    return DEFAULT_COMPILE_S


def compile_notice() -> str | None:
    """The line to print before a command that has to compile the kernel; None if it is cached."""
    if kernel_cache_ready():
        return None
    return f"compiling the kernel (first run after install or an update), ~{expected_compile_seconds()} s..."


def play_families() -> None:
    """Play two games of every deal, expansion and strategy family (compiles or loads everything)."""
    from welcome_sim.simcore.game import game_seeds, simulate
    from welcome_sim.simcore.ruleset import load_ruleset

    seeds = game_seeds(0, 2)
    for edition, mode, expansion, players, strategy in FAMILIES:
        rs = load_ruleset(edition, mode=mode, expansion=expansion)
        simulate(rs, seeds, players, [strategy], log=players == 1)


def warm_kernel(notice: Callable[[str], None] | None = None) -> float:
    """Compile or load the whole kernel; call `notice` first if it must compile. Returns seconds."""
    message = compile_notice()
    if message is not None and notice is not None:
        notice(message)
    t0 = time.perf_counter()
    play_families()
    seconds = time.perf_counter() - t0
    if message is not None:
        _mark_ready(seconds)
    return seconds


def _mark_ready(seconds: float) -> None:
    """Record that the cache folder is complete, and (if it compiled) how long compiling took."""
    folder = Path(os.environ["NUMBA_CACHE_DIR"])
    with contextlib.suppress(OSError):  # an unwritable cache: the notice shows again, no harm
        _write_atomic(folder / READY_MARKER, f"{seconds:.1f}\n")
        if seconds >= COMPILED_S:
            _write_atomic(_cache_root() / COMPILE_SECONDS_FILE, f"{seconds:.1f}\n")


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
