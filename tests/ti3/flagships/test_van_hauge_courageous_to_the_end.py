"""Courageous to the End ("Roll 2 dice. For each roll equal to or greater than your ship's
combat value, your opponent must immediately take one casualty. Play: Immediately after one of
your ships is destroyed", 27S-31) when one of Van Hauge's ground forces fighting as fighters is
destroyed: it is a ship (a fighter) while it fights, its combat value 9 (PC_Twi's
``uaSpaceBattle 9``); docs/rulings.md 27T-12.

Dice: the pool rolls the flagship's 5s, then the ground forces; the attacker before the
defender; the card's 2 dice when the ship is removed."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from spacecombat import odds
from tests.helpers import events, rolls, run
from tests.ti3.effects import space
from tests.ti3.flagships.van_hauge_model import CRUISER, FLAGSHIP_MISS, against_a_cruiser


def yin(**attacker: Any) -> dict[str, Any]:
    return space(
        {
            "units": {"flagship": 1, "ground_force": 1},
            "faction": "yin",
            "action_cards": ["courageous_to_the_end"],
            **attacker,
        },
        {"units": {"cruiser": 1}},
    )


def test_the_ground_force_lost_opens_the_card_at_9() -> None:
    """Round 1: flagship 1, 1, ground force 1; cruiser 7: the flagship sustains. Round 2: 1, 1,
    1; 7: the ground force is lost (the stock order); the card: 9, 1 (one success at 9): the
    cruiser is destroyed."""
    played = run(yin(), [1, 1, 1, 7, 1, 1, 1, 7, 9, 1])
    assert [e["card"] for e in events(played, "card_played")] == [
        "yin_flagship",
        "courageous_to_the_end",
    ]
    (card,) = rolls(played, "courageous_to_the_end")
    assert card["groups"] == [
        {"unit": "ground_force", "value": 9, "modifier": 0, "hit_on": 9, "faces": [9, 1], "hits": 1}
    ]
    assert played.outcome["result"] == "attacker_win"


def test_not_when_it_does_not_fight() -> None:
    """policy never: the ground force does not fight (it is carried, not a ship): only the
    flagship's loss opens the card, at the flagship's 5. Round 1: 1, 1; 7 (sustained). Round
    2: 1, 1; 7: the flagship is lost; the card: 1, 1 (no success)."""
    played = run(yin(policy={"play": {"yin_flagship": "never"}}), [1, 1, 7, 1, 1, 7, 1, 1])
    (card,) = rolls(played, "courageous_to_the_end")
    groups = card["groups"]
    assert isinstance(groups, list)
    assert [(g["unit"], g["hit_on"]) for g in groups] == [("flagship", 5)]
    assert played.outcome["result"] == "defender_win"


def test_exact_odds() -> None:
    """Hand-derived. Undamaged (the model of tests/ti3/flagships/van_hauge_model.py, misses
    8/10): the Yin win with a hit; missed and hit, the flagship is damaged (with the ground
    force and the card). Then a round: a hit wins (the ground force taken first if the cruiser
    hits too); missed and hit, the ground force is lost and the card rolls 2 dice at 9, at
    least one success 1 - (4/5)^2 = 9/25 destroying the cruiser, else the damaged flagship
    alone (the card is spent) goes on as the model's last state."""
    a = 1 - FLAGSHIP_MISS**2 * Fraction(4, 5)
    p = CRUISER
    rest = 1 - (1 - a) * (1 - p)
    courage = 1 - Fraction(4, 5) ** 2
    alone = against_a_cruiser(1, 0, Fraction(4, 5))
    damaged = tuple(
        (int(i == 0) * (a + (1 - a) * p * courage) + (1 - a) * p * (1 - courage) * alone[i]) / rest
        for i in range(3)
    )
    expected = tuple((int(i == 0) * a + (1 - a) * p * damaged[i]) / rest for i in range(3))
    report = odds(yin(), fractions=True)
    assert (report.attacker_win, report.draw, report.defender_win) == expected
    assert expected[0] > against_a_cruiser(0, 1, Fraction(4, 5))[0]
