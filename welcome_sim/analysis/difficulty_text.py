"""The difficulty ranking in words and tables: the findings' sentences, the pairs of rated items
the simulation orders against the stars, and the frames the report and the command line show."""

from __future__ import annotations

import re

import numpy as np
import polars as pl

from welcome_sim.analysis.difficulty_stats import REASONS, SHOWN, WORDS, Item, Ranking, Row, spearman
from welcome_sim.analysis.rounding import interval_text


def _recon(row: Row) -> str:
    return " (played with reconstructed data)" if row.item.reconstructed else ""


def stars_text(stars: int | None) -> str:
    """'★★' for 2, 'no rating' for None."""
    return "no rating" if stars is None else "★" * stars


def _interval(v: tuple[float, float, float], fmt: str = "{:+.2f}") -> str:
    # Rounded so that the estimate shows inside its interval (analysis/rounding.py).
    digits = int(fmt.split(".")[1][0]) if "." in fmt else 2
    return interval_text(v[0], v[1], v[2], digits, sign="+" in fmt)


def rho_text(rho: float, ci: tuple[float, float] | None) -> str:
    """Spearman's rho with its interval; where the estimate is the interval's end (the rank
    correlation takes few values: no resample may beat it), said in words, not as '+0.19 [.., +0.19]'."""
    if not ci:
        return f"{rho:+.2f}"
    if ci[1] <= rho:
        return f"{rho:+.2f} (no resample of the deals agrees more; 95% of them at least {ci[0]:+.2f})"
    if ci[0] >= rho:
        return f"{rho:+.2f} (no resample of the deals agrees less; 95% of them at most {ci[1]:+.2f})"
    return _interval((rho, *ci))


def _nth(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _which_way(row: Row, extra: str) -> str:
    """'X plays harder than its base: difficulty index ...', as the item's own interval says (extra:
    the net points a harder item costs). A label of one's own file ('easter.1a2b3c4d ...') keeps its case."""
    label = row.item.label
    if not re.match(r"\S+\.[0-9a-f]{8}\b", label):
        label = label[:1].upper() + label[1:]
    harder = row.index_ci[0] > 0
    return (
        f"{label}{_recon(row)} plays {'harder' if harder else 'easier'} than its {row.item.base}: "
        f"difficulty index {_interval((row.index, *row.index_ci))}{extra if harder else ''}."
    )


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
        f"; a {ranking.reference} player scores {interval_text(-net[0], -net[2], -net[1], 1)} points fewer "
        "net of its own points"
        if net and net[2] < 0
        else ""
    )
    # An item any rank could hold (one item; or every rank within its interval) is said by which way
    # its own interval points, not as 'the hardest': a ranking of it would say nothing.
    top_open = n == 1 or top.rank_ci == (1, n)
    if top_open and (top.index_ci[0] > 0 or top.index_ci[1] < 0):
        out.append(_which_way(top, extra))
    elif top.index_ci[0] > 0:
        # "The hardest" only when no resample ranks another item first; else the point estimate's.
        lead = (
            "The hardest is"
            if top.rank_ci == (1, 1)
            else f"Ranked hardest (it could rank anywhere from 1st to {_nth(top.rank_ci[1])} within the intervals) is"
        )
        out.append(
            f"{lead} {top.item.label}{_recon(top)}: difficulty index {_interval((top.index, *top.index_ci))} "
            f"against {top.item.base}{extra}."
        )
    if n > 1 and bottom.index_ci[1] < 0:
        if bottom.rank_ci == (1, n):
            out.append(_which_way(bottom, ""))
        else:
            lead = (
                "The easiest is"
                if bottom.rank_ci == (n, n)
                else f"Ranked easiest (it could rank anywhere from {_nth(bottom.rank_ci[0])} to {_nth(n)} within "
                "the intervals) is"
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
        rho = rho_text(ranking.rho, ranking.rho_ci)
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
            f"How well this order matches the publisher's stars over the {ranking.rated} items they rate "
            f"against {ranking.rated_base} (Spearman's rho: +1 the same order, 0 unrelated): {rho}{top}. Over "
            "so few items the pairs below say more."
            if ranking.rated < 6
            else f"How well this order matches the publisher's stars over the {ranking.rated} items they rate "
            f"against {ranking.rated_base} (Spearman's rho: +1 the same order, 0 unrelated): {rho}{top}."
        )
    elif ranking.rated:
        out.append(
            f"Only {'one item' if ranking.rated == 1 else f'{ranking.rated} items'} here "
            f"{'has' if ranking.rated == 1 else 'have'} the publisher's stars: too few to say whether this "
            "order matches the stars (3 or more are needed)."
        )
    if ranking.measure_rho:
        out.append(
            "Each measure's own rank agreement with the stars (how each measure alone orders the same items "
            "against the stars, +1 the same order): "
            + ", ".join(f"{WORDS[m]} {r:+.2f}" for m, r in ranking.measure_rho.items())
            + "."
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
        f"Of the {n} {'pair' if n == 1 else 'pairs'} of rated items with different stars, the simulation "
        f"orders {agree} as the stars do, {against_n} the other way{named}, and cannot tell {open_n} apart "
        "(95% of resamples)."
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
        rec["no_blind_cost"] = r.item.no_blind_cost  # blind is 0 by construction (no expansion)
        recs.append(rec)
    return pl.DataFrame(recs, schema_overrides={"publisher_stars": pl.Int64})
