"""Difficulty: how much harder a sheet, expansion, mode or the 9¾ cards make the game, net of
their own points, as a stated index with bootstrap intervals, beside the publisher's stars.

An expansion's own points raise the score (Ice Cream adds about 26-33), so the mean score does not
say how hard it is. Each item is compared with its base game (the same edition, the Classic sheet,
standard mode, no expansion, no 9¾ cards, the same number of players) on the same deals (game
seeds), and every measure is a paired difference over those deals, computed from each deal's mean
over its seats (so the seats of one game are never counted as independent samples):

- net score: base − item, of the score net of the expansion's own points (`total −
  expansion_points`), at the reference level (by default the ladder's `casual` player);
- skill: item − base, of the gap between the expert and the reference level's net scores: where
  skill matters more, a casual player is further from what the sheet allows (needs two levels);
- blind: item − base, of what the reference level loses when it plays blind to what the item adds
  (its `blind=1` parameter: none of an expansion's points, goals, plan features or AAA prices
  valued, its own decisions by a fixed rule), in final score with the item's own points: an item
  one can play as the base game costs little to ignore, a hard one punishes it (needs the blind
  level; the base game's is 0, as blind=1 plays it as the seeing player does);

and, shown beside them as the reasons for what they find (not in the index):

- refusals: item − base, permit refusals per player;
- plans: base − item, plans validated per player (0-3);
- ended by refusals: item − base, share of games ended by refusals;
- score: item − base, of the final score with the expansion's own points (what the index corrects);
- rounds: item − base, game length (a shorter game, such as Zombie Outbreak's, leaves less time for
  refusals and plans alike).

The **difficulty index** is the mean of the net score, skill and blind components (those the
levels played allow), each divided by the spread of the net score in the base game (its standard
deviation over the base game's deals at the reference level): positive means harder than the base
game, 1.0 means one base-game standard deviation; with the reference level alone it is the net
score component alone. Why these three: docs/findings/difficulty-vs-stars.md (declared before
they were compared with the publisher's stars). Refusals and plans are not
in it: their cost is already in the net score (a refusal's penalty, a plan's points), so counting
them again would count it twice, and a mode that changes what a refusal is (the first edition's
solo variant has almost none, yet scores 16 points less) would pass for easy. Intervals (95%) come
from a bootstrap over deals that resamples the same deals for every item and level (the scale is
held at its point estimate), so the ranks' and the rank correlation's intervals hold the items'
shared luck. The publisher rates expansions only (★ easy to ★★★ challenging); Spearman's rho
between the index and the stars is computed over the rated items of one base game, with average
ranks for ties.
"""

from __future__ import annotations

import functools
import math
import re
import warnings
from dataclasses import dataclass, field

import numpy as np
import polars as pl

from welcome_sim.analysis.tables import expansion_rules
from welcome_sim.expansions.codes import EXPANSION_NAMES
from welcome_sim.simcore.datafiles import label_name

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


def per_deal(rows: pl.DataFrame | pl.LazyFrame, item: str = "item", level: str = "level") -> pl.DataFrame:
    """Each deal's means over its seats, per (item, level, deal): net score, refusals, plans and
    whether the game ended by refusals, from rows shaped like a sweep's (total, expansion_points,
    refusals, plan_*_round, end_reason, seed)."""
    lf = rows.lazy()
    cols = lf.collect_schema().names()
    xp = pl.col("expansion_points") if "expansion_points" in cols else pl.lit(0)
    scored = xp  # the expansion's own points as scored (difficulty_own's race loss), never netted out
    if "expansion" in cols and "expansion_points" in cols:
        # Points that replace the base game's scoring are the game's own, never netted out. A row's
        # expansion is a registered name, or a designer's copy's label (the name of the one it lays
        # out and its hash), so the names come from the registry, not from another pass over the rows.
        own = [x for x in EXPANSION_NAMES if replaces_scoring(x)]
        if own:
            xp = pl.when(expansion_rules().is_in(own)).then(0).otherwise(xp)
    plans = sum((pl.col(f"plan_{s}_round") > 0).cast(pl.Float64) for s in "abc")
    return (
        lf.select(
            pl.col(item).alias("item"),
            pl.col(level).cast(pl.String).alias("level"),
            pl.col("seed").alias("deal"),
            (pl.col("total") - xp).cast(pl.Float64).alias("net_score"),
            pl.col("total").cast(pl.Float64).alias("score"),
            scored.cast(pl.Float64).alias("own_points"),
            pl.col("rounds").cast(pl.Float64),
            pl.col("refusals").cast(pl.Float64),
            plans.alias("plans"),
            pl.col("end_reason").str.contains("refusals").cast(pl.Float64).alias("ended_by_refusals"),
        )
        .group_by("item", "level", "deal")
        .agg(pl.all().mean())
        .sort("item", "level", "deal")
        .collect()
    )


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


