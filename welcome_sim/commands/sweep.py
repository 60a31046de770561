"""`sweep`: a grid of configurations played into a Parquet dataset, its options merged over a
--config file's, validated once into a sweep plan that the checks and the run share."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from welcome_sim.commands import names
from welcome_sim.commands.common import (
    GAME,
    PLAYERS,
    RUN,
    console,
    err,
    named,
    note,
    reconstructed_notice,
    warm,
)
from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.ground import userinput as U
from welcome_sim.sweep.config import SweepPlan
from welcome_sim.termtables import print_frame

# The options whose values a --config file may give too, by its keys (sweep.config.KEYS).
_MERGED = (
    "games", "seed", "out", "sheet", "edition", "mode", "opponent", "expansion", "nine_three_quarters",
    "players", "strategy", "plans", "deck", "plans_file", "vary", "jobs", "chunk_size", "backend", "scheduler",
)  # fmt: skip


def sweep(
    games: Annotated[
        int | None,
        typer.Option(help="Games per grid cell. [default: 1000]", rich_help_panel=RUN),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Sweep seed. [default: 0]", rich_help_panel=RUN)] = None,
    out: Annotated[
        str | None,
        typer.Option("--out", "-o", help="Output folder. [default: runs/sweep]", rich_help_panel=RUN),
    ] = None,
    sheet: Annotated[
        list[str] | None,
        typer.Option(
            help="A sheet name or .toml file; repeat. [default: each expansion's own]",
            rich_help_panel=GAME,
            callback=named("--sheet", names.builtin("sheets")),
        ),
    ] = None,
    edition: Annotated[
        list[str] | None,
        typer.Option(
            help="collector and/or first; repeat. [default: collector]",
            rich_help_panel=GAME,
            callback=named("--edition", names.builtin("editions")),
        ),
    ] = None,
    mode: Annotated[
        list[str] | None,
        typer.Option(
            "--mode",
            "-m",
            help="standard, advanced, expert, expert-advanced, solo, solo-advanced; repeat. [default: standard]",
            rich_help_panel=GAME,
            callback=named("--mode", names.mode),
        ),
    ] = None,
    opponent: Annotated[
        list[str] | None,
        typer.Option(
            "--opponent",
            help="Solo mode's AAA Opponent cards: 0,1,2 or 0-5 or names. [default: 0]",
            rich_help_panel=GAME,
        ),
    ] = None,
    expansion: Annotated[
        list[str] | None,
        typer.Option(
            "--expansion",
            "-x",
            help=", ".join(names.expansion_choices())
            + " or .toml copies; e.g. none,zombies. [default: none]",
            rich_help_panel=GAME,
            callback=named("--expansion", names.listed(names.expansion)),
        ),
    ] = None,
    nine_three_quarters: Annotated[
        str | None,
        typer.Option("--nine-three-quarters", help="off, on or both. [default: off]", rich_help_panel=GAME),
    ] = None,
    deck: Annotated[
        list[str] | None,
        typer.Option(
            "--deck",
            help="A deck name or .toml file; repeat. [default: the edition's]",
            rich_help_panel=GAME,
            callback=named("--deck", names.builtin("decks")),
        ),
    ] = None,
    plans_file: Annotated[
        list[str] | None,
        typer.Option(
            "--plans-file",
            help="A standard plan set or .toml file; repeat. [default: the edition's]",
            rich_help_panel=GAME,
            callback=named("--plans-file", names.builtin("plans")),
        ),
    ] = None,
    plans: Annotated[
        list[str] | None,
        typer.Option(
            help="random, all (every A x B x C) or ids A-1,B-3,C-2. [default: random]", rich_help_panel=GAME
        ),
    ] = None,
    vary: Annotated[
        list[str] | None,
        typer.Option(
            "--vary",
            help="PATH=V1,V2 or PATH=A..B/step; repeat.",
            rich_help_panel=GAME,
        ),
    ] = None,
    players: Annotated[
        list[str] | None,
        typer.Option(
            "--players", "-p", help="Player counts: 2, 1,2,4 or 1-4. [default: 1]", rich_help_panel=PLAYERS
        ),
    ] = None,
    strategy: Annotated[
        list[str] | None,
        typer.Option(
            "--strategy",
            "-s",
            help="A table's strategy; 'a+b' seats a and b in turn; repeat. [default: greedy]",
            rich_help_panel=PLAYERS,
            callback=named("--strategy", names.strategy),
        ),
    ] = None,
    config: Annotated[
        str | None, typer.Option(help="Settings from a TOML file (options override).", rich_help_panel=RUN)
    ] = None,
    jobs: Annotated[
        int | None, typer.Option(help="Processes; -1: all cores. [default: -1]", rich_help_panel=RUN)
    ] = None,
    chunk_size: Annotated[
        int | None, typer.Option(help="Games per chunk file. [default: 2000 or more]", rich_help_panel=RUN)
    ] = None,
    backend: Annotated[
        str | None, typer.Option(help="loky (local) or dask. [default: loky]", rich_help_panel=RUN)
    ] = None,
    scheduler: Annotated[
        str | None,
        typer.Option(help="Dask scheduler: tcp://host:8786 or 'local'.", rich_help_panel=RUN),
    ] = None,
    resume: Annotated[bool, typer.Option(help="Finish an interrupted sweep.", rich_help_panel=RUN)] = False,
) -> None:
    """Play a grid of configurations into a Parquet dataset (one row per player per game).

    Every grid cell (sheet x deck x plans x edition x expansion x 9¾ x mode x players x strategy
    x each --vary value) plays --games games on the same seeds; run again with a larger --games
    to add games.

    --vary PATH=V1,V2: a data file's value by its keys, a cell per value (docs/guide/what-if.md).

    Examples:
      welcome-sim sweep --games 20000 -x none,zombies -o runs/zombies
      welcome-sim sweep -x zombies --vary expansion.zombies.start_ammunition=0..4
      welcome-sim sweep --vary plans.A-1.scores=6/3,8/4,10/5 -p 2 -o runs/a1
    """
    settings = _Settings.of(locals(), config)
    games_per_cell, sweep_seed = _grid_numbers(settings)
    run = _run_settings(settings)
    plan = _validated_plan(settings, games_per_cell, sweep_seed)
    out_dir = _checked_out(settings, plan, run, resume)
    summary = _play(plan, out_dir, run, resume)
    _print_summary(summary)


class _Settings:
    """The sweep's settings by --config key: a value on the command line over the file's, the
    file's over the default."""

    def __init__(self, given: dict[str, Any], base: dict[str, Any], config: str | None = None) -> None:
        self.given, self.base, self.config = given, base, config

    @classmethod
    def of(cls, options: dict[str, Any], config: str | None) -> _Settings:
        """The command's option values (its locals) and the --config file's, read here."""
        from welcome_sim.sweep.config import load_toml

        base = load_toml(config) if config is not None else {}
        return cls({key: options[key] for key in _MERGED}, base, config)

    def pick(self, key: str, default: Any) -> Any:
        """The command line's value, else the file's, else the default."""
        value = self.given[key]
        return value if value not in (None, []) else self.base.get(key, default)

    def option(self, key: str) -> str:
        """Where a setting's value comes from, as an error names it: '--games', or the --config
        file's key when the command line does not give it."""
        if self.given[key] in (None, []) and key in self.base:
            return f"--config {self.config}: key '{key}'"
        return "--" + key.replace("_", "-")

    def named(self, key: str) -> bool:
        """Whether the command line or the file gives a value."""
        return self.given[key] not in (None, []) or key in self.base


