"""The first edition's optional reshuffle after the first plan, in the kernel and the referee.

Rulebook 001 (first edition, "Les Plans"): "Le ou la première architecte à parvenir à remplir un
objectif peut, s'il ou elle le souhaite, remélanger les 81 cartes travaux et constituer trois
nouvelles piles pour la suite de la partie."

Our reading where the text is silent: offered once per game, after the validations of the first
round anyone validates a plan, to that round's validators in seat order (the first who accepts
reshuffles); all the cards (stacks, discard piles and the cards just flipped) form three stacks of
a third each; not offered when the game ends that round (there is no "suite de la partie"); only
with the three stacks (the experts and solo variants deal from one deck: no "piles" to form).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from conftest import DATA
from test_strategies import PyFirstFit

from welcome_sim.referee import IllegalMove, load_rules, replay
from welcome_sim.simcore.engine.game import game_seeds, simulate
from welcome_sim.simcore.ground.layout import LOG_PLAN, LOG_RESHUFFLE, LOG_STACK
from welcome_sim.simcore.ground.table import P_RESHUFFLE
from welcome_sim.simcore.rules.ruleset import load_ruleset
from welcome_sim.strategies.protocol import IllegalStrategyMove, Turn
from welcome_sim.textview import render_game
from welcome_sim.verify import check_batch, referee_game, split_log


def _first_plan_round(rows: list[list[int]]) -> int:
    return min((r[1] for r in rows if r[3] == LOG_PLAN), default=0)


def test_the_rule_is_first_edition_three_stacks_only():
    """'constituer trois nouvelles piles': the edition rule exists in the first edition only, and
    the experts and solo variants, dealt from one deck, never offer it."""
    text = (DATA.parent.parent / "welcome_sim/simcore/data/editions/first.toml").read_text(encoding="utf-8")
    assert "reshuffle_on_first_plan = true" in text
    for mode, offered in (("standard", 1), ("advanced", 1), ("expert", 0), ("solo", 0), ("solo-advanced", 0)):
        assert load_ruleset("first", mode=mode).kernel[0, P_RESHUFFLE] == offered, mode
    for mode in ("standard", "advanced", "expert", "solo"):
        assert load_ruleset("collector", mode=mode).kernel[0, P_RESHUFFLE] == 0
    assert load_rules("first").reshuffle_on_first_plan
    assert not load_rules("collector").reshuffle_on_first_plan


@pytest.fixture(scope="module")
def always():
    """First edition, 3 greedy players who always accept the reshuffle."""
    return simulate(load_ruleset("first"), game_seeds(31, 60), 3, ["greedy:reshuffle=1"], log=True)


def test_offered_once_to_the_first_validator_in_seat_order(always):
    """'Le ou la première architecte à parvenir à remplir un objectif peut ... remélanger les 81
    cartes': one reshuffle, in the first round a plan is validated, by the lowest seat among that
    round's validators when everyone accepts, unless the game ends that round."""
    games = split_log(always.log)
    done = 0
    for g, rows in games.items():
        first = _first_plan_round(rows)
        resh = [r for r in rows if r[3] == LOG_RESHUFFLE]
        if first == 0 or first == always.game_column("rounds")[g]:
            assert resh == []
            continue
        assert len(resh) == 1
        r = resh[0]
        validators = {x[2] for x in rows if x[3] == LOG_PLAN and x[1] == first}
        assert r[1] == first and r[2] == r[4] == min(validators)
        done += 1
    assert done > 50


def test_the_new_stacks_are_all_81_cards_in_three_stacks_of_27(always):
    """'remélanger les 81 cartes travaux et constituer trois nouvelles piles': the stacks, the
    discard piles and the cards just flipped all go into three new stacks of 27."""
    for rows in split_log(always.log).values():
        resh = [i for i, r in enumerate(rows) if r[3] == LOG_RESHUFFLE]
        if not resh:
            continue
        rnd = rows[resh[0]][1]
        new = [r for r in rows[resh[0] + 1 :] if r[3] == LOG_STACK and r[1] == rnd]
        assert len(new) == 81
        assert sorted(r[6] for r in new) == list(range(81))
        assert [sum(r[4] == i for r in new) for i in range(3)] == [27, 27, 27]


