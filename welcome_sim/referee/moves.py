"""One player's move, roundabout and plan validation checked and applied; the set-up's objectives; the
first edition's reshuffle.
"""

from __future__ import annotations

from welcome_sim.referee.aaa import _aaa_shelter
from welcome_sim.referee.log import (
    X_OBJECTIVE,
    IllegalMove,
    _stacks_from,
    log_number,
    show_number,
)
from welcome_sim.referee.plans import PlanError, check_plan
from welcome_sim.referee.rules import RefRules
from welcome_sim.referee.sheet import PlayerSheet


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
