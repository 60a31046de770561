"""Rules data files: published figures, provenance, and errors that name file, key and problem."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from welcome_sim.errors import DataError, WelcomeSimError
from welcome_sim.simcore.ground.datafiles import (
    ACTIONS,
    available,
    load_deck,
    load_edition,
    load_plans,
    load_sheet,
)
from welcome_sim.simcore.rules.ruleset import load_ruleset

CLASSIC = (Path(__file__).parent.parent / "welcome_sim/simcore/data/sheets/classic.toml").read_text()


def test_every_data_file_loads_and_has_a_provenance():
    loaders = {"editions": load_edition, "sheets": load_sheet, "decks": load_deck, "plans": load_plans}
    for kind, loader in loaders.items():
        assert available(kind), kind
        for name in available(kind):
            assert loader(name).provenance in ("published", "reconstructed")


def test_first_edition_deck_matches_the_rulebook():
    deck = load_deck("first")
    assert len(deck.cards) == 81
    numbers = Counter(n for n, _ in deck.cards)
    # "3x 1 2 14 15, 4x 3 13, 5x 4 12, 6x 5 11, 7x 6 10, 8x 7 9, 9x 8"
    assert [numbers[n] for n in range(1, 16)] == [3, 3, 4, 5, 6, 7, 8, 9, 8, 7, 6, 5, 4, 3, 3]
    actions = Counter(ACTIONS[a] for _, a in deck.cards)
    assert actions == {"pool": 9, "temp": 9, "extension": 9, "park": 18, "improvement": 18, "fence": 18}
    assert deck.provenance == "published"


def test_collector_deck_marginals_are_exact_and_pairing_is_labelled_reconstructed():
    deck = load_deck("collector")
    assert len(deck.cards) == 63
    numbers = Counter(n for n, _ in deck.cards)
    assert [numbers[n] for n in range(1, 16)] == [2, 2, 3, 4, 5, 6, 6, 7, 6, 6, 5, 4, 3, 2, 2]
    actions = Counter(ACTIONS[a] for _, a in deck.cards)
    assert actions == {"fence": 14, "improvement": 14, "park": 14, "pool": 7, "temp": 7, "extension": 7}
    assert deck.provenance == "reconstructed"


def test_plans():
    first = load_plans("first_standard")
    assert first.provenance == "published"
    assert Counter(p.letter for p in first.plans) == {"1": 6, "2": 6, "3": 6}
    collector = load_plans("collector_standard")
    assert collector.provenance == "reconstructed"
    assert Counter(p.letter for p in collector.plans) == {"A": 7, "B": 7, "C": 7}
    # The rulebook's example: Plan B with an estate of 4 and three of 1 scores 9 when first.
    example = [p for p in collector.plans if sorted(p.estates) == [1, 1, 1, 4]]
    assert len(example) == 1 and example[0].letter == "B" and example[0].first == 9


def test_reconstructed_files_are_reported_by_the_ruleset():
    assert load_ruleset("first").reconstructed == []
    assert sorted(load_ruleset("collector").reconstructed) == [
        "data/decks/collector.toml",
        "data/plans/collector_standard.toml",
    ]


def test_custom_sheet_file_loads(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(
        CLASSIC.replace('name = "classic"', 'name = "mine"').replace("houses = 12", "houses = 13")
    )
    sheet = load_sheet(str(path))
    assert [s.houses for s in sheet.streets] == [10, 11, 13]


@pytest.mark.parametrize(
    ("edit", "key", "problem"),
    [
        (lambda t: t.replace('provenance = "published"\n', ""), "provenance", "missing"),
        (
            lambda t: t.replace('provenance = "published"', 'provenance = "guessed"'),
            "provenance",
            "not one of",
        ),
        (lambda t: t.replace("houses = 11", 'houses = "eleven"'), "streets[1].houses", "expected int"),
        (lambda t: t.replace("houses = 11", "houses = 0"), "streets[1].houses", "1 to 15"),
        (
            lambda t: t.replace("pools = [1, 4, 8]", "pools = [1, 4, 12]"),
            "streets[1].pools[2]",
            "use 1 to 11",
        ),
        (
            lambda t: t.replace("parks = [0, 2, 4, 10]", "parks = [0, 4, 2, 10]"),
            "streets[0].parks[2]",
            "non-decreasing",
        ),
        (lambda t: t.replace("boxes = 11", "boxes = true"), "temps.boxes", "integer"),
        (lambda t: t.replace("[1, 3], [2, 3, 4], ", ""), "estates.values", "6 columns"),
        (lambda t: t.replace("track = [0, 0, 3, 5]", "track = [5]"), "refusals.track", "at least 2"),
    ],
)
def test_malformed_sheet_errors_name_file_key_and_problem(tmp_path, edit, key, problem):
    path = tmp_path / "bad.toml"
    path.write_text(edit(CLASSIC))
    with pytest.raises(DataError) as info:
        load_sheet(str(path))
    assert info.value.path == str(path)
    assert info.value.key == key
    assert problem in info.value.problem
    assert str(path) in str(info.value) and key in str(info.value)


def test_not_toml_and_missing_file(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text("name = [\n")
    with pytest.raises(DataError, match="not valid TOML"):
        load_sheet(str(path))
    with pytest.raises(DataError, match="file not found"):
        load_sheet(str(tmp_path / "absent.toml"))


def test_unknown_names_list_the_valid_ones():
    with pytest.raises(WelcomeSimError, match="built-in sheets are american_dream, blueprint, classic"):
        load_sheet("blueprint-typo")
    with pytest.raises(WelcomeSimError, match="valid: collector, first"):
        load_ruleset("third")


def test_deck_table_must_match_its_stated_totals(tmp_path):
    text = (Path(__file__).parent.parent / "welcome_sim/simcore/data/decks/collector.toml").read_text()
    path = tmp_path / "deck.toml"
    path.write_text(text.replace("15 = [1, 0, 1, 0, 0, 0]", "15 = [1, 1, 0, 0, 0, 0]"))
    with pytest.raises(DataError, match="action_totals"):
        load_deck(str(path))
