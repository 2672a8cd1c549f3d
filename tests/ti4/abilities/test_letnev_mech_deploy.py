"""Letnev mech DEPLOY (abilities/letnev_mech_deploy.py): at the start of a round of ground combat,
spend 2 resources (trade goods) to replace 1 of your infantry in it with 1 mech
(ti4-combat-effects.md §3; data/units.toml). Offered through "play_card" in the "start of
combat round" window of every ground-combat round (ti4-ground-combat.md rule 4.1, note 1)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, cast

import pytest

from spacecombat import odds
from spacecombat.core.engine import Played
from spacecombat.rulesets.ti4.state import BattleState
from tests.helpers import events, invasion, rolls, run


def _groups(roll: Mapping[str, object]) -> list[dict[str, Any]]:
    """The dice groups of a ``dice_rolled`` event."""
    return cast("list[dict[str, Any]]", roll["groups"])


def scenario(trade_goods: int = 2, infantry: int = 1) -> dict[str, Any]:
    # the mech is listed (left in space) so that its DEPLOY ability is in play
    return invasion(
        {
            "units": f"1 carrier, {infantry} infantry, 1 mech",
            "faction": "letnev",
            "trade_goods": trade_goods,
        },
        {},
        planets=[{"name": "P", "defender": {"infantry": 1}, "commit": {"infantry": infantry}}],
    )


def attacker_units(played: Played[BattleState]) -> list[list[str]]:
    return [
        [g["unit"] for g in _groups(r)]
        for r in rolls(played, "ground_combat")
        if r["player"] == "attacker"
    ]


def test_the_infantry_becomes_a_mech() -> None:
    played = run(scenario(), [6, 1])  # the mech hits on 6
    [card] = events(played, "card_played")
    assert (card["player"], card["card"], card["round"]) == ("attacker", "letnev_mech_deploy", 1)
    assert [e["unit"] for e in events(played, "unit_removed")] == ["infantry"]
    assert [e["unit"] for e in events(played, "units_placed")] == ["mech"]
    assert attacker_units(played) == [["mech"]]


def test_each_round_while_trade_goods_last() -> None:
    played = run(scenario(4, 2), [1, 1, 1, 1, 1, 1, 6, 6, 1])
    assert [e["round"] for e in events(played, "card_played")] == [1, 2]
    assert attacker_units(played) == [["mech", "infantry"], ["mech"], ["mech"]]


def test_not_offered_without_two_trade_goods() -> None:
    played = run(scenario(1), [10, 1])
    assert not events(played, "choice_made", decision="play_card")


def test_a_scripted_pass() -> None:
    played = run(scenario(), [8, 1], attacker=["pass"])
    assert not events(played, "units_placed")
    assert attacker_units(played) == [["infantry"]]


def test_exact_odds_hand_derived() -> None:
    """A mech (6: 1/2, SUSTAIN DAMAGE) against 1 infantry (8: 3/10). Undamaged: it wins at once
    with (1/2) / (13/20) = 10/13, or is damaged with 3/13; damaged: won 7/13, drawn 3/13, lost
    3/13. Attacker 10/13 + 3/13 * 7/13 = 151/169; draw 9/169; defender 9/169."""
    found = odds(scenario())
    assert found.attacker_win == pytest.approx(float(Fraction(151, 169)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(9, 169)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(9, 169)), abs=1e-12)


def test_the_trade_goods_are_spent() -> None:
    played = run(scenario(3), [6, 1])
    [spent] = events(played, "trade_goods_spent")
    assert (spent["player"], spent["trade_goods"], spent["by"], spent["round"]) == (
        "attacker",
        2,
        "letnev_mech_deploy",
        1,
    )


def test_the_mech_deploys_from_reinforcements() -> None:
    """DEPLOY brings the mech from the reinforcements: no mech need be listed (setup.py
    attaches a DEPLOY of a unit not in the battle)."""
    scenario = invasion(
        {"units": "1 carrier, 2 infantry", "faction": "letnev", "trade_goods": 2},
        {},
        planets=[{"name": "P", "defender": {"infantry": 1}}],
    )
    played = run(scenario, [10, 10, 10, 1], all_dice=False)
    [spent] = events(played, "trade_goods_spent")
    assert (spent["player"], spent["trade_goods"]) == ("attacker", 2)
    assert any(e["unit"] == "mech" for e in events(played, "units_placed"))
