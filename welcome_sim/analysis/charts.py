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

import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: F401  (the tests close figures through charts.plt)
import numpy as np
import polars as pl
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from welcome_sim.analysis.chartkit import (
    LINE_IN,
    MAX_CONFIGS,
    MAX_HEIGHT_IN,
    MAX_WIDTH_IN,
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
    fitting,
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
from welcome_sim.analysis.charts_heat import pair_cells, plan_heatmap
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
    "pair_cells",
    "palette",
    "plan_difficulty_bars",
    "plan_heatmap",
    "player_count_chart",
    "save",
    "score_violins",
    "to_svg",
]


SLOT_IN = 0.85  # width of one violin or bar with its label wrapped below (LABEL_CHARS a line at 9 pt)
LABEL_CHARS = 12


def _slots(cfg, chunks: list[list[int]]) -> tuple[int, float, list[list[str]], list[str], float]:
    """Panels of violins or bars: columns of panels, each panel's width, the configurations' own
    words wrapped to their slot (horizontal: slanted labels ran into their neighbours), the panels'
    titles and the height the labels and titles take (inches)."""
    named = [_common(cfg, idx) for idx in chunks]
    widest = max(len(c) for c in chunks)
    ncols = 2 if len(chunks) > 1 and 2 * SLOT_IN * widest + 1.0 <= MAX_WIDTH_IN else 1
    width = SLOT_IN * widest + (1.0 if ncols == 1 else 0.5)
    own = [[_wrap(s, LABEL_CHARS) for s in o] for _t, o in named]
    titles = [_wrap(t, int(width * 13)) for t, _o in named]
    lines = max(s.count("\n") + 1 for o in own for s in o) + max(t.count("\n") + 1 for t in titles)
    return ncols, width, own, titles, LINE_IN * lines


def _fit_panels(chunks: list[list[int]], ncols: int, row_in: float, spare: float = 1.0) -> list[list[int]]:
    """The leading panels whose rows fit MAX_HEIGHT_IN (the title and a legend take `spare`)."""
    rows = fitting([row_in] * math.ceil(len(chunks) / ncols), MAX_HEIGHT_IN - spare)
    return chunks[: rows * ncols]


def _shown(cfg, chunks: list[list[int]]) -> list[str]:
    """The labels of the configurations the panels draw, in order."""
    return [cfg.labels[i] for idx in chunks for i in idx]


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
    chunks = _chunks(cfg, 6)
    ncols, width, own, titles, text_in = _slots(cfg, chunks)
    chunks = _fit_panels(chunks, ncols, 1.9 + text_in)
    fig, axes = _grid(len(chunks), ncols, (width, 1.9 + text_in), sharey=True)
    for ax, idx, labels, title in zip(axes, chunks, own, titles, strict=False):
        colours = palette(len(idx))  # per panel: a few dark, distinct colours
        for pos, i in enumerate(idx, start=1):
            vals = np.asarray(stats.filter(pl.col("_ci") == i)["sample"][0].to_numpy(), dtype=float)
            if len(vals) == 0:
                continue
            if np.ptp(vals) > 0:  # a kernel density needs spread; one value is drawn as a mark
                body = ax.violinplot([vals], [pos], showmeans=False, showextrema=False, points=VIOLIN_POINTS)
                body["bodies"][0].set_facecolor(colours[pos - 1])
                body["bodies"][0].set_edgecolor(colours[pos - 1])
                body["bodies"][0].set_alpha(0.6)
            ax.hlines(vals.mean(), pos - 0.3, pos + 0.3, color="black", linewidth=1.2)
        ax.set_xticks(range(1, len(idx) + 1), labels)
        ax.set_xlim(0.4, len(idx) + 0.6)
        ax.set_title(title)
        ax.grid(axis="y", alpha=0.3)
    for ax in axes[::ncols]:
        ax.set_ylabel("final score (black: mean)")
    return _finish(fig, "Score distribution per configuration", _shown(cfg, chunks), cfg.total)


