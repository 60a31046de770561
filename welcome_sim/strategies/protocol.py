"""Prototyping strategies in plain Python, played by the same compiled game loop.

Write a class with one method:

    class MyPlayer:
        def choose(self, turn: Turn) -> Move | None:
            ...  # return a Move, or None for a permit refusal (only legal when nothing fits)

and pass an instance wherever a strategy name goes in the Python API
(`simulate(ruleset, seeds, 1, [MyPlayer()])`). The kernel calls it through Numba's object mode at
each of its turns (about a thousand times slower than a compiled strategy, same result rows).
Moves are checked against the rules before they are applied; an illegal one raises
IllegalStrategyMove naming the rule. Python strategies validate every plan as soon as they can.
Use `turn.random(n)` for randomness: it draws from the game's own generator, so games stay
deterministic given their seed.

Optional methods (a default applies without them):

- `roundabout(turn) -> (street, house) | None`: Advanced mode, a roundabout before the move
  (it can make a number fit); default none.
- `roundabout_after(turn) -> (street, house) | None`: Advanced mode, a roundabout after the move
  ("at any time during a round"), only when none went in before it this round; default none.
- `pass_on_refusal(turn) -> int`: hand modes, after a permit refusal: the index 0-2 in
  `turn.hand` of the card passed on (to the neighbour, the AAA or the discard pile); the other
  two go to the discard pile. Default: one of the three at random from the game's generator.
- `reshuffle(turn, cards_left) -> bool`: first edition (three stacks), offered to a strategy that
  validates a plan in the first round anyone does: reshuffle every card into three new stacks?
  cards_left: (number, action) of the cards left in the stacks, sorted (their order is hidden);
  turn.combos is empty. Default: decline.
- `truck_side(turn, street) -> int`: first-edition Ice Cream, asked when the player first numbers
  a house in a street whose truck start the player chooses: 0 from the left, 1 from the right.
  Default: 0.
- `hold_horde(turn, street, side) -> bool`: Zombie Outbreak, when a Zombie card moves the horde
  of that street (side 0 the left horde, 1 the right) and the player has ammunition: cross one
  out to hold it? Default: hold when the house it reaches is numbered and has no barricade.

- `objective(turn, n) -> int`: Roswell, at set-up (turn.round 0, no combinations): the
  infiltration objective circled, 0 to n - 1 in the sheet's order. Default: 0.

Zombie Outbreak: a barricade instead of a fence is the fence action with params
(street, house, "barricade") naming the house just numbered; `turn.invaded` marks Z houses.
American Dream: a move is a number only (action None); the combination's action makes the house
perfect when it matches `turn.families`; `turn.perfect`, `turn.street_bonuses` and
`turn.column_bonuses` show the sheet. An AAA validation card asks `expansion_option(turn, options)`
with options ("cross", "street", i) or ("cross", "column", i) (default the first).
Roswell: a Zoorg infiltrated instead of the card's action is action "infiltrate" with params
(street, house) naming the house just numbered, under a flying saucer (`turn.saucers`), with the
card's own number (no temp worker); `turn.zoorgs` marks the saucers circled.
Quack has no decision: `turn.ducklings` lists the sheet's ducklings (colour, its two houses,
circled) and `turn.duck_phases_done` the scoring phases already scored.

The expansions' Turn fields and their option rows' readable tuples are read in
protocol_expansions.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.ground.layout import (
    ACTION_NAMES,
    B_FENCE,
    EMPTY,
    EXTENSION,
    F_EXT,
    F_LOCK,
    F_POOL,
    FENCE,
    IMPROVEMENT,
    MAX_CODE,
    PARK,
    POOL,
    ROUNDABOUT,
    SC_EXT,
    SC_IMPR,
    SC_PARK,
    SC_PLAN_ROUND,
    SC_POOLS,
    SC_REFUSALS,
    SC_ROUNDABOUTS,
    SC_TEMPS,
    TEMP,
    TEMP_CODES,
    ZOMBIE,
)
from welcome_sim.simcore.ground.numbers import code_value, number_code, number_text
from welcome_sim.simcore.ground.rng import rng_below
from welcome_sim.simcore.ground.table import (
    DEAL_STACKS,
    P_NSTREETS,
    P_RB_MAX,
    R_DECK_ACT,
    R_DECK_NUM,
    R_STREET_LEN,
)
from welcome_sim.simcore.rules.expansions import zombies
from welcome_sim.simcore.rules.expansions.hooks import x_alt_ok, x_fence_alt_ok
from welcome_sim.simcore.rules.sheetops import (
    extension_ok,
    fence_ok,
    first_code,
    improvement_ok,
    number_fits_anywhere,
    park_ok,
    pool_ok,
    roundabout_ok,
    street_bounds,
    temp_ok,
    value_range,
)
from welcome_sim.strategies.context import (
    CTX_DEAL,
    CTX_FLIPPED,
    CTX_HAND_ACT,
    CTX_HAND_NUM,
    CTX_HAND_SIZE,
    CTX_PLAN,
    CTX_PLAYERS,
    CTX_ROUND,
    Offer,
)
from welcome_sim.strategies.protocol_expansions import describe_option, expansion_fields


class IllegalStrategyMove(WelcomeSimError):
    """A Python strategy returned a move the rules do not allow."""


@dataclass(frozen=True)
class Move:
    """A move: combination 0-2, where the number goes, the number, and optionally the action.

    `action` is one of fence, improvement, park, pool, temp, extension (it must be the
    combination's action; American Dream: always None, its sheet has no usual actions, and the
    combination's action makes the house perfect by itself when it matches the house's family), "infiltrate" (Roswell: a Zoorg instead of the action, params (street,
    house) of the house just numbered) or None; `params` are (street, boundary) for a fence (the boundary left
    of house `boundary`), (size - 1,) for an improvement, (street, source, target) for an
    extension, () otherwise. A number other than the card's needs action "temp".
    """

    combo: int
    street: int
    house: int
    number: int | float  # 9.75 for a 9¾
    action: str | None = None
    params: tuple[int, ...] = ()


@dataclass
class Turn:
    """What a player sees and may do this turn. Sheet fields are read-only copies."""

    round: int
    seat: int
    players: int
    combos: list[tuple[int, str]]  # (number, action) of combinations 0, 1, 2
    numbers: list[list[int | None]]  # per street, per house; None = empty (or a roundabout)
    bis: list[list[bool]]
    pools_built: list[list[bool]]
    pool_houses: list[list[bool]]
    fences: list[list[int]]  # per street: boundaries with a fence (0 and the length included)
    locked: list[list[bool]]  # houses of estates used for a plan
    parks: list[int]  # boxes crossed per street
    pools: int
    temps: int
    extensions: int
    refusals: int
    improvements: list[int]  # boxes crossed per estate size 1..6
    plans: list[str]  # ids of the plans in play (A, B, C)
    plans_flipped: list[bool]  # someone already validated it: only the later score is left
    plans_done: list[bool]  # this player validated it
    roundabouts: int = 0  # roundabouts built
    roundabouts_allowed: int = 0  # at most this many (0 outside Advanced mode)
    hand: list[tuple[int | float, str]] = field(default_factory=list)  # hand modes: (number, action) per card
    roundabout_at: list[list[bool]] = field(default_factory=list)  # per street, per house
    invaded: list[list[bool]] = field(default_factory=list)  # Zombie Outbreak: Z houses
    barricaded: list[list[bool]] = field(default_factory=list)  # ... printed or built barricade
    ammunition: int = 0  # ... ammunition left to cross out
    saucers: list[list[bool]] = field(default_factory=list)  # Roswell: houses under a flying saucer
    zoorgs: list[list[bool]] = field(default_factory=list)  # ... saucers circled (Zoorgs infiltrated)
    objective: int = -1  # ... the infiltration objective circled (0-based; -1 none)
    # Halloween, per street, per house: "" no ghost and candy, "open", "ghost" or "candy" circled.
    marks: list[list[str]] = field(default_factory=list)
    # Quack: every duckling as (colour, (street, house), (street, house), circled), and the scoring
    # phases already scored (0 yellow, 1 black, 2 both).
    ducklings: list[tuple[str, tuple[int, int], tuple[int, int], bool]] = field(default_factory=list)
    duck_phases_done: list[int] = field(default_factory=list)
    # American Dream, per street, per house: the action that makes the house perfect (its
    # family), and whether it is perfect (circled); the bonuses: "open", "circled", "crossed"
    # (or "due": completed this round, circled at its end), per street and per column.
    families: list[list[str]] = field(default_factory=list)
    perfect: list[list[bool]] = field(default_factory=list)
    street_bonuses: list[str] = field(default_factory=list)
    column_bonuses: list[str] = field(default_factory=list)
    _state: Any = None

    def legal_placements(self, combo: int) -> list[tuple[int, int, int]]:
        """(street, house, number) where this combination's number (or, with a temp worker, an
        adjusted one) may be written."""
        R, cells, sc, p, lo, hi = self._state[:6]
        number, action = self.combos[combo]
        vmin, vmax = value_range(R, sc, p, number_code(number), ACTION_NAMES.index(action))
        out = []
        for s in range(int(R[0, P_NSTREETS])):
            for h in range(int(R[R_STREET_LEN, s])):
                if cells[p, s, h] == EMPTY:
                    first, last = first_code(vmin, lo[s, h]), min(vmax, hi[s, h] - 1)
                    out += [(s, h, code_value(v)) for v in range(first, last + 1, 2)]
        return out

    def random(self, n: int) -> int:
        """A uniform integer in [0, n) from the game's generator."""
        return int(rng_below(self._state[6], n))


