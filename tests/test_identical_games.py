"""Speed work must not change a single game: every cell of the fixed grid (tests/rowgrid.py:
editions x modes x expansions x 9¾ x strategies x player counts) plays the same rows and the same
log as at commit b17e405, before the speed issue's first change. A cell plays on the kernel variant
simulate() picks (simcore/engine/variants.py); the cells a smaller variant plays are played on the whole
kernel too."""

from __future__ import annotations

import json

import pytest
from conftest import DATA
from rowgrid import cells, digest

from welcome_sim.simcore.engine.game import batch_variant

RECORD = json.loads((DATA / "rows_checksum.json").read_text())
CELLS = list(cells())
# Cells a smaller variant plays: the whole kernel must play them the same.
SMALLER = [
    c for c in CELLS if c[1]["expansion"] == "none" and batch_variant(True, list(c[2]), c[3]) != "full"
]


def test_grid_is_the_recorded_grid() -> None:
    assert sorted(k for k, *_ in CELLS) == sorted(RECORD)
    assert len(RECORD) >= 300
    assert not any(v.startswith("unavailable") for v in RECORD.values())


@pytest.mark.parametrize("key,opts,strategies,players", CELLS, ids=[c[0] for c in CELLS])
def test_games_identical_to_record(key: str, opts: dict, strategies: tuple, players: int) -> None:
    assert digest(key, opts, strategies, players) == RECORD[key]


@pytest.mark.parametrize("key,opts,strategies,players", SMALLER, ids=[c[0] for c in SMALLER])
def test_the_whole_kernel_plays_them_too(key: str, opts: dict, strategies: tuple, players: int) -> None:
    assert digest(key, opts, strategies, players, variant="full") == RECORD[key]
