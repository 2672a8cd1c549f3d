"""Morale Boost (TI3 action card; data/action_cards.toml; docs/rulings.md 27S-3): played at
the start of a combat round, +1 on all the holder's combat rolls in that round, in a space
battle or an invasion combat (PC_Twi e_a_MoraleBoost).

Dice: in an exchange the attacker rolls before the defender."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, cast

from spacecombat import odds
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, rolls, run
from tests.ti3.effects import invasion_of_a, space

CARD = {"action_cards": ["morale_boost"]}


def hit_on(played: Any, purpose: str, player: str) -> list[int]:
    return [
        g["hit_on"]
        for r in rolls(played, purpose)
        if r["player"] == player
        for g in cast("list[dict[str, Any]]", r["groups"])
    ]


def test_plus_one_in_the_round_it_is_played() -> None:
    """Played at the start of round 1: the cruiser hits on 6 then, on 7 in round 2. Round 1:
    1; 1. Round 2: 7 (hit); 1."""
    played = run(space({"units": {"cruiser": 1}, **CARD}, {"units": {"cruiser": 1}}), [1, 1, 7, 1])
    assert [(e["card"], e["round"]) for e in events(played, "card_played")] == [("morale_boost", 1)]
    assert hit_on(played, "space_combat", "attacker") == [6, 7]
    assert hit_on(played, "space_combat", "defender") == [7, 7]


def test_policy_plays_it_in_a_later_round() -> None:
    """``policy.play: {morale_boost: {round: 2}}``: not in round 1 (7), in round 2 (6)."""
    played = run(
        space(
            {"units": {"cruiser": 1}, **CARD, "policy": {"play": {"morale_boost": {"round": 2}}}},
            {"units": {"cruiser": 1}},
        ),
        [1, 1, 6, 1],
    )
    assert [e["round"] for e in events(played, "card_played")] == [2]
    assert hit_on(played, "space_combat", "attacker") == [7, 6]


def test_in_an_invasion_combat() -> None:
    """The ground force hits on 7 in the round the card is played. Round 1: 7 (hit); 1."""
    played = run(
        invasion_of_a({"carrier": 1, "ground_force": 1}, {"ground_force": 1}, a=CARD), [7, 1]
    )
    assert hit_on(played, "invasion_combat", "attacker") == [7]
    assert played.outcome["planet_taken"] is True


def test_exact_odds_a_cruiser_duel() -> None:
    """Hand-derived. Round 1 with the card: the attacker hits on 6 (1/2), the defender on 7
    (2/5): win 3/10, both 1/5, lose 1/5, neither 3/10. Later rounds, 2/5 each: win 3/8, both
    1/4. Attacker 3/10 + 3/10 * 3/8 = 33/80; draw 1/5 + 3/10 * 1/4 = 11/40."""
    report = odds(
        space({"units": {"cruiser": 1}, **CARD}, {"units": {"cruiser": 1}}), fractions=True
    )
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(33, 80),
        Fraction(11, 40),
        Fraction(5, 16),
    )


def test_exact_odds_a_ground_force_duel() -> None:
    """Hand-derived. Round 1 with the card: 7+ (2/5) against 8+ (3/10): taken at once 28/100,
    both 12/100, neither 42/100; later rounds 3/10 each: taken 7/17. Taken:
    28/100 + 42/100 * 7/17 = 77/170."""
    report = odds(
        invasion_of_a({"carrier": 1, "ground_force": 1}, {"ground_force": 1}, a=CARD),
        fractions=True,
    )
    assert report.other["planet_taken"] == Fraction(77, 170)


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    scenario = space(
        {"units": {"cruiser": 2, "destroyer": 1}, **CARD},
        {"units": {"cruiser": 2}, **CARD},
    )
    assert_logs_replay(scenario, seeds=8)
    assert_sampled_as_played(scenario, trials=40)
