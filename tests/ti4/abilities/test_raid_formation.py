"""Raid Formation (Argent faction ability; abilities/raid_formation.py): when the Argent units
use ANTI-FIGHTER BARRAGE, each hit beyond the opponent's fighters damages one of its ships
with SUSTAIN DAMAGE, the Argent player choosing which (ti4-combat-effects.md §4). Hooks
``before_assign_hits`` (cause "anti-fighter barrage", ti4-space-combat.md step 1), before the
opponent destroys fighters; a "play_card" decision without "pass"; event ``unit_damaged``
(docs/rulings.md 14D1-7)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from spacecombat import odds
from tests.helpers import events, run, space, survivors

ARGENT = {"faction": "argent"}


def test_hits_beyond_the_fighters_damage_a_sustaining_ship() -> None:
    # AFB (2 Strike Wing Alpha I, 9 x2): 9, 9, 9, 1 = 3 hits on 1 fighter: 1 destroys the
    # fighter, 1 damages the dreadnought, 1 is lost (no other ship can be damaged).
    # Combat: destroyers 9, 1 (one hit destroys the damaged dreadnought); dreadnought 1.
    played = run(
        space({"units": "2 destroyer", **ARGENT}, {"units": "1 dreadnought, 1 fighter"}),
        [9, 9, 9, 1, 9, 1, 1],
    )
    [damaged] = events(played, "unit_damaged")
    assert (damaged["player"], damaged["unit"], damaged["by"]) == (
        "defender",
        "dreadnought",
        "Raid Formation",
    )
    assert events(played, "unit_destroyed", unit="fighter", cause="anti-fighter barrage")
    [lost] = events(played, "hits_lost")
    assert lost["hits"] == 1
    assert events(played, "unit_destroyed", unit="dreadnought", status="damaged")


def test_no_hits_beyond_the_fighters_nothing_is_damaged() -> None:
    # AFB 9, 1 on 1 fighter: the fighter dies; combat 8 (hit) / dreadnought 1 ... the hit
    # is sustained; then 8 (hit) destroys it, dreadnought 1
    played = run(
        space({"units": "1 destroyer", **ARGENT}, {"units": "1 dreadnought, 1 fighter"}),
        [9, 1, 8, 1, 8, 1],
    )
    assert not events(played, "unit_damaged")
    assert not events(played, "choice_made", decision="play_card")


def test_a_damaged_ship_cannot_be_damaged_again() -> None:
    # the dreadnought starts damaged: the 2 hits beyond the fighters (none) are lost
    scenario = space(
        {"units": "1 destroyer", **ARGENT},
        {"units": "1 dreadnought", "damaged": {"dreadnought": 1}},
    )
    played = run(scenario, [9, 9, 8, 1])
    assert not events(played, "unit_damaged")
    assert survivors(played, "attacker") == {"destroyer": 1}


def test_ships_without_sustain_damage_are_not_damaged() -> None:
    played = run(space({"units": "1 destroyer", **ARGENT}, {"units": "1 carrier"}), [9, 9, 8, 1])
    assert not events(played, "choice_made", decision="play_card")


def test_the_argent_player_chooses_which_ships() -> None:
    # 2 hits beyond 0 fighters against 2 dreadnoughts and a war sun; the scripted choice
    # damages both dreadnoughts. Combat: destroyer 1; war sun 10 x3, dreadnoughts 10, 10.
    scenario = space(
        {"units": "1 destroyer", **ARGENT},
        {"units": "2 dreadnought, 1 war_sun"},
    )
    played = run(
        scenario,
        [9, 9, 1, 10, 10, 10, 10, 10],
        attacker=["play raid_formation: damage dreadnought, dreadnought"],
    )
    [asked] = events(played, "choice_made", decision="play_card")
    assert asked["options"] == [  # the costliest first, no "pass"
        "play raid_formation: damage dreadnought, war_sun",
        "play raid_formation: damage dreadnought, dreadnought",
    ]
    assert [e["unit"] for e in events(played, "unit_damaged")] == ["dreadnought", "dreadnought"]


def test_the_stock_player_damages_the_costliest_ships() -> None:
    # 1 hit beyond 0 fighters: the war sun (cost 12) rather than a dreadnought (4). Combat:
    # destroyer 1; war sun 10 x3, dreadnoughts 10, 10
    scenario = space({"units": "1 destroyer", **ARGENT}, {"units": "2 dreadnought, 1 war_sun"})
    played = run(scenario, [9, 1, 1, 10, 10, 10, 10, 10])
    assert [e["unit"] for e in events(played, "unit_damaged")] == ["war_sun"]


def test_only_the_argent_barrage_does_it() -> None:
    # the defender is Argent; the attacker's plain destroyer (AFB 9 x2) hits twice, no fighters
    scenario = space({"units": "1 destroyer"}, {"units": "1 dreadnought", **ARGENT})
    played = run(scenario, [9, 9, 1, 5])  # combat: destroyer 1, dreadnought 5 (hit)
    assert not events(played, "unit_damaged")


def test_exact_odds_hand_derived() -> None:
    """1 Strike Wing Alpha I (combat 8: 3/10; AFB 9 x2) against 1 dreadnought (5: 3/5; no
    fighters). The barrage hits at least once with 1 - (4/5)^2 = 9/25: the dreadnought starts
    the combat damaged. Each round the destroyer hits 3/10, the dreadnought 3/5.
    Damaged dreadnought: win 3/10 * 2/5 / (1 - 7/10 * 2/5) = (6/50) / (36/50) = 1/6, draw
    (9/50) / (36/50) = 1/4. Undamaged: the first destroyer hit is sustained, so the attacker
    needs a round with its hit and no dreadnought hit before the damaged case:
    win (6/50 * 1/6) / (36/50) = 1/36, draw (6/50 * 1/4) / (36/50) = 1/24.
    Attacker = 9/25 * 1/6 + 16/25 * 1/36 = 7/90; draw = 9/25 * 1/4 + 16/25 * 1/24 = 7/60."""
    found = odds(space({"units": "1 destroyer", **ARGENT}, {"units": "1 dreadnought"}))
    assert found.attacker_win == pytest.approx(float(Fraction(7, 90)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(7, 60)), abs=1e-12)
