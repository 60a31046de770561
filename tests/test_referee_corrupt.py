"""A damaged game log is an illegal game, never a crash: the referee answers a corrupted log with
IllegalMove (one message saying what is wrong and where) or with a disagreement, not with a Python
error from deep inside the replay. Cases found by corrupting kernel logs one field at a time."""

from __future__ import annotations

import random

import pytest

from welcome_sim.referee.log import END, PLAN, X_DUCKS, X_PHASE, IllegalMove
from welcome_sim.referee.replay import replay
from welcome_sim.simcore.engine.game import game_seeds, simulate
from welcome_sim.simcore.rules.ruleset import load_ruleset
from welcome_sim.verify import referee_rules, split_log


def _logged(mode: str = "standard", expansion: str | None = None, n: int = 2, games: int = 3):
    rs = load_ruleset(mode=mode, expansion=expansion)
    res = simulate(rs, game_seeds(1, games), n, ["greedy"] * n, log=True)
    return referee_rules(rs), split_log(res.log), n


def _first(rows: list[list[int]], kind: int) -> int:
    return next(i for i, r in enumerate(rows) if r[3] == kind)


def test_a_log_without_its_end_row_is_illegal():
    rules, games, n = _logged("solo", n=1)
    rows = [list(r) for r in games[0]]
    rows[_first(rows, END)][3] = 4  # the end row's kind damaged
    with pytest.raises(IllegalMove, match="no end row"):
        replay(rules, rows, n)


def test_a_plan_naming_houses_past_the_street_is_illegal():
    rules, games, n = _logged()
    for rows in games.values():
        rows = [list(r) for r in rows]
        i = next((i for i, r in enumerate(rows) if r[3] == PLAN and r[6] >= 0 and r[7] >= 0), None)
        if i is None:
            continue
        rows[i][7] = 99  # the estate's last house
        with pytest.raises(IllegalMove):
            replay(rules, rows, n)
        return
    pytest.fail("no estate validation in these games")


def test_a_plan_validated_by_a_player_not_at_the_table_is_illegal():
    rules, games, n = _logged("advanced")
    rows = [list(r) for r in games[0]]
    rows[_first(rows, PLAN)][2] = n  # player n + 1 of n
    with pytest.raises(IllegalMove, match="plan validation by player 3"):
        replay(rules, rows, n)


@pytest.mark.parametrize("kind", [X_PHASE, X_DUCKS])
def test_a_quack_phase_out_of_range_is_named_not_a_crash(kind):
    rules, games, n = _logged(expansion="quack", games=6)
    for rows in games.values():
        rows = [list(r) for r in rows]
        hits = [i for i, r in enumerate(rows) if r[3] == kind]
        if not hits:
            continue
        rows[hits[0]][4] = 5  # a fourth, fifth, sixth phase
        with pytest.raises(IllegalMove, match="phase numbered 5"):
            replay(rules, rows, n)
        return
    pytest.fail("no Quack scoring phase in these games")


@pytest.mark.parametrize(
    "mode,expansion,n",
    [("standard", None, 2), ("solo", None, 1), ("expert", "zombies", 2), ("standard", "quack", 2)],
)
def test_one_damaged_field_is_illegal_or_a_disagreement_never_a_crash(mode, expansion, n):
    rules, games, n = _logged(mode, expansion, n)
    rnd = random.Random(7)
    illegal, crashes = 0, []
    for rows in games.values():
        for _ in range(150):
            bad = [list(r) for r in rows]
            i, j = rnd.randrange(len(bad)), rnd.randrange(1, len(bad[0]))
            bad[i][j] = rnd.choice([bad[i][j] - 1, bad[i][j] + 1, -1, 0, 5, 99, 10**6])
            try:
                replay(rules, bad, n)
            except IllegalMove:
                illegal += 1
            except Exception as exc:  # what this test is for: any other error is a crash
                crashes.append(f"row {i} field {j} = {bad[i][j]}: {type(exc).__name__}: {exc}")
    assert crashes == []
    assert illegal > 150  # most single-field damage is caught, not just survived
