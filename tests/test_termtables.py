"""Terminal tables fit 80 and 100 columns without cutting a cell (welcome_sim/termtables.py)."""

from __future__ import annotations

import io
import json
import re
from collections import Counter
from pathlib import Path

import polars as pl
import pytest
from rich.cells import cell_len
from rich.console import Console
from typer.testing import CliRunner

from welcome_sim.cli import app
from welcome_sim.commands.analyze import ROW_LABELS
from welcome_sim.termtables import format_value, print_frame, print_table, wrap_header

WIDTHS = (80, 100)
SEP = re.compile(r"[\s│┃,]+")  # cell borders, spaces, and the commas of the constant-columns line


def render(width: int, draw) -> str:
    """What `draw(console)` prints on a console `width` columns wide."""
    console = Console(width=width, record=True, file=io.StringIO(), color_system=None)
    draw(console)
    return console.export_text()


def assert_fits(text: str, width: int) -> None:
    lines = text.splitlines()
    too_long = [line for line in lines if cell_len(line) > width]
    assert not too_long, too_long[:3]
    assert "…" not in text


def tokens(text: str) -> Counter:
    return Counter(t for t in SEP.split(text) if t)


def wide_frame(rows: int) -> pl.DataFrame:
    """Long labels with spaces, a constant column, and 16 numeric columns of varied magnitudes."""
    data: dict[str, list] = {
        "strategy": [f"greedy:pool={1 + r / 10:g} with a long descriptive label {r}" for r in range(rows)],
        "players": [1 + r % 4 for r in range(rows)],
        "edition": ["collector"] * rows,  # constant: named above the table, not a column
    }
    for k in range(16):
        data[f"measure_number_{k}"] = [
            (-1) ** (r + k) * (r + 1) * 10.0 ** (k % 7 - 3) / 7 for r in range(rows)
        ]
    data["requirement"] = [f"estates of size {r % 6 + 1} and {r % 5 + 2}, fenced" for r in range(rows)]
    return pl.DataFrame(data)


def shown_cells(df: pl.DataFrame) -> Counter:
    """Every formatted number of the frame's non-constant columns, with its count."""
    counts: Counter = Counter()
    for col in df.columns:
        if df[col].n_unique() > 1 and df.schema[col] != pl.String:
            counts.update(format_value(v) for v in df[col])
    return counts


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("rows", [3, 9])  # few rows: transposed; more: stacked parts
def test_a_wide_frame_fits_with_every_number_whole(width: int, rows: int) -> None:
    df = wide_frame(rows)
    text = render(
        width, lambda c: print_frame(c, df, title="wide", keys=["strategy", "players"], width=width)
    )
    assert_fits(text, width)
    seen = tokens(text)
    for value, count in shown_cells(df).items():
        # Numbers are never wrapped, so each cell is one whole token; stacked parts repeat keys only.
        assert seen[value] >= count, (value, count, seen[value])
    assert "same in every row: edition = collector" in text
    assert not re.search(r"[│┃]\s*collector\s*[│┃]", text)  # the constant column left the table
    for label in df["strategy"]:  # labels wrap between words, never inside one
        assert all(seen[w] for w in label.split()), label
    if rows <= 6:
        assert "part 1 of" not in text  # transposed: one column per row, headed by its labels
        assert seen["measure_number_15"] == 1 and seen["requirement"] == 1
    else:
        parts = re.findall(r"part (\d+) of (\d+)", text)
        assert len(parts) >= 2 and parts[-1][0] == parts[-1][1]
        # Every stacked part repeats the key columns' header and values.
        assert text.count("strategy") == len(parts)
        assert seen[df["strategy"][0].split()[0]] >= len(parts)


