"""Brother Milor (Yin agent; abilities/brother_milor.py): after a unit is destroyed, exhaust: its
owner places 2 fighters (a ship) or 2 infantry (a ground force) in that unit's system or on its
planet (data/cards.toml; ti4-combat-effects.md, leaders). Offered through "play_card" after one
of the holder's units is destroyed while hits are assigned (ti4-space-combat.md step 4;
ti4-ground-combat.md step 2; docs/rulings.md 14A-12)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import events, invasion, rolls, run, space, survivors

AGENT = {"leaders": ["brother_milor"]}


def holder(units: str, **extra: Any) -> dict[str, Any]:
    return {"units": units, **AGENT, **extra}


def test_a_ship_destroyed_gives_two_fighters() -> None:
    # Round 1: cruiser 1; cruiser 7: the cruiser is destroyed, 2 fighters placed. Round 2:
    # fighters 9, 9; cruiser 1.
    played = run(space(holder("1 cruiser"), {"units": "1 cruiser"}), [1, 7, 9, 9, 1])
    [card] = events(played, "card_played")
    assert (card["player"], card["card"]) == ("attacker", "brother_milor")
    [placed] = events(played, "units_placed")
    assert (placed["unit"], placed["count"], placed["planet"]) == ("fighter", 2, None)
    attacker_rolls = [r for r in rolls(played, "space_combat") if r["player"] == "attacker"]
    assert attacker_rolls[1]["hits"] == 2  # the fighters fought, and won
    assert played.outcome["result"] == "attacker_win"
    # no ship to carry them: removed after the combat (capacity)
    assert len(events(played, "unit_removed", unit="fighter")) == 2


def test_a_ground_force_destroyed_gives_two_infantry() -> None:
    # Ground combat: infantry 1; infantry 8: destroyed, 2 infantry placed. Round 2: 8, 8; 1.
    scenario = invasion(
        holder("1 carrier, 1 infantry"), {}, planets=[{"name": "P", "defender": {"infantry": 1}}]
    )
    played = run(scenario, [1, 8, 8, 8, 1])
    [placed] = events(played, "units_placed")
    assert (placed["unit"], placed["count"], placed["planet"]) == ("infantry", 2, "P")
    assert survivors(played, "attacker", "planet") == {"infantry": 2}


def test_only_once() -> None:
    # Round 1: 1; 7, 1: the cruiser is lost, 2 fighters placed. Round 2: 1, 1; 7, 7: both
    # fighters are lost; the agent is exhausted.
    played = run(space(holder("1 cruiser"), {"units": "2 cruiser"}), [1, 7, 1, 1, 1, 7, 7])
    assert len(events(played, "card_played")) == 1


def test_policy_never_keeps_it() -> None:
    scenario = space(
        holder("1 cruiser", policy={"play": {"brother_milor": "never"}}), {"units": "1 cruiser"}
    )
    played = run(scenario, [1, 7])
    assert not events(played, "card_played")


def test_not_for_the_opponent_units() -> None:
    played = run(space(holder("1 cruiser"), {"units": "1 cruiser"}), [7, 1])
    assert not events(played, "card_played")


def test_exact_odds_hand_derived() -> None:
    """A cruiser (2/5) with Brother Milor against a cruiser (2/5). Once the cruiser is lost, 2
    fighters (1/5 each) fight on. F1 (one fighter) against the cruiser: over
    1 - (4/5)(3/5) = 13/25, win (1/5)(3/5) = 3/13, draw (1/5)(2/5) = 2/13. F2: the fighters
    score (9/25): a win (the cruiser's hit takes only a fighter); they miss and the cruiser hits
    (32/125): F1; both miss (48/125): again. W(F2) = (9/25 + 32/125 * 3/13) / (77/125) =
    681/1001; D(F2) = (32/125 * 2/13) / (77/125) = 64/1001. From the start: the attacker's hit
    wins (10/25; a defender's hit at once only turns the cruiser into fighters); the
    defender's lone hit (6/25) leads to F2; both miss (9/25) again. Win = (10/25 + 6/25 *
    681/1001) / (16/25) = 881/1001; draw = (6/25 * 64/1001) / (16/25) = 24/1001;
    loss = 96/1001."""
    found = odds(space(holder("1 cruiser"), {"units": "1 cruiser"}))
    assert found.attacker_win == pytest.approx(float(Fraction(881, 1001)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(24, 1001)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(96, 1001)), abs=1e-12)
