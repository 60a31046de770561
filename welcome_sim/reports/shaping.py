"""A table made to fit the report's card at 1280 px: the settings that vary in one column of words
("Zombie Outbreak · with the 9¾ cards"), each interval under its estimate in the same cell, an
effect's one interval (the one the findings use), and no column of a statistic that cannot vary
(a lone player always scores a plan's first value). The CSV download keeps every column."""

from __future__ import annotations

import io
import math
from typing import Any

import polars as pl

from welcome_sim.analysis import tables as T
from welcome_sim.analysis.labels import SEPARATOR, value_words
from welcome_sim.analysis.rounding import interval_parts

# A setting as the subject of "Effect of ...".
SETTING_NAMES = {
    "nine_three_quarters": "the 9¾ cards",
    "players": "the player count",
    "opponent": "the AAA level",
    "expansion": "each expansion",
    "mode": "the game mode",
    "sheet": "the sheet",
    "edition": "the edition",
    "deck": "the deck",
    "plan_set": "the plan set",
    "plans_mode": "how plans are dealt",
    "table": "the strategies",
    "run": "the run",
}

CONFIG_COLUMN = "configuration"
# Files an expansion brings with it: said by the expansion's name, not again by the file's.
OWN_OF_EXPANSION = ("sheet", "plan_set", "deck")
# estimate column -> its interval's bounds, decimals, signed; the first estimate present is used.
ESTIMATES = (
    ("mean", "ci_low", "ci_high", 2, False),
    ("validation_rate", "ci_low", "ci_high", 1, False),
    ("all_three_rate", "ci_low", "ci_high", 1, False),
)
RATES = {"validation_rate", "all_three_rate", "win_rate"}


def setting_words(column: str, value: object, titled: bool = False) -> str | None:
    """A setting's value in the words of a sentence: labels' words, the 9¾ cards said in full."""
    if column == "nine_three_quarters" and value is not None:
        truth = {"true": True, "false": False}.get(str(value).strip().lower())
        if truth is not None:
            return "with the 9¾ cards" if truth else "without the 9¾ cards"
    if column == "expansion" and titled and value is not None:
        return str(value)  # the table's _words gave it its title already
    return value_words(column, value)


def csv_text(df: pl.DataFrame) -> str:
    """The table's frame as CSV, every column as computed (nested values as text)."""
    flat = df.with_columns(
        [pl.col(c).cast(pl.String) for c, t in df.schema.items() if t.is_nested() or t == pl.Object]
    )
    buf = io.StringIO()
    flat.write_csv(buf)
    return buf.getvalue()


def rows_csv(headers: list[str], rows: list[list[Any]]) -> str:
    """Rows of values as CSV (a table built without a frame)."""
    import csv

    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(headers)
    writer.writerows([["" if v is None else v for v in row] for row in rows])
    return buf.getvalue()


def _said_by_expansion(df: pl.DataFrame, cols: list[str]) -> list[str]:
    """Columns (sheet, plan set, deck) whose value each expansion fixes: the expansion says them."""
    if "expansion" not in cols:
        return []
    out = []
    for c in OWN_OF_EXPANSION:
        if c in cols:
            most = df.group_by("expansion").agg(pl.col(c).n_unique()).get_column(c).max()
            if most is not None and int(most) <= 1:  # type: ignore[arg-type]
                out.append(c)
    return out


def merge_settings(df: pl.DataFrame) -> pl.DataFrame:
    """The configuration columns left (the ones that vary) as one column of words, first."""
    cols = [c for c in T.CONFIG if c in df.columns]
    if not cols:
        return df
    shown = [c for c in cols if c not in _said_by_expansion(df, cols)]
    others = [c for c in shown if c != "run"]
    if "run" in shown and others:
        # Two runs of different settings: the settings tell the rows apart, the run's name adds nothing.
        most = df.group_by(others).agg(pl.col("run").n_unique()).get_column("run").max()
        if most is not None and int(most) <= 1:  # type: ignore[arg-type]
            shown = others
    words = [
        SEPARATOR.join(w for c in shown if (w := setting_words(c, row.get(c), titled=True)) is not None)
        or "all games"
        for row in df.select(cols).iter_rows(named=True)
    ]
    return df.drop(cols).insert_column(0, pl.Series(CONFIG_COLUMN, words, dtype=pl.String))


