"""A designer's own plan set and deck as files, `sheet show`, and how a custom file differs from the
built-in it was copied from (issue 17)."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from conftest import DATA as TEST_DATA
from rowgrid import cells, digest
from typer.testing import CliRunner

from welcome_sim.analysis.custom import custom_differences
from welcome_sim.cli import app
from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.engine.game import check_mode_players, game_seeds, simulate
from welcome_sim.simcore.ground.datafiles import DATA_DIR, load_deck, load_plans, load_sheet
from welcome_sim.simcore.rules.ruleset import load_ruleset
from welcome_sim.sweep import store
from welcome_sim.sweep.config import SweepConfig, load_toml
from welcome_sim.sweep.run import run_sweep
from welcome_sim.verify import check_batch

DECK = (DATA_DIR / "decks" / "collector.toml").read_text()
PLANS = (DATA_DIR / "plans" / "collector_standard.toml").read_text()
SHEET = (DATA_DIR / "sheets" / "classic.toml").read_text()


def own_deck(text: str = DECK) -> str:
    """The Collector's deck with one 7 moved from extension to temp (totals no longer hold)."""
    text = text.replace('name = "collector"', 'name = "my_deck"\nbased_on = "collector"')
    text = re.sub(r"^(number|action)_totals = .*$", "", text, flags=re.M)
    return text.replace("7 = [1, 1, 1, 1, 1, 1]", "7 = [1, 1, 1, 1, 2, 0]")


def own_plans(text: str = PLANS) -> str:
    """The Collector's standard plans with A-3 scoring 9 instead of 8 when first."""
    text = text.replace('name = "collector_standard"', 'name = "my_plans"')
    at = text.index('id = "A-3"')
    first = text.index("first = 8", at)
    return text[:first] + "first = 9" + text[first + len("first = 8") :]


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    paths = {"deck": tmp_path / "my_deck.toml", "plans": tmp_path / "my_plans.toml"}
    paths["deck"].write_text(own_deck())
    paths["plans"].write_text(own_plans())
    return paths


def h8(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:8]


def cli(*args: str):
    return CliRunner().invoke(app, list(args))


# --- loading and the kernel ------------------------------------------------------------------------


def test_own_files_load_with_labels_and_based_on(files):
    rs = load_ruleset("collector", plans=str(files["plans"]), deck=str(files["deck"]))
    assert rs.deck_label == f"my_deck.{h8(files['deck'])}"
    assert rs.plans_label == f"my_plans.{h8(files['plans'])}"
    assert rs.sheet_label == "classic"
    assert load_deck(str(files["deck"])).based_on == "collector"
    assert load_plans(str(files["plans"])).based_on == ""
    assert sorted(rs.deck.cards).count((7, 4)) == 2 and (7, 5) not in rs.deck.cards
    assert next(p for p in rs.plans.plans if p.id == "A-3").first == 9
    # The describe() line every play, tournament and skill header prints carries both labels.
    assert f"deck my_deck.{h8(files['deck'])} (" in rs.describe()
    assert f"plans my_plans.{h8(files['plans'])} (" in rs.describe()
    builtin = load_ruleset("collector")
    assert (builtin.deck_label, builtin.plans_label) == ("collector", "collector_standard")
    assert "my_" not in builtin.describe() and "." not in builtin.deck_label


@pytest.mark.parametrize(
    ("mode", "players"), [("standard", 2), ("advanced", 1), ("expert", 3), ("solo", 1), ("solo-advanced", 1)]
)
def test_own_deck_and_plans_are_what_kernel_and_referee_play(files, mode, players):
    """The kernel deals the file's cards and scores its plans, and the referee, reading the files on
    its own, agrees with every move and score; the games differ from the built-in files' games."""
    own = load_ruleset("collector", plans=str(files["plans"]), mode=mode, deck=str(files["deck"]))
    base = load_ruleset("collector", mode=mode)
    seeds = game_seeds(31, 12)
    res = simulate(own, seeds, players, ["greedy"], log=True)
    assert check_batch(res) == []
    other = simulate(base, seeds, players, ["greedy"], log=True)
    assert not np.array_equal(res.log, other.log)


