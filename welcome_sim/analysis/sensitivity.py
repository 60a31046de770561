"""Effect curves of varied values (issue 42, `sweep --vary`): for each path a sweep varied, how the
measures that matter answer its value, with 95% intervals.

Each row is one value of one path in one configuration (the other settings, and the other paths'
values when several were varied): games; the mean score with its interval clustered by game (the
seats of a game share its deal) and the spread (SD) of scores; refusals per player and game length
in rounds, each with its clustered interval; for a plan card's path, the card's validation rate
(Wilson's interval at the clustered sample size) and its mean points, over the games it was in
play; and the difference of mean score from the reference value (the file's own value where the
manifest records it and the sweep played it, else the first value), from tables.toggle_effect:
**paired** by seed (every cell of a sweep deals the same seeds) where pairing narrows the interval
to at most PAIRING_GAIN of the independent one, independent otherwise (`paired` says which). For an
expansion's path, the same difference of the score net of the expansion's own points (`net_diff`:
points lost, negative = lost) is given too.
"""

from __future__ import annotations

import re

import polars as pl

from welcome_sim.analysis.clustered import _by, _clustered, _wilson
from welcome_sim.analysis.tables import toggle_effect
from welcome_sim.simcore.rules.overrides import LABEL_SEP, parse_label

VARY = "vary"
# The measures of every path: (column, value per row, words).
MEASURES = (
    ("score", pl.col("total").cast(pl.Float64), "mean score"),
    ("refusals", pl.col("refusals").cast(pl.Float64), "refusals per player"),
    ("rounds", pl.col("rounds").cast(pl.Float64), "game length (rounds)"),
)


def varied_paths(lf: pl.LazyFrame) -> list[str]:
    """The paths a sweep's rows vary, in the order their labels name them ([] without a `vary` column)."""
    if VARY not in lf.collect_schema().names():
        return []
    labels = lf.select(pl.col(VARY).unique(maintain_order=True)).collect()[VARY].to_list()
    return list(dict.fromkeys(p for text in labels if text for p in parse_label(text)))


def value_key(value: str) -> tuple:
    """A value's sort key: lists of whole numbers by their numbers (6/3 before 10/5), else text."""
    parts = value.split("/")
    if all(re.fullmatch(r"-?\d+", p) for p in parts):
        return (0, tuple(int(p) for p in parts))
    return (1, value)


def with_path_columns(lf: pl.LazyFrame, paths: list[str]) -> pl.LazyFrame:
    """The rows with one column per varied path, named by the path, holding its value."""
    cols = []
    for path in paths:
        pattern = rf"(?:^|{re.escape(LABEL_SEP)}){re.escape(path)}=([^;]+)"
        cols.append(pl.col(VARY).str.extract(pattern, 1).alias(path))
    return lf.with_columns(cols)


def _plan_measures(pid: str) -> tuple[pl.Expr, pl.Expr, pl.Expr]:
    """Whether a plan card is in play, was validated and its points, from the three plan slots."""
    in_play = pl.lit(False)
    done = pl.lit(None, dtype=pl.Float64)
    points = pl.lit(None, dtype=pl.Float64)
    for s in "abc":
        here = pl.col(f"plan_{s}_id") == pid
        in_play = in_play | here
        done = pl.when(here).then((pl.col(f"plan_{s}_round") > 0).cast(pl.Float64)).otherwise(done)
        points = pl.when(here).then(pl.col(f"plan_{s}").cast(pl.Float64)).otherwise(points)
    return in_play, done, points


def _mean_ci(lf: pl.LazyFrame, keys: list[str], name: str, value: pl.Expr) -> pl.LazyFrame:
    """Per group: the mean of value and its clustered 95% bounds (name, name_low, name_high)."""
    means = lf.group_by(keys).agg(value.mean().alias(name))
    half = _clustered(lf, keys, value, "_half").drop("games")
    return (
        means.join(half, on=keys, how="left", nulls_equal=True)
        .with_columns(
            (pl.col(name) - pl.col("_half")).alias(f"{name}_low"),
            (pl.col(name) + pl.col("_half")).alias(f"{name}_high"),
        )
        .drop("_half")
    )


