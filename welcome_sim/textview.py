"""Plain-text rendering of replayed games: rounds, sheets and score cards."""

from __future__ import annotations

import re
from collections.abc import Sequence

from welcome_sim.plantext import plan_detail, requirement, unknown_text
from welcome_sim.referee import GameRecord, PlayerSheet
from welcome_sim.referee.replay import show_number
from welcome_sim.simcore.datafiles import Plan, Sheet

LEGEND = (
    "legend: '|' fence, '.' empty house, '@' roundabout, 'o' pool not built, '*' pool built, "
    "'B' bis (extension); letters under a street mark houses used for that plan"
)
ZOMBIE_LEGEND = (
    "zombies: 'Z' invaded house (sealed); under a street, '#' a barricade the player built, '=' a printed one"
)
ROSWELL_LEGEND = "roswell: under a street, 'v' a flying saucer, 'V' a saucer circled (a Zoorg infiltrated)"
QUACK_LEGEND = (
    "quack: under a street, at a boundary a duckling of the street, under a house one between it and "
    "the street below; 'y'/'k' yellow/black not circled, 'Y'/'K' circled"
)
# The American Dream's sheet has no fences, roundabouts, pools or bis: its own legend in place of
# LEGEND, within 80 columns.
AMERICAN_LEGEND = [
    "legend: each street under its columns c1, c2, ...; '( 5)' a perfect house",
    "  (circled), '  5' a regular one, '.' an empty house; under each house its",
    "  family, the action that makes it perfect: F fence, I improvement, K park,",
    "  P pool, T temp, E extension; at each street's end its 10-point bonus (open,",
    "  CIRCLED or crossed); under the columns their x2 bonus: 'x2?' open, '(x2)'",
    "  circled, '--' crossed; a house numbered in a round is named by its street,",
    "  its house from the left and its column (c1, c2, ...)",
]
HALLOWEEN_LEGEND = "halloween: before a house with a ghost and a candy, 'g' ghost circled, 'c' candy circled, ':' neither yet"


def render_sheet(sh: PlayerSheet) -> list[str]:
    """Streets with numbers, bis marks, fences and pools, then the crossed boxes of each track."""
    lines = []
    r = sh.rules
    if r.expansion is not None and r.expansion.name == "american-dream":
        return _american_sheet(sh)
    for s, row in enumerate(sh.streets):
        top = f"street {s + 1}  "
        under = " " * len(top)
        for h, house in enumerate(row):
            top += "|" if h in sh.fences[s] else " "
            under += " "
            if house.roundabout:
                cell = "  @ "
            else:
                # An invaded house keeps the pool circled on it; a barricade is drawn on the line
                # under the street, so the house keeps its bis and pool marks.
                pool = "*" if house.pool else "o" if h in r.pool_houses[s] else " "
                if house.invaded:
                    cell = "  Z" + pool
                elif house.number is None:
                    cell = "  ." + pool  # Halloween's Pool bonus circles a pool before its house is numbered
                else:
                    cell = f"{show_number(house.number):>3}{'B' if house.bis else pool}"
            tag = _halloween_tag(r.expansion, sh, s, h)
            if tag:
                cell = tag + cell[1:]
            top += cell
            mark = house.plan or house.house_plan
            under += (mark * 4) if mark else "    "
        top += "|"
        lead = len(f"street {s + 1}  ")
        # The line of marks under a street's houses: Roswell's saucers or Zombie Outbreak's barricades.
        marks = _saucer_line(sh, s, lead) or _barricade_line(sh, s, lead)
        park = r.park_tracks[s]
        top += f"   parks {sh.parks[s]}/{len(park) - 1} -> {park[sh.parks[s]]}"
        lines.append(top)
        if marks:
            lines.append(marks)
        ducks = _duckling_line(sh, s, lead)
        if ducks:
            lines.append(ducks)
        if under.strip():
            lines.append(under.rstrip())
    impr = " ".join(f"{i + 1}:{n}" for i, n in enumerate(sh.improvements))
    lines.append(
        f"pools {sh.pools}   temps {sh.temps}   extensions {sh.extensions}   refusals {sh.refusals}"
        + (f"   roundabouts {sh.roundabouts}" if sh.roundabouts else "")
        + f"   improvements by estate size {impr}"
    )
    if r.expansion is not None and r.expansion.name == "zombies":
        x = r.expansion
        st = x.state(sh)
        walked = "  ".join(f"street {s + 1} {left}/{right}" for s, (left, right) in enumerate(st["hordes"]))
        lines.append(
            f"hordes walked (left/right of {x.road}): {walked}   ammunition {x.ammunition(sh)} "
            f"(used {st['used']})   barricades {st['built']}   invaded {len(st['invaded'])}"
        )
    if r.expansion is not None and r.expansion.name == "doomsday":
        x = r.expansion
        caps = x.capacities(sh)
        parts = []
        for s in range(len(sh.streets)):
            houses = sorted(h for s2, h in x.shelters if s2 == s)
            built = sum(sh.streets[s][h].number is not None for h in houses)
            where = ",".join(str(h + 1) for h in houses)
            parts.append(f"street {s + 1} {built}/{len(houses)} (houses {where}) capacity {caps[s]}")
        lines.append("shelters: " + "   ".join(parts))
        if "aaa" in sh.x:
            aaa = "   ".join(f"street {s + 1} {'+'.join(map(str, v))}" for s, v in enumerate(sh.x["aaa"]))
            lines.append(f"AAA shelters: {aaa}")
    if r.expansion is not None and r.expansion.name == "roswell":
        x = r.expansion
        st = x.state(sh)
        n = x.infiltrated_estates(sh)
        lines.append(
            f"infiltration objective {objective_text(x, st['objective'], n)}   "
            f"Zoorgs infiltrated {len(st['zoorgs'])}   infiltrated estates {n}"
        )
    if r.expansion is not None and r.expansion.name == "halloween":
        x = r.expansion
        levels = x.state(sh)["levels"]
        text = "   ".join(
            f"{kind} levels " + " ".join(f"{x.needs[kind][lv]}:{st}" for lv, st in enumerate(levels[kind]))
            for kind in ("ghost", "candy")
        )
        lines.append(f"ghosts {x.count(sh, 'ghost')}   candies {x.count(sh, 'candy')}   {text}")
    if r.expansion is not None and r.expansion.name == "quack":
        lines.append(_quack_summary(r.expansion, sh))
    return lines


