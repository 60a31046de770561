"""What a sweep costs besides its games: the same chunks played with and without the sweep around them.

Run: python benchmarks/sweep_overhead.py [GAMES [ROUNDS [JOBS]]]   (default 20000 3 -1)
     python benchmarks/sweep_overhead.py startup [ROUNDS]               (default 3)

Each round, in turn (A B A B ...), on one warm worker pool:
  kernel  the sweep's chunks (the same seeds, the same chunk size, the same processes) played and
          thrown away: game_seeds + simulate per chunk, nothing built or written;
  sweep   run_sweep into a new folder: the chunks played, turned into rows, written as Parquet
          with their sha256, the manifest saved, the summary read back.
It prints the wall time and the workers' CPU seconds (Linux: read from /proc) of each, their
ratios sweep/kernel (on a loaded machine the CPU ratio is the steadier), and the sweep's phases
(planning until the first chunk is handed out, playing, the summary after the last chunk) with
the parent process's CPU seconds in each (on two cores, what the parent uses is taken from the
workers). Then, in this process, one chunk's parts in CPU seconds: simulate, rows (chunk_frame),
Parquet encoding and the atomic write.
`startup` times the whole command (`welcome-sim sweep --games 4000`, two chunks, all cores) and
subtracts the play it reports ("played N games in X s"): what is left is starting Python,
importing, validating, loading the kernel in the parent and the workers, and the summary.
The machine may be loaded: compare the two lines of one round, not figures of another day.
"""

from __future__ import annotations

import io
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from welcome_sim.simcore.engine.game import batch_variant, game_seeds, simulate
from welcome_sim.simcore.engine.parallel import warm_workers
from welcome_sim.simcore.engine.warmup import warm_kernel
from welcome_sim.sweep import store
from welcome_sim.sweep.config import SweepConfig, SweepPlan, cell_ruleset
from welcome_sim.sweep.rows import chunk_frame
from welcome_sim.sweep.run import Task, chunk_size_for, plan_sweep, run_sweep


def parent_cpu() -> float:
    """CPU seconds of this process so far (user + system)."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def play_only(task: Task) -> int:
    """A chunk's games played as play_chunk plays them, and nothing else; the games played."""
    cell = task.cell
    seeds = game_seeds(task.seed, task.count, start=task.first)
    simulate(cell_ruleset(cell), seeds, cell.players, task.seats)
    return task.count


def worker_cpu() -> float:
    """CPU seconds (user + system) used so far by this process's child processes that still run:
    the worker pool (Linux: read from /proc; a finished child's are not counted)."""
    tick = os.sysconf("SC_CLK_TCK")
    me = os.getpid()
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
        if int(fields[1]) == me:  # ppid; then utime and stime (fields 4, 14 and 15 of stat)
            total += int(fields[11]) + int(fields[12])
    return total / tick


def kernel_round(plan: SweepPlan, tasks: list[Task], jobs: int) -> tuple[float, float]:
    """Wall seconds to play the sweep's chunks on the worker pool, nothing written, and the
    workers' CPU seconds."""
    from joblib import Parallel, delayed

    t0, w0 = time.perf_counter(), worker_cpu()
    played = sum(Parallel(n_jobs=jobs, return_as="generator_unordered")(delayed(play_only)(t) for t in tasks))
    wall, cpu = time.perf_counter() - t0, worker_cpu() - w0
    if played != plan.config.games * len(plan.cells):
        raise RuntimeError("kernel round: games missing")
    return wall, cpu


def sweep_round(plan: SweepPlan, jobs: int) -> dict[str, float]:
    """The phases of one run_sweep into a new folder: wall and parent CPU seconds."""
    out = Path(tempfile.mkdtemp(prefix="sweep-overhead-"))
    shutil.rmtree(out)
    marks: list[tuple[float, float]] = []
    total = plan.config.games * len(plan.cells)

    def progress(done: int, _total: int) -> None:
        if not marks or done == total:
            marks.append((time.perf_counter(), parent_cpu()))

    t0, c0, w0 = time.perf_counter(), parent_cpu(), worker_cpu()
    try:
        run_sweep(plan, out, jobs=jobs, progress=progress)
        t1, c1, w1 = time.perf_counter(), parent_cpu(), worker_cpu()
    finally:
        shutil.rmtree(out, ignore_errors=True)
    (ta, ca), (tb, cb) = marks[0], marks[-1]
    return {
        "wall": t1 - t0,
        "workers": w1 - w0,
        "plan": ta - t0,
        "play": tb - ta,
        "summary": t1 - tb,
        "cpu_plan": ca - c0,
        "cpu_play": cb - ca,
        "cpu_summary": c1 - cb,
    }


