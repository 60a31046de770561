"""The package's import graph has no circles, every file stands on a floor, and no import runs back
up a floor."""

from __future__ import annotations

from pathlib import Path

from importgraph import edges

import welcome_sim

ROOT = Path(welcome_sim.__file__).parent

# The floors, from the ground up (design.md, "Where the layout is going"): each a tuple of places
# under welcome_sim/ (a folder ending in "/", or a file). A file may import its own floor and those
# below it, never one above. The engine stands above the players: the compiled game loop calls
# them (Numba links a callee into its caller), while the players read only the rules and the
# ground. Every file of the package has a floor: a new module must be placed here. The referee
# stands apart (tests/test_referee_independence.py): it imports nothing of the package.
FLOORS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("ground", ("__init__.py", "errors.py", "termtables.py", "simcore/__init__.py", "simcore/ground/")),
    ("rules", ("simcore/rules/",)),
    ("players", ("strategies/",)),
    ("engine", ("simcore/engine/",)),
    ("the referee", ("referee/",)),
    (
        "views and checks",
        (
            "plantext.py",
            "textview.py",
            "textmarks.py",
            "verify.py",
            "catalogue.py",
            "datacopy.py",
            "dataupgrade.py",
        ),
    ),
    ("studies", ("studies/", "benchmark.py")),
    ("sweep", ("sweep/",)),
    ("analysis", ("analysis/",)),
    ("reports", ("reports/",)),
    ("commands", ("commands/", "cli.py")),
)


def floor_of(rel: str, floors=FLOORS) -> int | None:
    """The floor (its index) of a file given by its path under welcome_sim/; None if unplaced."""
    for i, (_, places) in enumerate(floors):
        if any(rel == p or (p.endswith("/") and rel.startswith(p)) for p in places):
            return i
    return None


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


def _upward(root: Path, floors=FLOORS) -> list[str]:
    """Imports that run back up a floor ('importer -> imported'), and files on no floor."""
    found = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        mine = floor_of(rel, floors)
        if mine is None:
            found.append(f"{rel}: on no floor")
            continue
        for target in sorted(edges(root, path)):
            theirs = floor_of(target.relative_to(root).as_posix(), floors)
            if theirs is not None and theirs > mine:
                found.append(f"{rel} -> {target.relative_to(root).as_posix()}")
    return found


def test_no_import_runs_back_up_a_floor() -> None:
    assert _upward(ROOT) == []


def _users(top: str) -> set[str]:
    """The package's files that import a module of `top` (a folder or top-level module)."""
    return {
        str(p.relative_to(ROOT))
        for p in ROOT.rglob("*.py")
        if any(t.relative_to(ROOT).parts[0].removesuffix(".py") == top for t in edges(ROOT, p))
    }


def _command_line(path: str) -> bool:
    return path == "cli.py" or path.startswith("commands/")


def test_the_studies_sit_above_the_players() -> None:
    # They moved out of strategies/: only the command line (cli.py and its commands/) and the
    # studies themselves use them.
    users = _users("studies")
    assert users and all(_command_line(u) or u.startswith("studies/") for u in users), users
    assert not (ROOT / "strategies" / "skill.py").exists()


def _command_line_imported(root: Path) -> list[str]:
    """Imports of cli.py or of commands/ from a file of the package that is neither."""
    found = []
    for path in sorted(root.rglob("*.py")):
        rel = str(path.relative_to(root))
        if _command_line(rel):
            continue
        for target in sorted(edges(root, path)):
            if target.relative_to(root).parts[0].removesuffix(".py") in ("cli", "commands"):
                found.append(f"{rel} -> {target.relative_to(root)}")
    return found


def test_the_command_line_is_the_top_floor() -> None:
    # cli.py makes the app of the commands/ modules; nothing else of the package imports either.
    assert _command_line_imported(ROOT) == []
    assert "cli.py" in _users("commands")


def test_the_command_line_rule_sees_another_user(tmp_path) -> None:
    pkg = tmp_path / "welcome_sim"
    (pkg / "commands").mkdir(parents=True)
    for name in ("__init__.py", "cli.py", "commands/__init__.py", "commands/play.py"):
        (pkg / name).write_text("")
    (pkg / "cli.py").write_text("from welcome_sim.commands import play\n")
    (pkg / "report.py").write_text("def f():\n    from welcome_sim.commands import play\n")
    (pkg / "other.py").write_text("import welcome_sim.cli\n")
    assert _command_line_imported(pkg) == ["other.py -> cli.py", "report.py -> commands/play.py"]


def test_the_kernel_reads_the_context_contract_not_greedy() -> None:
    # The ctx slots every player shares live in strategies/context.py, which imports nothing of
    # the package: the kernel takes them from there, not from one player's module.
    kernel = edges(ROOT, ROOT / "simcore" / "engine" / "kernel.py")
    assert ROOT / "strategies" / "context.py" in kernel
    assert ROOT / "strategies" / "greedy.py" not in kernel
    assert edges(ROOT, ROOT / "strategies" / "context.py") == set()


def test_the_layering_check_sees_an_import_back_up(tmp_path) -> None:
    pkg = tmp_path / "welcome_sim"
    for sub in ("low", "high"):
        (pkg / sub).mkdir(parents=True)
        (pkg / sub / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "high" / "h.py").write_text("from welcome_sim.low import a\n")
    (pkg / "low" / "a.py").write_text("def f():\n    from welcome_sim.high.h import g\n")
    (pkg / "stray.py").write_text("")
    floors = (("base", ("__init__.py", "low/")), ("top", ("high/",)))
    assert _upward(pkg, floors) == ["low/a.py -> high/h.py", "stray.py: on no floor"]
    assert _upward(pkg, tuple(reversed(floors))) == ["high/h.py -> low/a.py", "stray.py: on no floor"]
