"""The unit rows, quick controls and pickers of the calculator page (issue 25, items 3 and 5;
docs/rulings.md 25U-1 to 25U-5), in Chromium against the real server: a faction's unit names
and combat values in its rows (units.toml, as GET /api/v1/rulesets gives them), an upgrade
switching a row to the upgraded card, swap sides (the odds mirror), reset, the +/- steppers,
the technology and card pickers filtered to what the faction may hold, and the odds of what
was picked equal to ``spacecombat.odds`` on the same scenario."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import Page

from spacecombat import odds
from spacecombat.rulesets import parse_scenario

#: end to end through a browser, seconds a test: the whole suite's, not the fast loop's
pytestmark = pytest.mark.slow

TOLERANCE = 1e-9
OUTCOMES = ("attacker_win", "draw", "defender_win")


@pytest.fixture(scope="module")
def ti4(base_url: str) -> dict[str, Any]:
    """TI4's catalogue, as the page reads it."""
    with urllib.request.urlopen(f"{base_url}/api/v1/rulesets", timeout=30) as answer:
        found: dict[str, Any] = json.load(answer)["ti4"]
        return found


def row(page: Page, side: str, unit: str) -> dict[str, Any]:
    """What a unit row shows: its card id, name, values (by stat) and abilities."""
    shown: dict[str, Any] = page.eval_on_selector(
        f"#{side}-row-{unit}",
        """r => ({
            card: r.dataset.card,
            name: r.querySelector('.unit-name').textContent,
            stats: Object.fromEntries([...r.querySelectorAll('.stat')]
                .map(s => [s.dataset.stat, s.textContent])),
            abilities: [...r.querySelectorAll('.abilities li')].map(li => li.textContent),
            text: r.querySelector('th').innerText,
        })""",
    )
    return shown


def answer_for(page: Page, scenario: dict[str, Any]) -> dict[str, Any]:
    """Press "Compute odds" and the API's answer to the request that sends ``scenario`` (the
    page may recompute on its own as it is edited: the answer to this battle is the one read)."""
    expected = parse_scenario(scenario)

    def sends_it(response: Any) -> bool:
        request = response.request
        if request.method != "POST" or not request.url.endswith("/api/v1/odds"):
            return False
        return bool(parse_scenario(json.loads(request.post_data)["scenario"]) == expected)

    with page.expect_response(sends_it, timeout=120_000) as answer:
        page.click("#compute")
    # its body read at once: Chromium may drop it once the page has moved on (a recompute of
    # its own while the form settles: "No data found for resource", on a loaded machine)
    found: dict[str, Any] = answer.value.json()
    page.wait_for_selector("#battle-form[aria-busy='false']")
    assert answer.value.status == 200, found
    return found


def assert_engines(report: dict[str, Any], scenario: dict[str, Any]) -> None:
    expected = odds(scenario).to_json()
    for key in (*OUTCOMES, "residual"):
        assert abs(report.get(key, 0.0) - expected.get(key, 0.0)) <= TOLERANCE, key


def test_a_faction_shows_in_the_unit_rows(page: Page, ti4: dict[str, Any]) -> None:
    """Sardakk N'orr's faction sheet (units.toml): Exotrireme I for the dreadnought (combat 5,
    sustain damage, capacity 1, bombardment 4 x2), C'morran N'orr (combat 6 x2, +1 to its
    other ships' combat rolls), Valkyrie Exoskeleton; the generic PDS's space cannon 6."""
    flagship = row(page, "attacker", "flagship")
    assert flagship["card"] == ""
    assert "needs a faction" in flagship["text"]
    assert row(page, "attacker", "dreadnought")["name"] == "Dreadnought I"

    page.select_option("#attacker-faction", "sardakk")
    dreadnought = row(page, "attacker", "dreadnought")
    assert dreadnought["card"] == "sardakk_dreadnought"
    assert dreadnought["name"] == "Exotrireme I"
    assert dreadnought["stats"] == {
        "combat": "combat 5",
        "sustain_damage": "sustain damage",
        "capacity": "capacity 1",
        "bombardment": "bombardment 4 ×2",
    }
    flagship = row(page, "attacker", "flagship")
    assert flagship["name"] == "C'morran N'orr"
    assert flagship["stats"]["combat"] == "combat 6 ×2"
    assert flagship["stats"]["capacity"] == "capacity 3"
    assert flagship["abilities"] == [
        a["text"] for a in ti4["cards"]["sardakk_flagship"]["abilities"]
    ]
    mech = row(page, "attacker", "mech")
    assert mech["name"] == "Valkyrie Exoskeleton"
    assert mech["abilities"] == [a["text"] for a in ti4["cards"]["sardakk_mech"]["abilities"]]
    assert row(page, "attacker", "pds")["stats"]["space_cannon"] == "space cannon 6"
    assert row(page, "attacker", "cruiser")["name"] == "Cruiser I"
    # the faction's own abilities under its choice
    abilities = page.inner_text("#attacker-faction-abilities")
    assert ti4["factions"]["sardakk"]["abilities"][0]["text"] in abilities
    # the other side is untouched
    assert row(page, "defender", "dreadnought")["name"] == "Dreadnought I"

    # Federation of Sol: Advanced Carrier I (capacity 6), Spec Ops I (combat 7), Genesis
    page.select_option("#attacker-faction", "sol")
    carrier = row(page, "attacker", "carrier")
    assert (carrier["name"], carrier["stats"]["capacity"]) == ("Advanced Carrier I", "capacity 6")
    assert row(page, "attacker", "infantry")["stats"]["combat"] == "combat 7"
    assert row(page, "attacker", "flagship")["name"] == "Genesis"
    assert row(page, "attacker", "dreadnought")["name"] == "Dreadnought I"


