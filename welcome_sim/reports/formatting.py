"""The report's tables and charts made ready for its template: frames formatted into cells (rates in
%, intervals in brackets, settings in words), the reconstructed data each table rests on, and the
charts by the section that shows them."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from welcome_sim.analysis import charts
from welcome_sim.analysis import difficulty as D
from welcome_sim.analysis import tables as T
from welcome_sim.analysis.custom import is_shipped
from welcome_sim.analysis.robustness import measured_cells
from welcome_sim.analysis.rounding import interval_parts
from welcome_sim.reports.shaping import csv_text, intervals_under, merge_settings, without_fixed_statistics

PERCENT = {
    "validation_rate",
    "first_rate",
    "first_share",
    "all_three_rate",
    "share",
    "any_refusal",
    "ended_by_refusals",
    "win_rate",
    "first_stack_share",
}
TOP_ROWS = 5  # rows a long table shows before its "all rows" fold
COMBOS_SHOWN = 10  # hardest and easiest plan combinations listed per configuration
MIN_COMBO_GAMES = 30  # a combination is ranked only with at least this many games
# Chart names (charts.balance_figures) -> the section that shows them; unknown names go to "more".
CHART_SECTIONS = (
    ("sensitivity", "sensitivity"),  # before "score": a path may hold the word
    ("score", "scores"),
    ("component", "scores"),
    ("plan_difficulty", "plans"),
    ("plan_combination", "combinations"),
    ("heatmap", "combinations"),
    ("game_length", "length"),
    ("aaa", "aaa"),
    ("player", "players"),
    ("plan_race", "players"),
    ("expansion", "expansions"),
    ("refusal", "refusals"),
    ("effect", "effects"),
)


@dataclass
class Table:
    """A table ready for the template: headers, formatted cells, and what it rests on."""

    title: str
    headers: list[str]
    rows: list[list[str]]
    note: str = ""
    reconstructed: list[str] = field(default_factory=list)  # reconstructed data its rows used
    top: int = TOP_ROWS
    left: list[bool] = field(default_factory=list)  # per column: words (left) or numbers (right)
    transposed: bool = False  # one wide row shown as a column
    id: str = ""  # its anchor in the page and its CSV file's name
    csv: str = ""  # the frame behind it, every column, for the page's CSV download
    marks: list[str] = field(default_factory=list)  # per row: reconstructed files beyond every row's


@dataclass
class Section:
    """One question of the report: its charts and tables."""

    id: str
    title: str
    intro: str = ""
    figures: list[dict[str, Any]] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)

    def lead(self) -> tuple[list[dict[str, Any]], list[Table]]:
        """What the section shows unfolded: its first charts that are not tall (LEAD_CHARTS at most)
        and its first table; the rest is in its 'more' fold (see more)."""
        figs = [
            f
            for f in self.figures[:LEAD_CHARTS]
            if svg_size(f.get("svg", ""))[1] <= TALL_CHART and not f.get("folded")
        ]
        # Beside a chart, only a short table (it fits beside it); a long one is read from the fold.
        first = self.tables[:1]
        short = first if first and (first[0].transposed or len(first[0].rows) <= LEAD_ROWS) else []
        return figs, (short if figs else self.tables[:1])

    def more(self) -> tuple[list[dict[str, Any]], list[Table]]:
        """The charts and tables the section folds."""
        figs, tables = self.lead()
        return [f for f in self.figures if f not in figs], [t for t in self.tables if t not in tables]


TRANSPOSE_FROM = 7  # columns of a one-row table shown as a column of (name, value) rows
LEAD_ROWS = 4  # a section with a chart shows its first table unfolded only up to this many rows
LEAD_CHARTS = 2  # charts a section shows before its fold
TALL_CHART = 900  # px: a taller chart is folded (the page stays short; the reader opens it)


# px: the unfolded charts of a page together (the demo shows 2,178 today); the tallest fold first beyond it
CHART_BUDGET = 2_400


def fold_tall_charts(sections: list[Section], budget: int = CHART_BUDGET) -> int:
    """Fold the tallest of the charts the sections show until they take at most budget px of the
    page (a page with many sections stays short whatever size its charts are drawn at); returns the
    px they take."""
    lead = [(svg_size(f.get("svg", ""))[1], f) for s in sections for f in s.lead()[0]]
    total = sum(h for h, _ in lead)
    # A sweep's effect curves are what a --vary sweep was run for: the other charts fold first.
    for h, f in sorted(lead, key=lambda x: (str(x[1].get("name", "")).startswith("sensitivity"), -x[0])):
        if total <= budget:
            break
        f["folded"] = True
        total -= h
    return int(total)


def svg_size(svg: str) -> tuple[float, float]:
    """An inline SVG's width and height in CSS px (matplotlib writes them in pt)."""
    import re

    head = svg[: svg.find(">") + 1]
    size = []
    for attr in ("width", "height"):
        m = re.search(rf'{attr}="([\d.]+)(pt|px)?"', head)
        size.append(0.0 if not m else float(m.group(1)) * (4 / 3 if m.group(2) == "pt" else 1))
    return size[0], size[1]


