"""Findings in plain sentences, generated from the balance tables, each with its 95% interval. A
comparison (an effect, the hardest card) is said only when its interval excludes 0; descriptive
sentences (an expansion's own points, the AAA's levels, how often games end by refusals) give
their interval and say what they describe.

What is said, in order: the score effect of each setting that varies against its reference
(paired intervals where the sides share seeds and pairing narrows the interval, else independent
ones, with the pairing correlation measured), the expansions' own points
and their net effect, the hardest and easiest plan of each letter, the AAA levels, how games end,
and the difficulty ranking's own sentences. Settings are named in words ("no 9¾ cards", "2
players"); a configuration's other settings are said only when they vary.
"""

from __future__ import annotations

import math

import polars as pl

from welcome_sim.analysis.difficulty import replaces_scoring
from welcome_sim.analysis.labels import OWN_FILE_COLUMNS, own_title, sheet_title
from welcome_sim.analysis.labels import value_words as short_words
from welcome_sim.analysis.rounding import interval_parts, interval_text

MAX_FINDINGS = 8  # the report's findings, the biggest facts first; the sections hold the rest
MAX_EFFECTS = 3  # score effects stated (the largest first); the tables hold the rest
# A card validated by fewer (more) players than this share is said to be almost never (always) met.
RARE, COMMON = 0.02, 0.95
MIN_PLAYERS = 50  # player-games with a card in play before its rate is called extreme
MAX_CARDS = 4  # cards named in one extreme-rate sentence
PER_SETTING = 2  # of them, at most this many of one setting
OWN_FILES = ("deck", "plan_set")  # built-in values (no content hash) are the edition's own
# Toggles whose score effect another sentence gives (an expansion's: with its own points and net of
# them), or that are no game setting (two runs side by side: the Effects section compares them).
SAID_ELSEWHERE = ("expansion", "run")


def value_words(column: str, value: object) -> str:
    """A setting's value as a sentence names it: 'the 9¾ cards', 'no expansion', '2 players', 'the
    Blueprint sheet'; where a sentence needs no article, the label words of labels.value_words."""
    v = str(value)
    if column in OWN_FILE_COLUMNS and own_title(v):
        return f"your file “{own_title(v)}”"
    if column == "nine_three_quarters":
        return "the 9¾ cards" if v.lower() == "true" else "no 9¾ cards"
    if column == "expansion" and v == "none":
        return "no expansion"  # the label says "base game": a sentence compares with it
    if column == "sheet":
        return f"the {sheet_title(v)} sheet"
    if column == "edition":
        return f"the {short_words(column, value)}"
    if column == "deck":
        return f"the deck {v}"
    if column == "plan_set":
        return f"the plan cards {v}"
    if column == "table":
        return v
    return short_words(column, value) or v


def _local(df: pl.DataFrame, varying: list[str]) -> list[str]:
    """The settings that vary among a table's own rows (the others go without saying)."""
    return [c for c in varying if c in df.columns and df[c].n_unique() > 1]


def _where(row: dict, varying: list[str], skip: str) -> str:
    """' with 1 player, standard mode': the row's other varying settings, or ''. An edition's own
    deck and plans go without saying (they change with the edition); a file of one's own is named."""
    parts = [
        value_words(c, row[c])
        for c in varying
        if c != skip and c in row and row[c] is not None and not (c in OWN_FILES and "." not in str(row[c]))
    ]
    return (" with " if parts else "") + ", ".join(parts)


def _wilson(p: float, n: float) -> tuple[float, float]:
    """Wilson's 95% score interval of a share p of n (honest at 0% and 100%)."""
    if not n:
        return 0.0, 1.0
    z2 = 1.96**2
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = 1.96 / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return centre - half, centre + half


def _pm(v: float, lo: float, hi: float, unit: str = "", digits: int = 1) -> str:
    value, bounds = interval_parts(v, lo, hi, digits)
    return f"{value}{unit} {bounds}"


def _size(d: float, lo: float, hi: float) -> str:
    """The size of an effect whose interval excludes 0, with its interval: '2.5 [1.9, 3.1]'."""
    return interval_text(abs(d), min(abs(lo), abs(hi)), max(abs(lo), abs(hi)), 1)


