"""Issue 25, the page: the result stays in view beside the inputs (a summary bar on a phone)
and is recomputed as the player edits, a newer request abandoning the older (item 1); odds
shown always belong to the battle shown or are marked out of date, a battle log of another
battle goes, another ruleset clears the result (item 2); the player's words first: who holds
the system, you take the planet, retreats as their own segments, what is left of each fleet,
the rest folded under Details (item 4); TI3's own ground force in the examples and no flagship
the engine refuses (item 7). Rulings 25P-1 to 25P-4 (docs/rulings.md)."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Request, Route

from spacecombat import odds
from spacecombat.rulesets import parse_scenario
from tools.screenshot import ODDS_SHOWN, compute, open_page, settled

#: end to end through a browser: the whole suite's, not the fast loop's
pytestmark = pytest.mark.slow

TOLERANCE = 1e-9

#: the page's first battle (2 dreadnoughts against 3 cruisers, app.js ``defaultScenario``)
FIRST: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {"units": {"dreadnought": 2}},
    "defender": {"units": {"cruiser": 3}},
}


def with_units(side: str, units: dict[str, int]) -> dict[str, Any]:
    """``FIRST`` with ``side``'s units replaced."""
    return dict(FIRST, **{side: {"units": units}})


def shown(page: Page, selector: str) -> dict[str, float]:
    """The exact numbers under ``selector``: each ``<data data-key=K value=V>`` as K: V."""
    pairs: list[list[str]] = page.eval_on_selector_all(
        f"{selector} data[data-key]", "ns => ns.map(n => [n.dataset.key, n.value])"
    )
    return {key: float(value) for key, value in pairs}


def assert_holds(page: Page, scenario: dict[str, Any]) -> None:
    """The headline's "who holds the system" is the engine's for ``scenario``."""
    expected = odds(scenario).to_json()["holds"]
    found = shown(page, "#odds-headline span[data-holds]")
    assert set(found) == {f"holds_{k}" for k in expected}
    for key, value in expected.items():
        assert abs(found[f"holds_{key}"] - value) <= TOLERANCE, key


def retype(page: Page, selector: str, text: str) -> None:
    """Edit a field as a player does: select what it holds and type over it, key by key."""
    page.click(selector)
    page.keyboard.press("Control+A")
    page.keyboard.type(text)


def odds_requests(page: Page) -> list[Request]:
    """Every odds request the page sends from now on."""
    sent: list[Request] = []
    page.on("request", lambda r: sent.append(r) if r.url.endswith("/api/v1/odds") else None)
    return sent


def in_view(page: Page, selector: str) -> bool:
    """Whether the element's box is wholly inside the window."""
    found: bool = page.eval_on_selector(
        selector,
        """n => { const b = n.getBoundingClientRect();
                  return b.top >= 0 && b.bottom <= window.innerHeight && b.height > 0
                    && b.left >= 0 && b.right <= window.innerWidth; }""",
    )
    return found