def rank(
    deals: pl.DataFrame,
    items: list[Item],
    reference: str,
    expert: str | None = None,
    rounds: int = BOOTSTRAP,
    seed: int = 0,
    blind: str | None = None,
) -> Ranking:
    """Rank items by the difficulty index (see the module docstring) from per_deal() output;
    `blind`: the level played blind (blind_of(reference)), for the blind cost."""
    ids, arr = _arrays(deals)
    keep, dropped = [], []
    for it in items:
        a = arr.get((it.label, reference, "net_score"))
        b = arr.get((it.base, reference, "net_score"))
        common = 0 if a is None or b is None else int((~np.isnan(a) & ~np.isnan(b)).sum())
        (keep if common >= MIN_DEALS and it.label != it.base else dropped).append(it)
    dropped_names = [
        f"{it.label} (fewer than {MIN_DEALS} deals in common with its base game '{it.base}')"
        for it in dropped
        if it.label != it.base
    ]
    has_skill = expert is not None and all(
        (x, expert, "net_score") in arr for it in keep for x in (it.label, it.base)
    )
    has_blind = blind is not None and all(
        (x, blind, "score") in arr for it in keep for x in (it.label, it.base)
    )
    scale: dict[tuple[str, str], float] = {}
    for it in keep:
        for m in MEASURES:
            # No spread in the base game (no refusals at all, say): that component is left out.
            scale[(it.base, m)] = _sd(arr[(it.base, reference, m)])

    def gap(it: Item, up: str, down: str, m: str) -> np.ndarray:
        """Per deal, item − base of the gap between two levels' measure m."""
        return (arr[(it.label, up, m)] - arr[(it.label, down, m)]) - (
            arr[(it.base, up, m)] - arr[(it.base, down, m)]
        )

    def measures(take: np.ndarray | None) -> np.ndarray:
        """[item, measure] harder-positive raw differences (5) and the index, for one resample."""
        out = np.full((len(keep), len(SHOWN) + 1), np.nan)
        for k, it in enumerate(keep):
            for j, m in enumerate(SHOWN):
                if m == "skill":
                    if has_skill:
                        out[k, j] = _mean(gap(it, str(expert), reference, "net_score"), take)
                elif m == "blind":
                    if has_blind:
                        # With the item's own points: what a player blind to them loses is mostly those.
                        out[k, j] = _mean(gap(it, reference, str(blind), "score"), take)
                else:
                    d = arr[(it.label, reference, m)] - arr[(it.base, reference, m)]
                    out[k, j] = SIGN[m] * _mean(d, take)
            z = []
            for j, m in enumerate(SHOWN):
                if m not in COMPONENTS or math.isnan(out[k, j]):
                    continue
                s = scale[(it.base, "net_score" if m in ("skill", "blind") else m)]
                if s > 0:
                    z.append(out[k, j] / s)
            out[k, -1] = float(np.mean(z)) if z and not it.apart else math.nan
        return out

    point = measures(None)
    rng = np.random.default_rng(seed)
    boot = np.stack([measures(rng.integers(0, len(ids), len(ids))) for _ in range(rounds)])
    with warnings.catch_warnings():  # a measure not taken (no expert level) is NaN throughout
        warnings.simplefilter("ignore", RuntimeWarning)
        lo, hi = np.nanpercentile(boot, 2.5, axis=0), np.nanpercentile(boot, 97.5, axis=0)
    # Rank 1 is the hardest; ranks per resample give each item's rank interval. Items compared
    # apart take no rank (0).
    ranked = [k for k, it in enumerate(keep) if not it.apart]
    order = np.argsort(-point[ranked, -1], kind="mergesort")
    ranks = np.zeros(len(keep), dtype=int)
    ranks[np.array(ranked, dtype=int)[order]] = np.arange(1, len(ranked) + 1)
    boot_ranks = np.zeros((len(boot), len(keep)))
    if ranked:
        boot_ranks[:, ranked] = np.stack([_descending_ranks(b[ranked, -1]) for b in boot])
    rows, apart = [], []
    for k, it in enumerate(keep):
        diffs, raw, parts = {}, {}, {}
        for j, m in enumerate(SHOWN):
            if math.isnan(point[k, j]) or (it.apart and m in ("net_score", "score", "blind")):
                continue
            diffs[m] = (float(point[k, j]), float(lo[k, j]), float(hi[k, j]))
            sign = 1.0 if m in ("skill", "blind") else SIGN[m]
            a, b = sorted((sign * lo[k, j], sign * hi[k, j]))
            raw[m] = (float(sign * point[k, j]), float(a), float(b))
            if m in REASONS:  # standardized, harder positive: the index's parts and the reasons for it
                s = scale[(it.base, "net_score" if m in ("skill", "blind") else m)]
                if s > 0:
                    parts[m] = float(point[k, j] / s)
        n = int(
            (
                ~np.isnan(arr[(it.label, reference, "net_score")])
                & ~np.isnan(arr[(it.base, reference, "net_score")])
            ).sum()
        )
        (apart if it.apart else rows).append(
            Row(
                it,
                n,
                diffs,
                raw,
                parts,
                float(point[k, -1]),
                (float(lo[k, -1]), float(hi[k, -1])),
                int(ranks[k]),
                (
                    math.floor(np.nanpercentile(boot_ranks[:, k], 2.5)),
                    math.ceil(np.nanpercentile(boot_ranks[:, k], 97.5)),
                ),
            )
        )
    rows.sort(key=lambda r: r.rank)
    # Stars are compared among items of one base game (the one with the most rated items): an
    # expansion at 1 player and another at 4 players are not two answers to one question.
    bases = [it.base for it in keep if it.stars is not None and not it.apart]
    common_base = max(set(bases), key=lambda b: (bases.count(b), b)) if bases else None
    rated = [k for k in ranked if keep[k].stars is not None and keep[k].base == common_base]
    rho = rho_ci = None
    measure_rho: dict[str, float] = {}
    if len(rated) >= 3:
        stars = np.array([keep[k].stars for k in rated], float)
        rho = spearman(point[rated, -1], stars)
        # Each measure's own agreement with the stars (harder positive), beside the index's: what a
        # combination of them could reach, shown, never fitted here.
        for j, m in enumerate(SHOWN):
            r = spearman(point[rated, j], stars)
            if not math.isnan(r):
                measure_rho[m] = float(r)
        rb = np.array([spearman(b[rated, -1], stars) for b in boot])
        rb = rb[~np.isnan(rb)]
        rho_ci = (float(np.percentile(rb, 2.5)), float(np.percentile(rb, 97.5))) if rb.size else None
        if math.isnan(rho):
            rho = None
    ranking = Ranking(
        rows,
        reference,
        expert if has_skill else None,
        rho,
        rho_ci,
        len(rated),
        dropped=dropped_names,
        apart=apart,
    )
    ranking.rated_base = common_base
    ranking.measure_rho = measure_rho
    ranking.blind = blind if has_blind else None
    ranking.sentences = sentences(ranking, boot, keep)
    return ranking


