"""Charts on hand-made sweep-shaped frames: words for labels, no configuration dropped unsaid, distinct
colours, one heat-map panel per configuration, and SVGs small enough for a one-file report."""

from __future__ import annotations

import itertools
import re

import numpy as np
import polars as pl
import pytest
from matplotlib.colors import to_hex

from welcome_sim.analysis import chartkit
from welcome_sim.analysis import charts as C
from welcome_sim.analysis import labels as L
from welcome_sim.analysis import tables as T
from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.ground.layout import SCORE_COMPONENTS

EXPANSIONS = ("none", "easter", "icecream", "christmas", "zombies")


def sweep(configs: list[dict], games: int = 12, seed: int = 0) -> pl.LazyFrame:
    """Sweep-shaped rows (one per player per game) for each configuration, random but seeded."""
    rng = np.random.default_rng(seed)
    base = {
        "run": "r",
        "edition": "collector",
        "sheet": "classic",
        "mode": "standard",
        "players": 1,
        "table": "greedy",
        "plans_mode": "random",
        "expansion": "none",
        "nine_three_quarters": False,
        "opponent": None,
        "opponent_name": None,
    }
    rows = []
    for cfg in configs:
        cfg = {**base, **cfg}
        for game in range(games):
            plans = {x: f"{x.upper()}-{rng.integers(1, 8)}" for x in "abc"}  # 7 cards a letter, as printed
            for seat in range(cfg["players"]):
                parts = {c: int(rng.integers(0, 12)) for c in SCORE_COMPONENTS}
                validated = {x: int(rng.integers(0, 2)) * int(rng.integers(5, 15)) for x in "abc"}
                total = sum(v for c, v in parts.items() if not c.endswith("penalty")) - sum(
                    v for c, v in parts.items() if c.endswith("penalty")
                )
                rows.append(
                    {
                        **cfg,
                        "seat": seat,
                        "game": game,
                        "seed": game,
                        "total": total,
                        "rounds": int(rng.integers(18, 26)),
                        "end_reason": ("plans", "refusals", "full")[int(rng.integers(0, 3))],
                        "refusals": int(rng.integers(0, 4)),
                        **parts,
                        **{f"plan_{x}_id": plans[x] for x in "abc"},
                        **{f"plan_{x}_round": validated[x] for x in "abc"},
                        **{f"plan_{x}_first": validated[x] > 0 and rng.random() < 0.6 for x in "abc"},
                        "aaa_total": int(rng.integers(40, 90)),
                        "won": bool(rng.random() < 0.5),
                        "aaa_plans": 1,
                        "aaa_estates": 2,
                        "aaa_cards": 3,
                    }
                )
    schema = {"opponent": pl.Int8, "opponent_name": pl.String}
    return pl.DataFrame(rows, schema_overrides=schema).lazy()


def grid(n: int) -> list[dict]:
    """n configurations (n <= 60) varying expansion, the 9¾ cards, mode and player count."""
    cells = itertools.product(EXPANSIONS, (False, True), ("standard", "advanced"), (2, 3, 4))
    return [
        {"expansion": x, "nine_three_quarters": nine, "mode": mode, "players": p}
        for x, nine, mode, p in itertools.islice(cells, n)
    ]


@pytest.fixture(scope="module")
def many() -> tuple[pl.LazyFrame, dict[str, pl.DataFrame]]:
    lf = sweep(grid(60), games=25)
    return lf, T.balance_tables(lf)


def test_labels_are_words():
    assert L.value_words("players", 2) == "2 players" and L.value_words("players", 1) == "1 player"
    assert L.value_words("nine_three_quarters", True) == "9¾ cards"
    assert L.value_words("nine_three_quarters", False) == "no 9¾ cards"
    assert L.value_words("nine_three_quarters", "False") == "no 9¾ cards"  # as the effect tables hold it
    assert L.value_words("expansion", "none") == "base game"
    assert L.value_words("expansion", "icecream") == "Ice Cream Truck"  # the data file's title
    assert L.value_words("expansion", "my_own") == "My own"  # no data file: capitalised
    assert L.value_words("mode", "expert-advanced") == "expert advanced mode"
    assert L.value_words("opponent", 3) == "AAA level 3"
    assert L.value_words("plans_mode", "random") == "plans: random"
    assert L.value_words("opponent", None) is None
    df = pl.DataFrame(
        {
            "players": [1, 2, 1],
            "nine_three_quarters": [False, True, True],
            "opponent": pl.Series([2, None, 4], dtype=pl.Int8),
            "sheet": ["classic"] * 3,  # the same everywhere: not in the label
        }
    )
    got = C.config_labels(df)["config"].to_list()
    assert got == [
        "no 9¾ cards · 1 player · AAA level 2",  # in the order of tables.CONFIG
        "9¾ cards · 2 players",  # the null opponent is left out, not the whole label
        "9¾ cards · 1 player · AAA level 4",
    ]
    assert C.config_labels(df.head(1))["config"].to_list() == ["all games"]


