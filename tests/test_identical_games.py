"""Speed work must not change a single game: every cell of the fixed grid (tests/rowgrid.py:
editions x modes x expansions x 9¾ x strategies x player counts) plays the same rows and the same
log as at commit b17e405, before the speed issue's first change."""

from __future__ import annotations

import json

import pytest
from conftest import DATA
from rowgrid import cells, digest

RECORD = json.loads((DATA / "rows_checksum.json").read_text())
CELLS = list(cells())


def test_grid_is_the_recorded_grid() -> None:
    assert sorted(k for k, *_ in CELLS) == sorted(RECORD)
    assert len(RECORD) >= 300
    assert not any(v.startswith("unavailable") for v in RECORD.values())


@pytest.mark.parametrize("key,opts,strategies,players", CELLS, ids=[c[0] for c in CELLS])
def test_games_identical_to_record(key: str, opts: dict, strategies: tuple, players: int) -> None:
    assert digest(key, opts, strategies, players) == RECORD[key]
