"""Every bad input a one-line error (issue 13).

A table of bad inputs across every command and data file, generated per command x option x class
of bad value. Each must exit with code 2 and print exactly one line on stderr naming the option,
file or key (no traceback, no progress bar before it). They run in-process (typer's CliRunner), so
hundreds take seconds; a few run as real processes for the exit code and stderr a user sees.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import run_cli
from typer.testing import CliRunner

from welcome_sim.cli import app
from welcome_sim.sweep.store import sha256_of

CLASSIC = (Path(__file__).parent.parent / "welcome_sim/simcore/data/sheets/classic.toml").read_text()
DECK = (Path(__file__).parent.parent / "welcome_sim/simcore/data/decks/collector.toml").read_text()
STANDARD = (
    Path(__file__).parent.parent / "welcome_sim/simcore/data/plans/collector_standard.toml"
).read_text()


@dataclass(frozen=True)
class Case:
    cls: str  # class of bad input (counted in the module's summary)
    argv: tuple[str, ...]  # '{d}' stands for the folder of prepared files
    needle: str  # the one-line message must contain this (option, file or key)
    env: tuple[tuple[str, str], ...] = ()

    @property
    def id(self) -> str:
        return f"{self.cls}:{' '.join(self.argv)}"[:120]


CASES: list[Case] = []


def add(cls: str, argv: list[str], needle: str, env: dict[str, str] | None = None) -> None:
    CASES.append(Case(cls, tuple(argv), needle, tuple((env or {}).items())))


# Commands that play games from a ruleset, and the options that choose it.
RULESET_COMMANDS = ("play", "bench", "tournament", "sweep")
OUT = ["--out", "{d}/new-sweep"]  # sweep cases write nowhere: they fail first


# Small runs first (a later value of the same option wins): a case that wrongly passed would
# finish in seconds and fail, not run for minutes.
SMALL = {
    "bench": ["--games", "2", "--repeat", "1"],
    "tournament": ["--games", "2"],
    "sweep": ["--games", "2"],
    "tune": ["--games", "10", "--sweeps", "0"],
    "skill": ["--games", "2", "--level", "novice", "--level", "club"],
}


def cmd(command: str, *argv: str) -> list[str]:
    """A command line; sweep gets an --out folder so nothing lands in the working folder."""
    return [command, *SMALL.get(command, []), *argv, *(OUT if command == "sweep" else [])]


# --- numbers out of range: too low, negative, too high, enormous --------------------------------
HUGE = str(10**22)
RANGES = {
    "play": {"--seed": ["-1", "-5", str(2**63), HUGE], "--players": ["0", "-1", "9", "99", HUGE]},
    "bench": {
        "--games": ["0", "-1", "10000001", HUGE],
        "--repeat": ["0", "-1", "101", HUGE],
        "--players": ["0", "9", "-3"],
    },
    "sweep": {
        "--games": ["0", "-1", "1000000001", HUGE],
        "--seed": ["-1", str(2**63), HUGE],
        "--jobs": ["0", "-2", "500", "1000000", HUGE],
        "--chunk-size": ["0", "-1", "10000001", HUGE],
        "--players": ["0", "9", "0-3", "5-9", "4-2", "x", "1,,x", ",,,", "99", "1-10000000000", "1-" + HUGE],
    },
    "tournament": {"--games": ["0", "1", "-1", "10000001", HUGE], "--seed": ["-1", str(2**63), HUGE]},
    "skill": {
        "--games": ["0", "1", "-1", "10000001", HUGE],
        "--seed": ["-1", str(2**63), HUGE],
        "--players": ["0", "9", "-1"],
        "--top": ["-1", "1001"],
    },
    "tune": {
        "--games": ["0", "9", "-1", "100000000", HUGE],
        "--sweeps": ["-1", "51", HUGE],
        "--step": ["0", "-0.1", "1.5", "nan", "inf", "1e400"],
        "--seed": ["-1", str(2**63), HUGE],
    },
}
for command, options in RANGES.items():
    for option, values in options.items():
        for value in values:
            add("range", cmd(command, option, value), option)

# --- unknown, empty and markup-laden names -------------------------------------------------------
NAMES = {
    # Case, '-', '_' and spaces do not matter ('Collector', 'expert advanced' are valid: test_names.py).
    "--edition": ["", "third", "Colector", "[/x]", "[bold]first"],
    "--mode": ["", "sol", "Standart", "[/x]", "expert advance"],
    "--sheet": ["", "  ", "clasic", "[/x]", "nope"],
    "--expansion": ["", "easterr", "[/x]", "zombie"],
    "--strategy": ["", "nope", "gredy", "[/x]", ":", "[red]greedy[/red]"],
}
NEEDLE = {"--sheet": "sheet"}  # a name that is not a built-in may be a path: the message names the file
for command in RULESET_COMMANDS:
    for option, values in NAMES.items():
        for value in values:
            if command == "sweep" and option == "--expansion" and value == "":
                continue  # an empty item of a list is skipped (--expansion ',none'), like the other lists
            needle = NEEDLE.get(option, option)
            if option == "--sheet" and value in ("[/x]", "nope", "clasic"):
                needle = value
            add("name", cmd(command, option, value), needle)
    # A folder: the option says which of the command's files it is (a missing file: SHEETS).
    add("name", cmd(command, "--sheet", "{d}"), "--sheet: {d}: is a folder, not a file")
# A sweep takes a copy of an expansion's file (its rows name it by label: name and hash); a value
# that is not one, or two values that are the same content (whose rows would merge), are refused.
EASTER_FILE = str(
    Path(__file__).resolve().parents[1] / "welcome_sim" / "simcore" / "data" / "expansions" / "easter.toml"
)
add("name", cmd("sweep", "--expansion", "{d}/plain.txt"), "plain.txt")
add("name", cmd("sweep", "--expansion", "{d}/gone.toml"), "--expansion: {d}/gone.toml: file not found")
add("name", cmd("sweep", "--expansion", f"easter,{EASTER_FILE}"), "are the same file's content")
for option, value in (("--edition", "third"), ("--sheet", ""), ("--sheet", "nope"), ("--strategy", "[/x]")):
    add("name", ["tune", option, value, "--no-write"], option if value not in ("nope",) else value)
for option in ("--edition", "--mode", "--expansion"):
    for value in NAMES[option]:
        add("name", cmd("skill", option, value), option)
for value in ("", "nope", "[/x]", "club:colour=1"):
    add("name", ["skill", "--games", "2", "--level", value, "--level", "club"], "--level")
add("name", ["skill", "--games", "2", "--level", "club"], "--level: give at least 2 levels")
add("name", ["skill", "--games", "2", "--level", "club", "--level", "club"], "--level: club given twice")
add("inapplicable", ["skill", "--games", "2", "--mode", "expert"], "--players: in mode 'expert'")
for value in ("9", "ten", "[/x]", "-1", "6", "0-10000000000", "3-1"):
    add("name", ["play", "--mode", "solo", "--opponent", value], "--opponent")
    add("name", ["sweep", "--mode", "solo", "--opponent", value, *OUT], "--opponent")

# --- strategy parameters --------------------------------------------------------------------------
STRATEGY_PARAMS = [
    ("greedy:colour=1", "colour"),
    ("greedy:pln=1", "did you mean 'plan'"),
    ("greedy:plan=abc", "plan"),
    ("greedy:plan=99", "plan"),
    ("greedy:plan=-1", "plan"),
    ("greedy:plan", "plan"),
    ("greedy:plan=nan", "plan"),
    ("greedy:plan=1e400", "plan"),
    ("random:noise=1", "noise"),
    ("greedy:reshuffle=1.5", "reshuffle"),
    ("greedy:reshuffle=3", "reshuffle"),
    ("builder:[/x]=1", "[/x]"),
]
for command in (*RULESET_COMMANDS, "tune"):
    for value, needle in STRATEGY_PARAMS:
        argv = cmd(command, "--strategy", value)
        add("strategy", [*argv, "--no-write"] if command == "tune" else argv, needle)

# --- plan ids ----------------------------------------------------------------------------------------
PLANS = [",,,", "", "A-1", "A-1,B-1", "A-1,A-2,B-1", "A-1,B-1,C-1,A-2", "Z-1,B-1,C-1", "[/x],B-1,C-1", " , ,"]
for command in ("play", "sweep"):
    for value in PLANS:
        add("plans", cmd(command, "--plans", value), "--plans")
add("plans", ["play", "--edition", "first", "--plans", "A-1,B-1,C-1"], "--plans")
add("plans", ["play", "--plans", "1-1,2-1,3-1"], "--plans")

# --- options that do not apply to the chosen mode or backend -------------------------------------
for command in RULESET_COMMANDS:
    add("inapplicable", cmd(command, "--opponent", "3"), "--opponent")
    add("inapplicable", cmd(command, "--mode", "advanced", "--opponent", "sam"), "--opponent")
    add("inapplicable", cmd(command, "--edition", "first", "--mode", "solo", "--opponent", "1"), "opponent")
    add("inapplicable", cmd(command, "--expansion", "easter", "--sheet", "blueprint"), "--sheet")
add("inapplicable", ["play", "--mode", "solo", "--players", "2"], "--players")
add("inapplicable", ["play", "--mode", "expert", "--players", "1"], "--players")
add("inapplicable", ["play", "--players", "2", "-s", "greedy", "-s", "random", "-s", "spread"], "--strategy")
add("inapplicable", ["tournament", "--mode", "expert", "--strategy", "greedy"], "--mode")
add("inapplicable", ["sweep", "--mode", "solo", "--players", "2-3", *OUT], "--mode")
add("inapplicable", ["sweep", "--scheduler", "tcp://127.0.0.1:8786", *OUT], "--scheduler")
add("inapplicable", ["sweep", "--backend", "loky", "--scheduler", "local", *OUT], "--scheduler")
add("inapplicable", ["sweep", "--resume", *OUT], "--resume")
add("inapplicable", ["tune", "--name", "mine", "--no-write"], "--name")
add("inapplicable", ["analyze", "{d}/run", "--out", "{d}/tables"], "--out")
add("inapplicable", ["sweep", "--backend", "nope", *OUT], "--backend")
add("inapplicable", ["sweep", "--backend", "dask", *OUT], "--scheduler")

# --- Dask scheduler addresses: malformed, or nothing answers there ------------------------------
for value in (
    "nonsense",
    "tcp://host",
    "tcp://:8786",
    "http://x:1",
    "tcp://x:99999",
    "[/x]",
    "",
    "tcp://a b:1",
):
    add("scheduler", ["sweep", "--backend", "dask", "--scheduler", value, *OUT], "--scheduler")
for value in ("tcp://127.0.0.1:9", "127.0.0.1:1", "tcp://no-such-host.invalid:8786"):
    add("scheduler", ["sweep", "--backend", "dask", "--scheduler", value, *OUT], value)

# --- sheet files: malformed, not UTF-8, a folder, unknown keys, values out of range -------------
SHEETS = {
    "missing.toml": ("--sheet: {d}/missing.toml: file not found", None),
    "folder.toml": ("--sheet: {d}/folder.toml: is a folder, not a file", None),  # a directory
    "nonutf.toml": ("not UTF-8", b'name = "x"\n\xff\xfe\n'),
    "latin1.toml": ("not UTF-8", 'name = "caf\u00e9"\n'.encode("latin-1")),
    "binary.toml": ("not UTF-8", bytes(range(256))),
    "malformed.toml": ("not valid TOML", "name = \n[[streets\n"),
    "empty.toml": ("name", ""),
    "unknown_top.toml": ("did you mean 'streets'", CLASSIC.replace("[[streets]]", "[[street]]", 1)),
    "unknown_sub.toml": ("did you mean 'houses'", CLASSIC.replace("houses = 10", "housess = 10")),
    "unknown_track.toml": ("did you mean 'track'", CLASSIC.replace("track = [0, 3, 8]", "trak = [0, 3, 8]")),
    "houses_40.toml": ("streets[1].houses", CLASSIC.replace("houses = 11", "houses = 40")),
    "houses_text.toml": ("streets[0].houses", CLASSIC.replace("houses = 10", 'houses = "ten"')),
    "houses_0.toml": ("streets[0].houses", CLASSIC.replace("houses = 10", "houses = 0")),
    "pool_out.toml": ("streets[0].pools[2]", CLASSIC.replace("pools = [3, 7, 8]", "pools = [3, 7, 70]")),
    "pool_twice.toml": ("streets[0].pools", CLASSIC.replace("pools = [3, 7, 8]", "pools = [3, 7, 7]")),
    "provenance.toml": ("provenance", CLASSIC.replace('provenance = "published"', 'provenance = "[/x]"')),
    "temps_99.toml": ("temps.boxes", CLASSIC.replace("boxes = 11", "boxes = 99")),
    "track_down.toml": ("pools.track", CLASSIC.replace("track = [0, 3, 6, 9,", "track = [0, 3, 2, 9,")),
    # A count track's first value is the points for none: 0 (else points for nothing).
    "track_from_1.toml": (
        "pools.track[0]': the track lists the points for 0, 1, 2, ... pools",
        CLASSIC.replace("track = [0, 3, 6, 9,", "track = [1, 3, 6, 9,"),
    ),
    "track_one.toml": (
        "none of the sheet's 9 pools could be built",
        CLASSIC.replace("track = [0, 3, 6, 9, 13, 17, 21, 26, 31, 36]", "track = [0]"),
    ),
    "estates_5.toml": ("estates.values", CLASSIC.replace("values = [[1, 3], ", "values = [")),
    "bool_houses.toml": ("streets[0].houses", CLASSIC.replace("houses = 10", "houses = true")),
}
for fname, (needle, _content) in SHEETS.items():
    for command in ("play", "bench", "tournament", "sweep", "tune"):
        argv = cmd(command, "--sheet", "{d}/" + fname)
        add("sheet-file", [*argv, "--no-write"] if command == "tune" else argv, needle)

# --- deck and plan set files of one's own (--deck, --plans-file) -----------------------------------
NO_TOTALS = DECK.replace("number_totals =", "# number_totals =").replace(
    "action_totals =", "# action_totals ="
)
DECKS = {
    "deck_key.toml": ("did you mean 'actions'", DECK.replace("actions =", "actoins =")),
    "deck_based.toml": ("based_on", DECK.replace('name = "collector"', 'name = "d"\nbased_on = "colector"')),
    "deck_nine.toml": ("counts.9¾", DECK.replace("[counts]\n", '[counts]\n"9¾" = [1, 0, 0, 0, 0, 0]\n')),
    "deck_totals.toml": (
        "number_totals",
        DECK.replace("1 = [1, 0, 1, 0, 0, 0]", "1 = [0, 0, 1, 0, 0, 0]").replace(
            "2 = [0, 1, 1, 0, 0, 0]", "2 = [1, 1, 1, 0, 0, 0]"
        ),
    ),
    "deck_stacks.toml": (
        "3 equal stacks",
        NO_TOTALS.replace("1 = [1, 0, 1, 0, 0, 0]", "1 = [1, 0, 1, 0, 0, 1]"),
    ),
    "deck_actions.toml": ("actions", DECK.replace('"temp", "extension"]', '"extension", "temp"]')),
}
NOT_A = STANDARD.replace('letters = ["A", "B", "C"]', 'letters = ["X", "B", "C"]').replace(
    'letter = "A"', 'letter = "X"'
)
PLAN_FILES = {
    "plans_key.toml": ("did you mean 'letters'", STANDARD.replace("letters =", "leters =")),
    "plans_kind.toml": ("plans[0].kind", STANDARD.replace('id = "A-1"', 'id = "A-1"\nkind = "eggs"', 1)),
    "plans_letter.toml": ("plans[0].letter", STANDARD.replace('letter = "A"', 'letter = "D"', 1)),
    "plans_based.toml": (
        "based_on",
        STANDARD.replace('name = "collector_standard"', 'name = "p"\nbased_on = "classic"'),
    ),
    "plans_adv.toml": (
        "--plans-file",
        STANDARD.replace('letters = ["A", "B", "C"]', 'letters = ["A", "B", "C"]\nadvanced = true'),
    ),
    "plans_many.toml": (
        "plan A-7: key 'estates'",
        STANDARD.replace("estates = [2, 3]", "estates = [" + "1, " * 16 + "1]"),
    ),
    "plans_not_a.toml": ("key 'letters'", NOT_A),
}
# Commands that take --deck and --plans-file (tune plays the edition's own files).
FILE_COMMANDS = ("play", "bench", "tournament", "sweep", "skill")
for command in FILE_COMMANDS:
    for fname, (needle, _content) in DECKS.items():
        add("deck-file", cmd(command, "--deck", "{d}/" + fname), needle)
    for fname, (needle, _content) in PLAN_FILES.items():
        # Letters of their own are refused where the AAA cards name the edition's (solo mode).
        mode = ["--mode", "solo"] if fname == "plans_not_a.toml" else []
        add("plans-file", cmd(command, *mode, "--plans-file", "{d}/" + fname), needle)
    for option, kind in (("--deck", "deck"), ("--plans-file", "plan")):
        add("name", cmd(command, option, ""), option)
        add("name", cmd(command, option, "nope"), f"unknown {kind} 'nope'")
        add("name", cmd(command, option, "{d}/missing.toml"), f"{option}: {{d}}/missing.toml: file not found")
        add("name", cmd(command, option, "{d}/folder.toml"), "folder.toml")
    add("deck-file", cmd(command, "--mode", "solo", "--deck", "{d}/deck_short.toml"), "needs at least 38")
add(
    "deck-file",
    ["play", "--mode", "expert", "-p", "3", "-s", "random", "--deck", "{d}/deck_six.toml"],
    "--players",
)
add("deck-file", ["sweep", "--mode", "expert", "-p", "2-3", "--deck", "{d}/deck_six.toml", *OUT], "--players")
FILES = {
    **DECKS,
    **PLAN_FILES,
    "deck_short.toml": (
        "",
        NO_TOTALS.split("[counts]")[0]
        + "[counts]\n"
        + "".join(f"{n} = [1, 1, 1, 0, 0, 0]\n" for n in range(1, 13)),
    ),
    "deck_six.toml": (
        "",
        NO_TOTALS.split("[counts]")[0] + "[counts]\n1 = [1, 1, 1, 0, 0, 0]\n2 = [1, 1, 1, 0, 0, 0]\n",
    ),
}

# --- issue 37: data files: unknown keys, numbers out of range, sizes, files that are not files ----
# Every number of a data file has a range declared next to its key (welcome_sim/simcore/ground/schema.py;
# an expansion's in its module's KEYS) and is checked on load, before anything is built from it;
# every data or settings file is read only if it is a regular file of at most 1 MiB
# (welcome_sim/simcore/ground/readfile.py). These cases fail fast, before any game or compile.
X_DIR = Path(__file__).parent.parent / "welcome_sim/simcore/data/expansions"
X_TEXT = {p.stem: p.read_text() for p in sorted(X_DIR.glob("*.toml"))}
BIG = str(2**63 - 1)


def _x(name: str, old: str, new: str) -> str:
    """A copy of an expansion's file with one edit (which must apply)."""
    assert old in X_TEXT[name], (name, old)
    return X_TEXT[name].replace(old, new, 1)


