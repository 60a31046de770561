"""The README and the documentation site: the README stays short and names only paths that exist,
the generated Reference pages match the code, the game-log page lists every log kind, and every
picture the pages show exists, is shown somewhere and stays small. (`mkdocs build --strict` in
./test.sh checks the site's links.)"""

from __future__ import annotations

import importlib.util
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
# The issue's bound (issue 41): a README a newcomer reads, 12-20 KB like well-loved tools'.
README_MAX_BYTES = 15 * 1024
# Paths the README's commands create (outputs and the environment), not files of the repository.
MADE_BY_COMMANDS = ("runs/", "build/", ".venv/")
# A picture in docs/images stays below this (screenshots are cropped and stored with a palette).
IMAGE_MAX_BYTES = 150 * 1024


def _reference_pages():
    spec = importlib.util.spec_from_file_location("reference_pages", ROOT / "scripts" / "reference_pages.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def readme_paths(text: str) -> set[str]:
    """Every repository path the README names: link targets, and path-like words (with a '/', or a
    file name with an extension in inline code), URLs and anchors left out."""
    text = re.sub(r"https?://\S+", " ", text)
    found = {t.split("#")[0] for t in re.findall(r"\]\(([^)\s]+)\)", text)}
    found |= set(re.findall(r"(?<![\w.~/-])((?:\.{1,2}/)?[\w.-]+(?:/[\w.-]+)+/?)", text))
    found |= {
        c
        for c in re.findall(r"`([^`\s]+)`", text)
        if re.fullmatch(r"\.?[\w-]+\.(md|py|toml|sh|yml|ipynb)", c)
    }
    return {p for p in found if p and not p.startswith(MADE_BY_COMMANDS)}


def test_readme_is_short() -> None:
    size = README.stat().st_size
    assert size <= README_MAX_BYTES, (
        f"README.md is {size:,} bytes, over {README_MAX_BYTES:,}: move detail into docs/ and link it"
    )


def test_readme_names_only_paths_that_exist() -> None:
    paths = readme_paths(README.read_text(encoding="utf-8"))
    assert "docs/images/report-top.png" in paths  # the scan sees the README's picture
    outside = sorted(p for p in paths if p.startswith("../") or "/../" in p)
    assert not outside, f"README.md names paths outside the repository: {outside}"
    missing = sorted(p for p in paths if not (ROOT / p).exists())
    assert not missing, f"README.md names paths that do not exist in the repository: {missing}"


def test_readme_path_scan_catches_a_missing_path() -> None:
    text = "See [notes](../shared/rules-data.md), `scripts/nope.py` and runs/demo/report.html."
    assert readme_paths(text) == {"../shared/rules-data.md", "scripts/nope.py"}


@pytest.mark.skipif(
    bool(os.environ.get("WELCOME_SIM_EXPANSIONS")),
    reason="an expansion of one's own ($WELCOME_SIM_EXPANSIONS) adds its options and columns to the pages",
)
@pytest.mark.parametrize("page", ["cli.md", "columns.md", "data-files.md"])
def test_reference_page_matches_the_code(page: str) -> None:
    module = _reference_pages()
    committed = (DOCS / "reference" / page).read_text(encoding="utf-8")
    assert committed == module.PAGES[page](), (
        f"docs/reference/{page} differs from the code: run python scripts/reference_pages.py"
    )


def test_cli_reference_lists_every_command_and_option() -> None:
    import typer.main

    from welcome_sim.cli import app

    text = (DOCS / "reference" / "cli.md").read_text(encoding="utf-8")
    root = typer.main.get_command(app)
    ctx = root.context_class(root, info_name="welcome-sim")
    for name in root.list_commands(ctx):
        cmd = root.get_command(ctx, name)
        leaves = (
            [cmd.get_command(ctx, s) for s in cmd.list_commands(ctx)]
            if hasattr(cmd, "list_commands")
            else [cmd]
        )
        assert f"`welcome-sim {name}" in text, name
        for leaf in leaves:
            for param in leaf.params:
                if param.param_type_name == "option" and not param.hidden:
                    assert f"`{param.opts[0]}`" in text, f"{name}: {param.opts[0]}"


def documented_columns(text: str) -> set[str]:
    """The column names in the first cell of each row of the columns page ('`estate_1 .. estate_6`'
    stands for estate_1 to estate_6)."""
    names: set[str] = set()
    for cell in re.findall(r"^\| (`.*?`) \|", text, flags=re.M):
        for word in re.findall(r"`([^`]+)`", cell):
            first, _, last = word.partition(" .. ")
            if last:
                stem, n = last.rsplit("_", 1)
                names |= {f"{stem}_{k}" for k in range(int(first.rsplit("_", 1)[1]), int(n) + 1)}
            else:
                names.add(word)
    return names


def test_columns_reference_names_every_column_a_sweep_writes() -> None:
    from welcome_sim.simcore.ground.layout import GAME_COLUMNS
    from welcome_sim.simcore.rules.expansions.registry import OUT_COLUMNS
    from welcome_sim.sweep.rows import CONFIG

    documented = documented_columns((DOCS / "reference" / "columns.md").read_text(encoding="utf-8"))
    assert {"estate_6", "n_estate_3", "total"} <= documented  # the scan reads the table
    # Every kernel column reaches the rows except the kernel's own invariant check.
    written = [
        *OUT_COLUMNS,
        *(c for c in GAME_COLUMNS if c != "check"),
        *CONFIG,
        "won",
        "seed",
        "seat",
        "game",
    ]
    missing = [c for c in written if c not in documented and c != "run"]
    assert not missing, f"columns without a line in docs/reference/columns.md: {missing}"


def test_game_log_page_lists_every_kind() -> None:
    from welcome_sim.simcore.ground import layout

    kinds = {
        name: value
        for name, value in vars(layout).items()
        if name.startswith("LOG_") and isinstance(value, int) and name not in ("LOG_LEN", "LOG_X_FREE")
    }
    text = (DOCS / "reference" / "game-log.md").read_text(encoding="utf-8")
    listed = {int(k) for k in re.findall(r"^\| (\d+) ", text, flags=re.M)}
    missing = sorted(f"{n} ({v})" for n, v in kinds.items() if v not in listed)
    assert not missing, f"log kinds missing from docs/reference/game-log.md: {missing}"
    assert len(kinds) >= 20  # the scan found the layout's kinds


def test_every_picture_exists_is_shown_and_is_small() -> None:
    pages = [*DOCS.rglob("*.md"), README]
    shown: set[Path] = set()
    for page in pages:
        for target in re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", page.read_text(encoding="utf-8")):
            path = (page.parent / target).resolve()
            assert path.exists(), f"{page.relative_to(ROOT)} shows {target}, which does not exist"
            shown.add(path)
    images = sorted((DOCS / "images").glob("*.png"))
    assert images, "docs/images holds the guide's pictures"
    unshown = [p.name for p in images if p.resolve() not in shown]
    assert not unshown, f"pictures no page shows (delete them): {unshown}"
    big = [f"{p.name} ({p.stat().st_size:,} bytes)" for p in images if p.stat().st_size > IMAGE_MAX_BYTES]
    assert not big, (
        f"pictures over {IMAGE_MAX_BYTES:,} bytes (crop or palette them: scripts/doc_shot.py): {big}"
    )


def test_sources_are_named_by_title_not_by_a_path_outside_the_repository() -> None:
    """A clone has no notes folder beside it: data files, code and tests name the rulebooks by title
    and edition, not by the path of a copy outside the repository."""
    outside = re.compile(r"shared/seeds|rules-data\.md")
    found = [
        f"{p.relative_to(ROOT)}:{n}"
        for top in ("welcome_sim", "tests", "docs", "scripts", "benchmarks")
        for p in sorted((ROOT / top).rglob("*"))
        if p.suffix in {".py", ".toml", ".md", ".sh"} and p.name != "test_docs.py"
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if outside.search(line)
    ]
    assert not found, found
