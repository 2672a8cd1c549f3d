"""X-89 Bacterial Weapon Ω (green technology, Codex I; abilities/x89_bacterial_weapon_omega.py):
after your units use BOMBARDMENT against a planet, if at least 1 of your opponent's infantry
was destroyed, you may destroy all of your opponent's infantry on that planet
(ti4-combat-effects.md §1; data/technologies.toml). Asked through "play_card" once the hits of
invasion step 1 (or of Harrow) are assigned (invasion.py ``bombardment_hits``)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import events, invasion, run, survivors

X89 = {"technologies": ["x89_bacterial_weapon_omega"]}


def scenario(attacker: str = "1 dreadnought", defender: str = "3 infantry") -> dict[str, Any]:
    return invasion({"units": attacker, **X89}, {"units": defender})


def test_one_infantry_killed_kills_them_all() -> None:
    played = run(scenario(), [5])
    [card] = events(played, "card_played")
    assert (card["player"], card["card"], card["round"]) == (
        "attacker",
        "x89_bacterial_weapon_omega",
        0,
    )
    gone = events(played, "unit_destroyed", player="defender")
    assert [e["cause"] for e in gone] == ["bombardment"] + ["X-89 Bacterial Weapon Ω"] * 2
    assert survivors(played, "defender", "planet") == {}


def test_no_infantry_killed_no_offer() -> None:
    played = run(scenario(), [4])
    assert not events(played, "choice_made", decision="play_card")
    assert survivors(played, "defender", "planet") == {"infantry": 3}


def test_a_mech_sustaining_the_hit_kills_no_infantry() -> None:
    played = run(scenario(defender="2 infantry, 1 mech"), [5], defender=["sustain mech"])
    assert not events(played, "choice_made", decision="play_card")


def test_mechs_are_spared() -> None:
    played = run(scenario(defender="2 infantry, 1 mech"), [5], defender=["destroy infantry"])
    assert survivors(played, "defender", "planet") == {"mech": 1}


def test_a_scripted_pass() -> None:
    played = run(scenario(), [5], attacker=["pass"])
    assert survivors(played, "defender", "planet") == {"infantry": 2}


def test_the_defenders_x89_does_nothing() -> None:
    sc = invasion({"units": "1 dreadnought"}, {"units": "3 infantry", **X89})
    played = run(sc, [5])
    assert not events(played, "choice_made", decision="play_card")


def test_exact_odds_hand_derived() -> None:
    """A dreadnought alone (no ground forces to land) bombards 2 infantry on 5 (3/5): a hit kills
    one, X-89 the other, and nobody holds the planet (a draw); a miss leaves the defender
    there. Draw 3/5, defender 2/5 (without X-89: the defender always wins)."""
    found = odds(scenario(defender="2 infantry"))
    assert found.draw == pytest.approx(float(Fraction(3, 5)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(2, 5)), abs=1e-12)
