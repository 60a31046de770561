"""Varied values (issue 42, "Vary any value in one sweep"): a path names one value of a data file
the game uses, the value replaces it in a copy of the file's parsed table, and the file's own
checks then run, so a ruleset varied on one value differs from another only in that value, and
a bad path or value is a one-line error naming it."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.ground.datafiles import load_plans, load_sheet
from welcome_sim.simcore.rules.overrides import Override, label, parse_all, parse_label, parse_vary
from welcome_sim.simcore.rules.rulespec import RulesetSpec


def _load(text: str, **spec) -> list:
    """The rulesets of each value of one --vary."""
    return [RulesetSpec(**spec, overrides=(o,)).load() for o in parse_vary(text)]


def _card(rs, pid: str):
    return next(p for p in rs.plans.plans if p.id == pid)


def test_a_plan_score_changes_that_card_only():
    low, high = _load("plans.A-1.scores=6/3,10/5")
    assert (_card(low, "A-1").first, _card(low, "A-1").later) == (6, 3)
    assert (_card(high, "A-1").first, _card(high, "A-1").later) == (10, 5)
    # Every other card, the sheet and the deck are the file's own.
    same = dataclasses.replace(_card(low, "A-1"), first=10, later=5)
    assert [same if p.id == "A-1" else p for p in low.plans.plans] == list(high.plans.plans)
    assert low.sheet == high.sheet and low.deck == high.deck
    # The compiled rules differ only where the card's two scores are held.
    diff = np.argwhere(low.kernel != high.kernel)
    assert len(diff) == 2
    assert sorted(int(high.kernel[tuple(i)]) for i in diff) == [5, 10]


def test_a_sheet_track_changes_that_street_only():
    # Streets count from 1, top first, as the file (positions = "from 1") and `sheet show` count.
    classic = load_sheet("classic")
    (varied,) = _load("sheet.streets.2.parks=0/2/4/6/16")
    assert varied.sheet.streets[1].parks == (0, 2, 4, 6, 16)
    assert classic.streets[1].parks == (0, 2, 4, 6, 14)
    fixed = dataclasses.replace(
        varied.sheet, streets=(classic.streets[0], classic.streets[1], classic.streets[2])
    )
    assert fixed == classic
    # The file as parsed is untouched: the next load without the value reads the file's own.
    assert load_sheet("classic") == classic
    assert RulesetSpec().load().sheet == classic


def test_an_expansion_value_by_the_files_own_key():
    # The Zombie file's key is `start_ammunition` (the issue wrote ammunition_start): paths use
    # the file's own keys, and the other order is suggested.
    rulesets = _load("expansion.zombies.start_ammunition=0..2", expansion="zombies")
    assert [rs.expansion.data["start_ammunition"] for rs in rulesets] == [0, 1, 2]
    with pytest.raises(WelcomeSimError, match=r"did you mean 'start_ammunition'"):
        _load("expansion.zombies.ammunition_start=1", expansion="zombies")


def test_an_opponent_card_by_level_or_name():
    (by_level,) = _load("opponents.1.park=3", mode="solo", opponent="1")
    (by_name,) = _load("opponents.sam.park=3", mode="solo", opponent="sam")
    assert by_level.opponent.park == by_name.opponent.park == 3
    with pytest.raises(WelcomeSimError, match=r"plays AAA level 1 \(sam\)"):
        _load("opponents.2.park=2", mode="solo", opponent="1")


def test_an_expansion_plan_card_by_id():
    (rs,) = _load("plans.C-Z2.scores=9/5", expansion="zombies")
    assert (_card(rs, "C-Z2").first, _card(rs, "C-Z2").later) == (9, 5)
    # A standard C card is not played beside the Zombie Outbreak's: varying it would change nothing.
    with pytest.raises(WelcomeSimError, match=r"no plan card 'C-1' in play"):
        _load("plans.C-1.first=9", expansion="zombies")


@pytest.mark.parametrize(
    ("text", "spec", "words"),
    [
        # unknown file part
        (
            "shet.streets.1.parks=1",
            {},
            r"^--vary shet\.streets\.1\.parks=\.\.\.: unknown file part 'shet' \(did you mean 'sheet'\?\)",
        ),
        # unknown key, unknown item, position past the end
        ("sheet.strets.2.parks=1", {}, r"^--vary sheet\.strets\.2\.parks=1: unknown key 'strets'"),
        ("sheet.streets.7.parks=1", {}, r"'streets' has 3 items: give a position 1 to 3"),
        ("plans.A-9.first=3", {}, r"no plan card 'A-9' in play"),
        ("expansion.zombies.start_ammunition=1", {}, r"plays expansion 'none', not zombies"),
        # wrong type
        ("plans.A-1.first=abc", {}, r"^--vary plans\.A-1\.first=abc: wrong type: 'first' is a whole number"),
        (
            "sheet.pools.track=0/x",
            {},
            r"wrong type: 'pools\.track' is a list of whole numbers joined by '/' \(now 0/3/6/9/13/17/21/26/31/36\), not '0/x'$",
        ),
        (
            "plans.A-1.scores=x",
            {},
            r"^--vary plans\.A-1\.scores=x: wrong type: 'scores' is two whole numbers, first/later \(now 8/4\), not 'x'$",
        ),
        ("plans.A-1.scores=8", {}, r"'scores' is two whole numbers, first/later \(now 8/4\), not '8'$"),
        # a plan card's `scores` is a key --vary knows: the nearest to a misspelling
        ("plans.A-1.score=8/4", {}, r"unknown key 'score' on plan card 'A-1' \(did you mean 'scores'\?\)"),
        # out of range: the loader's own check, named with the value that caused it
        (
            "plans.A-1.first=2000",
            {},
            r"^--vary plans\.A-1\.first=2000: data/plans/collector_standard\.toml: key 'plans\[0\]\.first': 2000 is not a plan score: use 0 to 999",
        ),
        (
            "expansion.zombies.start_ammunition=10",
            {"expansion": "zombies"},
            r"key 'start_ammunition': 10 is not a starting ammunition: use 0 to 9",
        ),
        ("plans.A-1.scores=6/7", {}, r"later score 7 exceeds first score 6"),
        ("sheet.streets.2.parks=0/5/4", {}, r"track must be non-decreasing"),
        # one value for a track: its first box is the points for none, and a track needs boxes
        (
            "sheet.pools.track=1",
            {},
            r"key 'pools\.track\[0\]': the track lists the points for 0, 1, 2, \.\.\. pools .*, so it starts at 0, not 1$",
        ),
        ("sheet.pools.track=0", {}, r"key 'pools\.track': .*none of the sheet's 9 pools could be built"),
        ("sheet.refusals.track=3/3/5", {}, r"key 'refusals\.track\[0\]': .*starts at 0, not 3$"),
        # bad range syntax
        ("sheet.pools.track=0..4/x", {}, r"^--vary sheet\.pools\.track=0\.\.4/x: bad range: write A\.\.B"),
        (
            "expansion.zombies.start_ammunition=4..1",
            {"expansion": "zombies"},
            r"bad range: it runs backwards",
        ),
        (
            "expansion.zombies.start_ammunition=0..4/0",
            {"expansion": "zombies"},
            r"the step must be at least 1",
        ),
        # no '=' and values listed twice
        ("plans.A-1.first", {}, r"has no '='"),
        ("plans.A-1.first=3,3", {}, r"value 3 is listed twice"),
    ],
)
def test_bad_paths_and_values_are_one_line_errors(text, spec, words):
    with pytest.raises(WelcomeSimError, match=words) as caught:
        _load(text, **spec)
    assert "\n" not in str(caught.value)


def test_ranges_lists_and_labels():
    assert [o.value for o in parse_vary("expansion.zombies.start_ammunition=0..4/2")] == ["0", "2", "4"]
    assert [o.value for o in parse_vary("plans.A-1.first=4,6..7")] == ["4", "6", "7"]
    axes = parse_all(["plans.A-1.scores=6/3,8/4", "sheet.pools.track=0/3"])
    assert [len(a) for a in axes] == [2, 1]
    cell = (axes[0][1], axes[1][0])
    assert label(cell) == "plans.A-1.scores=8/4; sheet.pools.track=0/3"
    assert parse_label(label(cell)) == {"plans.A-1.scores": "8/4", "sheet.pools.track": "0/3"}
    with pytest.raises(WelcomeSimError, match="the path is given twice"):
        parse_all(["plans.A-1.first=4", "plans.A-1.first=5"])


def test_a_spec_with_values_is_a_spec_of_its_own():
    plain = RulesetSpec.given()
    varied = RulesetSpec.given(overrides=(Override("plans.A-1.first", "9"),))
    assert plain != varied and hash(varied) == hash(
        RulesetSpec.given(overrides=[Override("plans.A-1.first", "9")])
    )
    assert "varied plans.A-1.first=9" in varied.load().describe()
    # The plan file as parsed stays the file's: another spec gets its own values.
    assert next(p for p in load_plans("collector_standard").plans if p.id == "A-1").first == 8
