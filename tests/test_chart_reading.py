"""Charts a designer can read at the size the report shows them (issue 40): text of 9 pt or more and
images no taller than 1,600 px, measured in the SVGs the way the report scales them; labels that do
not overlap; heat-map cells coloured only where the difference is beyond noise; a scale of its own
for effects an order of magnitude apart; no empty panel."""

from __future__ import annotations

import re

import numpy as np
import polars as pl
import pytest
from test_charts import coloured, grid, sweep

from welcome_sim.analysis import charts as C
from welcome_sim.analysis import tables as T

CARD_PX = 1159  # the report's card at a 1280 px window: a wider chart is scaled down to it
MIN_PT = 9.0
MAX_PX = 1600


def at_report_size(svg: str) -> tuple[float, float]:
    """(smallest text in pt, height in px) of an SVG chart as the report shows it: matplotlib's SVG
    unit is 1 pt at the figure's own size; the page shows 4/3 px a pt, shrunk to the card if wider."""
    head = re.search(r"<svg[^>]*>", svg).group(0)
    width, height = (float(re.search(rf'{k}="([\d.]+)pt"', head).group(1)) for k in ("width", "height"))
    scale = min(1.0, CARD_PX / (width * 4 / 3))
    sizes = [float(x) for x in re.findall(r"font-size:\s*([\d.]+)px", svg)]
    return min(sizes) * scale, height * 4 / 3 * scale


@pytest.fixture(scope="module")
def thirty():
    lf = sweep(grid(30), games=20)
    return lf, T.balance_tables(lf)


def test_every_chart_text_at_least_9pt_and_at_most_1600px_tall_as_the_report_shows_it(thirty):
    lf, tables = thirty
    figures = C.balance_figures(lf, tables)
    ranking = pl.DataFrame(
        {
            "item": [f"item {k}" for k in range(30)],
            "index": np.linspace(-1, 1, 30),
            "ci_low": np.linspace(-1.1, 0.9, 30),
            "ci_high": np.linspace(-0.9, 1.1, 30),
            "stars": pl.Series([k % 4 for k in range(30)], dtype=pl.Int64),
        }
    )
    figures.append(("difficulty", "", C.difficulty_chart(ranking)))
    for name, _title, fig in figures:
        smallest, height = at_report_size(C.to_svg(fig))
        assert smallest >= MIN_PT, (name, smallest)
        assert height <= MAX_PX, (name, height)


def overlapping(boxes: list) -> list:
    return [(a, b) for k, a in enumerate(boxes) for b in boxes[k + 1 :] if a.overlaps(b)]


def test_no_tick_labels_overlap_and_legends_keep_off_the_panels_and_titles(thirty):
    lf, tables = thirty
    for name, _title, fig in C.balance_figures(lf, tables):
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        for ax in fig.axes:
            if not ax.get_visible():
                continue
            for ticks in (ax.get_xticklabels(), ax.get_yticklabels()):
                boxes = [t.get_window_extent(renderer) for t in ticks if t.get_visible() and t.get_text()]
                assert not overlapping(boxes), (name, ax.get_title(), [t.get_text() for t in ticks])
        # Figure legends (the score components') lie outside every panel and title.
        for legend in fig.legends:
            box = legend.get_window_extent(renderer)
            for ax in fig.axes:
                assert not box.overlaps(ax.get_window_extent(renderer)), name
                assert not box.overlaps(ax.title.get_window_extent(renderer)), name
            assert not box.overlaps(fig._suptitle.get_window_extent(renderer)), name
        C.plt.close(fig)


