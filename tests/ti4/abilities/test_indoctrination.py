"""Indoctrination (Yin faction ability; abilities/indoctrination.py): at the start of a ground
combat, spend 2 influence to replace 1 of your opponent's infantry in it with 1 infantry of
yours (ti4-combat-effects.md §3; data/factions.toml). Offered through "play_card" in the
"start of combat" window of each ground combat (ti4-ground-combat.md rule 4.1, note 1); trade
goods may be spent in place of influence."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, cast

import pytest

from spacecombat import odds
from tests.helpers import events, invasion, rolls, run


def _groups(roll: Mapping[str, object]) -> list[dict[str, Any]]:
    """The dice groups of a ``dice_rolled`` event."""
    return cast("list[dict[str, Any]]", roll["groups"])


def scenario(attacker: str = "1 carrier, 1 infantry", **extra: Any) -> dict[str, Any]:
    return invasion(
        {"units": attacker, "faction": "yin", "influence": 2, **extra}, {"units": "2 infantry"}
    )


def test_an_opposing_infantry_becomes_yours() -> None:
    played = run(scenario(), [1, 1, 1, 10, 1, 1])  # round 1 misses; round 2: the attacker hits
    [card] = events(played, "card_played")
    assert (card["player"], card["card"], card["round"]) == ("attacker", "indoctrination", 1)
    assert events(played, "unit_removed") == [
        {
            "event": "unit_removed",
            "player": "defender",
            "unit": "infantry",
            "reason": "replaced by Indoctrination",
        }
    ]
    [placed] = events(played, "units_placed")
    assert (placed["player"], placed["unit"], placed["by"]) == (
        "attacker",
        "infantry",
        "indoctrination",
    )
    first = [len(_groups(r)[0]["faces"]) for r in rolls(played, "ground_combat")][:2]
    assert first == [2, 1]


def test_trade_goods_pay_in_place_of_influence() -> None:
    played = run(scenario(influence=0, trade_goods=2), [10, 10, 1])
    assert events(played, "card_played")


def test_not_offered_without_two_to_spend() -> None:
    played = run(scenario(influence=1, trade_goods=0), [10, 1, 1, 10, 1])
    assert not events(played, "choice_made", decision="play_card")


def test_a_scripted_pass() -> None:
    # (policy.play names only data/cards.toml ids, so a faction ability has no "never")
    played = run(scenario(), [10, 1, 1, 10, 1], attacker=["pass"])
    assert not events(played, "card_played")


def test_not_offered_against_mechs_only() -> None:
    sc = invasion(
        {"units": "1 carrier, 1 infantry", "faction": "yin", "influence": 2}, {"units": "1 mech"}
    )
    played = run(sc, [1, 1, 1, 1, 10, 1, 10, 1], all_dice=False)
    assert not events(played, "choice_made", decision="play_card")


def test_the_defender_may_use_it_too() -> None:
    sc = invasion(
        {"units": "1 carrier, 2 infantry"},
        {"units": "1 infantry", "faction": "yin", "trade_goods": 2},
    )
    played = run(sc, [1, 10, 10])  # 1 v 2 after it: the attacker misses, the defender hits
    [card] = events(played, "card_played")
    assert card["player"] == "defender"
    assert played.outcome["winner"] == "defender"


def test_exact_odds_hand_derived() -> None:
    """2 infantry against 1, all hitting on 8 (3/10). From (2, 1) the attacker wins at once
    with (51/100) / (657/1000) = 170/219, or comes to (1, 1) with 49/219 (won 7/17, drawn
    3/17). Attacker 3233/3723, draw 147/3723, defender 343/3723."""
    found = odds(scenario())
    assert found.attacker_win == pytest.approx(float(Fraction(3233, 3723)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(147, 3723)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(343, 3723)), abs=1e-12)


def test_influence_first_then_trade_goods() -> None:
    played = run(scenario(influence=1, trade_goods=1), [10, 10, 1])  # 2: no mech (3)
    [influence] = events(played, "influence_spent")
    [goods] = events(played, "trade_goods_spent")
    assert (influence["influence"], goods["trade_goods"]) == (1, 1)
    assert influence["by"] == goods["by"] == "indoctrination"


def test_expected_losses_are_net_of_the_infantry_placed() -> None:
    # 1 carrier, 1 infantry against 1 infantry: Indoctrination replaces the only defender, so no
    # die is rolled; the attacker ends with 2 infantry, one more than it brought: its losses are
    # net of the infantry placed (README, expected_losses), -1/2 (an infantry costs 1 for 2),
    # and the defender lost its infantry
    sc = invasion(
        {"units": "1 carrier, 1 infantry", "faction": "yin", "influence": 2},
        {"units": "1 infantry"},
    )
    report = odds(sc).to_json()
    assert report["attacker_win"] == pytest.approx(1, abs=1e-12)
    losses = report["expected_losses"]
    assert losses["attacker"] == pytest.approx(-0.5, abs=1e-12)
    assert losses["defender"] == pytest.approx(0.5, abs=1e-12)
