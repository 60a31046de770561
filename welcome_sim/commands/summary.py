"""`analyze`'s default output: a summary of the balance tables a designer reads in a minute, at
most MAX_LINES lines: scores, score components, the hardest and easiest plans, how games end, their
length and refusals, and the effect of each setting compared; rates in % with one decimal, as the
HTML report shows them. `analyze --full` prints every table and row."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import polars as pl
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from welcome_sim.analysis.labels import value_words
from welcome_sim.analysis.rounding import interval_parts
from welcome_sim.termtables import listing_lines

MAX_LINES = 80
# The summary's own budget: the notes analyze prints after it (reconstructed data, changed plan
# files) take the rest of MAX_LINES, wrapped at 80 columns.
SUMMARY_LINES = MAX_LINES - 6
# Row caps tried in turn until the summary fits MAX_LINES at the terminal's width.
ROW_CAPS = (12, 8, 6, 4, 3, 2, 1)
# Columns that name the data, not a setting a designer compares.
NOT_SETTINGS = ("deck", "plan_set")
MAX_LABEL_COLUMNS = 3  # settings in columns of their own; more are one column of words
ENDINGS_SHOWN = 3  # end reasons with a column of their own; the rest are summed as 'other'


def pct(value: Any) -> str:
    """A rate as the report shows it: one decimal, '%'."""
    return "–" if value is None else f"{100 * value:.1f}%"


def estimate(v: Any, lo: Any, hi: Any, digits: int = 2, sign: bool = False, rate: bool = False) -> list[str]:
    """[estimate, '[low, high]'] rounded as the report rounds them (analysis/rounding.py: bounds
    outward, the estimate inside); '–' for a missing interval."""
    if v is None:
        return ["–", "–"]
    if lo is None or hi is None:
        return [interval_parts(v, v, v, digits, sign, rate)[0], "–"]
    return list(interval_parts(v, lo, hi, digits, sign, rate))


def setting_words(col: str, value: Any) -> str:
    """A setting's value in words ('9¾ cards', '2 players', 'AAA level 1'): the labels' words, the
    same the report's tables and charts use."""
    return value_words(col, value) or str(value)


def varying(df: pl.DataFrame, by: list[str]) -> list[str]:
    """The configuration columns whose value differs between rows."""
    return [c for c in by if c in df.columns and df[c].n_unique() > 1]


def distinguishing(df: pl.DataFrame, by: list[str]) -> list[str]:
    """The settings that tell the configurations apart, each only if it adds to those before it (a
    deck that comes with its edition, a run's mode, do not); the run's name last."""
    order = [c for c in by if c != "run"] + (["run"] if "run" in by else [])
    kept: list[str] = []
    for c in varying(df, order):
        if df.select([*kept, c]).n_unique() > (df.select(kept).n_unique() if kept else 1):
            kept.append(c)
    return kept


def labels(df: pl.DataFrame, cols: list[str]) -> list[list[str]]:
    """Each row's configuration: a cell per setting that varies (the header names it, the cell is
    short), or with more than MAX_LABEL_COLUMNS of them one cell in words (it wraps)."""
    if not cols:
        return [["all games"]] * df.height
    rows = df.select(cols).iter_rows(named=True)
    if len(cols) > MAX_LABEL_COLUMNS:
        return [[", ".join(setting_words(c, row[c]) for c in cols)] for row in rows]
    return [[cell_words(c, row[c]) for c in cols] for row in rows]


HEADS = {
    "nine_three_quarters": "9¾",  # yes or no: the header "9¾ cards" made tables too wide at 80 columns
    "opponent": "AAA level",
    "table": "strategy",
    "plans_mode": "plans",
}


def heads(cols: list[str]) -> list[str]:
    """The headers of the configuration's cells."""
    if not cols or len(cols) > MAX_LABEL_COLUMNS:
        return ["configuration"]
    return [HEADS.get(c, c.replace("_", " ")) for c in cols]


def cell_words(col: str, value: Any) -> str:
    """A setting's value under its header: 'yes'/'no' for the 9¾ cards, else as it is written."""
    if col == "nine_three_quarters":
        return "yes" if value else "no"
    return "–" if value is None else str(value)


def constants(df: pl.DataFrame, by: list[str]) -> list[str]:
    """The settings every configuration shares, in words, one item each."""
    cols = [c for c in by if c in df.columns and df[c].n_unique() == 1 and c not in NOT_SETTINGS]
    first = df.row(0, named=True)
    return [setting_words(c, first[c]) for c in cols if first[c] is not None and c != "run"]


class Listing:
    """'lead: a, b, c' wrapped to the console's width between items, never inside one ("plans:
    random" stays on one line), items longer than a line folded as Rich folds them."""

    def __init__(self, lead: str, items: list[str]) -> None:
        self.lead, self.items = lead, items

    def __rich_console__(self, console: Console, options: Any) -> Any:
        for line in listing_lines(self.lead, self.items, options.max_width):
            yield Text(line)