def _pct(v: float, lo: float, hi: float) -> str:
    return interval_text(v, lo, hi, 0, pct=True)


def at_baseline(df: pl.DataFrame, columns: list[str], baseline: dict[str, object]) -> pl.DataFrame:
    """The rows whose settings are the baseline's, column by column where the table has such rows
    (the base game's context: the same effect with other settings goes to the tables)."""
    for c in columns:
        if c in baseline and c in df.columns:
            hit = df.filter(pl.col(c).cast(pl.String).str.to_lowercase() == str(baseline[c]).lower())
            df = hit if hit.height else df
    return df


def score_effects(
    tables: dict[str, pl.DataFrame],
    varying: list[str],
    baseline: dict[str, object] | None = None,
    said: frozenset[str] = frozenset(),
) -> list[str]:
    """'With the Blueprint sheet players score 5.6 [4.9, 6.3] points more than with the Classic
    sheet, at 1 player': significant effects, the largest first."""
    found: list[tuple[float, str]] = []
    for name, df in tables.items():
        if not name.startswith("effect_") or df.height == 0:
            continue
        column = name.removeprefix("effect_")
        if column in SAID_ELSEWHERE:
            continue
        df = at_baseline(df, [c for c in varying if c != column], baseline or {})
        here = _local(df, varying)
        for row in df.iter_rows(named=True):
            if str(row["b"]) in said:  # a variant's effect, said with what changed in it (what_if)
                continue
            lo, hi = _bounds(row)
            if lo is None or hi is None or math.isnan(lo) or (lo <= 0 <= hi):
                continue
            d = row["diff_paired"] if _paired(row) else row["diff"]
            how = _how(row)
            b, a = value_words(column, row["b"]), value_words(column, row["a"])
            text = (
                f"With {b}, players score {_size(d, lo, hi)} "
                f"points {'more' if d > 0 else 'fewer'} than with {a}{_where(row, here, column)} ({how})."
            )
            if row.get("changes_with"):
                text = text[:-1] + f"; {row['changes_with']} changes with it."
            found.append((abs(d), column, text))
    found.sort(key=lambda x: -x[0])
    # At most PER_SETTING sentences of one setting (six AAA levels would fill the list).
    significant = len(found)
    per: dict[str, int] = {}
    kept: list[tuple[float, str]] = []
    for size, column, text in found:
        per[column] = per.get(column, 0) + 1
        if per[column] <= PER_SETTING:
            kept.append((size, text))
    found = kept
    out = [t for _, t in found[:MAX_EFFECTS]]
    if significant > len(out):
        more = significant - len(out)
        effects = "score effect is" if more == 1 else "score effects are"
        out.append(f"{more} more significant {effects} in the Effects section.")
    return out


def expansion_points(
    tables: dict[str, pl.DataFrame], varying: list[str], baseline: dict[str, object] | None = None
) -> list[str]:
    """Each expansion's own points and its score net of them, against the base game."""
    df = tables.get("expansions")
    if df is None or df.height == 0 or "metric" not in df.columns:
        return []
    out = []
    df = at_baseline(df, [c for c in varying if c != "expansion"], baseline or {})
    # Only against the base game: "no expansion adds -33 points" says nothing.
    df = df.filter((pl.col("toggle") == "expansion") & (pl.col("a") == "none"))
    total = df.filter(pl.col("metric") == "total")
    keys = [c for c in df.columns if c in varying and c not in ("expansion",)]
    here = _local(total, varying)

    def twin(row: dict, metric: str) -> dict | None:
        same = pl.all_horizontal(*(pl.col(c).eq_missing(row[c]) for c in keys)) if keys else pl.lit(True)
        hit = df.filter((pl.col("metric") == metric) & (pl.col("b") == row["b"]) & same)
        return hit.row(0, named=True) if hit.height else None

    for row in total.iter_rows(named=True):
        own, net = twin(row, "expansion_points"), twin(row, "net_score")
        text = f"{value_words('expansion', row['b'])}{_where(row, here, 'expansion')}: {_said(row)}"
        if own is not None and own["diff"] is not None and abs(own["diff"]) > 1e-9:
            lo, hi = _bounds(own)
            text += f", with {interval_text(own['diff'], lo, hi, 1)} points of its own"
            if replaces_scoring(str(row["b"])):
                # Netting them out would leave only plans and refusals (the American Dream).
                text += (
                    "; they replace the base game's scoring, so the total says nothing of difficulty: "
                    "Difficulty compares it apart"
                )
            elif net is not None:
                text += f"; net of them, {_said(net)}"
        out.append(text + f" ({_how(row)}; a higher score is not an easier game: see Difficulty).")
    return out


