"""Issue 42, `welcome-sim balance plans`: the measurement of a card's expected points, the targets,
the search on a synthetic set whose fair scores are known by construction, the written plan set
(loaded back) and one-line errors for bad input."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from welcome_sim.cli import app
from welcome_sim.simcore.engine.game import game_seeds
from welcome_sim.simcore.ground.planfile import load_plans
from welcome_sim.simcore.rules.ruleset import load_ruleset
from welcome_sim.studies import balance as B
from welcome_sim.studies.balance_file import balanced_text
from welcome_sim.studies.balance_search import Settings, balance_plans

# Two letter-A cards with the same requirement (one estate of size 1) but scores 10/5 and 4/2 (the same later/first): fair
# scores are equal by construction, between the two (the letter's points kept). One card each for
# B and C.
SYNTHETIC = """\
name = "twins"
title = "Twin plans"
positions = "from 1"
provenance = "reconstructed"
source = "made for the balance tests"
letters = ["A", "B", "C"]

[[plans]]
id = "A-1"
letter = "A"
estates = [1]
first = 10
later = 5

[[plans]]
id = "A-2"
letter = "A"
estates = [1]  # the same requirement as A-1
first = 4
later = 2

[[plans]]
id = "B-1"
letter = "B"
estates = [2, 2]
first = 8
later = 4

