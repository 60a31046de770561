"""Effect curves of varied values (issue 42): for each --vary path, analyze and the report show the
measures against the value with 95% intervals, a difference from the file's own value (paired
where that narrows it), a chart per path at 9 pt text and at most 1,600 px, and difficulty ranks
each value as an item of its own."""

from __future__ import annotations

import polars as pl
import pytest

from welcome_sim.analysis import tables as T
from welcome_sim.analysis.chartkit import rendered, to_svg
from welcome_sim.analysis.charts_sensitivity import sensitivity_chart
from welcome_sim.analysis.load import combined, open_runs
from welcome_sim.analysis.sensitivity import sensitivity, shown, value_key
from welcome_sim.sweep.config import SweepConfig
from welcome_sim.sweep.run import run_sweep

PATH = "plans.A-1.scores"


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("sens") / "s"
    # A-1 in every game (fixed plans), so its rate and points are measured on every game.
    cfg = SweepConfig(games=150, seed=5, players=[2], plans=["A-1,B-1,C-1"], vary=[f"{PATH}=4/2,8/4,12/6"])
    run_sweep(cfg, out, jobs=1)
    return open_runs([str(out)])[0]


def _table(run) -> tuple[pl.DataFrame, list[str]]:
    lf = combined([run])
    by = [c for c in T.CONFIG if c in lf.collect_schema().names()]
    return sensitivity(lf, by, run.manifest["vary_own"]), by


def test_the_curve_holds_every_value_with_intervals_and_the_files_own_value_as_reference(run):
    assert run.manifest["vary_own"] == {PATH: "8/4"}
    table, _by = _table(run)
    assert table["value"].to_list() == ["4/2", "8/4", "12/6"]
    assert table["games"].to_list() == [150, 150, 150]
    assert table["reference"].to_list() == [False, True, False]
    for col in ("score", "refusals", "rounds", "plan_rate", "plan_points"):
        assert (table[f"{col}_low"] <= table[col]).all() and (table[col] <= table[f"{col}_high"]).all()
    # The card is worth three times as much at 12/6 as at 4/2: its points follow.
    points = dict(zip(table["value"], table["plan_points"], strict=True))
    assert points["12/6"] > 2 * points["4/2"] > 0
    # The reference has no difference of its own; the others have one, paired where it narrows it.
    ref = table.filter(pl.col("reference"))
    assert ref["diff"].to_list() == [None]
    others = table.filter(~pl.col("reference"))
    assert others["diff"].is_not_null().all() and others["diff_paired"].is_not_null().all()
    assert (others["diff_low"] < others["diff"]).all() and (others["diff"] < others["diff_high"]).all()


def test_the_paired_difference_is_the_mean_of_same_seed_differences(run):
    table, _by = _table(run)
    rows = combined([run]).collect()
    per_game = rows.group_by("vary", "seed").agg(pl.col("total").mean())
    a = per_game.filter(pl.col("vary") == f"{PATH}=8/4").sort("seed")["total"]
    b = per_game.filter(pl.col("vary") == f"{PATH}=12/6").sort("seed")["total"]
    row = table.filter(pl.col("value") == "12/6").row(0, named=True)
    if row["diff_paired"]:
        assert row["diff"] == pytest.approx((b - a).mean())
        independent = 1.96 * ((a.var() + b.var()) / len(a)) ** 0.5
        assert row["diff_high"] - row["diff_low"] <= 2 * 0.9 * independent


def test_the_chart_and_the_text_table(run):
    table, by = _table(run)
    fig = sensitivity_chart(table, PATH, by)
    svg = to_svg(fig)
    size = rendered(svg)
    assert size.smallest_pt >= 9 and size.width_px <= 1600 and size.height_px <= 1600
    assert f"Sensitivity to {PATH}" in svg
    text = shown(table, PATH, by)
    assert text["value"].to_list() == ["4/2", "8/4 (reference)", "12/6"]
    assert text["Δ score vs reference"][1] == "–"
    assert all("[" in c for c in text["mean score"])


