"""Kernel speed: games per second on one or more processes, the committed baseline, and the same
measurement run alternately against another git revision."""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import math
import os
import platform
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

import welcome_sim
from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.rules.ruleset import Ruleset

REPO_ROOT = Path(welcome_sim.__file__).resolve().parent.parent
BASELINE_FILE = REPO_ROOT / "benchmarks" / "baseline.json"
BASELINE_FORMAT = 1
# What makes two measurements comparable: a baseline row matches a measured one on all of these.
KEY_FIELDS = ("edition", "sheet", "mode", "opponent", "expansion", "nine", "strategy", "players", "jobs")
BENCH_SEED = 12345


@dataclass(frozen=True)
class Measurement:
    """One configuration's best timed run."""

    key: dict[str, Any]
    games: int
    seconds: float  # wall seconds of the best repetition (all processes, warm)
    warmup_seconds: float  # compiling or loading the kernel before the clock started

    @property
    def games_per_second(self) -> float:
        """Games per second, summed over the processes."""
        return self.games / self.seconds


def bench_key(ruleset: Ruleset, strategy: str, players: int, jobs: int) -> dict[str, Any]:
    """The baseline key of a measurement; a deck or plan set of one's own adds its label, and an
    expansion of one's own is named by its label, so its rows never pass for the built-in ones
    (built-in keys stay as they were)."""
    from welcome_sim.simcore.rules.ruleset import is_builtin_label

    own = {
        key: label
        for key, label in (("deck", ruleset.deck_label), ("plans", ruleset.plans_label))
        if not is_builtin_label(label)
    }
    return own | {
        "edition": ruleset.edition.name,
        "sheet": ruleset.sheet_label,
        "mode": ruleset.mode,
        "opponent": ruleset.opponent.name if ruleset.opponent is not None else "",
        "expansion": ruleset.expansion_label,  # a copy of one's own: its name and hash
        "nine": ruleset.nine,
        "strategy": strategy,
        "players": players,
        "jobs": jobs,
    }


def _timed_share(ruleset: Ruleset, seeds: np.ndarray, players: int, strategy: str) -> tuple[float, float]:
    """Play these games after loading the kernel; return (start, end) on the wall clock, which
    (unlike perf_counter) every process reads alike."""
    from welcome_sim.simcore.engine.game import simulate

    simulate(ruleset, seeds[:2], players, [strategy])
    start = time.time()
    simulate(ruleset, seeds, players, [strategy])
    return start, time.time()


def measure(
    ruleset: Ruleset, strategy: str, players: int, games: int, repeat: int, jobs: int = 1
) -> Measurement:
    """Best of `repeat` timings of `games` games; with jobs > 1 the games are split over that many
    processes, each warm before its clock starts, and timed from the first start to the last end."""
    from welcome_sim.simcore.engine.game import batch_variant, game_seeds, simulate

    seeds = game_seeds(BENCH_SEED, games)
    t0 = time.perf_counter()
    simulate(ruleset, seeds[:10], players, [strategy])  # compile (or load the cache) untimed
    if jobs > 1:
        from welcome_sim.simcore.engine.parallel import warm_workers

        warm_workers(jobs, {batch_variant(ruleset.expansion is None, [strategy], players)})
    warm = time.perf_counter() - t0
    best = math.inf
    for _ in range(repeat):
        if jobs == 1:
            t0 = time.perf_counter()
            simulate(ruleset, seeds, players, [strategy])
            best = min(best, time.perf_counter() - t0)
            continue
        from joblib import Parallel, delayed

        shares = np.array_split(seeds, jobs)
        spans = Parallel(n_jobs=jobs)(delayed(_timed_share)(ruleset, s, players, strategy) for s in shares)
        best = min(best, max(e for _, e in spans) - min(s for s, _ in spans))
    return Measurement(bench_key(ruleset, strategy, players, jobs), games, best, warm)


# -- the committed baseline ----------------------------------------------------------------------


def _bad(path: Path, what: str) -> WelcomeSimError:
    return WelcomeSimError(
        f"{path}: {what}; write a new one with `welcome-sim bench --save-baseline` (or restore it from git)"
    )