def _recon(row: Row) -> str:
    return " (played with reconstructed data)" if row.item.reconstructed else ""


def stars_text(stars: int | None) -> str:
    """'★★' for 2, 'no rating' for None."""
    return "no rating" if stars is None else "★" * stars


def _interval(v: tuple[float, float, float], fmt: str = "{:+.2f}") -> str:
    return f"{fmt.format(v[0])} [{fmt.format(v[1])}, {fmt.format(v[2])}]"


def sentences(ranking: Ranking, boot: np.ndarray, keep: list[Item]) -> list[str]:
    """Plain findings: the hardest and easiest items, the agreement with the stars, and each pair
    of rated items the simulation orders against the stars with 95% confidence, with the measure
    that makes most of the gap."""
    rows = ranking.rows
    out: list[str] = []
    if not rows:
        return out
    pos = {it.label: k for k, it in enumerate(keep)}
    n = len(rows)
    top, bottom = rows[0], rows[-1]
    net = top.raw.get("net_score")
    extra = (
        f"; a {ranking.reference} player scores {-net[0]:.1f} [{-net[2]:.1f}, {-net[1]:.1f}] points fewer "
        "net of its own points"
        if net and net[2] < 0
        else ""
    )
    if n == 1 and (top.index_ci[0] > 0 or top.index_ci[1] < 0):
        # One item (a sweep of the Blueprint and Classic sheets): not 'the hardest', but which way,
        # as the interval says. A label of one's own file ('easter.1a2b3c4d ...') keeps its case.
        label = top.item.label
        if not re.match(r"\S+\.[0-9a-f]{8}\b", label):
            label = label[:1].upper() + label[1:]
        harder = top.index_ci[0] > 0
        out.append(
            f"{label}{_recon(top)} plays {'harder' if harder else 'easier'} than its {top.item.base}: "
            f"difficulty index {_interval((top.index, *top.index_ci))}{extra if harder else ''}."
        )
    elif top.index_ci[0] > 0:
        # "The hardest" only when no resample ranks another item first; else the point estimate's.
        lead = (
            "The hardest is"
            if top.rank_ci == (1, 1)
            else f"Ranked hardest (rank interval 1-{top.rank_ci[1]}) is"
        )
        out.append(
            f"{lead} {top.item.label}{_recon(top)}: difficulty index {_interval((top.index, *top.index_ci))} "
            f"against {top.item.base}{extra}."
        )
    if n > 1 and bottom.index_ci[1] < 0:
        lead = (
            "The easiest is"
            if bottom.rank_ci == (n, n)
            else f"Ranked easiest (rank interval {bottom.rank_ci[0]}-{n}) is"
        )
        out.append(
            f"{lead} {bottom.item.label}{_recon(bottom)}: difficulty index "
            f"{_interval((bottom.index, *bottom.index_ci))} against {bottom.item.base}."
        )
    same = [r.item.label for r in rows if r.index_ci[0] <= 0 <= r.index_ci[1]]
    if same:
        out.append(
            "Not distinguishable from their base game (the index's interval holds 0): "
            + "; ".join(same)
            + "."
        )
    if ranking.rho is not None:
        ci = f" (95% CI {ranking.rho_ci[0]:+.2f} to {ranking.rho_ci[1]:+.2f})" if ranking.rho_ci else ""
        stars = np.array(
            [r.item.stars for r in rows if r.item.stars is not None and r.item.base == ranking.rated_base]
        )
        # With tied stars, rho cannot reach 1: say the ceiling so +0.89 over 2 + 2 ties reads as full agreement.
        ceiling = spearman(stars + np.arange(len(stars)) * 1e-6, stars.astype(float))
        top = (
            f"; with these ties among the stars the highest possible is {ceiling:+.2f}"
            if ceiling < 0.999
            else ""
        )
        out.append(
            f"Rank agreement with the publisher's stars over the {ranking.rated} rated items against "
            f"{ranking.rated_base}: Spearman's rho {ranking.rho:+.2f}{ci}{top}. Over so few items the pairs "
            "below say more."
            if ranking.rated < 6
            else f"Rank agreement with the publisher's stars over the {ranking.rated} rated items against "
            f"{ranking.rated_base}: Spearman's rho {ranking.rho:+.2f}{ci}{top}."
        )
    elif ranking.rated:
        out.append(
            f"Only {ranking.rated} rated item(s) here: too few for a rank correlation with the stars (3 or more)."
        )
    if ranking.measure_rho:
        out.append(
            "Each measure's own rank agreement with the stars (harder positive; Spearman's rho over the same "
            "items): " + ", ".join(f"{WORDS[m]} {r:+.2f}" for m, r in ranking.measure_rho.items()) + "."
        )
    rated = [r for r in rows if r.item.stars is not None and r.item.base == ranking.rated_base]
    pair_sentence = _star_pairs(rated, pos, boot)
    if pair_sentence:
        out.append(pair_sentence)
    for r in ranking.apart:
        out.append(apart_sentence(r))
    lone = [r.item.label for r in rows if r.item.lone_race]
    if lone:
        out.append(
            "Played by 1 player without an AAA, a race expansion has no rival in its race (a bonus the first "
            "or best architect takes and the others cross out): the lone player takes every such bonus, so "
            f"it ranks easier than it plays: {'; '.join(lone)}. Rank these at 2 or 4 players or in the AAA "
            "solo mode."
        )
    solo = [r.item.label for r in rows if r.item.label.endswith(", 1 player")]
    if solo and len(solo) < n:
        # A solo mode has no other player count: ranked among 2- or 4-player items, say it is the same
        # 1-player games in every ranking, not a solo game at that count.
        out.append(
            "The solo modes are played alone: they appear in every player count's ranking with the same "
            f"1-player games against the 1-player base game: {'; '.join(solo)}."
        )
    for r in rows:
        if r.item.stars is None and r.item.note:
            out.append(
                f"{r.item.label}: in the publisher's words, they \u201c{r.item.note}\u201d; here the index is "
                f"{_interval((r.index, *r.index_ci))}"
                + (
                    " (easier: agrees)."
                    if r.index_ci[1] < 0
                    else " (harder: disagrees)."
                    if r.index_ci[0] > 0
                    else " (not distinguishable from the base game)."
                )
            )
    return out


