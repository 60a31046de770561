"""The context array every player shares: what a strategy may know of the game besides the sheets.

`ctx` is one int64 array of CTX_LEN slots per game. The kernel (simcore/engine/kernel.py) writes it as the
game goes: the number of players, the round, the three plans drawn and which are flipped, the seat
about to play, the ruleset's deal mode and, in hand modes, the cards in hand. Every strategy reads
it: greedy (greedy.py), the built-in players (builtin.py) through the dispatchers (dispatch.py),
and Python strategies through the protocol's view of the game (protocol.py). One write comes from
the strategies' side: greedy's look-ahead fills the hand slots of the rounds it samples.

The slots are compile-time constants of the kernel: changing one recompiles every player.

Beside ctx, every player is handed the sheets (simcore/rules/sheetops.py: Sheets) and what it is
offered this turn (`Offer`), each as one bundle of arrays.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

CTX_PLAYERS = 0  # players in the game
CTX_ROUND = 1  # the round being played (from 1)
CTX_PLAN = 2  # 2, 3, 4: the three city plans drawn (plan indices in the ruleset)
CTX_FLIPPED = 5  # 5, 6, 7: 1 once that plan is flipped (its later, smaller points apply)
CTX_SEAT = 8  # the seat about to choose
CTX_DEAL = 9  # ruleset DEAL_* of the game
CTX_HAND_NUM = 10  # hand modes: numbers of the three cards in hand
CTX_HAND_ACT = 13  # ... and their actions
CTX_HAND_SIZE = 16  # hand modes: cards in hand when playing (3, or 2 with Zombie Outbreak)
CTX_LEN = 17


class Offer(NamedTuple):
    """What a seat is offered in its turn, as one bundle (a NamedTuple of arrays: Numba passes it
    as a flat struct, a field read costs nothing): the combinations, the bounds of every house, the
    game's generator, and the move array the choice is written to."""

    cnum: np.ndarray  # the combinations' number codes
    cact: np.ndarray  # ... and actions
    rng: np.ndarray  # the game's generator (tie-breaks and random choices draw from it)
    lo: np.ndarray  # (streets, houses): the largest code left of each house (sheetops.street_bounds)
    hi: np.ndarray  # ... and the smallest right of it
    mv: np.ndarray  # (8,): the move (sheetops.py's move array)
    # Greedy's float64 scratch (greedy_layout.new_workspace), made once a batch and cleared by each
    # search that uses it (allocating it a turn was 4-5% of Advanced mode's time); empty where an
    # Offer is made outside the game loop (greedy then makes its own).
    gws: np.ndarray