def _top_key(name: str, line: str) -> str:
    """A copy of an expansion's file with a line added among its top-level keys (after `sheet`)."""
    return re.sub(r"(?m)^(sheet = .*)$", lambda m: m.group(1) + "\n" + line, X_TEXT[name], count=1)


X_FILES: dict[str, tuple[str, str]] = {
    f"x_{name}_bogus.toml": ("key 'bogus_key': unknown key", _top_key(name, "bogus_key = 3"))
    for name in X_TEXT
}
X_FILES |= {
    "x_easter_board_bogus.toml": (
        "key 'first.bogus_key': unknown key",
        _x("easter", 'letters = ["1", "2", "3"]', 'letters = ["1", "2", "3"]\nbogus_key = 3'),
    ),
    "x_easter_threshold_huge.toml": (
        "key 'thresholds[3]': 100000000000000000000000 is not an egg count: use 0 to 120",
        _x("easter", "thresholds = [6, 10, 14, 18]", f"thresholds = [6, 10, 14, {10**23}]"),
    ),
    "x_easter_threshold_neg.toml": (
        "key 'thresholds[0]': -6 is not an egg count: use 0 to 120",
        _x("easter", "thresholds = [6, 10, 14, 18]", "thresholds = [-6, 10, 14, 18]"),
    ),
    "x_easter_aaa_neg.toml": (
        "key 'aaa_eggs.6': -1 is not the eggs of an AAA card: use 0 to 2",
        _x("easter", "aaa_eggs = { 6 = 1,", "aaa_eggs = { 6 = -1,"),
    ),
    "x_easter_aaa_max.toml": (
        f"key 'aaa_eggs.6': {BIG} is not the eggs of an AAA card: use 0 to 2",
        _x("easter", "aaa_eggs = { 6 = 1,", f"aaa_eggs = {{ 6 = {BIG},"),
    ),
    "x_zombies_ammo_huge.toml": (
        "key 'start_ammunition': 100000000000000000000000 is not a starting ammunition: use 0 to 9",
        _x("zombies", "start_ammunition = 1", f"start_ammunition = {10**23}"),
    ),
    "x_doomsday_plan_count.toml": (
        f"{BIG} is not a plan's count: use 0 to 999",
        _x("doomsday", "count = 50", f"count = {BIG}"),
    ),
    "x_icecream_stars.toml": (
        "key 'publisher_stars': -3 is not a star rating: use 0 to 5",
        _x("icecream", "publisher_stars = 3", "publisher_stars = -3"),
    ),
    "x_quack_digits.toml": (
        "not valid TOML: Exceeds the limit (4300 digits)",
        _x("quack", "aaa_points = 1", "aaa_points = 1" + "0" * 5000),
    ),
}
DECK_SIZES = {
    "deck_1e9.toml": (
        "key 'counts.1[0]': 1000000000 is not a card count: use 0 to 300",
        NO_TOTALS.replace("1 = [1, 0, 1, 0, 0, 0]", f"1 = [{10**9}, 0, 1, 0, 0, 0]"),
    ),
    "deck_1e12.toml": (
        "key 'counts.1[0]': 1000000000000 is not a card count: use 0 to 300",
        NO_TOTALS.replace("1 = [1, 0, 1, 0, 0, 0]", f"1 = [{10**12}, 0, 1, 0, 0, 0]"),
    ),
    "deck_huge.toml": (
        "key 'counts.1[0]': 10000000... (31 digits) is not a card count: use 0 to 300",
        NO_TOTALS.replace("1 = [1, 0, 1, 0, 0, 0]", f"1 = [{10**30}, 0, 1, 0, 0, 0]"),
    ),
    "deck_total.toml": (
        "key 'counts': 363 cards; a deck has at most 300 cards",
        NO_TOTALS.replace("1 = [1, 0, 1, 0, 0, 0]", "1 = [200, 0, 102, 0, 0, 0]"),
    ),
}
PLAN_SIZES = {
    "plans_count.toml": (
        f"key 'plans[0].count': {BIG} is not a plan's count: use 0 to 999",
        STANDARD.replace("estates = [1, 1, 1, 1, 1, 1]\n", f'kind = "parks"\ncount = {BIG}\n', 1),
    ),
}
# A valid file 1 byte over the cap (a comment pads it), and copies without the .toml suffix.
OVERSIZE = CLASSIC + "#" * (1 << 20)
FILES |= X_FILES | DECK_SIZES | PLAN_SIZES
FILES |= {
    "big_sheet.toml": ("", OVERSIZE),
    "sheet_copy.txt": ("", CLASSIC),
    "deck_copy": ("", DECK),
    "plans_copy.data": ("", STANDARD),
}
for fname, (needle, _content) in X_FILES.items():
    add("expansion-file", ["play", "--expansion", "{d}/" + fname], needle)
