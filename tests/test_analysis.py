"""Analysis functions on small hand-made DataFrames with known answers."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from welcome_sim.analysis import tables as T
from welcome_sim.simcore.ground.layout import SCORE_COMPONENTS


def frame(rows: list[dict]) -> pl.LazyFrame:
    """Sweep-shaped rows: defaults for every column the analysis reads."""
    base = {
        "run": "r",
        "edition": "collector",
        "sheet": "classic",
        "mode": "standard",
        "players": 1,
        "table": "greedy",
        "plans_mode": "random",
        "seat": 0,
        "game": 0,
        "seed": 0,
        "total": 0,
        "rounds": 20,
        "end_reason": "refusals",
        "refusals": 0,
        **{c: 0 for c in SCORE_COMPONENTS},
        **{f"plan_{x}_id": f"{x.upper()}-1" for x in "abc"},
        **{f"plan_{x}_round": 0 for x in "abc"},
        **{f"plan_{x}_first": False for x in "abc"},
    }
    # A row without a seed is a game of its own (rows sharing a seed are the seats of one game).
    return pl.DataFrame([{**base, "seed": 1000 + k, **r} for k, r in enumerate(rows)]).lazy()


def test_score_distribution_mean_sd_ci_quantiles():
    lf = frame([{"total": t, "table": "x"} for t in (10, 20, 30)] + [{"total": 5, "table": "y"}] * 4)
    df = T.score_distribution(lf).sort("table")
    x, y = df.row(0, named=True), df.row(1, named=True)
    assert (x["n"], x["mean"], x["sd"], x["median"]) == (3, 20.0, 10.0, 20.0)
    assert x["ci95"] == pytest.approx(1.96 * 10 / math.sqrt(3))
    assert x["ci_low"] == pytest.approx(20 - 1.96 * 10 / math.sqrt(3))
    assert (x["q25"], x["q75"]) == (15.0, 25.0)
    assert (y["mean"], y["sd"], y["ci95"]) == (5.0, 0.0, 0.0)


def test_components_are_means():
    lf = frame(
        [{"parks": 10, "pools": 3, "total": 13}, {"parks": 20, "pools": 0, "refusal_penalty": 3, "total": 17}]
    )
    row = T.components(lf).row(0, named=True)
    assert (row["parks"], row["pools"], row["refusal_penalty"], row["total"], row["n"]) == (
        15.0,
        1.5,
        1.5,
        15.0,
        2,
    )


def test_plan_difficulty_per_card():
    lf = frame(
        [
            {"plan_a_id": "A-1", "plan_a_round": 10, "plan_a_first": True, "plan_a": 8},
            {"plan_a_id": "A-1", "plan_a_round": 20, "plan_a_first": False, "plan_a": 4},
            {"plan_a_id": "A-1"},
            {"plan_a_id": "A-1"},
            {"plan_a_id": "A-2", "plan_a_round": 5, "plan_a_first": True, "plan_a": 6},
        ]
    )
    df = T.plan_difficulty(lf).filter(pl.col("letter") == "A").sort("plan")
    a1, a2 = df.row(0, named=True), df.row(1, named=True)
    assert (a1["n"], a1["validation_rate"], a1["median_round"]) == (4, 0.5, 15.0)
    assert (a1["first_rate"], a1["first_share"], a1["mean_points"]) == (0.25, 0.5, 3.0)
    # One seat a game: the clustered interval is 1.96·sd/√games over the games' 0/1 outcomes.
    assert a1["ci95"] == pytest.approx(1.96 * math.sqrt(1 / 3) / 2)
    # One game: no spread to measure, so no half-width; the rate still gets Wilson's bounds at n = 1.
    assert (a2["n"], a2["validation_rate"], a2["first_share"], a2["ci95"]) == (1, 1.0, 1.0, None)
    assert a2["ci_high"] == 1.0 and a2["ci_low"] == pytest.approx(1 / (1 + 1.96**2))
    b = T.plan_difficulty(lf).filter(pl.col("letter") == "B")
    assert b["validation_rate"].to_list() == [0.0] and b["median_round"].to_list() == [None]


def test_plan_combinations():
    both = {"plan_a_round": 3, "plan_b_round": 4, "plan_c_round": 5}
    lf = frame(
        [
            {"plan_b_id": "B-1", "total": 50, **both},
            {"plan_b_id": "B-1", "total": 30},
            {"plan_b_id": "B-2", "total": 70, **both},
        ]
    )
    df = T.plan_combinations(lf).sort("plan_b_id")
    assert df.select("plan_b_id", "n", "mean_total", "all_three_rate").rows() == [
        ("B-1", 2, 40.0, 0.5),
        ("B-2", 1, 70.0, 1.0),
    ]


def test_end_reasons_and_length_count_games_not_players():
    lf = frame(
        [
            {"game": 0, "seat": 0, "rounds": 20, "end_reason": "refusals"},
            {"game": 0, "seat": 1, "rounds": 20, "end_reason": "refusals"},
            {"game": 1, "seat": 0, "rounds": 30, "end_reason": "plans"},
            {"game": 1, "seat": 1, "rounds": 30, "end_reason": "plans"},
            {"game": 2, "seat": 0, "rounds": 25, "end_reason": "plans+full"},
            {"game": 2, "seat": 1, "rounds": 25, "end_reason": "plans+full"},
            {"game": 3, "seat": 0, "rounds": 25, "end_reason": "plans"},
            {"game": 3, "seat": 1, "rounds": 25, "end_reason": "plans"},
        ]
    )
    ends = T.end_reasons(lf).sort("end_reason")
    assert ends.select("end_reason", "games", "share").rows() == [
        ("plans", 2, 0.5),
        ("plans+full", 1, 0.25),
        ("refusals", 1, 0.25),
    ]
    length = T.game_length(lf).row(0, named=True)
    assert (length["games"], length["mean"], length["min"], length["max"], length["median"]) == (
        4,
        25.0,
        20,
        30,
        25.0,
    )
    hist = T.game_length_histogram(lf)
    assert hist.select("rounds", "games").rows() == [(20, 1), (25, 2), (30, 1)]


def test_refusal_rates():
    lf = frame(
        [
            {"game": 0, "seat": 0, "refusals": 3, "end_reason": "refusals"},
            {"game": 0, "seat": 1, "refusals": 0, "end_reason": "refusals"},
            {"game": 1, "seat": 0, "refusals": 1, "end_reason": "plans"},
            {"game": 1, "seat": 1, "refusals": 0, "end_reason": "plans"},
        ]
    )
    row = T.refusal_rates(lf).row(0, named=True)
    assert (row["mean_refusals"], row["any_refusal"], row["ended_by_refusals"]) == (1.0, 0.5, 0.5)


def test_toggle_effect_difference_and_interval():
    lf = frame(
        [{"edition": "collector", "total": t} for t in (10, 20, 30)]
        + [{"edition": "first", "total": t} for t in (20, 30, 40, 50)]
    )
    assert T.toggles(lf) == ["edition"]
    eff = T.toggle_effect(lf, "edition").row(0, named=True)
    assert (eff["a"], eff["b"], eff["mean_a"], eff["mean_b"], eff["diff"]) == (
        "collector",
        "first",
        20.0,
        35.0,
        15.0,
    )
    var_a, var_b = 100.0, 500 / 3
    assert eff["ci95"] == pytest.approx(1.96 * math.sqrt(var_a / 3 + var_b / 4))
    assert eff["ci_low"] == pytest.approx(15 - eff["ci95"])


def test_toggle_effect_pairs_only_matching_configurations():
    lf = frame(
        [
            {"edition": "collector", "players": 1, "total": 10},
            {"edition": "first", "players": 1, "total": 14},
            {"edition": "collector", "players": 2, "total": 20},
            {"edition": "first", "players": 2, "total": 30},
            {"edition": "collector", "players": 3, "total": 99},  # no first-edition twin
        ]
    )
    eff = T.toggle_effect(lf, "edition").sort("players")
    assert eff.select("players", "diff").rows() == [(1, 4.0), (2, 10.0)]
    assert T.toggle_effect(lf.filter(pl.col("edition") == "first"), "edition").height == 0


def test_toggle_effect_across_runs_that_differ_in_another_setting():
    """Two runs of two editions: the run toggle compares them, not holding the edition fixed."""
    lf = frame(
        [{"run": "base", "edition": "collector", "total": t} for t in (10, 20)]
        + [{"run": "variant", "edition": "first", "total": t} for t in (30, 40)]
    )
    assert T.toggles(lf) == ["run"]  # edition changes with run: listed once
    eff = T.toggle_effect(lf, "run").row(0, named=True)
    assert (eff["a"], eff["b"], eff["diff"], eff["changes_with"]) == ("base", "variant", 20.0, "edition")


def test_toggle_effect_pairs_games_with_the_same_seed():
    """Same seeds on both sides: the paired interval comes from the differences' spread."""
    totals_a = [10, 20, 30, 40]
    deltas = [5, 6, 5, 6]
    rows = [{"table": "a", "seed": i, "total": t} for i, t in enumerate(totals_a)]
    rows += [
        {"table": "b", "seed": i, "total": t + d}
        for i, (t, d) in enumerate(zip(totals_a, deltas, strict=True))
    ]
    eff = T.toggle_effect(frame(rows), "table").row(0, named=True)
    assert eff["diff"] == 5.5 and eff["pairs"] == 4
    sd_d = math.sqrt(sum((d - 5.5) ** 2 for d in deltas) / 3)
    assert eff["ci95_paired"] == pytest.approx(1.96 * sd_d / 2)
    assert eff["ci95_paired"] < eff["ci95"] / 10  # the deals' spread cancels out
    assert eff["pair_r"] > 0.99 and eff["paired_used"]
    # Different seeds on the two sides: nothing to pair.
    rows_b = [{**r, "seed": r["seed"] + 100} if r["table"] == "b" else r for r in rows]
    eff = T.toggle_effect(frame(rows_b), "table").row(0, named=True)
    assert eff["pairs"] == 0 and eff["ci95_paired"] is None and not eff["paired_used"]


