"""`welcome-sim data copy NAME [DEST]`: a variant starts as a copy of a built-in data file that
loads to the same rules, names what it came from and has a title of its own (issue 38)."""

from __future__ import annotations

import dataclasses

import pytest
from typer.testing import CliRunner

from welcome_sim.analysis.custom import custom_differences
from welcome_sim.cli import app
from welcome_sim.datacopy import copy, find
from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.ground.datafiles import load_deck, load_plans, load_sheet
from welcome_sim.simcore.rules.expansions import load_expansion

# Fields that name a file rather than set a rule: a copy differs from its built-in only there.
NAMING = ("title", "path", "based_on", "sha256")


def _rules(obj) -> dict:
    return {k: v for k, v in dataclasses.asdict(obj).items() if k not in NAMING}


@pytest.mark.parametrize(
    "name, loader, based_on",
    [
        ("classic", load_sheet, "classic"),
        ("blueprint", load_sheet, "blueprint"),
        ("collector", load_deck, "collector"),
        ("collector_standard", load_plans, "collector_standard"),
        ("first_advanced", load_plans, "first_advanced"),
    ],
)
def test_a_copy_loads_to_the_same_rules(tmp_path, name, loader, based_on):
    done = copy(name, str(tmp_path))
    assert done.path == tmp_path / f"{name}.toml"
    mine, built_in = loader(str(done.path)), loader(name)
    assert _rules(mine) == _rules(built_in)
    assert mine.title == built_in.title + " (my copy)" and mine.based_on == based_on


@pytest.mark.parametrize("name", ["zombies", "american-dream", "easter"])
def test_an_expansion_copy_loads_to_the_same_expansion(tmp_path, name):
    done = copy(name, str(tmp_path / "x.toml"))
    mine, built_in = load_expansion(str(done.path)), load_expansion(name)
    assert mine.name == built_in.name and mine.data["title"] == built_in.title + " (my copy)"
    assert {k: v for k, v in mine.data.items() if k != "title"} == {
        k: v for k, v in built_in.data.items() if k != "title"
    }


def test_the_report_finds_no_rule_changed_in_a_fresh_copy(tmp_path):
    """The report's account of a variant compares a copy with the built-in it names: nothing yet."""
    from welcome_sim.sweep.store import file_digest

    done = copy("collector_standard", str(tmp_path / "mine.toml"))
    sha = file_digest(str(done.path))
    manifest = {
        "data_files": [{"kind": "plans", "name": "collector_standard", "path": str(done.path), "sha256": sha}]
    }
    (entry,) = custom_differences(manifest)
    assert entry["status"] == "compared", entry["message"]
    assert entry["based_on"] == "collector_standard" and entry["differences"] == []


def test_copy_refuses_what_it_cannot_do(tmp_path):
    (tmp_path / "classic.toml").write_text("x")
    with pytest.raises(
        WelcomeSimError, match=r"DEST: '.*classic.toml' exists; give another DEST, or --force"
    ):
        copy("classic", str(tmp_path))
    copy("classic", str(tmp_path), force=True)
    assert load_sheet(str(tmp_path / "classic.toml")).based_on == "classic"
    with pytest.raises(WelcomeSimError, match="NAME: no built-in data file 'klassic'; valid: sheets: "):
        copy("klassic", str(tmp_path))
    with pytest.raises(WelcomeSimError, match=r"DEST: .* must end in \.toml"):
        copy("classic", str(tmp_path / "x.txt"))
    with pytest.raises(WelcomeSimError, match="DEST: no folder"):
        copy("classic", str(tmp_path / "nowhere" / "x.toml"))
    assert find("sheets/classic") == ("sheets", "classic") and find("plans/first_standard")[0] == "plans"


def test_data_copy_command(tmp_path):
    res = CliRunner().invoke(app, ["data", "copy", "zombies", str(tmp_path / "z.toml")])
    assert res.exit_code == 0, res.output
    assert "welcome-sim sweep --expansion zombies --expansion " in res.output
    res = CliRunner().invoke(app, ["data", "copy", "zombies", str(tmp_path / "z.toml")])
    assert res.exit_code == 2 and res.output.strip().startswith("error: DEST:")
    assert len(res.output.strip().splitlines()) == 1
    # `welcome-sim data` alone still lists the shipped files.
    res = CliRunner().invoke(app, ["data"])
    assert res.exit_code == 0 and "rules data:" in res.output


def test_sweep_and_analyze_name_the_file_behind_a_copys_label(tmp_path, monkeypatch):
    """The rows name a copy by name and hash ('classic.8a649bcd'); the terminal says which file
    (and title) that is, as the report does."""
    monkeypatch.chdir(tmp_path)
    copy("classic", "my-classic.toml")
    run = CliRunner().invoke(
        app,
        [
            "sweep",
            "--games",
            "4",
            "--sheet",
            "classic",
            "--sheet",
            "my-classic.toml",
            "-o",
            "run",
            "--jobs",
            "1",
        ],
    )
    assert run.exit_code == 0, run.output
    label = load_sheet("my-classic.toml").name + "." + load_sheet("my-classic.toml").sha256[:8]
    line = f"your own files in these rows: {label} = my-classic.toml (“Classic (my copy)”)"
    assert label in run.output and line in " ".join(run.output.split())
    res = CliRunner().invoke(app, ["analyze", "run"])
    assert res.exit_code == 0 and line in " ".join(res.output.split()), res.output
