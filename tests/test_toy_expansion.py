"""An expansion is one declared record (issue 39): Even Marks, an expansion defined only under
tests/toy_expansion (its module evens.py with its RECORD and hooks, its data file evens.toml, its
referee reading evens_referee.py), plays, is refereed, sweeps, reaches the report and is ranked by
`difficulty`, named by $WELCOME_SIM_EXPANSIONS alone.

Its rule, as its data file states it: "Each marked house numbered with an even number scores
points_per_mark points at the end of the game (a bis counts the number it copies; a 9¾ or any ¾
number is not even)." Its one Plan C card: "at least 4 marked houses numbered with an even number".

The variable is set only in subprocesses: this process's registries (and the fingerprint grid) never
see the toy. The end-to-end test compiles a kernel of its own (its cache folder is keyed by the
variable and the toy's sources), minutes on a cold cache: it is marked slow.
"""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import welcome_sim
from welcome_sim.simcore.rules.expansions import extra
from welcome_sim.simcore.rules.expansions.record import EXTRA_ENV

TOY = Path(__file__).parent / "toy_expansion"
MODULE = "toy_expansion.evens"


def toy_env() -> dict[str, str]:
    """This process's environment with the toy named and tests/ on the import path."""
    env = dict(os.environ)
    env[EXTRA_ENV] = MODULE
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(TOY.parent), env.get("PYTHONPATH", "")) if p)
    env.pop("NUMBA_CACHE_DIR", None)  # a folder keyed for this process's kernel is not the toy's
    env.pop(welcome_sim.CHOSEN_ENV, None)
    return env


def run_python(code: str, timeout: float) -> dict:
    """Run code with the toy named; it prints one JSON object last."""
    res = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        env=toy_env(),
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert res.returncode == 0, res.stderr[-3000:]
    return json.loads(res.stdout.strip().splitlines()[-1])