def _table(
    title: str, headers: list[str], rows: list[list[str]], cap: int, what: str = "rows", left: int = 1
) -> list[Any]:
    """A titled table of at most `cap` rows (the first `left` columns words, the rest numbers), and
    a line saying how many more --full shows."""
    table = Table(
        box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1, 0, 0), collapse_padding=True
    )
    shown = rows[:cap]
    for i, h in enumerate(headers):
        # No number or word is broken ('zombies'): headers and labels wrap between words.
        cells = [w for r in shown for w in (r[i].split() if i < left else [r[i]])]
        longest = max([len(c) for c in cells] + [len(w) for w in h.split()])
        table.add_column(h, justify="left" if i < left else "right", overflow="fold", min_width=longest)
    for row in shown:
        table.add_row(*row)
    out: list[Any] = [Text(title, style="bold"), table]
    if len(rows) > cap:
        out.append(Text(f"  ... {len(rows) - cap} more {what} (--full)"))
    return out


def _scores(t: dict[str, pl.DataFrame], cols: list[str], cap: int) -> list[Any]:
    df = t["scores"]
    rows = [
        [*label, f"{r['games']:,}", *estimate(r["mean"], r["ci_low"], r["ci_high"]), f"{r['sd']:.2f}",
         f"{r['median']:.0f}"]
        for label, r in zip(labels(df, cols), df.iter_rows(named=True), strict=True)
    ]  # fmt: skip
    return _table(
        "scores (points per player; 95% CI of the mean)",
        [*heads(cols), "games", "mean", "95% CI", "sd", "median"],
        rows,
        cap,
        "configurations",
        len(heads(cols)),
    )


def _components(t: dict[str, pl.DataFrame], cols: list[str], cap: int) -> list[Any]:
    df = t["components"]
    parts = [("plans", ("plan_a", "plan_b", "plan_c")), ("parks", ("parks",)), ("pools", ("pools",)),
             ("temps", ("temps",)), ("estates", ("estates",))]  # fmt: skip
    penalties = [c for c in ("extension_penalty", "refusal_penalty", "roundabout_penalty") if c in df.columns]
    own = "expansion_points" in df.columns and bool(df["expansion_points"].abs().sum() > 0)
    headers = [*heads(cols), *(p for p, _ in parts), "penalty", *(["expansion"] if own else []), "total"]
    rows = []
    for label, r in zip(labels(df, cols), df.iter_rows(named=True), strict=True):
        row = [*label, *(f"{sum(r[c] for c in cs):.1f}" for _, cs in parts)]
        row.append(f"{-sum(r[c] for c in penalties):.1f}")
        if own:
            row.append(f"{r['expansion_points']:.1f}")
        rows.append([*row, f"{r['total']:.1f}"])
    return _table(
        "score components (mean points per player)", headers, rows, cap, "configurations", len(heads(cols))
    )


def _plans(t: dict[str, pl.DataFrame], cols: list[str], cap: int) -> list[Any]:
    df = t["plan_difficulty"].sort("validation_rate")
    show = min(cap, 5)
    cut = df.height > 2 * show
    pick = pl.concat([df.head(show), df.tail(show)]) if cut else df
    rows = [
        [r["plan"], *label, *estimate(r["validation_rate"], r["ci_low"], r["ci_high"], 1, rate=True),
         "–" if r["median_round"] is None else f"{r['median_round']:g}"]
        for label, r in zip(labels(pick, cols), pick.iter_rows(named=True), strict=True)
    ]  # fmt: skip
    if cut:  # the hardest, then the easiest: the plans between them are left out
        rows.insert(show, ["...", *[""] * (len(rows[0]) - 1)])
    title = "plans validated (% of player-games), hardest first" + (
        f": the {show} hardest and {show} easiest of {df.height}" if df.height > 2 * show else ""
    )
    head = ["plan", *heads(cols), "validated", "95% CI", "median round"]
    if not cols:  # one configuration: the column would say 'all games' on every row
        head.pop(1)
        rows = [[r[0], *r[2:]] for r in rows]
    return _table(title, head, rows, len(rows), left=len(head) - 3)


def _endings(t: dict[str, pl.DataFrame], cols: list[str], cap: int) -> list[Any]:
    df = t["end_reasons"]
    keys = [c for c in df.columns if c not in ("end_reason", "games", "share")]
    top = (
        df.group_by("end_reason")
        .agg(pl.col("games").sum())
        .sort("games", descending=True)["end_reason"]
        .to_list()
    )
    shown = top[:ENDINGS_SHOWN]
    wide = df.pivot(on="end_reason", index=keys, values="share", aggregate_function="sum")
    wide = wide.with_columns(pl.col(r).fill_null(0.0) for r in top if r in wide.columns)
    other = [r for r in top[ENDINGS_SHOWN:] if r in wide.columns]
    rows = []
    for label, r in zip(labels(wide, cols), wide.iter_rows(named=True), strict=True):
        rows.append(
            [
                *label,
                *(pct(r.get(e, 0.0)) for e in shown),
                *([pct(sum(r[e] for e in other))] if other else []),
            ]
        )
    headers = [*heads(cols), *shown, *(["other"] if other else [])]
    return _table("how games end (% of games)", headers, rows, cap, "configurations", len(heads(cols)))


