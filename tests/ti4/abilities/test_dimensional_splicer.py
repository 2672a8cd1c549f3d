"""Dimensional Splicer (Creuss technology; abilities/dimensional_splicer.py): at the start of a
space combat in a system with a wormhole, its owner may produce 1 hit on an enemy ship of their
choice (ti4-combat-effects.md; data/technologies.toml), in the "start of combat" window
(ti4-space-combat.md rule 2.1), through one "play_card" decision naming the ship; its owner
may cancel the hit with that ship's SUSTAIN DAMAGE (docs/rulings.md 14B-1)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import events, run, space

DS = {"faction": "creuss", "technologies": ["dimensional_splicer"]}
WORMHOLE = {"wormholes": ["alpha"]}
HITS = [10] * 40


def battle(defender: str, system: dict[str, Any] | None = WORMHOLE) -> dict[str, Any]:
    extra = {"system": system} if system else {}
    return space({"units": "1 cruiser", **DS}, {"units": defender}, **extra)


def test_the_stock_player_hits_the_dearest_ship_which_may_sustain() -> None:
    played = run(battle("1 dreadnought, 1 destroyer"), [1, 1, 1, *HITS], all_dice=False)
    offer = events(played, "choice_made", decision="play_card")[0]
    assert offer["options"] == [
        "play dimensional_splicer: hit dreadnought",
        "play dimensional_splicer: hit destroyer",
        "pass",
    ]
    assert offer["choice"] == "play dimensional_splicer: hit dreadnought"
    [sustained] = events(played, "damage_sustained", cause="Dimensional Splicer")
    assert (sustained["player"], sustained["unit"]) == ("defender", "dreadnought")


def test_a_scripted_player_chooses_the_ship_and_only_it_can_take_the_hit() -> None:
    played = run(
        battle("1 dreadnought, 1 destroyer"),
        [1, 1, 1, *HITS],
        all_dice=False,
        attacker=["play dimensional_splicer: hit destroyer"],
    )
    hit = events(played, "choice_made", decision="assign_hit", player="defender")[0]
    assert hit["options"] == ["destroy destroyer"]
    [gone] = events(played, "unit_destroyed", cause="Dimensional Splicer")
    assert gone["unit"] == "destroyer"


def test_a_scripted_pass_produces_nothing() -> None:
    played = run(battle("1 cruiser"), [7, 1], attacker=["pass"])
    assert not events(played, "card_played")
    assert played.outcome["result"] == "attacker_win"


def test_not_offered_without_a_wormhole() -> None:
    played = run(battle("1 cruiser", system=None), [7, 1])
    assert not events(played, "choice_made", decision="play_card")


def test_a_lone_enemy_ship_destroyed_ends_the_combat_before_it_starts() -> None:
    played = run(battle("1 cruiser"), [])
    assert played.outcome["result"] == "attacker_win"
    assert not events(played, "dice_rolled")


def test_exact_odds_hand_derived() -> None:
    """1 cruiser against 2 cruisers in a wormhole system: the splicer destroys one at once,
    leaving a cruiser duel (2/5 each round each): won by each 3/8, drawn 1/4
    (win = (2/5 * 3/5) / (1 - 9/25), draw = (4/25) / (16/25))."""
    found = odds(battle("2 cruiser"))
    assert found.attacker_win == pytest.approx(float(Fraction(3, 8)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(1, 4)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(3, 8)), abs=1e-12)
