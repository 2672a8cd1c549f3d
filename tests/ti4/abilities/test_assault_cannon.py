"""Assault Cannon (red technology; abilities/assault_cannon.py): at the start of a space combat
in which its owner has 3 or more non-fighter ships, the opponent destroys 1 of their own
non-fighter ships of their choice (ti4-combat-effects.md; data/technologies.toml), in the
"start of combat" window (ti4-space-combat.md rule 2.1), through the opponent's "assign_hit"
decision with "destroy" options only (no SUSTAIN DAMAGE: the ship is destroyed, not hit)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import events, run, space

AC = {"technologies": ["assault_cannon"]}
#: every die hits
HITS = [10] * 40


def battle(attacker: str, defender: str) -> dict[str, Any]:
    return space({"units": attacker, **AC}, {"units": defender})


def test_the_opponent_destroys_a_non_fighter_ship_of_their_choice() -> None:
    scenario = battle("3 destroyer", "1 dreadnought, 1 carrier, 2 fighter")
    # stock: the cheapest first; a scripted defender may give up the dreadnought
    played = run(scenario, HITS, all_dice=False)
    choice = events(played, "choice_made", decision="assign_hit", player="defender")[0]
    assert choice["options"] == ["destroy carrier", "destroy dreadnought"]
    assert choice["choice"] == "destroy carrier"
    [gone] = events(played, "unit_destroyed", cause="Assault Cannon")
    assert (gone["player"], gone["unit"]) == ("defender", "carrier")
    scripted = run(scenario, HITS, all_dice=False, defender=["destroy dreadnought"])
    [gone] = events(scripted, "unit_destroyed", cause="Assault Cannon")
    assert gone["unit"] == "dreadnought"


def test_sustain_damage_cannot_save_the_ship() -> None:
    played = run(battle("3 destroyer", "1 dreadnought"), [])
    [choice] = events(played, "choice_made", decision="assign_hit", player="defender")
    assert choice["options"] == ["destroy dreadnought"]
    assert played.outcome["result"] == "attacker_win"
    assert not events(played, "dice_rolled", purpose="space_combat")


def test_fighters_do_not_count_and_are_not_destroyed() -> None:
    two = run(battle("1 destroyer, 1 carrier, 3 fighter", "1 cruiser"), HITS, all_dice=False)
    assert not events(two, "unit_destroyed", cause="Assault Cannon")
    only_fighters = run(battle("3 destroyer", "1 fighter"), HITS, all_dice=False)
    assert not events(only_fighters, "unit_destroyed", cause="Assault Cannon")


def test_only_at_the_start_of_combat() -> None:
    # round 1 all miss; round 2 starts with 3 destroyers and 2 cruisers: no second use
    played = run(battle("3 destroyer", "3 cruiser"), [1] * 11 + [10] * 20, all_dice=False)
    assert len(events(played, "unit_destroyed", cause="Assault Cannon")) == 1
    assert len(events(played, "round_started")) >= 2


def test_exact_odds_hand_derived() -> None:
    """3 destroyers (1/5 each) against 2 cruisers: one cruiser is destroyed at once, then n
    destroyers fight 1 cruiser (2/5). With a_n = 1 - (4/5)^n the attacker hits, and each round
    either ends, costs a destroyer, or repeats (both miss: (1 - a_n) * 3/5).
    n = 1: win 3/13, draw 2/13, loss 8/13; n = 2: win (9/25 + 32/125 * 3/13) / (77/125) =
    681/1001, draw 64/1001, loss 256/1001; n = 3: a_3 = 61/125,
    win = (61/125 + 128/625 * 681/1001) / (433/625) = 392473/433433, draw 8192/433433,
    loss 32768/433433."""
    found = odds(battle("3 destroyer", "2 cruiser"))
    assert found.attacker_win == pytest.approx(float(Fraction(392473, 433433)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(8192, 433433)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(32768, 433433)), abs=1e-12)
