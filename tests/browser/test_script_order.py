"""The page's scripts in either order (the CI failure of stop 35: ``#swap-sides`` never
appeared). The deferred scripts run in document order, but while Chromium waits for a late
one it may serve app.js's catalogue request: the form is then built, and "built" announced,
before units.js listens. units.js must enhance such a form when it runs (quick controls, unit
rows), and must not enhance it twice when it runs first."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, Route

from tools.screenshot import open_page

pytestmark = pytest.mark.slow


@pytest.fixture
def late_units_page(browser: Browser, base_url: str) -> Iterator[Page]:
    """The calculator with units.js held back until the catalogue has been answered."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    answered: list[bool] = []
    opened.on(
        "requestfinished",
        lambda request: answered.append(True) if request.url.endswith("/api/v1/rulesets") else None,
    )

    def hold(route: Route) -> None:
        script = route.fetch()
        deadline = time.monotonic() + 30
        # the catalogue's answer arrives while this handler waits (events are dispatched
        # between Playwright's own calls only): a short wait on the page lets them through
        while not answered and time.monotonic() < deadline:
            opened.wait_for_timeout(50)
        route.fulfill(response=script)

    opened.route("**/units.js", hold)
    open_page(opened, f"{base_url}/")
    yield opened
    context.close()
    assert not errors, f"the page's scripts failed: {errors}"


def test_a_form_built_before_units_js_runs_gets_its_quick_controls(late_units_page: Page) -> None:
    page = late_units_page
    page.wait_for_selector("#swap-sides", timeout=30_000)
    # once each: enhancing the form twice would add a second set of steppers
    assert page.locator("#swap-sides").count() == 1
    assert page.locator("#quick-controls").count() == 1
    assert page.locator("#attacker-tech-search").count() == 1
    page.click("#attacker-more-cruiser")
    assert page.input_value("#attacker-units-cruiser") == "1"
    page.click("#swap-sides")
    assert page.input_value("#defender-units-cruiser") == "1"


def test_a_form_built_after_units_js_runs_is_enhanced_once(page: Page) -> None:
    assert page.locator("#swap-sides").count() == 1
    assert page.locator("#quick-controls").count() == 1
