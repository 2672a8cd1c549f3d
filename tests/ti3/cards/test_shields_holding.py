"""Shields Holding (TI3 base action card; data/action_cards.toml; docs/rulings.md 27S-18):
cancel up to two hits against you in one round of a space battle, played after the opponent
rolled its combat dice and before you remove casualties.

Dice: in an exchange the attacker rolls before the defender."""

from __future__ import annotations

from fractions import Fraction

from spacecombat import odds
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, run
from tests.ti3.effects import space

CARD = {"action_cards": ["shields_holding"]}


def test_two_hits_cancelled() -> None:
    """Round 1: the holder's cruiser 1; the defender's cruisers 7, 7 (two hits on the
    holder): the card cancels both. Round 2: 7 (a hit); 1, 1. Round 3: 7; 1."""
    played = run(
        space({"units": {"cruiser": 1}, **CARD}, {"units": {"cruiser": 2}}),
        [1, 7, 7, 7, 1, 1, 7, 1],
    )
    assert [(e["card"], e["round"]) for e in events(played, "card_played")] == [
        ("shields_holding", 1)
    ]
    assert [e["player"] for e in events(played, "unit_destroyed")] == ["defender", "defender"]
    assert played.outcome["result"] == "attacker_win"


def test_not_offered_without_hits() -> None:
    """Round 1: 7; 1: no hit against the holder, no offer."""
    played = run(space({"units": {"cruiser": 1}, **CARD}, {"units": {"cruiser": 1}}), [7, 1])
    assert not events(played, "choice_made", decision="play_card")


def test_exact_odds_a_cruiser_duel() -> None:
    """Hand-derived. One cruiser each (7+: 2/5). The holder plays the card the first round the
    defender hits: that hit is cancelled. Before it is played: attacker only 6/25 (win), both
    4/25 (the defender's hit cancelled: win), defender only 6/25 (cancelled: nobody hit, go
    on without the card), neither 9/25 (again). So with the card the attacker wins 10/16 at
    once and 6/16 of the time plays the card and goes on to the plain duel (3/8, 1/4, 3/8):
    attacker 5/8 + 3/8 * 3/8 = 49/64, draw 3/8 * 1/4 = 6/64, defender 9/64."""
    report = odds(
        space({"units": {"cruiser": 1}, **CARD}, {"units": {"cruiser": 1}}), fractions=True
    )
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(49, 64),
        Fraction(6, 64),
        Fraction(9, 64),
    )


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    scenario = space(
        {"units": {"cruiser": 2, "destroyer": 1}, **CARD},
        {"units": {"cruiser": 2, "dreadnought": 1}, **CARD},
    )
    assert_logs_replay(scenario, seeds=8)
    assert_sampled_as_played(scenario, trials=40)
