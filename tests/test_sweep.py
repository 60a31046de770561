"""Sweeps: dataset schema and values, determinism across jobs/chunks/backends, resume, refusals."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest
from conftest import run_cli

from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.engine.game import game_seeds, simulate
from welcome_sim.simcore.rules.ruleset import load_ruleset
from welcome_sim.sweep import store
from welcome_sim.sweep.config import SweepConfig, load_toml, parse_players, split_table
from welcome_sim.sweep.run import run_sweep

SMALL = dict(games=60, seed=4, players=[1, 3], strategies=["random", "spread+random"])


def rows(out: Path) -> pl.DataFrame:
    return store.scan(out).collect().sort("cell", "game", "seat")


def test_small_sweep_schema_and_values(tmp_path):
    cfg = SweepConfig(**SMALL)
    summary = run_sweep(cfg, tmp_path / "s", jobs=1, chunk_size=25)
    df = rows(tmp_path / "s")
    # 4 cells x 60 games; one row per player per game.
    assert summary.games == 240 and summary.rows == df.height == 60 * (1 + 3) * 2
    for col in ("edition", "sheet", "mode", "players", "cell", "game", "seed", "seat", "strategy", "table"):
        assert col in df.columns
    for col in (
        "plan_a_id",
        "rounds",
        "end_reason",
        "total",
        "parks",
        "pools",
        "temps",
        "estates",
        "rank",
        "won",
    ):
        assert col in df.columns
    assert df["edition"].unique().to_list() == ["collector"]
    assert sorted(df["players"].unique().to_list()) == [1, 3]
    # A mixed table seats its strategies in turn.
    mixed = df.filter((pl.col("table") == "spread+random") & (pl.col("players") == 3))
    assert mixed.filter(pl.col("seat") == 0)["strategy"].unique().to_list() == ["spread"]
    assert mixed.filter(pl.col("seat") == 1)["strategy"].unique().to_list() == ["random"]
    assert mixed.filter(pl.col("seat") == 2)["strategy"].unique().to_list() == ["spread"]
    # Values are the kernel's: replay one cell directly.
    rs = load_ruleset("collector")
    res = simulate(rs, game_seeds(4, 60), 3, ["spread", "random", "spread"])
    cell = mixed.sort("game", "seat")
    assert cell["total"].to_list() == res.column("total").reshape(-1).tolist()
    assert cell["seed"].to_list() == [int(s) for s in game_seeds(4, 60) for _ in range(3)]
    # Score components add up.
    total = (
        df["plan_a"]
        + df["plan_b"]
        + df["plan_c"]
        + df["parks"]
        + df["pools"]
        + df["temps"]
        + df["estates"]
        - df["extension_penalty"]
        - df["refusal_penalty"]
    )
    assert (total == df["total"]).all()
    manifest = json.loads((tmp_path / "s" / "manifest.json").read_text())
    assert {c["status"] for c in manifest["chunks"].values()} == {"done"}
    assert manifest["sweep_seed"] == 4 and manifest["games_per_cell"] == 60
    assert "data/decks/collector.toml" in manifest["reconstructed"]
    assert {f["provenance"] for f in manifest["data_files"]} == {"published", "reconstructed"}
    assert manifest["version"]


def test_same_rows_for_any_jobs_and_chunk_size(tmp_path):
    cfg = SweepConfig(**SMALL)
    run_sweep(cfg, tmp_path / "a", jobs=1, chunk_size=60)
    run_sweep(cfg, tmp_path / "b", jobs=2, chunk_size=7)
    assert rows(tmp_path / "a").equals(rows(tmp_path / "b"))


def test_same_rows_on_a_dask_local_cluster(tmp_path):
    from dask.distributed import LocalCluster

    cfg = SweepConfig(**SMALL)
    run_sweep(cfg, tmp_path / "a", jobs=1, chunk_size=20)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        run_sweep(
            cfg, tmp_path / "d", jobs=2, chunk_size=20, backend="dask", scheduler=cluster.scheduler_address
        )
    assert rows(tmp_path / "a").equals(rows(tmp_path / "d"))


def test_plans_all_covers_every_combination_equally(tmp_path):
    rs = load_ruleset("first")
    n = 6 * 6 * 6 * 2
    cfg = SweepConfig(games=n, editions=["first"], strategies=["first-fit"], plans=["all"])
    run_sweep(cfg, tmp_path / "s", jobs=1, chunk_size=100)
    df = rows(tmp_path / "s")
    counts = df.group_by("plan_a_id", "plan_b_id", "plan_c_id").len()
    assert counts.height == 216 and counts["len"].unique().to_list() == [2]
    assert len(rs.plans.plans) == 18


def test_fixed_plans(tmp_path):
    cfg = SweepConfig(games=10, strategies=["random"], plans=["A-2,B-6,C-1"])
    run_sweep(cfg, tmp_path / "s", jobs=1)
    df = rows(tmp_path / "s")
    assert df.select("plan_a_id", "plan_b_id", "plan_c_id").unique().rows() == [("A-2", "B-6", "C-1")]
    assert df["plans_mode"].unique().to_list() == ["fixed"]


def _sweep_cmd(out: Path, *extra: str) -> list[str]:
    return [
        sys.executable, "-m", "welcome_sim.cli", "sweep", "--games", "3000", "--seed", "9",
        "--strategy", "spread", "--players", "1-2", "--chunk-size", "150", "--jobs", "1", "--out", str(out), *extra,
    ]  # fmt: skip


def test_killed_sweep_resumes_to_exactly_the_uninterrupted_rows(tmp_path):
    full, cut = tmp_path / "full", tmp_path / "cut"
    subprocess.run(_sweep_cmd(full), check=True, capture_output=True, timeout=600)
    proc = subprocess.Popen(_sweep_cmd(cut), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 300
    while time.time() < deadline and len(store.existing_chunks(cut)) < 5:
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    n_before = len(store.existing_chunks(cut))
    assert 5 <= n_before < 40, n_before  # killed part-way
    again = subprocess.run(_sweep_cmd(cut), capture_output=True, text=True, timeout=600)
    assert again.returncode != 0 and "--resume" in again.stderr  # will not silently restart
    resumed = subprocess.run(_sweep_cmd(cut, "--resume"), capture_output=True, text=True, timeout=600)
    assert resumed.returncode == 0, resumed.stderr
    assert f"this run played {(40 - n_before) * 150:,} games" in resumed.stdout
    assert rows(full).equals(rows(cut))
    assert not list((cut / "data").rglob("*.tmp"))


def test_mismatched_configuration_is_refused(tmp_path):
    out = tmp_path / "s"
    run_sweep(SweepConfig(games=5, strategies=["random"]), out, jobs=1)
    with pytest.raises(WelcomeSimError, match=r"holds a different sweep .*strategies: \['random'\] there"):
        run_sweep(SweepConfig(games=5, strategies=["greedy"]), out, jobs=1, resume=True)
    # More games extend a sweep (test_cli_reading.py); fewer are refused: a sweep never shrinks.
    with pytest.raises(WelcomeSimError, match=r"--games: .* holds 5 games per grid cell, more than the 4"):
        run_sweep(SweepConfig(games=4, strategies=["random"]), out, jobs=1)
    for resume in (False, True):  # complete: nothing to play, with or without --resume
        summary = run_sweep(SweepConfig(games=5, strategies=["random"]), out, jobs=1, resume=resume)
        assert summary.games_run == 0 and summary.games == 5
    with pytest.raises(WelcomeSimError, match="started with chunks of 2000 games, not 3"):
        run_sweep(SweepConfig(games=5, strategies=["random"]), out, jobs=1, chunk_size=3, resume=True)
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    with pytest.raises(WelcomeSimError, match="is not a sweep folder"):
        run_sweep(SweepConfig(games=5, strategies=["random"]), tmp_path / "other", jobs=1)
    with pytest.raises(WelcomeSimError, match="holds no sweep to resume"):
        run_sweep(SweepConfig(games=5, strategies=["random"]), tmp_path / "new", jobs=1, resume=True)


def test_config_helpers(tmp_path):
    assert parse_players(["1-3", "6"]) == [1, 2, 3, 6]
    assert parse_players(["2,4", "4"]) == [2, 4]
    assert split_table("greedy:plan=1e+2+builder") == ["greedy:plan=1e+2", "builder"]
    path = tmp_path / "sweep.toml"
    path.write_text('games = 12\nplayers = "1-2"\nstrategy = ["random", "spread"]\nout = "x"\n')
    assert load_toml(str(path)) == {
        "games": 12,
        "players": ["1-2"],
        "strategy": ["random", "spread"],
        "out": "x",
    }
    path.write_text("gmaes = 3\n")
    with pytest.raises(
        WelcomeSimError, match=r"unknown key 'gmaes' \(did you mean 'games'\?\); valid: games"
    ):
        load_toml(str(path))


def test_sweep_cli_from_a_toml_file_with_summary(tmp_path):
    cfg = tmp_path / "sweep.toml"
    cfg.write_text(
        f'games = 30\nplayers = "1-2"\nstrategy = ["random"]\nout = "{tmp_path / "out"}"\njobs = 1\n'
    )
    res = run_cli("sweep", "--config", str(cfg), "--seed", "3")
    assert res.returncode == 0, res.stderr
    assert "sweep done: 60 games, 90 rows" in res.stdout
    assert "mean score per configuration" in res.stdout and "RECONSTRUCTED" in res.stdout
    assert json.loads((tmp_path / "out" / "manifest.json").read_text())["sweep_seed"] == 3


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "0"], "--players: 0 is not a valid number of players"),
        (["--players", "1-99"], "--players: range '1-99' goes past 8"),
        (["--players", "two"], "--players: 'two' is not a player count"),
        (["--mode", "chess"], "--mode: unknown mode 'chess'; valid: standard, advanced"),
        (["--mode", "solo", "--players", "2"], "--mode solo: no cell to play"),
        (["--mode", "solo", "--opponent", "9"], "--opponent: unknown opponent '9'"),
        (["--mode", "solo", "--opponent", "3-1"], "--opponent: range '3-1' runs backwards"),
        (["--games", "0"], "--games: 0 is out of range; use 1 to"),
        (["--strategy", "greedy:pool=x"], "is not a number"),
        (["--plans", "A-1,A-2,C-1"], "two plans of letter A"),
        (["--backend", "spark"], "--backend: 'spark' is not one of loky, dask"),
        (["--backend", "dask"], "--scheduler: the dask backend needs a scheduler address"),
        (["--jobs", "0"], "--jobs"),
        (["--chunk-size", "0"], "--chunk-size"),
        (["--config", "/nonexistent.toml"], "--config: /nonexistent.toml: file not found"),
        (["--sheet", "nope"], "unknown sheet 'nope'"),
    ],
)
def test_sweep_bad_options_give_one_line_errors(tmp_path, args, message):
    res = run_cli("sweep", "--out", str(tmp_path / "o"), "--games", "5", *args)
    assert res.returncode != 0
    assert "Traceback" not in res.stderr
    lines = [ln for ln in res.stderr.splitlines() if ln.strip() and "sweep" not in ln[:6]]
    assert any(message in ln for ln in lines), res.stderr
    assert len([ln for ln in lines if ln.startswith("error")]) == 1


def reference_chunk_frame(res, cell, first_game: int) -> pl.DataFrame:
    """The former row builder (a Series per column, strings from per-row lists and NumPy string
    arrays, a range check per column): the rows and files the faster builder must reproduce."""
    import numpy as np

    from welcome_sim.simcore.ground.layout import GAME_COLUMNS
    from welcome_sim.simcore.rules.expansions.registry import OUT_COLUMNS
    from welcome_sim.sweep.rows import _FLAGS, _SMALL, end_reason_names, fit

    n, players = res.out.shape[0], res.out.shape[1]
    rep = np.repeat(np.arange(n), players)
    plan_ids = np.array([p.id for p in res.ruleset.plans.plans])
    cols: dict[str, pl.Series] = {
        "cell": pl.Series(np.full(n * players, cell.index, dtype=np.int32)),
        "game": pl.Series((first_game + rep).astype(np.int64)),
        "seed": pl.Series(res.seeds[rep]),
        "seat": pl.Series(np.tile(np.arange(players, dtype=np.int8), n)),
        "strategy": pl.Series(np.tile(np.array(cell.seats()), n)),
        "table": pl.Series([cell.table] * (n * players)),
        "plans_mode": pl.Series([cell.plans if cell.plans in ("random", "all") else "fixed"] * (n * players)),
    }
    for slot, letter in enumerate("abc"):
        cols[f"plan_{letter}_id"] = pl.Series(plan_ids[res.games[rep, 2 + slot]])
    opp = res.ruleset.opponent
    cols["opponent"] = pl.Series([opp.level if opp else None] * (n * players), dtype=pl.Int8)
    cols["opponent_name"] = pl.Series([opp.name if opp else None] * (n * players), dtype=pl.String)
    x = res.ruleset.expansion
    cols["expansion"] = pl.Series([x.name if x else "none"] * (n * players), dtype=pl.String)
    cols["nine_three_quarters"] = pl.Series([res.ruleset.nine] * (n * players), dtype=pl.Boolean)
    cols["deck"] = pl.Series([res.ruleset.deck_label] * (n * players), dtype=pl.String)
    cols["plan_set"] = pl.Series([res.ruleset.plans_label] * (n * players), dtype=pl.String)
    row_seeds = res.seeds[rep]
    cols["rounds"] = fit(res.games[rep, 0], np.int16, "rounds", row_seeds)
    cols["end_reason"] = pl.Series(end_reason_names(res.games[:, 1]), dtype=pl.String).gather(rep)
    flat = res.out.reshape(n * players, -1)
    for k, name in enumerate(OUT_COLUMNS):
        values = flat[:, k]
        if name in _FLAGS:
            cols[name] = pl.Series(values.astype(bool))
        elif name in _SMALL:
            cols[name] = fit(values, np.int8, name, row_seeds)
        else:
            cols[name] = fit(values, np.int32, name, row_seeds)
    cols["won"] = pl.Series(flat[:, OUT_COLUMNS.index("rank")] == 1)
    for k, name in enumerate(GAME_COLUMNS):
        if name.startswith("aaa_") or name == "special_round":
            cols[name] = fit(res.games[rep, k], np.int32, name, row_seeds)
    return pl.DataFrame(cols)


def _chunk_result(settings: dict, games: int = 120, first: int = 40):
    from welcome_sim.sweep.run import _plan_table

    plan = SweepConfig(games=games, seed=11, **settings).validate()
    cell = plan.cells[0]
    rs = plan.ruleset(cell)
    fixed, per_game = _plan_table(rs, cell.plans, first, games)
    seeds = game_seeds(11, games, start=first)
    return simulate(rs, seeds, cell.players, cell.seats(), fixed, plans_per_game=per_game), cell


def _parquet_bytes(df: pl.DataFrame, path: Path) -> bytes:
    df.write_parquet(path, compression="zstd", statistics=True)
    return path.read_bytes()


@pytest.mark.parametrize(
    "settings",
    [
        dict(players=[1], strategies=["random"]),
        dict(players=[3], strategies=["spread+random"]),
        dict(players=[1], strategies=["greedy"], modes=["solo"], opponents=["3"]),
        dict(players=[2], strategies=["random"], expansions=["easter"], nine=["on"]),
        dict(players=[4], strategies=["first-fit"], editions=["first"], plans=["all"]),
        dict(players=[2], strategies=["random"], plans=["A-2,B-6,C-1"], modes=["advanced"]),
        dict(players=[1], strategies=["random"], editions=["first"], modes=["solo"]),
    ],
)
def test_chunk_rows_and_file_bytes_equal_the_reference_builder(tmp_path, settings):
    from welcome_sim.sweep.rows import chunk_frame

    res, cell = _chunk_result(settings)
    got, want = chunk_frame(res, cell, 40), reference_chunk_frame(res, cell, 40)
    assert got.schema == want.schema
    assert got.equals(want, null_equal=True)
    assert got.height == 120 * cell.players
    # The Parquet file, hence the sha256 the manifest records, is byte for byte the same.
    assert _parquet_bytes(got, tmp_path / "got.parquet") == _parquet_bytes(want, tmp_path / "want.parquet")


@pytest.mark.parametrize(
    ("table", "column", "value"),
    [
        ("out", "refusals", 200),
        ("out", "total", 2**31),
        ("games", "rounds", 40_000),
        ("games", "aaa_total", -(2**31) - 1),
    ],
)
def test_a_value_that_does_not_fit_gives_the_reference_error(table, column, value):
    from welcome_sim.simcore.ground.layout import GAME_COLUMNS
    from welcome_sim.simcore.rules.expansions.registry import OUT_COLUMNS
    from welcome_sim.sweep.rows import chunk_frame

    res, cell = _chunk_result(dict(players=[2], strategies=["random"]), games=10)
    if table == "out":
        res.out[3, 1, OUT_COLUMNS.index(column)] = value
    else:
        res.games[3, GAME_COLUMNS.index(column)] = value
    with pytest.raises(WelcomeSimError) as want:
        reference_chunk_frame(res, cell, 0)
    with pytest.raises(WelcomeSimError) as got:
        chunk_frame(res, cell, 0)
    assert str(got.value) == str(want.value)
    assert f"column '{column}': value {value} of the game of seed {int(res.seeds[3])}" in str(got.value)


def test_of_several_values_that_do_not_fit_the_first_column_in_row_order_is_named():
    from welcome_sim.simcore.ground.layout import GAME_COLUMNS
    from welcome_sim.simcore.rules.expansions.registry import OUT_COLUMNS
    from welcome_sim.sweep.rows import chunk_frame

    res, cell = _chunk_result(dict(players=[1], strategies=["random"]), games=10)
    res.out[5, 0, OUT_COLUMNS.index("rank")] = 500
    res.out[2, 0, OUT_COLUMNS.index("pools")] = 2**40
    res.games[7, GAME_COLUMNS.index("special_round")] = 2**40
    with pytest.raises(WelcomeSimError, match=r"column 'pools': value 1099511627776 ") as got:
        chunk_frame(res, cell, 0)
    with pytest.raises(WelcomeSimError) as want:
        reference_chunk_frame(res, cell, 0)
    assert str(got.value) == str(want.value)


def test_write_atomic_writes_polars_bytes_and_returns_their_sha256(tmp_path):
    import hashlib

    from welcome_sim.sweep.rows import chunk_frame

    res, cell = _chunk_result(dict(players=[2], strategies=["random"]), games=30)
    df = chunk_frame(res, cell, 0)
    path = tmp_path / "deep" / "folder" / "c0000-g0000000000.parquet"
    digest = store.write_atomic(df, path)
    data = path.read_bytes()
    assert data == _parquet_bytes(df, tmp_path / "direct.parquet")
    assert digest == hashlib.sha256(data).hexdigest() == store.sha256_of(path)
    assert pl.read_parquet(path).equals(df)
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary left behind


def test_resume_under_other_game_code_is_refused(tmp_path):
    """A sweep records the digest of the code that plays its games; resuming it after that code
    changed would mix games (and columns) of two versions, so it stops with a one-line error."""
    from welcome_sim import kernel_digest

    cfg = SweepConfig(games=4, strategies=["random"])
    out = tmp_path / "s"
    run_sweep(cfg, out, jobs=1)
    path = out / "manifest.json"
    manifest = json.loads(path.read_text())
    assert manifest["kernel_digest"] == kernel_digest()
    manifest["kernel_digest"] = "0" * 16
    path.write_text(json.dumps(manifest))
    with pytest.raises(WelcomeSimError, match="started by other game code"):
        run_sweep(cfg, out, jobs=1, resume=True)


def test_resume_after_a_strategy_changed_meaning_is_refused(tmp_path):
    """A ladder level or tuned set is read from a file: the sweep records what each strategy name
    meant when it started, and resuming after that changed stops instead of mixing two players."""
    cfg = SweepConfig(games=4, strategies=["casual"])
    out = tmp_path / "s"
    run_sweep(cfg, out, jobs=1)
    path = out / "manifest.json"
    manifest = json.loads(path.read_text())
    from welcome_sim.strategies.registry import parse_strategy

    assert manifest["strategy_params"]["casual"] == [float(x) for x in parse_strategy("casual").vector()]
    manifest["strategy_params"]["casual"][parse_strategy("casual").spec.param("noise").slot] = 3.0
    path.write_text(json.dumps(manifest))
    with pytest.raises(WelcomeSimError, match="'casual' now has other parameter values"):
        run_sweep(cfg, out, jobs=1, resume=True)


def test_summary_gives_a_win_rate_only_where_someone_can_be_beaten(tmp_path):
    # A player alone always ranks first; a table or the AAA solo mode can be lost.
    cfg = SweepConfig(games=20, seed=2, players=[1, 2], modes=["standard", "solo"], opponents=["3"])
    summary = run_sweep(cfg, tmp_path / "s", jobs=1)
    by = {(r["mode"], r["players"]): r["win_rate"] for r in summary.means.iter_rows(named=True)}
    assert by[("standard", 1)] is None
    assert by[("standard", 2)] is not None and 0.0 < by[("standard", 2)] < 1.0
    assert by[("solo", 1)] is not None and 0.0 <= by[("solo", 1)] <= 1.0
