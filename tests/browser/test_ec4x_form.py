"""The page's EC4X form (issue 25, item 6) in a real browser against the real server: a battle
built with the controls is the example's scenario and gets the engine's odds; a bad value shows
the API's message under its control; a saved scenario and a share link open in the form, key
for key; the JSON view and the form follow each other; a third house; the progress indicator
and Cancel on a battle that takes seconds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from playwright.sync_api import Browser, Page, Route

from spacecombat import odds
from tools.screenshot import ODDS_SHOWN, compute, open_page, post

#: end to end through a browser, seconds a test (the whole suite's, not the fast loop's)
pytestmark = pytest.mark.slow

TOLERANCE = 1e-9
EXAMPLES = Path(__file__).parents[2] / "examples" / "ec4x"


def example(name: str) -> dict[str, Any]:
    found: dict[str, Any] = yaml.safe_load((EXAMPLES / name).read_text())
    return found


def at(path: str) -> str:
    """The control of a scenario's field path (the path the API names in a 422)."""
    return f'[data-field="{path}"]'


def collected(page: Page) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate("() => window.spacecombatEc4x.collect()")
    return found


def chosen(page: Page, selector: str) -> str:
    """The text of a select's chosen option (a house's name: its value is the house's key)."""
    text: str = page.eval_on_selector(selector, "n => n.selectedOptions[0].textContent")
    return text


def shown(page: Page) -> dict[str, float]:
    """The figures of the odds (``<data data-key=K value=V>``) as K: V."""
    pairs: list[list[str]] = page.eval_on_selector_all(
        "#odds-figures data[data-key]", "ns => ns.map(n => [n.dataset.key, n.value])"
    )
    return {key: float(value) for key, value in pairs}


def assert_engines_odds(page: Page, scenario: dict[str, Any]) -> None:
    expected = odds(scenario).to_json()
    found = shown(page)
    assert set(found) == {*expected["results"], "residual"}
    for house, p in expected["results"].items():
        assert abs(found[house] - p) <= TOLERANCE, house


def add_escorts(page: Page, squadron: str, code: str, count: int) -> None:
    """Add a line of escorts to the squadron at ``squadron`` (its field path)."""
    page.click(f"{at(squadron)} button:has-text('Add escorts')")
    line = page.locator(f"{at(squadron)} .escort").last
    line.locator("select[data-key='class']").select_option(code)
    line.locator("input[data-key='count']").fill(str(count))


def test_two_houses_built_with_the_controls_is_the_example_and_gets_its_odds(
    page: Page,
) -> None:
    """examples/ec4x/two-houses.yaml, built from the starting battle (two houses at war, one
    squadron each) with the controls only: the scenario sent is the example's, key for key,
    and the odds are the engine's (7.3: each house's chance to hold the system)."""
    page.select_option("#ruleset", "ec4x")
    page.fill(at("game_id"), "demo-1")
    page.fill(at("turn"), "12")
    page.fill(at("houses.alpha.prestige"), "55")
    page.fill(at("houses.beta.prestige"), "45")
    # alpha: a dreadnought leading two heavy cruisers, and a light cruiser with a destroyer
    page.select_option(at("fleets[0].squadrons[0].flagship"), "DN")
    add_escorts(page, "fleets[0].squadrons[0]", "CA", 2)
    page.click(f"{at('fleets[0]')} button:has-text('Add a squadron')")
    page.select_option(at("fleets[0].squadrons[1].flagship"), "CL")
    add_escorts(page, "fleets[0].squadrons[1]", "DD", 1)
    # beta: a battleship with two destroyers, and two destroyers
    page.select_option(at("fleets[1].squadrons[0].flagship"), "BB")
    add_escorts(page, "fleets[1].squadrons[0]", "DD", 2)
    page.click(f"{at('fleets[1]')} button:has-text('Add a squadron')")
    page.select_option(at("fleets[1].squadrons[1].flagship"), "DD")
    add_escorts(page, "fleets[1].squadrons[1]", "DD", 1)
    scenario = example("two-houses.yaml")
    assert collected(page) == scenario
    # the JSON view shows the same scenario
    assert json.loads(page.input_value("#scenario-json")) == scenario
    with page.expect_request("**/api/v1/odds") as sent:
        compute(page)
    assert json.loads(sent.value.post_data or "{}")["scenario"] == scenario
    assert_engines_odds(page, scenario)


