"""Kernel results as rows: one per player per game, every configuration value and score component."""

from __future__ import annotations

import numpy as np
import polars as pl

from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.engine.game import BatchResult
from welcome_sim.simcore.ground.layout import END_NAMES, GAME_COLUMNS
from welcome_sim.simcore.rules.expansions.registry import NAMES as EXPANSION_NAMES
from welcome_sim.simcore.rules.expansions.registry import OUT_COLUMNS, RECORDS
from welcome_sim.sweep.config import Cell

# Hive partition columns: in the directory names, not inside the files.
PARTITIONS = ("edition", "sheet", "mode", "players")
# The columns that name a row's configuration (a cell of the grid), in the order tables list them.
CONFIG: list[str] = [
    "run",
    "edition",
    "sheet",
    "deck",
    "plan_set",
    "expansion",
    "nine_three_quarters",
    "mode",
    "players",
    "opponent",
    "table",
    "plans_mode",
    "vary",  # only in a sweep with --vary: the cell's varied values, 'path=value; ...'
]

_FLAGS = {"plan_a_first", "plan_b_first", "plan_c_first"}
# Int8: ranks (at most 8 players), rounds (at most 60 houses + 20 refusals + 1), refusals; every
# other count and score is Int32 (scores reach past Int16 with track values up to 999).
_SMALL = {"rank", "plan_a_round", "plan_b_round", "plan_c_round", "refusals"}


def _end_name(bits: int) -> str:
    """'refusals', 'plans+full', ... for one end-reason bit set ('none' for none)."""
    return "+".join(name for bit, name in END_NAMES.items() if bits & bit) or "none"


def end_reason_names(bits: np.ndarray) -> list[str]:
    """End-reason bits -> 'refusals', 'plans+full', ..."""
    table = {int(b): _end_name(int(b)) for b in np.unique(bits)}
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


def _out_dtype(name: str) -> type:
    """The stored type of a per-player kernel column."""
    return bool if name in _FLAGS else np.int8 if name in _SMALL else np.int32


# The kernel columns by stored type (column positions), the game-table columns stored as Int32,
# and each checked column's bounds: the range checks and casts run once over all columns of a
# type, not once per column (per-column calls were most of a chunk's row-building time).
_OUT_TYPES = {
    t: [k for k, c in enumerate(OUT_COLUMNS) if _out_dtype(c) is t] for t in (bool, np.int8, np.int32)
}
_GAME_INT32 = [k for k, c in enumerate(GAME_COLUMNS) if c.startswith("aaa_") or c == "special_round"]
_ROUNDS = GAME_COLUMNS.index("rounds")
_OUT_LO = np.array(
    [np.iinfo(np.int64).min if t is bool else np.iinfo(t).min for t in map(_out_dtype, OUT_COLUMNS)]
)
_OUT_HI = np.array(
    [np.iinfo(np.int64).max if t is bool else np.iinfo(t).max for t in map(_out_dtype, OUT_COLUMNS)]
)
_GAME_LO = np.full(len(GAME_COLUMNS), np.iinfo(np.int64).min)
_GAME_HI = np.full(len(GAME_COLUMNS), np.iinfo(np.int64).max)
_GAME_LO[_GAME_INT32], _GAME_HI[_GAME_INT32] = np.iinfo(np.int32).min, np.iinfo(np.int32).max
_GAME_LO[_ROUNDS], _GAME_HI[_ROUNDS] = np.iinfo(np.int16).min, np.iinfo(np.int16).max


def _check_fits(flat: np.ndarray, games: np.ndarray, row_seeds: np.ndarray) -> None:
    """Raise fit()'s error for the first column (in row order) holding a value its type cannot
    hold; one min/max pass over each table finds whether any does."""
    if not flat.size:
        return
    ok_out = (flat.min(axis=0) >= _OUT_LO) & (flat.max(axis=0) <= _OUT_HI)
    ok_games = (games.min(axis=0) >= _GAME_LO) & (games.max(axis=0) <= _GAME_HI)
    if ok_out.all() and ok_games.all():
        return
    fit(games[:, _ROUNDS], np.int16, "rounds", row_seeds)
    for k, name in enumerate(OUT_COLUMNS):
        if not ok_out[k]:
            fit(flat[:, k], _out_dtype(name), name, row_seeds)
    for k in _GAME_INT32:
        fit(games[:, k], np.int32, GAME_COLUMNS[k], row_seeds)


def _typed(names: tuple[str, ...], table: np.ndarray, cols: list[int], dtype: type) -> dict[str, np.ndarray]:
    """Columns cols of a (rows, columns) table cast to dtype in one copy, by name; each is a
    contiguous row of the transposed copy, which Polars takes without another gather."""
    block = table[:, cols].T.astype(dtype)
    return {names[k]: block[j] for j, k in enumerate(cols)}


