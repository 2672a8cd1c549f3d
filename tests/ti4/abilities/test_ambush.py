"""Ambush (Mentak faction ability; abilities/ambush.py): at the start of a space combat, roll 1
die for each of up to 2 of your cruisers or destroyers; each die reaching that ship's combat
value is a hit the opponent assigns to their ships (ti4-combat-effects.md; data/factions.toml).
Rolled in the "start of combat" window (ti4-space-combat.md rule 2.1), purpose "ambush"."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import events, rolls, run, space

MENTAK = {"faction": "mentak"}
HITS = [10] * 40


def battle(attacker: str, defender: str, side: str = "attacker") -> dict[str, Any]:
    a: dict[str, Any] = {"units": attacker}
    d: dict[str, Any] = {"units": defender}
    (a if side == "attacker" else d).update(MENTAK)
    return space(a, d)


def test_the_two_best_ships_roll_and_hits_are_assigned_by_the_opponent() -> None:
    played = run(
        battle("1 cruiser, 2 destroyer", "1 dreadnought, 1 carrier"), [7, 9, *HITS], all_dice=False
    )
    ambush: Any
    [ambush] = rolls(played, "ambush")
    assert ambush["player"] == "attacker"
    assert [(g["unit"], g["hit_on"], g["faces"]) for g in ambush["groups"]] == [
        ("cruiser", 7, [7]),
        ("destroyer", 9, [9]),
    ]
    assert ambush["hits"] == 2
    taken: list[Any] = events(played, "choice_made", decision="assign_hit", player="defender")[:2]
    assert all(c["options"][0] in ("destroy carrier", "sustain dreadnought") for c in taken)
    assert (
        len(events(played, "unit_destroyed", cause="Ambush"))
        + len(events(played, "damage_sustained", cause="Ambush"))
        == 2
    )


def test_abilities_forbidding_sustain_damage_apply_to_its_hits() -> None:
    # the Mentak flagship: the opponent's ships cannot use SUSTAIN DAMAGE (14B-1)
    scenario = battle("1 flagship, 1 cruiser", "1 dreadnought, 1 carrier")
    played = run(scenario, [7, 1, 1, 1, 1, *HITS], all_dice=False)
    taken = events(played, "choice_made", decision="assign_hit", player="defender")[0]
    assert taken["options"] == ["destroy carrier", "destroy dreadnought"]


def test_misses_change_nothing() -> None:
    played = run(battle("2 cruiser", "1 cruiser"), [6, 6, 1, 1, 7, 7, 1], all_dice=False)
    assert rolls(played, "ambush")[0]["hits"] == 0
    assert not events(played, "unit_destroyed", cause="Ambush")
    assert played.outcome["result"] == "attacker_win"


def test_the_defender_ambushes_too() -> None:
    played = run(battle("1 cruiser", "1 destroyer", side="defender"), [9])
    [ambush] = rolls(played, "ambush")
    assert ambush["player"] == "defender"
    assert played.outcome["result"] == "defender_win"
    assert not rolls(played, "space_combat")


def test_no_roll_without_cruisers_or_destroyers() -> None:
    played = run(battle("1 dreadnought", "1 cruiser"), [5, 1])
    assert not rolls(played, "ambush")


def test_only_at_the_start_of_combat() -> None:
    played = run(battle("1 cruiser", "1 cruiser"), [1, 1, 1, 7, 1])
    assert len(rolls(played, "ambush")) == 1


def test_exact_odds_hand_derived() -> None:
    """Mentak cruiser against a cruiser: the ambush die hits on 7 (2/5) and wins at once;
    otherwise a cruiser duel (won 3/8 by each, drawn 1/4):
    attacker = 2/5 + 3/5 * 3/8 = 5/8; draw = 3/5 * 1/4 = 3/20; defender = 3/5 * 3/8 = 9/40."""
    found = odds(battle("1 cruiser", "1 cruiser"))
    assert found.attacker_win == pytest.approx(float(Fraction(5, 8)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(3, 20)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(9, 40)), abs=1e-12)


def test_its_hits_are_answered_like_other_hits() -> None:
    # Ambush 7, 7 on two dreadnoughts: each sustains one, in one assignment of hits; the
    # handlers acting after SUSTAIN DAMAGE hear both, Rear Admiral Farran gives 1 trade good
    # (once per assignment: docs/rulings.md 14A-5, 14H-6). Round 1: 1, 1; 1, 1. Round 2: 1, 1;
    # 10, 10.
    defender = {"units": "2 dreadnought", "leaders": ["rear_admiral_farran"]}
    played = run(
        space({"units": "2 cruiser", **MENTAK}, defender),
        [7, 7, 1, 1, 1, 1, 1, 1, 10, 10],
        defender=["sustain dreadnought", "sustain dreadnought"],
    )
    assert len(events(played, "damage_sustained", cause="Ambush")) == 2
    [gained] = events(played, "trade_goods_gained")
    assert (gained["player"], gained["trade_goods"]) == ("defender", 1)
