"""The package's import graph has no circles: every module can be read from below."""

from __future__ import annotations

from pathlib import Path

from importgraph import edges

import welcome_sim

ROOT = Path(welcome_sim.__file__).parent


def _on_circles(root: Path) -> list[str]:
    """Files that reach themselves through imports."""
    graph = {p: edges(root, p) for p in root.rglob("*.py")}
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
