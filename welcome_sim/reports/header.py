"""The report's title and header: who played (players, their strategy, games, sheet, mode,
expansions, the 9¾ cards) in words, and the command line that reproduces each sweep, read from its
manifest."""

from __future__ import annotations

import shlex
from typing import Any

import polars as pl

from welcome_sim.analysis.labels import expansion_title, own_title
from welcome_sim.reports.shaping import setting_words
from welcome_sim.simcore.ground.datafiles import is_builtin_label


def _values(lf: pl.LazyFrame, column: str) -> list:
    if column not in lf.collect_schema().names():
        return []
    return sorted(
        (v for v in lf.select(pl.col(column).unique()).collect()[column].to_list() if v is not None), key=str
    )


def _span(numbers: list[int], unit: str) -> str:
    if not numbers:
        return ""
    if len(numbers) == 1:
        return f"{numbers[0]} {unit}" + ("" if numbers[0] == 1 else "s")
    if numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"{numbers[0]}–{numbers[-1]} {unit}s"
    return ", ".join(map(str, numbers)) + f" {unit}s"


def _listed(words: list[str], many: str) -> str:
    return ", ".join(words) if len(words) <= 3 else f"{len(words)} {many}"


def _sheet_words(label: str) -> str:
    """A built-in sheet's name in words ('american_dream' -> 'American Dream'); a designer's own
    file by its title, as every other label of the report names it (labels.own_title), else by
    its label as the rows spell it (title-casing would garble 'my_sheet.1a2b3c4d')."""
    if is_builtin_label(label):
        return label.replace("_", " ").title()
    title = own_title(label)
    return f"“{title}”" if title else label


def who_played(lf: pl.LazyFrame, games: int) -> list[tuple[str, str]]:
    """(what, in words) for the header: players, strategy, games, sheet, mode, expansions, 9¾."""
    players = [int(p) for p in _values(lf, "players")]
    tables = [str(t) for t in _values(lf, "table")]
    seats = sorted({s for t in tables for s in t.split("+")})
    from welcome_sim.sweep.config import sheet_owner

    # An expansion's own sheet comes with it: the expansion names it.
    sheets = [_sheet_words(s) for s in map(str, _values(lf, "sheet")) if not sheet_owner(s)] or [
        _sheet_words(s) for s in map(str, _values(lf, "sheet"))
    ]
    modes = [setting_words("mode", m) or str(m) for m in _values(lf, "mode")]
    expansions = [str(e) for e in _values(lf, "expansion")]
    nine = _values(lf, "nine_three_quarters")
    out = [
        ("players", _span(players, "player") or "–"),
        (
            "player strategy",
            _listed(seats, "strategies") + (" (each seat in turn)" if any("+" in t for t in tables) else ""),
        ),
        ("games", f"{games:,}"),
        ("sheet", _listed(sheets, "sheets")),
        ("mode", _listed(modes, "modes")),
        (
            "expansions",
            "none (the base game)"
            if expansions in ([], ["none"])
            else _listed([expansion_title(e) for e in expansions], "expansions, each alone"),
        ),
        (
            "9¾ cards",
            "with and without" if len(nine) > 1 else ("with" if nine and nine[0] else "without"),
        ),
    ]
    opponents = [o for o in _values(lf, "opponent")]
    if opponents:
        out.append(("AAA levels", ", ".join(map(str, opponents))))
    return out


def title_of(facts: list[tuple[str, str]]) -> str:
    """The report's title from who played: 'Blueprint sheet, 1 player (greedy), 10,000 games'."""
    f = dict(facts)
    parts = [f"{f['sheet']} sheet" if "sheets" not in f["sheet"] and "," not in f["sheet"] else f["sheet"]]
    parts.append(f"{f['players']} ({f['player strategy']})")
    if f["mode"] != "standard mode":
        parts.append(f["mode"])
    if not f["expansions"].startswith("none"):
        parts.append(f["expansions"])
    if f["9¾ cards"] != "without":
        parts.append(f"{f['9¾ cards']} the 9¾ cards")
    parts.append(f"{f['games']} games")
    return "Welcome To… balance report: " + ", ".join(parts)


# manifest config key -> the sweep option that sets it, and its default (left out when equal).
OPTIONS = (
    ("sheets", "--sheet", ["classic"]),
    ("editions", "--edition", ["collector"]),
    ("modes", "--mode", ["standard"]),
    ("players", "--players", [1]),
    ("strategies", "--strategy", None),
    ("plans", "--plans", ["random"]),
    ("opponents", "--opponent", ["0"]),
    ("expansions", "--expansion", ["none"]),
    ("decks", "--deck", [""]),
    ("plans_files", "--plans-file", [""]),
    ("vary", "--vary", []),  # each PATH=V1,V2 as given, one --vary each
)
LISTED = ("players", "opponents", "expansions")  # options that take a comma list


def command_line(manifest: dict[str, Any], out: str) -> str:
    """The sweep command that plays the same games again, from the manifest's configuration."""
    from welcome_sim.sweep.config import sheet_owner

    config = manifest.get("config") or {}
    words = ["welcome-sim", "sweep", "--games", str(config.get("games", manifest.get("games_per_cell", "")))]
    words += ["--seed", str(config.get("seed", manifest.get("sweep_seed", 0)))]
    for key, option, default in OPTIONS:
        values = config.get(key)
        if not values or values == default:
            continue
        if key == "sheets":  # an expansion's own sheet comes with the expansion
            values = [s for s in values if not sheet_owner(str(s))] or values
            if values == default:
                continue
        if key == "opponents" and "solo" not in " ".join(config.get("modes", [])):
            continue
        if key in LISTED:
            words += [option, ",".join(map(str, values))]
        else:
            for v in values:
                words += [option, str(v)]
    nine = config.get("nine") or ["off"]
    if nine != ["off"]:
        words += ["--nine-three-quarters", "both" if len(nine) > 1 else str(nine[0])]
    words += ["--out", out]
    return " ".join(shlex.quote(w) for w in words)
