"""Strategies by name, with typed, documented parameters: `NAME` or `NAME:key=value,key=value`.

Compiled strategies share one kernel dispatch (`KERNEL_IDS`); the styles (plan-rusher, builder)
and tuned sets are parameter sets of the greedy evaluation. The built-in tuned sets live in
`tuned.toml` beside this file (read-only); `welcome-sim tune` writes a user's sets into
`tuned.toml` in the user data folder (`userinput.user_data_dir()`).
"""

from __future__ import annotations

import copy
import hashlib
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from welcome_sim.errors import WelcomeSimError
from welcome_sim.strategies import greedy_layout as G

RANDOM, FIRST_FIT, SPREAD, GREEDY, PYTHON = 0, 1, 2, 3, 99
MAX_PARAMS = G.N_PARAMS  # the parameter slots greedy_layout allocates
TUNED_FILE = Path(__file__).parent / "tuned.toml"  # built-in tuned sets, read-only
LADDER_FILE = Path(__file__).parent / "ladder.toml"  # the skill ladder's levels, weakest first
DEFAULT_STRATEGY = "greedy"


@dataclass(frozen=True)
class Param:
    """One numeric parameter of a strategy."""

    name: str
    slot: int
    default: float
    low: float
    high: float
    doc: str
    choice: bool = False  # a policy number (0, 1, 2...), not a weight: whole values only, never tuned


@dataclass(frozen=True)
class StrategySpec:
    """A named strategy: its kernel id, parameters and their values for this name."""

    name: str
    kernel_id: int
    doc: str
    params: tuple[Param, ...] = ()
    values: dict[str, float] = field(default_factory=dict)

    def vector(self, overrides: dict[str, float] | None = None) -> np.ndarray:
        """Parameter values in kernel slot order (defaults, then this set, then overrides)."""
        vec = np.zeros(MAX_PARAMS, dtype=np.float64)
        for prm in self.params:
            vec[prm.slot] = prm.default
        for key, val in {**self.values, **(overrides or {})}.items():
            vec[self.param(key).slot] = val
        return vec

    def param(self, key: str) -> Param:
        """The parameter named key, or an error listing the valid ones."""
        for prm in self.params:
            if prm.name == key:
                return prm
        from welcome_sim.simcore.ground.userinput import nearest

        valid = ", ".join(p.name for p in self.params) or "none (it takes no parameters)"
        hint = nearest(key, [p.name for p in self.params])
        raise WelcomeSimError(f"--strategy: '{self.name}' has no parameter '{key}'{hint}; valid: {valid}")


