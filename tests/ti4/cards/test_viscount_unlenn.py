"""Viscount Unlenn (Letnev agent; abilities/viscount_unlenn.py): at the start of a space combat
round, exhaust to have 1 ship roll 1 additional combat die this round (ti4-combat-effects.md;
data/cards.toml), through one "play_card" decision naming the ship type, in the "start of
combat round" window (ti4-space-combat.md rule 2.1); once per battle."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import events, invasion, rolls, run, space

VU = {"leaders": ["viscount_unlenn"]}


def battle(attacker: str, defender: str = "1 cruiser", **policy: Any) -> dict[str, Any]:
    side: dict[str, Any] = {"units": attacker, **VU}
    if policy:
        side["policy"] = policy
    return space(side, {"units": defender})


def dice(played: Any) -> list[dict[str, int]]:
    found: list[Any] = rolls(played, "space_combat")
    return [
        {g["unit"]: len(g["faces"]) for g in r["groups"]}
        for r in found
        if r["player"] == "attacker"
    ]


def test_the_best_ship_rolls_one_more_die_in_that_round_only() -> None:
    played = run(battle("1 cruiser, 1 dreadnought"), [1, 1, 1, 1, 5, 1, 1])
    offer = events(played, "choice_made", decision="play_card")[0]
    assert offer["options"] == [
        "play viscount_unlenn: dreadnought",
        "play viscount_unlenn: cruiser",
        "pass",
    ]
    [card] = events(played, "card_played")
    assert card["round"] == 1
    assert dice(played) == [{"dreadnought": 2, "cruiser": 1}, {"dreadnought": 1, "cruiser": 1}]


def test_a_scripted_player_picks_the_ship_or_waits() -> None:
    picked = run(
        battle("1 cruiser, 1 dreadnought"),
        [1, 1, 1, 1, 5, 1, 1],
        attacker=["play viscount_unlenn: cruiser"],
    )
    assert dice(picked)[0] == {"dreadnought": 1, "cruiser": 2}
    waited = run(
        battle("1 cruiser"), [1, 1, 7, 1, 1], attacker=["pass", "play viscount_unlenn: cruiser"]
    )
    assert [e["round"] for e in events(waited, "card_played")] == [2]
    assert dice(waited) == [{"cruiser": 1}, {"cruiser": 2}]


def test_policy_never_keeps_it() -> None:
    played = run(battle("1 cruiser", play={"viscount_unlenn": "never"}), [7, 1])
    assert not events(played, "card_played")


def test_not_in_ground_combat() -> None:
    scenario = invasion(
        {"units": "1 carrier, 1 infantry", **VU},
        {},
        planets=[{"name": "P", "defender": {"infantry": 1}}],
    )
    played = run(scenario, [8, 1])
    assert not events(played, "card_played")


def test_exact_odds_hand_derived() -> None:
    """1 cruiser against 1 cruiser; round 1 the attacker rolls 2 dice on 7 (hits with 16/25),
    the defender 1 (2/5); then a cruiser duel (3/8, 1/4, 3/8).
    attacker = 16/25 * 3/5 + 9/25 * 3/5 * 3/8 = 93/200;
    draw = 16/25 * 2/5 + 27/125 * 1/4 = 31/100; defender = 9/25 * 2/5 + 27/125 * 3/8 = 9/40."""
    found = odds(battle("1 cruiser"))
    assert found.attacker_win == pytest.approx(float(Fraction(93, 200)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(31, 100)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(9, 40)), abs=1e-12)