def _said(row: dict, base: str | None = None) -> str:
    """'players score 25.0 [23.5, 26.5] points more' or 'the score does not change measurably
    (-0.4 [-1.2, +0.4])'; against `base`: '... points more than with BASE' or 'the score does not
    differ measurably from BASE (-0.4 [-1.2, +0.4])'."""
    lo, hi = _bounds(row)
    d = row["diff_paired"] if _paired(row) else row["diff"]
    if lo is None or hi is None or lo <= 0 <= hi:
        shown = f" ({interval_text(d, lo, hi, 1, sign=True)})" if lo is not None and hi is not None else ""
        if base is None:
            return "the score does not change measurably" + shown
        return f"the score does not differ measurably from {base}" + shown
    said = f"players score {_size(d, lo, hi)} points {'more' if d > 0 else 'fewer'}"
    return said if base is None else f"{said} than with {base}"


def _paired(row: dict) -> bool:
    """The paired interval is the one to use: the sides share seeds and pairing narrows it
    (tables.PAIRING_GAIN); same seeds of games played another way (Zombie Outbreak) share the base
    cards yet hardly correlate."""
    return bool(row.get("paired_used")) and row.get("paired_low") is not None


def _how(row: dict) -> str:
    """How a difference's interval was made, with the pairing correlation measured."""
    r = row.get("pair_r")
    known = r is not None and not math.isnan(r)
    if _paired(row):
        return f"paired on {row['pairs']:,} games dealt the same seeds" + (f", r = {r:.2f}" if known else "")
    if row.get("pairs") and known:
        return f"independent samples: pairing the same seeds does not narrow it, r = {r:.2f}"
    return "independent samples"


def _bounds(row: dict) -> tuple[float | None, float | None]:
    """A difference's interval: the paired one where pairing narrows it, else the independent one."""
    if _paired(row):
        return row["paired_low"], row["paired_high"]
    return row.get("ci_low"), row.get("ci_high")


def _apart(x: dict, y: dict) -> bool:
    """Two cards' rates differ at 95%: the cards of one letter are dealt in different games, so
    their difference's half-width is √(h_x² + h_y²) over their clustered half-widths."""
    hx, hy = x.get("ci95"), y.get("ci95")
    if hx is None or hy is None:
        return False
    return abs(x["validation_rate"] - y["validation_rate"]) > math.hypot(hx, hy)


def plan_extremes(plans: pl.DataFrame, by: list[str], varying: list[str]) -> list[str]:
    """Per letter, in each configuration: the hardest and the easiest card, each said only when its
    rate differs at 95% from the next card's (the difference's interval excludes 0)."""
    if plans.height == 0:
        return []
    out = []
    groups = plans.group_by([c for c in by if c in varying] + ["letter"], maintain_order=True)
    for _, sub in groups:
        if sub.height < 2:
            continue
        sub = sub.sort("validation_rate")
        hard, easy = sub.row(0, named=True), sub.row(sub.height - 1, named=True)
        second, last_but = sub.row(1, named=True), sub.row(sub.height - 2, named=True)
        where = _where(hard, [c for c in varying if c != "run"], "letter")
        for card, other, word in ((hard, second, "hardest"), (easy, last_but, "easiest")):
            if _apart(card, other):
                rate = _pct(card["validation_rate"], card["ci_low"], card["ci_high"])
                out.append(
                    f"Plan {card['plan']} is validated by {rate} of the players who have it{where}, the {word} "
                    f"{card['letter']} card (next: {other['plan']}, {100 * other['validation_rate']:.0f}%)."
                )
    return out


