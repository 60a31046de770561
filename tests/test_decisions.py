"""Two player decisions: the card passed on after a permit refusal, and a roundabout after the move.

Each rule is quoted from the rulebook it checks (Collector's core rules, 2023,
Collector's expansion rules with Expert mode, 2023; the first edition, 2018, in French).
"""

from __future__ import annotations

import numpy as np
import pytest
from handsheets import Spec, kernel_table

from welcome_sim.referee.replay import IllegalMove, replay
from welcome_sim.simcore.engine.game import game_seeds, simulate
from welcome_sim.simcore.ground.layout import (
    ACTION_NAMES,
    LOG_MOVE,
    LOG_PASS,
    LOG_ROUNDABOUT,
    NO_ACTION,
    SC_ROUNDABOUTS,
)
from welcome_sim.simcore.ground.numbers import code_value, number_code
from welcome_sim.simcore.ground.rng import rng_below
from welcome_sim.simcore.ground.table import (
    DEAL_AAA,
    DEAL_EXPERT,
    DEAL_SOLO_CARD,
    DEAL_STACKS,
    R_AAA_VALUE,
    R_DECK_ACT,
    R_DECK_NUM,
)
from welcome_sim.simcore.rules.ruleset import load_ruleset
from welcome_sim.simcore.rules.sheetops import Sheets
from welcome_sim.strategies.context import (
    CTX_DEAL,
    CTX_HAND_ACT,
    CTX_HAND_NUM,
    CTX_LEN,
    CTX_PLAN,
    CTX_PLAYERS,
    Offer,
)
from welcome_sim.strategies.greedy import greedy_pass, greedy_roundabout_after
from welcome_sim.strategies.greedy_layout import RB_MARGIN, W_AAA
from welcome_sim.strategies.protocol import IllegalStrategyMove, Move, Turn
from welcome_sim.strategies.registry import parse_strategy
from welcome_sim.verify import check_batch, referee_rules, split_log

# 002, AAA solo mode.
AAA_REFUSAL = (
    "Building Permit Refusal: As in the standard rules, if you cannot number a house, cross out 1 "
    "Permit Refusal. Then you must still place 2 cards in your discard pile and give 1 card to the AAA."
)
# 003, Expert mode (a refusal is not mentioned: the AAA rule above applies by analogy).
EXPERT_PASS = "Next, give the remaining third Construction card, with the Number side hidden, to the opponent on your left."
# 001, the first edition's solo variant: every card goes to the discard pile.
SOLO_DISCARD = "Les trois cartes (2 utilisées et une 3ème inutilisée) sont défaussées."
# 002, Advanced mode.
ANY_TIME = "You can build a roundabout at any time during a round, in addition to numbering a house and use an action."
WITH_REFUSAL = "you can build a roundabout even though you have a Building Permit Refusal in the same round."


NONE = np.empty(0, dtype=np.int64)  # no combinations: not asked after the move
LO = np.zeros((3, 12), dtype=np.int64)


class Leftmost:
    """Writes a card's own number in the first house it fits, no action: soon stuck, so refuses.
    Optional hooks: which card to pass after a refusal, roundabouts before / after the move."""

    def __init__(self, pick: int = 0, before: bool = False, after: bool = False) -> None:
        self.pick, self.before, self.after = pick, before, after
        self.hands: dict[int, list] = {}  # round -> hand shown at a refusal
        self.after_calls: list[int] = []

    def choose(self, turn: Turn) -> Move | None:
        for c in range(len(turn.combos)):
            for s, h, v in turn.legal_placements(c):
                if v == turn.combos[c][0]:
                    return Move(c, s, h, v)
        return None

    def pass_on_refusal(self, turn: Turn) -> int:
        self.hands[turn.round] = list(turn.hand)
        return self.pick

    @staticmethod
    def _last_empty(turn: Turn) -> tuple[int, int] | None:
        for s in range(len(turn.numbers) - 1, -1, -1):
            for h in range(len(turn.numbers[s]) - 1, -1, -1):
                if turn.numbers[s][h] is None and not turn.roundabout_at[s][h]:
                    return s, h
        return None

    def roundabout(self, turn: Turn) -> tuple[int, int] | None:
        return self._last_empty(turn) if self.before and turn.round in (2, 3) else None

    def roundabout_after(self, turn: Turn) -> tuple[int, int] | None:
        self.after_calls.append(turn.round)
        return self._last_empty(turn) if self.after and turn.round in (2, 3) else None


def _card(R, card: int) -> tuple[int | float, str]:
    return code_value(R[R_DECK_NUM, card]), ACTION_NAMES[int(R[R_DECK_ACT, card])]


