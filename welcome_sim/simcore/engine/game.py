"""Python entry points to the kernel: seeds, validated options, and batch results as arrays."""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Any

import numpy as np

from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.engine.kernel import log_capacity, play_batch
from welcome_sim.simcore.engine.variants import FULL, base_table, specialize, variant_for
from welcome_sim.simcore.ground.layout import (
    CHECK_NAMES,
    G_CHECK,
    G_END,
    G_LEN,
    G_ROUNDS,
    GAME_COLUMNS,
    LOG_LEN,
)
from welcome_sim.simcore.rules.expansions.registry import OUT_COLUMNS, OUT_LEN
from welcome_sim.simcore.rules.ruleset import Ruleset, display_path

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


# NumPy's SeedSequence (numpy/random/bit_generator.pyx), re-implemented over arrays of uint32
# words so that a chunk's seeds cost a few array passes instead of one SeedSequence per game.
# uint32 arrays wrap on * and - as the Cython code's uint32_t does, and NumPy arrays never warn.
_MASK32 = 0xFFFF_FFFF
_POOL_SIZE = 4
_INIT_A, _MULT_A = 0x43B0D7E5, 0x931E8875
_INIT_B, _MULT_B = 0x8B51F9DD, 0x58F38DED
_MIX_MULT_L, _MIX_MULT_R = 0xCA01F9DD, 0x4973F715
_XSHIFT = 16


def _uint32_words(n: int) -> list[int]:
    """A non-negative int as little-endian 32-bit words (0 is one word, as SeedSequence has it)."""
    words = [n & _MASK32]
    n >>= 32
    while n:
        words.append(n & _MASK32)
        n >>= 32
    return words


def _hashmix(value: np.ndarray | int, hash_const: int, mult: int = _MULT_A) -> tuple[np.ndarray, int]:
    """SeedSequence's hashmix of a word or an array of words (with mult=_MULT_B, a step of
    generate_state); returns it and the next hash constant."""
    # At least 1-d: a 0-d operand would give NumPy scalars, whose wrapping multiply warns.
    value = np.atleast_1d(np.asarray(value, dtype=np.uint32)) ^ np.uint32(hash_const)
    hash_const = (hash_const * mult) & _MASK32
    value *= np.uint32(hash_const)
    value ^= value >> np.uint32(_XSHIFT)
    return value, hash_const


