"""Arc Secundus, the Barony of Letnev flagship (docs/rulings.md 27R-18; PC_Twi UnitAbility.cpp
FlagshipAbilities: uaAutoRepair and uaBombard through PDS; CombatInterface.cpp AutoRepairs):
it repairs itself at the end of each combat round, and bombards with its combat dice (2 at 5)
even a planet with enemy PDS."""

from __future__ import annotations

from fractions import Fraction

from spacecombat import odds
from tests.helpers import events, rolls, run
from tests.ti3.effects import at_least_one, invasion, space, two_lives_duel

LETNEV = {"faction": "letnev"}


def test_it_repairs_itself_at_the_end_of_each_round() -> None:
    """Round 1: flagship 1, 1; cruisers 7, 1: it sustains, then repairs itself. Round 2:
    flagship 5, 5 (both cruisers destroyed); cruisers 7, 1: it sustains and repairs again."""
    played = run(
        space({"units": {"flagship": 1}, **LETNEV}, {"units": {"cruiser": 2}}),
        [1, 1, 7, 1, 5, 5, 7, 1],
    )
    repairs = events(played, "unit_repaired", player="attacker", by="Arc Secundus")
    assert len(repairs) == 2
    assert played.outcome["result"] == "attacker_win"


def test_it_never_loses_to_one_cruiser() -> None:
    """One cruiser scores at most one hit a round, which the flagship sustains and repairs:
    it wins with certainty (without the repair it would be the two-lives duel, a = 21/25,
    p = 2/5, which it loses with a chance above 0)."""
    report = odds(
        space({"units": {"flagship": 1}, **LETNEV}, {"units": {"cruiser": 1}}), fractions=True
    )
    assert report.attacker_win == 1
    assert two_lives_duel(at_least_one(2, Fraction(3, 5)), Fraction(2, 5))[0] < 1


def test_odds_against_two_cruisers() -> None:
    """Against two cruisers (2/5 each) it is destroyed only by two hits in one round (4/25)
    while it does not destroy both; it hits 0, 1, 2 with 4/25, 12/25, 9/25. States by the
    cruisers left (it is always undamaged at a round's start). A round with no change
    repeats.
    One cruiser: certain win (test above).
    Two: two hits (9/25) end it: won unless both cruisers hit (9/25 * 4/25: both destroyed);
    one hit (12/25): to one cruiser unless both hit (12/25 * 4/25: lost); none (4/25): lost
    if both hit (4/25 * 4/25), else repeat (4/25 * 21/25).
    Over 1 - 84/625 = 541/625: won (9/25 * 21/25 + 12/25 * 21/25) / (541/625) = 441/541,
    both destroyed 36/541, lost (48 + 16)/541 = 64/541."""
    report = odds(
        space({"units": {"flagship": 1}, **LETNEV}, {"units": {"cruiser": 2}}), fractions=True
    )
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(441, 541),
        Fraction(36, 541),
        Fraction(64, 541),
    )


def test_it_bombards_a_planet_with_a_pds() -> None:
    """Bombardment: 2 dice at 5: 5 and 1, one ground force destroyed (the planet's PDS does
    not stop it). PDS fire at the landing ground force: 1. Invasion round 1: ground force 8;
    ground force 1."""
    played = run(
        invasion(
            {"units": {"flagship": 1, "ground_force": 1}, **LETNEV},
            {"units": {"ground_force": 2, "pds": 1}},
        ),
        [5, 1, 1, 8, 1],
    )
    bombard = rolls(played, "bombardment")
    groups = bombard[0]["groups"]
    assert isinstance(groups, list)
    assert [(g["unit"], len(g["faces"]), g["hit_on"]) for g in groups] == [("flagship", 2, 5)]
    assert played.outcome["result"] == "attacker_win"
