"""Invasion step 4, ground combat (ti4-ground-combat.md), and step 5, establishing control
(docs/rulings.md R13, R19)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from spacecombat.core.dice import ScriptedDice
from spacecombat.core.engine import Played, play
from spacecombat.rulesets import parse_ti_scenario
from spacecombat.rulesets.ti4 import Ti4Battle, build, stock_policies
from spacecombat.rulesets.ti4.rules import load
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import BattleState
from tests.helpers import events, invasion, rolls, run, survivors


def ground_rolls(played: Played[BattleState], player: str) -> list[list[dict[str, Any]]]:
    """The dice groups of each ground combat roll of a player."""
    found = []
    for roll in rolls(played, "ground_combat"):
        if roll["player"] == player:
            groups = roll["groups"]
            assert isinstance(groups, list)
            found.append(groups)
    return found


def planet_result(played: Played[BattleState], key: str, index: int = 0) -> object:
    planets = played.outcome["planets"]
    assert isinstance(planets, list)
    return planets[index][key]


def two_contested_planets(**extra: Any) -> dict[str, Any]:
    return invasion(
        {"units": "1 carrier, 2 infantry", **extra},
        {},
        planets=[
            {"name": "A", "defender": "1 infantry", "commit": "1 infantry"},
            {"name": "B", "defender": "1 infantry", "commit": "1 infantry"},
        ],
    )


ONE_ON_ONE = invasion({"units": "1 carrier, 1 infantry"}, {"units": "1 infantry"})


# --- step 1: roll dice --------------------------------------------------------------------------


def test_each_ground_force_rolls_one_die() -> None:
    # ti4-ground-combat.md step 1: one die for each ground force on the planet.
    played = run(invasion({"units": "1 carrier, 2 infantry"}, {"units": "1 infantry"}), [8, 1, 1])
    [groups] = ground_rolls(played, "attacker")
    assert [(g["unit"], g["faces"]) for g in groups] == [("infantry", [8, 1])]


def test_a_result_equal_to_the_combat_value_hits_and_one_below_misses() -> None:
    # ti4-ground-combat.md step 1: a result equal to or greater than the combat value hits.
    played = run(ONE_ON_ONE, [7, 1, 8, 1])
    assert [r["hits"] for r in rolls(played, "ground_combat") if r["player"] == "attacker"] == [
        0,
        1,
    ]


def test_structures_do_not_roll_in_ground_combat() -> None:
    # docs/rulings.md R13: PDS and space docks are not ground forces.
    played = run(
        invasion({"units": "1 carrier, 1 infantry"}, {"units": "1 infantry, 1 pds"}), [1, 8, 1]
    )
    [groups] = ground_rolls(played, "defender")
    assert [g["unit"] for g in groups] == ["infantry"]


def test_a_unit_with_two_burst_icons_rolls_two_dice() -> None:
    # ti4-ground-combat.md step 1.1. The only ground force with burst icons in units.toml is the
    # Naaz-Rokha mech (combat 6 x2); its faction ability is not implemented, so the card is put
    # on a generic setup here.
    setup = build(
        parse_ti_scenario(invasion({"units": "1 carrier, 2 infantry"}, {"units": "1 mech"}))
    )
    cards = dict(setup.side(Side.DEFENDER).cards)
    cards["mech"] = load().units["naazrokha_mech"]
    sides = dict(setup.sides)
    sides[Side.DEFENDER] = replace(setup.side(Side.DEFENDER), cards=cards)
    burst = replace(setup, sides=sides)
    played = play(Ti4Battle(burst), ScriptedDice([1, 1, 6, 6]), stock_policies(burst))
    assert survivors(played, "attacker", "planet") == {}


# --- step 2: assign hits ------------------------------------------------------------------------


def test_each_player_chooses_which_of_their_ground_forces_is_destroyed() -> None:
    # ti4-ground-combat.md step 2: each player chooses one of their own ground forces per hit.
    played = run(
        invasion({"units": "1 carrier, 1 infantry"}, {"units": "1 infantry, 1 mech"}),
        [8, 1, 1, 8, 1],
        defender=["destroy mech"],
    )
    first = events(played, "unit_destroyed", player="defender", cause="ground combat")[0]
    assert first["unit"] == "mech"


def test_ground_combat_hits_beyond_the_ground_forces_are_lost() -> None:
    # ti4-ground-combat.md step 2: hits destroy ground forces; the PDS cannot take them.
    played = run(
        invasion({"units": "1 carrier, 2 infantry"}, {"units": "1 infantry, 1 pds"}), [1, 8, 8, 1]
    )
    lost = events(played, "hits_lost", player="defender", cause="ground combat")
    assert [e["hits"] for e in lost] == [1]


def test_a_mech_may_sustain_a_ground_combat_hit() -> None:
    # ti4-ground-combat.md note 5: SUSTAIN DAMAGE of a mech cancels a hit.
    played = run(invasion({"units": "1 carrier, 1 mech"}, {"units": "1 infantry"}), [1, 8, 6, 1])
    block = played.outcome["attacker"]
    assert isinstance(block, dict)
    assert block["planets"][0] == [{"unit": "mech", "count": 1, "status": "damaged"}]


def test_a_damaged_mech_cannot_sustain_again() -> None:
    # ti4-ground-combat.md note 5; a unit that is already damaged has no SUSTAIN DAMAGE left.
    scenario = invasion(
        {"units": "1 carrier, 1 mech", "damaged": "1 mech"}, {"units": "1 infantry"}
    )
    played = run(scenario, [1, 8])
    assert survivors(played, "attacker", "planet") == {}


# --- rounds, end, result ------------------------------------------------------------------------


def test_rounds_repeat_while_both_players_have_ground_forces() -> None:
    # ti4-ground-combat.md rule 3: a new round starts with the Roll Dice step.
    played = run(ONE_ON_ONE, [1, 1, 1, 1, 8, 1])
    assert planet_result(played, "rounds") == 3


def test_no_retreat_from_ground_combat() -> None:
    # ti4-ground-combat.md note 6: even a player whose policy retreats at once cannot.
    scenario = invasion(
        {"units": "1 carrier, 1 infantry", "policy": {"retreat": {"after_round": 0}}},
        {"units": "1 infantry"},
        system={"adjacent": [{"name": "B", "units": ["attacker"]}]},
    )
    played = run(scenario, [1, 1, 8, 1])
    assert events(played, "retreat_announced") == []


def test_the_player_with_ground_forces_left_wins() -> None:
    # ti4-ground-combat.md rule 4.3.
    played = run(ONE_ON_ONE, [8, 1])
    assert (played.outcome["result"], played.outcome["winner"]) == ("attacker_win", "attacker")


def test_the_defender_wins_when_the_attackers_ground_forces_are_destroyed() -> None:
    # ti4-ground-combat.md rule 4.3.
    played = run(ONE_ON_ONE, [1, 8])
    assert (played.outcome["result"], played.outcome["winner"]) == ("defender_win", "defender")


def test_no_ground_forces_left_on_either_side_is_a_draw() -> None:
    # ti4-ground-combat.md rule 4.4: no winner, the combat ends in a draw.
    played = run(ONE_ON_ONE, [8, 8])
    assert (played.outcome["result"], played.outcome["winner"]) == ("draw", None)


def test_after_a_draw_the_defender_keeps_the_planet() -> None:
    # docs/rulings.md R13: both sides wiped out in ground combat, the defender keeps control.
    played = run(ONE_ON_ONE, [8, 8])
    assert (planet_result(played, "controller"), events(played, "control_established")) == (
        "defender",
        [],
    )


# --- planet order -------------------------------------------------------------------------------


def test_the_policy_planet_order_chooses_which_ground_combat_comes_first() -> None:
    # ti4-ground-combat.md note 3: the active player chooses the order combats are fought in.
    played = run(two_contested_planets(policy={"planet_order": ["B"]}), [8, 1, 8, 1])
    assert [e["planet"] for e in events(played, "combat_started")] == ["B", "A"]


def test_a_scripted_player_chooses_the_planet_with_fight_on() -> None:
    # ti4-ground-combat.md note 3: the choice is the active player's ("fight on B").
    played = run(two_contested_planets(), [8, 1, 8, 1], attacker=["fight on B"])
    assert [e["planet"] for e in events(played, "combat_started")] == ["B", "A"]


def test_the_planet_order_is_the_attackers_decision() -> None:
    # ti4-ground-combat.md note 3: the active player (attacker) is asked.
    played = run(two_contested_planets(), [8, 1, 8, 1])
    [asked] = events(played, "choice_made", decision="planet_order", forced=False)
    assert (asked["player"], asked["options"]) == ("attacker", ["fight on A", "fight on B"])


# --- establish control --------------------------------------------------------------------------


def test_establishing_control_destroys_the_defenders_structures() -> None:
    # docs/rulings.md R13: every other player's structure on the planet is destroyed.
    played = run(
        invasion({"units": "1 carrier, 1 infantry"}, {"units": "1 infantry, 1 pds, 1 space_dock"}),
        [1, 8, 1],
    )
    destroyed = events(played, "unit_destroyed", player="defender", cause="control established")
    assert sorted(str(e["unit"]) for e in destroyed) == ["pds", "space_dock"]


def test_a_defender_who_wins_keeps_its_structures() -> None:
    # docs/rulings.md R13: without attacking ground forces left, nothing changes.
    played = run(
        invasion({"units": "1 carrier, 1 infantry"}, {"units": "1 infantry, 1 pds, 1 space_dock"}),
        [1, 1, 8],
    )
    assert survivors(played, "defender", "planet") == {"infantry": 1, "pds": 1, "space_dock": 1}


def test_a_planet_with_only_structures_is_taken_without_ground_combat() -> None:
    # docs/rulings.md R13, R19: no ground combat without defending ground forces.
    played = run(invasion({"units": "1 carrier, 1 infantry"}, {"units": "1 space_dock"}), [])
    assert (events(played, "combat_started"), planet_result(played, "controller")) == (
        [],
        "attacker",
    )


def test_a_planet_with_only_structures_loses_them_when_taken() -> None:
    # docs/rulings.md R19: the attacker gains control and the defender's space dock is destroyed.
    played = run(invasion({"units": "1 carrier, 1 infantry"}, {"units": "1 space_dock"}), [])
    assert survivors(played, "defender", "planet") == {}


def test_only_planets_the_attacker_holds_are_taken() -> None:
    # docs/rulings.md R13: establish control is per planet.
    scenario = invasion(
        {"units": "1 carrier, 2 infantry"},
        {},
        planets=[
            {"name": "A", "defender": "1 infantry, 1 space_dock", "commit": "1 infantry"},
            {"name": "B", "defender": "1 infantry, 1 space_dock", "commit": "1 infantry"},
        ],
    )
    played = run(scenario, [8, 1, 1, 8])
    assert [e["planet"] for e in events(played, "control_established")] == ["A"]
