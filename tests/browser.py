"""Headless Chromium for the report's tests: the page's measurements after its own script ran
(height at 1280 px, each section's place, a header click's sort), and screenshots of the top of
the page and of every section, kept in test-artifacts/report/ (or $WELCOME_SIM_ARTIFACTS)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
WIDTH = 1280
# Flags for a sandboxed machine with no network (see the environment notes): no GPU, no sandbox
# (root), no background connections.
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
]
# Runs after the page's own script: measures the page, then clicks the first numeric header of
# the first sortable table and reads that column back (as the user would see it sorted).
PROBE = """<script>
window.addEventListener("load", function () {
  var out = {height: document.documentElement.scrollHeight, width: document.documentElement.scrollWidth,
             sections: [], sorted: null, filtered: null};
  document.querySelectorAll("section").forEach(function (s) {
    out.sections.push({id: s.id, top: s.offsetTop, height: s.offsetHeight});
  });
  var table = document.querySelector("#scores table.sortable");
  if (table) {
    var heads = table.querySelectorAll("th"), col = -1;
    heads.forEach(function (h, i) { if (col < 0 && h.textContent.trim() === "mean") { col = i; } });
    if (col >= 0) {
      heads[col].click(); heads[col].click();  // ascending, then descending
      out.sorted = Array.prototype.map.call(table.tBodies[0].rows, function (r) { return r.cells[col].textContent; });
    }
  }
  var input = document.querySelector(".tbl .filter");
  if (input) {
    input.value = "A-1"; input.dispatchEvent(new Event("input"));
    var box = input.closest(".tbl");
    out.filtered = Array.prototype.filter.call(box.querySelectorAll("table.all-rows tbody tr"),
      function (r) { return r.style.display !== "none"; }).map(function (r) { return r.textContent; });
    out.fold_open = box.querySelector("details").open;
  }
  var pre = document.createElement("pre"); pre.id = "probe"; pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>"""


def _run(args: list[str], profile: Path) -> str:
    return subprocess.run(
        [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *args], capture_output=True, text=True, timeout=180
    ).stdout


def measure(report: Path, work: Path) -> dict:
    """The page as Chromium lays it out at 1280 px, after its script ran (see PROBE)."""
    probed = work / "probed.html"
    probed.write_text(
        report.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"), encoding="utf-8"
    )
    dom = _run([f"--window-size={WIDTH},900", "--dump-dom", probed.as_uri()], work / "profile")
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
    if not found:
        raise AssertionError("the probe did not run: " + dom[-500:])
    return json.loads(found.group(1).replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">"))


def artifacts() -> Path:
    """Where screenshots are kept for a reader of the test run."""
    root = Path(os.environ.get("WELCOME_SIM_ARTIFACTS", Path(__file__).parent.parent / "test-artifacts"))
    out = root / "report"
    out.mkdir(parents=True, exist_ok=True)
    return out


def screenshots(report: Path, layout: dict, work: Path, out: Path) -> list[Path]:
    """A screenshot of the whole page at 1280 px, cut into the top of the page and one image per
    section (Chromium's own limit of 16,384 px height caps the page shot)."""
    from PIL import Image

    height = min(int(layout["height"]), 16_384)
    page = out / "page.png"
    _run(
        [f"--window-size={WIDTH},{height}", f"--screenshot={page}", report.resolve().as_uri()],
        work / "profile",
    )
    img = Image.open(page).convert("RGB")
    shots = [out / "top.png"]
    img.crop((0, 0, WIDTH, min(900, img.height))).save(shots[0])
    for s in layout["sections"]:
        if s["top"] >= img.height:
            continue
        path = out / f"section-{s['id']}.png"
        img.crop((0, s["top"], WIDTH, min(img.height, s["top"] + s["height"]))).save(path)
        shots.append(path)
    return shots
