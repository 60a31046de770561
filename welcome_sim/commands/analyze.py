"""`analyze` (balance tables of sweep runs, in the terminal or as csv/json) and `report` (one
self-contained HTML report)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from welcome_sim.commands.common import OUTPUT, check_format, console, err, note, reconstructed_notice
from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.ground import userinput as U
from welcome_sim.termtables import print_frame

# Columns of analyze's tables that say what a row is about, besides the configuration.
ROW_LABELS = ("letter", "plan", "plan_a_id", "plan_b_id", "plan_c_id", "end_reason", "toggle", "a", "b")
RunDirs = Annotated[list[str], typer.Argument(help="Sweep output folders (each with manifest.json).")]


def analysis_tables(paths: list[str]) -> tuple:
    """The runs opened, their rows combined, the configuration columns and every balance table."""
    from welcome_sim.analysis import tables as T
    from welcome_sim.analysis.load import combined, open_runs
    from welcome_sim.analysis.plans import own_files
    from welcome_sim.analysis.sensitivity import with_sensitivity

    runs = open_runs(paths)
    lf = combined(runs)
    by = [c for c in T.CONFIG if c in lf.collect_schema().names()]
    every = T.balance_tables(lf, by, files=own_files(r.manifest for r in runs))
    return runs, lf, by, with_sensitivity(every, lf, by, [r.manifest for r in runs])


def analyze(
    runs: RunDirs,
    full: Annotated[
        bool, typer.Option("--full", help="Every table and row, not the summary.", rich_help_panel=OUTPUT)
    ] = False,
    format: Annotated[
        str,
        typer.Option(
            "--format", "-f", help="table (terminal), csv or json (every table).", rich_help_panel=OUTPUT
        ),
    ] = "table",
    out: Annotated[
        str | None,
        typer.Option(
            "--out", "-o", help="Folder for csv/json files. [default: RUN/analysis]", rich_help_panel=OUTPUT
        ),
    ] = None,
    charts: Annotated[
        str | None,
        typer.Option(help="Also write every chart as SVG and PNG into this folder.", rich_help_panel=OUTPUT),
    ] = None,
) -> None:
    """Balance of sweep runs: a summary of scores, components, plans, endings, length, refusals and
    effects (--full: every table and row; --format csv: every table as files).

    Intervals are 95% and clustered by game (the seats of a game share its deal); rates in %.
    Method: welcome_sim/analysis/tables.py.

    Examples:
      welcome-sim analyze runs/sweep
      welcome-sim analyze runs/zombies --full
      welcome-sim analyze runs/a runs/b --format csv -o tables/
    """
    check_format(format)
    if out is not None and format == "table":
        raise WelcomeSimError(
            f"--out: {out!r} applies only to --format csv or json (tables go to the terminal)"
        )
    if out is not None and format != "table":
        U.output_dir("--out", out)
    if charts is not None:
        U.output_dir("--charts", charts)
    if format != "table" and out is None and runs and Path(runs[0]).is_dir():
        U.output_dir("--out", Path(runs[0]) / "analysis")  # the default, checked before the work too
    loaded, lf, by, every = analysis_tables(runs)
    _unfinished_warning(runs)
    folder = None
    if format != "table":  # the default folder lies inside the first run, checked by now
        folder = U.output_dir("--out", out if out is not None else Path(runs[0]) / "analysis")
    named = {k: v for k, v in every.items() if k != "game_length_histogram"}  # a chart's data
    notice = sorted({p for r in loaded for p in r.manifest.get("reconstructed", [])})
    if format == "table" and not full:
        from welcome_sim.commands.summary import print_summary

        print_summary(console, every, by, [str(r) for r in runs])
        _print_sensitivity(every, by)
    elif format == "table":
        for name, df in named.items():
            # The configuration and what names a row (plan, end reason, compared values) label it:
            # each stacked part of a table too wide for the terminal repeats them.
            keys = [c for c in df.columns if c in by or c in ROW_LABELS]
            hidden = print_frame(console, df, title=name.replace("_", " "), keys=keys, max_rows=60)
            if hidden:
                console.print(f"... {hidden} more rows (use --format csv)", highlight=False)
    else:
        folder.mkdir(parents=True, exist_ok=True)
        for name, df in named.items():
            path = folder / f"{name}.{format}"
            df.write_csv(path) if format == "csv" else df.write_json(path)
        console.print(f"wrote {len(named)} {format} files to {folder}", highlight=False)
    if charts:
        from welcome_sim.analysis import charts as C
        from welcome_sim.analysis.labels import titled, titles_of

        with titled(titles_of(r.manifest for r in loaded)):  # variants named by their files' titles
            figures = C.balance_figures(lf, every, by)
        for name, _title, fig in figures:
            C.save(fig, Path(charts) / name)
        console.print(f"wrote {len(figures)} charts (SVG and PNG) to {charts}", highlight=False)
    if format == "table":
        from welcome_sim.analysis.labels import own_file_legend

        legend = own_file_legend(r.manifest for r in loaded)
        if legend:
            note("your own files in these rows: " + "; ".join(legend))
    reconstructed_notice(notice)
    _changed_plans_notice(loaded)


def _print_sensitivity(every: dict, by: list[str]) -> None:
    """Each varied path's effect curve as a table (a sweep with --vary)."""
    from welcome_sim.analysis.sensitivity import shown

    curves = every.get("sensitivity")
    if curves is None:
        return
    for path in curves["path"].unique(maintain_order=True).to_list():
        df = shown(curves, path, by)
        keys = [c for c in df.columns if c in by or "." in c or c == "value"]
        print_frame(console, df, title=f"sensitivity to {path}", keys=keys, max_rows=60)
    console.print(
        "95% intervals clustered by game; Δ: the difference from the reference value (the file's own where "
        "played), paired by seed where that narrows the interval (marked paired), else independent.",
        highlight=False,
    )