def test_naming_the_built_in_deck_and_plans_gives_the_recorded_games():
    """The editions' own files named explicitly play exactly the games recorded before this
    feature (tests/data/rows_checksum.json, the kernel's fingerprint grid)."""
    record = json.loads((TEST_DATA / "rows_checksum.json").read_text())
    picked = [c for c in cells() if c[0].endswith(("/1p/greedy", "/2p/greedy", "/4p/random", "/2p/mixed"))]
    picked = [c for c in picked if "/none/" in c[0] or "/easter/" in c[0]]
    assert len(picked) >= 20
    for key, opts, strategies, players in picked:
        edition = opts["edition"]
        named = opts | {"deck": edition, "plans": f"{edition}_standard"}
        assert digest(key, named, strategies, players) == record[key], key


def test_play_with_and_without_naming_the_built_ins_is_identical():
    for seed in (1, 7):
        plain = cli("play", "--seed", str(seed), "--players", "2")
        named = cli(
            "play",
            "--seed",
            str(seed),
            "--players",
            "2",
            "--deck",
            "collector",
            "--plans-file",
            "collector_standard",
        )
        assert plain.exit_code == 0 and plain.stdout == named.stdout


def test_play_header_names_own_files_with_their_hash(files):
    res = cli("play", "--seed", "3", "--deck", str(files["deck"]), "--plans-file", str(files["plans"]))
    assert res.exit_code == 0, res.output
    header = res.stdout.splitlines()[0]
    assert f"deck my_deck.{h8(files['deck'])} (Collector's Edition, 63 cards)" in header
    assert f"plans my_plans.{h8(files['plans'])} (" in header
    assert "referee: every move legal" in res.stdout
    # Both files are copies of reconstructed files and say so.
    notice = next(ln for ln in res.stdout.splitlines() if ln.startswith("note:"))
    assert str(files["deck"]) in notice and str(files["plans"]) in notice


def test_bench_tournament_and_skill_titles_carry_the_labels(files):
    label = f"my_deck.{h8(files['deck'])}"
    own = ["--deck", str(files["deck"]), "--plans-file", str(files["plans"])]
    bench = cli("bench", "--games", "20", "--repeat", "1", "-p", "1", "-s", "random", *own)
    assert bench.exit_code == 0, bench.output
    # A title may wrap at the terminal's width: compare with the line breaks taken out.
    assert f"own files: deck {label}, plans my_plans.{h8(files['plans'])}" in " ".join(bench.stdout.split())
    tour = cli("tournament", "--games", "4", "-s", "random", "-s", "spread", "--jobs", "1", *own)
    assert tour.exit_code == 0, tour.output
    assert f"deck {label} (" in " ".join(tour.stdout.split())
    skill = cli("skill", "--games", "4", "-l", "random", "-l", "spread", "--jobs", "1", *own)
    assert skill.exit_code == 0, skill.output
    assert f"deck {label} (" in " ".join(skill.stdout.split())
    plain = cli("bench", "--games", "20", "--repeat", "1", "-p", "1", "-s", "random")
    assert "own files" not in plain.stdout


# --- what the kernel cannot play is refused ------------------------------------------------------------


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def small_deck(numbers: range) -> str:
    head = DECK.split("[counts]")[0]
    head = re.sub(r"^(number|action)_totals = .*$", "", head, flags=re.M)
    return head + "[counts]\n" + "".join(f"{n} = [1, 1, 1, 0, 0, 0]\n" for n in numbers)


def test_an_aaa_deck_that_runs_dry_is_refused(tmp_path):
    path = write(tmp_path, "small.toml", small_deck(range(1, 13)))  # 36 cards
    assert len(load_deck(path).cards) == 36
    load_ruleset("collector", deck=path)  # three stacks: any multiple of three plays
    with pytest.raises(WelcomeSimError, match=r"small\.toml: key 'counts': 36 cards; .*needs at least 38"):
        load_ruleset("collector", mode="solo", deck=path)


