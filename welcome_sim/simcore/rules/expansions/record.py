"""An expansion as one declared record: what it adds to the game, from which every registry keyed
by expansion is derived (codes.py: names, titles, X_*, FT_*, GL_*; registry.py: the result columns,
the modules, the report's counter tables, the text view's marks).

Each expansion module declares `RECORD = Record(...)` and takes its numbers from `allocate(RECORD,
__name__)`: its X_* code, its result columns (O_X_*), its plan features (FT_*) and goals (GL_*),
its flag bits (F_*) and score-sheet slots (SC_*) after the base game's, handed out in the order
of MODULES (then of the modules named by the WELCOME_SIM_EXPANSIONS environment variable), each
after those of the modules before it. So a module needs only the
modules before it, never the registry of all of them (which imports every module), and the numbers
of the built-in expansions do not move when one is added after them. Log kinds are the exception:
the log is a documented format (the documentation's Reference, the referee's own numbers in referee/log.py), so the
built-in expansions' kinds are a declared table (layout.LOG_X_KINDS) that allocate() checks the
record against; only an expansion of one's own gets kinds handed out, after that table.
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass, field

from welcome_sim.errors import WelcomeSimError

# The one hand-kept list: the built-in expansion modules, in the order their numbers are handed out.
MODULES = (
    "welcome_sim.simcore.rules.expansions.easter",
    "welcome_sim.simcore.rules.expansions.icecream",
    "welcome_sim.simcore.rules.expansions.christmas",
    "welcome_sim.simcore.rules.expansions.zombies",
    "welcome_sim.simcore.rules.expansions.doomsday",
    "welcome_sim.simcore.rules.expansions.roswell",
    "welcome_sim.simcore.rules.expansions.halloween",
    "welcome_sim.simcore.rules.expansions.quack",
    "welcome_sim.simcore.rules.expansions.american",
)
# Modules of expansions of one's own (comma-separated importable module names), after the built-in
# ones (worker processes inherit it): their records join the registries, their hooks are bound into
# hooks.py's plug-in branches (extra.py), kernel_digest hashes their sources and the variable's
# value, and verify.py registers their referee readings.
EXTRA_ENV = "WELCOME_SIM_EXPANSIONS"


@dataclass(frozen=True)
class Counters:
    """The report's table of an expansion's own counters (analysis/expansion_tables.py EXPANSION_COUNTERS)."""

    title: str
    note: str  # what the counters are
    columns: tuple[str, ...]  # row columns, means per player
    end_reason: str = ""  # an end reason of its own whose share of games is shown, or ""


@dataclass(frozen=True)
class Record:
    """What an expansion declares about itself; every registry keyed by expansion derives from it."""

    name: str  # the --expansion value and the data file's `name` (data/expansions/<name>.toml)
    title: str  # for help texts (the data file's `title` is what outputs print)
    stars: int  # the publisher's difficulty rating (the data file's publisher_stars must agree)
    columns: tuple[str, ...]  # its result columns (rows, OUT_COLUMNS after the base game's)
    columns_doc: str  # what they hold, for the row schema (sweep/rows.py SCHEMA_DOC)
    referee: str  # its referee reading, "module:Class" (the referee imports nothing of ours)
    features: tuple[str, ...] = ()  # estate features its plans may bound (FT_*, R_PLAN_XFEAT)
    goals: tuple[str, ...] = ()  # goals of its kind "expansion" plans (GL_*, R_PLAN_XGOAL)
    # What it keeps on the sheet and writes to the log, each handed out by allocate(): its flag
    # bits (F_*, one bit each of `flags[p, street, house]`), its score-sheet slots (SC_*, name and
    # how many consecutive columns of `sc[p, k]`) and its log kinds (LOG_X_*: a built-in
    # expansion's are declared in layout.LOG_X_KINDS, the log being a documented format).
    flags: tuple[str, ...] = ()
    sc_slots: tuple[tuple[str, int], ...] = ()
    log_kinds: tuple[str, ...] = ()
    # Its branches in hooks.py: hook name -> the module function it calls (checked both ways).
    hooks: tuple[tuple[str, str], ...] = ()
    counters: Counters | None = None  # the report's table of its counters, if any
    legend: str = ""  # the text view's legend line of its marks, or ""
    score_detail: str = ""  # the text view's score-card line, a format over the score columns
    text: str = ""  # its text view hooks, "module:Class" (a textmarks.SheetText), or "" for none
    # The robustness study (analysis/variants.py): the reconstructed layout keys it varies, what
    # it names them, and what is reconstructed but not varied.
    layout_keys: tuple[str, ...] = ()
    layout_words: str = ""
    not_varied: str = ""
    aaa_solo_only: bool = False  # solo rules written for the Collector's AAA solo mode only
    no_advanced: bool = False  # cannot be played with the Advanced Mode
    tie_shared: bool = False  # a tie is a shared victory, no tie-break on estates
    own_plans: bool = False  # its own A, B and C cards replace every plan set, in every edition
    # An expansion of one's own (EXTRA_ENV): its data file, a path relative to its module's folder
    # ("": the built-in data/expansions/<name>.toml), and the plan text of each of its goals, a
    # format over the plan's fields ({count}, {street}: 1-based or "any", {scoops}), for
    # plantext.GOAL_TEXT (the built-in goals' texts are written there).
    data: str = ""
    goal_texts: tuple[tuple[str, str], ...] = ()
    module: str = field(default="", compare=False)  # filled by allocate(): the module declaring it


@dataclass(frozen=True)
class Allocation:
    """The numbers handed out to one record."""

    code: int  # X_*: 1-based position among the records (0: no expansion)
    out: dict[str, int]  # result column -> index in OUT_COLUMNS
    features: dict[str, int]  # feature -> FT_* code (1-based)
    goals: dict[str, int]  # goal -> GL_* code (1-based)
    flags: dict[str, int]  # F_* -> its bit (a power of two)
    sc: dict[str, int]  # SC_* -> its first column of `sc`
    log: dict[str, int]  # LOG_X_* -> its log kind


def module_names() -> tuple[str, ...]:
    """The expansion modules in allocation order: the built-in ones, then those of EXTRA_ENV."""
    extra = tuple(m.strip() for m in os.environ.get(EXTRA_ENV, "").split(",") if m.strip())
    return MODULES + tuple(m for m in extra if m not in MODULES)


def extra_modules() -> tuple[str, ...]:
    """The modules of expansions of one's own named by EXTRA_ENV (after the built-in ones)."""
    return tuple(m for m in module_names() if m not in MODULES)