def test_heatmap_colours_only_cells_whose_interval_excludes_zero_and_states_the_noise():
    cfgs = [{"players": 2}, {"players": 3}]
    lf = sweep(cfgs, games=400, seed=3)
    # One pair far harder than the rest in both configurations: it must stand out of the noise.
    hard = (pl.col("plan_a_id") == "A-1") & (pl.col("plan_b_id") == "B-1")
    lf = lf.with_columns(total=pl.when(hard).then(pl.col("total") - 40).otherwise(pl.col("total")))
    # Independently: a game's plans are its seats'; a pair's difference from its configuration's mean
    # over games, 95% half-width 1.96·sd/√games·√(1 − games/all games).
    raw = lf.collect()
    games = raw.group_by("players", "seed", "plan_a_id", "plan_b_id").agg(v=pl.col("total").mean())
    want = {}
    for (players,), g in games.group_by("players"):
        for (a, b), cell in g.group_by("plan_a_id", "plan_b_id"):
            n, sd = cell.height, cell["v"].std()
            diff = cell["v"].mean() - g["v"].mean()
            half = 1.96 * sd / np.sqrt(n) * np.sqrt(1 - n / g.height) if n > 1 else np.nan
            want[f"{players} players", a, b] = (diff, half)
    fig = C.plan_heatmap(C.pair_cells(lf))
    sure, grey = 0, 0
    for ax in [ax for ax in fig.axes if ax.get_images()]:
        label = ax.get_title().replace("\n", " ")
        rows = [t.get_text() for t in ax.get_yticklabels()]
        cols = [t.get_text() for t in ax.get_xticklabels()]
        cells = coloured(ax).get_array()
        numbers = {(round(t.get_position()[1]), round(t.get_position()[0])) for t in ax.texts}
        for r, a in enumerate(rows):
            for c, b in enumerate(cols):
                if (label, a, b) not in want:
                    continue
                diff, half = want[label, a, b]
                beyond = np.isfinite(half) and abs(diff) > half
                assert (not np.ma.is_masked(cells[r, c])) == beyond, (label, a, b, diff, half)
                assert ((r, c) in numbers) == beyond, (label, a, b)
                if beyond:
                    assert cells[r, c] == pytest.approx(diff)
                sure, grey = sure + beyond, grey + (not beyond)
        assert coloured(ax).get_array()[rows.index("A-1"), cols.index("B-1")] is not np.ma.masked
    assert sure >= 2 and grey > sure  # the hard pair in both, and most cells within noise
    title = fig._suptitle.get_text()
    halves = [h for _d, h in want.values() if np.isfinite(h)]
    assert f"±{np.median(halves):.1f} points" in title and "grey" in title
    C.plt.close(fig)


def nine_and_zombies() -> pl.LazyFrame:
    """Base game and Zombie Outbreak, each with and without the 9¾ cards: Zombie Outbreak 25 points
    down, the 9¾ cards 1 point up (the effects of the Zombie/9¾ sweep, an order of magnitude apart),
    and, as in that sweep's table, no expansion points on either side."""
    lf = sweep(
        [{"expansion": x, "nine_three_quarters": n} for x in ("none", "zombies") for n in (False, True)],
        games=300,
    )
    shift = pl.when(pl.col("expansion") == "zombies").then(-25).otherwise(0) + pl.col(
        "nine_three_quarters"
    ).cast(pl.Int64)
    return lf.with_columns(total=pl.col("total") + shift, expansion_points=0)


def test_expansion_chart_gives_each_setting_its_own_scale_and_no_empty_panel():
    effects = T.balance_tables(nine_and_zombies())["expansions"]
    fig = C.expansion_chart(effects)
    final = [ax for ax in fig.axes if ax.get_visible() and ax.get_title() == "final score"]
    spans = sorted(ax.get_xlim()[1] - ax.get_xlim()[0] for ax in final)
    assert len(spans) == 2 and spans[1] > 4 * spans[0]  # the 9¾ cards' row: a scale of its own
    # No row scores expansion points: no panel for them (nor for the score net of them, the final
    # score again), and no panel without a mark in it.
    titles = [ax.get_title().replace("\n", " ") for ax in fig.axes if ax.get_visible()]
    assert "expansion's own points" not in titles and "score net of own points" not in titles
    for ax in fig.axes:
        if ax.get_visible():
            assert any(ln.get_marker() == "o" for ln in ax.get_lines()), ax.get_title()
    C.plt.close(fig)
