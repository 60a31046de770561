"""What every command shares: the consoles, the options of a ruleset, the one-line error, notes,
the kernel warm-up, progress bars and csv/json output, and how a command is made."""

from __future__ import annotations

import contextlib
import functools
import inspect
import sys
import time
from collections.abc import Callable, Iterator
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.text import Text
from typer.core import TyperCommand, TyperOption

from welcome_sim.commands import names
from welcome_sim.errors import WelcomeSimError
from welcome_sim.termtables import env_columns

# soft_wrap: sheets and tables must never be folded when output is piped to a file.
# markup=False: every string is printed literally (names, paths and values a user typed or a data
# file holds may contain '[...]'); styles are given as Text or style=, never as markup.
console = Console(soft_wrap=True, markup=False)
if not console.is_terminal:  # piped or captured: lay tables out wide (or at $COLUMNS), not at 80
    console = Console(soft_wrap=True, width=env_columns() or 240, markup=False)
err = Console(stderr=True, soft_wrap=True, markup=False)


def named(option: str, resolver: Callable[[str, str], str]) -> Callable[[Any], Any]:
    """A typer callback resolving an option's name (names.py: any case, '-', '_' or spaces) or each
    value of a repeated option; an unknown name is the one-line error, before the command runs."""

    def check(value: Any) -> Any:
        try:
            if value is None:
                return None
            if isinstance(value, (list, tuple)):
                return [resolver(option, v) for v in value]
            return resolver(option, value)
        except WelcomeSimError as exc:
            fail(exc)

    return check


# Panels of --help, in the order commands declare their options: what is played, who plays it,
# how the games are run, where the results go.
GAME, PLAYERS, RUN, OUTPUT = "Game", "Players", "Run", "Output"

EditionOpt = Annotated[
    str,
    typer.Option(
        "--edition",
        "-e",
        help="collector (2023) or first (2018).",
        rich_help_panel=GAME,
        callback=named("--edition", names.builtin("editions")),
    ),
]
SheetOpt = Annotated[
    str | None,
    typer.Option(
        "--sheet",
        help="classic, blueprint, american_dream, or a sheet .toml file.",
        rich_help_panel=GAME,
        callback=named("--sheet", names.builtin("sheets")),
    ),
]
ModeOpt = Annotated[
    str,
    typer.Option(
        "--mode",
        "-m",
        help="standard, advanced, expert, expert-advanced, solo or solo-advanced.",
        rich_help_panel=GAME,
        callback=named("--mode", names.mode),
    ),
]
OpponentOpt = Annotated[
    str | None,
    typer.Option(
        "--opponent",
        help="Solo mode's AAA Opponent card: level 0-5 or name. [default: 0]",
        rich_help_panel=GAME,
    ),
]
ExpansionOpt = Annotated[
    str | None,
    typer.Option(
        "--expansion",
        "-x",
        help=", ".join(names.expansion_choices()) + ", or a copy of its .toml file. [default: none]",
        rich_help_panel=GAME,
        callback=named("--expansion", names.expansion),
    ),
]
NineOpt = Annotated[
    bool,
    typer.Option("--nine-three-quarters", help="Add the three 9¾ cards to the deck.", rich_help_panel=GAME),
]
DeckOpt = Annotated[
    str | None,
    typer.Option(
        "--deck",
        help="collector, first, or a deck .toml file. [default: the edition's]",
        rich_help_panel=GAME,
        callback=named("--deck", names.builtin("decks")),
    ),
]
PlansFileOpt = Annotated[
    str | None,
    typer.Option(
        "--plans-file",
        help="Standard plan cards: a built-in set or a .toml file. [default: the edition's]",
        rich_help_panel=GAME,
        callback=named("--plans-file", names.builtin("plans")),
    ),
]
StrategyOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--strategy",
        "-s",
        help="NAME or NAME:key=value (see `welcome-sim strategies`); repeat per seat. [default: greedy]",
        rich_help_panel=PLAYERS,
        callback=named("--strategy", names.strategy),
    ),
]


JobsOpt = Annotated[
    int,
    typer.Option(help="Worker processes (-1: all cores); the results are the same.", rich_help_panel=RUN),
]


