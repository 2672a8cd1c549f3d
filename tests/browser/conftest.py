"""The browser tests' fixtures: the real server (``create_app`` under uvicorn, its store SQLite
in a temporary folder) and Debian's Chromium driven by Playwright's sync API.

Chromium is never downloaded: a machine without ``/usr/bin/chromium`` fails these tests with a
message saying that ``.ci/run`` installs it (they are not skipped)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from tools.screenshot import ChromiumMissing, launch, open_page, running_server


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every browser test runs ``alone`` (tests/conftest.py): a page waits up to 30 s for an
    element after each step, and Chromium, the server and a CPU-bound test on the other core
    together ran past that in two full runs with two workers (a field not yet built, an answer
    dropped), though the same tests pass side by side with each other."""
    folder = Path(__file__).parent
    for item in items:
        if folder in Path(str(item.path)).parents:
            item.add_marker(pytest.mark.alone)


@pytest.fixture(scope="session")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The server's address, e.g. ``http://127.0.0.1:PORT``."""
    with running_server(tmp_path_factory.mktemp("store") / "store.db") as base:
        yield base


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        try:
            found = launch(playwright)
        except ChromiumMissing as exc:
            pytest.fail(str(exc), pytrace=False)
        try:
            yield found
        finally:
            found.close()


@pytest.fixture
def page(browser: Browser, base_url: str) -> Iterator[Page]:
    """A fresh page (its own context: no cookies or storage shared) on the calculator."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    open_page(opened, f"{base_url}/")
    yield opened
    context.close()
    assert not errors, f"the page's scripts failed: {errors}"
