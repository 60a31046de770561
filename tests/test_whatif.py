"""A designer's what-if (issue 38): a copy of a built-in plan set with one card changed, swept
against the original, is named by its file's title, and the report's findings say what changed in
it and what that did, with intervals."""

from __future__ import annotations

import html
import re

from conftest import run_cli

from welcome_sim.datacopy import copy
from welcome_sim.reports.builder import build_report


def _text(path) -> str:
    page = re.sub(r"<svg.*?</svg>|<script.*?</script>|<style.*?</style>", "", path.read_text(), flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


def test_a_changed_plan_card_is_named_and_its_effect_said(tmp_path):
    mine = copy("collector_standard", str(tmp_path / "mine.toml")).path
    text = mine.read_text()
    at = text.index('id = "A-1"')
    first = text.index("first =", at)
    text = text[:first] + "first = 14" + text[text.index("\n", first) :]
    text = re.sub(r'^title = ".*"$', 'title = "Generous A-1"', text, count=1, flags=re.M)
    mine.write_text(text)
    out = tmp_path / "s"
    res = run_cli(
        "sweep", "--games", "600", "--seed", "2", "--plans-file", "collector_standard",
        "--plans-file", str(mine), "--out", str(out),
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    build_report([str(out)], tmp_path / "r.html")
    said = _text(tmp_path / "r.html").split(" Findings ", 2)[2]
    # The score effect is said either way: A-1 is in play in few of the 600 games, so a 6-point
    # richer first reward moves the mean score by about half a point, near the interval's edge.
    head = "Your file “Generous A-1” (1 change from the plan cards collector_standard: plan A-1 first: 8 -> 14): "
    assert said.startswith(head), said[:400]
    effect = said[len(head) :]
    assert re.match(
        r"(players score [\d.]+ \[[\d.]+, [\d.]+\] points (more|fewer) than with the plan cards collector_standard"
        r"|the score does not differ measurably from the plan cards collector_standard \([+-][\d.]+ \[[+-][\d.]+, [+-][\d.]+\]\))"
        r" \(paired on 600 games dealt the same seeds, r = ",
        effect,
    ), effect[:300]
    assert re.search(
        r"; A-1 in your file \(.*, 14/\d+\): validated [\d.]+% \[[\d.]+%, [\d.]+%\] against.*"
        r" with the built-in card, \+[\d.]+ points a player from it",
        said,
    )
    # The same effect is not said twice, and the variant goes by its title, not its hash.
    assert said.count("points more than with") + said.count("points fewer than with") <= 1
    assert not re.search(
        r"collector_standard\.[0-9a-f]{8}", said.split(" Numbers in brackets are 95% intervals")[0]
    )
