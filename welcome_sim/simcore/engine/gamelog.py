"""One row of a game's log (layout.py: LOG_*): the referee and `welcome-sim play` read them."""

from __future__ import annotations

from welcome_sim.simcore.ground.jit import leaf


@leaf
def _log(log, logn, g, rnd, p, kind, a, b, c, d, e, f, gg, hh) -> None:
    i = logn[0]
    if i >= log.shape[0]:
        logn[1] = 1  # overflow: the caller retries with a larger buffer
        return
    row = log[i]
    row[0], row[1], row[2], row[3] = g, rnd, p, kind
    row[4], row[5], row[6], row[7] = a, b, c, d
    row[8], row[9], row[10], row[11] = e, f, gg, hh
    logn[0] = i + 1