@pytest.mark.parametrize("width", WIDTHS)
def test_a_table_that_fits_is_one_table_with_whole_headers(width: int) -> None:
    headers = ["level", "mean", "95% CI", "games/s"]
    rows = [["novice", "81.20", "[80.11, 82.29]", "1,234"], ["expert", "99.03", "[98.50, 99.56]", "987"]]
    text = render(width, lambda c: print_table(c, headers, rows, title="ladder", keys=["level"], width=width))
    assert_fits(text, width)
    assert "part 1" not in text and "same in every row" not in text
    for h in headers:
        assert h in text
    for row in rows:
        assert all(cell in text for cell in row)  # "[80.11, 82.29]" whole, on one line


def test_constant_columns_are_named_with_their_values_even_when_empty() -> None:
    df = pl.DataFrame({"plan": ["A-1", "A-2"], "toggle": ["run", "run"], "with": ["", ""], "n": [3, 4]})
    text = render(80, lambda c: print_frame(c, df, keys=["plan"], width=80))
    assert "same in every row: toggle = run, with = (empty)" in text
    assert {"A-1", "A-2", "3", "4"} <= set(tokens(text))


def test_one_row_keeps_its_numbers_and_names_its_labels() -> None:
    df = pl.DataFrame({"run": ["r"], "table": ["greedy"], "mean": [99.5], "sd": [20.25]})
    text = render(80, lambda c: print_frame(c, df, keys=["run", "table"], width=80))
    assert "same in every row: run = r, table = greedy" in text
    assert {"99.5", "20.2"} <= set(tokens(text))  # 3 significant digits, as analyze prints them


def test_an_empty_table_says_so_and_names_its_columns() -> None:
    df = pl.DataFrame(schema={"plan": pl.String, "n": pl.UInt32})
    text = render(80, lambda c: print_frame(c, df, title="aaa", keys=["plan"], width=80))
    assert "aaa: no rows (columns: plan, n)" in text


def test_headers_break_at_spaces_and_after_underscores_only() -> None:
    assert wrap_header("validation_rate", 11) == "validation_\nrate"
    assert wrap_header("95% CI", 3) == "95%\nCI"
    assert wrap_header("mean_points", 40) == "mean_points"
    assert wrap_header("ci95_paired", 6) == "ci95_\npaired"


def test_a_narrow_console_still_shows_every_number_whole() -> None:
    df = wide_frame(8)
    text = render(40, lambda c: print_frame(c, df, keys=["strategy", "players"], width=40))
    assert_fits(text, 40)
    seen = tokens(text)
    for value, count in shown_cells(df).items():
        assert seen[value] >= count, value


def test_keys_too_wide_for_any_column_fall_back_to_one_line_per_cell() -> None:
    headers = ["configuration", "mean"]
    rows = [["sheet-with-an-extremely-long-name-and-more", "99.5"], ["x", "-3.25e+04"]]
    text = render(30, lambda c: print_table(c, headers, rows, keys=["configuration"], width=30))
    assert "…" not in text
    assert "row 1" in text and "mean: 99.5" in text and "mean: -3.25e+04" in text


# --- through the command line ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory) -> Path:
    from welcome_sim.sweep.config import SweepConfig
    from welcome_sim.sweep.run import run_sweep

    out = tmp_path_factory.mktemp("term") / "run"
    run_sweep(SweepConfig(games=30, players=[1, 2], strategies=["spread", "random"]), out, jobs=1)
    return out


@pytest.mark.parametrize("width", WIDTHS)
def test_analyze_fits_the_terminal_and_keeps_every_number(tiny_run: Path, width: int) -> None:
    from welcome_sim.commands.analyze import analysis_tables

    res = CliRunner().invoke(app, ["analyze", str(tiny_run), "--full"], env={"COLUMNS": str(width)})
    assert res.exit_code == 0, res.output
    out = res.output
    # Notices are one line each (soft-wrapped by the terminal, whole in a file); tables fit.
    assert_fits("\n".join(line for line in out.splitlines() if not line.startswith("note:")), width)
    assert "note: this run uses RECONSTRUCTED data" in out
    seen = tokens(out)
    flat = " ".join(out.split())  # the constant-columns line wraps between words
    _runs, _lf, by, every = analysis_tables([str(tiny_run)])
    for name, df in every.items():
        if name == "game_length_histogram":  # a chart's data, not printed
            continue
        assert name.replace("_", " ") in out
        shown = df.head(60)
        for col in shown.columns:
            if df.schema[col] == pl.String and (col in by or col in ROW_LABELS):
                continue
            if df[col].n_unique() == 1 and df.height > 1:
                assert f"{col} = {format_value(df[col][0])}" in flat, (
                    name,
                    col,
                )  # named in the constant-columns line
            elif df.schema[col] != pl.String:
                missing = {format_value(v) for v in shown[col]} - set(seen)
                assert not missing, (name, col, missing)