def component_bars(comp: pl.DataFrame, by: list[str] | None = None) -> Figure:
    """Stacked mean score components per configuration (penalties below zero); small multiples, the
    legend below them all."""
    cfg = configurations(comp, by)
    comp = cfg.attach(comp).sort("_ci")
    names = [c for c in SCORE_COMPONENTS if c in comp.columns]
    colours = palette(len(names))
    chunks = _chunks(cfg, 6)
    ncols, width, own, titles, text_in = _slots(cfg, chunks)
    legend_in = LINE_IN * (math.ceil((len(names) + 1) / 5) + 1)
    chunks = _fit_panels(chunks, ncols, 2.0 + text_in, 1.0 + legend_in)
    fig, axes = _grid(len(chunks), ncols, (width, 2.0 + text_in), sharey=True)
    for ax, idx, labels, title in zip(axes, chunks, own, titles, strict=False):
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
        ax.set_xticks(x, labels)
        ax.set_xlim(-0.6, max(len(idx), 2) - 0.4)  # one bar alone stays a bar's width, not the panel's
        ax.set_title(title)
        ax.grid(axis="y", alpha=0.3)
    for ax in axes[::ncols]:
        ax.set_ylabel("mean points")
    handles, labs = axes[0].get_legend_handles_labels()
    # Below the panels: beside them it took the width the bars need, and over them it hid the title.
    fig.legend(handles, labs, loc="outside lower center", ncols=5, frameon=False)
    return _finish(fig, "Mean score components", _shown(cfg, chunks), cfg.total)


def _legend_words(text: str) -> str:
    return _wrap(text, 44)


def plan_difficulty_bars(plans: pl.DataFrame, by: list[str] | None = None) -> Figure:
    """Validation rate of each plan card (points, 95% interval lines), a panel per letter and group of
    configurations; the plan ids label the rows, a legend under each group names its configurations."""
    cfg = configurations(plans, by)
    plans = cfg.attach(plans)
    letters = sorted(plans["letter"].unique().to_list())
    chunks = _chunks(cfg, 6)
    ids = {
        (r, letter): sorted(
            plans.filter((pl.col("letter") == letter) & pl.col("_ci").is_in(idx))["plan"].unique().to_list(),
            key=_natural,
        )
        for r, idx in enumerate(chunks)
        for letter in letters
    }
    named = [_common(cfg, idx) for idx in chunks]
    legend_cols = 3
    heights = [
        0.75
        + max(len(ids[r, letter]) for letter in letters) * max(0.2, 0.05 * len(idx))
        + (LINE_IN * sum(1 + o.count("\n") for o in map(_legend_words, named[r][1][::legend_cols])) + 0.2)
        * (len(idx) > 1)
        + LINE_IN * (1 + _wrap(named[r][0], 110).count("\n"))
        for r, idx in enumerate(chunks)
    ]
    chunks = chunks[: fitting(heights, MAX_HEIGHT_IN - 0.6)]
    heights = heights[: len(chunks)]
    width = min(3.4, (MAX_WIDTH_IN - 0.2) / len(letters))
    fig, axes, subs = _rows(
        [t for t, _own in named[: len(chunks)]], heights, len(letters), width, figures=True
    )
    for r, idx in enumerate(chunks):
        own = named[r][1]
        colours = palette(len(idx))  # per group: a few dark, distinct colours
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
                _intervals(ax, rate, y, lo, hi, colours[k], vertical=False, alpha=0.6)
                ax.plot(
                    rate,
                    y,
                    "o",
                    color=colours[k],
                    markersize=4,
                    markeredgewidth=0,
                    label=_legend_words(own[k]),
                )
            # Every row keeps its rate labels: a row of panels far from the bottom still needs a scale.
            ax.tick_params(left=False, bottom=False, labelbottom=True)
            ax.set_yticks(range(len(row_ids)), row_ids)
            ax.set_ylim(len(row_ids) - 0.5, -0.5)
            ax.set_xlim(-0.03, 1.03)  # a margin keeps rates of 0 and 1 whole
            ax.set_xticks([0, 0.25, 0.5, 0.75, 1], ["0", "25%", "50%", "75%", "100%"])
            ax.set_title(f"Plan {letter}")
            ax.grid(axis="x", alpha=0.3)
        if len(idx) > 1:
            # Under the group's panels: beside them the legend took the width the panels need.
            handles, labs = axes[r * len(letters)].get_legend_handles_labels()
            subs[r].legend(
                handles, labs, loc="outside lower center", ncols=legend_cols, frameon=False, markerscale=1.4
            )
    for ax in axes[-len(letters) :]:
        ax.set_xlabel("validation rate (95% CI)")
    return _finish(fig, "How often each plan is validated", _shown(cfg, chunks), cfg.total)


