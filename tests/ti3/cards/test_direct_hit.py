"""Direct Hit (TI3 base action card; data/action_cards.toml; docs/rulings.md 27A-7): right
after a ship of the opponent is damaged in a space battle, the holder may destroy it.

Dice: a pool rolls its groups in ascending printed value, then unit name; in an exchange the
attacker rolls before the defender."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from spacecombat import odds
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, run
from tests.ti3.effects import space as ti3


def destroyed(played: Any) -> list[tuple[object, object, object]]:
    return [(e["player"], e["unit"], e["cause"]) for e in events(played, "unit_destroyed")]


def test_direct_hit_destroys_the_ship_that_just_sustained() -> None:
    """Round 1: the attacker's cruiser rolls 7 (a hit), the defender's dreadnought 1; the
    dreadnought sustains the hit, and the attacker plays Direct Hit: it is destroyed."""
    played = run(
        ti3(
            {"units": {"cruiser": 1}, "action_cards": ["direct_hit"]}, {"units": {"dreadnought": 1}}
        ),
        [7, 1],
    )
    assert [(e["player"], e["unit"]) for e in events(played, "damage_sustained")] == [
        ("defender", "dreadnought")
    ]
    assert [(e["player"], e["card"]) for e in events(played, "card_played")] == [
        ("attacker", "direct_hit")
    ]
    assert destroyed(played) == [("defender", "dreadnought", "Direct Hit")]
    assert played.outcome["result"] == "attacker_win"


def test_one_card_one_ship() -> None:
    """Each card is played once: with one Direct Hit against two dreadnoughts, the first to
    sustain is destroyed, the second keeps its damage. Round 1: cruisers 7, 7 (two hits); the
    dreadnoughts 1, 1. Both sustain (the stock policy sustains first); Direct Hit takes the
    first. Round 2: cruisers 7 (the damaged dreadnought is destroyed), 1; dreadnought 1."""
    played = run(
        ti3(
            {"units": {"cruiser": 2}, "action_cards": ["direct_hit"]},
            {"units": {"dreadnought": 2}},
        ),
        [7, 7, 1, 1, 7, 1, 1],
    )
    assert len(events(played, "card_played")) == 1
    assert destroyed(played) == [
        ("defender", "dreadnought", "Direct Hit"),
        ("defender", "dreadnought", "space combat"),
    ]


def test_not_after_pds_fire() -> None:
    """PDS fire is not part of the space battle (ti3-facts.md section 5): a dreadnought that
    sustains a PDS hit is not offered to Direct Hit. Faces: the defender's PDS 6 (hit, the
    attacker's dreadnought sustains); round 1: dreadnought 1; cruiser 1, then round 2:
    dreadnought 5 (hit, the cruiser is destroyed), cruiser 1."""
    played = run(
        ti3(
            {"units": {"dreadnought": 1}},
            {"units": {"cruiser": 1, "pds": 1}, "action_cards": ["direct_hit"]},
        ),
        [6, 1, 1, 5, 1],
    )
    assert not events(played, "card_played")
    assert [e["cause"] for e in events(played, "damage_sustained")] == ["PDS fire"]


def test_nano_technology_shields_dreadnoughts_and_war_suns() -> None:
    """Nano Technology (ti3-facts.md section 9): the holder's dreadnoughts cannot be targeted
    by action cards, so Direct Hit is not offered. Round 1: cruiser 7 (the dreadnought
    sustains), dreadnought 5 (the cruiser is destroyed)."""
    played = run(
        ti3(
            {"units": {"cruiser": 1}, "action_cards": ["direct_hit"]},
            {"units": {"dreadnought": 1}, "technologies": ["nano_technology"]},
        ),
        [7, 5],
    )
    assert not events(played, "card_played")
    assert played.outcome["result"] == "defender_win"


def test_policy_play_never_keeps_the_card() -> None:
    """``policy.play: {direct_hit: never}``: the stock holder passes. Round 1: cruiser 7, the
    dreadnought 5: the cruiser is destroyed, the dreadnought damaged."""
    played = run(
        ti3(
            {
                "units": {"cruiser": 1},
                "action_cards": ["direct_hit"],
                "policy": {"play": {"direct_hit": "never"}},
            },
            {"units": {"dreadnought": 1}},
        ),
        [7, 5],
    )
    assert not events(played, "card_played")
    asked = events(played, "choice_made", decision="play_card")
    assert [e["choice"] for e in asked] == ["pass"]


def test_exact_odds_cruiser_with_direct_hit_against_a_dreadnought() -> None:
    """Hand-derived. Cruiser (hits on 7: 2/5) with Direct Hit against a dreadnought (5: 3/5).
    The cruiser's first hit is sustained, then Direct Hit destroys the dreadnought, so one hit
    is enough. One round: cruiser alone 2/5 * 2/5 = 4/25 (attacker wins), both 6/25 (both
    destroyed: the attacker removes its cruiser, the dreadnought sustains, Direct Hit),
    dreadnought alone 9/25, neither 6/25. Attacker 4/19, draw 6/19, defender 9/19. The card
    acts in the rounds, so the odds are solved state by state."""
    report = odds(
        ti3(
            {"units": {"cruiser": 1}, "action_cards": ["direct_hit"]}, {"units": {"dreadnought": 1}}
        ),
        fractions=True,
    )
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(4, 19),
        Fraction(6, 19),
        Fraction(9, 19),
    )


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    """Direct Hit held by both players: the logs replay, and the Monte Carlo sampler ends where
    the resolver does with the same dice."""
    scenario = ti3(
        {"units": {"dreadnought": 2, "cruiser": 1}, "action_cards": ["direct_hit"]},
        {"units": {"war_sun": 1, "dreadnought": 1}, "action_cards": ["direct_hit"]},
    )
    assert_logs_replay(scenario, seeds=8)
    assert_sampled_as_played(scenario, trials=40)