def test_palette_never_repeats():
    for n in (1, 9, 10, 11, 20, 21, 48, 60, 64, 150):
        colours = C.palette(n)
        assert len(colours) == n and len(set(colours)) == n
    assert C.palette(10) == [to_hex(c) for c in __import__("matplotlib").colormaps["tab10"].colors]


def colours_of(fig) -> set[str]:
    """Colours of every marker and line drawn in the figure's panels (not grey references)."""
    out = set()
    for ax in fig.axes:
        for line in ax.get_lines():
            if line.get_marker() not in (None, "None", ""):
                out.add(to_hex(line.get_color()))
    return out


def test_twenty_configurations_all_drawn_in_distinct_colours():
    lf = sweep(grid(20), games=6)
    tables = T.balance_tables(lf)
    fig = C.plan_difficulty_bars(tables["plan_difficulty"])
    labels = fig.welcome_configs
    assert fig.welcome_total == 20 and len(labels) == 20 and len(set(labels)) == 20
    assert all("true" not in s.lower() and "false" not in s.lower() for s in labels)
    # Within a panel, one dark (tab10) marker colour per configuration, none shared: twenty colours
    # in one chart were pale look-alikes.
    tab10 = set(C.palette(10))
    for ax in fig.axes:
        colours = [
            to_hex(ln.get_color()) for ln in ax.get_lines() if ln.get_marker() not in (None, "None", "")
        ]
        assert len(colours) == len(set(colours)) and set(colours) <= tab10
    # Small multiples: a row of letter panels per group of at most 6 configurations.
    letters = tables["plan_difficulty"]["letter"].n_unique()
    assert len([ax for ax in fig.axes if ax.get_visible()]) >= letters * 4
    assert "of 20" not in fig._suptitle.get_text()
    C.plt.close(fig)


def test_sixty_configurations_every_chart_says_what_it_shows(many):
    lf, tables = many
    figures = C.balance_figures(lf, tables)
    names = [name for name, _title, _fig in figures]
    assert names == [
        "score_distribution",
        "components",
        "plan_difficulty",
        "plan_combinations",
        "game_length",
        "player_count",
        "expansions",
    ]
    for name, _title, fig in figures:
        if name == "expansions":
            continue  # its rows are comparisons, tested below
        labels = fig.welcome_configs
        if name == "player_count":
            # Lines per configuration other than the player count: 5 expansions x 2 x 2 modes.
            assert fig.welcome_total == 20 and len(labels) == 20, name
            assert all("player" not in s for s in labels)
        else:
            assert fig.welcome_total == 60 and len(set(labels)) == len(labels), name
        # Past the height budget a chart draws fewer, and says so in its title.
        shown = len(labels) == fig.welcome_total
        said = f"{len(labels)} of {fig.welcome_total} configurations shown" in fig._suptitle.get_text()
        assert shown != said, name
        svg = C.to_svg(fig)
        assert len(svg.encode()) < 400_000, (name, len(svg))


def test_more_than_max_configurations_says_how_many(monkeypatch):
    # The limit lives with the configurations' grouping (chartkit), which every chart uses.
    monkeypatch.setattr(chartkit, "MAX_CONFIGS", 16)
    lf = sweep(grid(20), games=4)
    hist = T.game_length_histogram(lf)
    fig = C.game_length_histogram(hist)
    assert fig.welcome_total == 20 and len(fig.welcome_configs) == 16
    assert "16 of 20 configurations shown" in fig._suptitle.get_text()
    C.plt.close(fig)


def coloured(ax):
    """The heat map's coloured layer of a panel (the other one greys the cells within noise)."""
    return next(im for im in ax.get_images() if im.get_cmap().name.startswith("RdBu"))


