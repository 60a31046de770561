"""Balance tables from a sweep dataset: polars over lazy scans, one function per question.

Every function takes a LazyFrame of sweep rows (one per player per game) and the columns that
define a configuration, and returns a DataFrame. Configuration columns may hold nulls (the AAA
opponent outside the solo mode): joins match nulls to nulls.

Intervals are 95% normal approximations, **clustered by game**: the seats of one game share its
deal (and its plans), so they are not independent samples. Within a configuration, rows with the
same `seed` are the seats of one game; a mean's interval is ± 1.96·sd(g)/√games over the games'
mean values g (for one player, the plain ± 1.96·sd/√n), a rate's the same over each game's share,
its bounds being Wilson's score interval at the sample size that gives that half-width (at a rate of
0 or 1, the number of games).
A difference of means (b − a) gets ± 1.96·√(var_a/games_a + var_b/games_b) over game means,
treating the sides as independent samples, and, where the two sides share seeds (cells of one sweep
do), a **paired** difference `diff_paired` (the mean of the differences d of same-seed games'
means) with its interval ± 1.96·sd(d)/√pairs, shown as its bounds (`paired_low`, `paired_high`),
and the correlation of the pairs' sides (`pair_r`). Same seeds are not the same deals where the
deal differs in shape (Zombie Outbreak's): there `pair_r` is near 0 and the paired interval no
narrower. It is used (`paired_used`) only where it is at most PAIRING_GAIN of the independent
one, i.e. where pairing buys something (about r >= 0.2 for sides of equal spread).
An interval of a single game or pair is unknown (null), never zero-width. Rows without a seed
column count as one game each; within a configuration a game is a (cell, seed).

The grouping and clustered intervals live in clustered.py, the expansions' own tables in
expansion_tables.py (re-exported here).
"""

from __future__ import annotations

import polars as pl

from welcome_sim.analysis.clustered import Z, _attach, _by, _clustered, _game_key, _games, _per_game, _wilson
from welcome_sim.analysis.expansion_tables import EXPANSION_COUNTERS, expansion_outcomes, roswell_outcomes

# Re-exported (`x as x`): the tests, the report, the charts and the difficulty study import them
# from here.
from welcome_sim.analysis.expansion_tables import ROSWELL_COUNTS as ROSWELL_COUNTS
from welcome_sim.analysis.expansion_tables import ZOMBIE_COUNTS as ZOMBIE_COUNTS
from welcome_sim.analysis.expansion_tables import expansion_rules as expansion_rules
from welcome_sim.analysis.expansion_tables import zombie_outcomes as zombie_outcomes
from welcome_sim.simcore.ground.layout import SCORE_COMPONENTS
from welcome_sim.sweep.rows import CONFIG as CONFIG

# A paired interval is used in place of the independent one only where it is at most this share of
# its width: sqrt(1 - r) <= 0.9 for sides of equal spread, a pairing correlation of about 0.2.
PAIRING_GAIN = 0.9

LETTERS = ("a", "b", "c")


def score_distribution(lf: pl.LazyFrame, by: list[str] | None = None, column: str = "total") -> pl.DataFrame:
    """n (player-games), games, mean, sd, the mean's 95% CI clustered by game and quantiles of a
    score column per configuration."""
    by = _by(lf, by)
    c = pl.col(column)
    stats = lf.group_by(by).agg(
        n=pl.len(),
        mean=c.mean(),
        sd=c.std(),
        q05=c.quantile(0.05, "linear"),
        q25=c.quantile(0.25, "linear"),
        median=c.median(),
        q75=c.quantile(0.75, "linear"),
        q95=c.quantile(0.95, "linear"),
    )
    return (
        _attach(stats, _clustered(lf, by, c.cast(pl.Float64)), by)
        .with_columns(ci_low=pl.col("mean") - pl.col("ci95"), ci_high=pl.col("mean") + pl.col("ci95"))
        .sort(_config_order(by))
        .collect()
    )


def components(lf: pl.LazyFrame, by: list[str] | None = None) -> pl.DataFrame:
    """Mean of every score-card component (penalties as positive numbers) and of the total."""
    by = _by(lf, by)
    return (
        lf.group_by(by)
        .agg(*(pl.col(c).mean() for c in (*SCORE_COMPONENTS, "total")), n=pl.len())
        .sort(_config_order(by))
        .collect()
    )


