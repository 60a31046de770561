"""The HTML balance report: one self-contained file (inline CSS and SVG charts) for one or more runs."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl
from jinja2 import Environment, FileSystemLoader, select_autoescape

from welcome_sim import __version__
from welcome_sim.analysis import charts
from welcome_sim.analysis import tables as T
from welcome_sim.analysis.load import combined, open_runs
from welcome_sim.analysis.plans import changed_plan_files

TEMPLATES = Path(__file__).parent / "templates"
PERCENT = {
    "validation_rate",
    "first_rate",
    "first_share",
    "all_three_rate",
    "share",
    "any_refusal",
    "ended_by_refusals",
}
COMBOS_SHOWN = 10  # hardest and easiest plan combinations listed per configuration


@dataclass
class Table:
    """A table ready for the template: headers and formatted cells."""

    title: str
    headers: list[str]
    rows: list[list[str]]
    note: str = ""


def _fmt(name: str, value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        if name in PERCENT:
            return f"{100 * value:.1f}%"
        if name == "ci95":
            return f"±{value:.2f}"
        return f"{value:.2f}"
    if isinstance(value, int) and name in ("n", "games", "n_a", "n_b"):
        return f"{value:,}"
    return str(value)


def to_table(title: str, df: pl.DataFrame, drop_constant: list[str] | None = None, note: str = "") -> Table:
    """Format a DataFrame, dropping configuration columns that are the same in every row."""
    drop = [c for c in (drop_constant or []) if c in df.columns and df[c].n_unique() <= 1 and df.height > 0]
    df = df.drop(drop)
    rows = [[_fmt(c, v) for c, v in zip(df.columns, row, strict=True)] for row in df.iter_rows()]
    return Table(title, [c.replace("_", " ") for c in df.columns], rows, note)


def _combos_table(combos: pl.DataFrame) -> pl.DataFrame:
    by = [c for c in T.CONFIG if c in combos.columns]
    # Rank only combinations seen often enough: at least half the median count of their configuration.
    enough = pl.col("n") >= 0.5 * (pl.col("n").median().over(by) if by else pl.col("n").median())
    combos = combos.filter(enough)
    ranked = combos.with_columns(rank=pl.col("mean_total").rank("ordinal", descending=False).over(by or None))
    size = ranked.group_by(by).agg(count=pl.len()) if by else None
    if size is not None:
        ranked = ranked.join(size, on=by, nulls_equal=True)
    else:
        ranked = ranked.with_columns(count=pl.len())
    keep = (pl.col("rank") <= COMBOS_SHOWN) | (pl.col("rank") > pl.col("count") - COMBOS_SHOWN)
    return ranked.filter(keep).sort(*by, "mean_total").drop("rank", "count")


def build_report(paths: list[str], out: str | Path) -> dict[str, Any]:
    """Analyse the runs and write the report; returns a short summary of what it holds."""
    runs = open_runs(paths)
    lf = combined(runs)
    by = [c for c in T.CONFIG if c in lf.collect_schema().names()]
    tables = T.balance_tables(lf, by)
    dist, comps, plans, combos = (
        tables[k] for k in ("scores", "components", "plan_difficulty", "plan_combinations")
    )
    ends, length, refusals = tables["end_reasons"], tables["game_length"], tables["refusals"]
    effects = [df for name, df in tables.items() if name.startswith("effect_")]
    figures = [
        (name, title, charts.to_svg(fig)) for name, title, fig in charts.balance_figures(lf, tables, by)
    ]
    svg = {key: (title, text) for key, title, text in figures}
    reconstructed = sorted({p for r in runs for p in r.manifest.get("reconstructed", [])})
    games = int(lf.filter(pl.col("seat") == 0).select(pl.len()).collect().item())
    rows = int(lf.select(pl.len()).collect().item())
    context = {
        "title": "welcome-sim balance report: " + ", ".join(r.name for r in runs),
        "generated": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "version": __version__,
        "games": f"{games:,}",
        "rows": f"{rows:,}",
        "configs": dist.height,
        "reconstructed": reconstructed,
        "changed_plans": {
            r.name: changed_plan_files(r.manifest) for r in runs if changed_plan_files(r.manifest)
        },
        "runs": [
            {
                "name": r.name,
                "path": str(r.path),
                "version": r.manifest.get("version"),
                "seed": r.manifest.get("sweep_seed"),
                "games_per_cell": r.manifest.get("games_per_cell"),
                "cells": len(r.manifest.get("cells", [])),
                "config": json.dumps(r.manifest.get("config"), indent=1),
                "files": r.manifest.get("data_files", []),
                "chunks_done": sum(v["status"] == "done" for v in r.manifest["chunks"].values()),
                "chunks": len(r.manifest.get("chunks", {})),
            }
            for r in runs
        ],
        "svg": svg,
        "t_scores": to_table(
            "Final score per configuration", dist, by, "95% CI of the mean: mean ± 1.96·sd/√n."
        ),
        "t_components": to_table("Mean score components (penalties as positive numbers)", comps, by),
        "t_plans": to_table(
            "Plan difficulty per card",
            plans,
            by,
            "Over player-games with the plan in play. First rate: share of those games in which the plan scored "
            "its first value; first share: share of validations that did. CI: 95% normal approximation.",
        ),
        "t_combos": to_table(
            f"Plan combinations: the {COMBOS_SHOWN} hardest and {COMBOS_SHOWN} easiest per configuration",
            _combos_table(combos),
            by,
            "Ranked by mean final score among combinations played at least half as often as the median "
            "combination of their configuration (rarer ones are too noisy to rank); `--plans all` deals "
            "every combination equally.",
        ),
        "t_aaa": None
        if "aaa" not in tables
        else to_table(
            "Against the AAA: the player's win rate per Opponent card",
            tables["aaa"],
            by,
            "AAA solo mode. Win: a higher score, or an equal score with more complete estates than the AAA "
            "(all of the AAA's estates count as complete). Level 0 does not score: no win rate. "
            "win ci95: 95% normal approximation.",
        ),
        "t_expansions": None
        if "expansions" not in tables
        else to_table(
            "Expansions and the 9¾ cards against the base game",
            tables["expansions"].drop("changes_with"),
            by,
            "Within each configuration that has both sides: a = the base game (no expansion / no 9¾ "
            "cards), b = with it. Metrics: final score (total), the expansion's own points, permit "
            "refusals per player, game length in rounds. diff = b − a; ci95: 95% interval of independent "
            "samples; ci95 paired: from games dealt the same seed (cells of one sweep share seeds).",
        ),
        "t_zombies": None
        if "zombies" not in tables
        else to_table(
            "Zombie Outbreak: invasions, ammunition, barricades and the first stack",
            tables["zombies"],
            by,
            "Per player: houses invaded, ammunition crossed out to hold a horde, barricades built (means, "
            "ci95 = 1.96·sd/√n). Per game: share of games that ended because the first stack ran out. "
            "The sheet layout (open houses, ammunition boxes, roads) and the Zombie cards are reconstructed.",
        ),
        "t_ends": to_table("How games end", ends, by),
        "t_length": to_table("Game length (rounds)", length, by),
        "t_refusals": to_table("Permit refusals", refusals, by),
        "t_effects": [
            to_table(
                f"Effect of {e['toggle'][0]}: {e['a'][0]} → other values"
                + (f" (changes with {e['changes_with'][0]})" if e["changes_with"][0] else ""),
                e.drop("toggle", "metric", "changes_with"),
                by,
                "Difference of mean final score (b − a). ci95: 95% interval treating the sides as independent "
                "samples; ci95 paired: from the differences of games dealt the same seed (same seat), where the "
                "sides share seeds (cells of one sweep do): usually much tighter.",
            )
            for e in effects
        ],
    }
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html", "j2"]))
    html = env.get_template("report.html.j2").render(**context)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(out.suffix + ".tmp")
    tmp.write_text(html, encoding="utf-8")
    tmp.replace(out)
    return {"path": out, "games": games, "rows": rows, "configs": dist.height, "reconstructed": reconstructed}