class Strategy(Protocol):
    """The prototyping protocol: one method (optional: roundabout(turn), and in the first edition
    reshuffle(turn, cards_left) -> bool, which declines when absent)."""

    def choose(self, turn: Turn) -> Move | None:
        """Return this turn's move, or None for a permit refusal."""
        ...


# Python strategies of the batch being played, by seat (set by simulate() for its duration).
ACTIVE: dict[int, tuple[Strategy, Any]] = {}


def dispatch_python(R, sh, p, ctx, offer) -> None:
    """Called from the compiled game loop (object mode): ask seat p's Python strategy."""
    cells = sh.cells
    cnum, lo, hi, mv = offer.cnum, offer.lo, offer.hi, offer.mv
    strategy, ruleset = ACTIVE[int(p)]
    turn = _turn(R, sh, int(p), ctx, offer, ruleset)
    move = strategy.choose(turn)
    mv[:] = -1
    if move is None:
        # A refusal is legal only when none of the printed numbers fits anywhere.
        for c in range(cnum.shape[0]):
            if number_fits_anywhere(R, cells, int(p), lo, hi, int(cnum[c])):
                raise IllegalStrategyMove(
                    f"{type(strategy).__name__}: permit refusal although {number_text(cnum[c])} can be written"
                )
        return
    _check(R, sh, int(p), offer, move, type(strategy).__name__)
    mv[0], mv[1], mv[2], mv[3] = move.combo, move.street, move.house, number_code(move.number)
    if move.action == "infiltrate":
        mv[5], mv[6], mv[7] = move.street, move.house, 1
        return
    if move.action is not None:
        mv[4] = ACTION_NAMES.index(move.action)
        if mv[4] == FENCE and len(move.params) == 3 and move.params[2] == "barricade":
            mv[5], mv[6], mv[7] = move.street, move.house, 1
            return
        for i, x in enumerate(move.params[:3]):
            mv[5 + i] = x


