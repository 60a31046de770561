"""What every command shares: the consoles, the options of a ruleset, the one-line error, notes,
the kernel warm-up, progress bars and csv/json output, and how a command is made."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.text import Text
from typer.core import TyperCommand

from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.rules.expansions.codes import EXPANSION_NAMES, EXPANSION_TITLES

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


JobsOpt = Annotated[
    int,
    typer.Option(
        help="Worker processes; -1 = all cores. Games are split into chunks over them, with the same "
        "results as one process."
    ),
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
    break, so the source's own line ends showed mid-sentence) and, for Rich, every '[' literal."""
    paragraphs = [
        " ".join(line.strip() for line in p.splitlines()) for p in inspect.cleandoc(text).split("\n\n")
    ]
    return "\n\n".join(escape(p) if rich else p for p in paragraphs)


class Command(TyperCommand):
    """A command whose help texts read as written: Rich would take an option's '[default: 1000]'
    for markup and print nothing of it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Only Rich reads markup: click's plain help (TYPER_USE_RICH=0) would show the escapes.
        rich = bool(getattr(typer.core, "HAS_RICH", False)) and self.rich_markup_mode == "rich"
        if self.help:
            self.help = help_text(self.help, rich)
        for param in self.params:
            if rich and getattr(param, "help", None):
                param.help = escape(param.help)


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


def warm(jobs: int = 1, variants: set[str] | None = None) -> None:
    """Compile or load the kernel variants the command plays on (all if None; in the worker
    processes too) before any bar or clock starts; say so on stderr first if it has to compile."""
    from welcome_sim.simcore.engine.warmup import ALL_VARIANTS, warm_kernel

    wanted = tuple(v for v in ALL_VARIANTS if variants is None or v in variants)
    warm_kernel(notice=lambda m: err.print(m, highlight=False), variants=wanted)
    if jobs != 1:
        from welcome_sim.simcore.engine.parallel import warm_workers

        warm_workers(jobs, wanted)