def plan_difficulty(lf: pl.LazyFrame, by: list[str] | None = None) -> pl.DataFrame:
    """Per plan card: validation rate (± 95%), median validation round, rate of scoring first,
    share of validations that scored first, mean points; over player-games with the plan in play."""
    by = _by(lf, by)
    key = _game_key(lf)
    parts = []
    for letter in LETTERS:
        parts.append(
            lf.select(
                *by,
                *key,
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
    keys = [*by, "letter", "plan"]
    stats = long.group_by(keys).agg(
        n=pl.len(),
        validation_rate=p,
        median_round=pl.col("round").filter(pl.col("validated")).median(),
        first_rate=pl.col("first").mean(),
        first_share=pl.col("first").filter(pl.col("validated")).mean(),
        mean_points=pl.col("points").mean(),
    )
    # Every seat of a game plays the same plans: the rate's interval is clustered by game.
    return (
        _attach(stats, _clustered(long, keys, pl.col("validated").cast(pl.Float64)), keys)
        .with_columns(*_wilson("validation_rate"))
        .sort(_config_order(keys))
        .collect()
    )


def plan_combinations(
    lf: pl.LazyFrame, by: list[str] | None = None, letters: tuple[str, ...] = LETTERS
) -> pl.DataFrame:
    """Per combination in play of the given letters' plans (A x B x C by default; A x B pairs
    pool the C cards): player-games, games, mean score, and the share of players validating all
    three plans with its interval clustered by game."""
    by = _by(lf, by)
    keys = [*by, *(f"plan_{x}_id" for x in letters)]
    all_three = (pl.col("plan_a_round") > 0) & (pl.col("plan_b_round") > 0) & (pl.col("plan_c_round") > 0)
    stats = lf.group_by(keys).agg(
        n=pl.len(), mean_total=pl.col("total").mean(), all_three_rate=all_three.mean()
    )
    return (
        _attach(stats, _clustered(lf, keys, all_three.cast(pl.Float64)), keys)
        .with_columns(*_wilson("all_three_rate"))
        .sort(_config_order(keys))
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
        .sort([*_config_order(by), pl.col("end_reason")])
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
        .sort(_config_order(by))
        .collect()
    )


def game_length_histogram(lf: pl.LazyFrame, by: list[str] | None = None) -> pl.DataFrame:
    """Games per number of rounds."""
    by = _by(lf, by)
    return (
        _games(lf)
        .group_by(*by, "rounds")
        .agg(games=pl.len())
        .sort([*_config_order(by), pl.col("rounds")])
        .collect()
    )


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
    return players.join(games, on=by, nulls_equal=True).sort(_config_order(by)).collect()


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
        .sort(_config_order(by))
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


def _changing(lf: pl.LazyFrame, column: str, confounded: list[str], a: object, b: object) -> list[str]:
    """Of the settings confounded with `column`, those whose value differs between its values a and
    b (Quack against the base game changes no sheet; the American Dream does)."""
    out = []
    for c in confounded:
        seen = (
            lf.filter(pl.col(column).eq_missing(a) | pl.col(column).eq_missing(b))
            .select(column, c)
            .unique()
            .collect()
        )
        if seen[c].n_unique() > 1:
            out.append(c)
    return out


def toggle_effect(
    lf: pl.LazyFrame,
    column: str,
    metric: str = "total",
    by: list[str] | None = None,
    baseline: dict[str, object] | None = None,
) -> pl.DataFrame:
    """Effect of switching `column` from its baseline value to each other value, within every
    configuration that has both: difference of means with 95% intervals clustered by game
    (independent and, where seeds are shared, paired). The baseline value is baseline[column] when
    given and present, else the base game's (BASELINE), else the first value sorted. Columns that
    change together with `column` (e.g. two runs of two editions) are not held fixed; they are
    listed in `changes_with`."""
    confounded = _determined_by(lf, column, [c for c in _by(lf, by) if c != column])
    others = [c for c in _by(lf, by) if c != column and c not in confounded]
    games = _per_game(lf, [*others, column], {"_m": pl.col(metric).cast(pl.Float64)}).collect()
    stats = games.group_by(*others, column).agg(n=pl.len(), mean=pl.col("_m").mean(), var=pl.col("_m").var())
    values = _ordered(
        stats[column].unique().to_list(), column, _via_confounded(lf, column, confounded, baseline)
    )
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
                changes_with=pl.lit(", ".join(_changing(lf, column, confounded, values[0], value))),
                a=pl.lit(_word(values[0])),
                b=pl.lit(_word(value)),
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
    paired = _paired(games, column, others, values)
    if paired is None:
        out = out.sort([*others, "b"], nulls_last=True)
        return out.with_columns(
            pairs=pl.lit(0, dtype=pl.UInt32),
            diff_paired=pl.lit(None, dtype=pl.Float64),
            ci95_paired=pl.lit(None, dtype=pl.Float64),
            paired_low=pl.lit(None, dtype=pl.Float64),
            paired_high=pl.lit(None, dtype=pl.Float64),
            pair_r=pl.lit(None, dtype=pl.Float64),
            paired_used=pl.lit(False),
        )
    keys = [*others, "b"]
    return (
        out.join(paired, on=keys, how="left", nulls_equal=True)
        .with_columns(pl.col("pairs").fill_null(0))
        .with_columns(
            # Centred on the mean of the paired differences: when the sides hold different games
            # (an unfinished sweep, runs of different sizes), it is not `diff`.
            paired_low=pl.col("diff_paired") - pl.col("ci95_paired"),
            paired_high=pl.col("diff_paired") + pl.col("ci95_paired"),
            paired_used=(
                (pl.col("pairs") >= 2)
                & pl.col("ci95_paired").is_not_nan()
                & (pl.col("ci95_paired") <= PAIRING_GAIN * pl.col("ci95"))
            ).fill_null(False),
        )
        .sort(keys, nulls_last=True)  # the same order in every run: configuration, then the value
    )


def _word(value: object) -> str:
    """A setting's value as the tables show it (the 9¾ toggle in words)."""
    return str(value)


def _via_confounded(
    lf: pl.LazyFrame, column: str, confounded: list[str], baseline: dict[str, object] | None
) -> dict[str, object] | None:
    """The baseline, with the toggle's own reference value filled in from a setting that changes
    with it (two runs of two editions: the run of the baseline's edition is the reference)."""
    chosen = dict(baseline or {})
    if column in chosen:
        return chosen
    for c in confounded:
        want = chosen.get(c, BASELINE.get(c))
        if want is None:
            continue
        hit = (
            lf.filter(pl.col(c).cast(pl.String).str.to_lowercase() == str(want).lower())
            .select(pl.col(column).unique())
            .collect()[column]
            .to_list()
        )
        if len(hit) == 1:
            chosen[column] = hit[0]
            return chosen
    return chosen


def reference(
    lf: pl.LazyFrame, column: str, by: list[str] | None = None, baseline: dict[str, object] | None = None
) -> dict[str, object]:
    """The value of `column` its effects are measured from (toggle_effect's side a), then the value
    there of each setting that changes with it (two runs of two editions: the run's edition)."""
    confounded = _determined_by(lf, column, [c for c in _by(lf, by) if c != column])
    values = lf.select(pl.col(column).unique()).collect()[column].to_list()
    ref = _ordered(values, column, _via_confounded(lf, column, confounded, baseline))[0]
    at = lf.filter(pl.col(column).eq_missing(ref)).select(confounded).head(1).collect()
    return {column: ref, **{c: at[c][0] for c in confounded}}


def _config_order(by: list[str]) -> list[pl.Expr]:
    """Sort keys of configuration columns: a --vary label by its numbers first (6/3, 8/4, 10/5;
    as text 10/5 would come first), then as text."""
    keys = []
    for c in by:
        if c == "vary":
            keys.append(pl.col(c).str.extract_all(r"-?\d+").list.eval(pl.element().cast(pl.Int64)))
        keys.append(pl.col(c))
    return keys


def _ordered(values: list, column: str, baseline: dict[str, object] | None) -> list:
    """The toggle's values, the reference first: the chosen baseline, else the base game's value
    (for a deck or plan set: a built-in one, before a file of one's own), else the first sorted."""
    chosen = (baseline or {}).get(column, BASELINE.get(column))
    if chosen is None and column in OWN_FILE_COLUMNS:
        # A file of one's own is labelled name.<8 hex digits>; the edition's own has no dot.
        return sorted(values, key=lambda v: ("." in str(v), str(v)))
    return sorted(values, key=lambda v: (not _same(v, chosen), str(v)))


def _same(value: object, chosen: object) -> bool:
    if chosen is None:
        return False
    if isinstance(value, bool) or isinstance(chosen, bool):
        return str(value).lower() == str(chosen).lower()
    return str(value) == str(chosen)


def _paired(games: pl.DataFrame, column: str, others: list[str], values: list) -> pl.DataFrame | None:
    """Paired interval: games of the two values with the same seed are matched (sweeps deal the same
    seeds in every cell), and the interval comes from the spread of the differences of their
    per-game means."""
    if "seed" not in games.columns:
        return None
    keys = [*others, "seed"]

    def by_seed(side: pl.DataFrame) -> pl.DataFrame:
        # Games of one deal (several cells of one configuration) count as one pair side.
        return side.group_by(keys).agg(pl.col("_m").mean())

    base = by_seed(games.filter(pl.col(column).eq_missing(values[0])).drop(column))
    parts = []
    for value in values[1:]:
        alt = by_seed(games.filter(pl.col(column).eq_missing(value)).drop(column))
        d = (
            base.join(alt, on=keys, suffix="_b", nulls_equal=True)
            .with_columns(d=pl.col("_m_b") - pl.col("_m"))
            .group_by(others)
            .agg(
                pairs=pl.len(),
                diff_paired=pl.col("d").mean(),
                sd_d=pl.col("d").std(),
                pair_r=pl.corr("_m", "_m_b"),
            )
            .with_columns(b=pl.lit(_word(value)), ci95_paired=Z * pl.col("sd_d") / pl.col("pairs").sqrt())
            .drop("sd_d")
        )
        parts.append(d)
    result = pl.concat(parts)
    return result if result.height else None


OWN_FILE_COLUMNS = ("deck", "plan_set")  # built-in name, or a file of one's own with its hash
# The base game: the reference side of a toggle when it is there (`report --baseline` overrides).
BASELINE: dict[str, object] = {
    "expansion": "none",
    "nine_three_quarters": False,
    "sheet": "classic",
    "mode": "standard",
    "edition": "collector",
}
# Settings whose effect the report details on more than the score (the expansion toggles).
EXPANSION_TOGGLES = ("expansion", "nine_three_quarters")
EXPANSION_METRICS = ("total", "expansion_points", "net_score", "refusals", "rounds")


def expansion_effects(
    lf: pl.LazyFrame, by: list[str] | None = None, baseline: dict[str, object] | None = None
) -> pl.DataFrame:
    """Each expansion and the 9¾ cards against the base game, in every configuration that has both:
    differences of mean score, expansion points, the score net of them (net_score), refusals per
    player and game length (rounds)."""
    cols = lf.collect_schema().names()
    if "expansion_points" in cols and "total" in cols:
        lf = lf.with_columns(net_score=pl.col("total") - pl.col("expansion_points"))
        cols = [*cols, "net_score"]
    parts = []
    for col in EXPANSION_TOGGLES:
        if col not in cols or col not in toggles(lf, by):
            continue
        for metric in EXPANSION_METRICS:
            if metric in cols:
                e = toggle_effect(lf, col, metric, by, baseline)
                if e.height:
                    parts.append(e)
    return pl.concat(parts, how="diagonal_relaxed") if parts else pl.DataFrame()


def toggles(lf: pl.LazyFrame, by: list[str] | None = None) -> list[str]:
    """Configuration columns that take more than one value (candidates for toggle_effect); of
    columns that change together, only the first is listed."""
    # A --vary sweep's values: each path's effect curve against the file's own value is the
    # sensitivity table's (sensitivity.py), not one toggle against the first label.
    by = [c for c in _by(lf, by) if c != "vary"]
    counts = lf.select(*(pl.col(c).n_unique() for c in by)).collect()
    varying = [c for c in by if counts[c][0] > 1]
    out: list[str] = []
    # The expansion first: an expansion decides its own sheet and plans (the American Dream), so
    # they change with it rather than it with them.
    for c in sorted(varying, key=lambda c: c != "expansion"):
        if not any(c in _determined_by(lf, earlier, [c]) for earlier in out):
            out.append(c)
    return [c for c in varying if c in out]


def balance_tables(
    lf: pl.LazyFrame,
    by: list[str] | None = None,
    baseline: dict[str, object] | None = None,
    files: tuple[tuple[str, str], ...] = (),
) -> dict[str, pl.DataFrame]:
    """Every balance table by name (what `analyze` prints and the report shows), with one
    `effect_<setting>` table per setting that varies; plan tables give each plan's requirement
    (of one's own plan sets and expansion copies too where `files`, plans.own_files, has them).
    A sweep with --vary has its effect curves in sensitivity.py (with_sensitivity)."""
    from welcome_sim.analysis.plans import with_plan_text

    by = _by(lf, by)
    named = {
        "scores": score_distribution(lf, by),
        "components": components(lf, by),
        "plan_difficulty": with_plan_text(plan_difficulty(lf, by), lf, files),
        "plan_combinations": with_plan_text(plan_combinations(lf, by), lf, files),
        "plan_pairs": with_plan_text(plan_combinations(lf, by, ("a", "b")), lf, files),
        "end_reasons": end_reasons(lf, by),
        "game_length": game_length(lf, by),
        "game_length_histogram": game_length_histogram(lf, by),
        "refusals": refusal_rates(lf, by),
    }
    aaa = aaa_results(lf, by)
    if aaa.height:
        named["aaa"] = aaa
    for col in toggles(lf, by):
        effect = toggle_effect(lf, col, "total", by, baseline)
        if effect.height:
            named[f"effect_{col}"] = effect
    xe = expansion_effects(lf, by, baseline)
    if xe.height:
        named["expansions"] = xe
    for name in EXPANSION_COUNTERS:
        xo = expansion_outcomes(lf, name, by)
        if xo.height:
            named[name] = xo
    ro = roswell_outcomes(lf, by)
    if ro.height:
        named["roswell_objectives"] = ro
    return named