def run_cli(*args: str, timeout: float) -> subprocess.CompletedProcess:
    """A welcome-sim command with the toy named."""
    res = subprocess.run(
        [sys.executable, "-m", "welcome_sim.cli", *args],
        env=toy_env(),
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert res.returncode == 0, (args, res.stderr[-3000:])
    return res


def test_the_toy_is_its_module_its_data_file_and_its_referee_reading():
    """Adding it touched these three files (and this test), nothing under welcome_sim/."""
    assert sorted(p.name for p in TOY.iterdir() if p.name != "__pycache__") == [
        "evens.py",
        "evens.toml",
        "evens_referee.py",
    ]


def test_without_the_variable_no_plug_in_is_compiled():
    """Base games and the built-in expansions compile without the plug-in branches (EXTRA off)."""
    assert os.environ.get(EXTRA_ENV, "") == ""
    assert extra.EXTRA == 0 and extra.X_EXTRA == -1


def test_the_toy_joins_every_registry_the_loader_the_plan_texts_and_the_referee():
    """Named by the variable, its record gives it a code, a result column, a goal, a data file
    beside its module, its goal's plan text, its referee reading (registered by verify.py), bound
    hooks, and a kernel cache key of its own."""
    got = run_python(
        """
        import json
        import welcome_sim
        from welcome_sim.simcore.rules.expansions import extra, registry as X
        from welcome_sim.plantext import requirement
        from welcome_sim.simcore.rules.ruleset import load_ruleset
        from welcome_sim.verify import referee_rules
        rs = load_ruleset(expansion="evens")
        card = [p for p in rs.plans.plans if p.letter == "C"]
        rules = referee_rules(rs)
        print(json.dumps({
            "names": list(X.NAMES), "last_column": X.OUT_COLUMNS[-1], "goals": list(X.GOALS[-1:]),
            "path": rs.expansion.path, "code": rs.expansion.code, "extra": [extra.EXTRA, extra.X_EXTRA],
            "hooks": extra.extra_score.py_func.__module__, "cards": [p.id for p in card],
            "text": requirement(card[0]), "reading": type(rules.expansion).__name__,
            "digest": welcome_sim.kernel_digest(),
        }))
        """,
        timeout=300,
    )
    assert (
        got["names"][-1] == "evens" and got["last_column"] == "even_marks" and got["goals"] == ["even_marks"]
    )
    assert got["path"] == str(TOY / "evens.toml") and got["code"] == len(got["names"])
    assert got["extra"] == [1, got["code"]] and got["hooks"] == MODULE
    assert (
        got["cards"] == ["C-EV1"] and "at least 4 marked houses numbered with an even number" in got["text"]
    )
    assert got["reading"] == "Evens"
    assert got["digest"] != welcome_sim.kernel_digest()  # never the built-in kernel's cache


@pytest.mark.slow
def test_the_toy_plays_is_refereed_sweeps_and_reaches_the_report_and_difficulty(tmp_path):
    """Kernel and referee agree on every game (greedy and random, 2 players); its column and points
    are written; a sweep's rows carry its column; the report shows its counters' table; difficulty
    ranks it beside the publisher's stars its data file gives."""
    got = run_python(
        """
        import json
        from welcome_sim.simcore.engine.game import game_seeds, simulate
        from welcome_sim.simcore.rules.ruleset import load_ruleset
        from welcome_sim.verify import check_batch
        rs = load_ruleset(expansion="evens")
        out = {}
        for strat in ("greedy", "random"):
            res = simulate(rs, game_seeds(11, 25), 2, [strat], log=True)
            marks, pts = res.column("even_marks"), res.column("expansion_points")
            out[strat] = {"problems": check_batch(res), "marks": int(marks.sum()),
                          "points_ok": bool(((pts == 3 * marks)).all())}
        print(json.dumps(out))
        """,
        timeout=1800,
    )
    for strat in ("greedy", "random"):
        assert got[strat]["problems"] == [] and got[strat]["marks"] > 0 and got[strat]["points_ok"], got
    run = tmp_path / "run"
    run_cli("sweep", "--games", "40", "--expansion", "evens", "--players", "2", "--out", str(run),
            "--jobs", "2", timeout=1800)  # fmt: skip
    import polars as pl

    rows = pl.read_parquet(sorted(run.rglob("*.parquet")))
    # Its data file is not a shipped one: the rows label it as a file of one's own, name and hash.
    (label,) = rows["expansion"].unique().to_list()
    assert label.startswith("evens.") and rows["even_marks"].sum() > 0
    report = tmp_path / "report.html"
    run_cli("report", str(run), "-o", str(report), timeout=600)
    html = report.read_text(encoding="utf-8")
    assert "Even Marks" in html and "marked houses numbered with an even number" in html  # its counters
    ranked = run_cli(
        "difficulty", "--games", "30", "--players", "2", "--format", "csv", "--jobs", "2", timeout=1800
    )
    ranking = list(csv.DictReader(io.StringIO(ranked.stdout)))
    mine = [r for r in ranking if r["item"] == "Even Marks, 2 players"]
    assert len(mine) == 1 and mine[0]["publisher_stars"] == "1" and int(mine[0]["deals"]) == 30, ranked.stdout


@pytest.mark.parametrize(
    ("named", "said"),
    [
        ("nosuch.mod", "expansion module 'nosuch.mod' cannot be imported (No module named 'nosuch')"),
        ("os", "module 'os' declares no RECORD = Record(...), so it is no expansion"),
    ],
)
def test_a_bad_expansion_module_of_ones_own_is_one_line(named, said):
    # The registry is built when the command line is imported: a module that is not there, or is
    # no expansion, stopped it with a traceback before any command ran.
    import subprocess
    import sys

    env = dict(os.environ) | {"WELCOME_SIM_EXPANSIONS": named}
    done = subprocess.run(
        [sys.executable, "-m", "welcome_sim.cli", "--help"], env=env, capture_output=True, text=True
    )
    assert done.returncode == 2
    assert done.stderr == f"error: $WELCOME_SIM_EXPANSIONS: {said}" + (
        "; name importable modules, comma-separated (their folder on PYTHONPATH)\n"
        if "import" in said
        else "\n"
    )
