"""A sweep's configuration: the grid of game settings, validated, hashable, loadable from TOML."""

from __future__ import annotations

import copy
import functools
import hashlib
import itertools
import json
import re
import tomllib
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.engine.game import MAX_PLAYERS, MIN_PLAYERS, check_mode_players
from welcome_sim.simcore.ground.table import DEAL_AAA, DEAL_EXPERT, DEAL_SOLO_CARD
from welcome_sim.simcore.rules.expansions import load_expansion, names_a_file
from welcome_sim.simcore.rules.expansions.codes import EXPANSION_NAMES
from welcome_sim.simcore.rules.expansions.compile import own_plans
from welcome_sim.simcore.rules.overrides import Overrides, parse_all
from welcome_sim.simcore.rules.overrides import label as vary_label
from welcome_sim.simcore.rules.ruleset import (
    MODES,
    Ruleset,
    check_edition,
    file_sha256,
    mode_deal,
    opponent_set,
)
from welcome_sim.simcore.rules.rulespec import RulesetSpec
from welcome_sim.strategies.registry import DEFAULT_STRATEGY, parse_strategy

PLAN_MODES = ("random", "all")
DEFAULT_CHUNK = 2_000


@dataclass(frozen=True)
class Cell:
    """One point of the grid: every game of a cell is played with these settings."""

    index: int
    edition: str
    sheet: str  # built-in name or path, as given
    mode: str
    players: int
    table: str  # strategy per seat, joined with '+' (a single name fills every seat)
    plans: str  # 'random', 'all', or fixed ids 'A-1,B-3,C-2'
    opponent: str = ""  # AAA solo mode: opponent level or name; "" otherwise
    expansion: str = "none"  # expansion sheet (expansions.codes.EXPANSION_NAMES) or none
    nine: bool = False  # the 9¾ cards in the deck
    deck: str = ""  # a construction deck (name or path, as given) replacing the edition's; "": its own
    plans_file: str = ""  # a standard plan set (name or path) replacing the edition's; "": its own
    vary: Overrides = ()  # the --vary values of this cell (overrides.Override), one per path

    @property
    def vary_label(self) -> str:
        """The cell's varied values as its rows name them ('plans.A-1.scores=6/3'); '' for none."""
        return vary_label(self.vary)

    def seats(self) -> list[str]:
        """Strategy label of each seat."""
        parts = split_table(self.table)
        return [parts[i % len(parts)] for i in range(self.players)]

    def spec(self) -> RulesetSpec:
        """The cell's ruleset, named as every command names one."""
        return RulesetSpec.given(
            self.edition,
            self.sheet,
            self.plans_file,
            self.mode,
            self.opponent,
            self.expansion,
            self.nine,
            self.deck,
            self.vary,
        )


