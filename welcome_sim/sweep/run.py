"""Running a sweep: chunks of games through joblib (local processes) or a Dask cluster, resumably."""

from __future__ import annotations

import datetime as dt
import functools
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from welcome_sim import __version__
from welcome_sim.analysis.tables import CONFIG
from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.game import game_seeds, simulate
from welcome_sim.simcore.ruleset import Ruleset, display_path, load_ruleset
from welcome_sim.sweep import store
from welcome_sim.sweep.config import DEFAULT_CHUNK, Cell, SweepConfig
from welcome_sim.sweep.rows import chunk_frame

BACKENDS = ("loky", "dask")


@dataclass(frozen=True)
class Task:
    """One chunk: games [first, first + count) of a cell."""

    cell: Cell
    first: int
    count: int
    seed: int
    out: str
    sheet_name: str

    @property
    def chunk(self) -> str:
        return store.chunk_id(self.cell, self.first)


@dataclass
class Summary:
    """What a sweep run did and produced."""

    out: Path
    games: int  # games in the dataset
    rows: int
    games_run: int  # games played by this run (the rest were already there)
    seconds: float
    bytes: int
    means: pl.DataFrame  # mean score per cell
    reconstructed: list[str]


@functools.lru_cache(maxsize=64)
def _ruleset(
    edition: str,
    sheet: str,
    mode: str = "standard",
    opponent: str = "",
    expansion: str = "none",
    nine: bool = False,
) -> Ruleset:
    return load_ruleset(edition, sheet, mode=mode, opponent=opponent or None, expansion=expansion, nine=nine)


def _cell_ruleset(cell) -> Ruleset:
    return _ruleset(cell.edition, cell.sheet, cell.mode, cell.opponent, cell.expansion, cell.nine)


def _plan_table(
    rs: Ruleset, plans: str, first: int, count: int
) -> tuple[list[str] | None, np.ndarray | None]:
    """Plans argument for simulate(): fixed ids, None (random), or per-game indices ('all')."""
    if plans == "random":
        return None, None
    if plans == "all":
        slots = [[i for i, p in enumerate(rs.plans.plans) if p.slot == s] for s in range(3)]
        combos = np.array(list(itertools.product(*slots)), dtype=np.int64)
        return None, combos[(first + np.arange(count)) % len(combos)]
    return [p for p in plans.split(",") if p.strip()], None


def play_chunk(task: Task) -> tuple[str, int, int, float]:
    """Play a chunk, write it atomically; return (chunk id, rows, games, seconds)."""
    t0 = time.perf_counter()
    cell = task.cell
    rs = _cell_ruleset(cell)
    seeds = game_seeds(task.seed, task.count, start=task.first)
    fixed, per_game = _plan_table(rs, cell.plans, task.first, task.count)
    res = simulate(rs, seeds, cell.players, cell.seats(), fixed, plans_per_game=per_game)
    df = chunk_frame(res, cell, task.first)
    path = store.partition_dir(Path(task.out), cell, task.sheet_name) / f"{task.chunk}.parquet"
    store.write_atomic(df, path)
    return task.chunk, df.height, task.count, time.perf_counter() - t0


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def _data_files(config: SweepConfig) -> list[dict[str, str]]:
    files: dict[str, dict[str, str]] = {}
    kinds = {
        "Edition": "edition",
        "Sheet": "sheet",
        "Deck": "deck",
        "PlanSet": "plans",
        "OpponentSet": "opponents",
        "Expansion": "expansion",
    }
    for cell in config.cells():
        rs = _cell_ruleset(cell)
        for item in rs.sources:
            if item.path not in files:
                files[item.path] = {
                    "kind": kinds[type(item).__name__],
                    "name": item.name,
                    "path": display_path(item.path),
                    "provenance": item.provenance,
                    "sha256": store.file_digest(item.path),
                }
    return list(files.values())


def plan_sweep(
    config: SweepConfig, out: Path, chunk_size: int | None, resume: bool
) -> tuple[list[Task], dict[str, Any]]:
    """Check the output folder against the configuration; return the chunks still to play and the
    manifest to write. Refuses to mix a different configuration into an existing sweep."""
    config.validate()
    old = store.read_manifest(out)
    if chunk_size is not None and chunk_size < 1:
        raise WelcomeSimError(f"--chunk-size: must be at least 1 game, got {chunk_size}")
    if old is None:
        if resume:
            raise WelcomeSimError(f"--resume: {out} holds no sweep to resume (no {store.MANIFEST})")
        if out.exists() and any(out.iterdir()):
            raise WelcomeSimError(
                f"--out: {out} exists and is not a sweep folder; choose an empty or new folder"
            )
        size = chunk_size or DEFAULT_CHUNK
    else:
        if old.get("config_digest") != config.digest():
            diffs = [
                f"{k}: {old['config'].get(k)!r} there, {v!r} now"
                for k, v in config.identity().items()
                if old.get("config", {}).get(k) != v
            ]
            raise WelcomeSimError(
                f"--out: {out} holds a different sweep ({'; '.join(diffs)}); "
                "use another --out folder instead of mixing data"
            )
        if not resume:
            raise WelcomeSimError(f"--out: {out} already holds this sweep; add --resume to finish it")
        size = old["chunk_size"]
        if chunk_size is not None and chunk_size != size:
            raise WelcomeSimError(
                f"--chunk-size: this sweep was started with chunks of {size} games, not {chunk_size}"
            )
        store.remove_temporaries(out)
    done = store.existing_chunks(out)
    tasks_all = []
    cells_doc = []
    for cell in config.cells():
        rs = _cell_ruleset(cell)
        cells_doc.append(
            {
                "cell": cell.index,
                "edition": cell.edition,
                "sheet": cell.sheet,
                "sheet_name": rs.sheet.name,
                "mode": cell.mode,
                "players": cell.players,
                "table": cell.table,
                "opponent": cell.opponent,
                "expansion": cell.expansion,
                "nine_three_quarters": cell.nine,
                "seats": cell.seats(),
                "plans": cell.plans,
            }
        )
        for first in range(0, config.games, size):
            tasks_all.append(
                Task(cell, first, min(size, config.games - first), config.seed, str(out), rs.sheet.name)
            )
    files = _data_files(config)
    manifest = {
        "tool": "welcome-sim",
        "version": __version__,
        "created": old["created"] if old else _now(),
        "updated": _now(),
        "sweep_seed": config.seed,
        "games_per_cell": config.games,
        "chunk_size": size,
        "config": config.identity(),
        "config_digest": config.digest(),
        "seeds": "per game: numpy SeedSequence(sweep_seed, spawn_key=(game index within its cell,))",
        "cells": cells_doc,
        "data_files": files,
        "reconstructed": sorted({f["path"] for f in files if f["provenance"] == "reconstructed"}),
        "chunks": {t.chunk: ("done" if t.chunk in done else "pending") for t in tasks_all},
    }
    return [t for t in tasks_all if t.chunk not in done], manifest


