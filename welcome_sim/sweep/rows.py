"""Kernel results as rows: one per player per game, every configuration value and score component."""

from __future__ import annotations

import numpy as np
import polars as pl

from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.game import BatchResult
from welcome_sim.simcore.layout import END_NAMES, GAME_COLUMNS, OUT_COLUMNS
from welcome_sim.sweep.config import Cell

# Hive partition columns: in the directory names, not inside the files.
PARTITIONS = ("edition", "sheet", "mode", "players")

_FLAGS = {"plan_a_first", "plan_b_first", "plan_c_first"}
# Int8: ranks (at most 8 players), rounds (at most 60 houses + 20 refusals + 1), refusals; every
# other count and score is Int32 (scores reach past Int16 with track values up to 999).
_SMALL = {"rank", "plan_a_round", "plan_b_round", "plan_c_round", "refusals"}


def end_reason_names(bits: np.ndarray) -> list[str]:
    """End-reason bits -> 'refusals', 'plans+full', ..."""
    table = {}
    for b in np.unique(bits):
        table[int(b)] = "+".join(name for bit, name in END_NAMES.items() if int(b) & bit) or "none"
    return [table[int(b)] for b in bits]


def fit(values: np.ndarray, dtype: type, name: str, seeds: np.ndarray) -> pl.Series:
    """values cast to dtype, or a WelcomeSimError naming the column, the value and the game's seed
    when one does not fit (a cast would wrap it silently: a pool track of 40,000 stored -25,424)."""
    info = np.iinfo(dtype)
    if values.size and (values.min() < info.min or values.max() > info.max):
        k = int(np.argmax((values < info.min) | (values > info.max)))
        raise WelcomeSimError(
            f"column '{name}': value {int(values[k])} of the game of seed {int(seeds[k])} does not fit "
            f"its type ({np.dtype(dtype).name}, {info.min} to {info.max}); check the data files' values"
        )
    return pl.Series(values.astype(dtype))


def chunk_frame(res: BatchResult, cell: Cell, first_game: int) -> pl.DataFrame:
    """Rows of one chunk of a cell's games (game-major, then seat)."""
    n, players = res.out.shape[0], res.out.shape[1]
    rep = np.repeat(np.arange(n), players)
    plan_ids = np.array([p.id for p in res.ruleset.plans.plans])
    cols: dict[str, pl.Series] = {
        "cell": pl.Series(np.full(n * players, cell.index, dtype=np.int32)),
        "game": pl.Series((first_game + rep).astype(np.int64)),
        "seed": pl.Series(res.seeds[rep]),
        "seat": pl.Series(np.tile(np.arange(players, dtype=np.int8), n)),
        "strategy": pl.Series(np.tile(np.array(cell.seats()), n)),
        "table": pl.Series([cell.table] * (n * players)),
        "plans_mode": pl.Series([cell.plans if cell.plans in ("random", "all") else "fixed"] * (n * players)),
    }
    for slot, letter in enumerate("abc"):
        cols[f"plan_{letter}_id"] = pl.Series(plan_ids[res.games[rep, 2 + slot]])
    opp = res.ruleset.opponent
    cols["opponent"] = pl.Series([opp.level if opp else None] * (n * players), dtype=pl.Int8)
    cols["opponent_name"] = pl.Series([opp.name if opp else None] * (n * players), dtype=pl.String)
    x = res.ruleset.expansion
    cols["expansion"] = pl.Series([x.name if x else "none"] * (n * players), dtype=pl.String)
    cols["nine_three_quarters"] = pl.Series([res.ruleset.nine] * (n * players), dtype=pl.Boolean)
    row_seeds = res.seeds[rep]
    cols["rounds"] = fit(res.games[rep, 0], np.int16, "rounds", row_seeds)
    cols["end_reason"] = pl.Series(end_reason_names(res.games[:, 1]), dtype=pl.String).gather(rep)
    flat = res.out.reshape(n * players, -1)
    for k, name in enumerate(OUT_COLUMNS):
        values = flat[:, k]
        if name in _FLAGS:
            cols[name] = pl.Series(values.astype(bool))
        elif name in _SMALL:
            cols[name] = fit(values, np.int8, name, row_seeds)
        else:
            cols[name] = fit(values, np.int32, name, row_seeds)
    cols["won"] = pl.Series(flat[:, OUT_COLUMNS.index("rank")] == 1)
    for k, name in enumerate(GAME_COLUMNS):
        if name.startswith("aaa_") or name == "special_round":
            cols[name] = fit(res.games[rep, k], np.int32, name, row_seeds)
    return pl.DataFrame(cols)


SCHEMA_DOC = {
    "edition": "ruleset: collector or first (partition)",
    "sheet": "sheet name (partition); a sheet file of one's own: its name and 8 hex digits of its sha256",
    "mode": "game mode: standard, advanced, expert, expert-advanced, solo, solo-advanced (partition)",
    "opponent, opponent_name": "AAA solo mode: the Opponent card's level and name (null otherwise)",
    "expansion": "expansion sheet: none, easter, icecream, christmas",
    "nine_three_quarters": "true when the three 9¾ cards were in the deck",
    "expansion_points": "points from the expansion's own scoring (eggs, cones and bonus, strings), in the total",
    "eggs, cones, delivery_bonus, lights": "Easter eggs collected; Ice Cream cones circled and bonus points; Christmas houses on each street's longest string, summed",
    "players": "players at the table (partition)",
    "cell": "index of the grid cell (manifest.json lists each cell's settings)",
    "game": "game index within the cell; the same index has the same seed in every cell",
    "seed": "the game's uint64 seed: SeedSequence(sweep seed, spawn_key=(game,))",
    "seat": "seat 0..players-1",
    "strategy": "this seat's strategy (name[:key=value,...])",
    "table": "strategies of the table, '+'-joined",
    "plans_mode": "random, all (every A x B x C combination in turn) or fixed",
    "plan_a_id, plan_b_id, plan_c_id": "plans in play",
    "rounds": "rounds played",
    "end_reason": "what ended the game: plans, refusals, full, deck (first-edition solo), joined with + when several",
    "total": "final score",
    "plan_a, plan_b, plan_c": "points scored per plan",
    "parks, pools, temps, estates": "score components",
    "estate_1 .. estate_6": "estate points per estate size",
    "extension_penalty, refusal_penalty": "penalties (subtracted)",
    "n_estates, n_estate_1 .. n_estate_6": "complete estates (that score), in all and per size",
    "plan_a_round, plan_b_round, plan_c_round": "round the plan was validated, 0 if never",
    "plan_a_first, plan_b_first, plan_c_first": "the plan scored its first (higher) value",
    "refusals": "permit refusals crossed",
    "n_temps, n_extensions, n_parks, n_pools, n_improvements, n_fences, n_numbered": "boxes crossed, houses numbered",
    "rank": "1 = first; tied players share a rank",
    "won": "rank == 1 (AAA solo mode: the player beat the AAA; always true at level 0)",
    "roundabout_penalty, n_roundabouts": "Advanced mode: roundabouts built and their penalty (subtracted)",
    "aaa_total, aaa_plans, aaa_parks, aaa_pools, aaa_temps, aaa_fences, aaa_estates": "AAA solo mode: the AAA's score card (0 otherwise)",
    "aaa_n_estates, aaa_cards": "AAA solo mode: the AAA's estates (all count as complete) and cards given to it",
    "special_round": "round the first edition's solo card (or the AAA's last validation card) came up; 0 if none",
}
