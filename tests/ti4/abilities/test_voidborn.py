"""Voidborn (abilities/voidborn.py): the Empyrean player may retreat into a nebula
(ti4-space-combat.md note 4.1; docs/rulings.md R12)."""

from __future__ import annotations

from typing import Any

from spacecombat.rulesets.ti4.abilities.voidborn import Voidborn
from spacecombat.rulesets.ti4.sides import Side
from tests.helpers import events, run, space

A, D = Side.ATTACKER, Side.DEFENDER
OWNED = Voidborn(A)


def retreat_into_nebula(attacker: dict[str, Any]) -> dict[str, Any]:
    return space(
        {"units": "1 cruiser", "policy": {"retreat": {"after_round": 0}}, **attacker},
        {"units": "1 cruiser"},
        system={"adjacent": [{"name": "Mist", "anomaly": "nebula", "units": ["attacker"]}]},
    )


def test_the_empyrean_may_retreat_into_a_nebula() -> None:
    assert OWNED.permits_anomaly(A, "nebula")


def test_the_opponent_may_not_retreat_into_a_nebula() -> None:
    # ti4-space-combat.md note 4: a player cannot retreat into a nebula.
    assert not OWNED.permits_anomaly(D, "nebula")


def test_it_permits_no_other_anomaly() -> None:
    assert not any(OWNED.permits_anomaly(A, a) for a in ("asteroid_field", "supernova"))


def test_the_empyrean_player_retreats_into_a_nebula() -> None:
    played = run(retreat_into_nebula({"faction": "empyrean"}), [1, 1])
    retreat = played.outcome["retreat"]
    assert isinstance(retreat, dict)
    assert retreat["to"] == "Mist"


def test_another_player_cannot_announce_a_retreat_into_a_nebula() -> None:
    played = run(retreat_into_nebula({}), [7, 1])
    assert events(played, "retreat_announced") == []
