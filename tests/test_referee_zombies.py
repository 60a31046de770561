"""The referee's Zombie Outbreak, on hand-built logs; each test quotes the rule it checks (Collector's
expansion rules, "Zombie Outbreak", 2023).

Most logs use a shorter first stack (parts of 1 or 2 cards and a Zombie card, as a designer may set
`part_size` in the data file) so that a whole game is a few rounds, and some set which houses have
no printed barricade (`open_houses`) so that only the houses a test is about can be invaded.
"""

from __future__ import annotations

import itertools
import tomllib

import pytest

from welcome_sim.referee import IllegalMove, load_rules, replay
from welcome_sim.referee.datapath import DATA
from welcome_sim.referee.positions import from_one
from welcome_sim.referee.readings.zombies import Zombies
from welcome_sim.referee.replay import _check_move, _zombie_setup
from welcome_sim.referee.sheet import PlayerSheet
from welcome_sim.textview import render_game

STACK, MOVE, PLAN, END, ROUNDABOUT = 0, 1, 2, 3, 5
ZOMBIE, HOLD, INVADE = 12, 13, 14
FENCE, IMPROVEMENT, PARK, POOL, TEMP, EXTENSION = range(6)
END_STACK = 32
X_SPECIAL = 4  # Zombie card i is card deck size + 4 + i (after the AAA and solo special cards)
with (DATA / "expansions" / "zombies.toml").open("rb") as fh:
    # As the referee reads it: positions from 0 (the file counts from 1), as the changes below give them.
    ZDATA = from_one("expansions", tomllib.load(fh), "zombies.toml")


def rules_for(mode: str = "standard", **changes):
    """The collector's rules with Zombie Outbreak, some data-file values changed."""
    rules = load_rules("collector", mode=mode, expansion="zombies")
    if changes:
        rules.expansion = Zombies({**ZDATA, **changes})
    return rules


class Game:
    """A hand-built log: stacks from card specs ((number, action) or a card id), then rows."""

    def __init__(self, rules, first, second=(), players: int = 1) -> None:
        self.rules, self.players = rules, players
        n = len(rules.cards)
        self.n = n
        used: set[int] = set()

        def pick(spec):
            if isinstance(spec, int):
                used.add(spec)
                return spec
            i = next(i for i, c in enumerate(rules.cards) if c == tuple(spec) and i not in used)
            used.add(i)
            return i

        self.first = [pick(c) for c in first]
        top = [pick(c) for c in second]
        rest = [i for i in range(n) if i not in used]
        self.second = top + rest
        self.rows = [[0, 0, -1, STACK, 0, i, c, 0, 0, 0, 0, 0] for i, c in enumerate(self.first)]
        self.rows += [[0, 0, -1, STACK, 1, i, c, 0, 0, 0, 0, 0] for i, c in enumerate(self.second)]
        self.built = [c for c in self.first if c < n]

    def combo(self, rnd: int, i: int) -> tuple[int, int]:
        """(number, action column) of combination i in round rnd."""
        if i == 0:
            number, flipped = self.built[rnd], self.built[rnd - 1]
        else:
            number, flipped = self.second[rnd], self.second[rnd - 1]
        return self.rules.cards[number][0], self.rules.actions.index(self.rules.cards[flipped][1])

    @property
    def end_round(self) -> int:
        return len(self.built)

    def zombie(self, rnd: int, kind: int) -> Game:
        self.rows.append([0, rnd, -1, ZOMBIE, self.n + X_SPECIAL + kind, 0, 0, 0, 0, 0, 0, 0])
        return self

    def hold(self, rnd: int, p: int, s: int, side: int) -> Game:
        self.rows.append([0, rnd, p, HOLD, s, side, 0, 0, 0, 0, 0, 0])
        return self

    def invade(self, rnd: int, p: int, s: int, h: int, code: int = -1) -> Game:
        self.rows.append([0, rnd, p, INVADE, s, h, code, 0, 0, 0, 0, 0])
        return self

    def move(self, rnd, p, combo, s, h, act=False, params=(-1, -1, -1), number=None) -> Game:
        n, a = self.combo(rnd, combo)
        number = n if number is None else number
        self.rows.append([0, rnd, p, MOVE, combo, s, h, 2 * number, a if act else -1, *params])
        return self

    def refuse(self, rnd: int, p: int) -> Game:
        self.rows.append([0, rnd, p, MOVE, -1, -1, -1, -1, -1, -1, -1, -1])
        return self

    def end(self, rnd: int | None = None, a: int = END_STACK) -> Game:
        self.rows.append([0, self.end_round if rnd is None else rnd, -1, END, a, 0, 0, 0, 0, 0, 0, 0])
        return self

    def replay(self):
        return replay(self.rules, self.rows, self.players)

    def reject(self, match: str) -> None:
        with pytest.raises(IllegalMove, match=match):
            self.replay()


L, R, A = 0, 1, 2  # Zombie cards: left hordes, right hordes, all hordes
# Houses without a printed barricade for the tests below (the data file's are reconstructed and
# may change): in street 1 houses 1, 2, 6, 9, 10; street 2: 1, 3, 7, 10, 11; street 3: 1, 2, 5, 11, 12.
OPEN = [[0, 0], [0, 1], [0, 5], [0, 8], [0, 9], [1, 0], [1, 2], [1, 6], [1, 9], [1, 10]]
OPEN += [[2, 0], [2, 1], [2, 4], [2, 10], [2, 11]]
STREET0_RIGHT_OPEN = [[0, 9], [0, 8]]


# --- set-up ------------------------------------------------------------------------------------


def full_deal(rules):
    """The published deal: 3 parts of 10 construction cards and 1 Zombie card, then the rest."""
    n = len(rules.cards)
    first = []
    for k in range(3):
        part = list(range(10 * k, 10 * k + 10))
        part.insert(3 * k, n + X_SPECIAL + k)
        first += part
    return first, list(range(30, n))


def stack_rows(first, second):
    rows = [[0, 0, -1, STACK, 0, i, c, 0, 0, 0, 0, 0] for i, c in enumerate(first)]
    return rows + [[0, 0, -1, STACK, 1, i, c, 0, 0, 0, 0, 0] for i, c in enumerate(second)]


def test_setup_deals_two_stacks_with_one_zombie_card_in_each_part_of_the_first():
    """ "form 3 stacks of 10 cards. Randomly shuffle 1 Zombie card into each of these 3 stacks. Place
    these 3 stacks on top of each other to create the first card stack ... With the remaining
    cards, form the second card stack"."""
    rules = rules_for()
    first, second = full_deal(rules)
    assert len(first) == 33 and len(second) == len(rules.cards) - 30
    assert _zombie_setup(rules, stack_rows(first, second)) == [first, second]


def _two_in_part_one(f, s):
    f = list(f)
    f.insert(1, f.pop(14))  # the second part's Zombie card (its 4th card) into the first part
    return f, s


def _zombie_in_second(f, s):
    f, s = list(f), list(s)
    f[28], s[0] = s[0], f[28]  # the third part's Zombie card (its 7th card) swapped into stack 2
    return f, s


@pytest.mark.parametrize(
    ("change", "match"),
    [
        # Two Zombie cards in the first part, none in the second: "1 Zombie card into each".
        (_two_in_part_one, "part 1 of the first stack holds 2"),
        # A Zombie card in the second stack: "With the remaining cards, form the second stack".
        (_zombie_in_second, "Zombie card outside the first stack"),
        # A construction card twice, one missing.
        (lambda f, s: (f, [*s[:-1], s[0]]), "construction cards, each exactly once"),
        # A Zombie card missing (the first part's, replaced by a construction card).
        (lambda f, s: ([s[0], *f[1:]], s[1:]), "Zombie cards are"),
        # A first stack of 32 cards.
        (lambda f, s: (f[:-1], [*s, f[-1]]), "first stack holds 3 x"),
    ],
)
def test_setup_rejects_a_deal_that_breaks_the_set_up(change, match):
    rules = rules_for()
    first, second = change(*full_deal(rules))
    with pytest.raises(IllegalMove, match=match):
        _zombie_setup(rules, stack_rows(first, second))


def test_setup_rejects_three_stacks():
    """ "you must play with only 2 stacks of Construction cards instead of 3"."""
    rules = rules_for()
    first, second = full_deal(rules)
    rows = stack_rows(first, second[:10]) + [
        [0, 0, -1, STACK, 2, i, c] + [0] * 5 for i, c in enumerate(second[10:])
    ]
    with pytest.raises(IllegalMove, match="two stacks"):
        _zombie_setup(rules, rows)


