"""Invasion step 1, BOMBARDMENT (docs/rulings.md R3, R4, R9): the attacker's units with
BOMBARDMENT roll at a planet, the defender destroys its own ground forces there for the hits, a
planetary shield blocks it unless a war sun is in the system."""

from __future__ import annotations

from typing import Any

from spacecombat.core.engine import Played
from spacecombat.rulesets.ti4.state import BattleState
from tests.helpers import events, invasion, rolls, run, survivors, units


def on_planet(played: Played[BattleState], side: str, index: int) -> dict[str, int]:
    """A side's units on the planet with this index, by type."""
    block = played.outcome[side]
    assert isinstance(block, dict)
    return units(block["planets"][index])


def bombardment_groups(played: Played[BattleState]) -> list[list[dict[str, Any]]]:
    """The dice groups of each bombardment roll."""
    found = []
    for roll in rolls(played, "bombardment"):
        groups = roll["groups"]
        assert isinstance(groups, list)
        found.append(groups)
    return found


def test_a_bombardment_hit_destroys_a_defending_infantry() -> None:
    # docs/rulings.md R9: each hit destroys one of the defender's ground forces on the planet.
    played = run(invasion({"units": "1 dreadnought"}, {"units": "2 infantry"}), [5])
    assert survivors(played, "defender", "planet") == {"infantry": 1}


def test_a_bombardment_roll_below_the_value_misses() -> None:
    # units.toml: Dreadnought I has BOMBARDMENT 5, so a 4 produces no hit (R5: face >= value).
    played = run(invasion({"units": "1 dreadnought"}, {"units": "2 infantry"}), [4])
    assert survivors(played, "defender", "planet") == {"infantry": 2}


def test_a_war_sun_rolls_three_bombardment_dice() -> None:
    # units.toml: War Sun has BOMBARDMENT 3 (x3); faces 3, 2, 10 give 2 hits.
    played = run(invasion({"units": "1 war_sun"}, {"units": "3 infantry"}), [3, 2, 10])
    assert survivors(played, "defender", "planet") == {"infantry": 1}


def test_the_defender_chooses_which_ground_force_is_destroyed() -> None:
    # docs/rulings.md R9 "Who assigns": the player who controls the bombarded planet chooses.
    played = run(
        invasion({"units": "1 dreadnought"}, {"units": "1 infantry, 1 mech"}),
        [5],
        defender=["destroy mech"],
    )
    assert survivors(played, "defender", "planet") == {"infantry": 1}


def test_a_mech_may_sustain_a_bombardment_hit() -> None:
    # docs/rulings.md R4: mechs on the bombarded planet may use SUSTAIN DAMAGE.
    played = run(invasion({"units": "1 dreadnought"}, {"units": "1 mech"}), [5])
    block = played.outcome["defender"]
    assert isinstance(block, dict)
    assert block["planets"][0] == [{"unit": "mech", "count": 1, "status": "damaged"}]


def test_bombardment_hits_beyond_the_ground_forces_are_lost() -> None:
    # docs/rulings.md R9: excess hits have no effect.
    played = run(invasion({"units": "1 war_sun"}, {"units": "1 infantry, 1 space_dock"}), [3, 3, 3])
    lost = events(played, "hits_lost", player="defender", cause="bombardment")
    assert [e["hits"] for e in lost] == [2]


def test_bombardment_hits_cannot_destroy_structures() -> None:
    # docs/rulings.md R9: bombardment hits go to ground forces only; a space dock is a structure.
    played = run(invasion({"units": "1 war_sun"}, {"units": "1 infantry, 1 space_dock"}), [3, 3, 3])
    assert survivors(played, "defender", "planet") == {"space_dock": 1}


def test_a_pds_on_the_planet_blocks_bombardment() -> None:
    # docs/rulings.md R3: no unit may bombard a planet that holds a PLANETARY SHIELD unit.
    played = run(invasion({"units": "1 dreadnought"}, {"units": "1 infantry, 1 pds"}), [])
    assert rolls(played, "bombardment") == []
    assert events(played, "bombardment_blocked", reason="planetary shield") != []


def test_a_war_sun_takes_the_planetary_shield_away() -> None:
    # docs/rulings.md R3: other players' units in a war sun's system lose PLANETARY SHIELD.
    played = run(invasion({"units": "1 war_sun"}, {"units": "3 infantry, 1 pds"}), [3, 3, 3])
    assert survivors(played, "defender", "planet") == {"pds": 1}


