"""Positions in data files count from 1, as `sheet show`, the rulebooks and a designer count them
(issue 38: "house positions read the same in files and in `sheet show`"); a file written when
they counted from 0 is refused, never read shifted by one, and `data upgrade` converts it."""

from __future__ import annotations

import re
import tomllib

import pytest
from typer.testing import CliRunner

from welcome_sim.cli import app
from welcome_sim.datacopy import copy
from welcome_sim.dataupgrade import upgrade
from welcome_sim.errors import DataError, WelcomeSimError
from welcome_sim.referee.positions import PositionsError
from welcome_sim.referee.tables import load_rules
from welcome_sim.simcore.ground.datafiles import DATA_DIR, load_plans, load_sheet
from welcome_sim.simcore.ground.table import R_X_HOUSE
from welcome_sim.simcore.rules.expansions import load_expansion
from welcome_sim.simcore.rules.ruleset import load_ruleset

MARKER = 'positions = "from 1"'


def _text(kind: str, name: str) -> str:
    return (DATA_DIR / kind / f"{name}.toml").read_text(encoding="utf-8")


def _without_marker(text: str) -> str:
    out = re.sub(r"^positions = .*\n", "", text, flags=re.M)
    assert out != text
    return out


# The Classic sheet as files wrote it before positions counted from 1: pools 0-based.
OLD_POOLS = {"[3, 7, 8]": "[2, 6, 7]", "[1, 4, 8]": "[0, 3, 7]", "[2, 7, 11]": "[1, 6, 10]"}


def _old_classic() -> str:
    text = _without_marker(_text("sheets", "classic"))
    for new, old in OLD_POOLS.items():
        text = text.replace(f"pools = {new}", f"pools = {old}")
    return text


# --- what a file says is what `sheet show` draws ------------------------------------------------


def test_sheet_show_names_the_pools_the_file_lists():
    """The file's `pools` of each street are the houses `sheet show` marks with a pool, by the same
    numbers (houses and streets counted from 1 on screen)."""
    data = tomllib.loads(_text("sheets", "classic"))
    res = CliRunner().invoke(app, ["sheet", "show", "classic"])
    assert res.exit_code == 0, res.output
    assert "houses and streets counted from 1" in res.output
    for i, street in enumerate(data["streets"]):
        line = next(ln for ln in res.output.splitlines() if ln.startswith(f"street {i + 1} "))
        listed = line.split("pools at houses ")[1]
        assert [int(x) for x in listed.split(",")] == street["pools"]
        # The drawing: house k's cell is the k-th between the bars, 'o' where a pool is.
        cells = re.findall(r"\.o?", line.split("|")[1])
        assert [k + 1 for k, c in enumerate(cells) if c == ".o"] == street["pools"]
    assert data["streets"][0]["pools"] == [3, 7, 8]


def test_kernel_and_referee_read_the_files_positions_alike():
    """A file's house k (from 1) is the kernel's and the referee's house k - 1: the sheet's pools,
    a plan's street and every expansion's houses."""
    data = tomllib.loads(_text("sheets", "classic"))
    sheet = load_sheet("classic")
    rules = load_rules("collector")
    for i, street in enumerate(data["streets"]):
        want = {h - 1 for h in street["pools"]}
        assert set(sheet.streets[i].pools) == want and rules.pool_houses[i] == want
    # "In the 3rd street (bottom)": the file says street = 3; both engines hold street 2 (from 0).
    adv = tomllib.loads(_text("plans", "collector_advanced"))
    card = next(p for p in adv["plans"] if p["id"] == "A-adv-4")
    assert card["street"] == 3 and "3rd street" in card["text"]
    assert next(p for p in load_plans("collector_advanced").plans if p.id == "A-adv-4").street == 2
    ref = load_rules("collector", mode="advanced")
    assert next(p for p in ref.plans if p["id"] == "A-adv-4")["street"] == 2


