"""Space combat Step 5, Retreat (ti4-space-combat.md step 5 and notes 2-12; docs/rulings.md
R2, R12, R18): an announced retreat happens if an eligible system remains, unless the opponent
has no ships left; where a player may retreat to; the command token; what the retreating ships
can carry; leaving a gravity rift."""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat.core.engine import Played
from spacecombat.rulesets.ti4.state import BattleState
from tests.helpers import events, rolls, run, space, survivors, units
from tests.ti4.scenarios import space_over_capacity

#: the attacker's own system next door: always an eligible destination
HOME = {"name": "home", "units": ["attacker"]}
RIFT_LOSS = "lost leaving the gravity rift"


def retreating(fleet: str, **extra: Any) -> dict[str, Any]:
    """An attacker that announces a retreat in round 1."""
    policy = {"retreat": {"after_round": 0}, **extra.pop("policy", {})}
    return {"units": fleet, "policy": policy, **extra}


def retreated(played: Played[BattleState]) -> dict[str, object]:
    """The one ``retreated`` event."""
    [found] = events(played, "retreated")
    return found


def retreated_units(played: Played[BattleState]) -> dict[str, int]:
    return units(retreated(played)["units"])


def removed(played: Played[BattleState], reason: str) -> list[object]:
    return [e["unit"] for e in events(played, "unit_removed", reason=reason)]


# --- Step 5: the retreat happens -----------------------------------------------------------


def test_an_announced_retreat_is_carried_out() -> None:
    # ti4-space-combat.md step 5: "they must retreat". Faces: cruiser 1; cruiser 1.
    played = run(
        space(retreating("1 cruiser"), {"units": "1 cruiser"}, system={"adjacent": [HOME]}), [1, 1]
    )
    event = retreated(played)
    assert (event["player"], event["to"], event["units"]) == (
        "attacker",
        "home",
        [{"unit": "cruiser", "count": 1}],
    )


def test_every_ship_with_a_move_value_retreats() -> None:
    # ti4-space-combat.md step 5.2: "takes all of their ships with a move value".
    # Faces: dreadnought 1, cruisers 1, 1; cruiser 1.
    played = run(
        space(
            retreating("1 dreadnought, 2 cruiser"),
            {"units": "1 cruiser"},
            system={"adjacent": [HOME]},
        ),
        [1, 1, 1, 1],
    )
    assert retreated_units(played) == {"cruiser": 2, "dreadnought": 1}
    assert survivors(played, "attacker") == {}


def test_the_retreat_is_recorded_in_the_outcome() -> None:
    # ti4-space-combat.md step 5.2: the ships moved to a single adjacent system.
    played = run(
        space(retreating("1 cruiser"), {"units": "1 cruiser"}, system={"adjacent": [HOME]}), [1, 1]
    )
    assert played.outcome["retreat"] == {
        "player": "attacker",
        "to": "home",
        "units": [{"unit": "cruiser", "count": 1}],
    }


def test_no_retreat_when_the_opponent_has_no_ships_left() -> None:
    # ti4-space-combat.md step 5.1: the combat ends and the retreat does not occur.
    # Faces: cruiser 7 (destroys the defender's only ship); cruiser 1.
    played = run(
        space(retreating("1 cruiser"), {"units": "1 cruiser"}, system={"adjacent": [HOME]}), [7, 1]
    )
    assert events(played, "retreated") == []
    cancelled = events(played, "retreat_cancelled")
    assert [(e["player"], e["reason"]) for e in cancelled] == [
        ("attacker", "the opponent has no ships left")
    ]
    assert played.outcome["result"] == "attacker_win"


# --- Step 5.3 and notes 2-8: eligible systems -----------------------------------------------

