"""Plan requirement texts (one per kind, feature and goal) and per-card provenance in plan files."""

from __future__ import annotations

from pathlib import Path

import pytest

from welcome_sim.errors import DataError
from welcome_sim.plantext import (
    FEATURE_TEXT,
    GOAL_TEXT,
    KIND_TEXT,
    plan_detail,
    plan_label,
    plan_text,
    requirement,
)
from welcome_sim.simcore.ground.datafiles import PLAN_KINDS, Plan, load_plans
from welcome_sim.simcore.rules.expansions.codes import FEATURES, GOALS


def plan(kind: str = "estates", estates: tuple[int, ...] = (), **kw) -> Plan:
    return Plan("X-1", "A", 0, estates, 8, 4, kind=kind, **kw)


@pytest.mark.parametrize(
    ("p", "text"),
    [
        (plan(estates=(2, 2, 2, 2)), "4 estates of size 2"),
        (plan(estates=(1, 2, 6)), "estates of size 1, 2 and 6"),
        (plan(estates=(6, 1, 1, 1)), "3 estates of size 1 and 1 of size 6"),
        (plan(estates=(2, 6), street=0), "estates of size 2 and 6, in street 1"),
        (
            plan(estates=(4, 4), same_street=True, roundabouts=1),
            "2 estates of size 4, all in one street, with 1 roundabout in that street",
        ),
        (plan(estates=(1,) * 6, ends=True), "6 estates of size 1, each at an end of a street"),
        (
            plan(estates=(5, 6), pools=1, extensions=2),
            "estates of size 5 and 6, each with at least 1 pool built and with at least 2 bis numbers",
        ),
        (plan("parks", count=7), "at least 7 park boxes crossed"),
        (plan("parks_each", count=2), "at least 2 park boxes crossed in every street"),
        (plan("parks_full", count=2), "every park box crossed in 2 streets"),
        (plan("pools_full", count=1), "every pool built in 1 street"),
        (plan("parks_pools_full", street=2), "every park box and every pool of street 3"),
        (
            plan("parks_pools_full", roundabouts=1),
            "every park box and every pool of one street, with 1 roundabout",
        ),
        (plan("temps", count=5), "at least 5 temp workers hired"),
        (plan("improvements", count=6), "at least 6 improvement boxes crossed"),
        (plan("improvement_columns", count=3), "every improvement box of 3 estate sizes crossed"),
        (plan("street_full", street=0), "every house of street 1 numbered"),
        (plan("street_ends"), "the first and the last house of every street numbered"),
        (plan("extensions_in_street", count=5), "5 bis numbers in one street"),
    ],
)
def test_requirement_per_kind(p: Plan, text: str):
    assert requirement(p) == text


def test_every_kind_feature_and_goal_has_a_text():
    assert set(KIND_TEXT) == set(PLAN_KINDS)
    assert set(FEATURE_TEXT) == set(FEATURES)
    assert set(GOAL_TEXT) == set(GOALS)


@pytest.mark.parametrize(
    ("p", "text"),
    [
        (
            plan(estates=(3, 3), feature="eggs", feature_min=3),
            "2 estates of size 3, each with at least 3 collected eggs",
        ),
        (
            plan(estates=(3, 3), feature="cones", feature_max=0),
            "2 estates of size 3, each without any circled cone",
        ),
        (
            plan(estates=(1, 1, 1), pools=1, feature="cones", feature_min=1),
            "3 estates of size 1, each with at least 1 pool built and with at least 1 circled cone",
        ),
        (
            plan(estates=(4, 5), feature="gaps", feature_max=0),
            "estates of size 4 and 5, each with all its houses joined by one string of lights",
        ),
        (
            plan(estates=(3, 3), feature="links", feature_max=0),
            "2 estates of size 3, each with no two of its houses joined by a string of lights",
        ),
        (
            plan(estates=(3,), feature="eggs", feature_min=1, feature_max=2),
            "1 estate of size 3, each with 1 to 2 collected eggs",
        ),
        (
            plan(estates=(3,), feature="unicorns", feature_min=2),
            "1 estate of size 3, each with at least 2 'unicorns'",
        ),
    ],
)
def test_requirement_per_estate_feature(p: Plan, text: str):
    assert requirement(p) == text