def test_with_a_war_sun_present_every_bombarding_unit_fires_at_a_shielded_planet() -> None:
    # docs/rulings.md R3: the shield itself is gone, so the dreadnought bombards too.
    played = run(
        invasion({"units": "1 war_sun, 1 dreadnought"}, {"units": "4 infantry, 1 pds"}),
        [1, 1, 1, 5],
    )
    [groups] = bombardment_groups(played)
    assert [(g["unit"], len(g["faces"])) for g in groups] == [("war_sun", 3), ("dreadnought", 1)]


def test_a_war_sun_bombarding_another_planet_still_lowers_the_shield() -> None:
    # docs/rulings.md R3: the war sun only has to be in the system, not bombard that planet.
    scenario = invasion(
        {"units": "1 war_sun, 1 dreadnought"},
        {},
        planets=[
            {"name": "A", "defender": "1 infantry", "bombarded_by": "1 war_sun"},
            {"name": "B", "defender": "1 infantry, 1 pds", "bombarded_by": "1 dreadnought"},
        ],
    )
    played = run(scenario, [1, 1, 1, 5])
    assert on_planet(played, "defender", 1) == {"pds": 1}


def test_no_bombardment_of_a_planet_without_defending_ground_forces() -> None:
    # docs/rulings.md R9: hits on a planet without ground forces do nothing, so none is rolled.
    played = run(invasion({"units": "1 dreadnought"}, {"units": "1 space_dock"}), [])
    assert rolls(played, "bombardment") == []


def test_bombardment_comes_before_ground_forces_are_committed() -> None:
    # docs/rulings.md R9, R13: bombardment is invasion step 1, before the commit step.
    played = run(
        invasion({"units": "1 dreadnought, 1 infantry"}, {"units": "2 infantry"}),
        [5, 8, 1],
    )
    kinds = [e["event"] for e in played.events]
    assert kinds.index("dice_rolled") < kinds.index("ground_forces_committed")


def test_bombarded_by_an_empty_allotment_means_no_bombardment() -> None:
    # docs/rulings.md R9: bombardment is optional, unit by unit.
    scenario = invasion(
        {"units": "1 dreadnought"},
        {},
        planets=[{"name": "A", "defender": "2 infantry", "bombarded_by": {}}],
    )
    played = run(scenario, [])
    assert rolls(played, "bombardment") == []


def test_each_planet_is_bombarded_by_the_units_allotted_to_it() -> None:
    # docs/rulings.md R9: several planets can be bombarded by different units.
    scenario = invasion(
        {"units": "2 dreadnought"},
        {},
        planets=[
            {"name": "A", "defender": "2 infantry", "bombarded_by": "1 dreadnought"},
            {"name": "B", "defender": "2 infantry", "bombarded_by": "1 dreadnought"},
        ],
    )
    played = run(scenario, [5, 4])
    assert (on_planet(played, "defender", 0), on_planet(played, "defender", 1)) == (
        {"infantry": 1},
        {"infantry": 2},
    )


def test_all_dice_of_a_unit_go_to_its_one_planet() -> None:
    # docs/rulings.md R9 "One planet per unit": a war sun's three dice all hit planet A.
    scenario = invasion(
        {"units": "1 war_sun"},
        {},
        planets=[
            {"name": "A", "defender": "3 infantry", "bombarded_by": "1 war_sun"},
            {"name": "B", "defender": "3 infantry"},
        ],
    )
    played = run(scenario, [3, 3, 3])
    assert (on_planet(played, "defender", 0), on_planet(played, "defender", 1)) == (
        {},
        {"infantry": 3},
    )


def test_a_pds_on_one_planet_does_not_shield_another() -> None:
    # docs/rulings.md R3: other planets in the same system can still be bombarded.
    scenario = invasion(
        {"units": "2 dreadnought"},
        {},
        planets=[
            {"name": "A", "defender": "1 infantry", "bombarded_by": "1 dreadnought"},
            {"name": "B", "defender": "1 infantry, 1 pds", "bombarded_by": "1 dreadnought"},
        ],
    )
    played = run(scenario, [5])
    assert (on_planet(played, "defender", 0), on_planet(played, "defender", 1)) == (
        {},
        {"infantry": 1, "pds": 1},
    )