def test_an_expert_deck_needs_three_cards_per_architect(tmp_path):
    path = write(tmp_path, "six.toml", small_deck(range(1, 3)))  # 6 cards
    rs = load_ruleset("collector", mode="expert", deck=path)
    check_mode_players(rs, 2)
    with pytest.raises(
        WelcomeSimError, match=r"--players: .* 3 players need at least 9 cards; the deck .*six\.toml has 6"
    ):
        check_mode_players(rs, 3)
    res = cli(
        "sweep",
        "--games",
        "2",
        "--mode",
        "expert",
        "--players",
        "2-3",
        "--deck",
        path,
        "--out",
        str(tmp_path / "s"),
    )
    assert res.exit_code == 2 and "need at least 9 cards" in res.stderr
    assert not (tmp_path / "s").exists()


@pytest.mark.parametrize(
    ("edit", "load", "message"),
    [
        (
            lambda t: t.replace('letters = ["A", "B", "C"]', 'letters = ["X", "B", "C"]').replace(
                'letter = "A"', 'letter = "X"'
            ),
            dict(mode="solo"),
            r"key 'letters': \['X', 'B', 'C'\], but the AAA validation cards name .*\['A', 'B', 'C'\]",
        ),
        (
            lambda t: t.replace('letters = ["A", "B", "C"]', 'letters = ["X", "B", "C"]').replace(
                'letter = "A"', 'letter = "X"'
            ),
            dict(mode="advanced"),
            r"key 'letters': .* mixes in the .*advanced plans",
        ),
        (
            lambda t: t.replace('letters = ["A", "B", "C"]', 'letters = ["X", "B", "C"]').replace(
                'letter = "A"', 'letter = "X"'
            ),
            dict(expansion="easter"),
            r"key 'letters': .* Easter Egg Hunt's plans name",
        ),
        (
            # A letter the expansion's Plan C does not find: refused before its cards join.
            lambda t: t.replace('letters = ["A", "B", "C"]', 'letters = ["A", "B", "D"]').replace(
                'letter = "C"', 'letter = "D"'
            ),
            dict(expansion="icecream"),
            r"key 'letters': \['A', 'B', 'D'\], but the Ice Cream Truck's plans name",
        ),
        (
            lambda t: t.replace('letters = ["A", "B", "C"]', 'letters = ["A", "B", "C"]\nadvanced = true'),
            {},
            "advanced plans",
        ),
        (
            lambda t: t.replace('id = "A-7"', 'id = "A-adv-1"'),
            dict(mode="advanced"),
            "plan id 'A-adv-1' names two cards",
        ),
        (
            lambda t: t.replace("estates = [2, 3]", "estates = [" + ", ".join(["1"] * 17) + "]"),
            {},
            "at most 16",
        ),
    ],
)
def test_plan_sets_the_kernel_cannot_play_are_refused(tmp_path, edit, load, message):
    path = write(tmp_path, "mine.toml", edit(own_plans()))
    with pytest.raises(WelcomeSimError, match=message):
        load_ruleset("collector", plans=path, **load)


def test_other_letters_play_where_nothing_names_them(tmp_path):
    text = (
        own_plans()
        .replace('letters = ["A", "B", "C"]', 'letters = ["X", "B", "C"]')
        .replace('letter = "A"', 'letter = "X"')
    )
    rs = load_ruleset("collector", plans=write(tmp_path, "x.toml", text))
    res = simulate(rs, game_seeds(2, 6), 2, ["greedy"], log=True)
    assert check_batch(res) == []


# --- sweeps: labels in rows, the manifest, resume -----------------------------------------------------


def sweep_config(files: dict[str, Path], **more) -> SweepConfig:
    return SweepConfig(
        games=12,
        seed=3,
        strategies=["random"],
        decks=[str(files["deck"]), ""],
        plans_files=[str(files["plans"])],
        **more,
    )


