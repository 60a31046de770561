"""Take one of the documentation's pictures: a page (a report, a chart) in headless Chromium at
1280 px wide, cut to the rows that matter and stored with a 256-colour palette to keep the
repository light.

    python scripts/doc_shot.py runs/guide/first.html docs/images/report-top.png --top 0 --bottom 1000
    python scripts/doc_shot.py runs/guide/variant.html docs/images/custom.png --only custom --bottom 1400
    python scripts/doc_shot.py chart.png docs/images/chart.png --width 900   # an image: only shrunk

--only ID keeps one section of a report (its header, menu and other sections hidden) and trims the
empty page below it.

Needs `chromium` on PATH for HTML pages.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image, ImageChops


def screenshot(page: Path, width: int, height: int) -> Image.Image:
    """The page rendered at width x height CSS pixels, as an image."""
    with tempfile.TemporaryDirectory() as tmp:
        shot = Path(tmp) / "shot.png"
        subprocess.run(
            [
                "chromium",
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                f"--window-size={width},{height}",
                f"--screenshot={shot}",
                page.resolve().as_uri(),
            ],
            check=True,
            capture_output=True,
        )
        return Image.open(shot).copy()


def only_sections(page: Path, ids: list[str], tmp: Path) -> Path:
    """A copy of a report beside the original showing only the sections `ids`."""
    keep = "".join(f":not(#{i})" for i in ids)
    style = f"<style>body > header, body > nav, .notice, section{keep} {{display: none !important}}</style>"
    copy = tmp / page.name
    copy.write_text(
        page.read_text(encoding="utf-8").replace("</head>", style + "</head>", 1), encoding="utf-8"
    )
    return copy


def trim_below(img: Image.Image) -> Image.Image:
    """The image without the rows of background colour at its bottom (the page below the content)."""
    bg = Image.new(img.mode, img.size, img.getpixel((img.width - 1, img.height - 1)))
    box = ImageChops.difference(img, bg).getbbox()
    return img.crop((0, 0, img.width, min(img.height, box[3] + 16))) if box else img


def main(argv: list[str] | None = None) -> int:
    """Render or read the input, crop, shrink, palette and save; print the size written."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("page", type=Path, help="an .html page or an image")
    ap.add_argument("out", type=Path)
    ap.add_argument("--top", type=int, default=0, help="first row kept (CSS px)")
    ap.add_argument("--bottom", type=int, default=1000, help="row after the last kept (CSS px)")
    ap.add_argument("--right", type=int, default=1280, help="column after the last kept (CSS px)")
    ap.add_argument("--width", type=int, default=1280, help="output width (px); shrinks only")
    ap.add_argument("--only", action="append", default=[], help="keep only this section id; repeat")
    a = ap.parse_args(argv)
    if not a.page.exists():
        print(f"error: page: {a.page} does not exist", file=sys.stderr)
        return 2
    if a.page.suffix == ".html":
        with tempfile.TemporaryDirectory() as tmp:
            page = only_sections(a.page, a.only, Path(tmp)) if a.only else a.page
            img = screenshot(page, 1280, a.bottom).crop((0, a.top, a.right, a.bottom)).convert("RGB")
        if a.only:
            img = trim_below(img)
    else:
        img = Image.open(a.page).convert("RGB")
    if img.width > a.width:
        img = img.resize((a.width, round(img.height * a.width / img.width)), Image.Resampling.LANCZOS)
    img.quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(a.out, optimize=True)
    print(f"wrote {a.out} ({img.width}x{img.height}, {a.out.stat().st_size / 1024:.0f} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
