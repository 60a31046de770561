"""The contract every expansion keeps, one parametrised test per clause over every record
(welcome_sim/simcore/rules/expansions/record.py): its numbers are the ones handed out before the records
(codes, columns, features, goals), it owns the layout entries it names, hooks.py calls exactly the
hooks it declares, bad data names the file and the key, the kernel and its referee reading agree,
its result columns reach a sweep's rows, and its text marks render."""

from __future__ import annotations

import ast
import importlib
import re
import tomllib
from pathlib import Path

import polars as pl
import pytest

from welcome_sim.errors import DataError
from welcome_sim.referee.readings import referee_expansion
from welcome_sim.simcore.engine.game import game_seeds, simulate
from welcome_sim.simcore.ground import layout
from welcome_sim.simcore.ground.datafiles import DATA_DIR
from welcome_sim.simcore.ground.schema import Num
from welcome_sim.simcore.rules.expansions import expansion_schema
from welcome_sim.simcore.rules.expansions import registry as X
from welcome_sim.simcore.rules.expansions.record import MODULES
from welcome_sim.simcore.rules.ruleset import load_ruleset
from welcome_sim.verify import check_batch, referee_game

NAMES = [r.name for r in X.RECORDS if r.module in MODULES]  # the built-in expansions
HOOKS = Path(__file__).parent.parent / "welcome_sim" / "simcore" / "rules" / "expansions" / "hooks.py"


def data_path(name: str) -> Path:
    return DATA_DIR / "expansions" / f"{name}.toml"


# --- the numbers: allocated from the records, the same as when they were kept by hand ----------

# The hand-kept values of b6b844f (simcore/rules/expansions/codes.py, simcore/ground/layout.py), before the records.
TODAY_NAMES = (
    "easter",
    "icecream",
    "christmas",
    "zombies",
    "doomsday",
    "roswell",
    "halloween",
    "quack",
    "american-dream",
)
TODAY_TITLES = (
    "Easter Egg Hunt",
    "Ice Cream Truck",
    "Christmas Lights",
    "Zombie Outbreak",
    "Doomsday",
    "Roswell",
    "Halloween",
    "Quack",
    "The American Dream",
)
# OUT_COLUMNS from index 41 (O_X_EGGS) on; 0..40 are the base game's, through expansion_points.
TODAY_X_COLUMNS = [
    "eggs",
    "cones",
    "delivery_bonus",
    "lights",
    "invaded",
    "ammunition_used",
    "barricades",
    "shelters",
    "shelter_capacity",
    "shelter_bonus",
    "optimism_bonus",
    "objective",
    "zoorgs",
    "infiltrated",
    "ghosts",
    "candies",
    "ghost_level",
    "candy_level",
    "ducklings",
    "ducklings_connected",
    "phases_triggered",
    "phases_in_play",
    "perfect",
    "columns_complete",
    "column_bonuses",
    "street_bonuses",
]
TODAY_FEATURES = ("eggs", "cones", "gaps", "links", "lit", "barricades", "shelters", "zoorgs", "ducklings")
TODAY_GOALS = [
    "all_eggs_of_colours",
    "colours_each_street",
    "all_eggs_of_street",
    "cones_of_scoops",
    "all_cones_of_street",
    "street_string",
    "street_string_parks",
    "barricades_built",
    "street_barricades",
    "ammunition_used",
    "houses_invaded",
    "all_shelters_built",
    "shelter_capacity",
    "two_streets_capacity",
    "street_zoorgs",
    "columns_zoorgs",
    "candies_circled",
    "ghosts_and_candies",
    "marked_numbered",
    "street_ghosts",
    "street_candies",
    "ducklings_circled",
    "street_ducklings",
    "edge_ducklings",
    "between_ducklings",
    "colours_perfect",
    "colours_numbered",
    "perfect_columns",
    "complete_columns",
    "adjacent_columns",
    "perfect_streets",
    "complete_streets",
    "perfect_square",
]
# A few of the named constants the kernel compiled with (module, name, value at b6b844f).
TODAY_CONSTANTS = [
    ("codes", "X_EASTER", 1),
    ("codes", "X_DOOMSDAY", 5),
    ("codes", "X_AMERICAN", 9),
    ("codes", "FT_LIT", 5),
    ("codes", "FT_DUCKLINGS", 9),
    ("easter", "O_X_EGGS", 41),
    ("icecream", "O_X_BONUS", 43),
    ("zombies", "O_X_BARRICADES", 47),
    ("roswell", "O_X_OBJECTIVE", 52),
    ("halloween", "O_X_CANDY_LEVEL", 58),
    ("quack", "O_X_PHASES", 62),
    ("american", "O_X_STREET_BONUSES", 66),
    ("zombies", "GL_BARRICADES", 8),
    ("halloween", "GL_STREET_CANDIES", 21),
    ("american", "GL_PERFECT_SQUARE", 33),
]