def test_games_with_a_reshuffle_replay_through_the_referee(always):
    """The referee rebuilds the stacks from the log (the next round's cards come from the new
    stacks) and re-scores every sheet to the kernel's score."""
    assert (always.log[:, 3] == LOG_RESHUFFLE).sum() > 50
    assert check_batch(always) == []
    for mode, strategy in (("advanced", "greedy:reshuffle=1"), ("standard", "greedy:reshuffle=2")):
        res = simulate(load_ruleset("first", mode=mode), game_seeds(32, 40), 2, [strategy], log=True)
        assert (res.log[:, 3] == LOG_RESHUFFLE).sum() > 5
        assert check_batch(res) == []


def test_the_play_view_shows_the_reshuffle(always):
    g = int(always.log[always.log[:, 3] == LOG_RESHUFFLE][0, 0])
    rec = referee_game(always, g)
    text = "\n".join(render_game(rec, ["a", "b", "c"], always.plan_ids(g)))
    assert "reshuffles all 81 cards into three new stacks" in text


def test_collector_and_hand_modes_never_reshuffle():
    """No offer where the rule does not apply: reshuffle=1 plays exactly as reshuffle=0."""
    seeds = game_seeds(33, 30)
    for edition, mode, n in (
        ("collector", "standard", 2),
        ("collector", "advanced", 1),
        ("first", "expert", 3),
        ("first", "solo", 1),
    ):
        rs = load_ruleset(edition, mode=mode)
        a = simulate(rs, seeds, n, ["greedy:reshuffle=1"], log=True)
        b = simulate(rs, seeds, n, ["greedy:reshuffle=0"], log=True)
        assert (a.log[:, 3] == LOG_RESHUFFLE).sum() == 0
        assert np.array_equal(a.out, b.out) and np.array_equal(a.log, b.log), (edition, mode)


def test_declining_changes_nothing_and_games_are_deterministic():
    """Greedy's default declines (same game as before the rule); every policy, and random, which
    draws its answer from the game's generator, replays identically per seed."""
    rs = load_ruleset("first")
    seeds = game_seeds(34, 30)
    never = simulate(rs, seeds, 2, ["greedy"], log=True)
    assert (never.log[:, 3] == LOG_RESHUFFLE).sum() == 0
    for strategy in ("greedy:reshuffle=1", "greedy:reshuffle=2", "random"):
        a = simulate(rs, seeds, 2, [strategy], log=True)
        b = simulate(rs, seeds, 2, [strategy], log=True)
        assert np.array_equal(a.out, b.out) and np.array_equal(a.log, b.log), strategy


def test_greedy_smart_policy_reshuffles_only_sometimes(always):
    """reshuffle=2: only when the cards left in the stacks fit the sheet worse than the deck."""
    smart = simulate(load_ruleset("first"), always.seeds, 3, ["greedy:reshuffle=2"], log=True)
    taken = (smart.log[:, 3] == LOG_RESHUFFLE).sum()
    assert 0 < taken < (always.log[:, 3] == LOG_RESHUFFLE).sum()


# --- Python strategies ------------------------------------------------------------------------


class Reshuffler(PyFirstFit):
    """First-fit that accepts the reshuffle and remembers what it was shown."""

    def __init__(self, answer=True):
        self.answer = answer
        self.seen: list[tuple[int, int]] = []

    def reshuffle(self, turn: Turn, cards_left: list[tuple[int, str]]):
        assert cards_left == sorted(cards_left) and turn.combos == []
        self.seen.append((turn.round, len(cards_left)))
        return self.answer


@pytest.fixture(scope="module")
def easy_first():
    """First edition with easy plans (an estate of size 1...), so first-fit validates early."""
    return load_ruleset("first", plans=str(DATA / "easy_plans.toml"))


