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

import math
import warnings
from dataclasses import dataclass

import numpy as np
import polars as pl

from welcome_sim.analysis.difficulty_items import (
    ITEM_SETTINGS,
    LONE_RACE,
    NO_BLIND_COST,
    NO_BLIND_LEGEND,
    REPLACES_NOTE,
    expansion_rating,
    lone_race,
    race_rule,
    replaces_scoring,
)
from welcome_sim.analysis.difficulty_stats import (
    BLIND_PARAM,
    BOOTSTRAP,
    COMPONENTS,
    MEASURES,
    MIN_DEALS,
    REASONS,
    SHOWN,
    SIGN,
    WORDS,
    Item,
    Ranking,
    Row,
    Z,
    _arrays,
    _descending_ranks,
    _mean,
    _sd,
    average_ranks,
    blind_of,
    spearman,
)
from welcome_sim.analysis.difficulty_text import (
    apart_sentence,
    apart_table,
    sentences,
    stars_text,
    table,
)
from welcome_sim.analysis.tables import expansion_rules
from welcome_sim.simcore.ground.datafiles import label_name
from welcome_sim.simcore.rules.expansions.codes import EXPANSION_NAMES

# The names the rest of the package and the tests read from here (defined in the three modules
# above, which hold the measures, the words and the data files' side of an item).
__all__ = [
    "BLIND_PARAM",
    "BOOTSTRAP",
    "COMPONENTS",
    "ITEM_SETTINGS",
    "LONE_RACE",
    "MEASURES",
    "MIN_DEALS",
    "NO_BLIND_COST",
    "NO_BLIND_LEGEND",
    "REASONS",
    "REPLACES_NOTE",
    "SHOWN",
    "SIGN",
    "WORDS",
    "Item",
    "Ranking",
    "Row",
    "Z",
    "apart_sentence",
    "apart_table",
    "average_ranks",
    "blind_of",
    "expansion_rating",
    "from_sweep",
    "lone_race",
    "per_deal",
    "race_rule",
    "rank",
    "replaces_scoring",
    "sentences",
    "spearman",
    "stars_text",
    "table",
]


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


@dataclass(frozen=True)
class _Setup:
    """What one ranking measures: the items kept, the per-deal arrays, the levels played and each
    base game's spread of each measure (the index's scale)."""

    arr: dict[tuple[str, str, str], np.ndarray]
    keep: list[Item]
    reference: str
    expert: str | None
    blind: str | None
    has_skill: bool
    has_blind: bool
    scale: dict[tuple[str, str], float]

    def gap(self, it: Item, up: str, down: str, m: str) -> np.ndarray:
        """Per deal, item − base of the gap between two levels' measure m."""
        arr = self.arr
        return (arr[(it.label, up, m)] - arr[(it.label, down, m)]) - (
            arr[(it.base, up, m)] - arr[(it.base, down, m)]
        )

    def measures(self, take: np.ndarray | None) -> np.ndarray:
        """[item, measure] harder-positive raw differences (5) and the index, for one resample."""
        arr, reference = self.arr, self.reference
        out = np.full((len(self.keep), len(SHOWN) + 1), np.nan)
        for k, it in enumerate(self.keep):
            for j, m in enumerate(SHOWN):
                if m == "skill":
                    if self.has_skill:
                        out[k, j] = _mean(self.gap(it, str(self.expert), reference, "net_score"), take)
                elif m == "blind":
                    if self.has_blind:
                        # With the item's own points: what a player blind to them loses is mostly those.
                        out[k, j] = _mean(self.gap(it, reference, str(self.blind), "score"), take)
                else:
                    d = arr[(it.label, reference, m)] - arr[(it.base, reference, m)]
                    out[k, j] = SIGN[m] * _mean(d, take)
            z = []
            for j, m in enumerate(SHOWN):
                if m not in COMPONENTS or math.isnan(out[k, j]):
                    continue
                s = self.scale[(it.base, "net_score" if m in ("skill", "blind") else m)]
                if s > 0:
                    z.append(out[k, j] / s)
            out[k, -1] = float(np.mean(z)) if z and not it.apart else math.nan
        return out


