"""Robust to reconstruction (issue 38): the variant files change only the reconstructed values they
say they vary, load through the normal loader and keep the rules text's constraints; the verdict
says "robust" or "depends on reconstructed X" on fixed synthetic input; the report shows the
shipped measurement as measured there."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from welcome_sim.analysis import difficulty as D
from welcome_sim.analysis import robustness as R
from welcome_sim.analysis import variants as V
from welcome_sim.analysis.difficulty_games import Spec
from welcome_sim.simcore.rules.expansions import load_expansion
from welcome_sim.simcore.rules.expansions.codes import EXPANSION_NAMES
from welcome_sim.simcore.rules.ruleset import load_ruleset


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    folder = tmp_path_factory.mktemp("variants")
    return {name: V.write_variants(name, folder) for name in EXPANSION_NAMES}


def _toml(path) -> dict:
    return tomllib.loads(Path(path).read_text(encoding="utf-8"))


def _zero(path) -> dict:
    """A file's data with its layout positions counted from 0, as the layouts are made."""
    return V.shift_positions(_toml(path), -1)


def test_every_expansion_has_its_variants(written):
    # Plan C x0.7 and x1.3 for all nine; two layouts where the layout is reconstructed (not Ice
    # Cream's published first-edition cones, not Christmas Lights, which has no marks).
    for name, vs in written.items():
        kinds = [v.kind for v in vs]
        assert kinds.count("plan_scores") == 2, name
        assert kinds.count("layout") == (0 if name in ("icecream", "christmas") else 2), name


def test_plan_variants_change_only_reconstructed_plan_c_scores(written):
    for name, vs in written.items():
        default = _toml(V.builtin_path(name))
        for v in (v for v in vs if v.kind == "plan_scores"):
            new = _toml(v.path)
            factor = float(v.name.split("x")[-1])
            assert {k: x for k, x in new.items() if k != "plans"} == {
                k: x for k, x in default.items() if k != "plans"
            }, v.path
            changed = 0
            for a, b in zip(default["plans"], new["plans"], strict=True):
                rest = {k: x for k, x in a.items() if k not in ("first", "later")}
                assert rest == {k: x for k, x in b.items() if k not in ("first", "later")}
                if a["letter"] == "C" and a["provenance"] == "reconstructed":
                    assert (b["first"], b["later"]) == V.scaled(a["first"], a["later"], factor)
                    assert b["first"] >= b["later"] >= 1
                    changed += (a["first"], a["later"]) != (b["first"], b["later"])
                else:
                    assert (a["first"], a["later"]) == (b["first"], b["later"])
            assert changed >= 1, v.path
            # The normal loader reads it, and the scores it plays are the file's.
            x = load_expansion(v.path)
            assert [p.first for p in x.plans.plans if p.letter == "C"] == [
                p["first"] for p in new["plans"] if p["letter"] == "C"
            ]


def test_scaled_rounds_half_up_and_keeps_the_order():
    assert V.scaled(12, 7, 0.7) == (8, 5)  # 8.4 -> 8, 4.9 -> 5
    assert V.scaled(10, 5, 1.3) == (13, 7)  # 6.5 -> 7 (half up)
    assert V.scaled(1, 1, 0.7) == (1, 1)  # never below 1
    assert V.scaled(3, 3, 0.5) == (2, 2)  # later never above first


def test_layout_variants_change_only_their_keys_and_keep_the_texts_constraints(written):
    """The constraints quote the rules text (Collector's expansion rules, 2023), e.g. Halloween "Number all 13 houses
    with a ghost and a candy", Quack "Circle the 2 yellow ducklings and the 3 black ducklings between
    the streets", Roswell "In 3 vertical columns of houses: at least 2 Zoorgs are infiltrated",
    Easter "In each street: collect 3 eggs of a different color"."""
    for name, vs in written.items():
        default = _toml(V.builtin_path(name))
        for v in (v for v in vs if v.kind == "layout"):
            new = _toml(v.path)
            assert set(v.keys) <= set(V.LAYOUT_KEYS[name]) and v.keys, v.path
            assert {k: x for k, x in new.items() if k not in v.keys} == {
                k: x for k, x in default.items() if k not in v.keys
            }, v.path
            assert all(new[k] != default[k] for k in v.keys), v.path
            checks = V.constraints(name, _zero(v.path), _zero(V.builtin_path(name)))
            assert checks and all(ok for _, ok in checks), [c for c, ok in checks if not ok]
            # Loaded as a game plays it: the expansion's own checks (compile_rows) pass too.
            rs = load_ruleset("collector", expansion=v.path)
            assert rs.expansion_label.startswith(f"{name}.")