def test_same_seeds_that_deal_other_cards_are_not_called_paired():
    """Issue 38: with a deck that differs (the 9¾ cards, Zombie Outbreak's) the same seed deals
    other cards, the sides do not correlate and pairing does not narrow the interval: the paired
    interval is computed and its correlation shown, but it is not the one used, and the findings
    do not say 'paired'."""
    rng = np.random.default_rng(5)
    a, b = rng.normal(90, 15, 400), rng.normal(93, 15, 400)  # independent draws on the same seeds
    rows = [{"table": "a", "seed": i, "total": float(t)} for i, t in enumerate(a)]
    rows += [{"table": "b", "seed": i, "total": float(t)} for i, t in enumerate(b)]
    eff = T.toggle_effect(frame(rows), "table").row(0, named=True)
    assert eff["pairs"] == 400 and abs(eff["pair_r"] - np.corrcoef(a, b)[0, 1]) < 1e-9
    assert abs(eff["pair_r"]) < 0.15 and eff["ci95_paired"] > T.PAIRING_GAIN * eff["ci95"]
    assert not eff["paired_used"]
    # Correlated sides (the same deal plus noise): pairing narrows it and is used.
    rows_c = [{"table": "a", "seed": i, "total": float(t)} for i, t in enumerate(a)]
    rows_c += [{"table": "b", "seed": i, "total": float(t + 3 + rng.normal(0, 5))} for i, t in enumerate(a)]
    eff = T.toggle_effect(frame(rows_c), "table").row(0, named=True)
    assert eff["pair_r"] > 0.9 and eff["paired_used"] and eff["ci95_paired"] < eff["ci95"] / 2


