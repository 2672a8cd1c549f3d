"""Invasion steps 2 and 3: committing ground forces to planets, and Space Cannon Defense
(docs/rulings.md R4, R10, R13, R19): only the defender's SPACE CANNON units on the planet fire, at
the forces committed to it, and the attacker assigns the hits."""

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


def committed(played: Played[BattleState]) -> dict[object, dict[str, int]]:
    """What the attacker committed, by planet name."""
    return {e["planet"]: units(e["units"]) for e in events(played, "ground_forces_committed")}


def cannon_group(played: Played[BattleState]) -> dict[str, Any]:
    """The one dice group of the one space cannon defense roll."""
    [roll] = rolls(played, "space_cannon_defense")
    groups = roll["groups"]
    assert isinstance(groups, list)
    [group] = groups
    assert isinstance(group, dict)
    return group


def planet_controller(played: Played[BattleState], index: int = 0) -> object:
    planets = played.outcome["planets"]
    assert isinstance(planets, list)
    return planets[index]["controller"]


# --- commit ground forces -------------------------------------------------------------------


def test_by_default_every_ground_force_is_committed() -> None:
    # Invasion step 2: with one planet and no `commit`, all the attacker's ground forces land.
    played = run(invasion({"units": "1 carrier, 2 infantry, 1 mech"}, {}), [])
    assert committed(played) == {"planet": {"infantry": 2, "mech": 1}}


def test_commit_lands_only_the_listed_ground_forces() -> None:
    scenario = invasion(
        {"units": "1 carrier, 3 infantry"}, {}, planets=[{"name": "A", "commit": "1 infantry"}]
    )
    played = run(scenario, [])
    assert committed(played) == {"A": {"infantry": 1}}


def test_ground_forces_not_committed_stay_in_the_space_area() -> None:
    scenario = invasion(
        {"units": "1 carrier, 3 infantry"}, {}, planets=[{"name": "A", "commit": "1 infantry"}]
    )
    played = run(scenario, [])
    assert survivors(played, "attacker") == {"carrier": 1, "infantry": 2}


def test_each_planet_receives_its_own_commitment() -> None:
    scenario = invasion(
        {"units": "1 carrier, 1 infantry, 1 mech"},
        {},
        planets=[{"name": "A", "commit": "1 infantry"}, {"name": "B", "commit": "1 mech"}],
    )
    played = run(scenario, [])
    assert committed(played) == {"A": {"infantry": 1}, "B": {"mech": 1}}


def test_with_several_planets_a_planet_without_commit_gets_no_ground_forces() -> None:
    scenario = invasion(
        {"units": "1 carrier, 1 infantry"},
        {},
        planets=[{"name": "A", "commit": "1 infantry"}, {"name": "B"}],
    )
    played = run(scenario, [])
    assert on_planet(played, "attacker", 1) == {}


# --- space cannon defense ---------------------------------------------------------------------


def test_a_pds_fires_space_cannon_defense_at_its_space_cannon_value() -> None:
    # units.toml: PDS I has SPACE CANNON 6; LRR 77.6 via docs/rulings.md R10.
    played = run(invasion({"units": "1 carrier, 1 infantry"}, {"units": "1 pds"}), [5])
    assert (cannon_group(played)["hit_on"], cannon_group(played)["hits"]) == (6, 0)


def test_a_space_cannon_defense_hit_destroys_a_committed_ground_force() -> None:
    # docs/rulings.md R10: the hits go to the forces committed to that planet.
    played = run(invasion({"units": "1 carrier, 2 infantry"}, {"units": "1 pds"}), [6])
    assert survivors(played, "attacker", "planet") == {"infantry": 1}


def test_space_cannon_defense_fires_without_defending_ground_forces() -> None:
    # docs/rulings.md R19: SCD depends only on SPACE CANNON units being on the planet.
    played = run(invasion({"units": "1 carrier, 1 infantry"}, {"units": "1 pds"}), [5])
    assert len(rolls(played, "space_cannon_defense")) == 1


