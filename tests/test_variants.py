"""Kernel variants (simcore/engine/variants.py): a smaller kernel compiled from the same functions with
switches of simcore/ground/features.py off plays the same games as the whole kernel, and its compiled
code holds none of what the switches leave out."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from welcome_sim.simcore.engine import variants, warmup
from welcome_sim.simcore.engine.game import batch_variant, game_seeds, simulate
from welcome_sim.simcore.engine.kernel import play_batch
from welcome_sim.simcore.ground.jit import leaf
from welcome_sim.simcore.ground.table import R_PLAN_XFEAT
from welcome_sim.simcore.rules.expansions.compile import MODULES
from welcome_sim.simcore.rules.ruleset import load_ruleset

# A switch of features.py read by this module (Numba reads it as a constant).
EXPANSIONS = 1


@leaf
def _extra(x):
    return x * 100


@leaf
def _switched(x):
    if EXPANSIONS == 1:
        return x + _extra(x)
    return x


@leaf
def _caller(x):
    return _switched(x) + 1


@leaf
def _plain(x):
    return x - 1


def test_a_copy_reads_its_own_switches_and_leaves_the_original_alone() -> None:
    copy, copies = variants._copy_graph(_caller, "toy_variant", {"EXPANSIONS": 0})
    assert copy is not _caller and copy.py_func.__qualname__ == "_caller__toy_variant"
    assert (
        copies[id(_caller)] is copy and copies[id(_switched)].py_func.__qualname__ == "_switched__toy_variant"
    )
    assert copy(3) == 4  # 3 + 1: the switch is off in the copy
    assert _caller(3) == 304  # 3 + 300 + 1: the original as it was
    # Only the path to the switch's reader is copied; a function that reads none stays shared.
    assert variants._to_copy(_caller, {"EXPANSIONS": 0}) == [_caller, _switched]
    assert variants._copy_graph(_plain, "toy_variant", {"EXPANSIONS": 0}) == (_plain, {})


def test_variants_are_named_and_checked() -> None:
    assert set(variants.VARIANTS) == set(warmup.ALL_VARIANTS)
    assert variants.specialize(play_batch, variants.FULL) is play_batch
    base = variants.specialize(play_batch, variants.BASE_GREEDY)
    assert base is variants.specialize(play_batch, variants.BASE_GREEDY)  # made once
    # Its own name: Numba's cache keeps it apart from the whole kernel.
    assert base.py_func.__qualname__ == "play_batch__base_greedy"
    # A function as a variant compiles it: its copy on a path to a switch, else itself.
    from welcome_sim.strategies.greedy_search import best_moves
    from welcome_sim.strategies.greedy_walk import mass

    moves = variants.variant_function(play_batch, variants.BASE_GREEDY, best_moves)
    assert moves.py_func.__qualname__ == "best_moves__base_greedy"
    assert variants.variant_function(play_batch, variants.FULL, best_moves) is best_moves
    assert variants.variant_function(play_batch, variants.BASE_GREEDY, mass) is mass
    with pytest.raises(ValueError, match="unknown kernel variant 'fast'; valid: full, base_greedy"):
        variants.specialize(play_batch, "fast")
    with pytest.raises(ValueError, match="unknown switches"):
        variants._copy_graph(play_batch, "x", {"NO_SUCH_SWITCH": 0})


@pytest.mark.parametrize(
    "base,strategies,players,expected",
    [
        (True, ["greedy"], 1, "base_greedy"),
        (True, ["greedy", "plan-rusher", "builder", "greedy-tuned"], 4, "base_greedy"),
        (True, ["greedy:noise=3"], 2, "base_greedy"),
        (True, ["greedy:look_moves=1"], 1, "base_greedy"),  # 0 or 1: plain greedy
        (True, ["greedy:look_moves=3"], 1, "full"),  # the look-ahead player
        (True, ["random"], 1, "full"),
        (True, ["greedy", "spread"], 2, "full"),
        (False, ["greedy"], 1, "full"),  # an expansion
    ],
)
def test_the_smallest_variant_that_covers_a_batch(base, strategies, players, expected) -> None:
    assert batch_variant(base, strategies, players) == expected


def test_a_variant_refuses_a_batch_it_cannot_play() -> None:
    rs = load_ruleset("collector")
    with pytest.raises(ValueError, match="kernel variant 'base_greedy' cannot play this batch; 'full'"):
        simulate(rs, game_seeds(1, 2), 1, ["random"], variant="base_greedy")
    easter = load_ruleset("collector", expansion="easter")
    with pytest.raises(ValueError, match="cannot play this batch"):
        simulate(easter, game_seeds(1, 2), 1, ["greedy"], variant="base_greedy")


@pytest.mark.parametrize(
    "edition,mode,players,strategies",
    [
        ("collector", "standard", 1, ["greedy"]),
        ("collector", "advanced", 4, ["greedy", "plan-rusher", "builder", "greedy-tuned"]),
        ("collector", "expert-advanced", 3, ["greedy"]),
        ("collector", "solo-advanced", 1, ["greedy"]),
        ("first", "solo", 1, ["greedy:reshuffle=2"]),
    ],
)
def test_base_greedy_plays_what_the_whole_kernel_plays(edition, mode, players, strategies) -> None:
    rs = load_ruleset(edition, mode=mode)
    seeds = game_seeds(11, 30)
    a = simulate(rs, seeds, players, strategies, log=True)  # picks base_greedy
    b = simulate(rs, seeds, players, strategies, log=True, variant="full")
    assert np.array_equal(a.out, b.out) and np.array_equal(a.games, b.games)
    assert np.array_equal(a.log, b.log) and a.log.shape[0] > 0


def _object_code(dispatcher) -> bytes:
    """The cached machine code of a compiled entry point (Numba's data file holds its object file,
    symbol names included; a cached library cannot be inspected otherwise): the entry compiled for
    this machine's CPU, as a cache folder shared with another CPU (or valgrind's) holds one each."""
    cache = dispatcher._cache
    magic = dispatcher.targetctx.codegen().magic_tuple()
    index = cache._cache_file._load_index()  # (signature, CPU, source hashes) -> data file
    (name,) = {name for key, name in index.items() if key[1] == magic}
    return (Path(cache._cache_path) / name).read_bytes()


def _has(code: bytes, module: str, function: str) -> bool:
    """Whether the object code names the function of that module or its copy in a variant (Numba's
    mangled names give each part after its length: 10strategies7builtin13choose_random, or
    26choose_random__base_greedy for the copy)."""
    return (
        re.search(rb"%d%s\d+%s(__\w+)?[A-Z]" % (len(module), module.encode(), function.encode()), code)
        is not None
    )


def test_base_greedy_compiles_no_expansion_and_no_other_strategy() -> None:
    simulate(load_ruleset("collector"), game_seeds(1, 2), 1, ["greedy"])
    simulate(load_ruleset("collector"), game_seeds(1, 2), 1, ["greedy"], variant="full")
    full = _object_code(play_batch)
    base = _object_code(variants.specialize(play_batch, variants.BASE_GREEDY))
    # Every expansion module, the other strategies, the look-ahead (look_ahead is inlined into
    # choose_greedy; _sample_round is a function of its own).
    assert len(MODULES) >= 9  # every expansion
    left_out = [("expansions", m.__name__.rsplit(".", 1)[1], "") for m in MODULES.values()]
    left_out += [("strategies", "builtin", f) for f in ("choose_random", "choose_first_fit", "choose_spread")]
    left_out += [("strategies", "greedy_look", "_sample_round")]  # fmt: skip
    for package, module, function in left_out:
        what = f"{package}.{module}.{function}"
        if function:
            assert _has(full, module, function), what  # the control: the whole kernel has it
            assert not _has(base, module, function), what
        else:
            name = b"%d%s%d%s" % (len(package), package.encode(), len(module), module.encode())
            assert name in full and name not in base, what
    assert _has(base, "greedy_eval", "combine") and _has(base, "hooks", "x_value")
    assert b"combine__base_greedy" in base
    assert len(base) < 0.6 * len(full)


def test_a_base_table_has_no_expansion_code_and_no_expansion_plan() -> None:
    assert variants.base_table(load_ruleset("collector").kernel)
    assert variants.base_table(load_ruleset("first", mode="solo", nine=True).kernel)
    assert not variants.base_table(load_ruleset("collector", expansion="easter").kernel)
    R = load_ruleset("collector").kernel.copy()
    R[R_PLAN_XFEAT, 0] = 1  # a plan measured by an expansion's feature
    assert not variants.base_table(R)
