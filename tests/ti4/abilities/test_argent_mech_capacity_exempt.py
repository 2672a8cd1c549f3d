"""Aerie Sentinel (Argent mech; abilities/argent_mech_capacity_exempt.py): it does not count
against capacity in a space area with one of its owner's ships that has a capacity value
(ti4-combat-effects.md; data/units.toml), read by the capacity checks of the space area
(procedures/capacity.py: before the battle, LRR 16.3 note 1; after combat, space rule 10.1).
A retreat carries it without room when a retreating ship has a capacity value (docs/rulings.md
14B-12, 14K-5)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, cast

import pytest

from spacecombat import odds
from tests.helpers import events, run, space

HITS = [10] * 40


def removed(attacker: dict[str, Any], faces: list[int]) -> list[tuple[object, object]]:
    played = run(space(attacker, {"units": "1 cruiser"}), faces, all_dice=False)
    return [(e["unit"], e["reason"]) for e in events(played, "unit_removed")]


def test_it_needs_no_room_beside_a_ship_with_capacity() -> None:
    argent = {"units": "1 carrier, 4 fighter, 1 mech", "faction": "argent"}
    assert removed(argent, HITS) == []
    # the same with a plain infantry: one unit too many
    plain = {"units": "1 carrier, 4 fighter, 1 infantry", "faction": "argent"}
    assert removed(plain, HITS) == [("infantry", "beyond capacity before the battle")]


def test_other_units_are_removed_first_and_it_is_never_offered() -> None:
    argent = {"units": "1 carrier, 4 fighter, 1 mech, 1 infantry", "faction": "argent"}
    played = run(space(argent, {"units": "1 cruiser"}), HITS, all_dice=False)
    choice: Any
    [choice] = events(played, "choice_made", decision="remove_excess")
    assert "remove mech" not in choice["options"]


def test_without_a_ship_with_capacity_it_counts() -> None:
    argent = {"units": "1 cruiser, 1 mech", "faction": "argent"}
    assert removed(argent, HITS) == [("mech", "beyond capacity before the battle")]


def test_after_combat_the_remaining_capacity_is_for_the_others() -> None:
    # the carrier is destroyed, the dreadnought (capacity 1) survives: 1 of 2 fighters stays,
    # and the mech stays too
    argent = {"units": "1 carrier, 1 dreadnought, 2 fighter, 1 mech", "faction": "argent"}
    played = run(
        space(argent, {"units": "1 cruiser"}), [10, 1, 1, 1, 10], attacker=["destroy carrier"]
    )
    assert [(e["unit"], e["reason"]) for e in events(played, "unit_removed")] == [
        ("fighter", "beyond capacity after combat")
    ]


def retreating(units: str) -> dict[str, Any]:
    argent = {"units": units, "faction": "argent", "policy": {"retreat": {"after_round": 0}}}
    return space(
        argent,
        {"units": "1 cruiser"},
        system={"adjacent": [{"name": "home", "units": ["attacker"]}]},
    )


def test_a_retreat_carries_it_without_room() -> None:
    """14K-5: "does not count against capacity if it is being transported": the carrier's 4
    capacity carries the 4 infantry, the mech goes along, never offered nor counted."""
    played = run(retreating("1 carrier, 4 infantry, 1 mech"), [1, 1])
    asked = events(played, "choice_made", decision="retreat_transport")
    offered = {o for e in asked for o in cast("list[str]", e["options"])}
    assert offered == {"carry infantry", "done"}
    [retreated] = events(played, "retreated")
    assert retreated["units"] == [
        {"unit": "carrier", "count": 1},
        {"unit": "infantry", "count": 4},
        {"unit": "mech", "count": 1},
    ]
    assert not events(played, "unit_removed")


def test_out_of_a_gravity_rift_it_rides_a_full_carrier() -> None:
    """Leaving a gravity rift each carried unit is stowed on a ship; the mech needs no room on
    the carrier the 4 infantry fill, and arrives with it (rift roll 5: the carrier survives)."""
    scenario = retreating("1 carrier, 4 infantry, 1 mech")
    scenario["system"]["anomaly"] = "gravity_rift"
    played = run(scenario, [1, 1, 5])
    stowed = events(played, "choice_made", decision="stow_cargo")
    assert len(stowed) == 5
    [retreated] = events(played, "retreated")
    assert {"unit": "mech", "count": 1} in cast("list[object]", retreated["units"])


def test_exact_expected_losses_of_a_retreat() -> None:
    """1 carrier (1/5), 4 infantry and 1 mech against 1 cruiser (2/5), retreating in round 1:
    the carrier dies with 2/5 (all 7 resources lost: 3 + 4/2 + 2); otherwise nothing is lost
    (the mech goes along; were it removed, 12/25 * 2 more). Expected attacker losses 14/5."""
    found = odds(retreating("1 carrier, 4 infantry, 1 mech"))
    assert found.expected_losses["attacker"] == pytest.approx(2.8, abs=1e-12)


def test_exact_expected_losses_hand_derived() -> None:
    """1 carrier (1/5), 4 infantry and 1 mech against 1 cruiser (2/5): nothing is removed
    before the battle. The carrier wins with (1/5 * 3/5) / (1 - 4/5 * 3/5) = 3/13; otherwise
    (10/13) it is destroyed and the 4 infantry and the mech with it (cost 3 + 4/2 + 2 = 7):
    expected attacker losses 70/13 (without the exemption an infantry, 1/2, is removed first:
    1/2 + 10/13 * 13/2 = 11/2)."""
    found = odds(
        space(
            {"units": "1 carrier, 4 infantry, 1 mech", "faction": "argent"}, {"units": "1 cruiser"}
        )
    )
    assert found.attacker_win == pytest.approx(float(Fraction(3, 13)), abs=1e-12)
    assert found.expected_losses["attacker"] == pytest.approx(float(Fraction(70, 13)), abs=1e-11)