def _mix(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """SeedSequence's mix of two words (or arrays of words)."""
    result = np.uint32(_MIX_MULT_L) * x - np.uint32(_MIX_MULT_R) * y
    result ^= result >> np.uint32(_XSHIFT)
    return result


def _absorb(pool: list[np.ndarray], word: np.ndarray | int, hash_const: int, keep: int) -> int:
    """Mix one entropy word past the pool's first words into pool[:keep] in place; the hash
    constant still advances for every pool word, as SeedSequence's loop does, and is returned."""
    for dst in range(_POOL_SIZE):
        hashed, hash_const = _hashmix(word, hash_const)
        if dst < keep:
            pool[dst] = _mix(pool[dst], hashed)
    return hash_const


def _seed_pool(seed: int) -> tuple[list[np.ndarray], int]:
    """The pool after mixing every word of the seed (padded to the pool size, as a spawned
    SeedSequence pads it): the part common to every game, as one-element arrays, and the hash
    constant that the game's own words continue from."""
    words = _uint32_words(seed)
    words += [0] * (_POOL_SIZE - len(words))
    hash_const = _INIT_A
    pool = []
    for word in words[:_POOL_SIZE]:
        hashed, hash_const = _hashmix(word, hash_const)
        pool.append(hashed)
    for src in range(_POOL_SIZE):
        for dst in range(_POOL_SIZE):
            if src != dst:
                hashed, hash_const = _hashmix(pool[src], hash_const)
                pool[dst] = _mix(pool[dst], hashed)
    for word in words[_POOL_SIZE:]:
        hash_const = _absorb(pool, word, hash_const, _POOL_SIZE)
    return pool, hash_const


def game_seeds(seed: int, count: int, start: int = 0) -> np.ndarray:
    """Per-game uint64 seeds: SeedSequence(seed) spawned child keyed by the game index."""
    if seed < 0:
        raise WelcomeSimError(f"--seed: must be a non-negative integer, got {seed}")
    seed, start = operator.index(seed), operator.index(start)
    out = np.empty(count, dtype=np.uint64)
    if count == 0:
        return out
    if start < 0:
        raise ValueError(f"start: the first game index must be non-negative, got {start}")
    common, hash_const = _seed_pool(seed)
    end = start + count
    # A game index's low word varies from game to game; its higher words are the same for every
    # index in one aligned block of 2**32, so each block mixes them as constants.
    for block in range(start >> 32, ((end - 1) >> 32) + 1):
        base = block << 32
        lo, hi = max(start, base), min(end, base + (1 << 32))
        pool = list(common)
        # generate_state(1, uint64) reads only the pool's first two words; the other two change
        # after the seed's words only by the game's words, so they are never computed per game.
        const = _absorb(
            pool, np.arange(lo - base, hi - base, dtype=np.int64).astype(np.uint32), hash_const, 2
        )
        for word in _uint32_words(block) if block else []:
            const = _absorb(pool, word, const, 2)
        state_const = _INIT_B
        halves = []
        for word in pool[:2]:
            value, state_const = _hashmix(word, state_const, _MULT_B)
            halves.append(value.astype(np.uint64))
        out[lo - start : hi - start] = halves[0] | (halves[1] << np.uint64(32))
    return out


def check_players(n_players: int) -> None:
    """Reject a player count outside 1..8 with a message naming the option."""
    if not MIN_PLAYERS <= n_players <= MAX_PLAYERS:
        raise WelcomeSimError(
            f"--players: {n_players} is not a valid number of players; use {MIN_PLAYERS} to {MAX_PLAYERS}"
        )


def check_mode_players(ruleset: Ruleset, n_players: int) -> None:
    """Solo modes are for one player, expert mode for two or more."""
    from welcome_sim.simcore.ground.table import DEAL_AAA, DEAL_EXPERT, DEAL_SOLO_CARD, P_X_SPECIALS

    if ruleset.deal in (DEAL_AAA, DEAL_SOLO_CARD) and n_players != 1:
        raise WelcomeSimError(
            f"--players: mode '{ruleset.mode}' is a solo mode; use --players 1, not {n_players}"
        )
    if ruleset.deal == DEAL_EXPERT and n_players < 2:
        raise WelcomeSimError(
            f"--players: in mode '{ruleset.mode}' the third card goes to a neighbour; use 2 to 8 players, not {n_players}"
        )
    n_cards = len(ruleset.deck.cards)
    specials = ruleset.kernel[0, P_X_SPECIALS] > 0  # Zombie decks are checked when loaded
    if ruleset.deal == DEAL_EXPERT and not specials and n_cards < 3 * n_players:
        # Every architect holds three cards at once; fewer cards than that would end the game at
        # set-up as if the deck had run out, a rule expert mode does not have.
        raise WelcomeSimError(
            f"--players: mode '{ruleset.mode}' deals hands of three, so {n_players} players need at least "
            f"{3 * n_players} cards; the deck {display_path(ruleset.deck.path)} has {n_cards}"
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


def seat_arrays(seats: list[tuple[str, Any]]) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Each seat's kernel strategy id, parameter vector and label (seats: seat_strategies())."""
    from welcome_sim.strategies.registry import MAX_PARAMS, PYTHON

    strats = np.empty(len(seats), dtype=np.int64)
    sprm = np.zeros((len(seats), MAX_PARAMS), dtype=np.float64)
    labels = []
    for p, (kind, item) in enumerate(seats):
        if kind == "python":
            strats[p] = PYTHON
            labels.append(type(item).__name__)
        else:
            strats[p] = item.kernel_id
            sprm[p] = item.vector()
            labels.append(item.label)
    return strats, sprm, labels


def batch_variant(base_game: bool, strategies: list | tuple, n_players: int) -> str:
    """The compiled kernel simulate() plays such a batch on (simcore/engine/variants.py)."""
    from welcome_sim.strategies.greedy_layout import LOOK_K

    strats, sprm, _ = seat_arrays(seat_strategies(strategies, n_players))
    return variant_for(base_game, strats, sprm[:, LOOK_K])


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
        f"{int(out_g[g, G_END])}, {int(out_g[g, G_ROUNDS])} rounds; {bad.size} such game{'s' * (bad.size != 1)} in the "
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
    variant: str | None = None,
) -> BatchResult:
    """Play one game per seed through the kernel and return columnar results (and the log).

    Strategies: names ('greedy', 'builder:plan=1.2'), parsed Choices, or Python objects with a
    choose() method (see strategies/protocol.py); one for all seats or one per seat. Plans: ids
    one per letter, None for random per game, or plans_per_game (games x 3 plan indices).
    Variant: the compiled kernel (simcore/engine/variants.py); None picks the smallest that plays the
    batch, whose games are the same as the whole kernel's ("full").
    """
    from welcome_sim.strategies import protocol
    from welcome_sim.strategies.greedy_layout import LOOK_K

    check_players(n_players)
    check_mode_players(ruleset, n_players)
    seats = seat_strategies(strategies, n_players)
    strats, sprm, labels = seat_arrays(seats)
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
    fit = variant_for(base_table(R), strats, sprm[:, LOOK_K])
    if variant is None:
        variant = fit
    elif variant != FULL and variant != fit:
        raise ValueError(f"kernel variant {variant!r} cannot play this batch; {fit!r} or {FULL!r} can")
    play = specialize(play_batch, variant)
    try:
        play(R, seeds, n_players, strats, sprm, plans_in, out, out_g, log, buf, logn)
    finally:
        protocol.ACTIVE.clear()
    if logn[1]:
        raise RuntimeError("game log overflow: log_capacity() underestimates the rows needed")
    check_games(out_g, seeds)
    return BatchResult(ruleset, seeds, tuple(labels), out, out_g, buf[: logn[0]].copy() if log else None)