def _grid_numbers(s: _Settings) -> tuple[int, int]:
    """--games and --seed, checked; without --games, a sweep folder's own games per cell (so that
    `--resume` finishes it as it was started), else 1000."""
    from welcome_sim.sweep import store

    default = 1000
    folder = Path(str(s.pick("out", "runs/sweep")))
    if not s.named("games") and folder.is_dir():
        old = store.read_manifest(folder)
        default = old["games_per_cell"] if old is not None else default
    n_games = U.check_int(s.option("games"), s.pick("games", default), 1, U.MAX_GAMES, " games per grid cell")
    return n_games, U.check_seed(s.option("seed"), s.pick("seed", 0))


def _run_settings(s: _Settings) -> dict[str, Any]:
    """How the sweep is run (not what it plays): backend, jobs and chunk size, checked."""
    backend = s.pick("backend", "loky")
    if backend not in ("loky", "dask"):
        raise WelcomeSimError(f"--backend: {backend!r} is not one of loky, dask")
    jobs = U.check_jobs(s.pick("jobs", -1), backend)
    size = s.pick("chunk_size", None)
    if size is not None:
        U.check_int("--chunk-size", size, 1, U.MAX_CHUNK, " games per chunk")
    return {"backend": backend, "jobs": jobs, "chunk_size": size}


