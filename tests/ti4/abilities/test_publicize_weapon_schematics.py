"""Publicize Weapon Schematics (law; abilities/publicize_weapon_schematics.py): war suns have no
SUSTAIN DAMAGE (data/laws.toml; ti4-combat-effects.md, laws). It changes who may sustain when
hits are assigned (ti4-space-combat.md step 4.1), for both players' war suns."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.core.errors import IllegalChoice
from tests.helpers import events, run, space, survivors

LAW = {"laws": ["publicize_weapon_schematics"]}


def war_sun_duel(**extra: Any) -> dict[str, Any]:
    return space({"units": "1 war_sun"}, {"units": "1 cruiser"}, **extra)


def test_a_war_sun_hit_is_destroyed_not_damaged() -> None:
    # Faces: the war sun's 3 dice miss (1, 1, 1); the cruiser hits (7).
    played = run(war_sun_duel(**LAW), [1, 1, 1, 7])
    assert not events(played, "damage_sustained")
    [lost] = events(played, "unit_destroyed", player="attacker")
    assert lost["unit"] == "war_sun"
    asked = events(played, "choice_made", decision="assign_hit", player="attacker")[0]
    assert asked["options"] == ["destroy war_sun"]


def test_without_the_law_the_war_sun_sustains() -> None:
    # Round 1 as above, the war sun sustains; round 2: the war sun hits (3, 1, 1), cruiser 1.
    played = run(war_sun_duel(), [1, 1, 1, 7, 3, 1, 1, 1])
    [sustained] = events(played, "damage_sustained")
    assert sustained["unit"] == "war_sun"
    assert survivors(played, "attacker") == {"war_sun": 1}


def test_sustaining_a_war_sun_is_refused_with_the_reason() -> None:
    # Faces: war sun 1, 1, 1 and cruiser 1 miss; the defender's cruiser hits (7).
    scenario = space({"units": "1 war_sun, 1 cruiser"}, {"units": "1 cruiser"}, **LAW)
    with pytest.raises(
        IllegalChoice,
        match=re.escape("'sustain war_sun' is refused: war_sun cannot use SUSTAIN DAMAGE here"),
    ):
        run(scenario, [1, 1, 1, 1, 7], attacker=["sustain war_sun"])


def test_other_units_still_sustain() -> None:
    # A dreadnought under the law: it sustains the cruiser's hit (faces: dreadnought 1,
    # cruiser 7; round 2: dreadnought 5 hits, cruiser 1).
    scenario = space({"units": "1 dreadnought"}, {"units": "1 cruiser"}, **LAW)
    played = run(scenario, [1, 7, 5, 1])
    assert [e["unit"] for e in events(played, "damage_sustained")] == ["dreadnought"]


def test_exact_odds_hand_derived() -> None:
    """1 war sun each, no SUSTAIN DAMAGE: each rolls 3 dice hitting on 3, so it scores at least
    one hit with q = 1 - (1/5)^3 = 124/125 each round. A round ends it unless both miss
    ((1-q)^2), so: attacker win = q(1-q) / (1-(1-q)^2) = (1-q)/(2-q) = 1/126;
    draw = q^2 / (1-(1-q)^2) = q/(2-q) = 124/126 = 62/63."""
    found = odds(space({"units": "1 war_sun"}, {"units": "1 war_sun"}, **LAW))
    assert found.attacker_win == pytest.approx(float(Fraction(1, 126)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(1, 126)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(62, 63)), abs=1e-12)