def _fmt(name: str, value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, bool):
        return {"nine_three_quarters": "with the 9¾ cards" if value else "without the 9¾ cards"}.get(
            name, str(value)
        )
    if isinstance(value, float):
        if math.isnan(value):
            return "–"
        if name in PERCENT:
            return f"{100 * value:.1f}%"
        return f"{value:.2f}"
    if isinstance(value, int) and name in ("n", "games", "n_a", "n_b", "pairs", "player_games"):
        return f"{value:,}"
    return str(value)


def _bound_text(lo: Any, hi: Any, pct: bool) -> str | None:
    if lo is None or hi is None or (isinstance(lo, float) and math.isnan(lo)):
        return None
    if pct:
        return f"[{100 * min(max(lo, 0.0), 1.0):.1f}%, {100 * min(max(hi, 0.0), 1.0):.1f}%]"
    return f"[{lo:.2f}, {hi:.2f}]"


def _intervals(df: pl.DataFrame) -> pl.DataFrame:
    """Interval bounds as one '[low, high]' column each, two decimals (rates in %); half-widths
    dropped; an interval that cannot be known (one game) shows as '–'."""
    pairs = [
        ("ci_low", "ci_high", "95% CI"),
        ("paired_low", "paired_high", "paired 95% CI"),
        ("index_low", "index_high", "index 95% CI"),
    ]
    pairs += [(f"{m}_low", f"{m}_high", f"{m.replace('_', ' ')} 95% CI") for m in D.SHOWN]
    pct = any(c in df.columns for c in ("validation_rate", "all_three_rate"))
    out = df
    if "rank_low" in out.columns and "rank_high" in out.columns:
        out = out.with_columns(
            pl.format("{}-{}", pl.col("rank_low"), pl.col("rank_high")).alias("rank range")
        )
        out = out.drop("rank_low", "rank_high")
    for lo, hi, name in pairs:
        if lo in out.columns and hi in out.columns:
            rate = pct and lo == "ci_low"
            text = [
                _bound_text(x, y, rate) for x, y in zip(out[lo].to_list(), out[hi].to_list(), strict=True)
            ]
            out = out.with_columns(pl.Series(name, text, dtype=pl.String)).drop(lo, hi)
    if "win_rate" in out.columns and "win_ci95" in out.columns:
        text = [
            None if w is None or h is None else _bound_text(w - h, w + h, True)
            for w, h in zip(out["win_rate"].to_list(), out["win_ci95"].to_list(), strict=True)
        ]
        out = out.with_columns(pl.Series("win 95% CI", text, dtype=pl.String))
    return out.drop(
        [c for c in out.columns if c == "ci95" or c.endswith("_ci95") or c in ("ci95_paired", "paired_used")]
    )