def data_file(rec: Record) -> str:
    """The path of the data file a record names (Record.data, beside its module), or ""."""
    if not rec.data:
        return ""
    from pathlib import Path

    mod = importlib.import_module(rec.module)
    return str(Path(str(mod.__file__)).parent / rec.data)


def record_of(module_name: str) -> Record:
    """The RECORD a module declares (importing it), with its module filled in."""
    try:
        mod = importlib.import_module(module_name)
    except ImportError as exc:
        raise WelcomeSimError(
            f"${EXTRA_ENV}: expansion module '{module_name}' cannot be imported ({exc}); name "
            "importable modules, comma-separated (their folder on PYTHONPATH)"
        ) from None
    rec = getattr(mod, "RECORD", None)
    if not isinstance(rec, Record):
        raise WelcomeSimError(
            f"${EXTRA_ENV}: module '{module_name}' declares no RECORD = Record(...), so it is no expansion"
        )
    return rec if rec.module else _with_module(rec, module_name)


def _with_module(rec: Record, module_name: str) -> Record:
    object.__setattr__(rec, "module", module_name)  # frozen: filled once, by whoever reads it first
    return rec


def allocate(rec: Record, module_name: str) -> Allocation:
    """The numbers of `rec`, declared by `module_name`: each kind handed out after those of the
    records of the modules before it (imported here), in module_names() order."""
    from welcome_sim.simcore.ground import layout as L

    order = module_names()
    if module_name not in order:
        raise ValueError(f"{module_name} is not an expansion module (record.MODULES or ${EXTRA_ENV})")
    _with_module(rec, module_name)
    before = [record_of(m) for m in order[: order.index(module_name)]]
    n_out = L.BASE_OUT_LEN + sum(len(r.columns) for r in before)
    n_ft = sum(len(r.features) for r in before)
    n_gl = sum(len(r.goals) for r in before)
    bit = L.F_BASE_BITS + sum(len(r.flags) for r in before)
    sc = L.SC_BASE_LEN + sum(n for r in before for _, n in r.sc_slots)
    sc_at = {}
    for name, n in rec.sc_slots:
        sc_at[name] = sc
        sc += n
    _fits(module_name, "flag bits", bit + len(rec.flags), L.F_MAX_BITS, "F_MAX_BITS")
    _fits(module_name, "score-sheet slots", sc, L.SC_LEN, "SC_LEN")
    return Allocation(
        code=len(before) + 1,
        out={c: n_out + k for k, c in enumerate(rec.columns)},
        features={f: n_ft + k + 1 for k, f in enumerate(rec.features)},
        goals={g: n_gl + k + 1 for k, g in enumerate(rec.goals)},
        flags={f: 1 << (bit + k) for k, f in enumerate(rec.flags)},
        sc=sc_at,
        log=_log_kinds(rec, module_name, before),
    )


def _fits(module_name: str, what: str, used: int, room: int, name: str) -> None:
    if used > room:
        raise WelcomeSimError(
            f"expansion module '{module_name}': the expansions up to it need {used} {what}, the sheet "
            f"has {room} (simcore/ground/layout.py {name}); declare fewer in its RECORD"
        )


def _log_kinds(rec: Record, module_name: str, before: list[Record]) -> dict[str, int]:
    """A built-in expansion's log kinds from the declared table (the log is a documented format the
    referee reads with its own numbers: they never move); one of one's own gets the kinds after
    the table, in module order."""
    from welcome_sim.simcore.ground.layout import LOG_X_FREE, LOG_X_KINDS

    if module_name in MODULES:
        missing = [k for k in rec.log_kinds if k not in LOG_X_KINDS]
        if missing:
            raise ValueError(f"{module_name}: log kinds {missing} are not in layout.LOG_X_KINDS")
        return {k: LOG_X_KINDS[k] for k in rec.log_kinds}
    first = LOG_X_FREE + sum(len(r.log_kinds) for r in before if r.module not in MODULES)
    return {k: first + i for i, k in enumerate(rec.log_kinds)}
