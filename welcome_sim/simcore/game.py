"""Python entry points to the kernel: seeds, validated options, and batch results as arrays."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.kernel import log_capacity, play_batch
from welcome_sim.simcore.layout import (
    CHECK_NAMES,
    G_CHECK,
    G_END,
    G_LEN,
    G_ROUNDS,
    GAME_COLUMNS,
    LOG_LEN,
    OUT_COLUMNS,
    OUT_LEN,
)
from welcome_sim.simcore.ruleset import Ruleset

MIN_PLAYERS, MAX_PLAYERS = 1, 8


@dataclass
class BatchResult:
    """Results of a batch: out[game, player, column], games[game, column], optional log rows."""

    ruleset: Ruleset
    seeds: np.ndarray
    strategies: tuple[str, ...]
    out: np.ndarray
    games: np.ndarray
    log: np.ndarray | None

    def column(self, name: str) -> np.ndarray:
        """A per-player column by name, shape (games, players)."""
        return self.out[:, :, OUT_COLUMNS.index(name)]

    def game_column(self, name: str) -> np.ndarray:
        """A per-game column by name, shape (games,)."""
        return self.games[:, GAME_COLUMNS.index(name)]

    def plan_ids(self, g: int) -> list[str]:
        """Ids of the three plans in play in game g."""
        return [self.ruleset.plans.plans[int(k)].id for k in self.games[g, 2:5]]


def game_seeds(seed: int, count: int, start: int = 0) -> np.ndarray:
    """Per-game uint64 seeds: SeedSequence(seed) spawned child keyed by the game index."""
    if seed < 0:
        raise WelcomeSimError(f"--seed: must be a non-negative integer, got {seed}")
    out = np.empty(count, dtype=np.uint64)
    for i in range(count):
        ss = np.random.SeedSequence(seed, spawn_key=(start + i,))
        out[i] = ss.generate_state(1, dtype=np.uint64)[0]
    return out


def check_players(n_players: int) -> None:
    """Reject a player count outside 1..8 with a message naming the option."""
    if not MIN_PLAYERS <= n_players <= MAX_PLAYERS:
        raise WelcomeSimError(
            f"--players: {n_players} is not a valid number of players; use {MIN_PLAYERS} to {MAX_PLAYERS}"
        )


def check_mode_players(ruleset: Ruleset, n_players: int) -> None:
    """Solo modes are for one player, expert mode for two or more."""
    from welcome_sim.simcore.table import DEAL_AAA, DEAL_EXPERT, DEAL_SOLO_CARD

    if ruleset.deal in (DEAL_AAA, DEAL_SOLO_CARD) and n_players != 1:
        raise WelcomeSimError(
            f"--players: mode '{ruleset.mode}' is a solo mode; use --players 1, not {n_players}"
        )
    if ruleset.deal == DEAL_EXPERT and n_players < 2:
        raise WelcomeSimError(
            f"--players: in mode '{ruleset.mode}' the third card goes to a neighbour; use 2 to 8 players, not {n_players}"
        )


def seat_strategies(strategies: list | tuple, n_players: int) -> list[tuple[str, Any]]:
    """One strategy per seat from names ('greedy:plan=1.2'), Choices or Python objects."""
    from welcome_sim.strategies.protocol import split_strategies
    from welcome_sim.strategies.registry import DEFAULT_STRATEGY

    items = split_strategies(list(strategies) or [DEFAULT_STRATEGY])
    if len(items) == 1:
        items = items * n_players
    if len(items) != n_players:
        raise WelcomeSimError(
            f"--strategy: give one strategy for every seat or one for all; got {len(items)} for {n_players} players"
        )
    return items


def plan_indices(ruleset: Ruleset, plans: list[str] | None) -> np.ndarray:
    """Plan ids (one per letter, e.g. A1,B3,C2 or 1-2,...) to indices; None = random per game."""
    if plans is None:
        return np.full(3, -1, dtype=np.int64)
    if len(plans) != 3:
        raise WelcomeSimError(
            f"--plans: give three plan ids, one per letter (e.g. A-1,B-6,C-2), got {len(plans)}: {','.join(plans)!r}"
        )
    idx = np.full(3, -1, dtype=np.int64)
    ids = [p.id for p in ruleset.plans.plans]
    canon = [x.replace("-", "").lower() for x in ids]
    for pid in plans:
        key = pid.strip().replace("-", "").lower()
        if key not in canon:
            raise WelcomeSimError(f"--plans: unknown plan '{pid}'; valid: {', '.join(ids)}")
        k = canon.index(key)
        slot = ruleset.plans.plans[k].slot
        if idx[slot] >= 0:
            raise WelcomeSimError(
                f"--plans: two plans of letter {ruleset.plans.letters[slot]}; give one of each"
            )
        idx[slot] = k
    return idx


def check_games(out_g: np.ndarray, seeds: np.ndarray) -> None:
    """Raise a one-line WelcomeSimError for the first game whose end-of-game invariants failed
    (the kernel's G_CHECK bits), naming its seed: such a game is a bug, never a row."""
    bad = np.flatnonzero(out_g[:, G_CHECK])
    if bad.size == 0:
        return
    g = int(bad[0])
    bits = int(out_g[g, G_CHECK])
    what = "; ".join(text for bit, text in CHECK_NAMES.items() if bits & bit)
    raise WelcomeSimError(
        f"kernel invariant failed in the game of seed {int(seeds[g])}: {what} (end reason bits "
        f"{int(out_g[g, G_END])}, {int(out_g[g, G_ROUNDS])} rounds; {bad.size} such game(s) in the "
        "batch); this is a bug: report it with the seed"
    )


def simulate(
    ruleset: Ruleset,
    seeds: np.ndarray,
    n_players: int,
    strategies: list | tuple = (),
    plans: list[str] | None = None,
    log: bool = False,
    plans_per_game: np.ndarray | None = None,
) -> BatchResult:
    """Play one game per seed through the kernel and return columnar results (and the log).

    Strategies: names ('greedy', 'builder:plan=1.2'), parsed Choices, or Python objects with a
    choose() method (see strategies/protocol.py); one for all seats or one per seat. Plans: ids
    one per letter, None for random per game, or plans_per_game (games x 3 plan indices).
    """
    from welcome_sim.strategies import protocol
    from welcome_sim.strategies.registry import MAX_PARAMS, PYTHON

    check_players(n_players)
    check_mode_players(ruleset, n_players)
    seats = seat_strategies(strategies, n_players)
    strats = np.empty(n_players, dtype=np.int64)
    sprm = np.zeros((n_players, MAX_PARAMS), dtype=np.float64)
    labels = []
    for p, (kind, item) in enumerate(seats):
        if kind == "python":
            strats[p] = PYTHON
            labels.append(type(item).__name__)
        else:
            strats[p] = item.kernel_id
            sprm[p] = item.vector()
            labels.append(item.label)
    seeds = np.ascontiguousarray(seeds, dtype=np.uint64)
    n = seeds.shape[0]
    if plans_per_game is not None:
        plans_in = np.ascontiguousarray(plans_per_game, dtype=np.int64)
        if plans_in.shape != (n, 3):
            raise ValueError(f"plans_per_game must have shape ({n}, 3), got {plans_in.shape}")
    else:
        plans_in = np.tile(plan_indices(ruleset, plans), (n, 1))
    out = np.zeros((n, n_players, OUT_LEN), dtype=np.int64)
    out_g = np.zeros((n, G_LEN), dtype=np.int64)
    R = ruleset.kernel
    cap = log_capacity(R, n, n_players) if log else 1
    buf = np.zeros((cap, LOG_LEN), dtype=np.int32)
    logn = np.zeros(2, dtype=np.int64)
    for p, (kind, item) in enumerate(seats):
        if kind == "python":
            protocol.ACTIVE[p] = (item, ruleset)
    try:
        play_batch(R, seeds, n_players, strats, sprm, plans_in, out, out_g, log, buf, logn)
    finally:
        protocol.ACTIVE.clear()
    if logn[1]:
        raise RuntimeError("game log overflow: log_capacity() underestimates the rows needed")
    check_games(out_g, seeds)
    return BatchResult(ruleset, seeds, tuple(labels), out, out_g, buf[: logn[0]].copy() if log else None)