def _unfinished_warning(paths: list[str]) -> None:
    """One line on stderr per sweep with chunks still to play: its tables hold part of its games."""
    from welcome_sim.sweep import store

    for path in paths:
        manifest = store.read_manifest(Path(path))
        if manifest is None:
            continue
        players = {c["cell"]: c["players"] for c in manifest["cells"]}
        chunks = manifest["chunks"]
        # The files there, not the manifest's status: a chunk written since its last save counts.
        done = sum(
            chunks[cid]["rows"] // players.get(int(cid[1 : cid.index("-g")]), 1)
            for cid in store.chunk_files(Path(path))
            if cid in chunks
        )
        total = manifest["games_per_cell"] * len(manifest["cells"])
        if done < total:
            err.print(
                Text.assemble(
                    ("warning:", "bold yellow"),
                    f" {path}: the sweep is unfinished ({done:,} of {total:,} games played); finish it "
                    f"with the command that started it plus --resume (welcome-sim sweep ... --out {path} "
                    "--resume)",
                ),
                highlight=False,
            )


def _changed_plans_notice(runs: list) -> None:
    """A note per run whose plan files differ from the ones its sweep used."""
    from welcome_sim.analysis.plans import changed_plan_files

    for r in runs:
        changed = changed_plan_files(r.manifest)
        if changed:
            note(
                f"{r.name}: these plan files differ from the ones the sweep used (a built-in "
                "file's cards are described by today's text, a file of one's own's as unknown): "
                + ", ".join(changed)
            )


def default_report_path(runs: list[str]) -> str:
    """report.html beside the data it reads: in the run's folder, or in the folder holding all the
    runs (their common parent); in the current folder when they share no folder one may write to
    (only the root, another user's home, another drive)."""
    import os

    folders = [os.path.abspath(r) for r in runs]
    try:
        common = Path(folders[0] if len(folders) == 1 else os.path.commonpath(folders))
    except ValueError:  # runs on different drives (Windows)
        return "report.html"
    if common.parent == common or not os.access(common, os.W_OK):
        return "report.html"
    path = common / "report.html"
    return str(path) if os.path.isabs(runs[0]) else os.path.relpath(path)


def report(
    runs: RunDirs,
    output: Annotated[
        str | None,
        typer.Option(
            "--output",
            "-o",
            help="HTML file to write. [default: report.html in the run's folder; for several runs, in the "
            "folder that holds them all]",
            show_default=False,
        ),
    ] = None,
    baseline: Annotated[
        str | None,
        typer.Option(
            help="Reference configuration as SETTING=VALUE pairs (sheet=blueprint,mode=advanced; a file of "
            "one's own by its path or title). [default: the base game where the runs hold it]"
        ),
    ] = None,
) -> None:
    """Write one self-contained HTML balance report (charts inlined) for one or more sweep runs.

    Findings first (plain sentences with 95% intervals, stated only when significant), then a
    section per question: difficulty against the base game, scores, components, plans, combinations,
    the AAA, player count, expansions, length, refusals and the effect of each setting.

    Examples:
      welcome-sim report runs/sweep                 # writes runs/sweep/report.html
      welcome-sim report runs/zombies -o zombies.html
      welcome-sim report runs/a runs/b --baseline sheet=blueprint
    """
    from welcome_sim.reports.builder import build_report

    if output is None:
        from welcome_sim.analysis.load import run_folder

        for r in runs:  # a missing run is the error to name, not the report's folder it implies
            run_folder(r)
        output = default_report_path(runs)
    U.output_file("--output", output)
    _unfinished_warning(runs)
    t0 = time.perf_counter()
    with console.status("analysing and drawing..."):
        info = build_report(runs, output, baseline)
    console.print(
        f"wrote {info['path']} ({info['games']:,} games, {info['configs']} configuration"
        f"{'' if info['configs'] == 1 else 's'}) "
        f"in {time.perf_counter() - t0:.1f} s",
        highlight=False,
    )
    reconstructed_notice(info["reconstructed"])