def test_analyze_csv_keeps_the_full_width(tiny_run: Path, tmp_path: Path) -> None:
    res = CliRunner().invoke(
        app, ["analyze", str(tiny_run), "--format", "csv", "-o", str(tmp_path / "t")], env={"COLUMNS": "80"}
    )
    assert res.exit_code == 0, res.output
    scores = pl.read_csv(tmp_path / "t" / "scores.csv")
    assert {"edition", "sheet", "n", "mean", "sd", "q05", "q95", "ci_low", "ci_high"} <= set(scores.columns)


def test_tournament_formats(tmp_path: Path) -> None:
    args = ["tournament", "--games", "4", "--jobs", "1", "-s", "spread", "-s", "random"]
    runner = CliRunner()
    res = runner.invoke(app, [*args, "--format", "csv"], env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    csv = pl.read_csv(io.StringIO(res.stdout))
    assert csv.height == 4  # each alone, then both at one table
    assert {
        "setting",
        "strategy",
        "mean",
        "ci95",
        "win_rate",
        "extension_penalty",
        "games_per_second",
    } <= set(csv.columns)
    assert csv["reconstructed_data"][0].startswith("data/")  # the label travels with the numbers
    res = runner.invoke(app, [*args, "--format", "json"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert len(doc["tournament"]) == 4 and doc["games"] == 4 and doc["reconstructed_data"]
    res = runner.invoke(app, [*args], env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    assert_fits("\n".join(x for x in res.stdout.splitlines() if not x.startswith(("note:", "Coll"))), 80)
    for row in doc["tournament"]:
        assert f"{row['mean']:.2f}" in res.stdout and f"±{row['ci95']:.2f}" in res.stdout


@pytest.mark.parametrize("command", ["tournament", "skill"])
def test_a_bad_format_is_refused(command: str) -> None:
    res = CliRunner().invoke(app, [command, "--format", "xml", "--games", "4"])
    assert res.exit_code == 2
    assert "--format: 'xml' is not one of table, csv, json" in res.output


def test_skill_json_holds_the_ladder_and_the_split() -> None:
    res = CliRunner().invoke(
        app, ["skill", "--games", "40", "--jobs", "1", "-l", "random", "-l", "spread", "--format", "json"]
    )
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert [r["level"] for r in doc["ladder"]] == ["random", "spread"]
    assert set(doc["luck_skill"]) == {"luck", "skill", "rest", "within"}
    assert "plans" in doc and doc["reconstructed_data"]


@pytest.mark.parametrize("width", [40, 80, 120])
def test_the_constant_columns_note_breaks_only_between_settings(width: int) -> None:
    names = ["cell", "edition", "deck", "plan_set", "expansion", "mode", "players", "table", "plans_mode"]
    df = pl.DataFrame({**{n: [f"{n}-value"] * 2 for n in names}, "score": [1, 2]})
    text = render(width, lambda c: print_frame(c, df, width=width))
    note = text[text.index("same in every row:") : text.index("┏")]
    assert_fits(note, width)
    lines = [line.strip() for line in note.splitlines() if line.strip()]
    assert len(lines) > 1  # it had to break
    for line in lines:
        body = line.removeprefix("same in every row:").strip().rstrip(",")
        for pair in body.split(", "):  # every 'name = value' whole on one line
            name, _, value = pair.partition(" = ")
            assert name in names and value == f"{name}-value", line


def test_columns_wider_than_the_console_lay_out_at_the_console_s_width(monkeypatch) -> None:
    # A piped command's console is 240 wide (commands/common.py); $COLUMNS=400 laid tables out for
    # 400, and the console then cut each interval's last characters ('+0.57' for '+0.57]').
    monkeypatch.setenv("COLUMNS", "400")
    cell = "+0.47 [+0.36, +0.57]"
    headers = [f"measure {k}" for k in range(11)]
    rows = [[cell] * 11 for _ in range(3)]
    console = Console(width=160, record=True, file=io.StringIO(), color_system=None)
    print_table(console, headers, rows)
    text = console.export_text()
    assert_fits(text, 160)
    assert tokens(text)["+0.57]"] == 33, text  # every cell whole, wherever the table splits


@pytest.mark.parametrize("width", [40, 80, 120])
def test_the_summary_names_the_shared_settings_breaking_only_between_them(width: int) -> None:
    from welcome_sim.commands.summary import Listing

    items = [
        "Collector's edition",
        "Classic sheet",
        "base game",
        "no 9¾ cards",
        "standard mode",
        "plans: random",
    ]
    text = render(width, lambda c: c.print(Listing("every configuration:", items)))
    assert_fits(text, width)
    lines = [line.strip().rstrip(",") for line in text.splitlines() if line.strip()]
    assert lines[0].startswith("every configuration:")
    lines[0] = lines[0].removeprefix("every configuration:").strip()  # alone when no item fits beside it
    lines = [line for line in lines if line]
    assert [piece for line in lines for piece in line.split(", ")] == items  # each whole, in order
    assert (len(lines) > 1) == (width < cell_len("every configuration: " + ", ".join(items)))


def test_the_ladder_and_balance_tables_round_intervals_outward(monkeypatch) -> None:
    """A 95% interval in the terminal holds the computed one, as in the report and the sentences
    (analysis/rounding.py): 90 ± 1.234 is [88.76, 91.24], not the inward [88.77, 91.23]."""
    from types import SimpleNamespace

    from welcome_sim.commands import studies
    from welcome_sim.commands.balance import _ci

    assert _ci(90.0, 1.234) == "90.00 [88.76, 91.24]"
    row = SimpleNamespace(
        name="casual", mean=90.0, ci95=1.234, winner_mean=95.0, winner_ci95=1.0, plans=1.5, all_three=0.2,
        games_per_second=100.0,
    )  # fmt: skip
    monkeypatch.setattr(studies, "console", Console(width=200, record=True))
    studies._show_ladder([row])
    text = studies.console.export_text()
    assert "[88.76, 91.24]" in text and "88.77" not in text


def test_the_skill_plan_table_says_its_unit_and_how_far_a_rate_holds() -> None:
    """The spread of validation rates is in percentage points, not score points, and the rates of
    a few hundred seats carry a margin a designer must see before reading +7 as a difference."""
    res = CliRunner().invoke(app, ["skill", "--games", "300", "--jobs", "1", "-l", "random", "-l", "spread"])
    assert res.exit_code == 0, res.output
    assert " pp " in res.output and " pts" not in res.output
    found = re.search(
        r"spread: spread − random, in percentage points \(pp\); each rate rests on (\d+) or more", res.output
    )
    assert found, res.output
    seats = int(found.group(1))
    assert 30 <= seats <= 300 and f"within ±{100 * 1.96 * (0.25 / seats) ** 0.5:.0f} pp at 95%" in res.output


@pytest.mark.parametrize("columns", ["0", "abc", "300"])
def test_a_piped_command_prints_whatever_columns_says(columns: str) -> None:
    # COLUMNS=0 once made the piped console 0 wide: every line empty, exit code 0.
    import os
    import subprocess
    import sys

    env = {**os.environ, "COLUMNS": columns}
    res = subprocess.run(
        [sys.executable, "-m", "welcome_sim.cli", "strategies"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert res.returncode == 0, res.stderr
    assert "greedy" in res.stdout and "first-fit" in res.stdout, res.stdout[:300]
