"""``GET /api/v1/rulesets``: the unit card each side plays with, by faction and unit upgrade
(``unit_cards``), and the most units of a side and of a type (``most``), which the page's unit
rows and steppers show (issue 25, docs/rulings.md 25U-1, 25U-2). The cards are those a battle's
set-up reads: each faction's are checked against a battle built with it."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from spacecombat.core.errors import RuleNotImplemented, ScenarioError
from spacecombat.core.limits import MAX_UNITS_PER_SIDE
from spacecombat.rulesets import parse_scenario
from spacecombat.rulesets.ti3 import rules as ti3
from spacecombat.rulesets.ti4 import rules as ti4
from spacecombat.rulesets.ti4.setup import UPGRADABLE, build
from spacecombat.rulesets.ti4.sides import Side


@pytest.fixture
def catalogue(client: TestClient) -> dict[str, Any]:
    answer = client.get("/api/v1/rulesets")
    assert answer.status_code == 200
    found: dict[str, Any] = answer.json()
    return found


def test_sardakk_plays_the_exotrireme_and_its_upgrade(catalogue: dict[str, Any]) -> None:
    """Sardakk N'orr's faction sheet: Exotrireme I replaces the dreadnought, Exotrireme II its
    upgrade; C'morran N'orr is its flagship, Valkyrie Exoskeleton its mech (units.toml)."""
    ti = catalogue["ti4"]
    sardakk = ti["unit_cards"]["sardakk"]
    assert sardakk["dreadnought"] == {
        "base": "sardakk_dreadnought",
        "upgraded": "sardakk_dreadnought2",
    }
    assert ti["cards"]["sardakk_dreadnought"]["name"] == "Exotrireme I"
    assert ti["cards"]["sardakk_dreadnought"]["bombardment"] == {"hit": 4, "dice": 2}
    assert ti["cards"]["sardakk_dreadnought2"]["name"] == "Exotrireme II"
    assert ti["cards"][sardakk["flagship"]["base"]]["name"] == "C'morran N'orr"
    assert ti["cards"][sardakk["flagship"]["base"]]["combat"] == {"hit": 6, "dice": 2}
    assert ti["cards"][sardakk["mech"]["base"]]["name"] == "Valkyrie Exoskeleton"
    # the units the faction has no card of are the generic ones
    assert sardakk["cruiser"] == {"base": "cruiser", "upgraded": "cruiser2"}


def test_sol_plays_its_carrier_and_infantry(catalogue: dict[str, Any]) -> None:
    sol = catalogue["ti4"]["unit_cards"]["sol"]
    assert sol["carrier"] == {"base": "sol_carrier", "upgraded": "sol_carrier2"}
    assert sol["infantry"] == {"base": "sol_infantry", "upgraded": "sol_infantry2"}
    assert sol["flagship"]["base"] == "sol_flagship"


def test_no_faction_plays_the_generic_cards_and_has_no_flagship(catalogue: dict[str, Any]) -> None:
    generic = catalogue["ti4"]["unit_cards"][""]
    assert "flagship" not in generic
    for unit, cards in generic.items():
        assert catalogue["ti4"]["cards"][cards["base"]].get("faction") is None, unit
        assert (cards["upgraded"] != cards["base"]) == (unit in UPGRADABLE), unit
    assert set(catalogue["ti4"]["unit_cards"]) == {"", *ti4.load().factions}


def test_each_factions_cards_are_those_its_battle_is_built_with(
    catalogue: dict[str, Any],
) -> None:
    """A battle of each faction, without and with every unit upgrade, plays the cards the
    catalogue names (factions whose abilities the engine refuses by name are left out)."""
    built = 0
    for faction, cards in catalogue["ti4"]["unit_cards"].items():
        for upgraded in (False, True):
            side: dict[str, Any] = {"units": {"dreadnought": 1}}
            if faction:
                side["faction"] = faction
            if upgraded:
                side["upgrades"] = list(UPGRADABLE)
            scenario = {
                "ruleset": "ti4",
                "battle": "space",
                "attacker": side,
                "defender": {"units": {"cruiser": 1}},
            }
            try:
                setup = build(parse_scenario(scenario))  # type: ignore[arg-type]
            except RuleNotImplemented:
                continue
            # the unit types' cards (an effect may add cards of its own, Nekro's Alastor)
            played = setup.side(Side.ATTACKER).cards
            key = "upgraded" if upgraded else "base"
            assert {u: played[u].id for u in ti4.UNIT_TYPES if u in played} == {
                unit: ids[key] for unit, ids in cards.items()
            }, (faction, key)
            built += 1
    assert built >= 2 * 20


def test_ti3_races_play_the_generic_cards_and_their_own_flagship(
    catalogue: dict[str, Any],
) -> None:
    """TI3: no race, the generic cards and no flagship (a flagship is its race's own ship,
    docs/rulings.md 27R-1); each race, the generic cards and its own flagship where the data has
    one; the cards a battle of that race is built with (the set-up's own)."""
    from spacecombat.rulesets.ti3.setup import build as build_ti3

    ti = catalogue["ti3"]
    generic = ti["unit_cards"][""]
    assert set(generic) == set(ti3.UNIT_TYPES) - {"flagship"}
    assert generic["cruiser"] == {"base": "cruiser", "upgraded": "cruiser"}
    assert ti["unit_cards"]["sardakk"]["flagship"]["base"] == "sardakk_flagship"
    built = 0
    for race, cards in ti["unit_cards"].items():
        if not race:
            continue
        units = {"dreadnought": 1, **({"flagship": 1} if "flagship" in cards else {})}
        scenario = {
            "ruleset": "ti3",
            "battle": "space",
            "attacker": {"faction": race, "units": units},
            "defender": {"units": {"dreadnought": 1}},
        }
        try:
            setup = build_ti3(parse_scenario(scenario))  # type: ignore[arg-type]
        except RuleNotImplemented:
            continue
        side = setup.side(Side.ATTACKER)
        assert {u: side.card(u).id for u in cards} == {u: ids["base"] for u, ids in cards.items()}
        built += 1
    assert built >= 10


def test_the_most_units_are_the_limits_the_scenario_is_checked_against(
    catalogue: dict[str, Any],
) -> None:
    most = catalogue["ti4"]["most"]
    assert most == {"per_side": MAX_UNITS_PER_SIDE, "per_type": {"flagship": 1}}
    assert catalogue["ti3"]["most"]["per_side"] == MAX_UNITS_PER_SIDE
    two = {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {"faction": "sardakk", "units": {"flagship": 2}},
        "defender": {"units": {"cruiser": 1}},
    }
    with pytest.raises(ScenarioError) as refused:
        build(parse_scenario(two))  # type: ignore[arg-type]
    assert refused.value.field == "attacker.units.flagship"
    assert refused.value.message == "a player has at most 1 flagship"
