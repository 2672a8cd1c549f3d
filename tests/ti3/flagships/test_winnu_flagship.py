"""Salai Sai Corian, the Winnu flagship (docs/rulings.md 27R-10; PC_Twi r_Winnu.cpp
e_WinnuFlagship): it rolls one combat die (at 7) for each non-fighter ship the opponent has
in the system, counted at each roll."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from spacecombat import odds
from spacecombat.core.engine import Played
from tests.helpers import rolls, run
from tests.ti3.effects import space, two_lives_duel


def _flagship_dice(played: Played[Any]) -> list[int]:
    dice = []
    for r in rolls(played, "space_combat"):
        groups = r["groups"]
        assert isinstance(groups, list)
        if r["player"] == "attacker":
            dice += [len(g["faces"]) for g in groups if g["unit"] == "flagship"]
    return dice


def test_one_die_per_enemy_non_fighter_ship() -> None:
    """Two cruisers: 2 dice. Round 1: 7 and 1, a cruiser goes (defender 1, 1); round 2: one
    cruiser left, 1 die: 7 (defender 1)."""
    played = run(
        space({"units": {"flagship": 1}, "faction": "winnu"}, {"units": {"cruiser": 2}}),
        [7, 1, 1, 1, 7, 1],
    )
    assert _flagship_dice(played) == [2, 1]


def test_fighters_do_not_count() -> None:
    """A carrier and two fighters: 1 die a round. Round 1: 1 (defender 1, 1, 1); rounds 2-4:
    7 each, the defender losing a fighter, a fighter, the carrier (misses 1)."""
    played = run(
        space(
            {"units": {"flagship": 1}, "faction": "winnu"},
            {"units": {"carrier": 1, "fighter": 2}},
        ),
        [1, 1, 1, 1, 7, 1, 1, 1, 7, 1, 1, 7, 1],
    )
    assert _flagship_dice(played) == [1, 1, 1, 1]
    assert played.outcome["result"] == "attacker_win"


def test_odds_against_a_cruiser() -> None:
    """One enemy ship: one die at 7 (a = 2/5) against the cruiser's 2/5; by the two-lives
    duel (tests/ti3/effects.py): r = 9/25, win 5/8 + 3/8 * 3/8 = 49/64, both destroyed
    3/8 * 1/4 = 3/32, lost 9/64."""
    report = odds(
        space({"units": {"flagship": 1}, "faction": "winnu"}, {"units": {"cruiser": 1}}),
        fractions=True,
    )
    expected = two_lives_duel(Fraction(2, 5), Fraction(2, 5))
    assert expected == (Fraction(49, 64), Fraction(3, 32), Fraction(9, 64))
    assert (report.attacker_win, report.draw, report.defender_win) == expected


def test_the_rounds_are_not_in_product_form() -> None:
    """Its dice depend on the opponent's ships: the rounds are solved state by state."""
    from spacecombat.rulesets import parse_ti_scenario
    from spacecombat.rulesets.ti3.rounds import Ti3ProductRounds
    from spacecombat.rulesets.ti3.setup import build

    setup = build(
        parse_ti_scenario(
            space({"units": {"flagship": 1}, "faction": "winnu"}, {"units": {"cruiser": 1}})
        )
    )
    refusal = Ti3ProductRounds.refusal(setup)
    assert refusal is not None
    assert "winnu_flagship" in refusal