def test_a_bad_value_shows_the_apis_message_under_its_control(page: Page) -> None:
    page.select_option("#ruleset", "ec4x")
    page.fill(at("houses.alpha.prestige"), "5000")
    page.click("#compute")
    error = page.locator(".field:has(" + at("houses.alpha.prestige") + ") .field-error")
    error.wait_for()
    assert "houses.alpha.prestige: must be at most 1000" in error.inner_text()
    assert page.get_attribute(at("houses.alpha.prestige"), "aria-invalid") == "true"
    # 7.3.1.4: the escorts' CC within the flagship's CR (5 CA: CC 15 against DN's CR 12)
    page.fill(at("houses.alpha.prestige"), "50")
    page.press(at("houses.alpha.prestige"), "Tab")  # changed: the error goes (app.js)
    page.select_option(at("fleets[0].squadrons[0].flagship"), "DN")
    add_escorts(page, "fleets[0].squadrons[0]", "CA", 5)
    page.click("#compute")
    error = page.locator(f"{at('fleets[0].squadrons[0].escorts')} .field-error")
    error.wait_for()
    assert "more than the flagship DN's CR 12" in error.inner_text()
    # an order's requirement (6.2): a Scout alone for order 10, under the order
    page.select_option(at("fleets[1].order"), "10")
    page.click(f"{at('fleets[0].squadrons[0].escorts')} .escort button:has-text('Remove')")
    page.click("#compute")
    error = page.locator(".field:has(" + at("fleets[1].order") + ") .field-error")
    error.wait_for()
    assert "order 10 needs exactly one Scout ship and nothing else (6.2)" in error.inner_text()
    # a retreat after round 0: said by the page, under the round (the API names the union)
    page.select_option(at("houses.beta.retreat"), "{after_round}")
    page.fill(at("houses.beta.retreat.after_round"), "0")
    page.click("#compute")
    error = page.locator(".field:has(" + at("houses.beta.retreat.after_round") + ") .field-error")
    error.wait_for()
    assert "houses.beta.retreat.after_round: a whole number from 1 to 100" in error.inner_text()
    page.fill(at("houses.beta.retreat.after_round"), "2")
    page.press(at("houses.beta.retreat.after_round"), "Tab")
    # two houses of one name: said by the page, under the name
    page.select_option(at("fleets[1].order"), "3")
    page.fill("#ec4x-house-list fieldset:nth-child(2) input[data-key='name']", "alpha")
    page.click("#compute")
    error = page.locator(".field:has([data-field='houses[1].name']) .field-error")
    error.wait_for()
    assert "alpha is also house 1" in error.inner_text()


@pytest.mark.parametrize("name", ["invasion.yaml", "three-houses.yaml", "fighters.yaml"])
def test_a_saved_scenario_opens_in_the_form_key_for_key(
    page: Page, base_url: str, name: str
) -> None:
    """A saved scenario (a colony with shields, batteries and marines; three houses with a
    listed neutral pair; carriers with fighters) fills the form, and the form gives back the
    scenario stored (the server's canonical writing: defaults left out) key for key: it is read
    from the form, not kept as JSON."""
    saved = post(base_url, "/scenarios", {"scenario": example(name)})
    scenario = saved["scenario"]
    open_page(page, f"{base_url}/?s={saved['id']}")
    assert page.input_value("#ruleset") == "ec4x"
    assert page.evaluate("() => window.spacecombatEc4x.source()") == "form"
    assert collected(page) == scenario
    assert page.is_hidden("#ec4x-json-note")
    houses = page.eval_on_selector_all(
        "#ec4x-house-list input[data-key='name']", "ns => ns.map(n => n.value)"
    )
    assert houses == list(scenario["houses"])
    for f, fleet in enumerate(scenario["fleets"]):
        assert page.input_value(at(f"fleets[{f}].id")) == fleet["id"]
        assert chosen(page, at(f"fleets[{f}].owner")) == fleet["owner"]
        for q, squadron in enumerate(fleet["squadrons"]):
            flagship = at(f"fleets[{f}].squadrons[{q}].flagship")
            assert page.input_value(flagship) == squadron["flagship"]
    if name == "invasion.yaml":
        assert page.is_checked("#ec4x-colony-on")
        assert page.input_value(at("colony.shield")) == "1"
        assert page.input_value(at("colony.marines.undamaged")) == "1"
        assert page.input_value(at("colony.marines.crippled")) == ""
        assert page.input_value(at("fleets[0].order")) == "7"
        assert page.input_value(at("fleets[0].order.target")) == "Castor"
        assert page.input_value(at("fleets[0].spacelift.TT")) == "4"


