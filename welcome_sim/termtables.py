"""Terminal tables that fit the console width and never cut a cell.

rich squeezes a table wider than the terminal by cutting cells ("me…", "98…"): a number cut is a
number lost. Here every column gets an explicit width no smaller than its longest number (numbers
never wrap) and its longest word (labels and text wrap between words; headers also after an
underscore). A table still too wide is, in this order: stripped of the columns that are constant
in every row (named with their value in one line above it), transposed when it has few rows, or
split into stacked tables that each repeat the key (label) columns.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from rich.console import Console, RenderableType
from rich.table import Table
from rich.text import Text

if TYPE_CHECKING:  # polars loads only with the frames it is given
    import polars as pl

Cell = str | Text
# A word longer than this (a path, a web address) may fold across lines rather than widen its
# column to its full length; folding moves characters to the next line, it drops none.
WORD_CAP = 24
# Long text wraps down to this width before shorter text wraps at all.
READABLE = 24
# Tables with at most this many rows are transposed (one column per row) when too wide.
TRANSPOSE_ROWS = 6
# Box borders: one per column plus one, and one space of padding on each side of a cell.
PAD = 2


@dataclass(eq=False)  # columns are told apart by identity: two may share a name
class _Col:
    name: str
    cells: list[Text]
    breakable: list[bool]  # per cell: may wrap between words (labels, text); never for numbers
    justify: str
    key: bool

    def cell_min(self) -> int:
        """Narrowest width showing every cell whole: a number's length, or its longest word."""
        need = [
            min(WORD_CAP, max((cell_len(w) for w in c.plain.split()), default=1))
            if brk
            else cell_len(c.plain)
            for c, brk in zip(self.cells, self.breakable, strict=True)
        ]
        return max(need, default=1)

    def min_width(self) -> int:
        return max(self.cell_min(), max(cell_len(p) for _sep, p in _header_pieces(self.name)), 1)

    def cell_natural(self) -> int:
        return max((cell_len(line) for c in self.cells for line in c.plain.split("\n")), default=1)

    def natural_width(self) -> int:
        return max(self.cell_natural(), cell_len(self.name), 1)

    def readable_width(self) -> int:
        """Headers broken, long text wrapped to READABLE, short text and numbers whole."""
        cells = min(self.cell_natural(), READABLE) if any(self.breakable) else self.cell_natural()
        return max(self.min_width(), cells)


def _header_pieces(name: str) -> list[tuple[str, str]]:
    """A header cut where it may break: at spaces (dropped) and after underscores (kept)."""
    pieces: list[tuple[str, str]] = []
    for i, word in enumerate(name.split(" ")):
        for j, part in enumerate(re.findall(r"[^_]*_+|[^_]+", word) or [""]):
            pieces.append((" " if i and not j else "", part))
    return pieces


def wrap_header(name: str, width: int) -> str:
    """The header in lines of at most `width` cells, broken at spaces or after underscores."""
    lines: list[str] = []
    line = ""
    for sep, part in _header_pieces(name):
        if line and cell_len(line + sep + part) > width:
            lines.append(line)
            line = part
        else:
            line = line + sep + part if line else part
    lines.append(line)
    return "\n".join(lines)


def _span(widths: Sequence[int]) -> int:
    """Width of a boxed table whose columns (without padding) have these widths."""
    return sum(w + PAD for w in widths) + len(widths) + 1


def _fit(cols: list[_Col], width: int) -> list[int] | None:
    """Column widths that fit `width`, or None if even the narrowest widths do not.

    From natural widths, narrowing the widest column first."""
    mins = [c.min_width() for c in cols]
    if _span(mins) > width:
        return None
    widths = [c.natural_width() for c in cols]
    # First pass: headers may break and long text wraps down to a readable width; second pass:
    # text wraps down to its longest word.
    for floor in ([c.readable_width() for c in cols], mins):
        while _span(widths) > width:
            over = [k for k in range(len(cols)) if widths[k] > floor[k]]
            if not over:
                break
            widths[max(over, key=lambda k: (widths[k], -k))] -= 1
    return widths


def _table(cols: list[_Col], widths: list[int], title: str | None) -> Table:
    table = Table(title=Text(title) if title else None)  # Text: a title is never read as markup
    for col, w in zip(cols, widths, strict=True):
        table.add_column(
            Text(wrap_header(col.name, w)),
            justify=col.justify,  # type: ignore[arg-type]
            width=w,
            no_wrap=not any(col.breakable),
            overflow="fold",
        )
    for r in range(len(cols[0].cells) if cols else 0):
        table.add_row(*(c.cells[r] for c in cols))
    return table


