"""The plan-pair heat map: each Plan A x Plan B pair's mean score against its configuration's mean,
a cell coloured and numbered only where its 95% interval excludes 0 (grey where the difference is
within noise), the noise level stated on the chart."""

from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")
import numpy as np
import polars as pl
from matplotlib import colormaps
from matplotlib.colors import Normalize
from matplotlib.figure import Figure

from welcome_sim.analysis.chartkit import (
    MAX_HEIGHT_IN,
    MAX_WIDTH_IN,
    _finish,
    _grid,
    _natural,
    _wrap,
    configurations,
    fitting,
)
from welcome_sim.analysis.clustered import Z, _by, _per_game

CELL_IN = 0.32  # a cell wide enough for "+12" at 9 pt
NOISE_GREY = "#d9d9d9"  # a pair dealt but within noise; never dealt stays white


def pair_cells(lf: pl.LazyFrame, by: list[str] | None = None) -> pl.DataFrame:
    """Per configuration and Plan A x Plan B pair (Plan C pooled): games, mean score, its difference
    from the configuration's mean (`diff`) and that difference's 95% half-width (`half`), clustered
    by game (the seats of a game share its plans)."""
    by = _by(lf, by)
    keys = [*by, "plan_a_id", "plan_b_id"]
    games = _per_game(lf, keys, {"_v": pl.col("total").cast(pl.Float64)})
    cells = games.group_by(keys).agg(games=pl.len(), mean=pl.col("_v").mean(), _sd=pl.col("_v").std())
    whole = (games.group_by(by).agg if by else games.select)(_all=pl.len(), _mean=pl.col("_v").mean())
    joined = cells.join(whole, on=by, nulls_equal=True) if by else cells.join(whole, how="cross")
    # The pair's games are part of its configuration's: Var(pair mean - configuration mean) =
    # sd²/games · (1 - games/all games), with the pair's own spread standing for sd.
    share = pl.col("games") / pl.col("_all")
    return (
        joined.with_columns(
            diff=pl.col("mean") - pl.col("_mean"),
            half=Z * pl.col("_sd") / pl.col("games").sqrt() * (1 - share).clip(0.0, 1.0).sqrt(),
        )
        .drop("_sd", "_all", "_mean")
        .sort(keys)
        .collect()
    )


def _grids(pairs: pl.DataFrame, n: int) -> tuple[list, list, list]:
    """Per configuration: the difference grid, the half-width grid and the (Plan A, Plan B) ids."""
    grids, halves, axis_ids = [], [], []
    for i in range(n):
        sub = pairs.filter(pl.col("_ci") == i)
        a_ids = sorted(sub["plan_a_id"].unique().to_list(), key=_natural)
        b_ids = sorted(sub["plan_b_id"].unique().to_list(), key=_natural)
        grid = np.full((len(a_ids), len(b_ids)), np.nan)
        half = np.full_like(grid, np.nan)
        for a, b, d, h in sub.select("plan_a_id", "plan_b_id", "diff", "half").iter_rows():
            grid[a_ids.index(a), b_ids.index(b)] = d
            half[a_ids.index(a), b_ids.index(b)] = np.nan if h is None else h
        grids.append(grid)
        halves.append(half)
        axis_ids.append((a_ids, b_ids))
    return grids, halves, axis_ids


def plan_heatmap(pairs: pl.DataFrame, by: list[str] | None = None) -> Figure:
    """Mean score of each Plan A x Plan B pair against its configuration's mean (pair_cells): one panel
    per configuration on one diverging scale centred on 0; only differences whose 95% interval
    excludes 0 are coloured and numbered, the others grey."""
    cfg = configurations(pairs, by)
    pairs = cfg.attach(pairs)
    n = len(cfg.parts)
    grids, halves, axis_ids = _grids(pairs, n)
    # A cell is shown when its interval excludes 0; one without an interval (a single game) is not.
    sure = [np.isfinite(h) & (np.abs(g) > h) for g, h in zip(grids, halves, strict=True)]
    shown = np.concatenate([g[s] for g, s in zip(grids, sure, strict=True)] + [np.array([])])
    reach = float(np.abs(shown).max()) if shown.size else 1.0
    norm = Normalize(-reach, reach)
    noise = np.concatenate([h[np.isfinite(h)] for h in halves] + [np.array([])])
    rows_max = max(max(len(a), 1) for a, _ in axis_ids)
    cols_max = max(max(len(b), 1) for _, b in axis_ids)
    roomy = 1.4 if n <= 2 else 1.0  # one or two panels: larger cells, the title no wider than them
    panel_w = CELL_IN * roomy * cols_max + 0.6
    ncols = max(1, min(n, int(MAX_WIDTH_IN // panel_w)))
    title_lines = max(_wrap(s, int(panel_w * 12)).count("\n") + 1 for s in cfg.labels)
    panel_h = 0.26 * roomy * rows_max + 0.75 + 0.17 * title_lines
    # Rows of panels past the height budget are left out, those with the fewest sure cells first.
    fit = fitting([panel_h] * math.ceil(n / ncols), MAX_HEIGHT_IN - 1.9) * ncols
    keep = sorted(sorted(range(n), key=lambda i: -int(sure[i].sum()))[:fit])
    fig, axes = _grid(len(keep), min(ncols, len(keep)), (panel_w, panel_h))
    cmap = colormaps["RdBu"].with_extremes(bad=(0, 0, 0, 0))  # the grey layer shows through
    im = None
    for ax, i in zip(axes, keep, strict=True):
        a_ids, b_ids = axis_ids[i]
        dealt = np.isfinite(grids[i])
        ax.imshow(np.where(dealt & ~sure[i], 1.0, np.nan), cmap="gray", vmin=0, vmax=1.2, aspect="auto")
        im = ax.imshow(
            np.where(sure[i], grids[i], np.nan), cmap=cmap, norm=norm, aspect="auto", interpolation="nearest"
        )
        for (r, c), v in np.ndenumerate(grids[i]):
            if sure[i][r, c]:
                dark = abs(float(norm(v)) - 0.5) > 0.3  # RdBu is dark at both ends: white text there
                ax.text(c, r, f"{v:+.0f}", ha="center", va="center", color="white" if dark else "black")
        ax.tick_params(left=False, bottom=False)  # tick marks add nothing to labelled cells
        ax.set_xticks(range(len(b_ids)), b_ids, rotation=90)
        ax.set_yticks(range(len(a_ids)), a_ids)
        ax.set_title(_wrap(cfg.labels[i], int(panel_w * 12)))
    for ax in axes[:: min(ncols, len(keep))]:
        ax.set_ylabel("Plan A")
    for ax in axes[-min(ncols, len(keep)) :]:
        ax.set_xlabel("Plan B")
    if im is not None:
        # Below the panels: upright beside them, its label ran into the chart's title.
        fig.colorbar(
            im,
            ax=axes,
            location="bottom",
            shrink=min(0.6, 4.0 / (panel_w * min(ncols, len(keep)))),
            aspect=30,
            label="points against the configuration's mean (red: harder)",
        )
    level = (
        f"grey: within noise (95% interval of a cell ±{np.median(noise):.1f} points, median over cells; "
        "about 1 cell in 20 is coloured by chance); white: pair not dealt"
        if noise.size
        else "grey: no interval (one game a pair)"
    )
    title = "Mean score by plan pair against its configuration's mean (Plan C pooled)\n" + level
    why = " (those with the most pairs beyond noise)"
    return _finish(fig, title, [cfg.labels[i] for i in keep], cfg.total, why=why)