def apart_sentence(row: Row) -> str:
    """An item compared apart: what compares with its base game, in each measure's own units."""
    parts = []
    for m, fmt in (
        ("refusals", "{:+.2f}"),
        ("plans", "{:+.2f}"),
        ("rounds", "{:+.1f}"),
        ("skill", "{:+.1f}"),
    ):
        v = row.raw.get(m)
        if v is not None:
            parts.append(f"{WORDS[m]} {fmt.format(v[0])} [{fmt.format(v[1])}, {fmt.format(v[2])}]")
    return (
        f"{row.item.label}: its own points replace the base game's scoring, so it is not ranked on score; "
        f"against {row.item.base} (item − base, per player; skill gap in points): " + ", ".join(parts) + "."
    )


def apart_table(ranking: Ranking) -> pl.DataFrame:
    """The items compared apart (Item.apart): each comparable measure against the base game."""
    recs = []
    for r in ranking.apart:
        rec: dict[str, object] = {
            "item": r.item.label,
            "base": r.item.base,
            "stars": stars_text(r.item.stars),
        }
        for m in ("refusals", "plans", "ended_by_refusals", "rounds", "skill"):
            v = r.raw.get(m)
            rec[m], rec[f"{m}_low"], rec[f"{m}_high"] = v if v else (None, None, None)
        rec["deals"] = r.deals
        recs.append(rec)
    return pl.DataFrame(recs)


