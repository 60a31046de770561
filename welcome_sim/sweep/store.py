"""The on-disk dataset: Hive-partitioned Parquet chunks written atomically, and manifest.json."""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import itertools
import json
import os
import re
import socket
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

import polars as pl

from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.ground.userinput import SWEEP_DATA, SWEEP_LOCK, SWEEP_MANIFEST
from welcome_sim.sweep.config import Cell, SweepConfig

# A sweep folder's own files; the path checks (userinput) refuse to write over them.
MANIFEST, DATA, LOCK = SWEEP_MANIFEST, SWEEP_DATA, SWEEP_LOCK
# Version of the manifest's layout: 2 records each chunk's file, rows and sha256, and the data digest.
FORMAT = 2


def slug(text: str) -> str:
    """A path-safe form of a partition value."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_") or "_"


def partition_dir(out: Path, cell: Cell, sheet_name: str) -> Path:
    """data/edition=../sheet=../mode=../players=.. for this cell."""
    return (
        out
        / DATA
        / f"edition={slug(cell.edition)}"
        / f"sheet={slug(sheet_name)}"
        / f"mode={slug(cell.mode)}"
        / f"players={cell.players}"
    )


def chunk_id(cell: Cell, first_game: int) -> str:
    """Stable name of the chunk of a cell starting at game first_game."""
    return f"c{cell.index:04d}-g{first_game:010d}"


def chunk_spans(segments: list[int], size: int) -> list[tuple[int, int]]:
    """(first game, games) of each chunk of a cell: chunks of `size` games over each segment of games
    (a sweep's games per cell when it started, then each total it was extended to), so a sweep
    extended keeps its chunks and adds new ones after them."""
    spans, start = [], 0
    for end in segments:
        spans += [(first, min(size, end - first)) for first in range(start, end, size)]
        start = end
    return spans


def segments_of(m: dict[str, Any]) -> list[int]:
    """The games per cell the sweep was started with and each total it was extended to."""
    return list(m.get("segments", [m["games_per_cell"]]))


def write_atomic(df: pl.DataFrame, path: Path) -> str:
    """Write a Parquet file under a temporary name, then rename it into place; return the sha256
    of the bytes written (the manifest records it)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    # Encoded in memory and hashed there: the file is not read back to be hashed. The bytes are
    # the ones Polars writes to a file path (same writer, same options).
    buf = io.BytesIO()
    df.write_parquet(buf, compression="zstd", statistics=True)
    data = buf.getbuffer()
    digest = hashlib.sha256(data).hexdigest()
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return digest


def sha256_of(path: Path) -> str:
    """Full sha256 (hex) of a file's bytes."""
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def write_json_atomic(data: dict[str, Any], path: Path) -> None:
    """Write JSON under a temporary name, then rename it into place."""
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    with os.fdopen(fd, "w") as fh:
        json.dump(data, fh, indent=2, sort_keys=False)
    os.replace(tmp, path)


def read_manifest(out: Path) -> dict[str, Any] | None:
    """The manifest of an output folder, validated (WelcomeSimError naming the key), or None when
    there is none."""
    path = out / MANIFEST
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise WelcomeSimError(f"{path}: not a readable manifest ({exc}); {_REPAIR_MANIFEST}") from None
    validate_manifest(data, path)
    return data


_REPAIR_MANIFEST = "restore the file, or sweep again into a new --out folder"

# Keys of a manifest and their types (bool is never an int here).
_KEYS: dict[str, type | tuple[type, ...]] = {
    "format": int,
    "tool": str,
    "version": str,
    "created": str,
    "updated": str,
    "sweep_seed": int,
    "games_per_cell": int,
    "chunk_size": int,
    "config": dict,
    "config_digest": str,
    "data_digest": str,
    "cells": list,
    "data_files": list,
    "reconstructed": list,
    "chunks": dict,
}
_CHUNK_KEYS: dict[str, type] = {"status": str, "file": str, "rows": int}


def _type_ok(value: Any, kind: type | tuple[type, ...]) -> bool:
    return isinstance(value, kind) and not (isinstance(value, bool) and kind is int)


def _bad(path: Path, key: str, problem: str) -> WelcomeSimError:
    return WelcomeSimError(f"{path}: key '{key}': {problem}; {_REPAIR_MANIFEST}")


def validate_manifest(m: Any, path: Path) -> None:
    """Check a manifest's keys, types and consistency: the chunk list must be the one its
    cells, games_per_cell and chunk_size imply (an edited chunk_size would replay shifted chunks
    into duplicate rows)."""
    if not isinstance(m, dict):
        raise WelcomeSimError(f"{path}: expected a JSON object, got {type(m).__name__}; {_REPAIR_MANIFEST}")
    if "format" not in m:
        raise WelcomeSimError(
            f"{path}: key 'format' missing: written by a welcome-sim older than chunk checksums "
            f"(manifest format {FORMAT}); sweep again into a new --out folder"
        )
    for key, kind in _KEYS.items():
        if key not in m:
            raise _bad(path, key, "missing")
        if not _type_ok(m[key], kind):
            name = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
            raise _bad(path, key, f"expected {name}, got {type(m[key]).__name__} {m[key]!r}")
    if m["format"] != FORMAT:
        raise _bad(
            path, "format", f"{m['format']} is not a format this welcome-sim reads (it reads {FORMAT})"
        )
    for key in ("games_per_cell", "chunk_size"):
        if m[key] < 1:
            raise _bad(path, key, f"must be at least 1, got {m[key]}")
    players: dict[int, int] = {}
    for i, cell in enumerate(m["cells"]):
        if not isinstance(cell, dict) or not all(_type_ok(cell.get(k), int) for k in ("cell", "players")):
            raise _bad(path, f"cells[{i}]", "expected an object with integer 'cell' and 'players'")
        players[cell["cell"]] = cell["players"]
    for i, f in enumerate(m["data_files"]):
        if not isinstance(f, dict) or not all(isinstance(f.get(k), str) for k in ("path", "sha256")):
            raise _bad(path, f"data_files[{i}]", "expected an object with string 'path' and 'sha256'")
    for cid, rec in m["chunks"].items():
        if not isinstance(rec, dict):
            raise _bad(path, f"chunks.{cid}", f"expected an object, got {rec!r}")
        for key, kind in _CHUNK_KEYS.items():
            if not _type_ok(rec.get(key), kind):
                raise _bad(path, f"chunks.{cid}.{key}", f"expected {kind.__name__}, got {rec.get(key)!r}")
        if rec["status"] not in ("done", "pending"):
            raise _bad(path, f"chunks.{cid}.status", f"'{rec['status']}' is not done or pending")
        if rec["status"] == "done" and not isinstance(rec.get("sha256"), str):
            raise _bad(path, f"chunks.{cid}.sha256", "a done chunk needs its sha256")
    games, size = m["games_per_cell"], m["chunk_size"]
    segments = m.get("segments", [games])
    if (
        not isinstance(segments, list)
        or not segments
        or not all(_type_ok(g, int) and g >= 1 for g in segments)
        or any(b <= a for a, b in itertools.pairwise(segments))
        or segments[-1] != games
    ):
        raise _bad(path, "segments", f"expected increasing game counts ending at games_per_cell {games}")
    expected = {}
    for index, n_players in players.items():
        for first, count in chunk_spans(segments, size):
            expected[f"c{index:04d}-g{first:010d}"] = count * n_players
    if set(expected) != set(m["chunks"]):
        firsts = sorted(int(c.split("-g")[1]) for c in m["chunks"] if c.startswith("c0000-"))
        was = f" (its chunks are of {firsts[1] - firsts[0]} games)" if len(firsts) > 1 else ""
        raise _bad(
            path,
            "chunk_size",
            f"{size} games per chunk and {games} games per cell do not give the recorded chunk list{was}",
        )
    for cid, rows in expected.items():
        if m["chunks"][cid]["rows"] != rows:
            raise _bad(path, f"chunks.{cid}.rows", f"{m['chunks'][cid]['rows']}, the chunk holds {rows} rows")


def chunk_files(out: Path) -> dict[str, Path]:
    """Chunk files renamed into place under out/data, by chunk id."""
    return {p.stem: p for p in (out / DATA).rglob("*.parquet")} if (out / DATA).exists() else {}


def existing_chunks(out: Path) -> set[str]:
    """Chunk ids whose file is complete (renamed into place) under out/data."""
    return set(chunk_files(out))


def chunk_problem(path: Path, rows: int, sha256: str | None) -> tuple[str | None, str | None]:
    """(problem, sha256) of a chunk file against its manifest record: missing, empty, a checksum
    that differs, not a readable Parquet file, or another row count. Without a recorded checksum
    (a chunk written just before the manifest was last saved) the file is read whole."""
    if not path.is_file():
        return "missing", None
    if path.stat().st_size == 0:
        return "empty (0 bytes)", None
    digest = sha256_of(path)
    if sha256 is not None:
        if digest != sha256:
            return (
                f"sha256 differs from the manifest ({digest[:12]}.. on disk, {sha256[:12]}.. recorded)",
                digest,
            )
        return None, digest
    try:
        n = pl.read_parquet(path).height
    except Exception as exc:  # any decoding error: polars raises several kinds
        return f"not a readable Parquet file ({type(exc).__name__})", digest
    if n != rows:
        return f"{n} rows, the chunk holds {rows}", digest
    return None, digest


def check_chunks(out: Path, manifest: dict[str, Any]) -> tuple[dict[str, str], dict[str, str]]:
    """Verify every chunk file against the manifest: ({chunk: sha256} of the good files,
    {chunk: problem} of the damaged ones and of done chunks whose file is missing). A .parquet
    file the manifest does not list is refused (its rows would be counted twice)."""
    files = chunk_files(out)
    chunks = manifest["chunks"]
    for cid, p in sorted(files.items()):
        if cid not in chunks:
            raise WelcomeSimError(
                f"{p}: not a chunk of this sweep (manifest.json does not list it); move it out of {out}"
            )
    good: dict[str, str] = {}
    bad: dict[str, str] = {}
    for cid, rec in chunks.items():
        path = out / rec["file"]
        if cid in files and files[cid] != path:
            raise WelcomeSimError(f"{files[cid]}: chunk {cid} belongs in {path}; move it back")
        if rec["status"] != "done" and cid not in files:
            continue
        problem, digest = chunk_problem(
            path, rec["rows"], rec.get("sha256") if rec["status"] == "done" else None
        )
        if problem is None:
            good[cid] = digest or ""
        else:
            bad[cid] = problem
    return good, bad


def damaged_error(out: Path, manifest: dict[str, Any], bad: dict[str, str]) -> WelcomeSimError:
    """The one-line refusal of analysis over damaged chunks, naming the first and the repair."""
    cid = sorted(bad)[0]
    more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
    return WelcomeSimError(
        f"{out / manifest['chunks'][cid]['file']}: damaged chunk: {bad[cid]}{more}; repair: run the "
        f"sweep again with the same options, --out {out} and --resume (it replays damaged chunks)"
    )


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def acquire_lock(out: Path) -> Path:
    """Create out/sweep.lock naming this process (pid, host, time), or refuse naming the holder.
    A lock left by a process of this host that no longer runs (a killed sweep) is taken over."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / LOCK
    me = {"pid": os.getpid(), "host": socket.gethostname(), "since": _now()}
    for _ in range(3):
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            try:
                holder = json.loads(path.read_text(encoding="utf-8"))
                pid, host, since = int(holder["pid"]), str(holder["host"]), str(holder["since"])
            except (OSError, ValueError, KeyError, TypeError):
                raise WelcomeSimError(
                    f"--out: {out} is locked by another sweep ({path} unreadable); if no sweep is "
                    f"writing there, delete {path}"
                ) from None
            if host == me["host"] and not _pid_alive(pid):
                path.unlink(missing_ok=True)  # stale: its process is gone
                continue
            raise WelcomeSimError(
                f"--out: {out} is locked by the sweep of pid {pid} on {host} since {since}; wait for it "
                f"to finish, or if that process is gone delete {path}"
            ) from None
        with os.fdopen(fd, "w") as fh:
            json.dump(me, fh)
        return path
    raise WelcomeSimError(f"--out: could not take the lock {path}; try again")


def release_lock(path: Path) -> None:
    """Remove the lock if this process still holds it."""
    try:
        holder = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    if holder.get("pid") == os.getpid() and holder.get("host") == socket.gethostname():
        path.unlink(missing_ok=True)


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def remove_temporaries(out: Path) -> int:
    """Delete half-written chunk files left by an interrupted run; return how many."""
    n = 0
    if (out / DATA).exists():
        for p in (out / DATA).rglob("*.tmp"):
            p.unlink(missing_ok=True)
            n += 1
    return n


def file_digest(path: str) -> str:
    """sha256 of a data file's bytes (first 16 hex digits)."""
    return sha256_of(Path(path))[:16]


def scan(out: Path) -> pl.LazyFrame:
    """Lazy scan of a sweep's dataset with its partition columns."""
    return pl.scan_parquet(str(out / DATA / "**" / "*.parquet"), hive_partitioning=True)


def folder_size(out: Path) -> int:
    """Bytes under a folder."""
    return sum(p.stat().st_size for p in out.rglob("*") if p.is_file())


def existing_sweep(config: SweepConfig, old: dict[str, Any], out: Path) -> str:
    """How a sweep folder's sweep relates to this configuration: 'same', or 'extend' (the same
    settings with more games per cell: the first games are the ones played, with the same seeds);
    else WelcomeSimError (other settings, or fewer games)."""
    have = old["games_per_cell"]
    if old["config_digest"] == config.digest():
        return "same"
    if old["config_digest"] == replace(config, games=have).digest():
        if config.games > have:
            return "extend"
        raise WelcomeSimError(
            f"--games: {out} holds {have:,} games per grid cell, more than the {config.games:,} asked; a "
            f"sweep never shrinks: give --games {have} or more, or another --out folder"
        )
    diffs = [
        f"{k}: {old['config'].get(k)!r} there, {v!r} now"
        for k, v in config.identity().items()
        if old["config"].get(k) != v and k != "games"
    ]
    raise WelcomeSimError(
        f"--out: {out} holds a different sweep ({'; '.join(diffs) or 'config_digest differs'}); "
        "use another --out folder instead of mixing data"
    )


def is_complete(old: dict[str, Any], out: Path) -> bool:
    """Every chunk of the manifest is done and its file is in place."""
    files = chunk_files(out)
    return all(rec["status"] == "done" and cid in files for cid, rec in old["chunks"].items())
