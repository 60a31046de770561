"""The HTML report: content, self-containment, and rendering in a real headless Chromium."""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from browser import CHROMIUM, FLAGS, artifacts, measure, screenshots
from conftest import run_cli

from welcome_sim.errors import WelcomeSimError
from welcome_sim.reports.builder import TOP_ROWS, build_report
from welcome_sim.sweep.config import SweepConfig
from welcome_sim.sweep.run import run_sweep

SECTIONS = (
    "findings",
    "scores",
    "plans",
    "combinations",
    "length",
    "effects",
    "configuration",
    "glossary",
)
PAGE_BUDGET = 9_000  # px at 1280 px wide: the test report's page, long tables folded
NEEDS_CHROMIUM = pytest.mark.skipif(
    CHROMIUM is None,
    reason="Chromium is not installed (CI installs Debian's chromium: apt-get install chromium)",
)


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("runs")
    a, b = root / "collector", root / "first"
    run_sweep(SweepConfig(games=150, players=[1, 2], strategies=["spread"]), a, jobs=1)
    run_sweep(SweepConfig(games=150, players=[1, 2], strategies=["spread"], editions=["first"]), b, jobs=1)
    return a, b


@pytest.fixture(scope="module")
def report(two_runs, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("report") / "report.html"
    info = build_report([str(p) for p in two_runs], out)
    assert info["games"] == 600 and info["configs"] == 4
    return out


def test_report_holds_every_section_chart_and_the_reconstructed_notice(report):
    html = report.read_text()
    for section in SECTIONS:
        assert f'id="{section}"' in html
    assert html.count("<svg") >= 5
    assert 'id="reconstructed"' in html and "data/decks/collector.toml" in html
    # Two runs side by side: the run is a toggle, compared per configuration.
    assert "Effect of the run" in html and "collector" in html and "first" in html


def test_report_plan_tables_show_requirements_and_mark_invented_cards(report):
    html = report.read_text()
    section = html[html.index('id="plans"') : html.index('id="length"')]
    # Collector's and first-edition cards side by side, each with its own requirement.
    assert "4 estates of size 2" in section and "3 estates of size 1 and 1 of size 6" in section
    assert "reconstructed, invented" in section and "published" in section
    # 150 games a cell: no combination reaches the ranking's minimum, and the table says so.
    combos = _section(html, "combinations")
    assert "rarer ones left out" in combos and "no row reaches" in combos
    # ... and draws no header row of an empty table, nor a CSV of nothing, under it.
    empty = combos[combos.index("no row reaches") :]
    empty = empty[: empty.index("</div>")]
    assert "<table" not in empty and "<th" not in empty
    heading = combos[: combos.index("no row reaches")].rsplit("<h3>", 1)[1]
    assert 'class="dl"' not in heading
    assert "(unknown plan)" not in html
    assert 'id="changed-plans"' not in html  # the runs used today's plan files


def test_plan_files_changed_since_the_sweep_are_named(two_runs, tmp_path):
    run = tmp_path / "old"
    shutil.copytree(two_runs[0], run)
    manifest = json.loads((run / "manifest.json").read_text())
    plans = next(f for f in manifest["data_files"] if f["kind"] == "plans")
    plans["sha256"] = "0" * 16  # as if the sweep had read another version of the file
    (run / "manifest.json").write_text(json.dumps(manifest))
    build_report([str(run)], tmp_path / "r.html")
    html = (tmp_path / "r.html").read_text()
    assert 'id="changed-plans"' in html and plans["path"] in html
    res = run_cli("analyze", str(run))
    assert res.returncode == 0, res.stderr
    assert (
        "differ from the ones the sweep used" in res.stdout and "as unknown): " + plans["path"] in res.stdout
    )


def test_report_is_self_contained(report):
    html = report.read_text()
    assert "<script src" not in html and "<link" not in html and "import(" not in html
    assert not re.search(r'(src|href)="https?://', html)
    assert html.count("<script>") == 1  # the one inline script: sorting and filtering


@pytest.mark.skipif(
    CHROMIUM is None,
    reason="Chromium is not installed (CI installs Debian's chromium: apt-get install chromium)",
)
def test_report_renders_in_headless_chromium(report, tmp_path):
    profile = tmp_path / "profile"
    shot = tmp_path / "shot.png"
    url = report.resolve().as_uri()
    dom = subprocess.run(
        [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "--dump-dom", url],
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout
    for section in SECTIONS:
        assert f'id="{section}"' in dom, section
    assert dom.count("<svg") >= 5
    subprocess.run(
        [
            CHROMIUM,
            *FLAGS,
            f"--user-data-dir={profile}",
            "--window-size=1280,3000",
            f"--screenshot={shot}",
            url,
        ],
        capture_output=True,
        timeout=120,
    )
    from PIL import Image

    img = Image.open(shot).convert("RGB")
    assert img.size == (1280, 3000)
    colours = img.resize((320, 750)).getcolors(maxcolors=1 << 16)
    assert colours is None or len(colours) > 200  # charts and tables, not a blank page


def test_report_and_analyze_commands(two_runs, tmp_path):
    a, b = (str(p) for p in two_runs)
    out = tmp_path / "r.html"
    res = run_cli("report", a, b, "-o", str(out))
    assert res.returncode == 0, res.stderr
    assert out.exists() and "wrote" in res.stdout and "RECONSTRUCTED" in res.stdout
    res = run_cli("analyze", a, b, "--full")
    assert res.returncode == 0 and "plan difficulty" in res.stdout and "effect run" in res.stdout
    assert "requirement" in res.stdout and "4 estates of size 2" in res.stdout
    assert "reconstructed, invented" in res.stdout
    res = run_cli(
        "analyze", a, "--format", "json", "--out", str(tmp_path / "j"), "--charts", str(tmp_path / "c")
    )
    assert res.returncode == 0, res.stderr
    assert (tmp_path / "j" / "plan_difficulty.json").exists()
    # The five section charts, and the player count chart: this run plays 1 and 2 players.
    charts = {"score_distribution", "components", "plan_difficulty", "plan_combinations", "game_length"}
    charts.add("player_count")
    assert {p.stem for p in (tmp_path / "c").glob("*.svg")} == charts
    assert {p.stem for p in (tmp_path / "c").glob("*.png")} == charts


def test_without_output_the_report_goes_beside_its_runs(two_runs, tmp_path, monkeypatch):
    import shutil

    from welcome_sim.commands.analyze import default_report_path

    a, b = (shutil.copytree(p, tmp_path / "runs" / p.name) for p in two_runs)
    res = run_cli("report", str(a))
    assert res.returncode == 0, res.stderr
    assert f"wrote {a / 'report.html'}" in res.stdout and (a / "report.html").is_file()
    res = run_cli("report", str(a), str(b))
    assert res.returncode == 0, res.stderr
    assert (tmp_path / "runs" / "report.html").is_file()  # the folder holding both
    monkeypatch.chdir(tmp_path)
    (tmp_path / "runs" / "x").mkdir()
    assert default_report_path(["runs/x/"]) == "runs/x/report.html"
    assert default_report_path(["runs/x", "runs/collector"]) == "runs/report.html"
    assert default_report_path(["/tmp/x", "/work/y"]) == "report.html"  # only the root in common
    (tmp_path / "runs" / "x").chmod(0o500)  # a folder one may not write to: the current folder
    try:
        if not os.access("runs/x", os.W_OK):  # as root every folder is writable: nothing to check
            assert default_report_path(["runs/x"]) == "report.html"
    finally:
        (tmp_path / "runs" / "x").chmod(0o700)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["report", "/nonexistent/run"], "/nonexistent/run: no such folder"),
        (["analyze", "/nonexistent/run"], "/nonexistent/run: no such folder"),
        (["analyze", ".", "--format", "xml"], "--format: 'xml' is not one of table, csv, json"),
    ],
)
def test_report_errors_are_one_line(args, message):
    res = run_cli(*args)
    assert res.returncode != 0 and "Traceback" not in res.stderr
    assert message in res.stderr


