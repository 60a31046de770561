"""Difficulty measures, the index, its bootstrap and the rank agreement, on hand-made frames with
known answers; and the `difficulty` command end to end on a few games."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from welcome_sim.analysis import difficulty as D

DEALS = 400


def _deals(items: dict[str, dict[str, dict[str, np.ndarray]]]) -> pl.DataFrame:
    """A per_deal()-shaped frame: items[item][level][measure] = array over deals."""
    parts = []
    for item, levels in items.items():
        for level, m in levels.items():
            parts.append(
                pl.DataFrame(
                    {
                        "item": item,
                        "level": level,
                        "deal": np.arange(DEALS),
                        **{k: m.get(k, m["net_score"]).astype(float) for k in D.MEASURES},
                    }
                )
            )
    return pl.concat(parts)


def _game(rng, shift=0.0, refusals=0.5, plans=1.5, ended=0.1, skill=10.0):
    """Two levels of one item on common deals: luck shared by both levels (the deal's cards)."""
    luck = rng.normal(0, 12, DEALS)
    casual = {
        "net_score": 80 + luck + shift,
        "refusals": rng.poisson(refusals, DEALS),
        "plans": rng.binomial(3, plans / 3, DEALS),
        "ended_by_refusals": rng.random(DEALS) < ended,
    }
    expert = {**casual, "net_score": casual["net_score"] + skill}
    return {"casual": casual, "expert": expert}


@pytest.fixture(scope="module")
def world():
    rng = np.random.default_rng(5)
    base = _game(rng)
    # "hard": 6 points fewer on the same deals, more refusals, fewer plans, a wider skill gap.
    hard = {
        lv: {
            "net_score": m["net_score"] - 6,
            "refusals": m["refusals"] + 1,
            "plans": np.maximum(m["plans"] - 1, 0),
            "ended_by_refusals": m["ended_by_refusals"],
        }
        for lv, m in base.items()
    }
    hard["expert"]["net_score"] = hard["expert"]["net_score"] + 4  # expert - casual: 14 instead of 10
    # "same": the base game's measures exactly: every difference 0.
    same = {lv: dict(m) for lv, m in base.items()}
    return base, hard, same


def test_paired_differences_and_index_match_a_hand_computation(world):
    base, hard, same = world
    frame = _deals({"base": base, "hard": hard, "same": same})
    items = [D.Item("hard", "base", 3), D.Item("same", "base", 1)]
    ranking = D.rank(frame, items, "casual", "expert", rounds=200)
    by = {r.item.label: r for r in ranking.rows}
    h = by["hard"]
    # Natural-sign differences item - base on the same deals.
    assert h.raw["net_score"][0] == pytest.approx(-6.0)
    assert h.raw["refusals"][0] == pytest.approx(1.0)
    expected_plans = float(np.mean(np.maximum(base["casual"]["plans"] - 1, 0) - base["casual"]["plans"]))
    assert h.raw["plans"][0] == pytest.approx(expected_plans)
    assert h.raw["skill"][0] == pytest.approx(4.0)
    # A constant shift has no spread: its paired interval is the point itself.
    assert h.raw["net_score"][1] == pytest.approx(-6.0) and h.raw["net_score"][2] == pytest.approx(-6.0)
    # The index: the mean of the net score and skill components in base-game standard deviations of
    # the net score, harder positive; refusals and plans are reasons beside it, standardized alike.
    sd = {m: float(np.std(v.astype(float), ddof=1)) for m, v in base["casual"].items()}
    assert h.index == pytest.approx((6.0 / sd["net_score"] + 4.0 / sd["net_score"]) / 2)
    assert h.parts["skill"] == pytest.approx(4.0 / sd["net_score"])
    assert h.parts["refusals"] == pytest.approx(1.0 / sd["refusals"])
    assert h.parts["plans"] == pytest.approx(-expected_plans / sd["plans"])
    s = by["same"]
    assert s.index == pytest.approx(0.0) and s.index_ci == (pytest.approx(0.0), pytest.approx(0.0))
    assert [r.item.label for r in ranking.rows] == ["hard", "same"] and h.rank == 1


def test_an_expansions_own_points_do_not_make_it_easier():
    """The index reads the score net of the expansion's own points (per_deal: total - expansion_points)."""
    rng = np.random.default_rng(1)
    n = 300
    total = rng.normal(90, 14, n).round()
    rows = []
    for item, own in (("base", np.zeros(n)), ("rich", np.full(n, 26.0))):
        for level in ("casual", "expert"):
            rows.append(
                pl.DataFrame(
                    {
                        "item": item,
                        "table": level,
                        "seed": np.arange(n),
                        "seat": 0,
                        "total": total + own + (5 if level == "expert" else 0),
                        "expansion_points": own,
                        "refusals": 0,
                        "plan_a_round": 3,
                        "plan_b_round": 0,
                        "plan_c_round": 0,
                        "end_reason": "plans",
                        "rounds": 30,
                    }
                )
            )
    deals = D.per_deal(pl.concat(rows), item="item", level="table")
    ranking = D.rank(deals, [D.Item("rich", "base", 3)], "casual", "expert", rounds=50)
    (r,) = ranking.rows
    assert r.raw["net_score"][0] == pytest.approx(0.0)
    assert r.index == pytest.approx(0.0)


def test_per_deal_averages_the_seats_of_one_game():
    rows = pl.DataFrame(
        {
            "item": ["x"] * 4,
            "level": ["l"] * 4,
            "seed": [7, 7, 8, 8],
            "seat": [0, 1, 0, 1],
            "total": [100, 60, 90, 70],
            "expansion_points": [10, 0, 0, 0],
            "refusals": [1, 0, 2, 2],
            "plan_a_round": [2, 0, 1, 1],
            "plan_b_round": [0, 0, 3, 0],
            "plan_c_round": [0, 0, 0, 0],
            "end_reason": ["refusals", "refusals", "plans", "plans"],
            "rounds": [20, 20, 31, 31],
        }
    )
    out = D.per_deal(rows).sort("deal")
    assert out["net_score"].to_list() == [75.0, 80.0]
    assert out["refusals"].to_list() == [0.5, 2.0]
    assert out["plans"].to_list() == [0.5, 1.5]
    assert out["ended_by_refusals"].to_list() == [1.0, 0.0]


def test_points_that_replace_the_base_scoring_are_not_netted_out():
    """The American Dream's own sheet scores columns and street bonuses instead of parks, pools and
    estates ("You cannot use the usual actions"): netting them out would leave plans and refusals
    alone, so its net score is its total; another expansion's own points are netted as before."""
    assert D.replaces_scoring("american-dream") and not D.replaces_scoring("quack")
    assert D.REPLACES_NOTE in D.expansion_rating("american-dream")[1]
    rows = pl.DataFrame(
        {
            "item": ["ad", "q"],
            "level": ["l", "l"],
            "seed": [1, 2],
            "expansion": ["american-dream", "quack"],
            "total": [150, 110],
            "expansion_points": [120, 15],
            "refusals": [0, 0],
            "plan_a_round": [0, 0],
            "plan_b_round": [0, 0],
            "plan_c_round": [0, 0],
            "end_reason": ["plans", "plans"],
            "rounds": [30, 30],
        }
    )
    out = D.per_deal(rows).sort("deal")
    assert out["net_score"].to_list() == [150.0, 95.0]


def test_replaces_scoring_must_be_true_or_false(tmp_path):
    from welcome_sim.errors import WelcomeSimError
    from welcome_sim.simcore.rules.expansions import load_expansion

    text = Path(load_expansion("american-dream").path).read_text()
    bad = tmp_path / "ad.toml"
    bad.write_text(text.replace("replaces_scoring = true", 'replaces_scoring = "false"'))
    with pytest.raises(WelcomeSimError, match=r"ad\.toml: key 'replaces_scoring': expected true or false"):
        D.replaces_scoring(str(bad))


def test_spearman_with_ties_matches_the_textbook_value():
    assert D.spearman(np.array([1, 2, 3, 4.0]), np.array([10, 20, 30, 40.0])) == pytest.approx(1.0)
    assert D.spearman(np.array([1, 2, 3, 4.0]), np.array([4, 3, 2, 1.0])) == pytest.approx(-1.0)
    # Ties get average ranks: y ranks 1.5, 1.5, 3.5, 3.5; Pearson of ranks = 2/sqrt(5).
    assert D.spearman(np.array([1, 2, 3, 4.0]), np.array([1, 1, 3, 3.0])) == pytest.approx(2 / math.sqrt(5))
    assert list(D.average_ranks(np.array([5.0, 1.0, 5.0, 3.0]))) == [3.5, 1.0, 3.5, 2.0]
    assert math.isnan(D.spearman(np.array([1, 2, 3.0]), np.array([2, 2, 2.0])))


def test_rank_agreement_and_a_stated_disagreement(world):
    base, hard, same = world
    rng = np.random.default_rng(9)
    mild = {lv: {**m, "net_score": m["net_score"] - 2} for lv, m in base.items()}
    frame = _deals({"base": base, "hard": hard, "same": same, "mild": mild})
    # Stars in the simulation's order: rho = +1.
    agree = D.rank(
        frame,
        [D.Item("hard", "base", 3), D.Item("mild", "base", 2), D.Item("same", "base", 1)],
        "casual",
        "expert",
        rounds=100,
    )
    assert agree.rho == pytest.approx(1.0) and agree.rated == 3
    pairs = [s for s in agree.sentences if s.startswith("Of the 3 pairs of rated items")]
    assert len(pairs) == 1 and "the other way," in pairs[0] and "easier than" not in pairs[0]
    # "same" rated harder than "hard": the simulation orders them the other way, with the reason.
    flip = D.rank(
        frame,
        [D.Item("hard", "base", 1), D.Item("mild", "base", 2), D.Item("same", "base", 3)],
        "casual",
        "expert",
        rounds=100,
    )
    assert flip.rho == pytest.approx(-1.0)
    # Issue 38: every star pair in one sentence, the reversed ones named with their reason.
    told = [s for s in flip.sentences if s.startswith("Of the 3 pairs of rated items")]
    assert len(told) == 1 and not [s for s in flip.sentences if s.startswith("Disagrees")]
    assert "same ★★★ plays easier than hard ★, mild ★★, mostly by refusals" in told[0], told
    del rng


def test_one_pair_of_rated_items_is_one_pair(world):
    base, hard, same = world
    frame = _deals({"base": base, "hard": hard, "same": same})
    ranking = D.rank(
        frame, [D.Item("hard", "base", 3), D.Item("same", "base", 1)], "casual", "expert", rounds=50
    )
    told = [s for s in ranking.sentences if s.startswith("Of the 1 ")]
    assert len(told) == 1 and told[0].startswith("Of the 1 pair of rated items"), ranking.sentences


def test_items_without_a_base_game_are_left_out_and_named(world):
    base, hard, _ = world
    frame = _deals({"base": base, "hard": hard})
    ranking = D.rank(
        frame, [D.Item("hard", "base", None), D.Item("ghost", "nowhere", 2)], "casual", "expert", rounds=20
    )
    assert [r.item.label for r in ranking.rows] == ["hard"]
    assert ranking.dropped and "ghost" in ranking.dropped[0]
    assert ranking.rho is None


def test_one_item_is_said_to_play_harder_or_easier_not_to_be_the_hardest(world):
    base, hard, same = world
    ranking = D.rank(
        _deals({"base": base, "hard": hard}), [D.Item("hard", "base")], "casual", "expert", rounds=50
    )
    (said, *_) = ranking.sentences
    assert said.startswith("Hard plays harder than its base: difficulty index +") and "points fewer" in said
    easy = {lv: {**m, "net_score": m["net_score"] + 6} for lv, m in base.items()}
    ranking = D.rank(
        _deals({"base": base, "easy": easy}), [D.Item("easy", "base")], "casual", "expert", rounds=50
    )
    assert ranking.sentences[0].startswith("Easy plays easier than its base: difficulty index -")
    assert not [s for s in ranking.sentences if "hardest" in s or "easiest" in s]
    ranking = D.rank(
        _deals({"base": base, "same": same}), [D.Item("same", "base")], "casual", "expert", rounds=50
    )
    assert ranking.sentences[0].startswith("Not distinguishable from their base game")


def test_items_any_rank_could_hold_are_said_by_their_own_interval_not_ranked(world):
    # Two easier items equal but for noise: a resample may rank either first, so "ranked easiest (it
    # could rank anywhere from 1st to 2nd)" would say nothing; each says which way it plays.
    base, _, _ = world
    easy = {lv: {**m, "net_score": m["net_score"] + 6} for lv, m in base.items()}
    noise = np.random.default_rng(9).normal(0.0, 3.0, DEALS)
    twin = {lv: {**m, "net_score": m["net_score"] + noise - noise.mean()} for lv, m in easy.items()}
    items = [D.Item("easy", "base"), D.Item("twin", "base")]
    ranking = D.rank(_deals({"base": base, "easy": easy, "twin": twin}), items, "casual", "expert", rounds=50)
    assert all(r.rank_ci == (1, 2) for r in ranking.rows), [r.rank_ci for r in ranking.rows]
    said = " ".join(ranking.sentences)
    assert said.count("plays easier than its base: difficulty index -") == 2, said
    assert "Easy plays easier" in said and "Twin plays easier" in said, said
    assert "easiest" not in said and "hardest" not in said, said


def test_a_file_of_one_s_own_keeps_its_label_s_case_in_the_sentence(world):
    base, hard, _ = world
    label = "easter.1a2b3c4d (Easter Egg Hunt)"
    frame = _deals({"base": base, label: hard})
    ranking = D.rank(frame, [D.Item(label, "base")], "casual", "expert", rounds=50)
    assert ranking.sentences[0].startswith(f"{label} plays harder than its base")


def test_without_the_expert_level_the_index_is_the_net_score_alone(world):
    base, hard, _ = world
    frame = _deals({"base": base, "hard": hard}).filter(pl.col("level") == "casual")
    (r,) = D.rank(frame, [D.Item("hard", "base")], "casual", None, rounds=20).rows
    assert "skill" not in r.parts and r.index == pytest.approx(r.parts["net_score"])


def test_difficulty_command_ranks_every_expansion_beside_its_stars(tmp_path):
    """A few games of every item: the CSV holds every expansion (from the registry) with its stars."""
    from typer.testing import CliRunner

    from welcome_sim.cli import app
    from welcome_sim.simcore.rules.expansions.codes import EXPANSION_NAMES

    out = tmp_path / "d.csv"
    res = CliRunner().invoke(
        app,
        [
            "difficulty",
            "--games",
            "40",
            "--players",
            "1",
            "--format",
            "csv",
            "--out",
            str(out),
            "--jobs",
            "1",
        ],
    )
    assert res.exit_code == 0, res.output
    frame = pl.read_csv(out)
    assert frame["ranked_at_players"].unique().to_list() == [1]
    assert frame.height == len(EXPANSION_NAMES) + 1 + 1 + 5  # expansions, 9¾, Blueprint, five other modes
    # Alone, a race has no rival: flagged (issue 38).
    lone = set(frame.filter(pl.col("lone_race"))["item"].to_list())
    assert {"Doomsday, 1 player", "Halloween, 1 player", "Ice Cream Truck, 1 player"} <= lone
    # The American Dream replaces the scoring: compared apart, after the ranked items, unranked.
    ranked = frame.filter(pl.col("rank").is_not_null())
    assert sorted(ranked["rank"].to_list()) == list(range(1, frame.height))
    assert frame.filter(pl.col("rank").is_null())["item"].to_list() == ["American Dream, 1 player"]
    stars = dict(zip(frame["item"].to_list(), frame["stars"].to_list(), strict=True))
    assert stars["Zombie Outbreak, 1 player"] == "★★★"
    assert stars["Easter Egg Hunt, 1 player"] == "★"
    assert stars["Ice Cream Truck, 1 player"].startswith("★★★ (")
    assert stars["Blueprint sheet, 1 player"] == "no rating"
    assert "expert mode, 2 players" in stars


@pytest.mark.parametrize(
    "args, message",
    [
        (["--format", "xml"], "--format: 'xml' is not one of table, csv, json"),
        (["--out", "x.csv"], "--out: 'x.csv' applies only to --format csv or json"),
        (["--reference", "expert"], "--expert: 'expert' is also the --reference"),
        (["--reference", "nobody"], "--reference:"),
        (["--games", "29"], "--games: 29 is out of range"),
    ],
)
def test_difficulty_errors_are_one_line(args, message):
    from typer.testing import CliRunner

    from welcome_sim.cli import app

    res = CliRunner().invoke(app, ["difficulty", *args])
    assert res.exit_code == 2, res.output
    assert message in res.output and len(res.output.strip().splitlines()) == 1


def test_difficulty_ranks_at_2_and_4_players_by_default(tmp_path):
    """Issue 38: the default ranking is made where every race has a rival: one ranking at 2 players
    and one at 4, each with its own items (the solo modes' at 1 player against their 1-player base
    game), none flagged as a lone race."""
    from typer.testing import CliRunner

    from welcome_sim.cli import app

    out = tmp_path / "d.csv"
    res = CliRunner().invoke(
        app, ["difficulty", "--games", "30", "--format", "csv", "--out", str(out), "--jobs", "1"]
    )
    assert res.exit_code == 0, res.output
    frame = pl.read_csv(out)
    assert sorted(frame["ranked_at_players"].unique().to_list()) == [2, 4]
    for n in (2, 4):
        items = frame.filter(pl.col("ranked_at_players") == n)["item"].to_list()
        assert f"Doomsday, {n} players" in items and "solo mode (AAA level 3), 1 player" in items
        ranks = frame.filter((pl.col("ranked_at_players") == n) & pl.col("rank").is_not_null())["rank"]
        assert sorted(ranks.to_list()) == list(range(1, len(ranks) + 1))
    assert not frame["lone_race"].any()
    res = CliRunner().invoke(app, ["difficulty", "--games", "30", "--players", "x"])
    assert res.exit_code == 2 and "--players: 'x' is not a player count" in res.output


def test_difficulty_plays_the_first_edition_too(tmp_path):
    """The first edition's solo mode is its solo variant (no AAA): ranked without an Opponent card."""
    from typer.testing import CliRunner

    from welcome_sim.cli import app

    out = tmp_path / "first.json"
    res = CliRunner().invoke(
        app,
        [
            "difficulty",
            "--games",
            "30",
            "--edition",
            "first",
            "--format",
            "json",
            "--out",
            str(out),
            "--jobs",
            "1",
        ],
    )
    assert res.exit_code == 0, res.output
    items = pl.read_json(out)["item"].to_list()
    assert "solo mode, 1 player" in items and not [i for i in items if "AAA" in i]


def test_csv_on_stdout_stays_clean_and_the_reconstructed_notice_goes_to_stderr():
    """Every output names reconstructed data: in csv/json mode on stderr, beside the clean table."""
    from conftest import run_cli

    res = run_cli("difficulty", "--games", "30", "--players", "1", "--format", "csv", "--jobs", "1")
    assert res.returncode == 0, res.stderr
    assert res.stdout.startswith("ranked_at_players,rank,") and "note" not in res.stdout
    assert "RECONSTRUCTED data" in res.stderr and "data/decks/collector.toml" in res.stderr


# --- a race with no rival ------------------------------------------------------------------------


def _sweep_rows(settings: dict, table: str, total: int, own: int) -> list[dict]:
    """40 deals of one configuration and player level, shaped like a sweep's rows (from_sweep's input)."""
    return [
        {
            **settings,
            "table": table,
            "seed": s,
            "total": total + s % 7,
            "expansion_points": own,
            "rounds": 30,
            "refusals": s % 3,
            "plan_a_round": 5,
            "plan_b_round": 0,
            "plan_c_round": 0,
            "end_reason": "plans",
        }
        for s in range(40)
    ]


RACE_SENTENCES = {
    # Collector's expansion rules (Collector's expansion rules, 2023), each expansion's race.
    "icecream": "The other architects must cross out the bonus on their sheet",
    "halloween": "The other architects must cross out that level and can no longer claim it.",
    "doomsday": "For each street where your capacity is the highest, you earn the corresponding bonus points.",
    "quack": "The architect who first circles all the yellow ducklings triggers the scoring phase.",
    "american-dream": "When you are the first to complete a street",
}


def test_race_expansions_are_flagged_alone_without_an_aaa():
    """Issue 38: a race expansion played by 1 player without an AAA has no rival in its race (the
    rule quoted in its data file's race_rule), so it is flagged wherever its difficulty is shown;
    at 2 players or in the AAA solo mode it is not, and an expansion without a race never is."""
    from welcome_sim.simcore.rules.expansions.codes import EXPANSION_NAMES

    for name in EXPANSION_NAMES:
        rule = D.race_rule(name)
        if name in RACE_SENTENCES:
            assert RACE_SENTENCES[name] in rule, name
            assert D.lone_race(name, 1, "standard") == rule
            assert D.lone_race(name, 2, "standard") == "" and D.lone_race(name, 1, "solo") == ""
        else:
            assert rule == "" and D.lone_race(name, 1, "standard") == "", name
    assert D.lone_race("none", 1, "standard") == ""


def test_the_difficulty_command_and_a_sweeps_ranking_flag_the_lone_race():
    """The same flag in `welcome-sim difficulty`'s items (difficulty_games.plan) and in a sweep's
    ranking (from_sweep, the report's), with a sentence that says why."""
    from welcome_sim.analysis.difficulty_games import plan

    _, items = plan("collector", 1)
    flagged = {i.label for i in items if i.lone_race}
    assert {i.label for i in items if "Doomsday" in i.label} <= flagged
    assert not [i for i in items if i.lone_race and ("Easter" in i.label or "mode" in i.label)]
    _, items2 = plan("collector", 2)
    assert not [i for i in items2 if i.lone_race]
    rows = []
    for x, pts in (("none", 95), ("doomsday", 120)):
        for table, skill in (("casual", 0), ("expert", 5)):
            settings = {"expansion": x, "players": 1, "mode": "standard"}
            rows += _sweep_rows(settings, table, pts + skill, 0 if x == "none" else 20)
    ranking = D.from_sweep(
        pl.DataFrame(rows).lazy(), ["expansion", "players", "mode", "table"], {"expansion": "none"}
    )
    assert [r.item.lone_race for r in ranking.rows] == [D.race_rule("doomsday")]
    assert D.table(ranking)["lone_race"].to_list() == [True]
    said = [s for s in ranking.sentences if "no rival in its race" in s]
    assert len(said) == 1 and ranking.rows[0].item.label in said[0]


def test_the_report_and_the_command_give_the_same_figure(tmp_path):
    """Issue 38, one difficulty: for the same item, reference, players and games, `welcome-sim
    difficulty` (difficulty_games.play) and a sweep's report (from_sweep) give the same figures:
    both read sweep-shaped rows through difficulty.per_deal and rank them with difficulty.rank."""
    from conftest import run_cli

    from welcome_sim.analysis import tables as T
    from welcome_sim.analysis.difficulty_games import plan, play
    from welcome_sim.analysis.load import combined, open_runs

    specs, items = plan("collector", 1)
    item = next(i for i in items if i.label.startswith("Easter"))
    chosen = [s for s in specs if s.label in (item.label, item.base)]
    blind = D.blind_of("casual")
    deals = play(chosen, ["casual", "expert", blind], "collector", 40, 5)
    command = D.rank(deals, [item], "casual", "expert", seed=5, blind=blind).rows[0]
    out = tmp_path / "sweep"
    res = run_cli(
        "sweep", "--games", "40", "--seed", "5", "--expansion", "none,easter", "--strategy", "casual",
        "--strategy", "expert", "--strategy", blind, "--out", str(out),
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    lf = combined(open_runs([str(out)]))
    by = [c for c in T.CONFIG if c in lf.collect_schema().names()]
    report = D.from_sweep(lf, by, dict(T.BASELINE)).rows[0]
    assert "Easter" in report.item.label and report.deals == command.deals == 40
    assert report.index == pytest.approx(command.index, abs=1e-12)
    for m in ("net_score", "skill", "blind", "refusals", "plans", "rounds", "score"):
        assert report.raw[m][0] == pytest.approx(command.raw[m][0], abs=1e-12), m
    assert "blind" in command.parts  # the index holds the blind cost in both


def test_an_expansion_that_replaces_the_scoring_is_compared_apart(world):
    """Issue 38: the American Dream replaces the base game's scoring; its total (+57 points) is not
    a difficulty. Such an item (Item.apart) is compared only on what compares (refusals, plans,
    rounds, skill gap), stated apart, never ranked, and left out of the rank agreement."""
    base, hard, same = world
    own = {lv: {**m, "net_score": m["net_score"] + 57} for lv, m in hard.items()}
    frame = _deals({"base": base, "hard": hard, "same": same, "own": own})
    items = [D.Item("hard", "base", 3), D.Item("same", "base", 1), D.Item("own", "base", 2, apart=True)]
    ranking = D.rank(frame, items, "casual", "expert", rounds=100)
    assert [r.item.label for r in ranking.rows] == ["hard", "same"]
    assert [r.rank for r in ranking.rows] == [1, 2]
    (a,) = ranking.apart
    assert "net_score" not in a.raw and "score" not in a.raw and math.isnan(a.index)
    assert a.raw["refusals"][0] == pytest.approx(1.0) and a.raw["skill"][0] == pytest.approx(4.0)
    assert ranking.rated == 2  # the stars of "own" are not compared
    said = [s for s in ranking.sentences if s.startswith("own: its own points replace")]
    assert len(said) == 1 and "refusals +1.00" in said[0] and "skill gap +4.0" in said[0]
    table = D.apart_table(ranking)
    assert table["item"].to_list() == ["own"] and "index" not in table.columns
    assert D.table(ranking)["item"].to_list() == ["hard", "same"]


def test_the_american_dream_with_the_nine_three_quarters_is_compared_apart_too():
    """Its points replace the scoring with the 9¾ cards too: an item that changes the expansion to
    one that replaces the scoring is compared apart whatever else it changes (the demo sweep ranked
    'American Dream · 9¾ cards' easiest of all on its total)."""
    rows = []
    for x, nine, pts in (("none", False, 95), ("american-dream", False, 150), ("american-dream", True, 152)):
        for table in ("casual", "expert"):
            rows += _sweep_rows(
                {"expansion": x, "nine_three_quarters": nine}, table, pts, 0 if x == "none" else pts
            )
    ranking = D.from_sweep(
        pl.DataFrame(rows).lazy(),
        ["expansion", "nine_three_quarters", "table"],
        {"expansion": "none", "nine_three_quarters": False},
    )
    assert ranking.rows == [] and len(ranking.apart) == 2


def test_each_measures_own_rho_is_shown(world):
    """Issue 38: every measure's own rank agreement with the stars is shown beside the index's (so a
    combination chosen later can be judged against what each measure says alone)."""
    base, hard, same = world
    mild = {lv: {**m, "net_score": m["net_score"] - 2} for lv, m in base.items()}
    frame = _deals({"base": base, "hard": hard, "same": same, "mild": mild})
    items = [D.Item("hard", "base", 3), D.Item("mild", "base", 2), D.Item("same", "base", 1)]
    ranking = D.rank(frame, items, "casual", "expert", rounds=50)
    # Net score: hard -6, mild -2, same 0 in the stars' order; refusals: only hard has more.
    assert ranking.measure_rho["net_score"] == pytest.approx(1.0)
    assert ranking.measure_rho["refusals"] == pytest.approx(
        D.spearman(np.array([1.0, 0, 0]), np.array([3.0, 2, 1]))
    )
    said = [s for s in ranking.sentences if s.startswith("Each measure's own rank agreement")]
    assert len(said) == 1 and "net score +1.00" in said[0] and "skill gap" in said[0]


def test_solo_items_among_other_counts_are_said_to_be_the_same_1_player_games(world):
    base, hard, same = world
    frame = _deals(
        {"base, 1 player": base, "base, 4 players": base, "solo, 1 player": hard, "x, 4 players": same}
    )
    items = [D.Item("solo, 1 player", "base, 1 player"), D.Item("x, 4 players", "base, 4 players")]
    said = [s for s in D.rank(frame, items, "casual", "expert", rounds=50).sentences if "solo modes" in s]
    assert said == [
        "The solo modes are played alone: they appear in every player count's ranking with the same 1-player "
        "games against the 1-player base game: solo, 1 player."
    ]
    # A ranking of 1-player items only (--players 1) needs no such word.
    alone = D.rank(frame, items[:1], "casual", "expert", rounds=50).sentences
    assert not [s for s in alone if "solo modes" in s]


def test_the_blind_cost_is_the_third_component_of_the_index(world):
    """A player blind to what "hard" adds loses 6 points of its score there and nothing in the base
    game (blind=1 plays the base game as the seeing player does): blind cost +6, and the index is the
    mean of the three components in base-game SDs of the net score."""
    base, hard, _ = world
    blind_level = D.blind_of("casual")
    assert (
        blind_level == "casual:blind=1"
        and D.blind_of("greedy-tuned:noise=3") == "greedy-tuned:noise=3,blind=1"
    )
    frame = _deals(
        {
            "base": {**base, blind_level: base["casual"]},
            "hard": {**hard, blind_level: {**hard["casual"], "net_score": hard["casual"]["net_score"] - 6}},
        }
    )
    ranking = D.rank(frame, [D.Item("hard", "base")], "casual", "expert", rounds=50, blind=blind_level)
    (r,) = ranking.rows
    assert ranking.blind == blind_level
    assert r.raw["blind"][0] == pytest.approx(6.0)
    sd = float(frame.filter((pl.col("item") == "base") & (pl.col("level") == "casual"))["net_score"].std())
    assert r.parts["blind"] == pytest.approx(6.0 / sd, rel=1e-3)
    assert r.index == pytest.approx((r.parts["net_score"] + r.parts["skill"] + r.parts["blind"]) / 3)
    # Without the blind level the index is the other two, as before.
    (plain,) = D.rank(frame, [D.Item("hard", "base")], "casual", "expert", rounds=50).rows
    assert "blind" not in plain.parts
    assert plain.index == pytest.approx((plain.parts["net_score"] + plain.parts["skill"]) / 2)


def test_the_terminal_table_rounds_its_intervals_as_its_sentences_do(world, monkeypatch):
    """The table under `welcome-sim difficulty` and the sentences below it give one figure the same
    bounds: rounded outward (analysis/rounding.py), so -11.04 is -11.1 in both, never -11.0 in one."""
    from rich.console import Console

    from welcome_sim.analysis.rounding import interval_text
    from welcome_sim.commands import difficulty as command

    base, hard, same = world
    ranking = D.rank(
        _deals({"base": base, "hard": hard, "same": same}), [D.Item("hard", "base", 3)], "casual"
    )
    (r,) = ranking.rows
    r.raw["net_score"] = (-7.84, -11.04, -4.46)  # bounds that plain rounding pulls inward
    monkeypatch.setattr(command, "console", Console(width=400, markup=False, record=True))
    command._show_ranking(ranking, 2, "casual")
    text = command.console.export_text()
    assert interval_text(-7.84, -11.04, -4.46, 1, sign=True) == "-7.8 [-11.1, -4.4]"
    assert "-7.8 [-11.1, -4.4]" in text and "[-11.0," not in text
    assert interval_text(r.index, *r.index_ci, 2, sign=True) in text


def test_a_blind_cost_that_is_0_by_construction_reads_n_a_with_its_legend(world, monkeypatch):
    """An item without an expansion (a sheet, a mode, the 9¾ cards) is played by the blind player
    exactly as by the seeing one: its blind cost is 0 by construction, shown as n/a with a legend
    in the terminal and the report, never as a measured +0.0 [+0.0, +0.0]; an expansion's is its
    number."""
    from rich.console import Console

    from welcome_sim.commands import difficulty as command
    from welcome_sim.reports.formatting import _difficulty_rows

    base, hard, _ = world
    blind_level = D.blind_of("casual")
    frame = _deals(
        {
            "base": {**base, blind_level: base["casual"]},
            "hard": {**hard, blind_level: {**hard["casual"], "net_score": hard["casual"]["net_score"] - 6}},
            "sheet": {**hard, blind_level: hard["casual"]},
        }
    )
    items = [D.Item("hard", "base"), D.Item("sheet", "base", no_blind_cost=True)]
    ranking = D.rank(frame, items, "casual", "expert", rounds=50, blind=blind_level)
    rows = {r.item.label: r for r in ranking.rows}
    assert rows["sheet"].raw["blind"] == (0.0, 0.0, 0.0)  # the figure stays in the csv and json
    monkeypatch.setattr(command, "console", Console(width=400, markup=False, record=True))
    monkeypatch.setenv("COLUMNS", "400")  # one row per item (a narrow $COLUMNS transposes the table)
    command._show_ranking(ranking, 2, "casual")
    text = command.console.export_text()
    row = {i: next(ln for ln in text.splitlines() if re.search(rf"│ {i}\s", ln)) for i in ("sheet", "hard")}
    assert "n/a" in row["sheet"] and "+0.0 [+0.0, +0.0]" not in row["sheet"]
    assert "+6.0 [" in row["hard"]
    assert D.NO_BLIND_LEGEND in text.replace("\n", " ")
    shown = _difficulty_rows(D.table(ranking))
    cells = dict(zip(shown["item"].to_list(), shown["blind cost"].to_list(), strict=True))
    assert cells["sheet"] == D.NO_BLIND_COST and cells["hard"].startswith("+6.0")
