"""Cross-check kernel results against the independent referee, game by game."""

from __future__ import annotations

import numpy as np

from welcome_sim.referee import GameRecord, IllegalMove, load_rules, replay
from welcome_sim.simcore.engine.game import BatchResult
from welcome_sim.simcore.ground.layout import END_NAMES, SCORE_COMPONENTS
from welcome_sim.simcore.rules.expansions.registry import OUT_COLUMNS, RECORDS


def _register_own_readings() -> None:
    """Let the referee read the expansions of one's own ($WELCOME_SIM_EXPANSIONS) with the reading
    each record names ("module:Class"): the referee imports nothing of ours, so whoever builds its
    map from outside registers them, in every process that referees (this module is how they do)."""
    import importlib

    from welcome_sim.referee.readings import register_reading
    from welcome_sim.simcore.rules.expansions.record import extra_modules, record_of

    for name in extra_modules():
        rec = record_of(name)
        module, cls = rec.referee.split(":")
        register_reading(rec.name, getattr(importlib.import_module(module), cls))


_register_own_readings()

# Kernel columns the referee re-derives on its own.
CHECKED = (
    "total",
    *SCORE_COMPONENTS,
    "n_estates",
    *(f"estate_{i}" for i in range(1, 7)),
    *(f"n_estate_{i}" for i in range(1, 7)),
    # Every expansion counter (each record's result columns): the referee scores them all.
    *(c for r in RECORDS for c in r.columns),
)


AAA_CHECKED = (
    "total",
    "plans",
    "parks",
    "pools",
    "temps",
    "fences",
    "estates",
    "n_estates",
    "cards",
    "expansion",
)


def referee_rules(rs):
    """The referee's own reading of the data files behind a ruleset."""
    opp = None if rs.opponent is None else str(rs.opponent.level)
    x = rs.expansion.path if rs.expansion is not None else None  # a designer's copy too
    # An expansion whose own cards replace every plan set (American Dream) names its file as the
    # plan set's: the referee reads those cards from the expansion itself.
    own_plans = rs.expansion is not None and rs.plans.path == rs.expansion.path
    return load_rules(
        rs.edition.path,
        rs.sheet.path,
        None if own_plans else rs.plans.path,
        mode=rs.mode,
        opponent=opp,
        expansion=x,
        nine=rs.nine,
        deck=rs.deck.path,  # a designer's deck too (with the 9¾ cards its path is the deck's own)
    )


def split_log(log: np.ndarray) -> dict[int, list[list[int]]]:
    """Log rows grouped by game index."""
    games: dict[int, list[list[int]]] = {}
    for row in log.tolist():
        games.setdefault(row[0], []).append(row)
    return games


def referee_game(result: BatchResult, g: int, rows: list[list[int]] | None = None) -> GameRecord:
    """Replay game g of a logged batch through the referee (raises IllegalMove)."""
    if result.log is None:
        raise ValueError("the batch was played without a log")
    rs = result.ruleset
    rules = referee_rules(rs)
    if rows is None:
        rows = split_log(result.log)[g]
    return replay(rules, rows, result.out.shape[1])


def check_batch(result: BatchResult) -> list[str]:
    """Replay every game of a logged batch; return one message per disagreement (empty = all agree)."""
    problems: list[str] = []
    rs = result.ruleset
    rules = referee_rules(rs)
    n_players = result.out.shape[1]
    for g, rows in sorted(split_log(result.log).items()):
        try:
            rec = replay(rules, rows, n_players)
        except IllegalMove as exc:
            problems.append(f"game {g} (seed {result.seeds[g]}): illegal move: {exc}")
            continue
        for p in range(n_players):
            for name in CHECKED:
                k = result.out[g, p, OUT_COLUMNS.index(name)]
                if rec.scores[p][name] != k:
                    problems.append(
                        f"game {g} (seed {result.seeds[g]}) player {p + 1}: {name} kernel {k} referee {rec.scores[p][name]}"
                    )
            if rec.ranks[p] != result.out[g, p, OUT_COLUMNS.index("rank")]:
                problems.append(f"game {g} player {p + 1}: rank differs")
        if rec.aaa is not None:
            for name in AAA_CHECKED:
                k = result.game_column(f"aaa_{name}")[g]
                if rec.aaa[name] != k:
                    problems.append(
                        f"game {g} (seed {result.seeds[g]}): AAA {name} kernel {k} referee {rec.aaa[name]}"
                    )
        played = sum(r.played for r in rec.rounds)  # not the round the first stack ran out in
        if played != result.game_column("rounds")[g]:
            problems.append(f"game {g}: rounds kernel {result.game_column('rounds')[g]} referee {played}")
        end = int(result.game_column("end_reason")[g])
        kernel_reasons = [name for bit, name in END_NAMES.items() if end & bit]
        if sorted(kernel_reasons) != sorted(rec.end_reasons):
            problems.append(f"game {g}: end reasons kernel {kernel_reasons} referee {rec.end_reasons}")
    return problems