@pytest.mark.parametrize(
    "name, key, attr",
    [
        ("easter", "eggs", "eggs"),
        ("icecream", "cones", "cones"),
        ("doomsday", "shelters", "shelters"),
        ("roswell", "saucers", "saucers"),
        ("halloween", "marked", "marked"),
        ("zombies", "open_houses", "open_houses"),
    ],
)
def test_an_expansions_houses_are_the_same_houses_in_both_engines(name, key, attr):
    raw = tomllib.loads(_text("expansions", name))
    want = {(row[0] - 1, row[1] - 1) for row in raw[key]}
    sheet = load_sheet(load_expansion(name).sheet)
    T = load_ruleset(expansion=name).kernel
    kernel = {
        (s, h)
        for s in range(len(sheet.streets))
        for h in range(sheet.streets[s].houses)
        if T[R_X_HOUSE + s, h]
    }
    referee = set(getattr(load_rules("collector", expansion=name).expansion, attr))
    assert kernel == want == referee


def test_quack_ducklings_and_parents_in_both_engines():
    """A duckling in a street, [street, h, colour], lies between house h and house h + 1 (from 1);
    between streets, [upper street, column, colour]; a parent beside [street, house]."""
    raw = tomllib.loads(_text("expansions", "quack"))
    assert raw["street_ducklings"][0] == [1, 2, "black"] and raw["parents"]["yellow"] == [3, 12]
    ref = load_rules("collector", expansion="quack").expansion
    # Street 1's first duckling between its houses 2 and 3: the referee's (0, 1) and (0, 2).
    assert ref.ducklings[0] == ("black", (0, 1), (0, 2), False)
    # Between streets 1 and 2 in column 4 (streets flush left: house 4 of each): (0, 3), (1, 3).
    assert ("yellow", (0, 3), (1, 3), True) in ref.ducklings
    # The yellow parent beside the bottom street's last house (12, from 1).
    assert ref.parents == {"yellow": (2, 11), "black": (0, 0)}


# --- a file written before is refused, never read shifted ---------------------------------------


@pytest.mark.parametrize(
    "kind, name, loader",
    [
        ("sheets", "classic", load_sheet),
        ("plans", "collector_advanced", load_plans),
        ("expansions", "easter", load_expansion),
    ],
)
def test_a_file_without_the_marker_is_refused_saying_how_to_convert(tmp_path, kind, name, loader):
    old = tmp_path / "old.toml"
    old.write_text(_without_marker(_text(kind, name)))
    with pytest.raises(DataError) as info:
        loader(str(old))
    message = str(info.value)
    assert "\n" not in message and message.startswith(str(old))
    assert "positions now count from 1" in message and f"welcome-sim data upgrade {old}" in message
    assert MARKER in message


def test_the_referee_refuses_a_file_without_the_marker(tmp_path):
    old = tmp_path / "old.toml"
    old.write_text(_old_classic())
    with pytest.raises(PositionsError, match=r"positions now count from 1.*data upgrade"):
        load_rules("collector", sheet=str(old))


def test_the_command_line_refuses_an_old_sheet_in_one_line(tmp_path):
    old = tmp_path / "old.toml"
    old.write_text(_old_classic())
    res = CliRunner().invoke(app, ["sheet", "show", str(old)])
    assert res.exit_code != 0
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and "positions now count from 1" in lines[0]


def test_another_marker_value_is_refused(tmp_path):
    f = tmp_path / "s.toml"
    f.write_text(_text("sheets", "classic").replace(MARKER, 'positions = "from 0"'))
    with pytest.raises(DataError, match=r"key 'positions': 'from 0': the only value is 'from 1'"):
        load_sheet(str(f))


# --- a position 0, or past the street's end -----------------------------------------------------