add("expansion-file", cmd("sweep", "--expansion", "{d}/x_zombies_ammo_huge.toml"), "start_ammunition")
for fname, (needle, _content) in DECK_SIZES.items():
    add("deck-file", ["play", "--deck", "{d}/" + fname], needle)
for fname, (needle, _content) in PLAN_SIZES.items():
    add("plans-file", ["play", "--plans-file", "{d}/" + fname], needle)
# Not a regular file (a device grows without end, a FIFO blocks), or over the cap: every data path.
NOT_FILES = {
    "/dev/zero": "/dev/zero: is a device, not a regular file",
    "{d}/fifo": "{d}/fifo: is a pipe (a FIFO",
    "{d}/big_sheet.toml": "{d}/big_sheet.toml: is larger than 1 MiB",
}
for path, needle in NOT_FILES.items():
    for option in ("--sheet", "--deck", "--plans-file"):
        add("not-a-file", ["play", option, path], needle)
    add("not-a-file", ["sheet", "show", path], needle)
    add("not-a-file", ["sweep", "--config", path, *OUT], "--config: " + needle)
add("not-a-file", ["play", "--expansion", "{d}/fifo"], "fifo: is a pipe (a FIFO")
add("not-a-file", cmd("sweep", "--expansion", "{d}/fifo"), "fifo: is a pipe (a FIFO")
add("not-a-file", cmd("tournament", "--sheet", "/dev/zero"), "/dev/zero: is a device")


