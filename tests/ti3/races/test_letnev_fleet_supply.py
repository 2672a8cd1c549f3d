"""The Barony of Letnev (docstoc 'Twilight Imperium 3rd Edition Racial Abilities' b; PC_Twi
r_Letnev.cpp e_LetnevFleetSupply): its fleets may hold one more ship than its fleet supply
counters. Its trade-good bonus is never paid for in a TI3 scenario (docs/rulings.md 27R-3)."""

from __future__ import annotations

from fractions import Fraction

from spacecombat import odds
from tests.helpers import events, run
from tests.ti3.effects import space


def test_one_more_ship_than_the_counters() -> None:
    """Fleet supply 2 and three cruisers: none goes for the Letnev. Round 1: cruisers 7, 1, 1
    (the carrier destroyed); carrier 1."""
    played = run(
        space(
            {"units": {"cruiser": 3}, "faction": "letnev", "fleet_supply": 2},
            {"units": {"carrier": 1}},
        ),
        [7, 1, 1, 1],
    )
    assert not events(played, "unit_removed")


def test_another_race_loses_the_excess() -> None:
    """The same fleet of no race: one cruiser is removed before the battle."""
    played = run(
        space({"units": {"cruiser": 3}, "fleet_supply": 2}, {"units": {"carrier": 1}}),
        [7, 1, 1],
    )
    assert [e["unit"] for e in events(played, "unit_removed")] == ["cruiser"]


def test_the_trade_good_bonus_is_never_paid_for() -> None:
    """27R-3: with no trade goods, a Letnev cruiser fights at 7 as any other: cruiser against
    cruiser, 3/8 each and 1/4 both destroyed (tests/ti3/test_exact_odds.py)."""
    report = odds(
        space({"units": {"cruiser": 1}, "faction": "letnev"}, {"units": {"cruiser": 1}}),
        fractions=True,
    )
    assert (report.attacker_win, report.defender_win, report.draw) == (
        Fraction(3, 8),
        Fraction(3, 8),
        Fraction(1, 4),
    )
