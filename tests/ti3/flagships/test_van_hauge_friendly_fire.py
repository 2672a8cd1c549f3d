"""Friendly Fire ("If your opponent has more fighters than non-Fighter ships in this system, he
must immediately lose half of his Fighters here (rounded down). Play: Immediately before a
Space Battle", 27S-19) against the Yin: it is played in the opening window, before Van Hauge's
choice (27S-43), so its ground forces are not fighters yet: the card neither counts them nor
takes them (docs/rulings.md 27T-13).

Dice: the pool rolls the flagship's 5s, then the 9s (carrier, fighters, ground forces); the
attacker before the defender."""

from __future__ import annotations

from typing import Any

from spacecombat import odds
from tests.helpers import events, run
from tests.ti3.effects import space


def battle(units: dict[str, int], cards: list[str]) -> dict[str, Any]:
    return space(
        {"units": {"flagship": 1, "carrier": 1, **units}, "faction": "yin"},
        {"units": {"cruiser": 1}, "action_cards": cards},
    )


def test_the_ground_forces_are_not_counted() -> None:
    """One fighter against two non-fighter ships (flagship, carrier): not offered, though with
    the four ground forces the fighters would outnumber them. Round 1: flagship 5 (a hit), 1,
    carrier 1, fighter 1, ground forces 1 x4; cruiser 1."""
    played = run(battle({"fighter": 1, "ground_force": 4}, ["friendly_fire"]), [5, 1] + [1] * 7)
    assert [e["card"] for e in events(played, "card_played")] == ["yin_flagship"]
    assert played.outcome["result"] == "attacker_win"


def test_it_takes_fighters_only() -> None:
    """Three fighters against two non-fighter ships: one fighter lost, the two ground forces
    stay and then fight as fighters. Round 1: flagship 5 (a hit), 1, carrier 1, fighters 1, 1,
    ground forces 1, 1; cruiser 1."""
    played = run(battle({"fighter": 3, "ground_force": 2}, ["friendly_fire"]), [5, 1] + [1] * 6)
    assert [e["card"] for e in events(played, "card_played")] == ["friendly_fire", "yin_flagship"]
    lost = [e["unit"] for e in events(played, "unit_destroyed", cause="Friendly Fire")]
    assert lost == ["fighter"]
    assert played.outcome["result"] == "attacker_win"


def test_exact_odds_unplayable_equal_those_without_the_card() -> None:
    """Hand-derived: never played (one fighter against two non-fighter ships), the card leaves
    the battle as it is without it."""
    units = {"fighter": 1, "ground_force": 4}
    held = odds(battle(units, ["friendly_fire"]), fractions=True)
    plain = odds(battle(units, []), fractions=True)
    assert (held.attacker_win, held.draw, held.defender_win) == (
        plain.attacker_win,
        plain.draw,
        plain.defender_win,
    )