def test_heatmap_has_a_panel_per_configuration_on_one_colour_scale():
    lf = sweep(grid(5), games=30)
    pairs = C.pair_cells(lf)
    fig = C.plan_heatmap(pairs)
    panels = [ax for ax in fig.axes if ax.get_images()]
    assert len(panels) == 5 == len(fig.welcome_configs)
    assert [ax.get_title().replace("\n", " ") for ax in panels] == fig.welcome_configs
    norms = {(coloured(ax).norm.vmin, coloured(ax).norm.vmax) for ax in panels}
    assert len(norms) == 1  # one shared scale
    (vmin, vmax) = norms.pop()
    shown = np.concatenate([coloured(ax).get_array().compressed() for ax in panels])
    # Symmetric about 0, as far as the largest difference shown (a grey cell needs no colour).
    if shown.size:
        assert vmin == pytest.approx(-np.abs(shown).max()) and vmax == pytest.approx(np.abs(shown).max())
    C.plt.close(fig)


def test_aaa_chart_win_rate_and_margin_per_level():
    cfgs = [
        {"mode": "solo", "opponent": lv, "opponent_name": f"n{lv}", "nine_three_quarters": nine}
        for lv in range(4)
        for nine in (False, True)
    ]
    lf = sweep(cfgs, games=40)
    aaa = T.aaa_results(lf)
    fig = C.aaa_chart(aaa)
    assert fig.welcome_configs == ["no 9¾ cards", "9¾ cards"] and fig.welcome_total == 2
    win_ax, margin_ax = fig.axes[:2]
    lines = [ln for ln in win_ax.get_lines() if ln.get_marker() == "o"]
    assert len(lines) == 2 and {to_hex(ln.get_color()) for ln in lines} == set(C.palette(2))
    # Level 0 does not score: no win rate, and its margin (the player's whole score) is left out.
    first = aaa.filter(~pl.col("nine_three_quarters")).sort("opponent")
    xs = lines[0].get_xdata()
    assert len(xs) == first["win_rate"].drop_nulls().len()
    np.testing.assert_allclose(lines[0].get_ydata(), first["win_rate"].drop_nulls().to_numpy())
    margins = [ln for ln in margin_ax.get_lines() if ln.get_marker() == "o"]
    np.testing.assert_allclose(
        margins[0].get_ydata(), first.filter(pl.col("opponent") > 0)["margin"].to_numpy()
    )
    assert "1\nn1" in [t.get_text() for t in win_ax.get_xticklabels()]
    C.plt.close(fig)


def test_player_count_chart_and_plan_race():
    lf = sweep([{"players": p, "mode": m} for p in (2, 3, 4) for m in ("standard", "expert")], games=25)
    scores, plans = T.score_distribution(lf), T.plan_difficulty(lf)
    fig = C.player_count_chart(scores, plans)
    assert fig.welcome_configs == ["expert mode", "standard mode"]
    score_ax, race_ax = fig.axes[:2]
    line = next(ln for ln in score_ax.get_lines() if ln.get_marker() == "o")
    want = scores.filter(pl.col("mode") == "expert").sort("players")["mean"].to_numpy()
    np.testing.assert_allclose(line.get_ydata(), want)
    # Share of validations that scored first, over every plan: Σ first / Σ validated.
    raw = lf.filter(pl.col("mode") == "expert").collect()
    for k, p in enumerate((2, 3, 4)):
        sub = raw.filter(pl.col("players") == p)
        firsts = sum(sub[f"plan_{x}_first"].sum() for x in "abc")
        done = sum((sub[f"plan_{x}_round"] > 0).sum() for x in "abc")
        race = next(ln for ln in race_ax.get_lines() if ln.get_marker() == "o")
        assert race.get_ydata()[k] == pytest.approx(firsts / done)
    C.plt.close(fig)


def test_expansion_chart_in_words(many):
    _lf, tables = many
    effects = tables["expansions"]
    fig = C.expansion_chart(effects)
    labels = fig.welcome_configs
    comparisons = effects.select(
        "toggle", "b", "players", "mode", "expansion", "nine_three_quarters"
    ).unique()
    assert len(labels) == fig.welcome_total == comparisons.height
    assert any(s.startswith("Easter Egg Hunt vs base game") for s in labels)
    assert any(s.startswith("9¾ cards vs no 9¾ cards") for s in labels)
    assert not any(re.search(r"\b(true|false|none)\b", s, re.I) for s in labels)
    titles = {ax.get_title().replace("\n", " ") for ax in fig.axes if ax.get_visible()}
    assert {
        "final score",
        "expansion's own points",
        "permit refusals per player",
        "rounds per game",
    } <= titles
    assert len(set(C.palette(len(labels)))) == len(labels)
    svg = C.to_svg(fig)
    assert len(svg.encode()) < 400_000


