"""`balance plans`: propose plan card scores that give every card of a letter the same expected
points at a player level (or points in proportion to how hard it is), checked on fresh seeds."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from welcome_sim.commands import names
from welcome_sim.commands.common import (
    OUTPUT,
    PLAYERS,
    RUN,
    DeckOpt,
    EditionOpt,
    ExpansionOpt,
    JobsOpt,
    ModeOpt,
    NineOpt,
    OpponentOpt,
    PlansFileOpt,
    SheetOpt,
    console,
    games_bar,
    named,
    note,
    reconstructed_notice,
    tables_variants,
    warm,
)
from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.ground import userinput as U
from welcome_sim.simcore.rules.rulespec import RulesetSpec
from welcome_sim.termtables import print_table

TARGET = "Target"
balance_app = typer.Typer(
    help="Propose values that meet a balance target, checked by playing them on fresh seeds.",
    no_args_is_help=True,
    add_completion=False,
)


def balance_plans(
    letter: Annotated[
        str, typer.Option("--letter", help="A plan letter (A, B, C) or all.", rich_help_panel=TARGET)
    ] = "all",
    level: Annotated[
        str,
        typer.Option(
            "--level",
            "-l",
            help="A ladder level or strategy.",
            rich_help_panel=PLAYERS,
            callback=named("--level", names.strategy),
        ),
    ] = "expert",
    players: Annotated[int, typer.Option("--players", "-p", help="Seats.", rich_help_panel=PLAYERS)] = 2,
    target: Annotated[
        str,
        typer.Option(
            help="equal, or hardness: points in proportion to 1/validation.", rich_help_panel=TARGET
        ),
    ] = "equal",
    tolerance: Annotated[
        float, typer.Option(help="Points a card may miss by.", rich_help_panel=TARGET)
    ] = 0.5,
    free_later: Annotated[
        bool, typer.Option(help="Search later too (else kept in ratio).", rich_help_panel=TARGET)
    ] = False,
    games: Annotated[int, typer.Option(help="Games per candidate set.", rich_help_panel=RUN)] = 2_100,
    budget: Annotated[int, typer.Option(help="Candidate sets searched.", rich_help_panel=RUN)] = 15,
    check_games: Annotated[
        int | None, typer.Option(help="Fresh games for the check. [default: --games]", rich_help_panel=RUN)
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the game seeds.", rich_help_panel=RUN)] = 1,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            help="File to write. [default: NAME_balanced.toml]",
            rich_help_panel=OUTPUT,
        ),
    ] = None,
    force: Annotated[bool, typer.Option(help="Overwrite --out.", rich_help_panel=OUTPUT)] = False,
    edition: EditionOpt = "collector",
    sheet: SheetOpt = None,
    mode: ModeOpt = "standard",
    opponent: OpponentOpt = None,
    expansion: ExpansionOpt = None,
    nine_three_quarters: NineOpt = False,
    deck: DeckOpt = None,
    plans_file: PlansFileOpt = None,
    jobs: JobsOpt = -1,
) -> None:
    """Propose integer first/later scores so that every card of a letter is worth the same expected
    points at a level (or in proportion to its hardness), with the fewest, smallest changes; play
    today's set and the proposal on fresh seeds; write the proposal as a plan set file.

    Examples:
      welcome-sim balance plans --letter A --games 1400 --budget 10
      welcome-sim balance plans --plans-file mine.toml --target hardness
    """
    from welcome_sim.simcore.engine.game import check_mode_players, check_players
    from welcome_sim.simcore.engine.parallel import processes_for
    from welcome_sim.strategies.registry import parse_strategy
    from welcome_sim.studies import balance as B
    from welcome_sim.studies.balance_search import Settings
    from welcome_sim.studies.balance_search import balance_plans as search

    try:
        parse_strategy(level)
    except WelcomeSimError as exc:
        raise WelcomeSimError(str(exc).replace("--strategy:", "--level:", 1)) from None
    if target not in ("equal", "hardness"):
        raise WelcomeSimError(f"--target: '{target}' is not one of equal, hardness")
    U.check_float("--tolerance", tolerance, 0.0, 100.0)
    U.check_int("--budget", budget, 0, 10_000)
    U.check_seed("--seed", seed)
    check_players(players)
    n_jobs = U.check_jobs(jobs, "loky")
    rs = RulesetSpec(edition, sheet, plans_file, mode, opponent, expansion, nine_three_quarters, deck).load()
    check_mode_players(rs, players)
    B.check_mode(rs)
    letters = B.chosen_letters(rs, letter)
    most = max(len(c) for c in B.cards_by_slot(rs))
    low = B.MIN_GAMES_PER_CARD * most
    what = f" ({B.MIN_GAMES_PER_CARD} games for each of a letter's {most} cards)"
    U.check_int("--games", games, low, U.MAX_BATCH_GAMES, what)
    check = (
        games
        if check_games is None
        else U.check_int("--check-games", check_games, low, U.MAX_BATCH_GAMES, what)
    )
    source = B.standard_set(rs)
    dest = _destination(out, source.name, force)
    s = Settings(level, players, games, budget, check, seed, tolerance, target, free_later, n_jobs)
    warm(processes_for(games, n_jobs), tables_variants(rs.expansion is None, [[level] * players]))
    with games_bar("balance") as bar:
        task = bar.add_task("games", total=s.total_games())
        prop = search(
            rs, letter, s, advance=lambda n: bar.advance(task, n), say=lambda t: bar.console.print(t)
        )
    about = (
        f"{rs.describe()}; {players} seat(s) of {level}; targets '{target}' within {tolerance:g} points; search: "
        f"{games:,} games x {budget + 1} sets (seed {seed}); check: {check:,} fresh games"
    )
    console.print(about, highlight=False)
    reconstructed_notice(rs.reconstructed)
    _show(rs, prop, letters)
    if not prop.later_seen:
        note(
            f"no seat validated a card after it turned over: later scores never counted with {players} seat(s)"
        )
    changed = prop.changed()
    if not changed:
        console.print(
            "no card changes: every card is within its target's tolerance (or none could be helped)"
        )
        return
    from welcome_sim.studies.balance_file import write_balanced

    title = f"{source.title}, balanced for {level} ({players} seats, target {target})"
    why = f"scores proposed by welcome-sim balance plans for {level} at {players} seat(s), target {target}, seed {seed}"
    write_balanced(source.path, dest, prop.proposed, changed, title, why)
    console.print(
        f"proposal written to {dest} ({len(changed)} card(s) changed): play it with --plans-file {dest}"
    )


def _destination(out: Path | None, name: str, force: bool) -> Path:
    """--out, checked before any game is played: a .toml file, new unless --force."""
    dest = out if out is not None else Path(f"{name}_balanced.toml")
    if dest.suffix != ".toml":
        raise WelcomeSimError(f"--out: '{dest}' must end in .toml (plan set files are TOML)")
    U.output_file("--out", dest)
    if dest.exists() and not force:
        raise WelcomeSimError(f"--out: '{dest}' exists; give another path, or --force to overwrite it")
    return dest


def _ci(points: float, half: float) -> str:
    return f"{points:.2f} [{points - half:.2f}, {points + half:.2f}]"


def _show(rs, prop, letters: list[str]) -> None:
    """The table per card, then each letter's spread before and after, both on the fresh seeds."""
    from welcome_sim.plantext import plan_label, requirement
    from welcome_sim.studies.balance import spread

    plans = {p.id: p for p in rs.plans.plans}
    rows = []
    for x in letters:
        for i in prop.letters[x]:
            b, a = prop.before.stats[i], prop.after.stats[i]
            old, new = prop.today[i], prop.proposed[i]
            rows.append(
                [
                    plan_label(plans[i]),
                    requirement(plans[i]),
                    f"{old[0]}/{old[1]}",
                    f"{new[0]}/{new[1]}" if new != old else "=",
                    f"{100 * b.rate:.0f}%",
                    f"{prop.targets[i]:.2f}" if i in prop.targets else "never validated",
                    _ci(b.points, b.ci95),
                    _ci(a.points, a.ci95),
                ]
            )
    print_table(
        console,
        ["card", "requirement", "today", "proposed", "validated", "target", "points before", "points after"],
        rows,
        title=(
            "expected points a seat scores from each card (first/later scores; 95% CI clustered by game), "
            f"today's and the proposed set on the same {prop.settings.check_games:,} fresh games"
        ),
        keys=["card"],
        words=["card", "requirement"],
    )
    spreads = []
    for n, x in enumerate(letters):
        ids = prop.letters[x]
        before = spread(prop.before.samples, ids, prop.settings.seed + n)
        after = spread(prop.after.samples, ids, prop.settings.seed + n)
        spreads.append(
            [
                x,
                f"{before[0]:.2f} [{before[1]:.2f}, {before[2]:.2f}]",
                f"{after[0]:.2f} [{after[1]:.2f}, {after[2]:.2f}]",
            ]
        )
    print_table(
        console,
        ["letter", "spread before", "spread after"],
        spreads,
        title="spread of a letter's expected points (highest card - lowest), fresh games; 95% bootstrap interval",
        keys=["letter"],
    )
