"""Fighter Prototype ("Your fighters receive +2 to combat rolls in first round of Space
Battle", PC_Twi a_BeforeBattleRound.cpp, which gives it to every unit with ``uaFighter``) with
Van Hauge's ground forces fighting as fighters (docs/rulings.md 27T-12): the card is played in
the opening window, before Van Hauge's choice (27S-43), and offered to a holder whose only
"fighters" are the ground forces Van Hauge may make fight; in round 1 they roll at 9 - 2.

Dice: the pool rolls the flagship's 5s, then the ground forces; the attacker before the
defender."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, cast

from spacecombat import odds
from tests.helpers import events, rolls, run
from tests.ti3.effects import space
from tests.ti3.flagships.van_hauge_model import CRUISER, FLAGSHIP_MISS, against_a_cruiser


def yin(**attacker: Any) -> dict[str, Any]:
    return space(
        {
            "units": {"flagship": 1, "ground_force": 1},
            "faction": "yin",
            "action_cards": ["fighter_prototype"],
            **attacker,
        },
        {"units": {"cruiser": 1}},
    )


def test_offered_without_fighters_and_plus_2_in_round_1_only() -> None:
    """Round 1: flagship 1, 1, the ground force 6 (a miss at 7); cruiser 7: the flagship
    sustains. Round 2: 1, 1, 8 (a miss at 9); 1. Round 3: 5 (a hit), 1, 1; 1."""
    played = run(yin(), [1, 1, 6, 7, 1, 1, 8, 1, 5, 1, 1, 1])
    assert [e["card"] for e in events(played, "card_played")] == [
        "fighter_prototype",
        "yin_flagship",
    ]
    attacker = [r for r in rolls(played, "space_combat") if r["player"] == "attacker"]
    ground = [
        g["hit_on"]
        for r in attacker
        for g in cast("list[dict[str, Any]]", r["groups"])
        if g["unit"] == "ground_force"
    ]
    assert ground == [7, 9, 9]
    assert played.outcome["result"] == "attacker_win"


def test_not_offered_without_van_hauge_in_the_battle() -> None:
    """The flagship is not in the battle (a carrier carries the ground force): no fighter, no
    unit that may fight as one: the card is kept. Round 1: carrier 1; cruiser 7."""
    scenario = space(
        {
            "units": {"carrier": 1, "ground_force": 1},
            "faction": "yin",
            "action_cards": ["fighter_prototype"],
        },
        {"units": {"cruiser": 1}},
    )
    played = run(scenario, [1, 7])
    assert not events(played, "card_played")


def test_exact_odds() -> None:
    """Hand-derived: round 1 the ground force misses with 6/10 (at 7): the Yin hit with
    a1 = 1 - (2/5)^2 * 3/5 (a hit wins: a cruiser hit is sustained); missed, the cruiser's hit
    (2/5) leaves the damaged flagship and the ground force, else the battle goes on as it began;
    from round 2 the model of tests/ti3/flagships/van_hauge_model.py (misses 8/10)."""
    a1 = 1 - FLAGSHIP_MISS**2 * Fraction(3, 5)
    p = CRUISER
    damaged = against_a_cruiser(1, 1, Fraction(4, 5))
    whole = against_a_cruiser(0, 1, Fraction(4, 5))
    expected = tuple(
        int(i == 0) * a1 + (1 - a1) * p * damaged[i] + (1 - a1) * (1 - p) * whole[i]
        for i in range(3)
    )
    report = odds(yin(), fractions=True)
    assert (report.attacker_win, report.draw, report.defender_win) == expected
