"""Exact TI3 odds against answers derived by hand, as fractions.

Each derivation is in the test's docstring: a round where nobody hits repeats, so a result's
chance is its chance in one round divided by the chance that the round decides anything.
"""

from __future__ import annotations

from fractions import Fraction

from spacecombat import odds
from tests.ti3.effects import invasion as _invasion
from tests.ti3.effects import space as _space


def test_cruiser_against_cruiser() -> None:
    """ti3-combat.md, Roll combat dice: both hit on 7+ (p = 2/5), simultaneously. One round:
    attacker alone hits 2/5 * 3/5 = 6/25, both 4/25, neither 9/25. Attacker wins
    (6/25)/(16/25) = 3/8, defender 3/8, both destroyed 1/4."""
    report = odds(_space({"units": {"cruiser": 1}}, {"units": {"cruiser": 1}}), fractions=True)
    assert (report.attacker_win, report.defender_win, report.draw) == (
        Fraction(3, 8),
        Fraction(3, 8),
        Fraction(1, 4),
    )


def test_mentak_shot_before_the_battle() -> None:
    """ti3-facts.md section 10, Mentak: its cruiser fires before the battle (2/5) with no
    return fire; on a miss the rounds are cruiser (2/5) against destroyer (1/5): attacker
    alone 8/25, defender alone 3/25, both 2/25, neither 12/25, so 8/13, 3/13, 2/13.
    Attacker: 2/5 + 3/5 * 8/13 = 10/13; defender 3/5 * 3/13 = 9/65; draw 3/5 * 2/13 = 6/65."""
    scenario = _space({"units": {"cruiser": 1}, "faction": "mentak"}, {"units": {"destroyer": 1}})
    report = odds(scenario, fractions=True)
    assert (report.attacker_win, report.defender_win, report.draw) == (
        Fraction(10, 13),
        Fraction(9, 65),
        Fraction(6, 65),
    )


def test_pds_fire_at_the_landing_ground_force() -> None:
    """ti3-combat.md, PDS fire: the PDS fires once at the landing ground force (6+: 1/2).
    If it survives, 8+ (3/10) against 8+: attacker alone 21/100, both 9/100, neither 49/100,
    so 7/17, 7/17, 3/17. Attacker 1/2 * 7/17 = 7/34 (the planet is taken exactly then);
    defender 1/2 + 7/34 = 12/17; both destroyed 3/34 (the defender keeps the planet)."""
    scenario = _invasion({"units": {"ground_force": 1}}, {"units": {"ground_force": 1, "pds": 1}})
    report = odds(scenario, fractions=True)
    assert (report.attacker_win, report.defender_win, report.draw) == (
        Fraction(7, 34),
        Fraction(12, 17),
        Fraction(3, 34),
    )
    assert report.other["planet_taken"] == Fraction(7, 34)


def test_war_sun_bombards_without_an_invasion() -> None:
    """ti3-combat.md, Bombardments: a war sun bombards even with no invasion, 3 dice at 3+
    (4/5 each). The lone ground force survives only if all three miss: 1/125. Nobody lands,
    so a destroyed garrison leaves no ground units at all (a draw) and the planet is kept."""
    scenario = _invasion({"units": {"war_sun": 1}}, {"units": {"ground_force": 1}})
    report = odds(scenario, fractions=True)
    assert (report.draw, report.defender_win) == (Fraction(124, 125), Fraction(1, 125))
    assert report.other["planet_taken"] == 0


def test_anti_fighter_barrage_then_destroyer_against_fighter() -> None:
    """ti3-combat.md, Anti-Fighter barrage: the destroyer rolls 2 dice at 9+ against the lone
    fighter: it survives both with (4/5)^2 = 16/25. Then 9+ against 9+ (1/5 each): attacker
    alone 4/25, both 1/25, neither 16/25, so 4/9, 4/9, 1/9. Attacker 9/25 + 16/25 * 4/9 =
    81/225 + 64/225 = 145/225 = 29/45; defender 16/25 * 4/9 = 64/225; draw 16/225."""
    # the space dock supports the fighter (else it is lost before the battle)
    scenario = _space({"units": {"destroyer": 1}}, {"units": {"fighter": 1, "space_dock": 1}})
    report = odds(scenario, fractions=True)
    assert (report.attacker_win, report.defender_win, report.draw) == (
        Fraction(29, 45),
        Fraction(64, 225),
        Fraction(16, 225),
    )
