"""Headless Chromium for the report's tests: the page's measurements after its own script ran
(height at 1280 px with its folds closed, each section's place, a header click's sort; then, with
every fold open, each element wider than its container, each box that scrolls sideways and each
table's width against its card), and screenshots of the top of
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
  // Elements wider than their container (the box their parent gives them) and boxes that scroll
  // sideways: neither may exist at 1280 px. Tables: the widest, and how many overflow their card.
  // Measured with every fold open: a table folded away must fit too when its reader opens it.
  document.querySelectorAll("details").forEach(function (d) { d.open = true; });
  out.overflow = []; out.scrollers = []; out.tables = [];
  document.querySelectorAll("main *, header *").forEach(function (el) {
    var p = el.parentElement, r = el.getBoundingClientRect();
    if (!p || r.width === 0 || getComputedStyle(el).position === "fixed") { return; }
    var pr = p.getBoundingClientRect(), ps = getComputedStyle(p);
    var inner = pr.right - parseFloat(ps.borderRightWidth) - parseFloat(ps.paddingRight);
    var what = el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + (el.className && typeof el.className === "string" ? "." + el.className.split(" ")[0] : "");
    var where = (el.closest("section") || {}).id || "";
    if (r.right > inner + 1.5 && p.scrollWidth > p.clientWidth - 0.5) {
      out.overflow.push({el: what, section: where, width: Math.round(r.width), room: Math.round(inner - r.left)});
    }
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== "visible") {
      out.scrollers.push({el: what, section: where, scroll: el.scrollWidth, client: el.clientWidth});
    }
  });
  document.querySelectorAll("main table").forEach(function (t) {
    var card = t.closest("section") || document.querySelector("main");
    var w = Math.round(t.getBoundingClientRect().width), room = card.clientWidth - 40;
    var h = t.closest(".tbl"), title = h && h.querySelector("h3") ? h.querySelector("h3").textContent : "";
    if (t.offsetParent !== null) { out.tables.push({title: title, width: w, room: room, section: card.id}); }
  });
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