# --- Zombie cards, hordes, invasions --------------------------------------------------------------


def left_then_right(rules, players=1):
    """First stack [c1, Z right] [c2, Z left] [c3, Z all]: the right hordes move in round 1 after
    the flip, the left ones in round 2, all six in round 3, when the stack runs out."""
    return Game(
        rules,
        [(5, "fence"), rules_n(rules) + R, (9, "park"), rules_n(rules) + L, (10, "pool"), rules_n(rules) + A],
        [(2, "park"), (14, "park"), (13, "fence"), (4, "park")],
        players,
    )


def rules_n(rules) -> int:
    """The id of the first Zombie card (+ L, R, A: the others)."""
    return len(rules.cards) + X_SPECIAL


def test_a_zombie_card_on_top_at_set_up_applies_before_the_first_flip():
    """ "After flipping the first card from each stack, if a Zombie card appears, you must
    immediately apply its effect. Then, remove it from the game and continue playing normally."
    On top at set-up, it has appeared before anyone plays."""
    rules = rules_for(part_size=1, open_houses=[[0, 0]])
    n = rules_n(rules)
    g = Game(
        rules, [n + L, (5, "fence"), (9, "park"), n + R, (10, "pool"), n + A], [(2, "park"), (14, "park")]
    )
    g.zombie(1, L).invade(1, 0, 0, 0).move(1, 0, 0, 1, 3)
    g.zombie(2, R).move(2, 0, 1, 2, 3).zombie(3, A).end()
    rec = g.replay()
    assert rec.rounds[0].events[0] == (-1, "Zombie card: the 3 hordes on the left move right")
    assert rec.rounds[0].combos == [(9, "fence"), (14, "park")]  # the Zombie card left the game
    assert rec.sheets[0].streets[0][0].invaded
    # The log must show the card where it surfaces.
    g.rows = [r for r in g.rows if not (r[3] == ZOMBIE and r[1] == 1)]
    g.reject("Zombie card .* surfaced on the first stack")


def test_hordes_move_street_by_street_and_invade_unbarricaded_houses():
    """ "Move the zombie hordes starting with the 1st street, then the 2nd, and finally the 3rd."
    "If it is barricaded, nothing happens. If it is not barricaded, the zombies invade the house.
    If the house is numbered, erase the number. Write a Z on the house and draw a fence on each
    side". Houses without a printed barricade: OPEN."""
    rules = rules_for(part_size=1, open_houses=OPEN)
    g = left_then_right(rules)
    # Round 1, after the flip: the right hordes to the last house of each street (all open).
    g.zombie(1, R).invade(1, 0, 0, 9).invade(1, 0, 1, 10).invade(1, 0, 2, 11)
    g.move(1, 0, 1, 0, 0)  # 14 in street 1 house 1 (open): the left horde arrives next round
    g.zombie(2, L).invade(2, 0, 0, 0, code=28).invade(2, 0, 1, 0).invade(2, 0, 2, 0)
    g.move(2, 0, 0, 2, 5)  # 10 in street 3 house 6 (printed barricade)
    # Round 3: the left hordes to house 2 (street 1 and 3 open, street 2 barricaded), the right
    # hordes to the house before the last (street 1 house 9, street 2 house 10, street 3 house 11).
    g.zombie(3, A).invade(3, 0, 0, 1).invade(3, 0, 0, 8).invade(3, 0, 1, 9)
    g.invade(3, 0, 2, 1).invade(3, 0, 2, 10).end()
    rec = g.replay()
    sh = rec.sheets[0]
    assert sh.streets[0][0].invaded and sh.streets[0][0].number is None
    assert {0, 1, 2, 8, 9, 10} <= sh.fences[0]
    assert not sh.streets[1][1].invaded
    assert rec.scores[0]["invaded"] == 11
    assert rec.end_reasons == ["first-stack"]
    assert (0, "street 1 house 1 invaded: 14 erased") in rec.rounds[1].events


def _tampered(g: Game, pick, change=None) -> Game:
    rows = [list(r) for r in g.rows]
    i = next(i for i, r in enumerate(rows) if pick(r))
    if change is None:
        del rows[i]
    else:
        change(rows[i])
    g.rows = rows
    return g


def _invasion_game() -> Game:
    rules = rules_for(part_size=1, open_houses=[[0, 0], [0, 9]])
    g = left_then_right(rules)
    g.zombie(1, R).invade(1, 0, 0, 9).move(1, 0, 1, 0, 0)
    g.zombie(2, L).invade(2, 0, 0, 0, code=28).move(2, 0, 0, 2, 5)
    g.zombie(3, A).end()
    return g


def test_the_invasion_rows_must_be_what_the_rules_give():
    """The referee moves the hordes itself: a log whose invasions differ (missing, extra, wrong
    house, wrong number erased) is rejected."""
    assert _invasion_game().replay().scores[0]["invaded"] == 2
    _tampered(_invasion_game(), lambda r: r[3] == INVADE and r[1] == 2).reject("invades street 1 house 1")
    _tampered(
        _invasion_game(), lambda r: r[3] == INVADE and r[1] == 2, lambda r: r.__setitem__(6, 26)
    ).reject(r"14 erased\); the log has")
    _tampered(_invasion_game(), lambda r: r[3] == INVADE and r[1] == 1, lambda r: r.__setitem__(5, 8)).reject(
        "invades street 1 house 10"
    )
    extra = _invasion_game()
    extra.rows.insert(-1, [0, 3, 0, INVADE, 2, 11, -1, 0, 0, 0, 0, 0])
    extra.reject("rows the rules do not give")


def test_a_zombie_card_outside_the_first_stack_or_out_of_place_is_rejected():
    """Zombie cards are shuffled into the first stack only and apply when they surface there."""
    g = _invasion_game()
    g.rows.insert(-1, [0, 3, -1, ZOMBIE, g.n + X_SPECIAL + L, 1, 0, 0, 0, 0, 0, 0])
    g.reject("rows the rules do not give")
    _tampered(
        _invasion_game(), lambda r: r[3] == ZOMBIE and r[1] == 2, lambda r: r.__setitem__(4, r[4] + 1)
    ).reject("Zombie card .* surfaced")


def test_zombie_rows_in_a_game_without_the_expansion_are_rejected():
    g = _invasion_game()
    g.rules = load_rules("collector")
    with pytest.raises(IllegalMove):
        g.replay()


def test_a_horde_reaching_a_roundabout_does_nothing():
    """Advanced mode: "If a horde of zombies reaches a roundabout, nothing happens." """
    rules = rules_for("advanced", part_size=1, open_houses=[[0, 0], [0, 9]])
    g = left_then_right(rules)
    g.rows.append([0, 1, 0, ROUNDABOUT, 0, 0, 0, 0, 0, 0, 0, 0])  # before the move
    g.zombie(1, R).invade(1, 0, 0, 9).move(1, 0, 1, 0, 1)
    g.zombie(2, L).move(2, 0, 0, 2, 5)  # street 1 house 1 is a roundabout: no invasion
    g.zombie(3, A).end()
    rec = g.replay()
    assert rec.sheets[0].streets[0][0].roundabout and not rec.sheets[0].streets[0][0].invaded
    assert rec.scores[0]["invaded"] == 1
    # A log with the roundabout invaded is rejected.
    bad = _tampered(g, lambda r: r[3] == MOVE and r[1] == 2, None)
    bad.rows.insert(-2, [0, 2, 0, INVADE, 0, 0, -1, 0, 0, 0, 0, 0])
    bad.rows.insert(-2, [0, 2, 0, MOVE, 0, 2, 5, 22, -1, -1, -1, -1])
    bad.reject("rows the rules do not give")


def test_a_horde_moves_no_further_than_its_road():
    """ "draw a line over the yellow arrow on the road": a horde past its road's last arrow moves no
    more; nothing is logged for it and it cannot be held."""
    rules = rules_for(part_size=1, road=1, open_houses=[[0, 0], [0, 1], [0, 9]])
    g = left_then_right(rules)
    g.zombie(1, R).invade(1, 0, 0, 9).move(1, 0, 1, 1, 0)
    g.zombie(2, L).invade(2, 0, 0, 0).move(2, 0, 0, 2, 5)
    g.zombie(3, A).end()  # every horde has walked its one arrow: street 1 house 2 is safe
    assert g.replay().scores[0]["invaded"] == 2
    g.rows.insert(-1, [0, 3, 0, HOLD, 0, 0, 0, 0, 0, 0, 0, 0])
    g.reject("reached the end of its road")


