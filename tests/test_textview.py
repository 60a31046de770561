"""What `play` shows of a sheet and a game: the marks a player wrote stay on the final sheet (Zombie
Outbreak's invaded pools and barricaded houses), and the Roswell objective and the AAA's upside-down
cards are told where they happen. Each test quotes the rule whose mark it checks (Collector's
expansion rules, 2023)."""

from __future__ import annotations

import pytest

from welcome_sim.referee import PlayerSheet, load_rules, replay
from welcome_sim.simcore.engine.game import game_seeds, simulate
from welcome_sim.simcore.rules.ruleset import load_ruleset
from welcome_sim.textmarks import objective_text
from welcome_sim.textview import render_game, render_sheet
from welcome_sim.verify import split_log


def _street(lines: list[str], s: int) -> tuple[str, str]:
    """A street's line and the line under it."""
    i = next(i for i, line in enumerate(lines) if line.startswith(f"street {s + 1} "))
    return lines[i], lines[i + 1]


def _cell(line: str, h: int) -> str:
    """House h's 4 characters on a street line ("street N  " then 5 columns a house)."""
    start = len("street 1  ") + 5 * h + 1
    return line[start : start + 4]


def test_an_invaded_house_keeps_its_pool_and_a_barricaded_one_its_marks():
    """ "If the house is numbered, erase the number. Write a Z on the house and draw a fence on each
    side": the pool circled on it stays (its points stay), so the final sheet shows 'Z*', not an
    empty house. A barricade is built in front of a house: the house keeps its number, bis and pool
    marks, and the barricade is drawn under it ('#'; '=' a printed one)."""
    rules = load_rules("collector", expansion="zombies")
    sh = PlayerSheet(rules)
    x = rules.expansion
    x.state(sh)
    # Street 3, house 2: a pool house without a printed barricade (zombies.toml, classic.toml).
    assert (2, 1) in x.open_houses and 1 in rules.pool_houses[2]
    sh.streets[2][1].pool, sh.streets[2][1].invaded = True, True
    # Street 1, house 5: open; numbered 7 with a bis, then barricaded.
    assert (0, 4) in x.open_houses
    sh.streets[0][4].number, sh.streets[0][4].bis, sh.streets[0][4].barricade = 7, True, True
    # Street 3, house 11: open, a pool built under its number, then barricaded.
    assert (2, 10) in x.open_houses and 10 in rules.pool_houses[2]
    sh.streets[2][10].number, sh.streets[2][10].pool, sh.streets[2][10].barricade = 12, True, True
    lines = render_sheet(sh)
    top3, under3 = _street(lines, 2)
    assert _cell(top3, 1) == "  Z*"
    assert _cell(top3, 10) == " 12*"
    top1, under1 = _street(lines, 0)
    assert _cell(top1, 4) == "  7B"
    assert _cell(under1, 4) == "  # "
    assert _cell(under1, 0) == "  = "  # street 1, house 1 has a printed barricade
    assert _cell(under1, 1).strip() == ""  # ... house 2 none, and nobody built one
    assert _cell(under3, 10) == "  # "


def test_an_invaded_house_without_a_pool_is_a_plain_z():
    rules = load_rules("collector", expansion="zombies")
    sh = PlayerSheet(rules)
    rules.expansion.state(sh)
    sh.streets[0][1].invaded = True  # not a pool house
    assert _cell(_street(render_sheet(sh), 0)[0], 1) == "  Z "


@pytest.fixture(scope="module")
def roswell_aaa():
    """Roswell AAA games at level 1 (Sam), logged, and their replays."""
    rs = load_ruleset("collector", mode="solo", opponent="sam", expansion="roswell")
    res = simulate(rs, game_seeds(7, 6), 1, ["greedy"], log=True)
    rules = load_rules("collector", mode="solo", expansion="roswell", opponent="sam")
    games = split_log(res.log)
    return res, [replay(rules, games[g], 1) for g in range(len(res.seeds))]


def test_roswell_aaa_log_marks_the_upside_down_cards(roswell_aaa):
    """ "The first card you give to the AAA must be placed upside down on its stack ... each card
    given immediately after a Fence card must also be placed upside down"; "the AAA earns 5 points
    for each upside-down card": the log marks each such card where it is given, as many as the
    AAA's infiltration points count."""
    res, recs = roswell_aaa
    for g, rec in enumerate(recs):
        text = "\n".join(render_game(rec, ["P1"], ["?"] * 3))
        given = [m for m in text.splitlines() if "gives the AAA" in m]
        up = [m for m in given if "upside down" in m]
        assert given and "upside down" in given[0]  # the first card given
        assert (
            len(up) * rec.rules.expansion.per_card
            == rec.aaa["expansion"]
            == res.game_column("aaa_expansion")[g]
        )


def test_roswell_objective_at_set_up_and_met_or_missed_at_the_end(roswell_aaa):
    """ "choose one infiltration objective ... Once each architect has made their choice, reveal
    your objective": shown at set-up. "If you have the requested number of infiltrated estates, you
    earn the highest score indicated for each infiltrated estate ... If you have too few or too many
    infiltrated estates, you only earn 2 points per infiltrated housing estate": met or missed at
    the end, with the points, equal to the score card's."""
    _, recs = roswell_aaa
    for rec in recs:
        x = rec.rules.expansion
        sh = rec.sheets[0]
        k = x.state(sh)["objective"]
        text = "\n".join(render_game(rec, ["P1"], ["?"] * 3))
        assert f"set-up: P1 circles infiltration objective {k + 1} (" in text
        n = x.infiltrated_estates(sh)
        lo, hi, per = x.boxes[k]
        met = lo <= n and (hi is None or n <= hi)
        line = next(t for t in text.splitlines() if t.startswith("infiltration objective"))
        word, pts = ("met", n * per) if met else ("missed", n * x.fail)
        assert f": {word}, {n} x " in line and f"= {pts} points" in line
        assert pts == rec.scores[0]["expansion_points"]


def test_objective_text_both_ways():
    rules = load_rules("collector", expansion="roswell")
    x = rules.expansion
    lo, hi, per = x.boxes[0]
    assert objective_text(x, 0, lo).endswith(f"met, {lo} x {per} = {lo * per} points")
    assert objective_text(x, 0, lo - 1).endswith(f"missed, {lo - 1} x {x.fail} = {(lo - 1) * x.fail} points")
    assert objective_text(x, None) == "none"