@pytest.mark.parametrize("fname", sorted(X_FILES))
def test_an_expansion_file_refuses_unknown_keys_and_numbers_out_of_range(fname: str, tmp_path: Path):
    # load_ruleset builds the kernel's tables from the file (no game, no compile): a number out of
    # range must stop it with the file, the key, the value and the range, never an OverflowError.
    from welcome_sim.errors import DataError
    from welcome_sim.simcore.rules.ruleset import load_ruleset

    needle, content = X_FILES[fname]
    path = tmp_path / fname
    _write(path, content)
    with pytest.raises(DataError) as info:
        load_ruleset("collector", expansion=str(path))
    assert str(info.value).startswith(f"{path}: ") and needle in str(info.value), str(info.value)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("fname", sorted(DECK_SIZES) + sorted(PLAN_SIZES))
def test_deck_and_plan_sizes_are_checked_before_anything_is_built(fname: str, tmp_path: Path):
    import resource

    from welcome_sim.errors import DataError
    from welcome_sim.simcore.ground.datafiles import load_deck, load_plans

    needle, content = {**DECK_SIZES, **PLAN_SIZES}[fname]
    path = tmp_path / fname
    _write(path, content)
    # A deck of a billion cards took 4 GiB: with a 1 GiB address-space margin it cannot even try.
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    used = int(Path("/proc/self/statm").read_text().split()[0]) * resource.getpagesize()
    resource.setrlimit(resource.RLIMIT_AS, (used + (1 << 30), hard))
    try:
        with pytest.raises(DataError) as info:
            (load_deck if fname.startswith("deck") else load_plans)(str(path))
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
    assert str(info.value).startswith(f"{path}: ") and needle in str(info.value), str(info.value)


def test_other_numbers_of_data_files_have_ranges(tmp_path: Path):
    from welcome_sim.errors import DataError
    from welcome_sim.simcore.ground.datafiles import DATA_DIR as DATA
    from welcome_sim.simcore.ground.datafiles import load_opponents

    opponents = (DATA / "opponents/collector.toml").read_text()
    for old, new, needle in (
        ("level = 5", f"level = {BIG}", f"key 'opponents[5].level': {BIG} is not an AAA level: use 0 to 99"),
        ("temp_positions = [6, 4, 2]", "temp_positions = [6, 4, -2]", "'opponents[0].temp_positions[2]': -2"),
        ("bogus", "", ""),
    ):
        text = opponents.replace(old, new, 1) if old != "bogus" else "bogus = 1\n" + opponents
        needle = needle or "key 'bogus': unknown key"
        path = tmp_path / "opponents.toml"
        path.write_text(text)
        with pytest.raises(DataError, match=re.escape(needle)):
            load_opponents(str(path))


def test_a_pipe_or_device_is_refused_and_a_file_is_read_only_to_its_cap(tmp_path: Path):
    # `--sheet <(cat mine.toml)` is a pipe under /dev/fd: the kernel and the referee each read the
    # file, and a pipe can be read once, so it is refused with a message saying what to do.
    import os

    from welcome_sim.errors import DataError
    from welcome_sim.simcore.ground.datafiles import load_sheet

    read, write = os.pipe()
    try:
        os.write(write, CLASSIC.encode())
        os.close(write)
        with pytest.raises(DataError, match=r"is a pipe .*; save the content to a file and give its path"):
            load_sheet(f"/dev/fd/{read}")
    finally:
        os.close(read)
    with pytest.raises(DataError, match="/dev/zero: is a device, not a regular file"):
        load_sheet("/dev/zero")
    path = tmp_path / "big.toml"
    path.write_text(OVERSIZE)
    with pytest.raises(DataError, match="is larger than 1 MiB"):
        load_sheet(str(path))
    path.write_text(OVERSIZE[: 1 << 20])  # at the cap: read (and a comment cut short is still TOML)
    assert load_sheet(str(path)).streets == load_sheet("classic").streets


def test_the_referee_reads_a_data_file_of_any_name(tmp_path: Path, monkeypatch):
    # The referee used to append '.toml' to any path without that suffix (FileNotFoundError).
    from dataclasses import fields

    from welcome_sim.referee import load_rules
    from welcome_sim.simcore.ground.datafiles import load_deck, load_sheet

    data = Path(__file__).parent.parent / "welcome_sim/simcore/data"
    for name, builtin in (
        ("sheet.txt", "sheets/classic"),
        ("deck", "decks/collector"),
        ("plans.data", "plans/collector_standard"),
    ):
        (tmp_path / name).write_text((data / f"{builtin}.toml").read_text())
    own = load_rules(
        "collector",
        sheet=str(tmp_path / "sheet.txt"),
        deck=str(tmp_path / "deck"),
        plans=str(tmp_path / "plans.data"),
    )
    builtin = load_rules("collector", sheet="classic", deck="collector", plans="collector_standard")
    for f in fields(own):
        if f.name != "expansion":
            assert getattr(own, f.name) == getattr(builtin, f.name), f.name
    # A file in the working folder, named without a folder: the kernel's loaders and the referee
    # take it when no built-in has that name.
    monkeypatch.chdir(tmp_path)
    assert load_rules("collector", sheet="sheet.txt").street_len == builtin.street_len
    assert load_sheet("sheet.txt").path == "sheet.txt" and load_deck("deck").path == "deck"
    (tmp_path / "easter.copy").write_text(X_TEXT["easter"])
    assert (
        type(load_rules("collector", expansion=str(tmp_path / "easter.copy")).expansion).__name__ == "Easter"
    )


