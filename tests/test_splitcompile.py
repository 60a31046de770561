"""The helper process of a cold compile (simcore/engine/splitcompile.py) and its record."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from numba.core import types

import welcome_sim
from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.engine import splitcompile
from welcome_sim.simcore.engine.splitcompile import compile_targets, decode, encode, function_name, targets
from welcome_sim.simcore.engine.variants import VARIANTS
from welcome_sim.simcore.engine.warmup import warm_kernel
from welcome_sim.simcore.rules.sheetops import Sheets


def test_argument_types_read_back_as_recorded():
    from numba import typeof

    bundle = typeof(Sheets(*(np.zeros((2, 3, 4), np.int64),) * 3, np.zeros((2, 3), np.int64)))
    for t in (
        types.int64,
        types.float64,
        types.boolean,
        types.uint64,
        types.Array(types.int64, 2, "C"),
        types.Array(types.float64, 3, "C"),
        bundle,
        types.UniTuple(types.int64, 3),
        types.Tuple((types.int64, types.float64)),
    ):
        assert decode(json.loads(json.dumps(encode(t)))) == t
    # A type the record cannot hold exactly is refused when recording, not written wrongly.
    with pytest.raises(ValueError, match="cannot record the argument type"):
        encode(types.Array(types.int64, 1, "C", readonly=True))


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_record_holds_the_signatures_the_kernel_compiles(variant):
    """A stale record would only cost time, so nothing else would notice it: each recorded callee's
    cache index (in the suite's compiled kernel) holds exactly its recorded signature. When this
    fails, run scripts/compile_split.py."""
    record = json.loads(splitcompile.RECORD.read_text(encoding="utf-8"))
    assert record["variants"][variant], f"no helper callees recorded for {variant}"
    warm_kernel(variants=[variant])
    found = targets(variant)
    assert len(found) == len(record["variants"][variant])  # every recorded function and type resolves
    for d, sig in found:
        compiled = {key[0] for key in d._cache._cache_file._load_index()}
        assert compiled == {sig}, f"{function_name(d)} ({variant}): compiled {compiled}, recorded {sig}"


def test_a_stale_record_costs_only_time(tmp_path, monkeypatch):
    # A function gone, a signature that no longer types: skipped, nothing raised.
    stale = {
        "variants": {
            "full": [
                {"function": "welcome_sim.strategies.greedy_look:no_such_function", "signature": ["int64"]},
                {"function": "welcome_sim.strategies.greedy_look:look_ahead", "signature": ["int64"] * 7},
            ]
        }
    }
    record = tmp_path / "splitcompile.json"
    record.write_text(json.dumps(stale), encoding="utf-8")
    monkeypatch.setattr(splitcompile, "RECORD", record)
    assert len(targets("full")) == 1
    assert compile_targets("full") == 0
    record.write_text("{not json", encoding="utf-8")
    assert targets("full") == []


def test_the_helper_is_off_when_asked_or_on_one_core(monkeypatch):
    from welcome_sim.simcore.engine import warmup as W

    monkeypatch.delenv("WELCOME_SIM_COMPILE_PROCESSES", raising=False)
    monkeypatch.setenv(splitcompile.OFF_ENV, "0")
    assert splitcompile.off() and W.start_helper("full") is None
    monkeypatch.delenv(splitcompile.OFF_ENV)
    monkeypatch.setenv("WELCOME_SIM_COMPILE_PROCESSES", "1")
    assert W.start_helper("full") is None
    monkeypatch.delenv("WELCOME_SIM_COMPILE_PROCESSES")
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    assert W.start_helper("full") is None
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    started: list[str] = []
    monkeypatch.setattr(splitcompile, "start", started.append)
    W.start_helper("full")
    assert started == ["full"]
    monkeypatch.setenv(splitcompile.OFF_ENV, "no")
    with pytest.raises(WelcomeSimError, match=r"WELCOME_SIM_SPLIT_COMPILE: 'no' is not 0 or 1; give 0"):
        W.start_helper("full")
    # A child started to compile a variant of its own starts no helper.
    assert splitcompile.env_without_helper()[splitcompile.OFF_ENV] == "0"


def test_a_cache_file_holding_another_signature_is_not_loaded():
    """Two processes saving two signatures of one function at once can leave the index naming the
    other's file; the kernel's functions then compile instead of loading the wrong code."""
    from types import SimpleNamespace

    from welcome_sim.simcore.ground.jit import signature_checked

    held = SimpleNamespace(signature=SimpleNamespace(args=(types.int64, types.float64)))
    load = signature_checked(lambda sig, ctx: held)
    assert load((types.int64, types.float64), None) is held
    assert load((types.int64, types.int64), None) is None
    assert signature_checked(lambda sig, ctx: None)((types.int64,), None) is None
    # Every function of the kernel loads through the check (a variant's copies too).
    from welcome_sim.simcore.engine.kernel import play_batch
    from welcome_sim.simcore.engine.variants import BASE_GREEDY, specialize

    for d in (play_batch, specialize(play_batch, BASE_GREEDY)):
        assert d._cache.load_overload.__qualname__.startswith("signature_checked")


@pytest.mark.slow
def test_a_kernel_whose_recorded_callees_the_helper_compiled_plays_the_same_games(tmp_path):
    """The helper compiles the base variant's recorded callees into an empty cache; a cold `play
    --seed 1` then loads every one of them from there (Numba's cache log) and plays move for move
    as the suite's kernel does (whose games tests/test_identical_games.py pins)."""
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path), NUMBA_DEBUG_CACHE="1")
    env[splitcompile.OFF_ENV] = "0"  # the play below: no helper of its own, only the one run here
    for name in ("NUMBA_CACHE_DIR", welcome_sim.CHOSEN_ENV):
        env.pop(name, None)
    code = "from welcome_sim.simcore.engine.splitcompile import main; main('base_greedy')"
    helper = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=900
    )
    assert helper.returncode == 0, helper.stderr
    argv = [sys.executable, "-m", "welcome_sim.cli", "play", "--seed", "1"]
    cold = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=900)
    assert cold.returncode == 0, cold.stderr
    loaded = [x for x in cold.stdout.splitlines() if x.startswith("[cache] data loaded from")]
    for d, _ in targets("base_greedy"):
        name = f"{os.path.basename(d.py_func.__code__.co_filename)[:-3]}.{d.py_func.__qualname__}-"
        assert any(name in x for x in loaded), f"{name} was compiled again, not loaded"
    games = [x for x in cold.stdout.splitlines() if not x.startswith("[cache]")]
    warm = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    assert warm.returncode == 0, warm.stderr
    assert games == warm.stdout.splitlines() and "referee: every move legal" in warm.stdout
