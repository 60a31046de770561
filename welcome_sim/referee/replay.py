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

from welcome_sim.referee.aaa import _draw_card, _given, _hand_setup, _validation_card, aaa_score
from welcome_sim.referee.log import (
    AAA_PLAN,
    DECK,
    END,
    END_STACK,
    MOVE,
    PAIRS,
    PAIRS_TWO,
    PASS,
    PLAN,
    RESHUFFLE,
    ROUNDABOUT,
    SOLO_CARD,
    X_AD_CROSS,
    X_BONUS,
    X_CLAIM,
    X_CROSS,
    X_DUCKS,
    X_MARK,
    X_PHASE,
    X_SHELTER,
    X_SIDE,
    ZOMBIE_ROWS,
    GameRecord,
    IllegalMove,
    RoundRecord,
    Table,
    _expect,
    _shelter_row,
    _stacks_from,
    log_code,
    log_number,
    show_number,
)
from welcome_sim.referee.moves import (
    _check_move,
    _check_objectives,
    _check_plan,
    _check_reshuffle,
    _check_roundabout,
)
from welcome_sim.referee.rules import RefRules
from welcome_sim.referee.sheet import PlayerSheet, majority_points
from welcome_sim.referee.zombie_deal import (
    _stack_end,
    _zombie_cards,
    _zombie_hand_setup,
    _zombie_hands_end,
    _zombie_setup,
    zombie_deal,
)

# Names other modules and the tests read from here, where they were first defined.
__all__ = [
    "X_SHELTER",
    "GameRecord",
    "IllegalMove",
    "RoundRecord",
    "_check_move",
    "_zombie_setup",
    "aaa_score",
    "log_code",
    "log_number",
    "replay",
    "show_number",
]


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
    t = _set_up(rules, rows, n_players)
    records: list[RoundRecord] = []
    unplayed: RoundRecord | None = None  # the round the expert deck ran out a third time in
    next_rec = zombie_deal(t, 1) if t.zombie_hands else None
    if next_rec is not None and not next_rec.played:
        raise IllegalMove("round 1: the deck cannot give the first round's cards")
    if any(r[3] == RESHUFFLE for r in t.by_round.get(0, [])):
        raise IllegalMove("set-up: a reshuffle before anyone has validated a plan")
    first_plans_round = 0  # the first round anyone validated a plan (first edition's reshuffle)
    rnd = 0
    while True:
        rnd += 1
        if rnd > t.end_round:
            raise IllegalMove(f"round {rnd}: the log ends without the game having ended")
        entries = t.by_round.get(rnd, [])
        # Stack rows after a reshuffle row are the reshuffle's new stacks, not this round's flip.
        reshuffles = [e for e in entries if e[3] == RESHUFFLE]
        cut = entries.index(reshuffles[0]) if reshuffles else len(entries)
        rec, stack_out = _deal_round(t, rnd, entries, cut, next_rec)
        if stack_out:
            _stack_end(entries, rnd, t.end_round, rec)
            records.append(rec)
            reasons = ["first-stack"]
            break
        _play_round(t, rnd, entries, rec)
        validated_now, groups = _validate_round(t, rnd, entries, rec)
        records.append(rec)
        reasons = _end_reasons(t)
        if t.zombie_hands and not reasons:
            # The next round's cards are drawn now: the deck running out a third time ends the
            # game before that round, after this one.
            next_rec = zombie_deal(t, rnd + 1)
            if not next_rec.played:
                reasons.append("deck")
                unplayed = next_rec
        if reasons and rnd != t.end_round:
            raise IllegalMove(f"round {rnd}: the game should have ended ({', '.join(reasons)})")
        if any(validated_now) and not first_plans_round:
            first_plans_round = rnd
        if reshuffles:
            t.stacks, t.discards = _check_reshuffle(
                rules, reshuffles, entries[cut:], groups, first_plans_round, rnd == t.end_round, rnd
            )
            rec.validations.append(
                f"player {reshuffles[0][4] + 1} reshuffles all {t.n_cards} cards into three new stacks"
            )
        if rnd == t.end_round:
            _check_end(t, rows, entries, reasons, unplayed, rnd)
            if t.zombie_hands and unplayed is not None:
                records.append(unplayed)
            break
    return _score_game(t, rows, records, reasons)


