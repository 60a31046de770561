"""Greedy's incremental evaluation must price a sheet exactly as a whole-sheet evaluation does.

`choose_greedy` walks every street into a record once a turn and re-walks only the street a
candidate move changes (strategies/greedy_eval.py, "How the evaluation is computed"). The records of
the changed streets must never take the place of an unchanged street's record: on every sheet
(the American Dream has five streets) and for every kind of candidate (a placement, an action in
another street, a score-sheet action) the value built from the records equals, to the last bit,
`evaluate()` of the same sheet from scratch.
"""

from __future__ import annotations

import numpy as np
import pytest

from welcome_sim.simcore.ground.layout import B_FENCE, EMPTY, MAX_STREETS, ROUNDABOUT, SC_PARK, ZOMBIE
from welcome_sim.simcore.ground.table import P_NSTREETS, R_PARK_LEN, R_PLAN_FIRST, R_STREET_LEN
from welcome_sim.simcore.rules.expansions.hooks import x_value
from welcome_sim.simcore.rules.ruleset import load_ruleset
from welcome_sim.simcore.rules.sheetops import Sheets, new_state
from welcome_sim.strategies.context import CTX_LEN, CTX_PLAN, CTX_PLAYERS
from welcome_sim.strategies.greedy_eval import combine, evaluate, prepare_terms
from welcome_sim.strategies.greedy_layout import (
    ST_E,
    ST_FENCE,
    ST_HEAD,
    ST_PLACED,
    ST_TRIAL,
    ST_W,
    W_AAA,
    W_DEAD,
    W_ESTATE,
    W_EXT,
    W_IMPR_PRIOR,
    W_LONG,
    W_PARK,
    W_PLAN,
    W_POOL,
    W_POOL_WASTE,
    W_TEMP,
    W_X,
    WS_RUN,
    WS_ST,
    new_workspace,
)
from welcome_sim.strategies.greedy_walk import mark_runs, split_record, walk_sheet, walk_street
from welcome_sim.strategies.registry import parse_strategy

CONFIGS = [
    ("collector", "standard", None),
    ("first", "standard", None),
    ("collector", "advanced", None),
    ("collector", "standard", "american-dream"),
    ("collector", "standard", "zombies"),
    ("collector", "standard", "roswell"),
    ("collector", "standard", "quack"),
    ("collector", "standard", "easter"),
    ("collector", "standard", "icecream"),
    ("collector", "standard", "christmas"),
]
# Expansions whose valuation is a sum of street parts that greedy keeps with the street records.
STREET_PARTS = ["easter", "icecream", "christmas", "american-dream", "halloween"]


def _sheet(R: np.ndarray, rng: np.random.Generator):
    """A one-player sheet with about half its houses numbered in increasing order and a few
    fences, as a game in progress leaves it."""
    cells, flags, fences, sc = new_state(R, 1)
    for s in range(R[0, P_NSTREETS]):
        n = R[R_STREET_LEN, s]
        numbered = sorted(rng.choice(n, size=int(rng.integers(0, n)), replace=False))
        values = sorted(rng.choice(np.arange(0, 36, 2), size=len(numbered), replace=False))
        for h, v in zip(numbered, values, strict=True):
            cells[0, s, h] = v
        for b in range(1, n):
            if rng.random() < 0.2:
                fences[0, s, b] |= B_FENCE
    return cells, flags, fences, sc


