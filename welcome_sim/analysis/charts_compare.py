"""The charts that compare: against the AAA level by level, across player counts (and the plan
race), each expansion and the 9¾ cards against the base game, and a difficulty ranking."""

from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import polars as pl
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, MaxNLocator

from welcome_sim.analysis.chartkit import (
    LINE_IN,
    MAX_COMPARISONS,
    MAX_HEIGHT_IN,
    MAX_WIDTH_IN,
    STARS_NONE,
    Configs,
    _chunks,
    _common,
    _finish,
    _intervals,
    _rows,
    _same_x,
    _wrap,
    configurations,
    fitting,
    palette,
)
from welcome_sim.analysis.labels import (
    METRICS,
    parts_of,
    value_words,
)
from welcome_sim.analysis.tables import CONFIG, EXPANSION_METRICS, Z
from welcome_sim.errors import WelcomeSimError


def _line_panels(cfg: Configs, per_panel: int, kinds: int, size: tuple[float, float]) -> tuple:
    """Rows of `kinds` panels (one per measure), one row per group of configurations (lines), as many
    rows as fit MAX_HEIGHT_IN."""
    chunks = _chunks(cfg, per_panel)
    chunks = chunks[: fitting([size[1]] * len(chunks), MAX_HEIGHT_IN - 0.6)]
    named = [_common(cfg, idx) for idx in chunks]
    fig, axes = _rows([t for t, _own in named], [size[1]] * len(chunks), kinds, size[0])
    return fig, axes, chunks, [own for _t, own in named]


def _drawn(cfg: Configs, chunks: list[list[int]]) -> list[str]:
    """The labels of the configurations the rows draw, in order."""
    return [cfg.labels[i] for idx in chunks for i in idx]


def aaa_chart(aaa: pl.DataFrame, by: list[str] | None = None) -> Figure:
    """AAA solo mode: the player's win rate (95% interval) and mean margin per AAA level, a line per
    other configuration."""
    cfg = configurations(aaa, by, exclude=("opponent", "opponent_name"), empty_label="all AAA games")
    aaa = cfg.attach(aaa).sort("_ci", "opponent")
    levels = sorted(aaa["opponent"].drop_nulls().unique().to_list())
    names = {}
    if "opponent_name" in aaa.columns:
        for level in levels:
            got = aaa.filter(pl.col("opponent") == level)["opponent_name"].drop_nulls().unique().to_list()
            names[level] = got[0] if len(got) == 1 else None
    fig, axes, chunks, owns = _line_panels(cfg, 6, 2, (4.2, 3.0))
    step = 0.06
    for r, idx in enumerate(chunks):
        own = owns[r]
        colours = palette(len(idx))  # per group: a few dark, distinct colours
        win_ax, margin_ax = axes[2 * r], axes[2 * r + 1]
        for k, i in enumerate(idx):
            sub = aaa.filter(pl.col("_ci") == i)
            dx = (k - (len(idx) - 1) / 2) * step
            won = sub.filter(pl.col("win_rate").is_not_null())
            x = won["opponent"].to_numpy().astype(float) + dx
            rate = won["win_rate"].to_numpy().astype(float)
            half = won["win_ci95"].fill_null(np.nan).to_numpy().astype(float)
            _intervals(
                win_ax,
                x,
                rate,
                np.clip(rate - half, 0, 1),
                np.clip(rate + half, 0, 1),
                colours[k],
                vertical=True,
            )
            win_ax.plot(x, rate, "-o", color=colours[k], markersize=3.5, linewidth=1.2, label=_wrap(own[k]))
            # Level 0 does not score: its margin is the player's whole score and would flatten the rest.
            scoring = sub.filter(pl.col("opponent") > 0)
            margin_ax.plot(
                scoring["opponent"].to_numpy().astype(float) + dx,
                scoring["margin"].to_numpy().astype(float),
                "-o",
                color=colours[k],
                markersize=3.5,
                linewidth=1.2,
                label=_wrap(own[k]),
            )
        win_ax.axhline(0.5, color="grey", linewidth=0.8, linestyle=":")
        margin_ax.axhline(0, color="grey", linewidth=0.8)
        win_ax.set_ylim(-0.03, 1.03)  # a margin keeps rates of 0 and 1 whole
        win_ax.set_title("Player's win rate (95% CI)")
        margin_ax.set_title("Mean margin: player − AAA (points; level 0 does not score)")
        for ax in (win_ax, margin_ax):
            ax.grid(alpha=0.3)
        if len(idx) > 1:
            margin_ax.legend(bbox_to_anchor=(1.02, 1), loc="upper left")
    ticks = [f"{lv}\n{names[lv]}" if names.get(lv) else str(lv) for lv in levels]
    for ax in axes:
        ax.set_xticks(levels, ticks)
    _same_x(axes, 2)
    for ax in axes[-2:]:
        ax.set_xlabel("AAA level (Opponent card)")
    return _finish(fig, "Against the AAA, level by level", _drawn(cfg, chunks), cfg.total)


