"""Courageous to the End for a fighter destroyed in an ion storm (docs/rulings.md 27J-5; option
``ion_storm_courageous``): by default the holder rolls the card's 2 dice at the fighter's
printed combat value (9) as anywhere (the dice are the card's, not a combat roll of the
fighter, 27S-31; the storm stops the fighters' own dice, 27I-2); ``not_offered``: the card is
not offered for a fighter (or a unit fighting as one) there, and is kept for another ship.

Dice: in a combat round the attacker rolls before the defender (in the storm the fighter rolls
nothing); the card's 2 dice when played."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, cast

import pytest

from spacecombat import odds
from spacecombat.core.errors import ScenarioError
from tests.helpers import events, rolls, run
from tests.ti3.effects import space

STORM = {"anomaly": "ion_storm"}
CARD = {"action_cards": ["courageous_to_the_end"]}


def battle(**options: Any) -> dict[str, Any]:
    """A carrier (9+) and a fighter, holding the card, against a cruiser (7+)."""
    return space(
        {"units": {"carrier": 1, "fighter": 1}, **CARD},
        {"units": {"cruiser": 1}},
        system=STORM,
        options=options,
    )


def card_dice(played: Any) -> list[tuple[str, int, int]]:
    """(unit, dice, hit_on) of the card's rolls."""
    return [
        (str(g["unit"]), len(g["faces"]), int(g["hit_on"]))
        for r in rolls(played, "courageous_to_the_end")
        for g in cast("list[dict[str, Any]]", r["groups"])
    ]


def test_by_default_the_card_rolls_for_the_fighter() -> None:
    """Round 1: carrier 1; cruiser 7: the fighter is the casualty; the card: 9, 1 at the
    fighter's 9 (one success): the cruiser is destroyed at once."""
    played = run(battle(), [1, 7, 9, 1])
    assert card_dice(played) == [("fighter", 2, 9)]
    lost = events(played, "unit_destroyed", cause="Courageous to the End")
    assert [(e["player"], e["unit"]) for e in lost] == [("defender", "cruiser")]
    assert played.outcome["result"] == "attacker_win"


def test_not_offered_it_waits_for_the_carrier() -> None:
    """``not_offered``: round 1: carrier 1; cruiser 7: the fighter is lost, nothing is asked.
    Round 2: carrier 1; cruiser 7: the carrier is lost; the card at its 9: 9, 1: the cruiser
    is destroyed: nobody is left, a draw."""
    played = run(battle(ion_storm_courageous="not_offered"), [1, 7, 1, 7, 9, 1])
    assert card_dice(played) == [("carrier", 2, 9)]
    assert played.outcome["result"] == "draw"


def test_exact_odds_the_card_rolls() -> None:
    """Hand-derived. Only the carrier rolls: c = 1/5; the cruiser p = 2/5; a round where
    nobody hits repeats (r = 12/25, 1 - r = 13/25). From the start: the carrier hits (the
    cruiser is destroyed, whatever it does) 5/13; else the cruiser's hit takes the fighter,
    8/13, and the card (2 dice at 9) hits at least once 9/25: won. Else the carrier alone:
    won 3/13, both destroyed 2/13, lost 8/13. Won 5/13 + 8/13 (9/25 + 16/25 * 3/13) =
    589/845; both destroyed 8/13 * 16/25 * 2/13 = 256/4225; lost 8/13 * 16/25 * 8/13 =
    1024/4225."""
    report = odds(battle(), fractions=True)
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(589, 845),
        Fraction(256, 4225),
        Fraction(1024, 4225),
    )


def test_exact_odds_not_offered() -> None:
    """Hand-derived (``not_offered``): won 5/13 + 8/13 * 3/13 = 89/169 as without the card;
    when the carrier alone is lost to a cruiser that lives (8/13 of 8/13), the card at the
    carrier's 9 destroys it 9/25 (a draw). Both destroyed 8/13 (2/13 + 8/13 * 9/25) =
    976/4225; lost (8/13)^2 * 16/25 = 1024/4225."""
    report = odds(battle(ion_storm_courageous="not_offered"), fractions=True)
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(89, 169),
        Fraction(976, 4225),
        Fraction(1024, 4225),
    )


def test_not_offered_for_van_hauges_ground_force_either() -> None:
    """A unit fighting as a fighter is one for the option: Van Hauge (damaged) and a ground
    force holding the card against a cruiser. Round 1: flagship 1, 1; cruiser 7: the ground
    force is lost, nothing is asked. Round 2: 1, 1; 7: the flagship is lost; the card at its
    5: 5, 1: the cruiser is destroyed, a draw."""
    scenario = space(
        {
            "units": {"flagship": 1, "ground_force": 1},
            "damaged": {"flagship": 1},
            "faction": "yin",
            **CARD,
        },
        {"units": {"cruiser": 1}},
        system=STORM,
        options={"ion_storm_courageous": "not_offered"},
    )
    played = run(scenario, [1, 1, 7, 1, 1, 7, 5, 1])
    assert card_dice(played) == [("flagship", 2, 5)]
    assert played.outcome["result"] == "draw"


@pytest.mark.parametrize("value", ["no", None])
def test_the_option_is_rolls_or_not_offered(value: object) -> None:
    with pytest.raises(ScenarioError) as raised:
        odds(battle(ion_storm_courageous=value))
    assert raised.value.field == "options.ion_storm_courageous"
    assert "'rolls'" in str(raised.value)
    assert "'not_offered'" in str(raised.value)
