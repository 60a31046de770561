"""The on-disk dataset: Hive-partitioned Parquet chunks written atomically, and manifest.json."""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any

import polars as pl

from welcome_sim.sweep.config import Cell

MANIFEST = "manifest.json"
DATA = "data"


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


def write_atomic(df: pl.DataFrame, path: Path) -> None:
    """Write a Parquet file under a temporary name, then rename it into place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        df.write_parquet(tmp, compression="zstd", statistics=True)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_json_atomic(data: dict[str, Any], path: Path) -> None:
    """Write JSON under a temporary name, then rename it into place."""
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    with os.fdopen(fd, "w") as fh:
        json.dump(data, fh, indent=2, sort_keys=False)
    os.replace(tmp, path)


def read_manifest(out: Path) -> dict[str, Any] | None:
    """The manifest of an output folder, or None when there is none."""
    path = out / MANIFEST
    if not path.exists():
        return None
    with path.open() as fh:
        return json.load(fh)


def existing_chunks(out: Path) -> set[str]:
    """Chunk ids whose file is complete (renamed into place) under out/data."""
    return {p.stem for p in (out / DATA).rglob("*.parquet")} if (out / DATA).exists() else set()


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
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def scan(out: Path) -> pl.LazyFrame:
    """Lazy scan of a sweep's dataset with its partition columns."""
    return pl.scan_parquet(str(out / DATA / "**" / "*.parquet"), hive_partitioning=True)


def folder_size(out: Path) -> int:
    """Bytes under a folder."""
    return sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
