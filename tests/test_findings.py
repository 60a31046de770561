"""The findings' sentences from a fixed dataset: what is said, with which interval, and what is not
said (effects whose interval holds 0)."""

from __future__ import annotations

import numpy as np
import polars as pl

from welcome_sim.analysis import tables as T
from welcome_sim.analysis.findings import findings, value_words
from welcome_sim.simcore.ground.layout import SCORE_COMPONENTS


def _rows() -> pl.LazyFrame:
    """Classic and Blueprint, 1 player, 400 shared seeds: Blueprint scores exactly 5 more on every
    deal; the 9¾ cards change nothing (the same scores); plan A-1 is validated in 10% of games, A-2
    and A-3 in about half."""
    rng = np.random.default_rng(3)
    base = rng.normal(90, 15, 400).round()
    recs = []
    for sheet, shift in (("classic", 0), ("blueprint", 5)):
        for nine in (False, True):
            for seed in range(400):
                plan = ("A-1", "A-2", "A-3")[seed % 3]
                done = seed % 30 < 3 if plan == "A-1" else seed % 2 == 0
                recs.append(
                    {
                        "run": "r",
                        "edition": "collector",
                        "sheet": sheet,
                        "expansion": "none",
                        "nine_three_quarters": nine,
                        "mode": "standard",
                        "players": 1,
                        "table": "greedy",
                        "plans_mode": "random",
                        "seat": 0,
                        "seed": seed,
                        "total": int(base[seed]) + shift,
                        "rounds": 20,
                        "end_reason": "plans",
                        "refusals": 0,
                        **{c: 0 for c in SCORE_COMPONENTS},
                        "plan_a_id": plan,
                        "plan_b_id": "B-1",
                        "plan_c_id": "C-1",
                        "plan_a_round": 5 if done else 0,
                        "plan_b_round": 0,
                        "plan_c_round": 0,
                        "plan_a_first": done,
                        "plan_b_first": False,
                        "plan_c_first": False,
                    }
                )
    return pl.DataFrame(recs).lazy()


def test_findings_from_a_fixed_dataset():
    lf = _rows()
    by = [c for c in T.CONFIG if c in lf.collect_schema().names()]
    said = findings(T.balance_tables(lf, by), by)
    # The sheet's effect, paired on the same deals, with the base game's other settings.
    assert (
        "With the Blueprint sheet, players score 5.0 [5.0, 5.0] points more than with the Classic sheet "
        "(paired on 400 games dealt the same seeds, r = 1.00)." in said
    ), said
    # The 9¾ cards change nothing here: not said.
    assert not [s for s in said if s.startswith("With the 9¾ cards") or "than with no 9¾ cards" in s], said
    # Plan A-1: 10% of its games (40 of 400/3 ≈ 134... per sheet and setting), the hardest A card.
    hard = [s for s in said if s.startswith("Plan A-1 is validated by")]
    assert len(hard) == 1 and "the hardest A card" in hard[0], said
    assert "of the players who have it with the Classic sheet, no 9¾ cards" in hard[0]  # the baseline's
    assert "(next: A-2, 50%)" in hard[0]
    # Every sentence carries an interval.
    assert all("[" in s and "]" in s for s in said), said


def test_value_words_read_as_words():
    assert value_words("nine_three_quarters", True) == "the 9¾ cards"
    assert value_words("nine_three_quarters", False) == "no 9¾ cards"
    assert value_words("expansion", "none") == "no expansion"
    assert value_words("expansion", "zombies") == "Zombie Outbreak"
    assert value_words("players", 2) == "2 players" and value_words("players", 1) == "1 player"
    assert value_words("sheet", "blueprint") == "the Blueprint sheet"


def test_an_editions_own_deck_goes_without_saying_and_a_share_of_all_gets_wilsons_interval():
    from welcome_sim.analysis.findings import _where, endings

    row = {"edition": "first", "deck": "first", "plan_set": "my_plans.1a2b3c4d", "players": 1}
    assert _where(row, ["edition", "deck", "plan_set", "players"], "") == (
        " with the first edition, the plan cards my_plans.1a2b3c4d, 1 player"
    )
    ends = pl.DataFrame(
        {"players": [1, 2], "end_reason": ["refusals", "plans"], "games": [50, 50], "share": [1.0, 1.0]}
    )
    (said,) = endings(ends, ["players"])
    # 50 of 50 games: Wilson's interval [92.9%, 100%], not the normal approximation's [100%, 100%];
    # shown rounded outward (analysis/rounding.py), so that it holds the computed interval.
    assert (
        said
        == "100% [92%, 100%] of games end by three permit refusals with 1 player, the most of the 2 configurations."
    )
    # One configuration: its share, not the most of several configurations.
    one = pl.DataFrame({"end_reason": ["refusals", "plans"], "games": [30, 70], "share": [0.3, 0.7]})
    assert endings(one, []) == ["30% [21%, 40%] of games end by three permit refusals."]