def test_sweep_rows_and_manifest_carry_own_files(files, tmp_path):
    out = tmp_path / "s"
    run_sweep(sweep_config(files), out, jobs=1, chunk_size=5)
    df = store.scan(out).collect()
    deck_label, plans_label = f"my_deck.{h8(files['deck'])}", f"my_plans.{h8(files['plans'])}"
    assert sorted(df["deck"].unique().to_list()) == sorted([deck_label, "collector"])
    assert df["plan_set"].unique().to_list() == [plans_label]
    m = json.loads((out / store.MANIFEST).read_text())
    recorded = {f["path"]: f for f in m["data_files"]}
    for kind, path in (("deck", files["deck"]), ("plans", files["plans"])):
        f = recorded[str(path)]
        assert f["kind"] == kind and f["provenance"] == "reconstructed"
        assert f["sha256"] == store.file_digest(str(path))
    assert recorded["data/decks/collector.toml"]["kind"] == "deck"
    assert [c["deck_name"] for c in m["cells"]] == [deck_label, "collector"]
    assert {c["plan_set_name"] for c in m["cells"]} == {plans_label}
    assert m["config"]["decks"] == [str(files["deck"]), ""]
    # The two decks played the same seeds, and their games differ.
    by = df.sort("cell", "game").partition_by("deck", as_dict=True)
    own, base = by[(deck_label,)], by[("collector",)]
    assert own["seed"].to_list() == base["seed"].to_list()
    assert own["total"].to_list() != base["total"].to_list()


@pytest.mark.parametrize("which", ["deck", "plans"])
def test_a_changed_file_refuses_resume(files, tmp_path, which):
    out = tmp_path / "s"
    run_sweep(sweep_config(files), out, jobs=1, chunk_size=5)
    before = store.scan(out).collect().sort("cell", "game")
    old = store.file_digest(str(files[which]))
    files[which].write_text(files[which].read_text() + "\n# changed\n")
    msg = rf"{re.escape(str(files[which]))}: this data file changed since the sweep in .* started \(sha256 {old[:12]}"
    with pytest.raises(WelcomeSimError, match=msg):
        run_sweep(sweep_config(files), out, jobs=1, resume=True)
    assert store.scan(out).collect().sort("cell", "game").equals(before)


@pytest.mark.parametrize(("which", "what"), [("deck", "deck"), ("plans", "plan set")])
def test_a_file_changed_while_the_sweep_runs_stops_the_chunk(files, tmp_path, which, what):
    from welcome_sim.sweep.run import plan_sweep, play_chunk

    tasks, _, _ = plan_sweep(sweep_config(files), tmp_path / "s", None, False)
    files[which].write_text(files[which].read_text() + "\n# changed\n")
    # Its rows would carry the planned content's label and be played with other data.
    with pytest.raises(WelcomeSimError, match=rf"the {what} file changed while the sweep ran"):
        play_chunk(tasks[0])


def test_a_sweep_of_the_editions_own_files_keeps_its_identity():
    cfg = SweepConfig()
    assert "decks" not in cfg.identity() and "plans_files" not in cfg.identity()
    assert cfg.digest() == SweepConfig(decks=[""], plans_files=[""]).digest()
    assert SweepConfig(decks=["collector"]).digest() != cfg.digest()


def test_sweep_rows_equal_with_and_without_naming_the_built_ins(tmp_path):
    plain = SweepConfig(games=10, seed=5, players=[1, 3], strategies=["random"])
    named = SweepConfig(
        games=10,
        seed=5,
        players=[1, 3],
        strategies=["random"],
        decks=["collector"],
        plans_files=["collector_standard"],
    )
    run_sweep(plain, tmp_path / "a", jobs=1)
    run_sweep(named, tmp_path / "b", jobs=1)
    a = store.scan(tmp_path / "a").collect().sort("cell", "game", "seat")
    b = store.scan(tmp_path / "b").collect().sort("cell", "game", "seat")
    assert a.height == 40 and a.equals(b)
    assert a["deck"].unique().to_list() == ["collector"]


def test_sweep_cli_and_toml_config_take_deck_and_plans_file(files, tmp_path):
    config = tmp_path / "sweep.toml"
    config.write_text(
        f'games = 4\nstrategy = "random"\ndeck = "{files["deck"]}"\nplans_file = ["{files["plans"]}"]\n'
    )
    assert load_toml(str(config))["deck"] == [str(files["deck"])]
    res = cli("sweep", "--config", str(config), "--jobs", "1", "--out", str(tmp_path / "s"))
    assert res.exit_code == 0, res.output
    assert f"my_deck.{h8(files['deck'])}" in res.stdout
    df = store.scan(tmp_path / "s").collect()
    assert df["plan_set"].unique().to_list() == [f"my_plans.{h8(files['plans'])}"]