def load_baseline(path: Path = BASELINE_FILE) -> list[dict[str, Any]]:
    """The rows of a baseline file, checked; a missing or damaged file names itself and the fault."""
    if not path.is_file():
        raise WelcomeSimError(
            f"--compare: no baseline file {path} ({'a folder' if path.exists() else 'missing'}); "
            "measure one with `welcome-sim bench --save-baseline`"
        )
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise _bad(path, "not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise _bad(path, f"not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None
    if not isinstance(doc, dict):
        raise _bad(path, "the top level is not an object")
    if doc.get("format") != BASELINE_FORMAT:
        raise _bad(path, f"key 'format' is {doc.get('format')!r}, expected {BASELINE_FORMAT}")
    rows = doc.get("rows")
    if not isinstance(rows, list):
        raise _bad(path, "key 'rows' is missing or not a list")
    for i, row in enumerate(rows, 1):
        if not isinstance(row, dict):
            raise _bad(path, f"row {i} is not an object")
        for k in (*KEY_FIELDS, "games_per_second", "commit"):
            if k not in row:
                raise _bad(path, f"row {i} has no key '{k}'")
        gps = row["games_per_second"]
        if isinstance(gps, bool) or not isinstance(gps, int | float) or not 0 < gps < math.inf:
            raise _bad(path, f"row {i}: 'games_per_second' must be a positive number, got {gps!r}")
    return rows


def find_row(rows: list[dict[str, Any]], key: dict[str, Any]) -> dict[str, Any] | None:
    """The baseline row measured in the same configuration, or None."""
    for row in rows:
        if all(row.get(k) == v for k, v in key.items()):
            return row
    return None


def current_commit() -> str:
    """The checkout's commit (with '+dirty' when the package has uncommitted edits), or 'unknown'."""
    try:
        sha = _git("rev-parse", "HEAD").strip()
        dirty = _git("status", "--porcelain", "--", "welcome_sim").strip()
    except WelcomeSimError:
        return "unknown"
    return sha + ("+dirty" if dirty else "")


def save_baseline(measured: list[Measurement], path: Path = BASELINE_FILE) -> Path:
    """Add or replace the measured rows in a baseline file (other configurations are kept)."""
    rows = load_baseline(path) if path.exists() else []
    commit = current_commit()
    when = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    for m in measured:
        row = {
            **m.key,
            "games": m.games,
            "games_per_second": round(m.games_per_second, 1),
            "commit": commit,
            "measured": when,
            "machine": machine,
        }
        old = find_row(rows, m.key)
        if old is None:
            rows.append(row)
        else:
            rows[rows.index(old)] = row
    doc = {
        "format": BASELINE_FORMAT,
        "about": "Kernel games per second per configuration, written by `welcome-sim bench "
        "--save-baseline`, read by `welcome-sim bench --compare`. Figures from another machine or "
        "another day are noisy: prefer `--compare-rev REV`, which runs both side by side.",
        "rows": rows,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    tmp.replace(path)
    return path


# -- another revision, side by side --------------------------------------------------------------

# Run in a fresh process whose import path starts at one side's checkout: it uses only the API
# every revision has (load_ruleset, game_seeds, simulate), so an old revision runs it unchanged.
DRIVER = """
import json, sys, time
args = json.loads(sys.argv[1])
try:
    try:  # the floors (simcore/engine, simcore/rules); a revision from before them, as it was
        from welcome_sim.simcore.engine.game import game_seeds, simulate
        from welcome_sim.simcore.rules.ruleset import load_ruleset
    except ModuleNotFoundError:
        from welcome_sim.simcore.game import game_seeds, simulate
        from welcome_sim.simcore.ruleset import load_ruleset
    rs = load_ruleset(args["edition"], **args["load"])
    seeds = game_seeds(args["seed"], args["games"])
    t0 = time.perf_counter()
    simulate(rs, seeds[:10], args["players"], [args["strategy"]])
    warm = time.perf_counter() - t0
    t0 = time.perf_counter()
    simulate(rs, seeds, args["players"], [args["strategy"]])
    print(json.dumps({"seconds": time.perf_counter() - t0, "warm": warm}))
except Exception as exc:
    print(json.dumps({"error": f"{type(exc).__name__}: {exc}"}))
"""


def _git(*args: str) -> str:
    try:
        done = subprocess.run(
            ["git", "-C", str(REPO_ROOT), *args], capture_output=True, text=True, timeout=120
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise WelcomeSimError(f"--compare-rev: git could not run ({exc})") from None
    if done.returncode != 0:
        raise WelcomeSimError(f"git {' '.join(args)}: {done.stderr.strip() or 'failed'}")
    return done.stdout


def revision_tree(rev: str) -> tuple[str, Path]:
    """The full commit of `rev` and a folder holding its welcome_sim package, extracted once per
    commit into the cache folder (a fixed path, so its compiled kernel is reused next time)."""
    if rev.startswith("-") or not rev.strip():
        raise WelcomeSimError(f"--compare-rev: {rev!r} is not a git revision (a commit, branch or tag)")
    try:
        sha = _git("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}").strip()
    except WelcomeSimError:
        raise WelcomeSimError(
            f"--compare-rev: {rev!r} is not a revision of the repository at {REPO_ROOT} "
            "(give a commit, branch or tag; `git log` lists them)"
        ) from None
    root = welcome_sim._cache_root() / "compare" / sha
    # Marked used before it is checked: a pruner that already judged it old sees the new time
    # after renaming it away and puts it back (prune_extracts).
    with contextlib.suppress(OSError):
        os.utime(root)
    if (root / "welcome_sim" / "__init__.py").is_file():
        return sha, root
    cacheable = _mkdir(root.parent)
    if cacheable:
        prune_extracts(root.parent)
    tmp = Path(tempfile.mkdtemp(prefix=f".{sha[:12]}-", dir=root.parent if cacheable else None))
    archive = tmp / "rev.tar"
    with open(archive, "wb") as f:
        done = subprocess.run(
            ["git", "-C", str(REPO_ROOT), "archive", sha, "welcome_sim"], stdout=f, stderr=subprocess.PIPE
        )
    if done.returncode != 0:
        shutil.rmtree(tmp, ignore_errors=True)
        raise WelcomeSimError(f"--compare-rev: {rev!r} ({sha[:12]}) has no welcome_sim folder to run")
    # The 'data' filter (refuse links and paths out of the folder) exists from Python 3.11.4.
    safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
    with tarfile.open(archive) as tar:
        tar.extractall(tmp, **safe)
    archive.unlink()
    if not cacheable:  # no cache folder: a fresh copy each time (its kernel compiles each time)
        return sha, tmp
    try:
        tmp.rename(root)
    except OSError:  # another run extracted it meanwhile
        shutil.rmtree(tmp, ignore_errors=True)
    return sha, root


# An extracted revision unused this long is removed when another is extracted (its compiled kernel
# lives in a folder named by its digest, which the cache's own pruning removes).
EXTRACT_MAX_AGE_DAYS = 30
# A half-made extract (a run stopped while extracting) older than this is debris.
PARTIAL_MAX_AGE_HOURS = 1


def prune_extracts(folder: Path, now: float | None = None) -> list[str]:
    """Remove revisions in `folder` (the cache's compare folder) unused for EXTRACT_MAX_AGE_DAYS
    and half-made extracts older than PARTIAL_MAX_AGE_HOURS; the names removed."""
    now = time.time() if now is None else now
    removed = []
    for entry in sorted(folder.iterdir()) if folder.is_dir() else []:
        partial = entry.name.startswith(".")
        limit = PARTIAL_MAX_AGE_HOURS * 3600 if partial else EXTRACT_MAX_AGE_DAYS * 86400
        try:
            if not entry.is_dir() or now - entry.stat().st_mtime <= limit:
                continue
        except OSError:  # removed meanwhile by another run
            continue
        # Renamed away first, so a run that is checking for this extract sees it whole or not at all.
        trash = folder / f".trash-{entry.name}-{os.getpid()}"
        try:
            entry.rename(trash)
            if not partial and now - trash.stat().st_mtime <= limit:  # a run marked it used meanwhile
                trash.rename(entry)
                continue
        except OSError:
            continue
        shutil.rmtree(trash, ignore_errors=True)
        removed.append(entry.name)
    return removed


def _mkdir(folder: Path) -> bool:
    with contextlib.suppress(OSError):
        folder.mkdir(parents=True, exist_ok=True)
        return True
    return False


def run_driver(root: Path, args: dict[str, Any]) -> dict[str, Any]:
    """One timed run of the driver against the package under `root`, in a fresh process."""
    welcome_sim.configure_cache()  # the user's choice, read as this process reads it
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(root), *filter(None, [env.get("PYTHONPATH")])])
    # Each side keys its own compiled kernel by its own sources (in the user's folder, if set): the
    # revision's process gets the user's choice, not this process's keyed folder.
    env.pop(welcome_sim.CHOSEN_ENV, None)
    env.pop(welcome_sim.USER_ENV, None)
    if welcome_sim.USER_CACHE_DIR is None:
        env.pop("NUMBA_CACHE_DIR", None)
    else:
        env["NUMBA_CACHE_DIR"] = welcome_sim.USER_CACHE_DIR
    if welcome_sim.OWN_LOCATORS:  # an older revision has no locator of ours to import
        env.pop("NUMBA_CACHE_LOCATOR_CLASSES", None)
    done = subprocess.run(
        [sys.executable, "-c", DRIVER, json.dumps(args)],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=3600,
    )
    lines = done.stdout.strip().splitlines()
    try:
        return json.loads(lines[-1])
    except (IndexError, json.JSONDecodeError):
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return {"error": f"exit code {done.returncode}: {tail}"}


def driver_args(load: dict[str, Any], strategy: str, players: int, games: int) -> dict[str, Any]:
    """The driver's arguments; load_ruleset's options only where they differ from the defaults, so
    a revision from before an option existed still runs."""
    edition = load.get("edition", "collector")
    extra = {k: v for k, v in load.items() if k != "edition" and v not in (None, False, "standard")}
    return {
        "edition": edition,
        "load": extra,
        "strategy": strategy,
        "players": players,
        "games": games,
        "seed": BENCH_SEED,
    }


def compare_revision(
    rev_root: Path, args: dict[str, Any], rounds: int, label: str
) -> tuple[list[float], list[float]]:
    """Run the current checkout (A) and the revision (B) in turn, A B A B ..., `rounds` times each;
    return their games/s lists. The first run of each side is a warm-up that is not counted."""
    sides = {"current": REPO_ROOT, label: rev_root}
    gps: dict[str, list[float]] = {k: [] for k in sides}
    for r in range(rounds + 1):
        for name, root in sides.items():
            got = run_driver(root, args)
            if "error" in got:
                raise WelcomeSimError(f"--compare-rev: the {name} code failed the bench run: {got['error']}")
            if r > 0:
                gps[name].append(args["games"] / got["seconds"])
    return gps["current"], gps[label]