# --- the card passed on after a refusal ---------------------------------------------------


@pytest.mark.parametrize(("mode", "opp", "players"), [("solo", "3", 1), ("expert", None, 2)])
def test_after_a_refusal_the_player_chooses_the_card_passed_on(mode, opp, players):
    """002: AAA_REFUSAL; 003: EXPERT_PASS. Which of the three cards goes is the player's choice:
    the kernel passes the one picked, and the referee accepts each of the three."""
    rs = load_ruleset("collector", mode=mode, opponent=opp)
    R = rs.kernel
    checked = 0
    for pick in (0, 1, 2):
        for seed in (5, 6):
            seats = [Leftmost(pick) for _ in range(players)]
            res = simulate(rs, game_seeds(seed, 1), players, seats, log=True)
            assert check_batch(res) == []
            rows = res.log.tolist()
            for p, who in enumerate(seats):
                refused = [r[1] for r in rows if r[3] == LOG_MOVE and r[2] == p and r[4] == -1]
                assert sorted(who.hands) == refused
                for r in rows:
                    if r[3] == LOG_PASS and r[2] == p and r[1] in who.hands:
                        assert _card(R, r[4]) == who.hands[r[1]][pick]
                        checked += 1
    assert checked >= 6


def test_a_python_pass_must_name_a_card_in_hand():
    """002: AAA_REFUSAL: one of the player's three cards; any other answer is an error."""

    class Bad(Leftmost):
        def pass_on_refusal(self, turn: Turn) -> int:
            return 3

    with pytest.raises(IllegalStrategyMove, match="pass_on_refusal: returned 3; give the index"):
        simulate(load_ruleset("collector", mode="solo", opponent="3"), game_seeds(5, 1), 1, [Bad()])


def test_the_referee_rejects_a_refusal_pass_of_a_card_not_in_hand():
    """002: AAA_REFUSAL: the card given is one of the hand's three, not another."""
    rs = load_ruleset("collector", mode="solo", opponent="3")
    res = simulate(rs, game_seeds(5, 1), 1, [Leftmost(1)], log=True)
    rows = res.log.tolist()
    refused = [r[1] for r in rows if r[3] == LOG_MOVE and r[4] == -1]
    assert refused and refused[0] > 1
    i = next(i for i, r in enumerate(rows) if r[3] == LOG_PASS and r[1] == refused[0])
    rows[i][4] = next(r[4] for r in rows if r[3] == LOG_PASS and r[1] == 1)  # already the AAA's
    with pytest.raises(IllegalMove, match="is not in the hand"):
        replay(referee_rules(rs), rows, 1)


def _ctx(deal: int, hand: list[tuple[int, int]], players: int = 1) -> np.ndarray:
    ctx = np.zeros(CTX_LEN, dtype=np.int64)
    ctx[CTX_PLAYERS], ctx[CTX_DEAL] = players, deal
    ctx[CTX_PLAN : CTX_PLAN + 3] = [0, 6, 12]
    for i, (num, act) in enumerate(hand):
        ctx[CTX_HAND_NUM + i], ctx[CTX_HAND_ACT + i] = number_code(num), act
    return ctx


def test_greedy_gives_the_aaa_the_card_it_prices_lowest():
    """002: AAA_REFUSAL: greedy gives the card worth least to the AAA under the price it uses
    when it plays (the `aaa` weight times the AAA's rough value of the card's action)."""
    rs = load_ruleset("collector", mode="solo", opponent="3")
    R = rs.kernel
    prm = parse_strategy("greedy").vector()
    cells, flags, fences, sc = kernel_table(R, [Spec(streets=[["."] * 10, ["."] * 11, ["."] * 12])])
    values = [int(R[R_AAA_VALUE, a]) for a in range(6)]
    assert len(set(values)) > 1 and prm[W_AAA] > 0
    order = sorted(range(6), key=lambda a: values[a])
    cheap, dear = order[0], order[-1]
    for hand, want in (([dear, cheap, dear], 1), ([cheap, dear, dear], 0), ([dear, dear, cheap], 2)):
        ctx = _ctx(DEAL_AAA, [(5, a) for a in hand])
        for seed in range(4):
            rng = np.array([seed], dtype=np.uint64)
            assert greedy_pass(R, prm, Sheets(cells, flags, fences, sc), 0, ctx, rng, -1) == want


