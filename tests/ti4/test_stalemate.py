"""A space combat that neither side can win (ti4-space-combat-wiki.md FAQ; docs/rulings.md
R20): two dreadnoughts with Non-Euclidean Shielding and Duranium Armor on each side. One
sustain cancels both hits a side can score in a round, and the other dreadnought is repaired,
so the attacker must retreat if it can; if it cannot, its ships are destroyed.

The FAQ's Letnev player is set up without ``faction: letnev``: naming the faction brings in
Munitions Reserves, which the engine refuses as not implemented (docs/rulings.md R23); the two
technologies alone are accepted."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import events, run, space

LETNEV = {
    "units": "2 dreadnought",
    "technologies": ["non_euclidean_shielding", "duranium_armor"],
}
HOME = {"name": "home", "units": ["attacker"]}
FAQ = "neither side can win"


def stalemate(**extra: Any) -> dict[str, Any]:
    return space(LETNEV, LETNEV, **extra)


def test_the_attacker_must_announce_a_retreat() -> None:
    # ti4-space-combat-wiki.md FAQ: "the attacker must retreat". Faces: dreadnoughts 1, 1;
    # dreadnoughts 1, 1 (the forced retreat still waits for Step 5).
    played = run(stalemate(system={"adjacent": [HOME]}), [1, 1, 1, 1])
    announced = events(played, "retreat_announced")
    assert [(e["player"], e["forced"]) for e in announced] == [("attacker", True)]
    assert FAQ in str(announced[0]["reason"])


def test_the_attacker_is_not_asked_whether_to_retreat() -> None:
    # docs/rulings.md R20 "Consequence": the retreat is forced, not a choice.
    played = run(stalemate(system={"adjacent": [HOME]}), [1, 1, 1, 1])
    assert events(played, "choice_made", decision="announce_retreat", player="attacker") == []


def test_the_forced_retreat_is_carried_out() -> None:
    # docs/rulings.md R20: the forced announcement goes through the normal Retreat step.
    played = run(stalemate(system={"adjacent": [HOME]}), [1, 1, 1, 1])
    assert played.outcome["retreat"] == {
        "player": "attacker",
        "to": "home",
        "units": [{"unit": "dreadnought", "count": 2}],
    }
    assert played.outcome["result"] == "defender_win"


def test_the_attacker_is_forced_to_retreat_even_after_taking_damage() -> None:
    # docs/rulings.md R20: the stalemate is checked at the start of the round, so round 1's
    # hits do not matter. Faces: dreadnoughts 1, 1; dreadnoughts 5, 5 (2 hits, one sustain
    # cancels both with Non-Euclidean Shielding).
    played = run(stalemate(system={"adjacent": [HOME]}), [1, 1, 5, 5])
    sustained = events(played, "damage_sustained", player="attacker")
    assert [e["hits_cancelled"] for e in sustained] == [2]
    assert [e["player"] for e in events(played, "retreated")] == ["attacker"]


def test_without_a_retreat_the_attackers_ships_are_destroyed() -> None:
    # ti4-space-combat-wiki.md FAQ: "If they cannot, their units in the combat are destroyed".
    # No die is rolled.
    played = run(stalemate(), [])
    destroyed = events(played, "unit_destroyed")
    assert [(e["player"], e["unit"]) for e in destroyed] == [
        ("attacker", "dreadnought"),
        ("attacker", "dreadnought"),
    ]
    assert all(FAQ in str(e["cause"]) for e in destroyed)


def test_without_a_retreat_the_defender_wins() -> None:
    # docs/rulings.md R20: "the combat ends with the defender as winner".
    played = run(stalemate(), [])
    assert (played.outcome["result"], played.outcome["winner"]) == ("defender_win", "defender")


def test_the_defender_may_still_retreat_first() -> None:
    # docs/rulings.md R20: the defender announces first, and its retreat ends the stalemate;
    # the attacker is then not forced. Faces: dreadnoughts 1, 1; dreadnoughts 1, 1.
    both = {"adjacent": [{"name": "shared", "units": ["attacker", "defender"]}]}
    played = run(stalemate(system=both), [1, 1, 1, 1], defender=["retreat"])
    assert [e["player"] for e in events(played, "retreat_announced")] == ["defender"]
    assert played.outcome["result"] == "attacker_win"


def test_no_forced_retreat_when_a_side_can_still_win() -> None:
    # docs/rulings.md R20 "What counts": one dreadnought a side can be destroyed (it cannot
    # sustain twice before Duranium Armor repairs it), so no stalemate. Faces, round 1:
    # dreadnought 5 (hit, sustained); dreadnought 1. Round 2: dreadnought 5 (destroys the
    # damaged dreadnought); dreadnought 1.
    one = {"units": "1 dreadnought", "technologies": LETNEV["technologies"]}
    played = run(space(one, one, system={"adjacent": [HOME]}), [5, 1, 5, 1])
    assert events(played, "retreat_announced") == []
    assert played.outcome["result"] == "attacker_win"


def test_a_ground_combat_that_becomes_endless_is_refused_by_name() -> None:
    """docs/rulings.md R20: a ground combat no side can ever win has no rule, so the engine
    refuses it, also when it becomes endless only after some units died (here the attacker's
    infantry fall and two mechs face two mechs, each side with Non-Euclidean Shielding and
    Duranium Armor). Regression: the resolver used to loop for ever."""
    from spacecombat.core.errors import RuleNotImplemented
    from spacecombat.resolver import resolve

    scenario = {
        "ruleset": "ti4",
        "battle": "invasion",
        "attacker": {
            "units": "2 mech, 2 infantry",
            "damaged": {"mech": 2},
            "technologies": ["non_euclidean_shielding", "duranium_armor"],
        },
        "defender": {
            "units": "2 mech",
            "technologies": ["non_euclidean_shielding", "duranium_armor"],
        },
    }
    with pytest.raises(RuleNotImplemented, match="neither side can ever win"):
        resolve(scenario, seed=3)


def test_without_a_retreat_only_the_ships_are_destroyed_and_ground_forces_are_removed() -> None:
    """FAQ: "their units in the combat are destroyed": the ships. The infantry in the space
    area takes no part in the combat; it is removed for want of ships (docs/rulings.md R6)."""
    techs = ["non_euclidean_shielding", "duranium_armor"]
    played = run(
        space(
            {"units": "2 dreadnought, 1 infantry", "technologies": techs},
            {"units": "2 dreadnought", "technologies": techs},
        ),
        [],
    )
    assert {e["unit"] for e in events(played, "unit_destroyed")} == {"dreadnought"}
    assert [e["unit"] for e in events(played, "unit_removed")] == ["infantry"]
