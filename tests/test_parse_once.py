"""Work done once (issue 39, "Parse once"): a sweep's configuration is validated once and the plan
it gives is passed down; a data file is parsed once per process, and parsed again once edited; a
ruleset is named by one spec wherever it is loaded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from welcome_sim.cli import app
from welcome_sim.simcore.ground import tomlread
from welcome_sim.simcore.ground.datafiles import DATA_DIR, load_edition, load_sheet
from welcome_sim.simcore.rules.rulespec import RulesetSpec
from welcome_sim.sweep.config import SweepConfig, SweepPlan


@pytest.fixture
def parses(monkeypatch) -> list[str]:
    """Every TOML text the data loaders parse from now on."""
    seen: list[str] = []
    real = tomlread.tomllib.loads

    def counting(text: str, **kw):
        seen.append(text)
        return real(text, **kw)

    monkeypatch.setattr(tomlread.tomllib, "loads", counting)
    return seen


def _own_sheet(tmp_path: Path, marker: str) -> Path:
    """A copy of the Classic sheet whose bytes no other test has (a comment of its own)."""
    path = tmp_path / "mine.toml"
    path.write_text((DATA_DIR / "sheets" / "classic.toml").read_text() + f"\n# {marker} {tmp_path}\n")
    return path


def test_a_data_file_is_parsed_once_for_two_loads(tmp_path, parses):
    path = _own_sheet(tmp_path, "parsed once")
    first, second = load_sheet(str(path)), load_sheet(str(path))
    assert first == second and first.sha256 == second.sha256
    assert len(parses) == 1


def test_an_edited_data_file_is_read_again(tmp_path, parses):
    path = _own_sheet(tmp_path, "edited")
    before = load_sheet(str(path))
    text = path.read_text()
    assert 'title = "Classic"' in text
    path.write_text(text.replace('title = "Classic"', 'title = "Classic, edited"', 1))
    after = load_sheet(str(path))
    assert (before.title, after.title) == ("Classic", "Classic, edited")
    # The label follows the bytes loaded: rows of the edited file never pass for the first one's.
    assert before.sha256 != after.sha256
    assert len(parses) == 2


def test_a_shared_parse_cannot_be_changed_by_a_caller():
    # The editions' `extra` table and an expansion's data are dicts: each load gets its own copy.
    from welcome_sim.simcore.rules.expansions import load_expansion

    first = load_edition("collector")
    first.extra["changed"] = True
    assert "changed" not in load_edition("collector").extra
    x = load_expansion("zombies")
    x.data["road"] = "changed"
    x.data["plans"].clear()
    again = load_expansion("zombies").data
    assert again["road"] != "changed" and again["plans"]


def test_a_cell_names_its_ruleset_by_one_spec():
    # A cell's '' (the edition's own deck and plans) and 'none' (no expansion) are the spec's None.
    cell = SweepConfig(expansions=["none"]).cells()[0]
    assert cell.spec() == RulesetSpec(sheet="classic")
    assert cell.spec() == RulesetSpec.given("collector", "classic", "", "standard", "", "none", False, "")
    assert cell.spec().load().describe() == RulesetSpec().load().describe()


def test_validate_gives_the_plan_of_cells_and_rulesets():
    plan = SweepConfig(expansions=["none", "easter"], modes=["standard", "solo"]).validate()
    assert isinstance(plan, SweepPlan)
    assert [c.index for c in plan.cells] == list(range(len(plan.cells))) and len(plan.cells) == 4
    assert {plan.ruleset(c).expansion_label for c in plan.cells} == {"none", "easter"}
    # One ruleset per spec: the two player counts of a spec share it.
    assert len(plan.rulesets) == len({c.spec() for c in plan.cells})


def test_the_sweep_command_validates_its_configuration_once(tmp_path, monkeypatch):
    calls: list[SweepConfig] = []
    real = SweepConfig.validate

    def counting(self: SweepConfig) -> SweepPlan:
        calls.append(self)
        return real(self)

    monkeypatch.setattr(SweepConfig, "validate", counting)
    out = tmp_path / "s"
    argv = [
        "sweep",
        "--games",
        "3",
        "--players",
        "1-2",
        "--strategy",
        "random",
        "--jobs",
        "1",
        "--out",
        str(out),
    ]
    res = CliRunner().invoke(app, argv)
    assert res.exit_code == 0, res.output
    assert len(calls) == 1
    manifest = json.loads((out / "manifest.json").read_text())
    assert [c["players"] for c in manifest["cells"]] == [1, 2]
    # And a resumed sweep too.
    res = CliRunner().invoke(app, [*argv, "--resume"])
    assert res.exit_code == 0, res.output
    assert len(calls) == 2


def test_strategy_files_are_parsed_once_and_an_edited_user_file_again(tmp_path, monkeypatch):
    # A sweep looks strategies up dozens of times; each lookup read the tuned-set file twice and the
    # ladder once (36 parses on one sweep's path). Now each file is parsed once per content.
    from welcome_sim.strategies import registry

    monkeypatch.setattr(registry, "_PARSED", {}, raising=False)  # as a fresh process
    monkeypatch.setenv("WELCOME_SIM_DATA_DIR", str(tmp_path))
    user = tmp_path / "tuned.toml"
    user.write_text('[mine]\nbase = "greedy"\nparams = { noise = 1.0 }\n')
    seen: list[str] = []
    real = registry.tomllib.loads

    def counting(text: str, **kw):
        seen.append(text)
        return real(text, **kw)

    monkeypatch.setattr(registry.tomllib, "loads", counting)
    first = registry.parse_strategy("mine")
    second = registry.parse_strategy("mine")
    assert first.spec == second.spec and first.spec.values["noise"] == 1.0
    assert len(seen) == 3  # the built-in tuned sets, the ladder and the user's sets, once each
    # A set handed out is the caller's own: changing it changes no later lookup.
    first.spec.values["noise"] = 9.0
    assert registry.parse_strategy("mine").spec.values["noise"] == 1.0
    assert len(seen) == 3
    # `welcome-sim tune` rewriting the user's file: the next lookup reads the new values.
    user.write_text('[mine]\nbase = "greedy"\nparams = { noise = 2.0 }\n')
    assert registry.parse_strategy("mine").spec.values["noise"] == 2.0
    assert len(seen) == 4
