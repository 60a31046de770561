"""Robust to reconstruction (issue 38): does an expansion's difficulty rank hold when the values of
its data file that are `reconstructed` (its Plan C cards' scores, its layout) are varied over a
stated plausible range?

Each expansion's variant files (analysis/variants.py: Plan C scores x0.7 and x1.3; each street's
marks mirrored and re-drawn at random, where its layout is reconstructed) are played through the
same function as `welcome-sim difficulty` (difficulty_games.play) on the same deals, and ranked by
difficulty.rank() with that expansion's item replaced by the variant (every other item as it is).
The verdict: "robust" when the variant's rank stays within the default rank's 95% bootstrap
interval under every variant, else "depends on reconstructed X" naming what moves it, with the
rank range seen. An expansion whose points replace the scoring (the American Dream) is compared
apart, unranked: it gets no verdict.

The shipped measurement (reports/measured/robustness.json, written by scripts/measure_robustness.py)
records the command, date, games and players it was measured at; the report shows it as that.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import polars as pl

from welcome_sim.analysis import difficulty as D
from welcome_sim.analysis.variants import LAYOUT_KEYS, LAYOUT_WORDS, PLAN_FACTORS, Variant, write_variants

MEASURED = Path(__file__).resolve().parent.parent / "reports" / "measured" / "robustness.json"
KIND_WORDS = {"plan_scores": "Plan C scores"}


@dataclass(frozen=True)
class Planned:
    """A variant to play at one player count, and the label of the item it stands in for."""

    players: int
    item: str  # the default item's label
    variant: Variant
    spec: object  # difficulty_games.Spec


@dataclass(frozen=True)
class Verdict:
    """An expansion's rank at one player count under its default data and every variant."""

    expansion: str
    players: int
    item: str
    rank: int
    rank_ci: tuple[int, int]
    ranks: dict[str, int]  # variant name -> its rank
    kinds: dict[str, str]  # variant name -> "plan_scores" or "layout"
    text: str


def varied_words(name: str) -> str:
    """What the check varies for an expansion, in words (and what it leaves)."""
    plans = "Plan C scores x" + " and x".join(str(f) for f in PLAN_FACTORS)
    if LAYOUT_KEYS.get(name):
        return f"{plans}; {LAYOUT_WORDS[name]} mirrored and random"
    why = "first-edition sheet, published" if name == "icecream" else "none on the sheet"
    return f"{plans}; layout not varied ({why})"


def plan_variants(specs: list, counts: list[int], folder: str | Path) -> list[Planned]:
    """Every built-in expansion's variants, written into folder, as specs at each player count
    (those whose points replace the scoring are left out: they are not ranked)."""
    from welcome_sim.simcore.rules.expansions.codes import EXPANSION_NAMES

    written: dict[str, list[Variant]] = {}
    out = []
    for spec in specs:
        name = spec.expansion
        if name not in EXPANSION_NAMES or spec.players not in counts or D.replaces_scoring(name):
            continue
        if spec.nine or spec.sheet or spec.mode != "standard" or spec.overrides:
            continue
        if name not in written:
            written[name] = write_variants(name, folder)
        for v in written[name]:
            vspec = dataclasses.replace(spec, label=f"{spec.label} [{v.name}]", expansion=v.path)
            out.append(Planned(spec.players, spec.label, v, vspec))
    return out


def verdict(
    rank: int, rank_ci: tuple[int, int], ranks: dict[str, int], kinds: dict[str, str], name: str
) -> str:
    """'robust' when every variant's rank is within the default rank interval, else 'depends on
    reconstructed X' naming the values that move it, with the rank range seen."""
    lo, hi = rank_ci
    moved = [v for v, r in ranks.items() if not lo <= r <= hi]
    if not moved:
        return "robust"
    what = []
    for kind in ("plan_scores", "layout"):
        if any(kinds[v] == kind for v in moved):
            what.append(KIND_WORDS.get(kind) or f"layout ({LAYOUT_WORDS.get(name, 'layout')})")
    seen = [rank, *ranks.values()]
    return (
        f"depends on reconstructed {' and '.join(what)}: ranks {min(seen)}-{max(seen)} seen "
        f"(default {rank}, interval {lo}-{hi})"
    )


def games_needed(planned: list[Planned], levels: list[str], games: int) -> int:
    """The games the check plays (a progress bar's total)."""
    return games * len(levels) * len(planned)


class Plays(NamedTuple):
    """How the variants are played: the edition, games per item and level, the seed, processes."""

    edition: str
    games: int
    seed: int
    jobs: int = 1