def test_plan_texts_of_an_own_plan_set_are_never_a_built_in_cards(files, tmp_path):
    from welcome_sim.analysis.load import combined, open_runs
    from welcome_sim.analysis.tables import balance_tables

    run_sweep(sweep_config(files), tmp_path / "s", jobs=1)
    lf = combined(open_runs([str(tmp_path / "s")]))
    plans = balance_tables(lf)["plan_difficulty"]
    a3 = plans.filter(pl.col("plan") == "A-3")
    assert a3.height and set(a3["requirement"].to_list()) == {"(unknown plan)"}


def test_an_own_plan_file_in_a_local_data_folder_is_not_taken_for_a_shipped_one(tmp_path, monkeypatch):
    from welcome_sim.analysis.plans import changed_plan_files, own_files

    monkeypatch.chdir(tmp_path)
    (tmp_path / "data" / "plans").mkdir(parents=True)
    (tmp_path / "data" / "plans" / "mine.toml").write_text(own_plans())
    out = tmp_path / "s"
    run_sweep(
        SweepConfig(games=4, seed=3, strategies=["random"], plans_files=["data/plans/mine.toml"]), out, jobs=1
    )
    m = json.loads((out / store.MANIFEST).read_text())
    label = f"my_plans.{h8(tmp_path / 'data' / 'plans' / 'mine.toml')}"
    assert own_files([m]) == ((label, "data/plans/mine.toml"),)
    assert changed_plan_files(m) == []  # unchanged: not compared with a shipped file of that path
    (tmp_path / "data" / "plans" / "mine.toml").write_text(own_plans() + "\n# edited\n")
    assert changed_plan_files(m) == ["data/plans/mine.toml"] and own_files([m]) == ()


def test_plan_texts_of_an_own_plan_set_come_from_its_file_while_it_is_unchanged(tmp_path):
    """A designer's own cards are described in analyze and the report from the file the sweep's
    manifest names, as long as it holds the bytes the sweep played (else: unknown, never guessed)."""
    from welcome_sim.analysis.load import combined, open_runs
    from welcome_sim.analysis.plans import own_files
    from welcome_sim.analysis.tables import balance_tables

    path = tmp_path / "my_plans.toml"
    text = own_plans()
    at = text.index('id = "A-3"')
    estates = text.index("estates = [3, 3, 3]", at)
    path.write_text(text[:estates] + "estates = [4, 4]" + text[estates + len("estates = [3, 3, 3]") :])
    out = tmp_path / "s"
    run_sweep(SweepConfig(games=40, seed=3, strategies=["random"], plans_files=[str(path)]), out, jobs=1)
    runs = open_runs([str(out)])
    files = own_files(r.manifest for r in runs)
    assert files == ((f"my_plans.{h8(path)}", str(path)),)
    plans = balance_tables(combined(runs), files=files)["plan_difficulty"]
    a3 = plans.filter(pl.col("plan") == "A-3")
    assert a3.height and set(a3["requirement"].to_list()) == {"2 estates of size 4"}
    assert "(unknown plan)" not in plans["requirement"].to_list()
    res = cli("analyze", str(out), "--full")
    assert res.exit_code == 0, res.output
    assert "2 estates of size 4" in res.stdout and "(unknown plan)" not in res.stdout
    from welcome_sim.reports.builder import build_report

    build_report([str(out)], tmp_path / "r.html")
    page = (tmp_path / "r.html").read_text()
    assert "2 estates of size 4" in page and "(unknown plan)" not in page
    path.write_text(text)  # edited since the sweep: its cards are no longer the ones played
    assert own_files(r.manifest for r in runs) == ()
    res = cli("analyze", str(out), "--full")
    assert "2 estates of size 4" not in res.stdout and "(unknown plan)" in res.stdout


# --- sheet show ------------------------------------------------------------------------------------------


