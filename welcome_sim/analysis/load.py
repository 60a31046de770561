"""Opening sweep runs for analysis: lazy scans with a `run` column, and their manifests."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from welcome_sim.errors import WelcomeSimError
from welcome_sim.sweep import store


@dataclass
class Run:
    """One sweep folder: its name, manifest and lazy rows."""

    name: str
    path: Path
    manifest: dict[str, Any]
    rows: pl.LazyFrame


def run_folder(path: str | Path) -> Path:
    """path as a folder that exists (error naming it if it is empty, missing or a file)."""
    p = Path(path)
    if not str(path).strip():
        raise WelcomeSimError("RUNS: empty path; give a sweep folder")
    if not p.exists():
        raise WelcomeSimError(f"{p}: no such folder; give a sweep folder (the --out of welcome-sim sweep)")
    if not p.is_dir():
        raise WelcomeSimError(f"{p}: not a folder; give a sweep folder (the --out of welcome-sim sweep)")
    return p


def open_run(path: str | Path, name: str | None = None) -> Run:
    """A sweep folder as a Run (error if it is not one, if its manifest is malformed, if a chunk
    is damaged: missing, empty, truncated, with another checksum or row count, or holds no
    finished chunk)."""
    p = run_folder(path)
    try:
        manifest = store.read_manifest(p)
    except (ValueError, OSError) as exc:  # JSON or UTF-8 errors are ValueErrors
        raise WelcomeSimError(
            f"{p / store.MANIFEST}: unreadable manifest ({exc}); re-run the sweep"
        ) from None
    if manifest is not None and not isinstance(manifest, dict):
        raise WelcomeSimError(f"{p / store.MANIFEST}: not a sweep manifest (expected a JSON object)")
    if manifest is None:
        raise WelcomeSimError(
            f"{p}: not a sweep folder (no {store.MANIFEST}); run `welcome-sim sweep --out {p}` first"
        )
    good, bad = store.check_chunks(p, manifest)
    if bad:
        raise store.damaged_error(p, manifest, bad)
    if not good:
        raise WelcomeSimError(f"{p}: the sweep has no finished chunk yet")
    label = name or p.name
    return Run(label, p, manifest, store.scan(p).with_columns(run=pl.lit(label)))


def open_runs(paths: list[str]) -> list[Run]:
    """Several runs with distinct names (folder names, made unique with their parent if needed)."""
    if not paths:
        raise WelcomeSimError("give at least one sweep folder")
    seen: dict[Path, str] = {}
    for p in paths:
        key = Path(p).resolve()
        if key in seen:
            raise WelcomeSimError(f"{p}: the same sweep is given twice ({seen[key]} and {p}); give each once")
        seen[key] = p
    names = [Path(p).name for p in paths]
    if len(set(names)) != len(names):
        names = [f"{Path(p).parent.name}/{Path(p).name}" for p in paths]
    if len(set(names)) != len(names):
        names = [str(p) for p in paths]
    return [open_run(p, n) for p, n in zip(paths, names, strict=True)]


def combined(runs: list[Run]) -> pl.LazyFrame:
    """All runs' rows in one lazy frame (columns missing from a run are null)."""
    return pl.concat([r.rows for r in runs], how="diagonal_relaxed")
