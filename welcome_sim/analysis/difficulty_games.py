"""The games behind `welcome-sim difficulty`: every sheet, expansion, mode and the 9¾ cards played
by two ladder levels on common deals, beside their base games, as per-deal measures.

The list of items is read from the registries (built-in sheets, expansion names, modes), so an
expansion that lands joins the ranking with no change here; its stars come from its data file's
`publisher_stars` key.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import polars as pl

from welcome_sim.analysis.difficulty import Item, expansion_rating, lone_race, replaces_scoring
from welcome_sim.analysis.labels import sheet_title
from welcome_sim.simcore.engine.game import game_seeds, simulate
from welcome_sim.simcore.rules.ruleset import MODES, Ruleset
from welcome_sim.simcore.rules.rulespec import RulesetSpec

SOLO_LEVEL = "3"  # the AAA Opponent card of the solo modes' items (a middle level of 0-5)


@dataclass(frozen=True)
class Spec:
    """One configuration to play: what its RulesetSpec takes (rules()), and the seats."""

    label: str
    players: int
    sheet: str | None = None
    mode: str = "standard"
    expansion: str | None = None
    nine: bool = False
    opponent: str | None = None
    overrides: tuple = ()  # a --vary value (overrides.Override): a variant of the item it is about

    def rules(self, edition: str) -> RulesetSpec:
        """The configuration's ruleset spec in an edition (its own plan set and deck)."""
        return RulesetSpec(
            edition,
            self.sheet,
            None,
            self.mode,
            self.opponent,
            self.expansion,
            self.nine,
            None,
            self.overrides,
        )

    def ruleset(self, edition: str) -> Ruleset:
        """The configuration's ruleset, loaded once (plan, play and the notices all ask for it)."""
        return _ruleset(self, edition)


@functools.lru_cache(maxsize=64)
def _ruleset(spec: Spec, edition: str) -> Ruleset:
    return spec.rules(edition).load()


def _players_for(mode: str, players: int) -> int:
    """The asked player count, or the nearest one the mode allows (solo: 1; expert: 2 or more)."""
    if mode.startswith("solo"):
        return 1
    if mode.startswith("expert"):
        return max(2, players)
    return players


def base_label(players: int) -> str:
    """The base game's label at a player count."""
    return f"base game, {players} player{'s' if players > 1 else ''}"


def plan(edition: str, players: int) -> tuple[list[Spec], list[Item]]:
    """Every item (sheets, expansions, the 9¾ cards, modes) with its base game's spec."""
    from welcome_sim.simcore.ground.datafiles import _read, _resolve, available, load_edition, load_sheet
    from welcome_sim.simcore.rules.expansions import load_expansion
    from welcome_sim.simcore.rules.expansions.codes import EXPANSION_NAMES

    ed = load_edition(edition)
    specs: dict[str, Spec] = {}
    items: list[Item] = []

    def add(spec: Spec, stars: int | None = None, note: str = "") -> None:
        base = Spec(base_label(spec.players), spec.players)
        specs.setdefault(base.label, base)
        specs[spec.label] = spec
        # Marked only for reconstructed data the item adds to its base game's.
        added = set(spec.ruleset(edition).reconstructed) - set(base.ruleset(edition).reconstructed)
        race = lone_race(spec.expansion, spec.players, spec.mode)
        own = bool(spec.expansion) and replaces_scoring(str(spec.expansion))
        items.append(Item(spec.label, base.label, stars, note, bool(added), race, own, not spec.expansion))

    suffix = f", {players} player{'s' if players > 1 else ''}"
    for sheet in available("sheets"):
        # An expansion's own sheet (the American Dream's) is ranked as that expansion.
        if sheet != ed.default_sheet and not load_sheet(sheet).expansion:
            add(Spec(f"{sheet_title(sheet)} sheet{suffix}", players, sheet=sheet))
    for name in EXPANSION_NAMES:
        x = load_expansion(name, ed.expansion_section)
        stars, note = expansion_rating(name)
        add(Spec(f"{x.title}{suffix}", players, expansion=name), stars, note)
    cards = _read(_resolve("cards", "nine_three_quarters"))
    add(Spec(f"9¾ cards{suffix}", players, nine=True), None, cards.data.get("publisher_rating", ""))
    for mode in MODES:
        if mode == "standard":
            continue
        n = _players_for(mode, players)
        # The AAA plays only the Collector's solo mode; the first edition's solo variant has none.
        opp = SOLO_LEVEL if mode.startswith("solo") and ed.solo == "aaa" else None
        what = f"{mode} mode" + (f" (AAA level {opp})" if opp else "")
        add(Spec(f"{what}, {n} player{'s' if n > 1 else ''}", n, mode=mode, opponent=opp))
    return list(specs.values()), items


