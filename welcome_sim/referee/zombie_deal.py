"""Zombie Outbreak's deal: its two stacks, its hand modes' deck with Zombie cards, and the cards applied."""

from __future__ import annotations

from welcome_sim.referee.aaa import _card_text, _validation_card
from welcome_sim.referee.log import (
    AAA_PLAN,
    DECK,
    END,
    END_DECK,
    END_STACK,
    MOVE,
    PLAN,
    RESHUFFLE,
    ROUNDABOUT,
    SOLO_CARD,
    X_CROSS,
    X_HOLD,
    X_INVADE,
    X_SIDE,
    X_SPECIAL,
    X_ZOMBIE,
    ZOMBIE_REBUILDS,
    ZOMBIE_ROWS,
    IllegalMove,
    RoundRecord,
    Table,
    _shelter_row,
    _stacks_from,
    log_code,
)
from welcome_sim.referee.readings.zombies import SIDES, ZOMBIE_TEXT
from welcome_sim.referee.rules import RefRules
from welcome_sim.referee.sheet import PlayerSheet


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
                f"{f' and {k} AAA validation card' + 's' * (k != 1) if k else ''}, not {specials}"
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


def zombie_deal(t: Table, r: int) -> RoundRecord:
    """Zombie Outbreak's hand modes: every player draws up to two cards at the start of round
    r; a Zombie card drawn is applied at once. Returns round r's record, unplayed when the
    deck ran out a third time (expert): the game ended after round r - 1."""
    rules = t.rules
    rec = RoundRecord(r, [])
    entries = t.by_round.get(r, [])
    zrows = [e for e in entries if e[3] in ZOMBIE_ROWS]
    groups = _deck_groups([e for e in entries if e[3] == DECK])
    special_rows = [e for e in entries if e[3] in (AAA_PLAN, SOLO_CARD, X_CROSS) or _shelter_row(e, 0)]
    for p in range(t.n_players):
        while len(t.hand_of[p]) < 2:
            if not t.deck:
                if rules.deal == "expert" and t.rebuilds[0] >= ZOMBIE_REBUILDS:
                    if groups:
                        raise IllegalMove(
                            f"round {r}: the deck ran out for the third time: the game ends, "
                            "the deck is not rebuilt again"
                        )
                    return _third_time_out(rec, entries, zrows, r)
                _zombie_rebuild(rules, t.deck, t.discard, groups, t.rebuilds, t.aside, t.n_players, r)
                rec.reshuffled.append(0)
            card = t.deck.pop(0)
            if card < t.n_cards:
                t.hand_of[p].append(card)
                continue
            special = card - t.n_cards
            if special < X_SPECIAL:
                t.aaa_plan_points += _validation_card(
                    rules, special, special_rows, t.sheets, t.flipped, t.plans_in_play, rec, r, t.aaa_cards
                )
                continue
            # "When you draw a Zombie card, the architects immediately apply its effect. Then
            # permanently remove it from the game and draw a new Construction card"; AAA: "apply
            # the effect of the Zombie card on your sheet".
            _apply_zombie(rules, card, -1, t.sheets, zrows, rec, r)
            if rules.deal == "aaa" and rules.opponent.get("scores", True):
                # "With a level 1 or higher AAA opponent: When you draw a Zombie card, remove
                # the last 2 cards given to the AAA from the game and replace them with the
                # Zombie card."
                gone = [_card_text(rules, c) for c in t.aaa_cards[-2:]]
                t.aaa_cards[-2:] = [card]
                rec.events.append(
                    (
                        -1,
                        f"the Zombie card replaces the AAA's last {len(gone)} card{'s' * (len(gone) != 1)}: {', '.join(gone) or '-'}",
                    )
                )
    if zrows:
        raise IllegalMove(f"round {r}: Zombie Outbreak rows for no Zombie card drawn: {zrows[0]}")
    if groups:
        raise IllegalMove(f"round {r}: the deck was rebuilt before it ran out")
    if special_rows:
        raise IllegalMove(f"round {r}: special-card rows with no such card drawn: {special_rows}")
    return rec
