"""Greedy blind to the expansion (`blind` 1, issue 38's blind cost): its choices do not depend on
anything the expansion values, in every expansion, while the seeing player's do; its own decisions
follow the fixed rules the parameter's help states. (Strategy tests, not rule tests: the kernel
plays the rules whoever chooses.)"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from welcome_sim.simcore.engine.game import game_seeds, simulate
from welcome_sim.simcore.ground.datafiles import DATA_DIR
from welcome_sim.simcore.ground.layout import (
    FENCE,
    LOG_MOVE,
    LOG_X_DUCKS,
    LOG_X_HOLD,
    LOG_X_MARK,
    LOG_X_OBJECTIVE,
    LOG_X_SIDE,
)
from welcome_sim.simcore.rules.expansions.codes import EXPANSION_NAMES
from welcome_sim.simcore.rules.ruleset import load_ruleset

SEEING, BLIND = "greedy-tuned", "greedy-tuned:blind=1"
GAMES = 6
# Per expansion, a value of its data file that only its scoring reads (never where a piece goes or
# what the kernel forces): the blind player must play the same moves with either, the seeing
# player other moves. Zombie Outbreak has no such value (its points are the base game's; its
# file says where hordes go and ammunition is gained, which the kernel forces): it is checked by
# the weight of the valuation and by its decisions below.
VALUES = {
    "easter": ("points = [5, 10, 20, 35]", "points = [6, 12, 25, 40]"),
    "christmas": ("points_per_house = 1", "points_per_house = 3"),
    "icecream": ("bonus_per_cone = 1", "bonus_per_cone = 3"),
    "halloween": ("candy_points = [5, 9, 14]", "candy_points = [8, 12, 20]"),
    "doomsday": ("street_bonus = [8, 10, 11]", "street_bonus = [16, 20, 22]"),
    "quack": ("points_per_duckling = 1", "points_per_duckling = 3"),
    "roswell": ("fail_points = 2", "fail_points = 6"),
    "american-dream": ("perfect_points = 3", "perfect_points = 5"),
}
FILES = {"american-dream": "american-dream.toml"}


def _moves(rs, strategy: str, players: int = 2, seed: int = 7) -> np.ndarray:
    """The games' log without the rows that carry points (a Quack phase's pay): what was chosen."""
    res = simulate(rs, game_seeds(seed, GAMES), players, [strategy], log=True)
    return res.log[res.log[:, 3] != LOG_X_DUCKS]


def _copy(tmp_path: Path, name: str, old: str, new: str) -> str:
    text = (DATA_DIR / "expansions" / FILES.get(name, f"{name}.toml")).read_text()
    assert text.count(old) == 1, f"{name}: {old!r} not found once in its data file"
    path = tmp_path / f"{name}.toml"
    path.write_text(text.replace(old, new))
    return str(path)


def test_every_expansion_but_zombies_has_a_value_checked():
    assert set(VALUES) | {"zombies"} == set(EXPANSION_NAMES)


@pytest.mark.parametrize("name", sorted(VALUES))
def test_a_changed_scoring_value_leaves_the_blind_games_unchanged(name, tmp_path):
    old, new = VALUES[name]
    built_in = load_ruleset("collector", None, expansion=name)
    changed = load_ruleset("collector", None, expansion=_copy(tmp_path, name, old, new))
    assert np.array_equal(_moves(built_in, BLIND), _moves(changed, BLIND))
    # The value is one the seeing player's valuation reads: its games change.
    assert not np.array_equal(_moves(built_in, SEEING), _moves(changed, SEEING))


@pytest.mark.parametrize("name", EXPANSION_NAMES)
def test_the_weight_of_the_valuation_does_not_reach_the_blind_player(name):
    rs = load_ruleset("collector", None, expansion=name)
    assert np.array_equal(_moves(rs, BLIND), _moves(rs, "greedy-tuned:blind=1,expansion=3"))
    assert not np.array_equal(_moves(rs, SEEING), _moves(rs, "greedy-tuned:expansion=3"))


def test_roswell_blind_never_infiltrates_and_takes_the_first_objective():
    rs = load_ruleset("collector", None, expansion="roswell")
    # Roswell's objective and Zoorgs are what `expansion=0` still saw (issue 38).
    for strategy, infiltrates in ((BLIND, False), ("greedy-tuned:expansion=0", True)):
        log = _moves(rs, strategy)
        moves = log[log[:, 3] == LOG_MOVE]
        # A Zoorg infiltrated: a move row with action -1 and h=1 (layout.LOG_X_OBJECTIVE's note).
        assert bool(((moves[:, 8] == -1) & (moves[:, 11] == 1)).any()) == infiltrates
    objectives = _moves(rs, BLIND)
    assert (objectives[objectives[:, 3] == LOG_X_OBJECTIVE][:, 4] == 0).all()
    assert (_moves(rs, SEEING)[:, 3] == LOG_X_OBJECTIVE).sum() == 2 * GAMES


def test_zombies_blind_builds_fences_and_holds_no_horde():
    rs = load_ruleset("collector", None, expansion="zombies")
    seen, blind = _moves(rs, SEEING, seed=3), _moves(rs, BLIND, seed=3)
    for log, sees in ((seen, True), (blind, False)):
        moves = log[log[:, 3] == LOG_MOVE]
        barricades = (moves[:, 8] == FENCE) & (moves[:, 11] == 1)
        assert bool(barricades.any()) == sees
        assert bool((log[:, 3] == LOG_X_HOLD).any()) == sees
        assert ((moves[:, 8] == FENCE) & (moves[:, 11] == -1)).any()


def test_halloween_blind_always_circles_the_ghost():
    rs = load_ruleset("collector", None, expansion="halloween")
    blind, seen = _moves(rs, BLIND), _moves(rs, SEEING)
    marks = blind[blind[:, 3] == LOG_X_MARK]
    assert len(marks) and (marks[:, 6] == 0).all()
    assert (seen[seen[:, 3] == LOG_X_MARK][:, 6] == 1).any()


def test_first_edition_ice_cream_blind_starts_every_truck_from_the_left():
    rs = load_ruleset("first", expansion="icecream")
    blind, seen = _moves(rs, BLIND, seed=5), _moves(rs, SEEING, seed=5)
    sides = blind[blind[:, 3] == LOG_X_SIDE]
    assert len(sides) and (sides[:, 5] == 0).all()
    assert (seen[seen[:, 3] == LOG_X_SIDE][:, 5] == 1).any()


def test_blind_changes_no_base_game():
    rs = load_ruleset("collector", None)
    assert np.array_equal(_moves(rs, SEEING), _moves(rs, BLIND))


# The AAA's points per card given to it (solo mode): the seeing player prices the card it leaves
# to the AAA by them (greedy.aaa_price), the blind player does not (`expansion=0` still did).
AAA_VALUES = {
    "easter": (
        "aaa_eggs = { 6 = 1, 8 = 2, 9 = 1, 10 = 2 }",
        "aaa_eggs = { 6 = 2, 8 = 2, 9 = 2, 10 = 2, 12 = 2 }",
    ),
    "icecream": ("aaa_per_card = 1", "aaa_per_card = 4"),
    "roswell": ("aaa_points_per_card = 5", "aaa_points_per_card = 9"),
}


@pytest.mark.parametrize("name", sorted(AAA_VALUES))
def test_the_aaa_price_of_a_card_is_not_seen_blind(name, tmp_path):
    old, new = AAA_VALUES[name]
    path = _copy(tmp_path, name, old, new)
    built_in, changed = (
        load_ruleset("collector", None, mode="solo", opponent="3", expansion=x) for x in (name, path)
    )
    assert np.array_equal(_moves(built_in, BLIND, players=1), _moves(changed, BLIND, players=1))
    for seeing in (SEEING, "greedy-tuned:expansion=0"):
        assert not np.array_equal(_moves(built_in, seeing, players=1), _moves(changed, seeing, players=1))