# How the names of each setting are read (names.py), on the command line (its callbacks) and in a
# --config file alike.
_RESOLVERS = {
    "sheet": names.builtin("sheets"), "edition": names.builtin("editions"), "mode": names.mode,
    "deck": names.builtin("decks"), "plans_file": names.builtin("plans"), "strategy": names.strategy,
    "expansion": names.listed(names.expansion),
}  # fmt: skip


def _named(s: _Settings, key: str, default: list[str]) -> list[Any]:
    """A setting's values with each name in its canonical spelling ('Blueprint' -> 'blueprint')."""
    option = s.option(key)
    values = s.pick(key, default)
    return [_RESOLVERS[key](option, v) if isinstance(v, str) else v for v in values]


def _validated_plan(s: _Settings, n_games: int, sweep_seed: int) -> SweepPlan:
    """The grid the options give, validated once (every ruleset loaded) into the sweep's plan."""
    from welcome_sim.sweep.config import (
        SweepConfig,
        default_sheets,
        parse_nine,
        parse_opponents,
        parse_players,
        split_list,
    )

    for key in ("plans", "sheet", "strategy", "edition", "mode", "deck", "plans_file"):
        for v in s.pick(key, []):
            U.check_nonempty(s.option(key), v, "a value (see welcome-sim sweep --help)")
    expansions = split_list(_named(s, "expansion", ["none"]))
    cfg = SweepConfig(
        games=n_games,
        seed=sweep_seed,
        # Without --sheet each expansion is played on its own sheet (the American Dream's is not
        # the Classic one).
        sheets=_named(s, "sheet", default_sheets(expansions)),
        editions=_named(s, "edition", ["collector"]),
        modes=_named(s, "mode", ["standard"]),
        players=parse_players(s.pick("players", ["1"])),
        strategies=_named(s, "strategy", ["greedy"]),
        plans=[p.strip() for p in s.pick("plans", ["random"])],
        opponents=parse_opponents(s.pick("opponent", ["0"])),
        expansions=expansions,
        nine=parse_nine(s.pick("nine_three_quarters", ["off"])),
        decks=_named(s, "deck", [""]),
        plans_files=_named(s, "plans_file", [""]),
        vary=[v.strip() for v in s.pick("vary", [])],
    )
    plan = cfg.validate()
    if s.named("opponent") and not any(c.opponent for c in plan.cells):
        raise WelcomeSimError(
            f"--opponent: {','.join(cfg.opponents)!r} applies only to the AAA solo mode (--mode solo or "
            f"solo-advanced, Collector's Edition); modes given: {', '.join(cfg.modes)}"
        )
    return plan


def _checked_out(s: _Settings, plan: SweepPlan, run: dict[str, Any], resume: bool) -> Path:
    """The output folder, and every run option, checked before any compile; `run` gains the
    scheduler."""
    from welcome_sim.sweep import store
    from welcome_sim.sweep.run import (
        check_out_folder,
        check_paths,
        check_run_options,
        check_same_sweep,
        chunk_size_for,
    )

    out_dir = U.output_dir("--out", s.pick("out", "runs/sweep"))
    run["scheduler"] = s.pick("scheduler", None)
    U.check_scheduler(run["scheduler"], run["backend"])
    # Wrong options or folder fail before any compile.
    check_run_options(run["backend"], run["scheduler"], run["jobs"])
    old = check_out_folder(out_dir, resume)
    if old is None:  # a resumed sweep keeps its chunks, checked when it started
        chunk_size_for(plan, run["chunk_size"])
    elif not resume and not check_same_sweep(plan, old, out_dir):  # more games would extend it
        # With --resume the sweep checks every chunk file's checksum (under its lock) and replays
        # a damaged one; without, a complete sweep is said to be so.
        if store.is_complete(old, out_dir):
            console.print(
                f"sweep complete: {out_dir} holds all {plan.config.games:,} games per grid cell of this "
                f"sweep ({len(plan.cells)} cell{'s' * (len(plan.cells) != 1)}); nothing to play. A larger "
                "--games adds games after them.",
                highlight=False,
            )
            raise typer.Exit(0)
        raise WelcomeSimError(f"--out: {out_dir} holds this sweep, unfinished; add --resume to finish it")
    check_paths(plan, out_dir)
    return out_dir