def _star_pairs(rated: list[Row], pos: dict[str, int], boot: np.ndarray) -> str:
    """One sentence on every pair of rated items with different stars: how many the simulation
    orders as the stars do, the other way (named, with the measure that makes most of the gap),
    and cannot tell apart, each at 95% of resamples."""
    agree = against_n = open_n = 0
    # Reversed pairs grouped by the item the stars rate harder: {a: ([b, ...], {measure: gap summed})}.
    against: dict[str, tuple[list[str], dict[str, float]]] = {}
    for a in rated:
        for b in rated:
            if a.item.stars <= b.item.stars:
                continue
            # a is rated harder than b: is it harder in 97.5% of resamples, easier, or neither?
            ka, kb = pos[a.item.label], pos[b.item.label]
            if float(np.mean(boot[:, ka, -1] > boot[:, kb, -1])) >= 0.975:
                agree += 1
            elif float(np.mean(boot[:, ka, -1] < boot[:, kb, -1])) >= 0.975:
                against_n += 1
                gaps = {m: b.parts.get(m, 0.0) - a.parts.get(m, 0.0) for m in REASONS if m in a.parts}
                note = f" ({a.item.note})" if a.item.note else ""
                easier, why = against.setdefault(f"{a.item.label} {stars_text(a.item.stars)}{note}", ([], {}))
                easier.append(f"{b.item.label} {stars_text(b.item.stars)}")
                for m, gap in gaps.items():
                    why[m] = why.get(m, 0.0) + gap
            else:
                open_n += 1
    n = agree + against_n + open_n
    if not n:
        return ""
    groups = []
    for a, (easier, why) in against.items():
        # The measure that makes most of the gaps together (ties: the first in REASONS' order).
        most = WORDS[max(why, key=lambda m: (why[m], -REASONS.index(m)))] if why else ""
        groups.append(f"{a} plays easier than {', '.join(easier)}" + (f", mostly by {most}" if most else ""))
    named = f" ({'; '.join(groups)})" if groups else ""
    return (
        f"Of the {n} pairs of rated items with different stars, the simulation orders {agree} as the stars "
        f"do, {against_n} the other way{named}, and cannot tell {open_n} apart (95% of resamples)."
    )


