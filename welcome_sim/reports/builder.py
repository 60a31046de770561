"""The HTML balance report: one self-contained file (inline CSS, script and SVG charts) for one or
more runs. Findings first, then one section per question, each with its chart and its tables;
long tables show their top rows and collapse the rest, and every table sorts and filters in the
page (a small inline script, no network)."""

from __future__ import annotations

import datetime as dt
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl
from jinja2 import Environment, FileSystemLoader, select_autoescape

from welcome_sim import __version__
from welcome_sim.analysis import charts
from welcome_sim.analysis import difficulty as D
from welcome_sim.analysis import tables as T
from welcome_sim.analysis.custom import custom_differences, is_shipped
from welcome_sim.analysis.findings import OWN_FILES, findings, value_words
from welcome_sim.analysis.load import combined, open_runs
from welcome_sim.analysis.plans import changed_plan_files, own_files
from welcome_sim.analysis.robustness import load_measured, measured_cells, measured_note
from welcome_sim.errors import WelcomeSimError

TEMPLATES = Path(__file__).parent / "templates"
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
TOP_ROWS = 10  # rows a long table shows before its "all rows" fold
COMBOS_SHOWN = 10  # hardest and easiest plan combinations listed per configuration
MIN_COMBO_GAMES = 30  # a combination is ranked only with at least this many games
# Chart names (charts.balance_figures) -> the section that shows them; unknown names go to "more".
CHART_SECTIONS = (
    ("score", "scores"),
    ("component", "components"),
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


@dataclass
class Section:
    """One question of the report: its charts and tables."""

    id: str
    title: str
    intro: str = ""
    figures: list[dict[str, Any]] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)


def _fmt(name: str, value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, bool):
        return {"nine_three_quarters": "9¾ cards" if value else "no 9¾ cards"}.get(name, str(value))
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
    "diff_paired": "diff paired",
    "pair_r": "pairing r",
    "opponent": "AAA level",
    "opponent_name": "AAA card",
}


def _words(df: pl.DataFrame) -> pl.DataFrame:
    """Setting values in words (expansion titles, 'no 9¾ cards'); a and b of a toggle likewise."""
    from welcome_sim.analysis.labels import expansion_title

    out = df
    if "expansion" in out.columns and out.schema["expansion"] == pl.String:
        out = out.with_columns(pl.col("expansion").map_elements(expansion_title, return_dtype=pl.String))
    if "toggle" in out.columns and {"a", "b"} <= set(out.columns):
        from welcome_sim.analysis.labels import value_words as short

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
    """Format a DataFrame, dropping configuration columns that are the same in every row."""
    drop = [c for c in (drop_constant or []) if c in df.columns and df[c].n_unique() <= 1 and df.height > 0]
    df = _intervals(_words(df).drop(drop))
    rows = [[_fmt(c, v) for c, v in zip(df.columns, row, strict=True)] for row in df.iter_rows()]
    # Words read left to right; numbers and intervals line up on the right.
    left = [df.schema[c] == pl.String and not _numeric_text(df[c]) for c in df.columns]
    headers = [HEADERS.get(c, c.replace("_", " ")) for c in df.columns]
    return Table(title, headers, rows, note, reconstructed or [], left=left)


def _numeric_text(col: pl.Series) -> bool:
    """A text column of numbers or intervals ('+0.70 [+0.63, +0.77]', '1 (1-2)')."""
    sample = [str(v) for v in col.drop_nulls().head(20).to_list()]
    return bool(sample) and all(v[:1] in "+-−[0123456789" for v in sample)


def _combos_table(combos: pl.DataFrame) -> tuple[pl.DataFrame, int]:
    """The hardest and easiest combinations per configuration by the share of players validating
    all three plans, among those played in MIN_COMBO_GAMES games or more; and how many were too rare."""
    by = [c for c in T.CONFIG if c in combos.columns]
    games = "games" if "games" in combos.columns else "n"
    rare = int((combos[games] < MIN_COMBO_GAMES).sum())
    combos = combos.filter(pl.col(games) >= MIN_COMBO_GAMES)
    rank = pl.col("all_three_rate").rank("ordinal")
    ranked = combos.with_columns(rank=rank.over(by) if by else rank)
    count = pl.len().over(by) if by else pl.len()
    ranked = ranked.with_columns(count=count)
    keep = (pl.col("rank") <= COMBOS_SHOWN) | (pl.col("rank") > pl.col("count") - COMBOS_SHOWN)
    return ranked.filter(keep).sort(*by, "all_three_rate").drop("rank", "count"), rare


