"""What every chart shares: the look (matplotlib settings, palette), configurations grouped into
panels, the finishing touches every chart carries (see charts.py), and SVG and PNG output."""

from __future__ import annotations

import colorsys
import io
import math
import re
from dataclasses import dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import polars as pl
from matplotlib.colors import to_hex
from matplotlib.figure import Figure

from welcome_sim.analysis.labels import (
    ALL_GAMES,
    SEPARATOR,
    parts_of,
    varying,
)
from welcome_sim.errors import WelcomeSimError

MAX_CONFIGS = 64  # configurations one chart draws at most (its title says so when it holds more)
# Comparisons with the base game: one per configuration with an expansion and one per configuration
# with the 9¾ cards, so up to twice as many as configurations.
MAX_COMPARISONS = 2 * MAX_CONFIGS
SAMPLE = 20_000  # values per configuration drawn for distribution plots
VIOLIN_POINTS = 50  # points along each violin's outline (the SVG grows with them)
ANNOTATE_CELLS = 600  # heat maps write each cell's value only up to this many cells in all
WRAP = 34  # characters per line of a label
# Every text at 9 pt or more: a chart is drawn no wider than the report's card (MAX_WIDTH_IN), so
# the report shows it at its own size and 9 pt stays 9 pt (tests/test_charts.py reads the SVGs).
TEXT_PT = 9
plt.rcParams.update(
    {
        "svg.fonttype": "none",
        "svg.hashsalt": "welcome-sim",
        "font.size": TEXT_PT,
        "axes.titlesize": TEXT_PT,
        "axes.labelsize": TEXT_PT,
        "xtick.labelsize": TEXT_PT,
        "ytick.labelsize": TEXT_PT,
        "legend.fontsize": TEXT_PT,
        "legend.title_fontsize": TEXT_PT,
        "figure.titlesize": 11,
        "figure.labelsize": TEXT_PT,
        # SVG text names every fallback font on every label: a short list keeps big charts small.
        "font.sans-serif": ["DejaVu Sans", "Arial", "Helvetica"],
    }
)
# The report's card is CARD_PX wide (96 px an inch): a figure this wide, with the margins a tight
# bounding box adds, is shown at its own size; MAX_HEIGHT_PX likewise.
MAX_WIDTH_IN = 11.6
MAX_HEIGHT_IN = 15.8
LINE_IN = 0.17  # one line of 9 pt text, with its leading
GOLDEN = (math.sqrt(5) - 1) / 2
STARS_NONE = "no rating"


