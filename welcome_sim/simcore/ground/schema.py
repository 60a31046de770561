"""The keys a data file may hold and the range of every number in it, declared once per key.

A schema is a dict from key to what its value may be:
- None: a value holding no number (a name, a text, true/false), checked by its loader;
- Num(lo, hi): a number, or every number in a list or table of them at any depth;
- Position(): a street or house counted from 1, whose range is the sheet's (a street's length):
  its loader checks it and names that very range, so no fixed range here contradicts it;
- a dict (or a set of names, each None): a table holding only those keys;
- [schema]: an array of tables, each per schema;
- Keyed(schema): a table whose keys are data (a deck's house numbers), each value per schema;
- Open({...}): a table whose listed keys are checked here and whose other keys its loader refuses
  with a message of its own (a plan's fields depend on its kind).
check_keys() walks a parsed file before anything is built from it, so a typo is never ignored and
no number out of its range reaches a table, a list's length or the kernel's integer arrays.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol


class _Failing(Protocol):
    data: dict[str, Any]

    def fail(self, key: str, problem: str) -> Exception: ...


@dataclass(frozen=True)
class Num:
    """Whole numbers lo..hi; `noun` and `unit` word the error ("40000 is not a track value: use 0
    to 999 points")."""

    lo: int
    hi: int
    noun: str = ""
    unit: str = ""

    def problem(self, value: Any) -> str:
        """The one-line problem of a value out of range."""
        what = f"is not {self.noun}" if self.noun else "is out of range"
        return f"{shown(value)} {what}: use {self.lo} to {self.hi}{' ' + self.unit if self.unit else ''}"


@dataclass(frozen=True)
class Position:
    """A street or house number (counted from 1), checked by its loader against the sheet."""


@dataclass(frozen=True)
class Keyed:
    """A table whose keys are data; every value per `value`."""

    value: Any


class Open(dict):
    """A table whose listed keys are checked here; its other keys are refused by its loader."""


def shown(value: Any) -> str:
    """A value as an error shows it: an enormous number cut short."""
    text = repr(value) if isinstance(value, float) else str(value)
    return text if len(text) <= 24 else f"{text[:8]}... ({len(text)} digits)"


def check_keys(r: _Failing, schema: dict[str, Any]) -> None:
    """Refuse keys a file kind does not have (suggesting the nearest valid one) and numbers out of
    their declared range, naming the key."""
    _table(r, "", r.data, schema)


def _unknown(r: _Failing, key: str, valid: Any) -> Exception:
    from welcome_sim.simcore.ground.userinput import nearest

    names = sorted(valid)
    return r.fail(key, f"unknown key{nearest(key.rsplit('.', 1)[-1], names)}; valid: {', '.join(names)}")


def _table(r: _Failing, prefix: str, data: dict, schema: dict) -> None:
    for key, value in data.items():
        name = f"{prefix}{key}"
        if key not in schema:
            if isinstance(schema, Open):
                continue
            raise _unknown(r, name, schema)
        _value(r, name, value, schema[key])


def _value(r: _Failing, name: str, value: Any, spec: Any) -> None:
    # A value of the wrong type is left to the loader, which says what it expected.
    if spec is None or isinstance(spec, Position):
        return
    if isinstance(spec, Num):
        _numbers(r, name, value, spec)
    elif isinstance(spec, (set, frozenset)):
        if isinstance(value, dict):
            _table(r, name + ".", value, dict.fromkeys(spec))
    elif isinstance(spec, dict):
        if isinstance(value, dict):
            _table(r, name + ".", value, spec)
    elif isinstance(spec, Keyed):
        if isinstance(value, dict):
            for k, v in value.items():
                _value(r, f"{name}.{k}", v, spec.value)
    elif isinstance(spec, list):
        if isinstance(value, list):
            for i, item in enumerate(value):
                _value(r, f"{name}[{i}]", item, spec[0])
    else:
        raise TypeError(f"bad schema for {name}: {spec!r}")


def _numbers(r: _Failing, name: str, value: Any, spec: Num) -> None:
    if isinstance(value, bool):
        return
    if isinstance(value, (int, float)):
        if not spec.lo <= value <= spec.hi:  # NaN fails too
            raise r.fail(name, spec.problem(value))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _numbers(r, f"{name}[{i}]", v, spec)
    elif isinstance(value, dict):
        for k, v in value.items():
            _numbers(r, f"{name}.{k}", v, spec)