def test_a_python_strategy_decides_with_its_reshuffle_method(easy_first):
    seeds = game_seeds(35, 3)
    player = Reshuffler()
    res = simulate(easy_first, seeds, 1, [player], log=True)
    resh = res.log[res.log[:, 3] == LOG_RESHUFFLE]
    assert len(resh) == len(player.seen) > 0
    # Before any stack runs out, each round has flipped one card of each stack of 27.
    assert all(n == 81 - 3 * rnd for rnd, n in player.seen)
    assert check_batch(res) == []
    # Without the method a Python strategy declines: the rows of compiled first-fit.
    plain = simulate(easy_first, seeds, 1, [PyFirstFit()], log=True)
    compiled = simulate(easy_first, seeds, 1, ["first-fit"], log=True)
    assert (plain.log[:, 3] == LOG_PLAN).sum() > 0 and (plain.log[:, 3] == LOG_RESHUFFLE).sum() == 0
    assert np.array_equal(plain.out, compiled.out) and np.array_equal(plain.log, compiled.log)


def test_a_python_reshuffle_answer_must_be_a_bool(easy_first):
    with pytest.raises(IllegalStrategyMove, match="reshuffle\\(\\) must return True or False"):
        simulate(easy_first, game_seeds(35, 1), 1, [Reshuffler(answer="yes")])


# --- the referee rejects an illegal reshuffle -------------------------------------------------


@pytest.fixture(scope="module")
def two_player_game():
    """A 2-player first-edition game with a reshuffle by the only validator of that round."""
    res = simulate(load_ruleset("first"), game_seeds(36, 40), 2, ["greedy:reshuffle=1"], log=True)
    for rows in split_log(res.log).values():
        resh = [r for r in rows if r[3] == LOG_RESHUFFLE]
        if resh and len({r[2] for r in rows if r[3] == LOG_PLAN and r[1] == resh[0][1]}) == 1:
            return load_rules("first"), [list(r) for r in rows]
    raise AssertionError("no game with a single first validator")


def _block(rows):
    """Index of the reshuffle row and the rows it consists of (itself and the new stacks)."""
    i = next(i for i, r in enumerate(rows) if r[3] == LOG_RESHUFFLE)
    rnd = rows[i][1]
    return i, [rows[i], *(r for r in rows[i + 1 :] if r[3] == LOG_STACK and r[1] == rnd)]


def _moved(rows, rnd):
    """The log with the reshuffle block moved to the end of round rnd."""
    _, block = _block(rows)
    rest = [r for r in rows if not any(r is b for b in block)]
    at = max(i for i, r in enumerate(rest) if r[1] == rnd) + 1
    return rest[:at] + [[*r[:1], rnd, *r[2:]] for r in block] + rest[at:]


def test_the_untampered_reshuffle_replays(two_player_game):
    rules, rows = two_player_game
    rec = replay(rules, rows, 2)
    assert any("reshuffles all 81 cards" in v for rd in rec.rounds for v in rd.validations)


