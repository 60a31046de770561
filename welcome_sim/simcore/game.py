"""Python entry points to the kernel: seeds, validated options, and batch results as arrays."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.kernel import log_capacity, play_batch
from welcome_sim.simcore.layout import G_LEN, GAME_COLUMNS, LOG_LEN, OUT_COLUMNS, OUT_LEN
from welcome_sim.simcore.ruleset import Ruleset
from welcome_sim.strategies.builtin import BUILTIN_NAMES

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


def strategy_ids(names: list[str] | tuple[str, ...], n_players: int) -> np.ndarray:
    """Map strategy names to kernel ids, one per seat (a single name fills every seat)."""
    if not names:
        names = ["random"]
    for name in names:
        if name not in BUILTIN_NAMES:
            raise WelcomeSimError(f"--strategy: unknown strategy '{name}'; valid: {', '.join(BUILTIN_NAMES)}")
    if len(names) == 1:
        names = list(names) * n_players
    if len(names) != n_players:
        raise WelcomeSimError(
            f"--strategy: give one strategy for every seat or one for all; got {len(names)} for {n_players} players"
        )
    return np.array([BUILTIN_NAMES.index(n) for n in names], dtype=np.int64)


def plan_indices(ruleset: Ruleset, plans: list[str] | None) -> np.ndarray:
    """Plan ids (one per letter, e.g. A1,B3,C2 or 1-2,...) to indices; None = random per game."""
    if not plans:
        return np.full(3, -1, dtype=np.int64)
    if len(plans) != 3:
        raise WelcomeSimError(f"--plans: give three plan ids, one per letter, got {len(plans)}")
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


def simulate(
    ruleset: Ruleset,
    seeds: np.ndarray,
    n_players: int,
    strategies: list[str] | tuple[str, ...] = ("random",),
    plans: list[str] | None = None,
    log: bool = False,
) -> BatchResult:
    """Play one game per seed through the kernel and return columnar results (and the log)."""
    check_players(n_players)
    strats = strategy_ids(strategies, n_players)
    seeds = np.ascontiguousarray(seeds, dtype=np.uint64)
    n = seeds.shape[0]
    plans_in = np.tile(plan_indices(ruleset, plans), (n, 1))
    out = np.zeros((n, n_players, OUT_LEN), dtype=np.int64)
    out_g = np.zeros((n, G_LEN), dtype=np.int64)
    R = ruleset.kernel
    cap = log_capacity(R, n, n_players) if log else 1
    buf = np.zeros((cap, LOG_LEN), dtype=np.int32)
    logn = np.zeros(2, dtype=np.int64)
    play_batch(R, seeds, n_players, strats, plans_in, out, out_g, log, buf, logn)
    if logn[1]:
        raise RuntimeError("game log overflow: log_capacity() underestimates the rows needed")
    names = tuple(np.asarray(BUILTIN_NAMES)[strats])
    return BatchResult(ruleset, seeds, names, out, out_g, buf[: logn[0]].copy() if log else None)
