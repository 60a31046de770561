"""The package's import graph has no circles: every module can be read from below."""

from __future__ import annotations

import ast
from pathlib import Path

import welcome_sim

ROOT = Path(welcome_sim.__file__).parent


def _module_file(root: Path, dotted: str) -> Path | None:
    rel = Path(*dotted.split(".")[1:])
    for cand in (root / rel / "__init__.py", root / f"{rel}.py"):
        if cand.exists():
            return cand
    return None


def _edges(root: Path, path: Path) -> set[Path]:
    """Files of the package this file imports, anywhere in it (functions included)."""
    out: set[Path] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("welcome_sim"):
            for alias in node.names:  # `from package import submodule` imports the submodule
                target = _module_file(root, f"{node.module}.{alias.name}") or _module_file(root, node.module)
                if target is not None:
                    out.add(target)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("welcome_sim") and (target := _module_file(root, alias.name)):
                    out.add(target)
    out.discard(path)
    return out


def _on_circles(root: Path) -> list[str]:
    """Files that reach themselves through imports."""
    graph = {p: _edges(root, p) for p in root.rglob("*.py")}
    found = []
    for start in graph:
        seen: set[Path] = set()
        todo = list(graph[start])
        while todo:
            p = todo.pop()
            if p == start:
                found.append(str(start.relative_to(root)))
                break
            if p not in seen:
                seen.add(p)
                todo.extend(graph.get(p, ()))
    return sorted(found)


def test_no_import_circles() -> None:
    assert _on_circles(ROOT) == []


def test_the_check_sees_a_circle_through_a_function_import(tmp_path) -> None:
    pkg = tmp_path / "welcome_sim"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from welcome_sim.sub import b\n")
    (pkg / "sub" / "b.py").write_text("def f():\n    from welcome_sim.a import y\n")
    (pkg / "c.py").write_text("import welcome_sim.a\n")
    assert _on_circles(pkg) == ["a.py", "sub/b.py"]
