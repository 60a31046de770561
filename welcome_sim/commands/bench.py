"""`bench`: the kernel's speed in games per second, against a baseline file or another revision."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from welcome_sim.commands.common import (
    PLAYERS,
    RUN,
    DeckOpt,
    EditionOpt,
    ExpansionOpt,
    ModeOpt,
    NineOpt,
    OpponentOpt,
    PlansFileOpt,
    SheetOpt,
    StrategyOpt,
    console,
    err,
    fail,
    reconstructed_notice,
    warm,
)
from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.ground import userinput as U
from welcome_sim.simcore.rules.ruleset import Ruleset
from welcome_sim.simcore.rules.rulespec import RulesetSpec
from welcome_sim.termtables import print_table

COMPARE = "Compare"


def bench(
    games: Annotated[int, typer.Option(help="Games per measurement.", rich_help_panel=RUN)] = 50_000,
    players: Annotated[
        list[int] | None,
        typer.Option(
            "--players", "-p", help="Player counts; repeat. [default: 1, 4]", rich_help_panel=PLAYERS
        ),
    ] = None,
    edition: EditionOpt = "collector",
    sheet: SheetOpt = None,
    strategy: StrategyOpt = None,
    repeat: Annotated[
        int, typer.Option(help="Timed runs; the best counts (--compare-rev: rounds).", rich_help_panel=RUN)
    ] = 3,
    mode: ModeOpt = "standard",
    opponent: OpponentOpt = None,
    expansion: ExpansionOpt = None,
    nine_three_quarters: NineOpt = False,
    deck: DeckOpt = None,
    plans_file: PlansFileOpt = None,
    jobs: Annotated[
        int,
        typer.Option(help="Processes (-1: all cores); games/s is their sum.", rich_help_panel=RUN),
    ] = 1,
    save_baseline: Annotated[
        bool,
        typer.Option(help="Write the figures into the baseline file.", rich_help_panel=COMPARE),
    ] = False,
    compare: Annotated[
        bool, typer.Option(help="Show the baseline's figures beside today's.", rich_help_panel=COMPARE)
    ] = False,
    compare_rev: Annotated[
        str | None,
        typer.Option(
            help="Git revision to time alternately with this code (A B A B ...).", rich_help_panel=COMPARE
        ),
    ] = None,
    baseline: Annotated[
        str | None,
        typer.Option(help="Baseline file. [default: benchmarks/baseline.json]", rich_help_panel=COMPARE),
    ] = None,
) -> None:
    """Measure kernel speed: games per second after compilation, on one or more processes.

    Examples:
      welcome-sim bench --games 20000 -p 1 -p 4
      welcome-sim bench --expansion zombies --jobs -1
      welcome-sim bench --compare-rev main
    """
    from welcome_sim import benchmark as B
    from welcome_sim.simcore.engine.game import batch_variant

    try:
        player_counts = players or [1, 4]
        n_jobs = _checked_jobs(player_counts, games, repeat, jobs)
        _check_comparison(compare, compare_rev, save_baseline, baseline, n_jobs)
        path = Path(baseline) if baseline is not None else B.BASELINE_FILE
        rows = B.load_baseline(path) if compare else []
        if save_baseline and path.exists():
            B.load_baseline(path)  # refuse to overwrite a damaged file before measuring
        spec = RulesetSpec(edition, sheet, plans_file, mode, opponent, expansion, nine_three_quarters, deck)
        rs = spec.load()
        strategies = _checked_strategies(rs, player_counts, strategy)
        if compare_rev is not None:
            sha, rev_root = B.revision_tree(compare_rev)
    except WelcomeSimError as exc:
        fail(exc)
    if compare_rev is not None:
        _bench_against(
            rs, compare_rev, sha, rev_root, strategies, player_counts, games, repeat, _driver_load(spec)
        )
        return
    warm(
        n_jobs, {batch_variant(rs.expansion is None, [name], n) for name in strategies for n in player_counts}
    )
    title = (
        f"kernel speed, {rs.edition.title}, mode {rs.mode}{_expansion(rs)}, sheet {rs.sheet.title}"
        + _own_files(rs)
    )
    if n_jobs > 1:
        title += f"; {n_jobs} processes, games/s summed"
    cols = ["strategy", "players", "games", "jobs", "best seconds", "games/s"]
    if compare:
        cols += ["baseline games/s", "ratio", "baseline commit"]
    table, measured = _measure(
        rs, strategies, player_counts, (games, repeat, n_jobs), rows if compare else None
    )
    print_table(
        console,
        cols,
        table,
        title=title,
        keys=["strategy", "players"],
        words=["strategy"],
        left=["strategy"],
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
            fail(exc)
        console.print(f"wrote {len(measured)} rows into {written}", highlight=False)
    reconstructed_notice(rs.reconstructed)


def _checked_jobs(player_counts: list[int], games: int, repeat: int, jobs: int) -> int:
    """Check the player counts, --games and --repeat; the processes --jobs asks for (-1: every core)."""
    from welcome_sim.simcore.engine.game import check_players

    for n in player_counts:
        check_players(n)
    U.check_int("--games", games, 1, U.MAX_BATCH_GAMES)
    U.check_int("--repeat", repeat, 1, 100)
    n_jobs = U.check_jobs(jobs, "loky")
    if n_jobs == -1:
        from welcome_sim.simcore.engine.parallel import cores

        n_jobs = cores()
    return n_jobs


def _check_comparison(
    compare: bool, compare_rev: str | None, save_baseline: bool, baseline: str | None, n_jobs: int
) -> None:
    """--compare, --compare-rev, --save-baseline, --baseline and --jobs fit together."""
    if compare and compare_rev is not None:
        raise WelcomeSimError(
            f"--compare-rev: {compare_rev!r} and --compare both compare; give one (the file baseline "
            "or a revision)"
        )
    if compare_rev is not None and save_baseline:
        raise WelcomeSimError(
            f"--compare-rev: {compare_rev!r} compares two codes and saves nothing; drop --save-baseline "
            "(save a baseline from one code, without --compare-rev)"
        )
    if compare_rev is not None and n_jobs != 1:
        # Each side runs alone, one process at a time, so the ratio is the code's and not how the
        # machine's cores (shared with whatever else runs) split between two sides' workers.
        raise WelcomeSimError(
            f"--compare-rev: {compare_rev!r} times each side in one process, alternately, so that the "
            f"two never share the cores; --jobs {n_jobs} would time the cores more than the code. Drop "
            f"--jobs (a code change moves the one-process ratio), or run `welcome-sim bench --jobs {n_jobs}` "
            f"in this checkout and in a checkout of {compare_rev}"
        )
    if baseline is not None and not (compare or save_baseline):
        raise WelcomeSimError(f"--baseline: {baseline!r} applies only with --compare or --save-baseline")


def _checked_strategies(rs: Ruleset, player_counts: list[int], strategy: list[str] | None) -> list[str]:
    """The strategies to measure (default random and greedy), each checked, at player counts the
    mode plays."""
    from welcome_sim.simcore.engine.game import check_mode_players
    from welcome_sim.strategies.registry import parse_strategy

    for n in player_counts:
        check_mode_players(rs, n)
    strategies = strategy or ["random", "greedy"]
    for name in strategies:
        parse_strategy(name)
    return strategies


def _measure(
    rs: Ruleset,
    strategies: list[str],
    player_counts: list[int],
    how: tuple[int, int, int],
    rows: list[dict[str, Any]] | None,
) -> tuple[list[list[str]], list[Any]]:
    """Measure every strategy at every player count (`how`: games, repeat, processes): the table's
    cells (with the baseline `rows`' figures and ratio, when comparing) and the measurements."""
    from welcome_sim import benchmark as B

    games, repeat, n_jobs = how
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
            if rows is not None:
                base = B.find_row(rows, m.key)
                if base is None:
                    cells += ["-", "-", "not measured"]
                else:
                    ratio = m.games_per_second / base["games_per_second"]
                    cells += [f"{base['games_per_second']:,.0f}", f"{ratio:.2f}", str(base["commit"])[:12]]
            table.append(cells)
            seats = "1 player" if n == 1 else f"{n} players"
            err.print(f"{strat}, {seats}: warm-up/compile {m.warmup_seconds:.1f} s", style="dim")
    return table, measured


def _driver_load(spec: RulesetSpec) -> dict[str, Any]:
    """The ruleset's options as the --compare-rev driver passes them to load_ruleset (data files of
    one's own by absolute path: the driver runs in another folder)."""
    return dict(
        edition=spec.edition,
        sheet=spec.sheet,
        mode=spec.mode,
        opponent=spec.opponent,
        expansion=spec.expansion,
        nine=spec.nine,
        deck=_absolute(spec.deck),
        plans=_absolute(spec.plans),
    )


def _expansion(rs) -> str:
    """', expansion <title>' (and the 9¾ cards) where the ruleset has them: a table says what it timed."""
    words = f", expansion {rs.expansion.title}" if rs.expansion is not None else ""
    return words + (", with the 9¾ cards" if rs.nine else "")


def _own_files(rs: Any) -> str:
    """', own files: sheet NAME.HASH, deck ..., plans ..., expansion ...' for the data files of one's own in use
    (empty for the built-in ones), so a title never passes a designer's copy for the original."""
    from welcome_sim.simcore.rules.ruleset import is_builtin_label

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
        f"kernel speed, current code vs {short}: {rs.edition.title}, mode {rs.mode}{_expansion(rs)} "
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
                fail(exc)
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
        left=["strategy"],
        drop_constant=False,
    )
    console.print("ratio = current / revision, pair by pair (above 1: the current code is faster)")