def palette(n: int) -> list[str]:
    """n distinct colours (hex): tab10 up to 10, tab20 up to 20, then golden-angle hues; never cycles."""
    if n <= 10:
        colours = list(plt.get_cmap("tab10").colors[:n])
    elif n <= 20:
        tab20 = plt.get_cmap("tab20").colors
        # Dark shades first: neighbours (one panel) then differ in hue, not only in shade.
        colours = [tab20[i] for i in (*range(0, 20, 2), *range(1, 20, 2))][:n]
    else:
        # Golden-angle hue steps keep neighbours far apart on the colour wheel; three lightness
        # and two saturation bands separate colours whose hues come close.
        colours = [
            colorsys.hls_to_rgb((i * GOLDEN) % 1.0, (0.38, 0.52, 0.66)[i % 3], (0.8, 0.6)[(i // 3) % 2])
            for i in range(n)
        ]
    out = [to_hex(c) for c in colours]
    if len(set(out)) != n:  # guards the promise above; no sweep has this many configurations
        raise WelcomeSimError(f"palette: cannot give {n} distinct colours; draw fewer configurations")
    return out


def fitting(heights: list[float], budget: float = MAX_HEIGHT_IN) -> int:
    """How many of the leading rows (heights in inches) fit in the budget; at least one."""
    total, n = 0.0, 0
    for h in heights:
        if n and total + h > budget:
            break
        total, n = total + h, n + 1
    return n


@dataclass
class Configs:
    """The configurations one chart draws: the columns that vary and, per configuration, their
    values and words; `total` counts them before MAX_CONFIGS cut any."""

    columns: list[str]
    keys: pl.DataFrame  # the columns plus `_ci`, the configuration's index
    parts: list[list[str]]
    total: int
    empty_label: str = ALL_GAMES

    @property
    def labels(self) -> list[str]:
        """Each configuration's label in words."""
        return [SEPARATOR.join(p) or self.empty_label for p in self.parts]

    def attach(self, df: pl.DataFrame) -> pl.DataFrame:
        """df with `_ci`; rows of configurations past the limit are dropped."""
        if not self.columns:
            return df.with_columns(_ci=pl.lit(0, dtype=pl.UInt32))
        return df.join(self.keys, on=self.columns, how="inner", nulls_equal=True, maintain_order="left")

    def row(self, i: int) -> dict:
        """The column values of configuration i."""
        return self.keys.row(i, named=True)


def configurations(
    df: pl.DataFrame, by: list[str] | None = None, exclude: tuple[str, ...] = (), empty_label: str = ALL_GAMES
) -> Configs:
    """The configurations of df (columns of `by` that vary, less `exclude`), sorted, at most MAX_CONFIGS."""
    cols = varying(df, by, exclude)
    if not cols:
        keys = pl.DataFrame({"_ci": pl.Series([0], dtype=pl.UInt32)})
        return Configs([], keys, [[]], 1, empty_label)
    keys = df.select(cols).unique().sort(cols, nulls_last=True)
    total = keys.height
    keys = keys.head(MAX_CONFIGS).with_row_index("_ci")
    parts = [parts_of(r, cols) for r in keys.drop("_ci").iter_rows(named=True)]
    return Configs(cols, keys, parts, total, empty_label)


def _chunks(cfg: Configs, per_panel: int) -> list[list[int]]:
    """Configuration indices split into panels of at most per_panel, along the leading columns when
    that gives few panels (so a panel shares settings it can name in its title)."""
    rows = [cfg.row(i) for i in range(len(cfg.parts))]

    def even(idx: list[int]) -> list[list[int]]:
        m = math.ceil(len(idx) / per_panel)
        size = math.ceil(len(idx) / m)
        return [idx[i : i + size] for i in range(0, len(idx), size)]

    def split(idx: list[int], level: int) -> list[list[int]]:
        if len(idx) <= per_panel:
            return [idx]
        if level >= len(cfg.columns):
            return even(idx)
        col = cfg.columns[level]
        groups: list[list[int]] = []
        for i in idx:  # keys are sorted, so equal values are neighbours
            if groups and rows[groups[-1][0]][col] == rows[i][col]:
                groups[-1].append(i)
            else:
                groups.append([i])
        if len(groups) == 1:
            return split(idx, level + 1)
        if len(groups) > 2 * math.ceil(len(idx) / per_panel):
            return even(idx)  # grouping here would give many near-empty panels
        return pack([chunk for g in groups for chunk in split(g, level + 1)])

    def pack(chunks: list[list[int]]) -> list[list[int]]:
        # Small groups share a panel (first fit) rather than each filling one alone.
        panels: list[list[int]] = []
        for chunk in chunks:
            room = next((p for p in panels if len(p) + len(chunk) <= per_panel), None)
            if room is None:
                panels.append(list(chunk))
            else:
                room.extend(chunk)
        return [sorted(p) for p in panels]

    return split(list(range(len(cfg.parts))), 0)


def _common(cfg: Configs, idx: list[int]) -> tuple[str, list[str]]:
    """A panel's title (the words its configurations share) and each one's own words."""
    rows = [cfg.row(i) for i in idx]
    shared = [c for c in cfg.columns if len({r[c] for r in rows}) == 1]
    title = SEPARATOR.join(parts_of(rows[0], shared))
    if len(idx) == 1:
        return title, [cfg.labels[idx[0]]]
    own = [c for c in cfg.columns if c not in shared]
    return title, [SEPARATOR.join(parts_of(r, own)) or cfg.empty_label for r in rows]


def _wrap(text: str, width: int = WRAP) -> str:
    """Text in lines of at most `width` characters, broken between words; a word longer than a line
    (a --vary path, 'expansion.zombies.start_ammunition=2') after its '.', '_' or '=', never
    inside a name ('expansion.zo / mbies') unless a part is itself longer than a line."""
    pieces: list[tuple[str, bool]] = []  # (piece, whether a space goes before it)
    for word in text.split():
        if len(word) <= width:
            pieces.append((word, True))
        else:
            parts = re.findall(r"[^._=]+[._=]?|[._=]", word)
            # A part still longer than a line is cut where it must, as textwrap would.
            parts = [p[i : i + width] for p in parts for i in range(0, len(p), width)]
            pieces += [(part, k == 0) for k, part in enumerate(parts)]
    lines: list[str] = []
    line = ""
    for piece, spaced in pieces:
        joined = line + (" " if spaced and line else "") + piece
        if line and len(joined) > width:
            lines.append(line)
            line = piece
        else:
            line = joined
    return "\n".join([*lines, line])


def _grid(
    n: int,
    ncols: int,
    size: tuple[float, float],
    *,
    sharex: bool | str = False,
    sharey: bool | str = False,
) -> tuple[Figure, list]:
    """A figure of n panels in rows of ncols (unused slots hidden); returns it and the n axes."""
    nrows = math.ceil(n / ncols)
    fig, axes = plt.subplots(
        nrows,
        ncols,
        figsize=(size[0] * ncols, size[1] * nrows),
        sharex=sharex,
        sharey=sharey,
        squeeze=False,
        layout="constrained",
    )
    flat = list(axes.ravel())
    for k, ax in enumerate(flat):
        if k >= n:
            ax.set_visible(False)
        elif k + ncols >= n:  # the last panel of its column: show the shared x axis here
            ax.xaxis.set_tick_params(labelbottom=True)
    return fig, flat[:n]


def _rows(
    titles: list[str],
    heights: list[float],
    ncols: int | list[int],
    width: float,
    *,
    sharey: bool = False,
    figures: bool = False,
):
    """A figure of rows of ncols panels (or ncols[r] in row r), one row per group of configurations,
    each row titled with the words its configurations share; returns it and the axes row by row
    (and the rows' subfigures when `figures`)."""
    counts = ncols if isinstance(ncols, list) else [ncols] * len(heights)
    fig = plt.figure(figsize=(width * max(counts), sum(heights) + 0.4), layout="constrained")
    subs = fig.subfigures(len(heights), 1, height_ratios=heights, squeeze=False).ravel()
    axes = []
    for sub, title, n in zip(subs, titles, counts, strict=True):
        axes += list(sub.subplots(1, n, sharey=sharey, squeeze=False).ravel())
        if title:
            sub.suptitle(_wrap(title, 110), fontweight="bold")
    return (fig, axes, list(subs)) if figures else (fig, axes)


def _same_x(axes: list, ncols: int) -> None:
    """One x range per column of panels across the rows (so rows compare at a glance)."""
    for c in range(ncols):
        column = axes[c::ncols]
        lows, highs = zip(*(ax.get_xlim() for ax in column), strict=True)
        for ax in column:
            ax.set_xlim(min(lows), max(highs))


def _finish(
    fig: Figure, title: str, labels: list[str], total: int, what: str = "configurations", why: str = ""
) -> Figure:
    """Title the figure (saying how many configurations it shows if not all, and `why` those) and
    record them."""
    if len(labels) < total:
        title += f"\n({len(labels)} of {total} {what} shown{why}; the tables list all)"
    fig.suptitle(title)
    fig.welcome_configs = list(labels)
    fig.welcome_total = total
    return fig


def _natural(text: str) -> list:
    """Sort key for plan ids: numbers compare as numbers (A-2 before A-10)."""
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", str(text))]


def _intervals(ax, xs, ys, lo, hi, colour: str, *, vertical: bool, width: float = 1.2, alpha: float = 0.45):
    """Interval lines as one path (NaN-separated): far smaller SVG than one element per line."""
    pts = []
    for x, y, a, b in zip(xs, ys, lo, hi, strict=True):
        if a is None or b is None or np.isnan(a) or np.isnan(b):
            continue
        pts += [(x, a), (x, b), (np.nan, np.nan)] if vertical else [(a, y), (b, y), (np.nan, np.nan)]
    if pts:
        arr = np.array(pts, dtype=float)
        ax.plot(arr[:, 0], arr[:, 1], color=colour, linewidth=width, alpha=alpha, solid_capstyle="butt")


_LONG_NUMBER = re.compile(r"\d+\.\d{3,}")


def _svg(fig: Figure) -> str:
    """The figure's SVG made smaller with nothing visible lost: numbers inside tags rounded to 2
    decimals (0.01 pt), no group ids, no indentation; text between tags is left as it is."""
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})

    def short(tag: re.Match) -> str:
        return _LONG_NUMBER.sub(lambda m: f"{float(m.group(0)):.2f}", tag.group(0))

    text = re.sub(r"<[^>]+>", short, buf.getvalue())
    # Group ids are never referenced (clip paths and markers are), and indentation is only layout.
    text = re.sub(r'<g id="[^"]*"', "<g", text)
    return re.sub(r"\n[ \t]+", "\n", text)


CARD_PX = 1159  # the report's card width at a 1280 px window: a wider chart is scaled down to it
PX_PER_PT = 4 / 3  # CSS: 96 px per inch, 72 pt per inch
MIN_PT = 9.0  # the smallest text a chart may show, at the size the report renders it
MAX_HEIGHT_PX = 1600  # the tallest a chart may be, at the size the report renders it


@dataclass
class Rendered:
    """A chart's SVG as the report shows it: scaled to the card when wider, never enlarged."""

    width_px: float
    height_px: float
    scale: float
    smallest_pt: float


def rendered(svg: str, card_px: float = CARD_PX) -> Rendered:
    """The rendered size of an SVG chart (width/height in px, its text's smallest size in pt)."""
    head = re.search(r"<svg[^>]*>", svg)
    if head is None:
        raise WelcomeSimError("rendered: no <svg> element in the text given; pass a chart's SVG")
    width, height = (
        float(re.search(rf'{k}="([\d.]+)pt"', head.group(0)).group(1)) for k in ("width", "height")
    )
    scale = min(1.0, card_px / (width * PX_PER_PT))
    # matplotlib's SVG user unit is 1 pt at the figure's own size; font sizes are in user units.
    sizes = [float(s) for s in re.findall(r"font-size:\s*([\d.]+)px", svg)]
    return Rendered(
        width * PX_PER_PT * scale, height * PX_PER_PT * scale, scale, min(sizes, default=0) * scale
    )


def to_svg(fig: Figure) -> str:
    """The figure as inline SVG text (the XML header dropped); closes the figure."""
    text = _svg(fig)
    plt.close(fig)
    return text[text.index("<svg") :]


def save(fig: Figure, path: Path) -> None:
    """Write the figure as path.svg and path.png; closes the figure."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.with_suffix(".svg").write_text(_svg(fig), encoding="utf-8")
    fig.savefig(path.with_suffix(".png"), bbox_inches="tight", dpi=120)
    plt.close(fig)
