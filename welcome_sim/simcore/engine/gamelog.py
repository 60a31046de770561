"""One row of a game's log (layout.py: LOG_*): the referee and `welcome-sim play` read them."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from welcome_sim.simcore.ground.jit import leaf


class GameLog(NamedTuple):
    """Where a game writes its log, as one bundle made once a game (a NamedTuple: a leaf reads its
    fields for nothing)."""

    do_log: bool  # False: no rows are written (the callers test it before each _log)
    log: np.ndarray  # (rows, LOG_LEN) int32
    logn: np.ndarray  # [rows written, 1 once a row did not fit]
    g: int  # the game's index in its batch


@leaf
def _log(lg, rnd, p, kind, a, b, c, d, e, f, gg, hh) -> None:
    """Write one row of game lg.g (layout.py: LOG_*); when the buffer is full, flag it instead."""
    log = lg.log
    logn = lg.logn
    i = logn[0]
    if i >= log.shape[0]:
        logn[1] = 1  # overflow: the caller retries with a larger buffer
        return
    row = log[i]
    row[0], row[1], row[2], row[3] = lg.g, rnd, p, kind
    row[4], row[5], row[6], row[7] = a, b, c, d
    row[8], row[9], row[10], row[11] = e, f, gg, hh
    logn[0] = i + 1
