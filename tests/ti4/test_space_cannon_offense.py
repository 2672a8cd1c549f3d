"""Space Cannon Offense, the tactical-action step before space combat (docs/rulings.md R1, R4,
R11, R14): the active player fires first, then the defender; after each roll the owner of the
ships hit assigns the hits (sustain damage allowed) and meets capacity; a player left without
ships means there is no space combat."""

from __future__ import annotations

from spacecombat.core.engine import Played
from spacecombat.core.events import Event
from spacecombat.rulesets.ti4.state import BattleState
from tests.helpers import events, rolls, run, space, survivors

SCO = "space_cannon_offense"
CAUSE = "space cannon offense"


def kinds(played: Played[BattleState], *wanted: str) -> list[Event]:
    """The events of the given kinds, in log order."""
    return [e for e in played.events if e["event"] in wanted]


def test_the_active_player_fires_before_the_defender() -> None:
    # docs/rulings.md R1: "Starting with the active player"; the attacker is the active player.
    # Faces: attacker's PDS 1, defender's PDS 1 (both miss); combat: cruiser 7 hits, cruiser 1.
    played = run(
        space({"units": "1 cruiser, 1 pds"}, {"units": "1 cruiser, 1 pds"}),
        [1, 1, 7, 1],
    )
    assert [e["player"] for e in rolls(played, SCO)] == ["attacker", "defender"]


def test_hits_are_assigned_before_the_next_player_fires() -> None:
    # docs/rulings.md R1: SCO is sequential (roll, then the target assigns), not pooled.
    # Faces: attacker's PDS 6 (hit), defender's PDS 1; combat: cruiser 7 hits, cruiser 1.
    played = run(
        space({"units": "1 cruiser, 1 pds"}, {"units": "2 cruiser, 1 pds"}),
        [6, 1, 7, 1],
    )
    sequence = [
        (e["event"], e["player"])
        for e in kinds(played, "dice_rolled", "unit_destroyed")
        if e.get("purpose") == SCO or e.get("cause") == CAUSE
    ]
    assert sequence == [
        ("dice_rolled", "attacker"),
        ("unit_destroyed", "defender"),
        ("dice_rolled", "defender"),
    ]


def test_the_owner_of_the_ships_hit_chooses_which_is_destroyed() -> None:
    # docs/rulings.md R1 step 3: "The target ... assigns the hits". The attacker picks its
    # cruiser although its stock policy would lose the cheaper carrier.
    # Faces: defender's PDS 6 (hit); combat: carrier 9 hits, cruiser 1.
    played = run(
        space({"units": "1 carrier, 1 cruiser"}, {"units": "1 cruiser, 1 pds"}),
        [6, 9, 1],
        attacker=["destroy cruiser"],
    )
    destroyed = events(played, "unit_destroyed", cause=CAUSE)
    assert [(e["player"], e["unit"]) for e in destroyed] == [("attacker", "cruiser")]


def test_the_player_hit_is_asked_with_its_own_ships_as_options() -> None:
    # docs/rulings.md R1: hits can never go to the firer's own units.
    played = run(
        space({"units": "1 carrier, 1 cruiser"}, {"units": "1 cruiser, 1 pds"}),
        [6, 9, 1],
    )
    asked = events(played, "choice_made", decision="assign_hit")[0]
    assert (asked["player"], asked["options"]) == (
        "attacker",
        ["destroy carrier", "destroy cruiser"],
    )


def test_sustain_damage_cancels_a_space_cannon_hit() -> None:
    # docs/rulings.md R4: any of the target's ships in the active system may sustain against SCO.
    # Faces: defender's PDS 6 (hit, sustained); combat: dreadnought 5 hits, cruiser 1.
    played = run(space({"units": "1 dreadnought"}, {"units": "1 cruiser, 1 pds"}), [6, 5, 1])
    sustained = events(played, "damage_sustained", cause=CAUSE)
    assert [(e["player"], e["unit"], e["hits_cancelled"]) for e in sustained] == [
        ("attacker", "dreadnought", 1)
    ]


def test_a_ship_damaged_by_space_cannon_enters_combat_damaged() -> None:
    # ti4-space-combat.md step 4.1 / docs/rulings.md R4: the sustained hit leaves the unit
    # damaged, so it cannot sustain again in the combat.
    played = run(space({"units": "1 dreadnought"}, {"units": "1 cruiser, 1 pds"}), [6, 5, 1])
    block = played.outcome["attacker"]
    assert isinstance(block, dict)
    assert block["space"] == [{"unit": "dreadnought", "count": 1, "status": "damaged"}]