def chunk_frame(
    res: BatchResult,
    cell: Cell,
    first_game: int,
    deck: str | None = None,
    plan_set: str | None = None,
    expansion: str | None = None,
) -> pl.DataFrame:
    """Rows of one chunk of a cell's games (game-major, then seat); `deck`, `plan_set` and
    `expansion` are the labels of the files in use (default: the ruleset's, hashed here)."""
    n, players = res.out.shape[0], res.out.shape[1]
    rows = n * players
    rep = np.repeat(np.arange(n), players)
    games = res.games[rep]
    row_seeds = res.seeds[rep]
    flat = res.out.reshape(rows, -1)
    _check_fits(flat, games, row_seeds)

    def same(value: object, dtype: pl.DataType) -> pl.Series:
        # One value on every row, repeated by Polars directly (a list of `rows` references, or
        # pl.repeat's lazy query, cost several times as much).
        return pl.Series([value], dtype=dtype).new_from_index(0, rows)

    # Strings by index into the few distinct values: no per-row Python or NumPy string objects
    # (indexing a Series with an index array costs less than Series.gather).
    plan_ids = pl.Series([p.id for p in res.ruleset.plans.plans], dtype=pl.String)
    codes, which = np.unique(res.games[:, 1], return_inverse=True)
    ends = pl.Series([_end_name(int(c)) for c in codes], dtype=pl.String)
    opp = res.ruleset.opponent
    cols: dict[str, pl.Series | np.ndarray] = {
        "cell": np.full(rows, cell.index, dtype=np.int32),
        "game": (first_game + rep).astype(np.int64),
        "seed": row_seeds,
        "seat": np.tile(np.arange(players, dtype=np.int8), n),
        "strategy": pl.Series(cell.seats(), dtype=pl.String)[np.tile(np.arange(players), n)],
        "table": same(cell.table, pl.String),
        "plans_mode": same(cell.plans if cell.plans in ("random", "all") else "fixed", pl.String),
    }
    for slot, letter in enumerate("abc"):
        cols[f"plan_{letter}_id"] = plan_ids[games[:, 2 + slot]]
    cols["opponent"] = same(opp.level if opp else None, pl.Int8)
    cols["opponent_name"] = same(opp.name if opp else None, pl.String)
    cols["expansion"] = same(res.ruleset.expansion_label if expansion is None else expansion, pl.String)
    cols["nine_three_quarters"] = same(res.ruleset.nine, pl.Boolean)
    cols["deck"] = same(res.ruleset.deck_label if deck is None else deck, pl.String)
    cols["plan_set"] = same(res.ruleset.plans_label if plan_set is None else plan_set, pl.String)
    if cell.vary:  # a column only where values are varied: other sweeps' rows keep their schema
        cols["vary"] = same(cell.vary_label, pl.String)
    cols["rounds"] = games[:, _ROUNDS].astype(np.int16)
    cols["end_reason"] = ends[which[rep]]
    by_type = {t: _typed(OUT_COLUMNS, flat, ks, t) for t, ks in _OUT_TYPES.items()}
    for name in OUT_COLUMNS:
        cols[name] = by_type[_out_dtype(name)][name]
    cols["won"] = flat[:, OUT_COLUMNS.index("rank")] == 1
    cols.update(_typed(GAME_COLUMNS, games, _GAME_INT32, np.int32))
    return pl.DataFrame(
        [v.alias(name) if isinstance(v, pl.Series) else pl.Series(name, v) for name, v in cols.items()]
    )


SCHEMA_DOC = {
    "edition": "ruleset: collector or first (partition)",
    "sheet": "sheet name (partition); a sheet file of one's own: its name and 8 hex digits of its sha256",
    "mode": "game mode: standard, advanced, expert, expert-advanced, solo, solo-advanced (partition)",
    "opponent, opponent_name": "AAA solo mode: the Opponent card's level and name (null otherwise)",
    "expansion": "expansion sheet: none, "
    + ", ".join(EXPANSION_NAMES)
    + ", or a copy of an expansion's file (--expansion PATH): its name and 8 hex digits of its sha256",
    "nine_three_quarters": "true when the three 9¾ cards were in the deck",
    "vary": "a sweep with --vary only: the cell's varied values, 'path=value' joined by '; ' (e.g. 'plans.A-1.scores=6/3'); the files named keep their own label, and the value replaces the file's",
    "deck": "construction deck: the edition's (collector, first) or a deck file of one's own (--deck): its name and 8 hex digits of its sha256",
    "plan_set": "standard plan cards: the edition's (collector_standard, first_standard) or a plan file of one's own (--plans-file): its name and 8 hex digits of its sha256",
    "expansion_points": "points from the expansion's own scoring (eggs, cones and bonus, strings, Doomsday's bonuses, Roswell's infiltration objective, Halloween's Candy level), in the total",
    # Each expansion's result columns, as its record describes them.
    **{", ".join(r.columns): r.columns_doc for r in RECORDS},
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
    "end_reason": "what ended the game: plans, refusals, full, deck (first-edition solo; Zombie expert deck the third time), first-stack (Zombie Outbreak), joined with + when several",
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
    "aaa_expansion": "AAA solo mode with an expansion: the AAA's points from the expansion (in aaa_total; 0 otherwise)",
    "special_round": "round the first edition's solo card (or the AAA's last validation card) came up; 0 if none",
}
