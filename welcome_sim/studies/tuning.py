"""Weight search for the greedy family: coordinate search on common random seeds."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.engine.game import game_seeds
from welcome_sim.simcore.ground.userinput import check_name
from welcome_sim.simcore.rules.ruleset import Ruleset
from welcome_sim.strategies.registry import (
    TUNED_FILE,
    Choice,
    builtin_strategies,
    load_tuned,
    parse_strategy,
    user_tuned_file,
)


@dataclass
class TuneResult:
    """The best parameter set found and how it scored."""

    start: dict[str, float]
    best: dict[str, float]
    start_mean: float
    best_mean: float
    holdout_start: float
    holdout_best: float
    evaluations: int


def mean_score(
    ruleset: Ruleset, choice: Choice, values: dict[str, float], seeds: np.ndarray, jobs: int = 1
) -> float:
    """Mean single-player score of a parameter set on these seeds (over `jobs` processes)."""
    from welcome_sim.simcore.engine.parallel import simulate_parallel

    c = Choice(choice.spec, values, choice.label)
    return float(simulate_parallel(ruleset, seeds, 1, [c], jobs).column("total").mean())


def coordinate_search(
    ruleset: Ruleset,
    strategy: str,
    games: int,
    seed: int,
    sweeps: int = 3,
    step: float = 0.3,
    params: list[str] | None = None,
    progress: Callable[[str], None] | None = None,
    jobs: int = 1,
) -> TuneResult:
    """Try each weight up and down by `step` (relative), keep what raises the mean on common seeds,
    halve the step after each sweep; report the start and the best on fresh hold-out seeds too.
    Each evaluation's games are split over `jobs` processes (-1: every core), same results as one."""
    choice = parse_strategy(strategy)
    if not choice.spec.params:
        raise WelcomeSimError(f"--strategy: '{choice.spec.name}' has no parameters to tune")
    names = params or [p.name for p in choice.spec.params if not p.choice]
    for name in names:
        choice.spec.param(name)
    vec = choice.vector()
    current = {p.name: float(vec[p.slot]) for p in choice.spec.params}
    start = dict(current)
    seeds = game_seeds(seed, games)
    best = mean_score(ruleset, choice, current, seeds, jobs)
    start_mean = best
    evaluations = 1
    for sweep in range(sweeps):
        for name in names:
            prm = choice.spec.param(name)
            for direction in (1, -1):
                trial = dict(current)
                delta = step * max(abs(current[name]), 0.1)
                trial[name] = float(np.clip(current[name] + direction * delta, prm.low, prm.high))
                if trial[name] == current[name]:
                    continue
                score = mean_score(ruleset, choice, trial, seeds, jobs)
                evaluations += 1
                if score > best:
                    best, current = score, trial
                    if progress:
                        progress(f"sweep {sweep + 1}: {name} -> {trial[name]:.3g}: mean {score:.2f}")
                    break
        step /= 2
    holdout = game_seeds(seed + 1_000_003, games)
    return TuneResult(
        start,
        current,
        start_mean,
        best,
        mean_score(ruleset, choice, start, holdout, jobs),
        mean_score(ruleset, choice, current, holdout, jobs),
        evaluations + 2,
    )


def write_tuned(name: str, base: str, values: dict[str, float], doc: str, path: Path | None = None) -> Path:
    """Add or replace a named parameter set in a tuned-sets file (default: the user's, in the user
    data folder; the built-in file beside the package is never written). Returns the file."""
    if path is None:
        path = user_tuned_file()
    if path.resolve() == TUNED_FILE.resolve():
        raise WelcomeSimError(f"{path}: the built-in tuned sets are read-only")
    check_name("--name", name, builtin_strategies())
    load_tuned(path)  # validates what is there
    sets = tomllib.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    sets[name] = {"base": base, "doc": doc, "params": {k: round(v, 4) for k, v in values.items()}}
    lines = ["# Tuned parameter sets of the greedy family, written by `welcome-sim tune`.", ""]
    for key, table in sets.items():
        base_, doc_ = table.get("base", "greedy"), table.get("doc", "")
        lines += [f"[{key}]", f"base = {json.dumps(base_)}", f"doc = {json.dumps(doc_)}", f"[{key}.params]"]
        lines += [*(f"{k} = {float(v)!r}" for k, v in table.get("params", {}).items()), ""]
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text("\n".join(lines), encoding="utf-8")
    tmp.replace(path)
    return path
