"""The report's sections, one question each, in the order the page shows them: the difficulty
ranking, then scores, score components, plans, plan combinations, the AAA, the player count, the
expansions, game length, permit refusals, each setting's effect, one's own data files and more
charts. Each takes the analysis tables and adds its section (charts and formatted tables)."""

from __future__ import annotations

from typing import Any

import polars as pl

from welcome_sim.analysis import difficulty as D
from welcome_sim.analysis import tables as T
from welcome_sim.analysis.custom import custom_differences
from welcome_sim.analysis.difficulty_text import rho_text
from welcome_sim.analysis.findings import value_words
from welcome_sim.analysis.labels import value_words as label_words
from welcome_sim.analysis.robustness import load_measured, measured_note
from welcome_sim.reports.formatting import (
    COMBOS_SHOWN,
    MEASURED_COLUMN,
    MIN_COMBO_GAMES,
    Section,
    Table,
    _combos_table,
    _difficulty_figure,
    _difficulty_rows,
    _reconstructed_for,
    _with_measured,
    to_table,
)
from welcome_sim.reports.shaping import SETTING_NAMES, csv_text, rows_csv, setting_words

# The settings that decide which data files a row rests on (formatting._reconstructed_for).
MARKED_BY = ("sheet", "expansion", "nine_three_quarters", "mode", "opponent", "plan_set", "deck", "edition")


def everywhere(scores: pl.DataFrame, files: list[dict[str, Any]]) -> list[str]:
    """The reconstructed files every configuration of the report rests on (its scores' rows)."""
    sets = [set(_reconstructed_for(scores.slice(i, 1), files)) for i in range(scores.height)] or [
        set(_reconstructed_for(scores, files))
    ]
    return [f for f in _reconstructed_for(scores, files) if all(f in s for s in sets)]


class Sections:
    """The sections added so far; each table formatted against the runs' configuration columns (by)
    and data files, each section with the charts drawn for its id (figs) unless given its own."""

    def __init__(
        self,
        by: list[str],
        files: list[dict[str, Any]],
        figs: dict[str, list[dict[str, Any]]],
        everywhere: list[str] | None = None,
    ) -> None:
        self.by, self.files, self.figs = by, files, figs
        self.everywhere = everywhere or []  # reconstructed data every row rests on: the notice says it
        self.sections: list[Section] = []
        self.marked: list[str] = []  # reconstructed data some rows rest on beyond it: their mark says it

    def table(self, title: str, df: pl.DataFrame, note: str = "") -> Table:
        """A frame formatted for the page, each row marked with the reconstructed data it rests on
        beyond what every row of the report rests on."""
        t = to_table(title, df, self.by, note, _reconstructed_for(df, self.files))
        t.marks = self.marks(df)
        return t

    def marks(self, df: pl.DataFrame) -> list[str]:
        """Per row: the reconstructed files it rests on that not every row does ('' for none)."""
        keys = [c for c in MARKED_BY if c in df.columns]
        if not keys or not df.height:
            return []
        seen: dict[tuple, str] = {}
        out = []
        for row in df.select(keys).iter_rows():
            if row not in seen:
                one = pl.DataFrame([row], schema=df.select(keys).schema, orient="row")
                extra = [f for f in _reconstructed_for(one, self.files) if f not in self.everywhere]
                seen[row] = ", ".join(extra)
                self.marked += [f for f in extra if f not in self.marked]
            out.append(seen[row])
        return out if any(out) else []

    def add(
        self, sid: str, title: str, parts: list[Table], intro: str = "", figures: list | None = None
    ) -> None:
        """Add a section (its charts: the ones drawn for sid, CHART_SECTIONS, unless given)."""
        self.sections.append(
            Section(sid, title, intro, self.figs.get(sid, []) if figures is None else figures, parts)
        )


