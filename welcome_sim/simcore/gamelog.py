"""The game log the kernel writes for the referee and `welcome-sim play`: int32 rows (layout.py:
LOG_*), one per deal, move, plan validation and expansion event."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from welcome_sim.simcore.jit import leaf


class GameLog(NamedTuple):
    """Where one game writes its log rows: a bundle so that every deal and phase takes one
    argument instead of four."""

    rows: np.ndarray  # int32 (capacity, 12): game, round, player, kind, eight values
    n: np.ndarray  # [rows written, 1 once the buffer overflowed]
    on: bool  # logging on (off: the rows are never touched)
    g: int  # the game's index in its batch


@leaf
def log_row(lg, rnd, p, kind, a, b, c, d, e, f, gg, hh) -> None:
    """Append one row; on overflow, flag it (the caller retries with a larger buffer)."""
    log, logn = lg.rows, lg.n
    i = logn[0]
    if i >= log.shape[0]:
        logn[1] = 1  # overflow: the caller retries with a larger buffer
        return
    row = log[i]
    row[0], row[1], row[2], row[3] = lg.g, rnd, p, kind
    row[4], row[5], row[6], row[7] = a, b, c, d
    row[8], row[9], row[10], row[11] = e, f, gg, hh
    logn[0] = i + 1