def games_bar(label: str) -> Any:
    """A progress bar of games played, with its ETA, on stderr (tournament, skill)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    return Progress(
        TextColumn(f"[bold]{label}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games  ETA"),
        TimeRemainingColumn(),
        console=err,
        refresh_per_second=2,  # as the sweep's bar: a redraw is parent CPU the workers need
    )


FormatOpt = Annotated[
    str,
    typer.Option(
        "--format",
        "-f",
        help="table, or csv/json: every row and column to stdout (notices to stderr).",
        rich_help_panel=OUTPUT,
    ),
]


def check_format(format: str) -> None:
    if format not in ("table", "csv", "json"):
        raise WelcomeSimError(f"--format: {format!r} is not one of table, csv, json")


def emit(format: str, about: str, reconstructed: list[str], frames: dict[str, Any], extra: dict) -> None:
    """Write result tables to stdout as csv (tables one after another, a blank line between) or
    as one json object; what the terminal would say around them goes to stderr."""
    import json

    err.print(about, highlight=False)
    reconstructed_notice(reconstructed, err)
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


def fail(exc: Exception) -> None:
    """The one-line error: 'error: ' and the message, literally, on stderr; exit code 2."""
    message = " ".join(str(exc).split("\n"))
    err.print(Text.assemble(("error:", "bold red"), " ", message), highlight=False, soft_wrap=True)
    raise typer.Exit(2)


def help_text(text: str, rich: bool = True) -> str:
    """A docstring as --help shows it: each paragraph's lines joined (Rich keeps a single line
    break, so the source's own line ends showed mid-sentence), except an 'Examples:' paragraph,
    one command a line; and, for Rich, every '[' literal."""
    paragraphs = [
        p if p.startswith("Examples") else " ".join(line.strip() for line in p.splitlines())
        for p in inspect.cleandoc(text).split("\n\n")
    ]
    return "\n\n".join(escape(p) if rich else p for p in paragraphs)


def _inline_default(param: Any) -> None:
    """Write an option's default at the end of its help text (Rich would otherwise give it a line
    of its own), and drop the '--no-x' form of a flag that is off by default."""
    if not isinstance(param, TyperOption):
        return
    if param.is_flag and param.default is False:
        param.secondary_opts = []
        param.show_default = False
        return
    shown = param.show_default if param.show_default is not None else True
    default = param.default
    if shown is True and default not in (None, [], ()) and "[default:" not in (param.help or ""):
        if param.is_flag:
            text = param.opts[0] if default else param.secondary_opts[0]
        elif isinstance(default, (list, tuple)):
            text = ", ".join(map(str, default))
        else:
            text = str(default)
        param.help = f"{param.help or ''} [default: {text}]".strip()
    param.show_default = False


class Command(TyperCommand):
    """A command whose help texts read as written (Rich would take an option's '[default: 1000]'
    for markup and print nothing of it) and fit 80 columns: defaults inline, short metavars."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Only Rich reads markup: click's plain help (TYPER_USE_RICH=0) would show the escapes.
        rich = bool(getattr(typer.core, "HAS_RICH", False)) and self.rich_markup_mode == "rich"
        if self.help:
            self.help = help_text(self.help, rich)
        for param in self.params:
            _inline_default(param)
            if getattr(param, "type_descriptor", None) is not None and param.type_descriptor.is_list:
                # '<str>' not '<list[str]>': the narrower type column leaves the help its width.
                short = param.bare_type().removeprefix("list[").removesuffix("]")
                param.display_type_rich = lambda ctx, short=short: f"<{short}>"
            if rich and getattr(param, "help", None):
                param.help = escape(param.help)

    def get_help_option(self, ctx: Any) -> Any:
        """--help in the last panel of options (alone in a panel of its own it costs three lines)."""
        option = super().get_help_option(ctx)
        panels = [getattr(p, "rich_help_panel", None) for p in self.params]
        if option is not None and any(panels):
            option.rich_help_panel = [p for p in panels if p][-1]
        return option


def register(on: typer.Typer, fn: Callable[..., None], name: str | None = None) -> None:
    """Make `fn` a command of `on` (the app or a sub-app): any WelcomeSimError it raises becomes the
    one-line error, and its help texts are shown as written (Command)."""

    @functools.wraps(fn)
    def run(*a: Any, **k: Any) -> None:
        try:
            return fn(*a, **k)
        except WelcomeSimError as exc:
            fail(exc)

    on.command(name, cls=Command)(run)