# Defaults: found by `welcome-sim tune` from hand-set starting weights, rounded (how: docs/findings/strategies.md).
GREEDY_PARAMS = (
    Param(
        "noise",
        G.NOISE,
        0.0,
        0.0,
        60.0,
        "width of uniform noise added to each move's value (variety, tie-breaks; the skill ladder's "
        "lower levels are made of it)",
    ),
    Param(
        "park",
        G.W_PARK,
        1.24,
        0.0,
        3.0,
        "weight of park boxes (credited linearly toward the street's last value)",
    ),
    Param("pool", G.W_POOL, 0.7, 0.0, 3.0, "weight of the pool track value"),
    Param("temp", G.W_TEMP, 0.55, 0.0, 3.0, "weight of the temp-worker majority points"),
    Param("estate", G.W_ESTATE, 1.2, 0.0, 3.0, "weight of estate values times their completion chance"),
    Param("plan", G.W_PLAN, 0.56, 0.0, 3.0, "weight of plan points times progress toward them"),
    Param(
        "plan_exp",
        G.PLAN_EXP,
        2.4,
        0.5,
        4.0,
        "exponent on plan progress (higher: value only near-complete plans)",
    ),
    Param("rho", G.RHO, 1.0, 0.3, 1.5, "completion chance factor per empty house of an estate"),
    Param("need", G.NEED, 1.5, 0.3, 5.0, "deck weight of numbers an empty house needs to be sure to fill"),
    Param("dead", G.W_DEAD, 3.2, 0.0, 10.0, "penalty per house that can no longer be numbered"),
    Param("long_house", G.W_LONG, 0.32, 0.0, 3.0, "value per numbered house in a stretch longer than 6"),
    Param(
        "impr_prior", G.W_IMPR_PRIOR, 0.39, 0.0, 3.0, "estates of each size still to come, for improvements"
    ),
    Param("pool_waste", G.W_POOL_WASTE, 1.6, 0.0, 6.0, "penalty per pool house numbered without its pool"),
    Param("extension", G.W_EXT, 1.4, 0.0, 3.0, "weight of the extension penalty track"),
    Param(
        "temp_target",
        G.TEMP_TARGET,
        5.0,
        1.0,
        11.0,
        "temp workers that count as a sure first place at a table",
    ),
    Param(
        "aaa",
        G.W_AAA,
        1.0,
        0.0,
        3.0,
        "AAA solo mode: weight of the points the card left over is worth to the AAA",
    ),
    Param(
        "roundabout_margin",
        G.RB_MARGIN,
        12.0,
        -5.0,
        20.0,
        "Advanced mode: how much a roundabout must improve the sheet's value to be built "
        "(12 scored best of 2-20 in solo games)",
    ),
    Param(
        "expansion",
        G.W_X,
        1.0,
        0.0,
        3.0,
        "expansion sheets: weight of the expansion's own points (eggs, cones, strings) and their prospects",
    ),
    Param(
        "reshuffle",
        G.RESHUFFLE,
        0.0,
        0.0,
        2.0,
        "first edition, first to validate a plan: reshuffle all cards into three new stacks? 0 never, "
        "1 always, 2 when the cards left in the stacks fit the sheet worse than the whole deck (measured: "
        "always costs 0.5-1.5 points, 2 is even with never)",
        choice=True,
    ),
    Param(
        "hold",
        G.HOLD,
        0.0,
        0.0,
        2.0,
        "Zombie Outbreak, a horde about to move: 0 hold it with an ammunition when the evaluation says "
        "so, 1 never, 2 always when ammunition is left (never costs about 2 points, always about 1)",
        choice=True,
    ),
    Param(
        "look_moves",
        G.LOOK_K,
        0.0,
        0.0,
        16.0,
        "look-ahead: how many of greedy's best moves are tried over sampled futures (0 or 1: plain "
        "greedy, one step)",
        choice=True,
    ),
    Param(
        "look_samples",
        G.LOOK_S,
        8.0,
        1.0,
        256.0,
        "look-ahead: sampled futures per move (the same futures for every move)",
        choice=True,
    ),
    Param(
        "look_depth",
        G.LOOK_D,
        1.0,
        1.0,
        8.0,
        "look-ahead: rounds of sampled cards played by greedy after the move before its sheet is valued",
        choice=True,
    ),
    Param(
        "objective",
        G.OBJECTIVE,
        0.0,
        0.0,
        6.0,
        "Roswell, at set-up: 0 the infiltration objective its estimate of infiltrated estates pays "
        "best, 1-4 always that objective box",
        choice=True,
    ),
    Param(
        "xchoice",
        G.X_CHOICE,
        0.0,
        0.0,
        1.0,
        "an expansion's own decisions (Halloween: ghost or candy, claims, Ghost bonuses): 0 the option "
        "the evaluation values most, 1 always the first option (ghost, highest level, first alternative)",
        choice=True,
    ),
    Param(
        "blind",
        G.BLIND,
        0.0,
        0.0,
        1.0,
        "1: blind to the expansion's own rules (the blind cost of `difficulty`): none of its points, "
        "goals, plan features or AAA prices valued; its decisions by a fixed rule: no Zoorg "
        "infiltrated, the first Roswell objective, a fence never a barricade, no horde held, the "
        "truck from the left, the first option of Halloween's and the American Dream's choices",
        choice=True,
    ),
    Param(
        "look_race",
        G.LOOK_RACE,
        0.0,
        0.0,
        10.0,
        "look-ahead racing: after each batch of futures, drop a move whose paired difference to the "
        "leading move's is below `look_tie` at this many standard errors (0: every move gets every "
        "future)",
        choice=True,
    ),
    Param(
        "look_tie",
        G.LOOK_TIE,
        0.0,
        0.0,
        1000.0,
        "look-ahead racing, in tenths of a point: a move that cannot beat the leading move by more "
        "than this is dropped",
        choice=True,
    ),
    Param(
        "look_batch",
        G.LOOK_BATCH,
        4.0,
        2.0,
        64.0,
        "look-ahead racing: futures every move still in the race meets before the next drop",
        choice=True,
    ),
    Param(
        "look_roll",
        G.LOOK_ROLL,
        0.0,
        0.0,
        2.0,
        "look-ahead: how greedy plays the imagined rounds: 0 its own search, 1 only the best "
        "placement's action options per combination (what a player without wide noise, such as "
        "the ladder's levels from greedy up, already does at 0), 2 no action options (placements "
        "only, the action unused)",
        choice=True,
    ),
    Param(
        "x_plan_exp",
        G.X_PLAN_EXP,
        1.6,
        0.5,
        4.0,
        "expansion sheets: exponent on the progress of the expansion's own plan goals (its goals and "
        "estates with its features) in place of plan_exp; the American Dream and Easter keep plan_exp",
    ),
    Param(
        "look_gap",
        G.LOOK_GAP,
        0.0,
        0.0,
        1000.0,
        "look-ahead, in tenths of a point: moves whose greedy value is more than this below greedy's "
        "best are not looked at (only greedy's best left: no look that turn); 0 every move is",
        choice=True,
    ),
    Param(
        "look_far",
        G.LOOK_FAR,
        0.0,
        0.0,
        1000.0,
        "look-ahead racing, in tenths of a point: moves whose greedy value is more than this below "
        "greedy's best meet a first batch of 2 futures instead of `look_batch`; 0 every move meets "
        "`look_batch`",
        choice=True,
    ),
    Param(
        "look_share",
        G.LOOK_SHARE,
        1.0,
        0.0,
        1.0,
        "look-ahead: 1 the first imagined round's placement values are computed once per move and "
        "shared by its futures (the same games, faster); 0 computed in every future (to compare)",
        choice=True,
    ),
)

