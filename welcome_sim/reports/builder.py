"""The HTML balance report: one self-contained file (inline CSS, script and SVG charts) for one or
more runs. Findings first, then one section per question, each with its chart and its tables;
long tables show their top rows and collapse the rest, and every table sorts and filters in the
page (a small inline script, no network)."""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path
from typing import Any

import polars as pl
from jinja2 import Environment, FileSystemLoader, select_autoescape

from welcome_sim import __version__
from welcome_sim.analysis import difficulty as D
from welcome_sim.analysis import tables as T
from welcome_sim.analysis.findings import OWN_FILES, findings, value_words
from welcome_sim.analysis.labels import own_file_aliases
from welcome_sim.analysis.load import combined, open_runs
from welcome_sim.analysis.plans import changed_plan_files, own_files
from welcome_sim.analysis.sensitivity import with_sensitivity
from welcome_sim.errors import WelcomeSimError
from welcome_sim.reports import glossary
from welcome_sim.reports.formatting import (
    CHART_SECTIONS,
    COMBOS_SHOWN,
    HEADERS,
    MEASURED_COLUMN,
    MIN_COMBO_GAMES,
    PERCENT,
    TOP_ROWS,
    Section,
    Table,
    _combos_table,
    _difficulty_figure,
    _difficulty_rows,
    _figures,
    _reconstructed_for,
    _with_measured,
    fold_tall_charts,
    to_table,
)
from welcome_sim.reports.header import command_line, title_of, who_played
from welcome_sim.reports.sections import (
    Sections,
    add_difficulty,
    add_expansions,
    add_games,
    add_rest,
    add_sensitivity,
    everywhere,
)
from welcome_sim.reports.shaping import rows_csv

# The names the command line and the tests read from here (the formatting lives in formatting.py,
# the sections in sections.py).
__all__ = [
    "CHART_SECTIONS",
    "COMBOS_SHOWN",
    "HEADERS",
    "MEASURED_COLUMN",
    "MIN_COMBO_GAMES",
    "PERCENT",
    "TOP_ROWS",
    "Section",
    "Table",
    "_combos_table",
    "_difficulty_figure",
    "_difficulty_rows",
    "_reconstructed_for",
    "_with_measured",
    "build_report",
    "parse_baseline",
    "to_table",
]

TEMPLATES = Path(__file__).parent / "templates"


def parse_baseline(
    text: str | None, lf: pl.LazyFrame, by: list[str], aliases: dict[str, str] | None = None
) -> dict[str, object]:
    """'sheet=classic,mode=standard' -> {column: value}, each column a setting of these runs and
    each value one they hold; errors name the option, the pair and what is valid. `aliases`: other
    names of a value (a file of one's own by its path or title -> its rows' label)."""
    if text is None:
        return {}
    out: dict[str, object] = {}
    for part in [p.strip() for p in text.split(",") if p.strip()]:
        if "=" not in part:
            raise WelcomeSimError(
                f"--baseline: {part!r} is not SETTING=VALUE (e.g. sheet=classic,mode=standard)"
            )
        key, value = (x.strip() for x in part.split("=", 1))
        key = {"nine": "nine_three_quarters", "9¾": "nine_three_quarters"}.get(key, key)
        if key in out:  # the last value would silently win
            raise WelcomeSimError(f"--baseline: {key} is given twice in {text!r}; give each setting once")
        if key not in by:
            raise WelcomeSimError(
                f"--baseline: {key!r} is not a setting of these runs; settings: {', '.join(by)}"
            )
        held = [str(v) for v in lf.select(pl.col(key).unique()).collect()[key].to_list() if v is not None]
        if value.lower() not in {h.lower() for h in held}:  # a value the rows hold comes first
            named = {k.lower(): v for k, v in (aliases or {}).items()}
            value = named.get(value.lower(), named.get(os.path.normpath(value).lower(), value))
        if value.lower() not in {h.lower() for h in held}:
            # A label of one's own file is shown with the path that names it too.
            paths = {v: k for k, v in (aliases or {}).items() if k.endswith(".toml")}
            shown = [f"{h} ({paths[h]})" if h in paths else h for h in sorted(held)]
            raise WelcomeSimError(
                f"--baseline: {key}={value} is not in these runs; values of {key}: {', '.join(shown)}"
            )
        out[key] = next(h for h in held if h.lower() == value.lower())
        if key == "nine_three_quarters":
            out[key] = out[key].lower() == "true"
        elif key in ("players",):
            out[key] = int(out[key])
    if len(out) > 1:
        together = lf.filter(
            pl.all_horizontal(
                *(pl.col(k).cast(pl.String).str.to_lowercase() == str(v).lower() for k, v in out.items())
            )
        )
        if together.select(pl.len()).collect().item() == 0:
            raise WelcomeSimError(
                f"--baseline: no configuration of these runs has {text.strip()} together; give settings one "
                "configuration holds (each value alone is in the runs)"
            )
    return out


def _reference_words(ref: dict[str, object]) -> str:
    """'the first edition', or with settings that change with it: 'run first (the first edition)'."""
    (column, value), *along = ref.items()
    # An edition's own deck and plans go without saying, as in the findings, and so does a setting
    # the reference has none of (no AAA in standard mode).
    said = [
        value_words(c, v) for c, v in along if v is not None and not (c in OWN_FILES and "." not in str(v))
    ]
    return value_words(column, value) + (f" ({', '.join(said)})" if said else "")


