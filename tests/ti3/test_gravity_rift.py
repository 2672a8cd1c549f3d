"""A TI3 battle in a gravity rift (docs/rulings.md 27Z-7): no source gives the rift an effect
on combat rolls, only on ships leaving it (PC_Twi ``e_GravityRift``); a battle no ship can
leave is fought as in an empty system. Ships leaving roll (27M-3:
tests/ti3/test_leaving_gravity_rift.py); the units they carry out are lost with them
(27Q-3: tests/ti3/test_gravity_rift_cargo.py)."""

from __future__ import annotations

from fractions import Fraction

from spacecombat import odds
from tests.ti3.effects import invasion_of_a, space

RIFT = {"anomaly": "gravity_rift"}
CRUISERS = ({"units": {"cruiser": 1}}, {"units": {"cruiser": 1}})


def test_a_space_battle_no_ship_can_leave_is_an_empty_systems() -> None:
    """Cruisers hit 4/10 each; a round with no hit repeats (0.36): won 0.24/0.64 = 3/8, both
    destroyed 0.16/0.64 = 1/4, lost 3/8, as with no anomaly."""
    report = odds(space(*CRUISERS, system=RIFT), fractions=True)
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(3, 8),
        Fraction(1, 4),
        Fraction(3, 8),
    )


def test_an_invasion_is_an_empty_systems() -> None:
    """Ground forces hit 3/10 each: won 0.21/0.51 = 7/17, both destroyed 3/17, lost 7/17."""
    scenario = invasion_of_a({"carrier": 1, "ground_force": 1}, {"ground_force": 1})
    scenario["system"] = RIFT
    report = odds(scenario, fractions=True)
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(7, 17),
        Fraction(3, 17),
        Fraction(7, 17),
    )
