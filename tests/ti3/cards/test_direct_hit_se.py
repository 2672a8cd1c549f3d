"""Direct Hit! (TI3 Shattered Empire action card; data/action_cards.toml; docs/rulings.md
27S-5): immediately after an opponent's dreadnought or war sun is damaged in a space battle the
holder fights, destroy it. Played where Direct Hit is (27A-7); a holder of both is asked about
Direct Hit! first.

Dice: a pool rolls its groups in ascending printed value, then unit name; in an exchange the
attacker rolls before the defender."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from spacecombat import odds
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, run
from tests.ti3.effects import space

CARD = {"action_cards": ["direct_hit_se"]}


def played_cards(played: Any) -> list[str]:
    return [str(e["card"]) for e in events(played, "card_played")]


def test_destroys_a_damaged_dreadnought() -> None:
    """Round 1: the cruiser 7 (hit); the dreadnought 1. The dreadnought sustains; the card
    destroys it."""
    played = run(space({"units": {"cruiser": 1}, **CARD}, {"units": {"dreadnought": 1}}), [7, 1])
    assert played_cards(played) == ["direct_hit_se"]
    gone = events(played, "unit_destroyed", cause="Direct Hit!")
    assert [(e["player"], e["unit"]) for e in gone] == [("defender", "dreadnought")]
    assert played.outcome["result"] == "attacker_win"


def test_not_a_flagship() -> None:
    """A damaged flagship is not a dreadnought or war sun: not offered. Round 1: cruiser 7
    (hit), the Arborec flagship's dice miss; round 2: the cruiser misses, the flagship's miss;
    round 3: the cruiser 7 (hit)."""
    played = run(
        space(
            {"units": {"cruiser": 1}, **CARD},
            {"units": {"flagship": 1}, "faction": "arborec"},
        ),
        [7, 1, 1, 1, 1, 1, 7, 1, 1],
    )
    assert not events(played, "choice_made", decision="play_card")


def test_a_holder_of_both_is_asked_about_direct_hit_first_then_direct_hit() -> None:
    """``policy.play: {direct_hit_se: never}``: the holder passes on Direct Hit! and is then
    offered Direct Hit, which it plays. Round 1: 7; 1."""
    played = run(
        space(
            {
                "units": {"cruiser": 1},
                "action_cards": ["direct_hit", "direct_hit_se"],
                "policy": {"play": {"direct_hit_se": "never"}},
            },
            {"units": {"dreadnought": 1}},
        ),
        [7, 1],
    )
    asked = [
        (e["options"], e["choice"]) for e in events(played, "choice_made", decision="play_card")
    ]
    assert asked == [
        (["play direct_hit_se", "pass"], "pass"),
        (["play direct_hit", "pass"], "play direct_hit"),
    ]
    assert played_cards(played) == ["direct_hit"]


def test_exact_odds_a_cruiser_against_a_dreadnought() -> None:
    """Hand-derived. The card makes the dreadnought's first hit its last: one life each, the
    cruiser on 7 (2/5), the dreadnought on 5 (3/5). Per round: cruiser only 4/25, both 6/25,
    dreadnought only 9/25, neither 6/25: attacker 4/19, draw 6/19, defender 9/19."""
    report = odds(
        space({"units": {"cruiser": 1}, **CARD}, {"units": {"dreadnought": 1}}), fractions=True
    )
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(4, 19),
        Fraction(6, 19),
        Fraction(9, 19),
    )


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    scenario = space(
        {
            "units": {"dreadnought": 1, "cruiser": 2},
            "action_cards": ["direct_hit", "direct_hit_se"],
        },
        {"units": {"dreadnought": 2}, **CARD},
    )
    assert_logs_replay(scenario, seeds=8)
    assert_sampled_as_played(scenario, trials=40)