def _transposed(cols: list[_Col], title: str | None, width: int) -> Table | None:
    """One row per column and one column per row (headed by the row's key values), if it fits."""
    keys = [c for c in cols if c.key]
    rest = [c for c in cols if not c.key]
    rows = len(cols[0].cells)
    heads = [" ".join(k.cells[r].plain for k in keys) or f"row {r + 1}" for r in range(rows)]
    # The first column's header names the key columns whose values head the others.
    out = [
        _Col(" ".join(k.name for k in keys), [Text(c.name) for c in rest], [True] * len(rest), "left", True)
    ]
    for r in range(rows):
        out.append(_Col(heads[r], [c.cells[r] for c in rest], [c.breakable[r] for c in rest], "right", False))
    widths = _fit(out, width)
    return None if widths is None else _table(out, widths, title)


def _pack(keys: list[_Col], rest: list[_Col], width: int, fits) -> list[list[_Col]] | None:
    """Columns in order into parts that each fit beside the keys; None if one cannot."""
    parts: list[list[_Col]] = []
    for col in rest:
        if parts and fits([*keys, *parts[-1], col]):
            parts[-1].append(col)
        elif _fit([*keys, col], width) is not None:
            parts.append([col])
        else:
            return None
    return parts


def _split(cols: list[_Col], title: str | None, width: int) -> list[Table] | None:
    """Stacked tables, each with the key columns and as many others as fit."""
    keys = [c for c in cols if c.key]
    rest = [c for c in cols if not c.key]
    tight = _pack(keys, rest, width, lambda cs: _fit(cs, width) is not None)
    if tight is None:
        return None
    # Whole headers and unwrapped labels read better: pack at natural, else readable widths,
    # unless that needs more tables than packing at the narrowest widths.
    parts = tight
    for measure in (_Col.readable_width, _Col.natural_width):
        loose = _pack(keys, rest, width, lambda cs, m=measure: _span([m(c) for c in cs]) <= width)
        if loose is not None and len(loose) == len(tight):
            parts = loose
    tables = []
    for i, part in enumerate(parts):
        widths = _fit(keys + part, width)
        assert widths is not None  # each part was checked while packing
        label = f"{title}, part {i + 1} of {len(parts)}" if title else f"part {i + 1} of {len(parts)}"
        tables.append(_table(keys + part, widths, label))
    return tables


def _records(cols: list[_Col], title: str | None) -> list[RenderableType]:
    """Last resort for a very narrow console: one 'column: value' line per cell, row after row."""
    out: list[RenderableType] = [Text(title, style="italic")] if title else []
    for r in range(len(cols[0].cells)):
        out.append(Text(f"row {r + 1}", style="bold"))
        out += [Text.assemble(f"  {c.name}: ", c.cells[r]) for c in cols]
    return out


def listing_lines(lead: str, items: Sequence[str], width: int | None) -> list[str]:
    """'lead a, b, c' in lines of at most `width` cells, broken only between items (an item longer
    than a line stays whole on its own); one line when width is None."""
    lines = [lead]
    for i, item in enumerate(items):
        piece = item + ("," if i < len(items) - 1 else "")
        if width is not None and cell_len(lines[-1]) + 1 + cell_len(piece) > width:
            lines.append(piece)
        else:
            lines[-1] += " " + piece
    return lines


def constant_note(dropped: Sequence[tuple[str, str]], width: int | None = None) -> Text:
    """The line naming the columns left out because every row holds the same value; at `width`,
    broken only between one 'name = value' and the next (never inside one)."""
    pairs = [f"{name} = {value if value != '' else '(empty)'}" for name, value in dropped]
    return Text("\n".join(listing_lines("same in every row:", pairs, width)), style="dim")


