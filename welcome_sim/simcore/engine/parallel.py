"""Games split over worker processes: the seeds cut into chunks in order, the results joined.

Each game has its own seed and its own generator, so a chunk's games are the same games whichever
process plays them: joining the chunks in order gives the arrays one process would have made.
"""

from __future__ import annotations

import itertools
import os
import threading
import time
from collections.abc import Callable, Iterable

import numpy as np

from welcome_sim.simcore.engine.game import BatchResult, simulate
from welcome_sim.simcore.rules.ruleset import Ruleset
from welcome_sim.strategies.registry import Choice

DEFAULT_STEP = 2000  # games per chunk at most: the progress bar moves this often
# Fewer games than this per process are played in this process: starting and warming a worker
# (~1.5 s idle, ~4 s on a busy machine) costs more than it saves.
MIN_GAMES_PER_PROCESS = 100


def cores() -> int:
    """Processors this process may use, as joblib counts them for n_jobs=-1 (CPU affinity and
    container quotas included), so a warm-up and the work after it get the same worker pool."""
    from joblib import cpu_count

    return max(1, cpu_count())


def resolve_jobs(jobs: int) -> int:
    """Worker processes for --jobs: -1 is every core."""
    return cores() if jobs == -1 else max(1, jobs)


def processes_for(games: int, jobs: int) -> int:
    """Processes worth using for `games` games when `jobs` (-1: every core) are allowed."""
    return max(1, min(resolve_jobs(jobs), games // MIN_GAMES_PER_PROCESS))


def chunk_bounds(n: int, jobs: int, step: int = DEFAULT_STEP) -> list[tuple[int, int]]:
    """[start, stop) of each chunk: at most `step` games, and at least two chunks per process when
    there are games enough (so a slow chunk does not leave the other processes idle)."""
    if n == 0:
        return []
    count = max(-(-n // step), min(n, 2 * jobs) if jobs > 1 else 1)
    edges = np.linspace(0, n, count + 1).round().astype(int)
    return [(int(a), int(b)) for a, b in itertools.pairwise(edges) if b > a]


_WATCHING: list[int] = []  # the parent this worker process watches (at most one)


def watch_parent(parent: int, interval: float = 1.0) -> None:
    """In a worker process that `parent` started: exit as soon as the parent is gone. A pool's
    idle workers wait ~5 minutes (loky's idle timeout) for work from a parent killed with
    SIGKILL, holding memory and the compiled kernel; this makes them go within `interval`."""
    if _WATCHING or os.getpid() == parent or os.getppid() != parent:
        return  # already watching, in the parent itself, or not its child (a Dask worker)
    _WATCHING.append(parent)

    def watch() -> None:
        while os.getppid() == parent:  # re-parented (to init or a subreaper) once the parent dies
            time.sleep(interval)
        os._exit(1)

    threading.Thread(target=watch, name="welcome-sim-parent-watch", daemon=True).start()


def _portable(strategies: list | tuple) -> bool:
    """Whether every strategy can go to another process and play the same games there (names and
    parsed Choices; a Python object may keep state from game to game, so it stays here)."""
    return all(isinstance(s, str | Choice) for s in strategies)


def _play(
    ruleset: Ruleset, seeds: np.ndarray, n_players: int, strategies: list | tuple, parent: int = 0
) -> tuple[np.ndarray, np.ndarray, tuple[str, ...]]:
    watch_parent(parent)
    res = simulate(ruleset, seeds, n_players, strategies)
    return res.out, res.games, res.strategies


def _warm_one(pause: float, variants: tuple[str, ...], parent: int = 0) -> int:
    from welcome_sim.simcore.engine.warmup import warm_kernel

    watch_parent(parent)

    warm_kernel(variants=variants)
    time.sleep(pause)  # holds this worker so the next warm-up task goes to another one
    return os.getpid()


def warm_workers(jobs: int, variants: Iterable[str] | None = None) -> None:
    """Start the worker processes and have each load the compiled kernel variants (all if None;
    compiled beforehand in this process, so they only load them), before anything is timed."""
    n = resolve_jobs(jobs)
    if n <= 1:
        return
    from joblib import Parallel, delayed

    from welcome_sim.simcore.engine.warmup import ALL_VARIANTS

    wanted = tuple(variants) if variants is not None else ALL_VARIANTS
    Parallel(n_jobs=n)(delayed(_warm_one)(0.3, wanted, os.getpid()) for _ in range(n))


def simulate_parallel(
    ruleset: Ruleset,
    seeds: np.ndarray,
    n_players: int,
    strategies: list | tuple,
    jobs: int = -1,
    step: int = DEFAULT_STEP,
    advance: Callable[[int], None] | None = None,
) -> BatchResult:
    """simulate() with the games split over `jobs` processes (-1: every core); the same arrays as
    one process. `advance(n)` is called as each chunk of n games is done, in order."""
    n = processes_for(len(seeds), jobs)
    if not _portable(strategies):
        n = 1
    bounds = chunk_bounds(len(seeds), n, step)
    if n == 1 or len(bounds) <= 1:
        parts = []
        for a, b in bounds or [(0, 0)]:
            parts.append(_play(ruleset, seeds[a:b], n_players, strategies))
            if advance and b > a:
                advance(b - a)
    else:
        from joblib import Parallel, delayed

        parallel = Parallel(n_jobs=n, return_as="generator")  # in order of submission
        parts = []
        for (a, b), part in zip(
            bounds,
            parallel(
                delayed(_play)(ruleset, seeds[a:b], n_players, strategies, os.getpid()) for a, b in bounds
            ),
            strict=True,
        ):
            parts.append(part)
            if advance:
                advance(b - a)
    return BatchResult(
        ruleset,
        np.ascontiguousarray(seeds, dtype=np.uint64),
        parts[0][2],
        np.concatenate([p[0] for p in parts]),
        np.concatenate([p[1] for p in parts]),
        None,
    )
