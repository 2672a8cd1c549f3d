"""Experimental Battlestation (action card; abilities/experimental_battlestation.py): after the
active player moves ships into the system, one of the holder's space docks in or next to it
fires SPACE CANNON 5 (x3) at the ships in the active system (ti4-combat-effects.md §7).
Offered to the defender through ``before_ability_roll`` before the first space cannon offense
roll, it fires through ``extra_ability_roll`` before the active player's space cannon offense
(ti4-space-combat.md, Space Cannon Offense); only a space dock in the active system (the
defender's ``units``) is known to the engine (docs/rulings.md 14D1-8)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, cast

import pytest

from spacecombat import odds
from spacecombat.core.events import Event
from tests.helpers import events, rolls, run, space, survivors

EB = {"action_cards": ["experimental_battlestation"]}


def first_group(roll: Event) -> dict[str, Any]:
    """The first dice group of a dice_rolled event."""
    return cast("list[dict[str, Any]]", roll["groups"])[0]


def fight(defender: str = "1 cruiser, 1 space_dock", **policy: Any) -> dict[str, Any]:
    side: dict[str, Any] = {"units": defender, **EB}
    if policy:
        side["policy"] = policy
    return space({"units": "2 cruiser, 1 pds"}, side)


def test_the_dock_fires_before_the_active_players_space_cannon() -> None:
    # dock 5, 1, 1 (one hit: a cruiser); attacker's PDS 1; combat 7 / 7: both cruisers die
    played = run(fight(), [5, 1, 1, 1, 7, 7])
    [card] = events(played, "card_played")
    assert (card["player"], card["card"], card["round"]) == (
        "defender",
        "experimental_battlestation",
        0,
    )
    sco = [(r["player"], first_group(r)) for r in rolls(played, "space_cannon_offense")]
    assert [(player, g["unit"], g["hit_on"], len(g["faces"])) for player, g in sco] == [
        ("defender", "space_dock", 5, 3),
        ("attacker", "pds", 6, 1),
    ]
    destroyed = events(played, "unit_destroyed", cause="space cannon offense")
    assert [(e["player"], e["unit"]) for e in destroyed] == [("attacker", "cruiser")]


def test_the_defenders_own_space_cannon_still_fires_after_the_attackers() -> None:
    # dock misses (1, 1, 1); attacker's PDS 1; defender's PDS 1; combat 7, 7 / 1
    played = run(fight("1 cruiser, 1 space_dock, 1 pds"), [1, 1, 1, 1, 1, 7, 7, 1])
    assert [r["player"] for r in rolls(played, "space_cannon_offense")] == [
        "defender",
        "attacker",
        "defender",
    ]


def test_not_offered_without_a_space_dock_in_the_system() -> None:
    played = run(fight("1 cruiser"), [1, 7, 7, 1])
    assert not events(played, "choice_made", decision="play_card")


def test_a_space_dock_next_to_the_system_fires_too() -> None:
    # the player condition space_dock_adjacent (cards.toml): the dock fires from next door
    scenario = space(
        {"units": "2 cruiser, 1 pds"},
        {"units": "1 cruiser", "conditions": ["space_dock_adjacent"], **EB},
    )
    played = run(scenario, [5, 1, 1, 1, 7, 7])
    sco = [(r["player"], first_group(r)["unit"]) for r in rolls(played, "space_cannon_offense")]
    assert sco == [("defender", "space_dock"), ("attacker", "pds")]


def test_the_active_player_cannot_play_it() -> None:
    scenario = space({"units": "1 cruiser", **EB}, {"units": "1 cruiser, 1 space_dock"})
    played = run(scenario, [7, 1])
    assert not events(played, "choice_made", decision="play_card")


def test_policy_never_keeps_it() -> None:
    played = run(fight(play={"experimental_battlestation": "never"}), [1, 7, 7, 1])
    assert not events(played, "card_played")
    assert survivors(played, "attacker") == {"cruiser": 2}


def test_it_fires_even_if_the_defender_has_no_ships() -> None:
    # the attacker's PDS has no target, so it does not roll; the dock's 5 destroys 1 cruiser
    scenario = space({"units": "1 cruiser, 1 pds"}, {"units": "1 space_dock", **EB})
    played = run(scenario, [5, 1, 1])
    assert [r["player"] for r in rolls(played, "space_cannon_offense")] == ["defender"]
    assert survivors(played, "attacker") == {}


def test_solar_flare_stops_it() -> None:
    scenario = space(
        {"units": "2 cruiser", "action_cards": ["solar_flare"]},
        {"units": "1 cruiser, 1 space_dock", **EB},
    )
    played = run(scenario, [7, 7, 1])
    assert [e["card"] for e in events(played, "card_played")] == ["solar_flare"]
    assert rolls(played, "space_cannon_offense") == []


def test_the_argent_flagship_stops_it() -> None:
    # other players cannot use SPACE CANNON against the Argent ships: the card is not offered;
    # combat: flagship 9, 9 (the cruiser dies) / cruiser 1
    scenario = space(
        {"units": "1 flagship", "faction": "argent"},
        {"units": "1 cruiser, 1 space_dock", **EB},
    )
    played = run(scenario, [9, 9, 1])
    assert not events(played, "choice_made", decision="play_card")


def test_maneuvering_jets_cancels_one_of_its_hits() -> None:
    scenario = space(
        {"units": "1 cruiser", "action_cards": ["maneuvering_jets"]},
        {"units": "1 cruiser, 1 space_dock", **EB},
    )
    played = run(scenario, [5, 1, 1, 7, 1])  # one hit, cancelled; combat 7 / 1
    assert [e["card"] for e in events(played, "card_played")] == [
        "experimental_battlestation",
        "maneuvering_jets",
    ]
    assert survivors(played, "attacker") == {"cruiser": 1}


def test_plasma_scoring_adds_a_die() -> None:
    scenario = space(
        {"units": "1 cruiser"},
        {"units": "1 space_dock", "technologies": ["plasma_scoring"], **EB},
    )
    played = run(scenario, [5, 1, 1, 1])
    [roll] = rolls(played, "space_cannon_offense")
    assert len(first_group(roll)["faces"]) == 4


def test_exact_odds_hand_derived() -> None:
    """1 cruiser against 1 cruiser and a space dock with the card. The dock rolls 3 dice at
    5 (3/5 each) and misses all with (2/5)^3 = 8/125; otherwise the attacker's only ship is
    destroyed (no combat: 117/125). Then a 2/5 duel (3/8, 1/4, 3/8):
    attacker = defender = 8/125 * 3/8 = 3/125, draw = 8/125 * 1/4 = 2/125."""
    found = odds(space({"units": "1 cruiser"}, {"units": "1 cruiser, 1 space_dock", **EB}))
    assert found.attacker_win == pytest.approx(float(Fraction(3, 125)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(3, 125)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(2, 125)), abs=1e-12)
    assert found.other["no_combat"] == pytest.approx(float(Fraction(117, 125)), abs=1e-12)
