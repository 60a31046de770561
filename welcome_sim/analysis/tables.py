"""Balance tables from a sweep dataset: polars over lazy scans, one function per question.

Every function takes a LazyFrame of sweep rows (one per player per game) and the columns that
define a configuration, and returns a DataFrame. Configuration columns may hold nulls (the AAA
opponent outside the solo mode): joins match nulls to nulls. Intervals are 95% normal approximations:
mean ± 1.96·sd/√n for means, p ± 1.96·√(p(1−p)/n) for rates, and for a difference of means
(b − a) ± 1.96·√(sd_a²/n_a + sd_b²/n_b) treating the two sides as independent samples. Sweeps
deal the same seeds in every cell, so a difference also gets a paired interval where the two
sides share seeds: ± 1.96·sd(d)/√pairs over the differences d of same-seed, same-seat rows.
"""

from __future__ import annotations

import polars as pl

from welcome_sim.simcore.layout import SCORE_COMPONENTS

CONFIG = [
    "run",
    "edition",
    "sheet",
    "deck",
    "plan_set",
    "expansion",
    "nine_three_quarters",
    "mode",
    "players",
    "opponent",
    "table",
    "plans_mode",
]
Z = 1.96
LETTERS = ("a", "b", "c")


def _by(lf: pl.LazyFrame, by: list[str] | None) -> list[str]:
    cols = lf.collect_schema().names()
    return [c for c in (CONFIG if by is None else by) if c in cols]


def _games(lf: pl.LazyFrame) -> pl.LazyFrame:
    """One row per game (seat 0): for game-level measures such as length and end reason."""
    return lf.filter(pl.col("seat") == 0)


def score_distribution(lf: pl.LazyFrame, by: list[str] | None = None, column: str = "total") -> pl.DataFrame:
    """n, mean, sd, 95% CI of the mean and quantiles of a score column per configuration."""
    by = _by(lf, by)
    c = pl.col(column)
    return (
        lf.group_by(by)
        .agg(
            n=pl.len(),
            mean=c.mean(),
            sd=c.std(),
            q05=c.quantile(0.05, "linear"),
            q25=c.quantile(0.25, "linear"),
            median=c.median(),
            q75=c.quantile(0.75, "linear"),
            q95=c.quantile(0.95, "linear"),
        )
        .with_columns(ci95=Z * pl.col("sd") / pl.col("n").sqrt())
        .with_columns(ci_low=pl.col("mean") - pl.col("ci95"), ci_high=pl.col("mean") + pl.col("ci95"))
        .sort(by)
        .collect()
    )


def components(lf: pl.LazyFrame, by: list[str] | None = None) -> pl.DataFrame:
    """Mean of every score-card component (penalties as positive numbers) and of the total."""
    by = _by(lf, by)
    return (
        lf.group_by(by)
        .agg(*(pl.col(c).mean() for c in (*SCORE_COMPONENTS, "total")), n=pl.len())
        .sort(by)
        .collect()
    )


def plan_difficulty(lf: pl.LazyFrame, by: list[str] | None = None) -> pl.DataFrame:
    """Per plan card: validation rate (± 95%), median validation round, rate of scoring first,
    share of validations that scored first, mean points; over player-games with the plan in play."""
    by = _by(lf, by)
    parts = []
    for letter in LETTERS:
        parts.append(
            lf.select(
                *by,
                plan=pl.col(f"plan_{letter}_id"),
                letter=pl.lit(letter.upper()),
                validated=pl.col(f"plan_{letter}_round") > 0,
                round=pl.col(f"plan_{letter}_round"),
                first=pl.col(f"plan_{letter}_first"),
                points=pl.col(f"plan_{letter}"),
            )
        )
    long = pl.concat(parts)
    p = pl.col("validated").mean()
    return (
        long.group_by(*by, "letter", "plan")
        .agg(
            n=pl.len(),
            validation_rate=p,
            median_round=pl.col("round").filter(pl.col("validated")).median(),
            first_rate=pl.col("first").mean(),
            first_share=pl.col("first").filter(pl.col("validated")).mean(),
            mean_points=pl.col("points").mean(),
        )
        .with_columns(
            ci95=Z * (pl.col("validation_rate") * (1 - pl.col("validation_rate")) / pl.col("n")).sqrt()
        )
        .sort(*by, "letter", "plan")
        .collect()
    )