def layout(
    headers: Sequence[str],
    rows: Sequence[Sequence[Cell]],
    width: int,
    *,
    title: str | None = None,
    keys: Sequence[str] = (),
    words: Sequence[str] = (),
    left: Sequence[str] = (),
    drop_constant: bool = True,
) -> list[RenderableType]:
    """What to print for one table at `width` columns: a constant-columns line, then one table,
    a transposed table, or stacked tables; no cell is ever cut.

    keys: label columns repeated in every stacked table; words: columns whose cells may wrap
    between words (all others are numbers, never broken); left: left-justified columns.
    """
    cells = [[c if isinstance(c, Text) else Text(str(c)) for c in row] for row in rows]
    cols = [
        _Col(
            h,
            [row[i] for row in cells],
            [h in words] * len(cells),
            "left" if h in left else "right",
            h in keys,
        )
        for i, h in enumerate(headers)
    ]
    out: list[RenderableType] = []
    if drop_constant and cols and cells:
        # One row is constant in every column: only its labels go to the note then.
        same = [c for c in cols if len({x.plain for x in c.cells}) == 1 and (len(cells) > 1 or c.key)]
        if same and len(same) < len(cols):
            out.append(constant_note([(c.name, c.cells[0].plain) for c in same], width))
            cols = [c for c in cols if c not in same]
    if not cols or not cells:  # nothing to lay out; the columns are still named
        return [*out, Text(f"{title or 'table'}: no rows (columns: {', '.join(headers)})")]
    widths = _fit(cols, width)
    if widths is not None:
        return [*out, _table(cols, widths, title)]
    if len(cells) <= TRANSPOSE_ROWS:
        flipped = _transposed(cols, title, width)
        if flipped is not None:
            return [*out, flipped]
    stacked = _split(cols, title, width)
    if stacked is not None:
        return [*out, *stacked]
    return [*out, *_records(cols, title)]


def env_columns() -> int | None:
    """$COLUMNS when it is a whole number above 0, else None."""
    import os

    cols = os.environ.get("COLUMNS", "")
    return int(cols) if cols.isdigit() and int(cols) > 0 else None


def table_width(console: Console) -> int:
    """Columns to lay tables out in: $COLUMNS when set, else the console's width; never wider than
    the console, which would cut what it cannot print (a cell's last characters)."""
    cols = env_columns()
    return console.width if cols is None else min(cols, console.width)


def print_table(
    console: Console,
    headers: Sequence[str],
    rows: Sequence[Sequence[Cell]],
    *,
    width: int | None = None,
    **how: Any,
) -> None:
    """Print a table that fits the console (or `width`) without cutting a cell; see `layout`."""
    w = width if width is not None else table_width(console)
    for part in layout(headers, rows, w, **how):
        # soft_wrap off: a long title or note wraps between words inside the width.
        console.print(part, width=w, soft_wrap=False, highlight=False)


def format_value(value: Any, digits: str = ".3g") -> str:
    """A cell as analyze prints it: floats to 3 significant digits, everything else as str()."""
    return format(value, digits) if isinstance(value, float) else str(value)


def frame_rows(df: pl.DataFrame, fmt: Callable[[Any], str] = format_value) -> list[list[str]]:
    """Every row of the frame as formatted cells."""
    return [[fmt(v) for v in row] for row in df.iter_rows()]


def print_frame(
    console: Console,
    df: pl.DataFrame,
    *,
    title: str | None = None,
    keys: Sequence[str] = (),
    max_rows: int | None = None,
    fmt: Callable[[Any], str] = format_value,
    left: Sequence[str] | None = None,
    width: int | None = None,
) -> int:
    """Print a polars DataFrame as a fitting table (string columns: words, left-justified unless
    keys or `left` says otherwise; the rest numbers); constant columns are judged on every row,
    shown or not. Returns the number of rows not shown."""
    strings = [c for c in df.columns if str(df.schema[c]) == "String"]
    texts = [c for c in strings if c not in keys] if left is None else list(left)
    dropped: list[tuple[str, str]] = []
    if df.height > 1:
        for c in df.columns:
            if df[c].n_unique() == 1:
                dropped.append((c, fmt(df[c][0])))
    elif df.height == 1:
        dropped = [(c, fmt(df[c][0])) for c in keys if c in df.columns]
    if dropped and len(dropped) < df.width:
        w = width or table_width(console)
        console.print(constant_note(dropped, w), width=w, soft_wrap=False)
        df = df.drop([name for name, _v in dropped])
    shown = df if max_rows is None else df.head(max_rows)
    print_table(
        console,
        df.columns,
        frame_rows(shown, fmt),
        width=width,
        title=title,
        keys=[c for c in keys if c in df.columns],
        words=strings,
        left=texts,
        drop_constant=False,
    )
    return df.height - shown.height