def _plan_race(plans: pl.DataFrame) -> pl.DataFrame:
    """Per configuration (`_ci`) and player count: the share of plan validations that scored the
    plan's first value, over every plan card, with a 95% interval (p ± 1.96·√(p(1−p)/validations))."""
    return (
        plans.group_by("_ci", "players")
        .agg(
            validations=(pl.col("validation_rate") * pl.col("n")).sum(),
            firsts=(pl.col("first_rate") * pl.col("n")).sum(),
        )
        .filter(pl.col("validations") > 0)
        .with_columns(share=pl.col("firsts") / pl.col("validations"))
        .with_columns(ci95=Z * (pl.col("share") * (1 - pl.col("share")) / pl.col("validations")).sqrt())
        .sort("_ci", "players")
    )


def player_count_chart(
    scores: pl.DataFrame, plans: pl.DataFrame | None = None, by: list[str] | None = None
) -> Figure:
    """Mean score (95% interval) against the player count and, from the plan table, the plan race: the
    share of plan validations that scored first; a line per other configuration."""
    # Only configurations played at two or more player counts have a line to draw.
    keys = [c for c in (CONFIG if by is None else by) if c in scores.columns and c != "players"]
    if keys:
        several = scores.group_by(keys).agg(pl.col("players").n_unique().alias("_counts"))
        several = several.filter(pl.col("_counts") > 1).drop("_counts")
        if several.height:
            scores = scores.join(several, on=keys, nulls_equal=True)
            if plans is not None and plans.height:
                plans = plans.join(several, on=[k for k in keys if k in plans.columns], nulls_equal=True)
    cfg = configurations(scores, by, exclude=("players",))
    scores = cfg.attach(scores).sort("_ci", "players")
    race = None
    if plans is not None and plans.height and {"first_rate", "players"} <= set(plans.columns):
        race = _plan_race(cfg.attach(plans))
    kinds = 2 if race is not None else 1
    counts = sorted(scores["players"].unique().to_list())
    fig, axes, chunks, owns = _line_panels(cfg, 6, kinds, (4.2, 3.0))
    step = 0.05
    for r, idx in enumerate(chunks):
        own = owns[r]
        colours = palette(len(idx))  # per group: a few dark, distinct colours
        score_ax = axes[kinds * r]
        for k, i in enumerate(idx):
            dx = (k - (len(idx) - 1) / 2) * step
            sub = scores.filter(pl.col("_ci") == i)
            x = sub["players"].to_numpy().astype(float) + dx
            mean = sub["mean"].to_numpy().astype(float)
            _intervals(
                score_ax,
                x,
                mean,
                sub["ci_low"].to_numpy(),
                sub["ci_high"].to_numpy(),
                colours[k],
                vertical=True,
            )
            score_ax.plot(x, mean, "-o", color=colours[k], markersize=3.5, linewidth=1.2, label=_wrap(own[k]))
            if race is not None:
                got = race.filter(pl.col("_ci") == i)
                xr = got["players"].to_numpy().astype(float) + dx
                share = got["share"].to_numpy()
                half = got["ci95"].to_numpy()
                race_ax = axes[kinds * r + 1]
                _intervals(
                    race_ax, xr, share, share - half, np.minimum(share + half, 1), colours[k], vertical=True
                )
                race_ax.plot(
                    xr, share, "-o", color=colours[k], markersize=3.5, linewidth=1.2, label=_wrap(own[k])
                )
        score_ax.set_title("Mean final score (95% CI)")
        score_ax.grid(alpha=0.3)
        last = axes[kinds * r + kinds - 1]
        if race is not None:
            last.set_title("Plan race: validations that scored first")
            last.set_ylim(-0.03, 1.03)
            last.grid(alpha=0.3)
        if len(idx) > 1:
            last.legend(bbox_to_anchor=(1.02, 1), loc="upper left")
    for ax in axes:
        ax.set_xticks(counts)
    _same_x(axes, kinds)
    for ax in axes[-kinds:]:
        ax.set_xlabel("players")
    return _finish(fig, "Player count and the plan race", _drawn(cfg, chunks), cfg.total)


