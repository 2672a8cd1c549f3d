"""Devotion (Yin faction ability; abilities/devotion.py): after each round of space combat, its
owner may destroy 1 of their cruisers or destroyers to produce 1 hit they assign to an enemy
ship (ti4-combat-effects.md; data/factions.toml), in the "end of combat round" window
(ti4-space-combat.md rule 9.1), through one "play_card" decision naming the ship given and the
ship hit. If it destroys the last enemy ship, the combat ends with its "end of combat" window."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.rulesets.ti4.abilities.base import HANDLERS, Handler
from tests.helpers import events, run, space

HITS = [10] * 40


@pytest.fixture(autouse=True)
def _indoctrination(monkeypatch: pytest.MonkeyPatch) -> None:
    # The Yin's other ability acts only in ground combat; while it is not implemented, a stub
    # lets a Yin scenario be built (no space combat here consults it).
    if "indoctrination" not in HANDLERS:
        monkeypatch.setitem(HANDLERS, "indoctrination", Handler)


def battle(attacker: str, defender: str) -> dict[str, Any]:
    return space({"units": attacker, "faction": "yin"}, {"units": defender})


def test_a_destroyer_is_given_to_hit_the_dearest_enemy_ship() -> None:
    # round 1: AFB, then everybody misses; Devotion: destroyer given, dreadnought hit (sustains)
    played = run(
        battle("1 cruiser, 1 destroyer", "1 dreadnought, 1 carrier"), [1] * 6 + HITS, all_dice=False
    )
    offer: Any = events(played, "choice_made", decision="play_card")[0]
    assert offer["options"][0] == "play devotion: destroy destroyer, hit dreadnought"
    assert offer["options"][-1] == "pass"
    assert offer["choice"] == offer["options"][0]
    [given] = events(played, "unit_destroyed", cause="Devotion")
    assert (given["player"], given["unit"]) == ("attacker", "destroyer")
    [sustained] = events(played, "damage_sustained", cause="Devotion")
    assert (sustained["player"], sustained["unit"]) == ("defender", "dreadnought")


def test_the_last_enemy_ship_destroyed_ends_the_combat() -> None:
    played = run(battle("2 destroyer", "1 cruiser"), [1, 1, 1, 1, 1, 1, 1])
    assert played.outcome["result"] == "attacker_win"
    assert played.outcome["rounds"] == 1
    opened = [e["windows"] for e in events(played, "window_opened")]
    assert opened[-2:] == [["end_of_combat_round"], ["end_of_combat"]]
    assert len(events(played, "unit_destroyed", cause="Devotion")) == 2


def test_a_scripted_player_chooses_or_passes() -> None:
    scenario = battle("1 cruiser, 1 destroyer", "1 dreadnought, 1 carrier")
    chosen = run(
        scenario, [1] * 6 + [1, 10], attacker=["play devotion: destroy cruiser, hit carrier"]
    )
    lost = {(e["player"], e["unit"]) for e in events(chosen, "unit_destroyed", cause="Devotion")}
    assert lost == {("attacker", "cruiser"), ("defender", "carrier")}
    passed = run(
        scenario,
        [1] * 6 + [1, 1, 10, 10],
        attacker=["pass", "destroy destroyer", "destroy cruiser"],
    )
    assert not events(passed, "card_played")
    assert len(events(passed, "choice_made", decision="play_card")) == 1


def test_the_stock_player_keeps_its_last_ship() -> None:
    played = run(battle("1 destroyer", "1 cruiser"), [1, 1, 1, 1, 9, 1])
    offers = events(played, "choice_made", decision="play_card")
    assert [o["choice"] for o in offers] == ["pass"]


def test_not_offered_when_the_combat_ended_or_without_cruisers_and_destroyers() -> None:
    ended = run(battle("1 cruiser", "1 cruiser"), [7, 1])
    assert not events(ended, "choice_made", decision="play_card")
    big = run(battle("1 dreadnought", "1 cruiser"), [1, 1, 5, 1])
    assert not events(big, "choice_made", decision="play_card")


def test_exact_odds_hand_derived() -> None:
    """2 Yin destroyers (1/5 each) against 1 cruiser (2/5). Round 1: the destroyers hit with
    9/25. Hit: the attacker wins (27/125 + 18/125). Both miss (48/125): Devotion gives one
    destroyer to destroy the cruiser: the attacker wins. Only the cruiser hits (32/125): 1
    destroyer left, which the stock player keeps: a duel won 3/13, drawn 2/13, lost 8/13.
    attacker = 93/125 + 32/125 * 3/13 = 261/325; draw = 64/1625; defender = 256/1625."""
    found = odds(battle("2 destroyer", "1 cruiser"))
    assert found.attacker_win == pytest.approx(float(Fraction(261, 325)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(64, 1625)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(256, 1625)), abs=1e-12)
