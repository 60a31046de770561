"""`tournament` (strategies alone and at one table on common seeds) and `skill` (the skill ladder:
score per level, luck against skill, the plans only strong players complete)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.text import Text

from welcome_sim.commands import names
from welcome_sim.commands.common import (
    OUTPUT,
    PLAYERS,
    RUN,
    DeckOpt,
    EditionOpt,
    ExpansionOpt,
    FormatOpt,
    JobsOpt,
    ModeOpt,
    NineOpt,
    OpponentOpt,
    PlansFileOpt,
    SheetOpt,
    StrategyOpt,
    check_format,
    console,
    emit,
    err,
    fail,
    games_bar,
    named,
    reconstructed_notice,
    tables_variants,
    warm,
)
from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.ground import userinput as U
from welcome_sim.simcore.rules.rulespec import RulesetSpec
from welcome_sim.termtables import print_table


def tournament(
    strategy: StrategyOpt = None,
    games: Annotated[
        int, typer.Option(help="Games per setting (the same seeds for each).", rich_help_panel=RUN)
    ] = 20_000,
    seed: Annotated[int, typer.Option(help="Seed of the game seeds.", rich_help_panel=RUN)] = 1,
    edition: EditionOpt = "collector",
    sheet: SheetOpt = None,
    mixed: Annotated[
        bool, typer.Option(help="Also play all strategies at one table.", rich_help_panel=PLAYERS)
    ] = True,
    mode: ModeOpt = "standard",
    opponent: OpponentOpt = None,
    expansion: ExpansionOpt = None,
    nine_three_quarters: NineOpt = False,
    deck: DeckOpt = None,
    plans_file: PlansFileOpt = None,
    jobs: JobsOpt = -1,
    format: FormatOpt = "table",
) -> None:
    """Play strategies alone and at one mixed table on common seeds; mean, 95% CI, wins, components.

    Examples:
      welcome-sim tournament
      welcome-sim tournament -s greedy -s expert -s random --games 5000
      welcome-sim tournament --expansion zombies --no-mixed -f csv > scores.csv
    """
    try:
        check_format(format)
        from welcome_sim.simcore.engine.parallel import processes_for
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
        rs = RulesetSpec(
            edition, sheet, plans_file, mode, opponent, expansion, nine_three_quarters, deck
        ).load()
        from welcome_sim.simcore.ground.table import DEAL_AAA, DEAL_EXPERT, DEAL_SOLO_CARD

        if rs.deal == DEAL_EXPERT and len(names) < 2:
            raise WelcomeSimError(f"--mode {mode}: expert mode needs a table; give 2 or more --strategy")
        mixed = mixed and rs.deal not in (DEAL_AAA, DEAL_SOLO_CARD)
        alone = [[n] for n in names] if rs.deal != DEAL_EXPERT else []
        tables = alone + ([names] if mixed and len(names) > 1 else [])
        settings = len(tables)
        warm(processes_for(games, n_jobs), tables_variants(rs.expansion is None, tables))
        with games_bar("tournament") as bar:
            task = bar.add_task("games", total=games * settings)
            rows = run_tournament(
                rs, names, games, seed, mixed, advance=lambda n: bar.advance(task, n), jobs=n_jobs
            )
    except WelcomeSimError as exc:
        fail(exc)
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
        emit(format, about, rs.reconstructed, {"tournament": frame}, {"games": games, "seed": seed})
        return
    console.print(about, highlight=False)
    reconstructed_notice(rs.reconstructed)
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
        left=["setting", "strategy"],
    )


SPREAD = "strongest_minus_weakest"


def skill(
    games: Annotated[
        int, typer.Option(help="Games per level (the same deals for every level).", rich_help_panel=RUN)
    ] = 2_000,
    players: Annotated[
        int,
        typer.Option(
            "--players", "-p", help="Seats at each table, all of one level.", rich_help_panel=PLAYERS
        ),
    ] = 1,
    level: Annotated[
        list[str] | None,
        typer.Option(
            "--level",
            "-l",
            help="A level or strategy, weakest first; repeat. [default: the skill ladder]",
            rich_help_panel=PLAYERS,
            callback=named("--level", names.strategy),
        ),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the game seeds.", rich_help_panel=RUN)] = 1,
    edition: EditionOpt = "collector",
    sheet: SheetOpt = None,
    mode: ModeOpt = "standard",
    opponent: OpponentOpt = None,
    expansion: ExpansionOpt = None,
    nine_three_quarters: NineOpt = False,
    deck: DeckOpt = None,
    plans_file: PlansFileOpt = None,
    top: Annotated[int, typer.Option(help="Plans in the plan-by-skill table.", rich_help_panel=OUTPUT)] = 12,
    csv: Annotated[
        Path | None,
        typer.Option(help="Also write each deal's mean score per level to this CSV.", rich_help_panel=OUTPUT),
    ] = None,
    jobs: JobsOpt = -1,
    format: FormatOpt = "table",
) -> None:
    """Play the skill ladder on common deals: score per level, how much of the spread is deck luck
    and how much skill, and which plans only strong players complete.

    Each level plays the same deals; the split is a two-way analysis of variance over (deal, level)
    with bootstrap intervals (welcome_sim/studies/skill.py).

    Examples:
      welcome-sim skill --games 1000
      welcome-sim skill -p 3 -l novice -l club -l expert
      welcome-sim skill --expansion zombies --csv deals.csv
    """
    from welcome_sim.simcore.engine.game import check_mode_players
    from welcome_sim.simcore.engine.parallel import processes_for
    from welcome_sim.studies.skill import play_ladder

    check_format(format)
    names = _checked_levels(level)
    n_jobs = _check_numbers(top, games, seed, players, jobs)
    if csv is not None:  # before the ladder is played, not after
        U.output_file("--csv", str(csv))
    rs = RulesetSpec(edition, sheet, plans_file, mode, opponent, expansion, nine_three_quarters, deck).load()
    check_mode_players(rs, players)
    warm(processes_for(games, n_jobs), tables_variants(rs.expansion is None, [[n] * players for n in names]))
    with games_bar("skill") as bar:
        task = bar.add_task("games", total=games * len(names))
        rows, split, y = play_ladder(
            rs, names, games, seed, players, n_jobs, advance=lambda n: bar.advance(task, n)
        )
    about = f"{rs.describe()}; {players} player(s) per table, all of one level; {games:,} common deals, seed {seed}"
    out = console if format == "table" else err  # csv and json own stdout
    if format == "table":
        console.print(about, highlight=False)
        reconstructed_notice(rs.reconstructed)
        _show_ladder(rows)
    if csv is not None:
        _write_scores(csv, names, y, games, out)
    out.print(_luck_and_skill(split, players, games, len(names)), highlight=False)
    bad = _say_monotone(names, y, out)
    if format != "table":
        frames = _skill_frames(rows, names)
        shares = {
            k: {"share": getattr(split, k), "ci95": list(getattr(split, f"{k}_ci"))}
            for k in ("luck", "skill", "rest", "within")
        }
        extra = {"games": games, "seed": seed, "luck_skill": shares, "not_monotone": bad}
        emit(format, about, rs.reconstructed, frames, extra)
        return
    _show_plans(rows, top)


def _checked_levels(level: list[str] | None) -> list[str]:
    """The levels to play (default: the skill ladder), each a strategy, at least two, each once."""
    from welcome_sim.strategies.registry import ladder_levels, parse_strategy

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
    return names


def _check_numbers(top: int, games: int, seed: int, players: int, jobs: int) -> int:
    """Check --top, --games, --seed and --players; the processes --jobs asks for."""
    from welcome_sim.simcore.engine.game import check_players

    U.check_int("--top", top, 0, 1000)
    U.check_int("--games", games, 2, U.MAX_BATCH_GAMES, " (at least 2 for an interval)")
    U.check_seed("--seed", seed)
    check_players(players)
    return U.check_jobs(jobs, "loky")


def _show_ladder(rows: list) -> None:
    """The ladder's table: each level's score, interval (rounded outward), winner, plans and speed."""
    from welcome_sim.analysis.rounding import interval_parts

    print_table(
        console,
        ["level", "mean", "95% CI", "winner", "plans/seat", "all 3", "games/s"],
        [
            [
                r.name,
                *interval_parts(r.mean, r.mean - r.ci95, r.mean + r.ci95),
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
        left=["level"],
    )


def _write_scores(csv: Path, names: list[str], y: Any, games: int, out: Any) -> None:
    """--csv: each game's mean seat score per level, one row a deal."""
    import polars as pl

    frame = pl.DataFrame({"game": list(range(games)), **{n: y[:, i] for i, n in enumerate(names)}})
    try:
        frame.write_csv(csv)
    except OSError as exc:
        raise WelcomeSimError(f"--csv: cannot write {csv}: {exc.strerror or exc}") from None
    out.print(f"each game's mean seat score per level written to {csv}", highlight=False)


