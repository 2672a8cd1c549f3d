"""Dacxive Animators (green technology; abilities/dacxive_animators.py): after you win a ground
combat, place 1 infantry from your reinforcements on that planet (ti4-combat-effects.md §1;
data/technologies.toml). Asked through "play_card" after the ground combat ends
(ti4-ground-combat.md rule 4.3; invasion.py ``ground_combat_ends``, ``after_ground_combat``)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import events, invasion, run, survivors

DACXIVE = {"technologies": ["dacxive_animators"]}


def scenario(
    attacker: dict[str, Any] | None = None, defender: dict[str, Any] | None = None
) -> dict[str, Any]:
    return invasion(
        {"units": "1 carrier, 1 infantry", **(attacker or DACXIVE)},
        {"units": "1 infantry", **(defender or {})},
    )


def test_the_winner_places_an_infantry() -> None:
    played = run(scenario(), [10, 1])
    kinds = [e["event"] for e in played.events]
    assert kinds.index("combat_ended") < kinds.index("units_placed")
    [placed] = events(played, "units_placed")
    assert (placed["player"], placed["by"]) == ("attacker", "dacxive_animators")
    assert survivors(played, "attacker", "planet") == {"infantry": 2}


def test_not_after_a_loss_or_a_draw() -> None:
    assert not events(run(scenario(), [1, 10]), "units_placed")
    assert not events(run(scenario(), [10, 10]), "units_placed")


def test_the_defender_too() -> None:
    played = run(scenario({}, DACXIVE), [1, 10])
    [placed] = events(played, "units_placed")
    assert placed["player"] == "defender"


def test_after_each_planet() -> None:
    sc = invasion(
        {"units": "1 carrier, 2 infantry", **DACXIVE},
        {},
        planets=[
            {"name": "A", "defender": {"infantry": 1}, "commit": {"infantry": 1}},
            {"name": "B", "defender": {"infantry": 1}, "commit": {"infantry": 1}},
        ],
    )
    played = run(sc, [10, 1, 10, 1])
    assert [e["planet"] for e in events(played, "units_placed")] == ["A", "B"]
    found = odds(sc)
    survivors_ = found.survivors["attacker"]["at_least"]
    assert survivors_["4"] == pytest.approx(float(Fraction(7, 17) ** 2), abs=1e-12)


def test_a_scripted_pass() -> None:
    played = run(scenario(), [10, 1], attacker=["pass"])
    assert not events(played, "units_placed")


def test_exact_odds_hand_derived() -> None:
    """1 infantry against 1 (8: 3/10): won 7/17, drawn 3/17; each win ends with 2 infantry on
    the planet, so at least 2 survive with 7/17."""
    found = odds(scenario())
    assert found.attacker_win == pytest.approx(float(Fraction(7, 17)), abs=1e-12)
    assert found.survivors["attacker"]["at_least"]["2"] == pytest.approx(
        float(Fraction(7, 17)), abs=1e-12
    )