def _who(row: dict) -> str:
    """'1 player, greedy': who played a configuration."""
    players = row.get("players")
    parts = [f"{players} player{'' if players == 1 else 's'}"] if players is not None else []
    if row.get("table"):
        parts.append(str(row["table"]))
    return ", ".join(parts)


def score_spread(scores: pl.DataFrame | None, varying: list[str], baseline: dict[str, object]) -> list[str]:
    """The reference configuration's spread of final scores: median and the middle 90%, with
    who played and how many player-games."""
    if scores is None or scores.height == 0 or "median" not in scores.columns:
        return []
    row = at_baseline(scores, varying, baseline).row(0, named=True)
    where = _where(row, [c for c in varying if c not in ("run", "players", "table")], "")
    who = _who(row)
    return [
        f"Final scores{where} ({who}{', ' if who else ''}{row['n']:,} player-games): median "
        f"{row['median']:.0f}, 90% of players between {row['q05']:.0f} and {row['q95']:.0f}; mean "
        + (
            interval_text(row["mean"], row["ci_low"], row["ci_high"], 1) + "."
            if row.get("ci_low") is not None
            else f"{row['mean']:.1f}."
        )
    ]


def plan_outliers(plans: pl.DataFrame | None, by: list[str], varying: list[str]) -> list[str]:
    """Cards almost never (< 2%) or almost always (> 95%) validated, in any configuration: the
    biggest facts of a plan set, said before the hardest and easiest of each letter. A card said
    once, where the most players had it, with the number of other configurations where it is so."""
    if plans is None or plans.height == 0 or "validation_rate" not in plans.columns:
        return []
    keys = [c for c in by if c in varying and c in plans.columns and c != "run"]
    rows = plans.filter(pl.col("n") >= MIN_PLAYERS)
    out = []
    for word, cond, desc in (
        (
            "Almost never validated (by under 2% of the players who have the card)",
            pl.col("validation_rate") < RARE,
            False,
        ),
        (
            "Almost always validated (by over 95% of the players who have the card)",
            pl.col("validation_rate") > COMMON,
            True,
        ),
    ):
        hit = rows.filter(cond)
        if hit.height == 0:
            continue
        cards = []
        for (plan,), sub in hit.group_by("plan", maintain_order=True):
            best = sub.sort("n", descending=True).row(0, named=True)
            in_play = rows.filter(pl.col("plan") == plan).height
            cards.append((best["validation_rate"], plan, best, sub.height, in_play))
        cards.sort(key=lambda c: (-c[0] if desc else c[0], str(c[1])))
        said = []
        for _, plan, r, n_here, in_play in cards[:MAX_CARDS]:
            rate = f"{plan} {_pct1(r['validation_rate'], r['ci_low'], r['ci_high'])} of {r['n']:,}"
            if n_here == in_play and in_play > 1:
                said.append(f"{rate} ({'in both' if in_play == 2 else f'in all {in_play}'} configurations)")
            elif n_here > 1:
                said.append(
                    f"{rate}{_where(r, keys, '')} (and {n_here - 1} more configurations of {in_play})"
                )
            else:
                said.append(rate + _where(r, keys, ""))
        more = (
            f"; and {len(cards) - MAX_CARDS} more cards (Plan difficulty)" if len(cards) > MAX_CARDS else ""
        )
        out.append(f"{word}: {'; '.join(said)}{more}.")
    return out


def _pct1(v: float, lo: float, hi: float) -> str:
    """A rate to one decimal, its interval around it (the estimate always inside)."""
    return interval_text(v, lo, hi, 1, pct=True)