def _section(html: str, sid: str) -> str:
    start = html.index(f'<section id="{sid}"')
    return html[start : html.index("</section>", start)]


def test_findings_come_first_with_intervals(report):
    html = report.read_text()
    body = html[html.index("<main>") :]
    assert body.index('id="findings"') < body.index('id="scores"')  # findings before any detail
    items = re.findall(r"<li>(.*?)</li>", _section(html, "findings"))
    assert items, "no findings stated"
    # Every stated effect carries its interval: a bracketed [low, high].
    assert all(re.search(r"\[[^\]]+, [^\]]+\]", i) for i in items), items
    assert any(i.startswith("Plan ") for i in items), items  # the hardest or easiest card of a letter


def test_long_tables_fold_and_keep_every_row(report):
    html = report.read_text()
    plans = _section(html, "plans")
    plans = plans[plans.index('<div class="tbl"') :]  # the table, past the charts
    assert "<details><summary>all " in plans and 'class="filter"' in plans
    head, rest = plans.split("<details><summary>all ", 1)
    # The folded table holds every row; the shown one only the top rows.
    shown_rows = head.count("<tr>") - 1
    all_rows = rest.count("<tr>") - 1
    assert shown_rows == TOP_ROWS and all_rows > shown_rows


def test_intervals_are_shown_as_intervals(report):
    html = report.read_text()
    effects = _section(html, "effects")
    # The difference with its interval under it, in the same cell, marked when it is the paired one.
    assert "difference b − a" in effects and "ci95 paired" not in effects
    assert re.search(
        r'<td>[+-]\d+\.\d+<span class="ci">\[[+-]\d+\.\d+, [+-]\d+\.\d+\]( paired)?</span></td>', effects
    )