def _duckling_line(sh: PlayerSheet, s: int, lead: int) -> str:
    """Quack: the street's ducklings (at their boundary) and those between it and the street below
    (under the house of the column), or '' without any."""
    x = sh.rules.expansion
    if x is None or x.name != "quack":
        return ""
    width = lead + 5 * len(sh.streets[s]) + 2
    line = [" "] * width
    for d in x.ducklings:
        colour, (sa, ha), _, between = d
        if sa != s:
            continue
        mark = (
            ("Y" if colour == "yellow" else "K") if x.circled(sh, d) else ("y" if colour == "yellow" else "k")
        )
        # Each house takes 5 columns, its left boundary first: a street's duckling sits on the
        # boundary right of house a, one between streets under house a's number.
        line[lead + 5 * (ha + 1) if not between else lead + 5 * ha + 3] = mark
    return "".join(line).rstrip()


def _quack_summary(x, sh: PlayerSheet) -> str:
    """Quack: ducklings circled and connected per colour, and the scoring phases so far."""
    parts = []
    for colour in ("yellow", "black"):
        n = sum(1 for d in x.ducklings if d[0] == colour)
        got = sum(1 for d in x.ducklings if d[0] == colour and x.circled(sh, d))
        parts.append(f"{colour} circled {got}/{n}, connected {x.connected(sh, colour)}")
    g = x.game(sh)
    p = g["sheets"].index(sh) if "sheets" in g and sh in g["sheets"] else 0
    when = ("round's end", "AAA", "game's end")
    phases = []
    for k, name in enumerate(("yellow", "black", "both")):
        if k in g["done"]:
            rnd = next(e[0] for e in g["events"] if e[2] == 21 and e[3] == k)
            phases.append(f"{name} round {rnd} ({when[g['done'][k]]}) {g['paid'].get((p, k), 0)} pts")
        else:
            phases.append(f"{name} not yet")
    return "ducklings: " + "; ".join(parts) + "   phases: " + ", ".join(phases)