def parse_baseline(text: str | None, lf: pl.LazyFrame, by: list[str]) -> dict[str, object]:
    """'sheet=classic,mode=standard' -> {column: value}, each column a setting of these runs and
    each value one they hold; errors name the option, the pair and what is valid."""
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
        if value.lower() not in {h.lower() for h in held}:
            raise WelcomeSimError(
                f"--baseline: {key}={value} is not in these runs; values of {key}: {', '.join(sorted(held))}"
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
        if kind == "cards" and ("nine_three_quarters" in df.columns and not df["nine_three_quarters"].any()):
            continue
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
        return f"{v:+.{digits}f} [{lo:+.{digits}f}, {hi:+.{digits}f}]"

    recs = []
    for r in frame.iter_rows(named=True):
        rec = {
            "rank": f"{r['rank']} ({r['rank_low']}-{r['rank_high']})" if "rank" in r else None,
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
    chosen = parse_baseline(baseline, lf, by)
    tables = T.balance_tables(lf, by, chosen, own_files(r.manifest for r in runs))
    files = [f for r in runs for f in r.manifest.get("data_files", [])]
    reconstructed = sorted({p for r in runs for p in r.manifest.get("reconstructed", [])})
    ranking = D.from_sweep(lf, by, {**T.BASELINE, **chosen})
    diff_frame = D.table(ranking) if ranking is not None else pl.DataFrame()
    figs = _figures(lf, tables, by)

    def table(title: str, df: pl.DataFrame, note: str = "") -> Table:
        return to_table(title, df, by, note, _reconstructed_for(df, files))

    scores = tables["scores"]
    sections: list[Section] = []

    def add(sid: str, title: str, parts: list[Table], intro: str = "", figures: list | None = None) -> None:
        # A section's charts are the ones drawn for its id (CHART_SECTIONS) unless given.
        sections.append(Section(sid, title, intro, figs.get(sid, []) if figures is None else figures, parts))

    if ranking is not None and (ranking.rows or ranking.apart):
        fig = _difficulty_figure(diff_frame)
        measured = load_measured()
        shown = _with_measured(_difficulty_rows(diff_frame), measured) if ranking.rows else None
        said = shown is not None and MEASURED_COLUMN in shown.columns and measured is not None
        add(
            "difficulty",
            f"Difficulty against the base game (player: {ranking.reference})",
            (
                [table("Difficulty ranking (1 = hardest)", shown, measured_note(measured) if said else "")]
                if shown is not None
                else []
            )
            + (
                [
                    table(
                        "Compared apart: its own points replace the base game's scoring",
                        _difficulty_rows(D.apart_table(ranking)),
                        "Not ranked on score (its points are not the base game's): refusals, plans validated, "
                        "games ended by refusals, rounds and the skill gap against the base game, item − base.",
                    )
                ]
                if ranking.apart
                else []
            ),
            "Each configuration against its base game (the same settings with "
            + ", ".join(
                value_words(k, v)
                for k, v in {**T.BASELINE, **chosen}.items()
                if k in by and k in D.ITEM_SETTINGS
            )
            + ", no AAA) on the same seeds. Net points: what the reference player scores more (+) or loses (−) "
            "against the base game, net of the expansion's own points. The difficulty index (SDs) is the paired "
            "difference in net score and, when the runs hold the casual and expert players, the skill gap, and "
            "when they hold casual:blind=1 too, the blind cost (what a player blind to the item's own rules "
            "loses), averaged, in base-game standard deviations of the net score: positive is harder; refusals, "
            "plans and rounds beside it are its reasons. 95% bootstrap intervals over deals. Stars: the publisher's rating of "
            "the expansions. "
            + (
                f"Spearman's rho against the stars: {ranking.rho:+.2f}"
                + (f" [{ranking.rho_ci[0]:+.2f}, {ranking.rho_ci[1]:+.2f}]." if ranking.rho_ci else ".")
                if ranking.rho is not None
                else f"{ranking.rated} rated item(s): too few for a rank correlation (3 or more)."
            )
            + (
                " Reference player: casual, with the skill gap to expert and the blind cost: the measure "
                "welcome-sim difficulty gives, on these runs' deals."
                if ranking.expert and ranking.blind
                else " Reference player: casual, with the skill gap to expert; no blind cost (the runs do not "
                "hold casual:blind=1: sweep --strategy casual --strategy expert --strategy casual:blind=1), so "
                "it is not the number welcome-sim difficulty gives."
                if ranking.expert
                else f" Reference player: {ranking.reference}: the index is measured on the runs' own players, so "
                "it is not the number welcome-sim difficulty gives (casual players, with the skill gap to experts)."
                " No skill gap: the runs do not hold the casual and expert players (sweep --strategy casual "
                "--strategy expert)."
            )
            + " For every sheet, expansion and mode at once, run welcome-sim difficulty."
            + (f" † {D.LONE_RACE}." if diff_frame.height and diff_frame["lone_race"].any() else "")
            + (" Left out: " + "; ".join(ranking.dropped) + "." if ranking.dropped else ""),
            [fig] if fig else [],
        )
    add(
        "scores",
        "Scores",
        [
            table(
                "Final score per configuration",
                scores,
                "n: player-games. 95% CI of the mean, clustered by game (the seats of a game share its deal): "
                "mean ± 1.96·sd(game means)/√games.",
            )
        ],
    )
    add(
        "components",
        "Score components",
        [table("Mean score components (penalties as positive numbers)", tables["components"])],
    )
    add(
        "plans",
        "Plans",
        [
            table(
                "Plan difficulty per card",
                tables["plan_difficulty"],
                "Over player-games with the plan in play. First rate: share of those games in which the plan "
                "scored its first value; first share: share of validations that did. 95% CI clustered by game "
                "(every seat of a game plays the same plans).",
            )
        ],
    )
    combos, rare = _combos_table(tables["plan_combinations"])
    pairs, rare_pairs = _combos_table(tables["plan_pairs"])
    add(
        "combinations",
        "Plan combinations",
        [
            table(
                f"Plan combinations: the {COMBOS_SHOWN} hardest and {COMBOS_SHOWN} easiest per configuration",
                combos,
                f"Ranked by the share of players validating all three plans (95% CI clustered by game), among "
                f"combinations played in {MIN_COMBO_GAMES} games or more ({rare:,} rarer combination-configuration "
                "pairs left out: too few games to rank); --plans all deals every combination equally.",
            ),
            table(
                f"Plan A and B pairs (any Plan C): the {COMBOS_SHOWN} hardest and {COMBOS_SHOWN} easiest "
                "per configuration",
                pairs,
                f"The same ranking over A x B pairs, pooling the C cards: pairs are dealt about seven "
                f"times as often as triples ({rare_pairs:,} pair-configurations with fewer than "
                f"{MIN_COMBO_GAMES} games left out).",
            ),
        ],
    )
    if "aaa" in tables:
        add(
            "aaa",
            "Against the AAA",
            [
                table(
                    "The player's win rate per Opponent card",
                    tables["aaa"],
                    "AAA solo mode. Win: a higher score, or an equal score with more complete estates than the "
                    "AAA (all of the AAA's estates count as complete). Level 0 does not score: no win rate.",
                )
            ],
        )
    if "players" in by and scores["players"].n_unique() > 1:
        add(
            "players",
            "Player count and the plan race",
            [table("Effect of the player count", tables["effect_players"])]
            if "effect_players" in tables
            else [],
            "More players means more rivals for each plan's first score.",
        )
    played = [name for name in T.EXPANSION_COUNTERS if name in tables]
    if "expansions" in tables or played:
        ts = []
        if "expansions" in tables:
            ts.append(
                table(
                    "Expansions and the 9¾ cards against the base game",
                    tables["expansions"].drop("changes_with"),
                    "Within each configuration that has both sides: a = the base game, b = with it. Metrics: final "
                    "score (total), the expansion's own points, permit refusals per player, game length in rounds. "
                    "diff = b − a with its 95% CI (independent samples) and its paired 95% CI (games dealt the same "
                    "seed), both clustered by game; pairing r is the correlation of the pairs' sides. Zombie Outbreak "
                    "deals the base game's cards on the same seed, but plays them another way (two stacks, its Zombie "
                    "cards): r stays low (about +0.05), the paired interval hardly narrower, and the findings use the "
                    "independent one.",
                )
            )
        for name in played:
            title, note, _, _ = T.EXPANSION_COUNTERS[name]
            ts.append(table(title, tables[name], note))
        if "roswell_objectives" in tables:
            ts.append(
                table(
                    "Roswell: the infiltration objective boxes chosen",
                    tables["roswell_objectives"],
                    "Per configuration and objective box chosen at set-up (1: 3-4 estates ... 4: 9 or more): the "
                    "share of players who chose it, Zoorgs infiltrated, infiltrated estates and the objective's "
                    "points per player (means).",
                )
            )
        add("expansions", "Expansions and the 9¾ cards", ts)
    add(
        "length",
        "Game length and endings",
        [table("Game length (rounds)", tables["game_length"]), table("How games end", tables["end_reasons"])],
    )
    add("refusals", "Permit refusals", [table("Permit refusals", tables["refusals"])])
    effects = [
        table(
            f"Effect of {name.removeprefix('effect_').replace('_', ' ')}: {value_words(e['toggle'][0], e['a'][0])} → other values"
            + (f" (changes with {e['changes_with'][0]})" if e["changes_with"][0] else ""),
            e.drop("toggle", "metric", "changes_with"),
            "Difference of mean final score (b − a) with its 95% CI treating the sides as independent samples, "
            "and its paired 95% CI from games dealt the same seed (cells of one sweep share seeds), with the "
            "pairs' correlation (pairing r): the paired interval is tighter where r is high; the findings use it "
            f"only where it is at least {100 * (1 - T.PAIRING_GAIN):.0f}% narrower. Both clustered by game.",
        )
        for name, e in tables.items()
        if name.startswith("effect_") and e.height
    ]
    add(
        "effects",
        "Effects of each setting",
        effects,
        ""
        if effects
        else "Every setting has a single value in these runs: nothing to compare. Sweep two values "
        "of a setting (or give two runs) to see its effect.",
    )
    own = [(r.name, e) for r in runs for e in custom_differences(r.manifest)]
    if own:
        add(
            "custom",
            "Your own data files",
            [
                Table(
                    f"{run}: {e['message']}",
                    ["setting", e["based_on"] or "built-in", e["label"]],
                    [[d["key"], d["built_in"], d["custom"]] for d in e["differences"]],
                    left=[True, False, False],
                )
                for run, e in own
            ],
            "Sheets, decks, plan sets and expansions of one's own that these runs played, against the built-in "
            "file each was copied from (its based_on key, an expansion's name key, else the nearest built-in). A file changed or gone since "
            "the sweep is not compared.",
        )
    if figs.get("more"):
        add("more", "More charts", [])

    sentences = findings(tables, by, ranking.sentences if ranking else [], chosen, [e for _, e in own])
    games = int(lf.filter(pl.col("seat") == 0).select(pl.len()).collect().item())
    rows = int(lf.select(pl.len()).collect().item())
    # The header names the value each compared setting is measured from, as the effects use it:
    # the base game's where the runs hold it, else the first value (a setting with one value, or a
    # baseline value the runs lack, would name a game the report does not show).
    used = [T.reference(lf, c, by, chosen) for c in T.toggles(lf, by)]
    context = {
        "title": "welcome-sim balance report: " + ", ".join(r.name for r in runs),
        "generated": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "version": __version__,
        "games": f"{games:,}",
        "rows": f"{rows:,}",
        "configs": scores.height,
        "baseline": ", ".join(_reference_words(ref) for ref in used)
        or "none (one configuration: nothing is compared)",
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
                "chunks_done": sum(v["status"] == "done" for v in r.manifest["chunks"].values()),
                "chunks": len(r.manifest.get("chunks", {})),
            }
            for r in runs
        ],
    }
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
