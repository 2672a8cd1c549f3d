"""L4 Disruptors (Letnev technology; abilities/l4_disruptors.py): during the owner's invasions,
no SPACE CANNON may be used against its units (ti4-combat-effects.md §3). Hooks
``forbids_unit_ability``: the defender's space cannon defense (ti4-ground-combat.md invasion
step 3) rolls no dice; space cannon offense is not affected (docs/rulings.md
14D1-2)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from spacecombat import odds
from tests.helpers import invasion, rolls, run, space, survivors

# without the faction: the Letnev faction's own abilities are not all implemented yet, and a
# faction technology needs no faction listed
L4 = {"technologies": ["l4_disruptors"]}


def test_no_space_cannon_defense_against_the_invader() -> None:
    # no SCD roll; ground combat: infantry 8 hits (no defending ground forces: none to hit)
    played = run(invasion({"units": "1 carrier, 1 infantry", **L4}, {"units": "1 pds"}), [])
    assert rolls(played, "space_cannon_defense") == []
    assert survivors(played, "attacker", "planet") == {"infantry": 1}


def test_without_it_the_pds_fires() -> None:
    played = run(invasion({"units": "1 carrier, 1 infantry"}, {"units": "1 pds"}), [6])
    assert len(rolls(played, "space_cannon_defense")) == 1
    assert survivors(played, "attacker", "planet") == {}


def test_a_defender_holding_it_is_not_protected() -> None:
    # "during YOUR invasions": the defender's technology does nothing against the attacker
    scenario = invasion({"units": "1 carrier, 1 infantry"}, {"units": "1 pds", **L4})
    played = run(scenario, [6])
    assert len(rolls(played, "space_cannon_defense")) == 1


def test_space_cannon_offense_still_fires() -> None:
    # faces: defender's PDS 1 (miss); combat 7 (attacker's cruiser hits), 1
    played = run(space({"units": "1 cruiser", **L4}, {"units": "1 cruiser, 1 pds"}), [1, 7, 1])
    assert len(rolls(played, "space_cannon_offense")) == 1


def test_exact_odds_hand_derived() -> None:
    """1 infantry (hits on 8, 3/10) lands against 1 defending infantry (3/10) and a PDS.
    With L4 Disruptors the PDS does not fire; the ground duel with p = q = 3/10 is won by the
    attacker with p(1-q) / (1 - (1-p)(1-q)) = (21/100) / (51/100) = 7/17, by each side alike,
    drawn 9/100 / (51/100) = 3/17. (Without it the PDS would first kill the infantry with
    1/2.)"""
    scenario = invasion({"units": "1 carrier, 1 infantry", **L4}, {"units": "1 pds, 1 infantry"})
    found = odds(scenario)
    assert found.attacker_win == pytest.approx(float(Fraction(7, 17)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(3, 17)), abs=1e-12)
