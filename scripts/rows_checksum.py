"""Fingerprint the fixed game grid (tests/rowgrid.py): print how many cells differ from the
record, or with --write record the digests (only in a commit that is meant to change games), or
with --add record only the cells the record lacks (new cells, e.g. a new expansion's).

Run: .venv/bin/python scripts/rows_checksum.py [--write | --add]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from rowgrid import all_digests  # noqa: E402

RECORD = ROOT / "tests" / "data" / "rows_checksum.json"


def main() -> int:
    """Compare (or with --write, record) the grid's digests; exit 1 when any cell differs."""
    now = all_digests()
    if "--add" in sys.argv:
        old = json.loads(RECORD.read_text())
        new = {k: v for k, v in now.items() if k not in old}
        RECORD.write_text(json.dumps({**old, **new}, indent=1, sort_keys=True) + "\n")
        print(f"added {len(new)} cells to {RECORD}")
        return 0
    if "--write" in sys.argv:
        RECORD.write_text(json.dumps(now, indent=1, sort_keys=True) + "\n")
        print(f"recorded {len(now)} cells in {RECORD}")
        return 0
    old = json.loads(RECORD.read_text())
    bad = sorted(k for k in set(old) | set(now) if old.get(k) != now.get(k))
    for k in bad:
        print(f"differs: {k}")
    print(f"{len(now)} cells, {len(bad)} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