ELIGIBILITY = [
    # (id, adjacent system X, attacker extras, scenario extras, eligible)
    ("own units", {"units": ["attacker"]}, {}, {}, True),
    ("own planet", {"planets": ["attacker"]}, {}, {}, True),
    ("neither units nor planet", {}, {}, {}, False),
    ("only another player's units", {"units": ["defender"]}, {}, {}, False),
    (
        "own units and the opponent's ships",
        {"units": ["attacker"], "ships": ["defender"]},
        {},
        {},
        False,
    ),
    (
        "own units and a third player's ships",
        {"units": ["attacker"], "ships": ["other"]},
        {},
        {},
        False,
    ),
    (
        "own units and the opponent's ground forces",
        {"units": ["attacker", "defender"]},
        {},
        {},
        True,
    ),
    ("asteroid field", {"units": ["attacker"], "anomaly": "asteroid_field"}, {}, {}, False),
    (
        "asteroid field with antimass deflectors",
        {"units": ["attacker"], "anomaly": "asteroid_field"},
        {"technologies": ["antimass_deflectors"]},
        {},
        True,
    ),
    ("supernova", {"units": ["attacker"], "anomaly": "supernova"}, {}, {}, False),
    (
        "supernova with magmus reactor",
        {"units": ["attacker"], "anomaly": "supernova"},
        {"faction": "muaat", "technologies": ["magmus_reactor"]},
        {},
        True,
    ),
    (
        "supernova as muaat without magmus reactor",
        {"units": ["attacker"], "anomaly": "supernova"},
        {"faction": "muaat"},
        {},
        False,
    ),
    ("nebula", {"units": ["attacker"], "anomaly": "nebula"}, {}, {}, False),
    (
        "nebula as empyrean",
        {"units": ["attacker"], "anomaly": "nebula"},
        {"faction": "empyrean"},
        {},
        True,
    ),
    (
        "nebula under shared research",
        {"units": ["attacker"], "anomaly": "nebula"},
        {},
        {"laws": ["shared_research"]},
        False,
    ),
    ("empty system with dark energy tap", {}, {"technologies": ["dark_energy_tap"]}, {}, True),
    (
        "another player's units with dark energy tap",
        {"units": ["defender"]},
        {"technologies": ["dark_energy_tap"]},
        {},
        False,
    ),
    (
        "another player's ships with dark energy tap",
        {"ships": ["other"]},
        {"technologies": ["dark_energy_tap"]},
        {},
        False,
    ),
]


@pytest.mark.parametrize(
    ("system", "side", "extra", "eligible"),
    [pytest.param(*case[1:], id=str(case[0])) for case in ELIGIBILITY],
)
def test_retreat_destinations(
    system: dict[str, Any], side: dict[str, Any], extra: dict[str, Any], eligible: bool
) -> None:
    # ti4-space-combat.md step 5.3 and notes 2-4, 8; docs/rulings.md R12. X is listed before
    # the always-eligible home system; the destination decision lists the eligible ones.
    # Faces: cruiser 1; cruiser 1.
    scenario = space(
        retreating("1 cruiser", **side),
        {"units": "1 cruiser"},
        system={"adjacent": [{"name": "X", **system}, HOME]},
        **extra,
    )
    [asked] = events(run(scenario, [1, 1]), "choice_made", decision="retreat_destination")
    assert asked["options"] == (["to X", "to home"] if eligible else ["to home"])


# --- Step 5.4: the command token ------------------------------------------------------------


def test_a_command_token_is_placed_from_reinforcements() -> None:
    # ti4-space-combat.md step 5.4.
    played = run(
        space(retreating("1 cruiser"), {"units": "1 cruiser"}, system={"adjacent": [HOME]}), [1, 1]
    )
    placed = events(played, "command_token_placed")
    assert [(e["player"], e["system"], e["source"]) for e in placed] == [
        ("attacker", "home", "reinforcements")
    ]


def test_the_token_comes_from_the_command_sheet_when_reinforcements_are_empty() -> None:
    # ti4-space-combat.md step 5.4: "use one from their command sheet instead".
    played = run(
        space(
            retreating("1 cruiser", reinforcement_tokens=0),
            {"units": "1 cruiser"},
            system={"adjacent": [HOME]},
        ),
        [1, 1],
    )
    assert [e["source"] for e in events(played, "command_token_placed")] == ["command sheet"]


def test_no_second_token_where_the_player_already_has_one() -> None:
    # ti4-space-combat.md step 5.4: "does not place an additional token there".
    home = {**HOME, "command_tokens": ["attacker"]}
    played = run(
        space(retreating("1 cruiser"), {"units": "1 cruiser"}, system={"adjacent": [home]}), [1, 1]
    )
    assert events(played, "command_token_placed") == []
    assert len(events(played, "command_token_not_needed", player="attacker", system="home")) == 1


