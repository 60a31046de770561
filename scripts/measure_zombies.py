"""Zombie Outbreak measurements of issue 37: the Zombie cards' order per variant, and the AAA games
whose deck runs out.

    .venv/bin/python scripts/measure_zombies.py order --games 300
    .venv/bin/python scripts/measure_zombies.py deck-out --games 2000 --opponent 3

`order` counts, over random games, the Zombie cards (by kind) in the order they are dealt: the first
stack top first (standard), the set-up deck then each rebuilt deck (expert), the deck top first
(AAA). `deck-out` plays greedy against an AAA level and reports how many games run the deck out
(the reshuffle reading) and the scores; run it with a kernel whose Zombie AAA deck is not rebuilt
to measure the alternative reading (docs/findings/expansions.md says how).
"""

from __future__ import annotations

import argparse
from collections import Counter

import numpy as np

from welcome_sim.simcore.engine.game import game_seeds, simulate
from welcome_sim.simcore.ground.layout import END_DECK, LOG_DECK, LOG_STACK, SPECIAL_X
from welcome_sim.simcore.rules.ruleset import load_ruleset

KINDS = ("left", "right", "all")


def card_orders(mode: str, opponent: str | None, players: int, games: int, seed: int) -> Counter:
    """How often each order of Zombie cards (their kinds, as dealt) occurs in random games."""
    rs = load_ruleset(expansion="zombies", mode=mode, opponent=opponent)
    n = len(rs.deck.cards)
    log = simulate(rs, game_seeds(seed, games), players, ["random"], log=True).log
    counts: Counter = Counter()
    for g in range(games):
        r = log[log[:, 0] == g]
        if mode == "standard":
            rows = r[(r[:, 3] == LOG_STACK) & (r[:, 1] == 0) & (r[:, 4] == 0)]
            cards = rows[np.argsort(rows[:, 5]), 6]
        else:
            rows = r[r[:, 3] == LOG_DECK]
            cards = rows[np.lexsort((rows[:, 4], rows[:, 6], rows[:, 1])), 5]
        counts[tuple(KINDS[int(c) - n - SPECIAL_X] for c in cards if c >= n + SPECIAL_X)] += 1
    return counts


def deck_out(opponent: str, games: int, seed: int) -> None:
    """Greedy against an AAA level: games whose deck runs out, and the scores (95% intervals)."""
    rs = load_ruleset(expansion="zombies", mode="solo", opponent=opponent)
    res = simulate(rs, game_seeds(seed, games), 1, ["greedy"], log=True)
    log = res.log
    touched = np.zeros(games, dtype=bool)
    touched[np.unique(log[(log[:, 3] == LOG_DECK) & (log[:, 6] == 1), 0])] = True
    touched |= (res.game_column("end_reason") & END_DECK) > 0
    me = res.column("total").astype(float)[:, 0]
    aaa = res.game_column("aaa_total").astype(float)

    def ci(x: np.ndarray) -> str:
        return f"{x.mean():.2f} ± {1.96 * x.std(ddof=1) / np.sqrt(len(x)):.2f}"

    print(f"level {opponent}, greedy, {games} games, seed {seed}: deck ran out in {touched.sum()}")
    print(f"  player {ci(me)}; AAA {ci(aaa)}; player strictly ahead {np.mean(me > aaa):.1%}")
    if touched.sum() > 1:
        m, a = me[touched], aaa[touched]
        print(f"  those games: player {ci(m)}; AAA {ci(a)}; ahead {np.mean(m > a):.1%}")


def main() -> None:
    """Print the measurement asked for."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=["order", "deck-out"])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--opponent", default="3", help="deck-out: the AAA level")
    args = ap.parse_args()
    if args.what == "deck-out":
        deck_out(args.opponent, args.games, args.seed)
        return
    for mode, opponent, players in (("expert", None, 3), ("solo", "3", 1), ("standard", None, 2)):
        counts = card_orders(mode, opponent, players, args.games, args.seed)
        print(f"{mode} ({players} players, {args.games} random games, seed {args.seed}):")
        for order, k in counts.most_common():
            print(f"  {', '.join(order) or '-'}: {k}")


if __name__ == "__main__":
    main()