def _difference(
    lf: pl.LazyFrame, path: str, keys: list[str], ref: str, metric: str, name: str
) -> pl.DataFrame:
    """The difference of a metric's mean from the reference value, paired where pairing narrows it."""
    eff = toggle_effect(lf, path, metric, keys, {path: ref})
    if not eff.height:
        return pl.DataFrame()
    others = [c for c in keys if c != path and c in eff.columns]
    used = pl.col("paired_used")
    return eff.select(
        *others,
        pl.col("b").alias(path),
        pl.when(used).then("diff_paired").otherwise("diff").alias(name),
        pl.when(used).then("paired_low").otherwise("ci_low").alias(f"{name}_low"),
        pl.when(used).then("paired_high").otherwise("ci_high").alias(f"{name}_high"),
        used.alias(f"{name}_paired"),
    )


def sensitivity(
    lf: pl.LazyFrame, by: list[str] | None = None, own: dict[str, str] | None = None
) -> pl.DataFrame:
    """One row per varied path, value and configuration: the measures of the module's docstring.
    `own`: each path's value in its file as the sweep read it (the manifests' `vary_own`), the
    reference of the differences where it was played."""
    paths = varied_paths(lf)
    if not paths:
        return pl.DataFrame()
    lf = with_path_columns(lf, paths)
    cols = lf.collect_schema().names()
    if "expansion_points" in cols:
        lf = lf.with_columns(net_score=pl.col("total") - pl.col("expansion_points"))
    config = [c for c in _by(lf, by) if c != VARY]
    parts = []
    for path in paths:
        keys = [*config, *(q for q in paths if q != path), path]
        part = _per_value(lf, path, keys, (own or {}).get(path))
        parts.append(part.rename({path: "value"}).select(pl.lit(path).alias("path"), pl.all()))
    return pl.concat(parts, how="diagonal_relaxed")


def _own_points(lf: pl.LazyFrame) -> bool:
    """Whether the rows hold points of an expansion's own (else the net score is the score)."""
    if "net_score" not in lf.collect_schema().names():
        return False
    return bool(lf.select((pl.col("expansion_points") != 0).any()).collect().item())


def _per_value(lf: pl.LazyFrame, path: str, keys: list[str], own: str | None) -> pl.DataFrame:
    """A path's rows: every measure per value (and per configuration)."""
    games = _clustered(lf, keys, pl.col("total").cast(pl.Float64), "_h").drop("_h")
    out = games.join(
        lf.group_by(keys).agg(score_sd=pl.col("total").cast(pl.Float64).std()), on=keys, nulls_equal=True
    )
    for name, value, _words in MEASURES:
        out = out.join(_mean_ci(lf, keys, name, value), on=keys, how="left", nulls_equal=True)
    if path.startswith("plans."):
        in_play, done, points = _plan_measures(path.split(".")[1])
        cards = lf.filter(in_play)
        rate = (
            _clustered(cards, keys, done, "ci95")
            .join(cards.group_by(keys).agg(plan_rate=done.mean()), on=keys, nulls_equal=True)
            .with_columns(_wilson("plan_rate"))
            .select(*keys, "plan_rate", plan_rate_low="ci_low", plan_rate_high="ci_high", plan_games="games")
        )
        out = out.join(rate, on=keys, how="left", nulls_equal=True)
        out = out.join(_mean_ci(cards, keys, "plan_points", points), on=keys, how="left", nulls_equal=True)
    frame = out.collect()
    values = sorted(frame[path].unique().to_list(), key=value_key)
    ref = own if own in values else values[0]
    frame = frame.with_columns(reference=pl.col(path) == ref)
    extra = [("total", "diff")]
    if path.startswith("expansion.") and _own_points(lf):
        extra.append(("net_score", "net_diff"))
    for metric, name in extra:
        diff = _difference(lf, path, keys, ref, metric, name)
        if diff.height:
            on = [c for c in diff.columns if c in keys]
            frame = frame.join(diff, on=on, how="left", nulls_equal=True)
    order = {v: i for i, v in enumerate(values)}
    return frame.sort([*(k for k in keys if k != path), pl.col(path).replace_strict(order)], nulls_last=True)
