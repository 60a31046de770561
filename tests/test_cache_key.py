"""The Numba cache directory is keyed by every source folder the kernel compiles from."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from importgraph import reachable

import welcome_sim
from welcome_sim import KERNEL_SOURCES, _numba_cache_dir

ROOT = Path(welcome_sim.__file__).parent


def test_everything_compiled_code_reads_is_keyed() -> None:
    # Start from the modules that hold compiled code, follow their imports to the end: constants
    # and helpers are read at compile time, so each must live in a keyed folder.
    compiled = [
        p
        for p in ROOT.rglob("*.py")
        if p != ROOT / "__init__.py" and ("simcore.jit" in p.read_text() or "numba" in p.read_text())
    ]
    assert compiled, "no compiled modules found"
    seen = reachable(ROOT, compiled)
    outside = sorted(
        str(p.relative_to(ROOT))
        for p in seen
        if p != ROOT / "__init__.py" and p.relative_to(ROOT).parts[0] not in KERNEL_SOURCES
    )
    assert outside == []


def test_an_edit_in_each_source_folder_changes_the_key(tmp_path, monkeypatch) -> None:
    # A copy of the package whose files we can edit; the key must follow each folder's content.
    copy = tmp_path / "welcome_sim"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(welcome_sim, "__file__", str(copy / "__init__.py"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    keys = {_numba_cache_dir()}
    for sub in KERNEL_SOURCES:
        top = copy / sub
        victim = sorted(top.rglob("*.py"))[-1] if top.is_dir() else top
        victim.write_text(victim.read_text() + "\n# edited\n")
        keys.add(_numba_cache_dir())
    assert len(keys) == 1 + len(KERNEL_SOURCES)
    assert all(os.path.basename(k).startswith("numba-") for k in keys)
