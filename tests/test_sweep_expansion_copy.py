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
from welcome_sim.analysis.difficulty import (
    REPLACES_NOTE,
    expansion_rating,
    from_sweep,
    per_deal,
    replaces_scoring,
)
from welcome_sim.analysis.labels import expansion_title
from welcome_sim.analysis.plans import own_files, plan_cards
from welcome_sim.analysis.tables import BASELINE, expansion_outcomes
from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.ground.datafiles import DATA_DIR
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
    out = tmp_path / "s"
    cfg = SweepConfig(games=40, seed=3, expansions=["none", "american-dream", str(copy)])
    cfg.sheets = default_sheets(cfg.expansions)
    run_sweep(cfg, out, jobs=1)
    df = store.scan(out).collect()
    copy_rows = df.filter(pl.col("expansion") == label)
    # Its own plan cards replace every plan set: the rows name them by the copy's label too.
    assert copy_rows.height == 40 and copy_rows["plan_set"].unique().to_list() == [label]
    assert copy_rows["sheet"].unique().to_list() == ["american_dream"]
    # Its points replace the base game's scoring, like the built-in's: never netted out.
    assert replaces_scoring(label) and replaces_scoring("american-dream")
    deals = per_deal(copy_rows.with_columns(item=pl.lit("x"), level=pl.lit("g")))
    assert deals["net_score"].to_list() == copy_rows.sort("seed")["total"].cast(pl.Float64).to_list()
    # Compared apart against the base game as the built-in is (issue 38: its points replace the
    # base game's scoring, so it is never ranked on them), with no stars but the same note.
    ranking = from_sweep(store.scan(out), ["sheet", "expansion", "plan_set", "table"], dict(BASELINE))
    assert ranking.rows == []
    rows = {r.item.label: r for r in ranking.apart}
    mine = next(r for k, r in rows.items() if label in k)
    built_in = next(r for k, r in rows.items() if label not in k)
    assert mine.item.stars is None and built_in.item.stars is not None
    assert REPLACES_NOTE in mine.item.note and REPLACES_NOTE in built_in.item.note
    assert mine.item.base == built_in.item.base
    # Its plan cards are read from the copy while it holds what the sweep played.
    m = json.loads((out / store.MANIFEST).read_text())
    files = own_files([m])
    assert files == ((label, str(copy)),)
    cards = plan_cards("collector", "standard", label, label, files)
    assert cards and cards == plan_cards("collector", "standard", "american-dream", "american-dream")
    assert plan_cards("collector", "standard", label, label) == {}  # the file not named: unknown


def test_a_copy_edited_between_two_sweeps_of_one_process_plays_its_new_values(copies, tmp_path):
    path = copies["dearer"]
    run_sweep(config(str(path)), tmp_path / "a", jobs=1)
    newer = EASTER.replace("points = [5, 10, 20, 35]", "points = [9, 18, 30, 45]", 1)
    path.write_text(newer)
    run_sweep(config(str(path)), tmp_path / "b", jobs=1)
    fresh = tmp_path / "fresh.toml"  # the same content at a path never loaded before
    fresh.write_text(newer)
    run_sweep(config(str(fresh)), tmp_path / "c", jobs=1)
    cols = ["seed", "expansion", "expansion_points", "total"]
    b = store.scan(tmp_path / "b").collect().sort("seed").select(cols)
    c = store.scan(tmp_path / "c").collect().sort("seed").select(cols)
    assert b.equals(c) and b["expansion"][0] == f"easter.{h8(path)}"
    a = store.scan(tmp_path / "a").collect().sort("seed")
    assert a["expansion_points"].sum() < b["expansion_points"].sum()
    # An item keeps the label of the bytes it was loaded from, whatever the file holds since.
    from welcome_sim.simcore.rules.expansions import load_expansion
    from welcome_sim.simcore.rules.ruleset import data_label

    loaded = load_expansion(str(path))
    path.write_text(EASTER)
    assert data_label(loaded) == b["expansion"][0] != data_label(load_expansion(str(path)))


