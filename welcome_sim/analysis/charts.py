"""matplotlib charts of the balance tables, as SVG text (for the report) or SVG and PNG files."""

from __future__ import annotations

import io
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import polars as pl

from welcome_sim.analysis.tables import CONFIG
from welcome_sim.simcore.layout import SCORE_COMPONENTS

MAX_CONFIGS = 12  # more configurations than this are cut from a chart (and said so in its title)
SAMPLE = 20_000  # values per configuration drawn for distribution plots
plt.rcParams.update(
    {"svg.fonttype": "none", "svg.hashsalt": "welcome-sim", "font.size": 9, "axes.titlesize": 10}
)
COLORS = plt.get_cmap("tab10").colors


def config_labels(df: pl.DataFrame, by: list[str] | None = None) -> pl.DataFrame:
    """Add a short `config` label from the configuration columns that vary in df."""
    by = [c for c in (CONFIG if by is None else by) if c in df.columns]
    varying = [c for c in by if df[c].n_unique() > 1]
    if not varying:
        return df.with_columns(config=pl.lit("all games"))
    parts = [
        pl.format("{}p", pl.col(c))
        if c == "players"
        else pl.format("AAA {}", pl.col(c))
        if c == "opponent"
        else pl.col(c).cast(pl.String)
        for c in varying
    ]
    # A null part (no AAA outside the solo mode) is left out of the label, not the whole label.
    return df.with_columns(config=pl.concat_str(parts, separator=" · ", ignore_nulls=True))


def _title(base: str, n: int) -> str:
    return base if n <= MAX_CONFIGS else f"{base} (first {MAX_CONFIGS} of {n} configurations)"


def to_svg(fig) -> str:
    """The figure as inline SVG text (the XML header dropped); closes the figure."""
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg") :]


