"""A scenario that needs a combat rule the engine does not implement is refused with
RuleNotImplemented naming the rule and where the scenario asks for it (setup.py), instead of
being resolved wrongly.

Issue 14 implements the effects these tests once named, so each test takes the handlers it
needs away (``unbuilt``): the engine as it was before they were written."""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat.core.errors import RuleNotImplemented
from spacecombat.resolver import resolve
from spacecombat.rulesets.ti4.abilities.base import HANDLERS
from tests.helpers import invasion, space

#: the handlers taken away for these tests (each names an effect the tests below use)
UNBUILT = (
    "plasma_scoring",
    "ambush",
    "letnev_flagship_repair",
    "munitions_reserves",
    "naazrokha_mech_flip",
    "l4_disruptors",
    "magen_defense_grid",
    "harrow",
    "conventions_of_war",
    "morale_boost",
)


@pytest.fixture(autouse=True)
def unbuilt(monkeypatch: pytest.MonkeyPatch) -> None:
    for handler in UNBUILT:
        monkeypatch.delitem(HANDLERS, handler, raising=False)


def refusal(scenario: dict[str, Any]) -> RuleNotImplemented:
    with pytest.raises(RuleNotImplemented) as caught:
        resolve(scenario, seed=1)
    return caught.value


def test_plasma_scoring_is_refused() -> None:
    # ti4-combat-effects.md §1: one extra space cannon / bombardment die.
    scenario = invasion(
        {"units": "1 dreadnought, 1 infantry", "technologies": ["plasma_scoring"]},
        {"units": "1 infantry"},
    )
    error = refusal(scenario)
    assert (error.rule, error.where) == (
        "the technology Plasma Scoring",
        "attacker.technologies[0]",
    )


def test_mentak_ambush_is_refused() -> None:
    # ti4-combat-effects.md §3: Mentak Ambush acts at the start of space combat.
    error = refusal(space({"faction": "mentak", "units": "2 cruiser"}, {"units": "1 cruiser"}))
    assert (error.rule, error.where) == ("the ability 'Ambush'", "attacker.faction (mentak)")


def test_the_letnev_flagship_is_refused() -> None:
    # units.toml: Arc Secundus repairs itself at the start of every space combat round.
    error = refusal(space({"faction": "letnev", "units": "1 flagship"}, {"units": "1 cruiser"}))
    assert error.where == "attacker.units.flagship (Arc Secundus)"


def test_letnev_munitions_reserves_is_refused() -> None:
    # ti4-combat-effects.md §3: rerolls bought at the start of a space combat round.
    error = refusal(space({"units": "1 cruiser"}, {"faction": "letnev", "units": "1 cruiser"}))
    assert error.rule == "the ability 'Munitions Reserves'"


def test_the_naaz_rokha_mech_is_refused() -> None:
    # units.toml: the Eidolon flips to a ship in space; it is the only ground force with burst
    # icons, so ground combat with it waits for that rule.
    error = refusal(
        invasion({"units": "1 carrier, 1 infantry"}, {"faction": "naazrokha", "units": "1 mech"})
    )
    assert error.where == "defender.units.mech (Eidolon)"


def test_l4_disruptors_are_refused() -> None:
    # docs/rulings.md R10: no SPACE CANNON against the Letnev player's units in their invasions.
    scenario = invasion(
        {"units": "1 carrier, 1 infantry", "technologies": ["l4_disruptors"]}, {"units": "1 pds"}
    )
    assert refusal(scenario).rule == "the technology L4 Disruptors"


def test_magen_defense_grid_is_refused() -> None:
    # ti4-combat-effects.md §1: a planetary shield stops the opponent's ground combat rolls.
    scenario = invasion(
        {"units": "1 carrier, 1 infantry"},
        {"units": "1 infantry, 1 pds", "technologies": ["magen_defense_grid"]},
    )
    assert refusal(scenario).rule == "the technology Magen Defense Grid"


def test_l1z1x_harrow_is_refused() -> None:
    # ti4-combat-effects.md §3: bombardment again after each ground combat round.
    scenario = invasion(
        {"faction": "l1z1x", "units": "1 dreadnought, 1 infantry"}, {"units": "1 infantry"}
    )
    assert refusal(scenario).rule == "the ability 'Harrow'"


def test_a_combat_law_without_a_handler_is_refused() -> None:
    error = refusal(
        space({"units": "1 cruiser"}, {"units": "1 cruiser"}, laws=["conventions_of_war"])
    )
    assert (error.rule, error.where) == ("the law Conventions of War", "laws[0]")


def test_the_message_names_the_rule() -> None:
    error = refusal(space({"faction": "mentak", "units": "2 cruiser"}, {"units": "1 cruiser"}))
    assert "Ambush" in str(error)


def test_an_action_card_without_a_handler_is_refused() -> None:
    error = refusal(
        space({"units": "1 cruiser", "action_cards": ["morale_boost"]}, {"units": "1 cruiser"})
    )
    assert (error.rule, error.where) == (
        "the action card Morale Boost",
        "attacker.action_cards[0]",
    )
