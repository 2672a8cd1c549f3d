"""Conventions of War (law; abilities/conventions_of_war.py): no player may fire BOMBARDMENT at
units on cultural planets (ti4-combat-effects.md §7; data/laws.toml). Step 1 BOMBARDMENT of the
invasion (invasion.py ``bombardment``, ``forbids_bombardment``) skips a planet whose ``traits``
list ``cultural``, with a ``bombardment_blocked`` event."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import events, invasion, rolls, run


def scenario(traits: list[str], laws: tuple[str, ...] = ("conventions_of_war",)) -> dict[str, Any]:
    return invasion(
        {"units": "1 dreadnought, 1 infantry"},
        {},
        planets=[{"name": "P", "defender": {"infantry": 1}, "traits": traits}],
        laws=list(laws),
    )


def test_a_cultural_planet_is_not_bombarded() -> None:
    played = run(scenario(["cultural"]), [10, 1])  # only the ground round
    [blocked] = events(played, "bombardment_blocked")
    assert blocked == {
        "event": "bombardment_blocked",
        "planet": "P",
        "reason": "Conventions of War",
    }
    assert not rolls(played, "bombardment")


def test_other_planets_are_bombarded() -> None:
    played = run(scenario(["industrial"]), [5])
    assert len(rolls(played, "bombardment")) == 1


def test_without_the_law_a_cultural_planet_is_bombarded() -> None:
    played = run(scenario(["cultural"], laws=()), [5])
    assert len(rolls(played, "bombardment")) == 1


def test_only_the_cultural_one_of_two_planets_is_spared() -> None:
    sc = invasion(
        {"units": "2 dreadnought, 2 infantry"},
        {},
        planets=[
            {
                "name": "C",
                "defender": {"infantry": 1},
                "traits": ["cultural"],
                "bombarded_by": {"dreadnought": 1},
                "commit": {"infantry": 1},
            },
            {
                "name": "H",
                "defender": {"infantry": 1},
                "traits": ["hazardous"],
                "bombarded_by": {"dreadnought": 1},
                "commit": {"infantry": 1},
            },
        ],
        laws=["conventions_of_war"],
    )
    played = run(sc, [5, 10, 1])  # H bombarded (hit), then the ground round on C
    assert [e["planet"] for e in events(played, "bombardment_blocked")] == ["C"]
    assert len(rolls(played, "bombardment")) == 1


def test_exact_odds_hand_derived() -> None:
    """No bombardment: 1 infantry fights 1, each hitting on 8 (3/10): the attacker wins
    (3/10 * 7/10) / (1 - 49/100) = 7/17, draws 9/51 = 3/17."""
    found = odds(scenario(["cultural"]))
    assert found.attacker_win == pytest.approx(float(Fraction(7, 17)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(3, 17)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(7, 17)), abs=1e-12)