BUILTINS: dict[str, StrategySpec] = {
    "random": StrategySpec(
        "random",
        RANDOM,
        "uniform over legal placements, then over the action's options (including not using it)",
    ),
    "first-fit": StrategySpec(
        "first-fit", FIRST_FIT, "first legal house in reading order; each action in the simplest way"
    ),
    "spread": StrategySpec(
        "spread", SPREAD, "each number near its proportional place in a street; fences to complete estates"
    ),
    "greedy": StrategySpec(
        "greedy",
        GREEDY,
        "one-step look-ahead over every legal move with a weighted sheet evaluation (the default)",
        GREEDY_PARAMS,
    ),
    "plan-rusher": StrategySpec(
        "plan-rusher",
        GREEDY,
        "greedy that races for the city plans: plan progress weighs double, estates and improvements less",
        GREEDY_PARAMS,
        {"plan": 1.2, "plan_exp": 1.5, "estate": 1.0, "impr_prior": 0.25},
    ),
    "builder": StrategySpec(
        "builder",
        GREEDY,
        "greedy that builds and improves estates, and treats plans as a by-product",
        GREEDY_PARAMS,
        {"estate": 1.5, "impr_prior": 0.8, "plan": 0.3, "long_house": 0.5},
    ),
}


def user_tuned_file() -> Path:
    """The user's tuned sets, written by `welcome-sim tune`."""
    from welcome_sim.simcore.ground.userinput import user_data_dir

    return user_data_dir() / "tuned.toml"