# --- ammunition --------------------------------------------------------------------------------


def test_ammunition_holds_a_horde_and_runs_out():
    """ "You start the game with one ammunition already circled and available." "Cross out 1 circled
    ammunition and choose 1 zombie horde. Instead of drawing the movement arrow for that horde, draw
    a cross at the beginning of the yellow arrow." "(1 ammunition per horde)"."""
    rules = rules_for(part_size=1, open_houses=[[0, 0], [0, 9]])
    g = left_then_right(rules)
    g.zombie(1, R).hold(1, 0, 0, 1).move(1, 0, 1, 0, 0)
    g.zombie(2, L).invade(2, 0, 0, 0, code=28).move(2, 0, 0, 2, 5)
    g.zombie(3, A).end()  # the right horde of street 1, held once, now reaches house 10
    g.rows.insert(-1, [0, 3, 0, INVADE, 0, 9, -1, 0, 0, 0, 0, 0])
    rec = g.replay()
    assert rec.scores[0]["ammunition_used"] == 1 and rec.scores[0]["invaded"] == 2
    assert (0, "holds the right horde of street 1 (1 ammunition; 0 left)") in rec.rounds[0].events
    # A second hold, of the left horde in round 2, with no ammunition left.
    g.rows = [r for r in g.rows if not (r[3] == INVADE and r[1] == 2)]
    at = next(i for i, r in enumerate(g.rows) if r[3] == MOVE and r[1] == 2)
    g.rows.insert(at, [0, 2, 0, HOLD, 0, 0, 0, 0, 0, 0, 0, 0])
    g.reject("round 2, player 1: cannot hold the left horde of street 1: no circled ammunition left")


def test_an_improvement_box_with_ammunition_circles_one():
    """ "When you cross out an Improvement box with ammunition, circle an ammunition in your stock":
    the data file's boxes [size 2, box 1] ... ."""
    rules = rules_for(part_size=1, open_houses=[[0, 0], [0, 9]])
    n = rules_n(rules)
    g = Game(
        rules,
        [(5, "improvement"), n + R, (9, "park"), n + L, (10, "pool"), n + A],
        [(2, "park"), (14, "park")],
    )
    # Round 1: 9 with the improvement of size-2 estates (its first box shows ammunition).
    g.zombie(1, R).hold(1, 0, 0, 1).move(1, 0, 0, 0, 4, act=True, params=(1, -1, -1))
    g.zombie(2, L).hold(2, 0, 0, 0).move(2, 0, 0, 0, 8)  # 10 in street 1 house 9
    g.zombie(3, A).invade(3, 0, 0, 0).invade(3, 0, 0, 9).end()
    rec = g.replay()
    assert rec.scores[0]["ammunition_used"] == 2
    assert "an ammunition circled" in rec.rounds[0].moves[0]
    # Without the ammunition box, the second hold has nothing to cross out.
    rules2 = rules_for(part_size=1, open_houses=[[0, 0], [0, 9]], ammunition_boxes=[[2, 2]])
    g.rules = rules2
    g.reject("no circled ammunition left")


# --- barricades --------------------------------------------------------------------------------


def _barricade_game(params=(0, 0, 1), first_card=(5, "fence")) -> Game:
    rules = rules_for(part_size=1, open_houses=[[0, 0], [0, 9]])
    n = rules_n(rules)
    g = Game(rules, [first_card, n + R, (9, "park"), n + L, (10, "pool"), n + A], [(2, "park"), (14, "park")])
    # Round 1: 9 in street 1 house 1 with the Fence action: a barricade in front of it.
    g.zombie(1, R).invade(1, 0, 0, 9).move(1, 0, 0, 0, 0, act=True, params=params)
    g.zombie(2, L).move(2, 0, 0, 0, 8)  # the left horde meets the barricade: nothing happens
    g.zombie(3, A).end()
    return g


def test_the_fence_action_may_build_a_barricade_instead_of_a_fence():
    """ "If you write the number associated with this action in a house without a barricade, you can
    choose to build a barricade instead of a fence. To do this, draw a barricade in front of the
    house you just numbered." "After drawing the line over the arrow for a horde, check if the
    house they arrive in is barricaded or not. If it is barricaded, nothing happens." """
    rec = _barricade_game().replay()
    sh = rec.sheets[0]
    assert sh.streets[0][0].barricade and not sh.streets[0][0].invaded
    assert sh.fences[0] == {0, 10, 9}  # no fence drawn; the invasion of house 10 fenced it
    assert rec.scores[0]["barricades"] == 1 and rec.scores[0]["invaded"] == 1


def test_a_barricade_goes_only_in_front_of_the_house_just_numbered_without_a_barricade():
    """ "in a house without a barricade": not on a house with a printed barricade, not twice, not
    in front of another house."""
    _barricade_game(params=(0, 1, 1)).reject("barricade goes in front of the house just numbered")
    rules = rules_for(part_size=1, open_houses=[[0, 9]])
    g = _barricade_game()
    g.rules = rules
    g.reject("already has a printed barricade")
    g = _barricade_game(params=(0, 0, -1))  # h = -1: a fence at boundary 0, a street's end
    g.reject("no boundary 0")


# --- clarifications ----------------------------------------------------------------------------


def test_a_z_is_its_own_estate_never_complete_and_earns_nothing():
    """ "A housing estate with a zombie-infested house cannot be used to validate a plan and does not
    earn any points at the end of the game." The Z is fenced on both sides: its own estate."""
    sh = PlayerSheet(rules_for())
    sh.streets[0][0].number, sh.streets[0][1].number = 1, 2
    sh.fences[0].add(2)
    assert sh.complete_estates_by_size()[1] == 1
    sh.streets[0][1].number, sh.streets[0][1].invaded = None, True
    sh.fences[0] |= {1, 2}
    assert sh.complete_estates_by_size() == [1, 0, 0, 0, 0, 0]  # the 1 alone; the Z is no estate
    assert (0, 1, 1, False) in sh.estates()


def _plan_index(rules, plan_id):
    return next(i for i, p in enumerate(rules.plans) if p["id"] == plan_id)


def test_an_invasion_may_divide_a_validated_estate_whose_pieces_count_for_no_other_plan():
    """ "When zombies invade a house, it may divide an existing housing estate. If this housing
    estate has already been used to validate a plan, the housing estates created by this division
    cannot be used to validate another plan. The already validated plan remains validated, and you
    do not lose the corresponding points." """
    sh = PlayerSheet(rules_for(open_houses=OPEN))
    for h in range(3):
        sh.streets[0][h].number, sh.streets[0][h].plan = h + 1, "A"
    sh.fences[0].add(3)
    sh.plan_scores[0] = 8
    zombies = sh.rules.expansion
    zombies.state(sh)["hordes"][0][0] = 1
    assert zombies.move(sh, 0, 0) == (1, 2)  # street 1 house 2 (open) invaded, its 2 erased
    assert sh.estate_of(0, 0) == (0, 0) and sh.estate_of(0, 2) == (2, 2)
    assert sh.streets[0][0].used and sh.streets[0][2].used  # still marked: no other plan
    assert sh.components(0)["plan_a"] == 8


def test_pools_and_extensions_keep_their_points_when_invaded():
    """ "If zombies invade a house with an already built swimming pool, you do not lose the points
    for that swimming pool." "If zombies invade a house numbered with the Extension action (with a
    B), you do not regain the lost points for building that extension." """
    rules = rules_for(open_houses=[[1, 0], [1, 1]])
    sh = PlayerSheet(rules)
    sh.streets[1][0].number, sh.streets[1][0].pool, sh.pools = 3, True, 1
    sh.streets[1][1].number, sh.streets[1][1].bis, sh.extensions = 3, True, 1
    for side_house in (0, 1):
        rules.expansion.state(sh)["hordes"][1][0] = side_house
        assert rules.expansion.move(sh, 1, 0) == (side_house, 3)
    card = sh.components(0)
    assert card["pools"] == rules.pool_track[1] and card["extension_penalty"] == rules.extension_track[1]