def test_a_single_configuration_s_report_compares_nothing_and_says_so(tmp_path):
    run = tmp_path / "bp"
    run_sweep(SweepConfig(games=60, strategies=["spread"], sheets=["blueprint"]), run, jobs=1)
    out = tmp_path / "bp.html"
    info = build_report([str(run)], out)
    page = out.read_text()
    header = page[page.index("<header>") : page.index("</header>")]
    # No Classic rows: the header names no baseline game the report does not show.
    assert info["configs"] == 1 and "<dt>configurations</dt><dd>1</dd>" in header
    assert "One configuration: no setting is compared with another." in header and "Classic" not in header
    assert "1 cell, 60 games per cell" in page
    # Without an expansion (and a difficulty section) the note about expansion points is left out.
    assert "brings points of its own" not in page
    findings = _section(page, "findings")
    assert "games end by three permit refusals" in findings and "Up to" not in findings


def test_the_difficulty_section_says_when_it_is_the_difficulty_command_s_measure(tmp_path):
    run = tmp_path / "z"
    levels = ["casual", "expert", "casual:blind=1"]
    cfg = SweepConfig(games=40, strategies=levels, expansions=["none", "zombies"])
    run_sweep(cfg, run, jobs=1)
    out = tmp_path / "z.html"
    build_report([str(run)], out)
    section = html.unescape(_section(out.read_text(), "difficulty"))
    assert (
        "with the skill gap to expert and the blind cost: the measure welcome-sim difficulty gives" in section
    )
    assert "it is not the number" not in section and "No skill gap" not in section
    # Without the blind level: the skill gap, and a word that this is not the command's number.
    two = tmp_path / "two"
    cfg = SweepConfig(games=40, strategies=levels[:2], expansions=["none", "zombies"])
    run_sweep(cfg, two, jobs=1)
    build_report([str(two)], out)
    section = html.unescape(_section(out.read_text(), "difficulty"))
    assert (
        "no blind cost (the runs do not hold casual:blind=1" in section and "it is not the number" in section
    )
    only = tmp_path / "g"
    run_sweep(SweepConfig(games=40, strategies=["spread"], expansions=["none", "zombies"]), only, jobs=1)
    build_report([str(only)], out)
    section = html.unescape(_section(out.read_text(), "difficulty"))
    assert "Reference player: spread: the index is measured on the runs' own players" in section
    assert "No skill gap" in section and "--strategy casual --strategy expert" in section


def test_the_header_names_no_setting_the_reference_lacks():
    from welcome_sim.reports.builder import _reference_words

    # Standard mode has no AAA level (a null opponent): not 'standard mode (None)'.
    assert _reference_words({"mode": "standard", "opponent": None}) == "standard mode"
    assert _reference_words({"mode": "solo", "opponent": 0}) == "solo mode (AAA level 0)"