def plan_combinations(lf: pl.LazyFrame, by: list[str] | None = None) -> pl.DataFrame:
    """Per A x B x C combination in play: player-games, mean score, share validating all three."""
    by = _by(lf, by)
    all_three = (pl.col("plan_a_round") > 0) & (pl.col("plan_b_round") > 0) & (pl.col("plan_c_round") > 0)
    return (
        lf.group_by(*by, "plan_a_id", "plan_b_id", "plan_c_id")
        .agg(n=pl.len(), mean_total=pl.col("total").mean(), all_three_rate=all_three.mean())
        .sort(*by, "plan_a_id", "plan_b_id", "plan_c_id")
        .collect()
    )


def end_reasons(lf: pl.LazyFrame, by: list[str] | None = None) -> pl.DataFrame:
    """Share of games ended by each reason (plans, refusals, full; several joined with +)."""
    by = _by(lf, by)
    games = _games(lf)
    counts = games.group_by(*by, "end_reason").agg(games=pl.len())
    return (
        counts.with_columns(
            share=pl.col("games") / (pl.col("games").sum().over(by) if by else pl.col("games").sum())
        )
        .sort(*by, "end_reason")
        .collect()
    )


def game_length(lf: pl.LazyFrame, by: list[str] | None = None) -> pl.DataFrame:
    """Rounds per game: n, mean, sd, min, median, max."""
    by = _by(lf, by)
    r = pl.col("rounds")
    return (
        _games(lf)
        .group_by(by)
        .agg(games=pl.len(), mean=r.mean(), sd=r.std(), min=r.min(), median=r.median(), max=r.max())
        .sort(by)
        .collect()
    )


def game_length_histogram(lf: pl.LazyFrame, by: list[str] | None = None) -> pl.DataFrame:
    """Games per number of rounds."""
    by = _by(lf, by)
    return _games(lf).group_by(*by, "rounds").agg(games=pl.len()).sort(*by, "rounds").collect()


def refusal_rates(lf: pl.LazyFrame, by: list[str] | None = None) -> pl.DataFrame:
    """Mean refusals per player, share of players with at least one, share of games ended by refusals."""
    by = _by(lf, by)
    players = lf.group_by(by).agg(
        mean_refusals=pl.col("refusals").mean(),
        any_refusal=(pl.col("refusals") > 0).mean(),
    )
    games = (
        _games(lf).group_by(by).agg(ended_by_refusals=pl.col("end_reason").str.contains("refusals").mean())
    )
    if not by:
        return pl.concat([players.collect(), games.collect()], how="horizontal")
    return players.join(games, on=by, nulls_equal=True).sort(by).collect()


def aaa_results(lf: pl.LazyFrame, by: list[str] | None = None) -> pl.DataFrame:
    """AAA solo mode, per Opponent card: the player's and the AAA's mean scores, the mean margin
    and the player's win rate (± 95%); empty without AAA games. Level 0 does not score, so it
    has no win rate."""
    cols = lf.collect_schema().names()
    if "aaa_total" not in cols or "opponent" not in cols:
        return pl.DataFrame()
    by = _by(lf, by)
    games = _games(lf).filter(pl.col("opponent").is_not_null())
    if "opponent_name" in cols and "opponent_name" not in by:
        by = [*by, "opponent_name"]
    scoring = pl.col("opponent") > 0
    out = (
        games.group_by(by)
        .agg(
            games=pl.len(),
            player_mean=pl.col("total").mean(),
            aaa_mean=pl.col("aaa_total").mean(),
            margin=(pl.col("total") - pl.col("aaa_total")).mean(),
            win_rate=pl.when(scoring.first()).then(pl.col("won").mean()),
            aaa_plans=pl.col("aaa_plans").mean(),
            aaa_estates=pl.col("aaa_estates").mean(),
            aaa_cards=pl.col("aaa_cards").mean(),
        )
        .with_columns(win_ci95=Z * (pl.col("win_rate") * (1 - pl.col("win_rate")) / pl.col("games")).sqrt())
        .sort(by)
        .collect()
    )
    return out