def test_sheet_show_classic():
    res = cli("sheet", "show", "classic")
    assert res.exit_code == 0, res.output
    out = res.stdout
    sha = hashlib.sha256((DATA_DIR / "sheets" / "classic.toml").read_bytes()).hexdigest()
    assert out.splitlines()[0] == "sheet classic: Classic; provenance published"
    assert f"file: data/sheets/classic.toml (built-in); sha256 {sha}" in out
    streets = [ln for ln in out.splitlines() if ln.startswith("street ")]
    assert len(streets) == 3
    # Street 1: 10 houses, pools at houses 3, 7 and 8 (the file's `pools = [3, 7, 8]`, counted from 1).
    assert streets[0].count(".") == 10 and streets[0].count(".o") == 3
    assert "10 houses; pools at houses 3, 7, 8" in streets[0]
    assert re.search(r"parks, street 2: +0 2 4 6 14$", out, re.M)
    assert re.search(r"pools: +0 3 6 9 13 17 21 26 31 36$", out, re.M)
    assert re.search(r"temps: +11 boxes; most temps scores 7 \(1st\), 4 \(2nd\), 1 \(3rd\)$", out, re.M)
    assert re.search(r"estates of 6: +6 7 8 10 12$", out, re.M)
    assert re.search(r"bis \(extensions\) penalty: +0 1 3 6 9 12 16 20 24 28$", out, re.M)
    assert re.search(r"refusals penalty: +0 0 3 5 ", out, re.M)
    assert re.search(r"roundabouts penalty: +0 3 8 ", out, re.M)


def test_sheet_show_path_labels_a_sheet_of_ones_own(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(
        SHEET.replace('name = "classic"', 'name = "mine"\nbased_on = "classic"').replace(
            "parks = [0, 2, 4, 6, 14]", "parks = [0, 2, 4, 6, 16]"
        )
    )
    res = cli("sheet", "show", str(path))
    assert res.exit_code == 0, res.output
    assert res.stdout.startswith(f"sheet mine.{h8(path)}: Classic; provenance published")
    assert "(a file of one's own)" in res.stdout and "based on: the built-in sheet classic" in res.stdout
    assert re.search(r"parks, street 2: +0 2 4 6 16$", res.stdout, re.M)
    blueprint = cli("sheet", "show", "blueprint").stdout
    assert "provenance reconstructed" in blueprint or "provenance published" in blueprint
    assert "12 houses; pools at houses 3, 6, 10, 12" in blueprint


def test_sheet_show_american_dream_draws_its_columns_and_families():
    import tomllib

    res = cli("sheet", "show", "american_dream")
    assert res.exit_code == 0, res.output
    with (DATA_DIR / "expansions" / "american-dream.toml").open("rb") as fh:
        x = tomllib.load(fh)
    letter = {"fence": "F", "improvement": "I", "park": "K", "pool": "P", "temp": "T", "extension": "E"}
    assert "columns and families: data/expansions/american-dream.toml; provenance reconstructed" in res.stdout
    lines = res.stdout.splitlines()
    header = next(ln for ln in lines if ln.lstrip().startswith("c1"))
    streets = [ln for ln in lines if ln.startswith("street ")]
    assert len(streets) == len(x["houses"]) == 5
    for s, (row, off) in enumerate(zip(x["houses"], x["column_offsets"], strict=True)):
        line = streets[s]
        # Each house sits under its column's label: column of house h = h + offset.
        left = line.index("|")
        for h, colour in enumerate(row):
            at = left + 3 + 5 * h
            assert line[at] == letter[x["families"][colour]], (s, h, line)
            assert header[at - 1 : at + 1] == f"c{h + off + 1}", (s, h, header)  # 8 columns: one digit
        assert f"{len(row)} houses, columns {off + 1}-{off + len(row)}" in line


def test_sheet_show_of_a_copy_with_other_streets_draws_it_without_columns(tmp_path):
    text = (DATA_DIR / "sheets" / "american_dream.toml").read_text()
    path = tmp_path / "longer.toml"
    path.write_text(
        text.replace('name = "american_dream"', 'name = "longer"', 1).replace("houses = 6", "houses = 9", 1)
    )
    res = cli("sheet", "show", str(path))
    assert res.exit_code == 0, res.output
    assert "columns are laid out for its own sheet, not this one's streets" in res.stdout
    assert "columns and families:" not in res.stdout  # nothing of the expansion's file is drawn
    assert "9 houses; pools at houses none" in res.stdout


@pytest.mark.parametrize(
    ("arg", "needle"),
    [("nope", "unknown sheet 'nope'; valid: american_dream, blueprint, classic"), ("", "empty value")],
)
def test_sheet_show_bad_name_is_one_line(arg, needle):
    res = cli("sheet", "show", arg)
    assert res.exit_code == 2
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0]


