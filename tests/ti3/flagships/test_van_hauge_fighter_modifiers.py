"""Van Hauge's ground forces fighting as fighters get their owner's fighter modifiers:
Cybernetics ("Fighters receive +1 on all combat rolls") and Advanced Fighters (+1 to their
combat rolls). PC_Twi (GreenTechEffect.cpp ``e_Cybernetics``, BlueTechEffect.cpp
``e_AdvancedFighters``) gives the +1 to every unit with ``uaFighter``, which Van Hauge gives its
ground forces (r_Yin.cpp ``VanHaugeEnable``); docs/rulings.md 27T-12.

Dice: the pool rolls the flagship's 5s, then the ground forces; the attacker before the
defender."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, cast

import pytest

from spacecombat import odds
from tests.helpers import assert_logs_replay, assert_sampled_as_played, rolls, run
from tests.ti3.effects import space
from tests.ti3.flagships.van_hauge_model import against_a_cruiser

TECHNOLOGIES = ["cybernetics", "advanced_fighters"]


def yin(technology: str, **attacker: Any) -> dict[str, Any]:
    return space(
        {
            "units": {"flagship": 1, "ground_force": 1},
            "faction": "yin",
            "technologies": [technology],
            **attacker,
        },
        {"units": {"cruiser": 1}},
    )


@pytest.mark.parametrize("technology", TECHNOLOGIES)
def test_the_ground_force_hits_on_8(technology: str) -> None:
    """Round 1: flagship 1, 1; the ground force 8 (a hit at 9 - 1); cruiser 1."""
    played = run(yin(technology), [1, 1, 8, 1])
    groups = cast("list[dict[str, Any]]", rolls(played, "space_combat")[0]["groups"])
    assert [(g["unit"], g["hit_on"]) for g in groups] == [("flagship", 5), ("ground_force", 8)]
    assert played.outcome["result"] == "attacker_win"


@pytest.mark.parametrize("technology", TECHNOLOGIES)
def test_declined_the_ground_force_does_not_roll(technology: str) -> None:
    """policy never: round 1: flagship 1, 1 (no ground force die); cruiser 1; round 2: 5, 1;
    1."""
    played = run(yin(technology, policy={"play": {"yin_flagship": "never"}}), [1, 1, 1, 5, 1, 1])
    assert played.outcome["result"] == "attacker_win"


@pytest.mark.parametrize("technology", TECHNOLOGIES)
def test_exact_odds(technology: str) -> None:
    """Hand-derived (tests/ti3/flagships/van_hauge_model.py): the ground force misses with
    7/10 (at 8) instead of 8/10."""
    report = odds(yin(technology), fractions=True)
    expected = against_a_cruiser(0, 1, Fraction(7, 10))
    assert (report.attacker_win, report.draw, report.defender_win) == expected
    assert expected == (
        Fraction(38368257, 38407457),
        Fraction(32928, 38407457),
        Fraction(6272, 38407457),
    )
    assert expected != against_a_cruiser(0, 1, Fraction(4, 5))


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    """With the fighter rules together (27T-12 to 27T-14)."""
    scenario = space(
        {
            "units": {"flagship": 1, "ground_force": 2, "carrier": 1},
            "faction": "yin",
            "technologies": ["cybernetics"],
            "action_cards": ["fighter_prototype", "courageous_to_the_end"],
        },
        {"units": {"dreadnought": 1, "cruiser": 1}, "action_cards": ["experimental_weaponry"]},
    )
    assert_logs_replay(scenario, seeds=6)
    assert_sampled_as_played(scenario, trials=30)
