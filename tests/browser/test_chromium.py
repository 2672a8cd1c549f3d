"""Without Debian's Chromium the browser tests fail, saying how to get it (never skipped, never
a browser downloaded)."""

from __future__ import annotations

from pathlib import Path
from typing import cast

import pytest
from playwright.sync_api import Playwright

from tools import screenshot


def test_a_missing_chromium_says_that_ci_run_installs_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(screenshot, "CHROMIUM", tmp_path / "chromium")
    with pytest.raises(screenshot.ChromiumMissing) as missing:
        screenshot.launch(cast(Playwright, object()))
    message = str(missing.value)
    assert str(tmp_path / "chromium") in message
    assert "`.ci/run` installs it" in message
