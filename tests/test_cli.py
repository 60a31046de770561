"""The command line as a user runs it: real processes, exit codes, one-line errors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import DATA, run_cli


def test_play_shows_rounds_sheets_and_score_card():
    res = run_cli(
        "play",
        "--seed",
        "5",
        "--players",
        "3",
        "--strategy",
        "spread",
        "--strategy",
        "random",
        "--strategy",
        "first-fit",
    )
    assert res.returncode == 0, res.stderr
    out = res.stdout
    assert "round  1" in out and "game over after round" in out
    assert out.count("== P") == 3 and "street 3" in out
    assert "TOTAL" in out and "rank" in out
    assert "RECONSTRUCTED" in out and "data/decks/collector.toml" in out
    assert "referee: every move legal" in out


def test_play_first_edition_uses_only_published_data():
    res = run_cli("play", "--edition", "first", "--seed", "2", "--plans", "1-2,2-5,3-1")
    assert res.returncode == 0, res.stderr
    assert "plans in play: 1-2, 2-5, 3-1" in res.stdout
    for line in (
        "1-2: 4 estates of size 2 (first 8, later 4)",
        "2-5: estates of size 4 and 5",
        "3-1: estates of size 1, 2 and 6",
    ):
        assert f"  {line}" in res.stdout
    assert "RECONSTRUCTED" not in res.stdout and "reconstructed" not in res.stdout


def test_play_shows_plan_requirements_and_marks_invented_cards():
    res = run_cli("play", "--seed", "3", "--plans", "A-7,B-4,C-E3", "--expansion", "easter")
    assert res.returncode == 0, res.stderr
    out = res.stdout
    assert "  A-7 (invented): estates of size 2 and 3 (first 5, later 2) [reconstructed: invented" in out
    assert "  B-4: estates of size 3 and 6 (first 8, later 4) [reconstructed: stand-in" in out
    assert "  C-E3: every orange and pink egg collected" in out
    # Every validation line names the plan's requirement too.
    validations = [ln for ln in out.splitlines() if "validates plan" in ln]
    assert validations and all("]" in ln and ": " in ln.split("[")[-1] for ln in validations)


def test_play_is_deterministic():
    a = run_cli("play", "--seed", "9", "--players", "2")
    b = run_cli("play", "--seed", "9", "--players", "2")
    assert a.returncode == 0 and a.stdout == b.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "--players", "0"], "--players: 0 is not a valid number of players; use 1 to 8"),
        (["play", "--players", "99"], "--players: 99 is not a valid number of players; use 1 to 8"),
        (["play", "--sheet", "nope"], "unknown sheet 'nope'"),
        (["play", "--edition", "third"], "unknown edition 'third'"),
        (["play", "--strategy", "nope"], "unknown strategy 'nope'"),
        (["play", "--plans", "A1,B2"], "--plans"),
        (["play", "--seed", "-1"], "--seed"),
        (["bench", "--games", "0"], "--games"),
    ],
)
def test_bad_input_gives_one_line_error_and_nonzero_exit(args, message):
    res = run_cli(*args)
    assert res.returncode != 0
    assert "Traceback" not in res.stderr + res.stdout
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, res.stderr
    assert message in lines[0]


def test_malformed_sheet_file_gives_one_line_error(tmp_path: Path):
    bad = tmp_path / "bad_sheet.toml"
    bad.write_text(
        'name = "x"\nprovenance = "published"\npositions = "from 1"\n[[streets]]\nhouses = "ten"\n'
    )
    res = run_cli("play", "--sheet", str(bad))
    assert res.returncode != 0 and "Traceback" not in res.stderr
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1
    assert str(bad) in lines[0] and "streets[0].houses" in lines[0]


def test_custom_sheet_plays(tmp_path: Path):
    res = run_cli("play", "--sheet", str(DATA / "tiny_sheet.toml"), "--strategy", "spread")
    assert res.returncode == 0, res.stderr
    assert "tiny_sheet.toml" in res.stdout  # reconstructed test sheet is named in the notice


def test_bench_prints_games_per_second():
    res = run_cli("bench", "--games", "300", "--players", "1", "--players", "4", "--repeat", "1")
    assert res.returncode == 0, res.stderr
    assert "games/s" in res.stdout
    assert res.stdout.count("random") == 2


def test_data_lists_provenance():
    res = run_cli("data")
    assert res.returncode == 0
    assert "reconstructed" in res.stdout and "published" in res.stdout


def test_data_lists_every_shipped_file_and_every_plan_card():
    from welcome_sim.simcore.ground.datafiles import DATA_DIR

    on_disk = sorted(DATA_DIR.glob("*/*.toml"))
    assert len(on_disk) >= 15
    res = run_cli("data")
    assert res.returncode == 0, res.stderr
    listed = re.findall(r"data/\w+/[\w-]+\.toml", res.stdout.split("plan cards")[0])
    assert sorted(listed) == sorted(f"data/{p.parent.name}/{p.name}" for p in on_disk)
    assert f"rules data: {len(on_disk)} files" in res.stdout
    # Plan cards with their requirement and own provenance, the expansions' Plan C cards too.
    cards = res.stdout.split("plan cards")[1]
    assert "A-7 (invented)" in cards and "estates of size 2 and 3" in cards
    assert "C-E1" in cards and "each with at least 3 collected eggs" in cards
    assert "stand-in: the first edition's published plan 1-2" in cards
    # The first edition's own board cards (n°3 on its thematic boards) are listed too.
    for pid in ("3-easter-1", "3-icecream-3", "3-christmas-3"):
        assert pid in cards


def test_help_explains_commands():
    res = run_cli("--help")
    assert res.returncode == 0
    for cmd in ("play", "bench", "data"):
        assert cmd in res.stdout


def test_help_shows_option_defaults_and_unbroken_paragraphs():
    from typer.testing import CliRunner

    from welcome_sim.cli import app

    runner = CliRunner()
    res = runner.invoke(app, ["sweep", "--help"], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    # An option whose default is written in its help: Rich read '[default: 1000]' as markup.
    assert "Games per grid cell. [default: 1000]" in res.stdout
    assert "Output folder. [default: runs/sweep]" in res.stdout
    # A docstring's paragraph is one paragraph, not broken where its source line ends.
    res = runner.invoke(app, ["difficulty", "--help"], env={"COLUMNS": "200"})
    assert "--reference blind to the item, on the same seeds" in res.stdout


def test_plain_help_without_rich_shows_no_escapes():
    import os
    import subprocess
    import sys

    env = {**os.environ, "TYPER_USE_RICH": "0", "COLUMNS": "200"}
    res = subprocess.run(
        [sys.executable, "-m", "welcome_sim.cli", "sweep", "--help"], capture_output=True, text=True, env=env
    )
    assert res.returncode == 0, res.stderr
    assert "Games per grid cell. [default: 1000]" in res.stdout and "\\[" not in res.stdout


def test_strategies_lists_names_and_parameters():
    res = run_cli("strategies")
    assert res.returncode == 0, res.stderr
    for name in ("random", "greedy", "plan-rusher", "builder", "plan_exp", "pool_waste"):
        assert name in res.stdout


def test_tournament_reports_ci_win_rate_and_components():
    res = run_cli("tournament", "--games", "60", "--strategy", "greedy", "--strategy", "random")
    assert res.returncode == 0, res.stderr
    out = res.stdout
    assert "alone" in out and "table of 2" in out and "±" in out and "%" in out
    assert "RECONSTRUCTED" in out


def test_tune_searches_and_reports_holdout():
    res = run_cli("tune", "--games", "20", "--sweeps", "1", "--no-write")
    assert res.returncode == 0, res.stderr
    assert "hold-out" in res.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "--strategy", "greedy:colour=1"], "'greedy' has no parameter 'colour'"),
        (["tournament", "--strategy", "nope"], "unknown strategy 'nope'"),
        (["tournament", "--games", "1"], "--games"),
        (["tune", "--strategy", "random"], "no parameters to tune"),
        (["tune", "--name", "greedy"], "is a built-in strategy"),
    ],
)
def test_strategy_command_errors(args, message):
    res = run_cli(*args)
    assert res.returncode != 0 and "Traceback" not in res.stderr
    assert message in res.stderr
