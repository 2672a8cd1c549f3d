"""Take the README's screenshot of the calculator page: start the server (``create_app`` under
uvicorn, a throwaway SQLite store), open the page in Debian's Chromium, compute the odds of an
example battle and save the page as a PNG.

    python tools/screenshot.py [--out docs/screenshot.png] [--example FILE] [--width 1280]

The browser tests (``tests/browser/``) start the server and the browser with the same helpers.
Chromium is not downloaded: it is the machine's (``/usr/bin/chromium``; ``.ci/run`` installs it).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import yaml
from playwright.sync_api import Browser, Page, Playwright, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
#: Debian's Chromium (the browser tests never download one)
CHROMIUM = Path("/usr/bin/chromium")
#: what Chromium needs to run as root in a container, without reaching the network by itself
CHROMIUM_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)
#: the battle the README's screenshot shows
EXAMPLE = ROOT / "examples" / "space-dreadnoughts-vs-cruisers.yaml"
#: seconds the server may take to answer its first request
START_TIMEOUT = 60.0


class ChromiumMissing(RuntimeError):
    """The machine has no Chromium at ``CHROMIUM``."""


def chromium_missing_message() -> str:
    return (
        f"Chromium is not installed at {CHROMIUM}: the browser tests drive Debian's Chromium "
        "and never download one. `.ci/run` installs it (apt-get install -y chromium)."
    )


def launch(playwright: Playwright) -> Browser:
    """Debian's Chromium, headless (``ChromiumMissing`` when it is not installed)."""
    if not CHROMIUM.exists():
        raise ChromiumMissing(chromium_missing_message())
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=list(CHROMIUM_ARGS))


def free_port() -> int:
    """A TCP port on the loopback address that nothing listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def running_server(database: Path, command: str = "uvicorn") -> Iterator[str]:
    """The real server in a process of its own, its store SQLite in ``database``; yields its
    base URL (``http://127.0.0.1:PORT``) once it answers, and stops it after. ``command``:
    ``"uvicorn"`` (``spacecombat.web.create_app`` under uvicorn, as the tests run it) or
    ``"serve"`` (``spacecombat serve``, the command players run)."""
    port = free_port()
    log = database.with_suffix(".server.log")
    if command == "serve":
        argv = ["spacecombat", "serve", "--port", str(port), "--db", f"sqlite:///{database}"]
        env = dict(os.environ)
    else:
        argv = [
            "uvicorn",
            "--factory",
            "spacecombat.web:create_app",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--log-level",
            "warning",
        ]
        env = dict(os.environ, SPACECOMBAT_DB=f"sqlite:///{database}")
    with log.open("wb") as output:
        server = subprocess.Popen(
            [sys.executable, "-m", *argv],
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(base, server, log)
        yield base
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def _wait_until_up(base: str, server: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(
                f"the server stopped (status {server.returncode}):\n"
                + log.read_text(errors="replace")[-4000:]
            )
        try:
            with urllib.request.urlopen(f"{base}/api/v1/rulesets", timeout=5) as answer:
                if answer.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.2)
    raise RuntimeError(f"the server did not answer within {START_TIMEOUT:.0f} s")


def post(base: str, path: str, body: Mapping[str, Any]) -> dict[str, Any]:
    """POST JSON to the API; its JSON answer."""
    request = urllib.request.Request(
        f"{base}/api/v1{path}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=60) as answer:
        found: dict[str, Any] = json.load(answer)
        return found


def open_page(page: Page, url: str) -> None:
    """Open the calculator at ``url`` and wait until its form is built."""
    page.goto(url)
    page.wait_for_selector("#battle-form[data-ready='true']")


#: the odds shown, and those of the battle on the form (not marked out of date)
ODDS_SHOWN = "#results:not([hidden]):not([data-stale]) #odds-legend data"


def compute(page: Page) -> None:
    """Press "Compute odds" and wait for the odds of the battle on the form (the page marks
    the odds it shows out of date at once, and the form busy until the answer is drawn)."""
    page.click("#compute")
    page.wait_for_selector("#battle-form[aria-busy='false']", timeout=120_000)
    _no_error(page)
    page.wait_for_selector(ODDS_SHOWN, timeout=120_000)


def _no_error(page: Page) -> None:
    """Raise with what the page says when it shows an error instead of odds."""
    said: str = page.evaluate(
        """() => [...document.querySelectorAll('#form-error:not([hidden]), .field-error')]
            .map(n => n.textContent).join('; ')"""
    )
    if said:
        raise RuntimeError(f"the page says: {said}")


def settled(page: Page) -> None:
    """Wait until the odds shown are those of the battle on the form (the page recomputes
    them by itself after an edit: docs/rulings.md 25P-1)."""
    try:
        page.wait_for_selector(ODDS_SHOWN, timeout=120_000)
    except Exception:
        _no_error(page)
        status = page.inner_text("#status")
        raise RuntimeError(
            f"no odds of the battle on the form; the status says: {status}"
        ) from None
    page.wait_for_selector("#battle-form[aria-busy='false']", timeout=120_000)


def screenshot(
    browser: Browser,
    base: str,
    out: Path,
    scenario: Mapping[str, Any],
    width: int = 1280,
    height: int = 900,
    full_page: bool = True,
) -> None:
    """The page with ``scenario`` loaded (as a shared link would), its odds computed and one
    battle played, saved as a PNG in ``out``: the whole page, or (``full_page`` false) the
    window of ``width`` by ``height`` as a player sees it (a phone's summary bar at its
    bottom). A window narrower than 500 px is a phone's (touch, mobile layout)."""
    saved = post(base, "/scenarios", {"scenario": scenario})
    context = browser.new_context(
        viewport={"width": width, "height": height}, is_mobile=width < 500, has_touch=width < 500
    )
    try:
        page = context.new_page()
        open_page(page, f"{base}/?s={saved['id']}")
        compute(page)
        page.click("#play")
        page.wait_for_selector("#battle-log:not([hidden])")
        page.wait_for_selector("#battle-form[aria-busy='false']")
        out.parent.mkdir(parents=True, exist_ok=True)
        if not full_page:  # the top of the form, the odds beside it (or in the bar)
            page.evaluate("() => window.scrollTo(0, 0)")
        page.screenshot(path=str(out), full_page=full_page)
    finally:
        context.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshot.png")
    parser.add_argument("--example", type=Path, default=EXAMPLE)
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=900)
    parser.add_argument(
        "--window", action="store_true", help="only the window, as a player sees it"
    )
    args = parser.parse_args(argv)
    scenario = yaml.safe_load(args.example.read_text())
    with (
        tempfile.TemporaryDirectory() as folder,
        running_server(Path(folder) / "store.db") as base,
        sync_playwright() as playwright,
    ):
        browser = launch(playwright)
        try:
            screenshot(browser, base, args.out, scenario, args.width, args.height, not args.window)
        finally:
            browser.close()
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
