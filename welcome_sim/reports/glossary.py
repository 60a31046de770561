"""The glossary at the end of the report: every term its tables, notes and findings use, in plain
words. A term is listed when the page uses it (its header or one of its spellings); a column header
with no entry here is a gap the tests catch (tests/test_report_page.py)."""

from __future__ import annotations

import re
from collections.abc import Iterable

# The expansions' own counters (analysis/expansion_tables.py), defined together.
COUNTERS = (
    "invaded",
    "ammunition used",
    "barricades",
    "first stack share",
    "shelters",
    "shelter capacity",
    "shelter bonus",
    "optimism bonus",
    "zoorgs",
    "infiltrated",
    "objective",
    "ghosts",
    "candies",
    "ghost level",
    "candy level",
    "ducklings",
    "ducklings connected",
    "phases triggered",
    "phases in play",
    "perfect",
    "columns complete",
    "column bonuses",
    "street bonuses",
)
PLAIN = ("", "value")  # the header of a transposed table's names and its values
# term -> (definition, other spellings that mean it on the page)
TERMS: dict[str, tuple[str, tuple[str, ...]]] = {
    "95% interval": (
        "The range [low, high] under or beside a number: the true value (with endless games) lies in it 19 "
        "times out of 20. Rounded outward, so the number always lies inside it.",
        ("95% ci", "[", "interval"),
    ),
    "paired": (
        "An interval from games dealt the same cards on both sides (the same seed): the deal's luck cancels, "
        "so it is narrower. Used only where it is much narrower than treating the sides as unrelated.",
        ("paired",),
    ),
    "configuration": (
        "One combination of settings (sheet, expansion, 9¾ cards, mode, players, AAA level) played in many "
        "games. A setting that is the same in every row is in the header, not in the tables.",
        ("configuration", "configurations"),
    ),
    "games": ("Games played (a game with 3 players counts once).", ("games",)),
    "player-games": (
        "One player's result in one game: a 3-player game gives 3.",
        ("player-games", "player games"),
    ),
    "mean": ("The average.", ("mean", "mean score", "mean a", "mean b", "mean points", "mean refusals")),
    "sd": ("Standard deviation: how far a typical score lies from the mean.", ("sd", "sds")),
    "q05 … q95": (
        "Quantiles: q05 is the score 5% of players stay below, q25 a quarter, median half, q75 three "
        "quarters, q95 all but 5%.",
        ("q05", "q25", "median", "q75", "q95"),
    ),
    "min, max": ("The smallest and largest value in any game.", ("min", "max")),
    "a, b": (
        "The two sides of an effect: a is the reference (the base game's value where the runs hold it), "
        "b the other value.",
        ("a", "b", "games a", "games b"),
    ),
    "compared, metric": (
        "In a table of effects: the setting switched (compared) and what is measured (metric): final score, "
        "the expansion's own points, permit refusals per player or rounds per game.",
        ("compared", "metric"),
    ),
    "difference b − a": (
        "Mean score with b minus mean score with a: positive means b scores more.",
        ("difference",),
    ),
    "validated": (
        "The share of players holding a plan who completed it before the game ended.",
        ("validated", "plans validated", "all three validated"),
    ),
    "all three validated": (
        "The share of players who completed all three plans they were dealt.",
        ("all three",),
    ),
    "varied value (--vary)": (
        "One value of a data file a sweep changed (sweep --vary PATH=V1,V2): each value a cell played on "
        "the same seeds. Its table gives per value the score SD (spread), refusals per player, the Δ score "
        "vs reference (mean score minus the reference value's: the file's own value where played; Δ net of "
        "own points the same without an expansion's own points) and, for a plan card, how often it was "
        "validated (card validated) and its points per player where in play (card's points).",
        (
            "score sd",
            "δ score vs reference",
            "δ net of own points",
            "refusals per player",
            "card validated",
            "card's points",
            "reference",
        ),
    ),
    "scored first value": (
        "The share of players holding the plan who completed it before any rival did, and so scored its "
        "higher value; 'of validations': the same among the players who completed it.",
        ("scored first value", "first value"),
    ),
    "median round validated": (
        "The round by which half of the players who completed the plan had done so.",
        ("median round",),
    ),
    "provenance": (
        "Where a card's text comes from: published (the printed card), reconstructed (consistent with the "
        "rules but not checked against the print) or invented (made up to complete a set).",
        ("provenance", "reconstructed", "invented", "published"),
    ),
    "reconstructed data": (
        "Data files whose figures are consistent with every rule the rulebooks state but were not checked "
        "against the printed cards or sheets. A row marked R rests on more of them than every row does.",
        ("reconstructed", "rmark"),
    ),
    "combination": ("The Plan A, B and C cards a player was dealt together.", ("combination", "pairs")),
    "score components": (
        "Where the points come from: each plan, parks, pools, temp agencies, estates, expansion points; "
        "penalties (extension, permit refusals, roundabouts) as positive numbers taken off the total.",
        (
            "plan a",
            "parks",
            "pools",
            "temps",
            "estates",
            "extension penalty",
            "refusal penalty",
            "roundabout penalty",
            "expansion points",
            "total",
        ),
    ),
    "permit refusal": (
        "A turn on which a player cannot write any number and crosses a refusal box; the third ends the game.",
        ("refusal", "refusals", "ended by refusals", "games ended by refusals", "any refusal", "end reason"),
    ),
    "rounds": (
        "Turns of the game (each reveals new cards); a game ends by plans, a full sheet or refusals.",
        ("rounds", "round"),
    ),
    "AAA": (
        "The solo mode's automated opponent: its level (0-5) and Opponent card set its strength; a win is a "
        "higher score, or an equal score with more complete estates.",
        ("aaa", "win rate", "margin", "player mean"),
    ),
    "rank": (
        "Order of difficulty, 1 = hardest; the range under it holds every rank the item could have given "
        "its interval (items whose intervals overlap may swap places).",
        ("rank",),
    ),
    "stars": ("The publisher's difficulty rating of an expansion.", ("stars",)),
    "net points": (
        "How many points the player scores more (+) or fewer (−) than in the base game on the same deals, "
        "not counting the expansion's own points.",
        ("net points", "net of"),
    ),
    "index (SDs)": (
        "The difficulty index: net points and, when measured, the skill gap and blind cost, averaged, in "
        "base-game standard deviations of the score. Positive is harder.",
        ("index",),
    ),
    "skill gap": ("How many more points an expert player scores than a casual one.", ("skill gap", "skill")),
    "blind cost": ("What a player who ignores an expansion's own rules loses.", ("blind",)),
    "deals": (
        "Games dealt the same cards with and without the item: the pairs the difficulty compares.",
        ("deals",),
    ),
    "reconstruction (measured)": (
        "Whether an expansion's difficulty holds when its reconstructed figures are varied within what the "
        "rules allow (robust), measured once and shipped with welcome-sim.",
        ("reconstruction (measured)", "robust"),
    ),
    "Spearman's rho": (
        "How well the difficulty order matches the publisher's stars: +1 the same order, 0 unrelated, −1 reversed.",
        ("spearman",),
    ),
    "9¾ cards": ("The Collector's edition's extra construction cards (number 9¾).", ("9¾",)),
    "plan": (
        "A Plan card by its name: its letter (A, B or C) and number, e.g. B-4.",
        ("plan", "plan b", "plan c"),
    ),
    "requirement": (
        "What the plan card asks for, in words (estates of given sizes, and so on).",
        ("requirement",),
    ),
    "item": (
        "What the difficulty ranking compares with its base game: an expansion, a mode, the 9¾ cards.",
        ("item",),
    ),
    "data file": (
        "The Configuration section's list of the files a run read: kind (sheet, deck, plans, expansion ...), "
        "provenance, and sha256, a fingerprint that changes with any change to the file.",
        ("data file", "kind", "sha256"),
    ),
    "expansion counters": (
        "An expansion's own tallies, as means per player-game (Zombie Outbreak: invaded, ammunition used, "
        "barricades; Doomsday: shelters and their bonuses; Roswell: Zoorgs, infiltrated estates, the objective; "
        "Halloween: ghosts, candies and their levels; Quack: ducklings, phases; American Dream: perfect houses, "
        "columns and bonuses). Each table's note says what they count.",
        COUNTERS,
    ),
    "score with own points": (
        "The score difference against the base game counting the expansion's own points (net points leaves "
        "them out).",
        ("score with own points",),
    ),
    "AAA card": (
        "The solo mode's Opponent card; its level and the AAA's plans, estates and cards.",
        ("aaa card", "aaa cards", "aaa estates", "aaa plans", "aaa mean", "aaa level"),
    ),
    "share": ("A part of all games or players, in percent.", ("share", "chosen share", "first stack share")),
}


def _text_has(text: str, spelling: str) -> bool:
    if not spelling[:1].isalnum():
        return spelling in text
    return re.search(rf"(?<![\w-]){re.escape(spelling)}(?![\w-])", text) is not None


def entries(headers: Iterable[str], text: str) -> list[tuple[str, str]]:
    """(term, definition) for every term the page uses: its table headers and its text."""
    heads = {h.strip().lower() for h in headers}
    low = text.lower()
    out = []
    for term, (definition, spellings) in TERMS.items():
        names = (term.lower(), *spellings)
        if any(n in heads for n in names) or any(_text_has(low, n) for n in names if len(n) > 2):
            out.append((term, definition))
    return sorted(out, key=lambda e: e[0].lower())


def covers(header: str) -> bool:
    """Whether a column header has its entry (as a term or one of its spellings)."""
    h = header.strip().lower()
    if h in PLAIN:
        return True
    return any(
        h == term.lower() or h in spellings or h.startswith(tuple(s for s in spellings if len(s) > 3))
        for term, (_, spellings) in TERMS.items()
    )
