"""The HTML report: content, self-containment, and rendering in a real headless Chromium."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import run_cli

from welcome_sim.reports.builder import build_report
from welcome_sim.sweep.config import SweepConfig
from welcome_sim.sweep.run import run_sweep

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
SECTIONS = (
    "summary",
    "scores",
    "components",
    "plans",
    "combinations",
    "length",
    "refusals",
    "effects",
    "configuration",
)
# Flags for a sandboxed machine with no network (see the environment notes): no GPU, no sandbox
# (root), no background connections.
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


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
    assert "Effect of run" in html and "collector" in html and "first" in html


def test_report_plan_tables_show_requirements_and_mark_invented_cards(report):
    html = report.read_text()
    section = html[html.index('id="plans"') : html.index('id="length"')]
    # Collector's and first-edition cards side by side, each with its own requirement.
    assert "4 estates of size 2" in section and "3 estates of size 1 and 1 of size 6" in section
    assert "reconstructed, invented" in section and "published" in section
    assert "A-7 (invented): estates of size 2 and 3" in section  # the combinations table
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
    assert "differ from the ones the sweep used: " + plans["path"] in res.stdout


def test_report_is_self_contained(report):
    html = report.read_text()
    assert "<script" not in html and "<link" not in html
    assert not re.search(r'(src|href)="https?://', html)


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
    res = run_cli("analyze", a, b)
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