def expansion_chart(effects: pl.DataFrame, by: list[str] | None = None) -> Figure:
    """Each expansion and the 9¾ cards against the base game (the `expansions` table): difference of
    the mean (dot), its 95% interval (thin line) and paired interval (thick), a panel per metric."""
    cols = [c for c in (CONFIG if by is None else by) if c in effects.columns]
    keys = ["toggle", "a", "b", *(["changes_with"] if "changes_with" in effects.columns else []), *cols]
    comps = effects.select(keys).unique()
    others = [c for c in cols if comps[c].n_unique() > 1]
    comps = comps.sort(["toggle", "b", *others], nulls_last=True)
    words = []
    for row in comps.iter_rows(named=True):
        text = f"{value_words(row['toggle'], row['b'])} vs {value_words(row['toggle'], row['a'])}"
        if row.get("changes_with"):
            text += f" (also changes: {row['changes_with']})"
        words.append(text)
    total = comps.height
    comps = comps.with_columns(comparison=pl.Series(words, dtype=pl.String))
    comps = comps.head(MAX_COMPARISONS).with_row_index("_ci")
    # The comparisons as configurations of their own: the words above, then the settings held fixed.
    cfg = Configs(
        ["comparison", *others],
        comps.select("_ci", "comparison", *others),
        [parts_of(r, ["comparison", *others]) for r in comps.iter_rows(named=True)],
        total,
    )
    data = effects.join(comps, on=keys, how="inner", nulls_equal=True)
    present = set(data["metric"])
    metrics = [m for m in EXPANSION_METRICS if m in present] + sorted(present - set(EXPANSION_METRICS))
    chunks = _by_toggle(comps, 20)
    named = [_common(cfg, idx) for idx in chunks]
    wrapped = [[_wrap(s, 36) for s in own] for _title, own in named]
    panels = [_measured(data, idx, metrics) for idx in chunks]
    heights = [
        1.1 + LINE_IN * _lines(t) + sum(0.08 + 0.15 * (w.count("\n") + 1) for w in ws)
        for (t, _o), ws in zip(named, wrapped, strict=True)
    ]
    chunks = chunks[: fitting(heights, MAX_HEIGHT_IN - 0.8)]
    heights, panels = heights[: len(chunks)], panels[: len(chunks)]
    width = min(2.1, (MAX_WIDTH_IN - 2.8) / max(len(p) for p in panels))
    fig, axes = _rows([t for t, _own in named[: len(chunks)]], heights, [len(p) for p in panels], width)
    k = 0
    for r, idx in enumerate(chunks):
        # Each row is named by its label: colour only tells neighbours apart, so tab10's dark colours
        # repeat every ten rows rather than paling into tab20's light half.
        colours = [palette(10)[k % 10] for k in range(len(idx))]
        for c, metric in enumerate(panels[r]):
            ax = axes[k + c]
            sub = data.filter((pl.col("metric") == metric) & pl.col("_ci").is_in(idx))
            for row in sub.iter_rows(named=True):
                y, diff = idx.index(row["_ci"]), row["diff"]
                colour = colours[y]
                _intervals(
                    ax,
                    [diff],
                    [y],
                    [row["ci_low"]],
                    [row["ci_high"]],
                    colour,
                    vertical=False,
                    width=1.0,
                    alpha=0.6,
                )
                # The paired interval only where pairing narrows it (tables.PAIRING_GAIN).
                paired = row.get("ci95_paired") if row.get("paired_used", True) else None
                if paired is not None and np.isfinite(paired):
                    lo, hi = diff - paired, diff + paired
                    _intervals(ax, [diff], [y], [lo], [hi], colour, vertical=False, width=3.5, alpha=0.45)
                ax.plot(
                    [diff],
                    [y],
                    "o",
                    color=colour,
                    markersize=4.5,
                    markeredgecolor="black",
                    markeredgewidth=0.6,
                )
            ax.axvline(0, color="grey", linewidth=0.8)
            ax.tick_params(left=False, bottom=False)
            ax.set_yticks(range(len(idx)), wrapped[r] if c == 0 else [])
            ax.set_ylim(len(idx) - 0.5, -0.5)
            ax.set_title(_wrap(METRICS.get(metric, metric.replace("_", " ")), 22))
            ax.grid(axis="x", alpha=0.3)
            # Each panel its own scale (an expansion's -25 hid the 9¾ cards' +1), few ticks, signed.
            ax.xaxis.set_major_locator(MaxNLocator(nbins=3, steps=[1, 2, 2.5, 5, 10]))
            ax.xaxis.set_major_formatter(FuncFormatter(_signed))
            ax.set_xlabel("with − without")
        k += len(panels[r])
    fig.text(
        0.5,
        -0.01,
        "dot: difference of means; thin line: 95% interval (independent samples); "
        "thick line: 95% interval of same-seed pairs",
        ha="center",
        va="top",
    )
    return _finish(fig, "Expansions and the 9¾ cards against the base game", cfg.labels, total, "comparisons")