# Column names as a designer reads them.
HEADERS = {
    "nine_three_quarters": "9¾ cards",
    "plans_mode": "plans dealt",
    "table": "strategy",
    "n": "player-games",
    "n_a": "games a",
    "n_b": "games b",
    "plan_a_id": "plan A",
    "plan_b_id": "plan B",
    "plan_c_id": "plan C",
    "mean_a": "mean a",
    "mean_b": "mean b",
    "validation_rate": "validated",
    "all_three_rate": "all three validated",
    "first_rate": "scored first value",
    "first_share": "first value, of validations",
    "median_round": "median round validated",
    "mean_total": "mean score",
    "requirements": "combination",
    "opponent": "AAA level",
    "opponent_name": "AAA card",
    "toggle": "compared",
}


def _words(df: pl.DataFrame) -> pl.DataFrame:
    """Setting values in words (expansion titles, 'no 9¾ cards'); a and b of a toggle likewise."""
    from welcome_sim.analysis.labels import expansion_title

    out = df
    if "expansion" in out.columns and out.schema["expansion"] == pl.String:
        out = out.with_columns(pl.col("expansion").map_elements(expansion_title, return_dtype=pl.String))
    if "toggle" in out.columns and {"a", "b"} <= set(out.columns):
        from welcome_sim.reports.shaping import setting_words as short

        for side in ("a", "b"):
            out = out.with_columns(
                pl.struct("toggle", side)
                .map_elements(lambda r, k=side: short(r["toggle"], r[k]) or "–", return_dtype=pl.String)
                .alias(side)
            )
    if "n" in out.columns and "games" in out.columns and out["n"].equals(out["games"].cast(out["n"].dtype)):
        out = out.drop("n")  # one seat a game: the two counts are the same
    return out


def to_table(
    title: str,
    df: pl.DataFrame,
    drop_constant: list[str] | None = None,
    note: str = "",
    reconstructed: list[str] | None = None,
) -> Table:
    """Format a DataFrame to fit the card (see shaping.py): configuration columns that are the same
    in every row dropped, the others in one column of words, intervals under their estimates."""
    csv = csv_text(df)
    drop = [c for c in (drop_constant or []) if c in df.columns and df[c].n_unique() <= 1 and df.height > 0]
    df, said = without_fixed_statistics(_words(df).drop(drop))
    df = _said_once(df)
    df = _intervals(merge_settings(intervals_under(df)))
    rows = [[_fmt(c, v) for c, v in zip(df.columns, row, strict=True)] for row in df.iter_rows()]
    # Words read left to right; numbers and intervals line up on the right.
    left = [df.schema[c] == pl.String and not _numeric_text(df[c]) for c in df.columns]
    headers = [HEADERS.get(c, c.replace("_", " ")) for c in df.columns]
    note = " ".join(x for x in (note, *said) if x)
    if len(rows) == 1 and len(headers) > TRANSPOSE_FROM:  # one wide row reads better as a column
        rows = [[h, cell] for h, cell in zip(headers, rows[0], strict=True)]
        headers, left = ["", "value"], [True, False]
        return Table(title, headers, rows, note, reconstructed or [], left=left, csv=csv, transposed=True)
    return Table(title, headers, rows, note, reconstructed or [], left=left, csv=csv)


def _said_once(df: pl.DataFrame) -> pl.DataFrame:
    """An effect's setting and metric: dropped where the title says them (one value), else in words."""
    from welcome_sim.analysis.labels import METRICS
    from welcome_sim.reports.shaping import SETTING_NAMES

    words = {"toggle": SETTING_NAMES, "metric": METRICS}
    for c, names in words.items():
        if c in df.columns:
            if df[c].n_unique() <= 1:
                df = df.drop(c)
            else:
                df = df.with_columns(
                    pl.col(c).replace_strict(names, default=pl.col(c), return_dtype=pl.String)
                )
    return df.drop([c for c in ("changes_with",) if c in df.columns])


