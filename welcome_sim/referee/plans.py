"""The referee's reading of every city plan, written from the rulebooks' plan texts.

A plan is checked against what the log says it used: the estates (estate plans), the houses
(first-edition plans on houses), or nothing (plans on tracks). Houses used once are marked with
the plan's letter and never count again (core rules: "A complete housing estate used to validate
a City Plan cannot be used to validate another one"; first edition: "Lorsqu'un lotissement ou
une maison a été utilisé(e) pour un Plan, cela ne peut plus être pris en compte").
"""

from __future__ import annotations

from collections import Counter

from welcome_sim.referee.sheet import PlayerSheet


class PlanError(Exception):
    """What a plan validation gets wrong."""


def _roundabouts(sh: PlayerSheet, s: int) -> int:
    return sum(h.roundabout for h in sh.streets[s])


def _parks_full(sh: PlayerSheet, s: int) -> bool:
    return sh.parks[s] >= len(sh.rules.park_tracks[s]) - 1


def _pools_full(sh: PlayerSheet, s: int) -> bool:
    pools = sh.rules.pool_houses[s]
    return bool(pools) and all(sh.streets[s][h].pool for h in pools)


def check_plan(sh: PlayerSheet, plan: dict, items: list[tuple[int, int, int]], houses: bool) -> None:
    """Raise PlanError unless `plan` is met using exactly `items` ((street, first, last) estates,
    or house runs when `houses`); the caller then marks them used."""
    kind = plan["kind"]
    n_streets = len(sh.streets)
    if kind == "estates":
        if houses:
            raise PlanError("an estate plan uses estates, not single houses")
        _check_estates(sh, plan, items)
        return
    if kind in ("street_full", "street_ends", "extensions_in_street"):
        if not houses and items:
            raise PlanError(f"a {kind} plan uses houses")
        cells = [(s, h) for s, a, b in items for h in range(a, b + 1)]
        for s, h in cells:
            if not (0 <= s < n_streets and 0 <= h < len(sh.streets[s])):
                raise PlanError(f"no house {h + 1} in street {s + 1}")
            if sh.streets[s][h].used:
                raise PlanError(f"street {s + 1} house {h + 1} was already used for a plan")
        if kind == "street_full":
            s = plan["street"]
            want = {(s, h) for h in range(len(sh.streets[s]))}
            # A Z is no number (Zombie Outbreak): a street with one is not full.
            if any(h.number is None and not h.roundabout for h in sh.streets[s]):
                raise PlanError(f"street {s + 1} is not full")
            if set(cells) != want:
                raise PlanError(f"a full street {s + 1} uses its houses, the log lists {sorted(cells)}")
        elif kind == "street_ends":
            want = {(s, h) for s in range(n_streets) for h in (0, len(sh.streets[s]) - 1)}
            if set(cells) != want or any(sh.streets[s][h].number is None for s, h in want):
                raise PlanError("the first and last houses of every street must be numbered")
        else:
            streets = {s for s, _ in cells}
            if len(streets) != 1 or len(cells) != plan["count"]:
                raise PlanError(f"needs {plan['count']} bis numbers in one street, got {sorted(cells)}")
            if not all(sh.streets[s][h].bis for s, h in cells):
                raise PlanError("a listed house is not a bis number")
        return
    if items:
        raise PlanError(f"a {kind} plan uses no estate or house")
    count = plan.get("count", 0)
    if kind == "parks":
        ok = sum(sh.parks) >= count
    elif kind == "parks_each":
        ok = all(n >= count for n in sh.parks)
    elif kind == "parks_full":
        ok = sum(_parks_full(sh, s) for s in range(n_streets)) >= count
    elif kind == "pools_full":
        ok = sum(_pools_full(sh, s) for s in range(n_streets)) >= count
    elif kind == "parks_pools_full":
        streets = [plan["street"]] if "street" in plan else range(n_streets)
        ok = any(
            _parks_full(sh, s) and _pools_full(sh, s) and _roundabouts(sh, s) >= plan.get("roundabouts", 0)
            for s in streets
        )
    elif kind == "temps":
        ok = sh.temps >= count
    elif kind == "improvements":
        ok = sum(sh.improvements) >= count
    elif kind == "improvement_columns":
        ok = sum(sh.improvements[i] >= len(sh.rules.estate_values[i]) - 1 for i in range(6)) >= count
    elif kind == "expansion":
        ok = sh.rules.expansion.goal(sh, plan)
    else:
        raise PlanError(f"unknown plan kind {kind}")
    if not ok:
        raise PlanError(f"the sheet does not meet plan {plan['id']} ({plan.get('text', kind)})")


def _check_estates(sh: PlayerSheet, plan: dict, items: list[tuple[int, int, int]]) -> None:
    sizes = []
    for s, a, b in items:
        if (
            not 0 <= s < len(sh.streets)
            or not 0 <= a <= b < len(sh.streets[s])
            or sh.estate_of(s, a) != (a, b)
        ):
            raise PlanError(f"street {s + 1} houses {a + 1}-{b + 1} is not an estate")
        row = sh.streets[s]
        if any(row[h].number is None for h in range(a, b + 1)):
            raise PlanError(f"estate in street {s + 1} houses {a + 1}-{b + 1} is not complete")
        if any(row[h].used for h in range(a, b + 1)):
            raise PlanError(f"estate in street {s + 1} houses {a + 1}-{b + 1} was already used for a plan")
        pools = sum(row[h].pool for h in range(a, b + 1))
        bis = sum(row[h].bis for h in range(a, b + 1))
        if pools < plan.get("pools", 0):
            raise PlanError(f"estate {s + 1}:{a + 1}-{b + 1} has {pools} pools, needs {plan['pools']}")
        if bis < plan.get("extensions", 0):
            raise PlanError(f"estate {s + 1}:{a + 1}-{b + 1} has {bis} bis, needs {plan['extensions']}")
        if plan.get("ends") and a != 0 and b != len(row) - 1:
            raise PlanError(f"estate {s + 1}:{a + 1}-{b + 1} is not at an end of its street")
        if "feature" in plan:
            m = sh.rules.expansion.feature(sh, s, a, b, plan["feature"])
            lo, hi = plan.get("feature_min", 0), plan.get("feature_max", -1)
            if m < lo or (hi >= 0 and m > hi):
                raise PlanError(f"estate {s + 1}:{a + 1}-{b + 1} has {plan['feature']} {m}, needs {lo}..{hi}")
        sizes.append(b - a + 1)
    if Counter(sizes) != Counter(plan["sizes"]):
        raise PlanError(f"plan {plan['id']} needs estates {plan['sizes']}, got {sorted(sizes)}")
    streets = {s for s, _, _ in items}
    need_rb = plan.get("roundabouts", 0)
    if "street" in plan and streets != {plan["street"]}:
        raise PlanError(f"plan {plan['id']} needs its estates in street {plan['street'] + 1}")
    if plan.get("same_street") and len(streets) != 1:
        raise PlanError(f"plan {plan['id']} needs its estates in one street")
    if need_rb:
        where = streets if (plan.get("same_street") or "street" in plan) else range(len(sh.streets))
        if sum(_roundabouts(sh, s) for s in where) < need_rb:
            raise PlanError(f"plan {plan['id']} needs {need_rb} roundabouts in that street")
