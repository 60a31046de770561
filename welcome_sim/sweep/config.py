"""A sweep's configuration: the grid of game settings, validated, hashable, loadable from TOML."""

from __future__ import annotations

import hashlib
import itertools
import json
import re
import tomllib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.game import MAX_PLAYERS, MIN_PLAYERS
from welcome_sim.simcore.ruleset import load_ruleset
from welcome_sim.strategies.registry import DEFAULT_STRATEGY, parse_strategy

MODES = ("standard",)  # advanced, expert and solo arrive with their issue
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

    def seats(self) -> list[str]:
        """Strategy label of each seat."""
        parts = split_table(self.table)
        return [parts[i % len(parts)] for i in range(self.players)]


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

    def cells(self) -> list[Cell]:
        """The grid, in a fixed order."""
        product = itertools.product(
            self.editions, self.sheets, self.modes, self.players, self.strategies, self.plans
        )
        return [Cell(i, *values) for i, values in enumerate(product)]

    def identity(self) -> dict[str, Any]:
        """The fields that decide the rows (for the manifest and for resume checks)."""
        return asdict(self)

    def digest(self) -> str:
        """A short hash of identity()."""
        return hashlib.sha256(json.dumps(self.identity(), sort_keys=True).encode()).hexdigest()[:16]

    def validate(self) -> None:
        """Check every value, loading each ruleset and strategy once; raise WelcomeSimError."""
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
        ):
            if not values:
                raise WelcomeSimError(f"{name}: give at least one value")
            if len(set(map(str, values))) != len(values):
                raise WelcomeSimError(f"{name}: a value is listed twice: {values}")
        for mode in self.modes:
            if mode not in MODES:
                raise WelcomeSimError(
                    f"--mode: '{mode}' is not available yet; valid: {', '.join(MODES)} "
                    "(advanced, expert and solo come with their issue)"
                )
        for n in self.players:
            if not MIN_PLAYERS <= n <= MAX_PLAYERS:
                raise WelcomeSimError(f"--players: {n} is not a valid number of players; use 1 to 8")
        for table in self.strategies:
            for label in split_table(table):
                parse_strategy(label)
        for edition in self.editions:
            for sheet in self.sheets:
                rs = load_ruleset(edition, sheet)
                for plans in self.plans:
                    check_plans(rs, plans)


def split_table(table: str) -> list[str]:
    """'greedy+builder:plan=1' -> ['greedy', 'builder:plan=1'] ('+' before a name separates seats)."""
    return [part for part in re.split(r"\+(?=[A-Za-z])", table.strip()) if part]


def check_plans(ruleset, plans: str) -> None:
    """Validate a plans value against a ruleset's plan cards."""
    from welcome_sim.simcore.game import plan_indices

    if plans in PLAN_MODES:
        return
    plan_indices(ruleset, [p for p in plans.split(",") if p.strip()])


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
                    out.extend(range(a, b + 1))
                elif part:
                    out.append(int(part))
            except ValueError:
                raise WelcomeSimError(
                    f"--players: '{part}' is not a player count; use numbers 1 to 8, a list 1,2,4 or a range 1-4"
                ) from None
    return sorted(set(out))


KEYS = {
    "games": int,
    "seed": int,
    "sheet": list,
    "edition": list,
    "mode": list,
    "players": list,
    "strategy": list,
    "plans": list,
    "out": str,
    "jobs": int,
    "chunk_size": int,
    "backend": str,
    "scheduler": str,
}


def load_toml(path: str) -> dict[str, Any]:
    """Read a sweep TOML file (keys as the CLI options; lists or single values)."""
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise WelcomeSimError(f"--config: {path}: file not found") from None
    except tomllib.TOMLDecodeError as exc:
        raise WelcomeSimError(f"--config: {path}: not valid TOML: {exc}") from None
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key not in KEYS:
            raise WelcomeSimError(f"--config: {path}: unknown key '{key}'; valid: {', '.join(KEYS)}")
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