def test_plan_tables_give_requirements_from_each_rows_configuration():
    lf = frame(
        [
            {"plan_a_id": "A-7", "plan_b_id": "B-2", "plan_c_id": "C-E1", "expansion": "easter"},
            {"plan_a_id": "A-2", "plan_b_id": "B-2", "plan_c_id": "C-3", "expansion": "none"},
            {
                "edition": "first",
                "plan_a_id": "1-2",
                "plan_b_id": "2-1",
                "plan_c_id": "C-3",
                "expansion": "none",
            },
        ]
    )
    tables = T.balance_tables(lf)
    plans = tables["plan_difficulty"]
    assert plans.columns[plans.columns.index("plan") + 1 : plans.columns.index("plan") + 3] == [
        "requirement",
        "provenance",
    ]
    got = {
        (r["edition"], r["plan"]): (r["requirement"], r["provenance"]) for r in plans.iter_rows(named=True)
    }
    assert got[("collector", "A-7")] == ("estates of size 2 and 3", "reconstructed, invented")
    assert got[("collector", "A-2")] == ("4 estates of size 2", "reconstructed")
    assert got[("collector", "C-E1")] == (
        "2 estates of size 3, each with at least 3 collected eggs",
        "reconstructed",
    )
    assert got[("first", "1-2")] == ("4 estates of size 2", "published")
    # The first edition has no "C-3": shown as unknown, not taken from the Collector's cards.
    assert got[("first", "C-3")] == ("(unknown plan)", "")
    combos = tables["plan_combinations"].sort("plan_a_id")
    assert combos["requirements"].to_list() == [
        "1-2: 4 estates of size 2 | 2-1: 3 estates of size 1 and 1 of size 6 | C-3 (unknown plan)",
        "A-2: 4 estates of size 2 | B-2: 2 estates of size 2 and 1 of size 5 | C-3: estates of size 3 and 4",
        "A-7 (invented): estates of size 2 and 3 | B-2: 2 estates of size 2 and 1 of size 5 | "
        "C-E1: 2 estates of size 3, each with at least 3 collected eggs",
    ]


