"""Enhanced Armor (TI3 base action card; data/action_cards.toml; docs/rulings.md 27S-30):
played as an action, never during a battle, so holding it changes nothing in one.

Dice: in an exchange the attacker rolls before the defender."""

from __future__ import annotations

from fractions import Fraction

from spacecombat import odds
from tests.helpers import events, run
from tests.ti3.effects import space


def test_held_it_is_accepted_and_never_offered() -> None:
    """Round 1: 1; 7: the holder's cruiser has no SUSTAIN DAMAGE and is destroyed."""
    played = run(
        space(
            {"units": {"cruiser": 1}, "action_cards": ["enhanced_armor"]}, {"units": {"cruiser": 1}}
        ),
        [1, 7],
    )
    assert not events(played, "choice_made", decision="play_card")
    assert not events(played, "damage_sustained")
    assert played.outcome["result"] == "defender_win"


def test_exact_odds_as_without_it() -> None:
    """Hand-derived: the plain duel of two cruisers (7+: each alone 6/25, both 4/25): 3/8,
    1/4, 3/8."""
    report = odds(
        space(
            {"units": {"cruiser": 1}, "action_cards": ["enhanced_armor"]}, {"units": {"cruiser": 1}}
        ),
        fractions=True,
    )
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(3, 8),
        Fraction(1, 4),
        Fraction(3, 8),
    )
