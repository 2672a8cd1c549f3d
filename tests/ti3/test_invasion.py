"""TI3 invasion combat with scripted dice (ti3-combat.md, INVASION COMBAT; ti3-facts.md
sections 7, 8 and 9): bombardment, PDS fire at the landing ground forces, combat rounds,
invasion success, several planets, Shock Troops, Mechanized Units and the abilities that act
in invasion combat.

Scripted faces are used in order: a pool rolls its groups in ascending printed value, then
unit name; the attacker rolls before the defender."""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat.core.engine import Played
from spacecombat.core.errors import ScenarioError
from spacecombat.rulesets.ti4.state import BattleState
from tests.helpers import events, rolls, run, units

Play = Played[BattleState]


def invasion(attacker: dict[str, Any], defender: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """A TI3 invasion scenario. Its Mechanized Units roll one die (``mechanized_unit_dice: 1``)
    unless the test says otherwise: these tests were scripted for one, and what they check is
    not the dice (the default, 2 since docs/rulings.md 27S-12, is checked in
    tests/ti3/units/test_mechanized_unit.py)."""
    options = {"mechanized_unit_dice": 1, **extra.pop("options", {})}
    return {
        "ruleset": "ti3",
        "battle": "invasion",
        "attacker": attacker,
        "defender": defender,
        "options": options,
        **extra,
    }


def planet(played: Play, index: int = 0) -> dict[str, Any]:
    """The outcome block of one planet."""
    planets = played.outcome["planets"]
    assert isinstance(planets, list)
    block = planets[index]
    assert isinstance(block, dict)
    return block


def on_planet(played: Play, side: str, index: int = 0) -> dict[str, int]:
    """A side's units (all statuses) left on a planet."""
    return units(planet(played, index)[side])


def groups(played: Play, purpose: str, player: str) -> list[list[dict[str, Any]]]:
    """The dice groups of each roll of a player for a purpose."""
    found = []
    for roll in rolls(played, purpose):
        if roll["player"] == player:
            dice = roll["groups"]
            assert isinstance(dice, list)
            found.append(dice)
    return found


def shape(group: dict[str, Any]) -> tuple[str, int, int]:
    """A dice group as (unit, number of dice, face it hits on)."""
    return (group["unit"], len(group["faces"]), group["hit_on"])


def decisions(played: Play, player: str | None = None) -> list[str]:
    """The decisions asked (forced ones included), in order."""
    return [
        str(e["decision"]) for e in events(played, "choice_made") if player in (None, e["player"])
    ]


def destroyed(played: Play, player: str, cause: str) -> list[str]:
    """The units of a player destroyed by a cause, in order."""
    return [str(e["unit"]) for e in events(played, "unit_destroyed", player=player, cause=cause)]


# --- bombardment --------------------------------------------------------------------------


@pytest.mark.parametrize(("face", "killed"), [(4, 0), (5, 1)])
def test_a_dreadnought_bombards_with_one_die_at_5(face: int, killed: int) -> None:
    """ti3-combat.md, Bombardments: roll dice equal to the combat strength multiplier (one for
    a dreadnought) and remove a ground force per result at or above its combat value (5)."""
    scenario = invasion(
        {"units": {"dreadnought": 1, "ground_force": 2}}, {"units": {"ground_force": 2}}
    )
    # bombardment, then one round: the attacker's two 8s destroy whatever is left
    rest = [8, 8, 1, 1] if killed == 0 else [8, 8, 1]
    played = run(scenario, [face, *rest])
    [[group]] = groups(played, "bombardment", "attacker")
    assert shape(group) == ("dreadnought", 1, 5)
    assert destroyed(played, "defender", "bombardment") == ["ground_force"] * killed


def test_a_war_sun_bombards_with_three_dice_at_3() -> None:
    """ti3-combat.md, Bombardments: a war sun rolls 3 dice (its multiplier), each hitting on 3
    or more; faces 3, 2, 10 destroy two ground forces."""
    played = run(invasion({"units": {"war_sun": 1}}, {"units": {"ground_force": 3}}), [3, 2, 10])
    [[group]] = groups(played, "bombardment", "attacker")
    assert shape(group) == ("war_sun", 3, 3)
    assert on_planet(played, "defender") == {"ground_force": 1}


def test_bombardment_hits_only_ground_forces_and_excess_hits_are_lost() -> None:
    """ti3-combat.md, Bombardments: each hit removes a ground force on the planet; a space
    dock is no ground force, so two of three hits are lost."""
    played = run(
        invasion({"units": {"war_sun": 1}}, {"units": {"ground_force": 1, "space_dock": 1}}),
        [3, 3, 3],
    )
    assert [e["hits"] for e in events(played, "hits_lost", player="defender")] == [2]
    assert on_planet(played, "defender") == {"space_dock": 1}


def test_default_bombarders_leave_out_dreadnoughts_at_a_planet_with_an_enemy_pds() -> None:
    """ti3-combat.md, Bombardments: dreadnoughts may not bombard planets that contain at least
    1 enemy PDS; without bombarded_by the dreadnought simply does not roll."""
    scenario = invasion(
        {"units": {"dreadnought": 1, "ground_force": 2}},
        {"units": {"ground_force": 1, "pds": 1}},
    )
    # PDS fire misses, then one round in which the attacker destroys the ground force
    played = run(scenario, [1, 8, 1, 1])
    assert rolls(played, "bombardment") == []
    assert planet(played)["taken"] is True


def test_naming_a_dreadnought_to_bombard_a_planet_with_a_pds_is_refused() -> None:
    """ti3-combat.md, Bombardments: dreadnoughts may not bombard a planet with an enemy PDS,
    so naming one in bombarded_by is a ScenarioError."""
    scenario = invasion(
        {"units": {"dreadnought": 1, "ground_force": 2}},
        {},
        planets=[
            {
                "name": "A",
                "defender": {"ground_force": 1, "pds": 1},
                "bombarded_by": {"dreadnought": 1},
            }
        ],
    )
    with pytest.raises(ScenarioError) as caught:
        run(scenario, [])
    assert caught.value.field == "planets[0].bombarded_by.dreadnought"


def test_a_war_sun_bombards_a_planet_with_a_pds_but_a_dreadnought_beside_it_does_not() -> None:
    """ti3-combat.md, Bombardments: the PDS stops dreadnoughts only; war suns may bombard it
    (ti3-facts.md 5: war suns ignore the planetary shield)."""
    scenario = invasion(
        {"units": {"war_sun": 1, "dreadnought": 1, "ground_force": 1}},
        {"units": {"ground_force": 3, "pds": 1}},
    )
    # war sun 3 hits; the PDS misses the landing ground force; no defender left: taken
    played = run(scenario, [3, 3, 3, 1])
    assert [[shape(g) for g in roll] for roll in groups(played, "bombardment", "attacker")] == [
        [("war_sun", 3, 3)]
    ]
    assert planet(played)["taken"] is True


def test_a_war_sun_bombards_even_when_no_invasion_follows() -> None:
    """ti3-combat.md, Bombardments: war suns may bombard planets even if there will be no
    invasion combat, and even with a PDS there; the planet is not taken without a landing."""
    played = run(
        invasion({"units": {"war_sun": 1}}, {"units": {"ground_force": 2, "pds": 1}}),
        [3, 1, 3],
    )
    assert destroyed(played, "defender", "bombardment") == ["ground_force", "ground_force"]
    assert rolls(played, "pds_fire_at_landing") == []
    assert planet(played)["taken"] is False
    assert played.outcome["planet_taken"] is False
    assert on_planet(played, "defender") == {"pds": 1}


def test_graviton_negator_lets_dreadnoughts_bombard_a_planet_with_a_pds() -> None:
    """ti3-facts.md 9 (Graviton Negator): dreadnoughts may bombard planets with PDS; both the
    default bombarders and a named dreadnought roll."""
    attacker = {
        "units": {"dreadnought": 1, "ground_force": 1},
        "technologies": ["graviton_negator"],
    }
    for extra in ({}, {"bombarded_by": {"dreadnought": 1}}):
        scenario = invasion(
            attacker,
            {},
            planets=[{"name": "A", "defender": {"ground_force": 1, "pds": 1}, **extra}],
        )
        # bombardment hits; the PDS misses; no defending ground force: taken
        played = run(scenario, [5, 1])
        assert destroyed(played, "defender", "bombardment") == ["ground_force"]
        assert planet(played)["taken"] is True


def test_dreadnoughts_do_not_bombard_without_an_invasion_by_default() -> None:
    """ti3-combat.md, Bombardments: only war suns are said to bombard with no invasion
    combat; a dreadnought alone is refused, and so is naming it for a planet nothing lands on."""
    with pytest.raises(ScenarioError):
        run(invasion({"units": {"dreadnought": 1}}, {"units": {"ground_force": 2}}), [])
    scenario = invasion(
        {"units": {"dreadnought": 1, "ground_force": 1}},
        {},
        planets=[
            {"name": "A", "defender": {"ground_force": 1}, "commit": {"ground_force": 1}},
            {
                "name": "B",
                "defender": {"ground_force": 1},
                "commit": {},
                "bombarded_by": {"dreadnought": 1},
            },
        ],
    )
    with pytest.raises(ScenarioError) as caught:
        run(scenario, [])
    assert caught.value.field == "planets[1].bombarded_by.dreadnought"
    assert "dreadnought_bombard_without_invasion" in caught.value.message


def test_option_dreadnought_bombard_without_invasion() -> None:
    """Rule option dreadnought_bombard_without_invasion (ti3-facts.md 13.3): dreadnoughts may
    then bombard a planet where no invasion follows."""
    scenario = invasion(
        {"units": {"dreadnought": 1}},
        {"units": {"ground_force": 2}},
        options={"dreadnought_bombard_without_invasion": True},
    )
    played = run(scenario, [5])
    assert destroyed(played, "defender", "bombardment") == ["ground_force"]
    assert on_planet(played, "defender") == {"ground_force": 1}
    assert played.outcome["planet_taken"] is False


def test_x89_bacterial_weapon_destroys_every_defending_ground_force() -> None:
    """ti3-facts.md 7.2 (X-89 Bacterial Weapon): instead of bombarding, the attacker may
    destroy all enemy ground forces (shock troops too); no bombardment dice are rolled and
    Mechanized Units are immune."""
    scenario = invasion(
        {
            "units": {"dreadnought": 1, "ground_force": 2},
            "technologies": ["x89_bacterial_weapon"],
        },
        {"units": {"ground_force": 2, "shock_troop": 1, "mechanized_unit": 1}},
        options={"shock_troops": True},
    )
    # one round: the attacker's two 8s sustain, then destroy the mechanized unit
    played = run(scenario, [8, 8, 1], attacker=["x89_bacterial_weapon"])
    [asked] = events(played, "choice_made", decision="bombardment_mode")
    assert asked["options"] == ["bombard", "x89_bacterial_weapon"]
    assert rolls(played, "bombardment") == []
    assert sorted(destroyed(played, "defender", "X-89 Bacterial Weapon")) == [
        "ground_force",
        "ground_force",
        "shock_troop",
    ]
    assert [[shape(g) for g in r] for r in groups(played, "invasion_combat", "defender")] == [
        [("mechanized_unit", 1, 6)]
    ]
    assert planet(played)["taken"] is True


def test_x89_bacterial_weapon_may_be_declined_for_a_normal_bombardment() -> None:
    """ti3-facts.md 7.2: X-89 is chosen instead of the normal bombardment (decision
    bombardment_mode); choosing "bombard" rolls the dice."""
    scenario = invasion(
        {
            "units": {"dreadnought": 1, "ground_force": 1},
            "technologies": ["x89_bacterial_weapon"],
        },
        {"units": {"ground_force": 2}},
    )
    played = run(scenario, [5, 8, 1], attacker=["bombard"])
    assert destroyed(played, "defender", "bombardment") == ["ground_force"]
    assert destroyed(played, "defender", "X-89 Bacterial Weapon") == []


def test_x89_is_not_offered_where_no_unit_may_bombard() -> None:
    """ti3-facts.md 7.2: X-89 replaces a bombardment, so a dreadnought that may not bombard a
    planet with a PDS cannot use it there."""
    scenario = invasion(
        {
            "units": {"dreadnought": 1, "ground_force": 1},
            "technologies": ["x89_bacterial_weapon"],
        },
        {"units": {"ground_force": 1, "pds": 1}},
    )
    played = run(scenario, [1, 8, 1])
    assert "bombardment_mode" not in decisions(played)
    assert destroyed(played, "defender", "X-89 Bacterial Weapon") == []


# --- PDS fire at the landing ground forces ---------------------------------------------------


def test_each_pds_fires_one_shot_at_6_at_the_landing_ground_forces() -> None:
    """ti3-combat.md, PDS fire: the defender fires a single shot with each PDS on the planet;
    each hit (6 or more) destroys an invading ground force."""
    played = run(
        invasion({"units": {"ground_force": 3}}, {"units": {"pds": 2}}),
        [6, 5],
    )
    [[group]] = groups(played, "pds_fire_at_landing", "defender")
    assert shape(group) == ("pds", 2, 6)
    assert destroyed(played, "attacker", "PDS fire at the landing ground forces") == [
        "ground_force"
    ]
    assert on_planet(played, "attacker") == {"ground_force": 2}


def test_magen_defense_grid_pds_fire_at_landing_hits_on_5() -> None:
    """ti3-facts.md 9 (Magen Defense Grid): PDS +1, so a PDS shot hits on 5."""
    played = run(
        invasion(
            {"units": {"ground_force": 3}},
            {"units": {"pds": 2}, "technologies": ["magen_defense_grid"]},
        ),
        [5, 4],
    )
    [[group]] = groups(played, "pds_fire_at_landing", "defender")
    assert shape(group) == ("pds", 2, 5)
    assert destroyed(played, "attacker", "PDS fire at the landing ground forces") == [
        "ground_force"
    ]


def test_graviton_laser_system_rerolls_missed_pds_dice_at_landing_forces() -> None:
    """ti3-facts.md 5 (Graviton Laser System): each missed PDS die may be re-rolled once, also
    at ground forces landing (docs/rulings.md T5)."""
    played = run(
        invasion(
            {"units": {"ground_force": 3}},
            {"units": {"pds": 2}, "technologies": ["graviton_laser_system"]},
        ),
        [6, 1, 1],
    )
    shots = groups(played, "pds_fire_at_landing", "defender")
    assert [[shape(g) for g in r] for r in shots] == [[("pds", 2, 6)], [("pds", 1, 6)]]
    assert destroyed(played, "attacker", "PDS fire at the landing ground forces") == [
        "ground_force"
    ]


def test_pds_fire_that_destroys_every_landing_ground_force_ends_the_invasion() -> None:
    """ti3-combat.md, PDS fire and Invasion success: with no attacking ground force left no
    combat is fought and the defender keeps the planet."""
    played = run(
        invasion({"units": {"ground_force": 1}}, {"units": {"ground_force": 1, "pds": 1}}),
        [6],
    )
    assert events(played, "combat_started") == []
    assert planet(played)["taken"] is False
    assert played.outcome["result"] == "defender_win"
    assert on_planet(played, "defender") == {"ground_force": 1, "pds": 1}


def test_mechanized_units_are_immune_to_pds_fire() -> None:
    """ti3-facts.md 8 (Mechanized Units): immune to PDS fire; a mechanized unit landing alone
    draws no PDS shot, and beside ground forces it takes none of the hits."""
    alone = run(
        invasion({"units": {"mechanized_unit": 1}}, {"units": {"pds": 1}}),
        [],
    )
    assert rolls(alone, "pds_fire_at_landing") == []
    assert planet(alone)["taken"] is True
    mixed = run(
        invasion({"units": {"mechanized_unit": 1, "ground_force": 1}}, {"units": {"pds": 2}}),
        [6, 6],
    )
    assert destroyed(mixed, "attacker", "PDS fire at the landing ground forces") == ["ground_force"]
    assert [e["hits"] for e in events(mixed, "hits_lost", player="attacker")] == [1]
    assert planet(mixed)["attacker"] == [{"unit": "mechanized_unit", "count": 1}]


def test_mechanized_units_are_immune_to_bombardment() -> None:
    """ti3-facts.md 7.2 and 8: Mechanized Units are immune to bombardment; the hits go to
    ground forces only and the rest are lost (the mechanized unit is not even damaged)."""
    played = run(
        invasion({"units": {"war_sun": 1}}, {"units": {"ground_force": 1, "mechanized_unit": 1}}),
        [3, 3, 3],
    )
    assert destroyed(played, "defender", "bombardment") == ["ground_force"]
    assert planet(played)["defender"] == [{"unit": "mechanized_unit", "count": 1}]


def test_no_bombardment_dice_against_mechanized_units_alone() -> None:
    """ti3-facts.md 8: with only Mechanized Units on the planet a bombardment has nothing to
    hit, so no dice are rolled."""
    played = run(
        invasion({"units": {"war_sun": 1, "ground_force": 1}}, {"units": {"mechanized_unit": 1}}),
        [8, 1, 8, 1],
    )
    assert rolls(played, "bombardment") == []


# --- combat rounds ---------------------------------------------------------------------------


def test_both_players_roll_before_casualties_are_removed() -> None:
    """ti3-combat.md, Roll combat dice: both players roll simultaneously, then casualties are
    removed; a ground force destroyed this round still rolled."""
    played = run(invasion({"units": {"ground_force": 1}}, {"units": {"ground_force": 1}}), [8, 8])
    kinds = [
        str(e["event"]) for e in played.events if e["event"] in ("dice_rolled", "unit_destroyed")
    ]
    assert kinds == ["dice_rolled", "dice_rolled", "unit_destroyed", "unit_destroyed"]
    assert [[shape(g) for g in r] for r in groups(played, "invasion_combat", "attacker")] == [
        [("ground_force", 1, 8)]
    ]


def test_invasion_combat_goes_on_round_after_round_with_no_retreat() -> None:
    """ti3-combat.md, INVASION COMBAT: another round begins while both players have units,
    and no one can withdraw or retreat (no such decision is ever asked)."""
    scenario = invasion({"units": {"ground_force": 2}}, {"units": {"ground_force": 2}})
    # round 1: one hit each way; round 2: misses; round 3: the attacker hits
    played = run(scenario, [8, 1, 1, 8, 1, 1, 9, 1])
    assert planet(played)["rounds"] == 3
    assert set(decisions(played)) == {"assign_hit"}
    assert planet(played)["taken"] is True
    assert on_planet(played, "attacker") == {"ground_force": 1}


def test_the_player_hit_chooses_the_casualties() -> None:
    """ti3-facts.md 1 and 2: each player chooses his own casualties; a Mechanized Unit may
    sustain damage or the player may lose a ground force instead."""
    scenario = invasion(
        {"units": {"ground_force": 2}},
        {"units": {"ground_force": 1, "mechanized_unit": 1}},
    )
    # round 1: the attacker hits once; the defender misses; round 2: attacker hits twice
    played = run(
        scenario,
        [8, 1, 1, 1, 8, 8, 1],
        defender=["destroy ground_force", "sustain mechanized_unit"],
    )
    first = events(played, "choice_made", player="defender", decision="assign_hit")[0]
    offered = first["options"]
    assert isinstance(offered, list)
    assert sorted(offered) == [
        "destroy ground_force",
        "destroy mechanized_unit",
        "sustain mechanized_unit",
    ]
    assert destroyed(played, "defender", "invasion combat")[0] == "ground_force"


# --- invasion success ------------------------------------------------------------------------


def test_invasion_success_destroys_the_defenders_pds_and_space_docks() -> None:
    """ti3-combat.md, Invasion success: all defending ground forces destroyed and one attacking
    ground force surviving: the defender's PDS and space docks are destroyed, the planet is
    taken."""
    scenario = invasion(
        {"units": {"ground_force": 2}},
        {"units": {"ground_force": 1, "pds": 1, "space_dock": 1}},
    )
    # PDS misses; round 1: the attacker hits, the defender misses
    played = run(scenario, [1, 8, 1, 1])
    [succeeded] = events(played, "invasion_succeeded")
    assert succeeded["destroyed"] == [
        {"unit": "pds", "count": 1},
        {"unit": "space_dock", "count": 1},
    ]
    assert planet(played)["defender"] == []
    assert planet(played)["controller"] == "attacker"
    assert played.outcome["planet_taken"] is True
    assert played.outcome["result"] == "attacker_win"
    assert played.outcome["winner"] == "attacker"


def test_when_both_sides_are_wiped_out_the_defender_keeps_the_planet() -> None:
    """ti3-combat.md, Invasion success: if all forces were destroyed and no attacking ground
    force survived, the defender retains control; its structures stay."""
    played = run(
        invasion({"units": {"ground_force": 1}}, {"units": {"ground_force": 1, "space_dock": 1}}),
        [8, 8],
    )
    assert played.outcome["result"] == "draw"
    assert played.outcome["planet_taken"] is False
    assert planet(played)["controller"] == "defender"
    assert on_planet(played, "defender") == {"space_dock": 1}
    assert events(played, "invasion_failed")[0]["reason"] == "no attacking ground unit is left"


def test_the_defender_wins_when_the_attackers_ground_forces_are_destroyed() -> None:
    """ti3-combat.md, Invasion success: defending ground forces left, so no success."""
    played = run(
        invasion({"units": {"ground_force": 1}}, {"units": {"ground_force": 2}}), [1, 8, 1]
    )
    assert played.outcome["result"] == "defender_win"
    assert played.outcome["planet_taken"] is False
    assert on_planet(played, "defender") == {"ground_force": 2}


def test_a_planet_held_only_by_structures_is_taken_after_pds_fire_with_no_rounds() -> None:
    """ti3-facts.md 7.1: landing on a planet whose only defence is a PDS and a space dock:
    PDS fire at the landing troops, then the planet is taken and the structures destroyed,
    with no combat rounds."""
    played = run(
        invasion({"units": {"ground_force": 2}}, {"units": {"pds": 1, "space_dock": 1}}),
        [6],
    )
    assert destroyed(played, "attacker", "PDS fire at the landing ground forces") == [
        "ground_force"
    ]
    assert events(played, "combat_started") == []
    assert planet(played)["rounds"] == 0
    assert planet(played)["taken"] is True
    assert on_planet(played, "defender") == {}


def test_a_planet_with_only_a_space_dock_is_taken_without_dice() -> None:
    """ti3-facts.md 7.1: no PDS, no ground forces: nothing to roll, the planet is taken."""
    played = run(invasion({"units": {"ground_force": 1}}, {"units": {"space_dock": 1}}), [])
    assert rolls(played) == []
    assert played.outcome["planet_taken"] is True


# --- several planets -------------------------------------------------------------------------


def test_several_planets_are_fought_in_the_order_listed() -> None:
    """ti3-facts.md 7.1 and docs (TI3 fights its planets in the order listed): planet B, listed
    first, is bombarded and fought before A; each planet's result is its own."""
    scenario = invasion(
        {"units": {"dreadnought": 1, "ground_force": 2}},
        {},
        planets=[
            {
                "name": "B",
                "defender": {"ground_force": 2},
                "commit": {"ground_force": 1},
                "bombarded_by": {"dreadnought": 1},
            },
            {
                "name": "A",
                "defender": {"ground_force": 1, "pds": 1},
                "commit": {"ground_force": 1},
                "bombarded_by": {},
            },
        ],
    )
    # B: bombardment hits; round 1 the attacker hits.  A: the PDS kills the landing force.
    played = run(scenario, [5, 8, 1, 6])
    assert [e["planet"] for e in events(played, "combat_started")] == ["B"]
    purposes = [e["purpose"] for e in rolls(played)]
    assert purposes == ["bombardment", "invasion_combat", "invasion_combat", "pds_fire_at_landing"]
    assert [planet(played, i)["planet"] for i in (0, 1)] == ["B", "A"]
    assert [planet(played, i)["taken"] for i in (0, 1)] == [True, False]
    assert played.outcome["planets_taken"] == 1
    assert played.outcome["planet_taken"] is False
    assert played.outcome["result"] == "mixed"


def test_several_planets_without_bombarded_by_are_not_refused_for_names_never_given() -> None:
    """ti3-combat.md, Bombardments: units with bombardment may bombard a planet (each unit one
    planet). A multi-planet scenario that names no bombarders must be played with the
    dreadnought rolling at most once, or else be refused with a message asking for
    bombarded_by, not one saying the scenario "named" two dreadnoughts."""
    scenario = invasion(
        {"units": {"dreadnought": 1, "ground_force": 2}},
        {},
        planets=[
            {"name": "B", "defender": {"ground_force": 1}, "commit": {"ground_force": 1}},
            {"name": "A", "defender": {"ground_force": 1}, "commit": {"ground_force": 1}},
        ],
    )
    refused: ScenarioError | None = None
    played: Play | None = None
    try:
        played = run(scenario, [5, 8, 8, 8, 8, 1, 1], all_dice=False)
    except ScenarioError as error:
        refused = error
    if refused is not None:
        assert "named" not in refused.message
        assert "bombarded_by" in refused.field
    else:
        assert played is not None
        assert len(rolls(played, "bombardment")) <= 1


# --- Shock Troops ----------------------------------------------------------------------------


def test_a_natural_10_promotes_a_ground_force_to_a_shock_troop() -> None:
    """ti3-facts.md 8 (Shock Troops, option shock_troops): a ground force rolling a natural 10
    may be promoted at the end of the round (decision promote_shock_troops); the shock troop
    rolls at 5 from the next round."""
    scenario = invasion(
        {"units": {"ground_force": 2}},
        {"units": {"ground_force": 2}},
        options={"shock_troops": True},
    )
    # round 1: attacker 10, 1 (one hit, one natural 10), defender misses;
    # round 2: shock troop 5 hits, ground force 1 misses, defender misses
    played = run(scenario, [10, 1, 1, 1, 5, 1, 1], attacker=["promote 1"])
    [asked] = events(played, "choice_made", decision="promote_shock_troops")
    assert asked["options"] == ["promote 0", "promote 1"]
    assert events(played, "shock_troops_promoted") == [
        {"event": "shock_troops_promoted", "player": "attacker", "count": 1}
    ]
    second = groups(played, "invasion_combat", "attacker")[1]
    assert [shape(g) for g in second] == [("shock_troop", 1, 5), ("ground_force", 1, 8)]
    assert on_planet(played, "attacker") == {"ground_force": 1, "shock_troop": 1}


def test_promotion_may_be_declined() -> None:
    """ti3-facts.md 8: a ground force "may" be promoted; promote 0 keeps it regular."""
    scenario = invasion(
        {"units": {"ground_force": 2}},
        {"units": {"ground_force": 1}},
        options={"shock_troops": True},
    )
    played = run(scenario, [10, 1, 1], attacker=["promote 0"])
    assert events(played, "shock_troops_promoted") == []
    assert on_planet(played, "attacker") == {"ground_force": 2}


def test_shock_troops_need_the_natural_10_not_a_modified_hit() -> None:
    """ti3-facts.md 1 and 8: promotion looks at the natural face 10; with GEN Synthesis a 9
    still hits but promotes nothing."""
    scenario = invasion(
        {"units": {"ground_force": 2}, "technologies": ["gen_synthesis"]},
        {"units": {"ground_force": 1}},
        options={"shock_troops": True},
    )
    played = run(scenario, [9, 1, 1])
    assert "promote_shock_troops" not in decisions(played)
    assert on_planet(played, "attacker") == {"ground_force": 2}


def test_promotion_never_takes_the_last_regular_ground_force() -> None:
    """ti3-facts.md 8: a shock troop must always be with a regular ground force, so two natural
    10s of two ground forces promote at most one, and a lone ground force none."""
    two = run(
        invasion(
            {"units": {"ground_force": 2}},
            {"units": {"ground_force": 2}},
            options={"shock_troops": True},
        ),
        [10, 10, 1, 1],
        attacker=["promote 1"],
    )
    [asked] = events(two, "choice_made", decision="promote_shock_troops")
    assert asked["options"] == ["promote 0", "promote 1"]
    alone = run(
        invasion(
            {"units": {"ground_force": 1}},
            {"units": {"ground_force": 2}},
            options={"shock_troops": True},
        ),
        [10, 1, 1, 8, 1],
    )
    assert "promote_shock_troops" not in decisions(alone)
    assert on_planet(alone, "attacker") == {"ground_force": 1}


def test_promotion_is_limited_by_the_shock_troop_tokens_left() -> None:
    """ti3-facts.md 8 (12 tokens; option shock_troop_tokens): no more promotions than tokens
    left, counting the shock troops already in play."""
    limited = run(
        invasion(
            {"units": {"ground_force": 4}},
            {"units": {"ground_force": 3}},
            options={"shock_troops": True, "shock_troop_tokens": 1},
        ),
        [10, 10, 10, 1, 1, 1, 1],
        attacker=["promote 1"],
    )
    [asked] = events(limited, "choice_made", decision="promote_shock_troops")
    assert asked["options"] == ["promote 0", "promote 1"]
    used_up = run(
        invasion(
            {"units": {"shock_troop": 1, "ground_force": 3}},
            {"units": {"ground_force": 1}},
            options={"shock_troops": True, "shock_troop_tokens": 1},
        ),
        [1, 10, 10, 1, 1],
    )
    assert "promote_shock_troops" not in decisions(used_up)


def test_the_defender_promotes_too() -> None:
    """ti3-facts.md 8: any ground force rolling a natural 10 in invasion combat, the
    defender's included."""
    played = run(
        invasion(
            {"units": {"ground_force": 1}},
            {"units": {"ground_force": 3}},
            options={"shock_troops": True},
        ),
        [1, 10, 1, 1],
        defender=["promote 1"],
    )
    assert events(played, "shock_troops_promoted", player="defender", count=1) != []
    assert on_planet(played, "defender") == {"ground_force": 2, "shock_troop": 1}


def test_shock_troops_hit_on_5_and_are_taken_as_casualties_first() -> None:
    """ti3-facts.md 8: battle value 5; when ground units take hits, shock troops must be taken
    before other ground units (the only option offered)."""
    played = run(
        invasion(
            {"units": {"shock_troop": 1, "ground_force": 2}},
            {"units": {"ground_force": 2}},
            options={"shock_troops": True},
        ),
        [5, 8, 1, 8, 1],
    )
    first = groups(played, "invasion_combat", "attacker")[0]
    assert [shape(g) for g in first] == [("shock_troop", 1, 5), ("ground_force", 2, 8)]
    [hit] = events(played, "choice_made", player="attacker", decision="assign_hit")
    assert hit["options"] == ["destroy shock_troop"]
    assert destroyed(played, "attacker", "invasion combat") == ["shock_troop"]


def test_shock_troops_are_bombarded_first() -> None:
    """ti3-facts.md 8: shock troops are taken before other ground units, bombardment hits
    included (they count as ground forces)."""
    played = run(
        invasion(
            {"units": {"war_sun": 1}},
            {"units": {"shock_troop": 1, "ground_force": 2}},
            options={"shock_troops": True},
        ),
        [3, 1, 1],
    )
    assert destroyed(played, "defender", "bombardment") == ["shock_troop"]


def test_shock_troops_without_a_regular_ground_force_revert() -> None:
    """ti3-facts.md 8: shock troops must always be accompanied by a regular ground force,
    otherwise they revert to ground forces."""
    scenario = invasion(
        {"units": {"ground_force": 1}},
        {"units": {"shock_troop": 2}},
        options={"shock_troops": True},
    )
    # round 1: all miss (a 1 misses at 5 and at 8); round 2: the defender's 8 hits
    played = run(scenario, [1, 1, 1, 1, 8, 1])
    assert events(played, "shock_troops_reverted", player="defender", count=2) != []
    assert on_planet(played, "defender") == {"ground_force": 2}


def test_lone_shock_troops_do_not_roll_as_shock_troops() -> None:
    """ti3-facts.md 8: shock troops must *always* be accompanied by a regular ground force;
    lone shock troops are ground forces before the first roll, so they hit on 8, not 5."""
    scenario = invasion(
        {"units": {"ground_force": 1}},
        {"units": {"shock_troop": 1}},
        options={"shock_troops": True},
    )
    played = run(scenario, [1, 6, 8, 1], all_dice=False)
    first = groups(played, "invasion_combat", "defender")[0]
    assert [shape(g) for g in first] == [("ground_force", 1, 8)]


def test_shock_troop_units_need_the_option() -> None:
    """ti3-facts.md 8: Shock Troops are a Shattered Empire option; a scenario naming them
    without options.shock_troops is refused."""
    with pytest.raises(ScenarioError) as caught:
        run(
            invasion({"units": {"ground_force": 1}}, {"units": {"shock_troop": 1}}),
            [],
        )
    assert caught.value.field == "defender.units.shock_troop"


def test_no_promotion_without_the_option() -> None:
    """ti3-facts.md 8: promotion is part of the Shock Troops option (off by default)."""
    played = run(
        invasion({"units": {"ground_force": 2}}, {"units": {"ground_force": 1}}), [10, 1, 1]
    )
    assert "promote_shock_troops" not in decisions(played)


# --- Mechanized Units ------------------------------------------------------------------------


def test_a_mechanized_unit_sustains_damage_and_hits_on_6() -> None:
    """ti3-facts.md 8 (Mechanized Units): sustain damage, battle 6 (one die with
    ``mechanized_unit_dice: 1``, as this file's scenarios say)."""
    played = run(
        invasion({"units": {"ground_force": 1}}, {"units": {"mechanized_unit": 1}}),
        [8, 5, 8, 5],
    )
    assert [[shape(g) for g in r] for r in groups(played, "invasion_combat", "defender")] == [
        [("mechanized_unit", 1, 6)],
        [("mechanized_unit", 1, 6)],
    ]
    assert events(played, "damage_sustained", player="defender") != []
    [gone] = events(played, "unit_destroyed", player="defender")
    assert gone["status"] == "damaged"
    assert planet(played)["taken"] is True


def test_option_mechanized_unit_dice() -> None:
    """Rule option mechanized_unit_dice (ti3-facts.md 8, [L]): a Mechanized Unit rolls 2."""
    played = run(
        invasion(
            {"units": {"mechanized_unit": 1}},
            {"units": {"ground_force": 2}},
            options={"mechanized_unit_dice": 2},
        ),
        [6, 6, 1, 1],
    )
    [[group]] = groups(played, "invasion_combat", "attacker")
    assert shape(group) == ("mechanized_unit", 2, 6)
    assert planet(played)["taken"] is True


def test_a_mechanized_unit_holds_the_planet_for_the_attacker() -> None:
    """ti3-facts.md 8: Mechanized Units act as ground forces for invading and controlling
    planets."""
    played = run(
        invasion({"units": {"mechanized_unit": 1}}, {"units": {"ground_force": 1}}), [6, 1]
    )
    assert planet(played)["taken"] is True
    assert on_planet(played, "attacker") == {"mechanized_unit": 1}


# --- Dacxive Animators -----------------------------------------------------------------------


def test_dacxive_animators_roll_one_die_per_ground_force_destroyed_on_both_sides() -> None:
    """ti3-facts.md 9 (Dacxive Animators): after winning an invasion combat, roll a die per
    ground force destroyed in it (both sides); each 6 or more places a ground force."""
    scenario = invasion(
        {"units": {"ground_force": 3}, "technologies": ["dacxive_animators"]},
        {"units": {"ground_force": 2}},
    )
    # round 1: two attacker hits, one defender hit: 3 destroyed; then 6, 5, 6
    played = run(scenario, [8, 8, 1, 8, 1, 6, 5, 6])
    [[group]] = groups(played, "dacxive_animators", "attacker")
    assert shape(group) == ("ground_force", 3, 6)
    assert events(played, "ground_forces_animated") == [
        {"event": "ground_forces_animated", "player": "attacker", "count": 2}
    ]
    assert on_planet(played, "attacker") == {"ground_force": 4}


def test_dacxive_animators_count_only_ground_forces_destroyed_in_the_combat() -> None:
    """ti3-facts.md 9: only ground forces destroyed in the invasion combat count, not those
    bombarded before it, nor Mechanized Units."""
    scenario = invasion(
        {"units": {"dreadnought": 1, "ground_force": 2}, "technologies": ["dacxive_animators"]},
        {"units": {"ground_force": 2, "mechanized_unit": 1}},
    )
    # bombardment kills one; round 1: two hits (ground force, mech sustains), defender misses;
    # round 2: one hit on the damaged mech; the die for the one ground force: 6
    played = run(
        scenario,
        [5, 8, 8, 1, 1, 8, 1, 1, 6],
        defender=["destroy ground_force", "sustain mechanized_unit"],
    )
    [[group]] = groups(played, "dacxive_animators", "attacker")
    assert shape(group) == ("ground_force", 1, 6)


def test_dacxive_animators_need_a_won_combat() -> None:
    """ti3-facts.md 9: only after winning an invasion combat; a loss, a draw or a planet taken
    with no combat gives no dice."""
    tech = ["dacxive_animators"]
    lost = run(
        invasion(
            {"units": {"ground_force": 1}, "technologies": tech}, {"units": {"ground_force": 2}}
        ),
        [1, 8, 1],
    )
    draw = run(
        invasion(
            {"units": {"ground_force": 1}, "technologies": tech}, {"units": {"ground_force": 1}}
        ),
        [8, 8],
    )
    no_combat = run(
        invasion({"units": {"ground_force": 2}, "technologies": tech}, {"units": {"pds": 1}}),
        [6],
    )
    for played in (lost, draw, no_combat):
        assert rolls(played, "dacxive_animators") == []


def test_dacxive_animators_work_for_the_defender() -> None:
    """ti3-facts.md 9: whoever wins the invasion combat with the technology rolls."""
    played = run(
        invasion(
            {"units": {"ground_force": 1}},
            {"units": {"ground_force": 2}, "technologies": ["dacxive_animators"]},
        ),
        [1, 8, 1, 9],
    )
    assert on_planet(played, "defender") == {"ground_force": 3}


# --- modifiers in invasion combat ------------------------------------------------------------


def test_gen_synthesis_gives_ground_forces_plus_1_but_not_mechanized_units() -> None:
    """ti3-facts.md 9 (GEN Synthesis): ground forces +1 in invasion combat; Mechanized Units
    are immune to technologies that name ground forces (section 8)."""
    played = run(
        invasion(
            {
                "units": {"ground_force": 1, "mechanized_unit": 1},
                "technologies": ["gen_synthesis"],
            },
            {"units": {"ground_force": 2}},
        ),
        [6, 7, 1, 1],
    )
    [first] = groups(played, "invasion_combat", "attacker")
    assert [shape(g) for g in first] == [("mechanized_unit", 1, 6), ("ground_force", 1, 7)]


def test_magen_defense_grid_helps_defending_ground_forces_on_a_planet_with_a_pds() -> None:
    """ti3-facts.md 5 and 9 (Magen Defense Grid): defending ground forces on a planet with a
    PDS get +1 in invasion combat; not without a PDS, and never the attacker's."""
    magen = ["magen_defense_grid"]
    with_pds = run(
        invasion(
            {"units": {"ground_force": 1}},
            {"units": {"ground_force": 1, "pds": 1}, "technologies": magen},
        ),
        [1, 1, 7],
    )
    [[group]] = groups(with_pds, "invasion_combat", "defender")
    assert shape(group) == ("ground_force", 1, 7)
    without = run(
        invasion(
            {"units": {"ground_force": 1}},
            {"units": {"ground_force": 1}, "technologies": magen},
        ),
        [1, 8],
    )
    [[group]] = groups(without, "invasion_combat", "defender")
    assert shape(group) == ("ground_force", 1, 8)
    attacking = run(
        invasion(
            {"units": {"ground_force": 1}, "technologies": magen},
            {"units": {"ground_force": 1}},
        ),
        [8, 1],
    )
    [[group]] = groups(attacking, "invasion_combat", "attacker")
    assert shape(group) == ("ground_force", 1, 8)


def test_l1z1x_ground_forces_get_plus_1_but_not_mechanized_units() -> None:
    """ti3-facts.md 10 (L1Z1X): ground forces +1 in invasion combat; Mechanized Units are
    immune to effects naming ground forces (section 8)."""
    played = run(
        invasion(
            {"units": {"ground_force": 1, "mechanized_unit": 1}, "faction": "l1z1x"},
            {"units": {"ground_force": 2}},
        ),
        [6, 7, 1, 1],
    )
    [first] = groups(played, "invasion_combat", "attacker")
    assert [shape(g) for g in first] == [("mechanized_unit", 1, 6), ("ground_force", 1, 7)]


def test_xxcha_gives_the_opponent_minus_1_in_the_first_invasion_round() -> None:
    """ti3-facts.md 10 (Xxcha; docs/rulings.md T4): the opponent gets -1 in the first round of
    every invasion combat Xxcha fights, not in the second."""
    played = run(
        invasion(
            {"units": {"ground_force": 2}}, {"units": {"ground_force": 2}, "faction": "xxcha"}
        ),
        [8, 8, 1, 1, 8, 8, 1, 1],
    )
    first, second = groups(played, "invasion_combat", "attacker")
    assert [shape(g) for g in first] == [("ground_force", 2, 9)]
    assert [shape(g) for g in second] == [("ground_force", 2, 8)]


def test_sardakk_gets_plus_1_on_every_invasion_combat_roll() -> None:
    """ti3-facts.md 10 (Sardakk N'orr): +1 to all combat rolls, a Mechanized Unit's
    included."""
    played = run(
        invasion(
            {"units": {"ground_force": 1, "mechanized_unit": 1}, "faction": "sardakk"},
            {"units": {"ground_force": 2}},
        ),
        [5, 7, 1, 1],
    )
    [first] = groups(played, "invasion_combat", "attacker")
    assert [shape(g) for g in first] == [("mechanized_unit", 1, 5), ("ground_force", 1, 7)]
