"""Gravity rift (abilities/gravity_rift.py): a ship that retreats out of a rift rolls one die just
before it leaves and is lost on 1 to 3 (ti4-space-combat.md note 5; docs/rulings.md R2)."""

from __future__ import annotations

from spacecombat.core.pool import DiceGroup
from spacecombat.rulesets.ti4.abilities.gravity_rift import SURVIVES_ON, departure_pool
from tests.helpers import events, rolls, run, space

RETREAT_FROM_RIFT = space(
    {"units": "2 cruiser", "policy": {"retreat": {"after_round": 0}}},
    {"units": "1 dreadnought"},
    system={"anomaly": "gravity_rift", "adjacent": [{"name": "B", "units": ["attacker"]}]},
)


# --- handler level ------------------------------------------------------------------------------


def test_a_ship_leaving_a_rift_survives_on_4_or_more() -> None:
    # docs/rulings.md R2: on a 1-3 the ship is removed.
    assert SURVIVES_ON == 4


def test_the_departure_pool_has_one_die_per_ship() -> None:
    assert departure_pool("cruiser", 3).groups == (DiceGroup("cruiser", 3, 4),)


def test_a_departure_die_showing_3_is_a_lost_ship() -> None:
    [group] = departure_pool("cruiser", 1).groups
    assert group.hit_on > 3


# --- procedure level ----------------------------------------------------------------------------


def test_each_retreating_ship_rolls_before_it_leaves_the_rift() -> None:
    # Round 1: cruisers 1, 1; dreadnought 1; then one departure die per cruiser.
    played = run(RETREAT_FROM_RIFT, [1, 1, 1, 3, 4])
    [roll] = rolls(played, "gravity_rift")
    assert (roll["player"], roll["hits"]) == ("attacker", 1)


def test_only_the_ships_that_roll_4_or_more_arrive() -> None:
    played = run(RETREAT_FROM_RIFT, [1, 1, 1, 3, 4])
    [retreated] = events(played, "retreated")
    assert retreated["units"] == [{"unit": "cruiser", "count": 1}]


def test_a_ship_lost_leaving_the_rift_is_removed_not_destroyed() -> None:
    # docs/rulings.md R2: "removed from the board"; "when destroyed" effects do not trigger.
    played = run(RETREAT_FROM_RIFT, [1, 1, 1, 3, 4])
    assert events(played, "unit_destroyed", player="attacker") == []


def test_if_every_retreating_ship_is_lost_no_command_token_is_placed() -> None:
    # docs/rulings.md R2: no unit arrived, so no token.
    played = run(RETREAT_FROM_RIFT, [1, 1, 1, 3, 2])
    assert events(played, "command_token_placed") == []


def test_no_rift_roll_without_leaving_the_rift() -> None:
    # docs/rulings.md R2: only ships moving out roll; fighting in a rift rolls nothing extra.
    scenario = space(
        {"units": "1 cruiser"}, {"units": "1 cruiser"}, system={"anomaly": "gravity_rift"}
    )
    played = run(scenario, [7, 1])
    assert rolls(played, "gravity_rift") == []