def test_baseline_is_chosen_and_checked(two_runs, tmp_path):
    a, b = (str(p) for p in two_runs)
    out = tmp_path / "b.html"
    info = build_report([a, b], out, baseline="edition=first")
    html = out.read_text()
    header = html[html.index("<header>") : html.index("</header>")]
    # The run is the setting compared; the edition changes with it.
    assert "Effects are measured against run first (the first edition), 1 player" in header
    assert "Effect of the run: run collector against run first" in html  # the first edition's run is side a
    res = run_cli("report", a, b, "-o", str(tmp_path / "x.html"), "--baseline", "sheet=blueprint")
    assert (
        res.returncode == 2
        and "--baseline: sheet=blueprint is not in these runs; values of sheet: classic" in res.stderr
    )
    res = run_cli("report", a, "-o", str(tmp_path / "x.html"), "--baseline", "colour=red")
    assert res.returncode == 2 and "--baseline: 'colour' is not a setting of these runs" in res.stderr
    res = run_cli("report", a, "-o", str(tmp_path / "x.html"), "--baseline", "sheet")
    assert res.returncode == 2 and "--baseline: 'sheet' is not SETTING=VALUE" in res.stderr
    assert info["games"] == 600


@NEEDS_CHROMIUM
def test_page_height_sorting_filtering_and_screenshots(report, tmp_path):
    layout = measure(report, tmp_path)
    assert layout["height"] <= PAGE_BUDGET, f"page is {layout['height']} px high, budget {PAGE_BUDGET}"
    assert layout["width"] <= 1280, "the page scrolls sideways at 1280 px"
    ids = [s["id"] for s in layout["sections"]]
    assert ids[0] == "findings" and set(SECTIONS) <= set(ids)
    # A header click sorts the table the user sees (descending after two clicks).
    values = [float(re.match(r"[\d,.]+", v).group().replace(",", "")) for v in layout["sorted"]]
    assert values == sorted(values, reverse=True) and len(values) == 4
    # Typing in a long table's filter opens its fold and keeps only matching rows.
    assert layout["fold_open"] and layout["filtered"] and all("A-1" in r for r in layout["filtered"])
    shots = screenshots(report, layout, tmp_path, artifacts())
    names = {p.name for p in shots}
    assert "top.png" in names and {f"section-{s}.png" for s in SECTIONS} <= names
    from PIL import Image

    for p in shots:
        img = Image.open(p).convert("RGB")
        assert img.width == 1280 and img.height > 50
        colours = img.resize((160, max(1, img.height // 8))).getcolors(maxcolors=1 << 16)
        assert colours is None or len(colours) > 20, f"{p.name} looks blank"


def test_combinations_are_ranked_by_validation_rate_with_a_minimum_sample():
    import polars as pl

    from welcome_sim.reports.builder import MIN_COMBO_GAMES, _combos_table

    rows = [
        {
            "players": 1,
            "plan_a_id": f"A-{k}",
            "plan_b_id": "B-1",
            "plan_c_id": "C-1",
            "games": g,
            "n": g,
            "all_three_rate": r,
            "mean_total": 90.0,
        }
        for k, (g, r) in enumerate(
            [(100, 0.5), (MIN_COMBO_GAMES, 0.1), (MIN_COMBO_GAMES - 1, 0.0), (400, 0.9)]
        )
    ]
    ranked, rare = _combos_table(pl.DataFrame(rows))
    assert rare == 1  # A-2 was played in too few games to rank
    assert ranked["plan_a_id"].to_list() == ["A-1", "A-0", "A-3"]  # hardest (lowest rate) first


def test_the_report_shows_how_a_sheet_of_ones_own_differs(tmp_path):
    """A designer's copy of Classic with one park track value changed: the report names it."""
    from welcome_sim.simcore.ground.datafiles import DATA_DIR

    sheet = tmp_path / "my_sheet.toml"
    text = (DATA_DIR / "sheets" / "classic.toml").read_text()
    text = text.replace('name = "classic"', 'name = "my_sheet"\nbased_on = "classic"')
    text = text.replace('title = "Classic"', 'title = "Classic wide parks"')
    sheet.write_text(text.replace("parks = [0, 2, 4, 6, 14]", "parks = [0, 2, 4, 6, 16]"))
    run = tmp_path / "run"
    run_sweep(
        SweepConfig(games=40, players=[1], strategies=["spread"], sheets=["classic", str(sheet)]), run, jobs=1
    )
    out = tmp_path / "r.html"
    info = build_report([str(run)], out)
    assert "custom" in info["sections"]
    custom = _section(out.read_text(), "custom")
    assert "1 difference from sheet classic (its based_on key)" in custom
    # The columns named as the rest of the report names them, not by the rows' name and hash.
    heads = re.findall(r"<th(?: [^>]*)?>(.*?)</th>", custom)
    assert heads == ["setting", "Classic sheet", "“Classic wide parks”"], heads
    # --baseline names the variant as the sweep's command line did (its path), or by its title.
    for name in (str(sheet), "classic wide parks"):
        build_report([str(run)], out, f"sheet={name}")
        assert "Effects are measured against your file “Classic wide parks”" in out.read_text(), name
    # ... while a value the rows hold is that value, whatever a title says.
    build_report([str(run)], out, "sheet=classic")
    assert "Effects are measured against the Classic sheet" in out.read_text()
    with pytest.raises(WelcomeSimError, match=re.escape("(" + str(sheet) + ")")):
        build_report([str(run)], out, "sheet=blueprint")
    assert "0,2,4,6,14" in custom and "0,2,4,6,16" in custom
    assert 'download="custom-1.csv" href="data:text/csv;charset=utf-8,setting%2Cbuilt_in%2Ccustom' in custom


def test_every_chart_lists_its_configurations(report):
    html = report.read_text()
    figures = re.findall(r'<figure data-chart="([^"]+)"[^>]*>(.*?)</figure>', html, re.S)
    assert len(figures) >= 6
    for name, body in figures:
        caption = re.search(r"<summary>(\d+) configurations? drawn", body)
        assert caption, f"chart {name} does not list its configurations"
        listed = body[body.index("</summary>") + len("</summary>") : body.index("</details>")]
        assert len(listed.split("; ")) == int(caption.group(1)), name


def test_baseline_settings_must_meet_in_one_configuration(two_runs, tmp_path):
    a, b = (str(p) for p in two_runs)
    res = run_cli("report", a, b, "-o", str(tmp_path / "x.html"), "--baseline", "edition=first,run=collector")
    assert res.returncode == 2
    assert "--baseline: no configuration of these runs has edition=first,run=collector together" in res.stderr


def test_an_expansion_with_its_own_sheet_and_plans_is_ranked_and_described(tmp_path):
    """The American Dream brings its own sheet and plan cards ("You must play only with the
    American Dream Expansion Plan cards"): its base game is the Classic sheet with the edition's
    plans on the same deals; it is ranked beside its stars under its own name, its plans are named
    in words, and its points, which replace the base game's scoring, are not netted out."""
    runs = tmp_path / "x"
    cfg = SweepConfig(
        games=60, players=[1], expansions=["none", "american-dream"], sheets=["classic", "american_dream"]
    )
    run_sweep(cfg, runs, jobs=1)
    # The manifest names the plan file its cells play: the expansion's, not the edition's.
    cells = json.loads((runs / "manifest.json").read_text())["cells"]
    assert {c["expansion"]: c["plans_file"] for c in cells} == {
        "none": "collector_standard",
        "american-dream": "american-dream",
    }
    out = tmp_path / "r.html"
    build_report([str(runs)], out)
    page = re.sub(r"<svg.*?</svg>|<script.*?</script>|<style.*?</style>", "", out.read_text(), flags=re.S)
    text = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))
    assert "American Dream ★" in text or "American Dream (1 player) ★" in text
    assert "its base game is not in these runs" not in text
    assert "A-AD1 every green house perfect" in text and "(unknown plan)" not in text
    assert "replace the base game's scoring, so the total says nothing of difficulty" in text
    # Issue 38: compared apart on what compares, never ranked on its total.
    assert "Compared apart: its own points replace the base game's scoring" in text
    assert "Difficulty ranking (1 = hardest)" not in text
    said = text.split("American Dream: players score")[1].split(" see Difficulty")[0]
    assert "points of its own" in said and "net of them" not in said