def test_play_takes_a_sheet_deck_and_plans_without_the_toml_suffix(prepared: Path):
    argv = ["play", "--seed", "3", "--sheet", "{d}/sheet_copy.txt", "--deck", "{d}/deck_copy"]
    res = CliRunner().invoke(
        app, [_expand(a, prepared) for a in [*argv, "--plans-file", "{d}/plans_copy.data"]]
    )
    assert res.exit_code == 0, res.output
    assert "referee: every move legal, every score equal to the kernel's" in res.output


# --- sweep config files ---------------------------------------------------------------------------
CONFIGS = {
    "gamez.toml": ("did you mean 'games'", "gamez = 3\n"),
    "strategie.toml": ("did you mean 'strategy'", "strategie = 'greedy'\n"),
    "games_text.toml": ("games", 'games = "ten"\n'),
    "games_float.toml": ("games", "games = 1e22\n"),
    "games_big.toml": ("{d}/games_big.toml: key 'games': ", f"games = {10**15}\n"),
    "games_0.toml": ("{d}/games_0.toml: key 'games': 0 is out of range", "games = 0\n"),
    "jobs_500.toml": ("--jobs", "jobs = 500\n"),
    "seed_neg.toml": ("key 'seed'", "seed = -1\n"),
    "sheet_empty.toml": ("key 'sheet'", 'sheet = [""]\n'),
    "plans_commas.toml": ("--plans", 'plans = ",,,"\n'),
    "backend.toml": ("--backend", 'backend = "spark"\n'),
    "scheduler.toml": ("--scheduler", 'scheduler = "tcp://127.0.0.1:8786"\n'),
    "chunk_0.toml": ("--chunk-size", "chunk_size = 0\n"),
    "opponent.toml": ("--opponent", 'opponent = "3"\n'),
    "malformed_cfg.toml": ("not valid TOML", "games = = 3\n"),
    "nonutf_cfg.toml": ("not UTF-8", b"games = 3 # \xff\n"),
    "out_bool.toml": ("out", "out = true\n"),
    "mode_bad.toml": ("key 'mode': unknown mode", 'mode = ["standard", "[/x]"]\n'),
    "deck_empty_cfg.toml": ("key 'deck'", 'deck = [""]\n'),
    # A value of the file is named by the file and its key, not by an option the command line lacks.
    "expansion_cfg.toml": (
        "--config {d}/expansion_cfg.toml: key 'expansion': unknown expansion",
        'expansion = "zombie"\n',
    ),
    "plans_file_twice_cfg.toml": (
        "--plans-file",
        'plans_file = ["collector_standard", "collector_standard"]\n',
    ),
    "deck_unknown_cfg.toml": ("key 'deck': unknown deck 'nope'", 'deck = "nope"\n'),
}
for fname, (needle, _content) in CONFIGS.items():
    add("config", ["sweep", "--config", "{d}/" + fname, *OUT], needle)
add("config", ["sweep", "--config", "{d}/missing.toml", *OUT], "--config")
add("config", ["sweep", "--config", "{d}/folder.toml", *OUT], "--config")
add("config", ["sweep", "--config", "", *OUT], "--config")

# --- output paths: never anything but a regular file; parents must exist --------------------------
for option_argv, needle in (
    (["report", "{d}/run", "-o", "/dev/null"], "/dev/null"),
    (["report", "{d}/run", "-o", "{d}/folder.toml"], "folder.toml"),
    (["report", "{d}/run", "-o", "{d}"], "--output"),
    (["report", "{d}/run", "-o", "{d}/no/such/report.html"], "--output"),
    (["report", "{d}/run", "-o", "{d}/plain.txt/report.html"], "--output"),
    (["report", "{d}/run", "-o", ""], "--output"),
    (["report", "{d}/run", "-o", "{d}/fifo"], "fifo"),
    (["analyze", "{d}/run", "--format", "csv", "-o", "{d}/plain.txt"], "--out"),
    (["analyze", "{d}/run", "--format", "json", "-o", "{d}/plain.txt/x"], "--out"),
    (["analyze", "{d}/run", "--format", "csv", "-o", ""], "--out"),
    (["analyze", "{d}/run", "--charts", "{d}/plain.txt"], "--charts"),
    (["analyze", "{d}/run", "--charts", "{d}/plain.txt/c"], "--charts"),
    (["sweep", "--out", "{d}/plain.txt"], "--out"),
    (["sweep", "--out", "{d}/plain.txt/sub"], "--out"),
    (["sweep", "--out", "{d}/not-a-sweep"], "--out"),
    (["sweep", "--out", ""], "--out"),
    (["sweep", "--out", "/dev/null"], "--out"),
):
    add("output", option_argv, needle)

# --- sweep folders for analyze and report ---------------------------------------------------------
for command in ("analyze", "report"):
    extra = ["-o", "{d}/r.html"] if command == "report" else []
    for argv, needle in (
        (["{d}/no-such-run"], "no-such-run"),
        (["{d}/plain.txt"], "plain.txt"),
        (["{d}/not-a-sweep"], "not-a-sweep"),
        (["{d}/empty-dir"], "empty-dir"),
        (["{d}/run", "{d}/run"], "twice"),
        (["{d}/run", "{d}/../" + "{name}/run"], "twice"),
        (["{d}/run", "{d}/run/"], "twice"),
        (["{d}/bad-manifest"], "manifest"),
        (["{d}/nonutf-manifest"], "manifest"),
        (["{d}/list-manifest"], "manifest"),
        ([""], "empty"),
        (["[/x]"], "[/x]"),
    ):
        add("runs", [command, *argv, *extra], needle)
for value in ("nope", "", "CSV", "[/x]"):
    add("runs", ["analyze", "{d}/run", "--format", value], "--format")
for command in ("tournament", "skill"):  # refused before any game is played
    for value in ("nope", "", "CSV"):
        add("format", [command, "--games", "2", "--format", value], "--format")

# --- tune: set names --------------------------------------------------------------------------------
for value in (
    "my set",
    "",
    "-x",
    "a/b",
    "x" * 41,
    "greedy",
    "random",
    "greedy-tuned",
    "a:b",
    "a+b",
    "[/x]",
    "caf\u00e9",
    "a.b",
):
    add("tune-name", ["tune", "--name", value, "--games", "10", "--sweeps", "0"], "--name")

# --- a damaged tuned-sets file in the user data folder ----------------------------------------------
TUNED = {
    "tuned_malformed": ("not valid TOML", "[mine\n"),
    "tuned_nonutf": ("not UTF-8", b'[mine]\nbase = "greedy" # \xff\n'),
    "tuned_param": ("did you mean 'plan'", '[mine]\nbase = "greedy"\n[mine.params]\npaln = 1.0\n'),
    "tuned_key": ("did you mean 'params'", '[mine]\nbase = "greedy"\n[mine.param]\nplan = 1.0\n'),
    "tuned_base": ("base", '[mine]\nbase = "random"\n'),
    "tuned_builtin": ("greedy", '[greedy]\nbase = "greedy"\n'),
    "tuned_value": ("plan", '[mine]\nbase = "greedy"\n[mine.params]\nplan = "high"\n'),
    "tuned_name": ("my set", "['my set']\nbase = \"greedy\"\n"),
}
for folder, (needle, _content) in TUNED.items():
    for argv in (
        ["strategies"],
        ["play", "--strategy", "random"],
        ["tune", "--games", "10", "--sweeps", "0"],
    ):
        add("tuned-file", argv, needle, {"WELCOME_SIM_DATA_DIR": "{d}/" + folder})


def _write(path: Path, content: str | bytes | None) -> None:
    if content is None:
        return
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")