def _luck_and_skill(split: Any, players: int, games: int, levels: int) -> str:
    """The sentence splitting the variance of scores into the deal, the level and the rest."""
    return (
        f"luck and skill: of the variance of one game's {'score' if players == 1 else 'mean seat score'} "
        f"over {games:,} deals x {levels} levels, "
        f"{100 * split.luck:.0f}% is the deal (luck, 95% CI {100 * split.luck_ci[0]:.0f}-"
        f"{100 * split.luck_ci[1]:.0f}%), {100 * split.skill:.0f}% the level (skill, "
        f"{100 * split.skill_ci[0]:.0f}-{100 * split.skill_ci[1]:.0f}%), {100 * split.rest:.0f}% the "
        f"rest (how levels fare differently on one deal, and decision noise; "
        f"{100 * split.rest_ci[0]:.0f}-{100 * split.rest_ci[1]:.0f}%). Method: variance components of a "
        "two-way ANOVA of each game's mean seat score over (deal, level); bootstrap over deals. "
        f"At one level, the deal makes {100 * split.within:.0f}% of the spread of scores "
        f"({100 * split.within_ci[0]:.0f}-{100 * split.within_ci[1]:.0f}%), the player's own choices the rest."
    )


def _say_monotone(names: list[str], y: Any, out: Any) -> list[str]:
    """Say whether every level scores more than the one below on the same deals; the exceptions."""
    from welcome_sim.studies.skill import monotone

    bad = monotone(names, y)
    if bad:
        out.print(
            Text.assemble(("note:", "yellow"), " ", "the ladder is NOT monotone here: " + "; ".join(bad))
        )
    else:
        out.print("the ladder is monotone here: every level scores more than the one below on the same deals")
    return bad


