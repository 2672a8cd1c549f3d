"""Shared steps from a scenario to a battle's facts (rulesets/setup.py)."""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat.core.errors import ScenarioError
from spacecombat.core.policies import DEFAULT_CASUALTY_ORDER
from spacecombat.core.sides import Side
from spacecombat.rulesets import parse_scenario
from spacecombat.rulesets.setup import (
    check_invasion_places,
    check_policy_names,
    field_key,
    merged_policy,
    policy_config,
    side_spec,
)
from spacecombat.scenario.schema import PolicySpec, Scenario
from tests.core._fakes import FakeSide


def _scenario(**changes: Any) -> Scenario:
    data: dict[str, Any] = {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {"units": {"cruiser": 2}},
        "defender": {"units": {"fighter": 1}},
        **changes,
    }
    scenario = parse_scenario(data)
    assert isinstance(scenario, Scenario)
    return scenario


def test_field_key_quotes_what_is_not_a_short_name() -> None:
    assert field_key("cruiser") == "cruiser"
    assert field_key("war sun") != "war sun"


def test_side_spec() -> None:
    scenario = _scenario()
    assert side_spec(scenario, Side.ATTACKER) is scenario.attacker
    assert side_spec(scenario, Side.DEFENDER) is scenario.defender


def test_the_sides_policy_overlays_the_shared_one_each_layer_checked() -> None:
    scenario = _scenario(
        policy={"sustain": "last", "casualty_order": ["fighter"]},
        attacker={"units": {"cruiser": 2}, "policy": {"sustain": "first"}},
    )
    checked: list[str] = []
    config = merged_policy(
        scenario, scenario.attacker, "attacker.policy", lambda _, name: checked.append(name)
    )
    assert checked == ["policy", "attacker.policy"]
    assert config.sustain == "first"
    assert list(config.casualty_order or ()) == ["fighter"]


def test_policy_config_fills_the_stock_defaults_and_the_rulesets_keys() -> None:
    config = policy_config(PolicySpec(), planet_order=("A",))
    assert config.casualty_order == DEFAULT_CASUALTY_ORDER
    assert config.sustain == "first"
    assert config.retreat_after_round is None
    assert config.planet_order == ("A",)
    assert policy_config(PolicySpec(retreat={"after_round": 2})).retreat_after_round == 2


def test_policy_names_units_and_adjacent_systems() -> None:
    check_policy_names(PolicySpec(casualty_order=["cruiser"]), "policy", ["cruiser"], [])
    with pytest.raises(ScenarioError) as refused:
        check_policy_names(PolicySpec(casualty_order=["tank"]), "policy", ["cruiser"], [])
    assert refused.value.field == "policy.casualty_order[0]"
    with pytest.raises(ScenarioError) as refused:
        check_policy_names(PolicySpec(retreat_to=["B"]), "policy", [], [])
    assert "none (system.adjacent lists none)" in refused.value.message


def test_invasion_places() -> None:
    cards = FakeSide()
    words = {"attacker_brings": "ships", "defender_has": "infantry, pds"}
    ok = _scenario(battle="invasion", defender={"units": {"infantry": 1}})
    check_invasion_places(ok, cards, cards, **words)
    bad = _scenario(battle="invasion", attacker={"units": {"pds": 1, "infantry": 1}})
    with pytest.raises(ScenarioError) as refused:
        check_invasion_places(bad, cards, cards, **words)
    assert (refused.value.field, refused.value.message) == (
        "attacker.units.pds",
        "an invasion's attacker brings ships",
    )
    bad = _scenario(battle="invasion", defender={"units": {"cruiser": 1}})
    with pytest.raises(ScenarioError) as refused:
        check_invasion_places(bad, cards, cards, **words)
    assert (
        refused.value.message
        == "an invasion's defender has only units on the planet: infantry, pds"
    )
