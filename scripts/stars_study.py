"""Compare difficulty measures with the publisher's stars, by the procedure declared in
docs/findings/difficulty-vs-stars.md: each measure's own rho, the equal-weight combinations of the
declared play measures, the one chosen with the stars in view, and the leave-one-out check.

Input: a `welcome-sim difficulty --format csv` file (columns `<measure>`, `ranked_at_players`,
`item`, `publisher_stars`), optionally with more measure columns joined in by item and players.

    scripts/stars_study.py d.csv [--measures net_score,skill,blind_cost,race_loss] [--icecream-two-stars]
"""

from __future__ import annotations

import argparse
import itertools
import re
import sys

import numpy as np
import polars as pl

# Harder positive: the sign that turns each column into "harder".
SIGN = {
    "net_score": -1.0,  # item − base of the net score: fewer points = harder
    "skill": 1.0,  # a wider expert − casual gap = harder
    "blind": 1.0,  # points lost when blind to what the item adds (the index's column)
    "blind_cost": 1.0,  # the first look's one-seat form
    "race_loss": 1.0,  # points lost to rivals in races (0 without a race)
    "refusals": 1.0,
    "plans": -1.0,
    "ended_by_refusals": 1.0,
    "score": -1.0,
    "rounds": 1.0,
    "rules_words": 1.0,
}
DECLARED = ("net_score", "skill", "blind_cost", "race_loss")  # the play measures a combination may use

# Words (runs of letters and digits) of each expansion's section in the Collector's Edition
# expansion rules (English, 2023), from its title to the next expansion's title, without its "AAA
# Solo Mode" part: the rules a multiplayer player learns. Counted 2026-11-27 (not a play measure).
RULES_WORDS = {
    "Easter Egg Hunt": 339,
    "Christmas Lights": 308,
    "Doomsday": 342,
    "Roswell": 451,
    "Quack": 426,
    "Ice Cream Truck": 535,
    "Halloween": 525,
    "Zombie Outbreak": 950,
    "American Dream": 584,
}


def spearman(x: np.ndarray, y: np.ndarray) -> float:
    """Spearman's rho with average ranks for ties."""
    rx = pl.Series(x).rank("average").to_numpy()
    ry = pl.Series(y).rank("average").to_numpy()
    return float(np.corrcoef(rx, ry)[0, 1])


def pairs(x: np.ndarray, stars: np.ndarray) -> tuple[int, int, int]:
    """Pairs of differently starred items: ordered as the stars, reversed, tied (point values)."""
    same = rev = tie = 0
    for i, j in itertools.combinations(range(len(x)), 2):
        if stars[i] == stars[j]:
            continue
        d = (x[i] - x[j]) * (stars[i] - stars[j])
        same += int(d > 0)
        rev += int(d < 0)
        tie += int(d == 0)
    return same, rev, tie


SCALE = ["z"]  # "z": standardised across the items; "points": as measured (every play measure is in points)


def zscores(frame: pl.DataFrame, measures: list[str]) -> dict[str, np.ndarray]:
    """Each measure signed (harder positive), standardised across the frame's items (scale z) or in
    its points (scale points: the index's own form, an item's value not depending on the others)."""
    out = {}
    for m in measures:
        v = SIGN[m] * frame[m].to_numpy().astype(float)
        if SCALE[0] == "points":
            out[m] = v
            continue
        sd = v.std()
        out[m] = (v - v.mean()) / sd if sd > 0 else np.zeros_like(v)
    return out


def subsets(measures: list[str]) -> list[tuple[str, ...]]:
    """Every non-empty subset, smallest first (so a tie keeps the simpler combination)."""
    return [s for k in range(1, len(measures) + 1) for s in itertools.combinations(measures, k)]


def rhos_of(frames: list[pl.DataFrame], subset: tuple[str, ...]) -> list[float]:
    """The equal-weight combination's rho at each player count."""
    return [spearman(combined(f, subset), f["stars"].to_numpy()) for f in frames]


def choose(frames: list[pl.DataFrame], measures: list[str]) -> tuple[tuple[str, ...], float]:
    """The subset whose equal-weight mean has the highest mean rho over the frames (player counts)."""
    best: tuple[tuple[str, ...], float] = ((), -2.0)
    for subset in subsets(measures):
        r = float(np.mean(rhos_of(frames, subset)))
        if r > best[1] + 1e-12:
            best = (subset, r)
    return best