def save(fig, path: Path) -> None:
    """Write the figure as path.svg and path.png; closes the figure."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path.with_suffix(".svg"), bbox_inches="tight", metadata={"Date": None})
    fig.savefig(path.with_suffix(".png"), bbox_inches="tight", dpi=120)
    plt.close(fig)


def score_violins(lf: pl.LazyFrame, by: list[str] | None = None):
    """Violins of final scores per configuration, with mean markers."""
    df = lf.select(
        *(c for c in (CONFIG if by is None else by) if c in lf.collect_schema().names()), "total"
    ).collect()
    df = config_labels(df, by)
    labels = df["config"].unique(maintain_order=True).sort().to_list()
    shown = labels[:MAX_CONFIGS]
    data = []
    rng = np.random.default_rng(0)
    for lab in shown:
        vals = df.filter(pl.col("config") == lab)["total"].to_numpy()
        if len(vals) > SAMPLE:
            vals = rng.choice(vals, SAMPLE, replace=False)
        data.append(vals)
    fig, ax = plt.subplots(figsize=(max(5, 1.1 * len(shown) + 2), 3.6))
    parts = ax.violinplot(data, showmeans=True, showextrema=False)
    for i, body in enumerate(parts["bodies"]):
        body.set_facecolor(COLORS[i % 10])
        body.set_alpha(0.55)
    ax.set_xticks(range(1, len(shown) + 1), shown, rotation=25, ha="right")
    ax.set_ylabel("final score")
    ax.set_title(_title("Score distribution per configuration", len(labels)))
    ax.grid(axis="y", alpha=0.3)
    return fig


def component_bars(comp: pl.DataFrame, by: list[str] | None = None):
    """Stacked mean score components per configuration; penalties below zero."""
    comp = config_labels(comp, by).head(MAX_CONFIGS)
    labels = comp["config"].to_list()
    x = np.arange(len(labels))
    fig, ax = plt.subplots(figsize=(max(5, 0.9 * len(labels) + 3), 3.8))
    pos = np.zeros(len(labels))
    neg = np.zeros(len(labels))
    for i, name in enumerate(SCORE_COMPONENTS):
        vals = comp[name].to_numpy().astype(float)
        if name.endswith("penalty"):
            ax.bar(
                x,
                -vals,
                bottom=neg,
                label=name.replace("_", " "),
                color=COLORS[i % 10],
                hatch="//",
                alpha=0.8,
            )
            neg -= vals
        else:
            ax.bar(x, vals, bottom=pos, label=name.replace("_", " "), color=COLORS[i % 10])
            pos += vals
    ax.scatter(x, comp["total"].to_numpy(), color="black", zorder=3, marker="D", s=18, label="mean total")
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xticks(x, labels, rotation=25, ha="right")
    ax.set_ylabel("mean points")
    ax.set_title("Mean score components")
    ax.legend(fontsize=7, ncol=2, bbox_to_anchor=(1.01, 1), loc="upper left")
    return fig


def plan_difficulty_bars(plans: pl.DataFrame, by: list[str] | None = None):
    """Validation rate per plan card with 95% intervals, one panel per letter, bars per configuration."""
    plans = config_labels(plans, by)
    configs = plans["config"].unique(maintain_order=True).sort().to_list()
    shown = configs[:MAX_CONFIGS]
    letters = plans["letter"].unique().sort().to_list()
    fig, axes = plt.subplots(1, len(letters), figsize=(4.2 * len(letters), 3.4), sharey=True, squeeze=False)
    width = 0.8 / max(1, len(shown))
    for ax, letter in zip(axes[0], letters, strict=True):
        sub = plans.filter(pl.col("letter") == letter)
        ids = sub["plan"].unique().sort().to_list()
        x = np.arange(len(ids))
        for k, cfg in enumerate(shown):
            rows = sub.filter(pl.col("config") == cfg)
            rate = [rows.filter(pl.col("plan") == i)["validation_rate"].sum() for i in ids]
            err = [rows.filter(pl.col("plan") == i)["ci95"].sum() for i in ids]
            ax.bar(
                x + k * width - 0.4 + width / 2,
                rate,
                width,
                yerr=err,
                capsize=2,
                color=COLORS[k % 10],
                label=cfg,
            )
        ax.set_xticks(x, ids, rotation=45)
        ax.set_title(f"Plan {letter}")
        ax.set_ylim(0, 1)
        ax.grid(axis="y", alpha=0.3)
    axes[0][0].set_ylabel("validation rate (95% CI)")
    if len(shown) > 1:
        axes[0][-1].legend(fontsize=7, bbox_to_anchor=(1.01, 1), loc="upper left")
    fig.suptitle(_title("How often each plan is validated", len(configs)), fontsize=10)
    return fig


def plan_heatmap(combos: pl.DataFrame, by: list[str] | None = None):
    """Mean score for each Plan A x Plan B pair (averaged over Plan C), first configuration."""
    combos = config_labels(combos, by)
    cfg = combos["config"].unique().sort()[0]
    sub = combos.filter(pl.col("config") == cfg)
    pair = sub.group_by("plan_a_id", "plan_b_id").agg(
        mean=(pl.col("mean_total") * pl.col("n")).sum() / pl.col("n").sum()
    )
    a_ids = pair["plan_a_id"].unique().sort().to_list()
    b_ids = pair["plan_b_id"].unique().sort().to_list()
    grid = np.full((len(a_ids), len(b_ids)), np.nan)
    for a, b, m in pair.iter_rows():
        grid[a_ids.index(a), b_ids.index(b)] = m
    fig, ax = plt.subplots(figsize=(0.55 * len(b_ids) + 2.5, 0.45 * len(a_ids) + 1.8))
    im = ax.imshow(grid, cmap="viridis", aspect="auto")
    for i in range(len(a_ids)):
        for j in range(len(b_ids)):
            if not np.isnan(grid[i, j]):
                ax.text(j, i, f"{grid[i, j]:.0f}", ha="center", va="center", color="white", fontsize=7)
    ax.set_xticks(range(len(b_ids)), b_ids, rotation=45)
    ax.set_yticks(range(len(a_ids)), a_ids)
    ax.set_xlabel("Plan B")
    ax.set_ylabel("Plan A")
    fig.colorbar(im, ax=ax, label="mean score")
    ax.set_title(f"Mean score by plan pair ({cfg})")
    return fig


def game_length_histogram(hist: pl.DataFrame, by: list[str] | None = None):
    """Share of games by rounds played, one line per configuration."""
    hist = config_labels(hist, by)
    configs = hist["config"].unique(maintain_order=True).sort().to_list()
    fig, ax = plt.subplots(figsize=(6, 3.4))
    for k, cfg in enumerate(configs[:MAX_CONFIGS]):
        sub = hist.filter(pl.col("config") == cfg).sort("rounds")
        share = sub["games"].to_numpy() / sub["games"].sum()
        ax.step(sub["rounds"].to_numpy(), share, where="mid", color=COLORS[k % 10], label=cfg)
    ax.set_xlabel("rounds played")
    ax.set_ylabel("share of games")
    ax.set_title(_title("Game length", len(configs)))
    ax.grid(alpha=0.3)
    if len(configs) > 1:
        ax.legend(fontsize=7)
    return fig


def balance_figures(lf: pl.LazyFrame, tables: dict[str, pl.DataFrame], by: list[str] | None = None) -> list:
    """The report's charts as (name, title, figure), drawn from balance_tables() output."""
    return [
        ("score_distribution", "Score distribution", score_violins(lf, by)),
        ("components", "Score components", component_bars(tables["components"], by)),
        ("plan_difficulty", "Plan difficulty", plan_difficulty_bars(tables["plan_difficulty"], by)),
        ("plan_combinations", "Plan combinations", plan_heatmap(tables["plan_combinations"], by)),
        ("game_length", "Game length", game_length_histogram(tables["game_length_histogram"], by)),
    ]