def test_no_player_fires_at_an_opponent_without_ships() -> None:
    # docs/rulings.md R1: SCO targets the other player's ships in the active system; the
    # defender has only a PDS, so the attacker's PDS does not roll. Faces: defender's PDS 1.
    played = run(space({"units": "1 cruiser, 1 pds"}, {"units": "1 pds"}), [1])
    assert [e["player"] for e in rolls(played, SCO)] == ["defender"]


def test_the_defender_still_fires_after_losing_all_its_ships() -> None:
    # docs/rulings.md R1: each player in turn fires its SPACE CANNON units still on the board;
    # the defender's PDS is on its planet and the attacker still has ships.
    # Faces: attacker's PDS 6 destroys the only defending cruiser; defender's PDS 6 hits.
    played = run(
        space({"units": "2 cruiser, 1 pds"}, {"units": "1 cruiser, 1 pds"}),
        [6, 6],
    )
    destroyed = events(played, "unit_destroyed", cause=CAUSE)
    assert [(e["player"], e["unit"]) for e in destroyed] == [
        ("defender", "cruiser"),
        ("attacker", "cruiser"),
    ]


def test_no_combat_when_space_cannon_leaves_a_player_without_ships() -> None:
    # docs/rulings.md R14 and R25: no space combat, no winner, 0 rounds.
    # Faces: attacker's PDS 6 destroys the only defending cruiser.
    played = run(space({"units": "1 cruiser, 1 pds"}, {"units": "1 cruiser"}), [6])
    outcome = played.outcome
    assert (outcome["result"], outcome["winner"], outcome["rounds"]) == ("no_combat", None, 0)


def test_no_combat_round_is_fought_when_space_cannon_leaves_a_player_without_ships() -> None:
    # ti4-space-combat.md intro: space combat only "if two players have ships in the active
    # system" after SCO (docs/rulings.md R14).
    played = run(space({"units": "1 cruiser, 1 pds"}, {"units": "1 cruiser"}), [6])
    assert kinds(played, "combat_started", "round_started") == []
    assert events(played, "no_combat") != []


def test_fighters_beyond_capacity_are_removed_before_combat() -> None:
    # docs/rulings.md R1 step 4 ("Enforce capacity") and R14: after SCO destroys the carrier,
    # its fighters exceed capacity and are removed before the space combat starts.
    # Faces: defender's PDS 6 (the attacker loses its carrier); combat: cruiser 7, cruiser 1.
    played = run(
        space({"units": "1 carrier, 1 cruiser, 2 fighter"}, {"units": "1 cruiser, 1 pds"}),
        [6, 7, 1],
        attacker=["destroy carrier"],
    )
    before_combat = []
    for e in played.events:
        if e["event"] == "combat_started":
            break
        if e["event"] == "unit_removed":
            before_combat.append((e["player"], e["unit"]))
    assert before_combat == [("attacker", "fighter"), ("attacker", "fighter")]


def test_fighters_removed_after_space_cannon_do_not_roll_in_combat() -> None:
    # docs/rulings.md R14: capacity is met before space combat would start, so only the
    # cruiser makes a combat roll. Faces as above.
    played = run(
        space({"units": "1 carrier, 1 cruiser, 2 fighter"}, {"units": "1 cruiser, 1 pds"}),
        [6, 7, 1],
        attacker=["destroy carrier"],
    )
    first = rolls(played, "space_combat")[0]
    groups = first["groups"]
    assert isinstance(groups, list)
    assert [g["unit"] for g in groups] == ["cruiser"]


def test_ground_forces_beyond_capacity_are_removed_after_space_cannon() -> None:
    # docs/rulings.md R14 "Capacity": the active player's ground forces in space may be lost.
    # Faces: defender's PDS 6 (the carrier is lost); combat: cruiser 7, cruiser 1.
    played = run(
        space({"units": "1 carrier, 1 cruiser, 2 infantry"}, {"units": "1 cruiser, 1 pds"}),
        [6, 7, 1],
        attacker=["destroy carrier"],
    )
    removed = events(played, "unit_removed", reason="beyond capacity after space cannon offense")
    assert [e["unit"] for e in removed] == ["infantry", "infantry"]


def test_the_nebula_bonus_does_not_apply_to_space_cannon() -> None:
    # docs/rulings.md R11: the defender's +1 in a nebula is for combat rolls only, not SCO.
    # Faces: defender's PDS 5 misses (PDS I hits on 6); combat: cruiser 7, cruiser 1.
    played = run(
        space({"units": "1 cruiser"}, {"units": "1 cruiser, 1 pds"}, system={"anomaly": "nebula"}),
        [5, 7, 1],
    )
    assert rolls(played, SCO)[0]["hits"] == 0
    assert survivors(played, "attacker") == {"cruiser": 1}