def _determined_by(lf: pl.LazyFrame, column: str, others: list[str]) -> list[str]:
    """Columns that vary but take a single value for each value of `column` (confounded with it)."""
    if not others:
        return []
    n = lf.select(pl.col(column).n_unique()).collect().item()
    out = []
    for c in others:
        pairs = lf.select(column, c).unique().select(pl.len()).collect().item()
        if pairs == n and lf.select(pl.col(c).n_unique()).collect().item() > 1:
            out.append(c)
    return out


def toggle_effect(
    lf: pl.LazyFrame, column: str, metric: str = "total", by: list[str] | None = None
) -> pl.DataFrame:
    """Effect of switching `column` from its first value (sorted) to each other value, within every
    configuration that has both: difference of means with a 95% interval. Columns that change
    together with `column` (e.g. two runs of two editions) are not held fixed; they are listed in
    `changes_with`."""
    confounded = _determined_by(lf, column, [c for c in _by(lf, by) if c != column])
    others = [c for c in _by(lf, by) if c != column and c not in confounded]
    stats = (
        lf.group_by(*others, column)
        .agg(n=pl.len(), mean=pl.col(metric).mean(), var=pl.col(metric).var())
        .collect()
    )
    # The base game (no expansion, no 9¾ cards) is the reference side when it is there.
    values = sorted(stats[column].unique().to_list(), key=lambda v: (v not in BASE_VALUES, str(v)))
    if len(values) < 2:
        return pl.DataFrame()
    base = stats.filter(pl.col(column).eq_missing(values[0])).drop(column)
    rows = []
    for value in values[1:]:
        alt = stats.filter(pl.col(column).eq_missing(value)).drop(column)
        joined = (
            base.join(alt, on=others, suffix="_b", nulls_equal=True)
            if others
            else base.join(alt, how="cross", suffix="_b")
        )
        rows.append(
            joined.select(
                *others,
                toggle=pl.lit(column),
                changes_with=pl.lit(", ".join(confounded)),
                a=pl.lit(str(values[0])),
                b=pl.lit(str(value)),
                metric=pl.lit(metric),
                mean_a=pl.col("mean"),
                mean_b=pl.col("mean_b"),
                diff=pl.col("mean_b") - pl.col("mean"),
                ci95=Z * (pl.col("var") / pl.col("n") + pl.col("var_b") / pl.col("n_b")).sqrt(),
                n_a=pl.col("n"),
                n_b=pl.col("n_b"),
            )
        )
    out = pl.concat(rows).with_columns(
        ci_low=pl.col("diff") - pl.col("ci95"), ci_high=pl.col("diff") + pl.col("ci95")
    )
    paired = _paired(lf, column, metric, others, values)
    if paired is None:
        return out.with_columns(pairs=pl.lit(0, dtype=pl.UInt32), ci95_paired=pl.lit(None, dtype=pl.Float64))
    keys = [*others, "b"]
    return out.join(paired, on=keys, how="left", nulls_equal=True).with_columns(pl.col("pairs").fill_null(0))


def _paired(
    lf: pl.LazyFrame, column: str, metric: str, others: list[str], values: list
) -> pl.DataFrame | None:
    """Paired interval: rows of the two values with the same game seed and seat are matched (sweeps
    deal the same seeds in every cell), and the interval comes from the spread of the differences."""
    cols = lf.collect_schema().names()
    if "seed" not in cols or "seat" not in cols:
        return None
    keep = [*others, column, "seed", "seat", metric]
    base = lf.filter(pl.col(column).eq_missing(values[0])).select(keep).drop(column)
    parts = []
    for value in values[1:]:
        alt = lf.filter(pl.col(column).eq_missing(value)).select(keep).drop(column)
        d = (
            base.join(alt, on=[*others, "seed", "seat"], suffix="_b", nulls_equal=True)
            .with_columns(d=pl.col(f"{metric}_b") - pl.col(metric))
            .group_by(others)
            .agg(pairs=pl.len(), sd_d=pl.col("d").std())
            .with_columns(b=pl.lit(str(value)), ci95_paired=Z * pl.col("sd_d") / pl.col("pairs").sqrt())
            .drop("sd_d")
        )
        parts.append(d)
    result = pl.concat(parts).collect()
    return result if result.height else None