def _ctx(R: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    ctx = np.zeros(CTX_LEN, dtype=np.int64)
    ctx[CTX_PLAYERS] = 1
    plans = [i for i in range(R.shape[1]) if R[R_PLAN_FIRST, i] > 0]
    ctx[CTX_PLAN : CTX_PLAN + 3] = rng.choice(plans, size=3, replace=False)
    return ctx


def _walked(R: np.ndarray, prm: np.ndarray, rng: np.random.Generator):
    """A sheet in progress, plans in play and a workspace with its terms prepared and every
    street walked into its own record, as choose_greedy starts a turn."""
    cells, flags, fences, sc = _sheet(R, rng)
    ctx = _ctx(R, rng)
    ws = new_workspace(R)
    prepare_terms(R, prm, sc, 0, ctx, ws, -1)
    walk_sheet(R, prm, Sheets(cells, flags, fences, sc), 0, ws)
    return cells, flags, fences, sc, ctx, ws


def _whole(R, prm, cells, flags, fences, sc, ctx) -> float:
    return float(evaluate(R, prm, Sheets(cells, flags, fences, sc), 0, ctx, new_workspace(R), -1))


@pytest.mark.parametrize("edition,mode,expansion", CONFIGS, ids=[f"{e}-{m}-{x}" for e, m, x in CONFIGS])
def test_records_price_every_candidate_like_a_whole_walk(edition, mode, expansion) -> None:
    R = load_ruleset(edition, mode=mode, expansion=expansion).kernel
    assert R[0, P_NSTREETS] <= MAX_STREETS
    assert ST_PLACED >= MAX_STREETS and ST_TRIAL >= MAX_STREETS and ST_FENCE > ST_TRIAL
    prm = parse_strategy("greedy").vector()
    rng = np.random.default_rng(7)
    checked = 0
    for _ in range(12):
        cells, flags, fences, sc, ctx, ws = _walked(R, prm, rng)
        n_streets = R[0, P_NSTREETS]
        for s in range(n_streets):
            empty = [h for h in range(R[R_STREET_LEN, s]) if cells[0, s, h] == EMPTY]
            if not empty:
                continue
            h = int(rng.choice(empty))
            cells[0, s, h] = 2 * int(rng.integers(0, 18))
            # A placement: its street walked into the placed record.
            walk_street(R, prm, Sheets(cells, flags, fences, sc), 0, s, ws, ST_PLACED)
            got = combine(
                R, prm, Sheets(cells, flags, fences, sc), 0, ctx, ws, -1, (s, ST_PLACED, -1, 0), False
            )
            assert got == _whole(R, prm, cells, flags, fences, sc, ctx), (s, h)
            # ... and a fence in another street, walked into that street's fence record.
            for fs in range(n_streets):
                if fs == s or R[R_STREET_LEN, fs] < 2:
                    continue
                fb = int(rng.integers(1, R[R_STREET_LEN, fs]))
                old = fences[0, fs, fb]
                fences[0, fs, fb] |= B_FENCE
                kf = ST_FENCE + fs * 16 + fb
                walk_street(R, prm, Sheets(cells, flags, fences, sc), 0, fs, ws, kf)
                got = combine(
                    R, prm, Sheets(cells, flags, fences, sc), 0, ctx, ws, -1, (fs, kf, s, ST_PLACED), False
                )
                assert got == _whole(R, prm, cells, flags, fences, sc, ctx), (s, fs, fb)
                fences[0, fs, fb] = old
                checked += 1
            # ... and a park (the score sheet only; its terms prepared again).
            if sc[0, SC_PARK + s] < R[R_PARK_LEN, s] - 1:
                sc[0, SC_PARK + s] += 1
                prepare_terms(R, prm, sc, 0, ctx, ws, -1)
                got = combine(
                    R, prm, Sheets(cells, flags, fences, sc), 0, ctx, ws, -1, (s, ST_PLACED, -1, 0), False
                )
                assert got == _whole(R, prm, cells, flags, fences, sc, ctx), ("park", s)
                sc[0, SC_PARK + s] -= 1
                prepare_terms(R, prm, sc, 0, ctx, ws, -1)
            cells[0, s, h] = EMPTY
            checked += 1
    assert checked >= 24


@pytest.mark.parametrize("expansion", STREET_PARTS)
def test_street_parts_kept_with_the_records_price_the_sheet_as_it_is(expansion) -> None:
    """An expansion's street part (hooks.x_street_part) is kept with its street's record, walked
    once a turn: it may depend only on its own street. With every weight but the expansion's at
    0, combine() returns the expansion's part alone; built from records walked before a move in
    another street, it equals x_value() of the sheet after the move, to the last bit."""
    R = load_ruleset("collector", expansion=expansion).kernel
    prm = parse_strategy("greedy").vector()
    for w in (
        W_PARK,
        W_POOL,
        W_TEMP,
        W_ESTATE,
        W_PLAN,
        W_DEAD,
        W_LONG,
        W_IMPR_PRIOR,
        W_POOL_WASTE,
        W_EXT,
        W_AAA,
    ):
        prm[w] = 0.0
    prm[W_X] = 1.0
    rng = np.random.default_rng(11)
    checked = 0
    for _ in range(40):
        cells, flags, fences, sc, ctx, ws = _walked(R, prm, rng)
        assert combine(
            R, prm, Sheets(cells, flags, fences, sc), 0, ctx, ws, -1, (-1, 0, -1, 0), False
        ) == x_value(R, cells, flags, fences, sc, 0)
        for s in range(R[0, P_NSTREETS]):
            empty = [h for h in range(R[R_STREET_LEN, s]) if cells[0, s, h] == EMPTY]
            if not empty:
                continue
            h = int(rng.choice(empty))
            cells[0, s, h] = 2 * int(rng.integers(0, 18))
            walk_street(R, prm, Sheets(cells, flags, fences, sc), 0, s, ws, ST_TRIAL)
            got = combine(
                R, prm, Sheets(cells, flags, fences, sc), 0, ctx, ws, -1, (s, ST_TRIAL, -1, 0), False
            )
            assert got == x_value(R, cells, flags, fences, sc, 0), (s, h)
            cells[0, s, h] = EMPTY
            checked += 1
    assert checked >= 80


@pytest.mark.parametrize(
    "edition,mode,expansion", [*CONFIGS[:2], CONFIGS[4]], ids=["collector", "first", "zombies"]
)
def test_split_records_equal_the_walk(edition, mode, expansion) -> None:
    """A placement in an empty run that only segments longer than 6 houses overlap gets its street
    record from the turn's record (greedy_walk.split_record, runs marked by mark_runs) instead of
    a walk: on sheets with few fences, roundabouts and Zs, every such record equals the walk's
    (header and estates) to the last bit, and the fast path is taken for some and refused for
    others (a Z beside the run, a short segment)."""
    R = load_ruleset(edition, mode=mode, expansion=expansion).kernel
    prm = parse_strategy("greedy").vector()
    rng = np.random.default_rng(5)
    split = walked = 0
    for _ in range(60):
        cells, flags, fences, sc = new_state(R, 1)
        for s in range(R[0, P_NSTREETS]):
            n = R[R_STREET_LEN, s]
            for h in sorted(rng.choice(n, size=int(rng.integers(0, n)), replace=False)):
                u = rng.random()
                cells[0, s, h] = (
                    ROUNDABOUT if u < 0.08 else ZOMBIE if u < 0.16 else 2 * int(rng.integers(0, 18))
                )
            for b in range(1, n):
                if rng.random() < 0.08:
                    fences[0, s, b] |= B_FENCE
        sh = Sheets(cells, flags, fences, sc)
        ws = new_workspace(R)
        walk_sheet(R, prm, sh, 0, ws)
        mark_runs(R, cells, fences, 0, ws)
        for s in range(R[0, P_NSTREETS]):
            for h in range(R[R_STREET_LEN, s]):
                if cells[0, s, h] != EMPTY:
                    continue
                if ws[WS_RUN + 4 * (s * 16 + h)] < 0:
                    walked += 1
                    continue
                for v in range(0, 35, 3):
                    cells[0, s, h] = v
                    walk_street(R, prm, sh, 0, s, ws, ST_PLACED)
                    split_record(R, ws, flags, 0, s, h, v, ST_TRIAL)
                    cells[0, s, h] = EMPTY
                    placed = WS_ST + ST_W * ST_PLACED
                    trial = WS_ST + ST_W * ST_TRIAL
                    size = ST_HEAD + ST_E * int(ws[placed + 3])
                    assert ws[trial : trial + size].tobytes() == ws[placed : placed + size].tobytes(), (
                        s,
                        h,
                        v,
                    )
                    split += 1
    assert split >= 200 and walked >= 50, (split, walked)
