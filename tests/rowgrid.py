"""A fixed grid of kernel games whose rows and logs are fingerprinted: a speed change must leave
every game bit-identical (issue 14). `scripts/rows_checksum.py --write` records the digests;
tests/test_identical_games.py asserts them.

The digests in tests/data/rows_checksum.json were recorded at commit b17e405, before any change
of the speed work (the Zombie Outbreak cells when that expansion landed, with `--add`), and
re-recorded once by issue 43, which allowed greedy's games to change at no loss of strength (the
earlier record: tests/data/rows_checksum_b17e405.json, checked in test_identical_games.py). They
must never be re-recorded to make a speed change pass. A change that is meant to change games
re-records them in its own commit and says so (`scripts/rows_checksum.py --write`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator

import numpy as np

from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.engine.game import game_seeds, simulate
from welcome_sim.simcore.rules.expansions.record import MODULES
from welcome_sim.simcore.rules.expansions.registry import OUT_COLUMNS, RECORDS
from welcome_sim.simcore.rules.ruleset import load_ruleset

EDITIONS = ("collector", "first")
MODES = ("standard", "advanced", "expert", "expert-advanced", "solo", "solo-advanced")
# Every built-in expansion, in the registry's order: one of one's own ($WELCOME_SIM_EXPANSIONS, set
# in a test process) is no part of the recorded grid.
EXPANSIONS = ("none", *(r.name for r in RECORDS if r.module in MODULES))
GAMES = 24
# Per-player columns when the digests were recorded; columns added since (the later expansions'
# counters) are outside the digest and must be zero in every cell of this grid. An expansion's
# cells were recorded with the columns up to its own (by name; the others: RECORDED_OUT_LEN).
RECORDED_OUT_LEN = 45
RECORDED_WIDTH = {"zombies": 48, "doomsday": 52, "halloween": 52, "american-dream": 52}
# Roswell's cells were recorded with the base columns and its own, by name (their positions move
# when expansions merge); Halloween's with the columns up to Doomsday's and its own (recorded
# before Roswell's columns came between them).
RECORDED_X_COLUMNS = {
    "roswell": ("objective", "zoorgs", "infiltrated"),
    "halloween": ("ghosts", "candies", "ghost_level", "candy_level"),
    "quack": ("ducklings", "ducklings_connected", "phases_triggered", "phases_in_play"),
    "american-dream": ("perfect", "columns_complete", "column_bonuses", "street_bonuses"),
}
# No rules for the first edition's solo variant.
COLLECTOR_SOLO_ONLY = ("zombies", "roswell", "quack", "american-dream")
NO_ADVANCED = ("american-dream",)  # "cannot be played with the Advanced Mode"

# Every strategy and policy in every mode; mixed seats where there are several.
STRATEGY_SETS: tuple[tuple[str, ...], ...] = (
    ("greedy",),
    ("greedy-tuned",),
    ("plan-rusher",),
    ("builder",),
    ("greedy:noise=3",),
    ("random",),
    ("first-fit",),
    ("spread",),
)
FIRST_EXTRA: tuple[tuple[str, ...], ...] = (("greedy:reshuffle=1",), ("greedy:reshuffle=2",))
MIXED = ("greedy", "random", "spread")


def _players(mode: str) -> tuple[int, ...]:
    return (1,) if mode.startswith("solo") else (2, 3) if mode.startswith("expert") else (1, 4)


def cells() -> Iterator[tuple[str, dict, tuple[str, ...], int]]:
    """(key, ruleset options, strategies, players) for every cell of the grid."""
    for edition in EDITIONS:
        for mode in MODES:
            for expansion in EXPANSIONS:
                for nine in (False, True):
                    if nine and expansion != "none":
                        continue
                    if expansion in COLLECTOR_SOLO_ONLY and edition == "first" and mode.startswith("solo"):
                        continue  # no rules for the first edition's solo variant
                    if expansion in NO_ADVANCED and mode.endswith("advanced"):
                        continue
                    opts = {"edition": edition, "mode": mode, "expansion": expansion, "nine": nine}
                    sets = STRATEGY_SETS + (FIRST_EXTRA if edition == "first" else ())
                    if expansion != "none" or nine:
                        sets = (("greedy",), ("random",), ("greedy:reshuffle=2",))[
                            : 3 if edition == "first" else 2
                        ]
                    for players in _players(mode):
                        for strategies in sets:
                            key = f"{edition}/{mode}/{expansion}/{'nine' if nine else '-'}/{players}p/{'+'.join(strategies)}"
                            yield key, opts, strategies, players
                        if players > 1 and expansion == "none" and not nine:
                            yield (
                                f"{edition}/{mode}/none/-/{players}p/mixed",
                                opts,
                                MIXED[:players] + ("greedy",) * (players - len(MIXED)),
                                players,
                            )


def digest(
    key: str, opts: dict, strategies: tuple[str, ...], players: int, variant: str | None = None
) -> str:
    """sha256 of the per-player rows, the per-game rows and the log of the cell's games (played on
    the kernel variant simulate() picks, or on `variant`)."""
    try:
        rs = load_ruleset(**opts)
    except WelcomeSimError as e:  # a combination the rules do not have is part of the record
        return f"unavailable: {e}"
    seed = int.from_bytes(hashlib.sha256(key.encode()).digest()[:4], "little")
    seeds = game_seeds(seed, GAMES)
    res = simulate(rs, seeds, players, list(strategies), log=True, variant=variant)
    # Zombie cells were recorded with the Zombie columns; older cells without them. Newer
    # expansions' cells with the base columns and their own, by name (their positions move when
    # expansions merge); every other column must be zero.
    own = np.array(
        [OUT_COLUMNS.index(c) for c in RECORDED_X_COLUMNS.get(opts["expansion"], ())], dtype=np.int64
    )
    width = RECORDED_WIDTH.get(opts["expansion"], RECORDED_OUT_LEN)
    rest = np.ones(res.out.shape[2], dtype=bool)
    rest[:width] = False
    rest[own] = False
    if np.any(res.out[:, :, rest]):
        return "columns added after the record are not zero"
    out = np.concatenate([res.out[:, :, :width], res.out[:, :, own]], axis=2)
    h = hashlib.sha256()
    for arr in (out, res.games, res.log):
        h.update(np.ascontiguousarray(arr, dtype=np.int64).tobytes())
    return h.hexdigest()


def all_digests() -> dict[str, str]:
    """Digest of every cell of the grid."""
    return {key: digest(key, opts, strats, p) for key, opts, strats, p in cells()}