@pytest.mark.parametrize(
    "kind, name, old, new, key, problem",
    [
        (
            "sheets",
            "classic",
            "pools = [3, 7, 8]",
            "pools = [0, 7, 8]",
            "streets[0].pools[0]",
            "house 0 is not in street 1: use 1 to 10",
        ),
        (
            "sheets",
            "classic",
            "pools = [3, 7, 8]",
            "pools = [3, 7, 11]",
            "streets[0].pools[2]",
            "house 11 is not in street 1: use 1 to 10",
        ),
        # Past the most houses any street has (15): the street's own range still, not a fixed one.
        (
            "sheets",
            "classic",
            "pools = [3, 7, 8]",
            "pools = [18, 7, 8]",
            "streets[0].pools[0]",
            "house 18 is not in street 1: use 1 to 10 (houses count from 1",
        ),
        (
            "plans",
            "collector_advanced",
            "street = 1\n",
            "street = 0\n",
            "plans[1].street",
            "0 is not a street (counted from 1, 1 = top",
        ),
        ("plans", "first_advanced", "street = 3\n", "street = -1\n", "plans[0].street", "-1 is not a street"),
        (
            "expansions",
            "easter",
            '[1, 3, 1, "orange"]',
            '[1, 0, 1, "orange"]',
            "eggs[0]",
            "house 0 is not in street 1: use 1 to 10",
        ),
        (
            "expansions",
            "easter",
            '[1, 3, 1, "orange"]',
            '[0, 3, 1, "orange"]',
            "eggs[0]",
            "street 0 is not on sheet classic: use 1 to 3",
        ),
        (
            "expansions",
            "zombies",
            "[3, 11],",
            "[3, 13],",
            "open_houses[9]",
            "house 13 is not in street 3: use 1 to 12",
        ),
        (
            "expansions",
            "quack",
            '[3, 10, "yellow"]',
            '[3, 12, "yellow"]',
            "street_ducklings[6]",
            "use 1 to 11",
        ),
        (
            "expansions",
            "quack",
            "yellow = [3, 12]",
            "yellow = [3, 0]",
            "parents.yellow",
            "house 0 is not in street 3: use 1 to 12",
        ),
        (
            "expansions",
            "easter",
            '[1, 3, 1, "orange"]',
            '[1, 18, 1, "orange"]',
            "eggs[0]",
            "house 18 is not in street 1: use 1 to 10",
        ),
        (
            "expansions",
            "easter",
            '[1, 3, 1, "orange"]',
            '[9, 3, 1, "orange"]',
            "eggs[0]",
            "street 9 is not on sheet classic: use 1 to 3",
        ),
    ],
)
def test_a_position_out_of_its_street_names_file_key_value_and_range(
    tmp_path, kind, name, old, new, key, problem
):
    text = _text(kind, name)
    assert text.count(old) >= 1
    f = tmp_path / "mine.toml"
    f.write_text(text.replace(old, new, 1))
    with pytest.raises(DataError) as info:
        if kind == "sheets":
            load_sheet(str(f))
        elif kind == "plans":
            load_plans(str(f))
        else:
            load_ruleset(expansion=str(f))
    message = str(info.value)
    assert message.startswith(str(f)) and f"key '{key}'" in message and problem in message, message
    assert "\n" not in message


def test_a_plan_street_past_the_sheets_streets_is_refused(tmp_path):
    f = tmp_path / "plans.toml"
    f.write_text(
        _text("plans", "collector_standard").replace(
            "estates = [1, 1, 1, 1, 1, 1]\n", "estates = [1]\nstreet = 4\n", 1
        )
    )
    assert load_plans(str(f)).plans[0].street == 3  # a plan set knows no sheet: the ruleset checks
    with pytest.raises(WelcomeSimError, match=r"plan A-1: street 4 is not on sheet classic: use 1 to 3"):
        load_ruleset(plans=str(f))


# --- `data copy` writes the new form; `data upgrade` converts the old ----------------------------


def test_a_copy_is_in_the_new_form(tmp_path):
    done = copy("classic", str(tmp_path / "mine.toml"))
    text = done.path.read_text()
    assert MARKER in text and "pools = [3, 7, 8]" in text
    assert load_sheet(str(done.path)).streets == load_sheet("classic").streets


