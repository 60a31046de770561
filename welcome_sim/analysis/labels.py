"""Configuration values in words ("2 players", "no 9¾ cards", "Easter Egg Hunt") for charts and reports."""

from __future__ import annotations

import contextlib
import functools
import tomllib
from collections.abc import Iterable, Iterator
from os.path import normpath

import polars as pl

from welcome_sim.analysis.tables import CONFIG
from welcome_sim.simcore.ground.datafiles import DATA_DIR, is_builtin_label, label_name

ALL_GAMES = "all games"  # the label when no configuration column varies
SEPARATOR = " · "
EDITIONS = {"collector": "Collector's edition", "first": "first edition"}
MODES = {
    "standard": "standard mode",
    "advanced": "advanced mode",
    "expert": "expert mode",
    "expert-advanced": "expert advanced mode",
    "solo": "solo mode",
    "solo-advanced": "solo advanced mode",
}
METRICS = {
    "total": "final score",
    "expansion_points": "expansion's own points",
    "net_score": "score net of own points",
    "refusals": "permit refusals per player",
    "rounds": "rounds per game",
}


# Titles of the data files of one's own in the runs being read, by label (see titles_of): a
# designer's variant is named by the title its file gives it, not by its hash.
_TITLES: dict[str, str] = {}
OWN_FILE_COLUMNS = ("sheet", "deck", "plan_set", "expansion")


def _own_files(manifests: list[dict]) -> Iterator[tuple[dict, str, str]]:
    """(entry, label, path as recorded) of every data file of one's own the manifests record (not
    shipped, with its hash), in the manifests' order, repeats included."""
    from welcome_sim.analysis.custom import is_shipped, manifest_label

    for manifest in manifests:
        for f in manifest.get("data_files", []):
            shown = str(f.get("path", ""))
            if not is_shipped(shown) and f.get("sha256"):
                yield f, manifest_label(f), shown


def titles_of(manifests: Iterable[dict]) -> dict[str, str]:
    """label -> title of every file of one's own the sweeps' manifests record (the title the
    manifest recorded, else the file's own while it holds the bytes the sweep played); a title
    that several labels share keeps its label beside it."""
    from pathlib import Path

    from welcome_sim.analysis.custom import unchanged_own_files

    manifests = list(manifests)
    unchanged = unchanged_own_files(manifests)
    found: dict[str, str] = {}
    for f, label, _ in _own_files(manifests):
        title = f.get("title")
        if not title and label in unchanged:
            try:
                title = tomllib.loads(Path(unchanged[label]).read_text(encoding="utf-8")).get("title")
            except (OSError, ValueError):
                title = None
        if isinstance(title, str) and title.strip():
            found[label] = title.strip()
    count: dict[str, int] = {}
    for t in found.values():
        count[t] = count.get(t, 0) + 1
    return {k: t if count[t] == 1 else f"{t} ({k})" for k, t in found.items()}


def own_file_legend(manifests: Iterable[dict]) -> list[str]:
    """'label = path (“title”)' for every file of one's own the sweeps' manifests record: the rows
    (and the terminal's tables) name such a file by its name and hash, which says nothing of which
    file it was."""
    manifests = list(manifests)
    titles = titles_of(manifests)
    out: dict[str, str] = {}
    for _, label, shown in _own_files(manifests):
        title = f" (“{titles[label]}”)" if label in titles else ""
        out.setdefault(label, f"{label} = {shown}{title}")
    return list(out.values())


def own_file_aliases(manifests: Iterable[dict]) -> dict[str, str]:
    """path -> label and title -> label of every file of one's own the sweeps' manifests record: a
    designer names a variant (--baseline sheet=my-classic.toml) as the command line named it, or by
    its title, not by the rows' name and hash."""
    manifests = list(manifests)
    titles = titles_of(manifests)
    out: dict[str, str] = {}
    for _, label, shown in _own_files(manifests):
        out.setdefault(normpath(shown), label)
        if label in titles:
            out.setdefault(titles[label], label)
    return out


@contextlib.contextmanager
def titled(titles: dict[str, str]) -> Iterator[None]:
    """Name the files of one's own by these titles in every label made inside the block."""
    before = dict(_TITLES)
    _TITLES.update(titles)
    try:
        yield
    finally:
        _TITLES.clear()
        _TITLES.update(before)