def test_the_report_has_the_section_and_chart(run, tmp_path):
    from welcome_sim.reports.builder import build_report

    info = build_report([str(run.path)], tmp_path / "r.html")
    assert "sensitivity" in info["sections"]
    assert any(name.startswith("sensitivity-") for name in info["charts"])
    # The plans are fixed (one Plan A x Plan B pair per configuration): a map of zeros is not drawn.
    assert "plan_combinations" not in info["charts"]
    page = (tmp_path / "r.html").read_text()
    assert f"Sensitivity to {PATH}" in page
    # Every header of the page has its glossary entry (issue 40), the effect curves' too.
    import html
    import re

    from welcome_sim.reports import glossary

    heads = {html.unescape(h).strip() for h in re.findall(r"<th(?: [^>]*)?>(.*?)</th>", page, re.S)}
    assert not sorted(h for h in heads if not glossary.covers(h))
    assert "Δ score vs reference" in heads


def test_every_table_lists_the_values_in_their_numbers_order(run):
    # As text '12/6' sorts before '4/2': analyze's tables read 12/6, 4/2, 8/4.
    lf = combined([run])
    by = [c for c in T.CONFIG if c in lf.collect_schema().names()]
    order = [f"{PATH}={v}" for v in ("4/2", "8/4", "12/6")]
    for name, table in (
        ("scores", T.score_distribution(lf, by)),
        ("components", T.components(lf, by)),
        ("plans", T.plan_difficulty(lf, by).filter(pl.col("plan") == "A-1")),
        ("length", T.game_length(lf, by)),
        ("endings", T.end_reasons(lf, by)),
    ):
        assert list(dict.fromkeys(table["vary"].to_list())) == order, name


def test_values_sort_by_their_numbers():
    assert sorted(["10/5", "6/3", "8/4"], key=value_key) == ["6/3", "8/4", "10/5"]
    assert sorted(["10", "2", "x"], key=value_key) == ["2", "10", "x"]


def test_difficulty_ranks_each_value_beside_what_it_is_about():
    from welcome_sim.analysis.difficulty_games import base_label, plan, with_variants
    from welcome_sim.simcore.rules.overrides import parse_all

    specs, items = plan("collector", 2)
    axes = parse_all(["expansion.zombies.start_ammunition=0,2", f"{PATH}=12/6"])
    specs2, items2 = with_variants(specs, items, axes, "collector", 2)
    added = {it.label: it for it in items2[len(items) :]}
    assert sorted(added) == sorted(
        [
            "Zombie Outbreak, 2 players [expansion.zombies.start_ammunition=0]",
            "Zombie Outbreak, 2 players [expansion.zombies.start_ammunition=2]",
            f"{base_label(2)} [{PATH}=12/6]",
        ]
    )
    # Against the same base game, with no publisher's stars of their own.
    assert {it.base for it in added.values()} == {base_label(2)} and {it.stars for it in added.values()} == {
        None
    }
    zero = next(s for s in specs2 if s.label.endswith("start_ammunition=0]"))
    assert zero.ruleset("collector").expansion.data["start_ammunition"] == 0


def test_a_run_without_vary_beside_one_with_it(run, tmp_path):
    plain = tmp_path / "plain"
    run_sweep(SweepConfig(games=20, seed=5, players=[2], plans=["A-1,B-1,C-1"]), plain, jobs=1)
    runs = open_runs([str(run.path), str(plain)])
    lf = combined(runs)
    by = [c for c in T.CONFIG if c in lf.collect_schema().names()]
    table = sensitivity(lf, by, run.manifest["vary_own"])
    # The plain run's rows are no value of the path: the three values only, of the varied run.
    assert table["value"].to_list() == ["4/2", "8/4", "12/6"]
    assert set(table["run"]) == {runs[0].name}
