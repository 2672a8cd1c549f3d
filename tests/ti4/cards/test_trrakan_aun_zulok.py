"""Trrakan Aun Zulok (Argent commander; abilities/trrakan_aun_zulok.py): when the holder's units
make a roll for a unit ability, one of them rolls 1 additional die (ti4-combat-effects.md §5).
Hooks ``ability_dice``: space cannon offense (ti4-space-combat.md, before combat),
anti-fighter barrage (step 1), space cannon defense (ti4-ground-combat.md invasion step 3),
bombardment (invasion step 1), each roll, as a commander is never exhausted
(docs/rulings.md 14D1-5)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, cast

import pytest

from spacecombat import odds
from tests.helpers import invasion, rolls, run, space

TAZ = {"leaders": ["trrakan_aun_zulok"]}


def dice(played: Any, purpose: str, player: str) -> list[tuple[str, int]]:
    [roll] = [r for r in rolls(played, purpose) if r["player"] == player]
    return [(g["unit"], len(g["faces"])) for g in cast("list[dict[str, Any]]", roll["groups"])]


def test_space_cannon_offense_gets_a_die() -> None:
    # faces: PDS 1, 1; combat 7 (hit), 1
    played = run(space({"units": "1 cruiser, 1 pds", **TAZ}, {"units": "1 cruiser"}), [1, 1, 7, 1])
    assert dice(played, "space_cannon_offense", "attacker") == [("pds", 2)]


def test_anti_fighter_barrage_gets_a_die() -> None:
    # destroyer: AFB 9 (x2) + 1 = 3 dice, all miss; combat: destroyer 9 hits the fighter,
    # carrier and fighter miss; round 2: 9 hits the carrier, carrier misses
    played = run(
        space({"units": "1 destroyer", **TAZ}, {"units": "1 carrier, 1 fighter"}),
        [1, 1, 1, 9, 1, 1, 9, 1],
    )
    assert dice(played, "anti_fighter_barrage", "attacker") == [("destroyer", 3)]


def test_space_cannon_defense_gets_a_die() -> None:
    played = run(invasion({"units": "1 carrier, 1 infantry"}, {"units": "1 pds", **TAZ}), [1, 1])
    assert dice(played, "space_cannon_defense", "defender") == [("pds", 2)]


def test_bombardment_gets_a_die() -> None:
    # dreadnought BOMBARDMENT 5: 2 dice (5 hits the only defending infantry, 1); no combat
    scenario = invasion(
        {"units": "1 dreadnought, 1 carrier, 1 infantry", **TAZ}, {"units": "1 infantry"}
    )
    played = run(scenario, [5, 1])
    assert dice(played, "bombardment", "attacker") == [("dreadnought", 2)]


def test_combat_rolls_are_not_unit_ability_rolls() -> None:
    played = run(space({"units": "1 cruiser", **TAZ}, {"units": "1 cruiser"}), [7, 1])
    assert dice(played, "space_combat", "attacker") == [("cruiser", 1)]


def test_the_opponent_gets_nothing() -> None:
    played = run(space({"units": "1 cruiser", **TAZ}, {"units": "1 cruiser, 1 pds"}), [1, 7, 1])
    assert dice(played, "space_cannon_offense", "defender") == [("pds", 1)]


def test_exact_odds_hand_derived() -> None:
    """1 cruiser and a PDS (with the commander) against 1 cruiser. The PDS rolls 2 dice at 6
    and destroys the defender's cruiser with 1 - 1/4 = 3/4 (no combat); otherwise a 2/5 duel:
    attacker = defender = 1/4 * 3/8 = 3/32, draw = 1/4 * 1/4 = 1/16."""
    found = odds(space({"units": "1 cruiser, 1 pds", **TAZ}, {"units": "1 cruiser"}))
    assert found.attacker_win == pytest.approx(float(Fraction(3, 32)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(1, 16)), abs=1e-12)
    assert found.other["no_combat"] == pytest.approx(0.75, abs=1e-12)
