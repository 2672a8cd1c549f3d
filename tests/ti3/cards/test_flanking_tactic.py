"""Flanking Tactic (TI3 base action card; data/action_cards.toml; docs/rulings.md 27S-22):
played immediately before a space battle, the opponent may not retreat from it (no withdrawal
or retreat announced, no Skilled Retreat).

Dice: in an exchange the attacker rolls before the defender."""

from __future__ import annotations

from fractions import Fraction

from spacecombat import odds
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, run
from tests.ti3.effects import space

CARD = {"action_cards": ["flanking_tactic"]}
#: the defender retreats after round 1 to B, which it activated before
RETREATING = {"units": {"cruiser": 1}, "policy": {"retreat": {"after_round": 1}}}
SYSTEM = {"adjacent": [{"name": "B", "command_tokens": ["defender"]}]}


def test_the_opponent_may_not_retreat() -> None:
    """Without the card the defender would retreat after round 1; with it, it fights on.
    Round 1: 1; 1. Round 2: 7; 1."""
    played = run(space({"units": {"cruiser": 1}, **CARD}, RETREATING, system=SYSTEM), [1, 1, 7, 1])
    assert [e["card"] for e in events(played, "card_played")] == ["flanking_tactic"]
    assert not events(played, "choice_made", decision="announce_retreat")
    assert played.outcome["result"] == "attacker_win"


def test_nor_play_skilled_retreat() -> None:
    """The defender's Skilled Retreat is not offered. Round 1: 7; 1."""
    defender = {"units": {"cruiser": 1}, "action_cards": ["skilled_retreat"]}
    played = run(
        space({"units": {"cruiser": 1}, **CARD}, defender, system={"adjacent": [{"name": "B"}]}),
        [7, 1],
    )
    assert [e["card"] for e in events(played, "card_played")] == ["flanking_tactic"]


def test_not_offered_when_the_opponent_cannot_leave() -> None:
    played = run(space({"units": {"cruiser": 1}, **CARD}, {"units": {"cruiser": 1}}), [7, 1])
    assert not events(played, "choice_made", decision="play_card")


def test_exact_odds_the_plain_duel() -> None:
    """Hand-derived. The defender, which would have left after round 1, fights to the end:
    one cruiser each (7+): 3/8, 1/4, 3/8."""
    report = odds(
        space({"units": {"cruiser": 1}, **CARD}, RETREATING, system=SYSTEM), fractions=True
    )
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(3, 8),
        Fraction(1, 4),
        Fraction(3, 8),
    )


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    scenario = space(
        {"units": {"cruiser": 2}, **CARD},
        {"units": {"cruiser": 2}, "policy": {"retreat": {"when_outnumbered": 1.0}}},
        system=SYSTEM,
    )
    assert_logs_replay(scenario, seeds=8)
    assert_sampled_as_played(scenario, trials=40)
