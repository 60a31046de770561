"""Running a sweep: chunks of games through joblib (local processes) or a Dask cluster, resumably."""

from __future__ import annotations

import datetime as dt
import itertools
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from welcome_sim import __version__, kernel_digest
from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.engine.game import batch_variant, game_seeds, simulate
from welcome_sim.simcore.engine.parallel import resolve_jobs, watch_parent
from welcome_sim.simcore.engine.warmup import missing_variants
from welcome_sim.simcore.ground import userinput as U
from welcome_sim.simcore.rules.ruleset import Ruleset, is_builtin_label
from welcome_sim.strategies.registry import Choice, parse_strategy
from welcome_sim.sweep import datafiles as D
from welcome_sim.sweep import store
from welcome_sim.sweep.config import (
    DEFAULT_CHUNK,
    Cell,
    SweepConfig,
    SweepPlan,
    cell_ruleset,
    own_plan_cards,
)
from welcome_sim.sweep.rows import CONFIG, chunk_frame

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
    deck_name: str  # the deck's, plan set's and expansion's labels, hashed once when the sweep is planned
    plans_name: str
    expansion_name: str
    # Each seat's strategy, parsed once when the sweep is planned: parsing reads the user's tuned
    # sets from disk, which per chunk cost about 0.4 ms (1% of a chunk of random games).
    seats: tuple[Choice, ...]

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
    replayed: dict[str, str]  # damaged chunks found on resume and played again: {file: problem}


def resolved(config: SweepConfig | SweepPlan) -> SweepPlan:
    """A sweep plan: the one given, or the configuration validated (once) into one."""
    return config if isinstance(config, SweepPlan) else config.validate()


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


def play_chunk(task: Task) -> tuple[str, int, int, float, str]:
    """Play a chunk, write it atomically; return (chunk id, rows, games, seconds, sha256)."""
    t0 = time.perf_counter()
    cell = task.cell
    rs = cell_ruleset(cell)
    _check_labels(rs, task)
    seeds = game_seeds(task.seed, task.count, start=task.first)
    fixed, per_game = _plan_table(rs, cell.plans, task.first, task.count)
    res = simulate(rs, seeds, cell.players, task.seats, fixed, plans_per_game=per_game)
    df = chunk_frame(res, cell, task.first, task.deck_name, task.plans_name, task.expansion_name)
    path = store.partition_dir(Path(task.out), cell, task.sheet_name) / f"{task.chunk}.parquet"
    digest = store.write_atomic(df, path)
    return task.chunk, df.height, task.count, time.perf_counter() - t0, digest


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def _labels(rs: Ruleset) -> tuple[str, str, str, str]:
    """The labels of a ruleset's files (sheet, deck, plan set, expansion): a file of one's own is
    named with the hash of the bytes it was loaded from."""
    return rs.sheet_label, rs.deck_label, rs.plans_label, rs.expansion_label


def _check_labels(rs: Ruleset, task: Task) -> None:
    """Refuse to play a chunk when a file of one's own changed since the sweep was planned: its
    rows would carry the planned content's label and be played with other data. The labels are
    of the bytes each file was loaded from (a ruleset loaded again when a file's content changes)."""
    planned = (task.sheet_name, task.deck_name, task.plans_name, task.expansion_name)
    if all(is_builtin_label(x) for x in planned):
        return  # the shipped files change only with the code, which the kernel digest guards
    now = _labels(rs)
    for what, then, label in zip(("sheet", "deck", "plan set", "expansion"), planned, now, strict=True):
        if then != label:
            raise WelcomeSimError(
                f"chunk {task.chunk}: the {what} file changed while the sweep ran (planned as {then}, "
                f"now {label}); restore it and run the same command with --resume"
            )


def sheet_label(rs: Ruleset) -> str:
    """The sheet's name in the rows: a built-in sheet's name, or for a sheet file of one's own its
    name plus the first 8 hex digits of its content's sha256 ('classic.1a2b3c4d'), so a copy of a
    built-in sheet that keeps its name never merges with it (nor two versions of one file)."""
    return rs.sheet_label


def check_run_options(backend: str, scheduler: str | None, jobs: int) -> None:
    """--backend, --scheduler and --jobs fit together."""
    if backend not in BACKENDS:
        raise WelcomeSimError(f"--backend: '{backend}' is not one of {', '.join(BACKENDS)}")
    if backend == "dask" and not scheduler:
        raise WelcomeSimError("--scheduler: the dask backend needs a scheduler address (or 'local')")
    if jobs == 0 or jobs < -1:
        raise WelcomeSimError(f"--jobs: use a positive number of processes or -1 for all cores, got {jobs}")


