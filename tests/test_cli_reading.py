"""Issue 40, the command line a designer reads quickly: names in any case with a suggestion, --help
of each command within 60 lines at 80 columns (options in panels, examples), a sweep that grows
into its own folder, and analyze's summary within 80 lines."""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from welcome_sim.cli import app

# --- help -------------------------------------------------------------------------------------------

COMMANDS = [
    ["play"], ["warmup"], ["bench"], ["sweep"], ["analyze"], ["report"], ["strategies"], ["tournament"],
    ["skill"], ["difficulty"], ["tune"], ["data", "copy"], ["data", "upgrade"], ["sheet", "show"],
    ["balance", "plans"], ["balance", "expansion"],
]  # fmt: skip


def _help(command: list[str], columns: int) -> str:
    res = CliRunner().invoke(app, [*command, "--help"], env={"COLUMNS": str(columns)})
    assert res.exit_code == 0, res.output
    return res.stdout


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_help_fits_60_lines_at_80_columns_with_examples(command: list[str]) -> None:
    text = _help(command, 80)
    lines = text.rstrip("\n").splitlines()
    assert len(lines) <= 60, f"{' '.join(command)} --help: {len(lines)} lines at 80 columns"
    assert max(len(line) for line in lines) <= 80
    examples = text.split("Examples:", 1)
    assert len(examples) == 2, "no Examples paragraph"
    shown = [line for line in examples[1].splitlines() if line.strip().startswith("welcome-sim ")]
    assert 2 <= len(shown) <= 3 and any(" ".join(command) in line for line in shown), shown


@pytest.mark.parametrize("command", [["play"], ["bench"], ["sweep"], ["tournament"], ["skill"], ["tune"]])
def test_help_groups_options_in_panels(command: list[str]) -> None:
    text = _help(command, 80)
    panels = re.findall(r"╭─ (\w[\w ]*?) ─", text)
    assert {"Game", "Players"} <= set(panels), panels


def test_help_descriptions_keep_their_width_at_100_columns() -> None:
    # The issue: descriptions squeezed to ~30 characters at 100 columns.
    text = _help(["play"], 100)
    row = next(line for line in text.splitlines() if line.startswith("│ --edition"))
    assert "collector (2023) or first (2018). [default: collector]" in row  # 52 characters on one line
    for command in (["bench"], ["sweep"], ["skill"], ["tournament"]):
        text = _help(command, 100)
        widths = [len(m) for m in re.findall(r"<\w+>\s+(\S.*?)\s*│$", text, flags=re.M)]
        assert widths and max(widths) >= 50, (command, max(widths))


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_every_expansion_option_lists_what_its_check_accepts(command: list[str]) -> None:
    # One list for the help and the check: tournament's help once left 'none' out.
    from welcome_sim.commands import names

    text = _help(command, 400)
    rows = [line for line in text.splitlines() if re.match(r"│ --expansion\b", line)]
    if not rows:
        pytest.skip("no --expansion option")
    listed = re.search(r"<\w+>\s+(.*?)(?: or |, or )", rows[0]).group(1).split(", ")
    assert listed == list(names.expansion_choices()), rows[0]


def test_sweep_help_shows_the_players_default() -> None:
    text = _help(["sweep"], 100)
    row = next(line for line in text.splitlines() if line.startswith("│ --players"))
    assert "[default: 1]" in row


# --- names ------------------------------------------------------------------------------------------


