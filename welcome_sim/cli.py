"""The `welcome-sim` command line: thin wrappers that parse options, call the library, print."""

from __future__ import annotations

import contextlib
import functools
import inspect
import os
import sys
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text
from typer.core import TyperCommand, TyperGroup

from welcome_sim import __version__
from welcome_sim import userinput as U
from welcome_sim.errors import WelcomeSimError
from welcome_sim.expansions.codes import EXPANSION_NAMES, EXPANSION_TITLES
from welcome_sim.termtables import print_frame, print_table

# click's exceptions as the installed typer uses them (typer >= 0.20 carries its own copy of click).
CX = sys.modules[typer.BadParameter.__module__]


def _given_values(args: list[str], opts: list[str]) -> list[str]:
    """The values given on the command line to an option spelled any of `opts`."""
    found = []
    for i, a in enumerate(args):
        for o in opts:
            if a == o and i + 1 < len(args):
                found.append(args[i + 1])
            elif o.startswith("--") and a.startswith(o + "="):
                found.append(a[len(o) + 1 :])
            elif not o.startswith("--") and a.startswith(o) and not a.startswith("--") and len(a) > len(o):
                found.append(a[len(o) :])
    return found


def _usage_line(e: Exception, args: list[str]) -> str:
    """click's usage error as the one line every other error is: option, value, what is valid."""
    ctx = getattr(e, "ctx", None)
    where = ctx.command_path if ctx is not None else "welcome-sim"
    hint = f" (try '{where} --help')"
    param = getattr(e, "param", None)
    if isinstance(e, CX.BadOptionUsage) and not isinstance(e, CX.NoSuchOption):
        said = " ".join(e.format_message().split())
        return f"{e.option_name}: {'needs a value' if 'requires an argument' in said else said}{hint}"
    if isinstance(e, CX.NoSuchOption):
        near = f"; did you mean {', '.join(e.possibilities)}?" if e.possibilities else ""
        return f"{e.option_name}: no such option of {where}{near}{hint}"
    if param is not None:
        opts = [o for o in param.opts if o.startswith("--")] or list(param.opts)
        option = getattr(param, "param_type_name", "") == "option"
        name = opts[0] if option else str(param.name).upper()
        if isinstance(e, CX.MissingParameter):
            return f"{name}: missing; it is required (give a value){hint}"
        message = e.message.rstrip(".")
        if "valid integer" in message:
            message = "is not a whole number"
        elif "valid number" in message or "valid float" in message:
            message = "is not a number"
        values = _given_values(args, list(param.opts)) if option else []
        value = f"{values[-1]!r} " if len(values) == 1 else ""
        return f"{name}: {value}{message}{hint}"
    message = " ".join(e.format_message().split())
    if message.startswith("No such command") and ctx is not None and hasattr(ctx.command, "list_commands"):
        valid = ", ".join(ctx.command.list_commands(ctx))
        return f"{message.removeprefix('No such command ').rstrip('.')}: no such command; commands: {valid}{hint}"
    return f"{message}{hint}"


class _Group(TyperGroup):
    """The app: a usage error (an unknown option or command, a value click cannot parse, a missing
    argument) is one 'error:' line on stderr, as every other error, not a box."""

    def main(self, args: Any = None, *a: Any, standalone_mode: bool = True, **k: Any) -> Any:
        argv = list(sys.argv[1:] if args is None else args)
        if not standalone_mode:
            return super().main(argv, *a, standalone_mode=False, **k)
        try:
            rv = super().main(argv, *a, standalone_mode=False, **k)
        except CX.NoArgsIsHelpError as e:
            if not (getattr(typer.core, "HAS_RICH", False) and self.rich_markup_mode is not None):
                e.show()  # Rich has printed the help already
            sys.exit(e.exit_code)
        except CX.ClickException as e:
            err.print(Text.assemble(("error:", "bold red"), " ", _usage_line(e, argv)), highlight=False)
            sys.exit(e.exit_code)
        except typer.Abort:
            err.print("Aborted.", highlight=False)
            sys.exit(1)
        # Not standalone, click returns an Exit's code (or the command's value: always None here).
        sys.exit(rv if isinstance(rv, int) and not isinstance(rv, bool) else 0)


app = typer.Typer(
    cls=_Group,
    help="Monte Carlo balance analysis for Welcome To... Your Perfect Home.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
# soft_wrap: sheets and tables must never be folded when output is piped to a file.
# markup=False: every string is printed literally (names, paths and values a user typed or a data
# file holds may contain '[...]'); styles are given as Text or style=, never as markup.
console = Console(soft_wrap=True, markup=False)
if not console.is_terminal:  # piped or captured: lay tables out wide instead of at 80 columns
    console = Console(soft_wrap=True, width=240, markup=False)
err = Console(stderr=True, soft_wrap=True, markup=False)

EditionOpt = Annotated[
    str, typer.Option("--edition", "-e", help="Ruleset: 'collector' (2023, default) or 'first' (2018).")
]
SheetOpt = Annotated[
    str | None,
    typer.Option(
        "--sheet",
        help="Sheet: a built-in name (classic, blueprint; american_dream comes with --expansion american-dream) "
        "or a path to a sheet .toml file.",
    ),
]
ModeOpt = Annotated[
    str,
    typer.Option(
        "--mode",
        "-m",
        help="Game mode: standard, advanced (roundabouts, advanced plans), expert (hands of three, the "
        "third card passed on; 2+ players), expert-advanced, solo (Collector's: against the AAA; first "
        "edition: the solo variant; 1 player), solo-advanced.",
    ),
]
OpponentOpt = Annotated[
    str | None,
    typer.Option(
        "--opponent",
        help="AAA solo mode: the Opponent card, by level 0-5 or name (closed, sam, irene, ...). [default: 0]",
    ),
]
ExpansionOpt = Annotated[
    str | None,
    typer.Option(
        "--expansion",
        "-x",
        help="Expansion sheet: "
        + ", ".join(f"{n} ({t})" for n, t in zip(EXPANSION_NAMES, EXPANSION_TITLES, strict=True))
        + ", or none; or a path to a copy of an expansion's .toml file with your own values (its `name` says which expansion). It is "
        "played on its own sheet (the classic layout) with its own Plan C cards (Collector's Edition).",
    ),
]
NineOpt = Annotated[
    bool,
    typer.Option(
        "--nine-three-quarters/--no-nine-three-quarters",
        help="Add the three 9¾ cards to the deck (placed between a 9 and a 10).",
    ),
]
DeckOpt = Annotated[
    str | None,
    typer.Option(
        "--deck",
        help="Construction deck: a built-in name (collector, first) or a path to a deck .toml file (a "
        "copy of data/decks/collector.toml with your counts); it replaces the edition's deck.",
    ),
]
PlansFileOpt = Annotated[
    str | None,
    typer.Option(
        "--plans-file",
        help="Standard plan cards: a path to a plan set .toml file (like data/plans/"
        "collector_standard.toml) or a built-in name; it replaces the edition's standard plans "
        "(Advanced mode still mixes in the edition's advanced plans; the American Dream plays only its own).",
    ),
]
StrategyOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--strategy",
        "-s",
        help="Player: NAME or NAME:key=value,... (see `welcome-sim strategies`); default greedy. "
        "Repeat once per seat for a mixed table.",
    ),
]


def _fail(exc: Exception) -> None:
    """The one-line error: 'error: ' and the message, literally, on stderr; exit code 2."""
    message = " ".join(str(exc).split("\n"))
    err.print(Text.assemble(("error:", "bold red"), " ", message), highlight=False, soft_wrap=True)
    raise typer.Exit(2)


def _help_text(text: str, rich: bool = True) -> str:
    """A docstring as --help shows it: each paragraph's lines joined (Rich keeps a single line
    break, so the source's own line ends showed mid-sentence) and, for Rich, every '[' literal."""
    paragraphs = [
        " ".join(line.strip() for line in p.splitlines()) for p in inspect.cleandoc(text).split("\n\n")
    ]
    return "\n\n".join(escape(p) if rich else p for p in paragraphs)