def _set_up(rules: RefRules, rows: list[list[int]], n_players: int) -> Table:
    """The table at set-up: the log by round, the deal checked against the mode's set-up, the
    sheets, the objectives circled and (expert) each architect's first card."""
    by_round: dict[int, list[list[int]]] = {}
    for row in rows:
        by_round.setdefault(int(row[1]), []).append([int(x) for x in row])
    t = Table(rules, n_players, by_round)
    n_cards = t.n_cards
    if rules.deal in ("aaa", "solo_card") and n_players != 1:
        raise IllegalMove(f"the solo modes have one player, not {n_players}")
    firsts: list[int] = []
    if t.zombie_hands:
        t.deck, t.discard, firsts, t.aside = _zombie_hand_setup(rules, by_round.get(0, []), n_players)
    elif t.hands:
        t.deck, t.discard = _hand_setup(rules, by_round.get(0, []), n_players)
    elif t.zombies:
        t.stacks = _zombie_setup(rules, by_round.get(0, []))
        t.discards = [[], []]
    else:
        setup = _stacks_from(by_round.get(0, []))
        if sorted(len(s) for s in setup.values()) != [n_cards // 3] * 3:
            raise IllegalMove(f"set-up: expected 3 stacks of {n_cards // 3} cards, got {setup}")
        all_cards = sorted(c for s in setup.values() for c in s)
        if all_cards != list(range(n_cards)):
            raise IllegalMove("set-up: the stacks are not the deck's cards, each exactly once")
        t.stacks = [setup[i] for i in range(3)]
        t.discards = [[], [], []]
    t.sheets = [PlayerSheet(rules) for _ in range(n_players)]
    _check_objectives(rules, rows, t.sheets)
    ends = [r[1] for r in rows if r[3] == END]
    if not ends:
        raise IllegalMove("the log has no end row: the game never ended")
    t.end_round = max(ends)
    t.hand_of = [[] for _ in range(n_players)]
    if rules.deal == "expert" and t.zombie_hands:
        t.hand_of = [[c] for c in firsts]
    elif rules.deal == "expert":
        for p in range(n_players):
            t.hand_of[p].append(_draw_card(t.deck, t.discard, t.rebuilt_rounds, [], 0, True))
    return t


def _deal_round(
    t: Table, rnd: int, entries: list[list[int]], cut: int, next_rec: RoundRecord | None
) -> tuple[RoundRecord, bool]:
    """The round's cards: drawn into the hands or flipped from the stacks. Returns the round's
    record and whether Zombie Outbreak's first stack ran out (the game ends unplayed)."""
    rec = RoundRecord(rnd, [])
    zombie_rows = [e for e in entries if e[3] in ZOMBIE_ROWS]
    if zombie_rows and not t.zombies:
        raise IllegalMove(f"round {rnd}: Zombie Outbreak rows in a game without it: {zombie_rows[0]}")
    if t.zombie_hands:
        assert next_rec is not None  # drawn when the previous round ended (or before round 1)
        return next_rec, False
    if t.hands:
        _draw_hands(t, rnd, entries, rec)
        return rec, False
    return rec, _flip_stacks(t, rnd, entries[:cut], rec, zombie_rows)


def _draw_hands(t: Table, rnd: int, entries: list[list[int]], rec: RoundRecord) -> None:
    """Hand modes: every player draws up to three cards; a special card drawn acts at once."""
    rules = t.rules
    rebuilt = [e for e in entries if e[3] == DECK]
    special_rows = [
        e for e in entries if e[3] in (AAA_PLAN, SOLO_CARD, X_CROSS, X_AD_CROSS) or _shelter_row(e, 0)
    ]
    for p in range(t.n_players):
        while len(t.hand_of[p]) < 3:
            card = _draw_card(t.deck, t.discard, t.rebuilt_rounds, rebuilt, rnd, rules.deal != "solo_card")
            if card is None:
                raise IllegalMove(f"round {rnd}: the deck ran out mid-round")
            if card < t.n_cards:
                t.hand_of[p].append(card)
                continue
            special = card - t.n_cards
            if special == 3:
                if rules.deal != "solo_card":
                    raise IllegalMove(f"round {rnd}: a solo card outside the first edition's solo")
                t.flipped = [True, True, True]
                rec.events.append((-1, "the solo card: every plan turns to its approved side"))
                _expect(special_rows, SOLO_CARD, None, rnd)
            else:
                t.aaa_plan_points += _validation_card(
                    rules, special, special_rows, t.sheets, t.flipped, t.plans_in_play, rec, rnd, t.aaa_cards
                )
    if special_rows:
        raise IllegalMove(f"round {rnd}: special-card rows with no such card drawn: {special_rows}")
    if rebuilt:
        raise IllegalMove(f"round {rnd}: the deck was rebuilt before it ran out")
    rec.reshuffled = [0] * len(t.rebuilt_rounds)
    t.rebuilt_rounds.clear()


def _flip_stacks(
    t: Table, rnd: int, entries: list[list[int]], rec: RoundRecord, zombie_rows: list[list[int]]
) -> bool:
    """Stack modes: the top card of each stack is flipped (entries: the round's rows before any
    reshuffle); returns whether Zombie Outbreak's first stack ran out."""
    rules, stacks, discards, combos = t.rules, t.stacks, t.discards, rec.combos
    new_stacks = _stacks_from(entries)
    stack_out = False
    if t.zombies and rnd == 1:
        # A Zombie card on top of the first stack at set-up surfaces before the first flip.
        _zombie_cards(rules, stacks[0], t.sheets, zombie_rows, rec, rnd)
    for i in range(len(stacks)):
        card = stacks[i].pop(0)
        if t.zombies and i == 0:
            # "After flipping the first card from each stack, if a Zombie card appears,
            # you must immediately apply its effect. Then, remove it from the game";
            # "When you flip the last card from the first stack, do not shuffle the
            # cards because the game is over".
            discards[0].append(card)
            _zombie_cards(rules, stacks[0], t.sheets, zombie_rows, rec, rnd)
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
    return stack_out


def _play_round(t: Table, rnd: int, entries: list[list[int]], rec: RoundRecord) -> None:
    """Every player's move of the round, with its roundabout, truck start and card passed on."""
    rules = t.rules
    moves = [e for e in entries if e[3] == MOVE]
    if sorted(m[2] for m in moves) != list(range(t.n_players)):
        raise IllegalMove(f"round {rnd}: expected one move per player, got players {[m[2] for m in moves]}")
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
                raise IllegalMove(f"round {rnd}, player {e[2] + 1}: roundabout timing {e[6]} is not 0 or 1")
            roundabouts[e[2]] = e
        elif e[3] == X_SIDE:
            if e[2] in sides:
                raise IllegalMove(f"round {rnd}, player {e[2] + 1}: two truck starts chosen in one move")
            sides[e[2]] = e
    passes = {e[2]: e for e in entries if e[3] == PASS}
    received: dict[int, int] = {}
    for m in sorted(moves, key=lambda m: m[2]):
        p = m[2]
        roundabout = roundabouts.get(p)
        before = ""
        if roundabout is not None and roundabout[6] == 0:
            before = _check_roundabout(rules, t.sheets[p], roundabout, rnd, shelter_rows) + ", then "
        text = _one_move(t, rnd, m, entries, sides, rec.combos, before)
        if roundabout is not None and roundabout[6] == 1:
            text += ", then " + _check_roundabout(rules, t.sheets[p], roundabout, rnd, shelter_rows)
        if t.hands:
            text += _pass_card(t, rnd, m, passes, received)
        rec.moves.append(text)
    if set(roundabouts) - {m[2] for m in moves}:
        raise IllegalMove(f"round {rnd}: a roundabout by a player without a move")
    if shelter_rows:
        raise IllegalMove(f"round {rnd}: an AAA shelter for a roundabout nobody built: {shelter_rows[0]}")
    if rules.deal == "expert":
        for p in range(t.n_players):
            t.hand_of[p] = [received[p]]


def _one_move(
    t: Table,
    rnd: int,
    m: list[int],
    entries: list[list[int]],
    sides: dict[int, list[int]],
    combos: list[tuple[int, str]],
    before: str,
) -> str:
    """One player's move (m, its kind 1 row) checked and applied, with what the expansion adds;
    its description, to follow `before` (a roundabout built first), the hand shown ahead of both."""
    rules, p = t.rules, m[2]
    sh = t.sheets[p]
    text = ""
    if t.hands:
        hand = t.hand_of[p]
        pairs = PAIRS_TWO if t.zombie_hands else PAIRS
        combos = [(rules.cards[hand[i]][0], rules.cards[hand[j]][1]) for i, j in pairs]
        shown = ", ".join(f"{show_number(rules.cards[c][0])}/{rules.cards[c][1]}" for c in hand)
        text = f"hand [{shown}]: "
    text += before
    if p in sides:
        side = sides.pop(p)
        where = f"round {rnd}, player {p + 1}"
        if m[4] == -1 or side[4] != m[5]:
            raise IllegalMove(
                f"{where}: truck start chosen for street {side[4] + 1}, but the move numbers no house there"
            )
        why = rules.expansion.choose_side(sh, side[4], side[5])
        if why:
            raise IllegalMove(f"{where}: cannot choose the truck's start: {why}")
        text += f"truck of street {side[4] + 1} starts from the {('left', 'right')[side[5]]}, then "
    text += _check_move(rules, sh, combos, m, rnd)
    if m[4] >= 0:
        try:
            text += rules.expansion.used_action(sh, m[5], m[6], combos[m[4]][1], m[8])
        except ValueError as exc:
            raise IllegalMove(f"round {rnd}, player {p + 1}: {exc}") from None
    marks = [e for e in entries if e[3] == X_MARK and e[2] == p and e[7] == 0]
    try:
        text += rules.expansion.after_move(sh, marks, f"round {rnd}, player {p + 1}")
    except ValueError as exc:
        raise IllegalMove(str(exc)) from None
    return text


def _pass_card(
    t: Table, rnd: int, m: list[int], passes: dict[int, list[int]], received: dict[int, int]
) -> str:
    """Hand modes: the card the player passes on (to the next architect, the AAA or the discard
    pile) after move m, checked; the rest of the hand is discarded. Returns its description."""
    rules, p = t.rules, m[2]
    hand = t.hand_of[p]
    where = f"round {rnd}, player {p + 1}"
    if p not in passes:
        raise IllegalMove(f"{where}: no card passed on")
    card, to = passes[p][4], passes[p][5]
    if t.zombie_hands:
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
    t.discard.extend(rest)
    want = {
        "expert": (p + (-1 if rules.pass_right else 1)) % t.n_players,
        "aaa": -1,
        "solo_card": -2,
    }[rules.deal]
    if to != want:
        raise IllegalMove(f"{where}: the third card goes to {want}, the log says {to}")
    text = ""
    if rules.deal == "expert":
        received[to] = card
        text += f"; passes {show_number(rules.cards[card][0])}/{rules.cards[card][1]} to player {to + 1}"
    elif rules.deal == "aaa":
        t.aaa_cards.append(card)
        text += f"; gives the AAA {show_number(rules.cards[card][0])}/{rules.cards[card][1]}"
        # Roswell, level 1+: "The first card you give to the AAA must be placed upside
        # down ... each card given immediately after a Fence card must also be placed
        # upside down": the log says which lie so.
        up = rules.expansion.aaa_upside([a for _, a in _given(rules, t.aaa_cards)])
        if rules.opponent.get("scores", True) and up[-1]:
            text += " upside down (a house infiltrated by a Zoorg)"
    else:
        t.discard.append(card)
    t.hand_of[p] = []
    return text


def _validate_round(
    t: Table, rnd: int, entries: list[list[int]], rec: RoundRecord
) -> tuple[list[bool], dict[tuple[int, int], list[list[int]]]]:
    """The round's end: the plan validations, after every player has played the round, then what
    the expansion scores and decides. Returns the slots validated now and the validations' rows
    by (player, slot)."""
    rules, sheets = t.rules, t.sheets
    rules.expansion.round_over(sheets)
    validated_now = [False, False, False]
    groups: dict[tuple[int, int], list[list[int]]] = {}
    for e in entries:
        if e[3] == PLAN:
            if not (0 <= e[2] < len(sheets) and 0 <= e[4] < 3):
                raise IllegalMove(
                    f"round {rnd}: a plan validation by player {e[2] + 1} of plan slot {e[4] + 1}"
                )
            groups.setdefault((e[2], e[4]), []).append(e)
    for (p, slot), es in sorted(groups.items()):
        rec.validations.append(_check_plan(rules, sheets[p], p, slot, es, t.flipped, t.plans_in_play, rnd))
        validated_now[slot] = True
    for slot in range(3):
        t.flipped[slot] = t.flipped[slot] or validated_now[slot]
    # What the expansion scores at the round's end, after the plan validations (Quack: the
    # scoring phases triggered this round, kind 21 with b = 0).
    rules.expansion.round_scored(sheets, _given(rules, t.aaa_cards))
    # The expansion's decisions at the round's end, after the plan validations (Halloween:
    # "At the end of a round, you can claim 1 or 2 levels").
    ends = [e for e in entries if e[3] in (X_CLAIM, X_BONUS) or (e[3] == X_MARK and e[7] != 0)]
    try:
        rec.validations += rules.expansion.round_decisions(sheets, ends, f"round {rnd}")
    except ValueError as exc:
        raise IllegalMove(str(exc)) from None
    return validated_now, groups


def _end_reasons(t: Table) -> list[str]:
    """The end conditions that hold after a round (the cards of the next are not drawn yet)."""
    rules, sheets = t.rules, t.sheets
    reasons = []
    if any(len(s.plan_scores) == 3 for s in sheets):
        reasons.append("plans")
    if any(s.refusals >= len(rules.refusal_track) - 1 for s in sheets):
        reasons.append("refusals")
    if any(s.full for s in sheets):
        reasons.append("full")
    if rules.deal == "solo_card" and sum(c < len(rules.cards) for c in t.deck) < 3:
        reasons.append("deck")
    return reasons


def _check_end(
    t: Table,
    rows: list[list[int]],
    entries: list[list[int]],
    reasons: list[str],
    unplayed: RoundRecord | None,
    rnd: int,
) -> None:
    """The round the log ends the game after: an end condition holds and the end row agrees."""
    if not reasons:
        raise IllegalMove(f"round {rnd}: the game ended but no end condition holds")
    if t.zombies and any(e[3] == END and e[4] & END_STACK for e in entries):
        raise IllegalMove(f"round {rnd}: the log ends the game on the first stack, which is not empty")
    if t.zombie_hands:
        _zombie_hands_end(rows, entries, reasons, unplayed, t.end_round)


def _score_game(
    t: Table, rows: list[list[int]], records: list[RoundRecord], reasons: list[str]
) -> GameRecord:
    """The game is over: the score cards (and the AAA's), the comparisons between sheets and the
    ranks."""
    rules, sheets = t.rules, t.sheets
    aaa = None
    if rules.deal == "aaa":
        aaa = aaa_score(rules, t.aaa_cards, t.aaa_plan_points, sheets[0].temps, sheets[0])
        temps = [aaa["player_temps"]]
    elif rules.deal == "solo_card":
        temps = [rules.solo_temp_points if sheets[0].temps >= rules.solo_temp_min else 0]
    else:
        temps = majority_points([s.temps for s in sheets], rules.majority)
    rules.expansion.final(sheets, rules.deal == "aaa")
    why = rules.expansion.check_events(sheets, [r for r in rows if r[3] in (X_PHASE, X_DUCKS)])
    if why:
        raise IllegalMove(why)
    scores = [s.components(n) for s, n in zip(sheets, temps, strict=True)]
    plans = [p if p is not None else -1 for p in t.plans_in_play]
    ranks = _rank(rules, scores)
    if aaa is not None and rules.opponent.get("scores", True):
        mine, theirs = scores[0]["total"], aaa["total"]
        won = mine > theirs or (
            mine == theirs and (_tie_shared(rules) or scores[0]["n_estates"] > aaa["n_estates"])
        )
        ranks = [1 if won else 2]
    return GameRecord(rules, plans, records, sheets, scores, ranks, reasons, aaa)