def test_a_z_does_not_stop_the_numbering():
    """ "A Z is not a number and does not stop the numbering. Example: You have a numbered house with
    an adjacent extension: 5B-5. But this house is then invaded by zombies: 5B-Z. Afterwards, it is
    possible to continue to number like this: 5B-Z-5, or like this, using the Extension action:
    5B-Z-5B." """
    rules = rules_for()
    sh = PlayerSheet(rules)
    row = sh.streets[0]
    row[0].number, row[0].bis = 5, True
    row[1].invaded = True
    assert sh.can_write(0, 2, 5) is None  # 5B-Z-5
    assert sh.can_write(0, 2, 4) is not None  # still ascending past the Z
    assert sh.can_write(0, 1, 6) is not None  # the Z itself is sealed
    row[1].invaded, row[1].number = False, 5  # 5B-5: a second 5 is no extension
    assert sh.can_write(0, 2, 5) is not None
    row[0].bis, row[0].number, row[1].number, row[1].bis = False, 5, 5, True  # 5-5B
    row[2].invaded = True
    assert sh.can_write(0, 3, 5) is not None  # 5-5B-Z-5: the 5 on the left still counts
    row[0].number, row[0].bis, row[0].invaded, row[2].invaded, row[2].number = None, False, True, False, 5
    row[2].bis = True  # Z-5B-5B (a bis of the orphaned bis): a 5 may follow both
    assert sh.can_write(0, 3, 5) is None and sh.can_write(0, 3, 4) is not None
    assert sh.can_write(0, 0, 5) is not None  # the Z is sealed
    # Without Zombie Outbreak a number never equals a neighbour.
    plain = PlayerSheet(load_rules("collector"))
    plain.streets[0][0].number, plain.streets[0][0].bis = 5, True
    assert plain.can_write(0, 2, 5) is not None


def test_a_z_is_no_number_for_the_first_editions_full_street_and_bis_plans():
    """ "A Z is not a number" and "If the house is numbered, erase the number. Write a Z on the
    house": a street with a Z is not "every house ... numbered" (first edition plan 1-adv-2, the
    top street), and an invaded bis is no longer a bis number (1-adv-3, "5 bis numbers in one
    street"); a Z can never be numbered again, so the street can no longer meet either plan."""
    from welcome_sim.referee.plans import PlanError, check_plan

    rules = load_rules("first", mode="advanced", expansion="zombies")
    rules.expansion = Zombies({**ZDATA, "open_houses": [[0, 0], [1, 0]]})
    full, bis = (next(p for p in rules.plans if p["id"] == i) for i in ("1-adv-2", "1-adv-3"))
    sh = PlayerSheet(rules)
    top, middle = sh.streets[0], sh.streets[1]
    for h, house in enumerate(top):
        house.number = h
    # The middle street: 1B 1 2 2B 3 3B 4 4B 5 5B ...: bis numbers in houses 1, 4, 6, 8, 10.
    for h in range(10):
        middle[h].number, middle[h].bis = h // 2 + 1, h in (0, 3, 5, 7, 9)
    whole_top = [(0, 0, len(top) - 1)]
    five_bis = [(1, h, h) for h in (0, 3, 5, 7, 9)]
    check_plan(sh, full, whole_top, True)  # both met before the invasions
    check_plan(sh, bis, five_bis, True)
    zombies = sh.rules.expansion
    assert zombies.move(sh, 0, 0) == (0, 0)  # the top street's house 1: its 0 erased
    assert zombies.move(sh, 1, 0) == (0, 1)  # the middle street's 1B erased
    with pytest.raises(PlanError, match="street 1 is not full"):
        check_plan(sh, full, whole_top, True)
    with pytest.raises(PlanError, match="not a bis number"):
        check_plan(sh, bis, five_bis, True)


def _extension_game(params) -> Game:
    rules = rules_for(part_size=1, open_houses=[[0, 9]])
    n = rules_n(rules)
    g = Game(rules, [(4, "extension"), n + R, (9, "park"), n + L, (10, "pool"), n + A], [(2, "park")])
    # Round 1, after the right horde invaded street 1 house 10: 9 in house 9 and an extension.
    g.zombie(1, R).invade(1, 0, 0, 9).move(1, 0, 0, 0, 8, act=True, params=params)
    g.zombie(2, L).move(2, 0, 0, 1, 5)  # 10 in street 2
    g.zombie(3, A).end()
    return g


def test_an_extension_copies_across_a_z_never_into_one():
    """ "5B-Z-5B": the Extension action copies the nearest number across invaded houses; "A house
    with a Z is permanently sealed off": never a target."""
    assert _extension_game((0, 8, 7)).replay().sheets[0].streets[0][7].bis
    _extension_game((0, 8, 9)).reject("an empty target")
    rules = rules_for()
    sh = PlayerSheet(rules)
    row = sh.streets[0]
    row[0].number, row[0].bis, row[1].invaded, row[2].invaded = 5, True, True, True
    # 7 in house 6 with an extension: the orphaned 5B copied across two Z into house 4.
    text = _check_move(rules, sh, [(7, "extension")], [0, 1, 0, MOVE, 0, 0, 5, 14, EXTENSION, 0, 0, 3], 1)
    assert "5B in street 1, house 4" in text and row[3].bis
    # From house 1 to house 5: house 4 between is no Z.
    with pytest.raises(IllegalMove, match="directly left or right"):
        _check_move(rules, sh, [(9, "extension")], [0, 1, 0, MOVE, 0, 0, 6, 18, EXTENSION, 0, 0, 4], 1)


# --- end of game -------------------------------------------------------------------------------


def test_the_first_stack_running_out_ends_the_game_at_once():
    """ "when the last card of the first Construction stack is flipped, the game ends immediately":
    the round is not played and no reshuffle happens ("do not shuffle the cards")."""
    g = _invasion_game()
    rec = g.replay()
    assert len(rec.rounds) == 3 and rec.rounds[2].moves == [] and rec.end_reasons == ["first-stack"]
    assert [r.played for r in rec.rounds] == [True, True, False]  # the kernel counts 2 rounds
    assert rec.rounds[2].events[-1] == (-1, "the first stack ran out: the game ends at once")
    # A move in that round.
    g.rows.insert(-1, [0, 3, 0, MOVE, -1, -1, -1, -1, -1, -1, -1, -1])
    g.reject("the first stack ran out, the game is over")
    # The end must say why: the first stack alone.
    g = _invasion_game()
    g.rows[-1][4] = 1
    g.reject("the game ends here with reason 32")
    # A log that goes on.
    g = _invasion_game()
    g.rows[-1][1] = 4
    g.reject("ends here")


def test_a_full_sheet_counts_invaded_houses():
    """The data file's reading: "a house with a Z counts as filled toward the end condition 'every
    house of the sheet numbered' (it can never be numbered again)"."""
    sh = PlayerSheet(rules_for())
    for row in sh.streets:
        for house in row:
            house.number = 1
    assert sh.full
    sh.streets[0][0].number, sh.streets[0][0].invaded = None, True
    assert sh.full and sh.numbered == sum(sh.rules.street_len) - 1


# --- Plan C cards ------------------------------------------------------------------------------


def test_plan_c_cards():
    """ "Build 2 complete housing estates of size 3, each with at least 1 barricade built." "Build 5
    barricades." "In 1 street: build all the barricades." "Use 4 ammunitions to slow down the
    zombies." "You have at least 5 houses invaded by zombies." """
    from welcome_sim.referee.plans import PlanError, check_plan

    rules = rules_for(open_houses=OPEN)
    plans = {p["id"]: p for p in rules.plans}
    sh = PlayerSheet(rules)
    x = rules.expansion
    st = x.state(sh)
    for pid in ("C-Z2", "C-Z3", "C-Z4", "C-Z5"):
        with pytest.raises(PlanError):
            check_plan(sh, plans[pid], [], False)
    # Street 1's five open houses barricaded (0, 1, 5, 8, 9): C-Z2 and C-Z3.
    for h in (0, 1, 5, 8, 9):
        sh.streets[0][h].number = h
        assert x.barricade(sh, 0, h) is None
    check_plan(sh, plans["C-Z2"], [], False)
    check_plan(sh, plans["C-Z3"], [], False)
    st["used"], st["invaded"] = 4, [(1, h) for h in range(5)]
    check_plan(sh, plans["C-Z4"], [], False)
    check_plan(sh, plans["C-Z5"], [], False)
    # C-Z1: two complete estates of 3, each with a barricade the player built.
    for h in range(2, 9):
        sh.streets[0][h].number = h
    sh.fences[0] |= {2, 5, 8}
    with pytest.raises(PlanError, match="barricades 0"):
        check_plan(sh, plans["C-Z1"], [(0, 2, 4), (0, 5, 7)], False)  # houses 2-4: no barricade
    sh.fences[0] -= {2, 5, 8}
    sh.fences[0] |= {3, 6, 9}
    check_plan(sh, plans["C-Z1"], [(0, 3, 5), (0, 6, 8)], False)  # barricades at 5 and 8