def run_sweep(
    config: SweepConfig,
    out: Path,
    jobs: int = -1,
    chunk_size: int | None = None,
    backend: str = "loky",
    scheduler: str | None = None,
    resume: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> Summary:
    """Play every missing chunk of the sweep and write the dataset and manifest under out."""
    if backend not in BACKENDS:
        raise WelcomeSimError(f"--backend: '{backend}' is not one of {', '.join(BACKENDS)}")
    if backend == "dask" and not scheduler:
        raise WelcomeSimError("--scheduler: the dask backend needs a scheduler address (or 'local')")
    if jobs == 0 or jobs < -1:
        raise WelcomeSimError(f"--jobs: use a positive number of processes or -1 for all cores, got {jobs}")
    out = Path(out)
    tasks, manifest = plan_sweep(config, out, chunk_size, resume)
    out.mkdir(parents=True, exist_ok=True)
    manifest["run"] = {"jobs": jobs, "backend": backend, "scheduler": scheduler}
    store.write_json_atomic(manifest, out / store.MANIFEST)
    total = config.games * len(config.cells())
    done_games = total - sum(t.count for t in tasks)
    if progress:
        progress(done_games, total)
    t0 = time.perf_counter()
    games_run = 0
    last_write = time.perf_counter()
    try:
        if tasks:
            # Compile (or load from cache) once here, so workers only load the cache; the clock
            # starts after it, so games/s measures play.
            first = tasks[0]
            c = first.cell
            simulate(_cell_ruleset(c), game_seeds(0, 1), c.players, ["greedy"])
            t0 = time.perf_counter()
        for chunk, _rows, games, _secs in _execute(tasks, jobs, backend, scheduler):
            manifest["chunks"][chunk] = "done"
            games_run += games
            if progress:
                progress(done_games + games_run, total)
            if time.perf_counter() - last_write > 2.0:
                manifest["updated"] = _now()
                store.write_json_atomic(manifest, out / store.MANIFEST)
                last_write = time.perf_counter()
    except KeyboardInterrupt:
        manifest["updated"] = _now()
        store.write_json_atomic(manifest, out / store.MANIFEST)
        n_done = sum(v == "done" for v in manifest["chunks"].values())
        raise WelcomeSimError(
            f"interrupted: {n_done} of {len(manifest['chunks'])} chunks are saved in {out}; "
            "run the same command with --resume to finish"
        ) from None
    manifest["updated"] = _now()
    store.write_json_atomic(manifest, out / store.MANIFEST)
    seconds = time.perf_counter() - t0
    lf = store.scan(out)
    means = (
        lf.group_by("cell", *(c for c in CONFIG if c != "run"))
        .agg(
            games=pl.col("game").n_unique(),
            mean_score=pl.col("total").mean(),
            sd=pl.col("total").std(),
            win_rate=pl.col("won").mean(),
        )
        .sort("cell")
        .collect()
    )
    rows = int(lf.select(pl.len()).collect().item())
    return Summary(
        out,
        int(means["games"].sum()),
        rows,
        games_run,
        seconds,
        store.folder_size(out),
        means,
        manifest["reconstructed"],
    )


def _execute(tasks: list[Task], jobs: int, backend: str, scheduler: str | None):
    """Yield (chunk, rows, games, seconds) as chunks finish, in any order."""
    if not tasks:
        return
    if backend == "loky" and (jobs == 1 or len(tasks) == 1):
        for task in tasks:
            yield play_chunk(task)
        return
    from joblib import Parallel, delayed, parallel_config

    if backend == "loky":
        parallel = Parallel(n_jobs=jobs, return_as="generator_unordered")
        yield from parallel(delayed(play_chunk)(t) for t in tasks)
        return
    from dask.distributed import Client, LocalCluster

    cluster = (
        LocalCluster(n_workers=2, threads_per_worker=1, processes=True) if scheduler == "local" else None
    )
    client = Client(cluster if cluster is not None else scheduler)
    try:
        with parallel_config(backend="dask"):
            parallel = Parallel(n_jobs=jobs, return_as="generator_unordered")
            yield from parallel(delayed(play_chunk)(t) for t in tasks)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