def test_the_numbers_allocated_from_the_records_are_todays():
    from welcome_sim.simcore.rules.expansions import codes

    assert X.NAMES[: len(TODAY_NAMES)] == TODAY_NAMES and X.TITLES[: len(TODAY_TITLES)] == TODAY_TITLES
    assert layout.BASE_OUT_LEN == 41 and layout.BASE_OUT_COLUMNS[-1] == "expansion_points"
    assert list(X.OUT_COLUMNS[41 : 41 + len(TODAY_X_COLUMNS)]) == TODAY_X_COLUMNS
    assert X.FEATURES[: len(TODAY_FEATURES)] == TODAY_FEATURES
    assert list(X.GOALS[: len(TODAY_GOALS)]) == TODAY_GOALS
    for mod, name, value in TODAY_CONSTANTS:
        m = (
            codes
            if mod == "codes"
            else importlib.import_module(f"welcome_sim.simcore.rules.expansions.{mod}")
        )
        assert getattr(m, name) == value, (mod, name)


@pytest.mark.parametrize("name", NAMES)
def test_record_agrees_with_its_data_file(name):
    rec = X.record(name)
    data = tomllib.loads(data_path(name).read_text(encoding="utf-8"))
    assert (
        data["name"] == name and data["title"] in rec.title
    )  # "American Dream" helps as "The American Dream"
    assert data["publisher_stars"] == rec.stars  # the publisher's rating, as the difficulty table shows it
    mod = importlib.import_module(rec.module)
    assert X.NAMES.index(name) + 1 == mod.X_CODE
    # Every result column the record declares is a column its module writes (O_X_<...> = its index).
    written = {v for k, v in vars(mod).items() if k.startswith("O_X_") and k != "O_X_POINTS"}
    assert written == {X.OUT_COLUMNS.index(c) for c in rec.columns}


# Registries once kept by hand, now derived from the records: none names an expansion any more.
DERIVED = (
    "welcome_sim/simcore/rules/expansions/codes.py",
    "welcome_sim/simcore/rules/expansions/modules.py",
    "welcome_sim/simcore/rules/expansions/compile.py",
    "welcome_sim/simcore/rules/expansions/registry.py",
    "welcome_sim/simcore/ground/layout.py",
    "welcome_sim/sweep/rows.py",
    "welcome_sim/textview.py",
    "run.sh",
)


@pytest.mark.parametrize("path", DERIVED)
def test_a_derived_registry_names_no_expansion(path):
    text = (Path(__file__).parent.parent / path).read_text(encoding="utf-8")
    assert not [n for n in NAMES if f'"{n}"' in text or f",{n}," in text]


# --- layout entries it owns, hooks it declares, its referee reading -----------------------------


def _numbers(r) -> dict[str, int]:
    """The flag bits, score-sheet slots and log kinds a record's module exposes, by name."""
    mod = importlib.import_module(r.module)
    return {n: getattr(mod, n) for n in (*r.flags, *(s for s, _ in r.sc_slots), *r.log_kinds)}


