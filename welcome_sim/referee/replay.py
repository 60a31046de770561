"""Replays a game log move by move, rejecting illegal moves with a reason, and re-scores it.

Log rows are int sequences [game, round, player, kind, a, b, c, d, e, f, g, h]:
- kind 0, stack: the order of a stack when formed (round 0: set-up; later: a reshuffle); a = stack,
  b = position from the top, c = card index.
- kind 1, move: a = combination 0..2 or -1 for a permit refusal, b = street, c = house, d = number
  written, e = action column (deck file's `actions`) or -1 for none, f, g, h = its parameters:
  fence (street, boundary left of house g), improvement (estate size - 1), extension (street,
  source house, target house).
- kind 2, plan: a = slot, b = plan index, c = street, d = first house, e = last house of one estate
  used (c = -1 when the plan uses no estate), f = points scored.
- kind 3, end: the game ended after this round.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from welcome_sim.referee.sheet import PlayerSheet, majority_points
from welcome_sim.referee.tables import RefRules

STACK, MOVE, PLAN, END = 0, 1, 2, 3


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


def _rank(rules: RefRules, scores: list[dict[str, int]]) -> list[int]:
    def key(c: dict[str, int]) -> tuple:
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
    setup = _stacks_from(by_round.get(0, []))
    if sorted(len(s) for s in setup.values()) != [n_cards // 3] * 3:
        raise IllegalMove(f"set-up: expected 3 stacks of {n_cards // 3} cards, got {setup}")
    all_cards = sorted(c for s in setup.values() for c in s)
    if all_cards != list(range(n_cards)):
        raise IllegalMove("set-up: the stacks are not the deck's cards, each exactly once")
    stacks = [setup[i] for i in range(3)]
    discards: list[list[int]] = [[], [], []]
    sheets = [PlayerSheet(rules) for _ in range(n_players)]
    flipped = [False, False, False]
    plans_in_play: list[int | None] = [None, None, None]
    records: list[RoundRecord] = []
    end_round = max(r[1] for r in rows if r[3] == END)
    rnd = 0
    while True:
        rnd += 1
        if rnd > end_round:
            raise IllegalMove(f"round {rnd}: the log ends without the game having ended")
        entries = by_round.get(rnd, [])
        combos = []
        new_stacks = _stacks_from(entries)
        rec = RoundRecord(rnd, combos)
        for i in range(3):
            card = stacks[i].pop(0)
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
        moves = [e for e in entries if e[3] == MOVE]
        if sorted(m[2] for m in moves) != list(range(n_players)):
            raise IllegalMove(
                f"round {rnd}: expected one move per player, got players {[m[2] for m in moves]}"
            )
        for m in sorted(moves, key=lambda m: m[2]):
            rec.moves.append(_check_move(rules, sheets[m[2]], combos, m, rnd))
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
        records.append(rec)
        reasons = []
        if any(len(s.plan_scores) == 3 for s in sheets):
            reasons.append("plans")
        if any(s.refusals >= len(rules.refusal_track) - 1 for s in sheets):
            reasons.append("refusals")
        if any(s.full for s in sheets):
            reasons.append("full")
        if reasons and rnd != end_round:
            raise IllegalMove(f"round {rnd}: the game should have ended ({', '.join(reasons)})")
        if rnd == end_round:
            if not reasons:
                raise IllegalMove(f"round {rnd}: the game ended but no end condition holds")
            break
    temps = majority_points([s.temps for s in sheets], rules.majority)
    scores = [s.components(t) for s, t in zip(sheets, temps, strict=True)]
    plans = [p if p is not None else -1 for p in plans_in_play]
    return GameRecord(rules, plans, records, sheets, scores, _rank(rules, scores), reasons)


def _stacks_from(entries: list[list[int]]) -> dict[int, list[int]]:
    stacks: dict[int, list[tuple[int, int]]] = {}
    for e in entries:
        if e[3] == STACK:
            stacks.setdefault(e[4], []).append((e[5], e[6]))
    return {i: [c for _, c in sorted(v)] for i, v in stacks.items()}


def _check_move(rules: RefRules, sh: PlayerSheet, combos, m: list[int], rnd: int) -> str:
    """Validate and apply one player's move; return a readable description."""
    p = m[2]
    combo, street, house, number, action = m[4], m[5], m[6], m[7], m[8]
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
    if not 0 <= combo <= 2:
        raise IllegalMove(f"{where}: combination {combo} does not exist")
    card_number, card_action = combos[combo]
    act = None if action == -1 else _action_name(rules, action)
    if act is not None and act != card_action:
        raise IllegalMove(f"{where}: action {act} used with a {card_action} card")
    if number != card_number:
        if act != "temp":
            raise IllegalMove(f"{where}: wrote {number} with a {card_number} card and no temp worker")
        if abs(number - card_number) > 2:
            raise IllegalMove(f"{where}: temp worker changes {card_number} by at most 2, not to {number}")
    why = sh.can_write(street, house, number)
    if why:
        raise IllegalMove(f"{where}: cannot write {number}: {why}")
    sh.streets[street][house].number = number
    text = f"{number} in street {street + 1}, house {house + 1}"
    if act == "fence":
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
        text += f", improvement of size-{col + 1} estates"
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
        sh.streets[street][house].pool = True
        sh.pools += 1
        text += ", pool"
    elif act == "temp":
        if sh.temps >= rules.temp_boxes:
            raise IllegalMove(f"{where}: no temp worker box left")
        sh.temps += 1
        text += f", temp worker ({card_number} -> {number})"
    elif act == "extension":
        es, src, tgt = params
        if sh.extensions >= len(rules.extension_track) - 1:
            raise IllegalMove(f"{where}: no extension box left")
        if not 0 <= es < len(sh.streets) or abs(src - tgt) != 1:
            raise IllegalMove(f"{where}: extension must copy into the house directly left or right")
        row = sh.streets[es]
        if not (0 <= src < len(row) and 0 <= tgt < len(row)):
            raise IllegalMove(f"{where}: extension outside street {es + 1}")
        if row[src].number is None or row[tgt].number is not None:
            raise IllegalMove(f"{where}: extension needs a numbered source and an empty target")
        boundary = max(src, tgt)
        if rules.bis_same_estate:
            if boundary in sh.fences[es]:
                raise IllegalMove(f"{where}: a bis must be in the same estate as its twin (first edition)")
            sh.links[es].add(boundary)
        row[tgt].number = row[src].number
        row[tgt].bis = True
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
    estates = [(e[6], e[7], e[8]) for e in entries if e[6] >= 0]
    sizes = []
    for s, a, b in estates:
        if not 0 <= s < len(sh.streets) or sh.estate_of(s, a) != (a, b):
            raise IllegalMove(f"{where}: street {s + 1} houses {a + 1}-{b + 1} is not an estate")
        if any(sh.streets[s][h].number is None for h in range(a, b + 1)):
            raise IllegalMove(f"{where}: estate in street {s + 1} houses {a + 1}-{b + 1} is not complete")
        if any(sh.streets[s][h].plan is not None for h in range(a, b + 1)):
            raise IllegalMove(f"{where}: estate in street {s + 1} already used for a plan")
        sizes.append(b - a + 1)
    if Counter(sizes) != Counter(plan["sizes"]):
        raise IllegalMove(f"{where}: plan {plan['id']} needs estates {plan['sizes']}, got {sorted(sizes)}")
    points = plan["later"] if flipped[slot] else plan["first"]
    if any(e[9] != points for e in entries):
        raise IllegalMove(f"{where}: plan {plan['id']} is worth {points} now, log says {entries[0][9]}")
    letter = rules.letters[slot]
    for s, a, b in estates:
        for h in range(a, b + 1):
            sh.streets[s][h].plan = letter
    sh.plan_scores[slot] = points
    sh.plan_rounds[slot] = rnd
    return f"player {p + 1} validates plan {plan['id']} ({'first' if not flipped[slot] else 'later'}): {points} points"
