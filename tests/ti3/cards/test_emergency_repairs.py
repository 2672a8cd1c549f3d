"""Emergency Repairs (TI3 action card; data/action_cards.toml; docs/rulings.md 27S-24): "repair
all of your Dreadnoughts and War Suns in the chosen system", offered at the start of each
combat round of a space battle while the holder has one damaged.

Dice: in an exchange the attacker rolls before the defender."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.core.errors import ScenarioError
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, run
from tests.ti3.effects import space

CARD = {"action_cards": ["emergency_repairs"]}


def battle(attacker: dict[str, Any] | None = None) -> dict[str, Any]:
    """A dreadnought (5+: 3/5, SUSTAIN DAMAGE) holding the card against a cruiser (7+: 2/5)."""
    return space(
        {"units": {"dreadnought": 1}, **CARD, **(attacker or {})}, {"units": {"cruiser": 1}}
    )


def test_the_damaged_dreadnought_is_repaired_at_the_next_round() -> None:
    """Round 1: 1; 7 (the dreadnought sustains). Start of round 2: the card repairs it. Round
    2: 1; 7 (it sustains again, where it would have been destroyed). Round 3: 5 (hit); 1."""
    played = run(battle(), [1, 7, 1, 7, 5, 1])
    assert [e["round"] for e in events(played, "card_played")] == [2]
    repaired = events(played, "unit_repaired", by="Emergency Repairs")
    assert [(e["player"], e["unit"]) for e in repaired] == [("attacker", "dreadnought")]
    assert played.outcome["result"] == "attacker_win"


def test_not_offered_before_anything_is_damaged() -> None:
    """Round 1: 5 (hit); 1: the battle ends, the card never offered."""
    played = run(battle(), [5, 1])
    assert not events(played, "choice_made", decision="play_card")


def test_policy_never_keeps_the_card() -> None:
    """Round 1: 1; 7 (sustained). Round 2: 1; 7: the damaged dreadnought is destroyed."""
    played = run(battle({"policy": {"play": {"emergency_repairs": "never"}}}), [1, 7, 1, 7])
    assert not events(played, "card_played")
    assert played.outcome["result"] == "defender_win"


def test_exact_odds_one_repair() -> None:
    """Hand-derived (tests/ti3/effects.py's duel): the dreadnought hits with a = 3/5, the
    cruiser with p = 2/5; nobody hits with r = (2/5)(3/5) = 6/25. Undamaged the dreadnought
    wins at once with a / (1 - r) = 15/19, or is damaged with (1 - a) p / (1 - r) = 4/19.
    Damaged (no card): it wins a (1 - p) / (1 - r) = 9/19, draws a p / (1 - r) = 6/19, loses
    4/19; so undamaged without the card: win 15/19 + 4/19 * 9/19 = 321/361, draw 24/361, lose
    16/361. With the card the first damage is repaired at the next round's start: win 15/19 +
    4/19 * 321/361 = 6699/6859, draw 4/19 * 24/361 = 96/6859, lose 4/19 * 16/361 = 64/6859."""
    report = odds(battle(), fractions=True)
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(6699, 6859),
        Fraction(96, 6859),
        Fraction(64, 6859),
    )


def test_policy_play_names_it_only_when_held() -> None:
    """``policy.play`` names only a decision of its player (27A-5)."""
    scenario = space(
        {"units": {"dreadnought": 1}, "policy": {"play": {"emergency_repairs": "never"}}},
        {"units": {"cruiser": 1}},
    )
    with pytest.raises(ScenarioError) as caught:
        odds(scenario)
    assert caught.value.field == "attacker.policy.play.emergency_repairs"


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    scenario = space(
        {"units": {"dreadnought": 2, "war_sun": 1, "cruiser": 1}, **CARD},
        {"units": {"dreadnought": 2, "cruiser": 2}, **CARD},
    )
    assert_logs_replay(scenario, seeds=8)
    assert_sampled_as_played(scenario, trials=40)