def chunk_parts(plan: SweepPlan, task: Task) -> dict[str, float]:
    """CPU seconds of one chunk's parts in this process."""
    cell = task.cell
    rs = cell_ruleset(cell)
    parts: dict[str, float] = {}

    def timed(name: str, f):
        c = time.process_time()
        value = f()
        parts[name] = time.process_time() - c
        return value

    seeds = timed("seeds", lambda: game_seeds(task.seed, task.count, start=task.first))
    res = timed("simulate", lambda: simulate(rs, seeds, cell.players, task.seats))
    df = timed(
        "rows",
        lambda: chunk_frame(res, cell, task.first, task.deck_name, task.plans_name, task.expansion_name),
    )
    timed("parquet (in memory)", lambda: df.write_parquet(io.BytesIO(), compression="zstd", statistics=True))
    with tempfile.TemporaryDirectory() as tmp:
        timed("write_atomic (encode, sha256, write)", lambda: store.write_atomic(df, Path(tmp) / "c.parquet"))
    return parts


def startup(rounds: int) -> None:
    """Wall seconds of a two-chunk CLI sweep, and of it what is not play (start-up and summary)."""
    for r in range(rounds):
        with tempfile.TemporaryDirectory() as tmp:
            cmd = [sys.executable, "-c", "from welcome_sim.cli import app; app()", "sweep"]
            t0 = time.perf_counter()
            done = subprocess.run(
                [*cmd, "--games", "4000", "--seed", "1", "-o", f"{tmp}/s"],
                capture_output=True,
                text=True,
                check=True,
            )
            wall = time.perf_counter() - t0
        found = re.search(r"played ([\d,]+) games in ([\d.]+) s", done.stdout)
        if found is None:
            raise RuntimeError(
                f"no 'played N games in X s' line in the sweep's output: {done.stdout[:300]!r}"
            )
        play = float(found.group(2))
        print(f"round {r + 1}: command {wall:6.2f} s, play {play:6.2f} s, the rest {wall - play:6.2f} s")


def main() -> None:
    """Alternate kernel-only and whole-sweep rounds; print both, their ratio and the phases."""
    if sys.argv[1:2] == ["startup"]:
        startup(int(sys.argv[2]) if len(sys.argv) > 2 else 3)
        return
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    jobs = int(sys.argv[3]) if len(sys.argv) > 3 else -1
    plan = SweepConfig(games=games, seed=1).validate()
    variants = {batch_variant(c.expansion == "none", c.seats(), c.players) for c in plan.cells}
    warm_kernel(variants=tuple(variants))
    warm_workers(jobs, variants)
    scratch = Path(tempfile.mkdtemp(prefix="sweep-overhead-plan-"))
    shutil.rmtree(scratch)
    tasks, _manifest, _ = plan_sweep(plan, scratch, chunk_size_for(plan, None), False)
    print(f"{games:,} games (greedy, 1 player, standard), {len(tasks)} chunks, jobs {jobs}")
    for r in range(rounds):
        k, k_cpu = kernel_round(plan, tasks, jobs)
        s = sweep_round(plan, jobs)
        print(
            f"round {r + 1}: kernel {k:7.2f} s, workers' CPU {k_cpu:7.2f} s | sweep {s['wall']:7.2f} s, workers' "
            f"CPU {s['workers']:7.2f} s | sweep/kernel: wall {s['wall'] / k:5.3f}, workers' CPU "
            f"{s['workers'] / k_cpu:5.3f} | sweep phases: plan {s['plan']:.2f} s, play {s['play']:.2f} s, "
            f"summary {s['summary']:.2f} s; parent CPU {s['cpu_plan']:.2f} / {s['cpu_play']:.2f} / "
            f"{s['cpu_summary']:.2f} s"
        )
    parts = chunk_parts(plan, tasks[0])
    print(f"one chunk of {tasks[0].count:,} games in this process, CPU seconds:")
    print(f"  ({tasks[0].count / parts['simulate']:,.0f} games per CPU second in this process)")
    for name, secs in parts.items():
        print(f"  {name:38s} {secs:8.4f}  ({secs / parts['simulate'] * 100:6.2f}% of simulate)")


if __name__ == "__main__":
    main()
