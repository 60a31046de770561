"""The race loss (analysis/difficulty_own.py) on a hand-made frame with known answers, and through
`welcome-sim difficulty --measures race` end to end: beside the index, never changing it. (The
blind cost is in the index: tests/test_difficulty.py.)"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from welcome_sim.analysis import difficulty_own as OWN
from welcome_sim.analysis.difficulty_games import Spec
from welcome_sim.errors import WelcomeSimError

DEALS = 300
LEVELS = ["casual", "expert"]


def _frame(item: str, level: str, **cols: np.ndarray) -> pl.DataFrame:
    return pl.DataFrame({"item": item, "level": level, "deal": np.arange(DEALS, dtype=np.uint64), **cols})


@pytest.fixture(scope="module")
def world():
    """Doomsday (a race) and Easter (none) at 2 players and alone, both levels; at the table a
    player earns 5 (casual) and 4 (expert) of its own points less than alone, in both expansions."""
    rng = np.random.default_rng(3)
    deals = []
    specs = {}
    for name, title in (("doomsday", "Doomsday"), ("easter", "Easter Egg Hunt")):
        table, alone = f"{title}, 2 players", f"{title}, 1 player"
        specs[table] = Spec(table, 2, expansion=name)
        specs[alone] = Spec(alone, 1, expansion=name)
        for level, lost in (("casual", 5.0), ("expert", 4.0)):
            luck = rng.normal(0, 10, DEALS)
            own = 20 + rng.normal(0, 3, DEALS)
            deals.append(_frame(table, level, score=100 + luck, own_points=own - lost))
            deals.append(_frame(alone, level, score=100 + luck, own_points=own))
    return pl.concat(deals), specs


def test_race_loss_matches_a_hand_computation(world):
    deals, specs = world
    labels = ["Doomsday, 2 players", "Easter Egg Hunt, 2 players"]
    got = OWN.measures(deals, specs, labels, LEVELS, {"race"}, rounds=200, seed=1)
    for label in labels:
        v, lo, hi = got[label]["own_points_drop"]
        assert v == pytest.approx(5.0, abs=0.35) and lo <= v <= hi
    # Doomsday is a race (its data file's race_rule): the loss is the drop; Easter has no race: 0.
    assert got["Doomsday, 2 players"]["race_loss"][0] == got["Doomsday, 2 players"]["own_points_drop"][0]
    assert got["Doomsday, 2 players"]["race_loss_expert"][0] == pytest.approx(4.0, abs=0.35)
    assert got["Easter Egg Hunt, 2 players"]["race_loss"] == (0.0, 0.0, 0.0)


def test_measures_leave_other_items_blank(world):
    deals, specs = world
    specs = {**specs, "9¾ cards, 2 players": Spec("9¾ cards, 2 players", 2, nine=True)}
    got = OWN.measures(deals, specs, ["9¾ cards, 2 players"], LEVELS, {"race"}, rounds=20)
    assert got == {}
    frame = OWN.frame(got)
    assert frame.height == 0 and "race_loss_expert_high" in frame.columns


def test_a_bad_measure_is_named_with_the_valid_ones():
    # The blind cost went into the index: asked for here, it is named as not a measure of this option.
    with pytest.raises(WelcomeSimError, match="--measures: 'blind' is not a measure; valid: race"):
        OWN.parse_measures("blind,race")
    assert OWN.parse_measures(None) == set() and OWN.parse_measures(" race ") == {"race"}


def _difficulty(tmp_path, *more: str) -> pl.DataFrame:
    from typer.testing import CliRunner

    from welcome_sim.cli import app

    out = tmp_path / f"d{len(more)}.csv"
    args = ["difficulty", "--games", "30", "--players", "2", "-f", "csv", "-o", str(out), "--jobs", "1"]
    res = CliRunner().invoke(app, [*args, *more])
    assert res.exit_code == 0, res.output
    return pl.read_csv(out)


def test_the_command_shows_them_beside_an_unchanged_index(tmp_path):
    from welcome_sim.simcore.rules.expansions.codes import EXPANSION_NAMES

    plain = _difficulty(tmp_path)
    both = _difficulty(tmp_path, "--measures", "race")
    # Beside the index, not in it: every column of the ranking is the same.
    assert both.select(plain.columns).equals(plain)
    measured = both.filter(pl.col("race_loss").is_not_null())
    assert measured.height == len(EXPANSION_NAMES)
    assert both.filter(pl.col("item").str.contains("mode|sheet|cards"))["race_loss"].null_count() > 0
    race = dict(zip(measured["item"], measured["race_loss"], strict=True))
    for title in ("Easter Egg Hunt", "Christmas Lights", "Roswell", "Zombie Outbreak"):
        assert race[f"{title}, 2 players"] == 0.0  # no race: 0 by definition


def test_the_command_refuses_a_bad_measure_in_one_line():
    from typer.testing import CliRunner

    from welcome_sim.cli import app

    res = CliRunner().invoke(app, ["difficulty", "--measures", "speed"])
    assert res.exit_code == 2, res.output
    assert "--measures: 'speed' is not a measure" in res.output and len(res.output.strip().splitlines()) == 1
