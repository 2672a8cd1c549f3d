"""Yin flagship (abilities/yin_flagship_destroys_all.py): when it is destroyed, destroy all ships
in its system, both players' (data/units.toml; ti4-combat-effects.md, flagships). It acts when
the flagship is destroyed while hits are assigned (ti4-space-combat.md step 4), by a hit or by
Direct Hit (docs/rulings.md 14A-10)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import events, run, space, survivors


def yin(units: str = "1 flagship", **extra: object) -> dict[str, Any]:
    return {"faction": "yin", "units": units, **extra}


DAMAGED: dict[str, Any] = {"damaged": {"flagship": 1}}


def test_its_destruction_destroys_every_ship() -> None:
    # Flagship 1, 1; cruisers 7, 1: the damaged flagship is destroyed, and both cruisers.
    played = run(space(yin(**DAMAGED), {"units": "2 cruiser"}), [1, 1, 7, 1])
    lost = events(played, "unit_destroyed", player="defender")
    assert [(e["unit"], e["cause"]) for e in lost] == [("cruiser", "yin flagship")] * 2
    assert survivors(played, "defender") == {}
    assert played.outcome["result"] == "draw"


def test_its_own_side_too_and_fighters() -> None:
    # The Yin defends with a carrier and fighters; the attacker's cruiser 7 hits; the Yin rolls
    # 1, 1, 1, 1 and gives its damaged flagship: everything in the space area is destroyed.
    scenario = space({"units": "1 cruiser"}, yin("1 flagship, 1 carrier, 2 fighter", **DAMAGED))
    played = run(scenario, [7, 1, 1, 1, 1, 1], defender=["destroy flagship (damaged)"])
    by_yin = [str(e["unit"]) for e in events(played, "unit_destroyed", cause="yin flagship")]
    assert sorted(by_yin) == ["carrier", "cruiser", "fighter", "fighter"]
    assert survivors(played, "attacker") == {}
    assert survivors(played, "defender") == {}


def test_not_when_another_ship_is_destroyed() -> None:
    # Flagship 1, 1, carrier 1; cruiser 7: the Yin gives its carrier. Round 2: 9, 1; 1.
    played = run(
        space(yin("1 flagship, 1 carrier"), {"units": "1 cruiser"}),
        [1, 1, 1, 7, 9, 1, 1],
        attacker=["destroy carrier"],
    )
    assert not events(played, "unit_destroyed", cause="yin flagship")


def test_destroyed_by_direct_hit() -> None:
    # Flagship 1, 1; cruiser 7: the flagship sustains, Direct Hit destroys it, and the cruiser
    # goes with it.
    scenario = space(yin(), {"units": "1 cruiser", "action_cards": ["direct_hit"]})
    played = run(scenario, [1, 1, 7])
    assert [e["cause"] for e in events(played, "unit_destroyed")] == ["direct hit", "yin flagship"]
    assert played.outcome["result"] == "draw"


def test_exact_odds_hand_derived() -> None:
    """Yin flagship (2 dice at 9: a = 9/25; two lives) against a cruiser (d = 2/5); when the
    flagship dies the cruiser dies too. Damaged: win = (9/25)(3/5) / (77/125) = 27/77 (both
    miss: (16/25)(3/5) = 48/125), any cruiser hit a draw: 50/77. Undamaged: win =
    (9/25 + (16/25)(2/5) * 27/77) / (77/125) = 4329/5929; draw = (32/125 * 50/77) / (77/125) =
    1600/5929; the cruiser never wins."""
    found = odds(space(yin(), {"units": "1 cruiser"}))
    assert found.attacker_win == pytest.approx(float(Fraction(4329, 5929)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(1600, 5929)), abs=1e-12)
    assert found.defender_win == pytest.approx(0.0, abs=1e-12)