def test_greedy_passes_the_neighbour_the_number_it_can_use_least():
    """003: EXPERT_PASS: greedy passes the card whose number helps the neighbour's sheet least
    (under its own evaluation); a number the neighbour cannot write helps nothing."""
    rs = load_ruleset("collector", mode="expert")
    R = rs.kernel
    prm = parse_strategy("greedy").vector()
    # Seat 1 (the neighbour): everything numbered but houses 4-6 of street 0, an estate between
    # fences whose numbers must lie between 3 and 7: a 5 there makes it likelier to complete.
    full = [[str(h) for h in range(n)] for n in (10, 11, 12)]
    full[0] = ["0", "1", "2", "3", ".", ".", ".", "7", "8", "9"]
    blank = Spec(streets=[["."] * 10, ["."] * 11, ["."] * 12])
    cells, flags, fences, sc = kernel_table(R, [blank, Spec(streets=full, fences={0: [4, 7]})])
    ctx = _ctx(DEAL_EXPERT, [(5, 0), (15, 0), (12, 0)], players=2)
    picks = {
        int(greedy_pass(R, prm, Sheets(cells, flags, fences, sc), 0, ctx, np.array([s], dtype=np.uint64), 1))
        for s in range(12)
    }
    assert picks == {1, 2}  # 15 and 12 fit nowhere (tied, drawn at random); the 5 helps


def test_greedy_pass_to_the_discard_pile_is_todays_draw():
    """001: SOLO_DISCARD: in the first edition's solo variant every card is discarded, so which
    one is "passed" changes nothing; greedy draws it as the random player does."""
    rs = load_ruleset("first", mode="solo")
    R = rs.kernel
    prm = parse_strategy("greedy").vector()
    cells, flags, fences, sc = kernel_table(R, [Spec(streets=[["."] * 10, ["."] * 11, ["."] * 12])])
    ctx = _ctx(DEAL_SOLO_CARD, [(5, 0), (9, 1), (12, 2)])
    for seed in range(8):
        a, b = np.array([seed], dtype=np.uint64), np.array([seed], dtype=np.uint64)
        assert greedy_pass(R, prm, Sheets(cells, flags, fences, sc), 0, ctx, a, -2) == rng_below(b, 3)


# --- roundabouts after the move -------------------------------------------------------------


def test_a_roundabout_may_go_in_after_the_move_and_is_logged_after_it():
    """002, Advanced mode: ANY_TIME. A roundabout after the move is logged after the move row
    with c = 1 (before: c = 0), and the referee replays it."""
    rs = load_ruleset("collector", mode="advanced")
    for before, after, timing in ((False, True, 1), (True, False, 0)):
        res = simulate(rs, game_seeds(9, 1), 1, [Leftmost(before=before, after=after)], log=True)
        assert check_batch(res) == []
        rows = res.log.tolist()
        rb = [i for i, r in enumerate(rows) if r[3] == LOG_ROUNDABOUT]
        assert [rows[i][1] for i in rb] == [2, 3] and all(rows[i][6] == timing for i in rb)
        for i in rb:
            move = next(j for j, r in enumerate(rows) if r[3] == LOG_MOVE and r[1] == rows[i][1])
            assert (i > move) == (timing == 1)
        assert res.column("n_roundabouts")[0, 0] == 2


def test_one_roundabout_a_round_and_the_referee_rejects_a_second():
    """002: ANY_TIME. The text grants "a roundabout" in addition to the one house and the one
    action of the round: at most one a round (and two a game). After a roundabout before the
    move the player is not asked again that round; a log with two in one round is rejected."""
    rs = load_ruleset("collector", mode="advanced")
    both = Leftmost(before=True, after=True)
    res = simulate(rs, game_seeds(9, 1), 1, [both], log=True)
    # Asked after the move in round 1 only: rounds 2 and 3 had one before it, then none are left.
    assert both.after_calls == [1]
    rows = res.log.tolist()
    i = next(i for i, r in enumerate(rows) if r[3] == LOG_ROUNDABOUT)
    extra = list(rows[i])
    extra[5] -= 1  # the house left of it, still empty
    extra[6] = 1
    rows.insert(i + 1, extra)
    with pytest.raises(IllegalMove, match="a second roundabout in one round"):
        replay(referee_rules(rs), rows, 1)


def test_the_referee_checks_the_house_is_empty_when_the_roundabout_goes_in():
    """002: "Replace an empty house with a roundabout." After the move, the house just numbered
    is no longer empty."""
    rs = load_ruleset("collector", mode="advanced")
    res = simulate(rs, game_seeds(9, 1), 1, [Leftmost(after=True)], log=True)
    rows = res.log.tolist()
    i = next(i for i, r in enumerate(rows) if r[3] == LOG_ROUNDABOUT)
    move = next(r for r in rows if r[3] == LOG_MOVE and r[1] == rows[i][1])
    rows[i][4], rows[i][5] = move[5], move[6]  # where the move's number went
    with pytest.raises(IllegalMove, match="a roundabout goes in an empty house"):
        replay(referee_rules(rs), rows, 1)
    rows[i][6] = 0  # before the move the house was empty, but then the move cannot go there
    with pytest.raises(IllegalMove, match="cannot write"):
        replay(referee_rules(rs), rows, 1)


