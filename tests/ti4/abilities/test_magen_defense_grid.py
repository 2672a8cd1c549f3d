"""Magen Defense Grid (red technology; abilities/magen_defense_grid.py): at the start of a
ground-combat round on a planet holding your PLANETARY SHIELD unit, exhaust it: your opponent
makes no combat rolls that round (ti4-combat-effects.md §1; data/technologies.toml). Offered
through "play_card" in the "start of combat round" window (ti4-ground-combat.md rule 4.1,
note 1); once a battle (it stays exhausted)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.core.engine import Played
from spacecombat.rulesets.ti4.state import BattleState
from tests.helpers import events, invasion, rolls, run

MAGEN = {"technologies": ["magen_defense_grid"]}


def scenario(
    defender: str = "1 infantry, 1 pds", attacker: str = "1 cruiser, 1 infantry", **extra: Any
) -> dict[str, Any]:
    return invasion({"units": attacker, **extra}, {"units": defender, **MAGEN})


def players(played: Played[BattleState]) -> list[tuple[object, object]]:
    return [(r["player"], r["hits"]) for r in rolls(played, "ground_combat")]


def test_the_attacker_rolls_nothing_in_that_round() -> None:
    # SCD misses (1); round 1: only the defender rolls (1, a miss); round 2 both roll
    played = run(scenario(), [1, 1, 10, 1])
    [card] = events(played, "card_played")
    assert (card["player"], card["card"], card["round"]) == ("defender", "magen_defense_grid", 1)
    assert players(played) == [("defender", 0), ("attacker", 1), ("defender", 0)]


def test_exhausted_once_a_battle() -> None:
    played = run(scenario(), [1, 1, 1, 1, 10, 1])
    assert len(events(played, "card_played")) == 1
    assert len(rolls(played, "ground_combat")) == 5


def test_a_scripted_pass_then_use() -> None:
    played = run(scenario(), [1, 1, 1, 10], defender=["pass", "play magen_defense_grid"])
    assert [e["round"] for e in events(played, "card_played")] == [2]
    assert players(played) == [("attacker", 0), ("defender", 0), ("defender", 1)]


def test_not_offered_without_a_shield_on_the_planet() -> None:
    played = run(scenario("1 infantry, 1 space_dock"), [10, 1])
    assert not events(played, "choice_made", decision="play_card")


def test_not_offered_when_a_war_sun_takes_the_shield() -> None:
    # war sun: other players' units in its system lose PLANETARY SHIELD (it also bombards)
    played = run(scenario(attacker="1 war_sun, 1 infantry"), [1, 1, 1, 1, 10, 1])
    assert not events(played, "choice_made", decision="play_card")


def test_the_attackers_magen_without_a_shield_unit_is_not_offered() -> None:
    sc = invasion({"units": "1 cruiser, 1 infantry", **MAGEN}, {"units": "1 infantry"})
    played = run(sc, [10, 1])
    assert not events(played, "choice_made", decision="play_card")


def test_exact_odds_hand_derived() -> None:
    """The PDS fires at the landed infantry on 6 (1/2): a hit ends it. Else, in round 1 only
    the defender rolls (3/10 kills the attacker); else 1 v 1 on 8: 7/17 won, 3/17 drawn.
    Attacker 1/2 * 7/10 * 7/17 = 49/340, draw 1/2 * 7/10 * 3/17 = 21/340, defender 27/34."""
    found = odds(scenario())
    assert found.attacker_win == pytest.approx(float(Fraction(49, 340)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(21, 340)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(27, 34)), abs=1e-12)
