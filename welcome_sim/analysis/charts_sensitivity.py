"""Sensitivity charts: one figure per varied path (sensitivity.py's table), the value across, a
panel per measure, each point with its 95% interval; one line per configuration (the other
settings and the other paths' values), in its own colour. The difference panel marks the points
whose interval is paired ("paired" in the legend only where one is)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import polars as pl
from matplotlib.figure import Figure

from welcome_sim.analysis.chartkit import (
    MAX_WIDTH_IN,
    _finish,
    _intervals,
    configurations,
    palette,
)
from welcome_sim.analysis.sensitivity import value_key

# (column, panel title): the columns a table may hold, in panel order; each with _low/_high bounds
# except the spread.
PANELS = (
    ("score", "mean score (points)"),
    ("diff", "mean score − the reference value's (points)"),
    ("net_diff", "score net of its own points − reference (points)"),
    ("score_sd", "spread of scores (SD, points; no interval)"),
    ("refusals", "refusals per player"),
    ("rounds", "game length (rounds)"),
    ("plan_rate", "players validating the card (% of those it was in play for)"),
    ("plan_points", "the card's points per player (where in play)"),
)
NCOLS = 3
PANEL_IN = 2.6  # the height of one row of panels


def sensitivity_chart(table: pl.DataFrame, path: str, by: list[str] | None = None) -> Figure:
    """The effect curves of one path: a panel per measure the table holds for it."""
    df = table.filter(pl.col("path") == path)
    df = df.drop([c for c in df.columns if df[c].null_count() == df.height])
    values = sorted(df["value"].unique().to_list(), key=value_key)
    numeric = all(value_key(v)[0] == 0 and len(value_key(v)[1]) == 1 for v in values)
    x_of = {v: (value_key(v)[1][0] if numeric else i) for i, v in enumerate(values)}
    others = [c for c in df.columns if "." in c and c not in ("path",)]
    cfg = configurations(df, [*(by or []), *others], exclude=("value", "path"))
    df = cfg.attach(df).with_columns(_x=pl.col("value").replace_strict(x_of, return_dtype=pl.Float64))
    panels = [(c, t) for c, t in PANELS if c in df.columns]
    nrows = math.ceil(len(panels) / NCOLS)
    fig = Figure(figsize=(min(MAX_WIDTH_IN, 3.7 * NCOLS), PANEL_IN * nrows + 1.0), layout="constrained")
    axes = fig.subplots(nrows, NCOLS, squeeze=False).ravel()
    colours = palette(len(cfg.labels))
    ref = df.filter(pl.col("reference"))["value"].unique().to_list() if "reference" in df.columns else []
    xs_all = sorted(x_of.values())
    step = min((b - a for a, b in itertools.pairwise(xs_all)), default=1.0)
    n = len(cfg.labels)
    for ax, (col, title) in zip(axes, panels, strict=False):
        scale = 100.0 if col == "plan_rate" else 1.0
        for i, label in enumerate(cfg.labels):
            part = df.filter(pl.col("_ci") == i).sort("_x")
            # Side by side, not on top of each other: each configuration a little apart.
            xs = part["_x"].to_numpy() + (i - (n - 1) / 2) * 0.08 * step
            ys = part[col].cast(pl.Float64).to_numpy() * scale
            ax.plot(xs, ys, marker="o", markersize=4, color=colours[i], linewidth=1.2, label=label)
            if f"{col}_low" in part.columns:
                lo = part[f"{col}_low"].cast(pl.Float64).to_numpy() * scale
                hi = part[f"{col}_high"].cast(pl.Float64).to_numpy() * scale
                _intervals(ax, xs, ys, lo, hi, colours[i], vertical=True, width=2.0, alpha=0.6)
            paired = part.get_column(f"{col}_paired") if f"{col}_paired" in part.columns else None
            if paired is not None and paired.fill_null(False).any():
                mask = paired.fill_null(False).to_numpy()
                ax.plot(xs[mask], ys[mask], "D", markersize=6, markerfacecolor="none", color=colours[i])
            if col in ("diff", "net_diff") and "reference" in part.columns:
                at = part["reference"].to_numpy()
                ax.plot(
                    xs[at], np.zeros(at.sum()), "o", markersize=5, markerfacecolor="white", color=colours[i]
                )
        if col in ("diff", "net_diff"):
            ax.axhline(0, color="#888", linewidth=0.8)
            flags = df.filter(~pl.col("reference"))[f"{col}_paired"].fill_null(False)
            kind = (
                "all paired"
                if flags.all()
                else "◇ paired, others independent"
                if flags.any()
                else "independent"
            )
            title += f"\n(reference {ref[0] if ref else '?'}, open circle; intervals {kind})"
        ax.set_title(title)
        ax.set_xticks([x_of[v] for v in values], values, rotation=0 if numeric else 30)
        ax.set_xlabel(path if len(path) < 40 else "…" + path[-38:])
        ax.grid(axis="y", alpha=0.3)
    for ax in axes[len(panels) :]:
        ax.set_visible(False)
    if len(cfg.labels) > 1:
        fig.legend(
            *axes[0].get_legend_handles_labels(), loc="outside lower center", ncols=min(3, len(cfg.labels))
        )
    what = "95% intervals clustered by game; differences paired by seed where that narrows them"
    return _finish(fig, f"Sensitivity to {path} ({what})", cfg.labels, cfg.total)


def sensitivity_figures(table: pl.DataFrame, by: list[str] | None = None) -> list:
    """(name, title, figure) of every varied path's chart."""
    if not table.height:
        return []
    out = []
    for path in table["path"].unique(maintain_order=True).to_list():
        name = "sensitivity-" + "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in path)
        out.append((name, f"Sensitivity to {path}", sensitivity_chart(table, path, by)))
    return out