def test_a_plan_validated_in_a_replayed_game():
    """Validation happens at the end of the round, as for every plan: C-Z5 once 5 houses are Z."""
    rules = rules_for(part_size=1, open_houses=OPEN)
    g = left_then_right(rules)
    c = _plan_index(rules, "C-Z5")
    g.zombie(1, R).invade(1, 0, 0, 9).invade(1, 0, 1, 10).invade(1, 0, 2, 11).move(1, 0, 1, 0, 3)
    g.zombie(2, L).invade(2, 0, 0, 0).invade(2, 0, 1, 0).invade(2, 0, 2, 0).move(2, 0, 0, 2, 5)
    g.rows.append([0, 2, 0, PLAN, 2, c, -1, 0, 0, rules.plans[c]["first"], 0, 0])
    g.zombie(3, A).invade(3, 0, 0, 1).invade(3, 0, 0, 8).invade(3, 0, 1, 9)
    g.invade(3, 0, 2, 1).invade(3, 0, 2, 10).end()
    rec = g.replay()
    assert rec.scores[0]["plan_c"] == rules.plans[c]["first"]
    assert rec.scores[0]["expansion_points"] == 0


# --- several players, and the text view ---------------------------------------------------------


def test_each_player_moves_the_hordes_on_their_own_sheet_in_seat_order():
    """Every player draws the hordes' moves on their own sheet; one holds, the other does not (the
    rulebook's example: "Carol slowed down the horde again, and Daryl let the horde move")."""
    rules = rules_for(part_size=1, open_houses=[[0, 0], [0, 9]])
    g = left_then_right(rules, players=2)
    g.zombie(1, R).hold(1, 0, 0, 1).invade(1, 1, 0, 9)
    g.move(1, 0, 1, 0, 0).move(1, 1, 0, 0, 0)
    g.zombie(2, L).invade(2, 0, 0, 0, code=28).invade(2, 1, 0, 0, code=18)
    g.move(2, 0, 0, 2, 5).move(2, 1, 0, 2, 5)
    g.zombie(3, A).invade(3, 0, 0, 9).end()
    rec = g.replay()
    assert [s["invaded"] for s in rec.scores] == [2, 2]
    assert [s["ammunition_used"] for s in rec.scores] == [1, 0]
    lines = "\n".join(render_game(rec, ["Carol", "Daryl"], [rules.plans[0]["id"]] * 3))
    assert "Zombie card: the 3 hordes on the right move left" in lines
    assert "Carol: holds the right horde of street 1" in lines
    assert "Daryl: street 1 house 1 invaded: 9 erased" in lines
    assert "  Z " in lines and "ammunition 0 (used 1)" in lines
    # Seat order: player 2's invasion logged before player 1's hold.
    swapped = [list(r) for r in g.rows]
    i = next(i for i, r in enumerate(swapped) if r[3] == HOLD)
    swapped[i], swapped[i + 1] = swapped[i + 1], swapped[i]
    g.rows = swapped
    g.reject("round 1, player 1: the right horde of street 1 invades")


# --- kernel games ------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["standard", "advanced"])
def test_kernel_zombie_games_replay_exactly(mode):
    """100 kernel games per mode (greedy at 3 players, random alone) replayed by the referee: every
    move legal, every invasion the rules give, every score column equal; the games reach holds,
    invasions erasing numbers, barricades and the first stack's end."""
    from welcome_sim.simcore.engine.game import game_seeds, simulate
    from welcome_sim.simcore.rules.ruleset import load_ruleset
    from welcome_sim.verify import check_batch

    rs = load_ruleset("collector", mode=mode, expansion="zombies")
    kinds = set()
    stack_ends = 0
    for seed, n, strategy in ((31, 3, "greedy"), (32, 1, "random")):
        res = simulate(rs, game_seeds(seed, 50), n, [strategy], log=True)
        assert check_batch(res) == []
        log = res.log
        kinds |= set(log[:, 3].tolist())
        kinds |= {"erased"} if ((log[:, 3] == INVADE) & (log[:, 6] >= 0)).any() else set()
        kinds |= (
            {"barricade"} if ((log[:, 3] == MOVE) & (log[:, 8] == FENCE) & (log[:, 11] == 1)).any() else set()
        )
        stack_ends += int((res.game_column("end_reason") & END_STACK > 0).sum())
    assert {ZOMBIE, HOLD, INVADE, "erased", "barricade"} <= kinds
    assert stack_ends > 0


HAND_MODES = [
    ("expert", None, 2),
    ("expert", None, 4),
    ("expert-advanced", None, 3),
    ("solo", "0", 1),
    ("solo", "1", 1),
    ("solo", "5", 1),
    ("solo-advanced", "3", 1),
]


def _replayed_hand_games(mode: str, opp: str | None, players: int, seed: int, strategy: str) -> tuple:
    """300 kernel games of a Zombie hand mode, replayed by the referee (asserted legal and equal):
    (Zombie cards, rebuilt decks, games ended by the deck, games with a Zombie card drawn as the
    deck ran out for the third time, logged after the last round)."""
    from welcome_sim.simcore.engine.game import game_seeds, simulate
    from welcome_sim.simcore.rules.ruleset import load_ruleset
    from welcome_sim.verify import check_batch, split_log

    rs = load_ruleset("collector", mode=mode, opponent=opp, expansion="zombies")
    res = simulate(rs, game_seeds(seed, 300), players, [strategy], log=True)
    assert check_batch(res) == [], (mode, opp, players, strategy)
    log = res.log
    late = 0
    for rows in split_log(log).values():
        end = max(r[1] for r in rows if r[3] == END)
        late += any(r[1] > end for r in rows)
    return (
        int((log[:, 3] == ZOMBIE).sum()),
        int(((log[:, 3] == DECK) & (log[:, 6] == 1)).sum()),
        int((res.game_column("end_reason") & END_DECK > 0).sum()),
        late,
    )


def test_kernel_zombie_hand_games_replay_exactly():
    """300 kernel games per hand mode and strategy (greedy, random) replayed by the referee:
    every draw, Zombie card, rebuild, move and pass legal, every score column (the AAA's too)
    equal; the games reach rebuilt decks, the expert deck running out a third time (once with a
    Zombie card drawn as it ran out) and Zombie cards drawn into hands in every mode."""
    deck_ends = late = 0
    for i, (mode, opp, players) in enumerate(HAND_MODES):
        zombies = rebuilt = 0
        for j, strategy in enumerate(("greedy", "random")):
            z, r, d, lt = _replayed_hand_games(mode, opp, players, 1000 + 10 * i + j, strategy)
            zombies, rebuilt, deck_ends, late = zombies + z, rebuilt + r, deck_ends + d, late + lt
        assert zombies > 0 and rebuilt > 0, mode
    # A Zombie card drawn as the expert deck runs out the third time is rare (in about one set of
    # these 1,800 expert games in three): more expert games, replayed alike, until it comes up.
    extra = 0
    while late == 0 and extra < 15:
        mode, opp, players = HAND_MODES[extra % 3]
        _, _, d, lt = _replayed_hand_games(mode, opp, players, 5000 + extra, ("greedy", "random")[extra % 2])
        deck_ends, late, extra = deck_ends + d, late + lt, extra + 1
    assert deck_ends > 0 and late > 0


