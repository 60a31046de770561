"""Greedy values only the placements near their proportional slot (greedy_walk.fits): the
screen must leave every code that fits a run a house in it, order the slots like the numbers, and
read the run of every empty house, including the runs whose record needs a walk (mark_runs marks
those negative)."""

from __future__ import annotations

import numpy as np

from welcome_sim.simcore.ground.layout import B_FENCE, EMPTY, ROUNDABOUT, ZOMBIE
from welcome_sim.simcore.ground.table import P_NSTREETS, R_STREET_LEN
from welcome_sim.simcore.rules.ruleset import load_ruleset
from welcome_sim.simcore.rules.sheetops import new_state
from welcome_sim.strategies.greedy_layout import N_CODES, WS_FREQ, WS_RUN, new_workspace
from welcome_sim.strategies.greedy_walk import fits, mark_runs


def _runs(cells: np.ndarray, s: int, n: int) -> list[tuple[int, int, int, int]]:
    """The empty runs of street s with their bounding codes, found directly (as mark_runs does)."""
    runs = []
    left = -1
    h = 0
    while h < n:
        c = cells[0, s, h]
        if c != EMPTY:
            left = -1 if c == ROUNDABOUT else (c if c >= 0 else left)
            h += 1
            continue
        b = h
        while b + 1 < n and cells[0, s, b + 1] == EMPTY:
            b += 1
        right = int(cells[0, s, b + 1]) if b + 1 < n and cells[0, s, b + 1] >= 0 else N_CODES
        runs.append((h, b, left, right))
        h = b + 1
    return runs


def test_every_code_keeps_a_house_in_order() -> None:
    """On random sheets (numbers, roundabouts, Zs, fences), for every empty run and every code a
    card can show between its bounding numbers: mark_runs records the run (its first house,
    negative where the record needs a walk), at least one house of the run fits the code, and the
    fitting houses of a higher code never start left of a lower code's."""
    R = load_ruleset("collector", mode="standard").kernel
    rng = np.random.default_rng(11)
    checked = skipped = 0
    for _ in range(80):
        cells, flags, fences, sc = new_state(R, 1)
        for s in range(R[0, P_NSTREETS]):
            n = R[R_STREET_LEN, s]
            filled = sorted(rng.choice(n, size=int(rng.integers(0, n // 2 + 1)), replace=False))
            values = sorted(rng.choice(np.arange(0, 36, 2), size=len(filled), replace=False))
            for h, v in zip(filled, values, strict=True):
                u = rng.random()
                cells[0, s, h] = ROUNDABOUT if u < 0.05 else ZOMBIE if u < 0.1 else v
            for b in range(1, n):
                if rng.random() < 0.1:
                    fences[0, s, b] |= B_FENCE
        ws = new_workspace(R)
        mark_runs(R, cells, fences, 0, ws)
        for s in range(R[0, P_NSTREETS]):
            for a, b, left, right in _runs(cells, s, R[R_STREET_LEN, s]):
                for h in range(a, b + 1):
                    r = WS_RUN + 4 * (s * 16 + h)
                    first = int(ws[r]) if ws[r] >= 0 else -int(ws[r]) - 2
                    assert (first, int(ws[r + 1]), int(ws[r + 2]), int(ws[r + 3])) == (a, b, left, right)
                prev_first = -1
                for v in range(left + 1, right):
                    if ws[WS_FREQ + v] == (ws[WS_FREQ + v - 1] if v > 0 else 0.0):
                        continue  # no card shows this code
                    fit = [h for h in range(a, b + 1) if fits(ws, s * 16 + h, h, v)]
                    assert fit, (s, a, b, v)
                    assert fit[0] >= prev_first, (s, a, b, v, fit)
                    prev_first = fit[0]
                    checked += 1
                    skipped += (b - a + 1) - len(fit)
    assert checked >= 500 and skipped >= 500, (checked, skipped)
