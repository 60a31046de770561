"""The `welcome-sim` command line: the typer app and its commands, each group of them a module of
welcome_sim/commands (which parse options, call the library and print)."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from welcome_sim import __version__
from welcome_sim.errors import WelcomeSimError

try:  # the expansions' registry is built on import: a bad $WELCOME_SIM_EXPANSIONS stops here
    from welcome_sim.commands import (
        analyze,
        balance,
        bench,
        data,
        difficulty,
        play,
        sheet,
        strategies,
        studies,
        sweep,
    )
except WelcomeSimError as exc:
    print(f"error: {exc}", file=sys.stderr)
    raise SystemExit(2) from None
from welcome_sim.commands.common import console, register, stop_workers
from welcome_sim.commands.usage import Group

app = typer.Typer(
    cls=Group,
    help="Monte Carlo balance analysis for Welcome To... Your Perfect Home.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# In this order in `welcome-sim --help`.
for command in (
    play.play,
    play.warmup,
    bench.bench,
    sweep.sweep,
    analyze.analyze,
    analyze.report,
    strategies.strategies,
    studies.tournament,
    studies.skill,
    difficulty.difficulty,
    strategies.tune,
):
    register(app, command)
register(data.data_app, data.data_copy, "copy")
register(data.data_app, data.data_upgrade, "upgrade")
app.add_typer(data.data_app, name="data")
register(sheet.sheet_app, sheet.sheet_show, "show")
app.add_typer(sheet.sheet_app, name="sheet")
register(balance.balance_app, balance.balance_plans, "plans")
register(balance.balance_app, balance.balance_expansion, "expansion")
app.add_typer(balance.balance_app, name="balance")


def version_callback(value: bool) -> None:
    """--version: print it and stop."""
    if value:
        console.print(f"welcome-sim {__version__}")
        raise typer.Exit()


def _done(*_results: object, **_params: object) -> None:
    """After any command that returns: its idle worker processes are killed, not left to finalize
    while it exits (stop_workers; a command that started none has nothing to stop)."""
    stop_workers()


@app.callback(result_callback=_done)
def main(
    version: Annotated[
        bool, typer.Option("--version", callback=version_callback, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """Monte Carlo balance analysis for Welcome To... Your Perfect Home."""


if __name__ == "__main__":  # pragma: no cover
    sys.exit(app(prog_name="welcome-sim"))
