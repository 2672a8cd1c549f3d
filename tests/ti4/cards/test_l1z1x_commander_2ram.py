"""2RAM (L1Z1X commander; abilities/l1z1x_commander_2ram.py): units with PLANETARY SHIELD do not
prevent your BOMBARDMENT (ti4-combat-effects.md §4; data/cards.toml). Passive: in step 1
BOMBARDMENT (invasion.py ``bombardment``, planetary_shield.py ``stops_bombardment``) the
defender's shield does not stop the holder's bombardment; SPACE CANNON DEFENSE still fires."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import events, invasion, rolls, run

#: no faction: through the Alliance note another player may hold it (ti4-combat-effects.md §4)
TWO_RAM = {"leaders": ["2ram"]}


def scenario(
    attacker: dict[str, Any] | None = None, defender: dict[str, Any] | None = None
) -> dict[str, Any]:
    return invasion(
        {"units": "1 dreadnought, 1 infantry", **(attacker if attacker is not None else TWO_RAM)},
        {"units": "1 infantry, 1 pds", **(defender or {})},
    )


def test_the_shield_does_not_stop_the_bombardment() -> None:
    played = run(scenario(), [5, 1])  # bombardment hits, the PDS's space cannon misses
    assert not events(played, "bombardment_blocked")
    assert len(rolls(played, "bombardment")) == 1
    assert len(rolls(played, "space_cannon_defense")) == 1
    assert played.outcome["winner"] == "attacker"


def test_without_it_the_shield_stops_it() -> None:
    played = run(scenario({}), [1, 10, 1])
    assert events(played, "bombardment_blocked", reason="planetary shield")


def test_the_defenders_2ram_does_not_help_the_attacker() -> None:
    played = run(scenario({}, {"leaders": ["2ram"]}), [1, 10, 1])
    assert events(played, "bombardment_blocked", reason="planetary shield")


def test_exact_odds_hand_derived() -> None:
    """Bombardment on 5 (3/5) kills the infantry; then the PDS fires on 6 (1/2) at the landed
    infantry. Hit, hit: draw; hit, miss: won; miss, hit: lost; miss, miss: 1 v 1 on 8 (7/17
    won, 3/17 drawn). Attacker 3/10 + 1/5 * 7/17 = 13/34; draw 3/10 + 1/5 * 3/17 = 57/170;
    defender 1/5 + 1/5 * 7/17 = 24/85."""
    found = odds(scenario())
    assert found.attacker_win == pytest.approx(float(Fraction(13, 34)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(57, 170)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(24, 85)), abs=1e-12)
