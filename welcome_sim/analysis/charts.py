"""matplotlib charts of the balance tables, as SVG text (for the report) or SVG and PNG files.

Many configurations are drawn as small multiples (a grid of panels of a few configurations each,
on shared axes), each configuration in its own colour and labelled in words (see `labels`). Every
chart returned here carries two attributes the report and the tests read:

- `fig.welcome_configs`: the labels of the configurations it draws, in order (list of str);
- `fig.welcome_total`: how many configurations its table holds (int).

A chart draws at most MAX_CONFIGS configurations (the expansion chart MAX_COMPARISONS comparisons
with the base game; its rows, not configurations, are what it lists); past that its title says how
many of how many it shows, and `len(fig.welcome_configs) < fig.welcome_total`.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: F401  (the tests close figures through charts.plt)
import numpy as np
import polars as pl
from matplotlib.colors import Normalize
from matplotlib.figure import Figure

from welcome_sim.analysis.chartkit import (
    ANNOTATE_CELLS,
    MAX_CONFIGS,
    SAMPLE,
    VIOLIN_POINTS,
    _chunks,
    _common,
    _finish,
    _grid,
    _intervals,
    _natural,
    _rows,
    _wrap,
    configurations,
    palette,
    save,
    to_svg,
)
from welcome_sim.analysis.charts_compare import (
    aaa_chart,
    difficulty_chart,
    expansion_chart,
    player_count_chart,
)
from welcome_sim.analysis.labels import config_labels
from welcome_sim.analysis.tables import CONFIG
from welcome_sim.simcore.ground.layout import SCORE_COMPONENTS

__all__ = [
    "MAX_CONFIGS",
    "aaa_chart",
    "balance_figures",
    "component_bars",
    "config_labels",
    "difficulty_chart",
    "expansion_chart",
    "game_length_histogram",
    "palette",
    "plan_difficulty_bars",
    "plan_heatmap",
    "player_count_chart",
    "save",
    "score_violins",
    "to_svg",
]


def score_violins(lf: pl.LazyFrame, by: list[str] | None = None) -> Figure:
    """Violins of final scores per configuration (a sample of SAMPLE each), mean marked; small multiples."""
    names = lf.collect_schema().names()
    cols = [c for c in (CONFIG if by is None else by) if c in names]
    sample = pl.col("total").shuffle(seed=0).head(SAMPLE)
    if cols:
        stats = lf.group_by(cols).agg(sample.alias("sample")).collect()
    else:
        stats = lf.select(sample.implode().alias("sample")).collect()
    cfg = configurations(stats, cols)
    stats = cfg.attach(stats).sort("_ci")
    colours = palette(len(cfg.parts))
    chunks = _chunks(cfg, 8)
    widest = max(len(c) for c in chunks)
    ncols = 1 if len(chunks) == 1 else 2
    fig, axes = _grid(len(chunks), ncols, (max(3.4, 0.8 * widest + 1.4), 3.3), sharey=True)
    for ax, idx in zip(axes, chunks, strict=True):
        title, own = _common(cfg, idx)
        for pos, i in enumerate(idx, start=1):
            vals = np.asarray(stats.filter(pl.col("_ci") == i)["sample"][0].to_numpy(), dtype=float)
            if len(vals) == 0:
                continue
            if np.ptp(vals) > 0:  # a kernel density needs spread; one value is drawn as a mark
                body = ax.violinplot([vals], [pos], showmeans=False, showextrema=False, points=VIOLIN_POINTS)
                body["bodies"][0].set_facecolor(colours[i])
                body["bodies"][0].set_edgecolor(colours[i])
                body["bodies"][0].set_alpha(0.6)
            ax.hlines(vals.mean(), pos - 0.3, pos + 0.3, color="black", linewidth=1.2)
        short = [_wrap(s, 16) for s in own]
        ax.set_xticks(
            range(1, len(idx) + 1), short, rotation=30 if max(map(len, own)) > 16 else 0, ha="right"
        )
        ax.set_xlim(0.4, len(idx) + 0.6)
        ax.set_title(_wrap(title, 60))
        ax.grid(axis="y", alpha=0.3)
    for ax in axes[::ncols]:
        ax.set_ylabel("final score (black: mean)")
    return _finish(fig, "Score distribution per configuration", cfg.labels, cfg.total)


def component_bars(comp: pl.DataFrame, by: list[str] | None = None) -> Figure:
    """Stacked mean score components per configuration (penalties below zero); small multiples."""
    cfg = configurations(comp, by)
    comp = cfg.attach(comp).sort("_ci")
    names = [c for c in SCORE_COMPONENTS if c in comp.columns]
    colours = palette(len(names))
    chunks = _chunks(cfg, 10)
    widest = max(len(c) for c in chunks)
    ncols = 1 if len(chunks) == 1 else 2
    longest = max(len(label) for label in cfg.labels) if cfg.labels else 0
    # Upright labels (below) take height of their own: the bars keep theirs.
    height = 3.0 + (0.05 * longest if longest > 12 else 0.0)
    fig, axes = _grid(len(chunks), ncols, (max(3.6, 0.6 * widest + 1.6), height), sharey=True)
    for ax, idx in zip(axes, chunks, strict=True):
        title, own = _common(cfg, idx)
        sub = comp.filter(pl.col("_ci").is_in(idx)).sort("_ci")
        x = np.arange(sub.height)
        pos, neg = np.zeros(sub.height), np.zeros(sub.height)
        for k, name in enumerate(names):
            vals = sub[name].fill_null(0).to_numpy().astype(float)
            label = name.replace("_", " ")
            if name.endswith("penalty"):
                ax.bar(x, -vals, bottom=neg, label=label, color=colours[k], hatch="//", alpha=0.8)
                neg -= vals
            else:
                ax.bar(x, vals, bottom=pos, label=label, color=colours[k])
                pos += vals
        ax.scatter(x, sub["total"].to_numpy(), color="black", zorder=3, marker="D", s=16, label="mean total")
        ax.axhline(0, color="black", linewidth=0.8)
        # Long labels stand upright: slanted, wrapped labels of neighbouring bars ran into each other.
        upright = max(map(len, own)) > 12
        ax.set_xticks(
            x, [s if upright else _wrap(s, 16) for s in own], rotation=90 if upright else 0, ha="center"
        )
        ax.set_title(_wrap(title, 60))
        ax.grid(axis="y", alpha=0.3)
    for ax in axes[::ncols]:
        ax.set_ylabel("mean points")
    handles, labs = axes[0].get_legend_handles_labels()
    fig.legend(handles, labs, loc="outside right upper", fontsize=7)
    return _finish(fig, "Mean score components", cfg.labels, cfg.total)


def plan_difficulty_bars(plans: pl.DataFrame, by: list[str] | None = None) -> Figure:
    """Validation rate of each plan card (points, 95% interval lines), a panel per letter and group of
    configurations; the plan ids label the rows."""
    cfg = configurations(plans, by)
    plans = cfg.attach(plans)
    letters = sorted(plans["letter"].unique().to_list())
    colours = palette(len(cfg.parts))
    chunks = _chunks(cfg, 6)
    ids = {
        (r, letter): sorted(
            plans.filter((pl.col("letter") == letter) & pl.col("_ci").is_in(idx))["plan"].unique().to_list(),
            key=_natural,
        )
        for r, idx in enumerate(chunks)
        for letter in letters
    }
    heights = [
        0.7 + max(len(ids[r, letter]) for letter in letters) * max(0.22, 0.07 * len(idx))
        for r, idx in enumerate(chunks)
    ]
    named = [_common(cfg, idx) for idx in chunks]
    fig, axes = _rows([t for t, _own in named], heights, len(letters), 3.4)
    for r, idx in enumerate(chunks):
        own = named[r][1]
        for c, letter in enumerate(letters):
            ax = axes[r * len(letters) + c]
            row_ids = ids[r, letter]
            where = {p: k for k, p in enumerate(row_ids)}
            step = 0.8 / len(idx)
            for k, i in enumerate(idx):
                sub = plans.filter((pl.col("letter") == letter) & (pl.col("_ci") == i))
                if not sub.height:
                    continue
                y = np.array([where[p] for p in sub["plan"]]) + (k - (len(idx) - 1) / 2) * step
                rate = sub["validation_rate"].to_numpy().astype(float)
                half = sub["ci95"].fill_null(np.nan).to_numpy().astype(float)
                lo, hi = np.clip(rate - half, 0, 1), np.clip(rate + half, 0, 1)
                _intervals(ax, rate, y, lo, hi, colours[i], vertical=False)
                ax.plot(rate, y, "o", color=colours[i], markersize=4, markeredgewidth=0, label=_wrap(own[k]))
            # Every row keeps its rate labels: a row of panels far from the bottom still needs a scale.
            ax.tick_params(left=False, bottom=False, labelbottom=True)
            ax.set_yticks(range(len(row_ids)), row_ids)
            ax.set_ylim(len(row_ids) - 0.5, -0.5)
            ax.set_xlim(-0.03, 1.03)  # a margin keeps rates of 0 and 1 whole
            ax.set_title(f"Plan {letter}")
            ax.grid(axis="x", alpha=0.3)
        if len(idx) > 1:
            axes[r * len(letters) + len(letters) - 1].legend(
                fontsize=7, bbox_to_anchor=(1.02, 1), loc="upper left", markerscale=1.4
            )
    for ax in axes[-len(letters) :]:
        ax.set_xlabel("validation rate (95% CI)")
    return _finish(fig, "How often each plan is validated", cfg.labels, cfg.total)


def plan_heatmap(combos: pl.DataFrame, by: list[str] | None = None) -> Figure:
    """Mean score of each Plan A x Plan B pair (averaged over Plan C) against its configuration's
    mean score: one panel per configuration, one diverging colour scale centred on 0 for all (so a
    panel shows which pairs are hard in its configuration, not how configurations differ)."""
    cfg = configurations(combos, by)
    combos = cfg.attach(combos)
    pair = (
        combos.group_by("_ci", "plan_a_id", "plan_b_id")
        .agg(mean=(pl.col("mean_total") * pl.col("n")).sum() / pl.col("n").sum(), n=pl.col("n").sum())
        .with_columns(
            mean=pl.col("mean") - ((pl.col("mean") * pl.col("n")).sum() / pl.col("n").sum()).over("_ci")
        )
    )
    n = len(cfg.parts)
    grids, axis_ids = [], []
    for i in range(n):
        sub = pair.filter(pl.col("_ci") == i)
        a_ids = sorted(sub["plan_a_id"].unique().to_list(), key=_natural)
        b_ids = sorted(sub["plan_b_id"].unique().to_list(), key=_natural)
        grid = np.full((len(a_ids), len(b_ids)), np.nan)
        for a, b, m in sub.select("plan_a_id", "plan_b_id", "mean").iter_rows():
            grid[a_ids.index(a), b_ids.index(b)] = m
        grids.append(grid)
        axis_ids.append((a_ids, b_ids))
    values = np.concatenate([g[np.isfinite(g)] for g in grids] + [np.array([])])
    # Symmetric about 0 up to the 96th percentile of the cells' distance from their configuration's
    # mean: a rarely dealt pair's extreme mean would otherwise wash out the rest; the colour bar's
    # arrows mark values beyond (each cell still shows its own).
    reach = float(np.percentile(np.abs(values), 96)) if values.size else 1.0
    low, high = -max(reach, 1e-9), max(reach, 1e-9)
    norm = Normalize(low, high)
    extend = {(False, False): "neither", (True, False): "min", (False, True): "max", (True, True): "both"}[
        (bool(values.size and values.min() < low), bool(values.size and values.max() > high))
    ]
    annotate = sum(g.size for g in grids) <= ANNOTATE_CELLS
    ncols = n if n <= 3 else 4 if n <= 16 else 6
    rows_max = max(max(len(a), 1) for a, _ in axis_ids)
    cols_max = max(max(len(b), 1) for _, b in axis_ids)
    fig, axes = _grid(n, ncols, (0.32 * cols_max + 1.3, 0.3 * rows_max + 1.3))
    im = None
    for i, ax in enumerate(axes):
        a_ids, b_ids = axis_ids[i]
        im = ax.imshow(grids[i], cmap="RdBu", norm=norm, aspect="auto", interpolation="nearest")
        if annotate:
            for (r, c), v in np.ndenumerate(grids[i]):
                if np.isfinite(v):
                    dark = abs(float(norm(v)) - 0.5) > 0.3  # RdBu is dark at both ends: white text there
                    colour = "white" if dark else "black"
                    ax.text(c, r, f"{v:+.0f}", ha="center", va="center", color=colour, fontsize=6)
        ax.tick_params(left=False, bottom=False)  # tick marks add nothing to labelled cells
        ax.set_xticks(range(len(b_ids)), b_ids, rotation=90, fontsize=6)
        ax.set_yticks(range(len(a_ids)), a_ids, fontsize=6)
        ax.set_title(_wrap(cfg.labels[i], 30), fontsize=8)
    fig.supxlabel("Plan B", fontsize=9)
    fig.supylabel("Plan A", fontsize=9)
    if im is not None:
        fig.colorbar(
            im,
            ax=axes,
            label="points against the configuration's mean (red: harder)",
            shrink=0.8 if len(axes) > ncols else 1.0,
            extend=extend,
        )
    return _finish(
        fig,
        "Mean score by plan pair against its configuration's mean (averaged over Plan C)",
        cfg.labels,
        cfg.total,
    )


def game_length_histogram(hist: pl.DataFrame, by: list[str] | None = None) -> Figure:
    """Share of games by rounds played, a line per configuration; small multiples."""
    cfg = configurations(hist, by)
    hist = cfg.attach(hist)
    colours = palette(len(cfg.parts))
    chunks = _chunks(cfg, 6)
    ncols = 1 if len(chunks) == 1 else 2
    fig, axes = _grid(len(chunks), ncols, (5.2 if ncols == 1 else 4.4, 3.0), sharex=True, sharey=True)
    for ax, idx in zip(axes, chunks, strict=True):
        title, own = _common(cfg, idx)
        for k, i in enumerate(idx):
            sub = hist.filter(pl.col("_ci") == i).sort("rounds")
            share = sub["games"].to_numpy() / max(1, sub["games"].sum())
            ax.step(sub["rounds"].to_numpy(), share, where="mid", color=colours[i], label=_wrap(own[k]))
        ax.set_title(_wrap(title, 60))
        ax.grid(alpha=0.3)
        if len(idx) > 1:
            ax.legend(fontsize=7)
    for ax in axes[-ncols:]:
        ax.set_xlabel("rounds played")
    for ax in axes[::ncols]:
        ax.set_ylabel("share of games")
    return _finish(fig, "Game length", cfg.labels, cfg.total)


def balance_figures(lf: pl.LazyFrame, tables: dict[str, pl.DataFrame], by: list[str] | None = None) -> list:
    """The report's charts as (name, title, figure), drawn from balance_tables() output; the AAA, player
    count and expansion charts only when their table has rows (and the player count varies)."""
    figures = [
        ("score_distribution", "Score distribution", score_violins(lf, by)),
        ("components", "Score components", component_bars(tables["components"], by)),
        ("plan_difficulty", "Plan difficulty", plan_difficulty_bars(tables["plan_difficulty"], by)),
        ("plan_combinations", "Plan combinations", plan_heatmap(tables["plan_combinations"], by)),
        ("game_length", "Game length", game_length_histogram(tables["game_length_histogram"], by)),
    ]
    aaa = tables.get("aaa")
    if aaa is not None and aaa.height:
        figures.append(("aaa_levels", "Against the AAA, level by level", aaa_chart(aaa, by)))
    scores = tables.get("scores")
    if scores is not None and "players" in scores.columns and scores["players"].n_unique() > 1:
        chart = player_count_chart(scores, tables.get("plan_difficulty"), by)
        figures.append(("player_count", "Player count and the plan race", chart))
    effects = tables.get("expansions")
    if effects is not None and effects.height:
        chart = expansion_chart(effects, by)
        figures.append(("expansions", "Expansions and the 9¾ cards against the base game", chart))
    return figures
