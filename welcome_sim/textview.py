"""Plain-text rendering of replayed games: rounds, sheets and score cards."""

from __future__ import annotations

import re
from collections.abc import Sequence

from welcome_sim.plantext import plan_detail, requirement, unknown_text
from welcome_sim.referee import GameRecord, PlayerSheet
from welcome_sim.referee.replay import show_number
from welcome_sim.simcore.ground.datafiles import Plan, Sheet
from welcome_sim.simcore.rules.expansions.record import Record
from welcome_sim.simcore.rules.expansions.registry import BY_NAME
from welcome_sim.textmarks import FAMILY_LETTER, NO_TEXT, SheetText, text_of

LEGEND = (
    "legend: '|' fence, '.' empty house, '@' roundabout, 'o' pool not built, '*' pool built, "
    "'B' bis (extension); letters under a street mark houses used for that plan"
)


def _record(x) -> Record | None:
    """The record of the referee's expansion reading in play (None without an expansion)."""
    return None if x is None or x.name == "none" else BY_NAME[x.name]


def _text(x) -> SheetText:
    """What the expansion in play adds to the text view (its record's `text`; nothing without one)."""
    rec = _record(x)
    return text_of(rec.text) if rec is not None and rec.text else NO_TEXT


def render_sheet(sh: PlayerSheet) -> list[str]:
    """Streets with numbers, bis marks, fences and pools, then the crossed boxes of each track."""
    lines = []
    r = sh.rules
    own = _text(r.expansion).sheet(sh)
    if own is not None:  # a sheet drawn its own way (the American Dream's)
        return own
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
            tag = _text(r.expansion).house_tag(sh, s, h)
            if tag:
                cell = tag + cell[1:]
            top += cell
            mark = house.plan or house.house_plan
            under += (mark * 4) if mark else "    "
        top += "|"
        lead = len(f"street {s + 1}  ")
        park = r.park_tracks[s]
        top += f"   parks {sh.parks[s]}/{len(park) - 1} -> {park[sh.parks[s]]}"
        lines.append(top)
        # Lines of the expansion's marks under a street's houses (saucers, barricades, ducklings).
        lines += _text(r.expansion).street_lines(sh, s, lead)
        if under.strip():
            lines.append(under.rstrip())
    impr = " ".join(f"{i + 1}:{n}" for i, n in enumerate(sh.improvements))
    lines.append(
        f"pools {sh.pools}   temps {sh.temps}   extensions {sh.extensions}   refusals {sh.refusals}"
        + (f"   roundabouts {sh.roundabouts}" if sh.roundabouts else "")
        + f"   improvements by estate size {impr}"
    )
    return lines + _text(r.expansion).summary(r.expansion, sh)


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


def _columns(label: str, cells: list[str], names: list[str], width: int) -> list[str]:
    """A row of text cells right-aligned under the players' columns, as the numbers above them;
    where one is wider than its column, a line per player naming them instead."""
    head = (label + " ").ljust(12)  # a name longer than the column ('american-dream') keeps a space
    if all(len(c) < width for c in cells):
        return [head + "".join(c.rjust(width) for c in cells)]
    return [
        (head if k == 0 else " " * len(head)) + f"{n}: {c}"
        for k, (n, c) in enumerate(zip(names, cells, strict=True))
    ]


def render_scores(rec: GameRecord, names: list[str]) -> list[str]:
    """A score card with one column per player (penalties shown negative)."""
    width = max(10, *(len(n) + 2 for n in names))
    lines = ["".ljust(12) + "".join(n.rjust(width) for n in names)]
    x = rec.rules.expansion
    has_x = x is not None and x.name != "none"
    xt = _text(x)
    for label, key in xt.score_rows or SCORE_ROWS:
        if key == "expansion_points" and not has_x:
            continue
        sign = -1 if key.endswith("penalty") else 1
        lines.append(
            label.ljust(12) + "".join(str(sign * xt.score(x, c, key)).rjust(width) for c in rec.scores)
        )
    if xt.estates:  # the American Dream's sheet has none
        est = [
            " ".join(f"{c[f'n_estate_{i}']}x{i}" for i in range(1, 7) if c[f"n_estate_{i}"])
            for c in rec.scores
        ]
        lines += _columns("estates", [e or "none" for e in est], names, width)
    if has_x:
        detail = _record(x).score_detail  # a format over the score columns
        lines += _columns(x.name, [detail.format(**c) for c in rec.scores], names, width)
    lines.append("rank".ljust(12) + "".join(str(r).rjust(width) for r in rec.ranks))
    own_aaa = None if rec.aaa is None else xt.aaa(x, rec.aaa, rec.rules.opponent)
    if own_aaa is not None:  # the AAA's score card on a sheet of its own (the American Dream's)
        lines += ["", *own_aaa]
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
    xt = _text(rec.rules.expansion)
    out += xt.legend or [LEGEND]
    xr = _record(rec.rules.expansion)
    if xr is not None and xr.legend:
        out.append(xr.legend)  # the marks its sheet lines show
    out += xt.setup(rec.rules.expansion, names, rec.sheets)
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
