"""What an expansion's own rules ask of a player: two measures `welcome-sim difficulty --measures
blind,race` shows beside the difficulty index, never in it (issue 38's candidates for a measure
checked against the publisher; which of them enter an index is decided elsewhere).

- **blind cost** (`blind`): the points a player loses when it plays blind to the expansion's own
  rules. Seat 1 is played by the level with `blind=1` (strategies/greedy.py, "Blind to the
  expansion": none of the expansion's points, goals, plan features or AAA prices valued; its own
  decisions by a fixed rule; the kernel still plays its rules), the other seats by the level
  itself; per deal, the mean final score of the seats of the table where every seat sees (the
  difficulty games) minus the blind seat's final score. Alone, the blind player is the table.
  Scores with the expansion's own points: those are most of what is lost. An expansion whose
  points replace the scoring (the American Dream) loses nearly all of them.
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
from welcome_sim.errors import WelcomeSimError

KINDS = ("blind", "race")
# Columns per level (with _low and _high), in the order shown.
COLUMNS = ("blind_cost", "race_loss", "own_points_drop")
WORDS = {
    "blind_cost": "blind cost",
    "race_loss": "race loss",
    "own_points_drop": "own points, alone − at the table",
}


def parse_measures(text: str | None) -> set[str]:
    """`--measures blind,race` as a set; '' or None: none."""
    got = {x.strip() for x in (text or "").split(",") if x.strip()}
    bad = sorted(got - set(KINDS))
    if bad:
        raise WelcomeSimError(
            f"--measures: {', '.join(repr(b) for b in bad)} is not a measure; valid: {', '.join(KINDS)} "
            "(a comma-separated list)"
        )
    return got


def blind_of(level: str) -> str:
    """The level played blind to the expansion's own rules (`blind=1` added to its parameters)."""
    return f"{level}{',' if ':' in level else ':'}blind=1"


def _counted(spec: Spec) -> bool:
    """The measures' items: an expansion in standard mode, nothing else changed."""
    return spec.expansion is not None and spec.mode == "standard" and spec.sheet is None and not spec.nine


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


def blind_games(specs: list[Spec], kinds: set[str]) -> int:
    """How many batches play_blind plays per level (for the progress bar)."""
    return sum(1 for s in specs if _counted(s)) if "blind" in kinds else 0


def play_blind(
    specs: list[Spec],
    levels: list[str],
    edition: str,
    games: int,
    seed: int,
    jobs: int = 1,
    advance: Callable[[int], None] | None = None,
) -> pl.DataFrame:
    """Each counted spec at each level with seat 1 blind (blind_of) and the others seeing, on the
    ranking's deals: per (item, level, deal) the blind seat's final score (`level` names the
    seeing level it is compared with)."""
    from welcome_sim.parallel import simulate_parallel
    from welcome_sim.simcore.game import game_seeds, simulate

    seeds = game_seeds(seed, games)
    parts = []
    for spec in specs:
        if not _counted(spec):
            continue
        rs = spec.ruleset(edition)
        for level in levels:
            seats = [blind_of(level)] + [level] * (spec.players - 1)
            simulate(rs, seeds[:1], spec.players, seats)  # compile or load the cache first
            res = simulate_parallel(rs, seeds, spec.players, seats, jobs, 250, advance)
            parts.append(
                pl.DataFrame(
                    {
                        "item": [spec.label] * len(seeds),
                        "level": [level] * len(seeds),
                        "deal": np.asarray(res.seeds),  # uint64, as difficulty.per_deal has them
                        "blind_score": res.column("total")[:, 0].astype(np.float64),
                    }
                )
            )
    if not parts:
        return pl.DataFrame(
            schema={"item": pl.String, "level": pl.String, "deal": pl.UInt64, "blind_score": pl.Float64}
        )
    return pl.concat(parts)


def play_all(
    specs: list[Spec],
    levels: list[str],
    edition: str,
    games: int,
    seed: int,
    kinds: set[str],
    jobs: int = 1,
    advance: Callable[[int], None] | None = None,
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The extra games of the measures: (per_deal frame of the specs alone, blind seats' frame)."""
    extra = extra_specs(specs, kinds)
    seeing = play(extra, levels, edition, games, seed, jobs, advance) if extra else None
    blind = play_blind(specs, levels, edition, games, seed, jobs, advance) if "blind" in kinds else None
    return seeing, blind


def games_needed(specs: list[Spec], levels: list[str], games: int, kinds: set[str]) -> int:
    """Games the measures add to the ranking's (the progress bar's total)."""
    return games * len(levels) * (len(extra_specs(specs, kinds)) + blind_games(specs, kinds))


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
    blind: pl.DataFrame | None,
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
            if "blind" in kinds and blind is not None:
                seen = _array(deals, label, level, "score", pos, n)
                series[(label, "blind_cost" + tag)] = seen - _array(
                    blind, label, level, "blind_score", pos, n
                )
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
        return "–" if v is None else f"{v[0]:+.1f} [{v[1]:+.1f}, {v[2]:+.1f}]"

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
        "blind cost: the seeing table's mean score − the score of a seat played blind to the expansion's own "
        "rules (the same level with blind=1) among seeing rivals, in points. race loss: the expansion's own "
        "points alone (1 player) − per player at this count, for a race expansion (its race_rule); 0 by "
        "definition without a race. own points, alone − at the table: the same difference for every expansion "
        "(the ones without a race show what a larger table changes besides the races). Method: "
        "welcome_sim/analysis/difficulty_own.py.",
        highlight=False,
    )
