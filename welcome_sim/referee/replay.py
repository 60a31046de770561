"""Replays a game log move by move, rejecting illegal moves with a reason, and re-scores it.

Log rows are int sequences [game, round, player, kind, a, b, c, d, e, f, g, h]:
- kind 0, stack: the order of a stack when formed (round 0: set-up; later: a reshuffle); a = stack,
  b = position from the top, c = card index.
- kind 1, move: a = combination 0..2 or -1 for a permit refusal, b = street, c = house, d = number
  written, as twice the number (an odd d is the number (d - 1) / 2 + ¾: the 9¾ cards), e = action column (deck file's `actions`) or -1 for none, f, g, h = its parameters:
  fence (street, boundary left of house g), improvement (estate size - 1), extension (street,
  source house, target house).
- kind 2, plan: a = slot, b = plan index, c = street, d = first house, e = last house of one estate
  used (c = -1 when the plan uses no estate), f = points scored.
- kind 3, end: the game ended after this round.
- kind 4, deck (hand modes): the one deck when formed (round 0) or rebuilt from the discard pile
  (c = 1); a = position from the top, b = card (cards past the deck file's are special: AAA
  validation cards A, B, C, then the first edition's solo card).
- kind 5, roundabout: a = street, b = house, c = 0 built before that player's move, 1 after it.
- kind 6, pass: a = the card not used, b = seat it goes to (-1 the AAA, -2 the discard pile).
- kind 7, AAA plan: a = slot the AAA validates, b = points. kind 8: the solo card came up.
- kind 9, bonus crossed (Ice Cream, AAA solo mode): a validation card came up; a = the street whose
  end-of-delivery bonus the player crosses.
- kind 10, reshuffle (first edition, three stacks): after the round's validations, a = the player
  who reshuffles every card into three new stacks; the kind 0 rows after it in the same round are
  the new stacks.
- kind 11, truck start (first-edition Ice Cream): with the move numbering the first house of a street
  whose truck start the player chooses; a = street, b = side (0 from the left, 1 from the right).
- kinds 17-19 (Halloween): kind 17, a house with a ghost and a candy numbered and one circled:
  a = street, b = house, c = 0 the ghost, 1 the candy, d = 0 right after the player's move, 1 at
  the round's end (a house a bonus extension numbered). At a round's end, after the plan
  validations, player by player: kind 18, a level claimed (a = 0 Ghost, 1 Candy, b = level 0-2);
  kind 19, the Ghost bonus: a = 3 the alternative chosen (b = 0 or 1), a = 4 a pool circled (b =
  street, c = house), a = 5 a park box (b = street), a = 6 an extension (b = street, c = house
  copied, d = house filled). Levels claimed in the round are crossed on the other sheets after it.
- kind 12, Zombie card (Zombie Outbreak): player -1, a = card (deck size + 4 + its index in the
  data file's `cards`), b = 0 (the first stack); then for each player in seat order and each horde that
  moves: kind 13, the player holds it with one ammunition (a = street, b = side: 0 the left horde,
  1 the right); kind 14, a house invaded (a = street, b = house, c = the number code erased or -1).
  Zombie Outbreak deals two stacks: the first is `first_stack_parts` parts of `part_size` cards and
  one Zombie card each; when it runs out the round is not played (kind 3 with a = 32). A move's
  Fence action with h = 1 builds a barricade in front of house (f, g) instead of a fence.

In hand modes a move's combination 0..5 names (number card, action card) positions in the hand
(0,1) (0,2) (1,0) (1,2) (2,0) (2,1); the hand lists a received card first, then cards in the order
drawn. Zombie Outbreak's hand modes (expert, AAA solo) hold two cards: combination 0 is (0,1), 1 is
(1,0), and either card may be passed on (kind 6). A Zombie card drawn is a kind 12 row with b = -1
before the round's moves; the expert deck (set-up: the architects' first cards on top, then 10
construction cards per architect and any one Zombie card) is rebuilt twice from the discard pile
with one of the Zombie cards set aside, never one used before (kind 4, c = 1; the kernel deals
them in a random order, as the AAA deck's); the third time it runs out the game ends after the previous
round (kind 3 with the deck bit, 16), the Zombie cards drawn before it logged in the unplayed round.

Quack: kind 21, a duckling scoring phase scored (player -1; a = 0 yellow, 1 black, 2 yellow and
black; b = 0 at a round's end, after the plan validations, 1 at once when the AAA's validation card
triggers it, 2 at the game's end); after it, kind 22 rows, one per player in seat order then the
AAA (player -1, level 1+): a = the phase, b = the points it paid.

Roswell: kind 20 in round 0, the infiltration objective a player circles at set-up (a = its index
in the data file's `objectives`), one per player. A move with action -1 and h = 1 infiltrates a
Zoorg under the flying saucer of house (f, g), the house just numbered, instead of the action.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from welcome_sim.referee.expansions import SIDES, ZOMBIE_TEXT
from welcome_sim.referee.plans import PlanError, check_plan
from welcome_sim.referee.rules import RefRules
from welcome_sim.referee.sheet import PlayerSheet, majority_points

STACK, MOVE, PLAN, END, DECK, ROUNDABOUT, PASS, AAA_PLAN, SOLO_CARD, X_CROSS, RESHUFFLE, X_SIDE = range(12)
X_ZOMBIE, X_HOLD, X_INVADE = 12, 13, 14
X_SHELTER = 15  # Doomsday AAA: a = street, b = capacity the AAA writes, c = 0 validation card, 1 roundabout
X_OBJECTIVE = 20  # Roswell: the objective circled at set-up
X_PHASE, X_DUCKS = 21, 22  # Quack: a duckling scoring phase scored, and what it paid each sheet
X_MARK, X_CLAIM, X_BONUS = 17, 18, 19  # Halloween's decisions
X_AD_CROSS = 23  # American Dream AAA: a bonus a validation card makes the player cross
# Special cards are numbered after the construction cards: AAA validation cards A, B, C (+0..2),
# the first edition's solo card (+3), then an expansion's own cards (+4 + i: Zombie card i).
X_SPECIAL = 4
ZOMBIE_ROWS = (X_ZOMBIE, X_HOLD, X_INVADE)
END_STACK = 32  # end reason bit: Zombie Outbreak's first stack ran out
END_DECK = 16  # end reason bit: the deck ran out (first edition's solo; Zombie Outbreak's expert deck)
PAIRS = [(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1)]
# Zombie Outbreak's hand modes hold two cards: (number card, action card) positions in the hand.
PAIRS_TWO = [(0, 1), (1, 0)]
ZOMBIE_REBUILDS = 2  # "If the deck is exhausted for the third time, the game ends"
AAA_BOTTOM = 20


class IllegalMove(Exception):
    """A log entry that breaks a rule; the message says which, where and why."""


@dataclass
class RoundRecord:
    """What happened in one round, for display."""

    number: int
    combos: list[tuple[int, str]]
    moves: list[str] = field(default_factory=list)
    validations: list[str] = field(default_factory=list)
    reshuffled: list[int] = field(default_factory=list)
    # What happened before anyone played, as (player or -1 for the table, text): the cards drawn
    # at the round's start (AAA validation cards and what they set off, the first edition's solo
    # card), Zombie Outbreak's Zombie cards.
    events: list[tuple[int, str]] = field(default_factory=list)
    # False for the round Zombie Outbreak's first stack runs out in: it ends the game unplayed.
    played: bool = True


@dataclass
class GameRecord:
    """A replayed game: rounds, final sheets, score cards and ranks."""

    rules: RefRules
    plans: list[int]
    rounds: list[RoundRecord]
    sheets: list[PlayerSheet]
    scores: list[dict[str, int]]
    ranks: list[int]
    end_reasons: list[str]
    aaa: dict[str, int] | None = None  # the AAA's score card (AAA solo mode)


def _tie_shared(rules: RefRules) -> bool:
    """A tie on score is a shared victory (the sheet's rules say so), not broken by estates."""
    return rules.expansion is not None and rules.expansion.tie_shared


def _rank(rules: RefRules, scores: list[dict[str, int]]) -> list[int]:
    def key(c: dict[str, int]) -> tuple:
        if _tie_shared(rules):
            return (c["total"],)
        extra = tuple(c[f"n_estate_{i}"] for i in range(1, 7)) if rules.tiebreak_sizes else ()
        return (c["total"], c["n_estates"], *extra)

    keys = [key(c) for c in scores]
    return [1 + sum(k2 > k for k2 in keys) for k in keys]


def replay(rules: RefRules, rows: list[list[int]], n_players: int) -> GameRecord:
    """Check every move of one game's log against the rules and return the replayed game."""
    by_round: dict[int, list[list[int]]] = {}
    for row in rows:
        by_round.setdefault(int(row[1]), []).append([int(x) for x in row])
    n_cards = len(rules.cards)
    hands = rules.deal != "stacks"
    zombies = rules.expansion is not None and rules.expansion.name == "zombies"
    zombie_hands = zombies and hands
    if rules.deal in ("aaa", "solo_card") and n_players != 1:
        raise IllegalMove(f"the solo modes have one player, not {n_players}")
    firsts: list[int] = []
    aside: list[int] = []  # Expert Zombie Outbreak: the Zombie cards set aside for the rebuilds
    if zombie_hands:
        deck, discard, firsts, aside = _zombie_hand_setup(rules, by_round.get(0, []), n_players)
        stacks: list[list[int]] = []
        discards: list[list[int]] = []
    elif hands:
        deck, discard = _hand_setup(rules, by_round.get(0, []), n_players)
        stacks: list[list[int]] = []
        discards: list[list[int]] = []
    elif zombies:
        stacks = _zombie_setup(rules, by_round.get(0, []))
        discards = [[], []]
    else:
        setup = _stacks_from(by_round.get(0, []))
        if sorted(len(s) for s in setup.values()) != [n_cards // 3] * 3:
            raise IllegalMove(f"set-up: expected 3 stacks of {n_cards // 3} cards, got {setup}")
        all_cards = sorted(c for s in setup.values() for c in s)
        if all_cards != list(range(n_cards)):
            raise IllegalMove("set-up: the stacks are not the deck's cards, each exactly once")
        stacks = [setup[i] for i in range(3)]
        discards = [[], [], []]
    sheets = [PlayerSheet(rules) for _ in range(n_players)]
    _check_objectives(rules, rows, sheets)
    flipped = [False, False, False]
    plans_in_play: list[int | None] = [None, None, None]
    records: list[RoundRecord] = []
    end_round = max(r[1] for r in rows if r[3] == END)
    hand_of: list[list[int]] = [[] for _ in range(n_players)]
    aaa_cards: list[int] = []
    aaa_plan_points = 0
    rebuilt_rounds: list[list[int]] = []
    if rules.deal == "expert" and zombie_hands:
        hand_of = [[c] for c in firsts]
    elif rules.deal == "expert":
        for p in range(n_players):
            hand_of[p].append(_draw_card(deck, discard, rebuilt_rounds, [], 0, True))
    rebuilds = [0]  # Zombie Outbreak's hand modes: times the deck was rebuilt
    unplayed: RoundRecord | None = None  # the round the expert deck ran out a third time in

    def zombie_deal(r: int) -> RoundRecord:
        """Zombie Outbreak's hand modes: every player draws up to two cards at the start of round
        r; a Zombie card drawn is applied at once. Returns round r's record, unplayed when the
        deck ran out a third time (expert): the game ended after round r - 1."""
        nonlocal aaa_plan_points
        rec = RoundRecord(r, [])
        entries = by_round.get(r, [])
        zrows = [e for e in entries if e[3] in ZOMBIE_ROWS]
        groups = _deck_groups([e for e in entries if e[3] == DECK])
        special_rows = [e for e in entries if e[3] in (AAA_PLAN, SOLO_CARD, X_CROSS) or _shelter_row(e, 0)]
        for p in range(n_players):
            while len(hand_of[p]) < 2:
                if not deck:
                    if rules.deal == "expert" and rebuilds[0] >= ZOMBIE_REBUILDS:
                        if groups:
                            raise IllegalMove(
                                f"round {r}: the deck ran out for the third time: the game ends, "
                                "the deck is not rebuilt again"
                            )
                        return _third_time_out(rec, entries, zrows, r)
                    _zombie_rebuild(rules, deck, discard, groups, rebuilds, aside, n_players, r)
                    rec.reshuffled.append(0)
                card = deck.pop(0)
                if card < n_cards:
                    hand_of[p].append(card)
                    continue
                special = card - n_cards
                if special < X_SPECIAL:
                    aaa_plan_points += _validation_card(
                        rules, special, special_rows, sheets, flipped, plans_in_play, rec, r, aaa_cards
                    )
                    continue
                # "When you draw a Zombie card, the architects immediately apply its effect. Then
                # permanently remove it from the game and draw a new Construction card"; AAA: "apply
                # the effect of the Zombie card on your sheet".
                _apply_zombie(rules, card, -1, sheets, zrows, rec, r)
                if rules.deal == "aaa" and rules.opponent.get("scores", True):
                    # "With a level 1 or higher AAA opponent: When you draw a Zombie card, remove
                    # the last 2 cards given to the AAA from the game and replace them with the
                    # Zombie card."
                    gone = [_card_text(rules, c) for c in aaa_cards[-2:]]
                    aaa_cards[-2:] = [card]
                    rec.events.append(
                        (
                            -1,
                            f"the Zombie card replaces the AAA's last {len(gone)} card(s): {', '.join(gone) or '-'}",
                        )
                    )
        if zrows:
            raise IllegalMove(f"round {r}: Zombie Outbreak rows for no Zombie card drawn: {zrows[0]}")
        if groups:
            raise IllegalMove(f"round {r}: the deck was rebuilt before it ran out")
        if special_rows:
            raise IllegalMove(f"round {r}: special-card rows with no such card drawn: {special_rows}")
        return rec

    next_rec = zombie_deal(1) if zombie_hands else None
    if next_rec is not None and not next_rec.played:
        raise IllegalMove("round 1: the deck cannot give the first round's cards")
    if any(r[3] == RESHUFFLE for r in by_round.get(0, [])):
        raise IllegalMove("set-up: a reshuffle before anyone has validated a plan")
    first_plans_round = 0  # the first round anyone validated a plan (first edition's reshuffle)
    rnd = 0
    while True:
        rnd += 1
        if rnd > end_round:
            raise IllegalMove(f"round {rnd}: the log ends without the game having ended")
        entries = by_round.get(rnd, [])
        # Stack rows after a reshuffle row are the reshuffle's new stacks, not this round's flip.
        reshuffles = [e for e in entries if e[3] == RESHUFFLE]
        cut = entries.index(reshuffles[0]) if reshuffles else len(entries)
        combos: list[tuple[int, str]] = []
        rec = RoundRecord(rnd, combos)
        zombie_rows = [e for e in entries if e[3] in ZOMBIE_ROWS]
        if zombie_rows and not zombies:
            raise IllegalMove(f"round {rnd}: Zombie Outbreak rows in a game without it: {zombie_rows[0]}")
        stack_out = False
        if zombie_hands:
            rec = next_rec  # the cards were drawn when the previous round ended
            combos = rec.combos
        elif hands:
            rebuilt = [e for e in entries if e[3] == DECK]
            special_rows = [
                e for e in entries if e[3] in (AAA_PLAN, SOLO_CARD, X_CROSS, X_AD_CROSS) or _shelter_row(e, 0)
            ]
            for p in range(n_players):
                while len(hand_of[p]) < 3:
                    card = _draw_card(deck, discard, rebuilt_rounds, rebuilt, rnd, rules.deal != "solo_card")
                    if card is None:
                        raise IllegalMove(f"round {rnd}: the deck ran out mid-round")
                    if card < n_cards:
                        hand_of[p].append(card)
                        continue
                    special = card - n_cards
                    if special == 3:
                        if rules.deal != "solo_card":
                            raise IllegalMove(f"round {rnd}: a solo card outside the first edition's solo")
                        flipped = [True, True, True]
                        rec.events.append((-1, "the solo card: every plan turns to its approved side"))
                        _expect(special_rows, SOLO_CARD, None, rnd)
                    else:
                        aaa_plan_points += _validation_card(
                            rules, special, special_rows, sheets, flipped, plans_in_play, rec, rnd, aaa_cards
                        )
            if special_rows:
                raise IllegalMove(f"round {rnd}: special-card rows with no such card drawn: {special_rows}")
            if rebuilt:
                raise IllegalMove(f"round {rnd}: the deck was rebuilt before it ran out")
            rec.reshuffled = [0] * len(rebuilt_rounds)
            rebuilt_rounds.clear()
        else:
            new_stacks = _stacks_from(entries[:cut])
            if zombies and rnd == 1:
                # A Zombie card on top of the first stack at set-up surfaces before the first flip.
                _zombie_cards(rules, stacks[0], sheets, zombie_rows, rec, rnd)
            for i in range(len(stacks)):
                card = stacks[i].pop(0)
                if zombies and i == 0:
                    # "After flipping the first card from each stack, if a Zombie card appears,
                    # you must immediately apply its effect. Then, remove it from the game";
                    # "When you flip the last card from the first stack, do not shuffle the
                    # cards because the game is over".
                    discards[0].append(card)
                    _zombie_cards(rules, stacks[0], sheets, zombie_rows, rec, rnd)
                    if not stacks[0]:
                        stack_out = True
                        break
                    combos.append((rules.cards[stacks[0][0]][0], rules.cards[card][1]))
                    continue
                if not stacks[i]:
                    if i not in new_stacks or sorted(new_stacks[i]) != sorted(discards[i]):
                        raise IllegalMove(
                            f"round {rnd}: stack {i + 1} ran out and was not rebuilt from its discard pile"
                        )
                    stacks[i] = new_stacks.pop(i)
                    discards[i] = []
                    rec.reshuffled.append(i)
                discards[i].append(card)
                combos.append((rules.cards[stacks[i][0]][0], rules.cards[card][1]))
            if new_stacks:
                raise IllegalMove(f"round {rnd}: a stack was reshuffled before it ran out")
            if zombie_rows:
                raise IllegalMove(
                    f"round {rnd}: Zombie Outbreak rows the rules do not give (the Zombie cards that "
                    f"surfaced, the hordes that moved): {zombie_rows[0]}"
                )
        if stack_out:
            _stack_end(entries, rnd, end_round, rec)
            records.append(rec)
            reasons = ["first-stack"]
            break
        moves = [e for e in entries if e[3] == MOVE]
        if sorted(m[2] for m in moves) != list(range(n_players)):
            raise IllegalMove(
                f"round {rnd}: expected one move per player, got players {[m[2] for m in moves]}"
            )
        # Advanced mode: "You can build a roundabout at any time during a round, in addition to
        # numbering a house and use an action": before or after the move, and (one house, one
        # action, "a roundabout") at most one a round.
        roundabouts: dict[int, list[int]] = {}
        sides: dict[int, list[int]] = {}
        shelter_rows = [e for e in entries if _shelter_row(e, 1)]
        for e in entries:
            if e[3] == ROUNDABOUT:
                if e[2] in roundabouts:
                    raise IllegalMove(f"round {rnd}, player {e[2] + 1}: a second roundabout in one round")
                if e[6] not in (0, 1):
                    raise IllegalMove(
                        f"round {rnd}, player {e[2] + 1}: roundabout timing {e[6]} is not 0 or 1"
                    )
                roundabouts[e[2]] = e
            elif e[3] == X_SIDE:
                if e[2] in sides:
                    raise IllegalMove(f"round {rnd}, player {e[2] + 1}: two truck starts chosen in one move")
                sides[e[2]] = e
        passes = {e[2]: e for e in entries if e[3] == PASS}
        received: dict[int, int] = {}
        for m in sorted(moves, key=lambda m: m[2]):
            p = m[2]
            text = ""
            if p in roundabouts and roundabouts[p][6] == 0:
                text = _check_roundabout(rules, sheets[p], roundabouts[p], rnd, shelter_rows) + ", then "
            if hands:
                hand = hand_of[p]
                pairs = PAIRS_TWO if zombie_hands else PAIRS
                combos = [(rules.cards[hand[i]][0], rules.cards[hand[j]][1]) for i, j in pairs]
                shown = ", ".join(f"{show_number(rules.cards[c][0])}/{rules.cards[c][1]}" for c in hand)
                text = f"hand [{shown}]: " + text
            if p in sides:
                side = sides.pop(p)
                where = f"round {rnd}, player {p + 1}"
                if m[4] == -1 or side[4] != m[5]:
                    raise IllegalMove(
                        f"{where}: truck start chosen for street {side[4] + 1}, but the move numbers no house there"
                    )
                why = rules.expansion.choose_side(sheets[p], side[4], side[5])
                if why:
                    raise IllegalMove(f"{where}: cannot choose the truck's start: {why}")
                text += f"truck of street {side[4] + 1} starts from the {('left', 'right')[side[5]]}, then "
            text += _check_move(rules, sheets[p], combos, m, rnd)
            if m[4] >= 0:
                try:
                    text += rules.expansion.used_action(sheets[p], m[5], m[6], combos[m[4]][1], m[8])
                except ValueError as exc:
                    raise IllegalMove(f"round {rnd}, player {p + 1}: {exc}") from None
            marks = [e for e in entries if e[3] == X_MARK and e[2] == p and e[7] == 0]
            try:
                text += rules.expansion.after_move(sheets[p], marks, f"round {rnd}, player {p + 1}")
            except ValueError as exc:
                raise IllegalMove(str(exc)) from None
            if p in roundabouts and roundabouts[p][6] == 1:
                text += ", then " + _check_roundabout(rules, sheets[p], roundabouts[p], rnd, shelter_rows)
            if hands:
                where = f"round {rnd}, player {p + 1}"
                if p not in passes:
                    raise IllegalMove(f"{where}: no card passed on")
                card, to = passes[p][4], passes[p][5]
                if zombie_hands:
                    # "Then discard one of the 2 cards and give the other to the opponent on your
                    # left" / "give one of the 2 cards to the AAA and place the other in your
                    # discard pile": the player chooses, refusal or not.
                    if card not in hand:
                        raise IllegalMove(f"{where}: passed card {card} is not in the hand {hand}")
                elif m[4] >= 0:
                    i, j = PAIRS[m[4]]
                    third = hand[3 - i - j]
                    if card != third:
                        raise IllegalMove(f"{where}: passed card {card}, but the card not used is {third}")
                elif card not in hand:
                    raise IllegalMove(f"{where}: passed card {card} is not in the hand {hand}")
                rest = list(hand)
                rest.remove(card)
                discard.extend(rest)
                want = {
                    "expert": (p + (-1 if rules.pass_right else 1)) % n_players,
                    "aaa": -1,
                    "solo_card": -2,
                }[rules.deal]
                if to != want:
                    raise IllegalMove(f"{where}: the third card goes to {want}, the log says {to}")
                if rules.deal == "expert":
                    received[to] = card
                    text += f"; passes {show_number(rules.cards[card][0])}/{rules.cards[card][1]} to player {to + 1}"
                elif rules.deal == "aaa":
                    aaa_cards.append(card)
                    text += f"; gives the AAA {show_number(rules.cards[card][0])}/{rules.cards[card][1]}"
                    # Roswell, level 1+: "The first card you give to the AAA must be placed upside
                    # down ... each card given immediately after a Fence card must also be placed
                    # upside down": the log says which lie so.
                    up = rules.expansion.aaa_upside([a for _, a in _given(rules, aaa_cards)])
                    if rules.opponent.get("scores", True) and up[-1]:
                        text += " upside down (a house infiltrated by a Zoorg)"
                else:
                    discard.append(card)
                hand_of[p] = []
            rec.moves.append(text)
        if set(roundabouts) - {m[2] for m in moves}:
            raise IllegalMove(f"round {rnd}: a roundabout by a player without a move")
        if shelter_rows:
            raise IllegalMove(f"round {rnd}: an AAA shelter for a roundabout nobody built: {shelter_rows[0]}")
        if rules.deal == "expert":
            for p in range(n_players):
                hand_of[p] = [received[p]]
        rules.expansion.round_over(sheets)
        # Plan validations, after every player has played the round.
        validated_now = [False, False, False]
        groups: dict[tuple[int, int], list[list[int]]] = {}
        for e in entries:
            if e[3] == PLAN:
                groups.setdefault((e[2], e[4]), []).append(e)
        for (p, slot), es in sorted(groups.items()):
            rec.validations.append(_check_plan(rules, sheets[p], p, slot, es, flipped, plans_in_play, rnd))
            validated_now[slot] = True
        for slot in range(3):
            flipped[slot] = flipped[slot] or validated_now[slot]
        # What the expansion scores at the round's end, after the plan validations (Quack: the
        # scoring phases triggered this round, kind 21 with b = 0).
        rules.expansion.round_scored(sheets, _given(rules, aaa_cards))
        # The expansion's decisions at the round's end, after the plan validations (Halloween:
        # "At the end of a round, you can claim 1 or 2 levels").
        ends = [e for e in entries if e[3] in (X_CLAIM, X_BONUS) or (e[3] == X_MARK and e[7] != 0)]
        try:
            rec.validations += rules.expansion.round_decisions(sheets, ends, f"round {rnd}")
        except ValueError as exc:
            raise IllegalMove(str(exc)) from None
        records.append(rec)
        reasons = []
        if any(len(s.plan_scores) == 3 for s in sheets):
            reasons.append("plans")
        if any(s.refusals >= len(rules.refusal_track) - 1 for s in sheets):
            reasons.append("refusals")
        if any(s.full for s in sheets):
            reasons.append("full")
        if rules.deal == "solo_card" and sum(c < len(rules.cards) for c in deck) < 3:
            reasons.append("deck")
        if zombie_hands and not reasons:
            # The next round's cards are drawn now: the deck running out a third time ends the
            # game before that round, after this one.
            next_rec = zombie_deal(rnd + 1)
            if not next_rec.played:
                reasons.append("deck")
                unplayed = next_rec
        if reasons and rnd != end_round:
            raise IllegalMove(f"round {rnd}: the game should have ended ({', '.join(reasons)})")
        if any(validated_now) and not first_plans_round:
            first_plans_round = rnd
        if reshuffles:
            stacks, discards = _check_reshuffle(
                rules, reshuffles, entries[cut:], groups, first_plans_round, rnd == end_round, rnd
            )
            rec.validations.append(
                f"player {reshuffles[0][4] + 1} reshuffles all {n_cards} cards into three new stacks"
            )
        if rnd == end_round:
            if not reasons:
                raise IllegalMove(f"round {rnd}: the game ended but no end condition holds")
            if zombies and any(e[3] == END and e[4] & END_STACK for e in entries):
                raise IllegalMove(
                    f"round {rnd}: the log ends the game on the first stack, which is not empty"
                )
            if zombie_hands:
                _zombie_hands_end(rows, entries, reasons, unplayed, end_round)
                if unplayed is not None:
                    records.append(unplayed)
            break
    aaa = None
    if rules.deal == "aaa":
        aaa = aaa_score(rules, aaa_cards, aaa_plan_points, sheets[0].temps, sheets[0])
        temps = [aaa["player_temps"]]
    elif rules.deal == "solo_card":
        temps = [rules.solo_temp_points if sheets[0].temps >= rules.solo_temp_min else 0]
    else:
        temps = majority_points([s.temps for s in sheets], rules.majority)
    rules.expansion.final(sheets, rules.deal == "aaa")
    why = rules.expansion.check_events(sheets, [r for r in rows if r[3] in (X_PHASE, X_DUCKS)])
    if why:
        raise IllegalMove(why)
    scores = [s.components(t) for s, t in zip(sheets, temps, strict=True)]
    plans = [p if p is not None else -1 for p in plans_in_play]
    ranks = _rank(rules, scores)
    if aaa is not None and rules.opponent.get("scores", True):
        mine, theirs = scores[0]["total"], aaa["total"]
        won = mine > theirs or (
            mine == theirs and (_tie_shared(rules) or scores[0]["n_estates"] > aaa["n_estates"])
        )
        ranks = [1 if won else 2]
    return GameRecord(rules, plans, records, sheets, scores, ranks, reasons, aaa)


def _check_objectives(rules: RefRules, rows: list[list[int]], sheets: list[PlayerSheet]) -> None:
    """Roswell: "choose one infiltration objective ... and secretly circle it. Once each architect
    has made their choice, reveal your objective": one row per player at set-up (round 0)."""
    x = rules.expansion
    chosen = [r for r in rows if r[3] == X_OBJECTIVE]
    if any(r[1] != 0 for r in chosen):
        raise IllegalMove("an objective is circled at set-up (round 0), not during the game")
    if x.objectives() == 0:
        if chosen:
            raise IllegalMove(f"set-up: an objective chosen, but {x.objective(sheets[0], 0)}")
        return
    players = sorted(r[2] for r in chosen)
    if players != list(range(len(sheets))):
        raise IllegalMove(f"set-up: each player circles one objective; the log has players {players}")
    for r in chosen:
        why = x.objective(sheets[r[2]], r[4])
        if why:
            raise IllegalMove(f"set-up, player {r[2] + 1}: cannot circle objective {r[4]}: {why}")


def _card_text(rules: RefRules, card: int) -> str:
    """A card as number/action, or a Zombie card (on the AAA's stack)."""
    if card < len(rules.cards):
        return f"{show_number(rules.cards[card][0])}/{rules.cards[card][1]}"
    return "a Zombie card"


def _given(rules: RefRules, aaa_cards: list[int]) -> list[tuple]:
    """The cards given to the AAA so far as (number, action); a Zombie card counts as a Fence card."""
    return [rules.cards[c] if c < len(rules.cards) else (0, "fence") for c in aaa_cards]


def _validation_card(
    rules, special, special_rows, sheets, flipped, plans_in_play, rec, rnd, aaa_cards
) -> int:
    """An AAA validation card drawn (AAA solo mode): the AAA validates its plan if its Opponent
    card says so (the kind 7 row); returns the AAA's points. What it sets off is recorded among the
    round's events: the card is drawn before the round's moves."""

    def say(text: str) -> None:
        rec.events.append((-1, text))

    if rules.deal != "aaa":
        raise IllegalMove(f"round {rnd}: an AAA validation card outside the AAA solo mode")
    letter = rules.letters[special]
    pts = 0
    if letter in rules.opponent.get("validates", []):
        row = _expect(special_rows, AAA_PLAN, special, rnd)
        if plans_in_play[special] not in (None, row[6]):
            raise IllegalMove(f"round {rnd}: the AAA validates another plan than the one in play")
        plans_in_play[special] = row[6]
        plan = rules.plans[row[6]]
        pts = plan["later"] if flipped[special] else plan["first"]
        if row[5] != pts:
            raise IllegalMove(f"round {rnd}: the AAA scores {pts} for plan {plan['id']}, log says {row[5]}")
        flipped[special] = True
        say(f"the AAA validates plan {plan['id']}: {pts} points")
    else:
        say(f"validation card {letter}: the AAA does not validate it")
    # The expansion's reaction to a validation card (Ice Cream: a bonus crossed).
    cross = [e for e in special_rows if e[3] == X_CROSS]
    if cross:
        special_rows.remove(cross[0])
        why = rules.expansion.cross(sheets[0], cross[0][4])
        if why:
            raise IllegalMove(f"round {rnd}: cannot cross that bonus: {why}")
        say(f"the player crosses the bonus of street {cross[0][4] + 1}")
    elif rules.expansion.must_cross(sheets[0]):
        raise IllegalMove(f"round {rnd}: a validation card came up and no bonus was crossed")
    given = _given(rules, aaa_cards)
    built = _aaa_shelter(
        special_rows, special, rules.expansion.aaa_validation(sheets[0], special, given), 0, f"round {rnd}"
    )
    if built:
        say(built[2:])
    crossed = rules.expansion.validation_card(sheets[0], special)
    if crossed:
        say(crossed)
    mine = [e for e in special_rows if e[3] == X_AD_CROSS]
    try:
        crossed = rules.expansion.validation_crosses(sheets[0], mine, f"round {rnd}")
    except ValueError as exc:
        raise IllegalMove(str(exc)) from None
    for e in [e for e in special_rows if e[3] == X_AD_CROSS and e not in mine]:
        special_rows.remove(e)  # the rows this card's crossings took
    if crossed:
        say(crossed)
    return pts


def _check_reshuffle(
    rules: RefRules,
    rows: list[list[int]],
    after: list[list[int]],
    groups: dict[tuple[int, int], list[list[int]]],
    first_plans_round: int,
    last_round: bool,
    rnd: int,
) -> tuple[list[list[int]], list[list[int]]]:
    """The first edition's reshuffle: "Le ou la première architecte à parvenir à remplir un objectif
    peut, s'il ou elle le souhaite, remélanger les 81 cartes travaux et constituer trois nouvelles
    piles pour la suite de la partie." Returns the new stacks and empty discard piles."""
    p = rows[0][4]
    where = f"round {rnd}, player {p + 1}"
    if not rules.reshuffle_on_first_plan:
        raise IllegalMove(f"{where}: this edition's rules offer no reshuffle after the first plan")
    if rules.deal != "stacks":
        raise IllegalMove(f"{where}: the reshuffle forms three new stacks; the {rules.deal} deal has none")
    if len(rows) > 1 or first_plans_round < rnd:
        raise IllegalMove(
            f"{where}: the cards are reshuffled only once, in the first round a plan is validated"
        )
    if rows[0][2] != p or not any(q == p for q, _ in groups):
        raise IllegalMove(f"{where}: only an architect who fulfilled a plan this round may reshuffle")
    if last_round:
        raise IllegalMove(f"{where}: the game ends this round; there are no stacks to form")
    n = len(rules.cards)
    new = _stacks_from(after)
    if sorted(new) != [0, 1, 2] or any(len(s) != n // 3 for s in new.values()):
        raise IllegalMove(f"{where}: a reshuffle forms three stacks of {n // 3} cards")
    if sorted(c for s in new.values() for c in s) != list(range(n)):
        raise IllegalMove(f"{where}: the new stacks are not all {n} cards, each exactly once")
    return [new[i] for i in range(3)], [[], [], []]


def aaa_score(
    rules: RefRules, cards: list[int], plan_points: int, player_temps: int, sheet: PlayerSheet | None = None
) -> dict[str, int]:
    """The AAA's score card from its stack of cards (core rules, "AAA Opponent card"), and the
    player's temp points against it (key player_temps)."""
    opp = rules.opponent
    n_cards = len(rules.cards)
    # Zombie Outbreak: "each Zombie card in the stack of AAA cards is considered as a Fence card"
    # (for fence points and for estates).
    actions = [rules.cards[c][1] if c < n_cards else "fence" for c in cards]
    if opp.get("scores", True):
        # Roswell: an upside-down card "represents a house infiltrated by a Zoorg": one house for
        # the estates, not counted "for the remaining points (parks, pools, temp workers, fences)".
        up = rules.expansion.aaa_upside(actions)
        actions = ["house" if u else a for a, u in zip(actions, up, strict=True)]
    n = Counter(actions)
    # Estates: runs between fence cards; each card one house, an extension card several.
    estates, houses, improved = [], 0, False
    for a in [*actions, "fence"]:
        if a == "fence":
            if houses:
                estates.append(houses * (opp.get("improvement", 1) if improved else 1))
            houses, improved = 0, False
        else:
            houses += opp.get("extension", 1) if a == "extension" else 1
            improved = improved or a == "improvement"
    scores = opp.get("scores", True)
    if not scores:
        # Level 0: the player's place comes from the card's table of temp boxes.
        positions = opp.get("temp_positions", [])
        place = next((i for i, t in enumerate(positions) if player_temps >= t), None)
        mine = (
            rules.majority[place]
            if player_temps > 0 and place is not None and place < len(rules.majority)
            else 0
        )
        return dict(
            total=0,
            plans=0,
            parks=0,
            pools=0,
            temps=0,
            fences=0,
            estates=0,
            n_estates=len(estates),
            cards=len(cards),
            player_temps=mine,
            expansion=0,
        )
    mine, theirs = majority_points([player_temps, n["temp"]], rules.majority)
    card = dict(
        plans=plan_points,
        parks=n["park"] * opp["park"],
        pools=n["pool"] * opp["pool"],
        temps=n["temp"] * opp["temp"] + theirs,
        fences=n["fence"] * opp["fence"],
        estates=sum(sorted(estates, reverse=True)[:5]),
        n_estates=len(estates),
        cards=len(cards),
        player_temps=mine,
    )
    given = [rules.cards[c] if c < n_cards else (0, "fence") for c in cards]
    card["expansion"] = rules.expansion.aaa_points(given, sheet) if sheet else 0
    if rules.expansion.aaa_own_scoring and sheet is not None:
        # American Dream: the AAA scores per card by its type and per street bonus the player
        # crossed; its parks, pools, temps, fences and estates do not exist on this sheet.
        card.update(parks=0, pools=0, temps=0, fences=0, estates=0, n_estates=0, player_temps=0)
        card["expansion"] = rules.expansion.aaa_own(opp["level"], given, sheet)
        card.update(rules.expansion.aaa_detail(given, sheet))  # its parts, for the text view
    card["total"] = sum(
        card[k] for k in ("plans", "parks", "pools", "temps", "fences", "estates", "expansion")
    )
    return card


def _expect(rows: list[list[int]], kind: int, slot: int | None, rnd: int) -> list[int]:
    """Consume and return the log row announcing a special card's effect."""
    for e in rows:
        if e[3] == kind and (slot is None or e[4] == slot):
            rows.remove(e)
            return e
    raise IllegalMove(f"round {rnd}: expected a row of kind {kind} for a special card")


def _hand_setup(rules: RefRules, rows: list[list[int]], n_players: int) -> tuple[list[int], list[int]]:
    """The deck (top first) and discard pile at set-up, checked against the mode's set-up rules."""
    n = len(rules.cards)
    deck = [c for _, c in sorted((e[4], e[5]) for e in rows if e[3] == DECK)]
    regular = sorted(c for c in deck if c < n)
    if regular != list(range(n)):
        raise IllegalMove("set-up: the deck is not the construction cards, each exactly once")
    specials = [(i, c - n) for i, c in enumerate(deck) if c >= n]
    size = len(deck)
    if rules.deal == "aaa":
        if len(specials) != 1 or specials[0][1] not in (0, 1, 2):
            raise IllegalMove(f"set-up: the AAA deck holds one validation card, got {specials}")
        if size - specials[0][0] > AAA_BOTTOM + 1:
            raise IllegalMove("set-up: the validation card is not among the bottom 21 cards")
        return deck, [n + v for v in range(3) if v != specials[0][1]]
    if rules.deal == "solo_card":
        if len(specials) != 1 or specials[0][1] != 3:
            raise IllegalMove(f"set-up: the solo deck holds one solo card, got {specials}")
        lower = n - n // 2  # the larger of two near-equal piles
        if size - specials[0][0] > lower + 1:
            raise IllegalMove("set-up: the solo card is not in the lower half of the deck")
        return deck, []
    if specials:
        raise IllegalMove(f"set-up: special cards in an expert deck: {specials}")
    return deck, []


def _zombie_hand_setup(rules: RefRules, rows: list[list[int]], n_players: int):
    """Zombie Outbreak's hand modes: the deck (top first), the discard pile, in Expert mode the
    architects' first cards and the Zombie cards set aside, checked against the set-up. Expert:
    "Give 1 Construction card to each architect. Then, form a deck with 10 Construction cards per
    architect and 1 Zombie card ... Place the remaining Construction cards in the discard pile and
    set aside the remaining Zombie cards face down". AAA: "take 60 cards ... 3 stacks of 20 cards
    each ... Randomly shuffle the following cards into each stack: 1st stack: 1 Zombie card. 2nd
    stack: 1 Zombie card and 1 AAA Validation card. 3rd stack: 1 Zombie card and 2 AAA Validation
    cards ... the 1st stack on top". Neither names which Zombie card goes where: any one each."""
    x = rules.expansion
    n = len(rules.cards)
    got = sorted((e[4], e[5]) for e in rows if e[3] == DECK)
    if [a for a, _ in got] != list(range(len(got))):
        raise IllegalMove("set-up: the deck's positions are not 0, 1, 2, ... each once")
    deck = [c for _, c in got]
    built = [c for c in deck if c < n]
    if len(set(built)) != len(built) or any(c < 0 for c in deck):
        raise IllegalMove("set-up: a construction card twice in the deck")
    zombie = [n + X_SPECIAL + i for i in range(len(x.kinds))]
    validation = [n + v for v in range(3)]
    if rules.deal == "expert":
        firsts, deck = deck[:n_players], deck[n_players:]
        if len(firsts) < n_players or any(c >= n for c in firsts):
            raise IllegalMove("set-up: each architect's first card is a construction card from the top")
        want = min(x.expert_per * n_players, n - n_players)
        if sum(c < n for c in deck) != want:
            raise IllegalMove(
                f"set-up: the deck holds {x.expert_per} construction cards per architect "
                f"({want} with {n_players}), not {sum(c < n for c in deck)}"
            )
        specials = [c for c in deck if c >= n]
        if len(specials) != 1 or specials[0] not in zombie:
            raise IllegalMove(f"set-up: the deck holds one Zombie card (any of {zombie}), got {specials}")
        discard = sorted(set(range(n)) - set(firsts) - set(deck))
        return deck, discard, firsts, [z for z in zombie if z != specials[0]]
    part = x.aaa_part_size
    sizes = [part + 1, part + 2, part + 3]
    if len(deck) != sum(sizes):
        raise IllegalMove(
            f"set-up: the AAA deck is 3 stacks of {part} cards with their special cards, not {len(deck)} cards"
        )
    start = 0
    for k, size in enumerate(sizes):
        stack = deck[start : start + size]
        start += size
        specials = sorted(c for c in stack if c >= n)
        ok = len(specials) == k + 1 and specials[-1] in zombie and all(c in validation for c in specials[:-1])
        if not ok:
            raise IllegalMove(
                f"set-up: stack {k + 1} of the AAA deck holds one Zombie card (any of {zombie})"
                f"{f' and {k} AAA validation card(s)' if k else ''}, not {specials}"
            )
    if len({c for c in deck if c in zombie}) != 3:
        raise IllegalMove("set-up: the AAA deck's three stacks hold three different Zombie cards")
    if sorted(c for c in deck if c in validation) != validation:
        raise IllegalMove("set-up: the AAA deck holds the three validation cards A, B, C once each")
    return deck, [], [], []


def _deck_groups(rows: list[list[int]]) -> list[list[int]]:
    """A round's rebuilt decks (kind 4 rows with c = 1, in log order; each starts at position 0),
    each as its cards top first."""
    groups: list[list[tuple[int, int]]] = []
    for e in rows:
        if e[6] != 1:
            raise IllegalMove(f"round {e[1]}: a deck row that is no rebuild (c = {e[6]}): {e}")
        if e[4] == 0 or not groups:
            groups.append([])
        groups[-1].append((e[4], e[5]))
    out = []
    for g in groups:
        if sorted(a for a, _ in g) != list(range(len(g))):
            raise IllegalMove(f"round {rows[0][1]}: a rebuilt deck's positions are not 0, 1, 2, ...")
        out.append([c for _, c in sorted(g)])
    return out


def _zombie_rebuild(rules, deck, discard, groups, rebuilds, aside, n_players, rnd) -> None:
    """The deck ran out. Expert: "shuffle the discard pile and reconstruct a deck with 10 cards per
    architect and a new Zombie card" (the rest stays in the pile): a new one is one of those "set
    aside face down" at set-up (which one is not said: any), used once. AAA: the discard pile
    becomes the deck, as in the base AAA mode."""
    if not groups:
        raise IllegalMove(f"round {rnd}: the deck ran out and was not rebuilt from the discard pile")
    new = groups.pop(0)
    n = len(rules.cards)
    if rules.deal == "expert":
        x = rules.expansion
        rebuilds[0] += 1
        want = min(x.expert_per * n_players, len(discard))
        built = [c for c in new if c < n]
        specials = [c for c in new if c >= n]
        if len(specials) != 1 or specials[0] not in aside:
            raise IllegalMove(
                f"round {rnd}: rebuild {rebuilds[0]} shuffles in one new Zombie card (one set aside: "
                f"{aside}), got {specials}"
            )
        aside.remove(specials[0])
        if len(built) != want or not set(built) <= set(discard) or len(set(built)) != len(built):
            raise IllegalMove(
                f"round {rnd}: rebuild {rebuilds[0]} takes {want} cards of the discard pile, "
                f"got {len(built)} ({sorted(set(built) - set(discard))} not in the pile)"
            )
        for c in built:
            discard.remove(c)
    else:
        if sorted(new) != sorted(discard) or not new:
            raise IllegalMove(f"round {rnd}: the deck ran out and was not rebuilt from the discard pile")
        discard.clear()
    deck.extend(new)


def _third_time_out(rec: RoundRecord, entries, zrows, rnd: int) -> RoundRecord:
    """The expert deck ran out for the third time while round rnd's cards were drawn: "the game
    ends"; round rnd is not played (only the Zombie cards drawn before are applied)."""
    if zrows:
        raise IllegalMove(f"round {rnd}: Zombie Outbreak rows for no Zombie card drawn: {zrows[0]}")
    other = [e for e in entries if e[3] not in ZOMBIE_ROWS]
    if other:
        raise IllegalMove(
            f"round {rnd}: the deck ran out for the third time before this round; the game is over, "
            f"the log plays on: {other[0]}"
        )
    rec.events.append((-1, "the deck ran out for the third time: the game ends"))
    rec.played = False
    return rec


def _zombie_hands_end(rows, entries, reasons, unplayed, end_round) -> None:
    """Zombie Outbreak's hand modes: the end row says whether the deck ended the game, and nothing
    is logged after it (but the Zombie cards drawn as the deck ran out)."""
    ends = [e for e in entries if e[3] == END]
    deck_bit = any(e[4] & END_DECK for e in ends)
    if deck_bit != ("deck" in reasons):
        raise IllegalMove(
            f"round {end_round}: the end row {'gives' if deck_bit else 'does not give'} the deck "
            f"as a reason; the deck {'ran' if 'deck' in reasons else 'did not run'} out a third time"
        )
    late = [e for e in rows if e[1] > end_round and not (unplayed is not None and e[1] == end_round + 1)]
    if late:
        raise IllegalMove(
            f"round {late[0][1]}: the game ended after round {end_round}; the log plays on: {late[0]}"
        )


def _draw_card(deck, discard, rebuilt_rounds, rebuilt_rows, rnd, reshuffle) -> int | None:
    """Draw the top card; when the deck is empty, it must be rebuilt from the discard pile."""
    if not deck:
        if not reshuffle:
            return None
        rows = [e for e in rebuilt_rows if e[3] == DECK]
        new = [c for _, c in sorted((e[4], e[5]) for e in rows)]
        if sorted(new) != sorted(discard) or not new:
            raise IllegalMove(f"round {rnd}: the deck ran out and was not rebuilt from the discard pile")
        for e in rows:
            rebuilt_rows.remove(e)
        deck.extend(new)
        discard.clear()
        rebuilt_rounds.append(rnd)
    return deck.pop(0)


def _shelter_row(e: list[int], cause: int) -> bool:
    """A Doomsday AAA shelter row for a validation card (cause 0) or a roundabout (1)."""
    return e[3] == X_SHELTER and e[6] == cause


def _aaa_shelter(rows: list[list[int]], street: int, want: int | None, cause: int, where: str) -> str:
    """Check the log's AAA shelter (kind 15) against the one the referee has the AAA build."""
    got = next((e for e in rows if _shelter_row(e, cause) and e[4] == street), None)
    if want is None:
        if got is not None:
            raise IllegalMove(
                f"{where}: the AAA builds no shelter in street {street + 1}, the log says {got[5]}"
            )
        return ""
    if got is None or got[5] != want:
        raise IllegalMove(
            f"{where}: the AAA builds a shelter of {want} in street {street + 1}, the log says "
            f"{'none' if got is None else got[5]}"
        )
    rows.remove(got)
    return f"; the AAA builds a shelter of {want} in street {street + 1}"


def _check_roundabout(
    rules: RefRules, sh: PlayerSheet, e: list[int], rnd: int, shelter_rows: list[list[int]]
) -> str:
    where = f"round {rnd}, player {e[2] + 1}"
    s, h = e[4], e[5]
    if not rules.advanced:
        raise IllegalMove(f"{where}: roundabouts belong to Advanced mode")
    limit = min(2, len(rules.roundabout_track or [0]) - 1)
    if sh.roundabouts >= limit:
        raise IllegalMove(f"{where}: at most {limit} roundabouts")
    if not (0 <= s < len(sh.streets) and 0 <= h < len(sh.streets[s])) or not sh.streets[s][h].empty:
        raise IllegalMove(f"{where}: a roundabout goes in an empty house, not street {s + 1} house {h + 1}")
    sh.streets[s][h].roundabout = True
    sh.fences[s] |= {h, h + 1}
    sh.roundabouts += 1
    text = f"roundabout in street {s + 1}, house {h + 1}"
    if rules.deal == "aaa":
        text += _aaa_shelter(shelter_rows, s, rules.expansion.aaa_roundabout(sh, s), 1, where)
    return text


def _zombie_setup(rules: RefRules, rows: list[list[int]]) -> list[list[int]]:
    """Zombie Outbreak's two stacks, checked against its set-up: "form 3 stacks of 10 cards.
    Randomly shuffle 1 Zombie card into each of these 3 stacks. Place these 3 stacks on top of each
    other to create the first card stack ... With the remaining cards, form the second card stack"."""
    x = rules.expansion
    n = len(rules.cards)
    setup = _stacks_from(rows)
    if sorted(setup) != [0, 1]:
        raise IllegalMove(f"set-up: Zombie Outbreak deals two stacks, got stacks {sorted(setup)}")
    first, second = setup[0], setup[1]
    part = x.part_size + 1
    if len(first) != x.parts * part:
        raise IllegalMove(
            f"set-up: the first stack holds {x.parts} x ({x.part_size} + 1 Zombie card) cards, not {len(first)}"
        )
    cards = first + second
    if sorted(c for c in cards if c < n) != list(range(n)):
        raise IllegalMove("set-up: the stacks are not the deck's construction cards, each exactly once")
    zombie_ids = list(range(n + X_SPECIAL, n + X_SPECIAL + len(x.kinds)))
    if sorted(c for c in cards if c >= n) != zombie_ids:
        raise IllegalMove(
            f"set-up: the Zombie cards are {zombie_ids[0]}..{zombie_ids[-1]}, each exactly once, and no other"
        )
    if any(c >= n for c in second):
        raise IllegalMove("set-up: a Zombie card outside the first stack")
    for k in range(x.parts):
        got = sum(c >= n for c in first[k * part : (k + 1) * part])
        if got != 1:
            raise IllegalMove(f"set-up: part {k + 1} of the first stack holds {got} Zombie cards, not 1")
    return [first, second]


def _zombie_cards(
    rules: RefRules,
    stack: list[int],
    sheets: list[PlayerSheet],
    rows: list[list[int]],
    rec: RoundRecord,
    rnd: int,
) -> None:
    """Apply every Zombie card now on top of the first stack, consuming the log's rows for them
    (in log order) and checking each against what the rules give."""
    n = len(rules.cards)
    while stack and stack[0] >= n:
        _apply_zombie(rules, stack.pop(0), 0, sheets, rows, rec, rnd)  # "remove it from the game"


def _apply_zombie(
    rules: RefRules,
    card: int,
    source: int,
    sheets: list[PlayerSheet],
    rows: list[list[int]],
    rec: RoundRecord,
    rnd: int,
) -> None:
    """Apply one Zombie card (from the first stack, source 0, or drawn into a hand, source -1) to
    every sheet in seat order, consuming the log's rows for it (in log order) and checking each
    against what the rules give."""
    x = rules.expansion
    n = len(rules.cards)
    row = rows.pop(0) if rows else None
    if row is None or row[3] != X_ZOMBIE or row[2] != -1 or row[4:6] != [card, source]:
        how = "surfaced on the first stack" if source == 0 else "was drawn"
        raise IllegalMove(f"round {rnd}: Zombie card {card} {how}; the log has {row}")
    kind = x.kinds[card - n - X_SPECIAL]
    rec.events.append((-1, f"Zombie card: {ZOMBIE_TEXT[kind]}"))
    for p, sh in enumerate(sheets):
        where = f"round {rnd}, player {p + 1}"
        for s, side in x.moving(kind, len(sh.streets)):
            horde = f"the {SIDES[side]} horde of street {s + 1}"
            held = bool(rows) and rows[0][3] == X_HOLD and rows[0][2] == p and rows[0][4:6] == [s, side]
            if x.at_end(sh, s, side) and not held:
                continue  # past its road's last arrow: it moves no more, nothing to log
            if held:
                rows.pop(0)
                why = x.hold(sh, s, side)
                if why:
                    raise IllegalMove(f"{where}: cannot hold {horde}: {why}")
                rec.events.append((p, f"holds {horde} (1 ammunition; {x.ammunition(sh)} left)"))
                continue
            hit = x.move(sh, s, side)
            if hit is None:
                continue
            h, erased = hit
            want = [p, X_INVADE, s, h, -1 if erased is None else log_code(erased)]
            row = rows.pop(0) if rows else None
            if row is None or row[2:7] != want:
                raise IllegalMove(
                    f"{where}: {horde} invades street {s + 1} house {h + 1}"
                    f" ({'empty' if erased is None else f'{erased} erased'}); the log has {row}"
                )
            what = "empty" if erased is None else f"{erased} erased"
            rec.events.append((p, f"street {s + 1} house {h + 1} invaded: {what}"))


def _stack_end(entries: list[list[int]], rnd: int, end_round: int, rec: RoundRecord) -> None:
    """Zombie Outbreak: the first stack ran out, "the game ends immediately": the round is not
    played and the log ends it here with the first-stack reason alone."""
    where = f"round {rnd}"
    played = [e for e in entries if e[3] in (MOVE, PLAN, ROUNDABOUT, RESHUFFLE, X_SIDE)]
    if played:
        raise IllegalMove(
            f"{where}: the first stack ran out, the game is over; the log plays on: {played[0]}"
        )
    ends = [e for e in entries if e[3] == END]
    if rnd != end_round or len(ends) != 1 or ends[0][4] != END_STACK:
        raise IllegalMove(f"{where}: the first stack ran out; the game ends here with reason {END_STACK}")
    rec.events.append((-1, "the first stack ran out: the game ends at once"))
    rec.played = False


def _stacks_from(entries: list[list[int]]) -> dict[int, list[int]]:
    stacks: dict[int, list[tuple[int, int]]] = {}
    for e in entries:
        if e[3] == STACK:
            stacks.setdefault(e[4], []).append((e[5], e[6]))
    return {i: [c for _, c in sorted(v)] for i, v in stacks.items()}


def log_number(code: int) -> int | float:
    """A number as the log writes it (twice the number; odd: the number n¾) -> 9 or 9.75."""
    return code // 2 if code % 2 == 0 else code // 2 + 0.75


def show_number(value: int | float) -> str:
    """9 -> '9', 9.75 -> '9¾' (the referee keeps ¾ numbers as floats), as the sheets print them."""
    whole = int(value)
    return str(whole) if value == whole else f"{whole}¾"


def log_code(number: int | float) -> int:
    """The log's code of a number (the inverse of log_number): 9 -> 18, 9.75 -> 19."""
    whole = int(number)
    return 2 * whole + (0 if number == whole else 1)


def _check_move(rules: RefRules, sh: PlayerSheet, combos, m: list[int], rnd: int) -> str:
    """Validate and apply one player's move; return a readable description."""
    p = m[2]
    combo, street, house, number, action = m[4], m[5], m[6], log_number(m[7]), m[8]
    params = m[9:12]
    where = f"round {rnd}, player {p + 1}"
    if combo == -1:
        for n, _ in combos:
            if sh.fits_somewhere(n):
                raise IllegalMove(f"{where}: permit refusal although {n} can be written")
        sh.refusals += 1
        if sh.refusals > len(rules.refusal_track) - 1:
            raise IllegalMove(f"{where}: more refusals than boxes")
        return "permit refusal"
    if not 0 <= combo < len(combos):
        raise IllegalMove(f"{where}: combination {combo} does not exist")
    card_number, card_action = combos[combo]
    act = None if action == -1 else _action_name(rules, action)
    if act is not None and act != card_action:
        raise IllegalMove(f"{where}: action {act} used with a {card_action} card")
    if number != card_number:
        if act != "temp":
            raise IllegalMove(
                f"{where}: wrote {show_number(number)} with a {show_number(card_number)} card and no temp worker"
            )
        if abs(number - card_number) > 2 or (number - card_number) % 1 != 0:
            raise IllegalMove(
                f"{where}: temp worker changes {show_number(card_number)} by 1 or 2, not to {show_number(number)}"
            )
    why = sh.can_write(street, house, number)
    if why:
        raise IllegalMove(f"{where}: cannot write {show_number(number)}: {why}")
    if rules.expansion.side_missing(sh, street):
        raise IllegalMove(
            f"{where}: first number in street {street + 1} without choosing where its truck starts"
        )
    sh.streets[street][house].number = number
    rules.expansion.numbered(sh, street, house)
    text = f"{show_number(number)} in street {street + 1}, house {house + 1}"
    if act is None and params[2] == 1:
        # Roswell: "If you have numbered a house with a flying saucer positioned above it ...
        # Infiltrate a Zoorg by circling the flying saucer (and therefore do not perform the action
        # on the card)". A number a temp worker changed used the card's action already (above).
        if (params[0], params[1]) != (street, house):
            raise IllegalMove(f"{where}: a Zoorg is infiltrated under the house just numbered")
        why = rules.expansion.infiltrate(sh, street, house)
        if why:
            raise IllegalMove(f"{where}: cannot infiltrate a Zoorg: {why}")
        text += ", a Zoorg infiltrated under its flying saucer"
    elif act == "fence" and params[2] == 1:
        # Zombie Outbreak: "If you write the number associated with this action in a house
        # without a barricade, you can choose to build a barricade instead of a fence ... in front
        # of the house you just numbered."
        if (params[0], params[1]) != (street, house):
            raise IllegalMove(f"{where}: a barricade goes in front of the house just numbered")
        why = rules.expansion.barricade(sh, street, house)
        if why:
            raise IllegalMove(f"{where}: cannot build a barricade: {why}")
        text += ", barricade in front of it"
    elif act == "fence":
        fs, fb = params[0], params[1]
        if not 0 <= fs < len(sh.streets) or not 1 <= fb < len(sh.streets[fs]):
            raise IllegalMove(f"{where}: no boundary {fb} in street {fs}")
        if fb in sh.fences[fs]:
            raise IllegalMove(f"{where}: a fence already stands at street {fs + 1}, boundary {fb}")
        left, right = sh.streets[fs][fb - 1], sh.streets[fs][fb]
        if (
            left.plan is not None
            and right.plan is not None
            and sh.estate_of(fs, fb - 1) == sh.estate_of(fs, fb)
        ):
            raise IllegalMove(f"{where}: a fence cannot divide an estate used for a plan")
        if fb in sh.links[fs]:
            raise IllegalMove(f"{where}: a fence cannot separate a bis from its twin (first edition)")
        sh.fences[fs].add(fb)
        text += f", fence in street {fs + 1} between houses {fb} and {fb + 1}"
    elif act == "improvement":
        col = params[0]
        if not 0 <= col < 6 or sh.improvements[col] >= len(rules.estate_values[col]) - 1:
            raise IllegalMove(f"{where}: no improvement box left for estates of size {col + 1}")
        sh.improvements[col] += 1
        text += f", improvement of size-{col + 1} estates" + rules.expansion.improved(sh, col)
    elif act == "park":
        if sh.parks[street] >= len(rules.park_tracks[street]) - 1:
            raise IllegalMove(f"{where}: no park box left in street {street + 1}")
        sh.parks[street] += 1
        text += ", park"
    elif act == "pool":
        if house not in rules.pool_houses[street]:
            raise IllegalMove(f"{where}: house {house + 1} of street {street + 1} has no pool")
        if sh.pools >= len(rules.pool_track) - 1:
            raise IllegalMove(f"{where}: no pool box left")
        if sh.streets[street][house].pool:
            # Halloween's Pool bonus circles a pool "whether the house is numbered or not".
            raise IllegalMove(
                f"{where}: the pool of house {house + 1} of street {street + 1} is already circled"
            )
        sh.streets[street][house].pool = True
        sh.pools += 1
        text += ", pool"
    elif act == "temp":
        if sh.temps >= rules.temp_boxes:
            raise IllegalMove(f"{where}: no temp worker box left")
        sh.temps += 1
        text += f", temp worker ({show_number(card_number)} -> {show_number(number)})"
    elif act == "extension":
        es, src, tgt = params
        if sh.extensions >= len(rules.extension_track) - 1:
            raise IllegalMove(f"{where}: no extension box left")
        if not 0 <= es < len(sh.streets) or src == tgt:
            raise IllegalMove(f"{where}: extension must copy into the house directly left or right")
        row = sh.streets[es]
        if not (0 <= src < len(row) and 0 <= tgt < len(row)):
            raise IllegalMove(f"{where}: extension outside street {es + 1}")
        if row[src].number is None or row[tgt].number is not None or row[tgt].invaded:
            raise IllegalMove(f"{where}: extension needs a numbered source and an empty target")
        between = range(min(src, tgt) + 1, max(src, tgt))
        # Zombie Outbreak ("5B-Z-5B"): the copy may reach across invaded houses.
        if between and not (
            getattr(rules.expansion, "twins_across_z", False) and all(row[h].invaded for h in between)
        ):
            raise IllegalMove(f"{where}: extension must copy into the house directly left or right")
        boundary = max(src, tgt)
        if rules.bis_same_estate:
            if boundary in sh.fences[es]:
                raise IllegalMove(f"{where}: a bis must be in the same estate as its twin (first edition)")
            sh.links[es].add(boundary)
        row[tgt].number = row[src].number
        row[tgt].bis = True
        rules.expansion.numbered(sh, es, tgt)
        sh.extensions += 1
        text += f", extension: {row[tgt].number}B in street {es + 1}, house {tgt + 1}"
    return text


def _action_name(rules: RefRules, code: int) -> str:
    if not 0 <= code < len(rules.actions):
        raise IllegalMove(f"unknown action code {code}")
    return rules.actions[code]


def _check_plan(rules, sh: PlayerSheet, p, slot, entries, flipped, plans_in_play, rnd) -> str:
    where = f"round {rnd}, player {p + 1}"
    plan_idx = entries[0][5]
    if not 0 <= plan_idx < len(rules.plans) or rules.plans[plan_idx]["slot"] != slot:
        raise IllegalMove(f"{where}: plan {plan_idx} is not a plan of slot {slot}")
    if plans_in_play[slot] is None:
        plans_in_play[slot] = plan_idx
    elif plans_in_play[slot] != plan_idx:
        raise IllegalMove(f"{where}: plan {plan_idx} is not the plan in play")
    plan = rules.plans[plan_idx]
    if slot in sh.plan_scores:
        raise IllegalMove(f"{where}: plan {plan['id']} validated twice")
    items = [(e[6], e[7], e[8]) for e in entries if e[6] >= 0]
    houses = any(e[10] == 1 for e in entries)
    try:
        check_plan(sh, plan, items, houses)
    except PlanError as exc:
        raise IllegalMove(f"{where}: {exc}") from None
    points = plan["later"] if flipped[slot] else plan["first"]
    if any(e[9] != points for e in entries):
        raise IllegalMove(f"{where}: plan {plan['id']} is worth {points} now, log says {entries[0][9]}")
    letter = rules.letters[slot]
    for s, a, b in items:
        for h in range(a, b + 1):
            if sh.streets[s][h].number is not None:
                if houses:
                    sh.streets[s][h].house_plan = letter
                else:
                    sh.streets[s][h].plan = letter
    sh.plan_scores[slot] = points
    sh.plan_rounds[slot] = rnd
    return f"player {p + 1} validates plan {plan['id']} ({'first' if not flipped[slot] else 'later'}): {points} points"
