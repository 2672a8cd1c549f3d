"""The Crown of Thalnos (elect player; PC_Twi p_CrownofThalnos.cpp: "Elected player's GF get
+1", applied to its ground forces' invasion combat rolls): the elected player's ground forces
+1 in invasion combat (docs/rulings.md 27Z-4)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from spacecombat import odds
from tests.helpers import run
from tests.ti3.effects import invasion_faces, invasion_of_a


def _scenario(elected: str) -> dict[str, Any]:
    scenario = invasion_of_a({"carrier": 1, "ground_force": 1}, {"ground_force": 1})
    scenario["laws"] = ["crown_of_thalnos"]
    scenario["elected"] = {"crown_of_thalnos": elected}
    return scenario


def test_a_7_hits_for_the_elected_player() -> None:
    """Attacker's ground force (combat 8) rolls 7: a hit with the crown; the defender's 6
    misses."""
    played = run(_scenario("attacker"), [7, 6])
    assert invasion_faces(played) == [[7], [6]]
    assert played.outcome["result"] == "attacker_win"


def test_odds_one_ground_force_each() -> None:
    """The elected attacker hits 4/10, the defender 3/10; a round with no hit repeats
    (0.42): won 0.28/0.58 = 14/29, both destroyed 0.12/0.58 = 6/29, lost 0.18/0.58 = 9/29."""
    report = odds(_scenario("attacker"), fractions=True)
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(14, 29),
        Fraction(6, 29),
        Fraction(9, 29),
    )


def test_the_defender_elected() -> None:
    report = odds(_scenario("defender"), fractions=True)
    assert (report.attacker_win, report.defender_win) == (Fraction(9, 29), Fraction(14, 29))
