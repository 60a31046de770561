"""The arrays one game needs, as named bundles (NamedTuples of arrays, which Numba passes as
flat structs: a field read is free), allocated once per batch and reset by each game.

A bundle replaces a run of positional arguments: the game loop's phases and the deals take the
workspace or one of its parts by name instead of a 30-item tuple unpacked by position."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from welcome_sim.simcore.jit import kernel
from welcome_sim.simcore.layout import SPECIAL_X
from welcome_sim.simcore.sheetops import new_state
from welcome_sim.simcore.table import (
    DEAL_AAA,
    DEAL_STACKS,
    P_DEAL,
    P_NCARDS,
    P_NSTACKS,
    P_X_HAND,
    P_X_SPECIALS,
)
from welcome_sim.strategies.context import CTX_LEN

X_MAX_OPTIONS = 96  # rows of an expansion decision's option table (halloween.MAX_OPTIONS)


class Sheets(NamedTuple):
    """Every player's sheet (sheetops.new_state): the four arrays every rule reads."""

    cells: np.ndarray  # (players, streets, houses): number codes, EMPTY, ...
    flags: np.ndarray  # (players, streets, houses): house marks (pools, expansion marks)
    fences: np.ndarray  # (players, streets, houses + 1)
    sc: np.ndarray  # (players, SC_LEN): the score sheet's counters


class Piles(NamedTuple):
    """The cards. Standard deal: three stacks (top = last element) and their discard piles. Hand
    deals: one deck (top = last element), one discard pile (row 0), hands of up to three, the
    cards passed on, the AAA's stack."""

    stack: np.ndarray  # (3, cards)
    stack_n: np.ndarray  # (3,)
    discard: np.ndarray  # (3, cards + 4)
    disc_n: np.ndarray  # (3,)
    deck: np.ndarray
    deck_n: np.ndarray  # (1,)
    hand: np.ndarray  # (players, 3)
    hand_n: np.ndarray  # (players,)
    pending: np.ndarray  # (players,): the card passed to each seat
    aaa: np.ndarray  # the cards given to the AAA
    order: np.ndarray  # (cards,): shuffle scratch


class Workspace(NamedTuple):
    """Every array a game reads or writes besides the ruleset, the seats and the outputs."""

    rng: np.ndarray  # (2,) uint64: the main stream, the extra cards' stream
    sheets: Sheets
    lo: np.ndarray  # (streets, houses): the lowest number code a house may take
    hi: np.ndarray  # ... and one past the highest
    mv: np.ndarray  # (8,): the move chosen
    rbm: np.ndarray  # (2,): the roundabout chosen
    counts: np.ndarray  # (7,): complete estates by size
    used: np.ndarray  # (16, 3): the estates a plan validation used
    plans: np.ndarray  # (3,): the plans in play
    ctx: np.ndarray  # (CTX_LEN,): strategies/context.py
    cnum: np.ndarray  # the combinations' number cards
    cact: np.ndarray  # ... and action cards
    flipped: np.ndarray  # (3,) bool: plans validated by someone
    new_flip: np.ndarray  # (3,) bool: ... in this round
    piles: Piles
    temp_pts: np.ndarray  # scoring scratch
    temps: np.ndarray  # scoring scratch
    xopt: np.ndarray  # (X_MAX_OPTIONS, 4): an expansion decision's options
    xlog: np.ndarray  # (5,): the log row of the option chosen


@kernel
def new_workspace(R, n_players):
    """Every array a game needs, allocated once per batch (play_batch) and reset by play_game:
    a dozen small allocations a game were a large part of a short random game's time."""
    n_cards = R[0, P_NCARDS]
    deal = R[0, P_DEAL]
    hands = deal != DEAL_STACKS
    cells, flags, fences, sc = new_state(R, n_players)
    n_streets = cells.shape[1]
    max_len = cells.shape[2]
    hn = n_cards + SPECIAL_X + 8 if hands else 1
    n_combos = R[0, P_NSTACKS]
    if hands:
        n_combos = 2 if R[0, P_X_SPECIALS] > 0 and R[0, P_X_HAND] == 2 else 6
    piles = Piles(
        np.empty((3, n_cards), dtype=np.int64),
        np.zeros(3, dtype=np.int64),
        np.empty((3, n_cards + 4), dtype=np.int64),
        np.zeros(3, dtype=np.int64),
        np.empty(hn, dtype=np.int64),
        np.zeros(1, dtype=np.int64),
        np.empty((n_players, 3), dtype=np.int64),
        np.zeros(n_players, dtype=np.int64),
        np.empty(n_players, dtype=np.int64),
        np.empty(hn if deal == DEAL_AAA else 1, dtype=np.int64),
        np.empty(n_cards, dtype=np.int64),
    )
    return Workspace(
        np.empty(2, dtype=np.uint64),
        Sheets(cells, flags, fences, sc),
        np.empty((n_streets, max_len), dtype=np.int64),
        np.empty((n_streets, max_len), dtype=np.int64),
        np.empty(8, dtype=np.int64),
        np.empty(2, dtype=np.int64),
        np.zeros(7, dtype=np.int64),
        np.zeros((16, 3), dtype=np.int64),
        np.empty(3, dtype=np.int64),
        np.zeros(CTX_LEN, dtype=np.int64),
        np.empty(n_combos, dtype=np.int64),
        np.empty(n_combos, dtype=np.int64),
        np.zeros(3, dtype=np.bool_),
        np.zeros(3, dtype=np.bool_),
        piles,
        np.zeros(max(n_players, 2), dtype=np.int64),
        np.zeros(n_players, dtype=np.int64),
        np.zeros((X_MAX_OPTIONS, 4), dtype=np.int64),
        np.zeros(5, dtype=np.int64),
    )
