"""Skilled Retreat (action card; abilities/skilled_retreat.py): at the start of a combat round,
move all of your ships from the active system to an adjacent system holding no other player's
ships; the space combat ends in a draw; a command token from reinforcements goes there
(ti4-combat-effects.md §6; data/cards.toml). Played through the "play_card" decision in the
"start of combat round" window (ti4-space-combat.md rule 2.1; procedures/windows.py); the ships
leave through the Retreat procedure's sub-steps (step 5: destination, transport, gravity rift,
command token; procedures/retreat.py); docs/rulings.md 14B3-1 to 14B3-3."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import events, invasion, rolls, run, space, survivors, units

#: an adjacent system with the defender's ships (never a destination) and an empty one (a
#: destination for Skilled Retreat, though not for a retreat: the player has nothing there)
NEIGHBOURS = {
    "adjacent": [
        {"name": "guarded", "ships": ["defender"]},
        {"name": "empty"},
    ]
}


def holding(fleet: str, **extra: Any) -> dict[str, Any]:
    return {"units": fleet, "action_cards": ["skilled_retreat"], **extra}


def test_played_at_the_start_of_round_one_the_combat_ends_in_a_draw() -> None:
    played = run(space(holding("2 cruiser"), {"units": "1 dreadnought"}, system=NEIGHBOURS), [])
    [card] = events(played, "card_played")
    assert (card["player"], card["card"], card["round"]) == ("attacker", "skilled_retreat", 1)
    [where] = events(played, "choice_made", decision="retreat_destination")
    assert where["options"] == ["to empty"]  # the guarded system is never offered
    [left] = events(played, "retreated")
    assert (left["player"], left["to"], units(left["units"])) == (
        "attacker",
        "empty",
        {"cruiser": 2},
    )
    [token] = events(played, "command_token_placed")
    assert (token["system"], token["source"]) == ("empty", "reinforcements")
    assert rolls(played) == []  # no die is rolled: the combat is over before anything fires
    outcome = played.outcome
    assert (outcome["result"], outcome["winner"]) == ("draw", None)
    assert outcome["retreat"] == {"player": "attacker", "to": "empty", "units": left["units"]}
    assert survivors(played, "defender") == {"dreadnought": 1}
    kinds = [e["event"] for e in played.events]
    assert kinds.index("window_opened") < kinds.index("card_played") < kinds.index("retreated")


def test_the_defender_may_play_it_too() -> None:
    system = {"adjacent": [{"name": "empty"}]}
    played = run(space({"units": "1 cruiser"}, holding("1 destroyer"), system=system), [])
    [left] = events(played, "retreated")
    assert (left["player"], left["to"]) == ("defender", "empty")
    assert played.outcome["result"] == "draw"


def test_the_token_comes_from_the_command_sheet_or_is_not_needed() -> None:
    # LRR 19.3 (as step 5.4): none in reinforcements: from the command sheet; none if the
    # player already has a token there.
    sheet = run(
        space(
            holding("1 cruiser", reinforcement_tokens=0), {"units": "1 cruiser"}, system=NEIGHBOURS
        ),
        [],
    )
    [token] = events(sheet, "command_token_placed")
    assert token["source"] == "command sheet"
    mine = {"adjacent": [{"name": "empty", "command_tokens": ["attacker"]}]}
    had = run(space(holding("1 cruiser"), {"units": "1 cruiser"}, system=mine), [])
    assert events(had, "command_token_placed") == []
    assert len(events(had, "command_token_not_needed")) == 1


def test_policy_names_the_round_or_never() -> None:
    # Faces (round 1): cruiser 1; cruiser 1 (both miss); round 2 starts with the card.
    later = space(
        holding("1 cruiser", policy={"play": {"skilled_retreat": {"round": 2}}}),
        {"units": "1 cruiser"},
        system=NEIGHBOURS,
    )
    played = run(later, [1, 1])
    assert [e["round"] for e in events(played, "card_played")] == [2]
    assert played.outcome["result"] == "draw"
    never = space(
        holding("1 cruiser", policy={"play": {"skilled_retreat": "never"}}),
        {"units": "1 cruiser"},
        system=NEIGHBOURS,
    )
    fought = run(never, [7, 1])
    assert events(fought, "card_played") == []
    assert fought.outcome["result"] == "attacker_win"


def test_a_scripted_pass_keeps_the_card() -> None:
    # Faces: round 1 misses (1; 1): the card is offered again in round 2, then the attacker
    # passes again and wins with 7; 1.
    scenario = space(holding("1 cruiser"), {"units": "1 cruiser"}, system=NEIGHBOURS)
    played = run(scenario, [1, 1, 7, 1], attacker=["pass", "pass"])
    asked = events(played, "choice_made", decision="play_card")
    assert [e["choice"] for e in asked] == ["pass", "pass"]
    assert events(played, "retreated") == []
    assert played.outcome["result"] == "attacker_win"


@pytest.mark.parametrize(
    ("system", "attacker"),
    [
        pytest.param({"adjacent": [{"name": "guarded", "ships": ["other"]}]}, {}, id="ships"),
        pytest.param({}, {}, id="no adjacent system"),
        pytest.param(
            {"adjacent": [{"name": "rocks", "anomaly": "asteroid_field"}]}, {}, id="asteroids"
        ),
        pytest.param({"adjacent": [{"name": "fog", "anomaly": "nebula"}]}, {}, id="nebula"),
    ],
)
def test_not_offered_without_a_system_to_go_to(
    system: dict[str, Any], attacker: dict[str, Any]
) -> None:
    # Faces: cruiser 7; cruiser 1.
    played = run(
        space(holding("1 cruiser", **attacker), {"units": "1 cruiser"}, system=system), [7, 1]
    )
    assert events(played, "choice_made", decision="play_card") == []


def test_an_asteroid_field_opens_with_antimass_deflectors() -> None:
    rocks = {"adjacent": [{"name": "rocks", "anomaly": "asteroid_field"}]}
    deflected = holding("1 cruiser", technologies=["antimass_deflectors"])
    played = run(space(deflected, {"units": "1 cruiser"}, system=rocks), [])
    [left] = events(played, "retreated")
    assert left["to"] == "rocks"


#: round 1: the attacker's dice miss, the dreadnought's hit destroys the carrier (casualty order)
CARRIER_LOST = {
    "policy": {"casualty_order": ["carrier"], "play": {"skilled_retreat": {"round": 2}}}
}


def test_not_offered_without_a_ship_that_can_move() -> None:
    # Fighter I have no move value: the card would move nothing. Faces, round 1: carrier 1,
    # fighters 1, 1; dreadnought 5 (the carrier goes); round 2: fighters 9, 9; dreadnought 1.
    scenario = space(
        holding("1 carrier, 2 fighter", **CARRIER_LOST),
        {"units": "1 dreadnought"},
        system=NEIGHBOURS,
    )
    played = run(scenario, [1, 1, 1, 5, 9, 9, 1])
    # offered (and passed, as the policy says) in round 1 only
    assert [e["choice"] for e in events(played, "choice_made", decision="play_card")] == ["pass"]
    assert events(played, "card_played") == []
    assert events(played, "round_started", round=2)


def test_not_offered_in_a_ground_combat() -> None:
    # An invasion fights no space combat. Faces: infantry 8; infantry 1.
    scenario = invasion(
        holding("1 carrier, 1 infantry"), {"units": "1 infantry"}, system=NEIGHBOURS
    )
    played = run(scenario, [8, 1])
    assert events(played, "choice_made", decision="play_card") == []


def test_what_cannot_be_carried_is_removed() -> None:
    # The fighters go only within capacity (notes 10-12): the carrier was lost in round 1.
    # Faces, round 1: carrier 1, cruiser 1, fighters 1, 1; dreadnought 5.
    scenario = space(
        holding("1 carrier, 1 cruiser, 2 fighter", **CARRIER_LOST),
        {"units": "1 dreadnought"},
        system=NEIGHBOURS,
    )
    played = run(scenario, [1, 1, 1, 1, 5])
    [card] = events(played, "card_played")
    assert card["round"] == 2
    removed = [e["unit"] for e in events(played, "unit_removed", reason="could not be transported")]
    assert removed == ["fighter", "fighter"]
    [left] = events(played, "retreated")
    assert units(left["units"]) == {"cruiser": 1}
    assert played.outcome["result"] == "draw"


@pytest.mark.parametrize(("face", "lost"), [(3, True), (4, False)])
def test_leaving_a_gravity_rift_each_ship_rolls(face: int, lost: bool) -> None:
    # docs/rulings.md R2 (as a retreat): a ship leaving the rift is removed on 1-3; still a draw.
    rift = {"anomaly": "gravity_rift", "adjacent": [{"name": "empty"}]}
    played = run(space(holding("1 cruiser"), {"units": "1 cruiser"}, system=rift), [face])
    [left] = events(played, "retreated")
    assert units(left["units"]) == ({} if lost else {"cruiser": 1})
    assert len(events(played, "command_token_placed")) == (0 if lost else 1)
    assert played.outcome["result"] == "draw"


def test_aerie_sentinels_in_space_go_along_without_room() -> None:
    """docs/rulings.md 14K-5: the mech needs no room when transported by the carrier."""
    argent = holding("1 carrier, 1 mech", faction="argent")
    played = run(space(argent, {"units": "1 cruiser"}, system=NEIGHBOURS), [])
    [retreated] = events(played, "retreated")
    assert retreated["units"] == [{"unit": "carrier", "count": 1}, {"unit": "mech", "count": 1}]


def test_exact_odds_hand_derived() -> None:
    """Cruiser duel, each hitting on 7 (2/5); the defender plays Skilled Retreat at the start
    of round 2. Round 1: attacker alone hits 2/5 * 3/5 = 6/25 (attacker wins), defender alone
    6/25, both 4/25 (draw); neither, 9/25: the defender leaves in round 2, a draw.
    attacker = 6/25, defender = 6/25, draw = 4/25 + 9/25 = 13/25; the defender's retreat 9/25."""
    defender = holding("1 cruiser", policy={"play": {"skilled_retreat": {"round": 2}}})
    found = odds(space({"units": "1 cruiser"}, defender, system={"adjacent": [{"name": "e"}]}))
    assert found.attacker_win == pytest.approx(float(Fraction(6, 25)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(6, 25)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(13, 25)), abs=1e-12)
    assert found.retreats is not None
    assert found.retreats["defender"]["probability"] == pytest.approx(
        float(Fraction(9, 25)), abs=1e-12
    )
