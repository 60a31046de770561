"""Fair pairings (issue 38) for Zombie Outbreak: its deal is laid out from the base game's deal on
the same seed (the main stream taken as the base game takes it), the Zombie cards drawn from a
stream of their own, and the deal still follows the rules.

Rules quoted (the expansions' rulebook, 003, Zombie Outbreak): "Shuffle all the Construction cards
and form 3 stacks of 10 cards. Randomly shuffle 1 Zombie card into each of these 3 stacks. Place
these 3 stacks on top of each other to create the first card stack, Number side up. With the
remaining cards, form the second card stack"; Expert mode, "Give 1 Construction card to each
architect. Then, form a deck with 10 Construction cards per architect and 1 Zombie card"; AAA solo,
"Shuffle all the Construction cards and take 60 cards ... Divide the 60 cards into 3 stacks of 20
cards each ... 1st stack: 1 Zombie card. 2nd stack: 1 Zombie card and 1 AAA Validation card. 3rd
stack: 1 Zombie card and 2 AAA Validation cards" and "Each round, draw only 2 Construction cards".

What cannot be shared: the Zombie game has two stacks, so the base game's third stack has no
counterpart (its top three cards end the first stack); in the hand modes a round draws fewer cards
(one a seat instead of two, two a round instead of three), so the Zombie deck holds the first of
each seat's two (the first two of each round's three) and the cards passed over come after.
"""

from __future__ import annotations

import numpy as np
import pytest

from welcome_sim.simcore.engine.game import game_seeds, simulate
from welcome_sim.simcore.ground.layout import LOG_DECK, LOG_STACK
from welcome_sim.simcore.rules.ruleset import load_ruleset

GAMES = 40
X_SPECIAL = 4  # a Zombie card's id: deck size + 4 + its index (layout SPECIAL_X)


def _deals(mode: str, players: int, zombies: bool, games: int = GAMES, strategy: str = "greedy"):
    """Per game: the set-up deal from the log (stacks top first, or the deck top first), and the
    plan ids of the games."""
    rs = load_ruleset("collector", mode=mode, expansion="zombies" if zombies else None)
    res = simulate(rs, game_seeds(11, games), players, [strategy], log=True)
    setup = res.log[res.log[:, 1] == 0]
    deals = []
    for g in range(games):
        rows = setup[setup[:, 0] == g]
        if mode == "standard":
            st = rows[rows[:, 3] == LOG_STACK]
            deals.append(
                [[int(c) for _, c in sorted((r[5], r[6]) for r in st if r[4] == i)] for i in range(3)]
            )
        else:
            dk = rows[(rows[:, 3] == LOG_DECK) & (rows[:, 6] == 0)]
            deals.append([int(c) for _, c in sorted((r[4], r[5]) for r in dk)])
    plans = [res.plan_ids(g) for g in range(games)]
    return deals, plans, len(rs.deck.cards)


def _same_plans(base_plans, z_plans) -> None:
    """Plans A and B are the base game's; C is drawn alike from the Zombie Plan C cards."""
    assert [p[:2] for p in base_plans] == [p[:2] for p in z_plans]
    assert all(p[2].startswith("C-Z") for p in z_plans)


@pytest.mark.parametrize("players", [1, 4])
def test_zombie_stacks_flip_the_base_games_first_two_stacks(players) -> None:
    """Two stacks: the first stack's construction cards are the base game's first stack from the
    top then its third stack's top three; the second stack is the base's second from the top. Each
    part of the first stack holds one Zombie card."""
    base, base_plans, n = _deals("standard", players, False)
    zomb, z_plans, _ = _deals("standard", players, True)
    _same_plans(base_plans, z_plans)
    per, part = n // 3, 10
    for b, x in zip(base, zomb, strict=True):
        first, second, none = x
        assert none == [] and len(first) == 3 * (part + 1)
        own = [c for c in first if c < n]
        assert own == b[0] + b[2][: 3 * part - per]  # flipped in the base game's order
        assert second[:per] == b[1]  # the second stack flips the base's second stack
        assert sorted(own + second) == list(range(n))
        for k in range(3):
            assert sum(c >= n for c in first[k * (part + 1) : (k + 1) * (part + 1)]) == 1
        assert sorted(c for c in first if c >= n) == [n + X_SPECIAL + k for k in range(3)]


