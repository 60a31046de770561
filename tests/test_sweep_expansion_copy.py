"""A designer's copy of an expansion's file in a sweep: its rows are labelled by the rules it lays
out and its content's hash (never as the built-in file), a changed copy is refused, and the
analysis reads the label as the expansion it lays out where that is a rule (its own scoring), and
as a file of one's own where it is data (publisher's stars, plan cards, the report's differences)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import polars as pl
import pytest

from welcome_sim.analysis.custom import custom_differences
from welcome_sim.analysis.difficulty import expansion_rating, per_deal, replaces_scoring
from welcome_sim.analysis.labels import expansion_title
from welcome_sim.analysis.plans import plan_cards
from welcome_sim.analysis.tables import expansion_outcomes
from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.datafiles import DATA_DIR
from welcome_sim.sweep import store
from welcome_sim.sweep.config import SweepConfig, default_sheets
from welcome_sim.sweep.run import plan_sweep, play_chunk, run_sweep

EASTER = (DATA_DIR / "expansions" / "easter.toml").read_text()


def h8(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:8]


@pytest.fixture
def copies(tmp_path: Path) -> dict[str, Path]:
    """An unchanged copy of Easter's file, and one whose egg points are higher."""
    same, dearer = tmp_path / "same.toml", tmp_path / "dearer.toml"
    same.write_text(EASTER)
    assert "points = [5, 10, 20, 35]" in EASTER
    dearer.write_text(EASTER.replace("points = [5, 10, 20, 35]", "points = [6, 12, 25, 40]", 1))
    return {"same": same, "dearer": dearer}


def config(*expansions: str, games: int = 12) -> SweepConfig:
    return SweepConfig(games=games, seed=3, expansions=list(expansions))


def test_copies_are_labelled_by_rules_and_hash_and_play_their_own_values(copies, tmp_path):
    out = tmp_path / "s"
    run_sweep(config("none", "easter", str(copies["same"]), str(copies["dearer"])), out, jobs=1, chunk_size=5)
    df = store.scan(out).collect().sort("cell", "game", "seat")
    same, dearer = f"easter.{h8(copies['same'])}", f"easter.{h8(copies['dearer'])}"
    assert sorted(df["expansion"].unique().to_list()) == sorted(["none", "easter", same, dearer])
    by = df.partition_by("expansion", as_dict=True)
    built_in = by[("easter",)]
    # An unchanged copy plays the built-in file's games exactly, under its own label.
    cols = ["seed", "total", "expansion_points", "eggs"]
    assert by[(same,)].select(cols).equals(built_in.select(cols))
    # The dearer copy pays more for the same eggs on the same deals, never less.
    dear = by[(dearer,)]
    assert dear["seed"].to_list() == built_in["seed"].to_list()
    assert (dear["expansion_points"] >= 0).all()
    assert dear["expansion_points"].sum() > built_in["expansion_points"].sum()
    m = json.loads((out / store.MANIFEST).read_text())
    names = {c["expansion"]: c["expansion_name"] for c in m["cells"]}
    assert names == {
        "none": "none",
        "easter": "easter",
        str(copies["same"]): same,
        str(copies["dearer"]): dearer,
    }
    files = {f["path"]: f for f in m["data_files"]}
    assert files[str(copies["dearer"])]["kind"] == "expansion"
    assert files[str(copies["dearer"])]["sha256"] == store.file_digest(str(copies["dearer"]))


def test_a_copy_changed_while_the_sweep_runs_is_refused(copies, tmp_path):
    out = tmp_path / "s"
    tasks, _, _ = plan_sweep(config(str(copies["dearer"])), out, None, False)
    copies["dearer"].write_text(copies["dearer"].read_text() + "\n# changed\n")
    with pytest.raises(
        WelcomeSimError, match=r"the expansion file changed while the sweep ran \(planned as easter\."
    ):
        play_chunk(tasks[0])
    # And a resume after the change names the file.
    run_sweep(config(str(copies["same"])), tmp_path / "t", jobs=1)
    copies["same"].write_text(EASTER + "\n# changed\n")
    with pytest.raises(WelcomeSimError, match=r"same\.toml: this data file changed since the sweep"):
        run_sweep(config(str(copies["same"])), tmp_path / "t", jobs=1, resume=True)