def measure(
    planned: list[Planned],
    deals: pl.DataFrame,
    items_of: dict[int, list],
    rankings: dict[int, D.Ranking],
    levels: tuple[str, ...],
    plays: Plays,
    advance: Callable[[int], None] | None = None,
) -> dict[tuple[int, str], Verdict]:
    """Play the variants on the default run's deals and rank each in place of its item: a verdict
    per (players, default item label)."""
    from welcome_sim.analysis.difficulty_games import play

    played = [lv for lv in levels if lv]
    if not planned:
        return {}
    extra = play(
        [p.spec for p in planned], played, plays.edition, plays.games, plays.seed, plays.jobs, advance
    )
    return verdicts_from(
        planned, pl.concat([deals, extra], how="diagonal_relaxed"), items_of, rankings, levels, plays.seed
    )


def verdicts_from(
    planned: list[Planned],
    every: pl.DataFrame,
    items_of: dict[int, list],
    rankings: dict[int, D.Ranking],
    levels: tuple[str, ...],
    seed: int,
) -> dict[tuple[int, str], Verdict]:
    """The verdicts from per-deal rows holding the default items' and the variants' games; levels:
    (reference, expert or None[, the blind level or None]), as the default ranking was made."""
    reference, expert, blind = (*levels, None)[:3]
    out: dict[tuple[int, str], Verdict] = {}
    for n, ranking in rankings.items():
        rows = {r.item.label: r for r in ranking.rows}
        for item in dict.fromkeys(p.item for p in planned if p.players == n):
            if item not in rows:
                continue  # dropped (too few deals) or compared apart
            ranks, kinds = {}, {}
            for p in (p for p in planned if p.players == n and p.item == item):
                swapped = [
                    dataclasses.replace(it, label=p.spec.label) if it.label == item else it
                    for it in items_of[n]
                ]
                # Only the point ranks are read: one resample is enough for rank()'s intervals.
                alt = D.rank(every, swapped, reference, expert, rounds=1, seed=seed, blind=blind)
                ranks[p.variant.name] = next(r.rank for r in alt.rows if r.item.label == p.spec.label)
                kinds[p.variant.name] = p.variant.kind
            row = rows[item]
            name = next(p.variant.expansion for p in planned if p.item == item)
            text = verdict(row.rank, row.rank_ci, ranks, kinds, name)
            out[(n, item)] = Verdict(name, n, item, row.rank, row.rank_ci, ranks, kinds, text)
    return out


def ranks_text(v: Verdict) -> str:
    """Each variant's rank in words: 'Plan C x0.7: 5, Plan C x1.3: 6, ...'."""
    return ", ".join(f"{name}: {r}" for name, r in v.ranks.items())


def columns(verdicts: dict[tuple[int, str], Verdict], n: int) -> dict[str, dict[str, str]]:
    """For one player count: item label -> {robustness, robustness_ranks, robustness_varied}."""
    return {
        item: {
            "robustness": v.text,
            "robustness_ranks": ranks_text(v),
            "robustness_varied": varied_words(v.expansion),
        }
        for (k, item), v in verdicts.items()
        if k == n
    }


def with_columns(frame: pl.DataFrame, verdicts: dict[tuple[int, str], Verdict], n: int) -> pl.DataFrame:
    """A difficulty.table() frame with the robustness columns (null for items not checked)."""
    cols = columns(verdicts, n)
    return frame.with_columns(
        pl.col("item")
        .replace_strict({k: v[c] for k, v in cols.items()}, default=None, return_dtype=pl.String)
        .alias(c)
        for c in ("robustness", "robustness_ranks", "robustness_varied")
    )


def load_measured(path: str | Path = MEASURED) -> dict | None:
    """The shipped measurement (None when there is none, it cannot be read, or it ranked by another
    index than today's: its verdicts are about that index's ranks)."""
    try:
        measured = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return measured if measured.get("index") == list(D.COMPONENTS) else None


def measured_cells(measured: dict) -> dict[str, str]:
    """Expansion title -> its measured verdicts in one cell ('2 players: robust; 4 players: ...')."""
    out: dict[str, list[str]] = {}
    for v in measured.get("verdicts", []):
        out.setdefault(v["title"], []).append(f"{v['players']} players: {v['verdict']}")
    return {t: "; ".join(cells) for t, cells in out.items()}


def measured_note(measured: dict) -> str:
    """Where and how the shipped measurement was taken, in one sentence for the report."""
    return (
        f"Reconstruction (measured): measured on {measured['date']} with `{measured['command']}` "
        f"({measured['games']} games per item and level, {' and '.join(str(p) for p in measured['players'])} "
        f"players, reference {measured['reference']}, skill gap to {measured['expert']}, the index of "
        f"{', '.join(D.WORDS[c] for c in measured['index'])}, edition "
        f"{measured['edition']}, seed {measured['seed']}): whether each expansion's rank in welcome-sim "
        "difficulty holds when its reconstructed values vary (" + measured["varied"] + "). It is that "
        "ranking's verdict, not a measurement on these runs; robust means within what its games can tell."
    )