def test_space_cannon_defense_does_not_hit_uncommitted_ground_forces() -> None:
    # docs/rulings.md R10: only forces committed to that planet are targets.
    scenario = invasion(
        {"units": "1 carrier, 2 infantry"},
        {},
        planets=[{"name": "A", "defender": "2 pds", "commit": "1 infantry"}],
    )
    played = run(scenario, [6, 6])
    assert survivors(played, "attacker") == {"carrier": 1, "infantry": 1}


def test_space_cannon_defense_hits_beyond_the_committed_forces_are_lost() -> None:
    played = run(invasion({"units": "1 carrier, 1 infantry"}, {"units": "2 pds"}), [6, 6])
    lost = events(played, "hits_lost", player="attacker", cause="space cannon defense")
    assert [e["hits"] for e in lost] == [1]


def test_only_the_pds_on_the_committed_planet_fire() -> None:
    # docs/rulings.md R10: units on other planets (range or not) do not fire in SCD.
    scenario = invasion(
        {"units": "1 carrier, 1 infantry"},
        {},
        planets=[
            {"name": "A", "defender": "1 infantry", "commit": "1 infantry"},
            {"name": "B", "defender": "2 pds"},
        ],
    )
    played = run(scenario, [8, 1])
    assert rolls(played, "space_cannon_defense") == []


def test_no_space_cannon_defense_without_committed_forces() -> None:
    played = run(invasion({"units": "1 dreadnought"}, {"units": "1 infantry, 1 pds"}), [])
    assert rolls(played, "space_cannon_defense") == []


def test_the_attacker_assigns_space_cannon_defense_hits() -> None:
    # docs/rulings.md R10: the active player chooses which committed units are destroyed.
    played = run(
        invasion({"units": "1 carrier, 1 infantry, 1 mech"}, {"units": "1 pds"}),
        [6],
        attacker=["destroy infantry"],
    )
    block = played.outcome["attacker"]
    assert isinstance(block, dict)
    assert block["planets"][0] == [{"unit": "mech", "count": 1}]


def test_a_committed_mech_may_sustain_a_space_cannon_defense_hit() -> None:
    # docs/rulings.md R4: a mech committed to that planet may sustain against SCD.
    played = run(invasion({"units": "1 carrier, 1 mech"}, {"units": "1 pds"}), [6])
    assert events(played, "damage_sustained", unit="mech", cause="space cannon defense") != []


def test_antimass_deflectors_give_space_cannon_defense_minus_one() -> None:
    # docs/rulings.md R10: each SCD die against the Antimass Deflectors owner's units gets -1.
    scenario = invasion(
        {"units": "1 carrier, 1 infantry", "technologies": ["antimass_deflectors"]},
        {"units": "1 pds"},
    )
    played = run(scenario, [6])
    assert (cannon_group(played)["modifier"], cannon_group(played)["hits"]) == (-1, 0)


def test_space_cannon_defense_that_destroys_every_committed_force_prevents_ground_combat() -> None:
    # docs/rulings.md R13: with no attacking ground forces left there is no ground combat.
    played = run(invasion({"units": "1 carrier, 1 infantry"}, {"units": "1 infantry, 1 pds"}), [6])
    assert events(played, "combat_started") == []


def test_the_defender_keeps_a_planet_whose_invaders_space_cannon_defense_destroyed() -> None:
    # docs/rulings.md R13: the attacker gains no control; the defender keeps the planet.
    played = run(invasion({"units": "1 carrier, 1 infantry"}, {"units": "1 pds"}), [6])
    assert planet_controller(played) == "defender"


def test_space_cannon_defense_on_every_planet_comes_before_any_ground_combat() -> None:
    # ti4-ground-combat.md note 3: ground combats come after SCD has been resolved everywhere.
    scenario = invasion(
        {"units": "1 carrier, 2 infantry"},
        {},
        planets=[
            {"name": "A", "defender": "1 infantry, 1 pds", "commit": "1 infantry"},
            {"name": "B", "defender": "1 infantry, 1 pds", "commit": "1 infantry"},
        ],
    )
    played = run(scenario, [1, 1, 8, 1, 8, 1])
    purposes = [e["purpose"] for e in rolls(played)]
    assert purposes == ["space_cannon_defense"] * 2 + ["ground_combat"] * 4