@dataclass
class SweepConfig:
    """Everything that decides the rows of a sweep (not how it is run)."""

    games: int = 1000
    seed: int = 0
    sheets: list[str] = field(default_factory=lambda: ["classic"])
    editions: list[str] = field(default_factory=lambda: ["collector"])
    modes: list[str] = field(default_factory=lambda: ["standard"])
    players: list[int] = field(default_factory=lambda: [1])
    strategies: list[str] = field(default_factory=lambda: [DEFAULT_STRATEGY])
    plans: list[str] = field(default_factory=lambda: ["random"])
    opponents: list[str] = field(default_factory=lambda: ["0"])
    expansions: list[str] = field(default_factory=lambda: ["none"])
    nine: list[str] = field(default_factory=lambda: ["off"])  # off and/or on
    # Decks and standard plan sets (names or paths); "" is the edition's own.
    decks: list[str] = field(default_factory=lambda: [""])
    plans_files: list[str] = field(default_factory=lambda: [""])
    # --vary values, each 'PATH=V1,V2,...' as given: every combination of their values is a cell.
    vary: list[str] = field(default_factory=list)

    def cells(self) -> list[Cell]:
        """The grid, in a fixed order. Solo modes play only 1-player cells, expert modes only
        cells of 2 or more; AAA solo cells are crossed with the opponents; an expansion is played
        only on its own sheet (cells of other sheets are left out); each is crossed with every
        combination of the --vary values (innermost, so a path's values are neighbours)."""
        out: list[Cell] = []
        combos = list(itertools.product(*parse_all(self.vary)))
        product = itertools.product(
            self.editions,
            self.sheets,
            self.decks,
            self.plans_files,
            self.expansions,
            self.nine,
            self.modes,
            self.players,
            self.strategies,
            self.plans,
        )
        for edition, sheet, deck, plans_file, expansion, nine, mode, players, table, plans in product:
            deal = deal_of(edition, mode)
            if deal in (DEAL_AAA, DEAL_SOLO_CARD) and players != 1:
                continue
            if deal == DEAL_EXPERT and players < 2:
                continue
            if expansion != "none" and sheet != expansion_sheet(expansion):
                continue
            if expansion == "none" and sheet_owner(sheet):
                continue  # an expansion's own sheet is played only with it
            if own_plan_cards(expansion):
                # Its own Plan cards replace every plan set: it is played once, beside the
                # edition's own plans, not once per plan file (which it would not play).
                if plans_file not in ("", edition_plans(edition)):
                    continue
                plans_file = ""
            for opp, varied in itertools.product(self.opponents if deal == DEAL_AAA else [""], combos):
                out.append(
                    Cell(
                        len(out),
                        edition,
                        sheet,
                        mode,
                        players,
                        table,
                        plans,
                        opp,
                        expansion,
                        nine == "on",
                        deck,
                        plans_file,
                        tuple(varied),
                    )
                )
        return out

    def identity(self) -> dict[str, Any]:
        """The fields that decide the rows (for the manifest and for resume checks). The deck and
        plan set fields appear only when a file is given: a sweep of the editions' own files keeps
        the identity (and digest) it had before these options existed, so it still resumes."""
        out = asdict(self)
        for key in ("decks", "plans_files"):
            if out[key] == [""]:
                del out[key]
        if not out["vary"]:
            del out["vary"]  # a sweep without --vary keeps the identity it had before the option
        return out

    def digest(self) -> str:
        """A short hash of identity()."""
        return hashlib.sha256(json.dumps(self.identity(), sort_keys=True).encode()).hexdigest()[:16]

    def validate(self) -> SweepPlan:
        """Check every value, loading each ruleset and strategy once; raise WelcomeSimError. The
        plan it returns carries the cells and their rulesets down to planning and playing, which
        do not validate again."""
        if self.games < 1:
            raise WelcomeSimError(f"--games: must be at least 1 game per grid cell, got {self.games}")
        if self.seed < 0:
            raise WelcomeSimError(f"--seed: must be a non-negative integer, got {self.seed}")
        for name, values in (
            ("--sheet", self.sheets),
            ("--edition", self.editions),
            ("--mode", self.modes),
            ("--players", self.players),
            ("--strategy", self.strategies),
            ("--plans", self.plans),
            ("--deck", self.decks),
            ("--plans-file", self.plans_files),
        ):
            if not values:
                raise WelcomeSimError(f"{name}: give at least one value")
            if len(set(map(str, values))) != len(values):
                raise WelcomeSimError(f"{name}: a value is listed twice: {values}")
        for mode in self.modes:
            if mode not in MODES:
                raise WelcomeSimError(f"--mode: unknown mode '{mode}'; valid: {', '.join(MODES)}")
        if not self.opponents or len(set(self.opponents)) != len(self.opponents):
            raise WelcomeSimError(f"--opponent: give each opponent once, got {self.opponents}")
        for name, values, valid in (
            ("--expansion", self.expansions, ("none", *EXPANSION_NAMES)),
            ("--nine-three-quarters", self.nine, ("off", "on")),
        ):
            if not values or len(set(values)) != len(values):
                raise WelcomeSimError(f"{name}: give each value once, got {values}")
            for v in values:
                if name == "--expansion" and names_a_file(v):
                    continue  # a copy of an expansion's file: _check_copies loads (validates) it
                if v not in valid:
                    also = (
                        " or the path of a copy of an expansion's .toml file" if name == "--expansion" else ""
                    )
                    raise WelcomeSimError(f"{name}: unknown value '{v}'; valid: {', '.join(valid)}{also}")
        self._check_copies()
        parse_all(self.vary)  # syntax first: a bad path is named before any file is loaded
        for x in self.expansions:
            if x != "none" and not any(c.expansion == x for c in self.cells()):
                if own_plan_cards(x) and expansion_sheet(x) in self.sheets:
                    own = sorted({edition_plans(e) for e in self.editions})
                    raise WelcomeSimError(
                        f"--expansion {x}: it plays only its own Plan cards, so it is played where the "
                        f"edition's own plans are ({', '.join(own)}), and --plans-file names only "
                        f"{', '.join(self.plans_files)}; add --plans-file {own[0]} or leave --plans-file out"
                    )
                raise WelcomeSimError(
                    f"--expansion {x}: it is played on its own sheet '{expansion_sheet(x)}'; "
                    f"add --sheet {expansion_sheet(x)} (sheets given: {', '.join(self.sheets)})"
                )
        for sheet in self.sheets:
            owner = sheet_owner(sheet)
            if owner and not any(c.sheet == sheet for c in self.cells()):
                raise WelcomeSimError(
                    f"--sheet {sheet}: it is the {owner} expansion's own sheet, played only with it; "
                    f"add --expansion {owner} (expansions given: {', '.join(self.expansions)})"
                )
        for edition in self.editions:
            check_edition(edition)
            if any(deal_of(edition, m) == DEAL_AAA for m in self.modes):
                opps = opponent_set(edition)
                for o in self.opponents if opps is not None else []:
                    opps.find(o)
        for mode in self.modes:
            if not any(c.mode == mode for c in self.cells()):
                raise WelcomeSimError(
                    f"--mode {mode}: no cell to play with --players {','.join(map(str, self.players))} "
                    "(solo modes are for 1 player, expert modes for 2 or more)"
                )
        for n in self.players:
            if not MIN_PLAYERS <= n <= MAX_PLAYERS:
                raise WelcomeSimError(f"--players: {n} is not a valid number of players; use 1 to 8")
        for table in self.strategies:
            for label in split_table(table):
                parse_strategy(label)
        # Each ruleset of the grid loads once, checked with its plans values and every player count
        # it is played with (an expert deck must hold three cards per architect).
        cells = self.cells()
        checked: dict[RulesetSpec, Ruleset] = {}
        for cell in cells:
            spec = cell.spec()
            if spec not in checked:
                checked[spec] = cell_ruleset(cell)
            if cell.table == self.strategies[0]:
                check_plans(checked[spec], cell.plans)
                check_mode_players(checked[spec], cell.players)
        # A copy: the plan stays what was validated if this configuration is changed afterwards.
        return SweepPlan(copy.deepcopy(self), tuple(cells), MappingProxyType(checked))

    def _check_copies(self) -> None:
        """Every expansion loads (a copy's file exists and is valid), and no two values name one
        file's content (two copies alike, or the path of a built-in file beside its name): their
        cells' rows would share one label, every game counted twice."""
        from welcome_sim.simcore.rules.ruleset import data_label

        seen: dict[str, str] = {}
        for x in self.expansions:
            if x != "none":
                label = data_label(load_expansion(x))
                if label in seen:
                    raise WelcomeSimError(
                        f"--expansion: '{seen[label]}' and '{x}' are the same file's content (both "
                        f"labelled {label} in the rows); give one of them"
                    )
                seen[label] = x


