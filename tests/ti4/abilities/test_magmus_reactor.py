"""Magmus Reactor (abilities/magmus_reactor.py): the owner's ships may move, and so retreat, into
a supernova (ti4-space-combat.md note 3; docs/rulings.md R12)."""

from __future__ import annotations

from typing import Any

from spacecombat.rulesets.ti4.abilities.magmus_reactor import MagmusReactor
from spacecombat.rulesets.ti4.sides import Side
from tests.helpers import events, run, space

A, D = Side.ATTACKER, Side.DEFENDER
OWNED = MagmusReactor(A)


def retreat_into_supernova(attacker: dict[str, Any]) -> dict[str, Any]:
    return space(
        {"units": "1 cruiser", "policy": {"retreat": {"after_round": 0}}, **attacker},
        {"units": "1 cruiser"},
        system={"adjacent": [{"name": "Nova", "anomaly": "supernova", "units": ["attacker"]}]},
    )


def test_the_owner_may_retreat_into_a_supernova() -> None:
    assert OWNED.permits_anomaly(A, "supernova")


def test_the_opponent_may_not_retreat_into_a_supernova() -> None:
    assert not OWNED.permits_anomaly(D, "supernova")


def test_it_permits_no_other_anomaly() -> None:
    assert not any(OWNED.permits_anomaly(A, a) for a in ("asteroid_field", "nebula"))


def test_with_it_the_owner_retreats_into_a_supernova() -> None:
    played = run(retreat_into_supernova({"technologies": ["magmus_reactor"]}), [1, 1])
    retreat = played.outcome["retreat"]
    assert isinstance(retreat, dict)
    assert retreat["to"] == "Nova"


def test_the_muaat_player_with_it_retreats_into_a_supernova() -> None:
    # A faction technology of the Embers of Muaat (technologies.toml).
    played = run(
        retreat_into_supernova({"faction": "muaat", "technologies": ["magmus_reactor"]}), [1, 1]
    )
    assert events(played, "retreated", to="Nova") != []


def test_without_it_no_retreat_into_a_supernova_is_announced() -> None:
    # docs/rulings.md R12: Gashlai Physiology (Muaat without the technology) is not enough.
    played = run(retreat_into_supernova({"faction": "muaat"}), [7, 1])
    assert events(played, "retreat_announced") == []
