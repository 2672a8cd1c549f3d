"""Courageous to the End (action card; abilities/courageous_to_the_end.py): after one of your
ships is destroyed during a space combat, roll 2 dice at its combat value; for each hit the
opponent destroys one of their ships, of their choice (data/cards.toml; ti4-combat-effects.md).
Offered through "play_card" after the ship is destroyed while hits of the space combat are
assigned (ti4-space-combat.md steps 1 and 4; docs/rulings.md 14A-11)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import events, rolls, run, space, survivors

CTTE = {"action_cards": ["courageous_to_the_end"]}


def holder(units: str, **extra: Any) -> dict[str, Any]:
    return {"units": units, **CTTE, **extra}


def test_one_hit_destroys_one_ship() -> None:
    # Cruiser 1; cruisers 7, 1: the cruiser is destroyed; the card rolls 7, 1: one of the
    # defender's cruisers is destroyed.
    played = run(space(holder("1 cruiser"), {"units": "2 cruiser"}), [1, 7, 1, 7, 1])
    [card] = events(played, "card_played")
    assert (card["player"], card["card"]) == ("attacker", "courageous_to_the_end")
    [roll] = rolls(played, "courageous_to_the_end")
    assert (roll["player"], roll["hits"]) == ("attacker", 1)
    [lost] = events(played, "unit_destroyed", player="defender")
    assert (lost["unit"], lost["cause"]) == ("cruiser", "courageous to the end")
    assert survivors(played, "defender") == {"cruiser": 1}


def test_two_hits_two_ships() -> None:
    played = run(space(holder("1 cruiser"), {"units": "2 cruiser"}), [1, 7, 1, 7, 7])
    assert survivors(played, "defender") == {}
    assert played.outcome["result"] == "draw"


def test_rolls_at_the_destroyed_ship_combat_value_without_modifiers() -> None:
    # The damaged dreadnought is destroyed (1; 7); the card rolls 5, 4 at 5: one hit.
    scenario = space(holder("1 dreadnought", damaged={"dreadnought": 1}), {"units": "1 cruiser"})
    played = run(scenario, [1, 7, 5, 4])
    [roll] = rolls(played, "courageous_to_the_end")
    groups = roll["groups"]
    assert isinstance(groups, list)
    assert groups[0]["hit_on"] == 5
    assert roll["hits"] == 1
    assert survivors(played, "defender") == {}


def test_sustain_damage_cannot_cancel_it() -> None:
    # The defender's dreadnought is destroyed outright by the card's hit (7, 1).
    played = run(space(holder("1 cruiser"), {"units": "1 dreadnought"}), [1, 5, 7, 1])
    assert not events(played, "damage_sustained")
    assert survivors(played, "defender") == {}


def test_the_opponent_chooses_which_ship() -> None:
    played = run(
        space(holder("1 cruiser"), {"units": "1 cruiser, 1 carrier"}),
        [1, 7, 1, 7, 1],
        defender=["destroy cruiser"],
    )
    assert survivors(played, "defender") == {"carrier": 1}


def test_policy_never_keeps_it() -> None:
    scenario = space(
        holder("1 cruiser", policy={"play": {"courageous_to_the_end": "never"}}),
        {"units": "1 cruiser"},
    )
    played = run(scenario, [1, 7])
    assert not events(played, "card_played")


def test_not_after_space_cannon_offense() -> None:
    played = run(space(holder("1 cruiser"), {"units": "1 cruiser, 1 pds"}), [6])
    assert not events(played, "card_played")


def test_the_defender_may_hold_it() -> None:
    # Cruisers 7, 1; cruiser 1: the defender's cruiser is destroyed; its card rolls 7, 7.
    played = run(space({"units": "2 cruiser"}, holder("1 cruiser")), [7, 1, 1, 7, 7])
    assert survivors(played, "attacker") == {}
    assert played.outcome["result"] == "draw"


def test_exact_odds_hand_derived() -> None:
    """1 cruiser each (2/5 a round); the attacker holds the card (2 dice at 7: at least one hit
    16/25). Attacker hits alone (6/25): win. Both hit (4/25): a draw either way. Defender
    hits alone (6/25): the card destroys the defender's cruiser with 16/25 (draw), else loss.
    Over 16/25: win = 3/8; draw = (4/25 + 6/25 * 16/25) / (16/25) = 49/100;
    loss = (6/25 * 9/25) / (16/25) = 27/200."""
    found = odds(space(holder("1 cruiser"), {"units": "1 cruiser"}))
    assert found.attacker_win == pytest.approx(float(Fraction(3, 8)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(49, 100)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(27, 200)), abs=1e-12)