def test_an_upgrade_switches_the_row_to_the_upgraded_card(page: Page, ti4: dict[str, Any]) -> None:
    """Cruiser II: combat 6, capacity 1 (Cruiser I: combat 7, no capacity). Exotrireme II,
    picked in the technology picker, ticks the row's "II" and plays in the battle."""
    page.check("#attacker-upgrade-cruiser")
    cruiser = row(page, "attacker", "cruiser")
    assert cruiser["card"] == "cruiser2"
    assert cruiser["stats"] == {"combat": "combat 6", "capacity": "capacity 1"}
    page.uncheck("#attacker-upgrade-cruiser")
    assert row(page, "attacker", "cruiser")["stats"] == {"combat": "combat 7"}

    page.select_option("#attacker-faction", "sardakk")
    page.fill("#attacker-tech-search", "exotrireme")
    page.keyboard.press("Enter")
    assert page.is_checked("#attacker-upgrade-dreadnought")
    dreadnought = row(page, "attacker", "dreadnought")
    assert dreadnought["card"] == "sardakk_dreadnought2"
    assert dreadnought["name"] == "Exotrireme II"
    expected = [a["text"] for a in ti4["cards"]["sardakk_dreadnought2"]["abilities"]]
    assert dreadnought["abilities"] == expected
    assert "Exotrireme II" in page.inner_text("#attacker-tech-chips")
    scenario = {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {
            "faction": "sardakk",
            "units": {"dreadnought": 2},
            "upgrades": ["dreadnought"],
        },
        "defender": {"units": {"cruiser": 3}},
    }
    assert_engines(answer_for(page, scenario)["report"], scenario)
    # the chip takes it off again, and the row goes back to Exotrireme I
    page.click("#attacker-tech-chips button:has-text('Exotrireme II')")
    assert not page.is_checked("#attacker-upgrade-dreadnought")
    assert row(page, "attacker", "dreadnought")["name"] == "Exotrireme I"


def test_swap_sides_exchanges_everything_of_a_side_and_the_odds_mirror(page: Page) -> None:
    page.select_option("#attacker-faction", "sardakk")
    page.check("#attacker-upgrade-dreadnought")
    page.fill("#defender-units-destroyer", "1")
    page.click("#add-adjacent")
    page.check("#adjacent-0-units-attacker")
    before = {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {
            "faction": "sardakk",
            "units": {"dreadnought": 2},
            "upgrades": ["dreadnought"],
        },
        "defender": {"units": {"cruiser": 3, "destroyer": 1}},
        "system": {"adjacent": [{"name": "System 1", "units": ["attacker"]}]},
    }
    first = answer_for(page, before)["report"]

    page.click("#swap-sides")
    assert page.input_value("#defender-faction") == "sardakk"
    assert page.input_value("#attacker-faction") == ""
    assert page.input_value("#defender-units-dreadnought") == "2"
    assert page.is_checked("#defender-upgrade-dreadnought")
    assert page.input_value("#attacker-units-cruiser") == "3"
    assert page.input_value("#attacker-units-destroyer") == "1"
    assert page.input_value("#attacker-units-dreadnought") == ""
    assert page.is_checked("#adjacent-0-units-defender")
    assert not page.is_checked("#adjacent-0-units-attacker")
    assert row(page, "defender", "dreadnought")["name"] == "Exotrireme II"
    after = {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": before["defender"],
        "defender": before["attacker"],
        "system": {"adjacent": [{"name": "System 1", "units": ["defender"]}]},
    }
    second = answer_for(page, after)["report"]
    assert_engines(second, after)
    # a space combat of ships without abilities that read the roles: the odds mirror
    assert abs(second["attacker_win"] - first["defender_win"]) <= TOLERANCE
    assert abs(second["defender_win"] - first["attacker_win"]) <= TOLERANCE
    assert abs(second.get("draw", 0.0) - first.get("draw", 0.0)) <= TOLERANCE

    page.click("#swap-sides")
    assert page.input_value("#attacker-faction") == "sardakk"
    answer_for(page, before)