def test_a_token_of_another_player_there_does_not_count() -> None:
    # ti4-space-combat.md step 5.4: only "one of their command tokens" spares the token.
    home = {**HOME, "command_tokens": ["defender"]}
    played = run(
        space(retreating("1 cruiser"), {"units": "1 cruiser"}, system={"adjacent": [home]}), [1, 1]
    )
    assert len(events(played, "command_token_placed", player="attacker")) == 1


def test_fighter_i_alone_cannot_retreat_and_place_no_token() -> None:
    # ti4-space-combat.md note 6 / docs/rulings.md R12: Fighter I have no move value; they are
    # removed and no token is placed. Faces: fighters 1, 1; cruiser 1.
    played = run(
        space_over_capacity(
            retreating("2 fighter"), {"units": "1 cruiser"}, system={"adjacent": [HOME]}
        ),
        [1, 1, 1],
    )
    assert removed(played, "could not be transported") == ["fighter", "fighter"]
    assert events(played, "command_token_placed") == []
    assert retreated(played)["units"] == []


# --- Step 5.2 and notes 10-12: what the retreating ships carry -------------------------------


def test_fighters_beyond_capacity_are_removed() -> None:
    # ti4-space-combat.md step 5.2 and note 12: a carrier (capacity 4) takes 4 of 6 Fighter I.
    # Faces: carrier 1, fighters 1 x6; cruiser 1.
    played = run(
        space_over_capacity(
            retreating("1 carrier, 6 fighter"), {"units": "1 cruiser"}, system={"adjacent": [HOME]}
        ),
        [1] * 8,
    )
    assert retreated_units(played) == {"carrier": 1, "fighter": 4}
    assert removed(played, "could not be transported") == ["fighter", "fighter"]


def test_ground_forces_in_space_without_capacity_are_removed() -> None:
    # ti4-space-combat.md step 5.2: Cruiser I has no capacity; the infantry is removed.
    played = run(
        space_over_capacity(
            retreating("1 cruiser, 1 infantry"), {"units": "1 cruiser"}, system={"adjacent": [HOME]}
        ),
        [1, 1],
    )
    assert removed(played, "could not be transported") == ["infantry"]
    assert retreated_units(played) == {"cruiser": 1}


def test_fighter_ii_retreat_on_their_own() -> None:
    # ti4-space-combat.md step 5.2: Fighter II has a move value, so it needs no capacity.
    # Faces: cruiser 1, fighters 1, 1, 1; cruiser 1.
    played = run(
        space(
            retreating("1 cruiser, 3 fighter", upgrades=["fighter"]),
            {"units": "1 cruiser"},
            system={"adjacent": [HOME]},
        ),
        [1] * 5,
    )
    assert retreated_units(played) == {"cruiser": 1, "fighter": 3}
    assert events(played, "unit_removed") == []


def test_units_in_space_cannot_be_left_behind_while_capacity_is_unused() -> None:
    # ti4-space-combat.md note 11: with room on the carrier, "done" is not offered.
    played = run(
        space(
            retreating("1 carrier, 2 fighter"), {"units": "1 cruiser"}, system={"adjacent": [HOME]}
        ),
        [1] * 4,
    )
    first = events(played, "choice_made", decision="retreat_transport")[0]
    assert first["options"] == ["carry fighter"]


def test_ground_forces_on_planets_may_be_taken_along() -> None:
    # ti4-space-combat.md note 10 / docs/rulings.md R18: scenario policy
    # retreat_takes_planet_ground_forces: true. Faces: carrier 1; cruiser 1.
    played = run(
        space(
            retreating(
                "1 carrier",
                planet_units="2 infantry",
                policy={"retreat_takes_planet_ground_forces": True},
            ),
            {"units": "1 cruiser"},
            system={"adjacent": [HOME]},
        ),
        [1, 1],
    )
    assert retreated_units(played) == {"carrier": 1, "infantry": 2}
    assert survivors(played, "attacker", "planet") == {}


def test_ground_forces_on_planets_stay_unless_taken() -> None:
    # ti4-space-combat.md note 10.1 / docs/rulings.md R18: taking them is optional; the stock
    # policy leaves them, and they stay on the planet.
    played = run(
        space(
            retreating("1 carrier", planet_units="2 infantry"),
            {"units": "1 cruiser"},
            system={"adjacent": [HOME]},
        ),
        [1, 1],
    )
    assert retreated_units(played) == {"carrier": 1}
    assert survivors(played, "attacker", "planet") == {"infantry": 2}