def _signed(value: float, _pos: int | None = None) -> str:
    """A tick's value with its sign and no more digits than it needs ('+0.05', '−25', '0')."""
    if abs(value) < 1e-12:
        return "0"
    text = f"{value:+.3f}".rstrip("0").rstrip(".")
    return text.replace("-", "−")


def _lines(text: str, width: int = 110) -> int:
    return _wrap(text, width).count("\n") + 1 if text else 0


def _by_toggle(comps: pl.DataFrame, per_panel: int) -> list[list[int]]:
    """The comparisons' indices in groups of one setting each (an expansion's effect and the 9¾
    cards' differ by an order of magnitude: each group gets its own scales), at most per_panel."""
    out: list[list[int]] = []
    for toggle in comps["toggle"].unique(maintain_order=True).to_list():
        idx = comps.filter(pl.col("toggle") == toggle)["_ci"].to_list()
        parts = math.ceil(len(idx) / per_panel)
        size = math.ceil(len(idx) / parts)
        out += [idx[i : i + size] for i in range(0, len(idx), size)]
    return out


def _measured(data: pl.DataFrame, idx: list[int], metrics: list[str]) -> list[str]:
    """The metrics a group of comparisons has something to show in: a metric zero on both sides of
    every comparison (expansion points without an expansion) is left out, and so is the score net of
    expansion points then (it equals the final score)."""
    sub = data.filter(pl.col("_ci").is_in(idx))

    def empty(metric: str) -> bool:
        rows = sub.filter(pl.col("metric") == metric)
        return rows.height == 0 or bool(((rows["mean_a"] == 0) & (rows["mean_b"] == 0)).all())

    out = [m for m in metrics if not empty(m)]
    if "expansion_points" in metrics and "expansion_points" not in out:
        out = [m for m in out if m != "net_score"]
    return out or metrics[:1]


def _stars(value: object) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return STARS_NONE
    n = int(value)
    return "★" * n if n > 0 else "0 stars"


def difficulty_chart(
    df: pl.DataFrame, title: str = "Difficulty ranking", xlabel: str = "difficulty index"
) -> Figure:
    """A ranking (columns item, index, ci_low, ci_high, stars) as dots with 95% intervals, highest index
    on top, the publisher's stars beside each label and colouring its dot."""
    need = ["item", "index", "ci_low", "ci_high", "stars"]
    missing = [c for c in need if c not in df.columns]
    if missing:
        raise WelcomeSimError(
            f"difficulty_chart: missing column{'s' * (len(missing) != 1)} {', '.join(missing)}; a ranking needs {', '.join(need)}"
        )
    if df.height == 0:
        raise WelcomeSimError("difficulty_chart: the ranking has no rows; give at least one item")
    df = df.sort("index", descending=True, nulls_last=True)
    ratings = [_stars(s) for s in df["stars"].to_list()]
    kinds = sorted(set(ratings), key=lambda s: (s == STARS_NONE, len(s), s))
    colours = dict(zip(kinds, palette(len(kinds)), strict=True))
    labels = [f"{item}   {stars}" for item, stars in zip(df["item"].to_list(), ratings, strict=True)]
    # Wide enough for the legend beside the plot.
    fig, ax = plt.subplots(figsize=(8.0, 0.9 + 0.24 * df.height), layout="constrained")
    y = np.arange(df.height)
    index = df["index"].to_numpy().astype(float)
    for kind in kinds:
        rows = [k for k, s in enumerate(ratings) if s == kind]
        lo = df["ci_low"].to_numpy().astype(float)[rows]
        hi = df["ci_high"].to_numpy().astype(float)[rows]
        _intervals(ax, index[rows], y[rows], lo, hi, colours[kind], vertical=False, width=1.4, alpha=0.55)
        ax.plot(index[rows], y[rows], "o", color=colours[kind], markersize=4.5, label=kind)
    ax.set_yticks(y, labels)
    ax.set_ylim(df.height - 0.5, -0.5)
    ax.set_xlabel(f"{xlabel} (95% CI)")
    ax.grid(axis="x", alpha=0.3)
    # Beside the plot, never over an interval (one item's ranking put it on the dot's line).
    ax.legend(title="publisher's rating", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.welcome_configs = labels
    fig.welcome_total = df.height
    fig.suptitle(title)
    return fig