def _check_set(path: Path, name: str, table: object, what: str) -> None:
    """A tuned set or ladder level's table: a valid name, a table, only base, doc and params."""
    from welcome_sim.simcore.ground.userinput import NAME_RE, nearest

    if not NAME_RE.fullmatch(name):
        raise WelcomeSimError(f"{path}: key '{name}': not a valid {what} name (letters, digits, '-', '_')")
    if not isinstance(table, dict):
        raise WelcomeSimError(f"{path}: key '{name}': expected a table with base, doc and params")
    for key in table:
        if key not in ("base", "doc", "params"):
            raise WelcomeSimError(
                f"{path}: key '{name}.{key}': unknown key{nearest(key, ('base', 'doc', 'params'))}; "
                "valid: base, doc, params"
            )


def _check_number(path: Path, name: str, key: str, val: object) -> None:
    """A parameter value in a set's file must be a number."""
    if isinstance(val, bool) or not isinstance(val, int | float):
        raise WelcomeSimError(f"{path}: key '{name}.params.{key}': expected a number, got {val!r}")


def _known_param(path: Path, name: str, spec: StrategySpec, key: str) -> Param:
    """The parameter named key of a set's strategy, or an error naming the file and key."""
    from welcome_sim.simcore.ground.userinput import nearest

    try:
        return spec.param(key)
    except WelcomeSimError:
        names = [p.name for p in spec.params]
        raise WelcomeSimError(
            f"{path}: key '{name}.params.{key}': unknown parameter{nearest(key, names)}; valid: {', '.join(names)}"
        ) from None


# Each tuned-set or ladder file is parsed once per process (a sweep looks strategies up dozens of
# times): its TOML tables keyed by the sha256 of its bytes, which are read on every lookup, so a
# file edited since (`welcome-sim tune` writing the user's sets) is parsed again.
_PARSED: dict[str, dict] = {}


def _parsed(what: str, path: Path) -> dict:
    """A TOML file's tables, parsed once per content; a copy, so no caller changes the next one's."""
    from welcome_sim.simcore.ground.userinput import read_text

    text = read_text(what, path)
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    if digest not in _PARSED:
        try:
            _PARSED[digest] = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise WelcomeSimError(f"{path}: not valid TOML: {exc}") from None
    return copy.deepcopy(_PARSED[digest])


def load_tuned(path: Path = TUNED_FILE) -> dict[str, StrategySpec]:
    """Named parameter sets of the greedy family in a tuned-sets file (errors name file and key)."""
    if not path.exists():
        return {}
    data = _parsed("tuned sets", path)
    out = {}
    for name, table in data.items():
        _check_set(path, name, table, "set")
        base_name = table.get("base", "greedy")
        families = [k for k, v in BUILTINS.items() if v.params]
        if base_name not in families:
            raise WelcomeSimError(
                f"{path}: key '{name}.base': {base_name!r} is not one of {', '.join(families)}"
            )
        params = table.get("params", {})
        values = {}
        for k, v in params.items() if isinstance(params, dict) else ():
            _check_number(path, name, k, v)
            values[k] = float(v)
        base = BUILTINS[base_name]
        spec = StrategySpec(
            name, base.kernel_id, str(table.get("doc", f"tuned set of {base.name}")), base.params, values
        )
        for key in values:
            _known_param(path, name, spec, key)
        out[name] = spec
    return out