@pytest.fixture(scope="module")
def prepared(tmp_path_factory) -> Path:
    """The files the cases point at, and one small finished sweep ('run')."""
    import os

    d = tmp_path_factory.mktemp("bad-inputs")
    (d / "folder.toml").mkdir()
    (d / "empty-dir").mkdir()
    (d / "not-a-sweep").mkdir()
    (d / "not-a-sweep" / "notes.txt").write_text("mine")
    (d / "plain.txt").write_text("a file")
    os.mkfifo(d / "fifo")
    for fname, (_needle, content) in {**SHEETS, **CONFIGS, **FILES}.items():
        _write(d / fname, content)
    for folder, (_needle, content) in TUNED.items():
        (d / folder).mkdir()
        _write(d / folder / "tuned.toml", content)
    for folder, content in (
        ("bad-manifest", "{not json"),
        ("nonutf-manifest", b'{"a": "\xff"}'),
        ("list-manifest", "[1, 2]"),
    ):
        (d / folder).mkdir()
        _write(d / folder / "manifest.json", content)
    res = CliRunner().invoke(
        app, ["sweep", "--games", "2", "--strategy", "random", "--jobs", "1", "--out", str(d / "run")]
    )
    assert res.exit_code == 0, res.output
    return d


def _expand(text: str, d: Path) -> str:
    return text.replace("{d}", str(d)).replace("{name}", d.name)


def test_the_table_is_large_and_distinct():
    ids = [(c.argv, c.env) for c in CASES]
    assert len(ids) == len(set(ids)), "a case is listed twice"
    assert len(CASES) >= 300, len(CASES)
    covered = {c.argv[0] for c in CASES}
    assert covered >= {"play", "sweep", "tournament", "tune", "bench", "analyze", "report", "strategies"}


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bad_input_is_one_line_naming_the_key(case: Case, prepared: Path, tmp_path: Path):
    argv = [_expand(a, prepared) for a in case.argv]
    env = {k: _expand(v, prepared) for k, v in case.env}
    # A cache folder where no kernel variant is marked compiled, as on a first run: a command that
    # would compile (and say so) before it finds the bad input prints a second line.
    env.setdefault("NUMBA_CACHE_DIR", str(tmp_path / "first-run"))
    res = CliRunner().invoke(app, argv, env=env)
    out = res.stdout + res.stderr
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    assert "Traceback" not in out
    assert res.exit_code == 2, out
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith("error: ")
    assert _expand(case.needle, prepared) in lines[0], lines[0]


# Values typer itself cannot parse (not a whole number): one line, exit code 2, the option named.
TYPER_PARSED = [
    ["sweep", "--games", "1e22", *OUT],
    ["sweep", "--games", "ten", *OUT],
    ["bench", "--games", "1.5"],
    ["play", "--seed", "abc"],
    ["play", "--players", "two"],
    ["tournament", "--games", "2e3"],
    ["tune", "--step", "fast"],
    ["sweep", "--jobs", "all", *OUT],
]


@pytest.mark.parametrize("argv", TYPER_PARSED, ids=[" ".join(a[:3]) for a in TYPER_PARSED])
def test_unparsable_numbers_get_typers_usage_error(argv, prepared: Path):
    res = CliRunner().invoke(app, [_expand(a, prepared) for a in argv])
    assert res.exit_code == 2
    assert "Traceback" not in res.stdout + res.stderr
    assert res.stderr.strip().splitlines() == [res.stderr.strip()]  # one line (issue 37), not a box
    assert res.stderr.startswith(f"error: {argv[1]}: {argv[2]!r} is not a")


def test_a_markup_value_is_printed_literally_by_a_real_process():
    res = run_cli("play", "--strategy", "[/x]")
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert res.stderr.strip().splitlines() == [
        "error: --strategy: unknown strategy '[/x]'; valid: random, first-fit, spread, greedy, plan-rusher, "
        "builder, greedy-tuned, novice, casual, club, expert, lookahead"
    ]


def test_report_never_replaces_a_device_in_a_real_process(tmp_path: Path):
    res = run_cli("report", str(tmp_path), "-o", "/dev/null")
    assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1
    assert "/dev/null is not a regular file" in res.stderr
    assert Path("/dev/null").is_char_device()


def test_sweep_refuses_500_jobs_before_any_progress_bar(tmp_path: Path):
    res = run_cli("sweep", "--jobs", "500", "--games", "1", "--out", str(tmp_path / "s"))
    assert res.returncode == 2
    assert res.stderr.strip().splitlines() == [res.stderr.strip()]
    assert "--jobs: 500" in res.stderr and "━" not in res.stderr
    assert not (tmp_path / "s").exists()


def test_an_unreachable_scheduler_fails_within_seconds():
    import time

    t0 = time.perf_counter()
    res = CliRunner().invoke(
        app, ["sweep", "--backend", "dask", "--scheduler", "tcp://10.255.255.1:8786", "--out", "unused"]
    )
    assert res.exit_code == 2 and "tcp://10.255.255.1:8786" in res.stderr
    assert time.perf_counter() - t0 < 10


def test_tune_writes_into_the_user_data_folder_never_the_package(tmp_path: Path):
    from welcome_sim.errors import WelcomeSimError
    from welcome_sim.strategies.registry import TUNED_FILE
    from welcome_sim.studies.tuning import write_tuned

    before = TUNED_FILE.read_bytes()
    env = {"WELCOME_SIM_DATA_DIR": str(tmp_path / "user")}
    runner = CliRunner()
    res = runner.invoke(app, ["tune", "--games", "10", "--sweeps", "0", "--name", "mine_1"], env=env)
    assert res.exit_code == 0, res.output
    written = tmp_path / "user" / "tuned.toml"
    assert written.exists() and str(written) in res.stdout
    assert TUNED_FILE.read_bytes() == before
    listed = runner.invoke(app, ["strategies"], env=env)
    assert listed.exit_code == 0 and "mine_1" in listed.stdout and "greedy-tuned" in listed.stdout
    # A second set keeps the first; the built-in file is never written.
    write_tuned("mine-2", "greedy", {"plan": 1.0}, 'a "quoted" doc [/x]', written)
    assert "mine_1" in written.read_text() and "mine-2" in written.read_text()
    with pytest.raises(WelcomeSimError, match="read-only"):
        write_tuned("other", "greedy", {"plan": 1.0}, "doc", TUNED_FILE)
    with pytest.raises(WelcomeSimError, match="--name"):
        write_tuned("my set", "greedy", {"plan": 1.0}, "doc", written)


def test_tune_plays_the_game_it_is_asked_to_and_the_set_says_which(tmp_path: Path):
    env = {"WELCOME_SIM_DATA_DIR": str(tmp_path / "user")}
    argv = [
        "tune",
        "--games",
        "10",
        "--sweeps",
        "0",
        "--name",
        "egg",
        "--expansion",
        "easter",
        "--mode",
        "solo",
    ]
    res = CliRunner().invoke(app, argv, env=env)
    assert res.exit_code == 0, res.output
    assert "mode solo" in res.stdout and "expansion Easter Egg Hunt" in res.stdout
    doc = (tmp_path / "user" / "tuned.toml").read_text()
    assert "seed 1, collector, mode solo, AAA level 0, expansion easter)" in doc
    res = CliRunner().invoke(app, ["tune", "--games", "10", "--mode", "expert", "--no-write"], env=env)
    assert (
        res.exit_code != 0 and "--mode: 'expert' needs a table; tune plays single-player games" in res.output
    )


def test_sweeps_with_different_columns_combine_with_nulls(prepared: Path, tmp_path: Path):
    import shutil

    import polars as pl

    other = tmp_path / "older"
    shutil.copytree(prepared / "run", other)
    for f in (other / "data").rglob("*.parquet"):
        pl.read_parquet(f).drop(["eggs", "expansion", "won"]).with_columns(extra=pl.lit(1)).write_parquet(f)
    # An older sweep with other columns, consistent in itself: its manifest records the new files.
    manifest = json.loads((other / "manifest.json").read_text())
    for rec in manifest["chunks"].values():
        rec["sha256"] = sha256_of(other / rec["file"])
    (other / "manifest.json").write_text(json.dumps(manifest))
    runner = CliRunner()
    res = runner.invoke(app, ["analyze", str(prepared / "run"), str(other)])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["report", str(prepared / "run"), str(other), "-o", str(tmp_path / "r.html")])
    assert res.exit_code == 0, res.output


