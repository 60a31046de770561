"""Paired strength of look-ahead settings on the same deals: each strategy's mean score, each one's
difference to the first (the reference) with its 95% interval, and the wall-clock games/s of each.

Run: python benchmarks/lookahead_strength.py GAMES SEED REFERENCE OTHER [OTHER...]
  [--mode solo|standard|...] [--players N] [--jobs N] [--expansion X]
e.g. python benchmarks/lookahead_strength.py 2000 7 lookahead:look_race=0,look_batch=32 lookahead
Every strategy plays the same game seeds (game_seeds(SEED, GAMES)) with the same deals, so the
difference is taken game by game (paired): its interval is the paired one, mean +- 1.96 sd/sqrt(n).
The kernel is compiled or loaded on a small batch outside the timing; each line is printed as soon
as its strategy is done. The games/s come from runs one after the other: on a shared machine the
ratio is a rough one (`welcome-sim bench --compare-rev` alternates the two sides).
--ref-scores FILE: the reference's per-game scores saved by an earlier --save run on the same seed
(its first GAMES entries), so the slow reference is not played again; every strategy listed is
then compared with it (its games/s column is left blank).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from welcome_sim.simcore.engine.game import game_seeds, simulate
from welcome_sim.simcore.engine.parallel import simulate_parallel
from welcome_sim.simcore.rules.ruleset import load_ruleset


def main() -> None:
    """Play every strategy on the same deals and print the paired table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", type=int)
    ap.add_argument("seed", type=int)
    ap.add_argument("strategies", nargs="+", help="the first is the reference")
    ap.add_argument("--mode", default="standard")
    ap.add_argument("--expansion", default=None)
    ap.add_argument("--players", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=-1)
    ap.add_argument("--save", default=None, help="folder: each strategy's per-game scores as STRATEGY.npy")
    ap.add_argument("--ref-scores", default=None, help="the reference's scores saved by --save on this seed")
    a = ap.parse_args()
    if a.save:
        Path(a.save).mkdir(parents=True, exist_ok=True)  # before the games: a missing folder lost them
    rs = load_ruleset("collector", mode=a.mode, expansion=a.expansion)
    seeds = game_seeds(a.seed, a.games)
    simulate(rs, game_seeds(a.seed + 1, 1), a.players, [a.strategies[0]])  # compile or load
    print(f"{a.games} deals, seed {a.seed}, mode {a.mode}, expansion {a.expansion}, {a.players} player(s)")
    print(f"{'strategy':60s} {'mean':>8s} {'diff':>7s} {'95% CI':>17s} {'games/s':>8s} {'ratio':>6s}")
    ref, rate0 = None, None
    if a.ref_scores:
        ref = np.load(a.ref_scores)
        if len(ref) < a.games:
            raise SystemExit(f"--ref-scores: {a.ref_scores} holds {len(ref)} games, fewer than {a.games}")
        ref = ref[: a.games].astype(np.float64)
        print(f"{'reference: ' + a.ref_scores:60s} {ref.mean():8.2f}", flush=True)
    for s in a.strategies:
        t0 = time.perf_counter()
        res = simulate_parallel(rs, seeds, a.players, [s], jobs=a.jobs)
        rate = a.games / (time.perf_counter() - t0)
        y = res.column("total").astype(np.float64).mean(axis=1)  # mean over seats
        if a.save:
            np.save(Path(a.save) / f"{s.replace(':', '_')}.npy", y)
        if ref is None:
            ref = y
        if rate0 is None:
            rate0 = rate
        d = y - ref
        half = 1.96 * d.std(ddof=1) / np.sqrt(len(d)) if len(d) > 1 else float("nan")
        ci = f"[{d.mean() - half:+.2f}, {d.mean() + half:+.2f}]"
        print(
            f"{s:60s} {y.mean():8.2f} {d.mean():+7.2f} {ci:>17s} {rate:8.2f} {rate / rate0:6.2f}", flush=True
        )


if __name__ == "__main__":
    main()