FAMILY_LETTER = {"fence": "F", "improvement": "I", "park": "K", "pool": "P", "temp": "T", "extension": "E"}
BONUS_TEXT = {"open": "open", "circled": "CIRCLED", "crossed": "crossed"}


def _american_sheet(sh: PlayerSheet) -> list[str]:
    """The American Dream: streets drawn under their columns, perfect houses in brackets, the
    families under each street, the street bonuses at their ends and the x2 bonuses below."""
    x = sh.rules.expansion
    st = x.state(sh)
    lead = " " * len("street 1  ")
    lines = [lead + "".join(f"{'c' + str(c + 1):^5}" for c in range(x.n_columns))]
    for s, row in enumerate(sh.streets):
        off = x.column[s][0]
        top = f"street {s + 1}  " + "     " * off
        fam = lead + "     " * off
        for h, house in enumerate(row):
            if house.number is None:
                top += "  .  "
            elif (s, h) in st["perfect"]:
                top += f"({show_number(house.number):>2}) "[:5].rjust(5)
            else:
                top += f" {show_number(house.number):>2}  "
            fam += f"  {FAMILY_LETTER[x.matches[s][h]]}  "
        pad = "     " * (x.n_columns - off - len(row))
        lines.append(f"{top}{pad}  10 pts: {BONUS_TEXT[st['streets'][s]]}")
        lines.append(fam.rstrip())
    marks = {"open": "x2?", "circled": "(x2)", "crossed": "--"}
    lines.append("x2 bonus  " + "".join(f"{marks[b]:^5}" for b in st["columns"]))
    lines.append(
        f"perfect houses {len(st['perfect'])}   complete columns "
        f"{sum(x.column_complete(sh, c) for c in range(x.n_columns))}   refusals {sh.refusals}"
    )
    return lines


def _saucer_line(sh: PlayerSheet, s: int, lead: int) -> str:
    """Roswell: the street's flying saucers under its houses ('V' circled), or '' without them."""
    x = sh.rules.expansion
    if x is None or x.name != "roswell":
        return ""
    zoorgs = x.state(sh)["zoorgs"]
    # Each house takes 5 columns (its left fence or a space, then 4): the mark sits under its number.
    marks = "".join(
        ("   V " if (s, h) in zoorgs else "   v ") if (s, h) in x.saucers else "     "
        for h in range(len(sh.streets[s]))
    )
    return (" " * lead + marks).rstrip()


def objective_text(x, k: int | None, infiltrated: int | None = None) -> str:
    """Roswell: an infiltration objective box in words; with the infiltrated estates counted,
    whether it is met ("the highest score ... for each infiltrated estate") or missed (2 each)."""
    if k is None:
        return "none"
    lo, hi, per = x.boxes[k]
    text = f"{k + 1} ({lo}{f'-{hi}' if hi else ' or more'} infiltrated estates, {per} points each)"
    if infiltrated is None:
        return text
    if lo <= infiltrated and (hi is None or infiltrated <= hi):
        return f"{text}: met, {infiltrated} x {per} = {infiltrated * per} points"
    return f"{text}: missed, {infiltrated} x {x.fail} = {infiltrated * x.fail} points"


def _barricade_line(sh: PlayerSheet, s: int, lead: int) -> str:
    """Zombie Outbreak: the street's barricades under its houses ('#' built, '=' printed), or ''."""
    x = sh.rules.expansion
    if x is None or x.name != "zombies":
        return ""
    marks = "".join(
        "   # " if house.barricade else "     " if (s, h) in x.open_houses else "   = "
        for h, house in enumerate(sh.streets[s])
    )
    return (" " * lead + marks).rstrip()


def _halloween_tag(x, sh: PlayerSheet, s: int, h: int) -> str:
    """Halloween: the mark of a house with a ghost and a candy ('g', 'c', ':'), else ''."""
    if x is None or x.name != "halloween" or (s, h) not in x.marked:
        return ""
    return {"ghost": "g", "candy": "c"}.get(x.state(sh)["marks"].get((s, h)), ":")


SCORE_ROWS = (
    ("plan A", "plan_a"),
    ("plan B", "plan_b"),
    ("plan C", "plan_c"),
    ("parks", "parks"),
    ("pools", "pools"),
    ("temps", "temps"),
    ("estates", "estates"),
    ("expansion", "expansion_points"),
    ("extensions", "extension_penalty"),
    ("refusals", "refusal_penalty"),
    ("roundabouts", "roundabout_penalty"),
    ("TOTAL", "total"),
)