def test_reset_gives_the_rulesets_default_battle(page: Page) -> None:
    default = {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {"units": {"dreadnought": 2}},
        "defender": {"units": {"cruiser": 3}},
    }
    page.select_option("#attacker-faction", "sol")
    page.fill("#attacker-units-carrier", "2")
    page.check("#defender-upgrade-cruiser")
    page.click("#kind-invasion")
    page.click("#reset-battle")
    assert page.input_value("#attacker-faction") == ""
    assert page.input_value("#attacker-units-carrier") == ""
    assert page.input_value("#attacker-units-dreadnought") == "2"
    assert not page.is_checked("#defender-upgrade-cruiser")
    assert page.input_value("#battle") == "space"
    assert page.get_attribute("#kind-space", "aria-pressed") == "true"
    assert_engines(answer_for(page, default)["report"], default)

    page.select_option("#ruleset", "ti3")
    page.fill("#attacker-units-cruiser", "4")
    page.click("#reset-battle")
    assert page.input_value("#attacker-units-cruiser") == ""
    assert page.input_value("#ruleset") == "ti3"


def test_the_steppers_count_within_the_limits(page: Page) -> None:
    """+ and - by mouse and keyboard; never below 0, nor above the catalogue's ``most`` (a
    player has 1 flagship)."""
    assert page.is_disabled("#attacker-less-cruiser")
    page.click("#attacker-more-cruiser")
    page.click("#attacker-more-cruiser")
    assert page.input_value("#attacker-units-cruiser") == "2"
    page.click("#attacker-less-cruiser")
    assert page.input_value("#attacker-units-cruiser") == "1"
    page.focus("#attacker-more-cruiser")
    page.keyboard.press("Enter")
    page.keyboard.press("Space")
    assert page.input_value("#attacker-units-cruiser") == "3"
    assert page.get_attribute("#attacker-more-cruiser", "aria-label") == (
        "Attacker: one Cruiser I more"
    )
    page.click("#attacker-less-dreadnought")
    page.click("#attacker-less-dreadnought")
    assert page.input_value("#attacker-units-dreadnought") == ""
    assert page.is_disabled("#attacker-less-dreadnought")

    assert page.is_disabled("#attacker-more-flagship")  # no faction: no flagship
    page.select_option("#attacker-faction", "sardakk")
    page.click("#attacker-more-flagship")
    assert page.input_value("#attacker-units-flagship") == "1"
    assert page.is_disabled("#attacker-more-flagship")
    assert page.get_attribute("#attacker-units-flagship", "max") == "1"
    assert page.get_attribute("#attacker-units-cruiser", "max") == "200"
    scenario = {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {"faction": "sardakk", "units": {"cruiser": 3, "flagship": 1}},
        "defender": {"units": {"cruiser": 3}},
    }
    assert_engines(answer_for(page, scenario)["report"], scenario)


def shown_options(page: Page, side: str, picker: str) -> list[str]:
    ids: list[str] = page.eval_on_selector_all(
        f"#{side}-{picker}-picker + details .check",
        "ns => ns.filter(n => !n.hidden).map(n => n.querySelector('input').id)",
    )
    return ids