def game_length_histogram(hist: pl.DataFrame, by: list[str] | None = None) -> Figure:
    """Share of games by rounds played, a line per configuration; small multiples, each with its
    legend below it (inside, it covered the lines)."""
    cfg = configurations(hist, by)
    hist = cfg.attach(hist)
    chunks = _chunks(cfg, 6)
    ncols = 1 if len(chunks) == 1 else 2
    named = [_common(cfg, idx) for idx in chunks]
    own = [[_wrap(s, 40) for s in o] for _t, o in named]
    legend_in = (
        max(LINE_IN * sum(s.count("\n") + 1 for s in o[::2]) for o in own) if len(cfg.parts) > 1 else 0
    )
    row_in = 2.0 + legend_in + LINE_IN * max(1 + _wrap(t, 60).count("\n") for t, _o in named)
    chunks = _fit_panels(chunks, ncols, row_in)
    fig, axes = _grid(len(chunks), ncols, (5.4 if ncols == 1 else 5.6, row_in), sharex=True, sharey=True)
    for ax, idx, (title, _o), labels in zip(axes, chunks, named, own, strict=False):
        colours = palette(len(idx))  # per panel: a few dark, distinct colours
        for k, i in enumerate(idx):
            sub = hist.filter(pl.col("_ci") == i).sort("rounds")
            share = sub["games"].to_numpy() / max(1, sub["games"].sum())
            ax.step(sub["rounds"].to_numpy(), share, where="mid", color=colours[k], label=labels[k])
        ax.set_title(_wrap(title, 60))
        ax.grid(alpha=0.3)
        ax.set_xlabel("rounds played")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.xaxis.set_tick_params(labelbottom=True)
        if len(idx) > 1:
            ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.22), ncols=2, frameon=False)
    for ax in axes[::ncols]:
        ax.set_ylabel("share of games")
    return _finish(fig, "Game length", _shown(cfg, chunks), cfg.total)


def balance_figures(lf: pl.LazyFrame, tables: dict[str, pl.DataFrame], by: list[str] | None = None) -> list:
    """The report's charts as (name, title, figure), drawn from balance_tables() output; the AAA, player
    count and expansion charts only when their table has rows (and the player count varies)."""
    figures = [
        ("score_distribution", "Score distribution", score_violins(lf, by)),
        ("components", "Score components", component_bars(tables["components"], by)),
        ("plan_difficulty", "Plan difficulty", plan_difficulty_bars(tables["plan_difficulty"], by)),
    ]
    pairs = pair_cells(lf, by)
    # With one Plan A x Plan B pair per configuration (the plans fixed), every cell is its
    # configuration's mean: a map of zeros, drawn as collapsed one-cell panels. Left out.
    if pairs.height > configurations(pairs, by).total:
        figures.append(("plan_combinations", "Plan combinations", plan_heatmap(pairs, by)))
    figures.append(("game_length", "Game length", game_length_histogram(tables["game_length_histogram"], by)))
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
    curves = tables.get("sensitivity")
    if curves is not None and curves.height:
        from welcome_sim.analysis.charts_sensitivity import sensitivity_figures

        figures += sensitivity_figures(curves, by)
    return figures
