"""Each expansion of a sweep against its base game per player count, as a Markdown table: mean
score, the paired difference, the expansion's own points, the score net of them (paired),
refusals per player and rounds; 95% intervals over games (each game's mean over its seats).

Run: .venv/bin/python scripts/expansion_table.py SWEEP_DIR
(a sweep with --expansion none,X,... --players 1-4: cells differing only by the expansion play the
same seeds, so every difference is paired)."""

import sys

import numpy as np
import polars as pl

from welcome_sim.analysis.difficulty import expansion_rating

df = pl.read_parquet(sys.argv[1] + "/data/**/*.parquet")
n_players = df.group_by("cell").agg(pl.col("seat").max() + 1).rename({"seat": "players"})
df = df.join(n_players, on="cell")
g = (
    df.group_by("expansion", "players", "seed")
    .agg(
        pl.col("total").mean(),
        pl.col("expansion_points").mean(),
        pl.col("refusals").mean(),
        pl.col("rounds").first(),
    )
    .with_columns((pl.col("total") - pl.col("expansion_points")).alias("net"))
)


def ci(a):
    return 1.96 * a.std(ddof=1) / np.sqrt(len(a))


print(
    "| expansion | players | mean score, base → expansion | difference (paired) | own points | net of them (paired) | refusals per player | rounds |"
)
print("| --- | --- | --- | --- | --- | --- | --- | --- |")
for x in [e for e in g["expansion"].unique().sort().to_list() if e != "none"]:
    for p in sorted(g["players"].unique().to_list()):
        b = g.filter((pl.col("expansion") == "none") & (pl.col("players") == p)).sort("seed")
        e = g.filter((pl.col("expansion") == x) & (pl.col("players") == p)).sort("seed")
        assert b["seed"].to_list() == e["seed"].to_list()
        tb, te = b["total"].to_numpy(), e["total"].to_numpy()
        own = e["expansion_points"].to_numpy()
        d = te - tb
        net = (te - own) - tb
        rb, re_ = b["refusals"].to_numpy(), e["refusals"].to_numpy()
        nb, ne = b["rounds"].to_numpy().astype(float), e["rounds"].to_numpy().astype(float)
        stars = expansion_rating(x)[0]
        name = f"{x} {'★' * stars if stars else ''}" if p == 1 else ""
        print(
            f"| {name} | {p} | {tb.mean():.1f} ± {ci(tb):.1f} → {te.mean():.1f} ± {ci(te):.1f} | {d.mean():+.1f} ± {ci(d):.1f} | "
            f"{own.mean():.1f} ± {ci(own):.1f} | {net.mean():+.1f} ± {ci(net):.1f} | {rb.mean():.2f} → {re_.mean():.2f} ({(re_ - rb).mean():+.2f} ± {ci(re_ - rb):.2f}) | "
            f"{nb.mean():.1f} → {ne.mean():.1f} ({(ne - nb).mean():+.2f} ± {ci(ne - nb):.2f}) |"
        )
