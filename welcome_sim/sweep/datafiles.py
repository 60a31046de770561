"""The data files a sweep reads: listed with their hashes in its manifest, and checked when the
sweep is resumed or extended, so rows are never added from data that changed since it started."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.rules.ruleset import display_path, own_value, varied_file
from welcome_sim.sweep import store
from welcome_sim.sweep.config import SweepPlan


def data_files(plan: SweepPlan) -> list[dict[str, str]]:
    """Every data file the plan's cells read, once each: kind, name, title, path, provenance, sha256
    and the --vary paths that change it."""
    files: dict[str, dict[str, str]] = {}
    kinds = {
        "Edition": "edition",
        "Sheet": "sheet",
        "Deck": "deck",
        "PlanSet": "plans",
        "OpponentSet": "opponents",
        "Expansion": "expansion",
    }
    for cell in plan.cells:
        rs = plan.ruleset(cell)
        for item in rs.sources:
            if item.path not in files:
                files[item.path] = {
                    "kind": kinds[type(item).__name__],
                    "name": item.name,
                    "title": item.title,  # names a designer's variant in the report
                    "path": display_path(item.path),
                    "provenance": item.provenance,
                    "sha256": store.file_digest(item.path),
                }
        for o in cell.vary:
            # The file a --vary path changes: hashed as read (above), its paths listed here.
            varied = files[varied_file(rs, o)].setdefault("varied", [])
            if o.path not in varied:
                varied.append(o.path)
    return list(files.values())


def own_values(plan: SweepPlan) -> dict[str, str]:
    """Each varied path's value in its file as the sweep reads it (before the --vary value)."""
    out: dict[str, str] = {}
    for cell in plan.cells:
        for o in cell.vary:
            if o.path not in out:
                value = own_value(plan.ruleset(cell), o)
                if value is not None:
                    out[o.path] = value
    return out


def data_digest(files: list[dict[str, str]]) -> str:
    """A short hash of every data file's path and content: the data half of a sweep's identity."""
    pairs = sorted((f["path"], f["sha256"]) for f in files)
    return hashlib.sha256(json.dumps(pairs).encode()).hexdigest()[:16]


def check_data(old: dict[str, Any], files: list[dict[str, str]], out: Path) -> None:
    """Refuse to add to a sweep whose data files changed content since it started, naming the file."""
    if old["data_digest"] == data_digest(files):
        return
    then = {f["path"]: f["sha256"] for f in old["data_files"]}
    now = {f["path"]: f["sha256"] for f in files}
    for path in sorted(then.keys() | now.keys()):
        if then.get(path) != now.get(path):
            was = f"sha256 {then[path][:12]}.. then" if path in then else "not used then"
            is_ = f"{now[path][:12]}.. now" if path in now else "not used now"
            raise WelcomeSimError(
                f"{path}: this data file changed since the sweep in {out} started ({was}, {is_}); "
                "restore it to finish that sweep, or sweep the changed data into another --out folder"
            )
    raise WelcomeSimError(f"{out / store.MANIFEST}: key 'data_digest' does not match its data_files")