class _Command(TyperCommand):
    """A command whose help texts read as written: Rich would take an option's '[default: 1000]'
    for markup and print nothing of it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Only Rich reads markup: click's plain help (TYPER_USE_RICH=0) would show the escapes.
        rich = bool(getattr(typer.core, "HAS_RICH", False)) and self.rich_markup_mode == "rich"
        if self.help:
            self.help = _help_text(self.help, rich)
        for param in self.params:
            if rich and getattr(param, "help", None):
                param.help = escape(param.help)


def command(*args, on: typer.Typer | None = None, **kwargs):
    """app.command() (or a sub-app's, `on`) whose function turns any WelcomeSimError into the
    one-line error, and whose help texts are shown as written (_Command)."""

    def register(fn):
        @functools.wraps(fn)
        def run(*a, **k):
            try:
                return fn(*a, **k)
            except WelcomeSimError as exc:
                _fail(exc)

        return (on or app).command(*args, cls=_Command, **kwargs)(run)

    return register


def _note(text: str, out: Console | None = None) -> None:
    """A 'note:' line, on stdout unless `out` says otherwise (stderr keeps csv/json output clean)."""
    (out or console).print(Text.assemble(("note:", "yellow"), " ", text), highlight=False)


def _reconstructed_notice(paths: list[str], out: Console | None = None) -> None:
    if paths:
        _note(
            "this run uses RECONSTRUCTED data (consistent with the rules, not checked "
            "against the printed cards): " + ", ".join(paths),
            out,
        )


@command()
def play(
    seed: Annotated[int, typer.Option(help="Game seed (same seed, same game).")] = 1,
    players: Annotated[int, typer.Option("--players", "-p", help="Players at the table, 1 to 8.")] = 1,
    edition: EditionOpt = "collector",
    sheet: SheetOpt = None,
    strategy: StrategyOpt = None,
    plans: Annotated[
        str | None, typer.Option(help="Plans in play, one per letter, e.g. A1,B6,C2; default: random.")
    ] = None,
    mode: ModeOpt = "standard",
    opponent: OpponentOpt = None,
    expansion: ExpansionOpt = None,
    nine_three_quarters: NineOpt = False,
    deck: DeckOpt = None,
    plans_file: PlansFileOpt = None,
) -> None:
    """Play one game and show it round by round, then every sheet and the score card.

    The game is played by the compiled kernel and replayed by the independent referee, which
    checks every move and re-scores every sheet.
    """
    try:
        from welcome_sim.simcore.game import (
            batch_variant,
            check_mode_players,
            check_players,
            game_seeds,
            plan_indices,
            simulate,
        )
        from welcome_sim.simcore.ruleset import load_ruleset
        from welcome_sim.textview import render_game
        from welcome_sim.verify import check_batch, referee_game

        check_players(players)
        U.check_seed("--seed", seed)
        rs = load_ruleset(
            edition,
            sheet,
            plans_file,
            mode=mode,
            opponent=opponent,
            expansion=expansion,
            nine=nine_three_quarters,
            deck=deck,
        )
        plan_list = [p.strip() for p in plans.split(",") if p.strip()] if plans is not None else None
        check_mode_players(rs, players)  # bad input fails before any compile
        plan_indices(rs, plan_list)
        _warm(variants={batch_variant(rs.expansion is None, strategy or [], players)})
        res = simulate(rs, game_seeds(seed, 1), players, strategy or [], plan_list, log=True)
        problems = check_batch(res)
        if problems:
            raise WelcomeSimError("kernel and referee disagree: " + "; ".join(problems[:3]))
        rec = referee_game(res, 0)
    except WelcomeSimError as exc:
        _fail(exc)
    names = [f"P{i + 1} {s}" for i, s in enumerate(res.strategies)]
    console.print(f"welcome-sim {__version__}: {rs.describe()}; seed {seed}", highlight=False)
    _reconstructed_notice(rs.reconstructed)
    for line in render_game(rec, names, res.plan_ids(0), rs.plans.plans):
        console.print(line, highlight=False, markup=False)
    console.print("referee: every move legal, every score equal to the kernel's", style="green")


JobsOpt = Annotated[
    int,
    typer.Option(
        help="Worker processes; -1 = all cores. Games are split into chunks over them, with the same "
        "results as one process."
    ),
]


def _tables_variants(base_game: bool, tables: list[list[str]]) -> set[str]:
    """The kernel variants a command plays these tables (one list of seat strategies each) on."""
    from welcome_sim.simcore.game import batch_variant

    return {batch_variant(base_game, seats, len(seats)) for seats in tables}


def _warm(jobs: int = 1, variants: set[str] | None = None) -> None:
    """Compile or load the kernel variants the command plays on (all if None; in the worker
    processes too) before any bar or clock starts; say so on stderr first if it has to compile."""
    from welcome_sim.warmup import ALL_VARIANTS, warm_kernel

    wanted = tuple(v for v in ALL_VARIANTS if variants is None or v in variants)
    warm_kernel(notice=lambda m: err.print(m, highlight=False), variants=wanted)
    if jobs != 1:
        from welcome_sim.parallel import warm_workers

        warm_workers(jobs, wanted)


@command()
def warmup() -> None:
    """Compile the kernel now (it is cached; later runs only load it), or say it already is. Both
    variants: the whole kernel and the smaller one for base games with greedy players."""
    from welcome_sim.warmup import expected_compile_seconds, missing_variants, warm_kernel

    folder = os.environ.get("NUMBA_CACHE_DIR", "")
    missing = missing_variants()
    if not missing:
        seconds = warm_kernel()
        console.print(f"kernel compiled already (loaded in {seconds:.1f} s from {folder})", highlight=False)
        return
    console.print(
        f"compiling the kernel, first run only, ~{expected_compile_seconds(missing)} s (cached in {folder})",
        highlight=False,
    )
    seconds = warm_kernel()
    console.print(f"kernel compiled in {seconds:.0f} s", highlight=False)


@command()
def bench(
    games: Annotated[int, typer.Option(help="Games per measurement.")] = 50_000,
    players: Annotated[
        list[int] | None, typer.Option("--players", "-p", help="Player counts to measure.")
    ] = None,
    edition: EditionOpt = "collector",
    sheet: SheetOpt = None,
    strategy: StrategyOpt = None,
    repeat: Annotated[
        int, typer.Option(help="Timed repetitions; the best is reported (with --compare-rev: rounds).")
    ] = 3,
    mode: ModeOpt = "standard",
    opponent: OpponentOpt = None,
    expansion: ExpansionOpt = None,
    nine_three_quarters: NineOpt = False,
    deck: DeckOpt = None,
    plans_file: PlansFileOpt = None,
    jobs: Annotated[
        int,
        typer.Option(
            help="Processes; the games are split over them and games/s is their sum (each loads the "
            "kernel before the clock starts); -1 = all cores."
        ),
    ] = 1,
    save_baseline: Annotated[
        bool,
        typer.Option(help="Write the figures into the baseline file (rows of other configurations stay)."),
    ] = False,
    compare: Annotated[
        bool, typer.Option(help="Show the baseline file's figures beside today's, and their ratio.")
    ] = False,
    compare_rev: Annotated[
        str | None,
        typer.Option(
            help="Git revision (commit, branch, tag) to run alternately with the current code, each in "
            "a fresh process (A B A B ...); shows both and their ratio. One process per side."
        ),
    ] = None,
    baseline: Annotated[
        str | None,
        typer.Option(
            help="Baseline file for --compare and --save-baseline. [default: benchmarks/baseline.json]"
        ),
    ] = None,
) -> None:
    """Measure kernel speed: games per second after compilation, on one or more processes."""
    try:
        from welcome_sim import benchmark as B
        from welcome_sim.simcore.game import batch_variant, check_mode_players, check_players
        from welcome_sim.simcore.ruleset import load_ruleset
        from welcome_sim.strategies.registry import parse_strategy

        player_counts = players or [1, 4]
        for n in player_counts:
            check_players(n)
        U.check_int("--games", games, 1, U.MAX_BATCH_GAMES)
        U.check_int("--repeat", repeat, 1, 100)
        n_jobs = U.check_jobs(jobs, "loky")
        if n_jobs == -1:
            from welcome_sim.parallel import cores

            n_jobs = cores()
        if compare and compare_rev is not None:
            raise WelcomeSimError(
                f"--compare-rev: {compare_rev!r} and --compare both compare; give one (the file baseline "
                "or a revision)"
            )
        if compare_rev is not None and (save_baseline or n_jobs != 1):
            what = "--save-baseline" if save_baseline else f"--jobs {n_jobs}"
            raise WelcomeSimError(
                f"--compare-rev: {compare_rev!r} runs one process per side and saves nothing; drop {what}"
            )
        path = Path(baseline) if baseline is not None else B.BASELINE_FILE
        if baseline is not None and not (compare or save_baseline):
            raise WelcomeSimError(f"--baseline: {baseline!r} applies only with --compare or --save-baseline")
        rows = B.load_baseline(path) if compare else []
        if save_baseline and path.exists():
            B.load_baseline(path)  # refuse to overwrite a damaged file before measuring
        rs = load_ruleset(
            edition,
            sheet,
            plans_file,
            mode=mode,
            opponent=opponent,
            expansion=expansion,
            nine=nine_three_quarters,
            deck=deck,
        )
        for n in player_counts:
            check_mode_players(rs, n)
        strategies = strategy or ["random", "greedy"]
        for name in strategies:
            parse_strategy(name)
        if compare_rev is not None:
            sha, rev_root = B.revision_tree(compare_rev)
    except WelcomeSimError as exc:
        _fail(exc)
    if compare_rev is not None:
        _bench_against(
            rs, compare_rev, sha, rev_root, strategies, player_counts, games, repeat,
            dict(edition=edition, sheet=sheet, mode=mode, opponent=opponent, expansion=expansion,
                 nine=nine_three_quarters, deck=_absolute(deck), plans=_absolute(plans_file)),
        )  # fmt: skip
        return
    _warm(
        n_jobs, {batch_variant(rs.expansion is None, [name], n) for name in strategies for n in player_counts}
    )
    title = f"kernel speed, {rs.edition.title}, mode {rs.mode}, sheet {rs.sheet.title}" + _own_files(rs)
    if n_jobs > 1:
        title += f"; {n_jobs} processes, games/s summed"
    cols = ["strategy", "players", "games", "jobs", "best seconds", "games/s"]
    if compare:
        cols += ["baseline games/s", "ratio", "baseline commit"]
    table: list[list[str]] = []
    measured = []
    for strat in strategies:
        for n in player_counts:
            m = B.measure(rs, strat, n, games, repeat, n_jobs)
            measured.append(m)
            cells = [
                strat,
                str(n),
                f"{games:,}",
                str(n_jobs),
                f"{m.seconds:.3f}",
                f"{m.games_per_second:,.0f}",
            ]
            if compare:
                base = B.find_row(rows, m.key)
                if base is None:
                    cells += ["-", "-", "not measured"]
                else:
                    ratio = m.games_per_second / base["games_per_second"]
                    cells += [f"{base['games_per_second']:,.0f}", f"{ratio:.2f}", str(base["commit"])[:12]]
            table.append(cells)
            seats = "1 player" if n == 1 else f"{n} players"
            err.print(f"{strat}, {seats}: warm-up/compile {m.warmup_seconds:.1f} s", style="dim")
    print_table(
        console,
        cols,
        table,
        title=title,
        keys=["strategy", "players"],
        words=["strategy"],
        drop_constant=False,
    )
    if compare:
        console.print(
            f"baseline: {path}; ratio = today / baseline (above 1: faster today); figures from another "
            "day are noisy, --compare-rev REV runs both side by side",
            highlight=False,
        )
    if save_baseline:
        try:
            written = B.save_baseline(measured, path)
        except WelcomeSimError as exc:
            _fail(exc)
        console.print(f"wrote {len(measured)} rows into {written}", highlight=False)
    _reconstructed_notice(rs.reconstructed)


def _own_files(rs: Any) -> str:
    """', own files: sheet NAME.HASH, deck ..., plans ..., expansion ...' for the data files of one's own in use
    (empty for the built-in ones), so a title never passes a designer's copy for the original."""
    from welcome_sim.simcore.ruleset import is_builtin_label

    labels = (
        ("sheet", rs.sheet_label),
        ("deck", rs.deck_label),
        ("plans", rs.plans_label),
        ("expansion", rs.expansion_label),
    )
    own = [f"{what} {label}" for what, label in labels if not is_builtin_label(label)]
    return f"; own files: {', '.join(own)}" if own else ""


def _absolute(path: str | None) -> str | None:
    """A data file path made absolute (a name of a built-in file stays as it is) for a process
    started in another folder."""
    if path is None or not (path.endswith(".toml") or Path(path).parent != Path(".")):
        return path
    return str(Path(path).resolve())


def _bench_against(
    rs: Any,
    rev: str,
    sha: str,
    rev_root: Path,
    strategies: list[str],
    player_counts: list[int],
    games: int,
    rounds: int,
    load: dict[str, Any],
) -> None:
    """bench --compare-rev: each configuration run by both sides in turn, in fresh processes."""
    import statistics

    from welcome_sim import benchmark as B

    short = f"{rev} ({sha[:12]})" if not sha.startswith(rev) else sha[:12]
    err.print(
        f"comparing with {short}: {rounds + 1} runs per side and configuration, alternately; each "
        "side's first run loads (or compiles, the first time) its kernel and is not counted",
        highlight=False,
    )
    title = (
        f"kernel speed, current code vs {short}: {rs.edition.title}, mode {rs.mode} "
        f"(median of {rounds} alternated runs; one process each){_own_files(rs)}"
    )
    cols = ["strategy", "players", "games", "current games/s", f"{rev} games/s", "ratio", "ratio range"]
    table: list[list[str]] = []
    for strat in strategies:
        for n in player_counts:
            args = B.driver_args(load, strat, n, games)
            try:
                a, b = B.compare_revision(rev_root, args, rounds, rev)
            except WelcomeSimError as exc:
                _fail(exc)
            ratios = [x / y for x, y in zip(a, b, strict=True)]
            table.append(
                [
                    strat,
                    str(n),
                    f"{games:,}",
                    f"{statistics.median(a):,.0f}",
                    f"{statistics.median(b):,.0f}",
                    f"{statistics.median(ratios):.2f}",
                    f"{min(ratios):.2f}-{max(ratios):.2f}",
                ]
            )
    print_table(
        console,
        cols,
        table,
        title=title,
        keys=["strategy", "players"],
        words=["strategy"],
        drop_constant=False,
    )
    console.print("ratio = current / revision, pair by pair (above 1: the current code is faster)")


@command()
def sweep(
    games: Annotated[int | None, typer.Option(help="Games per grid cell. [default: 1000]")] = None,
    seed: Annotated[
        int | None, typer.Option(help="Sweep seed; game seeds derive from it. [default: 0]")
    ] = None,
    out: Annotated[
        str | None, typer.Option("--out", "-o", help="Output folder. [default: runs/sweep]")
    ] = None,
    sheet: Annotated[
        list[str] | None,
        typer.Option(
            help="Sheet name or path; repeat for several. An expansion is played only on its own sheet "
            "(classic, or american_dream for the American Dream). [default: each --expansion's own sheet]"
        ),
    ] = None,
    edition: Annotated[
        list[str] | None, typer.Option(help="collector and/or first; repeat for several.")
    ] = None,
    mode: Annotated[
        list[str] | None,
        typer.Option(
            "--mode",
            "-m",
            help="Game mode; repeat for several: standard, advanced, expert, expert-advanced, solo, "
            "solo-advanced. Solo modes play only the 1-player cells, expert modes only 2 or more.",
        ),
    ] = None,
    opponent: Annotated[
        list[str] | None,
        typer.Option(
            "--opponent",
            help="AAA solo mode: Opponent cards by level or name; a list 0,1,2, a range 0-5, or repeat. "
            "[default: 0]",
        ),
    ] = None,
    expansion: Annotated[
        list[str] | None,
        typer.Option(
            "--expansion",
            "-x",
            help="Expansion sheets to cross with the grid; repeat or list: none, "
            + ", ".join(EXPANSION_NAMES)
            + " (e.g. none,zombies to compare Zombie Outbreak with the base game), or the path of a "
            "copy of an expansion's .toml file with your own values (its rows name it by its `name` "
            "and content hash, e.g. easter.1a2b3c4d: give easter,my-easter.toml to compare). "
            "An expansion plays on its own sheet (classic layout). [default: none]",
        ),
    ] = None,
    nine_three_quarters: Annotated[
        str | None,
        typer.Option(
            "--nine-three-quarters",
            help="The 9¾ cards: off, on, or both (off,on) to measure their effect. [default: off]",
        ),
    ] = None,
    players: Annotated[
        list[str] | None,
        typer.Option("--players", "-p", help="Player counts: 2, a list 1,2,4 or a range 1-4."),
    ] = None,
    strategy: Annotated[
        list[str] | None,
        typer.Option(
            "--strategy",
            "-s",
            help="Strategy of a table; repeat for several; 'a+b' seats a and b in turn (a mixed table).",
        ),
    ] = None,
    plans: Annotated[
        list[str] | None,
        typer.Option(
            help="random (per game), all (every A x B x C in turn) or fixed ids A-1,B-3,C-2; repeatable."
        ),
    ] = None,
    deck: Annotated[
        list[str] | None,
        typer.Option(
            "--deck",
            help="Construction deck replacing the edition's: a built-in name or a path to a deck .toml "
            "file; repeat to compare decks. [default: the edition's]",
        ),
    ] = None,
    plans_file: Annotated[
        list[str] | None,
        typer.Option(
            "--plans-file",
            help="Standard plan cards replacing the edition's: a path to a plan set .toml file or a "
            "built-in name; repeat to compare sets (the American Dream plays its own cards, once, where "
            "the edition's own set is named). [default: the edition's]",
        ),
    ] = None,
    config: Annotated[
        str | None, typer.Option(help="Read the sweep from a TOML file (CLI options override).")
    ] = None,
    jobs: Annotated[int | None, typer.Option(help="Worker processes; -1 = all cores. [default: -1]")] = None,
    chunk_size: Annotated[
        int | None,
        typer.Option(
            help="Games per chunk file (at most 100,000 chunks a sweep). [default: 2000, or more where a sweep would make more chunks]"
        ),
    ] = None,
    backend: Annotated[
        str | None, typer.Option(help="loky (local processes) or dask. [default: loky]")
    ] = None,
    scheduler: Annotated[
        str | None,
        typer.Option(help="Dask scheduler address (tcp://host:8786), or 'local' for a local cluster."),
    ] = None,
    resume: Annotated[
        bool, typer.Option(help="Finish an interrupted sweep: play only the missing chunks.")
    ] = False,
) -> None:
    """Play a grid of configurations into a Parquet dataset (one row per player per game).

    Every grid cell (sheet x deck x plan set x edition x expansion x 9¾ x mode x players x strategy x plans) plays --games games; game
    i of every cell has the same seed, so cells compare on the same deals. Chunks are written
    atomically; an interrupted sweep resumes with --resume. The same sweep gives the same rows for
    any --jobs, --chunk-size or backend.
    """
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from welcome_sim.simcore.game import batch_variant
    from welcome_sim.sweep.config import (
        SweepConfig,
        default_sheets,
        load_toml,
        parse_nine,
        parse_opponents,
        parse_players,
        split_list,
    )
    from welcome_sim.sweep.run import (
        check_out_folder,
        check_paths,
        check_run_options,
        chunk_size_for,
        run_sweep,
    )

    base = load_toml(config) if config is not None else {}

    def pick(cli_value, key, default):
        return cli_value if cli_value not in (None, []) else base.get(key, default)

    def given(cli_value, key) -> bool:
        return cli_value not in (None, []) or key in base

    n_games = U.check_int("--games", pick(games, "games", 1000), 1, U.MAX_GAMES, " games per grid cell")
    sweep_seed = U.check_seed("--seed", pick(seed, "seed", 0))
    run_backend = pick(backend, "backend", "loky")
    if run_backend not in ("loky", "dask"):
        raise WelcomeSimError(f"--backend: {run_backend!r} is not one of loky, dask")
    n_jobs = U.check_jobs(pick(jobs, "jobs", -1), run_backend)
    size = pick(chunk_size, "chunk_size", None)
    if size is not None:
        U.check_int("--chunk-size", size, 1, U.MAX_CHUNK, " games per chunk")
    for key, cli_value, option in (
        ("plans", plans, "--plans"),
        ("sheet", sheet, "--sheet"),
        ("strategy", strategy, "--strategy"),
        ("edition", edition, "--edition"),
        ("mode", mode, "--mode"),
        ("deck", deck, "--deck"),
        ("plans_file", plans_file, "--plans-file"),
    ):
        for v in pick(cli_value, key, []):
            U.check_nonempty(option, v, "a value (see welcome-sim sweep --help)")
    expansions = split_list(pick(expansion, "expansion", ["none"]))
    cfg = SweepConfig(
        games=n_games,
        seed=sweep_seed,
        # Without --sheet each expansion is played on its own sheet (the American Dream's is not
        # the Classic one).
        sheets=pick(sheet, "sheet", default_sheets(expansions)),
        editions=pick(edition, "edition", ["collector"]),
        modes=pick(mode, "mode", ["standard"]),
        players=parse_players(pick(players, "players", ["1"])),
        strategies=pick(strategy, "strategy", ["greedy"]),
        plans=[p.strip() for p in pick(plans, "plans", ["random"])],
        opponents=parse_opponents(pick(opponent, "opponent", ["0"])),
        expansions=expansions,
        nine=parse_nine(pick(nine_three_quarters, "nine_three_quarters", ["off"])),
        decks=pick(deck, "deck", [""]),
        plans_files=pick(plans_file, "plans_file", [""]),
    )
    cfg.validate()
    if given(opponent, "opponent") and not any(c.opponent for c in cfg.cells()):
        raise WelcomeSimError(
            f"--opponent: {','.join(cfg.opponents)!r} applies only to the AAA solo mode (--mode solo or "
            f"solo-advanced, Collector's Edition); modes given: {', '.join(cfg.modes)}"
        )
    out_dir = U.output_dir("--out", pick(out, "out", "runs/sweep"))
    run_scheduler = pick(scheduler, "scheduler", None)
    U.check_scheduler(run_scheduler, run_backend)
    # Wrong options or folder fail before any compile.
    check_run_options(run_backend, run_scheduler, n_jobs)
    old = check_out_folder(out_dir, resume)
    if old is None:  # a resumed sweep keeps its chunks, checked when it started
        chunk_size_for(cfg, size)
    check_paths(cfg, out_dir)
    # Compiled here and loaded by the workers before the clock and the bar start: the bar's games/s
    # must not count compiling.
    _warm(
        n_jobs if run_backend == "loky" else 1,
        {batch_variant(c.expansion == "none", c.seats(), c.players) for c in cfg.cells()},
    )
    started = time.perf_counter()
    with contextlib.ExitStack() as stack:
        bars: list = []  # the bar starts with the first progress report, after every check passed
        first_done: list[int] = []

        def on_progress(done: int, total: int) -> None:
            if not bars:
                bar = stack.enter_context(
                    Progress(
                        TextColumn("[bold]sweep"),
                        BarColumn(),
                        MofNCompleteColumn(),
                        TextColumn("games"),
                        TextColumn("{task.fields[rate]}"),
                        TimeElapsedColumn(),
                        TextColumn("ETA"),
                        TimeRemainingColumn(),
                        console=err,
                        transient=False,
                    )
                )
                bars.append((bar, bar.add_task("games", total=None, rate="")))
            bar, task_id = bars[0]
            if not first_done:
                first_done.append(done)
            elapsed = time.perf_counter() - started
            rate = (done - first_done[0]) / elapsed if elapsed > 0 else 0.0
            bar.update(task_id, completed=done, total=total, rate=f"{rate:,.0f} games/s")

        summary = run_sweep(
            cfg,
            out_dir,
            jobs=n_jobs,
            chunk_size=size,
            backend=run_backend,
            scheduler=run_scheduler,
            resume=resume,
            progress=on_progress,
        )
    rate = summary.games_run / summary.seconds if summary.seconds > 0 else 0.0
    console.print(
        f"sweep done: {summary.games:,} games, {summary.rows:,} rows in {summary.out} "
        f"({summary.bytes / 1e6:,.1f} MB); this run played {summary.games_run:,} games in "
        f"{summary.seconds:,.1f} s ({rate:,.0f} games/s)",
        highlight=False,
    )
    for file, problem in summary.replayed.items():
        _note(f"replayed a damaged chunk: {file}: {problem}")
    _reconstructed_notice(summary.reconstructed)
    means = summary.means
    if means["win_rate"].is_null().all():
        means = means.drop("win_rate")  # players alone: no one to beat
    print_frame(
        console,
        means,
        title="mean score per configuration",
        keys=means.columns[: means.columns.index("games")],  # the cell and its configuration
        fmt=lambda v: "-" if v is None else f"{v:.2f}" if isinstance(v, float) else str(v),
        left=(),
    )


# Columns of analyze's tables that say what a row is about, besides the configuration.
ROW_LABELS = ("letter", "plan", "plan_a_id", "plan_b_id", "plan_c_id", "end_reason", "toggle", "a", "b")
RunDirs = Annotated[list[str], typer.Argument(help="Sweep output folders (each with manifest.json).")]


def _analysis_tables(paths: list[str]):
    from welcome_sim.analysis import tables as T
    from welcome_sim.analysis.load import combined, open_runs
    from welcome_sim.analysis.plans import own_files

    runs = open_runs(paths)
    lf = combined(runs)
    by = [c for c in T.CONFIG if c in lf.collect_schema().names()]
    return runs, lf, by, T.balance_tables(lf, by, files=own_files(r.manifest for r in runs))


@command()
def analyze(
    runs: RunDirs,
    format: Annotated[str, typer.Option("--format", "-f", help="table (terminal), csv or json.")] = "table",
    out: Annotated[
        str | None, typer.Option("--out", "-o", help="Folder for csv/json files. [default: RUN/analysis]")
    ] = None,
    charts: Annotated[
        str | None, typer.Option(help="Also write every chart as SVG and PNG into this folder.")
    ] = None,
) -> None:
    """Balance tables of sweep runs: scores, components, plan difficulty, endings, length, refusals, effects.

    Intervals are 95% and clustered by game (the seats of a game share its deal): means
    ±1.96·sd(game means)/√games; rates: Wilson's score interval at the clustered effective size;
    differences: independent samples, and paired over games dealt the same seed (diff_paired with
    paired_low/paired_high). See welcome_sim/analysis/tables.py.
    """
    _check_format(format)
    if out is not None and format == "table":
        raise WelcomeSimError(
            f"--out: {out!r} applies only to --format csv or json (tables go to the terminal)"
        )
    if out is not None and format != "table":
        U.output_dir("--out", out)
    if charts is not None:
        U.output_dir("--charts", charts)
    if format != "table" and out is None and runs and Path(runs[0]).is_dir():
        U.output_dir("--out", Path(runs[0]) / "analysis")  # the default, checked before the work too
    loaded, lf, by, every = _analysis_tables(runs)
    _unfinished_warning(runs)
    folder = None
    if format != "table":  # the default folder lies inside the first run, checked by now
        folder = U.output_dir("--out", out if out is not None else Path(runs[0]) / "analysis")
    named = {k: v for k, v in every.items() if k != "game_length_histogram"}  # a chart's data
    notice = sorted({p for r in loaded for p in r.manifest.get("reconstructed", [])})
    if format == "table":
        for name, df in named.items():
            # The configuration and what names a row (plan, end reason, compared values) label it:
            # each stacked part of a table too wide for the terminal repeats them.
            keys = [c for c in df.columns if c in by or c in ROW_LABELS]
            hidden = print_frame(console, df, title=name.replace("_", " "), keys=keys, max_rows=60)
            if hidden:
                console.print(f"... {hidden} more rows (use --format csv)", highlight=False)
    else:
        folder.mkdir(parents=True, exist_ok=True)
        for name, df in named.items():
            path = folder / f"{name}.{format}"
            df.write_csv(path) if format == "csv" else df.write_json(path)
        console.print(f"wrote {len(named)} {format} files to {folder}", highlight=False)
    if charts:
        from welcome_sim.analysis import charts as C
        from welcome_sim.analysis.labels import titled, titles_of

        with titled(titles_of(r.manifest for r in loaded)):  # variants named by their files' titles
            figures = C.balance_figures(lf, every, by)
        for name, _title, fig in figures:
            C.save(fig, Path(charts) / name)
        console.print(f"wrote {len(figures)} charts (SVG and PNG) to {charts}", highlight=False)
    _reconstructed_notice(notice)
    _changed_plans_notice(loaded)


def _unfinished_warning(paths: list[str]) -> None:
    """One line on stderr per sweep with chunks still to play: its tables hold part of its games."""
    from welcome_sim.sweep import store

    for path in paths:
        manifest = store.read_manifest(Path(path))
        if manifest is None:
            continue
        players = {c["cell"]: c["players"] for c in manifest["cells"]}
        chunks = manifest["chunks"]
        # The files there, not the manifest's status: a chunk written since its last save counts.
        done = sum(
            chunks[cid]["rows"] // players.get(int(cid[1 : cid.index("-g")]), 1)
            for cid in store.chunk_files(Path(path))
            if cid in chunks
        )
        total = manifest["games_per_cell"] * len(manifest["cells"])
        if done < total:
            err.print(
                Text.assemble(
                    ("warning:", "bold yellow"),
                    f" {path}: the sweep is unfinished ({done:,} of {total:,} games played); finish it "
                    f"with the command that started it plus --resume (welcome-sim sweep ... --out {path} "
                    "--resume)",
                ),
                highlight=False,
            )


def _changed_plans_notice(runs) -> None:
    from welcome_sim.analysis.plans import changed_plan_files

    for r in runs:
        changed = changed_plan_files(r.manifest)
        if changed:
            _note(
                f"{r.name}: these plan files differ from the ones the sweep used (a built-in "
                "file's cards are described by today's text, a file of one's own's as unknown): "
                + ", ".join(changed)
            )


@command()
def report(
    runs: RunDirs,
    output: Annotated[str, typer.Option("--output", "-o", help="HTML file to write.")] = "report.html",
    baseline: Annotated[
        str | None,
        typer.Option(
            help="The reference configuration of effects and difficulty, as SETTING=VALUE pairs "
            "(e.g. sheet=blueprint,mode=advanced). Default: the base game (Classic sheet, standard mode, "
            "no expansion, no 9¾ cards, Collector's) where the runs hold it."
        ),
    ] = None,
) -> None:
    """Write one self-contained HTML balance report (charts inlined) for one or more sweep runs.

    Findings first (plain sentences with 95% intervals, stated only when significant), then a
    section per question: difficulty against the base game, scores, components, plans, combinations,
    the AAA, player count, expansions, length, refusals and the effect of each setting."""
    from welcome_sim.reports.builder import build_report

    U.output_file("--output", output)
    _unfinished_warning(runs)
    t0 = time.perf_counter()
    with console.status("analysing and drawing..."):
        info = build_report(runs, output, baseline)
    console.print(
        f"wrote {info['path']} ({info['games']:,} games, {info['configs']} configuration"
        f"{'' if info['configs'] == 1 else 's'}) "
        f"in {time.perf_counter() - t0:.1f} s",
        highlight=False,
    )
    _reconstructed_notice(info["reconstructed"])


@command()
def strategies() -> None:
    """List the strategies and their parameters (set them as NAME:key=value,key=value)."""
    from welcome_sim.strategies.registry import DEFAULT_STRATEGY, all_strategies

    try:
        table_of = all_strategies()
    except WelcomeSimError as exc:
        _fail(exc)
    for name, spec in table_of.items():
        mark = " (default)" if name == DEFAULT_STRATEGY else ""
        console.print(Text.assemble((name, "bold"), f"{mark}: {spec.doc}"), highlight=False)
        if spec.params:
            table = Table(show_header=True, box=None, padding=(0, 2))
            for col in ("parameter", "value", "range", "meaning"):
                table.add_column(col)
            vec = spec.vector()
            for prm in spec.params:
                val = vec[prm.slot]
                changed = "*" if prm.name in spec.values else ""
                table.add_row(prm.name, f"{val:g}{changed}", f"{prm.low:g}..{prm.high:g}", prm.doc)
            console.print(table)
        console.print()
    console.print("* differs from the greedy defaults", highlight=False)
    from welcome_sim.strategies.registry import ladder_levels

    console.print(
        "skill ladder, weakest first: " + ", ".join(ladder_levels()) + " (welcome-sim skill plays it)",
        highlight=False,
    )


def _games_bar(label: str) -> Any:
    """A progress bar of games played, with its ETA, on stderr (tournament, skill)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    return Progress(
        TextColumn(f"[bold]{label}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games  ETA"),
        TimeRemainingColumn(),
        console=err,
    )


FormatOpt = Annotated[
    str,
    typer.Option(
        "--format",
        "-f",
        help="table (terminal), csv or json: every row and column, unformatted, to stdout; the "
        "configuration and notices go to stderr (json holds them too).",
    ),
]


def _check_format(format: str) -> None:
    if format not in ("table", "csv", "json"):
        raise WelcomeSimError(f"--format: {format!r} is not one of table, csv, json")


def _emit(format: str, about: str, reconstructed: list[str], frames: dict[str, Any], extra: dict) -> None:
    """Write result tables to stdout as csv (tables one after another, a blank line between) or
    as one json object; what the terminal would say around them goes to stderr."""
    import json

    err.print(about, highlight=False)
    _reconstructed_notice(reconstructed, err)
    if format == "csv":
        # The label travels with the numbers when stdout goes to a file.
        import polars as pl

        label = ", ".join(reconstructed)
        parts = [df.with_columns(reconstructed_data=pl.lit(label)).write_csv() for df in frames.values()]
        typer.echo("\n".join(parts), nl=False)
    else:
        doc = {
            "configuration": about,
            **extra,
            "reconstructed_data": reconstructed,
            **{name: df.to_dicts() for name, df in frames.items()},
        }
        typer.echo(json.dumps(doc, indent=1, default=str))


@command()
def tournament(
    strategy: StrategyOpt = None,
    games: Annotated[
        int, typer.Option(help="Games per setting (the same seeds for every strategy).")
    ] = 20_000,
    seed: Annotated[int, typer.Option(help="Seed of the game seeds.")] = 1,
    edition: EditionOpt = "collector",
    sheet: SheetOpt = None,
    mixed: Annotated[bool, typer.Option(help="Also play all strategies at one table.")] = True,
    mode: ModeOpt = "standard",
    opponent: OpponentOpt = None,
    expansion: ExpansionOpt = None,
    nine_three_quarters: NineOpt = False,
    deck: DeckOpt = None,
    plans_file: PlansFileOpt = None,
    jobs: JobsOpt = -1,
    format: FormatOpt = "table",
) -> None:
    """Play strategies alone and at one mixed table on common seeds; mean, 95% CI, wins, components."""
    try:
        _check_format(format)
        from welcome_sim.parallel import processes_for
        from welcome_sim.simcore.ruleset import load_ruleset
        from welcome_sim.strategies.registry import parse_strategy
        from welcome_sim.studies.tournament import COMPONENTS
        from welcome_sim.studies.tournament import tournament as run_tournament

        names = strategy or ["greedy", "plan-rusher", "builder", "random"]
        for name in names:
            parse_strategy(name)
        U.check_int("--games", games, 2, U.MAX_BATCH_GAMES, " (at least 2 for an interval)")
        U.check_seed("--seed", seed)
        if mixed and len(names) > 8:
            raise WelcomeSimError(
                f"--strategy: at most 8 at one table, got {len(names)} (--no-mixed plays each alone only)"
            )
        n_jobs = U.check_jobs(jobs, "loky")
        rs = load_ruleset(
            edition,
            sheet,
            plans_file,
            mode=mode,
            opponent=opponent,
            expansion=expansion,
            nine=nine_three_quarters,
            deck=deck,
        )
        from welcome_sim.simcore.table import DEAL_AAA, DEAL_EXPERT, DEAL_SOLO_CARD

        if rs.deal == DEAL_EXPERT and len(names) < 2:
            raise WelcomeSimError(f"--mode {mode}: expert mode needs a table; give 2 or more --strategy")
        mixed = mixed and rs.deal not in (DEAL_AAA, DEAL_SOLO_CARD)
        alone = [[n] for n in names] if rs.deal != DEAL_EXPERT else []
        tables = alone + ([names] if mixed and len(names) > 1 else [])
        settings = len(tables)
        _warm(processes_for(games, n_jobs), _tables_variants(rs.expansion is None, tables))
        with _games_bar("tournament") as bar:
            task = bar.add_task("games", total=games * settings)
            rows = run_tournament(
                rs, names, games, seed, mixed, advance=lambda n: bar.advance(task, n), jobs=n_jobs
            )
    except WelcomeSimError as exc:
        _fail(exc)
    about = f"{rs.describe()}; {games:,} games per setting, seed {seed}"
    if format != "table":
        import polars as pl

        frame = pl.DataFrame(
            [
                {
                    "setting": r.setting,
                    "strategy": r.strategy,
                    "games": r.games,
                    "mean": r.mean,
                    "ci95": r.ci95,
                    "win_rate": r.win_rate,
                    **{c: r.components[c] for c in COMPONENTS},
                    "games_per_second": r.games_per_second,
                }
                for r in rows
            ]
        )
        _emit(format, about, rs.reconstructed, {"tournament": frame}, {"games": games, "seed": seed})
        return
    console.print(about, highlight=False)
    _reconstructed_notice(rs.reconstructed)
    labels = {
        "plan_a": "plan A",
        "plan_b": "plan B",
        "plan_c": "plan C",
        "extension_penalty": "ext. pen.",
        "refusal_penalty": "ref. pen.",
    }
    cols = [
        labels.get(c, c) for c in ("setting", "strategy", "mean", "95% CI", "wins", *COMPONENTS, "games/s")
    ]
    table = []
    for r in rows:
        win = "-" if r.win_rate is None else f"{100 * r.win_rate:.1f}%"
        comps = [f"{r.components[c]:.1f}" for c in COMPONENTS]
        table.append(
            [
                r.setting,
                r.strategy,
                f"{r.mean:.2f}",
                f"±{r.ci95:.2f}",
                win,
                *comps,
                f"{r.games_per_second:,.0f}",
            ]
        )
    print_table(
        console,
        cols,
        table,
        title="tournament (95% CI: normal approximation; shared first places count as wins)",
        keys=["setting", "strategy"],
        words=["setting", "strategy"],
    )


SPREAD = "strongest_minus_weakest"


@command()
def skill(
    games: Annotated[
        int, typer.Option(help="Games per level (the same seeds, so the same deals, for every level).")
    ] = 2_000,
    players: Annotated[
        int, typer.Option("--players", "-p", help="Seats at each table, all of one level.")
    ] = 1,
    level: Annotated[
        list[str] | None,
        typer.Option(
            "--level",
            "-l",
            help="A ladder level or any strategy (NAME or NAME:key=value), weakest first; repeat. "
            "Default: the whole skill ladder (see `welcome-sim strategies`).",
        ),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the game seeds.")] = 1,
    edition: EditionOpt = "collector",
    sheet: SheetOpt = None,
    mode: ModeOpt = "standard",
    opponent: OpponentOpt = None,
    expansion: ExpansionOpt = None,
    nine_three_quarters: NineOpt = False,
    deck: DeckOpt = None,
    plans_file: PlansFileOpt = None,
    top: Annotated[int, typer.Option(help="Plans shown in the plan-by-skill table.")] = 12,
    csv: Annotated[
        Path | None,
        typer.Option(
            help="Also write each game's mean seat score per level to this CSV file (one row a deal)."
        ),
    ] = None,
    jobs: JobsOpt = -1,
    format: FormatOpt = "table",
) -> None:
    """Play the skill ladder on common deals: score per level, how much of the spread of scores is
    deck luck and how much decision skill, and which plans only strong players complete.

    Each level plays the same games (seeds) at a table of --players seats of that level. The split
    is a two-way analysis of variance of each game's mean seat score over (deal, level), with
    bootstrap intervals over deals: see welcome_sim/studies/skill.py for the method."""
    from welcome_sim.parallel import processes_for
    from welcome_sim.simcore.game import check_mode_players, check_players
    from welcome_sim.simcore.ruleset import load_ruleset
    from welcome_sim.strategies.registry import ladder_levels, parse_strategy
    from welcome_sim.studies.skill import monotone, play_ladder, skill_plans

    _check_format(format)
    names = level or ladder_levels()
    for name in names:
        try:
            parse_strategy(name)
        except WelcomeSimError as exc:
            raise WelcomeSimError(str(exc).replace("--strategy:", "--level:", 1)) from None
    if len(names) < 2:
        raise WelcomeSimError(f"--level: give at least 2 levels to compare, got {len(names)}")
    twice = sorted({n for n in names if names.count(n) > 1} | ({"game"} & set(names)))
    if twice:
        raise WelcomeSimError(f"--level: {', '.join(twice)} given twice (or named 'game'); each level once")
    U.check_int("--top", top, 0, 1000)
    U.check_int("--games", games, 2, U.MAX_BATCH_GAMES, " (at least 2 for an interval)")
    U.check_seed("--seed", seed)
    check_players(players)
    n_jobs = U.check_jobs(jobs, "loky")
    if csv is not None:  # before the ladder is played, not after
        U.output_file("--csv", str(csv))
    rs = load_ruleset(
        edition,
        sheet,
        plans_file,
        mode=mode,
        opponent=opponent,
        expansion=expansion,
        nine=nine_three_quarters,
        deck=deck,
    )
    check_mode_players(rs, players)
    _warm(
        processes_for(games, n_jobs), _tables_variants(rs.expansion is None, [[n] * players for n in names])
    )
    with _games_bar("skill") as bar:
        task = bar.add_task("games", total=games * len(names))
        rows, split, y = play_ladder(
            rs, names, games, seed, players, n_jobs, advance=lambda n: bar.advance(task, n)
        )
    about = f"{rs.describe()}; {players} player(s) per table, all of one level; {games:,} common deals, seed {seed}"
    out = console if format == "table" else err  # csv and json own stdout
    if format == "table":
        console.print(about, highlight=False)
        _reconstructed_notice(rs.reconstructed)
        print_table(
            console,
            ["level", "mean", "95% CI", "winner", "plans/seat", "all 3", "games/s"],
            [
                [
                    r.name,
                    f"{r.mean:.2f}",
                    f"[{r.mean - r.ci95:.2f}, {r.mean + r.ci95:.2f}]",
                    f"{r.winner_mean:.1f} ± {r.winner_ci95:.1f}",
                    f"{r.plans:.2f}",
                    f"{100 * r.all_three:.1f}%",
                    f"{r.games_per_second:,.0f}",
                ]
                for r in rows
            ],
            title="the ladder (95% CI clustered by game)",
            keys=["level"],
            words=["level"],
        )
    if csv is not None:
        import polars as pl

        frame = pl.DataFrame({"game": list(range(games)), **{n: y[:, i] for i, n in enumerate(names)}})
        try:
            frame.write_csv(csv)
        except OSError as exc:
            raise WelcomeSimError(f"--csv: cannot write {csv}: {exc.strerror or exc}") from None
        out.print(f"each game's mean seat score per level written to {csv}", highlight=False)
    out.print(
        f"luck and skill: of the variance of one game's {'score' if players == 1 else 'mean seat score'} "
        f"over {games:,} deals x {len(names)} levels, "
        f"{100 * split.luck:.0f}% is the deal (luck, 95% CI {100 * split.luck_ci[0]:.0f}-"
        f"{100 * split.luck_ci[1]:.0f}%), {100 * split.skill:.0f}% the level (skill, "
        f"{100 * split.skill_ci[0]:.0f}-{100 * split.skill_ci[1]:.0f}%), {100 * split.rest:.0f}% the "
        f"rest (how levels fare differently on one deal, and decision noise; "
        f"{100 * split.rest_ci[0]:.0f}-{100 * split.rest_ci[1]:.0f}%). Method: variance components of a "
        "two-way ANOVA of each game's mean seat score over (deal, level); bootstrap over deals. "
        f"At one level, the deal makes {100 * split.within:.0f}% of the spread of scores "
        f"({100 * split.within_ci[0]:.0f}-{100 * split.within_ci[1]:.0f}%), the player's own choices the rest.",
        highlight=False,
    )
    bad = monotone(names, y)
    if bad:
        out.print(
            Text.assemble(("note:", "yellow"), " ", "the ladder is NOT monotone here: " + "; ".join(bad))
        )
    else:
        out.print("the ladder is monotone here: every level scores more than the one below on the same deals")
    plans = skill_plans(rows)
    if format != "table":
        import polars as pl

        ladder = pl.DataFrame(
            [
                {
                    "level": r.name,
                    "games": r.games,
                    "players": r.players,
                    "mean": r.mean,
                    "ci95": r.ci95,
                    "winner_mean": r.winner_mean,
                    "winner_ci95": r.winner_ci95,
                    "plans_per_seat": r.plans,
                    "all_three": r.all_three,
                    "games_per_second": r.games_per_second,
                }
                for r in rows
            ]
        )
        # A level may be named "spread" (a strategy): the spread column gets a longer name.
        by_plan = pl.DataFrame(
            [
                {"plan": pid, **dict(zip(names, rates, strict=True)), SPREAD: spread}
                for pid, rates, spread in plans
            ],
            schema={"plan": pl.String, **{n: pl.Float64 for n in names}, SPREAD: pl.Float64},
        )
        shares = {
            k: {"share": getattr(split, k), "ci95": list(getattr(split, f"{k}_ci"))}
            for k in ("luck", "skill", "rest", "within")
        }
        frames = {"ladder": ladder, "plans": by_plan}
        extra = {"games": games, "seed": seed, "luck_skill": shares, "not_monotone": bad}
        _emit(format, about, rs.reconstructed, frames, extra)
        return
    if plans:
        levels = [r.name for r in rows]
        print_table(
            console,
            ["plan", *levels, "spread"],
            [
                [pid, *(f"{100 * x:.0f}%" for x in rates), f"{100 * spread:+.0f} pts"]
                for pid, rates, spread in plans[:top]
            ],
            title=f"plan validation rate by level (the {min(top, len(plans))} plans where skill matters most)",
            keys=["plan"],
            left=["plan"],
        )
    else:
        console.print("plan validation by level: no plan was in play for 30 seats or more; play more games")


@command()
def difficulty(
    games: Annotated[
        int, typer.Option(help="Games per item and level (the same deals for every item and level).")
    ] = 2_000,
    players: Annotated[
        list[str] | None,
        typer.Option(
            "--players",
            "-p",
            help="Player counts to rank at, each a ranking of its own: repeat, or a list 2,4 or a range 1-4 "
            "(solo modes play 1, expert modes at least 2). [default: 2 and 4: where every race has a rival]",
        ),
    ] = None,
    reference: Annotated[
        str, typer.Option(help="The player whose difficulty is measured: a ladder level or strategy.")
    ] = "casual",
    expert: Annotated[
        str, typer.Option(help="The stronger player of the skill gap: a ladder level or strategy.")
    ] = "expert",
    seed: Annotated[int, typer.Option(help="Seed of the game seeds.")] = 1,
    edition: EditionOpt = "collector",
    format: Annotated[str, typer.Option("--format", "-f", help="table (terminal), csv or json.")] = "table",
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="With --format csv/json: write here, not to stdout.")
    ] = None,
    charts: Annotated[
        str | None,
        typer.Option(help="Also draw the ranking as difficulty.svg and difficulty.png in this folder."),
    ] = None,
    jobs: JobsOpt = -1,
    measures: Annotated[
        str | None,
        typer.Option(
            help="Also measure, beside the index and not in it: race (a race expansion's own points lost to "
            "rivals: each expansion alone too). Method: welcome_sim/analysis/difficulty_own.py."
        ),
    ] = None,
    robustness: Annotated[
        bool,
        typer.Option(
            "--robustness",
            help="Also say whether each expansion's rank holds when its reconstructed values vary (Plan C "
            "scores x0.7 and x1.3, two other layouts): 4 more runs per expansion. Method: "
            "welcome_sim/analysis/robustness.py.",
        ),
    ] = False,
) -> None:
    """Rank every sheet, expansion, mode and the 9¾ cards by a difficulty index, beside the
    publisher's stars, with the rank agreement (Spearman's rho) and where they disagree.

    Each item and its base game (Classic sheet, standard mode, no expansion, no 9¾ cards, the same
    players) are played by --reference, --expert and --reference blind to what the item adds (its
    parameter blind=1) on the same seeds, at each player count
    (default 2 and 4: alone, a player wins every race of Ice Cream, Halloween, Doomsday, Quack and the
    American Dream; such items are marked † at 1 player). Net points: what --reference loses (−) or
    gains against the base game, net of the expansion's own points. The index (SDs) averages three
    components in base-game standard deviations of the net score (positive = harder): the net points
    lost, the skill gap (expert minus reference) and the blind cost (what a player blind to the
    item's own rules loses), each against the base game. An expansion whose points replace the scoring is compared apart.
    Intervals: 95%, bootstrap over deals. Method: welcome_sim/analysis/difficulty.py.

    Examples: welcome-sim difficulty --games 1000; welcome-sim difficulty --players 1 --format csv -o d.csv"""
    import polars as pl

    from welcome_sim.analysis import difficulty as D
    from welcome_sim.analysis import difficulty_own as OWN
    from welcome_sim.analysis.difficulty_games import plan, play
    from welcome_sim.parallel import processes_for
    from welcome_sim.simcore.game import check_players
    from welcome_sim.strategies.registry import parse_strategy
    from welcome_sim.sweep.config import parse_players

    _check_format(format)
    if out is not None and format == "table":
        raise WelcomeSimError(f"--out: {str(out)!r} applies only to --format csv or json")
    kinds = OWN.parse_measures(measures)
    for option, name in (("--reference", reference), ("--expert", expert)):
        try:
            parse_strategy(name)
        except WelcomeSimError as exc:
            raise WelcomeSimError(str(exc).replace("--strategy:", f"{option}:", 1)) from None
    if reference == expert:
        raise WelcomeSimError(f"--expert: {expert!r} is also the --reference; give a stronger player")
    U.check_int(
        "--games", games, D.MIN_DEALS, U.MAX_BATCH_GAMES, f" (an item needs {D.MIN_DEALS} deals to be ranked)"
    )
    U.check_seed("--seed", seed)
    if out is not None:
        U.output_file("--out", str(out))
    if charts is not None:
        U.output_dir("--charts", charts)
    n_jobs = U.check_jobs(jobs, "loky")
    counts = parse_players(players or ["2", "4"])
    for n in counts:
        check_players(n)
    # Every player count's items on the same deals; a spec shared by counts (the solo modes' items
    # and their 1-player base game) is played once.
    specs: dict[str, Any] = {}
    items_of: dict[int, list] = {}
    for n in counts:
        found, items_of[n] = plan(edition, n)
        specs.update((s.label, s) for s in found)
    levels = [reference, expert]
    blind = D.blind_of(reference)
    extra = OWN.extra_specs(list(specs.values()), kinds)
    wanted = set().union(
        *(
            _tables_variants(s.expansion is None, [[v] * s.players for v in [*levels, blind]])
            for s in [*specs.values(), *extra]
        )
    )
    _warm(processes_for(games, n_jobs), wanted)
    with _games_bar("difficulty") as bar:
        more = OWN.games_needed(list(specs.values()), levels, games, kinds)
        task = bar.add_task("games", total=games * (len(levels) + 1) * len(specs) + more)
        deals = play(
            list(specs.values()),
            [*levels, blind],
            edition,
            games,
            seed,
            n_jobs,
            advance=lambda k: bar.advance(task, k),
        )
        if kinds:
            alone = OWN.play_all(
                list(specs.values()),
                levels,
                edition,
                games,
                seed,
                kinds,
                n_jobs,
                lambda k: bar.advance(task, k),
            )
            if alone is not None:
                deals = pl.concat([deals, alone])
    rankings = {n: D.rank(deals, items_of[n], reference, expert, seed=seed, blind=blind) for n in counts}
    own = {
        n: OWN.measures(deals, specs, [r.item.label for r in [*rk.rows, *rk.apart]], levels, kinds, seed=seed)
        for n, rk in rankings.items()
        if kinds
    }
    for n, ranking in rankings.items():
        if not ranking.rows:
            raise WelcomeSimError(
                f"difficulty: no item could be ranked at {n} player{'s' if n > 1 else ''} ("
                + "; ".join(ranking.dropped or ["no item"])
                + "); play more --games"
            )
    verdicts = (
        _robustness(specs, counts, items_of, rankings, deals, levels, edition, games, seed, n_jobs)
        if robustness
        else {}
    )
    if charts is not None:
        _difficulty_charts(rankings, charts)
    recon = sorted({p for s in specs.values() for p in s.ruleset(edition).reconstructed})
    if format != "table":
        frames = []
        for n, ranking in rankings.items():
            frame = D.table(ranking)
            if robustness:
                from welcome_sim.analysis.robustness import with_columns

                frame = with_columns(frame, verdicts, n)
            if ranking.apart:  # unranked rows (no rank, no index) after the ranked ones
                frame = pl.concat([frame, D.apart_table(ranking)], how="diagonal_relaxed")
            if n in own:  # beside the index, not in it
                frame = frame.join(OWN.frame(own[n]), on="item", how="left", maintain_order="left")
            frames.append(frame.select(pl.lit(n).alias("ranked_at_players"), pl.all()))
        frame = pl.concat(frames, how="diagonal_relaxed")
        text = frame.write_csv() if format == "csv" else frame.write_json()
        if out is None:
            print(text, end="" if text.endswith("\n") else "\n")
        else:
            out.write_text(text, encoding="utf-8")
            err.print(f"wrote {out}", highlight=False)
        # The rows' `reconstructed` column marks only what an item adds to its base game; the notice,
        # on stderr so the csv or json stays clean, names every reconstructed file the games used.
        for ranking in rankings.values():
            for name in ranking.dropped:
                _note("left out: " + name, err)
        _reconstructed_notice(recon, err)
        return
    console.print(
        f"{games:,} common deals per item and level, seed {seed}, edition {edition}; reference player "
        f"{reference}, skill gap to {expert}; ranked at "
        + " and ".join(f"{n} player{'s' if n > 1 else ''}" for n in counts),
        highlight=False,
    )
    for n, ranking in rankings.items():
        _show_ranking(ranking, n, reference, verdicts if robustness else None)
        if n in own:
            OWN.show(console, own[n], [r.item.label for r in [*ranking.rows, *ranking.apart]], levels)
    _reconstructed_notice(recon)


def _robustness(
    specs: dict, counts: list[int], items_of: dict, rankings: dict, deals: Any, levels: list[str], *args: Any
) -> dict:
    """`difficulty --robustness`: each expansion's variants played on the same deals, with a bar."""
    import tempfile

    from welcome_sim.analysis import difficulty as D
    from welcome_sim.analysis import robustness as R

    edition, games, seed, n_jobs = args
    with tempfile.TemporaryDirectory(prefix="welcome-robustness-") as folder:
        planned = R.plan_variants(list(specs.values()), counts, folder)
        with _games_bar("robustness") as bar:
            task = bar.add_task(
                "games", total=R.games_needed(planned, [*levels, D.blind_of(levels[0])], games)
            )
            return R.measure(
                planned,
                deals,
                items_of,
                rankings,
                (levels[0], levels[1], D.blind_of(levels[0])),
                edition,
                games,
                seed,
                n_jobs,
                advance=lambda k: bar.advance(task, k),
            )


def _difficulty_charts(rankings: dict[int, Any], charts: str) -> None:
    """Each player count's ranking as difficulty.svg/.png (one count) or difficulty-Np.svg/.png."""
    import polars as pl

    from welcome_sim.analysis import charts as C
    from welcome_sim.analysis import difficulty as D

    for n, ranking in rankings.items():
        drawn = D.table(ranking).select(
            "item",
            "index",
            pl.col("index_low").alias("ci_low"),
            pl.col("index_high").alias("ci_high"),
            pl.col("publisher_stars").alias("stars"),
        )
        name = Path(charts) / ("difficulty" if len(rankings) == 1 else f"difficulty-{n}p")
        try:
            C.save(C.difficulty_chart(drawn), name)
        except OSError as exc:
            raise WelcomeSimError(f"--charts: cannot write into {charts}: {exc.strerror or exc}") from None
        err.print(f"wrote {name}.svg and .png", highlight=False)


def _show_ranking(ranking: Any, n: int, reference: str, verdicts: dict | None = None) -> None:
    """One player count's ranking in the terminal: the table, the items compared apart, sentences
    (with --robustness, each expansion's verdict in a last column)."""
    from welcome_sim.analysis import difficulty as D

    headers = (
        "rank",
        "item",
        "stars",
        "net points",
        "index (SDs)",
        "score",
        "refusals",
        "plans",
        "skill gap",
        "blind cost",
        "rounds",
    )

    def cell(r: D.Row, m: str, fmt: str = "{:+.2f}") -> str:
        v = r.raw.get(m)
        return "–" if v is None else f"{fmt.format(v[0])} [{fmt.format(v[1])}, {fmt.format(v[2])}]"

    rows = [
        (
            f"{r.rank} ({r.rank_ci[0]}-{r.rank_ci[1]})",
            # The marks stay with the label: * reconstructed data, † a race with no rival.
            r.item.label
            + ("\u00a0*" if r.item.reconstructed else "")
            + ("\u00a0†" if r.item.lone_race else ""),
            D.stars_text(r.item.stars),
            cell(r, "net_score", "{:+.1f}"),
            f"{r.index:+.2f} [{r.index_ci[0]:+.2f}, {r.index_ci[1]:+.2f}]",
            cell(r, "score", "{:+.1f}"),
            cell(r, "refusals"),
            cell(r, "plans"),
            cell(r, "skill", "{:+.1f}"),
            cell(r, "blind", "{:+.1f}"),
            cell(r, "rounds", "{:+.1f}"),
        )
        for r in ranking.rows
    ]
    if verdicts is not None:
        headers = (*headers, "reconstruction")
        rows = [
            (*row, verdicts[(n, r.item.label)].text if (n, r.item.label) in verdicts else "–")
            for row, r in zip(rows, ranking.rows, strict=True)
        ]
    console.print()
    print_table(
        console,
        headers,
        rows,
        title=f"difficulty at {n} player{'s' if n > 1 else ''} against the base game (index: + harder; 95% "
        "bootstrap intervals)",
        keys=("rank", "item"),
        words=("item", "stars"),
        left=("item", "stars"),
        drop_constant=False,
    )
    console.print(
        f"columns: item − base game on the same deals, in their own units (net points: the {reference} "
        "player's final score without the expansion's own points, negative = points lost; index: the net points "
        "lost, the skill gap and the blind cost averaged in base-game standard deviations (SDs) of the net score, "
        "+ harder; score: the final score with its own points; refusals and plans per player; skill gap: "
        "expert − reference, in points; blind cost: reference − the same player blind to what the item adds "
        "(blind=1), in points with its own points; rounds: game length). rank (a-b): 1 = hardest, a-b holds 95% of the bootstrap ranks. "
        "* played with reconstructed data."
        + (f" † {D.LONE_RACE}." if any(r.item.lone_race for r in ranking.rows) else ""),
        highlight=False,
    )
    if verdicts is not None:
        console.print(
            "reconstruction: whether the expansion's rank stays within its rank interval (a-b) when its "
            "reconstructed values vary: its Plan C scores x0.7 and x1.3, and where its layout is reconstructed, "
            "each street's marks mirrored and re-drawn at random (seed 38) under the rules text's constraints; "
            "the same deals (welcome_sim/analysis/robustness.py).",
            highlight=False,
        )
    if ranking.apart:
        print_table(
            console,
            ("item", "stars", "refusals", "plans", "skill gap", "rounds"),
            [
                (
                    r.item.label + ("\u00a0*" if r.item.reconstructed else ""),
                    D.stars_text(r.item.stars),
                    cell(r, "refusals"),
                    cell(r, "plans"),
                    cell(r, "skill", "{:+.1f}"),
                    cell(r, "rounds", "{:+.1f}"),
                )
                for r in ranking.apart
            ],
            title="compared apart: its own points replace the base game's scoring (not ranked on score)",
            keys=("item",),
            words=("item", "stars"),
            left=("item", "stars"),
            drop_constant=False,
        )
    for sentence in ranking.sentences:
        console.print("- " + sentence, highlight=False)
    for name in ranking.dropped:
        _note("left out: " + name)


@command()
def tune(
    strategy: Annotated[
        str, typer.Option("--strategy", "-s", help="Strategy whose weights to search.")
    ] = "greedy",
    name: Annotated[
        str | None,
        typer.Option(
            help="Name of the parameter set to write (letters, digits, - and _; not a built-in name). "
            "[default: my-tuned]"
        ),
    ] = None,
    games: Annotated[int, typer.Option(help="Single-player games per evaluation (common seeds).")] = 2000,
    sweeps: Annotated[int, typer.Option(help="Coordinate-search sweeps (the step halves each sweep).")] = 3,
    step: Annotated[float, typer.Option(help="Relative step of the first sweep.")] = 0.3,
    seed: Annotated[int, typer.Option(help="Seed of the tuning games (hold-out games use another).")] = 1,
    edition: EditionOpt = "collector",
    sheet: SheetOpt = None,
    mode: ModeOpt = "standard",
    opponent: OpponentOpt = None,
    expansion: ExpansionOpt = None,
    write: Annotated[
        bool,
        typer.Option(help="Write the best set to tuned.toml in your user data folder (see the README)."),
    ] = True,
    jobs: JobsOpt = -1,
) -> None:
    """Search a strategy's weights by coordinate search on common seeds; save the best as a named set.

    The games are single-player games of the ruleset given (a sheet, a 1-player mode, an expansion),
    so a set can be tuned for the game it will play; the set written says which."""
    try:
        from welcome_sim.parallel import processes_for
        from welcome_sim.simcore.game import check_mode_players
        from welcome_sim.simcore.ruleset import load_ruleset
        from welcome_sim.strategies.registry import (
            BUILTINS,
            builtin_strategies,
            parse_strategy,
            user_tuned_file,
        )
        from welcome_sim.studies.tuning import coordinate_search, write_tuned

        if name is not None and not write:
            raise WelcomeSimError(
                f"--name: {name!r} names the set to write; it does not apply with --no-write"
            )
        set_name = U.check_name("--name", name if name is not None else "my-tuned", builtin_strategies())
        U.check_int("--games", games, 10, U.MAX_BATCH_GAMES, " games per evaluation")
        U.check_int("--sweeps", sweeps, 0, 50)
        U.check_float("--step", step, 0.0, 1.0, open_low=True)
        U.check_seed("--seed", seed)
        n_jobs = U.check_jobs(jobs, "loky")
        if write:
            U.output_dir("--name", user_tuned_file().parent)
        rs = load_ruleset(edition, sheet, mode=mode, opponent=opponent, expansion=expansion)
        try:
            check_mode_players(rs, 1)
        except WelcomeSimError:
            raise WelcomeSimError(
                f"--mode: '{mode}' needs a table; tune plays single-player games: standard, advanced, "
                "solo or solo-advanced"
            ) from None
        base = parse_strategy(strategy)
        # The look-ahead's parameters are choices, never searched: one variant for every trial.
        _warm(processes_for(games, n_jobs), _tables_variants(rs.expansion is None, [[strategy]]))
        res = coordinate_search(
            rs,
            strategy,
            games,
            seed,
            sweeps,
            step,
            progress=lambda m: err.print(m, highlight=False),
            jobs=n_jobs,
        )
    except WelcomeSimError as exc:
        _fail(exc)
    console.print(f"{rs.describe()}; 1 player", highlight=False)
    _reconstructed_notice(rs.reconstructed)
    print_table(
        console,
        ["parameter", "start", "best"],
        [[key, f"{res.start[key]:g}", f"{val:.4g}"] for key, val in res.best.items()],
        title=f"tuning {strategy} ({res.evaluations} evaluations of {games:,} games)",
        keys=["parameter"],
        drop_constant=False,  # a parameter the search left alone is still part of the answer
    )
    console.print(
        f"mean score on the tuning seeds: {res.start_mean:.2f} -> {res.best_mean:.2f}; "
        f"on fresh hold-out seeds: {res.holdout_start:.2f} -> {res.holdout_best:.2f}",
        highlight=False,
    )
    if write:
        # What the games were, so a set tuned for one game is not taken for another's.
        played = [rs.edition.name]
        if sheet is not None:
            played.append(f"sheet {rs.sheet_label}")
        if rs.mode != "standard":
            played.append(f"mode {rs.mode}")
        if rs.opponent is not None:
            played.append(f"AAA level {rs.opponent.level}")
        if rs.expansion is not None:
            played.append(f"expansion {rs.expansion_label}")
        doc = (
            f"{base.spec.name} tuned by coordinate search ({games} games x {sweeps} sweeps, seed {seed}, "
            f"{', '.join(played)})"
        )
        family = base.spec.name if base.spec.name in BUILTINS else "greedy"
        path = write_tuned(set_name, family, res.best, doc)
        console.print(
            f"wrote parameter set '{set_name}' to {path}; use --strategy {set_name}", highlight=False
        )


data_app = typer.Typer(
    help="Rules data files: list the shipped ones (`welcome-sim data`), copy one to start a variant, or "
    "upgrade a file whose positions count from 0.",
    invoke_without_command=True,
    add_completion=False,
)
app.add_typer(data_app, name="data")


@data_app.callback()
def data(ctx: typer.Context) -> None:
    """List every shipped rules data file with its provenance and source, then every plan card.

    The list is the folder simcore/data itself, so a new file shows up without a code change.
    Plan cards carry their own provenance: a reconstructed card says why, an invented one (made up
    to fill a set) is marked. `welcome-sim data copy NAME [DEST]` starts a variant from one of them;
    `welcome-sim data upgrade FILE` converts a file whose positions count from 0 (they count from 1).
    """
    if ctx.invoked_subcommand is None:
        try:
            _list_data()
        except WelcomeSimError as exc:
            _fail(exc)


@command("copy", on=data_app)
def data_copy(
    name: Annotated[
        str,
        typer.Argument(
            metavar="NAME",
            help="A built-in sheet, deck, plan set or expansion (e.g. classic, collector_standard, zombies), "
            "or KIND/NAME (sheets/classic).",
        ),
    ],
    dest: Annotated[
        str | None,
        typer.Argument(
            metavar="DEST", help="The copy's path, or a folder for NAME.toml; default ./NAME.toml."
        ),
    ] = None,
    force: Annotated[bool, typer.Option(help="Overwrite DEST if it exists.")] = False,
) -> None:
    """Copy a built-in data file to start a variant of one's own: change its values, then sweep
    it against the original.

    The copy keeps the file's comments, names the built-in it came from (based_on) and gets its
    own title, which the report uses to name the variant.

    Examples: welcome-sim data copy collector_standard mine.toml; welcome-sim data copy zombies
    """
    from welcome_sim.datacopy import copy

    done = copy(name, dest, force)
    console.print(
        f"wrote {done.path}: a copy of {done.kind}/{done.name}.toml. Change its values, then compare it "
        f"with the original: welcome-sim sweep {done.option} {done.name} {done.option} {done.path} --out runs/mine "
        "&& welcome-sim report runs/mine",
        highlight=False,
        soft_wrap=True,
    )


@command("upgrade", on=data_app)
def data_upgrade(
    file: Annotated[
        str,
        typer.Argument(
            metavar="FILE",
            help="A sheet, plan set or expansion file of one's own written when positions counted from 0.",
        ),
    ],
) -> None:
    """Rewrite a data file whose street and house positions count from 0 (files written before
    they counted from 1) so they count from 1, as `sheet show` draws them.

    Adds 1 to every street, house and column position (a plan's `street = -1`, any street, is
    left out instead), keeps the comments, adds the line positions = "from 1", and keeps the
    original as FILE.bak. Check the result with `welcome-sim sheet show` or a short `play`.
    """
    from welcome_sim.dataupgrade import upgrade

    done = upgrade(file)
    console.print(
        f"rewrote {done.path} ({done.kind}): {done.moved} position{'s' if done.moved != 1 else ''} now "
        f"count from 1 (its comments are as they were: check any that count from 0); the original is "
        f"{done.backup}",
        highlight=False,
        soft_wrap=True,
    )


def _list_data() -> None:
    """The `data` listing: every shipped data file, then every plan card."""
    from welcome_sim.catalogue import describe_file, shipped_files
    from welcome_sim.plantext import plan_label, requirement
    from welcome_sim.simcore.ruleset import display_path

    try:
        files = [describe_file(p) for p in shipped_files()]
    except WelcomeSimError as exc:
        _fail(exc)

    def tag(prov: str, extra: str = "") -> Text:
        return Text.assemble((prov, "yellow" if prov == "reconstructed" else "green"), extra)

    cols = ["kind", "name", "title", "provenance", "source", "path"]
    print_table(
        console,
        cols,
        [[f.kind, f.name, f.title, tag(f.provenance), f.source, display_path(str(f.path))] for f in files],
        title=f"rules data: {len(files)} files (simcore/data)",
        keys=["kind", "name"],
        words=cols,
        left=cols,
        drop_constant=False,  # every file's provenance stays on its own row
    )
    cols = ["file", "plan", "requirement", "first", "later", "provenance", "note"]
    cards = [
        [
            display_path(str(f.path)),
            plan_label(p),
            requirement(p),
            str(p.first),
            str(p.later),
            tag(p.provenance, " (invented)" if p.invented else ""),
            p.note,
        ]
        for f in files
        for p in f.plans
    ]
    print_table(
        console,
        cols,
        cards,
        title="plan cards (per card: provenance, and what is reconstructed)",
        keys=["file", "plan"],
        words=["file", "plan", "requirement", "provenance", "note"],
        left=cols,
        drop_constant=False,
    )


sheet_app = typer.Typer(
    help="Score sheets: draw one's layout and score tracks.", no_args_is_help=True, add_completion=False
)
app.add_typer(sheet_app, name="sheet")


@command("show", on=sheet_app)
def sheet_show(
    sheet: Annotated[
        str,
        typer.Argument(
            metavar="NAME|PATH",
            help="A built-in sheet (classic, blueprint, american_dream) or a path to a sheet .toml file.",
        ),
    ],
) -> None:
    """Draw a sheet: streets, houses, pools and every score track, with provenance and sha256.

    Streets and houses are numbered from 1 as in the file: its `pools = [3, 7, 8]` are the
    houses drawn 3, 7 and 8. The first 8 hex digits of the sha256 label a sheet file of one's own
    in every output."""
    from welcome_sim.simcore.datafiles import load_sheet
    from welcome_sim.simcore.ruleset import data_label, display_path, file_sha256, is_builtin
    from welcome_sim.textview import render_layout

    U.check_nonempty("NAME|PATH", sheet, "a built-in sheet name or a path to a sheet .toml file")
    sh = load_sheet(sheet)
    prov_style = "yellow" if sh.provenance == "reconstructed" else "green"
    console.print(
        Text.assemble(
            (f"sheet {data_label(sh)}", "bold"), f": {sh.title}; provenance ", (sh.provenance, prov_style)
        ),
        highlight=False,
    )
    where = "built-in" if is_builtin(sh.path) else "a file of one's own"
    console.print(f"file: {display_path(sh.path)} ({where}); sha256 {file_sha256(sh.path)}", highlight=False)
    if sh.based_on:
        console.print(f"based on: the built-in sheet {sh.based_on}", highlight=False)
    offsets = families = None
    if sh.expansion:
        # An expansion's own sheet (the American Dream's): its data file places the streets under
        # columns and gives each house a family.
        from welcome_sim.expansions import load_expansion

        x = load_expansion(sh.expansion)
        if "column_offsets" in x.data:
            houses = x.data["houses"]
            if [len(row) for row in houses] != [st.houses for st in sh.streets]:
                console.print(
                    f"(the {sh.expansion} expansion's columns are laid out for its own sheet, not this "
                    "one's streets: drawn without them)",
                    highlight=False,
                )
            else:
                offsets = x.data["column_offsets"]
                families = [[x.data["families"][c] for c in row] for row in houses]
                console.print(
                    Text.assemble(
                        f"columns and families: {display_path(x.path)}; provenance ",
                        (x.provenance, "yellow" if x.provenance == "reconstructed" else "green"),
                        f" ({x.data['source']})" if "source" in x.data else "",
                    ),
                    highlight=False,
                )
    console.print()
    for line in render_layout(sh, offsets, families):
        console.print(line, highlight=False)


def version_callback(value: bool) -> None:
    if value:
        console.print(f"welcome-sim {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[
        bool, typer.Option("--version", callback=version_callback, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """Monte Carlo balance analysis for Welcome To... Your Perfect Home."""


if __name__ == "__main__":  # pragma: no cover
    sys.exit(app(prog_name="welcome-sim"))
