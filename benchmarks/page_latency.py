"""From the last keystroke to updated odds on the calculator page (issue 25): Playwright drives
Debian's Chromium against a real ``spacecombat serve`` on this machine (a throwaway SQLite
store), and a player edits a small TI4 space battle: a count selected and typed over.

Timed in the page (``performance.now()``): from the keydown of the edit's last key to the first
frame after the page shows the new odds (the result no longer marked out of date: app.js
``markCurrent``, after ``renderReport``). Each edit is a battle the store has not seen (no answer
from the store), so the server computes every one.

Two kinds of edit:

- ``one key``: a count retyped with one key (3 -> 4), after a pause: the page asks at once
  (docs/rulings.md 25P-1);
- ``two keys``: a count typed as two digits (10, 11, ...) 60 ms apart: the first key's request
  is abandoned and the odds are asked once the typing pauses (200 ms after the last key:
  app.js ``QUIET_MS``).

    python benchmarks/page_latency.py [--edits 24] [--out FILE.json]

Prints each kind's median and 90th percentile (ms) with the machine's load; the bar (issue 25)
is a median of at most 300 ms for one key.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools.screenshot import launch, open_page, running_server, settled  # noqa: E402

#: what the page records: the keydown of each key, and the frame after fresh odds are shown
PROBE = """() => {
  window.__keys = [];
  window.__shown = [];
  document.addEventListener("keydown", () => window.__keys.push(performance.now()), true);
  const results = document.getElementById("results");
  new MutationObserver(() => {
    if (!results.hidden && !("stale" in results.dataset)) {
      requestAnimationFrame(() => window.__shown.push(performance.now()));
    }
  }).observe(results, { attributes: true, attributeFilter: ["data-stale", "hidden"] });
}"""


def serve(database: Path) -> AbstractContextManager[str]:
    """``spacecombat serve`` (the command players run) on a free port; its base URL."""
    return running_server(database, "serve")


def edit(page: Page, selector: str, keys: str, gap_ms: float) -> float:
    """Type ``keys`` over the field's count; ms from the last keydown to fresh odds shown."""
    page.click(selector)
    page.keyboard.press("Control+A")
    page.evaluate("() => { window.__keys = []; window.__shown = []; }")
    for i, key in enumerate(keys):
        if i:
            page.wait_for_timeout(gap_ms)
        page.keyboard.press(key)
    settled(page)
    page.wait_for_function("() => window.__shown.length > 0")
    last_key: float = page.evaluate("() => window.__keys[window.__keys.length - 1]")
    shown: float = page.evaluate("() => window.__shown[window.__shown.length - 1]")
    return shown - last_key


def run(edits: int) -> dict[str, Any]:
    load_before = os.getloadavg()
    timings: dict[str, list[float]] = {"one key": [], "two keys": []}
    with (
        tempfile.TemporaryDirectory() as folder,
        serve(Path(folder) / "store.db") as base,
        sync_playwright() as playwright,
    ):
        browser = launch(playwright)
        try:
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            page = context.new_page()
            open_page(page, f"{base}/")
            settled(page)
            page.evaluate(PROBE)
            # one key: the attacker's dreadnoughts (1-5) by the defender's cruisers (1-9),
            # each pair once: every edit a battle not computed before
            pairs = [(d, c) for d in range(1, 6) for c in range(1, 10) if (d, c) != (2, 3)]
            dreadnought = 2
            for d, c in pairs[:edits]:
                if d != dreadnought:  # not timed: the cruisers' edit below is
                    page.fill("#attacker-units-dreadnought", str(d))
                    settled(page)
                    page.wait_for_timeout(300)  # and pauses before the timed edit
                    dreadnought = d
                timings["one key"].append(edit(page, "#defender-units-cruiser", str(c), 0))
                page.wait_for_timeout(300)  # the player pauses between edits
            # two keys: the attacker's fighters, 10 to 10 + edits - 1
            page.fill("#attacker-units-dreadnought", "3")
            settled(page)
            page.wait_for_timeout(300)
            for n in range(10, 10 + edits):
                timings["two keys"].append(edit(page, "#attacker-units-fighter", str(n), 60))
                page.wait_for_timeout(300)
            context.close()
        finally:
            browser.close()
    load_after = os.getloadavg()

    def summary(values: list[float]) -> dict[str, float]:
        ordered = sorted(values)
        p90 = ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]
        return {
            "edits": len(values),
            "median_ms": round(statistics.median(values), 1),
            "p90_ms": round(p90, 1),
            "max_ms": round(max(values), 1),
        }

    return {
        "machine": f"{platform.node()} {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}",
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in load_after],
        "results": {kind: summary(values) for kind, values in timings.items()},
        "raw_ms": {kind: [round(v, 1) for v in values] for kind, values in timings.items()},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--edits", type=int, default=24, help="edits of each kind (>= 20)")
    parser.add_argument("--out", type=Path, help="also write the figures as JSON here")
    args = parser.parse_args(argv)
    found = run(args.edits)
    for kind, figures in found["results"].items():
        print(
            f"{kind:9}: {figures['edits']} edits, median {figures['median_ms']} ms, "
            f"p90 {figures['p90_ms']} ms, max {figures['max_ms']} ms"
        )
    print(
        f"machine: {found['machine']}; load {found['load_average_before']} -> "
        f"{found['load_average_after']}; {found['date']}"
    )
    if args.out:
        args.out.write_text(json.dumps(found, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
