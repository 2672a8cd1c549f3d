"""Valkyrie Particle Weave (Sardakk technology; abilities/valkyrie_particle_weave.py): after the
combat rolls of a ground-combat round, if your opponent produced 1 or more hits, you produce 1
additional hit (ti4-combat-effects.md §2; data/technologies.toml). It acts in the "after roll
dice" window, before hits are assigned (ti4-ground-combat.md steps 1-2;
procedures/combat_round.py)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import events, invasion, rolls, run

VALKYRIE = {"technologies": ["valkyrie_particle_weave"]}


def scenario(
    attacker: dict[str, Any] | None = None,
    defender: dict[str, Any] | None = None,
    units: str = "1 carrier, 1 infantry",
) -> dict[str, Any]:
    return invasion(
        {"units": units, **(attacker or {})},
        {"units": "1 infantry", **(defender if defender is not None else VALKYRIE)},
    )


def test_a_hit_against_it_is_answered_with_one() -> None:
    played = run(scenario(), [10, 1])  # the attacker hits, the defender misses: a draw
    [produced] = events(played, "hits_produced")
    assert produced == {
        "event": "hits_produced",
        "player": "defender",
        "hits": 1,
        "against": "attacker",
        "by": "valkyrie_particle_weave",
    }
    assert played.outcome["result"] == "draw"


def test_no_hit_against_it_no_extra_hit() -> None:
    played = run(scenario(), [1, 10])
    assert not events(played, "hits_produced")
    assert played.outcome["winner"] == "defender"


def test_the_attacker_may_have_it() -> None:
    played = run(scenario(VALKYRIE, {}, "1 carrier, 2 infantry"), [1, 1, 10])
    [produced] = events(played, "hits_produced")
    assert produced["player"] == "attacker"
    assert played.outcome["winner"] == "attacker"
    assert len(rolls(played, "ground_combat")) == 2


def test_not_in_space_combat() -> None:
    sc = {**scenario(), "battle": "space"}
    sc["attacker"] = {"units": "1 cruiser"}
    sc["defender"] = {"units": "1 cruiser", **VALKYRIE}
    played = run(sc, [7, 1])
    assert not events(played, "hits_produced")


def test_exact_odds_hand_derived() -> None:
    """1 infantry each (8: 3/10). A hit by the attacker always brings one back: a draw (3/10);
    the attacker missing and the defender hitting: lost (21/100); both missing: again (49/100).
    Draw 30/51 = 10/17, defender 21/51 = 7/17, attacker 0."""
    found = odds(scenario())
    assert found.attacker_win == pytest.approx(0.0, abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(10, 17)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(7, 17)), abs=1e-12)
