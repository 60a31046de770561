"""Write welcome_sim/simcore/engine/splitcompile.json: for each kernel variant, the callees of its
entry that a helper process compiles while the entry compiles (simcore/engine/splitcompile.py).

Each variant compiles cold, alone, in a process of its own with an empty cache folder. The
entry's direct callees are listed in the order its typing reaches them, with the seconds each took;
the helper takes the last of them, latest first, as long as their seconds add up to no more than
SHARE of those before them (the helper compiles parts they share with earlier callees again, so it
needs the head start). Run it after a change to the kernel's functions' arguments (the test
tests/test_splitcompile.py says when): .venv/bin/python scripts/compile_split.py
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time

# Per variant; chosen by alternating cold compiles (docs/findings/performance-history.md, "Issue 43,
# the helper process").
SHARE = {"full": 0.6, "base_greedy": 0.8}


def record_variant(variant: str) -> list[dict]:
    """In this process (an empty cache): compile the variant and list the entry's direct callees."""
    from numba.core import event

    from welcome_sim.simcore.engine.splitcompile import decode, encode, function_name
    from welcome_sim.simcore.engine.warmup import play_families

    stack: list[tuple] = []
    callees: list[dict] = []

    class Timeline(event.Listener):
        """Notes each direct callee of the entry (one level below it) as its compile ends."""

        def on_start(self, ev: event.Event) -> None:
            """Push the function and its argument types."""
            stack.append((ev.data["dispatcher"], ev.data["args"], time.perf_counter()))

        def on_end(self, ev: event.Event) -> None:
            """Pop it; a direct callee of ours that compiled goes on the list."""
            d, args, start = stack.pop()
            if ev.is_failed:  # a typing attempt Numba retried otherwise: not a callee
                return
            if len(stack) == 1 and getattr(d, "welcome_sim_decorator", None) is not None:
                sig = [encode(a) for a in args]
                if tuple(decode(a) for a in sig) != tuple(args):
                    raise ValueError(f"{function_name(d)}: {args} does not read back from its record")
                seconds = round(time.perf_counter() - start, 1)
                callees.append({"function": function_name(d), "signature": sig, "cold_seconds": seconds})

    event.register("numba:compile", Timeline())
    play_families(variant)
    return callees


def choose(callees: list[dict], share: float) -> list[dict]:
    """The helper's callees: the last ones, latest first, while their seconds add up to no more
    than `share` of the seconds of those before them."""
    seconds = [c["cold_seconds"] for c in callees]
    k = len(callees)
    while k > 1 and sum(seconds[k - 1 :]) <= share * sum(seconds[: k - 1]):
        k -= 1
    return list(reversed(callees[k:]))


def main(argv: list[str]) -> None:
    """Record every variant (each in a child process) and write the file."""
    if len(argv) == 2 and argv[0] == "--child":
        json.dump(record_variant(argv[1]), sys.stdout)
        return
    from welcome_sim.simcore.engine.splitcompile import RECORD, env_without_helper
    from welcome_sim.simcore.engine.variants import VARIANTS

    out: dict = {
        "about": "written by scripts/compile_split.py; read by welcome_sim/simcore/engine/splitcompile.py",
        "numba": __import__("numba").__version__,
        "share": SHARE,
        "variants": {},
    }
    for variant in VARIANTS:
        with tempfile.TemporaryDirectory() as cache:
            env = dict(env_without_helper(), XDG_CACHE_HOME=cache)
            env.pop("NUMBA_CACHE_DIR", None)
            done = subprocess.run(
                [sys.executable, __file__, "--child", variant], env=env, capture_output=True, text=True
            )
            if done.returncode != 0:
                sys.exit(f"compile_split: recording {variant} failed:\n{done.stderr}")
            callees = json.loads(done.stdout)
        chosen = choose(callees, SHARE[variant])
        out["variants"][variant] = chosen
        print(f"{variant}: {len(callees)} callees, {sum(c['cold_seconds'] for c in callees):.1f} s; helper:")
        for c in chosen:
            print(f"  {c['function']} {c['cold_seconds']} s")
    RECORD.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {RECORD}")


if __name__ == "__main__":
    main(sys.argv[1:])
