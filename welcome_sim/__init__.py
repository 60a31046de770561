"""welcome-sim: Monte Carlo balance analysis for Welcome To... Your Perfect Home."""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

__version__ = "0.1.0"

# Every folder holding compiled code or what it reads at compile time (constants, helpers): an
# edit in any of them must start from a clean cache. tests/test_cache_key.py checks that every
# module compiled code imports lives under one of them.
# userinput.py: the data loaders and the strategy registry check names and files with it.
KERNEL_SOURCES = ("simcore", "strategies", "expansions", "errors.py", "userinput.py")


def _numba_cache_dir() -> str:
    """A Numba cache directory keyed by the hash of every compiled source file.

    Numba's on-disk cache checks only the timestamp of a function's own file, so a kernel function
    would keep stale machine code of a helper edited in another module. Keying the directory by
    the sources' contents makes any edit start from a clean cache.
    """
    root = Path(__file__).parent
    digest = hashlib.sha1(__version__.encode())
    for sub in KERNEL_SOURCES:
        top = root / sub
        for path in sorted(top.rglob("*.py")) if top.is_dir() else [top]:
            digest.update(path.read_bytes())
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "welcome-sim"
    return str(base / f"numba-{digest.hexdigest()[:16]}")


if "NUMBA_CACHE_DIR" not in os.environ:
    os.environ["NUMBA_CACHE_DIR"] = _numba_cache_dir()
    if "numba" in sys.modules:  # numba imported first: its config was already read
        from numba.core import config as _config

        _config.CACHE_DIR = os.environ["NUMBA_CACHE_DIR"]