def aaa_levels(aaa: pl.DataFrame | None) -> list[str]:
    """The AAA: the player's win rate at the weakest and strongest scoring level."""
    if aaa is None or aaa.height == 0 or "win_rate" not in aaa.columns:
        return []
    rows = aaa.filter(pl.col("win_rate").is_not_null()).sort("opponent")
    if rows.height < 2:
        return []
    lo, hi = rows.row(0, named=True), rows.row(rows.height - 1, named=True)

    def rate(r: dict) -> str:
        return _pct(r["win_rate"], r["win_rate"] - r["win_ci95"], r["win_rate"] + r["win_ci95"])

    return [
        f"Against the AAA the player wins {rate(lo)} of games at level {lo['opponent']} and {rate(hi)} at level "
        f"{hi['opponent']}."
    ]


def endings(ends: pl.DataFrame, varying: list[str]) -> list[str]:
    """How often games end by refusals, where it varies most."""
    if ends.height == 0:
        return []
    ref = ends.filter(pl.col("end_reason").str.contains("refusals"))
    if ref.height == 0:
        return []
    keys = [c for c in ends.columns if c in varying]
    # Games per configuration: every end reason's games together.
    if keys:
        totals = ends.group_by(keys).agg(all_games=pl.col("games").sum())
        agg = ref.group_by(keys).agg(pl.col("share").sum()).join(totals, on=keys, nulls_equal=True)
    else:
        agg = pl.concat(
            [ref.select(pl.col("share").sum()), ends.select(all_games=pl.col("games").sum())],
            how="horizontal",
        )
    top = agg.sort("share", descending=True).row(0, named=True)
    p, n = top["share"], top["all_games"]
    here = [c for c in varying if c != "run"]
    share = _pct(p, *_wilson(p, n))
    if not keys or totals.height == 1:  # one configuration: not 'up to'
        return [f"{share[0].upper()}{share[1:]} of games end by three permit refusals."]
    # The most of several configurations, said as such ('up to 87% ... with 4 players' read as a bound).
    return [
        f"{share[0].upper()}{share[1:]} of games end by three permit refusals{_where(top, here, '')}, the "
        f"most of the {totals.height} configurations."
    ]


def _reference_only(plans: pl.DataFrame, varying: list[str], baseline: dict[str, object]) -> pl.DataFrame:
    """The plan rows of one configuration: the baseline's settings where the runs hold them, the
    first configuration's otherwise (plan sentences for every configuration would bury the rest)."""
    keys = [c for c in varying if c in plans.columns]
    if plans.height == 0 or not keys:
        return plans
    rows = plans
    for c in keys:
        if c in baseline:
            hit = rows.filter(pl.col(c).cast(pl.String).str.to_lowercase() == str(baseline[c]).lower())
            rows = hit if hit.height else rows
    first = rows.row(0, named=True)
    return rows.filter(pl.all_horizontal(*(pl.col(c).eq_missing(first[c]) for c in keys)))


# The rows' column that holds a file of one's own of each kind (custom.KINDS).
KIND_COLUMN = {"plans": "plan_set", "sheet": "sheet", "deck": "deck", "expansion": "expansion"}
MAX_CHANGES = 2  # changes of a variant's file named in its sentence
MAX_CARDS_CHANGED = 2  # changed plan cards whose validation rates are compared


def _scores(variant: dict) -> dict[str, str]:
    """Card id -> '10/5', each card's first and later scores in the variant's file (none if it
    cannot be read)."""
    from welcome_sim.errors import WelcomeSimError

    try:
        if variant.get("kind") == "expansion":
            from welcome_sim.simcore.rules.expansions import load_expansion

            cards = load_expansion(str(variant["path"])).plans.plans
        else:
            from welcome_sim.simcore.ground.datafiles import load_plans

            cards = load_plans(str(variant["path"])).plans
    except (WelcomeSimError, OSError, ValueError):
        return {}
    return {c.id: f"{c.first}/{c.later}" for c in cards}


def _card_rate(plans: pl.DataFrame, column: str, label: str, plan: str) -> dict | None:
    hit = plans.filter((pl.col(column).cast(pl.String) == label) & (pl.col("plan") == plan))
    return hit.row(0, named=True) if hit.height else None


