"""An anomaly where no battle can happen (docs/rulings.md R32): a ship cannot move into an
asteroid field (LRR 11.1) or a supernova (LRR 86.1), so the active player's ships can be there
only with Antimass Deflectors or Magmus Reactor ("your ships can move into ..."). Otherwise the
scenario is refused by name; nebulae and gravity rifts are fought in."""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat.core.errors import ScenarioError
from spacecombat.rulesets import battle, parse_scenario
from tests.helpers import invasion, run, space


def refusal(scenario: dict[str, Any]) -> ScenarioError:
    with pytest.raises(ScenarioError) as caught:
        battle(parse_scenario(scenario))
    return caught.value


def cruisers(anomaly: str, attacker_techs: tuple[str, ...] = (), **defender: Any) -> dict[str, Any]:
    return space(
        {"units": "1 cruiser", "technologies": list(attacker_techs)},
        {"units": "1 cruiser", **defender},
        system={"anomaly": anomaly},
    )


def test_a_battle_in_a_supernova_is_refused() -> None:
    error = refusal(cruisers("supernova"))
    assert error.field == "system.anomaly"
    assert error.message == (
        "no battle can happen in a supernova: ships cannot move into one (LRR 86.1) unless "
        "their owner has Magmus Reactor; add magmus_reactor to attacker.technologies to fight "
        "there"
    )


def test_a_battle_in_an_asteroid_field_is_refused() -> None:
    error = refusal(cruisers("asteroid_field"))
    assert error.field == "system.anomaly"
    assert error.message.startswith(
        "no battle can happen in an asteroid field: ships cannot move into one (LRR 11.1) "
        "unless their owner has Antimass Deflectors"
    )


def test_the_defenders_technology_does_not_let_the_attacker_in() -> None:
    """The active player's ships are the ones that move in; the defender's were there."""
    error = refusal(cruisers("asteroid_field", technologies=["antimass_deflectors"]))
    assert error.field == "system.anomaly"


def test_an_invasion_in_a_supernova_is_refused_too() -> None:
    """The invading ships moved into the active system like any others."""
    error = refusal(
        invasion(
            {"units": "1 carrier, 2 infantry"},
            {"units": "1 infantry"},
            system={"anomaly": "supernova"},
        )
    )
    assert error.field == "system.anomaly"


def test_antimass_deflectors_let_the_attacker_fight_in_an_asteroid_field() -> None:
    """Card Antimass Deflectors: ships can move into asteroid fields. Faces: cruiser 7 (hit);
    cruiser 1 (the defender's Antimass-free roll misses)."""
    played = run(cruisers("asteroid_field", ("antimass_deflectors",)), [7, 1])
    assert played.outcome["result"] == "attacker_win"


def test_magmus_reactor_lets_the_attacker_fight_in_a_supernova() -> None:
    """Card Magmus Reactor: ships can move into supernovas (a faction technology may be listed
    without the faction, R23). Faces: cruiser 7 (hit); cruiser 1."""
    played = run(cruisers("supernova", ("magmus_reactor",)), [7, 1])
    assert played.outcome["result"] == "attacker_win"


@pytest.mark.parametrize("anomaly", ["none", "nebula", "gravity_rift"])
def test_other_systems_are_fought_in(anomaly: str) -> None:
    """A nebula may be entered as the active system (R12); a gravity rift only on the way out
    costs ships. Faces: cruiser 7 (hit); cruiser 1."""
    played = run(cruisers(anomaly), [7, 1])
    assert played.outcome["result"] == "attacker_win"