def test_names_read_in_any_case_spelling_and_title(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from welcome_sim.commands import names
    from welcome_sim.errors import WelcomeSimError

    assert names.builtin("sheets")("--sheet", "Blueprint") == "blueprint"
    assert names.builtin("sheets")("--sheet", "American Dream") == "american_dream"
    assert names.builtin("editions")("--edition", "Collector") == "collector"
    assert names.expansion("--expansion", "Zombies") == "zombies"
    assert names.expansion("--expansion", "Zombie Outbreak") == "zombies"  # as the report names it
    assert names.expansion("--expansion", "The American Dream") == "american-dream"
    assert names.expansion("--expansion", "american_dream") == "american-dream"
    assert names.expansion("--expansion", "NONE") == "none"
    assert names.mode("--mode", "Expert_Advanced") == "expert-advanced"
    assert names.mode("--mode", "SOLO") == "solo"
    assert names.strategy("--strategy", "Plan_Rusher:pool=2") == "plan-rusher:pool=2"
    assert names.strategy("--strategy", "Greedy+Random") == "greedy+random"
    assert names.listed(names.expansion)("--expansion", "none,Zombies") == "none,zombies"
    # A file of one's own is passed on as it is (its loader reads it) ...
    monkeypatch.chdir(tmp_path)
    (tmp_path / "copies").mkdir()
    (tmp_path / "My_Sheet.toml").write_text("")
    (tmp_path / "copies" / "zombies").write_text("")
    assert names.builtin("sheets")("--sheet", "My_Sheet.toml") == "My_Sheet.toml"
    assert names.expansion("--expansion", "copies/zombies") == "copies/zombies"
    # ... and one that is not there stops here, with the option that named it.
    with pytest.raises(
        WelcomeSimError, match=r"^--sheet: Gone\.toml: file not found; give a built-in sheet \("
    ):
        names.builtin("sheets")("--sheet", "Gone.toml")
    with pytest.raises(WelcomeSimError, match=r"^--expansion: copies/: is a folder, not a file"):
        names.expansion("--expansion", "copies/")


@pytest.mark.parametrize(
    ("argv", "option", "value", "near"),
    [
        (["play", "--expansion", "zombie"], "--expansion", "zombie", "zombies"),
        (["play", "--sheet", "Bluprint"], "--sheet", "Bluprint", "blueprint"),
        (["play", "--mode", "Sollo"], "--mode", "Sollo", "solo"),
        (["play", "-s", "Gredy"], "--strategy", "Gredy", "greedy"),
        (["sweep", "-x", "none,Zombie"], "--expansion", "Zombie", "zombies"),
        (["skill", "-l", "Clubb"], "--level", "Clubb", "club"),
        (["sheet", "show", "Blueprnt"], "SHEET", "Blueprnt", "blueprint"),
    ],
)
def test_unknown_name_is_one_line_with_a_suggestion(
    argv: list[str], option: str, value: str, near: str
) -> None:
    res = CliRunner().invoke(app, argv)
    assert res.exit_code == 2
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith(f"error: {option}: ") and repr(value) in lines[0]
    assert f"(did you mean '{near}'?)" in lines[0] and "; valid: " in lines[0]


def test_sheet_named_in_capitals_plays() -> None:
    res = CliRunner().invoke(app, ["play", "--seed", "3", "--sheet", "Blueprint", "--mode", "Standard"])
    assert res.exit_code == 0, res.output
    assert "sheet Blueprint" in res.stdout.splitlines()[0]
    res = CliRunner().invoke(app, ["sheet", "show", "BLUEPRINT"])
    assert res.exit_code == 0 and res.stdout.startswith("sheet blueprint")


def test_a_sweep_config_file_names_in_any_case_make_the_same_sweep(tmp_path: Path) -> None:
    import json

    config = tmp_path / "sweep.toml"
    config.write_text('games = 4\nsheet = ["Blueprint"]\nstrategy = ["Greedy"]\nmode = "Standard"\n')
    out = tmp_path / "s"
    res = CliRunner().invoke(app, ["sweep", "--config", str(config), "-o", str(out), "--jobs", "1"])
    assert res.exit_code == 0, res.output
    identity = json.loads((out / "manifest.json").read_text())["config"]
    assert identity["sheets"] == ["blueprint"] and identity["strategies"] == ["greedy"]
    # The same sweep named in lower case: complete, not 'a different sweep'.
    res = CliRunner().invoke(app, ["sweep", "--games", "4", "--sheet", "blueprint", "-o", str(out)])
    assert res.exit_code == 0 and "sweep complete" in res.stdout, res.output


# --- a sweep that grows -----------------------------------------------------------------------------


def _rows(folder: Path) -> pl.DataFrame:
    return pl.read_parquet(str(folder / "data" / "**" / "*.parquet")).sort("cell", "game", "seat")


def _sweep(*args: str) -> object:
    return CliRunner().invoke(app, ["sweep", "--jobs", "1", "-p", "1,2", *args])


def test_sweep_with_more_games_extends_it_with_the_same_first_games(tmp_path: Path) -> None:
    grown, fresh = tmp_path / "grown", tmp_path / "fresh"
    res = _sweep("--games", "30", "--chunk-size", "20", "-o", str(grown))
    assert res.exit_code == 0, res.output
    before = _rows(grown)
    res = _sweep("--games", "70", "-o", str(grown))  # refused before: 'holds a different sweep'
    assert res.exit_code == 0, res.output
    assert "this run played 80 games" in res.stdout  # 40 more games in each of the 2 cells
    after = _rows(grown)
    assert after.filter(pl.col("game") < 30).equals(before)  # the old games' rows unchanged
    assert after.height == 70 * 1 + 70 * 2  # 70 games of the 1-player cell, 70 of the 2-player one
    res = _sweep("--games", "70", "--chunk-size", "20", "-o", str(fresh))
    assert res.exit_code == 0, res.output
    assert after.equals(_rows(fresh))  # the same rows as one 70-game sweep: same seeds, same games
    # Complete: said so, nothing played (not 'add --resume to finish it'); the same without --games.
    for games in (["--games", "70"], []):
        res = _sweep(*games, "-o", str(grown))
        assert res.exit_code == 0, res.output
        assert "sweep complete" in res.stdout and "--resume" not in res.output
    assert _rows(grown).equals(after)


def test_sweep_never_shrinks_or_mixes(tmp_path: Path) -> None:
    out = tmp_path / "s"
    assert _sweep("--games", "20", "-o", str(out)).exit_code == 0
    for args, needle in (
        (["--games", "10"], "--games: "),
        (["--games", "40", "-s", "random"], "holds a different sweep"),
    ):
        res = _sweep(*args, "-o", str(out))
        assert res.exit_code == 2
        lines = res.stderr.strip().splitlines()
        assert len(lines) == 1 and needle in lines[0], res.stderr
    assert _rows(out)["game"].max() == 19  # nothing was added


# --- analyze's summary --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def grid_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """8 configurations: with and without Zombie Outbreak and the 9¾ cards, at 1 and 2 players."""
    out = tmp_path_factory.mktemp("grid") / "run"
    res = CliRunner().invoke(
        app,
        [
            "sweep",
            "--games",
            "40",
            "-x",
            "none,zombies",
            "--nine-three-quarters",
            "both",
            "-p",
            "1,2",
            "--jobs",
            "1",
            "-o",
            str(out),
        ],
    )
    assert res.exit_code == 0, res.output
    return out


@pytest.mark.parametrize("columns", [80, 200])
def test_analyze_prints_a_summary_of_at_most_80_lines(grid_run: Path, columns: int) -> None:
    res = CliRunner().invoke(app, ["analyze", str(grid_run)], env={"COLUMNS": str(columns)})
    assert res.exit_code == 0, res.output
    lines = res.stdout.rstrip("\n").splitlines()
    assert len(lines) <= 80, len(lines)
    text = res.stdout
    for title in ("scores", "score components", "plans validated", "how games end", "effect of each setting"):
        assert title in text
    # Rates as the report shows them: one decimal and '%', intervals in brackets.
    assert re.search(r"\d+\.\d%\s+\[\d+\.\d%, \d+\.\d%\]", text)
    assert "base game → Zombie Outbreak" in text  # the effect of the expansion, in the labels' words
    assert re.search(r"^zombies +yes +2 ", text, flags=re.M) or "more configurations (--full)" in text
    full = CliRunner().invoke(app, ["analyze", str(grid_run), "--full"], env={"COLUMNS": str(columns)})
    assert full.exit_code == 0 and len(full.stdout.splitlines()) > 80


def test_analyze_rounds_intervals_as_the_report_does(grid_run: Path) -> None:
    """The summary's intervals are the report's text (analysis/rounding.py: bounds outward, the
    estimate inside), not a second rounding of their own."""
    from welcome_sim.analysis.rounding import interval_parts
    from welcome_sim.commands.analyze import analysis_tables

    _, _, _, tables = analysis_tables([str(grid_run)])
    res = CliRunner().invoke(app, ["analyze", str(grid_run)], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    text = res.stdout
    scores_part = text[text.index("scores (points") : text.index("score components")]
    want = {
        interval_parts(r["mean"], r["ci_low"], r["ci_high"], 2)
        for r in tables["scores"].iter_rows(named=True)
    }
    got = re.findall(r"(\d+\.\d+) +(\[\d+\.\d+, \d+\.\d+\])", scores_part)
    assert len(got) >= 3 and set(got) <= want, (got, want)
    plans_part = text[text.index("plans validated") : text.index("how games end")]
    want = {
        interval_parts(r["validation_rate"], r["ci_low"], r["ci_high"], 1, pct=True)
        for r in tables["plan_difficulty"].iter_rows(named=True)
    }
    got = re.findall(r"(\d+\.\d+%) +(\[\d+\.\d+%, \d+\.\d+%\])", plans_part)
    assert len(got) >= 3 and set(got) <= want, (got, want)


# --- first run ----------------------------------------------------------------------------------------


def test_compile_estimate_is_the_idle_time_times_the_load(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import os

    import welcome_sim.simcore.engine.warmup as W

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # no compile measured here: the defaults
    # Measured on the 2-core machine (2026-11-28, a383a3a): 47-51 s (base game, greedy), 103-110 s
    # (the rest, alone) and 130-146 s (both at once).
    assert W.expected_compile_seconds(["base_greedy"], 1.0) == 50
    assert W.expected_compile_seconds(["full"], 1.0) == 120
    monkeypatch.setattr(os, "getloadavg", lambda: (8.0, 7.0, 6.0))
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert W.load_factor() == 2.0  # sqrt(8 / 2)
    # Two cores: the variants compile at once, so the longest (120 x 2); one after the other, the sum.
    assert W.expected_compile_seconds(["base_greedy", "full"]) == 240
    monkeypatch.setenv("WELCOME_SIM_COMPILE_PROCESSES", "1")
    assert W.expected_compile_seconds(["base_greedy", "full"]) == 340  # (50 + 120) x 2
    # A compile measured here (at load factor 2) is kept as its idle figure (its ready marker goes
    # to a folder of the test's, not the suite's cache).
    (tmp_path / "numba").mkdir()
    (tmp_path / "welcome-sim").mkdir()  # the cache root, where the measured times are kept
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    W._mark_ready("base_greedy", 300.0, 2.0)
    assert W.expected_compile_seconds(["base_greedy"], 1.0) == 150


def test_compiling_says_so_at_the_start_and_the_end_on_a_pipe(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from rich.console import Console

    import welcome_sim.simcore.engine.warmup as W
    from welcome_sim.commands.common import compiling

    monkeypatch.setattr(W, "load_factor", lambda: 1.0)
    monkeypatch.setattr(W, "expected_compile_seconds", lambda missing, factor=None: 120)
    monkeypatch.setattr(W, "entry_cached", lambda variant: False)  # nothing compiled in this folder
    buf = io.StringIO()
    out = Console(file=buf, width=120)  # not a terminal: no live line, one line before and one after
    with compiling(["base_greedy"], out):
        pass
    lines = buf.getvalue().splitlines()
    assert len(lines) == 2, lines
    assert lines[0].startswith("compiling the kernel (first run after install or an update): about 120 s")
    assert lines[1].startswith("kernel compiled in 0 s (estimated 120 s)")
    # The entry point compiled without the marker (games played from Python): it says it loads.
    monkeypatch.setattr(W, "entry_cached", lambda variant: True)
    buf.seek(0)
    buf.truncate(0)
    with compiling(["base_greedy"], out):
        pass
    lines = buf.getvalue().splitlines()
    assert len(lines) == 2, lines
    assert lines[0].startswith(
        "loading the kernel (compiled outside a warm-up; anything missing compiles, up to about 120 s"
    )
    assert lines[1].startswith("kernel loaded in 0.0 s")
    buf.seek(0)
    buf.truncate(0)
    with compiling([], out):  # nothing to compile: nothing said
        pass
    assert buf.getvalue().strip("\x00") == ""
