"""The example notebook (examples/reading-a-sweep.ipynb) runs top to bottom on a small sweep, draws
its two charts, and its per-card validation rates agree with the same figures computed here from
the raw Parquet files."""

from __future__ import annotations

import json
import os
from pathlib import Path

import nbclient
import nbformat
import numpy as np
import polars as pl
import pytest

from welcome_sim.sweep.config import SweepConfig
from welcome_sim.sweep.run import run_sweep

NOTEBOOK = Path(__file__).parent.parent / "examples" / "reading-a-sweep.ipynb"


@pytest.fixture(scope="module")
def executed(tmp_path_factory) -> tuple[nbformat.NotebookNode, Path]:
    """The notebook executed on a 1-2 player sweep of 120 games, with a cell appended that prints
    its card table as JSON."""
    sweep = tmp_path_factory.mktemp("nb") / "sweep"
    run_sweep(SweepConfig(games=120, players=[1, 2], seed=3, strategies=["greedy"]), sweep, jobs=1)
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell("print(card_rates.write_json())"))
    # Charts inline, as in Jupyter, whatever backend the test process was given.
    env = dict(
        os.environ, WELCOME_SIM_SWEEP=str(sweep), MPLBACKEND="module://matplotlib_inline.backend_inline"
    )
    old = os.environ.copy()
    os.environ.update(env)  # the kernel process inherits the sweep's path
    try:
        nbclient.NotebookClient(nb, timeout=600, kernel_name="python3").execute()
    finally:
        os.environ.clear()
        os.environ.update(old)
    return nb, sweep


def _outputs(nb: nbformat.NotebookNode) -> list[dict]:
    return [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]


def test_the_notebook_runs_and_draws_two_charts(executed):
    nb, _ = executed
    outs = _outputs(nb)
    assert not [o for o in outs if o.output_type == "error"]
    assert sum("image/png" in o.get("data", {}) for o in outs) == 2
    said = "".join(o.get("text", "") for o in outs if o.output_type == "stream")
    # 120 games at 1 player and 120 at 2: 360 seats.
    assert "360 rows: 240 games in 2 configurations" in said


def test_its_card_rates_agree_with_the_raw_parquet(executed):
    nb, sweep = executed
    text = [o.text for o in _outputs(nb) if o.output_type == "stream"][-1]
    theirs = pl.DataFrame(json.loads(text)).sort("card")
    rows = pl.read_parquet(sweep / "data" / "**" / "*.parquet", hive_partitioning=True)
    # Independently: per (cell, game, card) the share of seats that validated it, then the mean
    # and the standard error over those games.
    mine = {}
    for x in "abc":
        for (_cell, _game, card), part in rows.group_by(["cell", "game", f"plan_{x}_id"]):
            mine.setdefault(card, []).append(float((part[f"plan_{x}_round"] > 0).mean()))
    assert sorted(mine) == theirs["card"].to_list()
    for card, rate, se, games in theirs.select("card", "rate", "se", "games").iter_rows():
        v = np.array(mine[card])
        assert games == len(v)
        assert rate == pytest.approx(v.mean())
        assert se == pytest.approx(v.std(ddof=1) / np.sqrt(len(v)))
