"""Each chart of a report as the report shows it: its SVG, a PNG screenshot at the rendered size
(headless Chromium, the card ~1,159 px wide) and a line of measures (rendered size, smallest text).

    .venv/bin/python scripts/chart_shots.py REPORT.html OUT_DIR [PREFIX]
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from welcome_sim.analysis.chartkit import rendered

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars"]
PAGE = """<!doctype html><html><body style="margin:0;width:{w}px">
<figure style="margin:0"><style>svg {{ max-width: 100%; height: auto; display: block }}</style>{svg}</figure>
</body></html>"""


def figures(html: str) -> list[tuple[str, str]]:
    """(name, svg text) of every chart of a report."""
    return re.findall(r'<figure data-chart="([^"]+)">\s*(<svg.*?</svg>)', html, re.S)


def shoot(charts: list[tuple[str, str]], out: Path, prefix: str) -> None:
    """Write each (name, svg) as OUT/PREFIX-name.svg and .png, and print its measures."""
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for name, svg in charts:
            r = rendered(svg)
            stem = out / f"{prefix}-{name}"
            stem.with_suffix(".svg").write_text(svg, encoding="utf-8")
            page = Path(tmp) / "page.html"
            page.write_text(PAGE.format(w=round(r.width_px), svg=svg), encoding="utf-8")
            size = f"--window-size={round(r.width_px)},{round(r.height_px) + 2}"
            args = [CHROMIUM, *FLAGS, f"--user-data-dir={tmp}/profile", size, f"--screenshot={stem}.png"]
            subprocess.run([*args, page.as_uri()], capture_output=True, timeout=120)
            print(
                f"{prefix:10} {name:20} {r.width_px:6.0f} x {r.height_px:5.0f} px  scale {r.scale:.2f}"
                f"  smallest text {r.smallest_pt:4.1f} pt"
            )


def main() -> None:
    report, out = Path(sys.argv[1]), Path(sys.argv[2])
    prefix = sys.argv[3] if len(sys.argv) > 3 else report.stem
    shoot(figures(report.read_text(encoding="utf-8")), out, prefix)


if __name__ == "__main__":
    main()
