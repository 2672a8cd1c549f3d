"""Fourth Moon, the Mentak flagship (docs/rulings.md 27R-6; PC_Twi r_Mentak.cpp
e_MentakFlagship): when the Mentak player attacks with it in the system, the defender's units
cannot use SUSTAIN DAMAGE in the space battle."""

from __future__ import annotations

from fractions import Fraction

from spacecombat import odds
from tests.helpers import events, run
from tests.ti3.effects import space


def test_the_defenders_dreadnought_cannot_sustain() -> None:
    """Round 1: the flagship's 5 and 1 score one hit: the dreadnought is destroyed at once
    (dreadnought 1)."""
    played = run(
        space({"units": {"flagship": 1}, "faction": "mentak"}, {"units": {"dreadnought": 1}}),
        [5, 1, 1],
    )
    assert played.outcome["result"] == "attacker_win"
    assert not events(played, "damage_sustained", player="defender")


def test_a_defending_mentak_flagship_does_not_act() -> None:
    """27R-6: only as the attacker. The Mentak defender's flagship's 5 is sustained by the
    attacking dreadnought (round 1: dreadnought 1; flagship 5, 1), then round 2 (dreadnought
    1; flagship 5, 1) destroys it."""
    played = run(
        space({"units": {"dreadnought": 1}}, {"units": {"flagship": 1}, "faction": "mentak"}),
        [1, 5, 1, 1, 5, 1],
    )
    assert events(played, "damage_sustained", player="attacker", unit="dreadnought")
    assert played.outcome["result"] == "defender_win"


def test_odds_against_a_dreadnought() -> None:
    """The flagship (5 x2: 0 hits 4/25, 1 hit 12/25, 2 hits 9/25; two lives) against a
    dreadnought (5+: 3/5) that cannot sustain while the flagship is there. A round where
    nothing happens (4/25 * 2/5 = 8/125) repeats: each state's odds are its round's over
    117/125.

    Flagship undamaged: any hit wins (a hit taken is sustained): 21/25 -> 35/39; a miss and
    a hit damage it: 12/125 -> 4/39.
    Flagship damaged: a hit and a miss win, (21/25)(2/5) -> 14/39. When both hit, the
    attacker removes its casualty first: the Fourth Moon is gone, so the dreadnought may
    sustain (27R-6): with 2 hits it is destroyed all the same (both destroyed,
    (9/25)(3/5) -> 9/39); with 1 hit it survives (lost, (12/25)(3/5) -> 12/39); a miss and
    a hit lose, (4/25)(3/5) -> 4/39.
    Win 35/39 + 4/39 * 14/39 = 1421/1521, both destroyed 4/39 * 9/39 = 36/1521, lost
    4/39 * 16/39 = 64/1521."""
    report = odds(
        space({"units": {"flagship": 1}, "faction": "mentak"}, {"units": {"dreadnought": 1}}),
        fractions=True,
    )
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(1421, 1521),
        Fraction(36, 1521),
        Fraction(64, 1521),
    )
