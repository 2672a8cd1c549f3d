"""Plasma Scoring (red technology; abilities/plasma_scoring.py): whenever the owner's units fire
SPACE CANNON or BOMBARDMENT, one of the firing units rolls 1 additional die
(ti4-combat-effects.md §2). Hooks ``ability_dice`` (abilities/base.py), applied to the space
cannon offense pool (ti4-space-combat.md "Space Cannon Offense", before the combat) and the
space cannon defense pool (ti4-ground-combat.md invasion step 3) and, through
``space_cannon.ability_dice``, the bombardment pool (invasion step 1). The die goes to the firing
unit likeliest to hit (docs/rulings.md 14D1-1)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, cast

import pytest

from spacecombat import odds
from tests.helpers import invasion, rolls, run, space

PLASMA = {"technologies": ["plasma_scoring"]}


def groups(played: Any, purpose: str) -> list[tuple[str, int, int]]:
    """(unit, dice, hit_on) of each group of the one roll for ``purpose``."""
    [roll] = rolls(played, purpose)
    return [
        (g["unit"], len(g["faces"]), g["hit_on"])
        for g in cast("list[dict[str, Any]]", roll["groups"])
    ]


def test_one_pds_rolls_two_dice_in_space_cannon_offense() -> None:
    # faces: PDS 1, 1 (both miss); combat: cruiser 7 hits, defender's cruiser 1 misses
    played = run(
        space({"units": "1 cruiser, 1 pds", **PLASMA}, {"units": "1 cruiser"}), [1, 1, 7, 1]
    )
    assert groups(played, "space_cannon_offense") == [("pds", 2, 6)]


def test_several_pds_add_one_die_in_all() -> None:
    played = run(
        space({"units": "1 cruiser"}, {"units": "1 cruiser, 2 pds", **PLASMA}), [1, 1, 1, 7, 1]
    )
    [roll] = rolls(played, "space_cannon_offense")
    assert roll["player"] == "defender"
    assert groups(played, "space_cannon_offense") == [("pds", 3, 6)]


def test_the_die_goes_to_the_unit_likeliest_to_hit() -> None:
    # Xxcha flagship: SPACE CANNON 5 (x3); PDS: 6. The flagship rolls 4 dice, the PDS 1.
    defender = {"faction": "xxcha", "units": "1 flagship, 1 pds", **PLASMA}
    played = run(space({"units": "1 cruiser"}, defender), [5, 1, 1, 1, 1])  # hit: no combat
    assert groups(played, "space_cannon_offense") == [("flagship", 4, 5), ("pds", 1, 6)]


def test_it_does_not_help_the_opponent() -> None:
    played = run(space({"units": "1 cruiser", **PLASMA}, {"units": "1 cruiser, 1 pds"}), [1, 7, 1])
    assert groups(played, "space_cannon_offense") == [("pds", 1, 6)]


def test_no_space_cannon_no_roll() -> None:
    played = run(space({"units": "1 cruiser", **PLASMA}, {"units": "1 cruiser"}), [7, 1])
    assert rolls(played, "space_cannon_offense") == []


def test_anti_fighter_barrage_gets_no_extra_die() -> None:
    # destroyer: ANTI-FIGHTER BARRAGE 9 (x2); faces: AFB 1, 1; combat 9 (destroyer), 1
    played = run(
        space({"units": "1 destroyer", **PLASMA}, {"units": "1 fighter, 1 carrier"}),
        [1, 1, 9, 1, 1, 9, 1, 1],
        all_dice=False,
    )
    assert groups(played, "anti_fighter_barrage") == [("destroyer", 2, 9)]


def test_space_cannon_defense_gets_the_extra_die() -> None:
    played = run(invasion({"units": "1 carrier, 1 infantry"}, {"units": "1 pds", **PLASMA}), [1, 1])
    assert groups(played, "space_cannon_defense") == [("pds", 2, 6)]


def test_bombardment_gets_the_extra_die() -> None:
    # dreadnought BOMBARDMENT 5: 2 dice (5 destroys the only defending infantry, 1)
    scenario = invasion(
        {"units": "1 dreadnought, 1 carrier, 1 infantry", **PLASMA}, {"units": "1 infantry"}
    )
    played = run(scenario, [5, 1])
    assert groups(played, "bombardment") == [("dreadnought", 2, 5)]


def test_exact_odds_hand_derived() -> None:
    """1 cruiser against 1 cruiser and a PDS with Plasma Scoring. The PDS rolls 2 dice at 6:
    it misses both with (1/2)^2 = 1/4, and otherwise destroys the attacker's only ship (no
    combat: 3/4). Then a cruiser duel (each hits on 7, 2/5) is won by each side 3/8 and drawn
    1/4. Attacker = defender = 1/4 * 3/8 = 3/32; draw = 1/4 * 1/4 = 1/16. (Without the card
    the PDS misses with 1/2: attacker 3/16.)"""
    found = odds(space({"units": "1 cruiser"}, {"units": "1 cruiser, 1 pds", **PLASMA}))
    assert found.attacker_win == pytest.approx(float(Fraction(3, 32)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(1, 16)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(3, 32)), abs=1e-12)
    assert found.other["no_combat"] == pytest.approx(0.75, abs=1e-12)
    plain = odds(space({"units": "1 cruiser"}, {"units": "1 cruiser, 1 pds"}))
    assert plain.attacker_win == pytest.approx(float(Fraction(3, 16)), abs=1e-12)
