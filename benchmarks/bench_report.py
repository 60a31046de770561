"""Report generation time on a 100,000-row sweep dataset (target: under 30 seconds).

Run: .venv/bin/python benchmarks/bench_report.py [folder]
Plays the sweep first if the folder holds none (random players, 1-4 players, 10,000 games per
cell: 100,000 rows), then times `build_report` alone.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from welcome_sim.reports.builder import build_report
from welcome_sim.sweep import store
from welcome_sim.sweep.config import SweepConfig
from welcome_sim.sweep.run import run_sweep


def main(folder: str | None = None) -> None:
    """Print the seconds taken to build the report of a 100,000-row dataset."""
    run = Path(folder or Path(tempfile.gettempdir()) / "welcome-sim-bench-report")
    if store.read_manifest(run) is None:
        run_sweep(SweepConfig(games=10_000, players=[1, 2, 3, 4], strategies=["random"], seed=5), run)
    rows = store.scan(run).select("total").collect().height
    out = run / "report.html"
    t0 = time.perf_counter()
    build_report([str(run)], out)
    seconds = time.perf_counter() - t0
    print(f"report of {rows:,} rows: {seconds:.1f} s ({out.stat().st_size / 1e6:.2f} MB HTML)")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