def predict(values: np.ndarray, stars: np.ndarray, i: int) -> int:
    """The star level whose other members' median value is nearest item i's value."""
    others = np.arange(len(values)) != i
    medians = {s: np.median(values[others & (stars == s)]) for s in np.unique(stars[others])}
    return min(medians, key=lambda s: abs(medians[s] - values[i]))


def combined(frame: pl.DataFrame, subset: tuple[str, ...]) -> np.ndarray:
    z = zscores(frame, list(subset))
    return np.mean([z[m] for m in subset], axis=0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv", nargs="+", help="difficulty csv files, joined by ranked_at_players and item")
    ap.add_argument("--measures", default=",".join(DECLARED[:2]), help="declared play measures present")
    ap.add_argument("--scale", choices=("z", "points"), default="z", help="z-scores (declared) or points")
    ap.add_argument("--icecream-two-stars", action="store_true", help="read Ice Cream Truck as ★★")
    args = ap.parse_args()
    SCALE[0] = args.scale
    frame = None
    for path in args.csv:
        f = pl.read_csv(path)
        keep = [c for c in f.columns if c in SIGN or c in ("ranked_at_players", "item", "publisher_stars")]
        f = f.select(keep)
        frame = f if frame is None else frame.join(f, on=["ranked_at_players", "item"], suffix="_dup")
    assert frame is not None
    frame = frame.filter(pl.col("publisher_stars").is_not_null() & pl.col("net_score").is_not_null())
    frame = frame.with_columns(
        pl.col("item").map_elements(lambda s: re.sub(r",.*", "", s), return_dtype=pl.String).alias("name")
    )
    frame = frame.with_columns(
        pl.col("name").replace_strict(RULES_WORDS, return_dtype=pl.Float64).alias("rules_words"),
        pl.col("publisher_stars").alias("stars"),
    )
    if args.icecream_two_stars:
        frame = frame.with_columns(
            pl.when(pl.col("name") == "Ice Cream Truck").then(2).otherwise(pl.col("stars")).alias("stars")
        )
    measures = [m for m in args.measures.split(",") if m]
    for m in measures:
        if m not in frame.columns:
            sys.exit(f"--measures: column {m!r} is not in the csv (columns: {', '.join(frame.columns)})")
    shown = [m for m in SIGN if m in frame.columns]
    counts = sorted(frame["ranked_at_players"].unique().to_list())
    frames = [frame.filter(pl.col("ranked_at_players") == n).sort("name") for n in counts]
    print(f"items: {', '.join(frames[0]['name'])}  (stars {frames[0]['stars'].to_list()})\n")
    print("| measure | " + " | ".join(f"rho at {n}p | pairs same/rev/tie" for n in counts) + " |")
    print("|---|" + "---|---|" * len(counts))
    for m in shown:
        cells = []
        for f in frames:
            v = SIGN[m] * f[m].to_numpy().astype(float)
            s = f["stars"].to_numpy()
            cells += [f"{spearman(v, s):+.2f}", "/".join(map(str, pairs(v, s)))]
        print(f"| {m} | " + " | ".join(cells) + " |")
    print(
        f"\n| combination (equal weights, scale {args.scale}) | "
        + " | ".join(f"rho at {n}p" for n in counts)
        + " |"
    )
    print("|---|" + "---|" * len(counts))
    for sub in subsets(measures):
        print(f"| {' + '.join(sub)} | " + " | ".join(f"{r:+.2f}" for r in rhos_of(frames, sub)) + " |")
    subset, r = choose(frames, measures)
    print(f"\nchosen with the stars in view: {' + '.join(subset)} (mean rho {r:+.2f})")
    for n, f in zip(counts, frames, strict=True):
        v, s = combined(f, subset), f["stars"].to_numpy()
        right = sum(predict(v, s, i) == s[i] for i in range(len(s)))
        print(
            f"  {n}p: rho {spearman(v, s):+.2f}, pairs same/rev/tie {pairs(v, s)}, placed right {right}/{len(s)}"
        )
    print("\nleave-one-out (subset chosen on the 7 others):")
    for n_i, f in zip(counts, frames, strict=True):
        right, rows = 0, []
        for i in range(f.height):
            rest = [g.filter(pl.col("name") != f["name"][i]) for g in frames]
            sub, _ = choose(rest, measures)
            v, s = combined(f, sub), f["stars"].to_numpy()
            p = predict(v, s, i)
            right += p == s[i]
            rows.append(f"{f['name'][i]} ★{s[i]}→★{p} ({'+'.join(sub)})")
        print(f"  {n_i}p: {right}/{f.height} placed right: " + "; ".join(rows))


if __name__ == "__main__":
    main()
