"""Where the referee finds a data file named by the CLI: a built-in by name, or a path."""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "simcore" / "data"


def data_path(kind: str, name_or_path: str) -> Path:
    """A built-in file's path by its name, or the path given (the loaders' own rule): a name has no
    folder and no .toml suffix and is a built-in's, so a file of one's own may have any name."""
    path = Path(name_or_path)
    if path.suffix == ".toml" or path.parent != Path("."):
        return path
    builtin = DATA / kind / f"{name_or_path}.toml"
    return path if not builtin.exists() and path.exists() else builtin