def test_plan_text_without_the_configuration_is_unknown():
    lf = frame([{"edition": "collector"}, {"edition": "first"}])
    plans = T.balance_tables(lf, by=["players"])["plan_difficulty"]
    assert set(plans["requirement"]) == {"(unknown plan)"}
    one = T.balance_tables(frame([{}]), by=["players"])["plan_difficulty"]
    assert one.filter(pl.col("plan") == "A-1")["requirement"].to_list() == ["6 estates of size 1"]


def _two_seat_games(totals: list[tuple[int, int]], **extra) -> list[dict]:
    return [
        {"seed": g, "seat": k, "players": 2, "total": t, **extra}
        for g, pair in enumerate(totals)
        for k, t in enumerate(pair)
    ]


def test_score_interval_is_clustered_by_game():
    """Seats of one game share its deal: the interval is 1.96·sd(game means)/√games, not per seat."""
    df = T.score_distribution(frame(_two_seat_games([(10, 30), (20, 40), (30, 50)]))).row(0, named=True)
    assert (df["n"], df["games"], df["mean"]) == (6, 3, 30.0)
    assert df["ci95"] == pytest.approx(1.96 * 10 / math.sqrt(3))  # game means 20, 30, 40: sd 10
    assert (df["ci_low"], df["ci_high"]) == (pytest.approx(30 - df["ci95"]), pytest.approx(30 + df["ci95"]))


def test_plan_rate_interval_is_clustered_by_game():
    rows = _two_seat_games([(0, 0), (0, 0), (0, 0)])
    done = [1, 1, 1, 0, 0, 0]  # per game: shares 1, 0.5, 0
    rows = [{**r, "plan_a_round": 5 * d} for r, d in zip(rows, done, strict=True)]
    a = T.plan_difficulty(frame(rows)).filter(pl.col("letter") == "A").row(0, named=True)
    assert (a["n"], a["games"], a["validation_rate"]) == (6, 3, 0.5)
    assert a["ci95"] == pytest.approx(1.96 * 0.5 / math.sqrt(3))  # sd of 1, 0.5, 0 is 0.5


def test_paired_effect_uses_game_means_and_gives_its_bounds():
    """Two seats a game, the same seeds on both sides: d per game = mean(b seats) - mean(a seats)."""
    a = _two_seat_games([(10, 20), (30, 40), (50, 60), (70, 80)], table="a")
    b = _two_seat_games([(13, 20), (34, 40), (53, 60), (74, 80)], table="b")  # d = 1.5, 2, 1.5, 2
    eff = T.toggle_effect(frame(a + b), "table").row(0, named=True)
    assert eff["diff"] == pytest.approx(1.75) and eff["pairs"] == 4 and eff["n_a"] == 4
    half = 1.96 * math.sqrt(sum((d - 1.75) ** 2 for d in (1.5, 2, 1.5, 2)) / 3) / 2
    assert eff["ci95_paired"] == pytest.approx(half)
    assert (eff["paired_low"], eff["paired_high"]) == (pytest.approx(1.75 - half), pytest.approx(1.75 + half))
    # Independent sides, over game means 15, 35, 55, 75 and 16.5, 37, 56.5, 77.
    var_a = pl.Series([15.0, 35.0, 55.0, 75.0]).var()
    var_b = pl.Series([16.5, 37.0, 56.5, 77.0]).var()
    assert eff["ci95"] == pytest.approx(1.96 * math.sqrt(var_a / 4 + var_b / 4))


def test_the_baseline_is_chosen_or_the_base_game():
    rows = [
        {"sheet": s, "total": t, "seed": i}
        for s, ts in (("blueprint", (30, 40)), ("classic", (10, 20)))
        for i, t in enumerate(ts)
    ]
    default = T.toggle_effect(frame(rows), "sheet").row(0, named=True)
    assert (default["a"], default["b"], default["diff"]) == ("classic", "blueprint", 20.0)
    chosen = T.toggle_effect(frame(rows), "sheet", baseline={"sheet": "blueprint"}).row(0, named=True)
    assert (chosen["a"], chosen["b"], chosen["diff"]) == ("blueprint", "classic", -20.0)