def dispatch_python_roundabout(R, sh, p, ctx, offer, rbm, after) -> None:
    """Advanced mode, object mode: a Python strategy builds a roundabout if it has a
    roundabout(turn) method (before the move) or roundabout_after(turn) (after it) returning
    (street, house); None or no method: no roundabout."""
    cells, sc = sh.cells, sh.sc
    strategy, ruleset = ACTIVE[int(p)]
    name = "roundabout_after" if after else "roundabout"
    method = getattr(strategy, name, None)
    if method is None:
        return
    turn = _turn(R, sh, int(p), ctx, offer, ruleset)
    choice = method(turn)
    if choice is None:
        return
    s, h = int(choice[0]), int(choice[1])
    if not roundabout_ok(R, cells, sc, int(p), s, h):
        raise IllegalStrategyMove(
            f"{type(strategy).__name__}.{name}: no roundabout allowed at street {s}, house {h} "
            "(it must be an empty house, in Advanced mode, at most the sheet's limit)"
        )
    rbm[0], rbm[1] = s, h


def dispatch_python_reshuffle(R, sh, p, ctx, stack, stack_n, rng) -> int:
    """First edition, object mode: 1 if seat p's Python strategy reshuffles every card into three
    new stacks (its reshuffle(turn, cards_left) method says so); no method: 0 (decline)."""
    cells = sh.cells
    strategy, ruleset = ACTIVE[int(p)]
    method = getattr(strategy, "reshuffle", None)
    if method is None:
        return 0
    turn = _turn(R, sh, int(p), ctx, _bare_offer(R, cells, p, rng), ruleset)
    left = sorted(
        (code_value(int(R[R_DECK_NUM, c])), ACTION_NAMES[int(R[R_DECK_ACT, c])])
        for i in range(3)
        for c in stack[i, : int(stack_n[i])]
    )
    answer = method(turn, left)
    if not isinstance(answer, bool | np.bool_):
        raise IllegalStrategyMove(
            f"{type(strategy).__name__}: reshuffle() must return True or False, got {answer!r}"
        )
    return int(answer)


