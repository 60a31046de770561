"""The grouping every balance table shares (tables.py, expansion_tables.py): a sweep's rows by
configuration, one row per game, and 95% half-widths clustered by game (tables.py's docstring gives
the method)."""

from __future__ import annotations

import polars as pl

from welcome_sim.sweep.rows import CONFIG

Z = 1.96


def _by(lf: pl.LazyFrame, by: list[str] | None) -> list[str]:
    cols = lf.collect_schema().names()
    return [c for c in (CONFIG if by is None else by) if c in cols]


def _games(lf: pl.LazyFrame) -> pl.LazyFrame:
    """One row per game (seat 0): for game-level measures such as length and end reason."""
    return lf.filter(pl.col("seat") == 0)


def _game_key(lf: pl.LazyFrame) -> list[str]:
    """The columns that tell the games of a configuration apart: the sweep cell and the game's seed
    (two cells of one configuration, such as two fixed plan trios, deal the same seeds); [] when
    rows carry no seed."""
    cols = lf.collect_schema().names()
    if "seed" not in cols:
        return []
    return ["cell", "seed"] if "cell" in cols else ["seed"]


def _per_game(lf: pl.LazyFrame, by: list[str], values: dict[str, pl.Expr]) -> pl.LazyFrame:
    """One row per game of each configuration: each value's mean over the game's seats."""
    key = _game_key(lf)
    if not key:
        return lf.select(*by, **values)
    return lf.group_by(*by, *key).agg(**{k: v.mean() for k, v in values.items()})


def _clustered(lf: pl.LazyFrame, by: list[str], value: pl.Expr, name: str = "ci95") -> pl.LazyFrame:
    """games and the clustered 95% half-width of value's mean, per configuration."""
    g = _per_game(lf, by, {"_v": value})
    stats = (g.group_by(by).agg if by else g.select)(games=pl.len(), _sd=pl.col("_v").std())
    # One game has no spread to measure: its interval stays null (unknown), never zero-width.
    return stats.with_columns((Z * pl.col("_sd") / pl.col("games").sqrt()).alias(name)).drop("_sd")


def _wilson(rate: str) -> list[pl.Expr]:
    """ci_low and ci_high of a rate: Wilson's score interval at the effective sample size of the
    clustered interval (games when the clustered half-width is 0: a rate of 0 or 1 still gets an
    honest interval, not [0, 0])."""
    p, half = pl.col(rate), pl.col("ci95")
    n = pl.when(half > 0).then(p * (1 - p) * (Z / half) ** 2).otherwise(pl.col("games").cast(pl.Float64))
    z2 = Z * Z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    width = Z / (1 + z2 / n) * (p * (1 - p) / n + z2 / (4 * n * n)).sqrt()
    return [(centre - width).clip(0.0, 1.0).alias("ci_low"), (centre + width).clip(0.0, 1.0).alias("ci_high")]


def _attach(left: pl.LazyFrame, right: pl.LazyFrame, by: list[str]) -> pl.LazyFrame:
    """Join per-configuration columns (a cross join when there is no configuration column)."""
    if by:
        return left.join(right, on=by, how="left", nulls_equal=True)
    return left.join(right, how="cross")
