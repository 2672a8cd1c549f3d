"""Quetzecoatl, the Argent flagship (abilities/argent_flagship_blocks_space_cannon.py): other
players cannot use SPACE CANNON against the owner's ships in its system
(ti4-combat-effects.md §4). Hooks ``forbids_unit_ability``: the opponent's space cannon
offense (ti4-space-combat.md, before the combat) rolls no dice
(docs/rulings.md 14D1-3)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from spacecombat import odds
from tests.helpers import invasion, rolls, run, space

ARGENT = {"faction": "argent"}


def test_the_opponent_cannot_fire_space_cannon_offense() -> None:
    # no SCO roll; combat: flagship 2 dice (9, 1: one hit), cruiser 1 (miss)
    played = run(space({"units": "1 flagship", **ARGENT}, {"units": "1 cruiser, 1 pds"}), [9, 1, 1])
    assert rolls(played, "space_cannon_offense") == []


def test_the_owner_still_fires_its_own() -> None:
    # attacker's PDS 6 hits the defender's only cruiser: no combat
    played = run(
        space({"units": "1 flagship, 1 pds", **ARGENT}, {"units": "1 cruiser, 1 pds"}), [6]
    )
    assert [r["player"] for r in rolls(played, "space_cannon_offense")] == ["attacker"]


def test_as_the_defender_it_blocks_the_attacker() -> None:
    played = run(space({"units": "1 cruiser, 1 pds"}, {"units": "1 flagship", **ARGENT}), [1, 9, 1])
    assert rolls(played, "space_cannon_offense") == []


def test_without_the_flagship_the_pds_fires() -> None:
    played = run(space({"units": "1 cruiser", **ARGENT}, {"units": "1 cruiser, 1 pds"}), [6])
    assert len(rolls(played, "space_cannon_offense")) == 1


def test_space_cannon_defense_is_not_blocked() -> None:
    # it protects ships; space cannon defense fires at ground forces
    scenario = invasion({"units": "1 flagship, 1 infantry", **ARGENT}, {"units": "1 pds"})
    played = run(scenario, [6])
    assert len(rolls(played, "space_cannon_defense")) == 1


def test_exact_odds_hand_derived() -> None:
    """The Argent flagship (2 dice at 7, SUSTAIN DAMAGE) against 1 cruiser and a PDS: the PDS
    cannot fire. Each round the flagship hits with 1 - (3/5)^2 = 16/25, the cruiser with 2/5.
    Damaged flagship: win W0 = (16/25 * 3/5) / (1 - 9/25 * 3/5) = (48/125) / (98/125) = 24/49.
    Undamaged (a cruiser hit is sustained; if the flagship also hit, it wins):
    W1 = (16/25 + 9/25 * 2/5 * W0) / (98/125) = (3920 + 432) / 6125 * 125 / 98 = 2176/2401."""
    found = odds(space({"units": "1 flagship", **ARGENT}, {"units": "1 cruiser, 1 pds"}))
    assert found.attacker_win == pytest.approx(float(Fraction(2176, 2401)), abs=1e-12)