def test_a_share_link_opens_the_battle_and_its_odds_in_the_form(
    page: Page, browser: Browser, base_url: str
) -> None:
    scenario = example("two-houses.yaml")
    saved = post(base_url, "/scenarios", {"scenario": scenario})
    open_page(page, f"{base_url}/?s={saved['id']}")
    page.fill(at("houses.beta.prestige"), "70")  # morale band 61-80 (7.1.4)
    compute(page)
    page.click("#share")
    link = page.input_value("#share-link")
    edited = dict(scenario, houses={"alpha": {"prestige": 55}, "beta": {"prestige": 70}})
    assert collected(page) == edited
    before = shown(page)
    context = browser.new_context()
    try:
        other = context.new_page()
        open_page(other, link)
        other.wait_for_selector(ODDS_SHOWN)
        assert shown(other) == before
        assert collected(other) == edited
        assert other.input_value(at("houses.beta.prestige")) == "70"
    finally:
        context.close()
    assert_engines_odds(page, edited)


def test_the_json_view_and_the_form_follow_each_other(page: Page) -> None:
    """What the form cannot show (a key it has no control for, a 64-bit seed) is sent as the
    JSON says until the form is edited."""
    page.select_option("#ruleset", "ec4x")
    assert page.is_hidden("#scenario-json")
    page.check("#ec4x-json-toggle")
    scenario = json.loads(page.input_value("#scenario-json"))
    scenario["fleets"][0]["roe"] = 5
    scenario["houses"]["beta"]["aco"] = 2
    page.fill("#scenario-json", json.dumps(scenario))
    assert page.input_value(at("fleets[0].roe")) == "5"
    assert page.input_value(at("houses.beta.aco")) == "2"
    assert collected(page) == scenario
    page.fill(at("houses.alpha.prestige"), "70")
    assert json.loads(page.input_value("#scenario-json"))["houses"]["alpha"] == {"prestige": 70}
    # a seed of 64 bits, sent as its digits
    page.fill(
        "#scenario-json",
        page.input_value("#scenario-json").replace(
            '"turn": 1,', '"turn": 1, "seed": 18446744073709551615,'
        ),
    )
    assert page.input_value("#ec4x-seed") == "18446744073709551615"
    assert '"seed": 18446744073709551615' in page.evaluate("() => window.spacecombatEc4x.text()")
    page.fill(at("turn"), "2")
    assert '"seed":18446744073709551615' in page.evaluate("() => window.spacecombatEc4x.text()")
    page.fill("#ec4x-seed", "18446744073709551616")
    page.click("#compute")
    error = page.locator(".field:has(#ec4x-seed) .field-error")
    error.wait_for()
    assert "scenario.seed: a whole number from 0 to 18446744073709551615" in error.inner_text()
    # JSON that does not parse is said under the JSON view
    page.fill("#scenario-json", "{")
    page.click("#compute")
    error = page.locator("#json-editor .field-error")
    error.wait_for()
    assert "scenario: not valid JSON" in error.inner_text()


