"""Blitz (action card; abilities/blitz.py): at the start of an invasion, each of your non-fighter
ships in the system without BOMBARDMENT gains BOMBARDMENT 6 for the invasion
(ti4-combat-effects.md §6; data/cards.toml). Played by the attacker through the "play_card"
decision at the start of the invasion, before step 1 BOMBARDMENT (invasion.py
``at_invasion_start``; the added dice through ``bombardment_roll``)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, cast

import pytest

from spacecombat import odds
from spacecombat.core.engine import Played
from spacecombat.core.errors import RuleNotImplemented
from spacecombat.rulesets.ti4.state import BattleState
from tests.helpers import events, invasion, rolls, run, survivors


def _groups(roll: Mapping[str, object]) -> list[dict[str, Any]]:
    """The dice groups of a ``dice_rolled`` event."""
    return cast("list[dict[str, Any]]", roll["groups"])


def scenario(attacker: str = "1 cruiser, 1 infantry", **extra: Any) -> dict[str, Any]:
    return invasion(
        {"units": attacker, "action_cards": ["blitz"], **extra}, {"units": "1 infantry"}
    )


def groups(played: Played[BattleState]) -> list[tuple[str, int, int]]:
    return [
        (g["unit"], len(g["faces"]), g["hit_on"])
        for r in rolls(played, "bombardment")
        for g in _groups(r)
    ]


def test_a_cruiser_bombards_on_six() -> None:
    played = run(scenario(), [6])
    [card] = events(played, "card_played")
    assert (card["player"], card["card"], card["round"]) == ("attacker", "blitz", 0)
    assert groups(played) == [("cruiser", 1, 6)]
    assert survivors(played, "defender", "planet") == {}


def test_a_five_misses() -> None:
    played = run(scenario(), [5, 10, 1])
    assert survivors(played, "attacker", "planet") == {"infantry": 1}
    assert len(rolls(played, "ground_combat")) == 2


def test_ships_with_bombardment_keep_theirs_and_fighters_gain_none() -> None:
    played = run(scenario("1 dreadnought, 2 carrier, 2 fighter, 1 infantry"), [1, 1, 1, 10, 1])
    assert sorted(groups(played)) == [("carrier", 2, 6), ("dreadnought", 1, 5)]


def test_policy_never_keeps_it() -> None:
    played = run(scenario(policy={"play": {"blitz": "never"}}), [10, 1])
    assert not events(played, "card_played")
    assert not rolls(played, "bombardment")


def test_a_scripted_pass() -> None:
    played = run(scenario(), [10, 1], attacker=["pass"])
    assert not rolls(played, "bombardment")


def test_not_offered_without_a_ship_to_arm() -> None:
    played = run(scenario("1 dreadnought, 2 fighter, 1 infantry"), [5])
    assert not events(played, "choice_made", decision="play_card")


def test_not_offered_against_an_empty_planet() -> None:
    sc = invasion({"units": "1 cruiser, 1 infantry", "action_cards": ["blitz"]}, {"units": "1 pds"})
    played = run(sc, [1])  # the PDS's space cannon defense
    assert not events(played, "choice_made", decision="play_card")


def test_the_defenders_blitz_does_nothing() -> None:
    sc = invasion(
        {"units": "1 cruiser, 1 infantry"}, {"units": "1 infantry", "action_cards": ["blitz"]}
    )
    played = run(sc, [10, 1])
    assert not events(played, "card_played")


def test_several_planets_are_refused_by_name() -> None:
    sc = invasion(
        {"units": "1 cruiser, 2 infantry", "action_cards": ["blitz"]},
        {},
        planets=[
            {"name": "A", "defender": {"infantry": 1}, "commit": {"infantry": 1}},
            {"name": "B", "defender": {"infantry": 1}, "commit": {"infantry": 1}},
        ],
    )
    with pytest.raises(RuleNotImplemented, match="Blitz"):
        odds(sc)


def test_exact_odds_hand_derived() -> None:
    """The cruiser bombards on 6 (1/2) and kills the lone defender; otherwise 1 infantry fights
    1, each hitting on 8 (3/10): won 7/17, drawn 3/17. Attacker 1/2 + 1/2 * 7/17 = 12/17, draw
    1/2 * 3/17 = 3/34, defender 7/34."""
    found = odds(scenario())
    assert found.attacker_win == pytest.approx(float(Fraction(12, 17)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(3, 34)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(7, 34)), abs=1e-12)
