"""Kernel games replayed by the independent referee: every move legal, every score equal."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import DATA

from welcome_sim.referee import IllegalMove, load_rules, replay
from welcome_sim.simcore.engine.game import game_seeds, simulate
from welcome_sim.simcore.ground.layout import END_NAMES, LOG_MOVE, LOG_PLAN, LOG_STACK
from welcome_sim.simcore.rules.ruleset import load_ruleset
from welcome_sim.verify import check_batch, split_log

PLAYER_COUNTS = (1, 2, 3, 4, 5, 6, 7, 8)


@pytest.mark.parametrize("edition", ["collector", "first"])
def test_2000_random_games_replay_exactly(edition):
    """1,000 games per edition (2,000 in all), player counts 1 to 8 mixed."""
    rs = load_ruleset(edition)
    total = 0
    for i, n in enumerate(PLAYER_COUNTS):
        res = simulate(rs, game_seeds(100 + i, 125), n, ["random"], log=True)
        assert check_batch(res) == []
        total += len(res.seeds)
    assert total == 1000


@pytest.mark.parametrize("edition", ["collector", "first"])
@pytest.mark.parametrize("strategies", [["first-fit"], ["spread"], ["random", "spread", "first-fit"]])
def test_other_players_replay_exactly(edition, strategies):
    rs = load_ruleset(edition)
    n = len(strategies) if len(strategies) > 1 else 2
    res = simulate(rs, game_seeds(7, 150), n, strategies, log=True)
    assert check_batch(res) == []


def test_long_games_reach_reshuffles_and_plan_races():
    rs = load_ruleset("collector")
    res = simulate(rs, game_seeds(8, 300), 3, ["spread"], log=True)
    assert check_batch(res) == []
    log = res.log
    reshuffled = np.unique(log[(log[:, 3] == LOG_STACK) & (log[:, 1] > 0), 0])
    assert len(reshuffled) > 250  # nearly every game reshuffles its stacks
    assert (log[:, 3] == LOG_PLAN).sum() > 300


@pytest.mark.parametrize("edition", ["collector", "first"])
def test_every_end_condition_is_reached_and_agreed(edition):
    """A small sheet and easy plans make full sheets and three-plan endings common."""
    rs = load_ruleset(edition, str(DATA / "tiny_sheet.toml"), str(DATA / "easy_plans.toml"))
    seen = 0
    for strategy in ("random", "spread"):
        res = simulate(rs, game_seeds(9, 300), 3, [strategy], log=True)
        assert check_batch(res) == []
        for bits in res.game_column("end_reason"):
            seen |= int(bits)
    names = {name for bit, name in END_NAMES.items() if seen & bit}
    assert names == {"plans", "refusals", "full"}


def test_first_and_later_plan_scores_are_shared_by_round(collector):
    """Everyone validating in the first round a plan is validated scores its first value."""
    res = simulate(collector, game_seeds(11, 400), 4, ["spread"])
    checked = 0
    for g in range(len(res.seeds)):
        plans = [collector.plans.plans[int(k)] for k in res.games[g, 2:5]]
        for slot, letter in enumerate("abc"):
            rounds = res.column(f"plan_{letter}_round")[g]
            scores = res.column(f"plan_{letter}")[g]
            firsts = res.column(f"plan_{letter}_first")[g]
            done = rounds > 0
            if not done.any():
                continue
            earliest = rounds[done].min()
            for p in np.flatnonzero(done):
                expected = plans[slot].first if rounds[p] == earliest else plans[slot].later
                assert scores[p] == expected
                assert firsts[p] == (rounds[p] == earliest)
                checked += 1
            assert (scores[~done] == 0).all()
    assert checked > 150  # about 200 validations in these 400 games


# --- the referee rejects illegal logs --------------------------------------------------------


@pytest.fixture(scope="module")
def one_game():
    rs = load_ruleset("collector")
    res = simulate(rs, game_seeds(21, 20), 2, ["spread"], log=True)
    games = split_log(res.log)
    # The first game with a plan validation, so every tampering below has something to change.
    g = next(g for g, rows in sorted(games.items()) if any(r[3] == LOG_PLAN for r in rows))
    return load_rules("collector"), games[g]


def _tamper(rows, pick, change):
    rows = [list(r) for r in rows]
    i = next(i for i, r in enumerate(rows) if pick(r))
    change(rows[i])
    return rows


def _reject(rules, rows, match):
    with pytest.raises(IllegalMove, match=match):
        replay(rules, rows, 2)


def test_untampered_log_replays(one_game):
    rules, rows = one_game
    assert replay(rules, rows, 2).scores


def test_rejects_a_number_out_of_order(one_game):
    rules, rows = one_game
    # Round 2: write a number equal to one already in that street.
    r1 = next(r for r in rows if r[3] == LOG_MOVE and r[1] == 1 and r[2] == 0 and r[4] >= 0)

    def change(r):
        r[4:12] = [
            0,
            r1[5],
            r1[6] + 1 if r1[6] + 1 < rules.street_len[r1[5]] else r1[6] - 1,
            r1[7],
            -1,
            -1,
            -1,
            -1,
        ]

    bad = _tamper(rows, lambda r: r[3] == LOG_MOVE and r[1] == 2 and r[2] == 0, change)
    _reject(rules, bad, "cannot write|not the number|temp worker|with a")


def test_rejects_an_action_of_the_wrong_type(one_game):
    rules, rows = one_game
    bad = _tamper(
        rows,
        lambda r: r[3] == LOG_MOVE and r[4] >= 0 and r[8] == -1,
        lambda r: r.__setitem__(slice(8, 12), [0, 0, 0, -1]),  # a fence at a street's end
    )
    with pytest.raises(IllegalMove, match="fence"):  # wrong card type, or an illegal fence
        replay(rules, bad, 2)


def test_rejects_a_refusal_when_a_number_fits(one_game):
    rules, rows = one_game
    bad = _tamper(
        rows, lambda r: r[3] == LOG_MOVE and r[1] == 1, lambda r: r.__setitem__(slice(4, 12), [-1] * 8)
    )
    _reject(rules, bad, "permit refusal although")


def test_rejects_a_wrong_plan_score(one_game):
    rules, rows = one_game
    bad = _tamper(rows, lambda r: r[3] == LOG_PLAN, lambda r: r.__setitem__(9, r[9] + 1))
    _reject(rules, bad, "worth")


def test_rejects_a_stack_that_is_not_the_deck(one_game):
    rules, rows = one_game
    bad = _tamper(
        rows, lambda r: r[3] == LOG_STACK and r[1] == 0, lambda r: r.__setitem__(6, 0 if r[6] else 1)
    )
    _reject(rules, bad, "set-up")


def test_rejects_a_game_that_goes_on_after_it_ended_or_stops_early(one_game):
    rules, rows = one_game
    last = max(r[1] for r in rows)
    early = [list(r) for r in rows if r[1] < last and r[3] != 3] + [
        [0, last - 1, -1, 3, 1, 0, 0, 0, 0, 0, 0, 0]
    ]
    _reject(rules, early, "no end condition")