def add_difficulty(
    s: Sections, ranking: D.Ranking, diff_frame: pl.DataFrame, chosen: dict[str, object]
) -> None:
    """The difficulty ranking against the base game, and the items compared apart."""
    table = s.table
    fig = _difficulty_figure(diff_frame)
    measured = load_measured()
    shown = _with_measured(_difficulty_rows(diff_frame), measured) if ranking.rows else None
    said = shown is not None and MEASURED_COLUMN in shown.columns and measured is not None
    s.add(
        "difficulty",
        f"Difficulty against the base game (player: {ranking.reference})",
        (_ranking_tables(table, shown, measured_note(measured) if said else "") if shown is not None else [])
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
        _difficulty_intro(ranking, diff_frame, chosen, s.by),
        [fig] if fig else [],
    )
    # The downloads hold the numbers, not the page's formatted cells.
    made = s.sections[-1].tables
    if ranking.apart and made:
        made[-1].csv = csv_text(D.apart_table(ranking))
        made = made[:-1]
    for t in made:
        t.csv = csv_text(diff_frame)


# The ranking's own columns; the others (its reasons) go to a second table, so that each fits the page.
RANKING_COLUMNS = ("rank", "item", "stars", "net points", "index (SDs)", "skill gap", "blind cost", "deals")


def _ranking_tables(table, shown: pl.DataFrame, note: str) -> list[Table]:
    """The ranking, and beside it (same rows, same order) the reasons: refusals, plans, rounds."""
    main = [c for c in shown.columns if c in RANKING_COLUMNS or c == MEASURED_COLUMN]
    reasons = ["rank", "item", *[c for c in shown.columns if c not in main]]
    out = [table("Difficulty ranking (1 = hardest)", shown.select(main), note)]
    if len(reasons) > 2:
        out.append(
            table(
                "The ranking's reasons: each measure against the base game (item − base)",
                shown.select([c for c in reasons if c in shown.columns]),
            )
        )
    return out