def _numeric_text(col: pl.Series) -> bool:
    """A text column of numbers or intervals ('+0.70 [+0.63, +0.77]', '1 (1-2)')."""
    import re

    sample = [str(v).split("\n")[0] for v in col.drop_nulls().head(20).to_list()]
    number = re.compile(r"^(\[.*|[+\-−]?\d[\d,.]*%?( \S+)?)$")  # '104.40', '+0.37 paired', '[1, 2]'
    return bool(sample) and all(number.match(v) for v in sample)


def _combos_table(combos: pl.DataFrame) -> tuple[pl.DataFrame, int]:
    """The hardest and easiest combinations per configuration by the share of players validating
    all three plans, among those played in MIN_COMBO_GAMES games or more; and how many were too rare."""
    by = [c for c in T.CONFIG if c in combos.columns]
    games = "games" if "games" in combos.columns else "n"
    rare = int((combos[games] < MIN_COMBO_GAMES).sum())
    combos = combos.filter(pl.col(games) >= MIN_COMBO_GAMES)
    rank = pl.struct(
        "all_three_rate", *[c for c in ("plan_a_id", "plan_b_id", "plan_c_id") if c in combos.columns]
    ).rank("ordinal")
    ranked = combos.with_columns(rank=rank.over(by) if by else rank)
    count = pl.len().over(by) if by else pl.len()
    ranked = ranked.with_columns(count=count)
    keep = (pl.col("rank") <= COMBOS_SHOWN) | (pl.col("rank") > pl.col("count") - COMBOS_SHOWN)
    # Ties keep the cards' order (by name), not a made-up rank among equals.
    ids = [c for c in ("plan_a_id", "plan_b_id", "plan_c_id") if c in ranked.columns]
    return ranked.filter(keep).sort(*by, "all_three_rate", *ids).drop("rank", "count"), rare


def _reconstructed_for(df: pl.DataFrame, files: list[dict[str, Any]]) -> list[str]:
    """The reconstructed data files a table's rows rest on: the deck, edition and standard plans
    always; a sheet, expansion, the 9¾ cards, the AAA cards or advanced plans when its rows use them."""
    out = []

    def uses(col: str, pred) -> bool:
        return col not in df.columns or any(pred(v) for v in df[col].unique().to_list())

    for f in files:
        if f.get("provenance") != "reconstructed":
            continue
        kind, name = f.get("kind", ""), f.get("name", "")
        if name and not is_shipped(str(f.get("path", ""))):
            # A file of one's own is named in the rows by its label: the name and its hash.
            name = f"{name}.{str(f.get('sha256', ''))[:8]}"
        if kind == "sheet" and not uses("sheet", lambda v, n=name: str(v) == n):
            continue
        if kind == "expansion" and not uses("expansion", lambda v, n=name: str(v) == n):
            continue
        # The 9¾ cards: recorded as kind "cards" or as a deck read from data/cards/ (a sweep's manifest).
        nine = (
            kind == "cards" or str(f.get("path", "")).startswith("data/cards/") or "nine_three" in str(name)
        )
        if nine and ("nine_three_quarters" in df.columns and not df["nine_three_quarters"].any()):
            continue
        if nine:
            kind, name = "cards", "9¾"
        if kind == "opponents" and "opponent" in df.columns and df["opponent"].is_null().all():
            continue
        advanced_rows = "mode" in df.columns and any(
            "advanced" in str(v) for v in df["mode"].unique().to_list()
        )
        if kind == "plans" and "advanced" in name and "mode" in df.columns and not advanced_rows:
            continue
        label = f"{name} {kind}" if name else f.get("path", "")
        if label not in out:
            out.append(label)
    return out


