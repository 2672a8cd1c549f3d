"""Tellurian (Titans agent; abilities/tellurian.py): when a hit is produced against a unit,
exhaust to cancel that hit (data/cards.toml; ti4-combat-effects.md, leaders). Offered through
the "play_card" decision before the holder assigns hits against their own units
(ti4-space-combat.md step 4, ti4-ground-combat.md step 2, and any other hits), when those hits
are more than SUSTAIN DAMAGE could cancel (docs/rulings.md 14A-8), hits of a timing window and
Waylay's barrage hits included (14H-4)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import events, invasion, run, space, survivors

AGENT = {"leaders": ["tellurian"]}


def holder(units: str, **policy: Any) -> dict[str, Any]:
    side: dict[str, Any] = {"units": units, **AGENT}
    if policy:
        side["policy"] = policy
    return side


def test_cancels_a_hit_that_would_destroy_a_ship() -> None:
    # Round 1: 1; 7: cancelled. Round 2: 7; 1.
    played = run(space(holder("1 cruiser"), {"units": "1 cruiser"}), [1, 7, 7, 1])
    [card] = events(played, "card_played")
    assert (card["player"], card["card"], card["round"]) == ("attacker", "tellurian", 1)
    [cancel] = events(played, "hits_cancelled")
    assert (cancel["hits"], cancel["by"]) == (1, "tellurian")
    assert survivors(played, "attacker") == {"cruiser": 1}


def test_not_offered_while_sustain_damage_can_cancel_the_hits() -> None:
    # Round 1: 1; 7: the dreadnought sustains, no offer. Round 2: 1; 7: offered, cancelled.
    # Round 3: 5; 1.
    played = run(space(holder("1 dreadnought"), {"units": "1 cruiser"}), [1, 7, 1, 7, 5, 1])
    assert len(events(played, "damage_sustained")) == 1
    [card] = events(played, "card_played")
    assert card["round"] == 2


def test_only_once() -> None:
    # Round 1: 1; 7: cancelled. Round 2: 1; 7: the cruiser is destroyed.
    played = run(space(holder("1 cruiser"), {"units": "1 cruiser"}), [1, 7, 1, 7])
    assert len(events(played, "card_played")) == 1
    assert survivors(played, "attacker") == {}


def test_policy_never_keeps_it() -> None:
    scenario = space(holder("1 cruiser", play={"tellurian": "never"}), {"units": "1 cruiser"})
    played = run(scenario, [1, 7])
    assert not events(played, "card_played")


def test_not_for_the_opponent_hits() -> None:
    played = run(space(holder("1 cruiser"), {"units": "1 cruiser"}), [7, 1])
    assert not events(played, "card_played")


def test_against_anti_fighter_barrage_hits() -> None:
    # Barrage 9, 1 against the fighters: cancelled. Round 1: 10, 10, 10; 1.
    played = run(
        space(holder("1 carrier, 2 fighter"), {"units": "1 destroyer"}), [9, 1, 10, 10, 10, 1]
    )
    [cancel] = events(played, "hits_cancelled")
    assert cancel["cause"] == "anti-fighter barrage"
    assert survivors(played, "attacker") == {"carrier": 1, "fighter": 2}


def test_in_ground_combat() -> None:
    # Infantry 1; 8: cancelled. Round 2: 8; 1.
    scenario = invasion(
        holder("1 carrier, 1 infantry"), {}, planets=[{"name": "P", "defender": {"infantry": 1}}]
    )
    played = run(scenario, [1, 8, 8, 1])
    [cancel] = events(played, "hits_cancelled")
    assert cancel["cause"] == "ground combat"


def test_exact_odds_hand_derived() -> None:
    """1 cruiser each (2/5 a round); the attacker's first loss is cancelled. Once used, a plain
    duel: win 3/8, draw 1/4, loss 3/8. Before: the attacker's hit wins (10/25: a defender's
    hit at once is cancelled); the defender's lone hit (6/25) is cancelled, then the plain
    duel; both miss (9/25) repeats: win = (10/25 + 6/25 * 3/8) / (16/25) = 49/64,
    draw = (6/25 * 1/4) / (16/25) = 3/32, loss = 9/64."""
    found = odds(space(holder("1 cruiser"), {"units": "1 cruiser"}))
    assert found.attacker_win == pytest.approx(float(Fraction(49, 64)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(3, 32)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(9, 64)), abs=1e-12)


# Hits produced outside the combat roll: any hit produced against the holder's units
# (docs/rulings.md 14H-4)

MENTAK = {"faction": "mentak"}
CREUSS = {"faction": "creuss", "technologies": ["dimensional_splicer"]}
WORMHOLE = {"wormholes": ["alpha"]}
WAYLAY = {"units": "1 destroyer", "action_cards": ["waylay"]}


def test_cancels_an_ambush_hit() -> None:
    # Ambush 7: cancelled in the "start of combat" window. Round 1: 1; 7.
    played = run(space({"units": "1 cruiser", **MENTAK}, holder("1 cruiser")), [7, 1, 7])
    [cancel] = events(played, "hits_cancelled")
    assert (cancel["player"], cancel["cause"], cancel["by"]) == ("defender", "Ambush", "tellurian")
    assert played.outcome["result"] == "defender_win"


def test_cancels_a_hit_the_producer_placed() -> None:
    # "When a hit is produced against a unit": Dimensional Splicer's too. Round 1: 1; 7.
    scenario = space({"units": "1 cruiser", **CREUSS}, holder("1 cruiser"), system=WORMHOLE)
    played = run(scenario, [1, 7])
    [cancel] = events(played, "hits_cancelled")
    assert cancel["cause"] == "Dimensional Splicer"
    assert not events(played, "unit_destroyed", player="defender")


def test_only_the_placed_ship_sustain_damage_counts() -> None:
    # The splicer's hit placed on the cruiser: the dreadnought cannot sustain it, so the
    # agent is offered; placed on the dreadnought (stock), it would sustain: no offer.
    scenario = space(
        {"units": "1 cruiser", **CREUSS}, holder("1 dreadnought, 1 cruiser"), system=WORMHOLE
    )
    # Round 1: 1; 10, 10: the attacker's cruiser is destroyed.
    aimed = run(scenario, [1, 10, 10], attacker=["play dimensional_splicer: hit cruiser"])
    [cancel] = events(aimed, "hits_cancelled")
    assert cancel["cause"] == "Dimensional Splicer"
    stock = run(scenario, [1, 10, 10])
    assert not events(stock, "card_played", player="defender")
    assert events(stock, "damage_sustained", cause="Dimensional Splicer")


def test_cancels_a_waylay_barrage_hit_on_a_ship_without_sustain_damage() -> None:
    # Waylay: barrage 9, 1 reaches the cruiser; cancelled. Round 1: 1; 7.
    played = run(space(WAYLAY, holder("1 cruiser")), [9, 1, 1, 7])
    [cancel] = events(played, "hits_cancelled")
    assert cancel["cause"] == "anti-fighter barrage"
    assert played.outcome["result"] == "defender_win"


def test_not_against_a_waylay_hit_sustain_damage_can_cancel() -> None:
    # Waylay: barrage 9, 1: the dreadnought may sustain it (14D3-1), so no offer.
    # Round 1: 1; 5.
    played = run(space(WAYLAY, holder("1 dreadnought")), [9, 1, 1, 5])
    assert not events(played, "card_played", player="defender")
    assert events(played, "damage_sustained", cause="anti-fighter barrage")


def test_exact_odds_against_ambush_hand_derived() -> None:
    """Mentak cruiser (Ambush and combat 2/5) against a cruiser with the agent, which cancels
    one hit, as Shields Holding would here: an Ambush hit (2/5) is cancelled, then a plain
    duel (3/8 each, draw 1/4); a miss (3/5) leads to the duel with the agent unexhausted
    (holder 49/64, draw 3/32, other 9/64). So defender = 39/64, draw = 5/32."""
    found = odds(space({"units": "1 cruiser", **MENTAK}, holder("1 cruiser")))
    assert found.defender_win == pytest.approx(float(Fraction(39, 64)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(5, 32)), abs=1e-12)
    assert found.attacker_win == pytest.approx(float(Fraction(15, 64)), abs=1e-12)
