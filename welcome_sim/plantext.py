"""What a city plan asks for, in words: the one place every output (play, analyze, report) takes
a plan's requirement and provenance marks from.

The text is generated from the fields the kernel checks (not from the card's transcribed `text`),
so it says what the simulation plays. Kinds, estate features and expansion goals each have an entry
in a table below; an expansion goal or feature without one gets a generic text naming it.
"""

from __future__ import annotations

from collections.abc import Callable

from welcome_sim.simcore.ground.datafiles import Plan

UNKNOWN = "(unknown plan)"


def _plural(n: int, word: str, words: str | None = None) -> str:
    return f"{n} {word if n == 1 else (words or word + 's')}"


def _join(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _street(s: int, prep: str = "in") -> str:
    """A Plan holds its street from 0 (the loader subtracts 1 from the file's, which counts from 1,
    as `play` shows streets); -1: any one."""
    return f"{prep} one street" if s < 0 else f"{prep} street {s + 1}"


def estates_text(sizes: tuple[int, ...]) -> str:
    """(2, 2, 2, 2) -> '4 estates of size 2'; (1, 2, 6) -> 'estates of size 1, 2 and 6'."""
    counts: dict[int, int] = {}
    for s in sorted(sizes):
        counts[s] = counts.get(s, 0) + 1
    if len(counts) > 1 and all(n == 1 for n in counts.values()):
        return "estates of size " + _join([str(s) for s in counts])
    parts = [f"{n} of size {s}" for s, n in counts.items()]
    n0 = counts[next(iter(counts))]
    parts[0] = f"{n0} estate{'s' if n0 > 1 else ''} of size {next(iter(counts))}"
    return _join(parts)


# Estate features an expansion plan bounds: (one, several, text when the maximum is 0).
FEATURE_TEXT: dict[str, tuple[str, str, str]] = {
    "eggs": ("collected egg", "collected eggs", "without any collected egg"),
    "cones": ("circled cone", "circled cones", "without any circled cone"),
    "gaps": (
        "pair of neighbours not joined by a string of lights",
        "pairs of neighbours not joined by a string of lights",
        "with all its houses joined by one string of lights",
    ),
    "links": (
        "pair of neighbours joined by a string of lights",
        "pairs of neighbours joined by a string of lights",
        "with no two of its houses joined by a string of lights",
    ),
    "lit": (
        "house touched by a string of lights",
        "houses touched by a string of lights",
        "with no house touched by a string of lights (strings across its fences count)",
    ),
    "barricades": ("barricade built", "barricades built", "without any barricade built"),
    "shelters": ("fallout shelter", "fallout shelters", "without any fallout shelter"),
    "zoorgs": ("infiltrated Zoorg", "infiltrated Zoorgs", "without any infiltrated Zoorg"),
    "ducklings": (
        "circled duckling entirely inside",
        "circled ducklings entirely inside",
        "without any circled duckling inside",
    ),
}


def feature_text(feature: str, low: int, high: int) -> str:
    """A bound on an estate feature, e.g. 'with at least 3 collected eggs' (-1: no maximum)."""
    one, many, none = FEATURE_TEXT.get(feature, (f"'{feature}'", f"'{feature}'", f"with no '{feature}'"))
    if high == 0:
        return none
    if high < 0:
        return f"with at least {low} {one if low == 1 else many}"
    if low <= 0:
        return f"with at most {high} {one if high == 1 else many}"
    return f"with {low} to {high} {many}"


def _estates(p: Plan) -> str:
    text = estates_text(p.estates)
    where = []
    if p.street >= 0:
        where.append(_street(p.street))
    if p.same_street:
        where.append("all in one street")
    if p.ends:
        where.append("each at an end of a street")
    if p.roundabouts:
        where.append(f"with {_plural(p.roundabouts, 'roundabout')} in that street")
    each = []
    if p.pools:
        each.append(f"with at least {_plural(p.pools, 'pool')} built")
    if p.extensions:
        each.append(f"with at least {_plural(p.extensions, 'bis number')}")
    if p.feature:
        each.append(feature_text(p.feature, p.feature_min, p.feature_max))
    if each:
        where.append("each " + _join(each))
    return ", ".join([text, *where])


def _colours(p: Plan) -> str:
    return _join(list(p.colours)) if p.colours else "the chosen"


# Goals of kind "expansion" plans (welcome_sim/simcore/rules/expansions/codes.py GOALS).
GOAL_TEXT: dict[str, Callable[[Plan], str]] = {
    "all_eggs_of_colours": lambda p: f"every {_colours(p)} egg collected",
    "colours_each_street": lambda p: f"eggs of at least {p.count} colours collected in every street",
    "all_eggs_of_street": lambda p: f"every egg {_street(p.street, 'of')} collected",
    "cones_of_scoops": lambda p: f"at least {_plural(p.count, 'cone')} of {p.scoops} scoops circled",
    "all_cones_of_street": lambda p: f"every cone {_street(p.street, 'of')} circled",
    "street_string": lambda p: f"every house {_street(p.street, 'of')} joined by one string of lights",
    "street_string_parks": lambda p: (
        f"{_street(p.street)}: every house joined by one string of lights and every park box crossed"
    ),
    "barricades_built": lambda p: f"{_plural(p.count, 'barricade')} built",
    "street_barricades": lambda p: (
        f"every house {_street(p.street, 'of')} without a printed barricade barricaded"
        if p.street >= 0
        else "in one street, every house without a printed barricade barricaded"
    ),
    "ammunition_used": lambda p: f"{_plural(p.count, 'ammunition', 'ammunition')} used to hold the zombies",
    "houses_invaded": lambda p: f"at least {_plural(p.count, 'house')} invaded by zombies",
    "all_shelters_built": lambda p: "every fallout shelter built",
    "shelter_capacity": lambda p: f"a total capacity of {p.count} or more in the fallout shelters",
    "two_streets_capacity": lambda p: f"in 2 different streets, a capacity of {p.count} or more each",
    "street_zoorgs": lambda p: (
        f"every Zoorg {_street(p.street, 'of')} infiltrated"
        if p.street >= 0
        else "in one street, every Zoorg infiltrated (several may share an estate)"
    ),
    "columns_zoorgs": lambda p: (
        f"{_plural(p.count, 'column')} of houses with at least 2 Zoorgs infiltrated each"
    ),
    "candies_circled": lambda p: f"at least {_plural(p.count, 'candy', 'candies')} circled",
    "ghosts_and_candies": lambda p: (
        f"at least {_plural(p.count, 'ghost')} and {_plural(p.count, 'candy', 'candies')} circled"
    ),
    "marked_numbered": lambda p: "every house with a ghost and a candy numbered",
    "street_ghosts": lambda p: f"in {_plural(p.count, 'street')}, every ghost circled",
    "street_candies": lambda p: f"every candy {_street(p.street, 'of')} circled",
    "ducklings_circled": lambda p: (
        f"at least {_plural(p.count, 'yellow duckling')} and {_plural(p.count, 'black duckling')} circled"
    ),
    "street_ducklings": lambda p: f"in {_plural(p.count, 'street')}, every duckling of the street circled",
    "edge_ducklings": lambda p: (
        "the yellow ducklings of the bottom street and the black ducklings of the top street circled"
    ),
    "between_ducklings": lambda p: "every duckling between the streets circled",
    "colours_perfect": lambda p: f"every {_colours(p)} house perfect",
    "colours_numbered": lambda p: f"every {_colours(p)} house numbered, perfect or regular",
    "perfect_columns": lambda p: f"{_plural(p.count, 'complete column')} of perfect houses only",
    "complete_columns": lambda p: f"{_plural(p.count, 'complete column')}, perfect or regular houses",
    "adjacent_columns": lambda p: f"{_plural(p.count, 'complete column')} side by side",
    "perfect_streets": lambda p: f"{_plural(p.count, 'complete street')} of perfect houses only",
    "complete_streets": lambda p: f"{_plural(p.count, 'complete street')}, perfect or regular houses",
    "perfect_square": lambda p: (
        f"{p.count * p.count} perfect adjacent houses forming a {p.count}x{p.count} square"
    ),
}


def _own_goal_texts() -> None:
    """The goals of expansions of one's own (expansions/record.py EXTRA_ENV) speak as their records
    say (Record.goal_texts, a format over the plan's fields)."""
    from welcome_sim.simcore.rules.expansions.record import extra_modules, record_of

    for module in extra_modules():
        for goal, fmt in record_of(module).goal_texts:
            GOAL_TEXT[goal] = lambda p, f=fmt: f.format(
                count=p.count, street=p.street + 1 if p.street >= 0 else "any", scoops=p.scoops
            )


_own_goal_texts()


def _goal(p: Plan) -> str:
    if p.goal in GOAL_TEXT:
        return GOAL_TEXT[p.goal](p)
    args = []
    if p.street >= 0:
        args.append(f"street {p.street + 1}")
    if p.count:
        args.append(f"count {p.count}")
    if p.scoops:
        args.append(f"{p.scoops} scoops")
    if p.colours:
        args.append("colours " + ", ".join(p.colours))
    return f"expansion goal '{p.goal}'" + (f" ({', '.join(args)})" if args else "")


def _parks_pools_full(p: Plan) -> str:
    text = f"every park box and every pool {_street(p.street, 'of')}"
    if p.roundabouts:
        text += f", with {_plural(p.roundabouts, 'roundabout')}"
    return text


KIND_TEXT: dict[str, Callable[[Plan], str]] = {
    "estates": _estates,
    "parks": lambda p: f"at least {_plural(p.count, 'park box', 'park boxes')} crossed",
    "parks_each": lambda p: f"at least {_plural(p.count, 'park box', 'park boxes')} crossed in every street",
    "parks_full": lambda p: f"every park box crossed in {_plural(p.count, 'street')}",
    "pools_full": lambda p: f"every pool built in {_plural(p.count, 'street')}",
    "parks_pools_full": _parks_pools_full,
    "temps": lambda p: f"at least {_plural(p.count, 'temp worker')} hired",
    "improvements": lambda p: f"at least {_plural(p.count, 'improvement box', 'improvement boxes')} crossed",
    "improvement_columns": lambda p: f"every improvement box of {_plural(p.count, 'estate size')} crossed",
    "street_full": lambda p: f"every house {_street(p.street, 'of')} numbered",
    "street_ends": lambda p: "the first and the last house of every street numbered",
    "extensions_in_street": lambda p: f"{_plural(p.count, 'bis number')} in one street",
    "expansion": _goal,
}


def requirement(plan: Plan) -> str:
    """What the plan asks for, e.g. '4 estates of size 2' (a kind without an entry: its name)."""
    fn = KIND_TEXT.get(plan.kind)
    return fn(plan) if fn else f"plan kind '{plan.kind}'"


def plan_label(plan: Plan) -> str:
    """The id with its mark: 'A-7 (invented)' for a card made up to fill a set, else the id."""
    return f"{plan.id} (invented)" if plan.invented else plan.id


def plan_text(plan: Plan) -> str:
    """'A-2: 4 estates of size 2'; an invented card: 'A-7 (invented): ...'."""
    return f"{plan_label(plan)}: {requirement(plan)}"


def plan_detail(plan: Plan) -> str:
    """plan_text with scores and, for a reconstructed card, its provenance and note."""
    text = f"{plan_text(plan)} (first {plan.first}, later {plan.later})"
    if plan.provenance == "reconstructed":
        text += " [reconstructed" + (f": {plan.note}" if plan.note else "") + "]"
    return text


def unknown_text(plan_id: str) -> str:
    """An id that no data file of the configuration holds: shown as such, never guessed."""
    return f"{plan_id} {UNKNOWN}"
