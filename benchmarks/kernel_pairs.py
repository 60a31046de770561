"""Why a sweep's games per CPU second read below games_per_second.py's: the kernel alone, no sweep.

Run: python benchmarks/kernel_pairs.py replay [ROUNDS]          (default 15)
     python benchmarks/kernel_pairs.py pairs [GAMES [ROUNDS]]    (default 8000 4; Linux, taskset)
     python benchmarks/kernel_pairs.py play GAMES                (one process; what `pairs` starts)

replay  in one process, alternating: games_per_second.py's batch (seed 99, games 0-999, the same
        games every time, as its best of 5 replays them) and fresh 1,000-game blocks of a sweep's
        seeds (seed 1, games 1,000 on); games per CPU second (median and best) and rounds per
        game of each, so a difference of the games' length shows apart from one of speed.
pairs   two processes playing GAMES fresh greedy games each (chunks of 2,000, as a sweep's
        workers), in turn (A B A B ...): both pinned to CPU 0 (they take turns, never at once)
        and one on each CPU (at once, as a sweep's two workers); each one's games per CPU second.
        If the two CPUs share a physical core or its caches (a virtual machine's two vCPUs may),
        the games per CPU second drop when the two play at once. Other jobs on the machine run
        on both CPUs in both cases: compare the two lines of one round, on the quietest machine
        you have.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

from welcome_sim.simcore.engine.game import game_seeds, simulate
from welcome_sim.simcore.rules.ruleset import load_ruleset

CHUNK = 2000  # a sweep's default chunk


def _ruleset():
    rs = load_ruleset("collector", mode="standard")
    simulate(rs, game_seeds(1, 5), 1, ["greedy"])  # load the compiled kernel untimed
    return rs


def _rate(rs, seeds) -> tuple[float, float]:
    """(games per CPU second, mean rounds per game) of one batch."""
    t0 = time.process_time()
    res = simulate(rs, seeds, 1, ["greedy"])
    cpu = time.process_time() - t0
    return len(seeds) / cpu, float(res.game_column("rounds").mean())


def replay(rounds: int) -> None:
    """games_per_second.py's replayed batch against fresh blocks of sweep seeds, alternating."""
    rs = _ruleset()
    same, fresh = [], []
    for r in range(rounds):
        same.append(_rate(rs, game_seeds(99, 1000)))
        fresh.append(_rate(rs, game_seeds(1, 1000, start=1000 * (r + 1))))
    for name, xs in (("replayed batch (seed 99, games 0-999)", same), ("fresh sweep blocks (seed 1)", fresh)):
        rates = [x[0] for x in xs]
        print(
            f"{name:40s} games/CPU s median {statistics.median(rates):6.0f} best {max(rates):6.0f}; "
            f"rounds/game {statistics.mean(x[1] for x in xs):.2f}"
        )


def play(games: int) -> None:
    """Fresh sweep-seed chunks in this process; print games per CPU second."""
    rs = _ruleset()
    t0 = time.process_time()
    for first in range(0, games, CHUNK):
        simulate(rs, game_seeds(1, min(CHUNK, games - first), start=first), 1, ["greedy"])
    print(f"{games / (time.process_time() - t0):.0f}")


def pairs(games: int, rounds: int) -> None:
    """Two processes on one CPU (in turn) against one on each CPU (at once), alternating."""
    cmd = [sys.executable, __file__, "play", str(games)]
    for r in range(rounds):
        for name, cpus in (("one CPU, in turn", ("0", "0")), ("two CPUs, at once", ("0", "1"))):
            procs = [
                subprocess.Popen(["taskset", "-c", c, *cmd], stdout=subprocess.PIPE, text=True) for c in cpus
            ]
            rates = [int(p.communicate()[0]) for p in procs]
            load = Path("/proc/loadavg").read_text().split()[0]
            print(f"round {r + 1} {name:18s} (load {load}): games/CPU s {rates[0]:,} and {rates[1]:,}")


def main(argv: list[str]) -> None:
    if argv[:1] == ["replay"]:
        replay(int(argv[1]) if len(argv) > 1 else 15)
    elif argv[:1] == ["pairs"]:
        pairs(int(argv[1]) if len(argv) > 1 else 8000, int(argv[2]) if len(argv) > 2 else 4)
    elif argv[:1] == ["play"] and len(argv) == 2:
        play(int(argv[1]))
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