[[plans]]
id = "C-1"
letter = "C"
estates = [3, 3]
first = 9
later = 5
"""


@pytest.fixture
def twins(tmp_path: Path) -> Path:
    path = tmp_path / "twins.toml"
    path.write_text(SYNTHETIC)
    return path


def _run(*args: str):
    return CliRunner().invoke(app, list(args))


def test_patched_scores_play_as_the_file_that_holds_them(tmp_path: Path) -> None:
    rs = load_ruleset()
    scores = {"A-1": (11, 6), "B-3": (9, 9), "C-7": (4, 0)}
    src = Path(B.standard_set(rs).path)
    out = tmp_path / "p.toml"
    out.write_text(balanced_text(src.read_text(), scores, "t", "collector_standard", "why"))
    from_file = load_ruleset(plans=str(out))
    assert np.array_equal(B.with_scores(rs, scores).kernel, from_file.kernel)
    assert B.current_scores(from_file) == B.current_scores(rs) | scores


def test_card_points_are_its_rates_times_its_scores() -> None:
    # Collector's rules, "Validate a city plan": "score the highest value of the Plan card ...
    # Architects who validate the same plan in that same round can also score the highest value.
    # Then the City Plan card is flipped on its Validated side. Therefore, afterwards, architects who
    # validate this plan in a later round will only earn its lowest value."
    rs = load_ruleset()
    dealt = B.deal_plans(rs, 140, np.random.default_rng(3))
    res = B.play(rs, game_seeds(3, 140), dealt, 2, "expert")
    m = B.measure(res)
    assert set(m.stats) == {p.id for p in rs.plans.plans}
    assert {s.games for s in m.stats.values()} == {20}  # 140 games dealt evenly over 7 cards a letter
    for s in m.stats.values():
        assert s.points == pytest.approx(s.first_rate * s.first + s.later_rate * s.later)
    assert any(s.later_rate > 0 for s in m.stats.values())


def test_targets_equal_and_by_hardness_keep_the_letter_mean() -> None:
    def card(pid: str, rate: float, points: float) -> B.CardStats:
        return B.CardStats(pid, 8, 4, 100, rate, 0.0, points, 0.1)

    stats = {"A-1": card("A-1", 0.5, 4.0), "A-2": card("A-2", 0.25, 2.0), "A-3": card("A-3", 0.0, 0.0)}
    letters = {"A": ["A-1", "A-2", "A-3"]}
    eq = B.targets(stats, letters, "equal")
    assert "A-3" not in eq  # never validated: no score helps
    assert eq["A-1"] == eq["A-2"] == pytest.approx(3.0)  # the letter's 6 points shared
    hard = B.targets(stats, letters, "hardness")
    assert hard["A-2"] == pytest.approx(2 * hard["A-1"])  # validated half as often: worth twice as much
    assert sum(hard.values()) == pytest.approx(6.0)
    assert B.rate_guess(card("A-1", 0.5, 4.0), 5.0, 0.0, (8, 4), False, 60) == (10, 5)


def test_balance_finds_the_fair_scores_of_two_identical_cards(twins: Path) -> None:
    rs = load_ruleset(plans=str(twins))
    s = Settings("expert", 1, 200, 5, 200, 5, 0.5, "equal")
    prop = balance_plans(rs, "A", s)
    assert prop.letters == {"A": ["A-1", "A-2"]}
    assert prop.before.stats["A-1"].rate > 0.95  # worth 10, it is always validated
    assert prop.proposed["A-1"] == prop.proposed["A-2"], prop.proposed
    assert 4 < prop.proposed["A-1"][0] < 10
    assert prop.proposed["B-1"] == (8, 4)  # not asked for: untouched
    before = abs(prop.before.stats["A-1"].points - prop.before.stats["A-2"].points)
    after = abs(prop.after.stats["A-1"].points - prop.after.stats["A-2"].points)
    assert before > 5 and after < 0.5


def test_the_command_writes_a_plan_set_that_loads(twins: Path, tmp_path: Path) -> None:
    out = tmp_path / "fair.toml"
    res = _run(
        "balance", "plans", "--plans-file", str(twins), "--letter", "a", "-p", "1",
        "--games", "200", "--budget", "5", "--seed", "5", "-o", str(out), "--jobs", "1",
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    for word in ("1 estate of size 1", "10/5", "4/2", "points before", "points after", "spread before"):
        assert word in res.stdout, (word, res.stdout)
    assert "spread before" in res.stdout and "fresh" in res.stdout
    plans = {p.id: p for p in load_plans(str(out)).plans}
    assert (plans["A-1"].first, plans["A-1"].later) == (plans["A-2"].first, plans["A-2"].later)
    assert plans["A-1"].provenance == "reconstructed" and "balance plans" in plans["A-1"].note
    assert (plans["C-1"].first, plans["C-1"].later) == (9, 5)
    assert "# the same requirement as A-1" in out.read_text()  # the source's comments kept
    load_ruleset(plans=str(out))  # plays as --plans-file
    again = _run("balance", "plans", "--plans-file", str(twins), "-p", "1", "--games", "200", "-o", str(out))
    assert again.exit_code == 2 and "--out" in again.output and "--force" in again.output


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--letter", "Z"], "--letter: 'Z' is not a plan letter; valid: A, B, C, all"),
        (["--target", "fair"], "--target: 'fair' is not one of equal, hardness"),
        (["--games", "30"], "--games: 30 is out of range; use 70 to"),
        (["--check-games", "5"], "--check-games: 5 is out of range"),
        (["--budget", "-1"], "--budget: -1 is out of range"),
        (["--tolerance", "-1"], "--tolerance: -1 is out of range"),
        (["--level", "grandmaster"], "--level: unknown strategy 'grandmaster'"),
        (["--mode", "advanced"], "--mode: balance deals each game's standard plan cards itself"),
        (["--players", "9"], "--players: 9 is not a valid number of players"),
        (["--out", "fair.txt"], "--out: 'fair.txt' must end in .toml"),
        (["--expansion", "american-dream"], "--expansion: the American Dream plays only its own plan cards"),
        (["--expansion", "easter", "--letter", "C"], "--letter: the letter C cards in play (C-E1"),
    ],
)
def test_bad_input_is_a_one_line_error(args: list[str], said: str) -> None:
    res = _run("balance", "plans", *args)
    assert res.exit_code == 2, res.output
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and said in lines[0], res.output


# --- expansion values (balance expansion) -----------------------------------------------------------

AMMO = "expansion.zombies.start_ammunition"


def test_an_expansion_aimed_at_its_own_points_lost_keeps_its_value() -> None:
    # Known by construction: the target is what the Zombie Outbreak as it is (one ammunition at the
    # start) loses on the same deals, so that value meets it exactly and is today's.
    from welcome_sim.simcore.rules.overrides import parse_vary
    from welcome_sim.simcore.rules.rulespec import RulesetSpec
    from welcome_sim.studies.balance_values import balance_values

    spec = RulesetSpec(expansion="zombies")
    axes = [parse_vary(f"{AMMO}=0..3")]
    prop = balance_values(spec, axes, 1, "casual", 60, 60, 4, 3, 0.0, like="zombies")
    assert prop.today == ("1",) and prop.proposed == ("1",)
    assert set(prop.searched) == {("0",), ("1",), ("2",), ("3",)}  # the budget covers the grid
    assert prop.searched[("1",)] == pytest.approx(prop.target)
    assert prop.difference is not None and prop.difference.mean == 0.0
    assert prop.after.mean == pytest.approx(prop.before.mean)


def test_a_band_of_expansions_is_met_by_a_value_inside_it() -> None:
    # Known by construction: the band spans what the Zombie Outbreak as it is loses and what
    # Halloween loses on the same deals, so today's ammunition lies on its edge and is kept.
    from welcome_sim.simcore.rules.overrides import parse_vary
    from welcome_sim.simcore.rules.rulespec import RulesetSpec
    from welcome_sim.studies.balance_values import balance_values

    spec = RulesetSpec(expansion="zombies")
    axes = [parse_vary(f"{AMMO}=0..3")]
    prop = balance_values(spec, axes, 1, "casual", 60, 60, 4, 3, 0.0, like=("zombies", "halloween"))
    assert prop.marks is not None and set(prop.marks) == {"zombies", "halloween"}
    assert prop.band == (min(prop.marks.values()), max(prop.marks.values()))
    assert prop.band[0] < prop.band[1]
    assert prop.miss(prop.marks["zombies"]) == 0.0 and prop.miss(prop.band[1] + 1) == pytest.approx(1.0)
    assert prop.off(prop.band[1] + 1) == pytest.approx(1.0) and prop.off(prop.band[0] - 2) == pytest.approx(
        -2.0
    )
    assert prop.off(prop.marks["zombies"]) == 0.0
    assert prop.proposed == ("1",)  # inside the band already: no move
    assert prop.searched[("1",)] == pytest.approx(prop.marks["zombies"])


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--vary", f"{AMMO}=1,2"], "--points-lost, --like, --stars: give one target"),
        (["--vary", f"{AMMO}=1,2", "--stars", "4"], "--stars: 4 is out of range; use 1 to 3"),
        (["--vary", f"{AMMO}=1,2", "--stars", "2", "--like", "roswell"], "give one target"),
        (["--vary", f"{AMMO}=1,2", "--points-lost", "3", "--like", "roswell"], "give one target"),
        (
            ["--vary", "plans.A-1.scores=6/3", "--points-lost", "3"],
            "--vary: balance expansion moves values of one expansion",
        ),
        (["--vary", f"{AMMO}=1..", "--points-lost", "3"], f"--vary {AMMO}=1..: bad range"),
        (["--vary", f"{AMMO}=1,2", "--like", "nowhere", "--points-lost", "1"], "--like"),
        (["--vary", f"{AMMO}=1,99", "--points-lost", "3"], f"--vary {AMMO}=99"),
    ],
)
def test_balance_expansion_bad_input_is_a_one_line_error(args: list[str], said: str) -> None:
    res = _run("balance", "expansion", *args)
    assert res.exit_code == 2, res.output
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and said in lines[0], res.output


def test_today_value_is_read_from_a_designer_copy(tmp_path: Path) -> None:
    from welcome_sim.datacopy import copy
    from welcome_sim.simcore.rules.overrides import parse_vary
    from welcome_sim.simcore.rules.rulespec import RulesetSpec
    from welcome_sim.studies.balance_values import today_value

    path = copy("zombies", str(tmp_path / "mine.toml")).path
    path.write_text(path.read_text().replace("start_ammunition = 1", "start_ammunition = 2", 1))
    (o,) = parse_vary(f"{AMMO}=3")
    assert today_value(RulesetSpec(expansion="zombies"), o) == "1"
    assert today_value(RulesetSpec(expansion=str(path)), o) == "2"


@pytest.mark.slow
def test_balancing_the_collector_letter_a_narrows_its_spread_on_fresh_games() -> None:
    rs = load_ruleset()
    prop = balance_plans(rs, "A", Settings("expert", 2, 1400, 8, 1400, 2, 0.5, "equal", jobs=1))
    ids = prop.letters["A"]
    before = B.spread(prop.before.samples, ids, 0)
    after = B.spread(prop.after.samples, ids, 0)
    assert after[2] < before[1], (before, after)  # the intervals do not meet


# --- the settling step (balance_settle) --------------------------------------------------------------


def _card(pid: str, scores: tuple[int, int], rate: float) -> B.CardStats:
    return B.CardStats(pid, scores[0], scores[1], 100, rate, 0.0, rate * scores[0], 0.1)


def test_a_settling_step_moves_half_way_holds_in_the_band_and_never_returns() -> None:
    from welcome_sim.studies.balance_settle import step

    at = _card("A-1", (8, 4), 0.5)  # 4 points; at these rates 12/6 would give 6
    assert step(at, 6.0, 0.5, (8, 4), (8, 4), {}) == (10, 5)  # half the way, later in ratio
    assert step(at, 4.5, 0.5, (8, 4), (8, 4), {}) == (9, 4)  # at least one point (9 * 4 / 8 rounds to 4)
    assert step(at, 4.2, 0.5, (8, 4), (8, 4), {}) == (8, 4)  # within half the tolerance: held
    assert step(at, 2.0, 0.5, (8, 4), (8, 4), {}) == (6, 3)  # down as well as up
    # 9/4 played already, missing by more than today's scores: back on the grid, the best is held.
    assert step(at, 4.5, 0.5, (8, 4), (8, 4), {(9, 4): 0.7, (8, 4): 0.5}) == (8, 4)


def test_settling_meets_the_targets_when_a_card_moves_with_the_others() -> None:
    from welcome_sim.studies.balance_settle import settle

    # Known by construction: a card's rate rises with its own first score and falls as the other
    # cards' rise (as greedy weighs a game's plans against each other); today's scores are far off.
    today = {"A-1": (10, 5), "A-2": (4, 2), "B-1": (8, 4)}
    base = {"A-1": 0.55, "A-2": 0.35, "B-1": 0.4}
    goal = {"A-1": 3.5, "A-2": 3.5, "B-1": 4.0}

    def played(scores: B.Scores) -> dict[str, B.CardStats]:
        total = sum(f for f, _ in scores.values())
        rates = {c: base[c] * (1 + 0.04 * f) - 0.005 * (total - f) for c, (f, _) in scores.items()}
        return {c: _card(c, scores[c], rates[c]) for c in scores}

    best, rounds = settle(played, today, today, goal, 0.5, 12)
    got = played(best)
    assert all(abs(got[c].points - t) <= 0.5 for c, t in goal.items()), (best, rounds)
    assert rounds[0].worst > 2  # today's set misses by far
    assert len(rounds) < 12  # it stopped: every card in the band, none moving, or a cycle
    assert best["A-1"][0] < 10 and best["A-2"][0] > 4  # the rich card down, the poor one up


def test_settling_finds_the_fair_scores_of_two_identical_cards_alone(twins: Path) -> None:
    rs = load_ruleset(plans=str(twins))
    s = Settings("expert", 1, 280, 0, 280, 5, 0.5, "equal", rounds=8)  # no search: settling only
    prop = balance_plans(rs, "A", s)
    assert 1 <= len(prop.settled) <= 8
    assert prop.proposed["A-1"] == prop.proposed["A-2"], prop.proposed
    assert 4 < prop.proposed["A-1"][0] < 10 and prop.proposed["B-1"] == (8, 4)
    after = abs(prop.after.stats["A-1"].points - prop.after.stats["A-2"].points)
    assert after < 0.5


def test_balance_expansion_names_the_reconstructed_files_of_every_ruleset_it_plays() -> None:
    # The balanced expansion's files and the target expansion's (--like) are all played: the notice
    # names each reconstructed one, as every command that plays reconstructed data does.
    res = _run(
        "balance",
        "expansion",
        "--vary",
        f"{AMMO}=1,2",
        "--like",
        "roswell",
        "--games",
        "8",
        "--check-games",
        "8",
        "--budget",
        "2",
    )
    assert res.exit_code == 0, res.output
    said = [x for x in res.output.splitlines() if "RECONSTRUCTED" in x]
    assert len(said) == 1, res.output
    for path in ("data/expansions/zombies.toml", "data/expansions/roswell.toml", "data/decks/collector.toml"):
        assert path in said[0], said[0]


def test_a_proposal_fresh_deals_cannot_tell_from_today_is_said_to_be() -> None:
    """The search ranks candidates on its own deals; when the check on fresh deals puts proposed -
    today's interval around 0, the command says the two cannot be told apart, and not otherwise."""
    from welcome_sim.commands.balance import _untold
    from welcome_sim.studies.balance_values import Lost, ValueProposal

    def proposal(diff: float) -> ValueProposal:
        lost = Lost(18.9, 1.8, np.zeros(2))
        return ValueProposal(
            ("expansion.zombies.start_ammunition",), ("1",), ("0",), 18.0, 0.0, {("0",): 18.8, ("1",): 19.1},
            lost, lost, Lost(diff, 0.88, np.zeros(2)),
        )  # fmt: skip

    said = _untold(proposal(0.40), 400)
    assert said == (
        "on the 400 fresh deals the proposal (0) and today's values (1) cannot be told apart: proposed - "
        "today 0.40 [-0.48, 1.28] (paired) holds 0; more --games and --check-games would tell them apart"
    )
    assert _untold(proposal(-1.5), 400) is None  # told apart: nothing to say
