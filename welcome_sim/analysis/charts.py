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

import colorsys
import io
import math
import re
import textwrap
from dataclasses import dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import polars as pl
from matplotlib.colors import Normalize, to_hex
from matplotlib.figure import Figure

from welcome_sim.analysis.labels import (
    ALL_GAMES,
    METRICS,
    SEPARATOR,
    config_labels,
    parts_of,
    value_words,
    varying,
)
from welcome_sim.analysis.tables import CONFIG, EXPANSION_METRICS, Z
from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.layout import SCORE_COMPONENTS

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

MAX_CONFIGS = 64  # configurations one chart draws at most (its title says so when it holds more)
# Comparisons with the base game: one per configuration with an expansion and one per configuration
# with the 9¾ cards, so up to twice as many as configurations.
MAX_COMPARISONS = 2 * MAX_CONFIGS
SAMPLE = 20_000  # values per configuration drawn for distribution plots
VIOLIN_POINTS = 50  # points along each violin's outline (the SVG grows with them)
ANNOTATE_CELLS = 600  # heat maps write each cell's value only up to this many cells in all
WRAP = 34  # characters per line of a label
plt.rcParams.update(
    {
        "svg.fonttype": "none",
        "svg.hashsalt": "welcome-sim",
        "font.size": 9,
        "axes.titlesize": 9,
        # SVG text names every fallback font on every label: a short list keeps big charts small.
        "font.sans-serif": ["DejaVu Sans", "Arial", "Helvetica"],
    }
)
GOLDEN = (math.sqrt(5) - 1) / 2
STARS_NONE = "no rating"


