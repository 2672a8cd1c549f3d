"""The Thundarian (Nomad agent; abilities/the_thundarian.py): after the Roll Dice step of a
combat round, exhaust it to discard that step's hits and repeat the step (ti4-combat-effects.md;
data/cards.toml), in the "after roll dice" window opened after both combat rolls
(ti4-space-combat.md step 3; procedures/combat_round.py), through the "play_card" decision;
the stock policy uses it only when more hits were produced against its holder."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import events, invasion, rolls, run, space

TH = {"leaders": ["the_thundarian"]}
REROLL = "play the_thundarian: reroll"


def duel() -> dict[str, Any]:
    return space({"units": "1 cruiser", **TH}, {"units": "1 cruiser"})


def test_a_losing_roll_is_discarded_and_both_players_roll_again() -> None:
    played = run(duel(), [1, 7, 7, 1])
    [card] = events(played, "card_played")
    assert (card["card"], card["round"]) == ("the_thundarian", 1)
    assert [r["hits"] for r in rolls(played, "space_combat")] == [0, 1, 1, 0]
    assert not events(played, "unit_destroyed", player="attacker")
    assert played.outcome["result"] == "attacker_win"
    assert len(events(played, "window_opened", windows=["after_roll_dice"])) == 2


def test_used_once_per_battle() -> None:
    played = run(duel(), [1, 7, 1, 7])
    assert len(events(played, "card_played")) == 1
    assert played.outcome["result"] == "defender_win"


def test_the_stock_player_keeps_it_when_not_behind_and_a_scripted_one_may_use_it() -> None:
    even = run(duel(), [7, 7])
    [offer] = events(even, "choice_made", decision="play_card")
    assert offer["options"] == ["pass", REROLL]
    assert offer["choice"] == "pass"
    assert even.outcome["result"] == "draw"
    scripted = run(duel(), [7, 7, 7, 1], attacker=[REROLL])
    assert scripted.outcome["result"] == "attacker_win"


def test_not_offered_when_no_hit_was_produced() -> None:
    played = run(duel(), [1, 1, 7, 1])
    assert len(events(played, "choice_made", decision="play_card")) == 1


def test_in_ground_combat_too() -> None:
    scenario = invasion(
        {"units": "1 carrier, 1 infantry", **TH},
        {},
        planets=[{"name": "P", "defender": {"infantry": 1}}],
    )
    played = run(scenario, [1, 8, 8, 1])
    assert [e["round"] for e in events(played, "card_played")] == [1]
    assert [r["hits"] for r in rolls(played, "ground_combat")] == [0, 1, 1, 0]


def test_exact_odds_hand_derived() -> None:
    """Cruiser duel (2/5 each). While held, a round the attacker loses outright (6/25) is
    rolled again as a plain duel (won 3/8, drawn 1/4, lost 3/8); a round with no hit (9/25)
    repeats with the card still held: attacker = (6/25 + 6/25 * 3/8) / (16/25) = 33/64;
    draw = (4/25 + 6/25 * 1/4) / (16/25) = 11/32; defender = (6/25 * 3/8) / (16/25) = 9/64."""
    found = odds(duel())
    assert found.attacker_win == pytest.approx(float(Fraction(33, 64)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(11, 32)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(9, 64)), abs=1e-12)