def _set_up(
    deals: pl.DataFrame, items: list[Item], reference: str, expert: str | None, blind: str | None
) -> tuple[np.ndarray, _Setup, list[str]]:
    """The deal ids, the ranking's set-up, and the items dropped (too few deals with their base
    game), in words."""
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
    return ids, _Setup(arr, keep, reference, expert, blind, has_skill, has_blind, scale), dropped_names


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
    ids, setup, dropped_names = _set_up(deals, items, reference, expert, blind)
    keep = setup.keep
    point = setup.measures(None)
    rng = np.random.default_rng(seed)
    boot = np.stack([setup.measures(rng.integers(0, len(ids), len(ids))) for _ in range(rounds)])
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
        row = _row(setup, k, point, lo, hi, int(ranks[k]), boot_ranks[:, k])
        (apart if it.apart else rows).append(row)
    rows.sort(key=lambda r: r.rank)
    common_base, rated, rho, rho_ci, measure_rho = _star_agreement(keep, ranked, point, boot)
    ranking = Ranking(
        rows,
        reference,
        expert if setup.has_skill else None,
        rho,
        rho_ci,
        len(rated),
        dropped=dropped_names,
        apart=apart,
    )
    ranking.rated_base = common_base
    ranking.measure_rho = measure_rho
    ranking.blind = blind if setup.has_blind else None
    ranking.sentences = sentences(ranking, boot, keep)
    return ranking


def _row(
    setup: _Setup,
    k: int,
    point: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    rank_k: int,
    boot_ranks: np.ndarray,
) -> Row:
    """Item k's row: each measure with its interval, harder positive and in its natural sign, the
    index's standardized parts, and its rank with the resamples' rank interval."""
    it = setup.keep[k]
    diffs, raw, parts = {}, {}, {}
    for j, m in enumerate(SHOWN):
        if math.isnan(point[k, j]) or (it.apart and m in ("net_score", "score", "blind")):
            continue
        diffs[m] = (float(point[k, j]), float(lo[k, j]), float(hi[k, j]))
        sign = 1.0 if m in ("skill", "blind") else SIGN[m]
        a, b = sorted((sign * lo[k, j], sign * hi[k, j]))
        raw[m] = (float(sign * point[k, j]), float(a), float(b))
        if m in REASONS:  # standardized, harder positive: the index's parts and the reasons for it
            s = setup.scale[(it.base, "net_score" if m in ("skill", "blind") else m)]
            if s > 0:
                parts[m] = float(point[k, j] / s)
    arr, reference = setup.arr, setup.reference
    n = int(
        (
            ~np.isnan(arr[(it.label, reference, "net_score")])
            & ~np.isnan(arr[(it.base, reference, "net_score")])
        ).sum()
    )
    return Row(
        it,
        n,
        diffs,
        raw,
        parts,
        float(point[k, -1]),
        (float(lo[k, -1]), float(hi[k, -1])),
        rank_k,
        (
            math.floor(np.nanpercentile(boot_ranks, 2.5)),
            math.ceil(np.nanpercentile(boot_ranks, 97.5)),
        ),
    )


def _star_agreement(
    keep: list[Item], ranked: list[int], point: np.ndarray, boot: np.ndarray
) -> tuple[str | None, list[int], float | None, tuple[float, float] | None, dict[str, float]]:
    """The rank agreement with the publisher's stars: the base game compared over, the rated items
    (their positions in keep), Spearman's rho of the index with its interval, and each measure's own."""
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
    return common_base, rated, rho, rho_ci, measure_rho


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
        # Known only where the runs tell the expansion apart (a column held constant is not here).
        plain = all(x.get("expansion", "?") in (None, "none") for x in (r, recs[kb]))
        items.append(Item(label[k], label[kb], stars, note, lone_race=race, apart=own, no_blind_cost=plain))
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
    from welcome_sim.simcore.ground.datafiles import load_edition

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
