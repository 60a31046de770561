"""Profile the compiled kernel with Linux perf: name Numba's functions for perf, then play games.

Numba's machine code has no symbols perf can see. This script loads the kernel (from the cache),
reads the function symbols of `play_batch`'s cached object code (one ELF object, every callee
linked in), writes them to /tmp/perf-PID.map (perf's map for code it cannot name), prints
"ready PID" and plays GAMES games. Attach perf meanwhile:

    .venv/bin/python benchmarks/profile_kernel.py greedy 1 standard 60000 > /tmp/prof.txt &
    until grep -q ready /tmp/prof.txt; do sleep 1; done
    perf record -F 4000 -p "$(awk '/ready/ {print $2}' /tmp/prof.txt)" -o /tmp/perf.data -- sleep 10
    perf report -i /tmp/perf.data --no-children --sort sym

Run: python benchmarks/profile_kernel.py STRATEGY PLAYERS MODE GAMES [EDITION [EXPANSION]]
"""

from __future__ import annotations

import os
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from games_per_second import configuration, variant  # beside this script (what it times)

from welcome_sim.simcore.engine import kernel as K
from welcome_sim.simcore.engine.game import batch_variant, simulate
from welcome_sim.simcore.engine.variants import specialize


def _elf_objects(entry) -> list[bytes]:
    """The ELF objects of every cached play_batch entry in the folder this process loads from."""
    # The folder play_batch's own cache reads: a cache root can hold the same kernel compiled
    # under two locators, whose symbols have the same names at other offsets.
    folder = Path(entry._cache._cache_path)
    objects = []
    for entry in sorted(folder.rglob("*kernel.play_batch*.nbc"), key=os.path.getmtime, reverse=True):
        raw = entry.read_bytes()
        i = raw.find(b"\x7fELF")
        if i < 0:
            continue
        shoff = struct.unpack_from("<Q", raw, i + 0x28)[0]
        shentsize, shnum = struct.unpack_from("<HH", raw, i + 0x3A)
        objects.append(raw[i : i + shoff + shentsize * shnum])
    if not objects:
        raise SystemExit(f"no cached play_batch under {folder}: run the games once first")
    return objects


def _symbols(obj: bytes) -> list[tuple[int, int, str]]:
    """(offset, size, name) of the functions of an ELF object."""
    with tempfile.NamedTemporaryFile(suffix=".o", delete=False) as f:
        f.write(obj)
    listing = subprocess.run(["nm", "-S", "--defined-only", f.name], capture_output=True, text=True).stdout
    os.unlink(f.name)
    rows = []
    for line in listing.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in "tTwW":
            rows.append((int(parts[0], 16), int(parts[1], 16), parts[3]))
    return rows


def write_perf_map(entry) -> int:
    """Write /tmp/perf-PID.map for the loaded kernel (entry: the play_batch variant the games
    play on, simcore/variants.py); returns how many functions it names."""
    lib = next(iter(entry.overloads.values())).library
    # The entry this process loaded is the one whose play_batch lies where the library says; the
    # code is loaded as one section, so that one function gives the place of all of them.
    rows, base = [], None
    for obj in _elf_objects(entry):
        rows = _symbols(obj)
        for off, _, name in rows:
            if "play_batch" not in name:
                continue
            try:
                addr = lib.get_pointer_to_function(name)
            except Exception:  # not this overload's symbol
                continue
            if addr:
                base = addr - off
                break
        if base is not None:
            break
    if base is None:
        raise SystemExit("no cached play_batch entry matches the loaded kernel")
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as out:
        for off, size, name in sorted(rows):
            short = name.split("welcome_sim")[-1][:100] if "welcome_sim" in name else name[:100]
            out.write(f"{base + off:x} {size:x} {short}\n")
    return len(rows)


def main(argv: list[str]) -> None:
    """Load the kernel, write the perf map, say ready, play the games."""
    rs, seeds, players, strategy = configuration(argv)
    n = write_perf_map(
        specialize(K.play_batch, variant() or batch_variant(rs.expansion is None, [strategy], players))
    )
    print(f"ready {os.getpid()} ({n} functions named)", flush=True)
    t0 = time.perf_counter()
    simulate(rs, seeds, players, [strategy], variant=variant())
    print(f"{len(seeds) / (time.perf_counter() - t0):.0f} games/s", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
