"""The game loop's named bundles of arrays (NamedTuples, as pgx does), made once per batch by
kernel.play_batch from the workspace and handed to the phases.

A phase is inlined and its bundle parameters are the batch's own variables; a field it reads
(`piles.deck`) is the variable the bundle was built from (simcore/ground/inlinefields.py), so
reading it costs no reference count, as when the phases took the arrays one by one. The sheets
(rules/sheetops.Sheets), a seat's offer (strategies/context.Offer) and the log (gamelog.GameLog)
are bundles of their own."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class Batch(NamedTuple):
    """A batch's games: their seeds and plans asked for, and where their results go."""

    seeds: np.ndarray  # (games,) uint64: a seed per game
    plans_in: np.ndarray  # (games, 3): plan ids per slot (-1: drawn at random)
    out: np.ndarray  # (games, players, O_LEN): each player's columns
    out_g: np.ndarray  # (games, G_LEN): each game's columns


class Seats(NamedTuple):
    """Who plays: each seat's strategy and its parameters, the context every player reads
    (strategies/context.py), and how many seats."""

    strats: np.ndarray  # (players,) strategy ids
    sprm: np.ndarray  # (players, params) float64
    ctx: np.ndarray  # (CTX_LEN,) int64
    n_players: int


class Piles(NamedTuple):
    """The cards: the three stacks and their discard piles (stack modes; a hand mode uses the first
    discard pile, and stack[0] for Zombie cards set aside), the deck, the hands, the card passed
    on, and the shuffle's scratch."""

    stack: np.ndarray  # (3, cards): top = last element
    stack_n: np.ndarray  # (3,)
    discard: np.ndarray  # (3, cards + 4)
    disc_n: np.ndarray  # (3,)
    deck: np.ndarray  # (cards + ...): top = last element
    deck_n: np.ndarray  # (1,)
    hand: np.ndarray  # (players, 3)
    hand_n: np.ndarray  # (players,)
    pending: np.ndarray  # (players,): the card passed to each seat (expert)
    order: np.ndarray  # (cards,): shuffle scratch


class GameState(NamedTuple):
    """What a game keeps between its phases besides sheets and cards: the plans and which turned
    over, the AAA's cards, the small scalar state (steps.py ST_*), and scratch arrays."""

    plans: np.ndarray  # (3,): plan ids per slot
    flipped: np.ndarray  # (3,) bool: turned over (validated before)
    new_flip: np.ndarray  # (3,) bool: validated this round
    counts: np.ndarray  # (7,): complete estates per size (rules/plans.py)
    used: np.ndarray  # (16, 3): the houses a plan used
    st: np.ndarray  # (ST_LEN,): steps.py ST_*
    aaa: np.ndarray  # the AAA's cards (Collector's solo)
    rbm: np.ndarray  # (2,): a roundabout chosen
    xdec: tuple  # an expansion decision's option table and log row (steps._x_decisions)
    temps: np.ndarray  # (players,): scoring scratch
    temp_pts: np.ndarray  # (max(players, 2),): scoring scratch
