"""`play` (one game, shown round by round and refereed) and `warmup` (compile the kernel now)."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from welcome_sim import __version__, configure_cache
from welcome_sim.commands.common import (
    GAME,
    PLAYERS,
    DeckOpt,
    EditionOpt,
    ExpansionOpt,
    ModeOpt,
    NineOpt,
    OpponentOpt,
    PlansFileOpt,
    SheetOpt,
    StrategyOpt,
    compiling,
    console,
    fail,
    reconstructed_notice,
    warm,
)
from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.ground import userinput as U


def play(
    seed: Annotated[int, typer.Option(help="Game seed (same seed, same game).", rich_help_panel=GAME)] = 1,
    players: Annotated[
        int, typer.Option("--players", "-p", help="Players at the table, 1 to 8.", rich_help_panel=PLAYERS)
    ] = 1,
    edition: EditionOpt = "collector",
    sheet: SheetOpt = None,
    strategy: StrategyOpt = None,
    plans: Annotated[
        str | None,
        typer.Option(
            help="Plans in play, one per letter, e.g. A1,B6,C2. [default: random]", rich_help_panel=GAME
        ),
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

    Examples:
      welcome-sim play --seed 7
      welcome-sim play --sheet blueprint -p 3 -s greedy -s expert -s random
      welcome-sim play --expansion zombies --nine-three-quarters --mode advanced
    """
    try:
        from welcome_sim.simcore.engine.game import (
            batch_variant,
            check_mode_players,
            check_players,
            game_seeds,
            plan_indices,
            simulate,
        )
        from welcome_sim.simcore.rules.rulespec import RulesetSpec
        from welcome_sim.textview import render_game
        from welcome_sim.verify import check_batch, referee_game

        check_players(players)
        U.check_seed("--seed", seed)
        rs = RulesetSpec(
            edition, sheet, plans_file, mode, opponent, expansion, nine_three_quarters, deck
        ).load()
        plan_list = [p.strip() for p in plans.split(",") if p.strip()] if plans is not None else None
        check_mode_players(rs, players)  # bad input fails before any compile
        plan_indices(rs, plan_list)
        warm(variants={batch_variant(rs.expansion is None, strategy or [], players)})
        res = simulate(rs, game_seeds(seed, 1), players, strategy or [], plan_list, log=True)
        problems = check_batch(res)
        if problems:
            raise WelcomeSimError("kernel and referee disagree: " + "; ".join(problems[:3]))
        rec = referee_game(res, 0)
    except WelcomeSimError as exc:
        fail(exc)
    names = [f"P{i + 1} {s}" for i, s in enumerate(res.strategies)]
    console.print(f"welcome-sim {__version__}: {rs.describe()}; seed {seed}", highlight=False)
    reconstructed_notice(rs.reconstructed)
    for line in render_game(rec, names, res.plan_ids(0), rs.plans.plans):
        console.print(line, highlight=False, markup=False)
    console.print("referee: every move legal, every score equal to the kernel's", style="green")


def warmup() -> None:
    """Compile the kernel now (it is cached; later runs only load it), or say it already is.

    Every variant is compiled: the whole kernel (expansions, every strategy) and the smaller one
    for base games with greedy players, so no later command compiles.

    Examples:
      welcome-sim warmup
      welcome-sim warmup && welcome-sim sweep --games 20000
    """
    from welcome_sim.simcore.engine.warmup import missing_variants, warm_kernel

    configure_cache()  # the keyed folder, chosen once per process
    folder = os.environ.get("NUMBA_CACHE_DIR", "")
    missing = missing_variants()
    if not missing:
        seconds = warm_kernel()
        console.print(f"kernel compiled already (loaded in {seconds:.1f} s from {folder})", highlight=False)
        return
    with compiling(missing, console):
        warm_kernel()
    console.print(f"cached in {folder}: every command loads it from there", highlight=False)