def render_scores(rec: GameRecord, names: list[str]) -> list[str]:
    """A score card with one column per player (penalties shown negative)."""
    width = max(10, *(len(n) + 2 for n in names))
    lines = ["".ljust(12) + "".join(n.rjust(width) for n in names)]
    x = rec.rules.expansion
    has_x = x is not None and x.name != "none"
    american = has_x and x.name == "american-dream"
    for label, key in AMERICAN_SCORE_ROWS if american else SCORE_ROWS:
        if key == "expansion_points" and not has_x:
            continue
        sign = -1 if key.endswith("penalty") else 1
        lines.append(
            label.ljust(12) + "".join(str(sign * _score(x, c, key)).rjust(width) for c in rec.scores)
        )
    if not american:  # the American Dream's sheet has no estates
        est = [
            " ".join(f"{c[f'n_estate_{i}']}x{i}" for i in range(1, 7) if c[f"n_estate_{i}"])
            for c in rec.scores
        ]
        lines.append("estates".ljust(12) + "   ".join(e or "none" for e in est))
    if has_x:
        detail = {
            "easter": lambda c: f"{c['eggs']} eggs",
            "icecream": lambda c: f"{c['cones']} cones, bonus {c['delivery_bonus']}",
            "christmas": lambda c: f"{c['lights']} lit houses",
            "zombies": lambda c: (
                f"{c['invaded']} invaded, {c['barricades']} barricades, {c['ammunition_used']} ammunition used"
            ),
            "doomsday": lambda c: (
                f"{c['shelters']} shelters, capacity {c['shelter_capacity']}, street bonuses "
                f"{c['shelter_bonus']}, optimism {c['optimism_bonus']}"
            ),
            "roswell": lambda c: (
                f"objective {c['objective']}, {c['zoorgs']} Zoorgs, {c['infiltrated']} infiltrated"
            ),
            "halloween": lambda c: (
                f"{c['ghosts']} ghosts, {c['candies']} candies, levels {c['ghost_level']}/{c['candy_level']}"
            ),
            "quack": lambda c: (
                f"{c['ducklings']} ducklings, {c['ducklings_connected']} connected, "
                f"{c['phases_triggered']} phases triggered"
            ),
            "american-dream": lambda c: (
                f"{c['perfect']} perfect, {c['columns_complete']} columns, x2 {c['column_bonuses']}, "
                f"streets {c['street_bonuses']}"
            ),
        }[x.name]
        lines.append((x.name + " ").ljust(12) + "   ".join(detail(c) for c in rec.scores))
    lines.append("rank".ljust(12) + "".join(str(r).rjust(width) for r in rec.ranks))
    if rec.aaa is not None and american:
        lines += ["", *_american_aaa(x, rec.aaa, rec.rules.opponent)]
        if rec.rules.opponent.get("scores", True):
            lines.append("the player " + ("beats the AAA" if rec.ranks[0] == 1 else "loses to the AAA"))
    elif rec.aaa is not None:
        a = rec.aaa
        opp = rec.rules.opponent
        lines += [
            "",
            f"AAA (level {opp['level']}, {opp.get('name', '')}): {a['total']} points = plans {a['plans']} + parks "
            f"{a['parks']} + pools {a['pools']} + temps {a['temps']} + fences {a['fences']} + five best estates "
            f"{a['estates']}"
            + (f" + expansion {a['expansion']}" if a.get("expansion") else "")
            + f"; {a['n_estates']} estates from {a['cards']} cards",
        ]
        if opp.get("scores", True):
            lines.append("the player " + ("beats the AAA" if rec.ranks[0] == 1 else "loses to the AAA"))
    return lines


# The American Dream's score card: its sheet scores plans, columns and street bonuses, minus the
# refusals (none of the base game's parks, pools, temps, estates, bis or roundabouts exist on it).
AMERICAN_SCORE_ROWS = (
    ("plan A", "plan_a"),
    ("plan B", "plan_b"),
    ("plan C", "plan_c"),
    ("columns", "ad_columns"),
    ("streets", "ad_streets"),
    ("refusals", "refusal_penalty"),
    ("TOTAL", "total"),
)