def test_first_edition_cards_a_copy_may_bring_are_not_described_as_the_built_in(copies):
    label = f"easter.{h8(copies['dearer'])}"
    cards = plan_cards("first", "standard", label, "first_standard")
    built_in = plan_cards("first", "standard", "easter", "first_standard")
    from welcome_sim.simcore.rules.expansions import load_expansion

    letters = {p.letter for p in load_expansion("easter", "first").plans.plans}
    assert letters and {k for k, v in built_in.items() if v.letter in letters}
    assert cards and cards == {k: v for k, v in built_in.items() if v.letter not in letters}


def test_the_report_names_a_reconstructed_copy_by_its_label():
    from welcome_sim.reports.builder import _reconstructed_for

    sha = "1a2b3c4d" + "0" * 8
    files = [
        {
            "kind": "expansion",
            "name": "easter",
            "path": "data/expansions/easter.toml",
            "provenance": "reconstructed",
            "sha256": "f" * 16,
        },
        {
            "kind": "expansion",
            "name": "easter",
            "path": "/x/mine.toml",
            "provenance": "reconstructed",
            "sha256": sha,
        },
        {
            "kind": "sheet",
            "name": "classic",
            "path": "/x/sheet.toml",
            "provenance": "reconstructed",
            "sha256": sha,
        },
    ]
    only_copy = pl.DataFrame({"expansion": ["easter.1a2b3c4d"], "sheet": ["classic.1a2b3c4d"]})
    assert _reconstructed_for(only_copy, files) == ["easter.1a2b3c4d expansion", "classic.1a2b3c4d sheet"]
    only_built_in = pl.DataFrame({"expansion": ["easter"], "sheet": ["classic"]})
    assert _reconstructed_for(only_built_in, files) == ["easter expansion"]


def test_analysis_reads_a_copy_as_one_s_own_file(copies, tmp_path):
    label = f"easter.{h8(copies['dearer'])}"
    # Never passes for the built-in: the title shows the label, no publisher's stars.
    assert expansion_title(label) == f"{label} (Easter Egg Hunt)"
    assert expansion_rating(label) == (None, "")  # no stars, and Easter's points add to the scoring
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
    # Named by the manifest and unchanged since: the copy's own Plan C cards are read from it.
    files = own_files([m])
    assert files == ((label, str(copies["dearer"])),)
    assert plan_cards("collector", "standard", label, "collector_standard", files) == built_in
    copies["dearer"].write_text(EASTER)  # edited since the sweep: its cards are unknown again
    assert own_files([m]) == ()


def test_a_copy_s_own_plan_c_cards_are_read_from_the_copy(tmp_path):
    at = EASTER.index('id = "C-E1"')
    assert "estates = [3, 3]" in EASTER[at : at + 300]
    copy = tmp_path / "eggs.toml"
    copy.write_text(EASTER[:at] + EASTER[at:].replace("estates = [3, 3]", "estates = [4, 4]", 1))
    label = f"easter.{h8(copy)}"
    out = tmp_path / "s"
    run_sweep(config(str(copy), games=4), out, jobs=1)
    m = json.loads((out / store.MANIFEST).read_text())
    files = own_files([m])
    mine = plan_cards("collector", "standard", label, "collector_standard", files)
    built_in = plan_cards("collector", "standard", "easter", "collector_standard")
    assert mine["C-E1"].estates == (4, 4) != built_in["C-E1"].estates
    assert {k: v for k, v in mine.items() if k != "C-E1"} == {
        k: v for k, v in built_in.items() if k != "C-E1"
    }
    copy.write_text(EASTER)  # changed since the sweep: the copy's cards are not described at all
    assert not [
        k
        for k in plan_cards("collector", "standard", label, "collector_standard", own_files([m]))
        if k.startswith("C-E")
    ]


def test_an_expansion_s_own_table_counts_a_copy_apart(tmp_path):
    copy = tmp_path / "z.toml"
    copy.write_text((DATA_DIR / "expansions" / "zombies.toml").read_text() + "\n# a copy\n")
    out = tmp_path / "s"
    run_sweep(config("none", "zombies", str(copy), games=6), out, jobs=1)
    outcomes = expansion_outcomes(store.scan(out), "zombies", ["expansion"])
    assert sorted(outcomes["expansion"].to_list()) == sorted(["zombies", f"zombies.{h8(copy)}"])
    assert (outcomes["player_games"] == 6).all()