def _length(t: dict[str, pl.DataFrame], cols: list[str], cap: int) -> list[Any]:
    length, refusals = t["game_length"], t["refusals"]
    keys = [c for c in length.columns if c in refusals.columns and c not in ("games",)]
    df = length.join(refusals, on=keys, how="left", nulls_equal=True)
    rows = [
        [*label, f"{r['mean']:.1f}", f"{r['median']:.0f}", f"{r['mean_refusals']:.2f}", pct(r["any_refusal"]),
         pct(r["ended_by_refusals"])]
        for label, r in zip(labels(df, cols), df.iter_rows(named=True), strict=True)
    ]  # fmt: skip
    headers = [*heads(cols), "rounds", "median", "refusals", "any refusal", "ended by refusals"]
    title = "game length (rounds) and permit refusals (per player)"
    return _table(title, headers, rows, cap, "configurations", len(heads(cols)))


def _effects(t: dict[str, pl.DataFrame], by: list[str], cap: int) -> list[Any]:
    rows = []
    for name, df in t.items():
        if not name.startswith("effect_") or "metric" not in df.columns:
            continue
        total = df.filter(pl.col("metric") == "total")
        cols = varying(total, by)
        where = [
            ", ".join(setting_words(c, row[c]) for c in cols) or "all games"
            for row in total.iter_rows(named=True)
        ]
        for label, r in zip(where, total.iter_rows(named=True), strict=True):
            paired = bool(r.get("paired_used"))
            diff = r["diff_paired"] if paired else r["diff"]
            lo, hi = (r["paired_low"], r["paired_high"]) if paired else (r["ci_low"], r["ci_high"])
            change = (
                f"{setting_words(r['toggle'], _typed(r['a']))} → {setting_words(r['toggle'], _typed(r['b']))}"
            )
            rows.append([change, label, *estimate(diff, lo, hi, sign=True)])
    if not rows:
        return []
    return _table(
        "effect of each setting on the mean score (b minus a, points; 95% CI)",
        ["change", "where", "effect", "95% CI"],
        rows,
        cap,
        left=2,
    )


def _typed(value: Any) -> Any:
    """An effect table's compared value (text there) as the setting's own type."""
    if value in ("True", "False"):
        return value == "True"
    if isinstance(value, str) and value.isdigit():
        return int(value)
    return value


SECTIONS: tuple[Callable[..., list[Any]], ...] = (_scores, _components, _plans, _endings, _length)


def summary_renderables(
    tables: dict[str, pl.DataFrame], by: list[str], runs: list[str], cap: int
) -> list[Any]:
    """What the summary prints, each table cut to `cap` rows."""
    scores = tables["scores"]
    cols = distinguishing(scores, by)
    n = scores.height
    games = int(scores["games"].sum())
    out: list[Any] = [
        Text(f"{', '.join(runs)}: {games:,} games in {n} configuration{'s' * (n != 1)}", style="bold"),
        Listing("every configuration:", constants(scores, by)),
    ]
    for section in SECTIONS:
        key = {"_scores": "scores", "_components": "components", "_plans": "plan_difficulty",
               "_endings": "end_reasons", "_length": "game_length"}[section.__name__]  # fmt: skip
        if key in tables and tables[key].height:
            out += [Text(""), *section(tables, cols, cap)]
    effects = _effects(tables, by, cap)
    if effects:
        out += [Text(""), *effects]
    rest = [k for k in tables if k not in ("scores", "components", "plan_difficulty", "end_reasons",
            "game_length", "refusals", "game_length_histogram") and not k.startswith("effect_")]  # fmt: skip
    more = f"; also {', '.join(r.replace('_', ' ') for r in rest)}" if rest else ""
    out += [Text(""), Text(f"every table and row: analyze --full, or --format csv{more}", style="dim")]
    return out


def line_count(renderables: list[Any], width: int) -> int:
    """Lines the renderables take at this width."""
    buf = io.StringIO()
    probe = Console(file=buf, width=width, soft_wrap=False, markup=False, color_system=None)
    for r in renderables:
        probe.print(r, highlight=False)
    return buf.getvalue().count("\n")


def print_summary(console: Console, tables: dict[str, pl.DataFrame], by: list[str], runs: list[str]) -> int:
    """Print the summary with as many rows per table as fit SUMMARY_LINES; return the lines printed."""
    from welcome_sim.termtables import table_width

    width = min(table_width(console), 120)  # wider, the tables would only spread out
    for cap in ROW_CAPS:
        parts = summary_renderables(tables, by, runs, cap)
        lines = line_count(parts, width)
        if lines <= SUMMARY_LINES:
            break
    for r in parts:
        console.print(r, highlight=False, width=width, soft_wrap=False)
    return lines