def test_every_expansion_layout_entry_has_one_owner():
    """Flag bits, score-sheet slots and log kinds an expansion uses are named by exactly one
    record and handed out from it: its flag bits are distinct single bits above the base game's,
    its slots disjoint ranges between the base game's and SC_LEN, its module names each."""
    owned = {}
    bits, columns = [], []
    for r in X.RECORDS:
        got = _numbers(r)
        for n in got:
            assert n not in owned, f"{n} claimed by {owned.get(n)} and {r.name}"
            assert not hasattr(layout, n) or n.startswith("LOG_X_"), f"{n} is still numbered in layout.py"
            owned[n] = r.name
        bits += [got[n] for n in r.flags]
        columns += [c for s, k in r.sc_slots for c in range(got[s], got[s] + k)]
    assert all(b & (b - 1) == 0 for b in bits) and len(set(bits)) == len(bits)
    assert min(bits) == 1 << layout.F_BASE_BITS and max(bits) < 1 << layout.F_MAX_BITS
    assert not any(b & (layout.F_TAKEN | layout.F_EXT | layout.F_POOL) for b in bits)
    assert len(set(columns)) == len(columns)
    assert min(columns) == layout.SC_BASE_LEN and max(columns) < layout.SC_LEN
    assert layout.SC_SEALED < layout.SC_BASE_LEN


def test_the_log_kinds_table_is_the_records_and_the_referees():
    """The log is a documented format the referee reads with its own numbers: the built-in
    expansions' kinds are layout.LOG_X_KINDS, exactly the kinds their records name, and each is
    the referee's number for that kind (referee/log.py X_<name>)."""
    from welcome_sim.referee import log as referee_log

    builtin = [r for r in X.RECORDS if r.module in MODULES]
    named = {n: _numbers(r)[n] for r in builtin for n in r.log_kinds}
    assert named == layout.LOG_X_KINDS
    assert {n: getattr(layout, n) for n in layout.LOG_X_KINDS} == layout.LOG_X_KINDS
    referee = {n: getattr(referee_log, n.removeprefix("LOG_")) for n in layout.LOG_X_KINDS}
    assert referee == layout.LOG_X_KINDS
    other = {"LOG_LEN", "LOG_X_KINDS", "LOG_X_FREE", *named}
    base = {k: v for k, v in vars(layout).items() if k.startswith("LOG_") and k not in other}
    assert base == {k: getattr(referee_log, k[4:]) for k in base} and len(base) == 10
    assert len(set(base.values()) | set(named.values())) == len(base) + len(named)
    assert max(named.values()) < layout.LOG_X_FREE


def test_an_expansion_of_ones_own_gets_numbers_after_the_built_in_ones(tmp_path, monkeypatch):
    """Its flag bits, slots and log kinds follow the built-in expansions'; one that does not fit
    the sheet stops with one line naming its module, what it needs and the room there is."""
    from welcome_sim.errors import WelcomeSimError
    from welcome_sim.simcore.rules.expansions.record import EXTRA_ENV, Record, allocate

    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv(EXTRA_ENV, "mine_a,mine_b")
    common = dict(title="t", stars=1, columns=(), columns_doc="", referee="x:Y")
    a = Record(name="a", flags=("F_A",), sc_slots=(("SC_A", 2),), log_kinds=("LOG_X_A", "LOG_X_A2"), **common)
    b = Record(name="b", sc_slots=(("SC_B", layout.SC_LEN),), **common)
    for name, rec in (("mine_a", a), ("mine_b", b)):
        (tmp_path / f"{name}.py").write_text("")
        monkeypatch.setattr(importlib.import_module(name), "RECORD", rec, raising=False)
    top_bit = max(v for r in X.RECORDS for n, v in _numbers(r).items() if n in r.flags)
    top_sc = max(_numbers(r)[s] + k for r in X.RECORDS for s, k in r.sc_slots)
    got = allocate(a, "mine_a")
    assert got.flags == {"F_A": top_bit * 2}
    assert got.sc == {"SC_A": top_sc}
    assert got.log == {"LOG_X_A": layout.LOG_X_FREE, "LOG_X_A2": layout.LOG_X_FREE + 1}
    with pytest.raises(
        WelcomeSimError, match=rf"'mine_b'.* need \d+ score-sheet slots, the sheet has {layout.SC_LEN} "
    ):
        allocate(b, "mine_b")


