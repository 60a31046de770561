"""Fair pairings (issue 38): a game with the 9¾ cards is dealt as the game without them on the
same seed, the 9¾ cards inserted from a stream of their own, and the deal still follows the rules.

Rules quoted: the expansions' rulebook (003), "Play with these 3 9¾ Construction cards simply by
adding them to the other Construction cards."; the Collector's base rules (002), "Shuffle the
Construction cards and divide them in 3 equal stacks"; the AAA solo mode, "draw randomly 20
cards. Then: In this deck of 20 cards, shuffle 1 AAA validation card"; the first edition's solo
variant (001), "Mélangez les cartes Travaux et formez deux piles égales. Constituez une pioche de
cartes Travaux en mélangeant la carte Solo dans une des piles puis en la plaçant en dessous de
l'autre pile."
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from welcome_sim.simcore.engine.game import game_seeds, simulate
from welcome_sim.simcore.ground.layout import LOG_DECK, LOG_STACK
from welcome_sim.simcore.rules.ruleset import load_ruleset

GAMES = 40


def _deals(edition: str, mode: str, players: int, nine: bool, games: int = GAMES, strategy: str = "greedy"):
    """Per game: the set-up deal from the log (stacks top first, or the deck top first) and the plans."""
    rs = load_ruleset(edition, mode=mode, nine=nine)
    res = simulate(rs, game_seeds(7, games), players, [strategy], log=True)
    log = res.log
    setup = log[log[:, 1] == 0]
    deals = []
    for g in range(games):
        rows = setup[setup[:, 0] == g]
        if mode == "standard" or mode == "advanced":
            st = rows[rows[:, 3] == LOG_STACK]
            deal = [[int(c) for _, c in sorted((r[5], r[6]) for r in st if r[4] == i)] for i in range(3)]
        else:
            dk = rows[(rows[:, 3] == LOG_DECK) & (rows[:, 6] == 0)]
            deal = [int(c) for _, c in sorted((r[4], r[5]) for r in dk)]
        deals.append(deal)
    return deals, res.games[:, 2:5], len(rs.deck.cards)


@pytest.mark.parametrize(
    "edition,mode,players",
    [("collector", "expert", 2), ("collector", "solo", 1), ("first", "solo", 1), ("first", "expert", 3)],
)
def test_hand_deck_with_the_nine_cards_keeps_every_base_card_in_order(edition, mode, players) -> None:
    """Hand modes: the 9¾ game's deck is the base game's deck with the three 9¾ cards inserted."""
    base, base_plans, n_base = _deals(edition, mode, players, False)
    nine, nine_plans, n_cards = _deals(edition, mode, players, True)
    assert n_cards == n_base + 3
    assert np.array_equal(base_plans, nine_plans)  # the same plans
    for b, x in zip(base, nine, strict=True):
        assert [c for c in x if c < n_base] == [c for c in b if c < n_base]
        assert sorted(c for c in x if n_base <= c < n_cards) == [n_base, n_base + 1, n_base + 2]
        assert len(x) == len(b) + 3
        if mode == "solo" and edition == "collector":
            # The same validation card (its slot) with as many cards under it: among the bottom 20.
            (ib,) = [i for i, c in enumerate(b) if c >= n_base]
            (ix,) = [i for i, c in enumerate(x) if c >= n_cards]
            assert b[ib] - n_base == x[ix] - n_cards
            assert len(b) - 1 - ib == len(x) - 1 - ix <= 20
        if mode == "solo" and edition == "first":
            # The solo card in the lower of two equal piles (42 cards of 84).
            (ix,) = [i for i, c in enumerate(x) if c >= n_cards]
            assert len(x) - 1 - ix <= n_cards // 2


@pytest.mark.parametrize("edition,mode", [("collector", "standard"), ("first", "advanced")])
def test_stacks_with_the_nine_cards_keep_each_stacks_base_cards_in_order(edition, mode) -> None:
    """Stacks: three equal stacks (22 and 28 cards with the 9¾ cards); each 9¾ stack from the top flips its base stack's cards in
    the base game's order; the only base cards that change stack are the bottom cards of a stack
    with two or three 9¾ cards, which go, in order, to the bottom of a stack with none."""
    base, base_plans, n_base = _deals(edition, mode, 1, False)
    nine, nine_plans, n_cards = _deals(edition, mode, 1, True)
    assert np.array_equal(base_plans, nine_plans)
    same_top = 0
    for b, x in zip(base, nine, strict=True):
        assert [len(s) for s in b] == [n_base // 3] * 3 and [len(s) for s in x] == [n_cards // 3] * 3
        assert sorted(c for s in x for c in s) == list(range(n_cards))
        moved, filled = [], []
        for bs, xs in zip(b, x, strict=True):
            own = [c for c in xs if c < n_base]
            k = min(len(own), len(bs))
            assert own[:k] == bs[:k]  # this stack's base cards from the top, in order
            moved += bs[k:]  # passed on from its bottom
            filled += own[k:]  # received at its bottom
            same_top += xs[0] == bs[0]
        assert filled == moved and len(moved) <= 2
    # The first flip of a stack is the same card unless a 9¾ card is on top (1 in 28).
    assert same_top >= 0.85 * 3 * len(base)


def test_nine_cards_are_spread_as_a_shuffle_spreads_them() -> None:
    """The 9¾ cards' places are uniform: as many in one stack and at each depth as a shuffle of all
    the cards gives (the Collector's 63 + 3 cards, stacks of 22: one stack holds all three in
    3·C(22,3)/C(66,3) = 10.1% of the deals, one in each in 22³/C(66,3) = 23.3%)."""
    games = 1500
    nine, _, n_cards = _deals("collector", "standard", 1, True, games, "random")
    n_base, per = n_cards - 3, n_cards // 3
    counts = np.array([sorted(sum(c >= n_base for c in s) for s in x) for x in nine])
    depth = [i for x in nine for s in x for i, c in enumerate(s) if c >= n_base]
    all3 = 3 * math.comb(per, 3) / math.comb(n_cards, 3)
    each = per**3 / math.comb(n_cards, 3)
    for seen, p in ((np.mean(counts[:, 2] == 3), all3), (np.mean(counts[:, 2] == 1), each)):
        assert abs(seen - p) < 4 * np.sqrt(p * (1 - p) / games)
    # Depth from the top uniform over 0..per-1.
    mean, sd = (per - 1) / 2, np.sqrt((per**2 - 1) / 12)
    assert abs(np.mean(depth) - mean) < 4 * sd / np.sqrt(len(depth))
    assert np.bincount(depth, minlength=per).min() > 0