def table(ranking: Ranking) -> pl.DataFrame:
    """The ranking as a frame: rank (interval), item, stars, index (interval), each measure's
    difference against the base game in its own units (item − base), deals."""
    recs = []
    for r in ranking.rows:
        rec = {
            "rank": r.rank,
            "rank_low": r.rank_ci[0],
            "rank_high": r.rank_ci[1],
            "item": r.item.label,
            "base": r.item.base,
            "stars": stars_text(r.item.stars) + (f" ({r.item.note})" if r.item.note else ""),
            "publisher_stars": r.item.stars,
            "index": r.index,
            "index_low": r.index_ci[0],
            "index_high": r.index_ci[1],
        }
        for m in SHOWN:
            v = r.raw.get(m)
            rec[m] = v[0] if v else None
            rec[f"{m}_low"] = v[1] if v else None
            rec[f"{m}_high"] = v[2] if v else None
        rec["deals"] = r.deals
        rec["reconstructed"] = r.item.reconstructed
        rec["lone_race"] = bool(r.item.lone_race)
        recs.append(rec)
    return pl.DataFrame(recs, schema_overrides={"publisher_stars": pl.Int64})


# Settings a difficulty item changes against its base game; any other setting is held fixed.
ITEM_SETTINGS = ("sheet", "expansion", "nine_three_quarters", "mode")


@functools.cache
def replaces_scoring(name: str) -> bool:
    """Whether an expansion's points replace the base game's scoring (its data file's
    `replaces_scoring`: the American Dream's own sheet) rather than add to it: then its net score is
    its total score (netting them out would leave only plans and refusals). A copy's label
    ('american-dream.1a2b3c4d') answers for the expansion it lays out: the key describes its rules,
    which the game code decides, not a value a copy can change."""
    from welcome_sim.errors import WelcomeSimError
    from welcome_sim.expansions import load_expansion

    try:
        x = load_expansion(label_name(name))
    except (WelcomeSimError, OSError, ValueError):
        return False
    value = x.data.get("replaces_scoring", False)
    if not isinstance(value, bool):
        # A string "false" would read as true: refuse it, naming the file and the key.
        raise WelcomeSimError(f"{x.path}: key 'replaces_scoring': expected true or false, got {value!r}")
    return value


REPLACES_NOTE = "its own sheet's points replace the base game's: compared apart, not ranked on score"
LONE_RACE = "1 player without an AAA: no rival in its race, so it plays easier than with rivals"


@functools.cache
def race_rule(name: str) -> str:
    """The rule that makes an expansion a race between the architects (its data file's
    `race_rule`: a bonus the first or the best takes and the others cross out), or ''."""
    from welcome_sim.errors import WelcomeSimError
    from welcome_sim.expansions import load_expansion

    try:
        x = load_expansion(label_name(name))
    except (WelcomeSimError, OSError, ValueError):
        return ""
    value = x.data.get("race_rule", "")
    if not isinstance(value, str):
        raise WelcomeSimError(
            f"{x.path}: key 'race_rule': expected the rule's sentence as a string, got {value!r}"
        )
    return value