@pytest.mark.parametrize(
    ("p", "text"),
    [
        (
            plan("expansion", goal="all_eggs_of_colours", colours=("orange", "pink")),
            "every orange and pink egg collected",
        ),
        (
            plan("expansion", goal="colours_each_street", count=3),
            "eggs of at least 3 colours collected in every street",
        ),
        (plan("expansion", goal="all_eggs_of_street", street=2), "every egg of street 3 collected"),
        (
            plan("expansion", goal="cones_of_scoops", count=5, scoops=3),
            "at least 5 cones of 3 scoops circled",
        ),
        (plan("expansion", goal="all_cones_of_street"), "every cone of one street circled"),
        (
            plan("expansion", goal="street_string", street=2),
            "every house of street 3 joined by one string of lights",
        ),
        (
            plan("expansion", goal="street_string_parks"),
            "in one street: every house joined by one string of lights and every park box crossed",
        ),
    ],
)
def test_requirement_per_expansion_goal(p: Plan, text: str):
    assert requirement(p) == text


def test_unknown_goal_gets_a_generic_text_naming_it():
    p = plan("expansion", goal="haunted_houses", street=1, count=4)
    assert requirement(p) == "expansion goal 'haunted_houses' (street 2, count 4)"


def test_label_text_and_detail_mark_invented_and_reconstructed_cards():
    a2 = Plan("A-2", "A", 0, (2, 2, 2, 2), 8, 4)
    assert plan_text(a2) == "A-2: 4 estates of size 2"
    a7 = Plan("A-7", "A", 0, (2, 3), 5, 2, provenance="reconstructed", invented=True, note="made up")
    assert plan_label(a7) == "A-7 (invented)"
    assert (
        plan_detail(a7)
        == "A-7 (invented): estates of size 2 and 3 (first 5, later 2) [reconstructed: made up]"
    )
    assert "reconstructed" not in plan_detail(a2)


def test_shipped_plan_files_carry_per_card_provenance():
    std = {p.id: p for p in load_plans("collector_standard").plans}
    assert {i for i, p in std.items() if p.invented} == {"A-7", "B-7", "C-7"}
    assert all(p.provenance == "reconstructed" for p in std.values())
    assert "1-2" in std["A-2"].note
    assert all(p.provenance == "published" and not p.invented for p in load_plans("first_standard").plans)
    adv = load_plans("collector_advanced").plans
    assert all(p.provenance == "reconstructed" and "scores reconstructed" in p.note for p in adv)


PLAN_FILE = """name = "t"
provenance = "{file}"
positions = "from 1"
letters = ["A", "B", "C"]
advanced = true

[[plans]]
id = "A-1"
letter = "A"
estates = [2, 2]
first = 8
later = 4
{extra}
"""


@pytest.mark.parametrize(
    ("file", "extra", "key", "problem"),
    [
        (
            "reconstructed",
            'provenance = "guessed"',
            "plans[0].provenance",
            "'guessed' is not one of published",
        ),
        ("reconstructed", "provenance = 3", "plans[0].provenance", "expected str"),
        (
            "reconstructed",
            'provenance = "published"\ninvented = true',
            "plans[0].invented",
            "an invented card",
        ),
        ("reconstructed", 'invented = "yes"', "plans[0].invented", "expected bool"),
        ("published", 'provenance = "reconstructed"', "plans[0].provenance", "mark the file reconstructed"),
    ],
)
def test_bad_card_provenance_is_a_one_line_error_naming_file_and_key(
    tmp_path: Path, file, extra, key, problem
):
    path = tmp_path / "plans.toml"
    path.write_text(PLAN_FILE.format(file=file, extra=extra))
    with pytest.raises(DataError) as info:
        load_plans(str(path))
    msg = str(info.value)
    assert "\n" not in msg and str(path) in msg and key in msg and problem in msg, msg


def test_card_provenance_defaults_to_the_file_and_invented_is_read(tmp_path: Path):
    path = tmp_path / "plans.toml"
    path.write_text(PLAN_FILE.format(file="reconstructed", extra='invented = true\nnote = "filler"'))
    (p,) = load_plans(str(path)).plans
    assert (p.provenance, p.invented, p.note) == ("reconstructed", True, "filler")
