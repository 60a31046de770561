"""`strategies` (the players and their parameters) and `tune` (search a player's weights)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from welcome_sim.commands import names
from welcome_sim.commands.common import (
    PLAYERS,
    RUN,
    EditionOpt,
    ExpansionOpt,
    JobsOpt,
    ModeOpt,
    OpponentOpt,
    SheetOpt,
    console,
    err,
    fail,
    named,
    reconstructed_notice,
    tables_variants,
    warm,
)
from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.ground import userinput as U
from welcome_sim.termtables import print_table


def strategies() -> None:
    """List the strategies and their parameters (set them as NAME:key=value,key=value).

    Examples:
      welcome-sim strategies
      welcome-sim play -s greedy:pool=2,park=1.5
    """
    from welcome_sim.strategies.registry import DEFAULT_STRATEGY, all_strategies

    try:
        table_of = all_strategies()
    except WelcomeSimError as exc:
        fail(exc)
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


def tune(
    strategy: Annotated[
        str,
        typer.Option(
            "--strategy",
            "-s",
            help="Strategy whose weights to search.",
            rich_help_panel=PLAYERS,
            callback=named("--strategy", names.strategy),
        ),
    ] = "greedy",
    name: Annotated[
        str | None,
        typer.Option(
            help="Name of the set written (letters, digits, -, _). [default: my-tuned]",
            rich_help_panel=PLAYERS,
        ),
    ] = None,
    games: Annotated[
        int, typer.Option(help="1-player games per evaluation (common seeds).", rich_help_panel=RUN)
    ] = 2000,
    sweeps: Annotated[
        int, typer.Option(help="Coordinate-search sweeps (each halves the step).", rich_help_panel=RUN)
    ] = 3,
    step: Annotated[float, typer.Option(help="Relative step of the first sweep.", rich_help_panel=RUN)] = 0.3,
    seed: Annotated[int, typer.Option(help="Seed of the tuning games.", rich_help_panel=RUN)] = 1,
    edition: EditionOpt = "collector",
    sheet: SheetOpt = None,
    mode: ModeOpt = "standard",
    opponent: OpponentOpt = None,
    expansion: ExpansionOpt = None,
    write: Annotated[
        bool,
        typer.Option(help="Write the best set to tuned.toml in your user data folder.", rich_help_panel=RUN),
    ] = True,
    jobs: JobsOpt = -1,
) -> None:
    """Search a strategy's weights by coordinate search on common seeds; save the best as a named set.

    The games are single-player games of the ruleset given (a sheet, a 1-player mode, an expansion),
    so a set can be tuned for the game it will play; the set written says which.

    Examples:
      welcome-sim tune --name my-greedy --games 1000
      welcome-sim tune -s plan-rusher --expansion zombies --name zombie-rusher
      welcome-sim tune --mode solo --no-write
    """
    try:
        from welcome_sim.simcore.engine.game import check_mode_players
        from welcome_sim.simcore.engine.parallel import processes_for
        from welcome_sim.simcore.rules.rulespec import RulesetSpec
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
        rs = RulesetSpec(edition, sheet, mode=mode, opponent=opponent, expansion=expansion).load()
        try:
            check_mode_players(rs, 1)
        except WelcomeSimError:
            raise WelcomeSimError(
                f"--mode: '{mode}' needs a table; tune plays single-player games: standard, advanced, "
                "solo or solo-advanced"
            ) from None
        base = parse_strategy(strategy)
        # The look-ahead's parameters are choices, never searched: one variant for every trial.
        warm(processes_for(games, n_jobs), tables_variants(rs.expansion is None, [[strategy]]))
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
        fail(exc)
    console.print(f"{rs.describe()}; 1 player", highlight=False)
    reconstructed_notice(rs.reconstructed)
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