# --- custom_differences ------------------------------------------------------------------------------------


def manifest_of(*entries: tuple[str, str, Path]) -> dict:
    files = [{"kind": "sheet", "name": "classic", "path": "data/sheets/classic.toml", "sha256": "x"}]
    for kind, name, path in entries:
        files.append({"kind": kind, "name": name, "path": str(path), "provenance": "published",
                      "sha256": store.file_digest(str(path))})  # fmt: skip
    return {"data_files": files}


def test_custom_differences_of_a_sheet_with_one_changed_track_value(tmp_path):
    with_key = tmp_path / "a.toml"
    with_key.write_text(
        SHEET.replace('name = "classic"', 'name = "a"\nbased_on = "classic"').replace(
            "parks = [0, 2, 4, 6, 14]", "parks = [0, 2, 4, 6, 16]"
        )
    )
    nearest = tmp_path / "b.toml"
    nearest.write_text(SHEET.replace('name = "classic"', 'name = "b"').replace("boxes = 11", "boxes = 12"))
    got = custom_differences(manifest_of(("sheet", "a", with_key), ("sheet", "b", nearest)))
    assert [e["status"] for e in got] == ["compared", "compared"]  # the built-in classic is left out
    a, b = got
    assert (a["based_on"], a["based_on_source"]) == ("classic", "based_on")
    assert a["label"] == f"a.{h8(with_key)}"
    assert a["differences"] == [
        {
            "key": "parks track street 2",
            "built_in": "0,2,4,6,14",
            "custom": "0,2,4,6,16",
            "text": "parks track street 2: 0,2,4,6,14 -> 0,2,4,6,16",
        }
    ]
    assert (b["based_on"], b["based_on_source"]) == ("classic", "nearest")
    assert [d["text"] for d in b["differences"]] == ["temps boxes: 11 -> 12"]


def test_custom_differences_of_a_deck_and_a_plan_set(files):
    got = custom_differences(
        manifest_of(("deck", "my_deck", files["deck"]), ("plans", "my_plans", files["plans"]))
    )
    deck, plans = got
    assert deck["based_on"] == "collector" and [d["text"] for d in deck["differences"]] == [
        "cards 7 temp: 1 -> 2",
        "cards 7 extension: 1 -> 0",
    ]
    assert (plans["based_on"], plans["based_on_source"]) == ("collector_standard", "nearest")
    assert [d["text"] for d in plans["differences"]] == ["plan A-3 first: 8 -> 9"]


def test_custom_differences_never_compare_a_file_changed_since_or_gone(files, tmp_path):
    manifest = manifest_of(("deck", "my_deck", files["deck"]), ("plans", "my_plans", files["plans"]))
    files["deck"].write_text(own_deck().replace("7 = [1, 1, 1, 1, 2, 0]", "7 = [1, 1, 1, 1, 0, 2]"))
    files["plans"].unlink()
    deck, plans = custom_differences(manifest)
    assert deck["status"] == "changed" and deck["differences"] == [] and deck["based_on"] is None
    assert "changed since the sweep" in deck["message"] and str(files["deck"]) in deck["message"]
    assert plans["status"] == "missing" and plans["differences"] == []
    assert "file not found" in plans["message"]


def test_custom_differences_on_a_real_sweeps_manifest(files, tmp_path):
    run_sweep(sweep_config(files), tmp_path / "s", jobs=1)
    manifest = json.loads((tmp_path / "s" / store.MANIFEST).read_text())
    got = {e["kind"]: e for e in custom_differences(manifest)}
    assert set(got) == {"deck", "plans"}
    assert got["deck"]["label"] == f"my_deck.{h8(files['deck'])}"
    assert len(got["plans"]["differences"]) == 1


def test_based_on_must_name_a_built_in_of_the_same_kind(tmp_path):
    path = write(tmp_path, "s.toml", SHEET.replace('name = "classic"', 'name = "s"\nbased_on = "collector"'))
    with pytest.raises(
        WelcomeSimError,
        match=r"s\.toml: key 'based_on': 'collector' is not a built-in sheet; valid: american_dream, blueprint, classic",
    ):
        load_sheet(path)
