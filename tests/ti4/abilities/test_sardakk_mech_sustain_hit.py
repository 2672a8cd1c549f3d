"""Sardakk mech (abilities/sardakk_mech_sustain_hit.py): after it uses SUSTAIN DAMAGE during
ground combat, it produces 1 hit against the opponent's ground forces on that planet
(data/units.toml; ti4-combat-effects.md, mechs). It acts right after the SUSTAIN DAMAGE in the
Assign Hits step of a ground combat round (ti4-ground-combat.md step 2), not against space
cannon defense hits. Sardakk units roll +1 (Unrelenting): the mech hits on 5, infantry on 8."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import events, invasion, run, survivors


def valkyrie(defender: dict[str, int]) -> dict[str, Any]:
    return invasion(
        {"faction": "sardakk", "units": "1 carrier, 1 mech"},
        {},
        planets=[{"name": "P", "defender": defender}],
    )


def test_a_sustain_produces_a_hit() -> None:
    # Round 1: mech 1; infantry 8, 1: the mech sustains, its hit destroys an infantry.
    # Round 2: mech 5; infantry 1.
    played = run(valkyrie({"infantry": 2}), [1, 8, 1, 5, 1])
    [produced] = events(played, "hits_produced")
    assert (produced["player"], produced["hits"], produced["against"], produced["by"]) == (
        "attacker",
        1,
        "defender",
        "sardakk_mech_sustain_hit",
    )
    assert len(events(played, "unit_destroyed", player="defender")) == 2
    assert survivors(played, "attacker", "planet") == {"mech": 1}


def test_the_hit_joins_the_round_hits() -> None:
    # Round 1: mech 5 (a hit); infantry 8, 1: the sustain adds a hit: both infantry destroyed.
    played = run(valkyrie({"infantry": 2}), [5, 8, 1])
    assert len(events(played, "unit_destroyed", player="defender")) == 2


def test_not_against_space_cannon_defense() -> None:
    # The PDS's space cannon defense (6) hits the landing mech, which sustains: no hit. Then
    # ground combat: mech 5; infantry 1.
    played = run(valkyrie({"infantry": 1, "pds": 1}), [6, 5, 1])
    assert events(played, "damage_sustained", player="attacker")
    assert not events(played, "hits_produced")


def test_exact_odds_hand_derived() -> None:
    """Mech (3/5, sustains once) against 2 infantry (3/10 each: k hits, 0: 49/100, 1: 42/100,
    2: 9/100); the mech's hits h (1: 3/5). k = 1: the mech sustains, D takes h + 1 (h = 1: win;
    h = 0: damaged mech against 1 infantry: win 7/12, draw 1/4, loss 1/6). k = 2: the mech
    sustains then dies; D takes h + 1 (h = 1: draw; h = 0: loss). k = 0, h = 1: mech against 1
    infantry, a sure win (any hit of either side kills it). Over 1 - 98/500 = 402/500:
    win = (126 + 84 * 7/12 + 147) / 402 = 161/201; draw = (21 + 27) / 402 = 8/67;
    loss = (14 + 18) / 402 = 16/201. An invasion's draw is not the attacker's."""
    found = odds(valkyrie({"infantry": 2}))
    assert found.attacker_win == pytest.approx(float(Fraction(161, 201)), abs=1e-12)
    assert found.draw + found.defender_win == pytest.approx(float(Fraction(40, 201)), abs=1e-12)
