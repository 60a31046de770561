"""The look-ahead player, the skill ladder and the luck/skill split."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.engine.game import game_seeds, simulate
from welcome_sim.simcore.rules.ruleset import load_ruleset
from welcome_sim.strategies.registry import (
    LADDER_FILE,
    builtin_strategies,
    ladder_levels,
    load_ladder,
    parse_strategy,
)
from welcome_sim.studies.skill import luck_skill_split, monotone, play_ladder, skill_plans
from welcome_sim.verify import check_batch

CHEAP = "lookahead:look_samples=4,look_moves=3,look_depth=2,look_batch=2,look_race=1"  # racing
CHEAP_ALL = "lookahead:look_samples=2,look_moves=3,look_depth=2,look_race=0"  # every move, every future


# --- the look-ahead player ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("edition", "mode", "expansion", "opponent", "players"),
    [
        ("collector", "standard", None, None, 1),
        ("collector", "advanced", None, None, 3),
        ("collector", "expert", None, None, 3),
        ("collector", "solo", None, "3", 1),
        ("first", "solo", None, None, 1),
        ("collector", "standard", "icecream", None, 2),
        ("first", "standard", "icecream", None, 1),
        ("collector", "expert", "zombies", None, 3),
        ("collector", "solo", "zombies", "3", 1),
        ("collector", "standard", "christmas", None, 2),
        ("collector", "expert", "easter", None, 2),
        ("collector", "standard", "doomsday", None, 2),
        ("collector", "solo", "roswell", "3", 1),
        ("collector", "standard", "halloween", None, 2),
        ("collector", "standard", "quack", None, 2),
        ("collector", "solo", "quack", "3", 1),
        ("collector", "standard", "american-dream", None, 2),
        ("collector", "solo", "american-dream", "3", 1),
    ],
)
def test_lookahead_moves_are_legal_and_deterministic(edition, mode, expansion, opponent, players):
    rs = load_ruleset(edition, mode=mode, expansion=expansion, opponent=opponent)
    seeds = game_seeds(4, 3)
    res = simulate(rs, seeds, players, [CHEAP], log=True)
    assert check_batch(res) == []  # the referee replays every move and re-scores every sheet
    again = simulate(rs, seeds, players, [CHEAP])
    assert np.array_equal(res.out, again.out)


@pytest.mark.parametrize(
    ("mode", "expansion"), [("standard", None), ("solo", "zombies"), ("advanced", "quack")]
)
def test_lookahead_without_racing_is_legal_and_deterministic(mode, expansion):
    rs = load_ruleset("collector", mode=mode, expansion=expansion, opponent="3" if mode == "solo" else None)
    seeds = game_seeds(5, 3)
    players = 1 if mode == "solo" else 2
    res = simulate(rs, seeds, players, [CHEAP_ALL], log=True)
    assert check_batch(res) == []
    assert np.array_equal(res.out, simulate(rs, seeds, players, [CHEAP_ALL]).out)


@pytest.mark.parametrize("roll", [1, 2])
@pytest.mark.parametrize(
    ("mode", "expansion", "players"),
    [
        ("standard", None, 1),
        ("solo", None, 1),
        ("advanced", "quack", 2),
        ("solo", "zombies", 1),
        ("standard", "american-dream", 2),
        ("expert", "icecream", 2),
    ],
)
def test_lighter_imagined_rounds_are_legal_and_deterministic(roll, mode, expansion, players):
    # look_roll changes only how greedy plays the imagined rounds; the moves it picks are still
    # the real search's, replayed by the referee, and the same seed gives the same games.
    rs = load_ruleset("collector", mode=mode, expansion=expansion, opponent="3" if mode == "solo" else None)
    seeds = game_seeds(6, 3)
    light = f"{CHEAP},look_roll={roll}"
    res = simulate(rs, seeds, players, [light], log=True)
    assert check_batch(res) == []
    assert np.array_equal(res.out, simulate(rs, seeds, players, [light]).out)


def test_lighter_imagined_rounds_change_the_picks_and_full_rounds_are_the_default():
    # look_roll 0 is the full search in the imagined rounds (the default, and the ladder's level
    # plays it); 2 values no options there, so the futures and the picks differ. 1 (the best
    # placement's options only) is what the imagined rounds' noiseless greedy values anyway since
    # a player without wide noise values fewer options (greedy_search.best_moves, `few`).
    look = parse_strategy("lookahead")
    assert look.vector()[look.spec.param("look_roll").slot] == 0
    rs = load_ruleset("collector")
    seeds = game_seeds(13, 12)
    full = simulate(rs, seeds, 1, [CHEAP_ALL]).out
    assert np.array_equal(full, simulate(rs, seeds, 1, [f"{CHEAP_ALL},look_roll=0"]).out)
    one = simulate(rs, seeds, 1, [f"{CHEAP_ALL},look_roll=1"]).out
    two = simulate(rs, seeds, 1, [f"{CHEAP_ALL},look_roll=2"]).out
    assert np.array_equal(full, one)
    assert not np.array_equal(full, two)


def test_a_race_decided_after_one_batch_is_the_look_with_that_many_futures():
    # A tie of 100 points drops every move but the leader after the first batch of 4 futures, so
    # the pick is the leader on those 4: the look without racing over 4 futures. The race's bookkeeping
    # (futures by index, the drop, the final pick among the moves left) must give the same games.
    rs = load_ruleset("collector")
    seeds = game_seeds(13, 12)
    raced = simulate(rs, seeds, 1, ["lookahead:look_race=1,look_tie=1000,look_batch=4,look_samples=32"]).out
    four = simulate(rs, seeds, 1, ["lookahead:look_race=0,look_samples=4"]).out
    assert np.array_equal(raced, four)


@pytest.mark.parametrize(
    ("mode", "expansion", "players"),
    [
        ("standard", None, 1),
        ("solo", None, 1),
        ("advanced", "quack", 2),
        ("standard", "american-dream", 2),
        ("expert", "icecream", 2),
        ("solo", "zombies", 1),
    ],
)
def test_the_first_rounds_shared_placements_play_the_same_games(mode, expansion, players):
    # look_share only saves work: every future of a move starts its first imagined round from
    # the same sheet, so a placement's value found in one future is the value another would
    # compute. Hand modes (solo), stacks, an expansion whose action marks the house (the American
    # Dream: no sharing there) and the temp worker's adjusted numbers must all play the same games.
    rs = load_ruleset("collector", mode=mode, expansion=expansion, opponent="3" if mode == "solo" else None)
    seeds = game_seeds(8, 3)
    for look in (CHEAP, f"{CHEAP_ALL},look_roll=1"):
        shared = simulate(rs, seeds, players, [f"{look},look_share=1"]).out
        assert np.array_equal(shared, simulate(rs, seeds, players, [f"{look},look_share=0"]).out)
    assert (
        parse_strategy("lookahead").vector()[parse_strategy("lookahead").spec.param("look_share").slot] == 1
    )


@pytest.mark.parametrize(
    ("mode", "expansion"), [("standard", None), ("solo", "zombies"), ("advanced", "quack")]
)
def test_greedy_gap_and_far_moves_are_legal_and_deterministic(mode, expansion):
    rs = load_ruleset("collector", mode=mode, expansion=expansion, opponent="3" if mode == "solo" else None)
    seeds = game_seeds(9, 3)
    players = 1 if mode == "solo" else 2
    for look in (f"{CHEAP},look_gap=10", f"{CHEAP},look_far=10", f"{CHEAP_ALL},look_gap=5"):
        res = simulate(rs, seeds, players, [look], log=True)
        assert check_batch(res) == []
        assert np.array_equal(res.out, simulate(rs, seeds, players, [look]).out)


def test_greedy_gap_and_far_moves_change_picks_only_when_they_bind():
    # A gap or a far bound of 100 points binds no move of greedy's best six: the same games as
    # without; a bound of half a point leaves most turns' close calls alone and drops the rest,
    # so the games differ. Both are off by default; the ladder's level looks at the moves within
    # a point of greedy's best (look_gap 10), with no far bound.
    assert builtin_strategies()["greedy"].param("look_gap").default == 0
    assert builtin_strategies()["greedy"].param("look_far").default == 0
    look = parse_strategy("lookahead")
    assert look.vector()[look.spec.param("look_gap").slot] == 10
    assert look.vector()[look.spec.param("look_far").slot] == 0
    rs = load_ruleset("collector")
    seeds = game_seeds(13, 12)
    race = "lookahead:look_samples=8,look_depth=2,look_race=1,look_tie=0"
    plain = simulate(rs, seeds, 1, [f"{race},look_gap=0"]).out
    for bound in ("look_gap={}", "look_gap=0,look_far={}"):
        assert np.array_equal(plain, simulate(rs, seeds, 1, [f"{race},{bound.format(1000)}"]).out)
        assert not np.array_equal(plain, simulate(rs, seeds, 1, [f"{race},{bound.format(5)}"]).out)


def test_the_ladder_level_races_and_racing_changes_picks():
    # The ladder's lookahead races (look_race 1, look_tie 5, 5 rounds: docs/findings/skill-ladder.md,
    # "The racing look as the ladder's level"); the exhaustive look is an override away. Racing
    # changes picks: its games are not those of the look without racing on the same budget.
    look = parse_strategy("lookahead")
    for name, value in (("look_race", 1), ("look_tie", 5), ("look_depth", 5), ("look_samples", 32)):
        assert look.vector()[look.spec.param(name).slot] == value
    full = parse_strategy("lookahead:look_race=0,look_depth=3,look_gap=0")
    for name, value in (("look_race", 0), ("look_depth", 3), ("look_gap", 0), ("look_moves", 6)):
        assert full.vector()[full.spec.param(name).slot] == value
    rs = load_ruleset("collector")
    seeds = game_seeds(13, 12)
    raced = simulate(rs, seeds, 1, ["lookahead:look_samples=8,look_depth=2,look_race=1,look_tie=0"]).out
    full = simulate(rs, seeds, 1, ["lookahead:look_samples=8,look_depth=2,look_race=0"]).out
    assert not np.array_equal(raced, full)


def test_lookahead_with_one_move_is_greedy():
    # look_moves 0 or 1: the plain one-step path, the same games as the set it is built on.
    rs = load_ruleset("collector")
    seeds = game_seeds(9, 20)
    one = simulate(rs, seeds, 2, ["lookahead:look_moves=1"]).out
    base = simulate(rs, seeds, 2, ["expert:plan=0.8,plan_exp=1.5"]).out
    assert np.array_equal(one, base)


def test_lookahead_beats_greedy_tuned_on_fixed_seeds():
    # Measured (Collector's, standard, Classic, solo, seeds game_seeds(11, 400)) with the ladder's
    # racing look and greedy's fewer options inside (2026-11-28, 31d9144): 113.23 against expert
    # (greedy-tuned) 110.73, paired difference +2.50 (SE 0.98), better in 222 games, worse in 166;
    # on the first 40 deals alone +0.3 (SE 2.9), too few to show a lead of 2-3 points (4,000
    # deals: docs/findings/skill-ladder.md). The margin asked here is 1 point.
    rs = load_ruleset("collector")
    seeds = game_seeds(11, 400)
    look = simulate(rs, seeds, 1, ["lookahead"]).column("total")[:, 0]
    tuned = simulate(rs, seeds, 1, ["expert"]).column("total")[:, 0]
    assert (look - tuned).mean() >= 1.0
    assert (look > tuned).sum() > (look < tuned).sum()


# --- the ladder --------------------------------------------------------------------------------


def test_ladder_levels_in_order_and_built_on_greedy_tuned():
    assert ladder_levels() == ["novice", "casual", "club", "expert", "lookahead"]
    tuned = parse_strategy("greedy-tuned").vector()
    expert = parse_strategy("expert").vector()
    assert np.array_equal(tuned, expert)
    noise = builtin_strategies()["greedy"].param("noise").slot
    levels = [parse_strategy(n).vector()[noise] for n in ("novice", "casual", "club", "expert")]
    assert levels == sorted(levels, reverse=True)  # less decision noise up the ladder
    look = parse_strategy("lookahead")
    assert look.vector()[look.spec.param("look_moves").slot] >= 2


def test_ladder_levels_take_overrides_like_any_strategy():
    c = parse_strategy("casual:noise=20")
    assert c.vector()[c.spec.param("noise").slot] == 20.0


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[a]\nbase = "nosuch"\n', "key 'a.base': 'nosuch' is not a parameterised strategy"),
        ('[a]\nbase = "greedy"\nparams = { noise = 99 }\n', "key 'a.params.noise': 99 is outside 0..60"),
        ('[a]\nbase = "greedy"\nparams = { noise = "x" }\n', "key 'a.params.noise': expected a number"),
        ('[a]\nbase = "greedy"\ncolour = 1\n', "key 'a.colour': unknown key"),
        ('[a]\nbase = "greedy"\nparams = { colour = 1 }\n', "key 'a.params.colour': unknown parameter"),
        (
            '[a]\nbase = "greedy"\nparams = { look_moves = 2.5 }\n',
            "key 'a.params.look_moves': 2.5 is not a whole",
        ),
        ('[greedy]\nbase = "greedy"\n', "key 'greedy': a built-in strategy or tuned set has this name"),
        ("[a\n", "not valid TOML"),
    ],
)
def test_bad_ladder_files_name_file_and_key(tmp_path, text, message):
    path = tmp_path / "ladder.toml"
    path.write_text(text)
    with pytest.raises(WelcomeSimError, match=r"ladder\.toml") as info:
        load_ladder(path)
    assert message in str(info.value)


def test_the_shipped_ladder_file_loads():
    assert list(load_ladder(LADDER_FILE)) == ladder_levels()


# --- luck and skill --------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.floats(-20, 20), min_size=3, max_size=12),
    st.lists(st.floats(-20, 20), min_size=2, max_size=5),
)
def test_additive_scores_split_into_deal_and_level_only(deal, level):
    # No interaction and no noise: the components are the variances of the two effects.
    y = np.add.outer(np.array(deal), np.array(level)) + 80.0
    split = luck_skill_split(y, rounds=20)
    luck, skill = np.var(deal, ddof=1), np.var(level, ddof=1)
    if luck + skill < 1e-6:
        return
    assert split.rest == pytest.approx(0.0, abs=1e-6)
    assert split.luck == pytest.approx(luck / (luck + skill), abs=1e-6)
    assert split.luck + split.skill + split.rest == pytest.approx(1.0)


def test_split_of_pure_noise_is_all_rest():
    # Raw sums of squares would put about 1/4 of pure noise on the deals; the components do not.
    rng = np.random.default_rng(3)
    split = luck_skill_split(rng.normal(size=(2000, 4)), rounds=50)
    assert split.rest > 0.95 and split.luck < 0.05 and split.skill < 0.05


def test_split_recovers_known_components():
    rng = np.random.default_rng(8)
    g, lv = 4000, 5
    y = rng.normal(0, 3.0, size=(g, 1)) + np.linspace(-4, 4, lv)[None, :] + rng.normal(0, 2.0, size=(g, lv))
    split = luck_skill_split(y, rounds=50)
    skill = np.var(np.linspace(-4, 4, lv), ddof=1)
    total = 9.0 + skill + 4.0
    assert split.luck == pytest.approx(9.0 / total, abs=0.02)
    assert split.skill == pytest.approx(skill / total, abs=0.02)
    assert split.luck_ci[0] <= split.luck <= split.luck_ci[1]
    assert split.within == pytest.approx(9.0 / 13.0, abs=0.03)
    assert split.within_ci[0] <= split.within <= split.within_ci[1]


def test_monotone_flags_a_level_that_scores_less():
    y = np.array([[50.0, 60.0, 55.0], [52.0, 61.0, 57.0], [49.0, 63.0, 58.0]])
    bad = monotone(["a", "b", "c"], y)
    assert len(bad) == 1 and bad[0].startswith("c scores -4.67")
    assert monotone(["a", "b"], y[:, :2]) == []


def test_play_ladder_on_common_deals():
    rs = load_ruleset("collector")
    # Casual and club, not expert: since greedy values placements near their slot only and fewer
    # options (noiseless levels), club against expert (85 against 108 points) and novice against
    # expert leave the deal's share of the variance estimated at zero on these deals, at 120
    # too (docs/findings/greedy.md). The noisy levels play as before.
    rows, split, y = play_ladder(rs, ["casual", "club"], 60, 5, 2)
    assert y.shape == (60, 2)
    assert [r.name for r in rows] == ["casual", "club"]
    assert rows[1].mean > rows[0].mean  # no look-ahead in a fast test: noise 14 against 5
    assert rows[1].winner_mean >= rows[1].mean
    # Each plan's counts cover every seat of every game it was in play (three plans a game).
    for r in rows:
        assert sum(t for _, t in r.per_plan.values()) == 60 * 2 * 3
        assert 0.0 <= r.all_three <= 1.0 and 0.0 <= r.plans <= 3.0
    assert 0.0 < split.skill < 1.0 and 0.0 < split.luck < 1.0
    for _pid, rates, spread in skill_plans(rows, min_seats=10):
        assert spread == pytest.approx(rates[-1] - rates[0])


def test_skill_command_prints_the_ladder_split_and_plans(tmp_path):
    from conftest import run_cli

    out = tmp_path / "y.csv"
    res = run_cli(
        "skill", "--games", "300", "--level", "novice", "--level", "club", "--jobs", "1", "--csv", str(out)
    )
    assert res.returncode == 0, res.stderr
    text = " ".join(res.stdout.split())
    assert "300 common deals" in text and "novice" in text and "club" in text
    assert "is the deal (luck, 95% CI" in text and "Method: variance components" in text
    assert "At one level, the deal makes" in text
    assert "the ladder is monotone here" in text
    assert "plan validation rate by level" in text
    lines = out.read_text().splitlines()
    assert lines[0] == "game,novice,club" and len(lines) == 301


@pytest.mark.parametrize("expansion", ["quack", "american-dream"])
@pytest.mark.parametrize("level", ["novice", "casual", "club", "expert"])
def test_every_ladder_level_plays_the_newest_expansions(expansion, level):
    """Issue 19: each new expansion "plays with every level of the skill ladder" (the look-ahead
    level is the test above): legal moves and scores the referee agrees with."""
    rs = load_ruleset(expansion=expansion)
    res = simulate(rs, game_seeds(9, 4), 2, [level], log=True)
    assert check_batch(res) == []
    assert (res.column("expansion_points") > 0).any()
