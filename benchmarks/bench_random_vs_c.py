"""Random one-player games: the kernel's speed against a plain-C yardstick, side by side.

Run: .venv/bin/python benchmarks/bench_random_vs_c.py [--games N] [--pairs K] [--edition first]

The yardstick (benchmarks/randgame.c: random legal one-player base games, first-edition deck,
Classic sheet, no plans) is built with `cc -O2` and run as a subprocess; it reports its own
games/s. The kernel plays its batch in this process (`simulate`, strategy random, one player,
standard mode, `--edition`: first by default, the yardstick's deck) after a warm-up that compiles
or loads the cache. Only games/s are compared, so the two batch sizes may differ. They run in turn,
C then kernel, K times; each pair gives a ratio kernel/C, and the median ratio is printed, so a
machine whose speed drifts (other jobs on the cores) moves both sides of a pair alike. Both sides
are measured in wall time (the yardstick's own clock) and in CPU time (the kernel's process time
around the games; the yardstick's user + system time from the OS, its start-up included, about a
millisecond): on a machine shared with other jobs the CPU-time ratio is the steadier of the two.
`--only kernel` or `--only c` prints one side's games/s once (for an outside timer that alternates
whole processes itself; `--only kernel --players 4` times four-player games). `--players 4` also
prints the kernel's four-player speed after the pairs (no C counterpart).
"""

from __future__ import annotations

import argparse
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def build_c(source: Path) -> Path:
    """Compile the yardstick with the flags it documents; returns the binary."""
    binary = Path(tempfile.gettempdir()) / "welcome_sim_randgame"
    subprocess.run(["cc", "-O2", "-o", str(binary), str(source)], check=True)
    return binary


def _children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def c_rate(binary: Path, games: int) -> tuple[float, float]:
    """The yardstick's games/s: by its own wall clock (games only), and by its CPU time."""
    cpu0 = _children_cpu()
    text = subprocess.run([str(binary), str(games)], check=True, capture_output=True, text=True).stdout
    cpu = _children_cpu() - cpu0
    m = re.search(r"([\d.]+) games/s", text)
    if m is None:
        raise RuntimeError(f"unexpected yardstick output: {text!r}")
    return float(m.group(1)), games / cpu


class Kernel:
    """The kernel's random games, compiled once; `rate()` times one batch."""

    def __init__(self, edition: str, games: int, players: int) -> None:
        from welcome_sim.simcore.engine.game import game_seeds, simulate
        from welcome_sim.simcore.rules.ruleset import load_ruleset

        self.simulate = simulate
        self.rs = load_ruleset(edition)
        self.players = players
        self.seeds = game_seeds(12345, games)
        simulate(self.rs, self.seeds[:10], players, ["random"])  # compile or load the cache

    def rate(self) -> tuple[float, float]:
        """games/s of one batch by the wall clock and by this process's CPU time."""
        t0, c0 = time.perf_counter(), time.process_time()
        self.simulate(self.rs, self.seeds, self.players, ["random"])
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        return self.seeds.shape[0] / wall, self.seeds.shape[0] / cpu


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200_000, help="kernel games per timing")
    ap.add_argument("--c-games", type=int, default=1_000_000, help="yardstick games per timing")
    ap.add_argument("--pairs", type=int, default=5, help="alternating C/kernel pairs")
    ap.add_argument("--edition", default="first", choices=("first", "collector"))
    ap.add_argument("--players", type=int, default=1, help="also time the kernel with this many")
    ap.add_argument("--c-source", type=Path, default=HERE / "randgame.c")
    ap.add_argument("--only", choices=("kernel", "c"), help="print one side's games/s once")
    args = ap.parse_args(argv)

    if args.only == "c":
        wall, cpu = c_rate(build_c(args.c_source), args.c_games)
        print(f"c {wall:.0f} games/s (cpu {cpu:.0f} games/s)")
        return
    if args.only == "kernel":
        wall, cpu = Kernel(args.edition, args.games, args.players).rate()
        print(f"kernel {args.players}p {wall:.0f} games/s (cpu {cpu:.0f} games/s)")
        return
    kernel = Kernel(args.edition, args.games, 1)
    binary = build_c(args.c_source)
    c_rate(binary, args.c_games // 10)  # warm the binary and the page cache
    ratios, cpu_ratios = [], []
    print(f"kernel: edition {args.edition}, standard mode, 1 player, random; {args.games:,} games a timing")
    print(f"C yardstick: {args.c_source.name}, {args.c_games:,} games a timing")
    for i in range(args.pairs):
        c, c_cpu = c_rate(binary, args.c_games)
        k, k_cpu = kernel.rate()
        ratios.append(k / c)
        cpu_ratios.append(k_cpu / c_cpu)
        print(
            f"pair {i + 1}: wall: C {c:9,.0f} kernel {k:9,.0f} games/s, ratio {k / c:.3f}; "
            f"cpu: C {c_cpu:9,.0f} kernel {k_cpu:9,.0f} games/s, ratio {k_cpu / c_cpu:.3f}"
        )
    for name, r in (("wall", ratios), ("cpu", cpu_ratios)):
        print(
            f"median ratio kernel/C ({name}): {statistics.median(r):.3f} (min {min(r):.3f}, max {max(r):.3f})"
        )
    if args.players != 1:
        many = Kernel(args.edition, args.games, args.players)
        rates = [many.rate() for _ in range(3)]
        wall = statistics.median(r[0] for r in rates)
        cpu = statistics.median(r[1] for r in rates)
        print(f"kernel, {args.players} players: {wall:,.0f} games/s wall, {cpu:,.0f} cpu (median of 3)")


if __name__ == "__main__":
    main(sys.argv[1:])