def _hook_calls() -> dict[str, set[tuple[str, str]]]:
    """(hook, module function) pairs hooks.py calls, by expansion module (short name)."""
    tree = ast.parse(HOOKS.read_text(encoding="utf-8"))
    short = {m.rsplit(".", 1)[1] for m in MODULES}
    calls: dict[str, set[tuple[str, str]]] = {}
    for fn in tree.body:
        if not isinstance(fn, ast.FunctionDef):
            continue
        for node in ast.walk(fn):
            f = getattr(node, "func", None)
            if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in short:
                calls.setdefault(f.value.id, set()).add((fn.name, f.attr))
    return calls


@pytest.mark.parametrize("name", NAMES)
def test_hooks_py_calls_exactly_the_hooks_the_record_declares(name):
    rec = X.record(name)
    mod = importlib.import_module(rec.module)
    assert _hook_calls().get(rec.module.rsplit(".", 1)[1], set()) == set(rec.hooks)
    for _, func in rec.hooks:
        assert callable(getattr(mod, func)), func


@pytest.mark.parametrize("name", NAMES)
def test_the_referee_reads_it_with_the_class_the_record_names(name):
    module, cls = X.record(name).referee.split(":")
    assert type(referee_expansion(name)) is getattr(importlib.import_module(module), cls)


# --- bad data names the file and the key ---------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_an_unknown_key_names_the_file_and_the_key(name, tmp_path):
    path = tmp_path / f"bad_{name}.toml"
    text = data_path(name).read_text(encoding="utf-8")
    path.write_text(text.replace(f'name = "{name}"\n', f'name = "{name}"\nsurprise_key = 3\n', 1))
    with pytest.raises(DataError) as exc:
        load_ruleset(expansion=str(path))
    assert exc.value.key == "surprise_key" and str(path) in str(exc.value) and "\n" not in str(exc.value)


def _num_key(name: str) -> tuple[str, Num]:
    """A top-level whole-number key of the expansion's own (its module's KEYS), with its range."""
    data = tomllib.loads(data_path(name).read_text(encoding="utf-8"))
    own = importlib.import_module(X.record(name).module).KEYS
    for key, spec in expansion_schema(name).items():
        if key in own and isinstance(spec, Num) and isinstance(data.get(key), int):
            return key, spec
    return "publisher_stars", expansion_schema(name)["publisher_stars"]


@pytest.mark.parametrize("name", NAMES)
def test_a_value_out_of_range_names_the_file_the_key_and_the_range(name, tmp_path):
    key, spec = _num_key(name)
    text = data_path(name).read_text(encoding="utf-8")
    bad, n = re.subn(rf"^{key} = -?\d+", f"{key} = {spec.hi + 1}", text, count=1, flags=re.M)
    assert n == 1, key
    path = tmp_path / f"bad_{name}.toml"
    path.write_text(bad)
    with pytest.raises(DataError) as exc:
        load_ruleset(expansion=str(path))
    msg = str(exc.value)
    assert exc.value.key == key and str(path) in msg and f"use {spec.lo} to {spec.hi}" in msg, msg


