"""Reference-count calls (NRT_incref, NRT_decref) per function in the optimized LLVM of the whole
kernel's play_batch, the places of the atomic operations an array costs (docs/findings/kernel-phases.md).

Run with a fresh cache folder, so that the kernel compiles (Numba keeps no LLVM for cached code):
XDG_CACHE_HOME=$(mktemp -d) .venv/bin/python benchmarks/refcount_calls.py [STRATEGY [PLAYERS]]
"""

from __future__ import annotations

import collections
import re
import sys

from welcome_sim.simcore.engine import kernel
from welcome_sim.simcore.engine.game import game_seeds, simulate
from welcome_sim.simcore.rules.ruleset import load_ruleset


def counts(llvm: str) -> dict[str, collections.Counter]:
    """Per defined function: its incref and decref call sites."""
    found: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    current = None
    for line in llvm.splitlines():
        m = re.match(r"define .*?@(\"?[^\s(]+)\(", line)
        if m:
            current = m.group(1)
        elif current is not None and "call" in line:
            for kind in ("incref", "decref"):
                if f"@NRT_{kind}(" in line:
                    found[current][kind] += 1
    return found


def main(argv: list[str]) -> None:
    """Print the functions with the most reference-count call sites."""
    strategy = argv[0] if argv else "random"
    players = int(argv[1]) if len(argv) > 1 else 1
    simulate(load_ruleset("collector"), game_seeds(1, 5), players, [strategy], variant="full")
    llvm = kernel.play_batch.inspect_llvm(kernel.play_batch.signatures[0])
    if "define" not in llvm:
        raise SystemExit("the kernel was loaded from the cache: run with a fresh XDG_CACHE_HOME")
    rows = sorted(counts(llvm).items(), key=lambda kv: -sum(kv[1].values()))
    print("incref decref  function")
    for name, c in rows[:12]:
        print(f"{c['incref']:6d} {c['decref']:6d}  {name[:100]}")


if __name__ == "__main__":
    main(sys.argv[1:])
