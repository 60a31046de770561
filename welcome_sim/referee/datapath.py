"""Where the referee finds a data file named by the CLI: a built-in by name, or a path."""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "simcore" / "data"


def data_path(kind: str, name_or_path: str) -> Path:
    """A built-in file's path by its name, or the path given: a name has no folder and no .toml
    suffix (the loaders' own rule), so a file of one's own may have any name (mine.txt)."""
    path = Path(name_or_path)
    if path.suffix == ".toml" or path.parent != Path("."):
        return path
    return DATA / kind / f"{name_or_path}.toml"
