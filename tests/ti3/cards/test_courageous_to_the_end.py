"""Courageous to the End (TI3 base action card; data/action_cards.toml; docs/rulings.md
27S-31): immediately after one of the holder's ships is destroyed, it rolls 2 dice at that
ship's combat value; for each success the opponent takes a casualty at once.

Dice: in an exchange the attacker rolls before the defender; the card's 2 dice when played."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from spacecombat import odds
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, rolls, run
from tests.ti3.effects import space

CARD = {"action_cards": ["courageous_to_the_end"]}


def duel(attacker: dict[str, Any] | None = None) -> dict[str, Any]:
    """Two cruisers (7+: 2/5), the attacker's holding the card."""
    return space({"units": {"cruiser": 1}, **CARD, **(attacker or {})}, {"units": {"cruiser": 1}})


def test_the_lost_cruiser_takes_the_enemy_with_it() -> None:
    """Round 1: 1; 7: the attacker's cruiser destroyed; the card: 7, 1 (one success): the
    defender's cruiser destroyed at once. Nobody is left: a draw."""
    played = run(duel(), [1, 7, 7, 1])
    assert [r["purpose"] for r in rolls(played)][-1] == "courageous_to_the_end"
    lost = events(played, "unit_destroyed", cause="Courageous to the End")
    assert [(e["player"], e["unit"]) for e in lost] == [("defender", "cruiser")]
    assert played.outcome["result"] == "draw"


def test_the_opponent_takes_the_hits_at_once_its_own_kept() -> None:
    """Two defender cruisers. Round 1: 7 (hit); 7, 1: the attacker removes first: its cruiser
    destroyed; the card: 7, 7: both defender cruisers take the card's hits at once (the one
    hit of the attacker's roll is then lost). A draw."""
    played = run(
        space({"units": {"cruiser": 1}, **CARD}, {"units": {"cruiser": 2}}), [7, 7, 1, 7, 7]
    )
    lost = events(played, "unit_destroyed", cause="Courageous to the End")
    assert [e["unit"] for e in lost] == ["cruiser", "cruiser"]
    assert played.outcome["result"] == "draw"


def test_misses_change_nothing() -> None:
    """Round 1: 1; 7; the card: 1, 6 (misses): the defender wins."""
    played = run(duel(), [1, 7, 1, 6])
    assert played.outcome["result"] == "defender_win"


def test_policy_never_keeps_the_card() -> None:
    """Round 1: 1; 7."""
    played = run(duel({"policy": {"play": {"courageous_to_the_end": "never"}}}), [1, 7])
    assert not events(played, "card_played")
    assert played.outcome["result"] == "defender_win"


def test_exact_odds_a_cruiser_against_a_cruiser() -> None:
    """Hand-derived. Each round: the attacker alone hits 6/25 (it wins); the defender alone
    6/25: the card's 2 dice at 7 (2/5 each) destroy the defender's cruiser unless both miss
    (1 - 9/25 = 16/25: a draw; else 9/25 the defender wins); both hit 4/25: a draw (the card
    or the attacker's own hit destroys the cruiser); neither 9/25, again. Attacker (6/25) /
    (16/25) = 3/8; draw (6/25 * 16/25 + 4/25) / (16/25) = 49/100; defender (6/25 * 9/25) /
    (16/25) = 27/200."""
    report = odds(duel(), fractions=True)
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(3, 8),
        Fraction(49, 100),
        Fraction(27, 200),
    )


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    scenario = space(
        {"units": {"dreadnought": 1, "cruiser": 2, "carrier": 1, "fighter": 2}, **CARD},
        {
            "units": {"dreadnought": 1, "cruiser": 2, "destroyer": 1, "pds": 1},
            "action_cards": ["courageous_to_the_end", "direct_hit"],
        },
    )
    assert_logs_replay(scenario, seeds=8)
    assert_sampled_as_played(scenario, trials=40)
