"""Bunker (action card; abilities/bunker.py): at the start of an invasion of your planets, -4 to
every BOMBARDMENT roll against them this invasion (ti4-combat-effects.md §6; data/cards.toml).
Played by the defender through the "play_card" decision at the start of the invasion, before
step 1 BOMBARDMENT (ti4-combat-effects.md "Invasion" (1); invasion.py ``at_invasion_start``)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, cast

import pytest

from spacecombat import odds
from spacecombat.core.engine import Played
from spacecombat.rulesets.ti4.state import BattleState
from tests.helpers import events, invasion, rolls, run, survivors


def _groups(roll: Mapping[str, object]) -> list[dict[str, Any]]:
    """The dice groups of a ``dice_rolled`` event."""
    return cast("list[dict[str, Any]]", roll["groups"])


def scenario(attacker: str = "1 dreadnought, 1 infantry", **defender: Any) -> dict[str, Any]:
    return invasion(
        {"units": attacker}, {"units": "1 infantry", "action_cards": ["bunker"], **defender}
    )


def bombard_hit_on(played: Played[BattleState]) -> list[int]:
    return [g["hit_on"] for r in rolls(played, "bombardment") for g in _groups(r)]


def test_played_at_the_start_it_takes_four_from_each_bombardment_die() -> None:
    # Dreadnought I bombards on 5: with Bunker a 8 misses (8 - 4 < 5), then a ground round
    played = run(scenario(), [8, 10, 1])
    [card] = events(played, "card_played")
    assert (card["player"], card["card"], card["round"]) == ("defender", "bunker", 0)
    assert bombard_hit_on(played) == [9]
    kinds = [e["event"] for e in played.events]
    assert kinds.index("card_played") < kinds.index("dice_rolled")  # before any roll
    assert survivors(played, "attacker", "planet") == {"infantry": 1}


def test_a_nine_still_hits() -> None:
    played = run(scenario(), [9])
    assert survivors(played, "defender", "planet") == {}
    assert not rolls(played, "ground_combat")


def test_every_bombarding_die_is_lowered() -> None:
    # War Sun bombards 3 (x3): 7 hits only with -4 ... 7 - 4 = 3
    played = run(scenario("1 war_sun, 1 infantry"), [7, 6, 6])
    assert bombard_hit_on(played) == [7]
    assert survivors(played, "defender", "planet") == {}


def test_policy_never_keeps_it() -> None:
    played = run(scenario(policy={"play": {"bunker": "never"}}), [5])
    assert not events(played, "card_played")
    assert bombard_hit_on(played) == [5]


def test_a_scripted_pass() -> None:
    played = run(scenario(), [5], defender=["pass"])
    assert not events(played, "card_played")
    assert survivors(played, "defender", "planet") == {}


def test_not_offered_without_bombardment() -> None:
    played = run(scenario("1 cruiser, 1 infantry"), [10, 1])
    assert not events(played, "choice_made", decision="play_card")


def test_not_offered_when_a_planetary_shield_stops_the_bombardment() -> None:
    played = run(scenario(units="1 infantry, 1 pds"), [1, 10, 1])  # SCD misses, a ground round
    assert not events(played, "choice_made", decision="play_card")


def test_the_attackers_bunker_does_nothing() -> None:
    # only the defender controls the invaded planet
    sc = invasion(
        {"units": "1 dreadnought, 1 infantry", "action_cards": ["bunker"]}, {"units": "1 infantry"}
    )
    played = run(sc, [5])
    assert not events(played, "card_played")
    assert bombard_hit_on(played) == [5]


def test_exact_odds_hand_derived() -> None:
    """The dreadnought bombards on 9 (p = 1/5) and kills the lone defender; otherwise 1 infantry
    fights 1, each hitting on 8 (3/10): won 21/51 = 7/17, drawn 9/51 = 3/17. So the attacker wins
    1/5 + 4/5 * 7/17 = 9/17, draws 4/5 * 3/17 = 12/85, loses 28/85 (without Bunker:
    3/5 + 2/5 * 7/17 = 13/17)."""
    found = odds(scenario())
    assert found.attacker_win == pytest.approx(float(Fraction(9, 17)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(12, 85)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(28, 85)), abs=1e-12)
    never = odds(scenario(policy={"play": {"bunker": "never"}}))
    assert never.attacker_win == pytest.approx(float(Fraction(13, 17)), abs=1e-12)
