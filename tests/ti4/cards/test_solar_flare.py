"""Solar Flare (action card; abilities/solar_flare.py): after the active player activates a
system, other players cannot use SPACE CANNON against its ships during this movement
(ti4-combat-effects.md §7). Offered through ``before_ability_roll`` before the first space
cannon offense roll (ti4-space-combat.md, Space Cannon Offense; LRR 58: it is part of the
movement step); once played, the opponent's space cannon offense has no dice
(``ability_roll``; docs/rulings.md 14D1-4)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import events, invasion, rolls, run, space

SF = {"action_cards": ["solar_flare"]}


def fight(**policy: Any) -> dict[str, Any]:
    attacker: dict[str, Any] = {"units": "1 cruiser, 1 pds", **SF}
    if policy:
        attacker["policy"] = policy
    return space(attacker, {"units": "1 cruiser, 1 pds"})


def test_played_before_space_cannon_offense_it_stops_the_opponents_roll() -> None:
    # faces: the attacker's PDS 1 (it still fires); combat: 7 (hit), 1
    played = run(fight(), [1, 7, 1])
    [card] = events(played, "card_played")
    assert (card["player"], card["card"], card["round"]) == ("attacker", "solar_flare", 0)
    assert [r["player"] for r in rolls(played, "space_cannon_offense")] == ["attacker"]
    first = [e["event"] for e in played.events if e["event"] in ("card_played", "dice_rolled")]
    assert first[:2] == ["card_played", "dice_rolled"]  # before the attacker's own roll


def test_policy_never_keeps_it() -> None:
    played = run(fight(play={"solar_flare": "never"}), [1, 1, 7, 1])
    assert not events(played, "card_played")
    assert [r["player"] for r in rolls(played, "space_cannon_offense")] == [
        "attacker",
        "defender",
    ]


def test_a_scripted_pass() -> None:
    played = run(fight(), [1, 1, 7, 1], attacker=["pass"])
    assert not events(played, "card_played")
    assert len(rolls(played, "space_cannon_offense")) == 2


def test_not_offered_when_the_opponent_has_no_space_cannon() -> None:
    played = run(space({"units": "1 cruiser", **SF}, {"units": "1 cruiser"}), [7, 1])
    assert not events(played, "choice_made", decision="play_card")


def test_only_the_active_player_can_play_it() -> None:
    played = run(space({"units": "1 cruiser, 1 pds"}, {"units": "1 cruiser", **SF}), [1, 7, 1])
    assert not events(played, "choice_made", decision="play_card")
    assert len(rolls(played, "space_cannon_offense")) == 1


def test_offered_even_when_the_attacker_has_no_roll_of_its_own() -> None:
    played = run(space({"units": "1 cruiser", **SF}, {"units": "1 cruiser, 1 pds"}), [7, 1])
    assert len(events(played, "card_played")) == 1
    assert rolls(played, "space_cannon_offense") == []


def test_not_offered_in_an_invasion() -> None:
    # space cannon defense is not during the movement
    scenario = invasion({"units": "1 carrier, 1 infantry", **SF}, {"units": "1 pds"})
    played = run(scenario, [6])
    assert not events(played, "choice_made", decision="play_card")
    assert len(rolls(played, "space_cannon_defense")) == 1


def test_exact_odds_hand_derived() -> None:
    """1 cruiser (Solar Flare) against 1 cruiser and a PDS. Played: no space cannon offense,
    a duel at 2/5 each: attacker 3/8, draw 1/4, defender 3/8. Kept (policy never): the PDS
    (1/2) destroys the attacker's cruiser first: attacker 1/2 * 3/8 = 3/16."""
    scenario = space({"units": "1 cruiser", **SF}, {"units": "1 cruiser, 1 pds"})
    found = odds(scenario)
    assert found.attacker_win == pytest.approx(float(Fraction(3, 8)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(1, 4)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(3, 8)), abs=1e-12)
    scenario["attacker"]["policy"] = {"play": {"solar_flare": "never"}}
    kept = odds(scenario)
    assert kept.attacker_win == pytest.approx(float(Fraction(3, 16)), abs=1e-12)
