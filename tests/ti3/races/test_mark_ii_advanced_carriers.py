"""Mark II Advanced Carriers (Sol racial technology; PC_Twi r_Sol.cpp e_SolMarkIICarrier):
the owner's carriers carry eight units and have SUSTAIN DAMAGE (docs/rulings.md 27R-12)."""

from __future__ import annotations

from fractions import Fraction

from spacecombat import odds
from tests.helpers import events, run
from tests.ti3.effects import space, two_lives_duel

SOL = {"faction": "sol", "technologies": ["mark_ii_advanced_carriers"]}


def test_a_carrier_sustains_and_carries_eight() -> None:
    """A carrier with 8 fighters keeps them all (capacity 8). Round 1: carrier 1, fighters
    9 (the cruiser destroyed) and seven 1s; cruiser 7: taken by the carrier's sustain
    (scripted)."""
    played = run(
        space({"units": {"carrier": 1, "fighter": 8}, **SOL}, {"units": {"cruiser": 1}}),
        [1, 9, 1, 1, 1, 1, 1, 1, 1, 7],
        attacker=["sustain carrier"],
    )
    assert not events(played, "unit_removed")
    assert events(played, "damage_sustained", player="attacker", unit="carrier")


def test_odds_of_a_carrier_against_a_destroyer() -> None:
    """The carrier (9+: 1/5, two lives) against a destroyer (9+: 1/5): the two-lives duel
    (tests/ti3/effects.py): r = 16/25; win 5/9 + 4/9 * 4/9 = 61/81, both 4/81, lost 16/81."""
    report = odds(
        space({"units": {"carrier": 1}, **SOL}, {"units": {"destroyer": 1}}), fractions=True
    )
    expected = two_lives_duel(Fraction(1, 5), Fraction(1, 5))
    assert expected == (Fraction(61, 81), Fraction(4, 81), Fraction(16, 81))
    assert (report.attacker_win, report.draw, report.defender_win) == expected