@dataclass(frozen=True)
class SweepPlan:
    """A sweep's configuration validated once (SweepConfig.validate()): its cells and each cell's
    ruleset, loaded once, passed down to the checks, the planning and the play."""

    config: SweepConfig
    cells: tuple[Cell, ...]
    rulesets: Mapping[RulesetSpec, Ruleset]

    def ruleset(self, cell: Cell) -> Ruleset:
        """The cell's ruleset, as validated."""
        return self.rulesets[cell.spec()]


def cell_ruleset(cell: Cell) -> Ruleset:
    """A cell's ruleset, loaded once per process for the same spec and the same content of its
    files of one's own: a file edited since is loaded again, so its label then differs from the
    planned one and the chunk is refused (run._check_labels)."""
    spec = cell.spec()
    contents = tuple(file_sha256(v) if Path(v).is_file() else "" for v in spec.files())
    return _loaded(spec, contents)


@functools.lru_cache(maxsize=64)
def _loaded(spec: RulesetSpec, contents: tuple[str, ...]) -> Ruleset:
    # `contents`: part of the cache key only.
    return spec.load()


def expansion_sheet(name: str) -> str:
    """The sheet an expansion is played on (read once per content: cells() asks for every cell)."""
    return _expansion_facts(name, _content(name))[0]