def _play(plan: SweepPlan, out_dir: Path, run: dict[str, Any], resume: bool) -> Any:
    """Compile, then play the sweep with a progress bar on stderr; its summary."""
    from welcome_sim.simcore.engine.parallel import resolve_jobs
    from welcome_sim.sweep.run import run_sweep, sweep_variants

    # Compiled here and loaded by the workers before the clock and the bar start: the bar's games/s
    # must not count compiling. With worker processes this process plays nothing.
    jobs = run["jobs"] if run["backend"] == "loky" else 1
    warm(jobs, set(sweep_variants(plan)), here=resolve_jobs(jobs) == 1)
    with contextlib.ExitStack() as stack:
        return run_sweep(
            plan,
            out_dir,
            jobs=run["jobs"],
            chunk_size=run["chunk_size"],
            backend=run["backend"],
            scheduler=run["scheduler"],
            resume=resume,
            progress=_progress_bar(stack, time.perf_counter()),
        )


def _progress_bar(stack: contextlib.ExitStack, started: float) -> Callable[[int, int], None]:
    """The sweep's progress report: a bar of games with their rate, on stderr, shown from the first
    report on (after every check passed) and closed with `stack`."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    bars: list = []
    first_done: list[int] = []

    def on_progress(done: int, total: int) -> None:
        if not bars:
            bar = stack.enter_context(
                Progress(
                    TextColumn("[bold]sweep"),
                    BarColumn(),
                    MofNCompleteColumn(),
                    TextColumn("games"),
                    TextColumn("{task.fields[rate]}"),
                    TimeElapsedColumn(),
                    TextColumn("ETA"),
                    TimeRemainingColumn(),
                    console=err,
                    transient=False,
                    # Redrawn twice a second, not Rich's 10: each redraw costs the parent CPU that
                    # the workers need on a 2-core machine (10 Hz: 1.7% of a core, 2 Hz: 0.5%;
                    # benchmarks/sweep_overhead.py, docs/findings/performance-history.md).
                    refresh_per_second=2,
                )
            )
            bars.append((bar, bar.add_task("games", total=None, rate="")))
        bar, task_id = bars[0]
        if not first_done:
            first_done.append(done)
        elapsed = time.perf_counter() - started
        rate = (done - first_done[0]) / elapsed if elapsed > 0 else 0.0
        bar.update(task_id, completed=done, total=total, rate=f"{rate:,.0f} games/s")

    return on_progress


def _print_summary(summary: Any) -> None:
    """What the sweep did, its notes and the mean score of each configuration."""
    rate = summary.games_run / summary.seconds if summary.seconds > 0 else 0.0
    console.print(
        f"sweep done: {summary.games:,} games, {summary.rows:,} rows in {summary.out} "
        f"({summary.bytes / 1e6:,.1f} MB); this run played {summary.games_run:,} games in "
        f"{summary.seconds:,.1f} s ({rate:,.0f} games/s)",
        highlight=False,
    )
    for file, problem in summary.replayed.items():
        note(f"replayed a damaged chunk: {file}: {problem}")
    reconstructed_notice(summary.reconstructed)
    means = summary.means
    if means["win_rate"].is_null().all():
        means = means.drop("win_rate")  # players alone: no one to beat
    print_frame(
        console,
        means,
        title="mean score per configuration",
        keys=means.columns[: means.columns.index("games")],  # the cell and its configuration
        fmt=lambda v: "-" if v is None else f"{v:.2f}" if isinstance(v, float) else str(v),
        left=(),
    )
    own_files_notice(summary.out)


def own_files_notice(out: Any) -> None:
    """A note naming the files of one's own behind the rows' labels of name and hash."""
    from welcome_sim.analysis.labels import own_file_legend
    from welcome_sim.sweep import store

    manifest = store.read_manifest(Path(out))
    legend = own_file_legend([manifest] if manifest else [])
    if legend:
        note("your own files in these rows: " + "; ".join(legend))
