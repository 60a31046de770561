"""Speed work must not change a single game: every cell of the fixed grid (tests/rowgrid.py:
editions x modes x expansions x 9¾ x strategies x player counts) plays the same rows and the same
log as recorded in tests/data/rows_checksum.json. A cell plays on the kernel variant simulate()
picks (simcore/engine/variants.py); the cells a smaller variant plays are played on the whole
kernel too.

The record before issue 43 (b17e405 to b720adc: tests/data/rows_checksum_b17e405.json) is kept as
the record of what that issue changed: greedy's search skips the fence, bis and improvement
options another placement of the turn showed too weak, and values only the placements near their
proportional slot (issue 43 allowed new games at no loss of strength: docs/findings/greedy.md), so
the cells with a seat of the greedy family play other games; the others play the games they played
then. When the screen was made exact for noisy players (72eed0c: each option's noise drawn before
the screen decides), the greedy-tuned and greedy:noise=3 cells were re-recorded."""

from __future__ import annotations

import json

import pytest
from conftest import DATA
from rowgrid import cells, digest

from welcome_sim.simcore.engine.game import batch_variant

RECORD = json.loads((DATA / "rows_checksum.json").read_text())
BEFORE_43 = json.loads((DATA / "rows_checksum_b17e405.json").read_text())
# Strategies that never run greedy's search (the last part of a cell's key names its seats).
NOT_SEARCHING = ("random", "first-fit", "spread")
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


def test_issue_43_changed_only_the_games_of_greedys_search() -> None:
    """The cells without a greedy-family seat play the games recorded before issue 43; the new
    record differs from the old one in greedy's cells (the option screen)."""
    assert sorted(BEFORE_43) == sorted(RECORD)
    plain = [k for k in RECORD if k.rsplit("/", 1)[1] in NOT_SEARCHING]
    searching = [k for k in RECORD if k.rsplit("/", 1)[1] not in NOT_SEARCHING]
    assert len(plain) >= 100 and len(searching) >= 100
    assert [k for k in plain if BEFORE_43[k] != RECORD[k]] == []
    assert sum(BEFORE_43[k] != RECORD[k] for k in searching) > len(searching) // 2