def own_plan_cards(name: str) -> bool:
    """Whether an expansion brings its own Plan cards in place of every plan set (the American Dream)."""
    return name != "none" and _expansion_facts(name, _content(name))[1]


def _content(name: str) -> str:
    """A copy's content hash (the cache key of what is read from it: a file edited between two
    sweeps of one process is read again); '' for a built-in name."""
    from welcome_sim.simcore.rules.ruleset import file_sha256

    return file_sha256(name) if names_a_file(name) and Path(name).is_file() else ""


@functools.lru_cache(maxsize=128)
def _expansion_facts(name: str, content: str) -> tuple[str, bool]:
    x = load_expansion(name)
    return x.sheet, own_plans(x)


@functools.cache
def edition_plans(edition: str) -> str:
    """The name of an edition's standard plan set (unknown editions: '', validate() reports them)."""
    from welcome_sim.simcore.ground.datafiles import load_edition

    try:
        return load_edition(edition).plans
    except WelcomeSimError:
        return ""


@functools.lru_cache(maxsize=64)
def sheet_owner(sheet: str) -> str:
    """The expansion whose own sheet this is ('' for a sheet of the base game; unknown names:
    '', validate() reports them)."""
    from welcome_sim.simcore.ground.datafiles import load_sheet

    try:
        return load_sheet(sheet).expansion
    except WelcomeSimError:
        return ""


def default_sheets(expansions: list[str]) -> list[str]:
    """The sheets a sweep plays when none is given: the Classic sheet for the base game and the
    expansions played on it, and each other expansion's own sheet."""
    out = []
    for x in expansions:
        # A file's errors (missing, invalid) are load_expansion's, naming it.
        known = x in EXPANSION_NAMES or names_a_file(x)
        sheet = expansion_sheet(x) if known else "classic"
        if sheet not in out:
            out.append(sheet)
    return out


def deal_of(edition: str, mode: str) -> int:
    """How a mode deals in an edition (ruleset DEAL_*); unknown modes count as standard here
    (validate() reports them)."""
    from welcome_sim.simcore.ground.datafiles import load_edition

    return mode_deal(load_edition(edition), mode)[0] if mode in MODES else 0


def split_table(table: str) -> list[str]:
    """'greedy+builder:plan=1' -> ['greedy', 'builder:plan=1'] ('+' before a name separates seats)."""
    return [part for part in re.split(r"\+(?=[A-Za-z])", table.strip()) if part]


def check_plans(ruleset, plans: str) -> None:
    """Validate a plans value against a ruleset's plan cards."""
    from welcome_sim.simcore.engine.game import plan_indices

    if plans in PLAN_MODES:
        return
    plan_indices(ruleset, [p.strip() for p in plans.split(",") if p.strip()])