def note(text: str, out: Console | None = None) -> None:
    """A 'note:' line, on stdout unless `out` says otherwise (stderr keeps csv/json output clean)."""
    (out or console).print(Text.assemble(("note:", "yellow"), " ", text), highlight=False)


def reconstructed_notice(paths: list[str], out: Console | None = None) -> None:
    if paths:
        note(
            "this run uses RECONSTRUCTED data (consistent with the rules, not checked "
            "against the printed cards): " + ", ".join(paths),
            out,
        )


def tables_variants(base_game: bool, tables: list[list[str]]) -> set[str]:
    """The kernel variants a command plays these tables (one list of seat strategies each) on."""
    from welcome_sim.simcore.engine.game import batch_variant

    return {batch_variant(base_game, seats, len(seats)) for seats in tables}


def warm(jobs: int = 1, variants: set[str] | None = None, here: bool = True) -> None:
    """Compile or load the kernel variants the command plays on (all if None; in the worker
    processes too) before any bar or clock starts; if it has to compile, say so on stderr with the
    time it should take and the time elapsed (compiling()). With `here` False (only worker
    processes play) a compiled kernel is not loaded in this process: 0.4 s of CPU the workers
    would wait for; a missing one still compiles here, once, before they load it."""
    from welcome_sim.simcore.engine import splitcompile
    from welcome_sim.simcore.engine.warmup import ALL_VARIANTS, missing_variants, warm_kernel

    splitcompile.off()  # a bad $WELCOME_SIM_SPLIT_COMPILE is said before the compile notice
    wanted = tuple(v for v in ALL_VARIANTS if variants is None or v in variants)
    missing = missing_variants(wanted)
    if here or missing:
        with compiling(missing, err):
            warm_kernel(variants=wanted)
    if jobs != 1:
        from welcome_sim.simcore.engine.parallel import warm_workers

        warm_workers(jobs, wanted)


def stop_workers() -> None:
    """End the worker pool's processes at once, if there is one: for a command done with them. An
    idle worker told to stop finalizes its interpreter (the compiled kernel, every module) while
    the command waits for it (what that cost: docs/findings/performance-history.md, "A million
    games: where the sweep's 20% goes"); killed, it loses nothing (each result was returned whole)."""
    if "joblib.externals.loky.reusable_executor" not in sys.modules:
        return  # no pool was ever started (importing loky only to find that out is not free)
    from joblib.externals.loky import reusable_executor

    executor = getattr(reusable_executor, "_executor", None)  # loky's pool; None before any use
    if executor is not None:
        executor.shutdown(wait=True, kill_workers=True)


class _Elapsed:
    """The live line of a compile: re-rendered by Rich's status on every refresh."""

    def __init__(self, estimate: int) -> None:
        self.estimate, self.t0 = estimate, time.perf_counter()

    def __rich__(self) -> Text:
        return Text(f"compiling the kernel: {time.perf_counter() - self.t0:.0f} s of about {self.estimate} s")


@contextlib.contextmanager
def compiling(missing: list[str], out: Console) -> Iterator[None]:
    """Around a warm-up: nothing if no variant is missing; else a line with the time the compile
    should take on this machine now, a live elapsed-time line on a terminal, and a line with the
    time it took (on a pipe: only the first and the last line)."""
    if not missing:
        yield
        return
    from welcome_sim.simcore.engine.warmup import (
        COMPILED_S,
        entry_cached,
        expected_compile_seconds,
        load_factor,
        notice_line,
    )

    factor = load_factor()
    estimate = expected_compile_seconds(missing, factor)
    loading = all(entry_cached(v) for v in missing)  # compiled by games played from Python
    out.print(notice_line(loading, estimate, factor), highlight=False)
    t0 = time.perf_counter()
    if out.is_terminal:
        with out.status(_Elapsed(estimate)):
            yield
    else:
        yield
    seconds = time.perf_counter() - t0
    if loading and seconds < COMPILED_S:  # it only loaded (compiled before, outside a warm-up)
        out.print(f"kernel loaded in {seconds:.1f} s", highlight=False)
    else:
        out.print(f"kernel compiled in {seconds:.0f} s (estimated {estimate} s)", highlight=False)