def palette(n: int) -> list[str]:
    """n distinct colours (hex): tab10 up to 10, tab20 up to 20, then golden-angle hues; never cycles."""
    if n <= 10:
        colours = list(plt.get_cmap("tab10").colors[:n])
    elif n <= 20:
        tab20 = plt.get_cmap("tab20").colors
        # Dark shades first: neighbours (one panel) then differ in hue, not only in shade.
        colours = [tab20[i] for i in (*range(0, 20, 2), *range(1, 20, 2))][:n]
    else:
        # Golden-angle hue steps keep neighbours far apart on the colour wheel; three lightness
        # and two saturation bands separate colours whose hues come close.
        colours = [
            colorsys.hls_to_rgb((i * GOLDEN) % 1.0, (0.38, 0.52, 0.66)[i % 3], (0.8, 0.6)[(i // 3) % 2])
            for i in range(n)
        ]
    out = [to_hex(c) for c in colours]
    if len(set(out)) != n:  # guards the promise above; no sweep has this many configurations
        raise WelcomeSimError(f"palette: cannot give {n} distinct colours; draw fewer configurations")
    return out


@dataclass
class Configs:
    """The configurations one chart draws: the columns that vary and, per configuration, their
    values and words; `total` counts them before MAX_CONFIGS cut any."""

    columns: list[str]
    keys: pl.DataFrame  # the columns plus `_ci`, the configuration's index
    parts: list[list[str]]
    total: int
    empty_label: str = ALL_GAMES

    @property
    def labels(self) -> list[str]:
        """Each configuration's label in words."""
        return [SEPARATOR.join(p) or self.empty_label for p in self.parts]

    def attach(self, df: pl.DataFrame) -> pl.DataFrame:
        """df with `_ci`; rows of configurations past the limit are dropped."""
        if not self.columns:
            return df.with_columns(_ci=pl.lit(0, dtype=pl.UInt32))
        return df.join(self.keys, on=self.columns, how="inner", nulls_equal=True, maintain_order="left")

    def row(self, i: int) -> dict:
        """The column values of configuration i."""
        return self.keys.row(i, named=True)


def configurations(
    df: pl.DataFrame, by: list[str] | None = None, exclude: tuple[str, ...] = (), empty_label: str = ALL_GAMES
) -> Configs:
    """The configurations of df (columns of `by` that vary, less `exclude`), sorted, at most MAX_CONFIGS."""
    cols = varying(df, by, exclude)
    if not cols:
        keys = pl.DataFrame({"_ci": pl.Series([0], dtype=pl.UInt32)})
        return Configs([], keys, [[]], 1, empty_label)
    keys = df.select(cols).unique().sort(cols, nulls_last=True)
    total = keys.height
    keys = keys.head(MAX_CONFIGS).with_row_index("_ci")
    parts = [parts_of(r, cols) for r in keys.drop("_ci").iter_rows(named=True)]
    return Configs(cols, keys, parts, total, empty_label)


def _chunks(cfg: Configs, per_panel: int) -> list[list[int]]:
    """Configuration indices split into panels of at most per_panel, along the leading columns when
    that gives few panels (so a panel shares settings it can name in its title)."""
    rows = [cfg.row(i) for i in range(len(cfg.parts))]

    def even(idx: list[int]) -> list[list[int]]:
        m = math.ceil(len(idx) / per_panel)
        size = math.ceil(len(idx) / m)
        return [idx[i : i + size] for i in range(0, len(idx), size)]

    def split(idx: list[int], level: int) -> list[list[int]]:
        if len(idx) <= per_panel:
            return [idx]
        if level >= len(cfg.columns):
            return even(idx)
        col = cfg.columns[level]
        groups: list[list[int]] = []
        for i in idx:  # keys are sorted, so equal values are neighbours
            if groups and rows[groups[-1][0]][col] == rows[i][col]:
                groups[-1].append(i)
            else:
                groups.append([i])
        if len(groups) == 1:
            return split(idx, level + 1)
        if len(groups) > 2 * math.ceil(len(idx) / per_panel):
            return even(idx)  # grouping here would give many near-empty panels
        return pack([chunk for g in groups for chunk in split(g, level + 1)])

    def pack(chunks: list[list[int]]) -> list[list[int]]:
        # Small groups share a panel (first fit) rather than each filling one alone.
        panels: list[list[int]] = []
        for chunk in chunks:
            room = next((p for p in panels if len(p) + len(chunk) <= per_panel), None)
            if room is None:
                panels.append(list(chunk))
            else:
                room.extend(chunk)
        return [sorted(p) for p in panels]

    return split(list(range(len(cfg.parts))), 0)


def _common(cfg: Configs, idx: list[int]) -> tuple[str, list[str]]:
    """A panel's title (the words its configurations share) and each one's own words."""
    rows = [cfg.row(i) for i in idx]
    shared = [c for c in cfg.columns if len({r[c] for r in rows}) == 1]
    title = SEPARATOR.join(parts_of(rows[0], shared))
    if len(idx) == 1:
        return title, [cfg.labels[idx[0]]]
    own = [c for c in cfg.columns if c not in shared]
    return title, [SEPARATOR.join(parts_of(r, own)) or cfg.empty_label for r in rows]


def _wrap(text: str, width: int = WRAP) -> str:
    return textwrap.fill(text, width, break_on_hyphens=False)


def _grid(
    n: int,
    ncols: int,
    size: tuple[float, float],
    *,
    sharex: bool | str = False,
    sharey: bool | str = False,
) -> tuple[Figure, list]:
    """A figure of n panels in rows of ncols (unused slots hidden); returns it and the n axes."""
    nrows = math.ceil(n / ncols)
    fig, axes = plt.subplots(
        nrows,
        ncols,
        figsize=(size[0] * ncols, size[1] * nrows),
        sharex=sharex,
        sharey=sharey,
        squeeze=False,
        layout="constrained",
    )
    flat = list(axes.ravel())
    for k, ax in enumerate(flat):
        if k >= n:
            ax.set_visible(False)
        elif k + ncols >= n:  # the last panel of its column: show the shared x axis here
            ax.xaxis.set_tick_params(labelbottom=True)
    return fig, flat[:n]


def _rows(titles: list[str], heights: list[float], ncols: int, width: float, *, sharey: bool = False):
    """A figure of rows of ncols panels, one row per group of configurations, each row titled with
    the words its configurations share; returns it and the axes row by row."""
    fig = plt.figure(figsize=(width * ncols, sum(heights) + 0.4), layout="constrained")
    subs = fig.subfigures(len(heights), 1, height_ratios=heights, squeeze=False).ravel()
    axes = []
    for sub, title in zip(subs, titles, strict=True):
        axes += list(sub.subplots(1, ncols, sharey=sharey, squeeze=False).ravel())
        if title:
            sub.suptitle(_wrap(title, 110), fontsize=9, fontweight="bold")
    return fig, axes


def _same_x(axes: list, ncols: int) -> None:
    """One x range per column of panels across the rows (so rows compare at a glance)."""
    for c in range(ncols):
        column = axes[c::ncols]
        lows, highs = zip(*(ax.get_xlim() for ax in column), strict=True)
        for ax in column:
            ax.set_xlim(min(lows), max(highs))


def _finish(fig: Figure, title: str, labels: list[str], total: int, what: str = "configurations") -> Figure:
    """Title the figure (saying how many configurations it shows if not all) and record them."""
    if len(labels) < total:
        title += f" ({len(labels)} of {total} {what} shown; the tables list all)"
    fig.suptitle(title, fontsize=10)
    fig.welcome_configs = list(labels)
    fig.welcome_total = total
    return fig


def _natural(text: str) -> list:
    """Sort key for plan ids: numbers compare as numbers (A-2 before A-10)."""
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", str(text))]


def _intervals(ax, xs, ys, lo, hi, colour: str, *, vertical: bool, width: float = 1.2, alpha: float = 0.45):
    """Interval lines as one path (NaN-separated): far smaller SVG than one element per line."""
    pts = []
    for x, y, a, b in zip(xs, ys, lo, hi, strict=True):
        if a is None or b is None or np.isnan(a) or np.isnan(b):
            continue
        pts += [(x, a), (x, b), (np.nan, np.nan)] if vertical else [(a, y), (b, y), (np.nan, np.nan)]
    if pts:
        arr = np.array(pts, dtype=float)
        ax.plot(arr[:, 0], arr[:, 1], color=colour, linewidth=width, alpha=alpha, solid_capstyle="butt")


_LONG_NUMBER = re.compile(r"\d+\.\d{3,}")


def _svg(fig: Figure) -> str:
    """The figure's SVG made smaller with nothing visible lost: numbers inside tags rounded to 2
    decimals (0.01 pt), no group ids, no indentation; text between tags is left as it is."""
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})

    def short(tag: re.Match) -> str:
        return _LONG_NUMBER.sub(lambda m: f"{float(m.group(0)):.2f}", tag.group(0))

    text = re.sub(r"<[^>]+>", short, buf.getvalue())
    # Group ids are never referenced (clip paths and markers are), and indentation is only layout.
    text = re.sub(r'<g id="[^"]*"', "<g", text)
    return re.sub(r"\n[ \t]+", "\n", text)


def to_svg(fig: Figure) -> str:
    """The figure as inline SVG text (the XML header dropped); closes the figure."""
    text = _svg(fig)
    plt.close(fig)
    return text[text.index("<svg") :]


def save(fig: Figure, path: Path) -> None:
    """Write the figure as path.svg and path.png; closes the figure."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.with_suffix(".svg").write_text(_svg(fig), encoding="utf-8")
    fig.savefig(path.with_suffix(".png"), bbox_inches="tight", dpi=120)
    plt.close(fig)


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


def _line_panels(cfg: Configs, per_panel: int, kinds: int, size: tuple[float, float]) -> tuple:
    """Rows of `kinds` panels (one per measure), one row per group of configurations (lines)."""
    chunks = _chunks(cfg, per_panel)
    named = [_common(cfg, idx) for idx in chunks]
    fig, axes = _rows([t for t, _own in named], [size[1]] * len(chunks), kinds, size[0])
    return fig, axes, chunks, [own for _t, own in named]


def aaa_chart(aaa: pl.DataFrame, by: list[str] | None = None) -> Figure:
    """AAA solo mode: the player's win rate (95% interval) and mean margin per AAA level, a line per
    other configuration."""
    cfg = configurations(aaa, by, exclude=("opponent", "opponent_name"), empty_label="all AAA games")
    aaa = cfg.attach(aaa).sort("_ci", "opponent")
    colours = palette(len(cfg.parts))
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
                colours[i],
                vertical=True,
            )
            win_ax.plot(x, rate, "-o", color=colours[i], markersize=3.5, linewidth=1.2, label=_wrap(own[k]))
            # Level 0 does not score: its margin is the player's whole score and would flatten the rest.
            scoring = sub.filter(pl.col("opponent") > 0)
            margin_ax.plot(
                scoring["opponent"].to_numpy().astype(float) + dx,
                scoring["margin"].to_numpy().astype(float),
                "-o",
                color=colours[i],
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
            margin_ax.legend(fontsize=7, bbox_to_anchor=(1.02, 1), loc="upper left")
    ticks = [f"{lv}\n{names[lv]}" if names.get(lv) else str(lv) for lv in levels]
    for ax in axes:
        ax.set_xticks(levels, ticks)
    _same_x(axes, 2)
    for ax in axes[-2:]:
        ax.set_xlabel("AAA level (Opponent card)")
    return _finish(fig, "Against the AAA, level by level", cfg.labels, cfg.total)


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
    colours = palette(len(cfg.parts))
    counts = sorted(scores["players"].unique().to_list())
    fig, axes, chunks, owns = _line_panels(cfg, 6, kinds, (4.2, 3.0))
    step = 0.05
    for r, idx in enumerate(chunks):
        own = owns[r]
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
                colours[i],
                vertical=True,
            )
            score_ax.plot(x, mean, "-o", color=colours[i], markersize=3.5, linewidth=1.2, label=_wrap(own[k]))
            if race is not None:
                got = race.filter(pl.col("_ci") == i)
                xr = got["players"].to_numpy().astype(float) + dx
                share = got["share"].to_numpy()
                half = got["ci95"].to_numpy()
                race_ax = axes[kinds * r + 1]
                _intervals(
                    race_ax, xr, share, share - half, np.minimum(share + half, 1), colours[i], vertical=True
                )
                race_ax.plot(
                    xr, share, "-o", color=colours[i], markersize=3.5, linewidth=1.2, label=_wrap(own[k])
                )
        score_ax.set_title("Mean final score (95% CI)")
        score_ax.grid(alpha=0.3)
        last = axes[kinds * r + kinds - 1]
        if race is not None:
            last.set_title("Plan race: validations that scored first")
            last.set_ylim(-0.03, 1.03)
            last.grid(alpha=0.3)
        if len(idx) > 1:
            last.legend(fontsize=7, bbox_to_anchor=(1.02, 1), loc="upper left")
    for ax in axes:
        ax.set_xticks(counts)
    _same_x(axes, kinds)
    for ax in axes[-kinds:]:
        ax.set_xlabel("players")
    return _finish(fig, "Player count and the plan race", cfg.labels, cfg.total)


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
    colours = palette(len(cfg.parts))
    chunks = _chunks(cfg, 16)
    named = [_common(cfg, idx) for idx in chunks]
    wrapped = [[_wrap(s, 60) for s in own] for _title, own in named]
    heights = [1.0 + sum(0.12 + 0.14 * (w.count("\n") + 1) for w in ws) for ws in wrapped]
    fig, axes = _rows([t for t, _own in named], heights, len(metrics), 3.0, sharey=True)
    for r, idx in enumerate(chunks):
        for c, metric in enumerate(metrics):
            ax = axes[r * len(metrics) + c]
            sub = data.filter((pl.col("metric") == metric) & pl.col("_ci").is_in(idx))
            for row in sub.iter_rows(named=True):
                i = row["_ci"]
                y, diff = idx.index(i), row["diff"]
                _intervals(
                    ax,
                    [diff],
                    [y],
                    [row["ci_low"]],
                    [row["ci_high"]],
                    colours[i],
                    vertical=False,
                    width=1.0,
                    alpha=0.5,
                )
                # The paired interval only where pairing narrows it (tables.PAIRING_GAIN).
                paired = row.get("ci95_paired") if row.get("paired_used", True) else None
                if paired is not None and np.isfinite(paired):
                    lo, hi = diff - paired, diff + paired
                    _intervals(ax, [diff], [y], [lo], [hi], colours[i], vertical=False, width=3.5, alpha=0.45)
                ax.plot(
                    [diff],
                    [y],
                    "o",
                    color=colours[i],
                    markersize=4.5,
                    markeredgecolor="black",
                    markeredgewidth=0.6,
                )
            ax.axvline(0, color="grey", linewidth=0.8)
            ax.tick_params(left=False, bottom=False)
            ax.set_yticks(range(len(idx)), wrapped[r])
            ax.set_ylim(len(idx) - 0.5, -0.5)
            ax.set_title(METRICS.get(metric, metric.replace("_", " ")))
            ax.grid(axis="x", alpha=0.3)
    _same_x(axes, len(metrics))
    for ax in axes[-len(metrics) :]:
        ax.set_xlabel("difference (with − without)")
    fig.text(
        0.5,
        -0.01,
        "dot: difference of means; thin line: 95% interval (independent samples); "
        "thick line: 95% interval of same-seed pairs",
        ha="center",
        va="top",
        fontsize=7,
    )
    return _finish(fig, "Expansions and the 9¾ cards against the base game", cfg.labels, total, "comparisons")


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
            f"difficulty_chart: missing column(s) {', '.join(missing)}; a ranking needs {', '.join(need)}"
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
    ax.legend(
        title="publisher's rating", fontsize=7, title_fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0)
    )
    fig.welcome_configs = labels
    fig.welcome_total = df.height
    fig.suptitle(title, fontsize=10)
    return fig


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
