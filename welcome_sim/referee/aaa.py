"""The hand modes' deck and the AAA solo mode: the set-up, the draw, the validation cards and the AAA's score."""

from __future__ import annotations

from collections import Counter

from welcome_sim.referee.log import (
    AAA_BOTTOM,
    AAA_PLAN,
    DECK,
    X_AD_CROSS,
    X_CROSS,
    IllegalMove,
    _expect,
    _shelter_row,
    show_number,
)
from welcome_sim.referee.rules import RefRules
from welcome_sim.referee.sheet import PlayerSheet, majority_points


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
        if not 0 <= row[6] < len(rules.plans):
            raise IllegalMove(f"round {rnd}: the AAA validates plan {row[6]}, which the rules do not have")
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