def test_mirrored_layout_mirrors_each_street():
    default = _zero(V.builtin_path("halloween"))
    mirrored = V._mirror(default, V.street_houses(default))["marked"]
    assert [0, 9 - 1] in mirrored and [2, 11 - 0] in mirrored  # [0, 1] of 10 houses, [2, 0] of 12
    assert len(mirrored) == 13


def test_positions_are_shifted_from_the_files_count_and_back():
    # The files count from 1 (simcore/ground/positions.py), the layouts from 0: a round trip is the file.
    for name in ("halloween", "quack", "easter", "zombies"):
        raw = _toml(V.builtin_path(name))
        assert V.shift_positions(V.shift_positions(raw, -1), +1) == raw
    zero = _zero(V.builtin_path("quack"))
    assert min(s for s, *_ in zero["street_ducklings"]) == 0 and zero["parents"]["black"] == [0, 0]


def test_a_broken_constraint_is_named():
    default = _zero(V.builtin_path("halloween"))
    fewer = {**default, "marked": default["marked"][:12]}
    failed = [c for c, ok in V.constraints("halloween", fewer, default) if not ok]
    assert any("13 houses" in c for c in failed)


KINDS = {
    "Plan C x0.7": "plan_scores",
    "Plan C x1.3": "plan_scores",
    "layout mirrored": "layout",
    "layout random": "layout",
}


def test_verdict_robust_and_depends_on_synthetic_ranks():
    ranks = {"Plan C x0.7": 5, "Plan C x1.3": 6, "layout mirrored": 4, "layout random": 6}
    assert R.verdict(5, (4, 6), ranks, KINDS, "halloween") == "robust"
    moved = {**ranks, "layout random": 8}
    assert R.verdict(5, (4, 6), moved, KINDS, "halloween") == (
        "depends on reconstructed layout (ghost-and-candy houses): ranks 4-8 seen (default 5, interval 4-6)"
    )
    both = {**moved, "Plan C x0.7": 2}
    assert R.verdict(5, (4, 6), both, KINDS, "halloween").startswith(
        "depends on reconstructed Plan C scores and layout (ghost-and-candy houses): ranks 2-8"
    )


def _frame(label: str, rng, shift: float, deals: int = 300) -> pl.DataFrame:
    luck = rng.normal(0, 10, deals)
    parts = []
    for level, skill in (("casual", 0.0), ("expert", 10.0)):
        net = 80 + luck + shift + skill
        parts.append(
            pl.DataFrame(
                {
                    "item": label,
                    "level": level,
                    "deal": np.arange(deals),
                    **{m: (net if m in ("net_score", "score") else np.zeros(deals)) for m in D.MEASURES},
                }
            )
        )
    return pl.concat(parts)


def test_verdicts_from_a_fixed_synthetic_ranking(tmp_path):
    """Three items 8 points apart on the same deals; X's Plan C variant plays as X, its layout
    variant 20 points lower (the hardest): X is robust to its Plan C scores, not to its layout."""
    rng = np.random.default_rng(1)
    frames = [_frame("base", rng, 0.0)]
    rng = np.random.default_rng(1)  # the same luck for every item: paired deals
    for label, shift in (
        ("A", -8.0),
        ("X", -16.0),
        ("B", -24.0),
        ("X [Plan C x0.7]", -16.0),
        ("X [layout mirrored]", -40.0),
    ):
        rng = np.random.default_rng(1)
        frames.append(_frame(label, rng, shift))
    every = pl.concat(frames)
    items = [D.Item(k, "base", 1) for k in ("A", "X", "B")]
    ranking = D.rank(every, items, "casual", "expert", rounds=50)
    assert [r.item.label for r in ranking.rows] == ["B", "X", "A"]
    planned = [
        R.Planned(
            2,
            "X",
            V.Variant("halloween", "plan_scores", "Plan C x0.7", "", ("plans",), ""),
            Spec("X [Plan C x0.7]", 2),
        ),
        R.Planned(
            2,
            "X",
            V.Variant("halloween", "layout", "layout mirrored", "", ("marked",), ""),
            Spec("X [layout mirrored]", 2),
        ),
    ]
    out = R.verdicts_from(planned, every, {2: items}, {2: ranking}, ("casual", "expert"), 0)
    v = out[(2, "X")]
    assert v.rank == 2 and v.ranks == {"Plan C x0.7": 2, "layout mirrored": 1}
    assert v.text.startswith("depends on reconstructed layout (ghost-and-candy houses): ranks 1-2 seen")
    only_plans = R.verdicts_from(planned[:1], every, {2: items}, {2: ranking}, ("casual", "expert"), 0)
    assert only_plans[(2, "X")].text == "robust"