def test_a_rate_of_zero_gets_an_honest_interval():
    """0 of 30 games: Wilson's score interval [0, 11.35%], not the normal approximation's [0, 0]."""
    rows = [{"seed": g, "plan_a_round": 0} for g in range(30)]
    a = T.plan_difficulty(frame(rows)).filter(pl.col("letter") == "A").row(0, named=True)
    assert a["validation_rate"] == 0.0 and a["ci_low"] == 0.0
    assert a["ci_high"] == pytest.approx(1.96**2 / (30 + 1.96**2))
    # Away from 0 and 1, one seat a game: Wilson's interval at n = games.
    rows = [{"seed": g, "plan_a_round": 5 if g < 12 else 0} for g in range(40)]
    b = T.plan_difficulty(frame(rows)).filter(pl.col("letter") == "A").row(0, named=True)
    p, z = 0.3, 1.96
    n = p * (1 - p) * (z / b["ci95"]) ** 2
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    assert (b["ci_low"], b["ci_high"]) == (pytest.approx(centre - half), pytest.approx(centre + half))
    assert b["ci_low"] < 0.3 < b["ci_high"]


def test_a_deck_of_ones_own_is_compared_against_the_built_in_one():
    """'collector' sorts after 'a_deck.1a2b3c4d' by name, but the built-in deck is the reference."""
    rows = [
        {"deck": d, "total": t, "seed": i}
        for d, ts in (("a_deck.1a2b3c4d", (12, 22)), ("collector", (10, 20)))
        for i, t in enumerate(ts)
    ]
    eff = T.toggle_effect(frame(rows), "deck").row(0, named=True)
    assert (eff["a"], eff["b"], eff["diff"]) == ("collector", "a_deck.1a2b3c4d", 2.0)


def test_an_expansion_is_the_toggle_its_own_sheet_and_plans_change_with():
    """The American Dream decides its own sheet and plan set: the expansion is the setting
    compared, they are named as changing with it, and only for the value that changes them (Quack
    against the base game keeps the Classic sheet and the edition's plans)."""
    rows = []
    for x, sheet, plans, pts in (
        ("none", "classic", "collector_standard", 90),
        ("quack", "classic", "collector_standard", 100),
        ("american-dream", "american_dream", "american-dream", 150),
    ):
        rows += [
            {"expansion": x, "sheet": sheet, "plan_set": plans, "seed": s, "total": pts + s % 7}
            for s in range(40)
        ]
    lf = frame(rows)
    by = ["sheet", "plan_set", "expansion"]
    assert T.toggles(lf, by) == ["expansion"]
    eff = T.toggle_effect(lf, "expansion", "total", by)
    said = {r["b"]: r["changes_with"] for r in eff.iter_rows(named=True)}
    assert said == {"quack": "", "american-dream": "sheet, plan_set"}


def test_an_expansion_on_the_classic_sheet_against_another_sheet_is_not_the_expansion_alone():
    """Quack is played on the Classic sheet, a sheet of the base game: against a Blueprint
    baseline its sheet changes too, so its label names the sheet and it gets no stars. The
    American Dream's sheet is its own (played only with it), so it stays the expansion alone."""
    from welcome_sim.analysis.difficulty import from_sweep

    rows = []
    for x, sheet, plans, pts in (
        ("none", "blueprint", "collector_standard", 95),
        ("quack", "classic", "collector_standard", 100),
        ("american-dream", "american_dream", "american-dream", 150),
    ):
        for table, skill in (("casual", 0), ("expert", 5)):
            rows += [
                {
                    "edition": "collector",
                    "expansion": x,
                    "sheet": sheet,
                    "plan_set": plans,
                    "table": table,
                    "seed": s,
                    "total": pts + skill + s % 7,
                    "rounds": 30,
                    "refusals": s % 3,
                    "plan_a_round": 5,
                    "plan_b_round": 0,
                    "plan_c_round": 0,
                    "end_reason": "plans",
                }
                for s in range(40)
            ]
    ranking = from_sweep(
        frame(rows),
        ["edition", "sheet", "plan_set", "expansion", "table"],
        {"sheet": "blueprint", "expansion": "none"},
    )
    stars = {r.item.label: r.item.stars for r in [*ranking.rows, *ranking.apart]}
    quack = next(k for k in stars if "Quack" in k)
    dream = next(k for k in stars if "American Dream" in k)
    assert "classic" in quack.lower() and stars[quack] is None
    assert "sheet" not in dream.lower() and stars[dream] == 1
