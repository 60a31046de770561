"""`--vary` in a sweep (issue 42): each value is a grid cell labelled by its path and value in the
rows and the manifest, played on the same seeds as the other values; the varied file is recorded,
a sweep with other values is another sweep, and a config file's `vary` key works as the option."""

from __future__ import annotations

import json

import polars as pl
import pytest
from conftest import run_cli

from welcome_sim.errors import WelcomeSimError
from welcome_sim.sweep import store
from welcome_sim.sweep.config import SweepConfig, load_toml
from welcome_sim.sweep.run import run_sweep

SCORES = "plans.A-1.scores=6/3,10/5"
PARKS = "sheet.streets.2.parks=0/2/4/6/14,0/2/4/6/30"


def _rows(out) -> pl.DataFrame:
    return store.scan(out).collect().sort("cell", "game", "seat")


def test_each_value_is_a_cell_labelled_by_path_and_value_on_the_same_seeds(tmp_path):
    cfg = SweepConfig(games=30, seed=2, players=[2], strategies=["greedy"], vary=[SCORES, PARKS])
    plan = cfg.validate()
    assert [c.vary_label for c in plan.cells] == [
        "plans.A-1.scores=6/3; sheet.streets.2.parks=0/2/4/6/14",
        "plans.A-1.scores=6/3; sheet.streets.2.parks=0/2/4/6/30",
        "plans.A-1.scores=10/5; sheet.streets.2.parks=0/2/4/6/14",
        "plans.A-1.scores=10/5; sheet.streets.2.parks=0/2/4/6/30",
    ]
    # The cells' files differ only in the varied values.
    a, b = (plan.ruleset(c) for c in plan.cells[:2])
    assert a.plans == b.plans and a.deck == b.deck
    assert [s.parks for s in a.sheet.streets] != [s.parks for s in b.sheet.streets]
    assert a.sheet.streets[0] == b.sheet.streets[0] and a.sheet.streets[2] == b.sheet.streets[2]
    out = tmp_path / "s"
    run_sweep(plan, out, jobs=1)
    df = _rows(out)
    assert df.group_by("cell").agg(pl.col("vary").unique()).sort("cell")["vary"].to_list() == [
        [c.vary_label] for c in plan.cells
    ]
    # Paired by seed: game g of every cell has the same seed and draws the same plan cards.
    per_cell = [
        df.filter(pl.col("cell") == i).select("game", "seed", "plan_a_id", "plan_b_id") for i in range(4)
    ]
    for other in per_cell[1:]:
        assert other.equals(per_cell[0])
    # The value moves what it should: A-1 scores 10 or 6 when validated first.
    a1 = df.filter((pl.col("plan_a_id") == "A-1") & pl.col("plan_a_first"))
    assert set(a1.filter(pl.col("cell") < 2)["plan_a"].unique()) <= {6}
    assert set(a1.filter(pl.col("cell") >= 2)["plan_a"].unique()) <= {10}
    manifest = json.loads((out / store.MANIFEST).read_text())
    assert manifest["config"]["vary"] == [SCORES, PARKS]
    assert manifest["cells"][3]["vary"] == {"plans.A-1.scores": "10/5", "sheet.streets.2.parks": "0/2/4/6/30"}
    varied = {f["path"]: f.get("varied") for f in manifest["data_files"]}
    assert varied["data/plans/collector_standard.toml"] == ["plans.A-1.scores"]
    assert varied["data/sheets/classic.toml"] == ["sheet.streets.2.parks"]
    assert varied["data/decks/collector.toml"] is None
    # Other values are another sweep: never mixed into this folder.
    other = SweepConfig(games=30, seed=2, players=[2], strategies=["greedy"], vary=["plans.A-1.scores=6/3"])
    with pytest.raises(WelcomeSimError, match=r"holds a different sweep.*vary"):
        run_sweep(other, out, jobs=1)


def test_a_sweep_without_vary_keeps_its_identity_and_rows(tmp_path):
    plain = SweepConfig(games=5, strategies=["random"])
    assert "vary" not in plain.identity()
    assert plain.digest() == SweepConfig(games=5, strategies=["random"], vary=[]).digest()
    run_sweep(plain, tmp_path / "s", jobs=1)
    assert "vary" not in _rows(tmp_path / "s").columns


def test_a_value_that_does_not_apply_to_every_cell_is_refused():
    cfg = SweepConfig(
        games=5, expansions=["none", "zombies"], vary=["expansion.zombies.start_ammunition=1,2"]
    )
    with pytest.raises(
        WelcomeSimError,
        match=r"^--vary expansion\.zombies\.start_ammunition=1: the game plays expansion 'none'",
    ):
        cfg.validate()


def test_a_config_file_takes_vary(tmp_path):
    path = tmp_path / "grid.toml"
    path.write_text('expansion = "zombies"\nvary = ["expansion.zombies.start_ammunition=0..2"]\n')
    assert load_toml(str(path))["vary"] == ["expansion.zombies.start_ammunition=0..2"]
    out = tmp_path / "s"
    res = run_cli(
        "sweep", "--config", str(path), "--games", "3", "--strategy", "random", "-o", str(out), "--jobs", "1"
    )
    assert res.returncode == 0, res.stderr
    labels = sorted(_rows(out)["vary"].unique().to_list())
    assert labels == [f"expansion.zombies.start_ammunition={v}" for v in range(3)]


def test_the_cli_names_a_bad_value_in_one_line(tmp_path):
    res = run_cli("sweep", "--vary", "plans.A-1.first=2000", "--games", "3", "-o", str(tmp_path / "s"))
    assert res.returncode != 0
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "--vary plans.A-1.first=2000" in lines[0] and "use 0 to 999" in lines[0]
