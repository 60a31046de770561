"""Where Numba keeps the compiled kernel: named by the package's own folders, not by the
checkout's absolute path, so a checkout elsewhere (another clone, a git worktree, a moved folder)
with the same sources loads the same compiled code instead of compiling it again.

Numba names a cache subfolder after the absolute path of the source file's folder. Its content
check is a hash of the source file (Numba 0.68), and welcome_sim/__init__.py already keys the
whole cache folder by the hash of every compiled source, so the absolute path adds nothing but a
recompile. Numba reads this class from NUMBA_CACHE_LOCATOR_CLASSES (set in welcome_sim/__init__.py).
"""

from __future__ import annotations

from pathlib import Path

from numba.core.caching import UserProvidedCacheLocator

PACKAGE = Path(__file__).resolve().parents[2]  # welcome_sim/ (this file is in simcore/ground/)


class PackageRelativeLocator(UserProvidedCacheLocator):
    """NUMBA_CACHE_DIR/welcome_sim.simcore/... for the package's files; Numba's usual naming
    (folder name and a hash of its absolute path) for every other file."""

    @classmethod
    def get_suitable_cache_subpath(cls, py_file: str) -> str:
        """The package-relative folder of a welcome_sim source file, dotted."""
        folder = Path(py_file).resolve().parent
        if folder == PACKAGE or PACKAGE in folder.parents:
            return ".".join(folder.relative_to(PACKAGE.parent).parts)
        return super().get_suitable_cache_subpath(py_file)
