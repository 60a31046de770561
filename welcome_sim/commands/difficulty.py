"""`difficulty`: every sheet, expansion, mode and the 9¾ cards ranked by a difficulty index beside
the publisher's stars, in the terminal or as csv/json."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from welcome_sim.commands import names
from welcome_sim.commands.common import (
    OUTPUT,
    PLAYERS,
    RUN,
    EditionOpt,
    JobsOpt,
    check_format,
    console,
    err,
    games_bar,
    named,
    note,
    reconstructed_notice,
    tables_variants,
    warm,
)
from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.ground import userinput as U
from welcome_sim.termtables import print_table


def difficulty(
    games: Annotated[
        int, typer.Option(help="Games per item and level (the same deals for each).", rich_help_panel=RUN)
    ] = 2_000,
    players: Annotated[
        list[str] | None,
        typer.Option(
            "--players",
            "-p",
            help="Player counts, a ranking each: 2,4 or 1-4 or repeat. [default: 2, 4]",
            rich_help_panel=PLAYERS,
        ),
    ] = None,
    reference: Annotated[
        str,
        typer.Option(
            help="Whose difficulty: a ladder level or strategy.",
            rich_help_panel=PLAYERS,
            callback=named("--reference", names.strategy),
        ),
    ] = "casual",
    expert: Annotated[
        str,
        typer.Option(
            help="The stronger player of the skill gap.",
            rich_help_panel=PLAYERS,
            callback=named("--expert", names.strategy),
        ),
    ] = "expert",
    seed: Annotated[int, typer.Option(help="Seed of the game seeds.", rich_help_panel=RUN)] = 1,
    edition: EditionOpt = "collector",
    format: Annotated[
        str, typer.Option("--format", "-f", help="table, csv or json.", rich_help_panel=OUTPUT)
    ] = "table",
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="csv/json: write here, not to stdout.", rich_help_panel=OUTPUT),
    ] = None,
    charts: Annotated[
        str | None,
        typer.Option(help="Also draw difficulty.svg and .png in this folder.", rich_help_panel=OUTPUT),
    ] = None,
    jobs: JobsOpt = -1,
    measures: Annotated[
        str | None,
        typer.Option(
            help="Also measure 'race': a race expansion's own points lost to rivals (difficulty_own.py).",
            rich_help_panel=RUN,
        ),
    ] = None,
    robustness: Annotated[
        bool,
        typer.Option(
            "--robustness",
            help="Also check each expansion's rank when its reconstructed values vary (robustness.py).",
            rich_help_panel=RUN,
        ),
    ] = False,
    vary: Annotated[
        list[str] | None,
        typer.Option(
            "--vary",
            help="PATH=V1,V2 or PATH=A..B/step: each value an item; repeat.",
            rich_help_panel=RUN,
        ),
    ] = None,
) -> None:
    """Rank every sheet, expansion, mode and the 9¾ cards by a difficulty index, beside the
    publisher's stars, with the rank agreement (Spearman's rho) and where they disagree.

    Each item and its base game are played by --reference, --expert and --reference blind to the
    item, on the same seeds. The index averages, in base-game standard deviations (positive =
    harder): net points lost, the skill gap and the blind cost; 95% bootstrap intervals over deals.
    Method: welcome_sim/analysis/difficulty.py.

    --vary PATH=V1,... (as in sweep): each value an item beside the one it is about.

    Examples:
      welcome-sim difficulty --games 1000
      welcome-sim difficulty --charts charts/ --robustness
      welcome-sim difficulty -p 2 --vary expansion.zombies.start_ammunition=0..4
    """
    from welcome_sim.analysis import difficulty as D
    from welcome_sim.analysis import difficulty_own as OWN
    from welcome_sim.simcore.engine.game import check_players
    from welcome_sim.sweep.config import parse_players

    check_format(format)
    if out is not None and format == "table":
        raise WelcomeSimError(f"--out: {str(out)!r} applies only to --format csv or json")
    kinds = OWN.parse_measures(measures)
    _check_players_compared(reference, expert)
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
    specs, items_of = _planned(edition, counts, vary or [])
    levels = [reference, expert]
    blind = D.blind_of(reference)
    deals = _play(specs, levels, kinds, (edition, games, seed, n_jobs))
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
        else None
    )
    if charts is not None:
        _difficulty_charts(rankings, charts)
    recon = sorted({p for s in specs.values() for p in s.ruleset(edition).reconstructed})
    if format != "table":
        _write_rankings(rankings, own, verdicts, format, out)
        # The rows' `reconstructed` column marks only what an item adds to its base game; the notice,
        # on stderr so the csv or json stays clean, names every reconstructed file the games used.
        for ranking in rankings.values():
            for name in ranking.dropped:
                note("left out: " + name, err)
        reconstructed_notice(recon, err)
        return
    console.print(
        f"{games:,} common deals per item and level, seed {seed}, edition {edition}; reference player "
        f"{reference}, skill gap to {expert}; ranked at "
        + " and ".join(f"{n} player{'s' if n > 1 else ''}" for n in counts),
        highlight=False,
    )
    for n, ranking in rankings.items():
        _show_ranking(ranking, n, reference, verdicts)
        if n in own:
            OWN.show(console, own[n], [r.item.label for r in [*ranking.rows, *ranking.apart]], levels)
    reconstructed_notice(recon)


def _check_players_compared(reference: str, expert: str) -> None:
    """--reference and --expert are strategies, and two different ones."""
    from welcome_sim.strategies.registry import parse_strategy

    for option, name in (("--reference", reference), ("--expert", expert)):
        try:
            parse_strategy(name)
        except WelcomeSimError as exc:
            raise WelcomeSimError(str(exc).replace("--strategy:", f"{option}:", 1)) from None
    if reference == expert:
        raise WelcomeSimError(f"--expert: {expert!r} is also the --reference; give a stronger player")


def _planned(edition: str, counts: list[int], vary: list[str]) -> tuple[dict[str, Any], dict[int, list]]:
    """The configurations to play (by label) and the items ranked at each player count (with
    --vary, each value's variant beside the item it is about)."""
    from welcome_sim.analysis.difficulty_games import plan, with_variants
    from welcome_sim.simcore.rules.overrides import parse_all

    axes = parse_all(vary)

    # Every player count's items on the same deals; a spec shared by counts (the solo modes' items
    # and their 1-player base game) is played once.
    specs: dict[str, Any] = {}
    items_of: dict[int, list] = {}
    for n in counts:
        found, items_of[n] = plan(edition, n)
        if axes:
            found, items_of[n] = with_variants(found, items_of[n], axes, edition, n)
        specs.update((s.label, s) for s in found)
    return specs, items_of


def _play(specs: dict[str, Any], levels: list[str], kinds: Any, how: tuple[str, int, int, int]) -> Any:
    """Play every configuration by the levels and the reference blind (and, with --measures, each
    race expansion alone) on common deals (`how`: edition, games, seed, processes), with a bar."""
    import polars as pl

    from welcome_sim.analysis import difficulty as D
    from welcome_sim.analysis import difficulty_own as OWN
    from welcome_sim.analysis.difficulty_games import play
    from welcome_sim.simcore.engine.parallel import processes_for

    edition, games, seed, n_jobs = how
    blind = D.blind_of(levels[0])
    extra = OWN.extra_specs(list(specs.values()), kinds)
    wanted = set().union(
        *(
            tables_variants(s.expansion is None, [[v] * s.players for v in [*levels, blind]])
            for s in [*specs.values(), *extra]
        )
    )
    warm(processes_for(games, n_jobs), wanted)
    with games_bar("difficulty") as bar:
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
    return deals


def _write_rankings(
    rankings: dict[int, Any], own: dict[int, Any], verdicts: dict | None, format: str, out: Path | None
) -> None:
    """Every player count's ranking as one csv or json table, to --out or stdout."""
    import polars as pl

    from welcome_sim.analysis import difficulty as D
    from welcome_sim.analysis import difficulty_own as OWN

    frames = []
    for n, ranking in rankings.items():
        frame = D.table(ranking)
        if verdicts is not None:
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
        with games_bar("robustness") as bar:
            task = bar.add_task(
                "games", total=R.games_needed(planned, [*levels, D.blind_of(levels[0])], games)
            )
            return R.measure(
                planned,
                deals,
                items_of,
                rankings,
                (levels[0], levels[1], D.blind_of(levels[0])),
                R.Plays(edition, games, seed, n_jobs),
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
    from welcome_sim.analysis.rounding import interval_text

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

    def cell(r: D.Row, m: str, digits: int = 2) -> str:
        # Rounded as the sentences under the table and the report round (bounds outward).
        v = r.raw.get(m)
        return "–" if v is None else interval_text(v[0], v[1], v[2], digits, sign=True)

    rows = [
        (
            f"{r.rank} ({r.rank_ci[0]}-{r.rank_ci[1]})",
            # The marks stay with the label: * reconstructed data, † a race with no rival.
            r.item.label
            + ("\u00a0*" if r.item.reconstructed else "")
            + ("\u00a0†" if r.item.lone_race else ""),
            D.stars_text(r.item.stars),
            cell(r, "net_score", 1),
            interval_text(r.index, r.index_ci[0], r.index_ci[1], 2, sign=True),
            cell(r, "score", 1),
            cell(r, "refusals"),
            cell(r, "plans"),
            cell(r, "skill", 1),
            D.NO_BLIND_COST if r.item.no_blind_cost and "blind" in r.raw else cell(r, "blind", 1),
            cell(r, "rounds", 1),
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
        + (f" † {D.LONE_RACE}." if any(r.item.lone_race for r in ranking.rows) else "")
        + (
            f" {D.NO_BLIND_LEGEND}."
            if any(r.item.no_blind_cost and "blind" in r.raw for r in ranking.rows)
            else ""
        ),
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
                    cell(r, "skill", 1),
                    cell(r, "rounds", 1),
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
        note("left out: " + name)
