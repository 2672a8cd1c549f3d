"""Friendly Fire (TI3 base action card; data/action_cards.toml; docs/rulings.md 27S-19): played
immediately before a space battle, an opponent with more fighters than non-fighter ships there
loses half its fighters (rounded down).

Dice: a pool rolls its groups in ascending printed value, then unit name; in an exchange the
attacker rolls before the defender."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from spacecombat import odds
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, run
from tests.ti3.effects import space

CARD = {"action_cards": ["friendly_fire"]}


def by_card(played: Any) -> list[tuple[object, object]]:
    return [
        (e["player"], e["unit"]) for e in events(played, "unit_destroyed", cause="Friendly Fire")
    ]


def test_half_the_fighters_rounded_down() -> None:
    """3 fighters against 1 carrier: 1 lost before the battle. Round 1: cruiser 7 (hit);
    carrier 1, fighters 1, 1. Round 2: 7; 1, 1. Round 3: 7; 1."""
    played = run(
        space({"units": {"cruiser": 1}, **CARD}, {"units": {"carrier": 1, "fighter": 3}}),
        [7, 1, 1, 1, 7, 1, 1, 7, 1],
    )
    assert by_card(played) == [("defender", "fighter")]
    assert played.outcome["result"] == "attacker_win"


def test_not_offered_when_fighters_do_not_outnumber_the_other_ships() -> None:
    """2 carriers and 2 fighters. Round 1: 7; 1, 1, 1, 1. ..."""
    played = run(
        space({"units": {"cruiser": 1}, **CARD}, {"units": {"carrier": 2, "fighter": 2}}),
        [7, 1, 1, 1, 1, 7, 1, 1, 1, 7, 1, 1, 7, 1],
    )
    assert not events(played, "choice_made", decision="play_card")


def test_exact_odds_a_cruiser_against_a_carrier_and_two_fighters() -> None:
    """Hand-derived. The card leaves a carrier and one fighter (9+: 1/5 each; the fighter is
    lost first) against the cruiser (7+: 2/5). Both left: the cruiser hits and the defender
    misses 32/125 (the fighter goes), the defender hits 45/125 (the cruiser is destroyed),
    neither 48/125. Carrier alone: win 8/13, both 2/13, lose 3/13. Attacker 32/77 * 8/13 =
    256/1001, draw 32/77 * 2/13 = 64/1001, defender 681/1001."""
    report = odds(
        space({"units": {"cruiser": 1}, **CARD}, {"units": {"carrier": 1, "fighter": 2}}),
        fractions=True,
    )
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(256, 1001),
        Fraction(64, 1001),
        Fraction(681, 1001),
    )


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    scenario = space(
        {"units": {"cruiser": 2, "carrier": 1, "fighter": 3}, **CARD},
        {"units": {"carrier": 1, "fighter": 5}, **CARD},
    )
    assert_logs_replay(scenario, seeds=8)
    assert_sampled_as_played(scenario, trials=40)