def _difficulty_intro(
    ranking: D.Ranking, diff_frame: pl.DataFrame, chosen: dict[str, object], by: list[str]
) -> str:
    """What the difficulty section measures, against what, and with which players."""
    return (
        "Each configuration against its base game (the same settings with "
        + ", ".join(
            value_words(k, v) for k, v in {**T.BASELINE, **chosen}.items() if k in by and k in D.ITEM_SETTINGS
        )
        + ", no AAA) on the same deals. Net points: what the player scores more (+) or fewer (−) than in the "
        "base game, not counting the expansion's own points. The difficulty index puts that (and the skill gap "
        "and blind cost where the runs measure them) in standard deviations of the base game's score: positive "
        "is harder; see the glossary. Stars: the publisher's rating. "
        + (
            "How well the order matches the stars (Spearman's rho, +1 the same order): "
            + rho_text(ranking.rho, ranking.rho_ci)
            + "."
            if ranking.rho is not None
            else (
                "Too few items with the publisher's stars to compare the order with them (3 or more needed)."
                if ranking.rated
                else ""
            )
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
        + (
            f" {D.NO_BLIND_LEGEND}."
            if ranking.blind and diff_frame.height and diff_frame["no_blind_cost"].any()
            else ""
        )
        + (" Left out: " + "; ".join(ranking.dropped) + "." if ranking.dropped else "")
    )


def tie_note(combos: pl.DataFrame) -> str:
    """A sentence where the hardest (or easiest) combinations share one rate: a tie, not a ranking."""
    games = "games" if "games" in combos.columns else "n"
    ranked = combos.filter(pl.col(games) >= MIN_COMBO_GAMES)
    if not ranked.height:
        return ""
    by = [c for c in T.CONFIG if c in ranked.columns]
    said = []
    for end, word in (
        (pl.col("all_three_rate").min(), "hardest"),
        (pl.col("all_three_rate").max(), "easiest"),
    ):
        edge = ranked.with_columns(edge=end.over(by) if by else end)
        tied = edge.filter(pl.col("all_three_rate") == pl.col("edge"))
        most = int(tied.group_by(by).len()["len"].max()) if by else tied.height  # type: ignore[arg-type]
        if most > 1:
            rate = 100 * float(tied["all_three_rate"][0])
            said.append(
                f" The {word} are a tie: {most} combinations share {rate:.1f}%"
                + (" (no player validated all three)" if rate == 0 else "")
                + f", so their order means nothing; the table lists {min(most, COMBOS_SHOWN)} of them by name."
            )
    return "".join(said)


def add_games(s: Sections, tables: dict[str, pl.DataFrame]) -> None:
    """Scores, score components, plans, plan combinations, the AAA and the player count."""
    table, add, by = s.table, s.add, s.by
    scores = tables["scores"]
    # The score and where it comes from side by side: two small charts share one row of the page.
    s.figs["scores"] = s.figs.get("scores", []) + s.figs.pop("components", [])
    add(
        "scores",
        "Scores and where they come from",
        [
            table(
                "Final score per configuration",
                scores,
                "The mean's 95% interval counts each game once (the seats of a game share its deal).",
            ),
            table("Mean score components (penalties as positive numbers)", tables["components"]),
        ],
    )
    add(
        "plans",
        "Plans",
        [
            table(
                "Plan difficulty per card",
                tables["plan_difficulty"],
                "Among the players dealt the plan: the share who validated it (its 95% interval under it, "
                "counting each game once: every seat of a game plays the same plans), the share who scored "
                "its first (higher) value, and that share among those who validated it.",
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
                f"By the share of players who validated all three plans, among combinations played in "
                f"{MIN_COMBO_GAMES} games or more ({rare:,} rarer ones left out: too few games to rank); "
                "sweep --plans all deals every combination equally." + tie_note(tables["plan_combinations"]),
            ),
            table(
                f"Plan A and B pairs (any Plan C): the {COMBOS_SHOWN} hardest and {COMBOS_SHOWN} easiest "
                "per configuration",
                pairs,
                f"The same over A and B pairs, whatever the C card: pairs are dealt about seven "
                f"times as often as triples ({rare_pairs:,} pairs with fewer than "
                f"{MIN_COMBO_GAMES} games left out)." + tie_note(tables["plan_pairs"]),
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


def add_sensitivity(s: Sections, tables: dict[str, pl.DataFrame]) -> None:
    """A sweep with --vary: each varied path's effect curve, a chart and a table."""
    from welcome_sim.analysis.sensitivity import shown

    curves = tables.get("sensitivity")
    if curves is None or not curves.height:
        return
    parts = [
        s.table(
            f"Sensitivity to {path}",
            shown(curves, path, s.by, "\n", None),
            "Per value (the reference: the file's own value where the sweep played it, else the first): games, "
            "mean final score and the spread (SD) of scores, the difference of mean score from the reference "
            "(marked paired where games dealt the same seeds narrow its interval, else independent), refusals "
            "per player, rounds per game and, for a plan card, how often it was validated and its points in the "
            "games it was in play; 95% intervals clustered by game. The CSV holds every bound.",
        )
        for path in curves["path"].unique(maintain_order=True).to_list()
    ]
    s.add(
        "sensitivity",
        "Varied values: effect curves",
        parts,
        "Each value of a --vary path is a cell of the sweep, played on the same seeds as the others.",
    )


def add_expansions(s: Sections, tables: dict[str, pl.DataFrame]) -> None:
    """Each expansion and the 9¾ cards against the base game, and each expansion's own counters."""
    table, add = s.table, s.add
    played = [name for name in T.EXPANSION_COUNTERS if name in tables]
    if "expansions" in tables or played:
        ts = []
        if "expansions" in tables:
            ts.append(
                table(
                    "Expansions and the 9¾ cards against the base game",
                    tables["expansions"].drop("changes_with"),
                    "Within each configuration that has both sides: a = the base game, b = with the expansion or the "
                    "9¾ cards; for the final score, the expansion's own points, permit refusals per player and "
                    "rounds per game. The difference b − a has its 95% interval under it, marked paired where it "
                    "compares games dealt the same cards (Zombie Outbreak plays the same cards another way, so its "
                    "pairs hardly help). The CSV holds both intervals.",
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


def effect_title(setting: str, e: pl.DataFrame) -> str:
    """'Effect of the 9¾ cards: with them against without them', in words."""
    a = setting_words(setting, e["a"][0]) or str(e["a"][0])
    others = [
        str(setting_words(setting, b) or b)
        for b in e["b"].unique(maintain_order=True).to_list()
        if b is not None and str(b) != "None"  # no AAA: the rows of the other modes
    ]
    title = (
        f"Effect of {SETTING_NAMES.get(setting, setting.replace('_', ' '))}: {', '.join(others)} against {a}"
    )
    if e["changes_with"][0]:
        changed = ", ".join(
            SETTING_NAMES.get(c.strip(), c.strip()) for c in str(e["changes_with"][0]).split(",")
        )
        title += f" ({changed} change with it)"
    return title


def add_rest(s: Sections, tables: dict[str, pl.DataFrame], runs: list) -> list[dict[str, Any]]:
    """Game length, permit refusals, each setting's effect, one's own data files and the charts no
    section shows; returns the differences of one's own files from the built-ins (for the findings)."""
    table, add, figs = s.table, s.add, s.figs
    s.figs["length"] = s.figs.get("length", []) + s.figs.pop("refusals", [])
    add(
        "length",
        "Game length, endings and permit refusals",
        [
            table("Game length (rounds)", tables["game_length"]),
            table("How games end", tables["end_reasons"]),
            table("Permit refusals", tables["refusals"]),
        ],
    )
    effects = [
        table(
            effect_title(name.removeprefix("effect_"), e),
            e,
            "Mean final score with a (the reference) and with b, and the difference b − a with its 95% interval "
            "under it: marked paired where it compares games dealt the same cards (much narrower then), else "
            "the two sides as independent samples. The CSV download holds both intervals and the pairing.",
        )
        # The run last: two runs side by side are the least of what the settings say.
        for name, e in sorted(tables.items(), key=lambda kv: kv[0] == "effect_run")
        if name.startswith("effect_") and e.height
    ]
    if effects:  # one configuration compares nothing: the header says so
        add("effects", "Effects of each setting", effects)
    own = [(r.name, e) for r in runs for e in custom_differences(r.manifest)]
    if own:
        add(
            "custom",
            "Your own data files",
            [
                Table(
                    f"{run}: {e['message']}",
                    ["setting", *_own_file_heads(e)],
                    [[d["key"], d["built_in"], d["custom"]] for d in e["differences"]],
                    left=[True, False, False],
                    csv=rows_csv(
                        ["setting", "built_in", "custom"],
                        [[d["key"], d["built_in"], d["custom"]] for d in e["differences"]],
                    ),
                )
                for run, e in own
            ],
            "Sheets, decks, plan sets and expansions of one's own that these runs played, against the built-in "
            "file each was copied from (its based_on key, an expansion's name key, else the nearest built-in). A file changed or gone since "
            "the sweep is not compared.",
        )
    if figs.get("more"):
        add("more", "More charts", [])
    return [e for _, e in own]


def _own_file_heads(e: dict) -> list[str]:
    """The built-in's and the file of one's own's column heads as every other label names them
    ('Classic sheet', '“Classic (my copy)”'), not by the rows' label of name and hash."""
    column = {"plans": "plan_set"}.get(str(e["kind"]), str(e["kind"]))
    base = label_words(column, e["based_on"]) if e["based_on"] else "built-in"
    return [base or "built-in", label_words(column, e["label"]) or e["label"]]
