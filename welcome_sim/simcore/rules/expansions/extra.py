"""The plug-in branches of hooks.py: the hooks of an expansion of one's own (a module named by
record.EXTRA_ENV, outside welcome_sim), bound when this module is imported.

Numba needs every call static, so hooks.py cannot call a module it does not import by name. It
calls instead the functions bound here, behind the compile-time switch EXTRA: 0 when no module of
one's own is named (the branches are pruned at compile time, so base games and the built-in
expansions compile and play exactly as without them), 1 when one is (its hooks are called for its
X code, X_EXTRA). The hooks a plug-in may declare are PLUGIN_HOOKS; one it does not declare is
bound to a stub that does what the hook does without an expansion. Numba reads the bindings when
it compiles, and its on-disk cache would not see them change: kernel_digest (welcome_sim/
__init__.py) hashes the variable's value and the plug-in modules' sources, so a cache compiled
for one set of plug-ins is never used with another.

One plug-in at a time: a second module of one's own with hooks is refused (one more set of
branches in hooks.py would lift that).
"""

from __future__ import annotations

import importlib

from welcome_sim.simcore.ground.jit import leaf
from welcome_sim.simcore.rules.expansions.record import EXTRA_ENV, allocate, extra_modules, record_of

# The hooks a plug-in may declare (Record.hooks), each called as hooks.py calls the built-in ones:
# x_on_number(R, cells, flags, sc, p, s, h), x_round_end(R, sc, n_players),
# x_score(R, cells, flags, sc, p, row), x_estate_feature(R, cells, flags, p, s, a, b, feature),
# x_goal(R, cells, flags, sc, p, plan), x_progress(R, cells, flags, sc, p, plan),
# x_value(R, cells, flags, fences, sc, p).
PLUGIN_HOOKS = (
    "x_on_number",
    "x_round_end",
    "x_score",
    "x_estate_feature",
    "x_goal",
    "x_progress",
    "x_value",
)


@leaf
def _no_on_number(R, cells, flags, sc, p, s, h) -> None:
    """No plug-in: nothing happens."""
    return None


@leaf
def _no_round_end(R, sc, n_players) -> None:
    """No plug-in: nothing happens."""
    return None


@leaf
def _no_score(R, cells, flags, sc, p, row) -> None:
    """No plug-in: no score columns."""
    return None


@leaf
def _no_estate_feature(R, cells, flags, p, s, a, b, feature) -> int:
    """No plug-in: no feature."""
    return 0


@leaf
def _no_goal(R, cells, flags, sc, p, plan) -> bool:
    """No plug-in: no goal met."""
    return False


@leaf
def _no_progress(R, cells, flags, sc, p, plan) -> float:
    """No plug-in: no progress."""
    return 0.0


@leaf
def _no_value(R, cells, flags, fences, sc, p) -> float:
    """No plug-in: no value."""
    return 0.0


_STUBS = {
    "x_on_number": _no_on_number,
    "x_round_end": _no_round_end,
    "x_score": _no_score,
    "x_estate_feature": _no_estate_feature,
    "x_goal": _no_goal,
    "x_progress": _no_progress,
    "x_value": _no_value,
}


def _bind() -> tuple[int, int, dict]:
    """(EXTRA, X_EXTRA, hook -> function) of the plug-in module named by EXTRA_ENV, if any."""
    with_hooks = [m for m in extra_modules() if record_of(m).hooks]
    if not with_hooks:
        return 0, -1, dict(_STUBS)
    if len(with_hooks) > 1:
        raise ValueError(f"${EXTRA_ENV}: one expansion of one's own with hooks at a time, not {with_hooks}")
    name = with_hooks[0]
    rec, mod = record_of(name), importlib.import_module(name)
    bound = dict(_STUBS)
    for hook, func in rec.hooks:
        if hook not in PLUGIN_HOOKS:
            raise ValueError(
                f"{name}: RECORD.hooks names '{hook}', not a plug-in hook; valid: {', '.join(PLUGIN_HOOKS)}"
            )
        if not callable(getattr(mod, func, None)):
            raise ValueError(f"{name}: RECORD.hooks binds {hook} to '{func}', which the module lacks")
        bound[hook] = getattr(mod, func)
    return 1, allocate(rec, name).code, bound


EXTRA, X_EXTRA, _BOUND = _bind()
extra_on_number = _BOUND["x_on_number"]
extra_round_end = _BOUND["x_round_end"]
extra_score = _BOUND["x_score"]
extra_estate_feature = _BOUND["x_estate_feature"]
extra_goal = _BOUND["x_goal"]
extra_progress = _BOUND["x_progress"]
extra_value = _BOUND["x_value"]