def test_rejects_a_reshuffle_where_the_edition_has_none(two_player_game):
    rules, rows = two_player_game
    with pytest.raises(IllegalMove, match="offer no reshuffle"):
        replay(dataclasses.replace(rules, reshuffle_on_first_plan=False), rows, 2)
    # A Collector's game with a reshuffle added after its first validation round.
    res = simulate(load_ruleset("collector"), game_seeds(37, 10), 2, ["greedy"], log=True)
    g, crows = next((g, r) for g, r in split_log(res.log).items() if 0 < _first_plan_round(r) < r[-1][1])
    rnd = _first_plan_round(crows)
    validator = next(r[2] for r in crows if r[3] == LOG_PLAN and r[1] == rnd)
    at = max(i for i, r in enumerate(crows) if r[1] == rnd) + 1
    order = np.random.default_rng(1).permutation(63)
    extra = [[g, rnd, validator, LOG_RESHUFFLE, validator, 0, 0, 0, 0, 0, 0, 0]]
    extra += [[g, rnd, -1, LOG_STACK, j // 21, j % 21, int(c), 0, 0, 0, 0, 0] for j, c in enumerate(order)]
    with pytest.raises(IllegalMove, match="offer no reshuffle"):
        replay(load_rules("collector"), crows[:at] + extra + crows[at:], 2)


def test_rejects_a_reshuffle_in_the_experts_variant(two_player_game):
    res = simulate(load_ruleset("first", mode="expert"), game_seeds(38, 10), 2, ["greedy"], log=True)
    g, erows = next((g, r) for g, r in split_log(res.log).items() if 0 < _first_plan_round(r) < r[-1][1])
    rnd = _first_plan_round(erows)
    validator = next(r[2] for r in erows if r[3] == LOG_PLAN and r[1] == rnd)
    at = max(i for i, r in enumerate(erows) if r[1] == rnd) + 1
    _, block = _block(two_player_game[1])
    extra = [[g, rnd, validator, LOG_RESHUFFLE, validator, *[0] * 7]] + [[g, rnd, *r[2:]] for r in block[1:]]
    with pytest.raises(IllegalMove, match="the expert deal has none"):
        replay(load_rules("first", mode="expert"), erows[:at] + extra + erows[at:], 2)


def test_rejects_a_reshuffle_by_a_player_who_validated_nothing(two_player_game):
    rules, rows = two_player_game
    i, _ = _block(rows)
    other = 1 - rows[i][2]
    rows = [list(r) for r in rows]
    rows[i][2] = rows[i][4] = other
    with pytest.raises(IllegalMove, match="only an architect who fulfilled a plan this round"):
        replay(rules, rows, 2)


def test_rejects_a_reshuffle_before_the_first_plan_or_a_second_time(two_player_game):
    rules, rows = two_player_game
    i, block = _block(rows)
    rnd = rows[i][1]
    with pytest.raises(IllegalMove, match="only once, in the first round a plan is validated"):
        replay(rules, _moved(rows, rnd - 1), 2)
    later = rnd + 1  # the game goes on after a reshuffle
    second = [[*r[:1], later, *r[2:]] for r in block]
    at = max(k for k, r in enumerate(rows) if r[1] == later) + 1
    with pytest.raises(IllegalMove, match="only once"):
        replay(rules, rows[:at] + second + rows[at:], 2)


def test_rejects_new_stacks_that_are_not_the_whole_deck(two_player_game):
    rules, rows = two_player_game
    i, block = _block(rows)
    rows = [list(r) for r in rows]
    # One card twice (another missing).
    rows[i + 1][6] = rows[i + 2][6]
    with pytest.raises(IllegalMove, match="not all 81 cards, each exactly once"):
        replay(rules, rows, 2)
    # A card moved from the first stack to the second: stacks of 26 and 28.
    rows = [list(r) for r in two_player_game[1]]
    rows[i + 1][4] = 1
    rows[i + 1][5] = 99
    with pytest.raises(IllegalMove, match="three stacks of 27 cards"):
        replay(rules, rows, 2)


@pytest.mark.slow
def test_reshuffles_replay_at_every_table_size_with_expansions_and_nine_three_quarters():
    """All the cards, whatever their count (84 with the 9¾ cards), at 1 to 8 players."""
    seats = ["greedy:reshuffle=1", "random", "greedy:reshuffle=2", "spread"] * 2
    total = 0
    for n in range(1, 9):
        for x, nine, mode in ((None, False, "standard"), ("easter", True, "advanced")):
            rs = load_ruleset("first", mode=mode, expansion=x, nine=nine)
            # 100 deals each: with greedy's placement screen (issue 43) the 60 deals used before
            # gave 175 reshuffles in all, fewer than the 200 this test means to replay.
            res = simulate(rs, game_seeds(900 + n, 100), n, seats[:n], log=True)
            # A random seat often ends the game by refusals before anyone validates a plan.
            assert (res.log[:, 3] == LOG_RESHUFFLE).sum() > 0, (n, x)
            total += (res.log[:, 3] == LOG_RESHUFFLE).sum()
            assert check_batch(res) == [], (n, x)
    assert total > 200
