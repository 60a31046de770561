"""Names a user types on the command line for built-in things (sheets, expansions, modes, editions,
decks, plan sets, strategies), read without regard to case, '-', '_' or spaces: `--sheet Blueprint`,
`--expansion "Zombie Outbreak"` and `--mode Expert_Advanced` name what the reports print. A name
that matches nothing stops with one line naming the option, the value, the nearest name and the
valid ones; a path to a file of one's own is passed on unchanged."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path

from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.ground.userinput import nearest

PATHS_NOTE = "; or a path to a .toml file"


def key(text: str) -> str:
    """The form names are compared in: lower case, apostrophes dropped, other non-letters one '-'."""
    return re.sub(r"[^a-z0-9¾]+", "-", str(text).lower().replace("'", "")).strip("-")


def is_path(value: str) -> bool:
    """A value naming a file rather than a built-in: a folder part, a .toml suffix, or a file here."""
    return "/" in value or "\\" in value or value.lower().endswith(".toml") or Path(value).is_file()


def resolve(
    option: str, value: str, names: Iterable[str], what: str, aliases: dict[str, str] | None = None,
    paths: bool = False,
) -> str:  # fmt: skip
    """The built-in name `value` means (its canonical spelling), or the value itself when it is a
    path (paths=True); else WelcomeSimError: option, value, the nearest name and the valid ones."""
    names = list(names)
    if not value.strip():
        return value  # an empty value: the command's own check says what to give
    if paths and is_path(value):
        # Said here, with the option, rather than by the loader, which knows the path only.
        # (A device or a pipe is left to the loader, which says which.)
        if not Path(value).exists() or Path(value).is_dir():
            problem = "is a folder, not a file" if Path(value).is_dir() else "file not found"
            raise WelcomeSimError(
                f"{option}: {value}: {problem}; give a built-in {what} ({', '.join(names)}) or the path of "
                "a .toml file"
            )
        return value
    table = {key(n): n for n in names}
    for alias, name in (aliases or {}).items():
        table.setdefault(key(alias), name)
    found = table.get(key(value))
    if found is not None:
        return found
    hint = nearest(key(value), table)
    if hint:  # the nearest key, shown as the name it stands for
        near = table[hint.split("'")[1]]
        hint = f" (did you mean '{near}'?)"
    also = PATHS_NOTE if paths else ""
    raise WelcomeSimError(f"{option}: unknown {what} {value!r}{hint}; valid: {', '.join(names)}{also}")


def _expansion_titles() -> dict[str, str]:
    """Each expansion's title ('Zombie Outbreak', 'The American Dream' and without 'The')."""
    from welcome_sim.simcore.rules.expansions.codes import EXPANSION_NAMES, EXPANSION_TITLES

    out = {}
    for name, title in zip(EXPANSION_NAMES, EXPANSION_TITLES, strict=True):
        out[title] = name
        out[re.sub(r"^the\s+", "", title, flags=re.I)] = name
    return out


def expansion_choices() -> tuple[str, ...]:
    """What --expansion takes by name: 'none' and every built-in expansion (one list for every
    command's help and check)."""
    from welcome_sim.simcore.rules.expansions.codes import EXPANSION_NAMES

    return ("none", *EXPANSION_NAMES)


def expansion(option: str, value: str) -> str:
    """An expansion's name (or title, or 'none'), or a path to a copy of its file."""
    return resolve(option, value, expansion_choices(), "expansion", _expansion_titles(), paths=True)


def builtin(kind: str) -> Callable[[str, str], str]:
    """A resolver of a built-in data file's name of one kind ('sheets', 'decks', 'plans', 'editions')."""

    def resolve_kind(option: str, value: str) -> str:
        from welcome_sim.simcore.ground.tomlread import available

        paths = kind != "editions"
        return resolve(option, value, available(kind), kind[:-1], paths=paths)

    return resolve_kind


def mode(option: str, value: str) -> str:
    """A game mode's name."""
    from welcome_sim.simcore.rules.ruleset import MODES

    return resolve(option, value, MODES, "mode")


def strategy(option: str, value: str) -> str:
    """A seat's strategy 'NAME' or 'NAME:key=value,...' with NAME in its canonical spelling (the
    parameters are checked where the strategy is parsed); a sweep's 'a+b' table seat by seat."""
    from welcome_sim.strategies.registry import all_strategies

    if not value.strip():
        return value  # the commands' own checks say what an empty value should be
    names = list(all_strategies())
    seats = []
    for seat in value.split("+"):
        name, colon, rest = seat.partition(":")
        seats.append(resolve(option, name.strip(), names, "strategy") + colon + rest)
    return "+".join(seats)


def listed(resolver: Callable[[str, str], str]) -> Callable[[str, str], str]:
    """A resolver for comma-separated lists ('none,Zombies'): each item resolved, the list kept."""

    def resolve_list(option: str, value: str) -> str:
        return ",".join(resolver(option, v.strip()) if v.strip() else v for v in str(value).split(","))

    return resolve_list