DATA_DIR = Path(__file__).parent.parent / "welcome_sim/simcore/data"
DECK = (DATA_DIR / "decks/first.toml").read_text()
PLANS = (Path(__file__).parent / "data/easy_plans.toml").read_text()
DATA_FILES = [
    ("plans", "unknown top key", PLANS.replace("letters =", "leters ="), "did you mean 'letters'"),
    ("plans", "unknown plan field", PLANS.replace("estates = [1]", "estate = [1]", 1), "plans[0].estate"),
    ("plans", "plan field typo", PLANS.replace("later = 2", "latter = 2", 1), "did you mean 'later'"),
    ("plans", "letter", PLANS.replace('letter = "A"', 'letter = "Z"', 1), "plans[0].letter"),
    ("plans", "estate size", PLANS.replace("estates = [1]", "estates = [9]", 1), "plans[0].estates"),
    ("plans", "not UTF-8", PLANS.encode() + b"\n# \xff\n", "not UTF-8"),
    ("plans", "malformed", PLANS + "\n[[plans]\n", "not valid TOML"),
    ("decks", "unknown top key", DECK.replace("actions =", "acions ="), "did you mean 'actions'"),
    ("decks", "counts", DECK.replace("1 = [1, 1, 1, 0, 0, 0]", "1 = [1, 1, 1, 0, 0]"), "counts.1"),
    ("decks", "totals", DECK.replace("number_totals = [3,", "number_totals = [4,"), "number_totals"),
    ("decks", "not UTF-8", DECK.encode() + b"\n# \xff\n", "not UTF-8"),
]


@pytest.mark.parametrize(
    ("kind", "what", "content", "needle"), DATA_FILES, ids=[f"{k}:{w}" for k, w, _c, _n in DATA_FILES]
)
def test_a_bad_plan_or_deck_file_names_file_and_key(kind, what, content, needle, tmp_path: Path):
    from welcome_sim.errors import WelcomeSimError
    from welcome_sim.simcore.ground.datafiles import load_deck, load_plans

    path = tmp_path / f"{kind}.toml"
    _write(path, content)
    with pytest.raises(WelcomeSimError) as info:
        (load_plans if kind == "plans" else load_deck)(str(path))
    message = str(info.value)
    assert "\n" not in message and str(path) in message and needle in message, message


# =================================================================================================
# Issue 37: command-line inputs that still failed (bad paths and names, huge plans, Dask, repeated
# keys, usage errors, unfinished sweeps, workers of a killed sweep). Each is refused in one line
# before any game is played, or works as a user would expect.
# =================================================================================================
LONG_NAME_SHEET = CLASSIC.replace('name = "classic"', f'name = "{"x" * 300}"', 1)
NOT_UTF8 = os.fsdecode(b"\xff\xfe-sweep")  # a name as Python sees one that is not UTF-8
ISSUE37: list[Case] = []


def add37(cls: str, argv: list[str], needle: str) -> None:
    ISSUE37.append(Case(cls, tuple(argv), needle))


# A sweep folder's own files are never written over (an HTML report over its manifest lost it).
# Each case has its own copy of the sweep: before the fix one case's report replaced the manifest.
OWNED = [
    (["report", "{d}/own0", "-o", "{d}/own0/manifest.json"], "manifest.json"),
    (["report", "{d}/own1", "-o", "{d}/own1/data/x.parquet"], "part of the sweep"),
    (["report", "{d}/own2", "-o", "{d}/own2/sweep.lock"], "part of the sweep"),
    (["analyze", "{d}/own3", "--format", "csv", "-o", "{d}/own3/data"], "--out"),
    (["analyze", "{d}/own4", "--charts", "{d}/own4/data/charts"], "--charts"),
    (["sweep", "--games", "2", "--out", "{d}/own5/data/inner"], "--out"),
    (["skill", *SMALL["skill"], "--csv", "{d}/own6/manifest.json"], "--csv"),
]
for argv, needle in OWNED:
    add37("sweep-owned", argv, needle)
# Kernel file systems: as root every permission check passes there.
add37("system-path", ["sweep", "--games", "2", "--out", "/proc/welcome-sim-sweep"], "/proc")
add37("system-path", ["sweep", "--games", "2", "--out", "/sys/welcome-sim-sweep"], "/sys")
add37("system-path", ["report", "{d}/run", "-o", "/proc/welcome-sim.html"], "/proc")
# A billion one-game chunks: refused at once, naming a chunk size that would do.
add37("chunks", ["sweep", "--games", "1000000000", "--chunk-size", "1", *OUT], "--chunk-size 10,000 or more")
add37(
    "chunks", ["sweep", "--games", "1000000000", "-p", "1-4", "--chunk-size", "2000", *OUT], "40,000 or more"
)
# Names a file system cannot hold, found before any manifest is written or game played.
add37("names", ["sweep", "--sheet", "{d}/long_name.toml", *OUT], "long_name.toml")
add37("names", ["sweep", "--games", "2", "--out", "{d}/" + NOT_UTF8], "not a UTF-8 name")
add37("names", ["sweep", "--games", "2", "--out", "{d}/" + "y" * 300], "the limit is 255")
add37("names", ["report", "{d}/run", "-o", "{d}/" + NOT_UTF8 + ".html"], "--output")
# Repeated keys: the last value silently won.
for command in ("play", "sweep"):
    add37("repeated", cmd(command, "--strategy", "greedy:noise=1,noise=2"), "noise is given twice")
add37(
    "repeated",
    ["report", "{d}/run", "-o", "{d}/r.html", "--baseline", "sheet=classic,sheet=blueprint"],
    "--baseline",
)
# Outputs are checked before the work: a ladder was played before its --csv was refused.
add37("output-first", ["skill", *SMALL["skill"], "--csv", "{d}/folder.toml"], "--csv")
add37("output-first", ["skill", *SMALL["skill"], "--csv", "{d}/plain.txt/x.csv"], "--csv")
# What typer itself refuses: its usage box, now the one line of every other error.
USAGE = [
    (["play", "--players", "x"], "--players: 'x' is not a whole number (try '"),
    (["play", "-px"], "--players: 'x' is not a whole number"),
    (["play", "--seed=abc"], "--seed: 'abc' is not a whole number"),
    (["bench", "--games", "1.5"], "--games: '1.5' is not a whole number"),
    (["tune", "--step", "fast"], "--step: 'fast' is not a number"),
    (["sweep", "--jobs", "all", *OUT], "--jobs: 'all' is not a whole number"),
    (["play", "--players"], "--players: needs a value"),
    (["play", "--bogus", "3"], "--bogus: no such option of"),
    (["play", "--strateg", "x"], "did you mean --strategy?"),
    (["--bogus"], "--bogus: no such option of"),
    (["nope"], "'nope': no such command; commands: play,"),
    (["sheet", "nope"], "'nope': no such command; commands: show"),
    (["analyze"], "RUNS: missing"),
    (["report", "-o", "{d}/r.html"], "RUNS: missing"),
    (["sheet", "show"], "SHEET: missing"),
]
for argv, needle in USAGE:
    add37("usage", argv, needle)


def test_issue37_a_usage_error_is_one_line_in_a_real_process():
    res = run_cli("sweep", "--players", "2", "--games", "x")
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.splitlines() == [
        "error: --games: 'x' is not a whole number (try 'welcome-sim sweep --help')"
    ]


@pytest.fixture(scope="module")
def prepared37(prepared: Path) -> Path:
    """The shared folder of prepared files, with this block's own."""
    import shutil

    _write(prepared / "long_name.toml", LONG_NAME_SHEET)
    for i in range(len(OWNED)):
        if not (prepared / f"own{i}").exists():
            shutil.copytree(prepared / "run", prepared / f"own{i}")
    return prepared


