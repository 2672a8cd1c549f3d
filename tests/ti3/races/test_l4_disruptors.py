"""L4 Disruptors (Letnev racial technology; wiki.omf2097.com joneirik:rpg:ti3_races, PC_Twi
r_Letnev.cpp): the Letnev player need not spend trade goods to use its racial ability in ground
combat, so its ground forces get +2 in every invasion combat round (docs/rulings.md 27R-4)."""

from __future__ import annotations

from fractions import Fraction

from spacecombat import odds
from spacecombat.core.sides import Side
from spacecombat.rulesets.ti3.abilities.base import RollContext, RollKind
from spacecombat.rulesets.ti3.abilities.races import L4Disruptors
from tests.ti3.effects import invasion

A, D = Side.ATTACKER, Side.DEFENDER


def test_ground_forces_plus_two_in_invasion_combat_only() -> None:
    """Ground forces and shock troops of the owner, every round; not mechanized units (immune
    to effects naming ground forces), not space combat, not the opponent."""
    h = L4Disruptors(A)
    for unit in ("ground_force", "shock_troop"):
        for round_ in (1, 2, 5):
            assert h.modifier(RollContext(RollKind.INVASION_COMBAT, A, unit, round=round_)) == 2
    assert h.modifier(RollContext(RollKind.INVASION_COMBAT, A, "mechanized_unit")) == 0
    assert h.modifier(RollContext(RollKind.SPACE_COMBAT, A, "cruiser")) == 0
    assert h.modifier(RollContext(RollKind.INVASION_COMBAT, D, "ground_force")) == 0


def test_odds_of_one_ground_force_against_one() -> None:
    """The Letnev ground force hits on 6 (1/2), the defender's on 8 (3/10). One round:
    attacker alone 1/2 * 7/10 = 7/20, defender alone 3/20, both 3/20; so 7/13, 3/13, and
    both destroyed 3/13 (the defender keeps the planet)."""
    report = odds(
        invasion(
            {"units": {"ground_force": 1}, "faction": "letnev", "technologies": ["l4_disruptors"]},
            {"units": {"ground_force": 1}},
        ),
        fractions=True,
    )
    assert (report.attacker_win, report.defender_win, report.draw) == (
        Fraction(7, 13),
        Fraction(3, 13),
        Fraction(3, 13),
    )
