"""Strategy framework: registry and parameters, legality, determinism, Python protocol, plans."""

from __future__ import annotations

import numpy as np
import pytest

from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.engine.game import game_seeds, simulate
from welcome_sim.simcore.rules.sheetops import Sheets
from welcome_sim.strategies.protocol import IllegalStrategyMove, Move, Turn
from welcome_sim.strategies.registry import BUILTINS, GREEDY, all_strategies, parse_strategy
from welcome_sim.verify import check_batch

GREEDY_FAMILY = ["greedy", "plan-rusher", "builder"]


# --- registry and parameters ----------------------------------------------------------------


def test_parse_name_and_parameters():
    c = parse_strategy("greedy:plan=1.2, pool=0.5")
    assert c.kernel_id == GREEDY
    vec = c.vector()
    assert vec[c.spec.param("plan").slot] == 1.2
    assert vec[c.spec.param("pool").slot] == 0.5
    assert vec[c.spec.param("park").slot] == c.spec.param("park").default


def test_styles_are_parameter_sets_of_greedy():
    g, rusher, builder = (parse_strategy(n).vector() for n in GREEDY_FAMILY)
    assert not np.array_equal(g, rusher) and not np.array_equal(g, builder)
    plan = BUILTINS["greedy"].param("plan").slot
    assert rusher[plan] > g[plan] > builder[plan]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("xyzzy", "unknown strategy 'xyzzy'; valid: random, first-fit, spread, greedy"),
        ("greedy:colour=2", "'greedy' has no parameter 'colour'; valid: noise, park, pool"),
        ("random:plan=1", "'random' has no parameter 'plan'; valid: none"),
        ("greedy:plan", "'plan' in 'greedy:plan' is not key=value"),
        ("greedy:plan=high", "is not a number"),
        ("greedy:plan=99", "outside its range 0..3"),
        ("greedy:reshuffle=0.7", "reshuffle=0.7 is not one of 0, 1, 2"),
    ],
)
def test_parse_errors_list_what_is_valid(text, message):
    with pytest.raises(WelcomeSimError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_strategy(text)


def test_policy_choices_are_not_tuned(monkeypatch):
    from welcome_sim.studies import tuning

    policies = [
        "reshuffle",
        "hold",
        "look_moves",
        "look_samples",
        "look_depth",
        "objective",
        "xchoice",
        "blind",
        "look_race",
        "look_tie",
        "look_batch",
        "look_roll",
        "look_gap",
        "look_far",
        "look_share",
    ]
    assert [p.name for p in parse_strategy("greedy").spec.params if p.choice] == policies
    tried = []

    def fake_mean(ruleset, choice, values, seeds, jobs=1):
        tried.append(dict(values))
        return 0.0

    monkeypatch.setattr(tuning, "mean_score", fake_mean)
    tuning.coordinate_search(None, "greedy", 2, 1, sweeps=1)
    # Weights move, the policies not.
    assert len(tried) > 3
    assert all(t[k] == tried[0][k] for t in tried for k in policies)
    assert any(t["plan"] != tried[0]["plan"] for t in tried)


def test_every_registered_strategy_has_documented_parameters():
    for name, spec in all_strategies().items():
        assert spec.doc, name
        for prm in spec.params:
            assert prm.doc and prm.low <= prm.default <= prm.high, (name, prm.name)
        for key in spec.values:
            spec.param(key)


# --- legality and determinism ---------------------------------------------------------------


@pytest.mark.parametrize("edition", ["collector", "first"])
def test_greedy_family_plays_only_legal_moves(edition, collector, first):
    rs = collector if edition == "collector" else first
    for n_players, seats in (
        (1, ["greedy"]),
        (3, GREEDY_FAMILY),
        (4, ["greedy", "random", "builder", "spread"]),
    ):
        res = simulate(rs, game_seeds(31 + n_players, 60), n_players, seats, log=True)
        assert check_batch(res) == []


def test_greedy_is_deterministic_given_the_seed(collector):
    seeds = game_seeds(5, 40)
    a = simulate(collector, seeds, 2, ["greedy", "plan-rusher"])
    b = simulate(collector, seeds, 2, ["greedy", "plan-rusher"])
    assert np.array_equal(a.out, b.out)
    c = simulate(collector, seeds[20:], 2, ["greedy", "plan-rusher"])
    assert np.array_equal(a.out[20:], c.out)


def test_parameters_change_play(collector):
    seeds = game_seeds(6, 100)
    a = simulate(collector, seeds, 1, ["greedy"]).column("total")
    b = simulate(collector, seeds, 1, ["greedy:pool=3,park=0"]).column("total")
    assert not np.array_equal(a, b)


def test_greedy_beats_random_by_a_wide_margin(collector):
    seeds = game_seeds(7, 300)
    greedy = simulate(collector, seeds, 1, ["greedy"]).column("total").mean()
    rnd = simulate(collector, seeds, 1, ["random"]).column("total").mean()
    assert greedy > rnd + 40


def test_plan_rusher_validates_more_plans_first_than_builder(collector):
    seeds = game_seeds(8, 400)
    firsts = {}
    for name in ("plan-rusher", "builder"):
        res = simulate(collector, seeds, 1, [name])
        firsts[name] = sum(res.column(f"plan_{x}_first").sum() for x in "abc")
    assert firsts["plan-rusher"] > firsts["builder"]


def test_greedy_declines_a_later_score_that_would_cost_a_first_score(collector):
    """Plan A-3 (three estates of 3) is flipped: worth 4. Locking the three size-3 estates would
    take the size 3 that plan C-6 (2, 3, 5; first score 13, nearly done) needs: greedy waits.
    The same sheet with A-3 still worth its first score validates at once."""
    from handsheets import Spec, kernel_table

    from welcome_sim.simcore.ground.layout import F_LOCK
    from welcome_sim.strategies.context import CTX_LEN
    from welcome_sim.strategies.greedy import greedy_validates

    spec = Spec(
        streets=[
            ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"],
            ["1", "2", "3", "4", "5", "6", ".", ".", ".", ".", "."],
            ["."] * 12,
        ],
        fences={0: [3, 6, 9], 1: [2, 7]},
    )
    R = collector.kernel
    cells, flags, fences, sc = kernel_table(R, [spec])
    ids = [p.id for p in collector.plans.plans]
    ctx = np.zeros(CTX_LEN, dtype=np.int64)
    ctx[0] = 2
    ctx[2:5] = [ids.index("A-3"), ids.index("B-1"), ids.index("C-6")]
    prm = parse_strategy("greedy").vector()
    ctx[5] = 1  # A-3 already validated by someone: only its later score is left
    assert not greedy_validates(R, prm, Sheets(cells, flags, fences, sc), 0, ctx, 0)
    assert not (flags & F_LOCK).any()  # the trial lock was undone
    ctx[5] = 0
    assert greedy_validates(R, prm, Sheets(cells, flags, fences, sc), 0, ctx, 0)


# --- the Python protocol ----------------------------------------------------------------------


class PyFirstFit:
    """The compiled first-fit player, written again against the Python protocol."""

    def choose(self, turn: Turn) -> Move | None:
        for c in range(3):
            number, _ = turn.combos[c]
            for s, h, v in turn.legal_placements(c):
                if v == number:
                    return self._act(turn, c, s, h, v)
        for delta in (-1, 1, -2, 2):
            for c in range(3):
                number, action = turn.combos[c]
                for s, h, v in turn.legal_placements(c):
                    if v == number + delta:
                        return Move(c, s, h, v, "temp")
        return None

    def _act(self, turn: Turn, c, s, h, v) -> Move:
        action = turn.combos[c][1]
        n = len(turn.numbers[s])
        if action == "temp" and turn.temps < 11:
            return Move(c, s, h, v, "temp")
        if action == "fence":
            for b in (h + 1, h):
                locked = 0 < b < n and turn.locked[s][b - 1] and turn.locked[s][b]
                if 0 < b < n and b not in turn.fences[s] and not locked:
                    return Move(c, s, h, v, "fence", (s, b))
        if action == "improvement":
            limits = [1, 2, 3, 4, 4, 4]
            for col in range(5, -1, -1):
                if turn.improvements[col] < limits[col]:
                    return Move(c, s, h, v, "improvement", (col,))
        parks_max = [3, 4, 5]
        if action == "park" and turn.parks[s] < parks_max[s]:
            return Move(c, s, h, v, "park")
        if action == "pool" and turn.pool_houses[s][h] and turn.pools < 9:
            return Move(c, s, h, v, "pool")
        if action == "extension" and turn.extensions < 9:
            for tgt in (h + 1, h - 1):
                if 0 <= tgt < n and turn.numbers[s][tgt] is None:
                    return Move(c, s, h, v, "extension", (s, h, tgt))
        return Move(c, s, h, v)


def test_python_strategy_gives_the_same_rows_as_the_compiled_one(collector):
    seeds = game_seeds(12, 40)
    compiled = simulate(collector, seeds, 2, ["first-fit", "greedy"])
    python = simulate(collector, seeds, 2, [PyFirstFit(), "greedy"])
    assert python.strategies == ("PyFirstFit", "greedy")
    assert np.array_equal(compiled.out, python.out)
    assert np.array_equal(compiled.games, python.games)


def test_python_strategy_games_replay_through_the_referee(collector):
    res = simulate(collector, game_seeds(13, 20), 1, [PyFirstFit()], log=True)
    assert check_batch(res) == []


class Cheater:
    def choose(self, turn: Turn) -> Move | None:
        number, _ = turn.combos[0]
        return Move(0, 0, 0, 17 if number != 17 else 16)  # wrong number, no temp worker


class Refuser:
    def choose(self, turn: Turn) -> Move | None:
        return None


@pytest.mark.parametrize(
    ("player", "message"), [(Cheater(), "only a temp worker"), (Refuser(), "permit refusal although")]
)
def test_illegal_python_moves_are_rejected_with_the_rule(collector, player, message):
    with pytest.raises(IllegalStrategyMove, match=message):
        simulate(collector, game_seeds(1, 1), 1, [player])


def test_python_strategy_randomness_comes_from_the_game(collector):
    class Rand:
        def choose(self, turn: Turn) -> Move | None:
            options = [
                (c, p) for c in range(3) for p in turn.legal_placements(c) if p[2] == turn.combos[c][0]
            ]
            if not options:
                return None
            c, (s, h, v) = options[turn.random(len(options))]
            return Move(c, s, h, v)

    seeds = game_seeds(14, 10)
    a = simulate(collector, seeds, 1, [Rand()]).out
    b = simulate(collector, seeds, 1, [Rand()]).out
    assert np.array_equal(a, b)


def test_objects_without_choose_are_refused(collector):
    with pytest.raises(WelcomeSimError, match="neither a name nor an object with a choose"):
        simulate(collector, game_seeds(1, 1), 1, [object()])


def test_tuned_sets_round_trip(tmp_path):
    from welcome_sim.strategies.registry import load_tuned
    from welcome_sim.studies.tuning import write_tuned

    path = tmp_path / "tuned.toml"
    write_tuned("mine", "greedy", {"plan": 1.25, "pool": 0.5}, "a test set", path)
    write_tuned("other", "builder", {"dead": 4.0}, "another", path)
    sets = load_tuned(path)
    assert set(sets) == {"mine", "other"}
    vec = sets["mine"].vector()
    assert vec[sets["mine"].param("plan").slot] == 1.25
    assert sets["other"].doc == "another"


def test_coordinate_search_never_reports_a_worse_set(collector):
    from welcome_sim.studies.tuning import coordinate_search

    res = coordinate_search(collector, "greedy", games=30, seed=3, sweeps=1, params=["pool", "park"])
    assert res.best_mean >= res.start_mean
    assert set(res.best) == {p.name for p in BUILTINS["greedy"].params}