def _score(x, c: dict[str, int], key: str) -> int:
    """A score card row; the American Dream's expansion points split into its street bonuses
    (10 each) and its columns (the rest)."""
    if key in ("ad_columns", "ad_streets"):
        streets = c["street_bonuses"] * x.street_pts
        return streets if key == "ad_streets" else c["expansion_points"] - streets
    return c[key]


def _american_aaa(x, a: dict[str, int], opp: dict) -> list[str]:
    """The AAA's score card on the American Dream's sheet: its plans, its points per card given
    by type for its level, and its points per street bonus the player crossed."""
    head = f"AAA (level {opp['level']}, {opp.get('name', '')}): {a['total']} points"
    if not opp.get("scores", True):
        return [f"{head} (the AAA scores at level 1 or higher)"]
    per = x.aaa_table[opp["level"]]
    n_streets = a["streets_crossed"]
    streets = n_streets * x.aaa_street
    lines = [f"{head} = plans {a['plans']} + cards {a['expansion'] - streets} + streets {streets}"]
    # Cards given by type, "count x points per card", broken between types only.
    line = f"  {a['cards']} cards given, by type:"
    for i, k in enumerate(x.actions):
        item = f" {k} {a['cards_' + k]} x {per[i]}" + ("," if i < len(x.actions) - 1 else "")
        if len(line) + len(item) > 80:
            lines.append(line)
            line = "   "
        line += item
    lines.append(line)
    lines.append(f"  streets: {n_streets} street bonuses the player crossed out x {x.aaa_street}")
    return lines


def render_plans(plan_ids: list[str], plans: Sequence[Plan]) -> list[str]:
    """The plans in play, one a line: requirement, scores, and a reconstructed card's provenance."""
    known = {p.id: p for p in plans}
    return [f"  {plan_detail(known[i]) if i in known else unknown_text(i)}" for i in plan_ids]


def with_requirement(line: str, plans: Sequence[Plan]) -> str:
    """A validation line naming 'plan <id>' gets that plan's requirement appended."""
    m = re.search(r"\bplan (\S+?)[:,)]?(?:\s|$)", line)
    known = {p.id: p for p in plans}
    if m is None or m.group(1) not in known:
        return line
    return f"{line}   [{m.group(1)}: {requirement(known[m.group(1)])}]"


def render_game(
    rec: GameRecord, names: list[str], plan_ids: list[str], plans: Sequence[Plan] = ()
) -> list[str]:
    """The whole game, round by round, then every final sheet and the score card; `plans` (the
    ruleset's cards) give each plan id its requirement."""
    out = [f"plans in play: {', '.join(plan_ids)}"]
    if plans:
        out += render_plans(plan_ids, plans)
    american = rec.rules.expansion is not None and rec.rules.expansion.name == "american-dream"
    out += AMERICAN_LEGEND if american else [LEGEND]
    if rec.rules.expansion is not None and rec.rules.expansion.name == "zombies":
        out.append(ZOMBIE_LEGEND)
    if rec.rules.expansion is not None and rec.rules.expansion.name == "roswell":
        out.append(ROSWELL_LEGEND)
    if rec.rules.expansion is not None and rec.rules.expansion.name == "halloween":
        out.append(HALLOWEEN_LEGEND)
    if rec.rules.expansion is not None and rec.rules.expansion.name == "quack":
        out.append(QUACK_LEGEND)
    if rec.rules.expansion is not None and rec.rules.expansion.name == "roswell":
        # "secretly circle it. Once each architect has made their choice, reveal your objective."
        x = rec.rules.expansion
        for name, sh in zip(names, rec.sheets, strict=True):
            out.append(
                f"set-up: {name} circles infiltration objective {objective_text(x, x.state(sh)['objective'])}"
            )
    out.append("")
    for rd in rec.rounds:
        cards = "   ".join(f"[{i + 1}] {n} {a}" for i, (n, a) in enumerate(rd.combos))
        out.append(f"round {rd.number:>2}  {cards}".rstrip())
        for i in rd.reshuffled:
            if rec.rules.deal == "stacks":
                out.append(f"          stack {i + 1} ran out: its discard pile was shuffled into a new stack")
            else:
                out.append("          the deck ran out: the discard pile was shuffled into a new deck")
        # Before the moves: what the cards drawn at the round's start set off (an AAA validation
        # card, the solo card, a Zombie card).
        for p, event in rd.events:
            out.append(f"          {names[p] + ': ' if p >= 0 else ''}{with_requirement(event, plans)}")
        # The round Zombie Outbreak's first stack runs out is not played: no moves.
        for name, move in zip(names, rd.moves, strict=bool(rd.moves)):
            out.append(f"          {name}: {move}")
        for v in rd.validations:
            out.append(f"          {with_requirement(v, plans)}")
    played = sum(rd.played for rd in rec.rounds)
    out.append(f"game over after round {played}: {', '.join(rec.end_reasons)}")
    for name, sh in zip(names, rec.sheets, strict=True):
        out += ["", f"== {name} =="]
        out += render_sheet(sh)
    out += ["", *render_scores(rec, names)]
    return out