def lone_race(expansion: object, players: object, mode: object) -> str:
    """The race rule of an expansion played by 1 player without an AAA (solo modes have one), else
    '': such a game is degenerate for the difficulty of a race expansion."""
    if expansion in (None, "none") or str(players) != "1" or str(mode).startswith("solo"):
        return ""
    return race_rule(str(expansion))


def expansion_rating(name: str) -> tuple[int | None, str]:
    """An expansion's publisher stars and note from its data file ((None, '') when unrated or unknown)."""
    from welcome_sim.errors import WelcomeSimError
    from welcome_sim.expansions import load_expansion

    try:
        data = load_expansion(name).data
    except (WelcomeSimError, OSError, ValueError):
        # A copy's label: no stars (they rate the printed game), but what its index compares holds.
        return None, REPLACES_NOTE if replaces_scoring(name) else ""
    stars = data.get("publisher_stars")
    note = str(data.get("publisher_stars_note", ""))
    if replaces_scoring(name):
        note = "; ".join(n for n in (note, REPLACES_NOTE) if n)
    return (stars if isinstance(stars, int) else None), note


def _describe(config: dict, varying: list[str]) -> str:
    """A configuration in words, from the settings that vary."""
    from welcome_sim.analysis.labels import parts_of

    return " · ".join(parts_of(config, varying)) or "all games"


def _labels(pairs: list[tuple[tuple, tuple]], recs: dict[tuple, dict], cols: list[str]) -> dict[tuple, str]:
    """Labels in words: an item by what it changes against its base game ("Zombie Outbreak", "solo
    mode · AAA level 3"), a base game as "base game"; the other settings that vary ("2 players",
    "run modes") are added in brackets only where labels would otherwise collide."""
    changing = (*ITEM_SETTINGS, "opponent")
    taking = {x for pair in pairs for x in pair}
    # Settings an item's expansion decides (its own sheet and plans) say nothing more of it: they
    # read as its base game's.
    shown = {k: recs[k] for k in taking}
    for k, kb in pairs:
        shown[k] = {c: recs[kb][c] if c in _implied(recs[k]) else recs[k][c] for c in cols}
    varying = [c for c in cols if len({_s(shown[k][c]) for k in taking}) > 1]
    context = [c for c in varying if c not in changing]
    short: dict[tuple, str] = {}
    for k, kb in pairs:
        diff = [
            c
            for c in cols
            if c in changing and c not in _implied(recs[k]) and not _eq(recs[k][c], recs[kb][c])
        ]
        short[k] = _describe(recs[k], diff)
        short.setdefault(kb, "base game")
    for kb in {kb for _, kb in pairs}:
        short[kb] = "base game"
    if not context:
        return short
    count: dict[str, int] = {}
    for v in short.values():
        count[v] = count.get(v, 0) + 1
    return {k: f"{v} ({_describe(shown[k], context)})" if count[v] > 1 else v for k, v in short.items()}


