"""Dark Energy Tap (abilities/dark_energy_tap.py): the owner may retreat into a system where it has
no units and controls no planet (ti4-space-combat.md note 8; docs/rulings.md R12); the system
still must not hold another player's ships (step 5.3)."""

from __future__ import annotations

from typing import Any

from spacecombat.rulesets.ti4.abilities.dark_energy_tap import DarkEnergyTap
from spacecombat.rulesets.ti4.sides import Side
from tests.helpers import events, run, space

A, D = Side.ATTACKER, Side.DEFENDER
OWNED = DarkEnergyTap(A)


def retreat_into(adjacent: dict[str, Any], technologies: list[str]) -> dict[str, Any]:
    attacker = {
        "units": "1 cruiser",
        "technologies": technologies,
        "policy": {"retreat": {"after_round": 0}},
    }
    return space(attacker, {"units": "1 cruiser"}, system={"adjacent": [adjacent]})


def test_the_owner_may_retreat_where_it_has_no_presence() -> None:
    assert OWNED.permits_system_without_presence(A)


def test_the_opponent_gains_nothing() -> None:
    assert not OWNED.permits_system_without_presence(D)


def test_it_permits_no_anomaly() -> None:
    assert not OWNED.permits_anomaly(A, "nebula")


def test_with_it_the_owner_retreats_into_an_empty_system() -> None:
    played = run(retreat_into({"name": "Void"}, ["dark_energy_tap"]), [1, 1])
    retreat = played.outcome["retreat"]
    assert isinstance(retreat, dict)
    assert retreat["to"] == "Void"


def test_without_it_an_empty_system_is_no_retreat_destination() -> None:
    # ti4-space-combat.md step 2.3 and 5.3: no eligible system, no announcement.
    played = run(retreat_into({"name": "Void"}, []), [7, 1])
    assert events(played, "retreat_announced") == []


def test_it_does_not_allow_a_retreat_into_a_system_with_enemy_ships() -> None:
    # ti4-space-combat.md step 5.3: the system cannot contain ships of another player.
    played = run(retreat_into({"name": "Void", "ships": ["defender"]}, ["dark_energy_tap"]), [7, 1])
    assert events(played, "retreat_announced") == []


def test_it_does_not_open_a_system_holding_another_players_units() -> None:
    # docs/rulings.md R12: with Dark Energy Tap the system must hold no other player's units at
    # all (ships, ground forces or structures).
    adjacent = {"name": "Void", "units": ["defender"], "planets": ["defender"]}
    played = run(retreat_into(adjacent, ["dark_energy_tap"]), [7, 1])
    assert events(played, "retreat_announced") == []