def with_variants(
    specs: list[Spec], items: list[Item], axes: list[tuple], edition: str, players: int
) -> tuple[list[Spec], list[Item]]:
    """`difficulty --vary`: each value an item of its own, ranked beside the item its path is about
    against the same base game: an expansion's value beside that expansion, an AAA Opponent card's
    beside the solo modes, a plan's, sheet's or deck's beside the base game itself (each value
    alone: values of two paths are not combined). Variants carry no publisher's stars."""
    by_label = {s.label: s for s in specs}
    out_specs, out_items = list(specs), list(items)
    for o in (o for axis in axes for o in axis):
        about = [it for it in items if _about(by_label[it.label], o)]
        if o.part in ("sheet", "deck", "plans"):
            about = [Item(base_label(players), base_label(players))]
        if not about:
            raise o.fail(f"no item of the ranking plays that file (edition {edition})")
        for it in about:
            spec = dataclasses.replace(by_label[it.label], label=f"{it.label} [{o.label}]", overrides=(o,))
            spec.ruleset(edition)  # loaded (and checked) now: a bad value stops before any game
            out_specs.append(spec)
            out_items.append(dataclasses.replace(it, label=spec.label, stars=None, note=""))
    return out_specs, out_items


def _about(spec: Spec, o) -> bool:
    """Whether a --vary value is about an item: its expansion, or its AAA Opponent card."""
    if o.part == "expansion":
        return spec.expansion == o.target and not spec.nine and spec.mode == "standard"
    return o.part == "opponents" and spec.opponent is not None


def play(
    specs: list[Spec],
    levels: list[str],
    edition: str,
    games: int,
    seed: int,
    jobs: int = 1,
    advance: Callable[[int], None] | None = None,
) -> pl.DataFrame:
    """Each spec at each level on the same deals: per (item, level, deal) means over seats, the
    frame difficulty.rank() reads."""
    from welcome_sim.analysis.difficulty import per_deal
    from welcome_sim.simcore.engine.parallel import simulate_parallel

    seeds = game_seeds(seed, games)
    parts = []
    for spec in specs:
        rs = spec.ruleset(edition)
        for level in levels:
            strategies = [level] * spec.players
            simulate(rs, seeds[:1], spec.players, strategies)  # compile or load the cache first
            res = simulate_parallel(rs, seeds, spec.players, strategies, jobs, 250, advance)
            parts.append(_rows(spec.label, level, res))
    # Rows shaped like a sweep's, so that the command's measures and a sweep's report come from
    # one function.
    return per_deal(pl.concat(parts))


def _rows(item: str, level: str, res) -> pl.DataFrame:
    """A batch's games as the sweep-shaped rows difficulty.per_deal reads: a row per player and game
    (game-major, then seat), labelled by item and level."""
    from welcome_sim.sweep.rows import end_reason_names

    games, players = res.out.shape[0], res.out.shape[1]

    def seat(name: str) -> np.ndarray:
        return res.column(name).reshape(-1).astype(np.int64)

    def per_game(a: object) -> np.ndarray:
        return np.repeat(np.asarray(a), players)

    return pl.DataFrame(
        {
            "item": [item] * (games * players),
            "level": [level] * (games * players),
            "seed": per_game(res.seeds),
            "expansion": [res.ruleset.expansion_label] * (games * players),
            "total": seat("total"),
            "expansion_points": seat("expansion_points"),
            "rounds": per_game(res.game_column("rounds")).astype(np.int64),
            "refusals": seat("refusals"),
            **{f"plan_{s}_round": seat(f"plan_{s}_round") for s in "abc"},
            "end_reason": per_game(end_reason_names(res.game_column("end_reason"))),
        }
    )
