"""The shipped reconstruction robustness measurement (issue 38, "Robust to reconstruction"): runs
`welcome-sim difficulty --robustness` and writes its verdicts, with the command, the date, the games
and the players, to welcome_sim/reports/measured/robustness.json, which the HTML report shows beside
its difficulty table as measured there.

    XDG_CACHE_HOME=.xdg-cache .venv/bin/python scripts/measure_robustness.py --games 300 --players 2,4
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from welcome_sim.analysis import difficulty as D
from welcome_sim.analysis import robustness as R
from welcome_sim.analysis.variants import LAYOUT_SEED, NOT_VARIED, PLAN_FACTORS
from welcome_sim.simcore.rules.expansions import load_expansion
from welcome_sim.simcore.rules.expansions.codes import EXPANSION_NAMES

APART = "not ranked: compared apart (its own points replace the base game's scoring)"


def main() -> None:
    """Measure, write the data file and print the verdict table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--players", default="2,4")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=-1)
    ap.add_argument("--out", default=str(R.MEASURED))
    ap.add_argument("--raw", help="Also keep the command's whole json output here.")
    args = ap.parse_args()
    exe = Path(sys.executable).parent / "welcome-sim"
    shown = [
        "welcome-sim",
        "difficulty",
        "--robustness",
        "--games",
        str(args.games),
        "--players",
        args.players,
    ]
    shown += ["--seed", str(args.seed)]
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "difficulty.json"
        cmd = [str(exe), *shown[1:], "--jobs", str(args.jobs), "--format", "json", "-o", str(out)]
        subprocess.run(cmd, check=True)
        rows = json.loads(out.read_text(encoding="utf-8"))
        if args.raw:
            Path(args.raw).write_text(out.read_text(encoding="utf-8"), encoding="utf-8")
    titles = {load_expansion(n).title: n for n in EXPANSION_NAMES}
    verdicts = []
    for r in rows:
        n = r["ranked_at_players"]
        title = next((t for t in titles if r["item"] == f"{t}, {n} players"), None)
        if title is None:
            continue
        name = titles[title]
        rec = {"expansion": name, "title": title, "players": n, "item": r["item"]}
        if r.get("robustness") is not None:
            rec.update(
                rank=r["rank"],
                rank_low=r["rank_low"],
                rank_high=r["rank_high"],
                variant_ranks=r["robustness_ranks"],
                varied=r["robustness_varied"],
                not_varied=NOT_VARIED[name],
                verdict=r["robustness"],
            )
        elif r.get("rank") is None:
            rec.update(verdict=APART, varied="", not_varied=NOT_VARIED[name])
        else:
            continue
        verdicts.append(rec)
    data = {
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d"),
        "command": " ".join(shown),
        "script": "scripts/measure_robustness.py "
        + f"--games {args.games} --players {args.players} --seed {args.seed}",
        "games": args.games,
        "players": [int(p) for p in args.players.split(",")],
        "reference": "casual",
        "expert": "expert",
        "index": list(D.COMPONENTS),
        "edition": "collector",
        "seed": args.seed,
        "varied": f"Plan C scores x{' and x'.join(str(f) for f in PLAN_FACTORS)}; the reconstructed layouts "
        f"mirrored and re-drawn at random (seed {LAYOUT_SEED})",
        "minutes": round((time.monotonic() - start) / 60, 1),
        "verdicts": sorted(verdicts, key=lambda v: (v["players"], v.get("rank") or 99)),
    }
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{data['command']} ({data['date']}, {data['minutes']} min) -> {args.out}")
    for v in data["verdicts"]:
        rank = f"{v['rank']} ({v['rank_low']}-{v['rank_high']})" if "rank" in v else "-"
        print(f"{v['players']}p  {v['title']:18s} {rank:9s} {v['verdict']}  [{v.get('variant_ranks', '')}]")


if __name__ == "__main__":
    main()
