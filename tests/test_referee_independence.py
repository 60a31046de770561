"""The referee is an independent reading of the rules: no file under welcome_sim/referee imports
anything of welcome_sim outside welcome_sim.referee (absolute or relative imports, at the top or
inside a function), so a kernel bug cannot leak into the verdict that checks it."""

from __future__ import annotations

import ast
from pathlib import Path

import welcome_sim

PACKAGE = Path(welcome_sim.__file__).parent
REFEREE = PACKAGE / "referee"


def _module_of(path: Path, root: Path) -> list[str]:
    """The dotted package a file belongs to, as parts: referee/readings/x.py -> welcome_sim.referee.readings."""
    parts = ["welcome_sim", *path.relative_to(root).parts]
    return parts[:-1]


def _outside_imports(referee: Path, root: Path) -> list[str]:
    """'file: module' for every import of welcome_sim outside welcome_sim.referee in the referee."""
    found = []
    for path in sorted(referee.rglob("*.py")):
        package = _module_of(path, root)
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                # A relative import: level 1 is the file's own package, each level more one up.
                up = node.level - 1
                base = [] if node.level == 0 else package[: len(package) - up] if up < len(package) else [""]
                module = ".".join([*base, *([node.module] if node.module else [])])
                # `from welcome_sim import x` (or `from .. import x`) names modules: check each x.
                wide = module in ("welcome_sim", "") or not node.module
                targets = [f"{module}.{a.name}" for a in node.names] if wide else [module]
            else:
                continue
            for name in targets:
                inside = name == "welcome_sim.referee" or name.startswith("welcome_sim.referee.")
                if (name == "welcome_sim" or name.startswith("welcome_sim.")) and not inside:
                    found.append(f"{path.relative_to(root)}: {name}")
                elif name.startswith("."):
                    found.append(f"{path.relative_to(root)}: a relative import above welcome_sim")
    return found


def test_the_referee_imports_nothing_from_the_rest_of_the_package() -> None:
    assert _outside_imports(REFEREE, PACKAGE) == []


def test_the_check_sees_every_kind_of_import_out(tmp_path) -> None:
    root = tmp_path / "welcome_sim"
    ref = root / "referee" / "readings"
    ref.mkdir(parents=True)
    (ref / "ok.py").write_text(
        "from welcome_sim.referee.sheet import PlayerSheet\nfrom . import base\nfrom ..rules import R\n"
        "import welcome_sim.referee.tables\nfrom welcome_sim import referee\n"
    )
    (ref / "bad.py").write_text(
        "import welcome_sim.simcore.layout\nfrom welcome_sim import expansions\n"
        "def f():\n    from ...simcore import tables\n    from ... import cli\n"
    )
    assert _outside_imports(root / "referee", root) == [
        "referee/readings/bad.py: welcome_sim.simcore.layout",
        "referee/readings/bad.py: welcome_sim.expansions",
        "referee/readings/bad.py: welcome_sim.simcore",
        "referee/readings/bad.py: welcome_sim.cli",
    ]