def test_the_shipped_measurement_states_where_it_was_measured():
    measured = R.load_measured()
    assert measured is not None, R.MEASURED
    for key in ("date", "command", "games", "players", "reference", "expert", "edition", "seed", "verdicts"):
        assert key in measured, key
    note = R.measured_note(measured)
    assert measured["date"] in note and measured["command"] in note
    assert "not a measurement on these runs" in note
    titles = {json.dumps(v["title"]) for v in measured["verdicts"]}
    assert len(titles) >= 8  # the nine expansions but the American Dream, compared apart


def test_measured_cells_and_the_report_column(tmp_path):
    measured = {
        "verdicts": [
            {"title": "Halloween", "players": 2, "verdict": "robust"},
            {
                "title": "Halloween",
                "players": 4,
                "verdict": "depends on reconstructed Plan C scores: ranks 3-6 seen",
            },
        ]
    }
    assert R.measured_cells(measured) == {
        "Halloween": "2 players: robust; 4 players: depends on reconstructed Plan C scores: ranks 3-6 seen"
    }
    from welcome_sim.reports.builder import _with_measured

    shown = pl.DataFrame(
        {"item": ["Halloween", "Halloween (3 players)", "“My Halloween”", "Blueprint sheet"]}
    )
    out = _with_measured(shown, measured)
    assert out["reconstruction (measured)"].to_list()[:2] == [R.measured_cells(measured)["Halloween"]] * 2
    assert out["reconstruction (measured)"].to_list()[2:] == [None, None]  # a copy of one's own, a sheet


def test_the_report_shows_the_shipped_measurement_as_measured_there(tmp_path):
    import html

    from welcome_sim.reports.builder import build_report
    from welcome_sim.sweep.config import SweepConfig
    from welcome_sim.sweep.run import run_sweep

    measured = R.load_measured()
    assert measured is not None
    run = tmp_path / "z"
    run_sweep(
        SweepConfig(games=40, strategies=["casual", "expert"], expansions=["none", "zombies"]), run, jobs=1
    )
    out = tmp_path / "z.html"
    build_report([str(run)], out)
    page = html.unescape(out.read_text())
    section = page[page.index('<section id="difficulty"') :]
    section = section[: section.index("</section>")]
    assert "reconstruction (measured)" in section
    assert R.measured_cells(measured)["Zombie Outbreak"] in section
    # Said as measured there, with its command and date, not as a figure of these runs.
    assert f"measured on {measured['date']} with `{measured['command']}`" in section
    assert "not a measurement on these runs" in section


def test_the_csv_and_json_columns_name_the_verdict_per_item():
    v = R.Verdict(
        "halloween",
        2,
        "Halloween, 2 players",
        5,
        (4, 6),
        {"Plan C x0.7": 5},
        {"Plan C x0.7": "plan_scores"},
        "robust",
    )
    frame = pl.DataFrame({"item": ["Halloween, 2 players", "Blueprint sheet, 2 players"]})
    out = R.with_columns(frame, {(2, v.item): v}, 2)
    assert out["robustness"].to_list() == ["robust", None]
    assert out["robustness_ranks"].to_list() == ["Plan C x0.7: 5", None]
    assert out["robustness_varied"][0].startswith(
        "Plan C scores x0.7 and x1.3; ghost-and-candy houses mirrored"
    )
    # Another player count's verdicts are not this one's.
    assert R.with_columns(frame, {(2, v.item): v}, 4)["robustness"].null_count() == 2


def test_difficulty_robustness_adds_the_verdict_column(tmp_path):
    from conftest import run_cli

    out = tmp_path / "d.csv"
    res = run_cli(
        "difficulty",
        "--games",
        "30",
        "--players",
        "2",
        "--robustness",
        "--format",
        "csv",
        "-o",
        str(out),
        "--jobs",
        "1",
    )
    assert res.returncode == 0, res.stderr
    assert "robustness" in res.stderr  # the progress bar of its 4 more runs per expansion
    frame = pl.read_csv(out)
    checked = frame.filter(pl.col("robustness").is_not_null())
    # The eight ranked expansions (the American Dream is compared apart, unranked); nothing else.
    assert checked.height == 8
    assert all(t == "robust" or t.startswith("depends on reconstructed ") for t in checked["robustness"])
    assert all("Plan C x0.7: " in t and "Plan C x1.3: " in t for t in checked["robustness_ranks"])
    layouts = checked.filter(pl.col("robustness_ranks").str.contains("layout mirrored"))
    assert sorted(x.split(",")[0] for x in layouts["item"]) == sorted(
        ["Easter Egg Hunt", "Halloween", "Doomsday", "Roswell", "Zombie Outbreak", "Quack"]
    )