# Each expansion's own checks, one line each (expansion, text in its file, its replacement, the
# key named, words of the problem or ""): moved here from the per-expansion tests.
SHELTERS = "  [3, 1], [3, 4], [3, 8], [3, 11],\n]"
BAD_DATA = [
    (
        "easter",
        '[1, 3, 1, "orange"]',
        '[1, 13, 1, "orange"]',
        "eggs[0]",
        "house 13 is not in street 1: use 1 to 10",
    ),
    ("zombies", "[3, 11],\n]", "[3, 13],\n]", "open_houses[9]", "house 13 is not in street 3: use 1 to 12"),
    (
        "doomsday",
        SHELTERS,
        SHELTERS.replace("[3, 11]", "[1, 11]"),
        "shelters[9]",
        "house 11 is not in street 1",
    ),
    ("doomsday", SHELTERS, SHELTERS.replace("[3, 11]", "[3, 8]"), "shelters[9]", "has a shelter already"),
    (
        "doomsday",
        "street_bonus = [8, 10, 11]",
        "street_bonus = [8, 10]",
        "street_bonus",
        "one bonus per street",
    ),
    ("doomsday", "aaa_start = [20, 30, 30]", "aaa_start = [20, 30]", "aaa_start", "one capacity"),
    ("doomsday", "count = 50", "count = 0", "plans[3].count", "capacity of 1 or more"),
    (
        "roswell",
        "  [1, 2], [1, 4]",
        "  [1, 2], [1, 30]",
        "saucers[1]",
        "house 30 is not in street 1: use 1 to 10",
    ),
    ("roswell", "  [1, 2], [1, 4]", "  [1, 2], [1, 2]", "saucers[1]", ""),
    ("roswell", "{ min = 5, max = 6, points = 5 }", "{ min = 4, max = 6, points = 5 }", "objectives[1]", ""),
    ("roswell", "{ min = 9, points = 7 }", "{ min = 9, points = -7 }", "objectives[3].points", ""),
    ("roswell", "{ min = 9, points = 7 }", "{ min = 9, pts = 7 }", "objectives[3].pts", ""),
    ("roswell", "column_offsets = [0, 0, 0]", "column_offsets = [0, 0]", "column_offsets", ""),
    ("roswell", "max_estate_size = 6", "max_estate_size = 7", "max_estate_size", ""),
    ("roswell", "fail_points = 2\n", "", "fail_points", ""),
    ("halloween", "[3, 9], [3, 11],", "[3, 9], [3, 13],", "marked[12]", ""),
    ("halloween", "[3, 9], [3, 11],", "[3, 9], [3, 9],", "marked[12]", ""),
    ("halloween", "ghost_levels = [4, 6, 9]", "ghost_levels = [4, 9, 6]", "ghost_levels", ""),
    ("halloween", "candy_levels = [4, 6, 9]", "candy_levels = [4, 6, 14]", "candy_levels", ""),
    (
        "halloween",
        '[["park", 3], ["extension", 2]]',
        '[["park", 3], ["fence", 2]]',
        "ghost_bonuses[2][1]",
        "",
    ),
    (
        "halloween",
        '[["park", 3], ["extension", 2]]',
        '[["park", 4], ["extension", 2]]',
        "ghost_bonuses[2][0][1]",
        "",
    ),
    ("halloween", "candy_points = [5, 9, 14]", "candy_points = [5, 9]", "candy_points", ""),
    ("halloween", "aaa_per_level = 4", "aaa_per_level = -4", "aaa_per_level", ""),
    ("quack", '[1, 2, "black"], [1, 5', '[1, 10, "black"], [1, 5', "street_ducklings[0]", ""),
    ("quack", '[1, 2, "black"], [1, 5', '[1, 2, "green"], [1, 5', "street_ducklings[0]", ""),
    ("quack", '[1, 4, "yellow"], [1, 9', '[3, 4, "yellow"], [1, 9', "between_ducklings[0]", ""),
    ("quack", '[1, 4, "yellow"], [1, 9', '[1, 12, "yellow"], [1, 9', "between_ducklings[0]", ""),
    ("quack", "yellow = [3, 12]", "yellow = [3, 13]", "parents.yellow", ""),
    ("quack", "column_offsets = [0, 0, 0]", "column_offsets = [0, 0]", "column_offsets", ""),
    ("quack", "aaa_cards_per_point = 2", "aaa_cards_per_point = 0", "aaa_cards_per_point", ""),
    ("quack", "points_per_duckling = 1\n", "", "points_per_duckling", ""),
    ("american-dream", 'green = "park"', 'green = "garden"', "families.green", ""),
    ("american-dream", 'green = "park"', 'green = "fence"', "families.green", ""),
    (
        "american-dream",
        '["purple", "green", "yellow", "red", "blue", "orange"]',
        '["purple", "green"]',
        "houses[4]",
        "",
    ),
    (
        "american-dream",
        "column_offsets = [1, 0, 0, 1, 1]",
        "column_offsets = [1, 0, 0, 1]",
        "column_offsets",
        "",
    ),
    ("american-dream", "column_multiplier = 2", "column_multiplier = 0", "column_multiplier", ""),
    (
        "american-dream",
        '["green", "red", "yellow", "blue", "red", "green"]',
        '["pink", "red", "yellow", "blue", "red", "green"]',
        "houses[0][0]",
        "",
    ),
]


