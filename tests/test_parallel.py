"""Games split over processes give exactly the arrays one process gives (each game has its seed)."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest
from conftest import run_cli

from welcome_sim.simcore.engine import parallel
from welcome_sim.simcore.engine.game import game_seeds, simulate
from welcome_sim.simcore.engine.parallel import _portable, chunk_bounds, processes_for, simulate_parallel
from welcome_sim.strategies.registry import parse_strategy
from welcome_sim.studies.tournament import tournament
from welcome_sim.studies.tuning import coordinate_search


@pytest.mark.parametrize(
    ("n", "jobs", "step"), [(1, 2, 10), (10, 2, 3), (5000, 2, 2000), (7, 4, 100), (9, 1, 4)]
)
def test_chunks_cover_every_game_once_in_order(n, jobs, step):
    bounds = chunk_bounds(n, jobs, step)
    assert bounds[0][0] == 0 and bounds[-1][1] == n
    assert all(a < b <= a + step for a, b in bounds)
    assert all(b == c for (_, b), (c, _) in itertools.pairwise(bounds))
    if jobs > 1 and n >= 2 * jobs:
        assert len(bounds) >= 2 * jobs


@pytest.fixture(autouse=True)
def small_batches_use_processes(monkeypatch):
    """The tests play few games; they must still go through the worker processes."""
    monkeypatch.setattr(parallel, "MIN_GAMES_PER_PROCESS", 1)


def test_small_batches_stay_in_this_process(monkeypatch):
    monkeypatch.setattr(parallel, "MIN_GAMES_PER_PROCESS", 100)
    assert processes_for(150, 2) == 1 and processes_for(99, 8) == 1
    assert processes_for(200, 2) == 2 and processes_for(10_000, 1) == 1


def test_two_processes_play_the_same_games_as_one(collector):
    seeds = game_seeds(11, 60)
    one = simulate(collector, seeds, 2, ["greedy", "random"])
    two = simulate_parallel(collector, seeds, 2, ["greedy", "random"], jobs=2, step=7)
    assert two.strategies == one.strategies
    np.testing.assert_array_equal(two.out, one.out)
    np.testing.assert_array_equal(two.games, one.games)
    np.testing.assert_array_equal(two.seeds, one.seeds)


def test_progress_counts_every_game(collector):
    seen: list[int] = []
    simulate_parallel(collector, game_seeds(2, 25), 1, ["random"], jobs=2, step=4, advance=seen.append)
    assert sum(seen) == 25 and max(seen) <= 4


def test_python_strategy_objects_stay_in_this_process():
    class Mine:
        def choose(self, turn):
            return None

    assert _portable(["greedy", parse_strategy("builder:dead=2")])
    assert not _portable(["greedy", Mine()])


def _without_speed(rows):
    return [dataclasses.replace(r, games_per_second=0.0) for r in rows]


def test_tournament_on_two_processes_equals_one(collector):
    names = ["greedy", "random", "builder"]
    one = tournament(collector, names, 40, 3, mixed=True, step=15, jobs=1)
    two = tournament(collector, names, 40, 3, mixed=True, step=15, jobs=2)
    assert len(one) == 6
    assert _without_speed(two) == _without_speed(one)


def test_tune_on_two_processes_equals_one(collector):
    one = coordinate_search(collector, "greedy", 30, 5, sweeps=1, step=0.3, params=["plan", "pool"], jobs=1)
    two = coordinate_search(collector, "greedy", 30, 5, sweeps=1, step=0.3, params=["plan", "pool"], jobs=2)
    assert two == one
    assert one.evaluations >= 3


def test_cli_tournament_jobs_gives_the_same_table():
    args = ["tournament", "--games", "250", "--strategy", "greedy", "--strategy", "random"]
    one = run_cli(*args, "--jobs", "1")
    two = run_cli(*args, "--jobs", "2")
    assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr

    def scores(out: str) -> list[list[str]]:  # every column but games/s, the last
        return [line.split("│")[1:-2] for line in out.splitlines() if line.startswith("│")]

    assert scores(one.stdout) == scores(two.stdout) and len(scores(one.stdout)) == 4


def test_cli_jobs_out_of_range_names_the_option():
    res = run_cli("tune", "--jobs", "0")
    assert res.returncode == 2
    assert "--jobs: 0 is out of range" in res.stderr


def _pid() -> int:
    import os

    return os.getpid()


def test_a_command_that_returns_kills_its_idle_workers():
    # commands/common.stop_workers, run by the CLI after every command: idle loky workers would
    # otherwise finalize their interpreters while the command exits (0.5 s or more).
    import os

    from joblib import Parallel, delayed
    from typer.testing import CliRunner

    from welcome_sim.cli import app

    pids = set(Parallel(n_jobs=2, backend="loky")(delayed(_pid)() for _ in range(4)))
    assert pids and os.getpid() not in pids
    res = CliRunner().invoke(app, ["strategies"])
    assert res.exit_code == 0, res.output
    gone = []
    for pid in pids:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            gone.append(pid)
    assert sorted(gone) == sorted(pids)