def build_report(paths: list[str], out: str | Path, baseline: str | None = None) -> dict[str, Any]:
    """Analyse the runs and write the report; returns a short summary of what it holds."""
    from welcome_sim.analysis.labels import titled, titles_of

    runs = open_runs(paths)
    # A designer's variant is named by its file's title wherever the report names it.
    with titled(titles_of(r.manifest for r in runs)):
        return _build_report(runs, out, baseline)


def _build_report(runs: list, out: str | Path, baseline: str | None) -> dict[str, Any]:
    lf = combined(runs)
    by = [c for c in T.CONFIG if c in lf.collect_schema().names()]
    chosen = parse_baseline(baseline, lf, by, own_file_aliases(r.manifest for r in runs))
    tables = T.balance_tables(lf, by, chosen, own_files(r.manifest for r in runs))
    tables = with_sensitivity(tables, lf, by, [r.manifest for r in runs])
    files = [f for r in runs for f in r.manifest.get("data_files", [])]
    reconstructed = sorted({p for r in runs for p in r.manifest.get("reconstructed", [])})
    ranking = D.from_sweep(lf, by, {**T.BASELINE, **chosen})
    diff_frame = D.table(ranking) if ranking is not None else pl.DataFrame()
    s = Sections(by, files, _figures(lf, tables, by), everywhere(tables["scores"], files))
    if ranking is not None and (ranking.rows or ranking.apart):
        add_difficulty(s, ranking, diff_frame, chosen)
    add_games(s, tables)
    add_sensitivity(s, tables)
    add_expansions(s, tables)
    own = add_rest(s, tables, runs)
    sections = s.sections
    scores = tables["scores"]
    fold_tall_charts(sections)
    for sec in sections:  # ids for the page's links and the CSV files' names
        for i, t in enumerate(sec.tables):
            t.id = f"{sec.id}-{i + 1}"

    sentences = findings(tables, by, ranking.sentences if ranking else [], chosen, own)
    games = int(lf.filter(pl.col("seat") == 0).select(pl.len()).collect().item())
    rows = int(lf.select(pl.len()).collect().item())
    context = _context(
        runs, lf, by, chosen, ranking, scores.height, (games, rows, sentences), sections, reconstructed
    )
    context["recon_everywhere"], context["recon_marked"] = s.everywhere, s.marked
    curves = tables.get("sensitivity")
    context["varied"] = (
        ", ".join(
            f"{p}={v}"
            for p, v in curves.filter(pl.col("reference"))
            .select("path", "value")
            .unique(maintain_order=True)
            .iter_rows()
        )
        if curves is not None and curves.height
        else ""
    )
    context["glossary"] = glossary.entries(
        [h for sec in sections for t in sec.tables for h in t.headers],
        " ".join(
            [
                *sentences,
                *(sec.intro for sec in sections),
                *(t.title + " " + t.note for sec in sections for t in sec.tables),
            ]
        )
        + (" reconstructed" if reconstructed else ""),
    )
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html", "j2"]))
    html = env.get_template("report.html.j2").render(**context)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(out.suffix + ".tmp")
    tmp.write_text(html, encoding="utf-8")
    tmp.replace(out)
    return {
        "path": out,
        "games": games,
        "rows": rows,
        "configs": scores.height,
        "reconstructed": reconstructed,
        "findings": sentences,
        "sections": [s.id for s in sections],
        "charts": {f["name"]: f["configs"] for s in sections for f in s.figures},
    }


def _context(
    runs: list,
    lf: pl.LazyFrame,
    by: list[str],
    chosen: dict[str, object],
    ranking: D.Ranking | None,
    configs: int,
    counts: tuple[int, int, list[str]],
    sections: list[Section],
    reconstructed: list[str],
) -> dict[str, Any]:
    """What the template reads: the header (runs, games, rows, configurations, the reference values),
    the findings, the sections and each run's manifest in short. counts: games, rows, findings."""
    games, rows, sentences = counts
    # The header names the value each compared setting is measured from, as the effects use it:
    # the base game's where the runs hold it, else the first value (a setting with one value, or a
    # baseline value the runs lack, would name a game the report does not show).
    used = [T.reference(lf, c, by, chosen) for c in T.toggles(lf, by)]
    facts = who_played(lf, games)
    context = {
        "title": title_of(facts),
        "facts": facts,
        "commands": [
            (r.name, command_line(r.manifest, str(r.path))) for r in runs if r.manifest.get("config")
        ],
        "generated": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "version": __version__,
        "games": f"{games:,}",
        "rows": f"{rows:,}",
        "configs": configs,
        "baseline": ", ".join(_reference_words(ref) for ref in used),
        "findings": sentences,
        # The warning that a score with an expansion's own points is not an easier game: only where
        # the difficulty section it points to is there and an expansion is among the rows.
        "own_points": bool(ranking is not None and ranking.rows and "expansion" in by)
        and bool(lf.select((pl.col("expansion") != "none").any()).collect().item()),
        "sections": sections,
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
                "files_csv": rows_csv(
                    ["path", "kind", "provenance", "sha256"],
                    [
                        [f.get(k) for k in ("path", "kind", "provenance", "sha256")]
                        for f in r.manifest.get("data_files", [])
                    ],
                ),
                "chunks_done": sum(v["status"] == "done" for v in r.manifest["chunks"].values()),
                "chunks": len(r.manifest.get("chunks", {})),
            }
            for r in runs
        ],
    }
    return context
