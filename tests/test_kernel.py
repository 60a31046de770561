"""Kernel behaviour as a whole: determinism, seeds, plans in play, game length bounds."""

from __future__ import annotations

import numpy as np
import pytest

from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.engine.game import game_seeds, simulate
from welcome_sim.simcore.ground.layout import END_ROUND_CAP


def test_same_seeds_same_results_whatever_the_batch_split(collector):
    seeds = game_seeds(3, 300)
    whole = simulate(collector, seeds, 3, ["random", "spread", "first-fit"])
    parts = [
        simulate(collector, seeds[a:b], 3, ["random", "spread", "first-fit"])
        for a, b in ((0, 7), (7, 150), (150, 300))
    ]
    assert np.array_equal(whole.out, np.concatenate([p.out for p in parts]))
    assert np.array_equal(whole.games, np.concatenate([p.games for p in parts]))


def test_game_seeds_are_keyed_by_game_index():
    a = game_seeds(42, 10)
    b = game_seeds(42, 5, start=5)
    assert np.array_equal(a[5:], b)
    assert len(set(a.tolist())) == 10
    assert not np.array_equal(game_seeds(43, 10), a)
    with pytest.raises(WelcomeSimError, match="--seed"):
        game_seeds(-1, 1)


def test_fixed_plans_are_played_and_random_plans_cover_every_card(collector):
    res = simulate(collector, game_seeds(1, 50), 1, ["spread"], plans=["A-3", "B-6", "C-1"])
    assert all(res.plan_ids(g) == ["A-3", "B-6", "C-1"] for g in range(50))
    res = simulate(collector, game_seeds(1, 2000), 1, ["random"])
    seen = {pid for g in range(2000) for pid in res.plan_ids(g)}
    assert seen == {p.id for p in collector.plans.plans}


def test_plan_ids_must_be_one_per_letter(collector):
    with pytest.raises(WelcomeSimError, match="two plans of letter A"):
        simulate(collector, game_seeds(1, 1), 1, plans=["A-1", "A-2", "C-1"])
    with pytest.raises(WelcomeSimError, match="unknown plan 'Z9'"):
        simulate(collector, game_seeds(1, 1), 1, plans=["A-1", "B-2", "Z9"])


@pytest.mark.parametrize("n_players", [1, 2, 5, 8])
def test_games_end_by_a_rule_never_by_the_safety_cap(collector, first, n_players):
    for rs in (collector, first):
        res = simulate(rs, game_seeds(n_players, 300), n_players, ["spread"])
        assert not (res.game_column("end_reason") & END_ROUND_CAP).any()
        assert (res.game_column("rounds") <= 33 + 3).all()


def test_strategies_per_seat(collector):
    with pytest.raises(WelcomeSimError, match="one strategy for every seat"):
        simulate(collector, game_seeds(1, 1), 3, ["random", "spread"])
    res = simulate(collector, game_seeds(1, 1), 2, ["random", "spread"])
    assert res.strategies == ("random", "spread")


def test_spread_outscores_random(collector):
    """Not a strength claim, a sanity check that decisions matter to the score."""
    seeds = game_seeds(5, 500)
    rnd = simulate(collector, seeds, 1, ["random"]).column("total").mean()
    spr = simulate(collector, seeds, 1, ["spread"]).column("total").mean()
    assert spr > rnd + 10
