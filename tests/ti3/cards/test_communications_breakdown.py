"""Communications Breakdown (TI3 base action card; data/action_cards.toml; docs/rulings.md
27S-29): played immediately before a space battle, no player may play action cards until the
battle ends.

Dice: in an exchange the attacker rolls before the defender."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from spacecombat import odds
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, run
from tests.ti3.effects import space

CARD = "communications_breakdown"


def battle(attacker: dict[str, Any], defender: dict[str, Any]) -> dict[str, Any]:
    return space({"units": {"cruiser": 1}, **attacker}, {"units": {"cruiser": 1}, **defender})


def test_the_opponents_cards_are_not_offered() -> None:
    """The attacker plays it; the defender's Morale Boost is never offered. Round 1: 7 (hit);
    1."""
    played = run(battle({"action_cards": [CARD]}, {"action_cards": ["morale_boost"]}), [7, 1])
    assert [e["card"] for e in events(played, "card_played")] == [CARD]
    assert not events(played, "choice_made", decision="play_card", player="defender")
    assert played.outcome["result"] == "attacker_win"


def test_direct_hit_is_not_offered_after_it() -> None:
    """Round 1: 1; 7: the dreadnought sustains, the defender's Direct Hit is not offered.
    Round 2: 5 (hit); 1."""
    played = run(
        space(
            {"units": {"dreadnought": 1}, "action_cards": [CARD]},
            {"units": {"cruiser": 1}, "action_cards": ["direct_hit"]},
        ),
        [1, 7, 5, 1],
    )
    assert [e["card"] for e in events(played, "card_played")] == [CARD]
    assert played.outcome["result"] == "attacker_win"


def test_the_stock_holder_keeps_it_when_its_own_cards_are_as_many() -> None:
    """27S-23: the holder's Morale Boost against the defender's one: not worth it ("pass"
    first); both Morale Boosts are played at round 1. Round 1: 6 (a hit with +1); 1."""
    played = run(
        battle({"action_cards": [CARD, "morale_boost"]}, {"action_cards": ["morale_boost"]}),
        [6, 1],
    )
    assert [e["card"] for e in events(played, "card_played")] == ["morale_boost"] * 2


def test_exact_odds_the_opponents_morale_boost_stopped() -> None:
    """Hand-derived. The defender's Morale Boost never plays: the plain duel of two cruisers
    (7+: each alone 6/25, both 4/25, neither 9/25): attacker 3/8, draw 1/4, defender 3/8."""
    report = odds(
        battle({"action_cards": [CARD]}, {"action_cards": ["morale_boost"]}), fractions=True
    )
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(3, 8),
        Fraction(1, 4),
        Fraction(3, 8),
    )


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    scenario = space(
        {"units": {"dreadnought": 1, "cruiser": 1}, "action_cards": [CARD, "direct_hit"]},
        {
            "units": {"dreadnought": 1, "cruiser": 2},
            "action_cards": [CARD, "shields_holding", "morale_boost"],
        },
    )
    assert_logs_replay(scenario, seeds=8)
    assert_sampled_as_played(scenario, trials=40)