@pytest.mark.parametrize("case", ISSUE37, ids=[c.id for c in ISSUE37])
def test_issue37_bad_command_line_is_one_line(case: Case, prepared37: Path, tmp_path: Path):
    test_bad_input_is_one_line_naming_the_key(case, prepared37, tmp_path)


def test_issue37_a_report_never_replaces_a_sweeps_manifest(prepared: Path, tmp_path: Path):
    import shutil

    run = tmp_path / "run"
    shutil.copytree(prepared / "run", run)
    manifest = run / "manifest.json"
    before = manifest.read_bytes()
    for target in (manifest, run / "data" / "x.parquet"):
        res = CliRunner().invoke(app, ["report", str(run), "-o", str(target)])
        assert res.exit_code == 2 and manifest.read_bytes() == before
    assert not (run / "data" / "x.parquet").exists()
    res = CliRunner().invoke(app, ["report", str(run), "-o", str(run / "report.html")])
    assert res.exit_code == 0 and (run / "report.html").exists()  # a new file beside them is fine


def test_issue37_a_silent_listener_is_refused_within_seconds(tmp_path: Path):
    """A listener that accepts and never answers (127.0.0.1 only): distributed's Client waited past
    90 s despite its timeout of 3 s."""
    import socket
    import time

    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)  # the kernel accepts connections; nothing ever answers them
        address = f"tcp://127.0.0.1:{listener.getsockname()[1]}"
        t0 = time.perf_counter()
        res = run_cli_within(
            30, "sweep", "--backend", "dask", "--scheduler", address, "--out", str(tmp_path / "s")
        )
    assert time.perf_counter() - t0 < 20
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert res.stderr.strip().splitlines() == [
        f"error: --scheduler: {address} accepts connections but sent nothing within 3 s (a Dask scheduler "
        "answers at once); check the address"
    ]


def test_issue37_a_scheduler_without_workers_is_one_line(tmp_path: Path):
    pytest.importorskip("distributed")
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=0,
        processes=False,
        protocol="tcp://",
        host="127.0.0.1",
        scheduler_port=0,
        dashboard_address=None,
    ) as cluster:
        address = cluster.scheduler_address
        res = run_cli_within(
            60, "sweep", "--backend", "dask", "--scheduler", address, "--out", str(tmp_path / "s")
        )
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert res.stderr.strip().splitlines() == [
        f"error: --scheduler: {address} has no workers (none joined within 3 s); start some with "
        f"`dask worker {address}`"
    ]
    assert not (tmp_path / "s").exists()


def run_cli_within(seconds: float, *args: str):
    """run_cli with a time limit: a command that hangs fails the test instead of holding the suite."""
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    try:
        return subprocess.run(
            [sys.executable, "-m", "welcome_sim.cli", *args],
            capture_output=True,
            text=True,
            timeout=seconds,
            env=env,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"welcome-sim {' '.join(args)} still ran after {seconds} s")


def _unfinished_copy(tmp_path: Path) -> Path:
    """A sweep of 4 games in 2 chunks, one of them still to play."""
    run = tmp_path / "half"
    argv = [
        "sweep",
        "--games",
        "4",
        "--chunk-size",
        "2",
        "--strategy",
        "random",
        "--jobs",
        "1",
        "--out",
        str(run),
    ]
    assert CliRunner().invoke(app, argv).exit_code == 0
    manifest = json.loads((run / "manifest.json").read_text())
    last = sorted(manifest["chunks"])[-1]
    (run / manifest["chunks"][last]["file"]).unlink()
    manifest["chunks"][last]["status"] = "pending"
    manifest["chunks"][last].pop("sha256")
    (run / "manifest.json").write_text(json.dumps(manifest))
    return run


def test_issue37_an_unfinished_sweep_is_said_on_stderr(tmp_path: Path):
    run = _unfinished_copy(tmp_path)
    warning = (
        f"warning: {run}: the sweep is unfinished (2 of 4 games played); finish it with the command that "
        f"started it plus --resume (welcome-sim sweep ... --out {run} --resume)"
    )
    for argv in (["analyze", str(run)], ["report", str(run), "-o", str(tmp_path / "r.html")]):
        res = CliRunner().invoke(app, argv)
        assert res.exit_code == 0, res.output
        assert res.stderr.strip().splitlines() == [warning]


def test_issue37_the_repair_note_is_styled_not_printed_as_markup(prepared: Path, tmp_path: Path):
    import shutil

    run = tmp_path / "damaged"
    shutil.copytree(prepared / "run", run)
    chunk = next((run / "data").rglob("*.parquet"))
    chunk.write_bytes(chunk.read_bytes()[:100])  # truncated
    argv = ["sweep", "--games", "2", "--strategy", "random", "--jobs", "1", "--out", str(run), "--resume"]
    res = CliRunner().invoke(app, argv)
    assert res.exit_code == 0, res.output
    assert "[yellow]" not in res.stdout
    assert f"note: replayed a damaged chunk: {chunk.relative_to(run)}:" in res.stdout


def test_issue37_workers_of_a_killed_sweep_go_within_seconds(tmp_path: Path):
    """SIGKILL a sweep while its loky workers play: they went ~5 minutes later (loky's idle timeout)."""
    import signal
    import subprocess
    import sys
    import time

    if (os.cpu_count() or 1) < 2:
        pytest.skip("needs 2 cores for worker processes")
    proc = subprocess.Popen(
        [sys.executable, "-m", "welcome_sim.cli", "sweep", "--games", "100000", "--chunk-size", "500",
         "--strategy", "random", "--jobs", "2", "--out", str(tmp_path / "s")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        workers: set[int] = set()
        deadline = time.monotonic() + 300
        while len(workers) < 2 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.5)
            workers = _children(proc.pid)
            chunks = list((tmp_path / "s").rglob("*.parquet"))
            if not chunks:
                workers = set()  # wait until they play
        assert len(workers) >= 2, "the sweep's workers never started"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    t0 = time.monotonic()
    while any(_alive(pid) for pid in workers) and time.monotonic() - t0 < 30:
        time.sleep(0.2)
    gone = time.monotonic() - t0
    for pid in workers:
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)
    assert gone < 10, f"workers outlived the killed sweep by {gone:.0f} s"


def _children(pid: int) -> set[int]:
    """Process ids whose parent is pid (Linux /proc)."""
    found = set()
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                ppid = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if ppid == pid:
                found.add(int(d.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_issue37_a_huge_sweep_without_chunk_size_gets_chunks_large_enough():
    from welcome_sim.errors import WelcomeSimError
    from welcome_sim.sweep.config import SweepConfig
    from welcome_sim.sweep.run import MAX_CHUNKS, check_chunk_count, chunk_size_for

    cfg = SweepConfig(
        games=10**9, seed=0, sheets=["classic"], editions=["collector"], modes=["standard"], players=[1, 2],
        strategies=["random"], plans=["random"], opponents=["0"], expansions=["none"], nine=["off"],
        decks=[""], plans_files=[""],
    )  # fmt: skip
    plan = cfg.validate()
    assert chunk_size_for(plan, None) == 20_000  # 2 cells x 50,000 chunks
    assert chunk_size_for(plan, 20_000) == 20_000
    with pytest.raises(
        WelcomeSimError, match=f"the limit is {MAX_CHUNKS:,}: use --chunk-size 20,000 or more"
    ):
        check_chunk_count(plan, 19_999)


def test_issue37_another_programs_manifest_does_not_make_a_sweep(tmp_path: Path):
    from welcome_sim.simcore.ground import userinput as U

    (tmp_path / "manifest.json").write_text('{"name": "my web app"}')
    assert U.output_file("--output", tmp_path / "manifest.json") == tmp_path / "manifest.json"
    assert U.output_dir("--out", tmp_path / "data" / "x") == tmp_path / "data" / "x"