LAYOUT_LEGEND = "legend: '.' house, 'o' house with a pool to build; houses and streets counted from 1"


COLUMNS_LEGEND = [
    "legend: each street under its columns c1, c2, ...; each house shows the action of its family",
    "  (F fence, I improvement, K park, P pool, T temp, E extension); streets counted from 1",
]


def render_layout(
    sheet: Sheet,
    offsets: Sequence[int] | None = None,
    families: Sequence[Sequence[str]] | None = None,
) -> list[str]:
    """An empty sheet as drawn in `play` (houses, pools, fences at the street ends), each street
    with its park track, then every score track the sheet file defines. With `offsets` (each
    street's first column, the American Dream's) and `families` (each house's family action), the
    streets are drawn under their columns with each house's family."""
    lead = " " * len("street 1  ")
    if offsets is not None and families is not None:
        n_columns = max(off + st.houses for off, st in zip(offsets, sheet.streets, strict=True))
        header = lead + " " + "".join(f"{'c' + str(c + 1):^5}" for c in range(n_columns))
        lines = [*COLUMNS_LEGEND, "", header.rstrip()]
        for s, st in enumerate(sheet.streets):
            cells = "".join(f"{FAMILY_LETTER[a]:^5}" for a in families[s])
            lines.append(
                (f"street {s + 1}  " + "     " * offsets[s] + f"|{cells}|").ljust(
                    len(lead) + 2 + 5 * n_columns
                )
                + f"   {st.houses} houses, columns {offsets[s] + 1}-{offsets[s] + st.houses}"
            )
    else:
        widest = max(st.houses for st in sheet.streets)
        lines = [LAYOUT_LEGEND, "", (lead + " " + "".join(f"{h + 1:>3} " for h in range(widest))).rstrip()]
        for s, st in enumerate(sheet.streets):
            cells = "".join("  .o" if h in st.pools else "  . " for h in range(st.houses))
            pools = ", ".join(str(h + 1) for h in st.pools) or "none"
            lines.append(
                f"street {s + 1}  |{cells}|".ljust(len(lead) + 2 + 4 * widest)
                + f"   {st.houses} houses; pools at houses {pools}"
            )
    lines += ["", "score tracks (points as boxes are crossed, from none crossed)"]
    for s, st in enumerate(sheet.streets):
        lines.append(f"  parks, street {s + 1}:".ljust(28) + _track(st.parks))
    lines.append("  pools:".ljust(28) + _track(sheet.pool_track))
    majority = ", ".join(f"{p} ({_nth(i + 1)})" for i, p in enumerate(sheet.temp_majority))
    lines.append("  temps:".ljust(28) + f"{sheet.temp_boxes} boxes; most temps scores {majority}")
    lines.append("  improvements (estate value by size; each improvement moves one step):")
    for size, values in enumerate(sheet.estate_values):
        lines.append(f"    estates of {size + 1}:".ljust(28) + _track(values))
    lines.append("  bis (extensions) penalty:".ljust(28) + _track(sheet.extension_track))
    lines.append(
        "  refusals penalty:".ljust(28)
        + _track(sheet.refusal_track)
        + f"   (the game ends at refusal {len(sheet.refusal_track) - 1})"
    )
    lines.append("  roundabouts penalty:".ljust(28) + _track(sheet.roundabout_track) + "   (Advanced mode)")
    return lines


def _track(values: Sequence[int]) -> str:
    return " ".join(str(v) for v in values)


def _nth(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")