def load_ladder(
    path: Path = LADDER_FILE, tuned: dict[str, StrategySpec] | None = None
) -> dict[str, StrategySpec]:
    """The skill ladder's levels, weakest first: each a parameter set on top of a built-in
    strategy or tuned set (`base`; `tuned`: the built-in tuned sets, if already read), its own
    values added (errors name file and key)."""
    data = _parsed("skill ladder", path)
    bases = {**BUILTINS, **(load_tuned(TUNED_FILE) if tuned is None else tuned)}
    out = {}
    for name, table in data.items():
        if name in bases:
            raise WelcomeSimError(f"{path}: key '{name}': a built-in strategy or tuned set has this name")
        _check_set(path, name, table, "level")
        base = bases.get(str(table.get("base")))
        if base is None or not base.params:
            raise WelcomeSimError(
                f"{path}: key '{name}.base': {table.get('base')!r} is not a parameterised strategy "
                f"({', '.join(k for k, v in bases.items() if v.params)})"
            )
        params = table.get("params", {})
        if not isinstance(params, dict):
            raise WelcomeSimError(f"{path}: key '{name}.params': expected a table of numbers")
        spec = StrategySpec(name, base.kernel_id, str(table.get("doc", name)), base.params, dict(base.values))
        for key, val in params.items():
            _check_number(path, name, key, val)
            prm = _known_param(path, name, spec, key)
            if not prm.low <= val <= prm.high:
                raise WelcomeSimError(
                    f"{path}: key '{name}.params.{key}': {val:g} is outside {prm.low:g}..{prm.high:g}"
                )
            if prm.choice and val != int(val):
                raise WelcomeSimError(f"{path}: key '{name}.params.{key}': {val:g} is not a whole number")
            spec.values[key] = float(val)
        out[name] = spec
    return out


def ladder_levels() -> list[str]:
    """The skill ladder's level names, weakest first."""
    return list(load_ladder())


def builtin_strategies() -> dict[str, StrategySpec]:
    """Built-in strategies, the built-in tuned sets and the skill ladder's levels (read-only)."""
    tuned = load_tuned(TUNED_FILE)
    return {**BUILTINS, **tuned, **load_ladder(tuned=tuned)}


def all_strategies() -> dict[str, StrategySpec]:
    """Built-in strategies, built-in tuned sets and the user's tuned sets, by name."""
    fixed = builtin_strategies()
    user = user_tuned_file()
    mine = load_tuned(user)
    for name in mine:
        if name in fixed:
            raise WelcomeSimError(f"{user}: key '{name}': a built-in strategy has this name; rename the set")
    return {**fixed, **mine}


@dataclass(frozen=True)
class Choice:
    """A strategy as selected on the command line: spec plus parameter values."""

    spec: StrategySpec
    overrides: dict[str, float]
    label: str

    @property
    def kernel_id(self) -> int:
        return self.spec.kernel_id

    def vector(self) -> np.ndarray:
        return self.spec.vector(self.overrides)


def parse_strategy(text: str) -> Choice:
    """Parse 'NAME' or 'NAME:key=value,key=value' into a Choice (errors list valid names/keys)."""
    from welcome_sim.simcore.ground.userinput import nearest

    name, _, rest = text.strip().partition(":")
    table = all_strategies()
    if name not in table:
        hint = nearest(name, table)
        raise WelcomeSimError(f"--strategy: unknown strategy '{name}'{hint}; valid: {', '.join(table)}")
    spec = table[name]
    overrides: dict[str, float] = {}
    for item in filter(None, (x.strip() for x in rest.split(","))):
        key, eq, raw = item.partition("=")
        if not eq:
            raise WelcomeSimError(f"--strategy: '{item}' in '{text}' is not key=value")
        prm = spec.param(key.strip())
        if prm.name in overrides:  # the last value would silently win
            raise WelcomeSimError(
                f"--strategy: {name}:{prm.name} is given twice in '{text.strip()}'; give each parameter once"
            )
        try:
            val = float(raw)
        except ValueError:
            raise WelcomeSimError(
                f"--strategy: {name}:{key}={raw!r} is not a number; use {prm.low:g}..{prm.high:g}"
            ) from None
        if not prm.low <= val <= prm.high:
            raise WelcomeSimError(
                f"--strategy: {name}:{key}={val:g} is outside its range {prm.low:g}..{prm.high:g}"
            )
        if prm.choice and val != int(val):
            valid = ", ".join(str(v) for v in range(int(prm.low), int(prm.high) + 1))
            raise WelcomeSimError(f"--strategy: {name}:{key}={val:g} is not one of {valid}")
        overrides[prm.name] = val
    return Choice(spec, overrides, text.strip())