def test_a_designers_copy_of_the_data_file_is_read_by_the_referee_too(tmp_path):
    """ "A designer with the printed sheet can copy this file, change these values and play it with
    `--expansion ./my_zombies.toml`": the referee reads the same copy (here: every house of street
    1 without a printed barricade, longer roads, ammunition on every size-3 box); the right horde
    of street 1 now invades house 9, printed barricaded in the shipped file."""
    from welcome_sim.simcore.engine.game import game_seeds, simulate
    from welcome_sim.simcore.rules.ruleset import load_ruleset
    from welcome_sim.verify import check_batch

    text = (DATA / "expansions" / "zombies.toml").read_text()
    text = text.replace("road = 3", "road = 5").replace(
        "[[2, 1], [3, 2],", "[[2, 1], [3, 1], [3, 2], [3, 3],"
    )
    text = text.replace(  # houses 3, 4, 6, 7, 8, 9 of street 1 (counted from 1, as the file counts)
        "open_houses = [", "open_houses = [" + "".join(f"[1, {h}], " for h in (3, 4, 6, 7, 8, 9))
    )
    copy = tmp_path / "my_zombies.toml"
    copy.write_text(text)
    rs = load_ruleset("collector", expansion=str(copy))
    res = simulate(rs, game_seeds(33, 40), 2, ["greedy"], log=True)
    assert check_batch(res) == []
    log = res.log
    assert ((log[:, 3] == INVADE) & (log[:, 4] == 0) & (log[:, 5] == 8)).any()


# --- hand modes: Expert mode and the AAA solo mode -----------------------------------------------

DECK, PASS, AAA_PLAN = 4, 6, 7
END_FULL, END_DECK = 4, 16


def hand_rules(mode: str, opponent: str | None = None, street_len=None, **changes):
    """The collector's rules in a hand mode with Zombie Outbreak, some data-file values changed
    (shorter decks, which houses have no printed barricade) and optionally a smaller sheet."""
    rules = load_rules("collector", mode=mode, expansion="zombies", opponent=opponent)
    rules.expansion = Zombies({**ZDATA, **changes})
    if street_len is not None:
        rules.street_len = street_len
    return rules


class HandGame:
    """A hand-built hand-mode log: the set-up deck (card ids, top first), then rows."""

    def __init__(self, rules, deck, players: int = 1) -> None:
        self.rules, self.players, self.n = rules, players, len(rules.cards)
        self.rows = [[0, 0, -1, DECK, i, c, 0, 0, 0, 0, 0, 0] for i, c in enumerate(deck)]

    def rebuild(self, rnd: int, cards) -> HandGame:
        self.rows += [[0, rnd, -1, DECK, i, c, 1, 0, 0, 0, 0, 0] for i, c in enumerate(cards)]
        return self

    def zombie(self, rnd: int, kind: int) -> HandGame:
        self.rows.append([0, rnd, -1, ZOMBIE, self.n + X_SPECIAL + kind, -1, 0, 0, 0, 0, 0, 0])
        return self

    def hold(self, rnd: int, p: int, s: int, side: int) -> HandGame:
        self.rows.append([0, rnd, p, HOLD, s, side, 0, 0, 0, 0, 0, 0])
        return self

    def invade(self, rnd: int, p: int, s: int, h: int) -> HandGame:
        self.rows.append([0, rnd, p, INVADE, s, h, -1, 0, 0, 0, 0, 0])
        return self

    def move(self, rnd, p, combo, s, h, number, passed, to=None) -> HandGame:
        if to is None:
            to = -1 if self.rules.deal == "aaa" else (p + 1) % self.players
        self.rows.append([0, rnd, p, MOVE, combo, s, h, 2 * number, -1, -1, -1, -1])
        self.rows.append([0, rnd, p, PASS, passed, to, 0, 0, 0, 0, 0, 0])
        return self

    def aaa_plan(self, rnd: int, slot: int) -> HandGame:
        i = next(i for i, pl in enumerate(self.rules.plans) if pl["slot"] == slot)
        self.rows.append([0, rnd, -1, AAA_PLAN, slot, self.rules.plans[i]["first"], i, 0, 0, 0, 0, 0])
        return self

    def end(self, rnd: int, a: int) -> HandGame:
        self.rows.append([0, rnd, -1, END, a, 0, 0, 0, 0, 0, 0, 0])
        return self

    def replay(self):
        return replay(self.rules, self.rows, self.players)

    def reject(self, match: str) -> None:
        with pytest.raises(IllegalMove, match=match):
            self.replay()

    def without(self, pick) -> HandGame:
        """A copy without the first row pick(row) chooses."""
        g = HandGame.__new__(HandGame)
        g.__dict__.update(self.__dict__)
        i = next(i for i, r in enumerate(self.rows) if pick(r))
        g.rows = self.rows[:i] + self.rows[i + 1 :]
        return g

    def changed(self, pick, change) -> HandGame:
        g = HandGame.__new__(HandGame)
        g.__dict__.update(self.__dict__)
        g.rows = [list(r) for r in self.rows]
        i = next(i for i, r in enumerate(g.rows) if pick(r))
        change(g.rows[i])
        return g


def card_of(rules, number: int, action: str | None = None, used=()) -> int:
    return next(
        i
        for i, (n, a) in enumerate(rules.cards)
        if n == number and (action is None or a == action) and i not in used
    )


def zombie_cards(order=(L, R, A)) -> dict:
    """Data-file values that make Zombie card order[0] the left card, order[1] the right card and
    order[2] the all card: a game dealt with the cards in that order plays as with (L, R, A)."""
    kinds = [""] * 3
    for k, card in zip(("left", "right", "all"), order, strict=True):
        kinds[card] = k
    return {"cards": kinds}


def expert_game(order=(L, R, A)) -> tuple[HandGame, dict]:
    """Two architects, 1 construction card per architect in each deck (a designer's
    `expert_cards_per_architect`), street 2's first two houses without a printed barricade.
    Set-up: first cards 1 (seat 1) and 2 (seat 2); deck [Zombie card 0 (left), 3, 4].
    Round 1: seat 1 draws the Zombie card (player 1's street-2 house 1 invaded, player 2 holds it
    with her ammunition), then 3; seat 2 draws 4. Round 2: the deck is rebuilt with 5, Zombie card
    1 (right: no open house on its way), 6. Round 3: rebuilt with 7, 8, Zombie card 2 (all).
    Round 4: seat 1 draws Zombie card 2 (player 1's street-2 house 2 and player 2's house 1
    invaded), the deck runs out a third time: the game ended after round 3. With `order`, the
    Zombie cards dealt are order[0], order[1], order[2] (the data file's kinds permuted to match)."""
    L, R, A = order  # the module's names for the three cards, here in a dealt order
    rules = hand_rules(
        "expert", open_houses=[[1, 0], [1, 1]], expert_cards_per_architect=1, **zombie_cards(order)
    )
    n = len(rules.cards)
    c = {k: card_of(rules, k) for k in range(1, 9)}
    g = HandGame(rules, [c[1], c[2], n + X_SPECIAL + L, c[3], c[4]], players=2)
    g.zombie(1, L).invade(1, 0, 1, 0).hold(1, 1, 1, 0)
    # Player 1: hand [1, 3]; number 1, passes 3. Player 2: hand [2, 4]; number 4 (combination 1),
    # passes 2.
    g.move(1, 0, 0, 0, 0, 1, c[3]).move(1, 1, 1, 0, 0, 4, c[2])
    g.rebuild(2, [c[5], n + X_SPECIAL + R, c[6]]).zombie(2, R)
    # Player 1: hand [2, 5]; player 2: hand [3, 6].
    g.move(2, 0, 0, 0, 1, 2, c[2]).move(2, 1, 1, 0, 1, 6, c[3])
    g.rebuild(3, [c[7], c[8], n + X_SPECIAL + A])
    # Player 1: hand [3, 7]; player 2: hand [2, 8].
    g.move(3, 0, 1, 0, 2, 7, c[3]).move(3, 1, 1, 0, 2, 8, c[2]).end(3, END_DECK)
    g.zombie(4, A).invade(4, 0, 1, 1).invade(4, 1, 1, 0)
    return g, c


def test_expert_deck_of_ten_cards_per_architect_rebuilt_twice_then_the_game_ends():
    """ "Give 1 Construction card to each architect. Then, form a deck with 10 Construction cards
    per architect and 1 Zombie card ... When the deck is exhausted, shuffle the discard pile and
    reconstruct a deck with 10 cards per architect and a new Zombie card. If the deck is exhausted
    for the third time, the game ends." (Here 1 card per architect, as a designer may set it.)"""
    g, _ = expert_game()
    rec = g.replay()
    assert rec.end_reasons == ["deck"]
    assert [r.played for r in rec.rounds] == [True, True, True, False]
    assert [len(r.reshuffled) for r in rec.rounds] == [0, 1, 1, 0]
    # The Zombie card drawn as the deck ran out is applied: it changes the final sheets.
    assert [s["invaded"] for s in rec.scores] == [2, 1]
    assert [s["ammunition_used"] for s in rec.scores] == [0, 1]
    assert rec.sheets[0].streets[1][1].invaded and rec.sheets[1].streets[1][0].invaded
    g.without(lambda r: r[1] == 4 and r[3] == INVADE).reject("invades street 2 house")
    g.without(lambda r: r[1] == 4 and r[3] == ZOMBIE).reject("Zombie card .* was drawn")