def dispatch_python_side(R, sh, p, ctx, offer, s) -> int:
    """First-edition Ice Cream, object mode: the side (0 left, 1 right) street s's truck starts
    from, asked when the player first numbers a house there (the move is already written), from
    the strategy's truck_side(turn, street) method; without one, the left."""
    strategy, ruleset = ACTIVE[int(p)]
    method = getattr(strategy, "truck_side", None)
    if method is None:
        return 0
    turn = _turn(R, sh, int(p), ctx, offer, ruleset)
    side = method(turn, int(s))
    if isinstance(side, bool) or side not in (0, 1):
        raise IllegalStrategyMove(
            f"{type(strategy).__name__}: truck_side must return 0 (from the left) or 1 (from the right), not {side!r}"
        )
    return int(side)


def dispatch_python_pass(R, sh, p, ctx, offer, pick) -> None:
    """Hand modes, object mode, after a permit refusal: pick[0] = the hand index a Python
    strategy's pass_on_refusal(turn) names, or without that method one drawn at random."""
    rng = offer.rng
    strategy, ruleset = ACTIVE[int(p)]
    method = getattr(strategy, "pass_on_refusal", None)
    if method is None:
        pick[0] = rng_below(rng, int(ctx[CTX_HAND_SIZE]))
        return
    turn = _turn(R, sh, int(p), ctx, offer, ruleset)
    k = method(turn)
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 0 <= k < len(turn.hand):
        raise IllegalStrategyMove(
            f"{type(strategy).__name__}.pass_on_refusal: returned {k!r}; give the index of a card "
            f"in the hand, 0 to {len(turn.hand) - 1}"
        )
    pick[0] = int(k)


def _bare_offer(R, cells, p, rng) -> Offer:
    """An Offer with no combinations, for a question asked outside a turn's move."""
    lo = np.empty(cells.shape[1:], dtype=np.int64)
    hi = np.empty(cells.shape[1:], dtype=np.int64)
    street_bounds(R, cells, p, lo, hi)
    none = np.empty(0, dtype=np.int64)
    return Offer(none, none, rng, lo, hi, none, np.empty(0, dtype=np.float64))


def _turn(R, sh, p, ctx, offer, ruleset) -> Turn:
    """The Turn a Python strategy is shown: seat p's sheet (sh: sheetops.Sheets) and what it is
    offered (context.Offer)."""
    cells, flags, fences, sc = sh
    cnum, cact, rng, lo, hi = offer.cnum, offer.cact, offer.rng, offer.lo, offer.hi
    n_streets = int(R[0, P_NSTREETS])
    lens = [int(R[R_STREET_LEN, s]) for s in range(n_streets)]
    plans = [ruleset.plans.plans[int(ctx[CTX_PLAN + i])] for i in range(3)]
    return Turn(
        round=int(ctx[CTX_ROUND]),
        seat=p,
        players=int(ctx[CTX_PLAYERS]),
        combos=[(code_value(cnum[i]), ACTION_NAMES[int(cact[i])]) for i in range(cnum.shape[0])],
        numbers=[
            [code_value(c) if c >= 0 else None for c in cells[p, s, : lens[s]]] for s in range(n_streets)
        ],
        bis=[[bool(f & F_EXT) for f in flags[p, s, : lens[s]]] for s in range(n_streets)],
        pools_built=[[bool(f & F_POOL) for f in flags[p, s, : lens[s]]] for s in range(n_streets)],
        pool_houses=[[h in ruleset.sheet.streets[s].pools for h in range(lens[s])] for s in range(n_streets)],
        fences=[[b for b in range(lens[s] + 1) if fences[p, s, b] & B_FENCE] for s in range(n_streets)],
        locked=[[bool(f & F_LOCK) for f in flags[p, s, : lens[s]]] for s in range(n_streets)],
        parks=[int(sc[p, SC_PARK + s]) for s in range(n_streets)],
        pools=int(sc[p, SC_POOLS]),
        temps=int(sc[p, SC_TEMPS]),
        extensions=int(sc[p, SC_EXT]),
        refusals=int(sc[p, SC_REFUSALS]),
        improvements=[int(sc[p, SC_IMPR + i]) for i in range(6)],
        plans=[pl.id for pl in plans],
        plans_flipped=[bool(ctx[CTX_FLIPPED + i]) for i in range(3)],
        plans_done=[bool(sc[p, SC_PLAN_ROUND + i] > 0) for i in range(3)],
        roundabouts=int(sc[p, SC_ROUNDABOUTS]),
        roundabouts_allowed=int(R[0, P_RB_MAX]),
        hand=[]
        if int(ctx[CTX_DEAL]) == DEAL_STACKS
        else [
            (code_value(ctx[CTX_HAND_NUM + i]), ACTION_NAMES[int(ctx[CTX_HAND_ACT + i])])
            for i in range(int(ctx[CTX_HAND_SIZE]))
        ],
        roundabout_at=[[bool(c == ROUNDABOUT) for c in cells[p, s, : lens[s]]] for s in range(n_streets)],
        invaded=[[bool(c == ZOMBIE) for c in cells[p, s, : lens[s]]] for s in range(n_streets)],
        **expansion_fields(R, cells, flags, sc, p, lens),
        _state=(R, cells, sc, p, lo, hi, rng),
    )


