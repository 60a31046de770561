"""The expansions' own balance tables (balance_tables in tables.py shows them): each expansion's
counters per configuration from its record, and Roswell's infiltration objectives."""

from __future__ import annotations

import polars as pl

from welcome_sim.analysis.clustered import Z, _attach, _by, _clustered, _games
from welcome_sim.simcore.ground.datafiles import LABEL_HASH
from welcome_sim.simcore.rules.expansions.registry import RECORDS

# Each expansion's own counters (row columns), from its record: (title, what the counters are,
# counters, an end reason whose share of games is shown or ""). The report shows one table per
# expansion played.
EXPANSION_COUNTERS: dict[str, tuple[str, str, tuple[str, ...], str]] = {
    r.name: (r.counters.title, r.counters.note, r.counters.columns, r.counters.end_reason)
    for r in RECORDS
    if r.counters is not None
}
ZOMBIE_COUNTS = EXPANSION_COUNTERS["zombies"][2]


def expansion_rules() -> pl.Expr:
    """The expansion column as the expansions whose rules the rows play: a copy of one's own
    ('zombies.1a2b3c4d') as the one it lays out ('zombies')."""
    return pl.col("expansion").str.replace(LABEL_HASH, "")


def _plays(name: str) -> pl.Expr:
    """Rows of an expansion: the built-in file's and copies of one's own laying out its rules (the
    expansion column keeps them apart wherever it varies)."""
    return expansion_rules() == name


def expansion_outcomes(lf: pl.LazyFrame, name: str, by: list[str] | None = None) -> pl.DataFrame:
    """An expansion's games per configuration: its counters per player (means with 95% CIs
    clustered by game) and, where it has one, the share of games its own end reason ended."""
    _, _, counters, reason = EXPANSION_COUNTERS[name]
    cols = lf.collect_schema().names()
    if "expansion" not in cols or not all(c in cols for c in counters):
        return pl.DataFrame()
    z = lf.filter(_plays(name))
    by = _by(lf, by)
    per_player = z.group_by(by).agg(pl.len().alias("player_games"), *(pl.col(c).mean() for c in counters))
    for c in counters:  # intervals clustered by game, as everywhere
        per_player = _attach(
            per_player, _clustered(z, by, pl.col(c).cast(pl.Float64), f"{c}_ci95").drop("games"), by
        )
    if not reason:
        return per_player.sort(by).collect() if by else per_player.collect()
    share = f"{reason.replace('-', '_')}_share"
    ended = (
        _games(z)
        .group_by(by)
        .agg(games=pl.len(), **{share: pl.col("end_reason").str.contains(reason).mean()})
        .with_columns(
            **{
                f"{share.removesuffix('_share')}_ci95": Z
                * (pl.col(share) * (1 - pl.col(share)) / pl.col("games")).sqrt()
            }
        )
    )
    out = (
        per_player.join(ended, on=by, how="left", nulls_equal=True)
        if by
        else pl.concat([per_player, ended], how="horizontal")
    )
    return out.sort(by).collect() if by else out.collect()


def zombie_outcomes(lf: pl.LazyFrame, by: list[str] | None = None) -> pl.DataFrame:
    """Zombie Outbreak games per configuration (expansion_outcomes of "zombies")."""
    return expansion_outcomes(lf, "zombies", by)


ROSWELL_COUNTS = ("zoorgs", "infiltrated", "expansion_points")


def roswell_outcomes(lf: pl.LazyFrame, by: list[str] | None = None) -> pl.DataFrame:
    """Roswell games per configuration and infiltration objective chosen (its box): the share of
    players who chose it, Zoorgs infiltrated, infiltrated estates and the objective's points per
    player (means with 95% CIs clustered by game)."""
    cols = lf.collect_schema().names()
    if "expansion" not in cols or not all(c in cols for c in ("objective", *ROSWELL_COUNTS)):
        return pl.DataFrame()
    r = lf.filter(_plays("roswell"))
    if r.select(pl.len()).collect().item() == 0:
        return pl.DataFrame()
    by = _by(lf, by)
    keys = [*by, "objective"]
    out = r.group_by(keys).agg(pl.len().alias("player_games"), *(pl.col(c).mean() for c in ROSWELL_COUNTS))
    for c in ROSWELL_COUNTS:
        out = _attach(out, _clustered(r, keys, pl.col(c).cast(pl.Float64), f"{c}_ci95").drop("games"), keys)
    totals = r.group_by(by).agg(pl.len().alias("_all")) if by else None
    if totals is not None:
        out = out.join(totals, on=by, how="left", nulls_equal=True)
    else:
        out = out.with_columns(_all=r.select(pl.len()).collect().item())
    out = out.with_columns(chosen_share=pl.col("player_games") / pl.col("_all")).drop("_all")
    return out.sort(keys).collect()
