"""Impulse Core (Yin technology; abilities/impulse_core.py): at the start of a space combat its
owner may destroy 1 of their cruisers or destroyers to produce 1 hit, which the opponent must
assign to a non-fighter ship if able (ti4-combat-effects.md; data/technologies.toml), in the
"start of combat" window (ti4-space-combat.md rule 2.1), through one "play_card" decision
naming the ship destroyed."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import events, run, space

IC = {"technologies": ["impulse_core"]}
HITS = [10] * 40


def battle(attacker: str, defender: str) -> dict[str, Any]:
    return space({"units": attacker, **IC}, {"units": defender})


def test_a_destroyer_is_given_for_a_hit_on_a_non_fighter_ship() -> None:
    played = run(
        battle("1 cruiser, 1 destroyer", "1 carrier, 2 fighter"), [1, 1, 1, *HITS], all_dice=False
    )
    offer = events(played, "choice_made", decision="play_card")[0]
    assert offer["options"] == [
        "play impulse_core: destroy destroyer",
        "play impulse_core: destroy cruiser",
        "pass",
    ]
    [mine, theirs] = events(played, "unit_destroyed", cause="Impulse Core")
    assert (mine["player"], mine["unit"]) == ("attacker", "destroyer")
    assert (theirs["player"], theirs["unit"]) == ("defender", "carrier")
    hit = events(played, "choice_made", decision="assign_hit", player="defender")[0]
    assert hit["options"] == ["destroy carrier"]  # not the fighters


def test_fighters_take_it_when_no_other_ship_is_left() -> None:
    scenario = space(
        {"units": "1 carrier, 1 destroyer", **IC},
        {"units": "2 fighter"},
        options={"check_capacity_before_battle": False},
    )
    played = run(scenario, HITS, all_dice=False)
    theirs = events(played, "unit_destroyed", cause="Impulse Core", player="defender")
    assert [e["unit"] for e in theirs] == ["fighter"]


def test_a_scripted_player_picks_the_cruiser_or_passes() -> None:
    scenario = battle("1 cruiser, 1 destroyer", "1 dreadnought")
    cruiser = run(scenario, HITS, all_dice=False, attacker=["play impulse_core: destroy cruiser"])
    [mine] = events(cruiser, "unit_destroyed", cause="Impulse Core", player="attacker")
    assert mine["unit"] == "cruiser"
    # the dreadnought sustains the hit
    assert events(cruiser, "damage_sustained", cause="Impulse Core")
    passed = run(scenario, [1, 1, 10, 10, 1], attacker=["pass"])
    assert not events(passed, "unit_destroyed", cause="Impulse Core")


def test_the_stock_player_keeps_its_last_ship() -> None:
    played = run(battle("1 destroyer", "1 cruiser"), HITS, all_dice=False)
    [offer] = events(played, "choice_made", decision="play_card")
    assert offer["choice"] == "pass"


def test_not_offered_without_cruisers_or_destroyers() -> None:
    played = run(battle("1 dreadnought", "1 cruiser"), HITS, all_dice=False)
    assert not events(played, "choice_made", decision="play_card")


def test_exact_odds_hand_derived() -> None:
    """1 cruiser and 1 destroyer against 2 cruisers: the destroyer is given for one of the
    cruisers, leaving a cruiser duel (2/5 each): won 3/8 by each, drawn 1/4."""
    found = odds(battle("1 cruiser, 1 destroyer", "2 cruiser"))
    assert found.attacker_win == pytest.approx(float(Fraction(3, 8)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(1, 4)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(3, 8)), abs=1e-12)