def check_out_folder(out: Path, resume: bool) -> dict[str, Any] | None:
    """The output folder's manifest, None for a new sweep; refuses --resume without one and a
    folder that holds something else (checked again under the folder's lock by plan_sweep)."""
    old = store.read_manifest(out)
    if old is None:
        if resume:
            raise WelcomeSimError(f"--resume: {out} holds no sweep to resume (no {store.MANIFEST})")
        if out.exists() and any(p.name != store.LOCK for p in out.iterdir()):
            raise WelcomeSimError(
                f"--out: {out} exists and is not a sweep folder; choose an empty or new folder"
            )
    return old


# Chunks per sweep at most: each is a task and a manifest entry. 200,000 one-game chunks took
# 18 s and 330 MB to plan and 6 s per manifest save (36 MB) on a loaded 2-core machine; a billion
# took minutes and gigabytes before the first game.
MAX_CHUNKS = 100_000
# Bytes in one file name and in a whole path (Linux; macOS allows less of the second).
NAME_MAX, PATH_MAX = 255, 4096


def check_chunk_count(plan: SweepPlan, size: int) -> None:
    """The sweep makes at most MAX_CHUNKS chunks; the error names a chunk size that would do."""
    cells = len(plan.cells)
    per_cell = -(-plan.config.games // size)
    if cells * per_cell <= MAX_CHUNKS:
        return
    fits = MAX_CHUNKS // cells
    need = -(-plan.config.games // fits) if fits else 0
    if not fits or need > U.MAX_CHUNK:
        fix = "play fewer --games or fewer grid cells"
    else:
        fix = f"use --chunk-size {need:,} or more"
    raise WelcomeSimError(
        f"--chunk-size: {size:,} game{'s' * (size != 1)} per chunk makes {cells * per_cell:,} chunks "
        f"({cells:,} grid cell{'s' * (cells != 1)} x {per_cell:,}); the limit is {MAX_CHUNKS:,}: {fix}"
    )


def chunk_size_for(plan: SweepPlan, chunk_size: int | None) -> int:
    """The chunk size of a new sweep: the one given (refused beyond MAX_CHUNKS chunks), else the
    default, made larger where a huge sweep would exceed MAX_CHUNKS (rows do not depend on it)."""
    if chunk_size is None:
        fits = MAX_CHUNKS // max(1, len(plan.cells))
        chunk_size = max(DEFAULT_CHUNK, -(-plan.config.games // fits) if fits else DEFAULT_CHUNK)
        chunk_size = min(chunk_size, U.MAX_CHUNK)
    check_chunk_count(plan, chunk_size)
    return chunk_size


def check_paths(plan: SweepPlan, out: Path) -> None:
    """Every chunk file's path can be made: a sheet's name (part of a folder name) or a deep --out
    folder fail here, before a manifest is written or a game played."""
    root = Path(os.path.abspath(out))
    for cell in plan.cells:
        label = sheet_label(plan.ruleset(cell))
        # The longest name a chunk's file has: its temporary name while it is written.
        rel = store.partition_dir(Path(""), cell, label) / f"{store.chunk_id(cell, 0)}.parquet.abcdefgh.tmp"
        for part in rel.parts:
            if len(part.encode("utf-8")) > NAME_MAX:
                raise WelcomeSimError(
                    f"--sheet: {cell.sheet}: the sheet's name makes a folder name of "
                    f"{len(part.encode('utf-8')):,} bytes ({part[:30]}...); the limit is {NAME_MAX}: "
                    f"shorten its `name` by {len(part.encode('utf-8')) - NAME_MAX} characters or more"
                )
        full = len(str(root / rel).encode("utf-8"))
        if full >= PATH_MAX:
            raise WelcomeSimError(
                f"--out: {out}: the chunk files' paths would be {full:,} bytes long; the limit is "
                f"{PATH_MAX - 1:,}: choose a shorter --out folder"
            )


def _cells_and_tasks(
    plan: SweepPlan, out: Path, size: int, segments: list[int]
) -> tuple[list[Task], list[dict[str, Any]], dict[str, Choice]]:
    """Every chunk of the sweep, the manifest's record of each cell and each strategy name parsed."""
    config = plan.config
    tasks_all = []
    cells_doc = []
    parsed: dict[str, Choice] = {}
    for cell in plan.cells:
        rs = plan.ruleset(cell)
        # Files of one's own are hashed once per cell, not per chunk.
        label, deck_name, plans_name, x_name = _labels(rs)
        for name in cell.seats():
            if name not in parsed:
                parsed[name] = parse_strategy(name)
        seats = tuple(parsed[name] for name in cell.seats())
        cells_doc.append(
            {
                "cell": cell.index,
                "edition": cell.edition,
                "sheet": cell.sheet,
                "sheet_name": label,
                "mode": cell.mode,
                "players": cell.players,
                "table": cell.table,
                "opponent": cell.opponent,
                "expansion": cell.expansion,
                "expansion_name": x_name,
                "nine_three_quarters": cell.nine,
                "deck": cell.deck or rs.edition.deck,
                "deck_name": deck_name,
                # An expansion with its own Plan cards (the American Dream) plays its file's plans.
                "plans_file": cell.plans_file
                or (cell.expansion if own_plan_cards(cell.expansion) else rs.edition.plans),
                "plan_set_name": plans_name,
                "seats": cell.seats(),
                "plans": cell.plans,
                # The --vary values, by path: what the cell's rows' `vary` column says.
                **({"vary": {o.path: o.value for o in cell.vary}} if cell.vary else {}),
            }
        )
        for first, count in store.chunk_spans(segments, size):
            tasks_all.append(
                Task(
                    cell,
                    first,
                    count,
                    config.seed,
                    str(out),
                    label,
                    deck_name,
                    plans_name,
                    x_name,
                    seats,
                )
            )
    return tasks_all, cells_doc, parsed


def _check_extended_chunks(plan: SweepPlan, size: int, segments: list[int]) -> None:
    """An extended sweep still makes at most MAX_CHUNKS chunks (its chunk size is the one it began with)."""
    count = len(plan.cells) * len(store.chunk_spans(segments, size))
    if count > MAX_CHUNKS:
        raise WelcomeSimError(
            f"--games: {plan.config.games:,} games per cell in chunks of {size:,} games (the size this sweep "
            f"began with) make {count:,} chunks; the limit is {MAX_CHUNKS:,}: sweep into a new --out folder"
        )


def check_same_sweep(
    plan: SweepPlan, old: dict[str, Any], out: Path, files: list[dict[str, str]] | None = None
) -> bool:
    """Refuse (WelcomeSimError) to add to a sweep folder holding other settings, fewer games than
    the folder's, data files changed since, or games of other code; True when this sweep extends
    it (more games), False when it is the same. Reads, writes nothing."""
    extends = store.existing_sweep(plan.config, old, out) == "extend"
    D.check_data(old, D.data_files(plan) if files is None else files, out)
    code = kernel_digest()
    if old.get("kernel_digest") != code:
        raise WelcomeSimError(
            f"--out: {out} was started by other game code (kernel digest "
            f"{old.get('kernel_digest', 'not recorded')} there, {code} now): its games and columns "
            "would not match the new ones; sweep into a new --out folder"
        )
    return extends


def plan_sweep(
    plan: SweepPlan | SweepConfig, out: Path, chunk_size: int | None, resume: bool
) -> tuple[list[Task], dict[str, Any], dict[str, str]]:
    """Check the output folder against the sweep (a configuration is validated first); return the
    chunks still to play, the manifest to write and the damaged chunks found ({file: problem}, to
    replay). Refuses to mix a different configuration into an existing sweep. Call with the
    folder's lock held."""
    plan = resolved(plan)
    config = plan.config
    old = check_out_folder(out, resume)
    files = D.data_files(plan)
    if chunk_size is not None and chunk_size < 1:
        raise WelcomeSimError(f"--chunk-size: must be at least 1 game, got {chunk_size}")
    segments = [config.games]
    if old is None:
        size = chunk_size_for(plan, chunk_size)
    else:
        extends = check_same_sweep(plan, old, out, files)
        segments = store.segments_of(old) + ([config.games] if extends else [])
        if not resume and not extends and not store.is_complete(old, out):
            raise WelcomeSimError(f"--out: {out} holds this sweep, unfinished; add --resume to finish it")
        size = old["chunk_size"]
        if chunk_size is not None and chunk_size != size:
            raise WelcomeSimError(
                f"--chunk-size: this sweep was started with chunks of {size} games, not {chunk_size}"
            )
        _check_extended_chunks(plan, size, segments)
    tasks_all, cells_doc, parsed = _cells_and_tasks(plan, out, size, segments)
    chunks = {
        t.chunk: {
            "status": "pending",
            "file": str(store.partition_dir(Path("."), t.cell, t.sheet_name) / f"{t.chunk}.parquet"),
            "rows": t.count * t.cell.players,
        }
        for t in tasks_all
    }
    # What each strategy name means now: a tuned set or ladder level read from a file may have
    # changed since the sweep started, and rows played under two meanings must not mix.
    params = {name: [float(x) for x in choice.vector()] for name, choice in sorted(parsed.items())}
    replayed: dict[str, str] = {}
    if old is not None:
        before = old.get("strategy_params")
        if before is not None and not isinstance(before, dict):
            raise WelcomeSimError(
                f"{out / store.MANIFEST}: key 'strategy_params': expected a table of strategies; "
                f"{store._REPAIR_MANIFEST}"
            )
        if before is not None and before != params:
            changed = sorted(k for k in params if before.get(k) != params[k])
            raise WelcomeSimError(
                f"--strategy: {', '.join(repr(k) for k in changed)} now has other parameter values than when "
                f"{out} was started (a tuned set or the skill ladder changed); sweep into a new --out folder"
            )
        if not set(old["chunks"]) <= set(chunks) or (not extends and set(old["chunks"]) != set(chunks)):
            raise WelcomeSimError(
                f"{out / store.MANIFEST}: its chunk list is not this sweep's; {store._REPAIR_MANIFEST}"
            )
        for cid, rec in old["chunks"].items():
            chunks[cid].update(rec)
        store.remove_temporaries(out)
        good, bad = store.check_chunks(out, {"chunks": chunks})
        for cid, digest in good.items():
            chunks[cid].update(status="done", sha256=digest)
        for cid, problem in bad.items():
            replayed[chunks[cid]["file"]] = problem
            (out / chunks[cid]["file"]).unlink(missing_ok=True)
            chunks[cid]["status"] = "pending"
            chunks[cid].pop("sha256", None)
    manifest = {
        "format": store.FORMAT,
        "tool": "welcome-sim",
        "version": __version__,
        "kernel_digest": kernel_digest(),
        "created": old["created"] if old else _now(),
        "updated": _now(),
        "sweep_seed": config.seed,
        "games_per_cell": config.games,
        # Written once extended: the games per cell it started with and each total since (chunks
        # keep their spans, store.chunk_spans).
        **({"segments": segments} if len(segments) > 1 else {}),
        "chunk_size": size,
        "config": config.identity(),
        "config_digest": config.digest(),
        "data_digest": D.data_digest(files),
        "seeds": "per game: numpy SeedSequence(sweep_seed, spawn_key=(game index within its cell,))",
        "cells": cells_doc,
        "strategy_params": params,
        "data_files": files,
        # Each --vary path's value in its file as read (the effect curves' reference).
        **({"vary_own": D.own_values(plan)} if config.vary else {}),
        "reconstructed": sorted({f["path"] for f in files if f["provenance"] == "reconstructed"}),
        "chunks": chunks,
    }
    return [t for t in tasks_all if chunks[t.chunk]["status"] != "done"], manifest, replayed


def run_sweep(
    config: SweepConfig | SweepPlan,
    out: Path,
    jobs: int = -1,
    chunk_size: int | None = None,
    backend: str = "loky",
    scheduler: str | None = None,
    resume: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> Summary:
    """Play every missing chunk of the sweep and write the dataset and manifest under out.

    The folder is locked (out/sweep.lock) while the sweep plans and writes. A configuration is
    validated here; a plan (SweepConfig.validate()'s) is not validated again."""
    check_run_options(backend, scheduler, jobs)
    out = Path(out)
    plan = resolved(config)
    created = not out.exists()
    lock = store.acquire_lock(out)
    try:
        return _run_locked(plan, out, jobs, chunk_size, backend, scheduler, resume, progress)
    finally:
        store.release_lock(lock)
        if created and out.is_dir() and not any(out.iterdir()):
            out.rmdir()  # refused before writing anything: leave no empty folder behind


def _run_locked(plan, out, jobs, chunk_size, backend, scheduler, resume, progress) -> Summary:
    tasks, manifest, replayed = plan_sweep(plan, out, chunk_size, resume)
    manifest["run"] = {"jobs": jobs, "backend": backend, "scheduler": scheduler}
    store.write_json_atomic(manifest, out / store.MANIFEST)
    total = plan.config.games * len(plan.cells)
    done_games = total - sum(t.count for t in tasks)
    if progress:
        progress(done_games, total)
    t0 = time.perf_counter()
    games_run = 0
    last_write = time.perf_counter()
    save_every = 2.0
    chunks = manifest["chunks"]
    try:
        if tasks and (_in_process(tasks, jobs, backend) or _missing_kernel(plan)):
            # Compile (or load from cache) once here, so workers only load the cache; the clock
            # starts after it, so games/s measures play. A compiled kernel that only the workers
            # play is not loaded here: 0.4 s of CPU before the first chunk, taken from them.
            first = tasks[0]
            c = first.cell
            simulate(plan.ruleset(c), game_seeds(0, 1), c.players, c.seats())
            t0 = time.perf_counter()
        for chunk, rows, games, _secs, digest in _execute(tasks, jobs, backend, scheduler):
            if rows != chunks[chunk]["rows"]:
                raise WelcomeSimError(f"chunk {chunk}: {rows} rows written, {chunks[chunk]['rows']} expected")
            chunks[chunk].update(status="done", sha256=digest)
            games_run += games
            if progress:
                progress(done_games + games_run, total)
            if time.perf_counter() - last_write > save_every:
                t_save = time.perf_counter()
                manifest["updated"] = _now()
                store.write_json_atomic(manifest, out / store.MANIFEST)
                last_write = time.perf_counter()
                # Every 2 s, or less often when the manifest is slow to write (0.14 s at 20,000
                # chunks): saving costs at most 2% of the run. A chunk written since the last
                # save is not lost: a resume checks its file and keeps it.
                save_every = max(2.0, 50 * (last_write - t_save))
    except KeyboardInterrupt:
        manifest["updated"] = _now()
        store.write_json_atomic(manifest, out / store.MANIFEST)
        n_done = sum(v["status"] == "done" for v in chunks.values())
        raise WelcomeSimError(
            f"interrupted: {n_done} of {len(chunks)} chunks are saved in {out}; "
            "run the same command with --resume to finish"
        ) from None
    manifest["updated"] = _now()
    store.write_json_atomic(manifest, out / store.MANIFEST)
    seconds = time.perf_counter() - t0
    lf = store.scan(out)
    present = lf.collect_schema().names()
    means = (
        lf.group_by("cell", *(c for c in CONFIG if c != "run" and c in present))
        .agg(
            games=pl.col("game").n_unique(),
            mean_score=pl.col("total").mean(),
            sd=pl.col("total").std(),
            win_rate=pl.col("won").mean(),
            # The rows counted in the same pass over the files (a second scan cost 0.1 s of a
            # million-game sweep's end).
            rows=pl.len(),
        )
        .sort("cell")
        # One player alone always ranks first: a win rate only where someone can beat them (a
        # table, or the AAA in the solo mode).
        .with_columns(
            win_rate=pl.when((pl.col("players") > 1) | pl.col("opponent").is_not_null()).then("win_rate")
        )
        .collect()
    )
    rows = int(means["rows"].sum())
    means = means.drop("rows")
    return Summary(
        out,
        int(means["games"].sum()),
        rows,
        games_run,
        seconds,
        store.folder_size(out),
        means,
        manifest["reconstructed"],
        replayed,
    )


def _in_process(tasks: list[Task], jobs: int, backend: str) -> bool:
    """Whether _execute plays the chunks in this process."""
    return backend == "loky" and (resolve_jobs(jobs) == 1 or len(tasks) == 1)


def _missing_kernel(plan: SweepPlan) -> bool:
    """Whether a kernel variant the sweep plays is not compiled in the cache yet."""
    return bool(missing_variants(sweep_variants(plan)))


def sweep_variants(plan: SweepPlan) -> tuple[str, ...]:
    """The compiled kernel variants the sweep's cells play on."""
    return tuple(sorted({batch_variant(c.expansion == "none", c.seats(), c.players) for c in plan.cells}))


def _play_chunk_watched(task: Task, parent: int) -> tuple[str, int, int, float, str]:
    """play_chunk in a local worker process that exits when the sweep's process is killed."""
    watch_parent(parent)
    return play_chunk(task)


def _execute(tasks: list[Task], jobs: int, backend: str, scheduler: str | None):
    """Yield (chunk, rows, games, seconds) as chunks finish, in any order."""
    if not tasks:
        return
    if _in_process(tasks, jobs, backend):
        for task in tasks:
            yield play_chunk(task)
        return
    from joblib import Parallel, delayed, parallel_config

    if backend == "loky":
        parallel = Parallel(n_jobs=jobs, return_as="generator_unordered")
        yield from parallel(delayed(_play_chunk_watched)(t, os.getpid()) for t in tasks)
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
