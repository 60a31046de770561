"""The referee's map from an expansion's name to its reading is collected from the readings
package, one module each, and a reading defined outside the package joins it by name."""

from __future__ import annotations

from pathlib import Path

import pytest

from welcome_sim.referee import readings as pkg
from welcome_sim.referee.readings import (
    RefereeExpansion,
    reading_class,
    readings,
    referee_expansion,
    register_reading,
)
from welcome_sim.referee.readings.easter import Easter

READINGS_DIR = Path(pkg.__file__).parent


def test_every_reading_module_is_in_the_map_by_its_declared_name() -> None:
    modules = sorted(p.stem for p in READINGS_DIR.glob("*.py") if p.stem not in ("__init__", "base"))
    found = readings()
    assert sorted(c.__module__.rsplit(".", 1)[1] for c in found.values()) == modules
    assert all(name == cls.name for name, cls in found.items())
    assert found["easter"] is Easter
    # Every built-in expansion data file has its reading.
    data = READINGS_DIR.parent.parent / "simcore" / "data" / "expansions"
    for path in data.glob("*.toml"):
        assert type(referee_expansion(path.stem)).__name__ == found[_name_of(path)].__name__


def _name_of(path: Path) -> str:
    import tomllib

    return tomllib.loads(path.read_text())["name"]


class ToyReading(RefereeExpansion):
    """A reading defined outside the package."""

    name = "toy-reading-test"

    def __init__(self, data: dict) -> None:
        self.data = data


def test_a_reading_from_outside_the_package_joins_the_map(tmp_path) -> None:
    register_reading(ToyReading.name, ToyReading)
    register_reading(ToyReading.name, ToyReading)  # the same again changes nothing
    assert reading_class("toy-reading-test") is ToyReading
    path = tmp_path / "toy.toml"
    path.write_text('positions = "from 1"\nname = "toy-reading-test"\nworth = 3\n')
    got = referee_expansion(str(path))
    assert isinstance(got, ToyReading) and got.data["worth"] == 3


def test_a_second_reading_of_a_name_is_refused() -> None:
    class Other(RefereeExpansion):
        name = "easter"

    with pytest.raises(ValueError, match=r"'easter' already has a reading .*readings\.easter\.Easter"):
        register_reading("easter", Other)
    assert reading_class("easter") is Easter


def test_an_expansion_without_a_reading_names_file_key_value_and_the_known(tmp_path) -> None:
    path = tmp_path / "nobody.toml"
    path.write_text('positions = "from 1"\nname = "nobody"\n')
    with pytest.raises(ValueError, match=r"nobody.toml: name = 'nobody': .*known: american-dream, christmas"):
        referee_expansion(str(path))


def test_every_score_card_carries_every_reading_s_columns() -> None:
    from welcome_sim.referee import load_rules
    from welcome_sim.referee.sheet import PlayerSheet
    from welcome_sim.simcore.ground.layout import BASE_OUT_LEN
    from welcome_sim.simcore.rules.expansions.registry import OUT_COLUMNS

    every = set(RefereeExpansion.every_column)
    # The kernel's expansion columns (after the base game's), which the referee re-derives, are all read.
    assert set(OUT_COLUMNS[BASE_OUT_LEN:]) <= every
    for name in ("none", "easter", "zombies", "american-dream"):
        rules = load_rules("collector", expansion=name)
        card = rules.expansion.score(PlayerSheet(rules))
        assert {"expansion_points", *every} <= set(card)
        if name in ("none", "easter"):
            assert set(card) == {"expansion_points", *every}
    for cls in readings().values():
        assert set(cls.columns) <= every


class ToyWithColumns(RefereeExpansion):
    """An outside reading that counts a column of its own."""

    name = "toy-columns-test"
    columns = ("toy_marks_test",)


def test_a_reading_registered_from_outside_adds_its_columns_to_every_card() -> None:
    register_reading(ToyWithColumns.name, ToyWithColumns)
    easter = referee_expansion("easter")
    from welcome_sim.referee import load_rules
    from welcome_sim.referee.sheet import PlayerSheet

    card = easter.score(PlayerSheet(load_rules("collector", expansion="easter")))
    assert card["toy_marks_test"] == 0 and "eggs" in card