def _check(R, sh, p, offer, move: Move, who: str) -> None:
    """Raise IllegalStrategyMove unless the move is legal."""
    cells, flags, fences, sc = sh
    cnum, cact, lo, hi = offer.cnum, offer.cact, offer.lo, offer.hi

    def bad(why: str) -> None:
        raise IllegalStrategyMove(f"{who}: illegal move {move}: {why}")

    if not 0 <= move.combo < cnum.shape[0]:
        bad(f"combo must be 0 to {cnum.shape[0] - 1}")
    number, action = int(cnum[move.combo]), int(cact[move.combo])
    if move.action == "infiltrate":
        s, h = move.street, move.house
        ok = (
            0 <= s < int(R[0, P_NSTREETS])
            and 0 <= h < int(R[R_STREET_LEN, s])
            and cells[p, s, h] == EMPTY
            and lo[s, h] < number < hi[s, h]
            and _number_is(move.number, number)
            and tuple(move.params) == (s, h)
        )
        if ok:
            cells[p, s, h] = number
            ok = bool(x_alt_ok(R, cells, flags, p, s, h))
            cells[p, s, h] = EMPTY
        if not ok:
            bad(
                "a Zoorg is infiltrated only under the flying saucer of the house just numbered, with "
                "the card's own number, params (street, house) (Roswell)"
            )
        return
    if move.action is not None and (
        move.action not in ACTION_NAMES or ACTION_NAMES.index(move.action) != action
    ):
        bad(f"this combination's action is {ACTION_NAMES[action]}")
    if not 0 <= move.street < int(R[0, P_NSTREETS]) or not 0 <= move.house < int(
        R[R_STREET_LEN, move.street]
    ):
        bad("no such house")
    s, h = move.street, move.house
    try:
        v = number_code(move.number)
    except (TypeError, ValueError):
        bad(f"{move.number!r} is not a house number")
    if v != number and (
        move.action != "temp"
        or not temp_ok(R, sc, p)
        or abs(v - number) > TEMP_CODES
        or (v - number) % 2
        or not 0 <= v <= MAX_CODE + 1
    ):
        bad(f"only a temp worker changes the number {number_text(number)}, by at most 2, within 0..17")
    if cells[p, s, h] != EMPTY or not lo[s, h] < v < hi[s, h]:
        bad("the number does not fit there (empty house, strictly increasing street)")
    a = None if move.action is None else ACTION_NAMES.index(move.action)
    prm = tuple(move.params)
    if a == FENCE and len(prm) == 3 and prm[2] == "barricade":
        cells[p, s, h] = v
        ok = tuple(prm[:2]) == (s, h) and x_fence_alt_ok(R, cells, flags, p, s, h)
        cells[p, s, h] = EMPTY
        if not ok:
            bad(
                "a barricade goes only in front of the house just numbered, when it has none (Zombie Outbreak)"
            )
    elif a == FENCE and (len(prm) != 2 or not fence_ok(R, flags, fences, p, prm[0], prm[1])):
        bad("no fence allowed there")
    if a == IMPROVEMENT and (len(prm) != 1 or not improvement_ok(R, sc, p, prm[0])):
        bad("no improvement box left for that size")
    if a == PARK and not park_ok(R, sc, p, s):
        bad("no park box left in that street")
    if a == POOL and not pool_ok(R, flags, sc, p, s, h):
        bad("no pool at that house, or no pool box left")
    if a == TEMP and not temp_ok(R, sc, p):
        bad("no temp worker box left")
    if a == EXTENSION:
        cells[p, s, h] = v
        ok = len(prm) == 3 and extension_ok(R, cells, fences, sc, p, prm[0], prm[1], prm[2])
        cells[p, s, h] = EMPTY
        if not ok:
            bad("no extension allowed there")