def test_findings_say_independent_where_the_same_seeds_deal_other_cards():
    """Issue 38: 'paired' only where pairing narrows the interval. With the 9¾ cards the deck
    differs, so the same seed deals other cards: here their games are drawn independently of the
    base game's (10 points more on average), and the sentence says so, with the measured r."""
    rng = np.random.default_rng(8)
    df = _rows().collect()
    nine = pl.col("nine_three_quarters")
    other = pl.Series(rng.normal(100, 15, df.height).round())
    df = df.with_columns(pl.when(nine).then(other).otherwise(pl.col("total")).cast(pl.Int64).alias("total"))
    by = [c for c in T.CONFIG if c in df.columns]
    said = findings(T.balance_tables(df.lazy(), by), by)
    nine_said = [s for s in said if "9¾" in s and "points more" in s]
    assert nine_said, said
    assert all("independent samples: pairing the same seeds does not narrow it, r = " in s for s in nine_said)
    assert not any("paired" in s for s in nine_said)


def test_findings_lead_with_the_spread_and_the_cards_almost_never_met():
    """Issue 38: the biggest facts first: who played and how scores spread (median, the middle 90%),
    then the cards validated by under 2% (or over 95%) of the players who have them, each said
    once; at most 8 findings in all."""
    lf = _rows()
    by = [c for c in T.CONFIG if c in lf.collect_schema().names()]
    said = findings(T.balance_tables(lf, by), by)
    df = lf.collect().filter(~pl.col("nine_three_quarters") & (pl.col("sheet") == "classic"))
    q05, q95 = df["total"].quantile(0.05, "linear"), df["total"].quantile(0.95, "linear")
    assert said[0].startswith(
        "Final scores with the Classic sheet, no 9¾ cards (1 player, greedy, 400 player-games)"
    )
    assert f"median {df['total'].median():.0f}, 90% of players between {q05:.0f} and {q95:.0f}" in said[0]
    # B-1 and C-1 are never validated in this data set, in every configuration; A-1 (10%) is not rare.
    assert said[1].startswith(
        "Almost never validated (by under 2% of the players who have the card): B-1 0.0%"
    )
    assert "C-1 0.0%" in said[1] and "(in all 4 configurations)" in said[1] and "A-1" not in said[1]
    assert not any(s.startswith("Almost always") for s in said)
    assert len(said) <= 8


def test_at_most_eight_findings():
    """However many settings vary, the findings stop at 8 (the sections hold the rest)."""
    from welcome_sim.analysis import findings as F

    lf = _rows()
    by = [c for c in T.CONFIG if c in lf.collect_schema().names()]
    many = [f"Difficulty sentence {i} [0, 1]." for i in range(12)]
    said = findings(T.balance_tables(lf, by), by, difficulty_sentences=many)
    assert len(said) == F.MAX_FINDINGS == 8
    assert said[0].startswith("Final scores") and said[-1] == many[5]


def test_the_count_of_effects_not_stated_agrees_with_its_noun():
    """Four significant effects of four settings: three are stated (MAX_EFFECTS) and the one left
    reads 'effect is', not 'effects are' (seen in the first-sweep guide's report)."""
    from welcome_sim.analysis.findings import MAX_EFFECTS, score_effects

    def effect(diff: float) -> pl.DataFrame:
        return pl.DataFrame(
            {"a": ["x"], "b": ["y"], "diff": [diff], "ci_low": [diff - 1.0], "ci_high": [diff + 1.0]}
        )

    tables = {f"effect_setting{i}": effect(10.0 - i) for i in range(MAX_EFFECTS + 1)}
    out = score_effects(tables, [])
    assert len(out) == MAX_EFFECTS + 1
    assert out[-1] == "1 more significant score effect is in the Effects section."
    tables[f"effect_setting{MAX_EFFECTS + 1}"] = effect(2.0)
    assert score_effects(tables, [])[-1] == "2 more significant score effects are in the Effects section."