def parse_players(values: list[str]) -> list[int]:
    """'1-4', '2,3' or repeated values -> sorted unique player counts."""
    out: list[int] = []
    for value in values:
        for part in str(value).split(","):
            part = part.strip()
            m = re.fullmatch(r"(\d+)\s*-\s*(\d+)", part)
            try:
                if m:
                    a, b = int(m.group(1)), int(m.group(2))
                    if a > b:
                        raise WelcomeSimError(f"--players: range '{part}' runs backwards")
                    if b > MAX_PLAYERS:
                        raise WelcomeSimError(
                            f"--players: range '{part}' goes past {MAX_PLAYERS}; use 1 to {MAX_PLAYERS}"
                        )
                    out.extend(range(a, b + 1))
                elif part:
                    out.append(int(part))
            except ValueError:
                raise WelcomeSimError(
                    f"--players: '{part}' is not a player count; use numbers 1 to 8, a list 1,2,4 or a range 1-4"
                ) from None
    return sorted(set(out))


def split_list(values: list[str]) -> list[str]:
    """'none,easter' or repeated values -> names in the order given."""
    return [v.strip() for item in values for v in str(item).split(",") if v.strip()]


def parse_nine(values: str | list[str]) -> list[str]:
    """--nine-three-quarters: off, on, both or 'off,on' -> ['off'] / ['on'] / ['off', 'on']."""
    items = split_list([values] if isinstance(values, str) else values)
    out: list[str] = []
    for v in items:
        for w in ("off", "on") if v == "both" else (v,):
            if w not in ("off", "on"):
                raise WelcomeSimError(f"--nine-three-quarters: unknown value '{v}'; valid: off, on, both")
            if w not in out:
                out.append(w)
    return out


def parse_opponents(values: list[str]) -> list[str]:
    """'0-5', '1,3', names or repeated values -> opponent keys in the order given."""
    out: list[str] = []
    for value in values:
        for part in str(value).split(","):
            part = part.strip()
            m = re.fullmatch(r"(\d+)\s*-\s*(\d+)", part)
            if m:
                a, b = int(m.group(1)), int(m.group(2))
                if a > b:
                    raise WelcomeSimError(f"--opponent: range '{part}' runs backwards")
                if b - a > 100:
                    raise WelcomeSimError(
                        f"--opponent: range '{part}' is too long; opponent levels are 0 to 5"
                    )
                out.extend(str(i) for i in range(a, b + 1))
            elif part:
                out.append(part.lower())
    return list(dict.fromkeys(out))


KEYS = {
    "games": int,
    "seed": int,
    "sheet": list,
    "edition": list,
    "mode": list,
    "players": list,
    "strategy": list,
    "plans": list,
    "opponent": list,
    "expansion": list,
    "nine_three_quarters": list,
    "deck": list,
    "plans_file": list,
    "vary": list,
    "out": str,
    "jobs": int,
    "chunk_size": int,
    "backend": str,
    "scheduler": str,
}


def load_toml(path: str) -> dict[str, Any]:
    """Read a sweep TOML file (keys as the CLI options; lists or single values)."""
    from welcome_sim.simcore.ground.userinput import nearest, read_text

    p = Path(path)
    try:
        data = tomllib.loads(read_text("--config", p))
    except tomllib.TOMLDecodeError as exc:
        raise WelcomeSimError(f"--config: {path}: not valid TOML: {exc}") from None
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key not in KEYS:
            raise WelcomeSimError(
                f"--config: {path}: unknown key '{key}'{nearest(key, KEYS)}; valid: {', '.join(KEYS)}"
            )
        kind = KEYS[key]
        if kind is list:
            value = value if isinstance(value, list) else [value]
            out[key] = [str(v) for v in value]
        elif kind is int and (not isinstance(value, int) or isinstance(value, bool)):
            raise WelcomeSimError(f"--config: {path}: key '{key}': expected an integer, got {value!r}")
        elif kind is str and not isinstance(value, str):
            raise WelcomeSimError(f"--config: {path}: key '{key}': expected a string, got {value!r}")
        else:
            out[key] = value
    return out
