"""The difficulty index's measures, items and rows, and the rank statistics it uses (see
difficulty.py for what the index is and why)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import polars as pl

COMPONENTS = ("net_score", "skill", "blind")  # in the index
REASONS = ("net_score", "skill", "blind", "refusals", "plans", "ended_by_refusals")  # what explains a gap
SHOWN = ("net_score", "refusals", "plans", "skill", "blind", "ended_by_refusals", "score", "rounds")
# The level blind to what an item adds (strategies/greedy.py's blind=1: none of an expansion's
# points, goals, plan features or AAA prices valued; its own decisions by a fixed rule).
BLIND_PARAM = "blind=1"
MEASURES = ("net_score", "refusals", "plans", "ended_by_refusals", "score", "rounds")  # read per deal
# Sign: +1 when a larger value of the measure on the item means harder.
SIGN = {
    "net_score": -1.0,
    "refusals": 1.0,
    "plans": -1.0,
    "ended_by_refusals": 1.0,
    "score": -1.0,
    "rounds": 1.0,
}
WORDS = {
    "net_score": "net score",
    "refusals": "refusals",
    "plans": "plans validated",
    "skill": "skill gap",
    "blind": "blind cost",
    "ended_by_refusals": "games ended by refusals",
    "score": "score with own points",
    "rounds": "rounds",
}
BOOTSTRAP = 400
Z = 1.96
MIN_DEALS = 30  # common deals an item needs with its base game to be ranked


@dataclass(frozen=True)
class Item:
    """One thing ranked: a label, the label of its base game, and the publisher's rating."""

    label: str
    base: str
    stars: int | None = None  # ★ count, or None when the publisher gives none
    note: str = ""  # a word on the rating (a source that disagrees with itself, a verbal rating)
    reconstructed: bool = False  # played with reconstructed data
    # A race expansion played by 1 player without an AAA: the rule of the race nobody runs (then the
    # item plays easier than with rivals: see race_rule).
    lone_race: str = ""
    # Its own points replace the base game's scoring (the American Dream): compared on what is
    # comparable (refusals, plans, rounds, skill gap), apart from the ranking, never on score.
    apart: bool = False
    # Neither it nor its base game has an expansion: the blind player (blind=1, blind to what an
    # expansion adds) plays both as the seeing one, so the blind cost is 0 by construction.
    no_blind_cost: bool = False


@dataclass(frozen=True)
class Row:
    """An item's measures against its base game, with 95% bootstrap intervals."""

    item: Item
    deals: int
    diffs: dict[str, tuple[float, float, float]]  # measure -> (value, low, high), harder positive
    raw: dict[str, tuple[float, float, float]]  # measure -> (item - base, low, high), natural sign
    parts: dict[str, float]  # component -> standardized value (harder positive)
    index: float
    index_ci: tuple[float, float]
    rank: int  # 1 = hardest
    rank_ci: tuple[int, int]


@dataclass
class Ranking:
    """Items ranked by the difficulty index, the rank agreement with the stars, and sentences."""

    rows: list[Row]
    reference: str
    expert: str | None
    rho: float | None
    rho_ci: tuple[float, float] | None
    rated: int
    sentences: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)  # items without a base game on common deals
    rated_base: str | None = None  # the base game of the rated items the stars are compared over
    apart: list[Row] = field(default_factory=list)  # items compared apart, unranked (Item.apart)
    measure_rho: dict[str, float] = field(default_factory=dict)  # each measure's own rho with the stars
    blind: str | None = None  # the level played blind for the blind cost, None: not in the index


def blind_of(level: str) -> str:
    """The level played blind to what an item adds (BLIND_PARAM added to its parameters)."""
    return f"{level}{',' if ':' in level else ':'}{BLIND_PARAM}"


def _arrays(deals: pl.DataFrame) -> tuple[np.ndarray, dict[tuple[str, str, str], np.ndarray]]:
    """Deal ids, and per (item, level, measure) an array over them (NaN where not played)."""
    ids = np.sort(deals["deal"].unique().to_numpy())
    pos = {int(d): k for k, d in enumerate(ids)}
    out: dict[tuple[str, str, str], np.ndarray] = {}
    for (it, lv), sub in deals.group_by(["item", "level"], maintain_order=True):
        at = np.array([pos[int(d)] for d in sub["deal"].to_list()], dtype=np.int64)
        for m in MEASURES:
            a = np.full(len(ids), np.nan)
            a[at] = sub[m].to_numpy()
            out[(str(it), str(lv), m)] = a
    return ids, out


def _mean(a: np.ndarray, take: np.ndarray | None) -> float:
    v = a if take is None else a[take]
    v = v[~np.isnan(v)]
    return float(v.mean()) if v.size else math.nan


def _sd(a: np.ndarray) -> float:
    v = a[~np.isnan(a)]
    return float(v.std(ddof=1)) if v.size > 1 else 0.0


def average_ranks(x: np.ndarray) -> np.ndarray:
    """Ranks 1..n of x (ascending), ties given their average rank."""
    order = np.argsort(x, kind="mergesort")
    ranks = np.empty(len(x))
    xs = x[order]
    i = 0
    while i < len(x):
        j = i
        while j + 1 < len(x) and xs[j + 1] == xs[i]:
            j += 1
        ranks[order[i : j + 1]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def _descending_ranks(x: np.ndarray) -> np.ndarray:
    """Ranks with 1 for the largest value (ties averaged); NaN values get no rank (NaN)."""
    out = np.full(len(x), np.nan)
    ok = ~np.isnan(x)
    if ok.any():
        out[ok] = ok.sum() + 1 - average_ranks(x[ok])
    return out


def spearman(x: np.ndarray, y: np.ndarray) -> float:
    """Spearman's rho with average ranks for ties, over the pairs where both are known (NaN when
    fewer than 3 are, or either side is constant)."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    ok = ~np.isnan(x) & ~np.isnan(y)
    if ok.sum() < 3:
        return math.nan
    rx, ry = average_ranks(x[ok]), average_ranks(y[ok])
    if rx.std() == 0 or ry.std() == 0:
        return math.nan
    return float(np.corrcoef(rx, ry)[0, 1])