def from_sweep(
    lf: pl.LazyFrame, by: list[str], baseline: dict[str, object], rounds: int = BOOTSTRAP
) -> Ranking | None:
    """The difficulty ranking of a sweep's configurations: each one whose base game (the same
    configuration with the baseline's sheet, expansion, 9¾ setting and mode, and no AAA; the same
    edition and players) is in the sweep, on their shared seeds. The strategy (`table`) is the
    level: `casual` (or the only or first strategy) the reference, `expert` the skill gap when both
    are there, the reference blind (blind_of) the blind cost when it is there. Runs that each hold other configurations (a base run beside an expansion run) are
    compared across. None when no configuration has its base game; configurations without one are
    listed in the ranking's `dropped`."""
    cols = lf.collect_schema().names()
    if "seed" not in cols or "table" not in by:
        return None
    item_cols = [c for c in by if c != "table"]
    configs = lf.select(item_cols).unique().collect()
    if "run" in item_cols:
        rest = [c for c in item_cols if c != "run"]
        if not rest or configs.select(rest).unique().height == configs.height:
            # Each configuration lives in one run only: the run tells nothing apart.
            item_cols = rest
            configs = configs.select(rest).unique()
    tables = sorted(lf.select(pl.col("table").unique()).collect()["table"].to_list())
    reference = "casual" if "casual" in tables else tables[0]
    expert = "expert" if reference == "casual" and "expert" in tables else None
    blind = blind_of(reference) if blind_of(reference) in tables else None
    recs = {tuple(r[c] for c in item_cols): r for r in configs.to_dicts()}

    def find(config: dict) -> tuple | None:
        return next((k for k, x in recs.items() if all(_eq(x[c], config[c]) for c in item_cols)), None)

    pairs, orphans = [], []
    for k, r in recs.items():
        base = {**r, **{c: baseline[c] for c in ITEM_SETTINGS if c in r and c in baseline}}
        if "opponent" in r:
            base["opponent"] = None  # the AAA belongs to the solo mode, not to the base game
        if "plan_set" in r and _own_plans(r):
            base["plan_set"] = _standard_plans(r)
        kb = find(base)
        if kb is not None and kb != k:
            pairs.append((k, kb))
        elif kb is None:
            orphans.append(k)
    label = _labels(pairs, recs, item_cols)
    items: list[Item] = []
    for k, kb in pairs:
        r = recs[k]
        changed = [c for c in ITEM_SETTINGS if c in r and c not in _implied(r) and not _eq(r[c], recs[kb][c])]
        stars, note = expansion_rating(str(r["expansion"])) if changed == ["expansion"] else (None, "")
        race = lone_race(r.get("expansion"), r.get("players"), r.get("mode", "standard"))
        # Its expansion's points replace the scoring (with the 9¾ cards or another sheet besides).
        own = "expansion" in changed and replaces_scoring(str(r["expansion"]))
        items.append(Item(label[k], label[kb], stars, note, lone_race=race, apart=own))
    if not items:
        return None
    labelled = lf.with_columns(
        pl.concat_str(
            [pl.col(c).cast(pl.String).fill_null("\x00") for c in item_cols], separator="\x01"
        ).alias("_key")
    )
    mapping = {"\x01".join("\x00" if v is None else _s(v) for v in k): lab for k, lab in label.items()}
    labelled = labelled.with_columns(pl.col("_key").replace_strict(mapping, default=None).alias("_item"))
    deals = per_deal(
        labelled.filter(
            pl.col("table").is_in([reference, *([expert] if expert else []), *([blind] if blind else [])])
            & pl.col("_item").is_not_null()
        ),
        "_item",
        "table",
    )
    ranking = rank(deals, items, reference, expert, rounds, blind=blind)
    every = [c for c in item_cols if configs[c].n_unique() > 1]
    ranking.dropped += [f"{_describe(recs[k], every)} (its base game is not in these runs)" for k in orphans]
    return ranking


def _implied(config: dict) -> set[str]:
    """The settings of a configuration that its expansion decides: a sheet of its own (not a base
    game's sheet it is played on, which a baseline of another sheet really changes), and its own
    plan cards (the American Dream brings both)."""
    from welcome_sim.sweep.config import sheet_owner

    x = config.get("expansion")
    if x in (None, "none"):
        return set()
    out = set()
    if "sheet" in config and sheet_owner(str(config["sheet"])) == label_name(str(x)):
        out.add("sheet")
    if "plan_set" in config and _own_plans(config):
        out.add("plan_set")
    return out


def _own_plans(config: dict) -> bool:
    """The configuration's expansion brings its own plan cards in place of every plan set (the
    American Dream): its rows name the expansion as their plan set."""
    x = config.get("expansion")
    return x not in (None, "none") and _eq(config["plan_set"], x)


def _standard_plans(config: dict) -> str:
    """The standard plan set of the configuration's edition (the base game of an expansion that
    brings its own plans plays with it)."""
    from welcome_sim.errors import WelcomeSimError
    from welcome_sim.simcore.datafiles import load_edition

    try:
        return load_edition(str(config.get("edition") or "collector")).plans
    except (WelcomeSimError, OSError, ValueError):
        return ""


def _s(v: object) -> str:
    """A value as polars casts it to a string (booleans lower-case)."""
    return str(v).lower() if isinstance(v, bool) else str(v)


def _eq(a: object, b: object) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return str(a).lower() == str(b).lower()
    return a == b or str(a) == str(b)