@pytest.mark.parametrize(
    ("change", "match"),
    [
        # two Zombie cards in the first deck
        (lambda c, n: [c[1], c[2], n + X_SPECIAL + L, c[3], n + X_SPECIAL + R, c[4]], "one Zombie card"),
        # a card that is no Zombie card of the data file
        (lambda c, n: [c[1], c[2], n + X_SPECIAL + 3, c[3], c[4]], "one Zombie card"),
        # 3 construction cards in a deck of 1 per architect
        (
            lambda c, n: [c[1], c[2], n + X_SPECIAL + L, c[3], c[4], c[5]],
            "1 construction cards per architect",
        ),
        # a Zombie card as an architect's first card
        (lambda c, n: [n + X_SPECIAL + L, c[2], c[1], c[3], c[4]], "first card is a construction card"),
    ],
)
def test_expert_setup_rejects_a_deck_against_the_set_up(change, match):
    """ "Give 1 Construction card to each architect. Then, form a deck with 10 Construction cards
    per architect and 1 Zombie card ... set aside the remaining Zombie cards face down." """
    g, c = expert_game()
    n = g.n
    g.rows = [r for r in g.rows if not (r[1] == 0 and r[3] == DECK)]
    g.rows[:0] = [[0, 0, -1, DECK, i, x, 0, 0, 0, 0, 0, 0] for i, x in enumerate(change(c, n))]
    g.reject(match)


def test_expert_rebuilds_take_the_discard_pile_and_the_next_zombie_card():
    """ "shuffle the discard pile and reconstruct a deck with 10 cards per architect and a new
    Zombie card": the cards come from the discard pile (not from a hand), with the next Zombie
    card, and only when the deck is exhausted."""
    g, c = expert_game()
    # Card 3 is in player 2's hand in round 2, not in the discard pile.
    g.changed(lambda r: r[1] == 2 and r[3] == DECK and r[4] == 0, lambda r: r.__setitem__(5, c[3])).reject(
        r"takes 2 cards of the discard pile"
    )
    # Zombie card 0, drawn from the first deck, shuffled into the first rebuild: not a new one.
    g.changed(
        lambda r: r[1] == 2 and r[3] == DECK and r[4] == 1, lambda r: r.__setitem__(5, g.n + X_SPECIAL + L)
    ).reject("rebuild 1 shuffles in one new Zombie card")
    # No rebuild rows: the deck was not rebuilt.
    h = g
    for _ in range(3):
        h = h.without(lambda r: r[1] == 2 and r[3] == DECK)
    h.reject("the deck ran out and was not rebuilt")


def test_expert_a_third_rebuild_is_rejected():
    """ "If the deck is exhausted for the third time, the game ends": no third rebuild, no round
    after it."""
    g, c = expert_game()
    g.rows.append([0, 4, -1, DECK, 0, c[1], 1, 0, 0, 0, 0, 0])
    g.reject("the deck ran out for the third time: the game ends, the deck is not rebuilt again")
    g2, _ = expert_game()
    g2.rows.append([0, 4, 0, MOVE, 0, 0, 3, 2 * 9, -1, -1, -1, -1])
    g2.reject("the deck ran out for the third time before this round; the game is over")
    # The end row must give the deck as the reason.
    g3, _ = expert_game()
    g3.changed(lambda r: r[3] == END, lambda r: r.__setitem__(4, END_FULL)).reject("does not give the deck")


@pytest.mark.parametrize("order", list(itertools.permutations((L, R, A))))
def test_expert_zombie_cards_come_in_any_order(order):
    """ "form a deck with 10 Construction cards per architect and 1 Zombie card ... set aside the
    remaining Zombie cards face down" ... "reconstruct a deck with 10 cards per architect and a new
    Zombie card": the text names no card, so any one goes into the first deck and each rebuild
    takes one of those set aside (face down: in a random order), never one already used."""
    g, _ = expert_game(order)
    rec = g.replay()
    assert rec.end_reasons == ["deck"]
    assert [s["invaded"] for s in rec.scores] == [2, 1]
    first, second, third = (g.n + X_SPECIAL + k for k in order)
    # The second rebuild shuffles in the card the first rebuild used, or the first deck's card.
    for used in (first, second):
        g.changed(
            lambda r: r[1] == 3 and r[3] == DECK and r[5] == third, lambda r, u=used: r.__setitem__(5, u)
        ).reject("rebuild 2 shuffles in one new Zombie card")


def test_expert_zombie_card_drawn_applies_to_every_architect_at_once():
    """ "When you draw a Zombie card, the architects immediately apply its effect. Then permanently
    remove it from the game and draw a new Construction card in order to have 2 cards in hand." """
    g, _ = expert_game()
    rec = g.replay()
    assert rec.rounds[0].events[0] == (-1, "Zombie card: the 3 hordes on the left move right")
    assert (0, "street 2 house 1 invaded: empty") in rec.rounds[0].events
    # Player 2's row missing: every architect applies it.
    g.without(lambda r: r[3] == HOLD).reject("round 1, player 2: the left horde of street 2 invades")
    # A Zombie card logged as a stack card (b = 0) in a hand mode.
    g.changed(lambda r: r[3] == ZOMBIE, lambda r: r.__setitem__(5, 0)).reject("was drawn; the log has")


def test_expert_two_combinations_and_either_card_passed_on():
    """ "Use one card for its number and the other for its action. Then discard one of the 2 cards
    and give the other to the opponent on your left": combination 0 takes card 1's number, 1 card
    2's; the player passes either card, never one not in hand."""
    g, c = expert_game()
    # Player 2 in round 1 writes 2 (card 1's number) with combination 1 (card 2's number, 4).
    g.changed(lambda r: r[1] == 1 and r[2] == 1 and r[3] == MOVE, lambda r: r.__setitem__(7, 4)).reject(
        "wrote 2 with a 4 card"
    )
    g.changed(lambda r: r[1] == 1 and r[2] == 1 and r[3] == MOVE, lambda r: r.__setitem__(4, 2)).reject(
        "combination 2 does not exist"
    )
    # Player 1 passes card 5 (in the deck) in round 1.
    g.changed(lambda r: r[1] == 1 and r[2] == 0 and r[3] == PASS, lambda r: r.__setitem__(4, c[5])).reject(
        "is not in the hand"
    )
    # Passing to oneself.
    g.changed(lambda r: r[1] == 1 and r[2] == 0 and r[3] == PASS, lambda r: r.__setitem__(5, 0)).reject(
        "the third card goes to 1"
    )


AAA_OPEN = dict(open_houses=[[0, 0]], road=1, aaa_part_size=3)


