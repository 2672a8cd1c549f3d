"""Scenario validation: every bad input is refused with ``ScenarioError`` naming the field and
what is allowed, or with ``RuleNotImplemented`` naming a rule the engine lacks, before any die
is rolled (scenario/schema.py for shape, rulesets/ti4/setup.py for TI4 facts)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from spacecombat.core.errors import RuleNotImplemented, ScenarioError
from spacecombat.resolver import resolve
from spacecombat.rulesets import load_scenario, parse_ti_scenario
from spacecombat.rulesets.ti4.abilities.base import HANDLERS
from spacecombat.rulesets.ti4.setup import BattleSetup, build
from spacecombat.rulesets.ti4.sides import Side
from tests.helpers import invasion, space

CRUISER = {"units": "1 cruiser"}
CARRIER_AND_INFANTRY = {"units": "1 carrier, 2 infantry"}


def refused(scenario: dict[str, Any]) -> ScenarioError:
    """The ScenarioError that building ``scenario`` raises."""
    with pytest.raises(ScenarioError) as caught:
        build(parse_ti_scenario(scenario))
    return caught.value


def built(scenario: dict[str, Any]) -> BattleSetup:
    return build(parse_ti_scenario(scenario))


# --- units, factions, technologies, laws ---------------------------------------------------


def test_unknown_unit_names_the_field() -> None:
    error = refused(space({"units": "2 starfighter"}, CRUISER))
    assert error.field == "attacker.units.starfighter"


def test_unknown_unit_lists_the_unit_types() -> None:
    error = refused(space({"units": "2 starfighter"}, CRUISER))
    assert "allowed: war_sun, dreadnought, cruiser" in error.message


def test_unknown_unit_is_refused_by_resolve_too() -> None:
    with pytest.raises(ScenarioError, match=r"^defender\.units\.tie_fighter: unknown unit"):
        resolve(space(CRUISER, {"units": "1 tie_fighter"}), seed=1)


def test_unknown_faction_names_the_field_and_the_factions() -> None:
    error = refused(space({"faction": "klingon", **CRUISER}, CRUISER))
    assert error.field == "attacker.faction"
    assert "unknown 'klingon'; allowed: arborec" in error.message


def test_unknown_technology_names_the_field_and_the_technologies() -> None:
    error = refused(space({**CRUISER, "technologies": ["warp_drive"]}, CRUISER))
    assert error.field == "attacker.technologies[0]"
    assert "duranium_armor" in error.message


@pytest.mark.parametrize("tech", ["cruiser2", "cruiser_2", "cruiser_ii", "Cruiser II"])
def test_a_unit_upgrade_given_as_a_technology_points_to_upgrades(tech: str) -> None:
    # Unit upgrades are unit cards in the rules data, chosen with ``upgrades``.
    error = refused(space({**CRUISER, "technologies": [tech]}, CRUISER))
    assert (error.field, error.message) == (
        "attacker.technologies[0]",
        f"{tech!r} is a unit upgrade: list 'cruiser' under attacker.upgrades",
    )


def test_a_unit_without_upgrade_given_as_a_technology_points_to_units() -> None:
    """The war sun has one card: ``upgrades: [war_sun]`` is refused, so the hint must not
    send the player there."""
    error = refused(space({**CRUISER, "technologies": ["war_sun"]}, CRUISER))
    assert "list it under attacker.units" in error.message


def test_an_upgrade_of_a_unit_without_one_lists_the_upgradable_units() -> None:
    error = refused(space({**CRUISER, "upgrades": ["war_sun"]}, CRUISER))
    assert error.field == "attacker.upgrades[0]"
    assert "allowed: carrier, cruiser" in error.message


def test_a_technology_of_another_faction_is_refused() -> None:
    # docs/rulings.md R23: with a faction given, another faction's technology is refused.
    side = {"faction": "hacan", **CRUISER, "technologies": ["non_euclidean_shielding"]}
    error = refused(space(side, CRUISER))
    assert error.field == "attacker.technologies[0]"
    assert "letnev faction technology" in error.message


def test_unknown_law_names_the_field_and_the_laws() -> None:
    error = refused(space(CRUISER, CRUISER, laws=["martial_law"]))
    assert error.field == "laws[0]"
    assert "conventions_of_war" in error.message


def test_an_unimplemented_law_is_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(HANDLERS, "conventions_of_war", raising=False)  # before it was written
    with pytest.raises(RuleNotImplemented, match=r"laws\[0\]: the law Conventions"):
        built(space(CRUISER, CRUISER, laws=["conventions_of_war"]))


def test_an_unimplemented_technology_is_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(HANDLERS, "plasma_scoring", raising=False)  # before it was written
    side = {**CRUISER, "technologies": ["plasma_scoring"]}
    with pytest.raises(
        RuleNotImplemented, match=r"attacker\.technologies\[0\]: the technology Plasma"
    ):
        built(space(side, CRUISER))


# --- counts and damage ---------------------------------------------------------------------


def test_a_negative_count_is_refused() -> None:
    error = refused(space({"units": {"cruiser": -1}}, CRUISER))
    assert (error.field, error.message) == (
        "attacker.units.cruiser",
        "must be at least 0 (got -1)",
    )


def test_more_damaged_than_present_is_refused() -> None:
    side = {"units": "1 dreadnought", "damaged": "2 dreadnought"}
    error = refused(space(side, CRUISER))
    assert (error.field, error.message) == (
        "attacker.damaged.dreadnought",
        "2 damaged but only 1 present",
    )


def test_a_damaged_unit_without_sustain_damage_is_refused() -> None:
    # SUSTAIN DAMAGE (LRR §87, docs/rulings.md R17): only such units can be damaged.
    error = refused(space({"units": "2 cruiser", "damaged": "1 cruiser"}, CRUISER))
    assert error.field == "attacker.damaged.cruiser"
    assert "has no SUSTAIN DAMAGE" in error.message


def test_damaged_units_split_between_space_and_planets_are_built() -> None:
    """Two damaged mechs, one in space and one on a planet: each place gets its own."""
    side = {"units": "1 carrier, 1 mech", "planet_units": "1 mech", "damaged": "2 mech"}
    state = built(space(side, CRUISER)).initial.side(Side.ATTACKER)
    assert (str(state.space), str(state.planets[0])) == (
        "1 carrier, 1 mech (damaged)",
        "1 mech (damaged)",
    )


def test_a_flagship_without_a_faction_is_refused() -> None:
    # A flagship is a faction's unit card.
    error = refused(space({"units": "1 flagship"}, CRUISER))
    assert error.field == "attacker.units.flagship"
    assert "set attacker.faction" in error.message


def test_two_flagships_are_refused() -> None:
    # Each faction has one flagship.
    error = refused(space({"faction": "hacan", "units": "2 flagship"}, CRUISER))
    assert (error.field, error.message) == (
        "attacker.units.flagship",
        "a player has at most 1 flagship",
    )


# --- shape of the file ---------------------------------------------------------------------


def test_an_unknown_top_level_key_is_refused_with_the_keys_allowed() -> None:
    error = refused(space(CRUISER, CRUISER, weather="rain"))
    assert (error.field, error.message) == (
        "weather",
        "unknown key; allowed: "
        "ruleset, battle, attacker, defender, policy, system, laws, elected, planets, options, "
        "discard_pile",
    )


def test_an_unknown_key_of_a_side_lists_the_side_keys() -> None:
    error = refused(space({**CRUISER, "ships": "1 cruiser"}, CRUISER))
    assert error.field == "attacker.ships"
    assert "allowed: faction, units, upgrades" in error.message


def test_a_wrong_battle_kind_lists_the_kinds() -> None:
    error = refused({**space(CRUISER, CRUISER), "battle": "ground"})
    assert (error.field, error.message) == (
        "battle",
        "allowed: 'space', 'invasion', 'tactical' (got 'ground')",
    )


def test_a_missing_side_is_required() -> None:
    error = refused({"ruleset": "ti4", "battle": "space", "defender": CRUISER})
    assert (error.field, error.message) == ("attacker", "is required")


def test_a_scenario_that_is_not_a_mapping_is_refused() -> None:
    assert refused(["ti4"]).field == "scenario"  # type: ignore[arg-type]


def test_a_retreat_of_no_known_form_lists_the_forms() -> None:
    side = {**CRUISER, "policy": {"retreat": "sometimes"}}
    error = refused(space(side, CRUISER))
    assert (error.field, error.message) == (
        "attacker.policy.retreat",
        "allowed: 'never', {after_round: N} or {when_outnumbered: R} (got 'sometimes')",
    )


def test_a_retreat_with_a_bad_value_names_its_key() -> None:
    side = {**CRUISER, "policy": {"retreat": {"when_outnumbered": 0}}}
    error = refused(space(side, CRUISER))
    assert (error.field, error.message) == (
        "attacker.policy.retreat",
        "when_outnumbered: must be more than 0 (got 0)",
    )


def test_a_file_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "battle.yaml"
    path.write_bytes(b"\xff\xfe ruleset: ti4")
    with pytest.raises(ScenarioError, match="is not UTF-8 text") as caught:
        load_scenario(path)
    assert caught.value.field == "file"


# --- invasions (docs/rulings.md R24) -------------------------------------------------------


def test_an_invasion_defender_with_ships_is_refused() -> None:
    # docs/rulings.md R24: an invasion starts after space combat; the defender has no ships.
    error = refused(invasion(CARRIER_AND_INFANTRY, {"units": "1 infantry, 1 cruiser"}))
    assert error.field == "defender.units.cruiser"
    assert "infantry, mech, pds, space_dock" in error.message


def test_an_invasion_attacker_with_pds_is_refused() -> None:
    # docs/rulings.md R24: the attacker's structures take no part.
    error = refused(invasion({"units": "1 carrier, 2 infantry, 1 pds"}, {"units": "1 infantry"}))
    assert error.field == "attacker.units.pds"
    assert "ships and ground forces" in error.message


def test_planets_with_the_same_name_are_refused() -> None:
    planets = [{"name": "Lodor", "defender": "1 infantry"}, {"name": "Lodor"}]
    error = refused(invasion(CARRIER_AND_INFANTRY, {}, planets=planets))
    assert (error.field, error.message) == ("planets[1].name", "'Lodor' is named twice")


def test_committing_more_than_present_is_refused() -> None:
    planets = [{"name": "Lodor", "defender": "1 infantry", "commit": "3 infantry"}]
    error = refused(invasion(CARRIER_AND_INFANTRY, {}, planets=planets))
    assert error.field == "planets[0].commit.infantry"
    assert error.message.startswith("3 allotted")
    assert error.message.endswith("but the attacker has 2")


def test_committing_more_than_present_over_two_planets_is_refused() -> None:
    planets = [
        {"name": "Lodor", "defender": "1 infantry", "commit": "2 infantry"},
        {"name": "Quann", "commit": "1 infantry"},
    ]
    error = refused(invasion(CARRIER_AND_INFANTRY, {}, planets=planets))
    assert error.field == "planets[1].commit.infantry"


def test_committing_a_unit_the_attacker_lacks_lists_what_it_has() -> None:
    planets = [{"name": "Lodor", "defender": "1 infantry", "commit": "1 mech"}]
    error = refused(invasion(CARRIER_AND_INFANTRY, {}, planets=planets))
    assert error.field == "planets[0].commit.mech"
    assert error.message.endswith("allowed: infantry")


def test_more_damaged_than_present_on_a_planet_is_refused() -> None:
    planets = [{"name": "Lodor", "defender": "1 mech", "damaged": "2 mech"}]
    error = refused(invasion(CARRIER_AND_INFANTRY, {}, planets=planets))
    assert (error.field, error.message) == (
        "planets[0].damaged.mech",
        "2 damaged but only 1 present",
    )


def test_a_damaged_unit_without_sustain_damage_on_a_planet_is_refused() -> None:
    # SUSTAIN DAMAGE (LRR §87): infantry cannot be damaged.
    planets = [{"name": "Lodor", "defender": "2 infantry", "damaged": "1 infantry"}]
    error = refused(invasion(CARRIER_AND_INFANTRY, {}, planets=planets))
    assert error.field == "planets[0].damaged.infantry"
    assert "has no SUSTAIN DAMAGE" in error.message


def test_side_level_damage_with_planets_listed_is_refused_not_ignored() -> None:
    planets = [{"name": "Lodor", "defender": "1 mech"}]
    error = refused(invasion(CARRIER_AND_INFANTRY, {"damaged": "1 mech"}, planets=planets))
    assert error.field == "defender.damaged"
    assert "planets[].damaged" in error.message


# --- the system and retreats (docs/rulings.md R12) -----------------------------------------


def test_an_adjacent_system_named_twice_is_refused() -> None:
    system = {"name": "Lodor", "adjacent": [{"name": "B"}, {"name": "B"}]}
    error = refused(space(CRUISER, CRUISER, system=system))
    assert (error.field, error.message) == ("system.adjacent[1].name", "'B' is named twice")


def test_an_adjacent_system_named_like_the_active_one_is_refused() -> None:
    system = {"name": "Lodor", "adjacent": [{"name": "Lodor"}]}
    assert refused(space(CRUISER, CRUISER, system=system)).field == "system.adjacent[0].name"


def test_an_unknown_key_of_an_adjacent_system_lists_its_keys() -> None:
    system = {"adjacent": [{"name": "B", "owner": "attacker"}]}
    error = refused(space(CRUISER, CRUISER, system=system))
    assert error.field == "system.adjacent[0].owner"
    assert "allowed: name, anomaly, units" in error.message


def test_retreat_to_an_unknown_system_lists_the_adjacent_ones() -> None:
    # docs/rulings.md R12: a retreat goes to an adjacent system.
    side = {**CRUISER, "policy": {"retreat_to": ["Z"]}}
    system = {"adjacent": [{"name": "A"}, {"name": "B"}]}
    error = refused(space(side, CRUISER, system=system))
    assert (error.field, error.message) == (
        "attacker.policy.retreat_to[0]",
        "'Z' is not an adjacent system; allowed: A, B",
    )


def test_a_casualty_order_with_an_unknown_unit_is_refused() -> None:
    policy = {"casualty_order": ["fighter", "tie_fighter"]}
    error = refused(space(CRUISER, CRUISER, policy=policy))
    # The shared policy is named as such, not as one side's (review finding).
    assert error.field == "policy.casualty_order[1]"
    assert "unknown unit 'tie_fighter'; allowed: war_sun" in error.message


def test_a_side_policy_error_names_the_side() -> None:
    side = {"units": "1 cruiser", "policy": {"casualty_order": ["tie_fighter"]}}
    error = refused(space(side, CRUISER))
    assert error.field == "attacker.policy.casualty_order[0]"


def test_a_planet_order_in_a_space_battle_is_refused() -> None:
    error = refused(space(CRUISER, CRUISER, policy={"planet_order": ["planets"]}))
    assert error.field == "policy.planet_order"
    assert "only an invasion" in error.message