def own_title(value: object) -> str | None:
    """The title of a file of one's own by its label, where one is known (see titled)."""
    return _TITLES.get(str(value))


def sheet_title(name: object) -> str:
    """A built-in sheet's name as a proper noun ("Blueprint", "American Dream"); the label of a
    sheet file of one's own ("blueprint.1a2b3c4d") as it is, so it never passes for the built-in."""
    v = str(name)
    return v.replace("_", " ").title() if is_builtin_label(v) else v


@functools.cache
def expansion_title(name: str) -> str:
    """An expansion's title from its data file ("Easter Egg Hunt"); "base game" for none; a copy of
    an expansion's file of one's own by its label beside the title ("easter.1a2b3c4d (Easter Egg
    Hunt)"), so it never passes for the built-in."""
    if name == "none":
        return "base game"
    if not is_builtin_label(name):
        return f"{name} ({expansion_title(label_name(name))})"
    path = DATA_DIR / "expansions" / f"{name}.toml"
    try:
        title = tomllib.loads(path.read_text(encoding="utf-8")).get("title")
    except (OSError, ValueError):  # an expansion file of one's own: only its name is known here
        title = None
    return title if isinstance(title, str) and title else name.replace("_", " ").capitalize()


def _truth(value: object) -> bool | None:
    # The effect tables hold a toggle's values as text ("True"/"False").
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    return {"true": True, "false": False, "on": True, "off": False}.get(text)


def value_words(column: str, value: object) -> str | None:
    """One configuration value in words; None for a null (left out of labels)."""
    if value is None:
        return None
    if column == "comparison":  # a label already in words (the expansion chart's rows)
        return str(value)
    if column == "players":
        return "1 player" if int(value) == 1 else f"{int(value)} players"
    if column == "nine_three_quarters":
        truth = _truth(value)
        return {True: "9¾ cards", False: "no 9¾ cards"}.get(truth, f"9¾ cards: {value}")
    if column in OWN_FILE_COLUMNS and own_title(value):
        return f"“{own_title(value)}”"
    if column == "expansion":
        return expansion_title(str(value))
    if column == "mode":
        return MODES.get(str(value), str(value).replace("-", " ") + " mode")
    if column == "opponent":
        return f"AAA level {value}"
    if column == "opponent_name":
        return f"AAA {value}"
    if column == "plans_mode":
        return f"plans: {value}"
    if column == "edition":
        return EDITIONS.get(str(value), f"{value} edition")
    if column == "sheet":
        return f"{sheet_title(value)} sheet"
    if column == "table":
        seats = str(value).split("+")
        return f"strategy {seats[0]}" if len(seats) == 1 else "strategies " + " + ".join(seats)
    if column == "run":
        return f"run {value}"
    if "." in column:  # a varied path's value (sensitivity.py): named as --vary names it
        return f"{column}={value}"
    if column == "vary":  # a cell's varied values, already 'path=value; ...'
        return str(value)
    return f"{column.replace('_', ' ')} {value}"


def varying(df: pl.DataFrame, by: list[str] | None = None, exclude: tuple[str, ...] = ()) -> list[str]:
    """Configuration columns of df (from `by`, default every one) that take more than one value."""
    cols = [c for c in (CONFIG if by is None else by) if c in df.columns and c not in exclude]
    return [c for c in cols if df[c].n_unique() > 1]


def parts_of(row: dict, columns: list[str]) -> list[str]:
    """The words of one configuration, one per non-null column, in column order."""
    return [w for c in columns if (w := value_words(c, row.get(c))) is not None]


def config_labels(df: pl.DataFrame, by: list[str] | None = None) -> pl.DataFrame:
    """Add a `config` label in words from the configuration columns that vary in df (nulls left out)."""
    cols = varying(df, by)
    if not cols:
        return df.with_columns(config=pl.lit(ALL_GAMES))
    keys = df.select(cols).unique()
    words = [SEPARATOR.join(parts_of(row, cols)) or ALL_GAMES for row in keys.iter_rows(named=True)]
    keys = keys.with_columns(config=pl.Series(words, dtype=pl.String))
    return df.join(keys, on=cols, how="left", nulls_equal=True, maintain_order="left")
