"""Shields Holding (action card; abilities/shields_holding.py): before you assign hits to your
ships during a space combat, cancel up to 2 of them (data/cards.toml; ti4-combat-effects.md,
action cards). Offered through the "play_card" decision before the holder assigns the hits of a
space combat round (ti4-space-combat.md step 4) or of anti-fighter barrage (step 1), not of
space cannon offense (docs/rulings.md 14A-4); of Waylay's barrage and of timing windows the
holder assigns (Ambush), not of a hit the producer placed (Dimensional Splicer: 14H-1)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.replayer import replay
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


# Hits produced outside the combat roll (docs/rulings.md 14H-1, 14H-5)

MENTAK = {"faction": "mentak"}
CREUSS = {"faction": "creuss", "technologies": ["dimensional_splicer"]}
WORMHOLE = {"wormholes": ["alpha"]}


def ambushed(defender: str, **policy: Any) -> dict[str, Any]:
    side: dict[str, Any] = {"units": defender, **SH}
    if policy:
        side["policy"] = policy
    return space({"units": "1 cruiser", **MENTAK}, side)


def test_against_ambush_hits_which_the_holder_assigns() -> None:
    # Ambush 7: 1 hit in the "start of combat" window (rule 2.1, part of the space combat),
    # cancelled before it is assigned. Round 1: 1; 7: the Mentak cruiser is destroyed.
    played = run(ambushed("1 cruiser"), [7, 1, 7])
    [card] = events(played, "card_played")
    assert (card["player"], card["card"]) == ("defender", "shields_holding")
    [cancel] = events(played, "hits_cancelled")
    assert (cancel["hits"], cancel["cause"]) == (1, "Ambush")
    kinds = [e["event"] for e in played.events]
    assert kinds.index("hits_cancelled") < kinds.index("dice_rolled", kinds.index("card_played"))
    assert survivors(played, "defender") == {"cruiser": 1}


def test_against_ambush_a_scripted_pass_and_never_keep_it() -> None:
    # Ambush 7: the cruiser is destroyed before any round
    passed = run(ambushed("1 cruiser"), [7], defender=["pass"])
    never = run(ambushed("1 cruiser", play={"shields_holding": "never"}), [7])
    for played in (passed, never):
        assert not events(played, "card_played")
        assert played.outcome["result"] == "attacker_win"


def test_not_against_a_hit_the_producer_places_on_a_ship() -> None:
    # Dimensional Splicer: "assign it to 1 of your opponent's ships": the holder assigns
    # nothing, so "before you assign hits" does not come (14H-1); the card waits for the
    # round. Round 1: 7; 1: the hit is cancelled. Round 2: 1; 7.
    scenario = space(
        {"units": "1 cruiser", **CREUSS}, {"units": "2 cruiser", **SH}, system=WORMHOLE
    )
    played = run(scenario, [7, 1, 1, 7])
    [gone] = events(played, "unit_destroyed", cause="Dimensional Splicer")
    assert gone["player"] == "defender"
    [offer] = events(played, "choice_made", decision="play_card", player="defender")
    assert played.events.index(offer) > played.events.index(gone)
    [cancel] = events(played, "hits_cancelled")
    assert cancel["cause"] == "space combat"
    assert played.outcome["result"] == "defender_win"


def test_against_waylay_barrage_hits_on_any_ship() -> None:
    # Waylay: the barrage 9, 9 may reach the cruiser (no fighters): both hits cancelled.
    # Round 1: destroyer 1; cruiser 7.
    scenario = space(
        {"units": "1 destroyer", "action_cards": ["waylay"]}, {"units": "1 cruiser", **SH}
    )
    played = run(scenario, [9, 9, 1, 7])
    assert [c["card"] for c in events(played, "card_played")] == ["waylay", "shields_holding"]
    [cancel] = events(played, "hits_cancelled")
    assert (cancel["hits"], cancel["cause"]) == (2, "anti-fighter barrage")
    assert played.outcome["result"] == "defender_win"


def test_exact_odds_against_ambush_hand_derived() -> None:
    """Mentak cruiser (Ambush and combat 2/5) against a cruiser with Shields Holding. Ambush
    hits (2/5): cancelled, then a plain duel (3/8 each, draw 1/4). Misses (3/5): the duel with
    the card held (holder 49/64, draw 3/32, other 9/64: test_exact_odds_hand_derived). So
    defender = 2/5 * 3/8 + 3/5 * 49/64 = 39/64, draw = 2/5 * 1/4 + 3/5 * 3/32 = 5/32."""
    found = odds(ambushed("1 cruiser"))
    assert found.defender_win == pytest.approx(float(Fraction(39, 64)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(5, 32)), abs=1e-12)
    assert found.attacker_win == pytest.approx(float(Fraction(15, 64)), abs=1e-12)


def test_exact_odds_against_waylay_hand_derived() -> None:
    """Destroyer with Waylay (barrage 9 x2, combat 1/5) against a cruiser (2/5) with Shields
    Holding. Barrage hits (9/25): cancelled, then a plain duel: attacker 3/13, draw 2/13. No
    barrage hit (16/25): the duel with the card held: a round where the destroyer alone hits
    (3/25) cancels it and leads to the plain duel; the cruiser hitting (10/25) wins; both
    missing (12/25) repeats: attacker 3/25 * 3/13 / (13/25) = 9/169, draw 6/169. So attacker
    = 16/25 * 9/169 + 9/25 * 3/13 = 99/845, draw = 16/25 * 6/169 + 9/25 * 2/13 = 66/845."""
    scenario = space(
        {"units": "1 destroyer", "action_cards": ["waylay"]}, {"units": "1 cruiser", **SH}
    )
    found = odds(scenario)
    assert found.attacker_win == pytest.approx(float(Fraction(99, 845)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(66, 845)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(680, 845)), abs=1e-12)


def test_a_log_with_it_against_ambush_replays() -> None:
    played = run(ambushed("1 cruiser"), [7, 1, 7])
    report = replay(list(played.events))
    assert report.reproduces, report.reason


def test_against_impulse_core_the_holder_assigns_but_not_devotion_placed() -> None:
    # Impulse Core: the opponent assigns the hit (to a non-fighter ship): offered, cancelled.
    # Round 1: 1; 7: the Yin cruiser is destroyed.
    yin = {"units": "1 cruiser, 1 destroyer", "technologies": ["impulse_core"]}
    played = run(space(yin, {"units": "1 cruiser", **SH}), [1, 7])
    [cancel] = events(played, "hits_cancelled")
    assert cancel["cause"] == "Impulse Core"
    # Devotion places its hit on a ship (end of round 1): not offered then (14H-1). Round 1:
    # barrage 1, 1, then 1, 1; 1; Devotion hits the cruiser.
    devoted = run(
        space({"units": "1 cruiser, 1 destroyer", "faction": "yin"}, {"units": "1 cruiser", **SH}),
        [1] * 5,
    )
    assert [e["player"] for e in events(devoted, "unit_destroyed", cause="Devotion")] == [
        "attacker",
        "defender",
    ]
    assert not events(devoted, "card_played", player="defender")