def _figures(
    lf: pl.LazyFrame, tables: dict[str, pl.DataFrame], by: list[str]
) -> dict[str, list[dict[str, Any]]]:
    """The charts by section: title, SVG text and the configurations each one draws."""
    out: dict[str, list[dict[str, Any]]] = {}
    for name, title, fig in charts.balance_figures(lf, tables, by):
        configs = list(getattr(fig, "welcome_configs", []) or [])
        total = int(getattr(fig, "welcome_total", len(configs)) or len(configs))
        section = next((s for key, s in CHART_SECTIONS if key in name), "more")
        out.setdefault(section, []).append(
            {"name": name, "title": title, "svg": charts.to_svg(fig), "configs": configs, "total": total}
        )
    return out


def _difficulty_rows(frame: pl.DataFrame) -> pl.DataFrame:
    """The ranking with each measure and its interval in one cell ('+0.70 [+0.63, +0.77]'), and
    measures not taken (no skill gap without two levels) left out."""

    def cell(v: Any, lo: Any, hi: Any, digits: int) -> str | None:
        if v is None:
            return None
        if lo is None or hi is None:
            return interval_parts(v, v, v, digits, sign=True)[0]
        return "\n".join(interval_parts(v, lo, hi, digits, sign=True))

    recs = []
    for r in frame.iter_rows(named=True):
        rec = {
            "rank": (
                str(r["rank"])
                + ("" if r["rank_low"] == r["rank_high"] else f"\nranks {r['rank_low']}–{r['rank_high']}")
                if "rank" in r
                else None
            ),
            # † a race expansion played alone without an AAA (difficulty.LONE_RACE).
            "item": r["item"] + ("\u00a0†" if r.get("lone_race") else ""),
            "stars": r["stars"],
        }
        # Points first (what a designer reads), the index beside them with its unit named.
        if "net_score" in r:
            rec["net points"] = cell(r["net_score"], r["net_score_low"], r["net_score_high"], 1)
        rec["index (SDs)"] = cell(r["index"], r["index_low"], r["index_high"], 2) if "index" in r else None
        for m in D.SHOWN:
            if m not in r or m == "net_score":
                continue
            digits = 1 if m in ("skill", "blind", "rounds") else 2
            if m == "blind" and r.get("no_blind_cost") and r[m] is not None:
                rec[D.WORDS[m]] = D.NO_BLIND_COST  # 0 by construction, not a measured +0.0 [+0.0, +0.0]
                continue
            rec[D.WORDS[m]] = cell(r[m], r[f"{m}_low"], r[f"{m}_high"], digits)
        rec["deals"] = r["deals"]
        recs.append(rec)
    out = pl.DataFrame(recs)
    return out.drop([c for c in out.columns if out[c].null_count() == out.height])


MEASURED_COLUMN = "reconstruction (measured)"


def _with_measured(shown: pl.DataFrame, measured: dict | None) -> pl.DataFrame:
    """The difficulty table with the shipped reconstruction verdicts (analysis/robustness.py) of the
    built-in expansions among its rows, by title ("Halloween", "Halloween (3 players)"; a copy of
    one's own is quoted and never matches); unchanged when none is."""
    if not measured:
        return shown
    cells = measured_cells(measured)

    def cell(label: str) -> str | None:
        label = label.split("\u00a0")[0]  # without the † of a lone race
        return next((c for t, c in cells.items() if label == t or label.startswith(t + " (")), None)

    values = [cell(x) for x in shown["item"].to_list()]
    if not any(values):
        return shown
    return shown.with_columns(pl.Series(MEASURED_COLUMN, values, dtype=pl.String))


def _difficulty_figure(frame: pl.DataFrame) -> dict[str, Any] | None:
    chart = getattr(charts, "difficulty_chart", None)
    if chart is None or frame.height == 0:
        return None
    df = frame.select(
        "item",
        pl.col("index"),
        pl.col("index_low").alias("ci_low"),
        pl.col("index_high").alias("ci_high"),
        pl.col("publisher_stars").alias("stars"),
    )
    fig = chart(df)
    configs = list(getattr(fig, "welcome_configs", []) or frame["item"].to_list())
    return {"name": "difficulty", "title": "Difficulty index", "svg": charts.to_svg(fig), "configs": configs}