def test_zombie_cards_are_shuffled_into_their_parts_as_a_shuffle_puts_them() -> None:
    """Each Zombie card's place in its part of 11 cards is uniform (0..10 from the top), and each
    card equally likely in each part ("Randomly shuffle 1 Zombie card into each of these 3
    stacks")."""
    games = 1200
    zomb, _, n = _deals("standard", 1, True, games, "random")
    places = np.array([[i % 11 for i, c in enumerate(x[0]) if c >= n] for x in zomb])
    which = np.array([[c - n - X_SPECIAL for c in x[0] if c >= n] for x in zomb])
    mean, sd = 5.0, np.sqrt((11**2 - 1) / 12)
    assert abs(places.mean() - mean) < 4 * sd / np.sqrt(places.size)
    assert np.bincount(places.ravel(), minlength=11).min() > places.size / 11 * 0.8
    for k in range(3):
        share = np.bincount(which[:, k], minlength=3) / games
        assert np.all(np.abs(share - 1 / 3) < 4 * np.sqrt(2 / 9 / games))


def test_zombie_aaa_deck_holds_two_of_each_base_rounds_three_cards() -> None:
    """AAA solo: the base game draws three cards a round, the Zombie game two. The Zombie deck's
    construction cards are the first two of each of the base game's 27 rounds, in order (the same
    cards in the same round), then the third cards of its first rounds; its second part holds the
    validation card the base game has in its deck, its third part the other two."""
    base, base_plans, n = _deals("solo", 1, False)
    zomb, z_plans, _ = _deals("solo", 1, True)
    _same_plans(base_plans, z_plans)
    part = 20
    for b, x in zip(base, zomb, strict=True):
        cb = [c for c in b if c < n]
        cx = [c for c in x if c < n]
        rounds = n // 3
        want = [cb[3 * i + j] for i in range(rounds) for j in range(2)]
        want += [cb[3 * i + 2] for i in range(rounds)]
        assert cx == want[: 3 * part]
        (v,) = [c for c in b if c >= n]
        parts = [x[: part + 1], x[part + 1 : 2 * part + 3], x[2 * part + 3 :]]
        specials = [sorted(c for c in p if c >= n) for p in parts]
        assert [len(s) for s in specials] == [1, 2, 3]
        assert specials[1][0] == v and sorted(specials[1][:1] + specials[2][:2]) == [n, n + 1, n + 2]
        assert sorted(s[-1] for s in specials) == [n + X_SPECIAL + k for k in range(3)]


@pytest.mark.parametrize("players", [2, 4])
def test_zombie_expert_deck_holds_each_seats_first_base_draw(players) -> None:
    """Expert: the architects' first cards are the base game's; the base game's seats draw two
    cards a round, the Zombie game's one: the Zombie deck's construction cards are the first of
    each seat's two, in order (the same card in the same round), then the cards passed over."""
    base, base_plans, n = _deals("expert", players, False)
    zomb, z_plans, _ = _deals("expert", players, True)
    _same_plans(base_plans, z_plans)
    m = 10 * players
    for b, x in zip(base, zomb, strict=True):
        assert x[:players] == b[:players]
        deck = x[players:]
        assert len(deck) == m + 1 and sum(c >= n for c in deck) == 1
        after = b[players:]
        want = (
            after[0::2][: len(after) // 2] + after[1::2][: len(after) // 2] + after[2 * (len(after) // 2) :]
        )
        assert [c for c in deck if c < n] == want[:m]