def test_one_content_under_two_values_is_refused(copies):
    twin = copies["same"].with_name("twin.toml")
    twin.write_text(EASTER)
    with pytest.raises(WelcomeSimError, match="are the same file's content"):
        config(str(copies["same"]), str(twin)).validate()
    with pytest.raises(WelcomeSimError, match="are the same file's content"):
        config("easter", str(DATA_DIR / "expansions" / "easter.toml")).validate()


def test_a_copy_of_the_american_dream_plays_on_its_sheet_and_keeps_its_scoring(tmp_path):
    copy = tmp_path / "dream.toml"
    copy.write_text((DATA_DIR / "expansions" / "american-dream.toml").read_text() + "\n# a copy\n")
    assert default_sheets([str(copy)]) == ["american_dream"]
    label = f"american-dream.{h8(copy)}"
    # Its points replace the base game's scoring, like the built-in's: never netted out.
    assert replaces_scoring(label) and replaces_scoring("american-dream")
    rows = pl.DataFrame(
        {
            "item": ["x", "x"],
            "level": ["g", "g"],
            "seed": [1, 2],
            "expansion": [label, "easter.0123abcd"],
            "total": [150, 100],
            "expansion_points": [120, 10],
            "refusals": [0, 0],
            "rounds": [30, 30],
            "end_reason": ["full", "full"],
            **{f"plan_{s}_round": [0, 0] for s in "abc"},
        }
    )
    net = dict(
        zip(*per_deal(rows).select("deal", "net_score").to_dict(as_series=False).values(), strict=True)
    )
    assert net == {1: 150.0, 2: 90.0}


def test_analysis_reads_a_copy_as_one_s_own_file(copies, tmp_path):
    label = f"easter.{h8(copies['dearer'])}"
    # Never passes for the built-in: the title shows the label, no publisher's stars.
    assert expansion_title(label) == f"{label} (Easter Egg Hunt)"
    assert expansion_rating(label) == (None, "")
    assert expansion_rating("easter")[0] is not None
    # Its Plan C cards may differ from the built-in's: only the standard cards are described.
    cards = plan_cards("collector", "standard", label, "collector_standard")
    built_in = plan_cards("collector", "standard", "easter", "collector_standard")
    assert {k for k in built_in if k.startswith("C-E")} and not {k for k in cards if k.startswith("C-E")}
    assert cards == {k: v for k, v in built_in.items() if not k.startswith("C-E")}
    # The report's account of the copy: what differs from the built-in file its name says.
    out = tmp_path / "s"
    run_sweep(config("easter", str(copies["dearer"]), games=4), out, jobs=1)
    m = json.loads((out / store.MANIFEST).read_text())
    (entry,) = custom_differences(m)
    assert (
        entry["kind"] == "expansion" and entry["based_on"] == "easter" and entry["based_on_source"] == "name"
    )
    assert [d["text"] for d in entry["differences"]] == ["points: 5,10,20,35 -> 6,12,25,40"]


def test_an_expansion_s_own_table_counts_a_copy_apart(tmp_path):
    copy = tmp_path / "z.toml"
    copy.write_text((DATA_DIR / "expansions" / "zombies.toml").read_text() + "\n# a copy\n")
    out = tmp_path / "s"
    run_sweep(config("none", "zombies", str(copy), games=6), out, jobs=1)
    outcomes = expansion_outcomes(store.scan(out), "zombies", ["expansion"])
    assert sorted(outcomes["expansion"].to_list()) == sorted(["zombies", f"zombies.{h8(copy)}"])
    assert (outcomes["player_games"] == 6).all()