@pytest.fixture
def phone(browser: Browser, base_url: str) -> Iterator[Page]:
    """The page on a 390 px phone."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    try:
        opened = context.new_page()
        open_page(opened, f"{base_url}/")
        yield opened
    finally:
        context.close()


# ---- item 1: the result in view, recomputed as the player edits ----------------------------


def test_the_result_stays_in_view_beside_the_inputs_on_a_desktop(page: Page) -> None:
    settled(page)
    assert_holds(page, FIRST)
    form = page.eval_on_selector("#battle-form", "n => n.getBoundingClientRect().right")
    column = page.eval_on_selector("#result-column", "n => n.getBoundingClientRect().left")
    assert column >= form, "the result column is beside the inputs"
    # wherever the inputs are scrolled to, the headline, the bar and the button stay in view
    for where in ("#rules-panel", "#side-defender table", "#battle-form .setup"):
        page.eval_on_selector(where, "n => n.scrollIntoView({block: 'end'})")
        if where == "#rules-panel":  # the bottom of the inputs: the page scrolled down
            assert page.evaluate("() => window.scrollY") > 300
        for part in ("#odds-headline", "#odds-bar", "#compute"):
            assert in_view(page, part), f"{part} is out of view with {where} in view"


def test_a_phone_has_the_odds_in_a_bar_always_in_view(phone: Page) -> None:
    settled(phone)
    expected = odds(FIRST).to_json()["holds"]
    for scrolled in ("0", "document.body.scrollHeight / 2", "document.body.scrollHeight"):
        phone.evaluate(f"() => window.scrollTo(0, {scrolled})")
        assert in_view(phone, "#summary-bar"), f"the summary bar is out of view at {scrolled}"
        assert phone.evaluate("() => document.documentElement.scrollWidth") <= 390
    text = phone.inner_text("#summary-text")
    assert text.startswith(f"You hold the system {100 * expected['attacker']:.1f}%")
    assert f"defender {100 * expected['defender']:.1f}%" in text
    # an edit: the bar says so at once, then shows the new odds
    retype(phone, "#defender-units-cruiser", "4")
    settled(phone)
    after = odds(with_units("defender", {"cruiser": 4})).to_json()["holds"]
    text = phone.inner_text("#summary-text")
    assert text.startswith(f"You hold the system {100 * after['attacker']:.1f}%")
    assert phone.get_attribute("#summary-bar", "data-stale") is None
    # the desktop's column is not sticky here: the full result follows the inputs
    assert phone.is_hidden("#summary-compute")


def test_an_edit_recomputes_the_odds_without_a_click(page: Page) -> None:
    settled(page)
    sent = odds_requests(page)
    retype(page, "#defender-units-cruiser", "4")
    settled(page)
    assert_holds(page, with_units("defender", {"cruiser": 4}))
    assert len(sent) == 1
    asked = json.loads(sent[0].post_data or "{}")
    assert asked["scenario"]["defender"]["units"] == {"cruiser": 4}
    assert page.inner_text("#status").startswith("Odds computed")
    # a box ticked is an edit too
    page.check("#attacker-upgrade-dreadnought")
    settled(page)
    scenario = dict(with_units("defender", {"cruiser": 4}))
    scenario["attacker"] = {"units": {"dreadnought": 2}, "upgrades": ["dreadnought"]}
    assert_holds(page, scenario)


def test_a_newer_edit_abandons_the_older_request(page: Page) -> None:
    """The first edit's request is held back by the network; a second edit aborts it (the
    fetch fails with ERR_ABORTED: the server stops its work) and only the second battle's
    odds are ever shown, even once the first is let through."""
    settled(page)
    held: list[Route] = []

    def hold_first(route: Route) -> None:
        if held:
            route.continue_()
        else:
            held.append(route)

    failed: list[str] = []
    page.on("requestfailed", lambda r: failed.append(r.failure or "?"))
    page.route("**/api/v1/odds", hold_first)
    retype(page, "#defender-units-cruiser", "4")
    page.wait_for_function("() => document.getElementById('battle-form').ariaBusy === 'true'")
    assert page.get_attribute("#results", "data-stale") == "true"
    page.wait_for_timeout(300)
    retype(page, "#defender-units-cruiser", "5")
    settled(page)
    assert_holds(page, with_units("defender", {"cruiser": 5}))
    assert len(held) == 1
    assert any("ABORTED" in reason for reason in failed), failed
    with contextlib.suppress(Exception):  # the page abandoned it: nothing to let through
        held[0].continue_()
    page.wait_for_timeout(300)
    assert_holds(page, with_units("defender", {"cruiser": 5}))


def test_a_slow_battle_waits_for_the_button(page: Page) -> None:
    """docs/rulings.md 25P-1: once an answer took 1.5 s or more, an edit marks the odds out of
    date and says to press "Compute odds", which asks them."""
    settled(page)
    held: list[Route] = []
    page.route("**/api/v1/odds", lambda route: held.append(route))
    retype(page, "#defender-units-cruiser", "4")
    page.wait_for_timeout(1700)  # the answer comes late: the battle is slow
    held[0].continue_()
    page.unroute("**/api/v1/odds")
    settled(page)
    sent = odds_requests(page)
    retype(page, "#defender-units-cruiser", "5")
    page.wait_for_timeout(600)
    assert sent == []
    assert page.get_attribute("#results", "data-stale") == "true"
    assert "press \u201cCompute odds\u201d" in page.inner_text("#result-state")
    assert "Odds computed" not in page.inner_text("#status")
    compute(page)
    assert_holds(page, with_units("defender", {"cruiser": 5}))
    assert len(sent) == 1
    # a quick answer again: edits recompute by themselves again
    retype(page, "#defender-units-cruiser", "3")
    settled(page)
    assert len(sent) == 2


# ---- item 2: no stale answers --------------------------------------------------------------


def test_an_edit_marks_the_odds_out_of_date_until_the_new_ones_come(page: Page) -> None:
    settled(page)
    page.uncheck("#auto-compute")
    assert page.inner_text("#status").startswith("Odds computed")
    retype(page, "#attacker-units-dreadnought", "3")
    assert page.get_attribute("#results", "data-stale") == "true"
    assert page.get_attribute("#summary-bar", "data-stale") == "true"
    assert page.is_visible("#result-state")
    assert page.inner_text("#result-state").startswith("Out of date")
    assert "Odds computed" not in page.inner_text("#status")
    # greyed out: the player sees it, not only a screen reader
    opacity = page.eval_on_selector("#odds-bar", "n => Number(getComputedStyle(n).opacity)")
    assert opacity < 0.6
    # back to the battle whose odds are shown: they are its odds again
    retype(page, "#attacker-units-dreadnought", "2")
    assert page.get_attribute("#results", "data-stale") is None
    assert page.is_hidden("#result-state")
    # the odds of the battle as it is now, asked with the button
    retype(page, "#attacker-units-dreadnought", "3")
    compute(page)
    assert_holds(page, with_units("attacker", {"dreadnought": 3}))
    assert page.inner_text("#status").startswith("Odds computed")


def test_a_battle_log_goes_when_the_battle_changes(page: Page) -> None:
    settled(page)
    page.click("#play")
    page.wait_for_selector("#battle-log:not([hidden])")
    # the seed (of the Monte Carlo fallback) is no part of the battle: the log stays
    page.eval_on_selector("#sampling-details", "n => { n.open = true; }")
    page.fill("#seed", "5")
    settled(page)
    assert page.is_visible("#battle-log")
    # another battle: the log of this one goes
    retype(page, "#defender-units-cruiser", "4")
    assert page.is_hidden("#battle-log")
    assert page.inner_text("#battle-text") == ""
    # another ruleset, likewise
    page.click("#play")
    page.wait_for_selector("#battle-log:not([hidden])")
    assert page.inner_text("#battle-text").startswith("TI4")
    page.select_option("#ruleset", "ti3")
    assert page.is_hidden("#battle-log")


def test_another_ruleset_clears_the_result(page: Page) -> None:
    settled(page)
    assert page.get_attribute("#results", "data-ruleset") == "ti4"
    held: list[Route] = []
    page.route("**/api/v1/odds", lambda route: held.append(route))
    page.select_option("#ruleset", "ti3")
    # at once: no odds of the other ruleset on the page
    assert page.is_hidden("#results")
    assert page.is_hidden("#summary-bar")
    assert page.eval_on_selector_all("#odds-bar .segment", "ns => ns.length") == 0
    page.wait_for_function("() => document.getElementById('battle-form').ariaBusy === 'true'")
    held[-1].continue_()
    page.unroute("**/api/v1/odds")
    settled(page)
    assert page.get_attribute("#results", "data-ruleset") == "ti3"
    assert_holds(page, dict(FIRST, ruleset="ti3"))


# ---- item 4: the player's words first -------------------------------------------------------

#: the attacker retreats when outnumbered 2 to 1 (to B, where it has ships)
RETREAT: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {
        "units": {"dreadnought": 1, "carrier": 1, "fighter": 3},
        "policy": {"retreat": {"when_outnumbered": 2}},
    },
    "defender": {"units": {"cruiser": 3, "destroyer": 1}},
    "system": {"adjacent": [{"name": "B", "units": ["attacker"]}]},
}


def bar_of(page: Page) -> list[tuple[str, float]]:
    found: list[list[Any]] = page.eval_on_selector_all(
        "#odds-bar .segment", "ns => ns.map(n => [n.dataset.key, Number(n.dataset.value)])"
    )
    return [(key, value) for key, value in found]


def load(page: Page, base_url: str, scenario: dict[str, Any]) -> None:
    """Open ``scenario`` as a shared link (no result) and wait for its odds."""
    from tools.screenshot import post

    saved = post(base_url, "/scenarios", {"scenario": scenario})
    open_page(page, f"{base_url}/?s={saved['id']}")
    settled(page)


def test_the_player_reads_who_holds_the_system_and_what_is_left(page: Page, base_url: str) -> None:
    load(page, base_url, RETREAT)
    expected = odds(RETREAT).to_json()
    headline = page.inner_text("#odds-headline")
    assert headline.startswith("Who holds the system")
    assert f"You (attacker) {100 * expected['holds']['attacker']:.1f}%" in headline
    assert_holds(page, RETREAT)
    # the attacker's retreats: a segment of their own, not folded into the defender's win
    retreat = expected["retreats"]["attacker"]["probability"]
    assert retreat > 0.05
    bar = bar_of(page)
    assert [key for key, _ in bar] == ["attacker_win", "draw", "attacker_retreat", "defender_win"]
    assert [value for _, value in bar] == pytest.approx(
        [
            expected["attacker_win"],
            expected["draw"],
            retreat,
            expected["defender_win"] - retreat,
        ],
        abs=TOLERANCE,
    )
    legend = page.inner_text("#odds-legend")
    assert f"Attacker retreats\n{100 * retreat:.1f}%" in legend or (
        f"Attacker retreats {100 * retreat:.1f}%" in legend.replace("\n", " ")
    )
    # survivors by fleet, in words, most likely first: the defender's three most likely
    # fleets (hand-read from the engine's report: nothing 76.8%, 2 cruisers 8.8%, 1 cruiser 8.5%)
    defender = page.locator("#fleets-left [data-party='defender'] li")
    assert defender.nth(0).inner_text().split("\n") == ["nothing", "76.8%"]
    assert defender.nth(1).inner_text().split("\n") == ["2 cruisers", "8.8%"]
    assert defender.nth(2).inner_text().split("\n") == ["1 cruiser", "8.5%"]
    attacker = page.locator("#fleets-left [data-party='attacker'] li")
    assert attacker.nth(1).inner_text().split("\n") == [
        "1 dreadnought, 1 carrier, 1 fighter",
        "19.3%",
    ]
    fleets = sorted(
        expected["survivors"]["defender"]["fleets"], key=lambda f: -float(f["probability"])
    )
    values = page.eval_on_selector_all(
        "#fleets-left [data-party='defender'] li:not(.more) data", "ns => ns.map(n => n.value)"
    )
    assert [float(v) for v in values] == pytest.approx(
        [f["probability"] for f in fleets[:3]], abs=TOLERANCE
    )
    # trials, seed, residual, unfinished and the rounds' table: folded away
    assert not page.eval_on_selector("#result-details", "n => n.open")
    for folded in ("#odds-figures", "#rounds-table", "#rounds-figures", "#survivors"):
        assert page.eval_on_selector(folded, "n => !!n.closest('details:not([open])')"), folded
    assert not page.is_visible("#odds-figures .residual")
    assert "Unfinished" not in page.inner_text("#results")
    assert "Residual" not in page.inner_text("#results")
    assert page.is_hidden("#trials")
    assert page.is_hidden("#seed")
    # unfolded, every figure is there, as the engine counts it
    page.click("#result-details > summary")
    assert page.is_visible("#odds-figures .residual")
    assert abs(shown(page, "#odds-figures")["defender_win"] - expected["defender_win"]) <= TOLERANCE


def test_a_defenders_retreat_is_its_own_segment_beside_the_attackers_win(
    page: Page, base_url: str
) -> None:
    scenario = {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {"units": {"dreadnought": 2, "cruiser": 2}},
        "defender": {
            "units": {"cruiser": 2, "destroyer": 1},
            "policy": {"retreat": {"when_outnumbered": 1.5}},
        },
        "system": {"adjacent": [{"name": "B", "units": ["defender"]}]},
    }
    load(page, base_url, scenario)
    expected = odds(scenario).to_json()
    retreat = expected["retreats"]["defender"]["probability"]
    assert retreat > 0.1
    bar = dict(bar_of(page))
    assert list(bar)[:2] == ["attacker_win", "defender_retreat"]
    assert bar["defender_retreat"] == pytest.approx(retreat, abs=TOLERANCE)
    assert bar["attacker_win"] == pytest.approx(expected["attacker_win"] - retreat, abs=TOLERANCE)
    assert sum(bar.values()) == pytest.approx(1.0, abs=1e-9)


def test_an_invasion_says_you_take_the_planet(page: Page) -> None:
    settled(page)
    page.select_option("#battle", "invasion")
    page.fill("#attacker-units-carrier", "1")
    page.fill("#attacker-units-infantry", "3")
    page.fill("#defender-units-cruiser", "0")
    page.fill("#defender-units-infantry", "2")
    settled(page)
    scenario = {
        "ruleset": "ti4",
        "battle": "invasion",
        "attacker": {"units": {"dreadnought": 2, "carrier": 1, "infantry": 3}},
        "defender": {"units": {"infantry": 2}},
    }
    expected = odds(scenario).to_json()
    (planet, p), *_ = expected["taken"].items()
    assert page.inner_text("#odds-headline").startswith(f"You take the planet {100 * p:.1f}%")
    assert abs(shown(page, "#odds-headline span[data-planet]")["taken"] - p) <= TOLERANCE
    assert planet


# ---- item 7: TI3 slips ---------------------------------------------------------------------


def test_ti3_examples_name_its_own_ground_force(page: Page) -> None:
    page.select_option("#ruleset", "ti3")
    placeholder = page.get_attribute("#attacker-planet-units", "placeholder") or ""
    assert placeholder == "e.g. 2 ground_force"
    keep = page.get_attribute("#attacker-policy-keep", "placeholder") or ""
    assert "infantry" not in keep
    assert "ground_force" in keep
    page.select_option("#battle", "invasion")
    page.click("#add-planet")
    for field in ("defender", "commit", "damaged"):
        said = page.get_attribute(f"#planet-0-{field}", "placeholder") or ""
        assert "infantry" not in said, (field, said)
        assert "mech " not in f"{said} ", (field, said)
    assert page.get_attribute("#planet-0-defender", "placeholder") == "e.g. 2 ground_force, 1 pds"
    assert page.get_attribute("#planet-0-damaged", "placeholder") == "e.g. 1 mechanized_unit"
    assert "infantry" not in page.inner_text("#planets-help")
    # the example reads as a battle: TI3 accepts it
    parse_scenario(
        {
            "ruleset": "ti3",
            "battle": "space",
            "attacker": {"units": {"dreadnought": 1}, "planet_units": "2 ground_force"},
            "defender": {"units": {"cruiser": 1}},
        }
    )
    # TI4's stay TI4's
    page.select_option("#ruleset", "ti4")
    assert page.get_attribute("#attacker-planet-units", "placeholder") == "e.g. 2 infantry"


def test_ti3_offers_no_unit_the_engine_refuses(page: Page, base_url: str) -> None:
    """TI3's flagship is each race's own card (docs/rulings.md 27R-1): the generic flagship card
    is not implemented, and a side of no race cannot add one (its row has no card, its "+" is
    off); a race whose flagship is implemented plays its own. Every unit the page lets a side of
    no race add, the engine accepts. Derived from the catalogue: TI4's flagship is offered."""
    import urllib.request

    with urllib.request.urlopen(f"{base_url}/api/v1/rulesets") as answer:
        catalogue = json.load(answer)
    catalogue = catalogue.get("rulesets", catalogue)
    ti3 = catalogue["ti3"]
    assert ti3["cards"]["flagship"]["implemented"] is False
    assert "flagship" not in ti3["unit_cards"][""]
    assert ti3["unit_cards"]["sardakk"]["flagship"]["base"] == "sardakk_flagship"
    page.select_option("#ruleset", "ti3")
    assert page.is_disabled("#attacker-more-flagship")
    offered: list[str] = page.eval_on_selector_all(
        "#side-attacker tr:not([data-card='']) [data-field^='attacker.units.']",
        "ns => ns.map(n => n.dataset.unit)",
    )
    assert offered
    assert "flagship" not in offered
    for unit in offered:
        parse_scenario(
            {
                "ruleset": "ti3",
                "battle": "space",
                "attacker": {"units": {"dreadnought": 1, unit: 1}},
                "defender": {"units": {"cruiser": 1}},
            }
        )
    # a race with its flagship: the row plays the race's card, and the engine accepts it
    page.select_option("#attacker-faction", "sardakk")
    assert page.is_enabled("#attacker-more-flagship")
    page.click("#attacker-more-flagship")
    assert page.input_value("#attacker-units-flagship") == "1"
    parse_scenario(
        {
            "ruleset": "ti3",
            "battle": "space",
            "attacker": {"faction": "sardakk", "units": {"dreadnought": 1, "flagship": 1}},
            "defender": {"units": {"cruiser": 1}},
        }
    )
    page.select_option("#ruleset", "ti4")
    assert page.locator("#attacker-units-flagship").count() == 1
    settled(page)
    assert page.get_attribute(ODDS_SHOWN.split(" ")[0], "data-ruleset") == "ti4"
