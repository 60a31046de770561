"""The package's import graph, read from the source (imports anywhere in a file, functions too)."""

from __future__ import annotations

import ast
from pathlib import Path


def module_file(root: Path, dotted: str) -> Path | None:
    """The file of a welcome_sim module under root (a package's __init__.py), or None."""
    rel = Path(*dotted.split(".")[1:])
    for cand in (root / rel / "__init__.py", root / f"{rel}.py"):
        if cand.exists():
            return cand
    return None


def edges(root: Path, path: Path) -> set[Path]:
    """Files of the package this file imports; `from package import submodule` is the submodule."""
    out: set[Path] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("welcome_sim"):
            for alias in node.names:
                target = module_file(root, f"{node.module}.{alias.name}") or module_file(root, node.module)
                if target is not None:
                    out.add(target)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("welcome_sim") and (target := module_file(root, alias.name)):
                    out.add(target)
    out.discard(path)
    return out


def reachable(root: Path, starts: list[Path]) -> set[Path]:
    """Every file the given files import, directly or through others (themselves included)."""
    seen: set[Path] = set()
    todo = list(starts)
    while todo:
        p = todo.pop()
        if p not in seen:
            seen.add(p)
            todo.extend(edges(root, p))
    return seen
