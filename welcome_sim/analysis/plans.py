"""Plan ids of sweep rows resolved to their cards: requirement text and provenance per configuration.

Sweeps store plan ids only, and an id means different cards in different configurations (a
Collector's "C-1" is replaced by an expansion's Plan C, the first edition numbers its own), so an
id is looked up in the plan cards of its row's edition, mode and expansion, loaded as a game of
that configuration would load them. An id those cards do not hold is shown as unknown, never guessed.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from pathlib import Path

import polars as pl

from welcome_sim.errors import WelcomeSimError
from welcome_sim.plantext import UNKNOWN, plan_text, requirement, unknown_text
from welcome_sim.simcore.ground.datafiles import Plan

# Row columns that decide which plan cards a game used, and their value when a dataset lacks one
# (plan_set "": the edition's own standard plans).
CONTEXT = {"edition": "collector", "mode": "standard", "expansion": "none", "plan_set": ""}


@functools.cache
def plan_cards(
    edition: str,
    mode: str = "standard",
    expansion: str = "none",
    plan_set: str = "",
    files: tuple[tuple[str, str], ...] = (),
) -> dict[str, Plan]:
    """The plan cards of one configuration by id ({} if the configuration no longer loads). A plan
    set or expansion copy of one's own is read from its file when `files` (label, path: see
    own_files) names it; otherwise rows keep only its label, and a built-in card of the same id may
    ask for something else: an own plan set gives {}, and of an expansion copy's configuration the
    cards that copy brings are left out and the others kept."""
    from welcome_sim.simcore.ground.datafiles import available, is_builtin_label, label_name, load_edition
    from welcome_sim.simcore.rules.expansions import load_expansion
    from welcome_sim.simcore.rules.ruleset import data_label
    from welcome_sim.simcore.rules.rulespec import RulesetSpec

    own = dict(files)
    if expansion != "none" and not is_builtin_label(expansion) and expansion not in own:
        rules = label_name(expansion)
        if plan_set == expansion:  # the copy's own cards replace every plan set (American Dream)
            return {}
        try:
            section = load_edition(edition).expansion_section
            # The expansion's cards replace the cards of their letters (Plan C; n°3 on a first
            # edition's board): every card of those letters may be the copy's own.
            letters = {p.letter for p in load_expansion(rules, section).plans.plans}
        except WelcomeSimError:
            return {}
        cards = plan_cards(edition, mode, rules, plan_set, files)
        return {k: v for k, v in cards.items() if v.letter not in letters}

    # An expansion whose own cards replace every plan set (American Dream) labels its rows' plan set
    # with its own name: its cards come with the expansion.
    cards_of_x = expansion != "none" and plan_set == expansion
    if plan_set and not cards_of_x and plan_set not in available("plans") and plan_set not in own:
        return {}
    try:
        rs = RulesetSpec(
            edition,
            plans=None if cards_of_x else (own.get(plan_set, plan_set) or None),
            mode=mode,
            expansion=None if expansion == "none" else own.get(expansion, expansion),
        ).load()
    except WelcomeSimError:
        return {}
    # A file of one's own read here must still be the one the rows were played with.
    if (plan_set in own and not cards_of_x and rs.plans_label != plan_set) or (
        expansion in own and data_label(rs.expansion) != expansion
    ):
        return {}
    return {p.id: p for p in rs.plans.plans}


def own_files(manifests: Iterable[dict]) -> tuple[tuple[str, str], ...]:
    """(label, path) of every plan set and expansion file of one's own that the sweeps' manifests
    record and that still holds the bytes they played (same sha256): plan_cards reads their cards
    from them. A file changed or gone since is left out, so its cards stay unknown."""
    from welcome_sim.analysis.custom import unchanged_own_files

    return tuple(sorted(unchanged_own_files(manifests, ("plans", "expansion")).items()))


def card_provenance(plan: Plan) -> str:
    """'published', 'reconstructed', or 'reconstructed, invented' for a card made up to fill a set."""
    return plan.provenance + (", invented" if plan.invented else "")


def context_defaults(lf: pl.LazyFrame, present: list[str]) -> dict[str, str | None]:
    """For each context column a table lacks: the dataset's single value, the default if the
    dataset has no such column, or None (several values: its plans cannot be told apart)."""
    cols = lf.collect_schema().names()
    out: dict[str, str | None] = {}
    for key, default in CONTEXT.items():
        if key in present:
            continue
        if key not in cols:
            out[key] = default
        else:
            values = lf.select(pl.col(key).unique()).collect()[key].to_list()
            out[key] = str(values[0]) if len(values) == 1 and values[0] is not None else None
    return out


def _cards_of(
    row: dict, defaults: dict[str, str | None], files: tuple[tuple[str, str], ...]
) -> dict[str, Plan]:
    ctx = [row[k] if k in row else defaults.get(k) for k in CONTEXT]
    if any(v is None for v in ctx):
        return {}
    return plan_cards(*(str(v) for v in ctx), files)


def with_plan_text(
    df: pl.DataFrame, lf: pl.LazyFrame, files: tuple[tuple[str, str], ...] = ()
) -> pl.DataFrame:
    """Plan tables with requirement texts: a `plan` column gets `requirement` and `provenance`
    beside it; plan_a_id, plan_b_id, plan_c_id get one `requirements` column ('A-2: ... | ...').
    `files` (own_files) lets the cards of one's own plan sets and expansion copies be described."""
    if df.height == 0:
        return df
    defaults = context_defaults(lf, df.columns)
    rows = df.iter_rows(named=True)
    if "plan" in df.columns:
        req, prov = [], []
        for row in rows:
            card = _cards_of(row, defaults, files).get(row["plan"])
            req.append(requirement(card) if card else UNKNOWN)
            prov.append(card_provenance(card) if card else "")
        at = df.columns.index("plan") + 1
        return df.insert_column(at, pl.Series("requirement", req)).insert_column(
            at + 1, pl.Series("provenance", prov)
        )
    ids = [c for c in ("plan_a_id", "plan_b_id", "plan_c_id") if c in df.columns]
    if not ids:
        return df
    texts = []
    for row in rows:
        cards = _cards_of(row, defaults, files)
        texts.append(
            " | ".join(plan_text(cards[row[c]]) if row[c] in cards else unknown_text(row[c]) for c in ids)
        )
    return df.insert_column(df.columns.index(ids[-1]) + 1, pl.Series("requirements", texts))


def changed_plan_files(manifest: dict) -> list[str]:
    """Plan and expansion files a sweep used that differ from (or are missing among) today's files:
    plan texts come from today's files, so they may not describe that sweep's cards."""
    from welcome_sim.analysis.custom import is_shipped
    from welcome_sim.simcore.ground.datafiles import DATA_DIR
    from welcome_sim.sweep.store import file_digest

    out = []
    for f in manifest.get("data_files", []):
        if f.get("kind") not in ("plans", "expansion"):
            continue
        shown = str(f.get("path", ""))
        # As own_files reads them: a file of one's own in a folder named data/ is not a shipped one.
        path = DATA_DIR / shown.removeprefix("data/") if is_shipped(shown) else Path(shown)
        if not path.is_file() or file_digest(str(path)) != f.get("sha256"):
            out.append(shown)
    return out