def aaa_game(level: str = "1", order=(L, R, A)) -> tuple[HandGame, dict]:
    """The AAA solo mode on a sheet of three streets of 2 houses (so that it fills in 5 rounds),
    stacks of 3 cards (a designer's `aaa_part_size`), street 1's first house without a printed
    barricade and roads of one arrow. Deck: [3, 10 park, Z0 (left), 5] [11, 4, A, 12, Z1 (right)]
    [6, 13, 7, Z2 (all), B, C]. The AAA's stack: 3; Z0 (replacing 3, the only card); Z0 5; Z0 5 4;
    Z0 Z1 (replacing 5 and 4); Z0 Z1 6; Z0 Z2 (replacing Z1 and 6); Z0 Z2 10. With `order`, the
    stacks hold Zombie cards order[0], order[1], order[2] (the data file's kinds permuted to match)."""
    L, R, A = order  # the module's names for the three cards, here in a dealt order
    rules = hand_rules("solo", level, street_len=[2, 2, 2], **AAA_OPEN, **zombie_cards(order))
    n = len(rules.cards)
    used: list[int] = []
    c = {}
    for k, spec in {"a1": (3,), "a2": (10, "park"), "a3": (5,), "a4": (11,), "a5": (4,)}.items():
        c[k] = card_of(rules, *spec, used=used)
        used.append(c[k])
    for k, spec in {"a6": (12,), "a7": (6,), "a8": (13,), "a9": (7,)}.items():
        c[k] = card_of(rules, *spec, used=used)
        used.append(c[k])
    z = [n + X_SPECIAL + i for i in order]
    v = [n + i for i in range(3)]
    deck = [c["a1"], c["a2"], z[0], c["a3"]]
    deck += [c["a4"], c["a5"], v[0], c["a6"], z[1]]
    deck += [c["a7"], c["a8"], c["a9"], z[2], v[1], v[2]]
    g = HandGame(rules, deck)
    validates = rules.opponent["validates"]
    # Round 1: hand [3, 10 park]; 3 in street 2 house 1; 3 to the AAA.
    g.move(1, 0, 0, 1, 0, 3, c["a1"])
    # Round 2: Zombie card 0: street 1 house 1 invaded; the AAA's one card replaced by it.
    g.zombie(2, L).invade(2, 0, 0, 0)
    # Hand [5, 11]: 5 in street 2 house 2; 5 to the AAA.
    g.move(2, 0, 0, 1, 1, 5, c["a3"])
    # Round 3: hand [4, A, 12]; 4 in street 3 house 1; 4 to the AAA.
    if "A" in validates:
        g.aaa_plan(3, 0)
    g.move(3, 0, 0, 2, 0, 4, c["a5"])
    # Round 4: Zombie card 1 (no open house on the right): replaces the AAA's 5 and 4.
    g.zombie(4, R)
    g.move(4, 0, 0, 2, 1, 6, c["a7"])
    # Round 5: hand [7, Z2 (replaces 6 and Z1), B, C]; the deck runs out: rebuilt from the
    # discard pile (10, 11, 12, 13); 7 in street 1 house 2 fills the sheet; 10 park to the AAA.
    g.zombie(5, A)
    for slot in (1, 2):
        if "BC"[slot - 1] in validates:
            g.aaa_plan(5, slot)
    g.rebuild(5, [c["a2"], c["a4"], c["a6"], c["a8"]])
    g.move(5, 0, 0, 0, 1, 7, c["a2"]).end(5, END_FULL)
    return g, c


def test_aaa_zombie_card_replaces_the_last_two_cards_and_counts_as_a_fence_card():
    """ "When you draw a Zombie card, remove the last 2 cards given to the AAA from the game and
    replace them with the Zombie card" (level 1 or higher); "each Zombie card in the stack of AAA
    cards is considered as a Fence card ... When calculating fence points for the AAA, each Zombie
    card acts as an additional Fence card. When calculating housing estate points for the AAA, each
    Zombie card acts as a Fence card, creating estates." """
    g, _ = aaa_game("1")
    rec = g.replay()
    assert rec.end_reasons == ["full"]
    assert rec.scores[0]["invaded"] == 1
    events = [e for r in rec.rounds for _, e in r.events]
    assert sum("replaces the AAA's last 1 card:" in e for e in events) == 1  # fewer if it holds fewer
    assert sum("replaces the AAA's last 2 cards:" in e for e in events) == 2
    # Stack Z0 Z2 10-park: two Fence cards, one estate of one house, one park.
    a = rec.aaa
    assert (a["cards"], a["fences"], a["n_estates"], a["estates"], a["parks"]) == (3, 2, 1, 1, 1)


def test_aaa_level_0_keeps_every_card_given():
    """ "Additional rules with a level 1 or higher AAA opponent: When you draw a Zombie card, remove
    the last 2 cards given to the AAA": not against level 0, which scores nothing."""
    g, _ = aaa_game("0")
    rec = g.replay()
    assert rec.aaa["cards"] == 5
    assert not any("replaces" in e for r in rec.rounds for _, e in r.events)


def test_aaa_zombie_card_drawn_is_applied_on_the_sheet_and_drawn_past():
    """ "When you draw a Zombie card, apply the effect of the Zombie card on your sheet. Then remove
    it from the game and draw a new Construction card to have 2 cards to play for the round." """
    g, c = aaa_game("1")
    g.without(lambda r: r[3] == INVADE).reject("round 2, player 1: the left horde of street 1 invades")
    g.without(lambda r: r[1] == 2 and r[3] == ZOMBIE).reject("Zombie card .* was drawn; the log has")
    # The Zombie card is not in hand: it cannot be given to the AAA.
    g.changed(lambda r: r[1] == 2 and r[3] == PASS, lambda r: r.__setitem__(4, g.n + X_SPECIAL + L)).reject(
        "is not in the hand"
    )
    # Either card may be given: 11 instead of 5 in round 2 is legal (5 goes to the discard pile,
    # and comes back in the rebuilt deck instead of 11).
    h = g.changed(lambda r: r[1] == 2 and r[3] == PASS, lambda r: r.__setitem__(4, c["a4"]))
    rec = h.changed(
        lambda r: r[3] == DECK and r[6] == 1 and r[5] == c["a4"], lambda r: r.__setitem__(5, c["a3"])
    ).replay()
    assert rec.aaa["cards"] == 3
    # The AAA's validation card A (Sam validates plan A) needs its row.
    g.without(lambda r: r[3] == AAA_PLAN).reject("expected a row of kind 7")


def test_aaa_deck_runs_out_and_is_rebuilt_from_the_discard_pile():
    """Base AAA mode: when the deck runs out the discard pile is shuffled into a new deck; the
    AAA's cards, the Zombie cards and the validation cards drawn do not come back."""
    g, c = aaa_game("1")
    g.changed(lambda r: r[3] == DECK and r[6] == 1, lambda r: r.__setitem__(5, c["a1"])).reject(
        "not rebuilt from the discard pile"
    )


@pytest.mark.parametrize(
    ("swap", "match"),
    [
        ((2, 4), "stack 1 of the AAA deck holds one Zombie card"),  # Z0 into the second stack
        ((6, 3), "stack 1 of the AAA deck holds one Zombie card"),  # validation card A into the first
        ((8, 9), "stack 2 of the AAA deck holds one Zombie card"),  # Z1 into the third
    ],
)
def test_aaa_setup_three_stacks_with_their_zombie_and_validation_cards(swap, match):
    """ "Divide the 60 cards into 3 stacks of 20 cards each ... 1st stack: 1 Zombie card. 2nd stack:
    1 Zombie card and 1 AAA Validation card. 3rd stack: 1 Zombie card and 2 AAA Validation cards
    ... the 1st stack on top of the other two." (Stacks of 3 here, as a designer may set it.)"""
    g, _ = aaa_game("1")
    i, j = swap
    setup = [r for r in g.rows if r[1] == 0 and r[3] == DECK]
    setup[i][5], setup[j][5] = setup[j][5], setup[i][5]
    g.reject(match)


@pytest.mark.parametrize("order", list(itertools.permutations((L, R, A))))
def test_aaa_zombie_cards_go_into_the_stacks_in_any_order(order):
    """ "Randomly shuffle the following cards into each stack: 1st stack: 1 Zombie card. 2nd stack: 1
    Zombie card and 1 AAA Validation card. 3rd stack: 1 Zombie card and 2 AAA Validation cards": the
    text names no Zombie card, so any one goes into each stack, each card once."""
    g, _ = aaa_game("1", order)
    rec = g.replay()
    assert rec.end_reasons == ["full"]
    assert (rec.aaa["cards"], rec.aaa["fences"], rec.aaa["n_estates"]) == (3, 2, 1)
    # One Zombie card in two stacks (the third stack's replaced by the first stack's) is no deal.
    first, third = g.n + X_SPECIAL + order[0], g.n + X_SPECIAL + order[2]
    g.changed(
        lambda r: r[1] == 0 and r[3] == DECK and r[5] == third, lambda r: r.__setitem__(5, first)
    ).reject("three different Zombie cards")


def test_kernel_aaa_stack_that_kept_its_cards_is_reported():
    """The AAA's stack is not in the log: a kernel whose AAA kept the two cards a Zombie card
    replaces would show in its AAA columns, which verify compares with the referee's."""
    from welcome_sim.simcore.engine.game import game_seeds, simulate
    from welcome_sim.simcore.ground.layout import GAME_COLUMNS
    from welcome_sim.simcore.rules.ruleset import load_ruleset
    from welcome_sim.verify import check_batch

    rs = load_ruleset("collector", mode="solo", opponent="1", expansion="zombies")
    res = simulate(rs, game_seeds(41, 3), 1, ["greedy"], log=True)
    assert check_batch(res) == []
    res.games[0, GAME_COLUMNS.index("aaa_cards")] += 1
    problems = check_batch(res)
    assert len(problems) == 1 and "AAA cards kernel" in problems[0]
