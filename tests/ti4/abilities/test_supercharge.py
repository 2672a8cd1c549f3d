"""Supercharge (Naaz-Rokha technology; abilities/supercharge.py): at the start of a combat
round its owner may exhaust it for +1 to all of their combat rolls that round
(ti4-combat-effects.md; data/technologies.toml), through the "play_card" decision in the "start
of combat round" window (ti4-space-combat.md rule 2.1; ti4-ground-combat.md rule 4.1); it stays
exhausted for the rest of the battle."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import events, invasion, rolls, run, space

SC = {"faction": "naazrokha", "technologies": ["supercharge"]}


def duel() -> dict[str, Any]:
    return space({"units": "1 cruiser", **SC}, {"units": "1 cruiser"})


def hit_on(played: Any, player: str, purpose: str = "space_combat") -> list[int]:
    found: list[Any] = rolls(played, purpose)
    return [r["groups"][0]["hit_on"] for r in found if r["player"] == player]


def test_exhausted_in_round_one_adds_one_that_round_only() -> None:
    played = run(duel(), [5, 1, 6, 1, 7, 1])
    [card] = events(played, "card_played")
    assert (card["player"], card["card"], card["round"]) == ("attacker", "supercharge", 1)
    assert hit_on(played, "attacker") == [6, 7, 7]
    assert hit_on(played, "defender") == [7, 7, 7]


def test_a_scripted_player_may_wait_for_a_later_round_but_uses_it_once() -> None:
    played = run(duel(), [1, 1, 1, 1, 7, 1], attacker=["pass", "play supercharge"])
    assert [e["round"] for e in events(played, "card_played")] == [2]
    assert hit_on(played, "attacker") == [7, 6, 7]
    assert len(events(played, "choice_made", decision="play_card")) == 2


def test_not_without_the_technology() -> None:
    played = run(
        space({"units": "1 cruiser", "faction": "naazrokha"}, {"units": "1 cruiser"}), [7, 1]
    )
    assert not events(played, "card_played")


def test_in_ground_combat_too() -> None:
    scenario = invasion(
        {"units": "1 carrier, 1 infantry", **SC},
        {},
        planets=[{"name": "P", "defender": {"infantry": 1}}],
    )
    played = run(scenario, [7, 1])
    assert [e["round"] for e in events(played, "card_played")] == [1]
    assert hit_on(played, "attacker", "ground_combat") == [7]


def test_exact_odds_hand_derived() -> None:
    """1 cruiser each; the attacker hits on 6 in round 1 (1/2), both on 7 after (2/5), where a
    duel is won 3/8 by each and drawn 1/4: attacker = 1/2*3/5 + 3/10*3/8 = 33/80;
    draw = 1/2*2/5 + 3/10*1/4 = 11/40; defender = 1/2*2/5 + 3/10*3/8 = 5/16."""
    found = odds(duel())
    assert found.attacker_win == pytest.approx(float(Fraction(33, 80)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(11, 40)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(5, 16)), abs=1e-12)
