"""Infiltrate (action card; abilities/infiltrate.py): when you gain control of a planet, its
PDS and space docks are replaced by matching units of yours instead of being destroyed
(ti4-combat-effects.md §6). Offered to the attacker at Establish Control (ti4-ground-combat.md
step 5), only when a planet it takes holds a structure."""

from __future__ import annotations

from typing import Any

from tests.helpers import events, invasion, run, units

CARD = {"action_cards": ["infiltrate"]}


def taking(defender: dict[str, int], **policy: Any) -> dict[str, Any]:
    attacker: dict[str, Any] = {"units": "1 carrier, 2 infantry", **CARD}
    if policy:
        attacker["policy"] = policy
    return invasion(attacker, {}, planets=[{"name": "P", "defender": defender}])


def planet_units(played: Any, side: str) -> dict[str, int]:
    return units(played.outcome[side]["planets"][0])


def test_played_the_structures_become_the_attackers() -> None:
    played = run(taking({"infantry": 1, "pds": 1}), [1, 8, 8, 1])
    [card] = events(played, "card_played")
    assert (card["player"], card["card"]) == ("attacker", "infiltrate")
    assert [e["unit"] for e in events(played, "unit_replaced")] == ["pds"]
    assert planet_units(played, "attacker") == {"infantry": 2, "pds": 1}


def test_not_offered_without_structures() -> None:
    played = run(taking({"infantry": 1}), [8, 8, 1])
    assert not events(played, "choice_made", decision="play_card")


def test_kept_with_policy_never() -> None:
    played = run(taking({"infantry": 1, "pds": 1}, play={"infiltrate": "never"}), [1, 8, 8, 1])
    assert not events(played, "card_played")
    assert [e["unit"] for e in events(played, "unit_destroyed", cause="control established")] == [
        "pds"
    ]


def test_a_scripted_pass() -> None:
    played = run(taking({"infantry": 1, "space_dock": 1}), [8, 8, 1], attacker=["pass"])
    assert not events(played, "unit_replaced")