def test_planet_ground_forces_may_fill_the_capacity_and_leave_space_units_behind() -> None:
    # ti4-space-combat.md note 11: the carrier takes 2 infantry from the planet and 2 of its 4
    # fighters; the other 2 fighters are left behind and removed. Faces: carrier 1,
    # fighters 1 x4; cruiser 1.
    played = run(
        space(
            {"units": "1 carrier, 4 fighter", "planet_units": "2 infantry"},
            {"units": "1 cruiser"},
            system={"adjacent": [HOME]},
        ),
        [1] * 6,
        attacker=[
            "retreat",
            "carry infantry from planets",
            "carry infantry from planets",
            "carry fighter",
            "carry fighter",
        ],
    )
    assert retreated_units(played) == {"carrier": 1, "fighter": 2, "infantry": 2}
    assert removed(played, "could not be transported") == ["fighter", "fighter"]


# --- Note 5: leaving a gravity rift ---------------------------------------------------------

RIFT = {"anomaly": "gravity_rift", "adjacent": [HOME]}


def test_each_ship_leaving_a_gravity_rift_rolls_a_die() -> None:
    # ti4-space-combat.md note 5 / docs/rulings.md R2: one die per ship.
    # Faces: cruisers 1, 1; cruiser 1; rift 4, 4.
    played = run(
        space(retreating("2 cruiser"), {"units": "1 cruiser"}, system=RIFT), [1, 1, 1, 4, 4]
    )
    [roll] = rolls(played, "gravity_rift")
    groups = roll["groups"]
    assert isinstance(groups, list)
    assert [(g["unit"], g["faces"]) for g in groups] == [("cruiser", [4, 4])]


@pytest.mark.parametrize(("face", "lost"), [(1, True), (3, True), (4, False), (10, False)])
def test_a_ship_leaving_a_gravity_rift_is_lost_on_1_to_3(face: int, lost: bool) -> None:
    # docs/rulings.md R2: "On a 1–3 that ship is removed". Faces: cruiser 1; cruiser 1; rift.
    played = run(space(retreating("1 cruiser"), {"units": "1 cruiser"}, system=RIFT), [1, 1, face])
    assert removed(played, RIFT_LOSS) == (["cruiser"] if lost else [])
    assert retreated_units(played) == ({} if lost else {"cruiser": 1})


def test_only_the_ships_that_roll_low_are_lost() -> None:
    # docs/rulings.md R2: each ship rolls for itself. Faces: cruisers 1, 1; cruiser 1; rift 3, 4.
    played = run(
        space(retreating("2 cruiser"), {"units": "1 cruiser"}, system=RIFT), [1, 1, 1, 3, 4]
    )
    assert removed(played, RIFT_LOSS) == ["cruiser"]
    assert retreated_units(played) == {"cruiser": 1}


def test_a_ship_lost_in_the_rift_is_removed_not_destroyed() -> None:
    # docs/rulings.md R2: current wording "removed from the board"; not destroyed.
    played = run(space(retreating("1 cruiser"), {"units": "1 cruiser"}, system=RIFT), [1, 1, 2])
    assert [e for e in events(played, "unit_destroyed") if e["player"] == "attacker"] == []


def test_no_token_when_every_ship_is_lost_to_the_rift() -> None:
    # docs/rulings.md R2 / ti4-space-combat.md step 5.4: no unit arrived, so no token.
    played = run(space(retreating("1 cruiser"), {"units": "1 cruiser"}, system=RIFT), [1, 1, 3])
    assert events(played, "command_token_placed") == []


def test_cargo_is_lost_with_the_ship_carrying_it() -> None:
    # docs/rulings.md R2: transported units do not roll; they are removed with their ship.
    # Faces: carrier 1, fighter 1; cruiser 1; rift: the carrier rolls 3.
    played = run(
        space(retreating("1 carrier, 1 fighter"), {"units": "1 cruiser"}, system=RIFT), [1, 1, 1, 3]
    )
    assert removed(played, RIFT_LOSS) == ["carrier", "fighter"]


def test_cargo_arrives_with_the_ship_that_got_away() -> None:
    # docs/rulings.md R2: the carrier rolls 4, so it and its fighter reach the system.
    played = run(
        space(retreating("1 carrier, 1 fighter"), {"units": "1 cruiser"}, system=RIFT), [1, 1, 1, 4]
    )
    assert retreated_units(played) == {"carrier": 1, "fighter": 1}