def _skill_frames(rows: list, names: list[str]) -> dict[str, Any]:
    """The ladder and the plan-by-level table as frames for csv or json."""
    import polars as pl

    from welcome_sim.studies.skill import skill_plans

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
            for pid, rates, spread in skill_plans(rows)
        ],
        schema={"plan": pl.String, **{n: pl.Float64 for n in names}, SPREAD: pl.Float64},
    )
    return {"ladder": ladder, "plans": by_plan}


def _show_plans(rows: list, top: int) -> None:
    """The plans whose validation rate differs most between the levels (--top of them)."""
    from welcome_sim.studies.skill import skill_plans

    plans = skill_plans(rows)
    if plans:
        levels = [r.name for r in rows]
        print_table(
            console,
            ["plan", *levels, "spread"],
            [
                [pid, *(f"{100 * x:.0f}%" for x in rates), f"{100 * spread:+.0f} pp"]
                for pid, rates, spread in plans[:top]
            ],
            title=f"plan validation rate by level (the {min(top, len(plans))} plans where skill matters most)",
            keys=["plan"],
            left=["plan"],
        )
        # How far a rate can be trusted: the fewest seats behind one, at its widest (a 50% rate).
        seats = min(r.per_plan[pid][1] for pid, _, _ in plans[:top] for r in rows)
        console.print(
            f"spread: {levels[-1]} − {levels[0]}, in percentage points (pp); each rate rests on {seats:,} or "
            f"more seats that had the plan: within ±{100 * 1.96 * math.sqrt(0.25 / seats):.0f} pp at 95%",
            highlight=False,
        )
    else:
        console.print("plan validation by level: no plan was in play for 30 seats or more; play more games")
