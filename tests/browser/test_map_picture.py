"""The map pictures of ``spacecombat turn --report DIR`` (rulesets/ec4x/turn/picture.py) as
Chromium shows them: a house's view of turn 1 of the example game and the game master's whole
map, rendered without errors, with the hexes, lanes, fleets, moves, retreats and battles the
reports hold, and nothing of what the house does not know."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from spacecombat.cli import main

pytestmark = pytest.mark.slow

GAME = Path(__file__).parents[2] / "examples" / "ec4x" / "game"


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("game")
    for name in ("state.json", "orders-turn-1.json"):
        shutil.copy(GAME / name, folder / name)
    args = [str(folder / "state.json"), str(folder / "orders-turn-1.json")]
    assert main(["turn", *args, "--out", str(folder / "next.json"), "--report", str(folder)]) == 0
    return folder


@pytest.fixture
def shown(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 900, "height": 700})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    yield page
    context.close()
    assert not errors, f"the picture did not render cleanly: {errors}"


def _open(page: Page, svg: Path) -> None:
    """The picture as a page shows it: the SVG file opened on its own (as an image the
    browser parses as XML: a malformed file shows Chromium's parser error)."""
    page.goto(svg.as_uri())
    page.wait_for_selector("svg.ec4x-map")
    assert page.locator("parsererror").count() == 0


def test_a_houses_picture_shows_what_its_report_holds(shown: Page, reports: Path) -> None:
    report = json.loads((reports / "turn-1-beta.json").read_text())
    _open(shown, reports / "turn-1-beta.svg")
    systems = report["map"]["systems"]
    assert shown.locator("g.system").count() == len(systems)
    assert shown.locator("g.system.unexplored").count() == sum(
        1 for s in systems if not s["explored"]
    )
    labels = shown.locator("g.system text.label").all_text_contents()
    assert sorted(labels) == sorted(s["id"] for s in systems)
    for lane_class in ("major", "minor", "restricted"):
        expected = sum(1 for x in report["map"]["lanes"] if x["class"] == lane_class)
        assert shown.locator(f"line.lane.{lane_class}").count() == expected
    assert shown.locator("g.fleet.own").count() == len(report["fleets"])
    assert shown.locator("g.fleet.contact").count() == len(report["contacts"])
    # turn 1: beta's fleets moved, beta-1 fought alpha in S00 and retreated to S06 (7.3.5)
    moved = shown.locator("#moves polyline.move")
    assert moved.count() == len(report["moves"])
    assert shown.locator("#retreats polyline.retreat").get_attribute("data-fleet") == "beta-1"
    assert shown.locator("#battles .battle").get_attribute("data-system") == "S00"
    # its own colonies in its colour, the foreign ones it has not seen absent
    owners = {
        shown.locator("g.system.colony").nth(i).get_attribute("data-owner")
        for i in range(shown.locator("g.system.colony").count())
    }
    assert owners == {s["owner"] for s in systems if s.get("owner")}
    assert "house beta" in (shown.locator("#legend text.caption").text_content() or "")
    box = shown.locator("svg.ec4x-map").bounding_box()
    assert box is not None
    assert box["width"] > 300
    assert box["height"] > 200


def test_a_house_sees_no_fleet_of_another_house_it_did_not_meet(shown: Page, reports: Path) -> None:
    _open(shown, reports / "turn-1-gamma.svg")
    owners = {
        shown.locator("g.fleet").nth(i).get_attribute("data-owner")
        for i in range(shown.locator("g.fleet").count())
    }
    assert owners == {"gamma"}  # gamma met no one in turn 1


def test_the_game_masters_picture_shows_the_whole_map(shown: Page, reports: Path) -> None:
    state = json.loads((reports / "next.json").read_text())
    _open(shown, reports / "turn-1.svg")
    assert shown.locator("g.system").count() == len(state["systems"])
    assert shown.locator("g.system.unexplored").count() == 0
    assert shown.locator("line.lane").count() == len(state["lanes"])
    assert shown.locator("g.fleet").count() == len(state["fleets"])
    assert shown.locator("#battles .battle").count() == 1
    keys = shown.locator("#legend g.house-key text").all_text_contents()
    assert keys == sorted(state["houses"])