BASE_VALUES = ("none", False)
# Settings whose effect the report details on more than the score (the expansion toggles).
EXPANSION_TOGGLES = ("expansion", "nine_three_quarters")
EXPANSION_METRICS = ("total", "expansion_points", "refusals", "rounds")


def expansion_effects(lf: pl.LazyFrame, by: list[str] | None = None) -> pl.DataFrame:
    """Each expansion and the 9¾ cards against the base game, in every configuration that has both:
    differences of mean score, expansion points, refusals per player and game length (rounds)."""
    cols = lf.collect_schema().names()
    parts = []
    for col in EXPANSION_TOGGLES:
        if col not in cols or col not in toggles(lf, by):
            continue
        for metric in EXPANSION_METRICS:
            if metric in cols:
                e = toggle_effect(lf, col, metric, by)
                if e.height:
                    parts.append(e)
    return pl.concat(parts, how="diagonal_relaxed") if parts else pl.DataFrame()


ZOMBIE_COUNTS = ("invaded", "ammunition_used", "barricades")


def zombie_outcomes(lf: pl.LazyFrame, by: list[str] | None = None) -> pl.DataFrame:
    """Zombie Outbreak games per configuration: houses invaded, ammunition used and barricades
    built per player (means with 95% CIs), and the share of games the first stack ended."""
    cols = lf.collect_schema().names()
    if "expansion" not in cols or not all(c in cols for c in ZOMBIE_COUNTS):
        return pl.DataFrame()
    z = lf.filter(pl.col("expansion") == "zombies")
    by = _by(lf, by)
    stats = []
    for c in ZOMBIE_COUNTS:
        stats += [pl.col(c).mean().alias(c), (Z * pl.col(c).std() / pl.len().sqrt()).alias(f"{c}_ci95")]
    per_player = z.group_by(by).agg(pl.len().alias("player_games"), *stats)
    stack = (
        _games(z)
        .group_by(by)
        .agg(
            games=pl.len(),
            first_stack_share=pl.col("end_reason").str.contains("first-stack").mean(),
        )
        .with_columns(
            first_stack_ci95=Z
            * (pl.col("first_stack_share") * (1 - pl.col("first_stack_share")) / pl.col("games")).sqrt()
        )
    )
    out = (
        per_player.join(stack, on=by, how="left", nulls_equal=True)
        if by
        else pl.concat([per_player, stack], how="horizontal")
    )
    return out.sort(by).collect() if by else out.collect()


def toggles(lf: pl.LazyFrame, by: list[str] | None = None) -> list[str]:
    """Configuration columns that take more than one value (candidates for toggle_effect); of
    columns that change together, only the first is listed."""
    by = _by(lf, by)
    counts = lf.select(*(pl.col(c).n_unique() for c in by)).collect()
    varying = [c for c in by if counts[c][0] > 1]
    out: list[str] = []
    for c in varying:
        if not any(c in _determined_by(lf, earlier, [c]) for earlier in out):
            out.append(c)
    return out


def balance_tables(lf: pl.LazyFrame, by: list[str] | None = None) -> dict[str, pl.DataFrame]:
    """Every balance table by name (what `analyze` prints and the report shows), with one
    `effect_<setting>` table per setting that varies; plan tables give each plan's requirement."""
    from welcome_sim.analysis.plans import with_plan_text

    by = _by(lf, by)
    named = {
        "scores": score_distribution(lf, by),
        "components": components(lf, by),
        "plan_difficulty": with_plan_text(plan_difficulty(lf, by), lf),
        "plan_combinations": with_plan_text(plan_combinations(lf, by), lf),
        "end_reasons": end_reasons(lf, by),
        "game_length": game_length(lf, by),
        "game_length_histogram": game_length_histogram(lf, by),
        "refusals": refusal_rates(lf, by),
    }
    aaa = aaa_results(lf, by)
    if aaa.height:
        named["aaa"] = aaa
    for col in toggles(lf, by):
        effect = toggle_effect(lf, col, "total", by)
        if effect.height:
            named[f"effect_{col}"] = effect
    xe = expansion_effects(lf, by)
    if xe.height:
        named["expansions"] = xe
    zo = zombie_outcomes(lf, by)
    if zo.height:
        named["zombies"] = zo
    return named
