"""Street, house and column positions in data files count from 1, as `sheet show`, the rulebooks
and a designer count them (street 1 = top, house 1 = leftmost).

Files written before counted them from 0, so the same numbers now mean another house. Every file
of a kind that can hold positions (sheets, plan sets, expansions) must therefore say
`positions = "from 1"`: a file without the line is refused with how to convert it, never read
shifted by one. The loaders subtract 1 as they read, so the kernel's tables stay 0-based.
"""

from __future__ import annotations

from typing import Any, Protocol

MARKER_KEY = "positions"
MARKER = "from 1"
MARKER_LINE = f'{MARKER_KEY} = "{MARKER}"'
COUNTING = "street 1 = top, house 1 = leftmost"


class _Failing(Protocol):
    path: str
    data: dict[str, Any]

    def fail(self, key: str, problem: str) -> Exception: ...


def old_form(path: str) -> str:
    """The one-line problem of a file without the marker: what changed and how to convert it."""
    return (
        f"positions now count from 1 ({COUNTING}) and this file has no `{MARKER_LINE}` line, so it may "
        f"count them from 0 as files did before: run `welcome-sim data upgrade {path}` to convert it, or "
        f"add 1 to every street, house and column position in it and add the line {MARKER_LINE}"
    )


def require_from_one(r: _Failing) -> None:
    """Refuse a file that does not say its positions count from 1 (before any value is read)."""
    value = r.data.get(MARKER_KEY)
    if value == MARKER or (value is None and "name" not in r.data):
        return  # without a name it is no data file of any time: the loader says what it lacks
    if value is None:
        raise r.fail("", old_form(r.path))
    raise r.fail(MARKER_KEY, f"{value!r}: the only value is {MARKER!r} ({COUNTING})")
