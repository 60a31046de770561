"""What each expansion adds to the text view of a replayed game (textview.py): the marks under
its streets, the tags of its houses, its summary lines, its set-up, or a whole sheet of its own.
An expansion's record names its class here (`text`, "module:Class"); textview.py names none."""

from __future__ import annotations

import functools
import importlib

from welcome_sim.referee import PlayerSheet
from welcome_sim.referee.replay import show_number


class SheetText:
    """The text view's hooks; each adds nothing unless an expansion's class says otherwise."""

    legend: list[str] | None = None  # lines replacing the base game's legend
    score_rows: tuple[tuple[str, str], ...] | None = None  # rows replacing the score card's
    estates = True  # the score card shows the estates line

    def sheet(self, sh: PlayerSheet) -> list[str] | None:
        """The whole sheet drawn its own way, or None for the base game's drawing."""
        return None

    def house_tag(self, sh: PlayerSheet, s: int, h: int) -> str:
        """A one-character mark drawn before house (s, h), or ''."""
        return ""

    def street_lines(self, sh: PlayerSheet, s: int, lead: int) -> list[str]:
        """Lines of marks under street s (its houses start at column `lead`)."""
        return []

    def summary(self, x, sh: PlayerSheet) -> list[str]:
        """Lines after the sheet's tracks."""
        return []

    def setup(self, x, names: list[str], sheets: list[PlayerSheet]) -> list[str]:
        """Lines before round 1 (what each player chose at set-up)."""
        return []

    def score(self, x, c: dict[str, int], key: str) -> int:
        """A score card row's value for one player."""
        return c[key]

    def aaa(self, x, a: dict[str, int], opp: dict) -> list[str] | None:
        """The AAA's score card drawn its own way, or None for the base game's."""
        return None


NO_TEXT = SheetText()


@functools.cache
def text_of(path: str) -> SheetText:
    """The text hooks a record names ("module:Class")."""
    module, cls = path.split(":")
    return getattr(importlib.import_module(module), cls)()


def _barricade_line(sh: PlayerSheet, s: int, lead: int) -> str:
    """Zombie Outbreak: the street's barricades under its houses ('#' built, '=' printed), or ''."""
    x = sh.rules.expansion
    marks = "".join(
        "   # " if house.barricade else "     " if (s, h) in x.open_houses else "   = "
        for h, house in enumerate(sh.streets[s])
    )
    return (" " * lead + marks).rstrip()


class Zombies(SheetText):
    """Zombie Outbreak: barricades under the streets, the hordes and ammunition."""

    def street_lines(self, sh: PlayerSheet, s: int, lead: int) -> list[str]:
        """The street's barricades."""
        line = _barricade_line(sh, s, lead)
        return [line] if line else []

    def summary(self, x, sh: PlayerSheet) -> list[str]:
        """The hordes walked, ammunition, barricades and houses invaded."""
        lines: list[str] = []
        st = x.state(sh)
        walked = "  ".join(f"street {s + 1} {left}/{right}" for s, (left, right) in enumerate(st["hordes"]))
        lines.append(
            f"hordes walked (left/right of {x.road}): {walked}   ammunition {x.ammunition(sh)} "
            f"(used {st['used']})   barricades {st['built']}   invaded {len(st['invaded'])}"
        )
        return lines


class Doomsday(SheetText):
    """Doomsday: the shelters built and their capacity per street, the AAA's."""

    def summary(self, x, sh: PlayerSheet) -> list[str]:
        """Shelters built and capacity per street (and the AAA's in its solo mode)."""
        lines: list[str] = []
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
        return lines


def _saucer_line(sh: PlayerSheet, s: int, lead: int) -> str:
    """Roswell: the street's flying saucers under its houses ('V' circled), or '' without them."""
    x = sh.rules.expansion
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


class Roswell(SheetText):
    """Roswell: flying saucers under the streets, the infiltration objective."""

    def street_lines(self, sh: PlayerSheet, s: int, lead: int) -> list[str]:
        """The street's flying saucers."""
        line = _saucer_line(sh, s, lead)
        return [line] if line else []

    def summary(self, x, sh: PlayerSheet) -> list[str]:
        """The objective, the Zoorgs infiltrated and the infiltrated estates."""
        lines: list[str] = []
        st = x.state(sh)
        n = x.infiltrated_estates(sh)
        lines.append(
            f"infiltration objective {objective_text(x, st['objective'], n)}   "
            f"Zoorgs infiltrated {len(st['zoorgs'])}   infiltrated estates {n}"
        )
        return lines

    def setup(self, x, names: list[str], sheets: list[PlayerSheet]) -> list[str]:
        """The objective each player circled."""
        # "secretly circle it. Once each architect has made their choice, reveal your objective."
        return [
            f"set-up: {name} circles infiltration objective {objective_text(x, x.state(sh)['objective'])}"
            for name, sh in zip(names, sheets, strict=True)
        ]


class Halloween(SheetText):
    """Halloween: the ghost-and-candy houses' marks, the levels claimed."""

    def house_tag(self, sh: PlayerSheet, s: int, h: int) -> str:
        """Halloween: the mark of a house with a ghost and a candy ('g', 'c', ':'), else ''."""
        x = sh.rules.expansion
        if (s, h) not in x.marked:
            return ""
        return {"ghost": "g", "candy": "c"}.get(x.state(sh)["marks"].get((s, h)), ":")

    def summary(self, x, sh: PlayerSheet) -> list[str]:
        """Ghosts and candies circled, the state of each level."""
        lines: list[str] = []
        levels = x.state(sh)["levels"]
        text = "   ".join(
            f"{kind} levels " + " ".join(f"{x.needs[kind][lv]}:{st}" for lv, st in enumerate(levels[kind]))
            for kind in ("ghost", "candy")
        )
        lines.append(f"ghosts {x.count(sh, 'ghost')}   candies {x.count(sh, 'candy')}   {text}")
        return lines


def _duckling_line(sh: PlayerSheet, s: int, lead: int) -> str:
    """Quack: the street's ducklings (at their boundary) and those between it and the street below
    (under the house of the column), or '' without any."""
    x = sh.rules.expansion
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


class Quack(SheetText):
    """Quack: the ducklings under the streets, the scoring phases."""

    def street_lines(self, sh: PlayerSheet, s: int, lead: int) -> list[str]:
        """The street's ducklings and those between it and the street below."""
        line = _duckling_line(sh, s, lead)
        return [line] if line else []

    def summary(self, x, sh: PlayerSheet) -> list[str]:
        """Ducklings circled and connected, the phases scored."""
        return [_quack_summary(x, sh)]


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


class AmericanDream(SheetText):
    """The American Dream: a sheet, a legend, a score card and an AAA card of its own."""

    legend = AMERICAN_LEGEND
    score_rows = AMERICAN_SCORE_ROWS
    estates = False

    def sheet(self, sh: PlayerSheet) -> list[str] | None:
        """Streets under their columns, families, bonuses."""
        return _american_sheet(sh)

    def score(self, x, c: dict[str, int], key: str) -> int:
        """Its expansion points split into street bonuses and columns."""
        return _score(x, c, key)

    def aaa(self, x, a: dict[str, int], opp: dict) -> list[str] | None:
        """The AAA's plans, cards by type and street bonuses."""
        return _american_aaa(x, a, opp)