def test_the_pickers_filter_to_what_the_faction_may_hold(page: Page, ti4: dict[str, Any]) -> None:
    page.select_option("#attacker-faction", "sardakk")
    techs = shown_options(page, "attacker", "tech")
    for tech, record in ti4["technologies"].items():
        held = record.get("faction") in (None, "sardakk")
        assert (f"attacker-tech-{tech}" in techs) == held, tech
    cards = shown_options(page, "attacker", "cards")
    assert "attacker-card-tekklar_legion" not in cards  # Sardakk's own promissory note
    assert "attacker-card-war_funding" in cards  # Letnev's, given to Sardakk
    assert "attacker-card-viscount_unlenn" not in cards  # Letnev's agent
    assert "attacker-card-claire_gibson" in cards  # Sol's commander (the Alliance note)
    assert "attacker-card-morale_boost" in cards  # an action card
    # the other side, of no faction, may hold anything
    assert len(shown_options(page, "defender", "tech")) >= len(ti4["technologies"])

    # typing filters (no edit of the battle: the form hears nothing); Enter picks the first
    # match; the chip shows it
    page.evaluate(
        """() => { window.heard = 0;
            document.getElementById('battle-form').addEventListener('input', () => window.heard++);
        }"""
    )
    page.fill("#attacker-tech-search", "valkyrie")
    assert page.evaluate("() => window.heard") == 0
    assert shown_options(page, "attacker", "tech") == ["attacker-tech-valkyrie_particle_weave"]
    page.keyboard.press("Enter")
    assert page.is_checked("#attacker-tech-valkyrie_particle_weave")
    assert page.evaluate("() => window.heard") >= 1  # a pick is an edit: the page recomputes
    assert page.input_value("#attacker-tech-search") == ""
    assert "Valkyrie Particle Weave" in page.inner_text("#attacker-tech-chips")
    page.fill("#attacker-cards-search", "morale")
    page.keyboard.press("Enter")
    assert page.is_checked("#attacker-card-morale_boost")
    assert "Morale Boost" in page.inner_text("#attacker-cards-chips")

    # another faction: what it may not hold is taken off
    page.select_option("#attacker-faction", "letnev")
    assert not page.is_checked("#attacker-tech-valkyrie_particle_weave")
    assert "attacker-tech-valkyrie_particle_weave" not in shown_options(page, "attacker", "tech")
    assert "attacker-tech-non_euclidean_shielding" in shown_options(page, "attacker", "tech")
    assert page.is_checked("#attacker-card-morale_boost")
    assert "Valkyrie" not in page.inner_text("#attacker-tech-chips")
    # a chip's button takes its card off
    page.click("#attacker-cards-chips button:has-text('Morale Boost')")
    assert not page.is_checked("#attacker-card-morale_boost")


def test_the_odds_of_picked_technologies_are_the_engines(page: Page) -> None:
    """The issue's battle: Sardakk with Antimass Deflectors against cruisers, a destroyer, a
    PDS and Plasma Scoring, picked in the pickers, gives ``spacecombat.odds`` of it."""
    page.select_option("#attacker-faction", "sardakk")
    page.fill("#attacker-tech-search", "antimass")
    page.keyboard.press("Enter")
    page.fill("#defender-units-destroyer", "1")
    page.click("#defender-more-pds")
    page.fill("#defender-tech-search", "plasma")
    page.keyboard.press("Enter")
    scenario = {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {
            "faction": "sardakk",
            "units": {"dreadnought": 2},
            "technologies": ["antimass_deflectors"],
        },
        "defender": {
            "units": {"cruiser": 3, "destroyer": 1, "pds": 1},
            "technologies": ["plasma_scoring"],
        },
    }
    assert_engines(answer_for(page, scenario)["report"], scenario)


def test_the_tactical_action_is_a_battle_kind_of_its_own(page: Page) -> None:
    assert page.inner_text("#kind-tactical") == "Tactical action: space, then planets"
    page.click("#kind-tactical")
    assert page.input_value("#battle") == "tactical"
    assert page.get_attribute("#kind-tactical", "aria-pressed") == "true"
    assert page.get_attribute("#kind-space", "aria-pressed") == "false"
    assert page.is_visible("#planets-panel")
    page.select_option("#battle", "space")
    assert page.get_attribute("#kind-space", "aria-pressed") == "true"
    assert page.is_hidden("#planets-panel")


def test_ti3_rows_show_the_generic_cards_and_the_races_ability(page: Page) -> None:
    """TI3 (the catalogue's TI3 cards, data overlaid on TI4's): every race plays the generic
    cards; the destroyer's anti-fighter barrage 9 x2, the PDS's space cannon 6; Sardakk N'orr's
    race ability (all combat rolls +1) under its choice."""
    page.select_option("#ruleset", "ti3")
    destroyer = row(page, "attacker", "destroyer")
    assert destroyer["name"] == "Destroyer"
    assert destroyer["stats"] == {
        "combat": "combat 9",
        "anti_fighter_barrage": "anti-fighter barrage 9 ×2",
    }
    assert row(page, "attacker", "pds")["stats"]["space_cannon"] == "space cannon 6"
    page.select_option("#attacker-faction", "sardakk")
    assert row(page, "attacker", "dreadnought")["card"] == "dreadnought"
    assert "All combat rolls get +1." in page.inner_text("#attacker-faction-abilities")
    page.click("#attacker-more-ground_force")
    assert page.input_value("#attacker-units-ground_force") == "1"


def test_a_sides_table_fits_beside_the_result_column_at_1280_px(page: Page) -> None:
    """At 1280 px (the desktop the issue tried) each side's unit table shows every column,
    the upgrade ("II") column included, without scrolling sideways inside its panel."""
    for side in ("attacker", "defender"):
        wide, room = page.evaluate(
            """side => { const w = document.querySelector(`#side-${side} .table-wrap`);
                return [w.scrollWidth, w.clientWidth]; }""",
            side,
        )
        assert wide <= room, (side, wide, room)
        page.locator(f"#{side}-upgrade-cruiser").click(trial=True)  # reachable, not covered