def test_difficulty_chart_writes_the_stars():
    df = pl.DataFrame(
        {
            "item": ["Zombie Outbreak", "Easter Egg Hunt", "base game"],
            "index": [0.8, 0.3, 0.5],
            "ci_low": [0.7, 0.2, 0.45],
            "ci_high": [0.9, 0.4, 0.55],
            "stars": pl.Series([3, 1, None], dtype=pl.Int64),
        }
    )
    fig = C.difficulty_chart(df)
    ticks = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert ticks == ["Zombie Outbreak   ★★★", "base game   no rating", "Easter Egg Hunt   ★"]
    assert fig.welcome_configs == ticks
    svg = C.to_svg(fig)
    assert "★★★" in svg and "no rating" in svg
    with pytest.raises(WelcomeSimError, match=r"missing column.*stars"):
        C.difficulty_chart(df.drop("stars"))


def test_component_colours_do_not_repeat():
    lf = sweep(grid(3), games=4)
    fig = C.component_bars(T.components(lf))
    colours = {to_hex(p.get_facecolor()) for ax in fig.axes for p in ax.patches}
    assert len(colours) == len(SCORE_COMPONENTS)
    assert fig.welcome_configs == ["2 players", "3 players", "4 players"]  # only what varies
    C.plt.close(fig)


def test_one_configuration_and_the_aaa_section_in_balance_figures():
    lf = sweep([{}], games=10)
    figures = C.balance_figures(lf, T.balance_tables(lf))
    assert [name for name, _t, _f in figures] == [
        "score_distribution",
        "components",
        "plan_difficulty",
        "plan_combinations",
        "game_length",
    ]
    for _name, _title, fig in figures:
        assert fig.welcome_configs == ["all games"] and fig.welcome_total == 1
        C.plt.close(fig)
    solo = [{"mode": "solo", "opponent": lv, "opponent_name": f"n{lv}"} for lv in range(3)]
    lf = sweep(solo, games=10)
    figures = {name: fig for name, _t, fig in C.balance_figures(lf, T.balance_tables(lf))}
    assert "aaa_levels" in figures and "player_count" not in figures and "expansions" not in figures
    assert figures["aaa_levels"].welcome_configs == ["all AAA games"]
    assert figures["score_distribution"].welcome_configs == ["AAA level 0", "AAA level 1", "AAA level 2"]
    for fig in figures.values():
        C.plt.close(fig)


def test_player_count_chart_draws_only_configurations_with_several_counts():
    """An expansion swept at 1 player only has no line against the player count: it is left out."""
    lf = sweep(
        [{"players": p} for p in (1, 2, 3)] + [{"players": 1, "expansion": "easter", "sheet": "classic"}],
        games=20,
    )
    fig = C.player_count_chart(T.score_distribution(lf), T.plan_difficulty(lf))
    assert fig.welcome_configs == ["all games"] and fig.welcome_total == 1  # Easter (1 player only) is out
    C.plt.close(fig)


def test_difficulty_chart_keeps_its_legend_off_the_intervals():
    """One item (a sweep of two sheets): the legend once sat on its interval's line."""
    df = pl.DataFrame(
        {
            "item": ["Blueprint sheet"],
            "index": [-0.30],
            "ci_low": [-0.36],
            "ci_high": [-0.24],
            "stars": [None],
        },
        schema_overrides={"stars": pl.Int64},
    )
    fig = C.difficulty_chart(df)
    fig.canvas.draw()
    (ax,) = fig.axes
    legend = ax.get_legend().get_window_extent()
    assert legend.x0 >= ax.get_window_extent().x1  # beside the plot, not inside it
    assert legend.x1 <= fig.bbox.x1 + 1  # and within the figure


def test_a_long_varied_path_wraps_after_its_dots_not_inside_a_name():
    """A --vary cell's label is one long word; its chart labels break it after '.', '_' or '=',
    never in the middle of a name, and no line is longer than asked."""
    wrapped = chartkit._wrap("expansion.zombies.start_ammunition=0", 14)
    assert wrapped.split("\n") == ["expansion.", "zombies.start_", "ammunition=0"]
    assert chartkit._wrap("Classic sheet · 4 players", 14) == "Classic sheet\n· 4 players"
    for text in ("expansion.zombies.start_ammunition=0 · 2 players", "b" * 40 + ".c", "x " * 30):
        assert all(len(line) <= 14 for line in chartkit._wrap(text, 14).split("\n")), text
