"""Shields Holding (action card; abilities/shields_holding.py): before you assign hits to your
ships during a space combat, cancel up to 2 of them (data/cards.toml; ti4-combat-effects.md,
action cards). Offered through the "play_card" decision before the holder assigns the hits of a
space combat round (ti4-space-combat.md step 4) or of anti-fighter barrage (step 1), not of
space cannon offense (docs/rulings.md 14A-4)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import events, run, space, survivors

SH = {"action_cards": ["shields_holding"]}


def fight(attacker: str, defender: str, **policy: Any) -> dict[str, Any]:
    side: dict[str, Any] = {"units": attacker, **SH}
    if policy:
        side["policy"] = policy
    return space(side, {"units": defender})


def test_cancels_two_hits() -> None:
    # Round 1: cruiser 1; cruisers 7, 7: both hits cancelled. Round 2: 7; 1, 1. Round 3: 7; 1.
    played = run(fight("1 cruiser", "2 cruiser"), [1, 7, 7, 7, 1, 1, 7, 1])
    [card] = events(played, "card_played")
    assert (card["player"], card["card"], card["round"]) == ("attacker", "shields_holding", 1)
    [cancel] = events(played, "hits_cancelled")
    assert (cancel["player"], cancel["hits"], cancel["cause"]) == ("attacker", 2, "space combat")
    assert not events(played, "unit_destroyed", player="attacker")
    assert survivors(played, "attacker") == {"cruiser": 1}


def test_cancels_the_only_hit_and_the_rest_are_assigned() -> None:
    # Round 1: cruiser 1; cruisers 7, 1: the hit is cancelled. Round 2: 1; 7, 7: the card is
    # used, the cruiser is destroyed.
    played = run(fight("1 cruiser", "2 cruiser"), [1, 7, 1, 1, 7, 7])
    [cancel] = events(played, "hits_cancelled")
    assert cancel["hits"] == 1
    assert len(events(played, "card_played")) == 1
    assert survivors(played, "attacker") == {}


def test_three_hits_one_is_assigned() -> None:
    # Round 1: cruisers 1, 1; cruisers 7, 7, 7: 2 cancelled, 1 destroys a cruiser. Round 2:
    # 7; 1, 1, 1. Round 3: 7; 1, 1. Round 4: 7; 1.
    played = run(fight("2 cruiser", "3 cruiser"), [1, 1, 7, 7, 7, 7, 1, 1, 1, 7, 1, 1, 7, 1])
    [cancel] = events(played, "hits_cancelled")
    assert cancel["hits"] == 2
    assert len(events(played, "unit_destroyed", player="attacker")) == 1


def test_policy_never_keeps_it() -> None:
    played = run(fight("1 cruiser", "1 cruiser", play={"shields_holding": "never"}), [1, 7])
    assert not events(played, "card_played")
    assert survivors(played, "attacker") == {}


def test_a_scripted_player_may_pass_then_play() -> None:
    # Round 1: 1, 1; 7: pass, a cruiser is destroyed. Round 2: 1; 7: played. Round 3: 7; 1.
    played = run(
        fight("2 cruiser", "1 cruiser"),
        [1, 1, 7, 1, 7, 7, 1],
        attacker=["pass", "play shields_holding"],
    )
    assert [e["round"] for e in events(played, "card_played")] == [2]
    assert survivors(played, "attacker") == {"cruiser": 1}


def test_not_offered_when_no_hit_is_produced() -> None:
    played = run(fight("1 cruiser", "1 cruiser"), [7, 1])
    assert not events(played, "card_played")


def test_not_against_space_cannon_offense() -> None:
    # The defender's PDS hits (6) before the space combat: no offer; the cruiser is destroyed.
    played = run(fight("1 cruiser", "1 cruiser, 1 pds"), [6])
    assert not events(played, "card_played")
    [lost] = events(played, "unit_destroyed", player="attacker")
    assert lost["cause"] == "space cannon offense"


def test_against_anti_fighter_barrage_hits() -> None:
    # The destroyer's barrage 9, 9: both hits on the fighters cancelled. Round 1: carrier and
    # fighters 10, 10, 10; destroyer 1.
    played = run(fight("1 carrier, 2 fighter", "1 destroyer"), [9, 9, 10, 10, 10, 1])
    [cancel] = events(played, "hits_cancelled")
    assert (cancel["hits"], cancel["cause"]) == (2, "anti-fighter barrage")
    assert survivors(played, "attacker") == {"carrier": 1, "fighter": 2}


def test_the_defender_may_hold_it() -> None:
    scenario = space({"units": "1 cruiser"}, {"units": "1 cruiser", **SH})
    # Round 1: 7 (cancelled); 1. Round 2: 7; 1: the defender's cruiser is destroyed.
    played = run(scenario, [7, 1, 7, 1])
    [card] = events(played, "card_played")
    assert card["player"] == "defender"


def test_exact_odds_hand_derived() -> None:
    """1 cruiser each (p = 2/5 a round); the attacker holds Shields Holding. Once it is used, a
    plain duel: win 3/8, draw 1/4, loss 3/8. Before: the attacker's hit wins (6/25 + 4/25:
    the defender's hit, if any, is cancelled); the defender's lone hit (6/25) is cancelled,
    leading to the plain duel; both miss (9/25) repeats. So win = (10/25 + 6/25 * 3/8) / (16/25)
    = 49/64, draw = (6/25 * 1/4) / (16/25) = 3/32, loss = (6/25 * 3/8) / (16/25) = 9/64."""
    found = odds(fight("1 cruiser", "1 cruiser"))
    assert found.attacker_win == pytest.approx(float(Fraction(49, 64)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(3, 32)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(9, 64)), abs=1e-12)
