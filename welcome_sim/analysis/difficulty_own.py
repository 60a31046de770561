"""What an expansion's races take from a player: the measure `welcome-sim difficulty --measures
race` shows beside the difficulty index, never in it (a candidate of issue 38 that did not agree
with the publisher's stars: docs/findings/difficulty-vs-stars.md). The blind cost, the other
candidate, is in the index (difficulty.py).

- **race loss** (`race`): for a race expansion (its data file's `race_rule`: a bonus the first or
  best architect takes and the others cross out), the expansion's own points a player earns alone
  (1 player, no AAA) minus what it earns per player at the table's player count, the same level
  on the same deals: points lost to rivals in its races. 0 by definition for an expansion without
  a race, and at 1 player. The difference also holds what a larger table changes besides the
  races (a game ends at the first player to meet its end, so it is shorter with more players):
  `own_points_drop` gives the same difference for every expansion, the ones without a race as
  its control.

Intervals: 95%, the same bootstrap over deals as difficulty.rank (the same seed, the same deal
ids, so the same resamples). Only expansions played in standard mode get the measures; other
items are left blank.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable

import numpy as np
import polars as pl

from welcome_sim.analysis.difficulty import BOOTSTRAP, race_rule
from welcome_sim.analysis.difficulty_games import Spec, play
from welcome_sim.analysis.rounding import interval_text
from welcome_sim.errors import WelcomeSimError

KINDS = ("race",)
# Columns per level (with _low and _high), in the order shown.
COLUMNS = ("race_loss", "own_points_drop")
WORDS = {
    "race_loss": "race loss",
    "own_points_drop": "own points, alone − at the table",
}


def parse_measures(text: str | None) -> set[str]:
    """`--measures race` as a set; '' or None: none."""
    got = {x.strip() for x in (text or "").split(",") if x.strip()}
    bad = sorted(got - set(KINDS))
    if bad:
        raise WelcomeSimError(
            f"--measures: {', '.join(repr(b) for b in bad)} is not a measure; valid: {', '.join(KINDS)} "
            "(a comma-separated list)"
        )
    return got


def _counted(spec: Spec) -> bool:
    """The measures' items: an expansion in standard mode, nothing else changed (a --vary
    variant is not: its game alone would be played without its value)."""
    return (
        spec.expansion is not None
        and spec.mode == "standard"
        and spec.sheet is None
        and not spec.nine
        and not spec.overrides
    )


def alone(spec: Spec) -> Spec:
    """The expansion's 1-player game (the race loss's 'alone'), labelled like difficulty's items."""
    label = spec.label.rsplit(", ", 1)[0] + ", 1 player"
    return Spec(label, 1, expansion=spec.expansion)


def extra_specs(specs: list[Spec], kinds: set[str]) -> list[Spec]:
    """Specs the measures need that the ranking does not play: each expansion alone (race), with
    its base game at 1 player (so that the 1-player games share what the ranking's share)."""
    if "race" not in kinds:
        return []
    have = {s.label for s in specs}
    out: dict[str, Spec] = {}
    for s in specs:
        if _counted(s) and s.players > 1 and alone(s).label not in have:
            out[alone(s).label] = alone(s)
    return list(out.values())


def play_all(
    specs: list[Spec],
    levels: list[str],
    edition: str,
    games: int,
    seed: int,
    kinds: set[str],
    jobs: int = 1,
    advance: Callable[[int], None] | None = None,
) -> pl.DataFrame | None:
    """The extra games of the measures: the per_deal frame of the specs alone (None: none needed)."""
    extra = extra_specs(specs, kinds)
    return play(extra, levels, edition, games, seed, jobs, advance) if extra else None


def games_needed(specs: list[Spec], levels: list[str], games: int, kinds: set[str]) -> int:
    """Games the measures add to the ranking's (the progress bar's total)."""
    return games * len(levels) * len(extra_specs(specs, kinds))


def _array(frame: pl.DataFrame, item: str, level: str, col: str, pos: dict[int, int], n: int) -> np.ndarray:
    """A column over the deal ids (NaN where not played)."""
    sub = frame.filter((pl.col("item") == item) & (pl.col("level") == level))
    out = np.full(n, np.nan)
    if sub.height:
        at = np.array([pos[int(d)] for d in sub["deal"].to_list()], dtype=np.int64)
        out[at] = sub[col].to_numpy()
    return out