def test_upgrade_converts_an_old_sheet_to_the_built_ins_values(tmp_path):
    old = tmp_path / "old.toml"
    old.write_text(_old_classic())
    done = upgrade(str(old))
    assert done.moved == 9 and done.backup.read_text() == _old_classic()
    assert load_sheet(str(old)).streets == load_sheet("classic").streets
    assert "# Streets top to bottom" in old.read_text()  # its comments kept
    with pytest.raises(WelcomeSimError, match="nothing to upgrade"):
        upgrade(str(old))


def test_upgrade_converts_an_old_expansion_and_plan_set(tmp_path):
    """Quack's rows as files wrote them from 0: ducklings in a street keep their house (the one
    before the duckling, from 1), only their street moves; the rest move by one."""
    text = _without_marker(_text("expansions", "quack"))
    old_rows = {  # between the streets first: a street's old row reads as a new one between
        '[1, 4, "yellow"], [1, 9, "black"]': '[0, 3, "yellow"], [0, 8, "black"]',
        '[2, 2, "black"], [2, 7, "yellow"], [2, 11, "black"]': '[1, 1, "black"], [1, 6, "yellow"], [1, 10, "black"]',
        '[1, 2, "black"], [1, 5, "yellow"], [1, 7, "black"]': '[0, 2, "black"], [0, 5, "yellow"], [0, 7, "black"]',
        '[2, 4, "yellow"], [2, 9, "black"]': '[1, 4, "yellow"], [1, 9, "black"]',
        '[3, 2, "yellow"], [3, 10, "yellow"]': '[2, 2, "yellow"], [2, 10, "yellow"]',
        "yellow = [3, 12], black = [1, 1]": "yellow = [2, 11], black = [0, 0]",
    }
    for new, old in old_rows.items():
        assert text.count(new) == 1, new
        text = text.replace(new, old)
    f = tmp_path / "quack.toml"
    f.write_text(text)
    upgrade(str(f))
    assert load_expansion(str(f)).data == load_expansion("quack").data
    plans = tmp_path / "adv.toml"
    old_text = re.sub(
        r"street = (\d+)", lambda m: f"street = {int(m.group(1)) - 1}", _text("plans", "first_advanced")
    )
    plans.write_text(_without_marker(old_text))
    upgrade(str(plans))
    assert load_plans(str(plans)).plans == load_plans("first_advanced").plans


def test_upgrade_from_the_command_line(tmp_path):
    old = tmp_path / "old.toml"
    old.write_text(_old_classic())
    res = CliRunner().invoke(app, ["data", "upgrade", str(old)])
    assert res.exit_code == 0, res.output
    assert "9 positions now count from 1" in res.output
    assert load_sheet(str(old)).streets == load_sheet("classic").streets
    deck = tmp_path / "deck.toml"
    deck.write_text(_text("decks", "collector"))
    res = CliRunner().invoke(app, ["data", "upgrade", str(deck)])
    assert res.exit_code != 0 and "holds no positions" in res.output


def test_every_file_of_a_kind_with_positions_carries_the_marker():
    for kind in ("sheets", "plans", "expansions"):
        for path in sorted((DATA_DIR / kind).glob("*.toml")):
            assert tomllib.loads(path.read_text())["positions"] == "from 1", path


def test_upgrade_leaves_out_a_street_of_minus_one(tmp_path):
    """Files from 0 said `street = -1` for any street; from 1, any street is said by leaving it out."""
    text = _without_marker(_text("plans", "collector_standard"))
    old = text.replace("estates = [1, 1, 1, 1, 1, 1]\n", "estates = [1, 1, 1, 1, 1, 1]\nstreet = -1\n", 1)
    f = tmp_path / "plans.toml"
    f.write_text(old)
    assert upgrade(str(f)).moved == 1
    assert "street = -1" not in f.read_text() and "# street: any street" in f.read_text()
    assert load_plans(str(f)).plans == load_plans("collector_standard").plans