def test_a_roundabout_after_a_refusal_is_allowed():
    """002: WITH_REFUSAL. A roundabout after the move of a round with a refusal replays."""

    class AfterRefusal(Leftmost):
        def roundabout_after(self, turn: Turn) -> tuple[int, int] | None:
            return self._last_empty(turn) if turn.refusals == 1 and turn.roundabouts == 0 else None

    rs = load_ruleset("collector", mode="advanced")
    res = simulate(rs, game_seeds(5, 1), 1, [AfterRefusal()], log=True)
    assert check_batch(res) == []
    rows = res.log.tolist()
    first_refusal = min(r[1] for r in rows if r[3] == LOG_MOVE and r[4] == -1)
    rb = [r for r in rows if r[3] == LOG_ROUNDABOUT]
    assert [(r[1], r[6]) for r in rb] == [(first_refusal, 1)]


def test_greedy_builds_after_the_move_only_a_roundabout_that_lets_a_plan_be_validated():
    """002: ANY_TIME. After its move greedy builds a roundabout only when it lets a plan be
    validated this round (here: it closes the third estate of size 3 plan A-3 asks for); any other
    roundabout waits for the next round, where greedy weighs it knowing the cards."""
    rs = load_ruleset("collector", mode="advanced")
    R = rs.kernel
    a3 = [p.id for p in rs.plans.plans].index("A-3")  # 3 estates of size 3
    # Street 1: two complete estates of size 3; street 0: houses 0-2 numbered, house 3 empty.
    street0 = ["1", "2", "3", ".", ".", ".", ".", ".", ".", "."]
    street1 = ["1", "2", "3", "4", "5", "6", ".", ".", ".", ".", "."]
    spec = Spec(streets=[street0, street1, ["."] * 12], fences={1: [3, 6]})
    cells, flags, fences, sc = kernel_table(R, [spec])
    ctx = _ctx(DEAL_STACKS, [])
    ctx[CTX_PLAN] = a3
    prm = parse_strategy("greedy").vector()
    before = cells.copy()
    rbm = np.full(2, -1, dtype=np.int64)
    mv = np.array([0, 0, 2, 6, NO_ACTION, -1, -1, -1], dtype=np.int64)  # the 3 just written
    rng = np.array([3], dtype=np.uint64)
    greedy_roundabout_after(
        R, prm, Sheets(cells, flags, fences, sc), 0, ctx, Offer(NONE, NONE, rng, LO, LO, mv, np.empty(0)), rbm
    )
    assert tuple(rbm) == (0, 3)  # the only house whose roundabout completes the plan
    assert np.array_equal(cells, before) and sc[0, SC_ROUNDABOUTS] == 0  # the sheet is left as it was
    # The same sheet with a plan no roundabout completes (A-1, six estates of size 1): none, even
    # with no margin, although closing the estate is worth something to the evaluation.
    ctx[CTX_PLAN] = [p.id for p in rs.plans.plans].index("A-1")
    prm[RB_MARGIN] = 0.0
    rbm[:] = -1
    greedy_roundabout_after(
        R, prm, Sheets(cells, flags, fences, sc), 0, ctx, Offer(NONE, NONE, rng, LO, LO, mv, np.empty(0)), rbm
    )
    assert tuple(rbm) == (-1, -1)
    # After a refusal nothing on the sheet changed: no second look.
    ctx[CTX_PLAN] = a3
    refusal = np.full(8, -1, dtype=np.int64)
    greedy_roundabout_after(
        R,
        prm,
        Sheets(cells, flags, fences, sc),
        0,
        ctx,
        Offer(NONE, NONE, rng, LO, LO, refusal, np.empty(0)),
        rbm,
    )
    assert tuple(rbm) == (-1, -1)


def test_greedy_advanced_games_build_roundabouts_after_the_move_and_replay():
    """002: ANY_TIME: greedy's after-move roundabouts go through the referee."""
    rs = load_ruleset("collector", mode="advanced")
    res = simulate(rs, game_seeds(31, 40), 2, ["greedy"], log=True)
    rb = res.log[res.log[:, 3] == LOG_ROUNDABOUT]
    assert (rb[:, 6] == 1).any()
    assert check_batch(res) == []
    assert all(len(v) > 0 for v in split_log(res.log).values())
