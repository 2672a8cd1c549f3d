"""Empyrean flagship (abilities/empyrean_flagship_repair.py): after a unit in its system uses
SUSTAIN DAMAGE, its owner may spend 2 influence to repair that unit (data/units.toml;
ti4-combat-effects.md, flagships). Asked ("play_card") right after each SUSTAIN DAMAGE of the
owner's units (ti4-space-combat.md step 4.1) while the owner has 2 influence
(docs/rulings.md 14A-13)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.core.forces import Status
from spacecombat.rulesets.ti4.sides import Side
from tests.helpers import events, run, space


def empyrean(units: str = "1 flagship", influence: int = 2, **extra: Any) -> dict[str, Any]:
    return {"faction": "empyrean", "units": units, "influence": influence, **extra}


def test_repairs_the_flagship_for_two_influence() -> None:
    # Round 1: flagship 1, 1; cruiser 7: it sustains and is repaired. Round 2: 5, 1; 1.
    played = run(space(empyrean(), {"units": "1 cruiser"}), [1, 1, 7, 5, 1, 1])
    [repaired] = events(played, "unit_repaired")
    assert (repaired["player"], repaired["unit"], repaired["by"]) == (
        "attacker",
        "flagship",
        "Empyrean flagship",
    )
    assert played.state.wealth(Side.ATTACKER) == (0, 0)
    assert played.state.attacker.space.count("flagship", Status.UNDAMAGED) == 1


def test_a_repaired_unit_sustains_again_in_the_same_assignment() -> None:
    # Influence 4; flagship 1, 1; cruisers 7, 7: sustain, repair, sustain, repair.
    played = run(space(empyrean(influence=4), {"units": "2 cruiser"}), [1, 1, 7, 7, 5, 5, 1, 1])
    assert len(events(played, "damage_sustained")) == 2
    assert len(events(played, "unit_repaired")) == 2


def test_other_units_too() -> None:
    # Flagship 1, 1, dreadnought 1; cruiser 7: the dreadnought sustains and is repaired.
    played = run(
        space(empyrean("1 flagship, 1 dreadnought"), {"units": "1 cruiser"}),
        [1, 1, 1, 7, 5, 1, 1, 1],
        attacker=["sustain dreadnought", "play empyrean_flagship_repair"],
    )
    [repaired] = events(played, "unit_repaired")
    assert repaired["unit"] == "dreadnought"


def test_not_without_two_influence() -> None:
    played = run(space(empyrean(influence=1), {"units": "1 cruiser"}), [1, 1, 7, 5, 1, 1])
    assert not events(played, "unit_repaired")


def test_a_player_may_pass() -> None:
    played = run(
        space(empyrean(), {"units": "1 cruiser"}),
        [1, 1, 7, 5, 1, 1],
        attacker=["sustain flagship", "pass"],
    )
    assert not events(played, "unit_repaired")
    assert played.state.wealth(Side.ATTACKER) == (0, 2)


def test_not_for_the_opponent_units() -> None:
    # The defender's dreadnought sustains (flagship 5, 1; dreadnought 1); round 2: 5, 1; 1.
    played = run(space(empyrean(), {"units": "1 dreadnought"}), [5, 1, 1, 5, 1, 1])
    assert events(played, "damage_sustained", player="defender")
    assert not events(played, "unit_repaired")


def test_exact_odds_hand_derived() -> None:
    """Empyrean flagship (2 dice at 5: a = 21/25) with 2 influence against a cruiser (2/5):
    three lives (sustain, repair, sustain). Any flagship hit kills the cruiser; with one life
    left, both hitting is a draw. q = (4/25)(2/5) = 8/125 (only the cruiser hits), r =
    (4/25)(3/5) = 12/125 (both miss). One life: win 63/113, draw 42/113, loss 8/113. Two:
    win = (105/125 + q * 63/113) / (113/125) = 12369/12769, draw 336/12769, loss 64/12769.
    Three: win = (105 * 12769 + 8 * 12369) / (113 * 12769) = 1439697/1442897,
    draw = 2688/1442897, loss = 512/1442897."""
    found = odds(space(empyrean(), {"units": "1 cruiser"}))
    assert found.attacker_win == pytest.approx(float(Fraction(1439697, 1442897)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(2688, 1442897)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(512, 1442897)), abs=1e-12)