def _number_is(number: Any, code: int) -> bool:
    """The strategy's number is the one of this code."""
    try:
        return number_code(number) == code
    except (TypeError, ValueError):
        return False


def dispatch_python_objective(R, sh, p, ctx, rng, n_obj) -> int:
    """Roswell, object mode: the infiltration objective (0-based) seat p's Python strategy
    circles at set-up, from its objective(turn, n) method; without one, the first."""
    cells = sh.cells
    strategy, ruleset = ACTIVE[int(p)]
    method = getattr(strategy, "objective", None)
    if method is None:
        return 0
    turn = _turn(R, sh, int(p), ctx, _bare_offer(R, cells, p, rng), ruleset)
    k = method(turn, int(n_obj))
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 0 <= k < n_obj:
        raise IllegalStrategyMove(
            f"{type(strategy).__name__}.objective: returned {k!r}; give an objective index, 0 to {n_obj - 1}"
        )
    return int(k)


def split_strategies(items: list) -> list[tuple[str, Any]]:
    """Normalise a strategies list: ('name', Choice) for names/choices, ('python', obj) for objects."""
    from welcome_sim.strategies.registry import Choice, parse_strategy

    out = []
    for item in items:
        if isinstance(item, str):
            out.append(("name", parse_strategy(item)))
        elif isinstance(item, Choice):
            out.append(("name", item))
        elif callable(getattr(item, "choose", None)):
            out.append(("python", item))
        else:
            raise WelcomeSimError(f"strategy {item!r} is neither a name nor an object with a choose() method")
    return out


def dispatch_python_option(R, sh, p, ctx, rng, opts, n, phase) -> int:
    """An expansion's decision, object mode: the index seat p's Python strategy picks among the
    n options (its expansion_option(turn, options) method; default the first)."""
    cells = sh.cells
    strategy, ruleset = ACTIVE[int(p)]
    method = getattr(strategy, "expansion_option", None)
    if method is None:
        return 0
    turn = _turn(R, sh, int(p), ctx, _bare_offer(R, cells, p, rng), ruleset)
    options = [describe_option(R, opts[k]) for k in range(int(n))]
    answer = method(turn, options)
    if not (isinstance(answer, int | np.integer) and not isinstance(answer, bool) and 0 <= answer < n):
        raise IllegalStrategyMove(
            f"{type(strategy).__name__}: expansion_option() must return an index 0..{int(n) - 1} of "
            f"{options}, got {answer!r}"
        )
    return int(answer)


def dispatch_python_hold(R, sh, p, ctx, rng, s, side) -> int:
    """Zombie Outbreak, object mode: 1 if seat p's Python strategy holds the horde (its
    hold_horde(turn, street, side) method says so); without one, when the house the horde reaches
    is numbered and has no barricade."""
    cells, flags, sc = sh.cells, sh.flags, sh.sc
    strategy, ruleset = ACTIVE[int(p)]
    method = getattr(strategy, "hold_horde", None)
    if method is None:
        h = zombies.target(R, sc, int(p), int(s), int(side))
        return int(cells[p, s, h] >= 0 and zombies.invades(R, cells, flags, int(p), int(s), h))
    turn = _turn(R, sh, int(p), ctx, _bare_offer(R, cells, p, rng), ruleset)
    answer = method(turn, int(s), int(side))
    if not isinstance(answer, bool | np.bool_):
        raise IllegalStrategyMove(
            f"{type(strategy).__name__}: hold_horde() must return True or False, got {answer!r}"
        )
    return int(answer)
