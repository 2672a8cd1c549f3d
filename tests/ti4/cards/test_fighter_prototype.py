"""Fighter Prototype (action card; abilities/fighter_prototype.py): at the start of the first
round of a space combat, +2 to the holder's fighters' combat rolls that round
(ti4-combat-effects.md; data/cards.toml), played through the "play_card" decision in the
"start of combat round" window of round 1 (ti4-space-combat.md rule 2.1)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import events, rolls, run, space

NO_CAPACITY_CHECK = {"check_capacity_before_battle": False}


def duel(units: str = "1 fighter", **policy: Any) -> dict[str, Any]:
    attacker: dict[str, Any] = {"units": units, "action_cards": ["fighter_prototype"]}
    if policy:
        attacker["policy"] = policy
    return space(attacker, {"units": "1 fighter"}, options=NO_CAPACITY_CHECK)


def attacker_hit_on(played: Any) -> list[dict[str, int]]:
    found: list[Any] = rolls(played, "space_combat")
    return [
        {g["unit"]: g["hit_on"] for g in r["groups"]} for r in found if r["player"] == "attacker"
    ]


def test_round_one_fighters_hit_two_better_that_round_only() -> None:
    played = run(duel("1 cruiser, 1 fighter"), [1, 1, 1, 7, 1, 1])
    [card] = events(played, "card_played")
    assert (card["player"], card["card"], card["round"]) == ("attacker", "fighter_prototype", 1)
    # the cruiser is not a fighter: 7 both rounds; the fighter 7 then 9
    assert attacker_hit_on(played) == [{"cruiser": 7, "fighter": 7}, {"cruiser": 7, "fighter": 9}]


def test_policy_never_keeps_it() -> None:
    played = run(duel(play={"fighter_prototype": "never"}), [8, 1, 9, 1])
    assert not events(played, "card_played")
    assert attacker_hit_on(played) == [{"fighter": 9}, {"fighter": 9}]


def test_a_scripted_pass_in_round_one_means_never() -> None:
    played = run(duel(), [8, 1, 9, 1], attacker=["pass"])
    assert not events(played, "card_played")


def test_not_offered_without_fighters() -> None:
    played = run(duel("1 cruiser"), [7, 1])
    assert not events(played, "choice_made", decision="play_card")


def test_not_offered_in_a_ground_combat() -> None:
    from tests.helpers import invasion

    scenario = invasion(
        {"units": "1 carrier, 2 fighter, 1 infantry", "action_cards": ["fighter_prototype"]},
        {},
        planets=[{"name": "P", "defender": {"infantry": 1}}],
    )
    played = run(scenario, [8, 1])
    assert not events(played, "card_played")


def test_exact_odds_hand_derived() -> None:
    """1 fighter each (capacity not checked before the battle). Round 1: the attacker hits on 7
    (2/5), the defender on 9 (1/5); later rounds 1/5 each, a duel won by each 4/9, drawn 1/9.
    attacker = 2/5*4/5 + 3/5*4/5*4/9 = 8/15; draw = 2/25 + 12/25*1/9 = 2/15;
    defender = 3/5*1/5 + 12/25*4/9 = 1/3."""
    found = odds(duel())
    assert found.attacker_win == pytest.approx(float(Fraction(8, 15)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(2, 15)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(1, 3)), abs=1e-12)