def what_if(
    tables: dict[str, pl.DataFrame], variants: list[dict], baseline: dict[str, object]
) -> list[tuple[str, str]]:
    """A designer's variant against the built-in it was copied from: what changed in the file (its
    own title names it), the score effect, and each changed plan card's validation rate on both
    sides: "Your file “Mine” (1 change from the plan cards collector_standard: plan A-1 first: 8 ->
    10): players score 0.7 [0.2, 1.2] points more than with the plan cards collector_standard; A-1
    (5 estates of size 1, 10/5): validated 10.5% [..] against 4.5% [..] with the built-in card."
    Returns (the variant's label, its sentence) pairs."""
    plans = tables.get("plan_difficulty")
    out = []
    for v in variants:
        column = KIND_COLUMN.get(str(v.get("kind")))
        effect = tables.get(f"effect_{column}") if column else None
        if v.get("status") != "compared" or effect is None or not v.get("based_on"):
            continue
        base, label = str(v["based_on"]), str(v["label"])
        rows = effect.filter((pl.col("a") == base) & (pl.col("b") == label))
        if rows.height == 0:
            continue  # the built-in it was copied from is not in these runs
        row = at_baseline(rows, [c for c in OWN_FILE_COLUMNS if c != column], baseline).row(0, named=True)
        changes = [d["text"] for d in v.get("differences", [])]
        listed = "; ".join(changes[:MAX_CHANGES]) + (
            f"; {len(changes) - MAX_CHANGES} more" if len(changes) > MAX_CHANGES else ""
        )
        name, built_in = value_words(column, label), value_words(column, base)
        text = (
            f"{name[0].upper()}{name[1:]} "
            f"({len(changes)} change{'s' if len(changes) != 1 else ''} from {built_in}"
            + (f": {listed}" if changes else "")
            + f"): {_said(row, built_in)} ({_how(row)})"
        )
        cards = sorted(
            {d["key"].split()[1] for d in v.get("differences", []) if d["key"].startswith("plan ")}
        )
        if cards and plans is not None and plans.height and column in plans.columns:
            scores = _scores(v)
            for card in cards[:MAX_CARDS_CHANGED]:
                mine, theirs = _card_rate(plans, column, label, card), _card_rate(plans, column, base, card)
                if mine is None or theirs is None:
                    continue
                what = ", ".join(x for x in (mine.get("requirement") or "", scores.get(card, "")) if x)
                text += (
                    f"; {card} in your file{f' ({what})' if what else ''}: validated "
                    f"{_pct1(mine['validation_rate'], mine['ci_low'], mine['ci_high'])} against "
                    f"{_pct1(theirs['validation_rate'], theirs['ci_low'], theirs['ci_high'])} with the built-in card"
                    f", {mine['mean_points'] - theirs['mean_points']:+.2f} points a player from it"
                )
        out.append((label, text + "."))
    return out


def findings(
    tables: dict[str, pl.DataFrame],
    by: list[str],
    difficulty_sentences: list[str] | None = None,
    baseline: dict[str, object] | None = None,
    variants: list[dict] | None = None,
) -> list[str]:
    """Every finding, in the report's order; `variants`: custom.custom_differences entries of the
    runs' files of one's own, said first (the what-if a designer swept them for)."""
    from welcome_sim.analysis.tables import BASELINE

    baseline = {**BASELINE, **(baseline or {})}
    scores = tables.get("scores")
    varying = [c for c in by if scores is not None and c in scores.columns and scores[c].n_unique() > 1]
    # The biggest facts first (how scores spread, cards almost never or always met), then what
    # compares; at most MAX_FINDINGS in all.
    variant_sentences = what_if(tables, variants or [], baseline)
    out = [text for _, text in variant_sentences]
    out += score_spread(scores, varying, baseline)
    out += plan_outliers(tables.get("plan_difficulty"), by, varying)
    out += list(difficulty_sentences or [])
    out += score_effects(tables, varying, baseline, frozenset(label for label, _ in variant_sentences))
    out += expansion_points(tables, varying, baseline)
    out += plan_extremes(
        _reference_only(tables.get("plan_difficulty", pl.DataFrame()), varying, baseline), by, varying
    )
    out += aaa_levels(tables.get("aaa"))
    out += endings(tables.get("end_reasons", pl.DataFrame()), varying)
    return out[:MAX_FINDINGS]