@pytest.mark.parametrize(
    ("name", "old", "new", "key", "words"), BAD_DATA, ids=[f"{c[0]}-{c[3]}" for c in BAD_DATA]
)
def test_its_own_bad_data_names_the_file_and_the_key(name, old, new, key, words, tmp_path):
    text = data_path(name).read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / f"my_{name}.toml"
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(DataError) as exc:
        load_ruleset(expansion=str(path))
    assert exc.value.key == key and str(path) in str(exc.value) and words in str(exc.value), str(exc.value)


def test_every_expansion_has_its_own_bad_data_cases():
    assert {c[0] for c in BAD_DATA} >= set(NAMES) - {"icecream", "christmas"}


# --- play: kernel and referee agree, columns in the rows, text marks -----------------------------

MODES = [("standard", 3, None), ("advanced", 2, None), ("solo", 1, "4")]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize(("mode", "players", "opponent"), MODES)
def test_kernel_and_referee_agree(name, mode, players, opponent):
    if mode == "advanced" and X.record(name).no_advanced:
        pytest.skip("the expansion cannot be played with the Advanced Mode")
    for nine in (False, True):
        rs = load_ruleset("collector", mode=mode, opponent=opponent, expansion=name, nine=nine)
        for strat in ("greedy", "random"):
            res = simulate(rs, game_seeds(11, 25), players, [strat], log=True)
            assert check_batch(res) == []
            # The expansion really played: its points or its own counters (Zombie Outbreak scores none).
            assert any(res.column(c).any() for c in ("expansion_points", *X.record(name).columns))


@pytest.fixture(scope="module")
def played():
    """A few logged greedy games of every expansion, 2 players."""
    return {n: simulate(load_ruleset(expansion=n), game_seeds(5, 8), 2, ["greedy"], log=True) for n in NAMES}


@pytest.mark.parametrize("name", NAMES)
def test_its_result_columns_reach_a_sweeps_rows(name, played):
    from welcome_sim.analysis.tables import balance_tables
    from welcome_sim.sweep.config import Cell
    from welcome_sim.sweep.rows import SCHEMA_DOC, chunk_frame

    rec = X.record(name)
    cell = Cell(0, "collector", "classic", "standard", 2, "greedy", "random", expansion=name)
    frame = chunk_frame(played[name], cell, 0).with_columns(players=pl.lit(2))  # players: a partition
    assert set(rec.columns) <= set(frame.columns) and frame["expansion"].unique().to_list() == [name]
    assert any(frame[c].abs().sum() > 0 for c in rec.columns)  # written, not left 0
    assert SCHEMA_DOC[", ".join(rec.columns)] == rec.columns_doc
    if rec.counters is not None:  # its table in the report
        tables = balance_tables(frame.lazy(), by=["players"])
        assert name in tables and set(rec.counters.columns) <= set(tables[name].columns)


@pytest.mark.parametrize("name", NAMES)
def test_its_text_marks_render(name, played):
    from welcome_sim.textmarks import SheetText, text_of
    from welcome_sim.textview import render_game

    rec = X.record(name)
    res = played[name]
    game = referee_game(res, 0)
    text = render_game(game, ["one", "two"], [p.id for p in res.ruleset.plans.plans[:3]])
    if rec.legend:
        assert rec.legend in text
    if rec.text:  # its text hooks (textmarks.py), the only place textview reaches an expansion's marks
        assert isinstance(text_of(rec.text), SheetText)
    # Its score detail under the score card: in the players' columns, or a line per player where a
    # cell is wider than a column, each naming its player.
    cells = [rec.score_detail.format(**c) for c in game.scores]
    at = next(i for i, line in enumerate(text) if line.startswith(name + " "))
    rows = [text[at], *(line for line in text[at + 1 : at + 1 + len(cells) - 1] if line.startswith(" "))]
    if len(rows) == 1:
        assert rows[0].split() == [*name.split(), *" ".join(cells).split()], rows
    else:
        assert [r.strip() if k else r[len(name) :].strip() for k, r in enumerate(rows)] == [
            f"{n}: {c}" for n, c in zip(["one", "two"], cells, strict=True)
        ], rows
