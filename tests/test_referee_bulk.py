"""Bulk replay through the referee (slow: runs with --runslow, which CI passes)."""

from __future__ import annotations

import pytest

from welcome_sim.simcore.engine.game import game_seeds, simulate
from welcome_sim.simcore.rules.ruleset import load_ruleset
from welcome_sim.verify import check_batch


@pytest.mark.slow
@pytest.mark.parametrize("edition", ["collector", "first"])
def test_over_10000_games_per_edition_replay_exactly(edition):
    rs = load_ruleset(edition)
    games = 0
    for n_players in range(1, 9):
        for k, strategies in enumerate((["random"], ["spread"], ["first-fit"], ["random", "spread"])):
            seats = strategies * n_players if len(strategies) == 1 else (strategies * 8)[:n_players]
            count = 400 if strategies != ["first-fit"] else 100
            res = simulate(rs, game_seeds(1000 * n_players + k, count), n_players, seats, log=True)
            assert check_batch(res) == []
            games += count
    assert games == 8 * (400 * 3 + 100)


@pytest.mark.slow
def test_greedy_family_replays_exactly_at_every_table_size():
    rs = load_ruleset("collector")
    seats = ["greedy", "plan-rusher", "builder", "greedy-tuned", "random", "spread", "greedy", "builder"]
    games = 0
    for n_players in range(1, 9):
        res = simulate(rs, game_seeds(7000 + n_players, 150), n_players, seats[:n_players], log=True)
        assert check_batch(res) == []
        games += 150
    assert games == 1200