def _two_lines(
    values: list[Any], lows: list[Any], highs: list[Any], digits: int, pct: bool, sign: bool
) -> list:
    out: list[str | None] = []
    for v, lo, hi in zip(values, lows, highs, strict=True):
        if v is None or (isinstance(v, float) and math.isnan(v)):
            out.append(None)
        elif lo is None or hi is None or any(isinstance(x, float) and math.isnan(x) for x in (lo, hi)):
            out.append(interval_parts(v, v, v, digits, sign, pct)[0])
        else:
            out.append("\n".join(interval_parts(v, lo, hi, digits, sign, pct)))
    return out


def intervals_under(df: pl.DataFrame) -> pl.DataFrame:
    """Each estimate with its interval under it in one cell ('104.40\\n[104.04, 104.75]'); an
    effect with the interval the findings use (paired where it is much narrower)."""
    out = df
    if {"diff", "ci_low", "ci_high"} <= set(out.columns):
        use = out["paired_used"].to_list() if "paired_used" in out.columns else [False] * out.height

        def pick(i: int, own: str, paired: str) -> Any:
            return out[paired][i] if use[i] and paired in out.columns else out[own][i]

        n = range(out.height)
        cells = _two_lines(
            [pick(i, "diff", "diff_paired") for i in n],
            [pick(i, "ci_low", "paired_low") for i in n],
            [pick(i, "ci_high", "paired_high") for i in n],
            2,
            False,
            True,
        )
        lows, highs = (
            [pick(i, "ci_low", "paired_low") for i in n],
            [pick(i, "ci_high", "paired_high") for i in n],
        )
        cells = [
            # Paired games that are the same on both sides (two runs of one seed): no difference can show.
            "0\nthe same games"
            if use[i] and lows[i] is not None and highs[i] is not None and lows[i] == highs[i] == 0
            else c + (" paired" if c and use[i] else "")
            for i, c in enumerate(cells)
        ]
        position = out.columns.index("diff")
        out = out.drop("diff").insert_column(position, pl.Series("difference b − a", cells, dtype=pl.String))
        drop = [
            "ci_low",
            "ci_high",
            "paired_low",
            "paired_high",
            "paired_used",
            "diff_paired",
            "pair_r",
            "pairs",
        ]
        return out.drop([c for c in drop if c in out.columns])
    for est, lo, hi, digits, sign in ESTIMATES:
        if {est, lo, hi} <= set(out.columns):
            cells = _two_lines(
                out[est].to_list(), out[lo].to_list(), out[hi].to_list(), digits, est in RATES, sign
            )
            position = out.columns.index(est)
            out = out.drop(est, lo, hi).insert_column(position, pl.Series(est, cells, dtype=pl.String))
            break
    if "win_rate" in out.columns and "win_ci95" in out.columns:
        w, h = out["win_rate"].to_list(), out["win_ci95"].to_list()
        cells = _two_lines(
            w,
            [None if x is None or y is None else x - y for x, y in zip(w, h, strict=True)],
            [None if x is None or y is None else x + y for x, y in zip(w, h, strict=True)],
            1,
            True,
            False,
        )
        out = out.with_columns(pl.Series("win_rate", cells, dtype=pl.String)).drop("win_ci95")
    return out


def without_fixed_statistics(df: pl.DataFrame) -> tuple[pl.DataFrame, list[str]]:
    """Columns of a statistic that cannot vary here dropped, with a sentence saying why: the
    first-value columns where every player who validated a plan scored its first value (a lone
    player with no AAA has no one to race)."""
    said = []
    if "first_share" in df.columns:
        share = df["first_share"].drop_nulls().drop_nans()
        if share.len() and bool((share == 1.0).all()):
            df = df.drop([c for c in ("first_rate", "first_share") if c in df.columns])
            said.append(
                "No first-value columns: every player who validated a plan scored its first (higher) value, "
                "as a lone player with no AAA always does."
            )
        elif "players" in df.columns:
            alone = (pl.col("players") == 1) & (
                pl.col("opponent").is_null() if "opponent" in df.columns else pl.lit(True)
            )
            df = df.with_columns(
                [
                    pl.when(alone).then(None).otherwise(pl.col(c)).alias(c)
                    for c in ("first_rate", "first_share")
                ]
            )
            said.append("First-value columns are blank for a lone player with no AAA: no one races them.")
    if "n" in df.columns and "games" in df.columns and df["n"].equals(df["games"].cast(df["n"].dtype)):
        df = df.drop("n")  # one seat a game: the two counts are the same
    if "letter" in df.columns and "plan" in df.columns:
        df = df.drop("letter")  # the card's name starts with its letter
    if "requirements" in df.columns:
        df = df.drop([c for c in ("plan_a_id", "plan_b_id", "plan_c_id") if c in df.columns])
    return df, said
