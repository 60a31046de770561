"""bench on several processes, the baseline file, and the side-by-side run against a revision."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from conftest import run_cli

import welcome_sim
from welcome_sim import benchmark as B
from welcome_sim.errors import WelcomeSimError


def _rows(out: str) -> list[list[str]]:
    return [[c.strip() for c in line.split("│")[1:-1]] for line in out.splitlines() if line.startswith("│")]


def test_bench_on_two_processes_prints_a_table():
    res = run_cli(
        "bench", "--games", "60", "--repeat", "1", "-p", "1", "-p", "2", "-s", "random", "--jobs", "2"
    )
    assert res.returncode == 0, res.stderr
    assert "2 processes, games/s summed" in res.stdout
    rows = _rows(res.stdout)
    assert [r[:4] for r in rows] == [["random", "1", "60", "2"], ["random", "2", "60", "2"]]
    assert all(float(r[5].replace(",", "")) > 0 for r in rows)


def test_save_baseline_then_compare_shows_the_ratio(tmp_path):
    path = tmp_path / "baseline.json"
    common = ["bench", "--games", "40", "--repeat", "1", "-p", "1", "-s", "random", "--baseline", str(path)]
    saved = run_cli(*common, "--save-baseline")
    assert saved.returncode == 0, saved.stderr
    doc = json.loads(path.read_text())
    assert doc["format"] == B.BASELINE_FORMAT and len(doc["rows"]) == 1
    row = doc["rows"][0]
    assert (row["strategy"], row["players"], row["mode"], row["edition"], row["expansion"], row["jobs"]) == (
        "random",
        1,
        "standard",
        "collector",
        "none",
        1,
    )
    assert row["games_per_second"] > 0 and row["commit"]
    # A second configuration is added beside the first, not over it.
    assert run_cli(*common[:-2], "-p", "2", "--baseline", str(path), "--save-baseline").returncode == 0
    assert len(json.loads(path.read_text())["rows"]) == 2
    cmp = run_cli(*common, "-p", "3", "--compare")
    assert cmp.returncode == 0, cmp.stderr
    rows = _rows(cmp.stdout)
    assert rows[0][:2] == ["random", "1"] and float(rows[0][7]) > 0  # ratio
    assert rows[1][:2] == ["random", "3"] and rows[1][8] == "not measured"


def test_the_committed_baseline_is_readable():
    rows = B.load_baseline(B.BASELINE_FILE)
    assert rows and all(r["games_per_second"] > 0 for r in rows)
    assert {r["strategy"] for r in rows} >= {"random", "greedy"}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "{not json",
            "not valid JSON (Expecting property name enclosed in double quotes at line 1 column 2)",
        ),
        ("[]", "the top level is not an object"),
        ('{"format": 7, "rows": []}', "key 'format' is 7, expected 1"),
        ('{"format": 1}', "key 'rows' is missing or not a list"),
        ('{"format": 1, "rows": [{"strategy": "random"}]}', "row 1 has no key 'edition'"),
    ],
)
def test_a_damaged_baseline_names_the_file_and_the_fault(tmp_path, text, message):
    path = tmp_path / "baseline.json"
    path.write_text(text)
    with pytest.raises(WelcomeSimError) as info:
        B.load_baseline(path)
    assert str(info.value).startswith(f"{path}: {message}")
    res = run_cli("bench", "--games", "10", "--compare", "--baseline", str(path))
    assert res.returncode == 2 and f"{path}: {message}" in res.stderr


def test_a_bad_row_value_names_the_row(tmp_path):
    path = tmp_path / "baseline.json"
    row = dict.fromkeys(B.KEY_FIELDS, 1) | {"games_per_second": "fast", "commit": "abc"}
    path.write_text(json.dumps({"format": 1, "rows": [row]}))
    with pytest.raises(
        WelcomeSimError, match="row 1: 'games_per_second' must be a positive number, got 'fast'"
    ):
        B.load_baseline(path)


def test_a_missing_baseline_names_the_file(tmp_path):
    path = tmp_path / "none.json"
    res = run_cli("bench", "--games", "10", "--compare", "--baseline", str(path))
    assert res.returncode == 2
    assert f"--compare: no baseline file {path} (missing)" in res.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--compare-rev", "no-such-revision-xyz"],
            "--compare-rev: 'no-such-revision-xyz' is not a revision",
        ),
        # Why, and what to do instead.
        (
            ["--compare-rev", "HEAD", "--jobs", "2"],
            "so that the two never share the cores; --jobs 2 would time the cores more than the code. Drop "
            "--jobs (a code change moves the one-process ratio), or run `welcome-sim bench --jobs 2` in this "
            "checkout and in a checkout of HEAD",
        ),
        (["--compare-rev", "HEAD", "--save-baseline"], "drop --save-baseline (save a baseline from one code"),
        (["--compare-rev", "HEAD", "--compare"], "give one"),
        (["--baseline", "x.json"], "--baseline: 'x.json' applies only with --compare or --save-baseline"),
        (["--jobs", "0"], "--jobs: 0 is out of range"),
    ],
)
def test_bench_option_errors(args, message):
    res = run_cli("bench", "--games", "10", *args)
    assert res.returncode == 2 and message in res.stderr, res.stderr


def test_a_revision_is_extracted_once_and_runs_the_driver():
    sha, root = B.revision_tree("HEAD")
    assert len(sha) == 40 and (root / "welcome_sim" / "__init__.py").is_file()
    assert B.revision_tree("HEAD") == (sha, root)
    # Both sides the current code (its kernel is compiled already): the alternation itself.
    args = B.driver_args({"edition": "collector", "mode": "standard", "expansion": None}, "random", 1, 50)
    assert args["load"] == {}
    current, other = B.compare_revision(B.REPO_ROOT, args, 2, "again")
    assert len(current) == 2 and len(other) == 2 and min(current + other) > 0


def test_a_failing_side_names_itself(tmp_path):
    broken = tmp_path / "welcome_sim"
    broken.mkdir()
    (broken / "__init__.py").write_text("raise ImportError('broken on purpose')\n")
    args = B.driver_args({"edition": "collector"}, "random", 1, 5)
    with pytest.raises(
        WelcomeSimError, match="the broken code failed the bench run: ImportError: broken on purpose"
    ):
        B.compare_revision(Path(tmp_path), args, 1, "broken")


def test_extracted_revisions_unused_for_a_month_are_pruned(tmp_path):
    folder = tmp_path / "compare"
    now = time.time()
    ages = {"a" * 40: 40 * 86400, "b" * 40: 29 * 86400, ".half-old": 2 * 3600, ".half-new": 600}
    for name, age in ages.items():
        (folder / name / "welcome_sim").mkdir(parents=True)
        os.utime(folder / name, (now - age, now - age))
    removed = B.prune_extracts(folder, now=now)
    assert sorted(removed) == [".half-old", "a" * 40]
    assert sorted(p.name for p in folder.iterdir()) == [".half-new", "b" * 40]
    assert B.prune_extracts(tmp_path / "missing", now=now) == []


def test_reusing_an_extract_marks_it_used(monkeypatch, tmp_path):
    monkeypatch.setattr(welcome_sim, "_cache_root", lambda: tmp_path)
    sha, root = B.revision_tree("HEAD")
    old = time.time() - 40 * 86400
    os.utime(root, (old, old))
    assert B.revision_tree("HEAD") == (sha, root)
    assert time.time() - root.stat().st_mtime < 3600
    assert B.prune_extracts(root.parent) == []


def test_extracting_a_revision_prunes_old_extracts(monkeypatch, tmp_path):
    monkeypatch.setattr(welcome_sim, "_cache_root", lambda: tmp_path)
    stale = tmp_path / "compare" / ("c" * 40)
    (stale / "welcome_sim").mkdir(parents=True)
    old = time.time() - 40 * 86400
    os.utime(stale, (old, old))
    sha, root = B.revision_tree("HEAD")
    assert (root / "welcome_sim" / "__init__.py").is_file()
    assert not stale.exists()


def test_an_extract_marked_used_while_being_pruned_is_put_back(monkeypatch, tmp_path):
    folder = tmp_path / "compare"
    entry = folder / ("d" * 40)
    (entry / "welcome_sim").mkdir(parents=True)
    old = time.time() - 40 * 86400
    os.utime(entry, (old, old))
    rename = Path.rename

    def used_meanwhile(self, target):
        # Another run reuses the extract between the pruner's look at its age and the rename.
        if self == entry:
            os.utime(self)
        return rename(self, target)

    monkeypatch.setattr(Path, "rename", used_meanwhile)
    assert B.prune_extracts(folder) == []
    assert (entry / "welcome_sim").is_dir()
    assert [p.name for p in folder.iterdir()] == [entry.name]


@pytest.mark.parametrize("layout", ["floors", "before the floors"])
def test_the_driver_runs_a_revision_of_either_layout(tmp_path, layout):
    # --compare-rev runs the driver against another revision's package: one from before the
    # simcore floors (f31d16a, the reference) has simcore/game.py and simcore/ruleset.py.
    # A stand-in package of each layout, with the two functions the driver calls.
    sim = tmp_path / "welcome_sim" / "simcore"
    game, rules = (sim / "engine", sim / "rules") if layout == "floors" else (sim, sim)
    for folder in {tmp_path / "welcome_sim", sim, game, rules}:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "__init__.py").write_text("")
    (game / "game.py").write_text(
        "def game_seeds(seed, n):\n    return list(range(n))\n"
        "def simulate(rs, seeds, players, strategies):\n    return len(seeds)\n"
    )
    (rules / "ruleset.py").write_text("def load_ruleset(edition, **kw):\n    return edition\n")
    args = {"edition": "collector", "load": {}, "seed": 1, "games": 20, "players": 1, "strategy": "random"}
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", B.DRIVER, json.dumps(args)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert "error" not in out and out["seconds"] >= 0, out


def test_the_bench_table_names_the_expansion_it_timed():
    # A table timed on an expansion's games said only "mode standard": a reader took it for the base game.
    res = run_cli(
        "bench",
        "--games",
        "20",
        "--repeat",
        "1",
        "-p",
        "1",
        "-s",
        "random",
        "-x",
        "easter",
        "--nine-three-quarters",
    )
    assert res.returncode == 0, res.stderr
    title = " ".join(res.stdout.split())  # the table's title wraps at the terminal's width
    assert "mode standard, expansion Easter Egg Hunt, with the 9¾ cards, sheet" in title