def test_a_third_house_with_its_colour_pairs_and_fleet(page: Page) -> None:
    page.select_option("#ruleset", "ec4x")
    page.click("#ec4x-add-house")
    names = page.eval_on_selector_all(
        "#ec4x-house-list input[data-key='name']", "ns => ns.map(n => n.value)"
    )
    assert names == ["alpha", "beta", "gamma"]
    # the report's colour of the third house by name (app.js HOUSE_COLOURS[2])
    colour = page.eval_on_selector(
        "#ec4x-house-list fieldset:nth-child(3) .swatch", "n => getComputedStyle(n).backgroundColor"
    )
    assert colour == "rgb(47, 138, 76)"
    pairs = page.eval_on_selector_all("#ec4x-pairs .pair label", "ns => ns.map(n => n.textContent)")
    assert pairs == ["alpha – beta", "alpha – gamma", "beta – gamma"]
    page.click("#ec4x-add-fleet")
    page.select_option(at("fleets[2].owner"), "gamma")
    scenario = collected(page)
    assert scenario["houses"]["gamma"] == {}
    assert scenario["diplomacy"] == [
        {"houses": ["alpha", "beta"], "status": "enemy"},
        {"houses": ["alpha", "gamma"], "status": "enemy"},
        {"houses": ["beta", "gamma"], "status": "enemy"},
    ]
    assert scenario["fleets"][2] == {
        "id": "A2",
        "owner": "gamma",
        "squadrons": [{"flagship": "CT"}],
    }
    compute(page)
    assert_engines_odds(page, scenario)
    assert "gamma" in page.inner_text("#extras")
    # renamed (through a moment when it is named as another house), its fleet and pairs
    # follow; removed, they go
    name = page.locator("#ec4x-house-list fieldset:nth-child(3) input[data-key='name']")
    name.fill("alpha")
    name.fill("delta")
    scenario = collected(page)
    assert scenario["fleets"][2]["owner"] == "delta"
    assert scenario["diplomacy"][2] == {"houses": ["beta", "delta"], "status": "enemy"}
    page.click("#ec4x-house-list fieldset:nth-child(3) button.remove")
    scenario = collected(page)
    assert list(scenario["houses"]) == ["alpha", "beta"]
    assert len(scenario["diplomacy"]) == 1
    assert [f["owner"] for f in scenario["fleets"]] == ["alpha", "beta"]  # its fleet went too


def test_a_slow_battle_shows_computing_and_can_be_cancelled(page: Page, base_url: str) -> None:
    """While the odds are being computed the indicator says so with the seconds waited, and
    Cancel stops the request (nothing shown as its answer).

    The server's answer is held back by the browser (the request is routed and never let
    through), so the battle is "slow" however fast the engine has become: the example
    three-houses.yaml once took seconds and now answers in about two, which raced the click."""
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    page.route("**/odds", hold)
    saved = post(base_url, "/scenarios", {"scenario": example("three-houses.yaml")})
    open_page(page, f"{base_url}/?s={saved['id']}")
    page.click("#compute")
    page.wait_for_selector("#working", state="visible")
    assert "Computing" in page.inner_text("#working")
    page.wait_for_function("document.getElementById('working-time').textContent === '1 s'")
    assert held  # asked (on opening and on the click) and still waiting for an answer
    page.click("#cancel")
    page.wait_for_selector("#battle-form[aria-busy='false']")
    assert page.is_hidden("#working")
    assert page.inner_text("#status") == "Cancelled."
    assert page.is_hidden("#results")
    assert page.is_hidden("#form-error")


def test_the_form_fits_a_phone_and_names_every_control(browser: Browser, base_url: str) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True)
    try:
        page = context.new_page()
        open_page(page, f"{base_url}/")
        page.select_option("#ruleset", "ec4x")
        page.click("#ec4x-add-house")
        page.check("#ec4x-colony-on")
        page.click("#ec4x-add-starbase")
        page.click(f"{at('fleets[0]')} summary:has-text('Scouts and spacelift')")
        page.click(f"{at('fleets[0]')} button:has-text('Add scouts')")
        add_escorts(page, "fleets[0].squadrons[0]", "DD", 1)
        page.check("#ec4x-json-toggle")
        page.eval_on_selector_all("details", "ns => ns.forEach(n => { n.open = true; })")
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 360, f"the page is {width} px wide on a 360 px screen"
        unnamed = page.evaluate(
            """() => [...document.querySelectorAll(
                  '#ec4x-editor :is(input, select, textarea, button)')]
                .filter(n => n.offsetParent !== null)
                .filter(n => {
                  const label = [...(n.labels || [])].map(l => l.textContent.trim()).join('');
                  const aria = (n.getAttribute('aria-label') || '').trim();
                  const text = n.tagName === 'BUTTON' ? n.textContent.trim() : '';
                  return !(label || aria || text);
                })
                .map(n => n.id || n.outerHTML.slice(0, 80))"""
        )
        assert unnamed == []
    finally:
        context.close()
