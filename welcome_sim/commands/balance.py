"""`balance plans`: propose plan card scores that give every card of a letter the same expected
points at a player level (or points in proportion to how hard it is), checked on fresh seeds."""

from __future__ import annotations

from dataclasses import replace
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
# Whose games the balance is measured on (both commands; each its own default).
LevelOpt = Annotated[
    str,
    typer.Option(
        "--level",
        "-l",
        help="A ladder level or strategy.",
        rich_help_panel=PLAYERS,
        callback=named("--level", names.strategy),
    ),
]

balance_app = typer.Typer(
    help="Propose values that meet a balance target, checked by playing them on fresh seeds.",
    no_args_is_help=True,
    add_completion=False,
)


def balance_plans(
    letter: Annotated[
        str, typer.Option("--letter", help="A plan letter (A, B, C) or all.", rich_help_panel=TARGET)
    ] = "all",
    level: LevelOpt = "expert",
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
    rounds: Annotated[
        int, typer.Option(help="Whole-set settling rounds after the search.", rich_help_panel=RUN)
    ] = 8,
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
    U.check_int("--rounds", rounds, 0, 100)
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
    s = Settings(level, players, games, budget, check, seed, tolerance, target, free_later, n_jobs, rounds)
    warm(processes_for(games, n_jobs), tables_variants(rs.expansion is None, [[level] * players]))
    with games_bar("balance") as bar:
        task = bar.add_task("games", total=s.total_games())
        prop = search(
            rs, letter, s, advance=lambda n: bar.advance(task, n), say=lambda t: bar.console.print(t)
        )
    about = (
        f"{rs.describe()}; {players} seat{'s' * (players != 1)} of {level}; targets '{target}' within {tolerance:g} points; search: "
        f"{games:,} games x {budget + 1} sets (seed {seed}), then {len(prop.settled)} settling round{'s' * (len(prop.settled) != 1)}; check: {check:,} fresh games"
    )
    console.print(about, highlight=False)
    reconstructed_notice(rs.reconstructed)
    _show(rs, prop, letters)
    if not prop.later_seen:
        note(
            f"no seat validated a card after it turned over: later scores never counted with {players} seat{'s' * (players != 1)}"
        )
    changed = prop.changed()
    if not changed:
        console.print(
            "no card changes: every card is within its target's tolerance (or none could be helped)"
        )
        return
    from welcome_sim.studies.balance_file import write_balanced

    title = f"{source.title}, balanced for {level} ({players} seats, target {target})"
    why = f"scores proposed by welcome-sim balance plans for {level} at {players} seat{'s' * (players != 1)}, target {target}, seed {seed}"
    write_balanced(source.path, dest, prop.proposed, changed, title, why)
    console.print(
        f"proposal written to {dest} ({len(changed)} card{'s' * (len(changed) != 1)} changed): play it with --plans-file {dest}"
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
    """Points and their 95% interval, the bounds rounded outward (analysis/rounding.py)."""
    from welcome_sim.analysis.rounding import interval_text

    return interval_text(points, points - half, points + half)


def _show(rs, prop, letters: list[str]) -> None:
    """The table per card, then each letter's spread before and after, both on the fresh seeds."""
    from welcome_sim.analysis.rounding import interval_text
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
        left=["card", "requirement"],
    )
    spreads = []
    for n, x in enumerate(letters):
        ids = prop.letters[x]
        row = [x]
        for side in (prop.before, prop.after):
            sp = spread(side.samples, ids, prop.settings.seed + n)
            row.append(interval_text(sp[0], sp[1], sp[2]))
        for side in (prop.before, prop.after):
            misses = [abs(side.stats[i].points - prop.targets[i]) for i in ids if i in prop.targets]
            row.append(f"{max(misses):.2f}" if misses else "-")
        spreads.append(row)
    print_table(
        console,
        ["letter", "spread before", "spread after", "largest miss before", "largest miss after"],
        spreads,
        title=(
            "a letter's expected points: spread (highest card - lowest; 95% bootstrap interval) and the "
            "largest distance of a card from its target, fresh games"
        ),
        keys=["letter"],
    )


def balance_expansion(
    vary: Annotated[
        list[str],
        typer.Option(
            "--vary",
            help="PATH=V1,V2,... or PATH=A..B: the values to search (once or twice).",
            rich_help_panel=TARGET,
        ),
    ],
    points_lost: Annotated[
        float | None,
        typer.Option(help="Target: points lost against the base game (net score).", rich_help_panel=TARGET),
    ] = None,
    like: Annotated[
        str | None,
        typer.Option(help="Target: the points another expansion loses, same deals.", rich_help_panel=TARGET),
    ] = None,
    stars: Annotated[
        int | None,
        typer.Option(
            help="Target: the band the points lost by the expansions of this star level span, same deals.",
            rich_help_panel=TARGET,
        ),
    ] = None,
    tolerance: Annotated[
        float, typer.Option(help="Points the target may be missed by.", rich_help_panel=TARGET)
    ] = 0.5,
    level: LevelOpt = "casual",
    players: Annotated[int, typer.Option("--players", "-p", help="Seats.", rich_help_panel=PLAYERS)] = 2,
    games: Annotated[int, typer.Option(help="Games per candidate.", rich_help_panel=RUN)] = 1_000,
    budget: Annotated[int, typer.Option(help="Candidates played at most.", rich_help_panel=RUN)] = 10,
    check_games: Annotated[
        int | None, typer.Option(help="Fresh games for the check. [default: --games]", rich_help_panel=RUN)
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the game seeds.", rich_help_panel=RUN)] = 1,
    edition: EditionOpt = "collector",
    mode: ModeOpt = "standard",
    expansion: ExpansionOpt = None,
    jobs: JobsOpt = -1,
) -> None:
    """Move one or two values of an expansion's data file until the points it costs a player (net
    of its own points, against the base game on the same deals) hit a target; check on fresh deals.

    Examples:
      welcome-sim balance expansion --vary expansion.zombies.start_ammunition=0..4 --points-lost 5
      welcome-sim balance expansion --vary expansion.zombies.start_ammunition=0..4 --like roswell
      welcome-sim balance expansion --vary expansion.zombies.start_ammunition=0..9 --stars 2
    """
    from welcome_sim.simcore.engine.game import check_players
    from welcome_sim.simcore.rules.overrides import parse_all
    from welcome_sim.strategies.registry import parse_strategy
    from welcome_sim.studies.balance_values import balance_values

    try:
        parse_strategy(level)
    except WelcomeSimError as exc:
        raise WelcomeSimError(str(exc).replace("--strategy:", "--level:", 1)) from None
    axes = parse_all(vary)
    if not 1 <= len(axes) <= 2:
        raise WelcomeSimError(f"--vary: give one or two paths to balance, got {len(axes)}")
    names_ = {o.target for axis in axes for o in axis}
    if "" in names_ or len(names_) != 1:
        raise WelcomeSimError(
            "--vary: balance expansion moves values of one expansion: paths expansion.<name>.<key>"
        )
    if (points_lost is not None) + (like is not None) + (stars is not None) != 1:
        raise WelcomeSimError(
            "--points-lost, --like, --stars: give one target, a number of points, another expansion or a star level"
        )
    if like is not None:
        like = names.expansion("--like", like)
    band = None if stars is None else _star_band(stars, expansion or next(iter(names_)))
    U.check_float("--tolerance", tolerance, 0.0, 100.0)
    U.check_int("--games", games, 2, U.MAX_BATCH_GAMES, " (at least 2 for an interval)")
    check = games if check_games is None else U.check_int("--check-games", check_games, 2, U.MAX_BATCH_GAMES)
    U.check_int("--budget", budget, 1, 10_000)
    U.check_seed("--seed", seed)
    check_players(players)
    n_jobs = U.check_jobs(jobs, "loky")
    spec = RulesetSpec(edition, None, None, mode, None, expansion or next(iter(names_)), False, None)
    cells = [(o,) for o in axes[0]] if len(axes) == 1 else [(a, b) for a in axes[0] for b in axes[1]]
    for cell in cells:  # every candidate's files valid before a game is played
        replace(spec, overrides=cell).load()
    played = 1 + (like is not None) + len(band or ()) + min(budget, len(cells))
    total = games * played + check * 3
    from welcome_sim.simcore.engine.parallel import processes_for

    warm(
        processes_for(games, n_jobs),
        tables_variants(False, [[level] * players]) | tables_variants(True, [[level] * players]),
    )
    with games_bar("balance") as bar:
        task = bar.add_task("games", total=total)
        prop = balance_values(
            spec,
            axes,
            players,
            level,
            games,
            check,
            budget,
            seed,
            tolerance,
            points_lost,
            like if band is None else band,
            n_jobs,
            lambda n: bar.advance(task, n),
        )
    _show_values(spec, prop, level, players, games, check, like)
    # The files every ruleset played here reads: the balanced one's and the target's expansions'.
    others = [replace(spec, expansion=x, overrides=()) for x in (band or ((like,) if like else ()))]
    reconstructed_notice(list(dict.fromkeys(p for r in (spec, *others) for p in r.load().reconstructed)))
    best = prop.searched[prop.proposed]
    if prop.miss(best) > tolerance:
        edge = [a for a, v in zip(axes, prop.proposed, strict=True) if v in (a[0].value, a[-1].value)]
        note(
            f"no candidate meets the target within {tolerance:g} points: the nearest, {', '.join(prop.proposed)}, "
            f"misses it by {prop.off(best):+.2f} on the search deals"
            + ("; it is at the end of its range: try values beyond it" if edge else "")
        )
    untold = _untold(prop, check)
    if untold:
        note(untold)


def _untold(prop, check: int) -> str | None:
    """What to say when fresh deals cannot tell the proposal from today's values: the search ranks
    candidates on its own deals, where a difference may be those deals' luck."""
    d = prop.difference
    if prop.before is None or d is None or prop.proposed == prop.today or abs(d.mean) > d.ci95:
        return None
    return (
        f"on the {check:,} fresh deals the proposal ({', '.join(prop.proposed)}) and today's values "
        f"({', '.join(prop.today)}) cannot be told apart: proposed - today {_ci(d.mean, d.ci95)} (paired) "
        "holds 0; more --games and --check-games would tell them apart"
    )


def _star_band(stars: int, balanced: str) -> tuple[str, ...]:
    """The built-in expansions the publisher rates `stars` (its ranking of the 9 by difficulty), other
    than the one balanced and those whose points replace the base game's scoring (not ranked on score)."""
    from welcome_sim.analysis.difficulty_items import expansion_rating, replaces_scoring
    from welcome_sim.simcore.rules.expansions.codes import EXPANSION_NAMES

    U.check_int("--stars", stars, 1, 3, " (the publisher rates expansions 1 to 3 stars)")
    band = tuple(
        n
        for n in EXPANSION_NAMES
        if expansion_rating(n)[0] == stars and not replaces_scoring(n) and n != balanced
    )
    if not band:
        raise WelcomeSimError(f"--stars: no other expansion is rated {stars} stars and ranked on score")
    return band


def _show_values(spec, prop, level: str, players: int, games: int, check: int, like: str | None) -> None:
    """The candidates searched, the target and the check on fresh deals."""
    what = f"the points {like} loses on the same deals" if like else "given"
    if prop.marks is not None and len(prop.marks) > 1:
        what = "the band of " + ", ".join(f"{n} {v:.2f}" for n, v in prop.marks.items()) + ", same deals"
        what = f"{prop.band[0]:.2f} to {prop.band[1]:.2f}: {what}"
    console.print(
        f"{spec.load().describe()}; {players} seat{'s' * (players != 1)} of {level}; points lost = base game's net score - the "
        f"expansion's (net of its own points), paired by deal; target {prop.target:.2f}"
        + (f" ± {prop.target_ci:.2f}" if prop.target_ci else "")
        + f" ({what})",
        highlight=False,
    )
    rows = [[", ".join(v), f"{lost:+.2f}"] for v, lost in sorted(prop.searched.items(), key=lambda x: x[1])]
    print_table(
        console,
        [" ; ".join(prop.paths), "points lost"],
        rows,
        title=f"candidates played on the same {games:,} deals (search)",
    )
    out = [["proposed", ", ".join(prop.proposed), _ci(prop.after.mean, prop.after.ci95)]]
    if prop.before is not None:
        out.insert(0, ["today", ", ".join(prop.today), _ci(prop.before.mean, prop.before.ci95)])
        out.append(["proposed - today", "", _ci(prop.difference.mean, prop.difference.ci95) + " (paired)"])
    print_table(
        console,
        ["", "values", "points lost [95% CI]"],
        out,
        title=f"check on {check:,} fresh deals",
    )