def measures(
    deals: pl.DataFrame,
    specs: dict[str, Spec],
    labels: list[str],
    levels: list[str],
    kinds: set[str],
    rounds: int = BOOTSTRAP,
    seed: int = 0,
) -> dict[str, dict[str, tuple[float, float, float]]]:
    """Per item label, per column (COLUMNS, '_expert' appended for the second level): value and
    95% bootstrap interval. `deals` is difficulty.per_deal's frame with the measures' extra specs
    (it carries own_points); the resamples are difficulty.rank's (same deal ids, same seed)."""
    ids = np.sort(deals["deal"].unique().to_numpy())
    pos = {int(d): k for k, d in enumerate(ids)}
    n = len(ids)
    series: dict[tuple[str, str], np.ndarray] = {}  # (label, column) -> per-deal differences
    zero: set[tuple[str, str]] = set()  # 0 by definition
    for label in labels:
        spec = specs.get(label)
        if spec is None or not _counted(spec):
            continue
        for j, level in enumerate(levels[:2]):
            tag = "" if j == 0 else "_expert"
            if "race" in kinds:
                one = alone(spec)
                drop = _array(deals, one.label, level, "own_points", pos, n) - _array(
                    deals, label, level, "own_points", pos, n
                )
                series[(label, "own_points_drop" + tag)] = drop
                if spec.players == 1 or not race_rule(str(spec.expansion)):
                    zero.add((label, "race_loss" + tag))
                else:
                    series[(label, "race_loss" + tag)] = drop
    keys = list(series)
    rng = np.random.default_rng(seed)
    boot = np.full((rounds, len(keys)), np.nan)
    for b in range(rounds):
        take = rng.integers(0, n, n)
        for k, key in enumerate(keys):
            boot[b, k] = _nanmean(series[key][take])
    out: dict[str, dict[str, tuple[float, float, float]]] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for k, (label, col) in enumerate(keys):
            value = _nanmean(series[(label, col)])
            if math.isnan(value):
                continue
            lo, hi = np.nanpercentile(boot[:, k], 2.5), np.nanpercentile(boot[:, k], 97.5)
            out.setdefault(label, {})[col] = (value, float(lo), float(hi))
    for label, col in zero:
        out.setdefault(label, {})[col] = (0.0, 0.0, 0.0)
    return out


def _nanmean(a: np.ndarray) -> float:
    v = a[~np.isnan(a)]
    return float(v.mean()) if v.size else math.nan


def frame(found: dict[str, dict[str, tuple[float, float, float]]]) -> pl.DataFrame:
    """The measures as columns (value, _low, _high) by item, to join onto difficulty.table."""
    cols = [c + tag for tag in ("", "_expert") for c in COLUMNS]
    recs = []
    for label, got in found.items():
        rec: dict[str, object] = {"item": label}
        for c in cols:
            v = got.get(c)
            rec[c], rec[f"{c}_low"], rec[f"{c}_high"] = v if v else (None, None, None)
        recs.append(rec)
    schema = {"item": pl.String, **{f"{c}{s}": pl.Float64 for c in cols for s in ("", "_low", "_high")}}
    return pl.DataFrame(recs, schema=schema)


def show(
    console: object,
    found: dict[str, dict[str, tuple[float, float, float]]],
    order: list[str],
    levels: list[str],
) -> None:
    """One player count's measures in the terminal, items in the ranking's order."""
    from welcome_sim.termtables import print_table

    def cell(v: tuple[float, float, float] | None) -> str:
        return "–" if v is None else interval_text(v[0], v[1], v[2], 1, sign=True)

    names = [lv for lv in levels[:2]]
    headers = ["item"]
    for c in COLUMNS:
        headers += [f"{WORDS[c]} ({lv})" for lv in names]
    rows = []
    for label in order:
        got = found.get(label)
        if not got:
            continue
        row = [label]
        for c in COLUMNS:
            row += [cell(got.get(c + tag)) for tag in ("", "_expert")[: len(names)]]
        rows.append(row)
    if not rows:
        return
    print_table(
        console,
        headers,
        rows,
        title="what the expansion's own rules ask (beside the index, not in it; 95% bootstrap intervals)",
        keys=("item",),
        words=("item",),
        left=("item",),
        drop_constant=False,
    )
    console.print(
        "race loss: the expansion's own "
        "points alone (1 player) − per player at this count, for a race expansion (its race_rule); 0 by "
        "definition without a race. own points, alone − at the table: the same difference for every expansion "
        "(the ones without a race show what a larger table changes besides the races). Method: "
        "welcome_sim/analysis/difficulty_own.py.",
        highlight=False,
    )
