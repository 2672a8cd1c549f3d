"""Unconventional Weapons (For; PC_Twi p_UnconventionalWeapons.cpp: "All Warsuns and
Dreadnoughts receive -2 to all combat rolls"): every war sun and dreadnought, either side's,
-2 on its combat rolls (docs/rulings.md 27Z-3)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from spacecombat import odds
from tests.helpers import rolls, run
from tests.ti3.effects import space, two_lives_duel

DUEL = ({"units": {"dreadnought": 1}}, {"units": {"cruiser": 1}})
LAW: dict[str, Any] = {"laws": ["unconventional_weapons"]}


def test_a_dreadnought_needs_a_7() -> None:
    """Dreadnought (combat 5) rolls 6: a miss with the law; the cruiser misses (3); round 2
    the dreadnought's 7 hits and the cruiser's 1 misses."""
    played = run(space(*DUEL, **LAW), [6, 3, 7, 1])
    assert len(rolls(played, "space_combat")) == 4
    assert played.outcome["result"] == "attacker_win"


def test_without_the_law_a_6_hits() -> None:
    played = run(space(*DUEL), [6, 3])
    assert played.outcome["result"] == "attacker_win"


def test_odds_dreadnought_against_cruiser() -> None:
    """The dreadnought hits 4/10 (7+), sustains one hit; the cruiser hits 4/10: the two-lives
    duel (tests/ti3/effects.py) gives won 49/64, both destroyed 3/32, lost 9/64."""
    report = odds(space(*DUEL, **LAW), fractions=True)
    win, both, lose = two_lives_duel(Fraction(2, 5), Fraction(2, 5))
    assert (win, both, lose) == (Fraction(49, 64), Fraction(3, 32), Fraction(9, 64))
    assert (report.attacker_win, report.draw, report.defender_win) == (win, both, lose)


def test_the_defenders_dreadnought_too() -> None:
    """The law reaches every player: the mirror duel gives the defender 49/64."""
    report = odds(space(DUEL[1], DUEL[0], **LAW), fractions=True)
    assert report.defender_win == Fraction(49, 64)
