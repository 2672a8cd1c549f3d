"""Public Execution (elect player; PC_Twi p_PublicExecution.cpp: the elected player "loses all
Action Cards, exhausts all his planet and receive -1 penalty to all combat rolls till end of
round"): -1 on all the elected player's combat rolls; it holds no action card (docs/rulings.md
27Z-5)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from spacecombat import odds
from spacecombat.core.errors import ScenarioError
from tests.helpers import run
from tests.ti3.effects import space

LAW = {"laws": ["public_execution"], "elected": {"public_execution": "attacker"}}


def test_a_7_misses_for_the_executed() -> None:
    """Cruisers (combat 7): the attacker's 7 misses, the defender's 7 hits."""
    played = run(space({"units": {"cruiser": 1}}, {"units": {"cruiser": 1}}, **LAW), [7, 7])
    assert played.outcome["result"] == "defender_win"


def test_odds_cruiser_duel() -> None:
    """The attacker hits 3/10, the defender 4/10; a round with no hit repeats (0.42): won
    0.18/0.58 = 9/29, both destroyed 6/29, lost 0.28/0.58 = 14/29."""
    report = odds(
        space({"units": {"cruiser": 1}}, {"units": {"cruiser": 1}}, **LAW), fractions=True
    )
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(9, 29),
        Fraction(6, 29),
        Fraction(14, 29),
    )


def test_the_executed_player_holds_no_action_card() -> None:
    with pytest.raises(ScenarioError) as caught:
        odds(
            space(
                {"units": {"cruiser": 1}, "action_cards": ["morale_boost"]},
                {"units": {"cruiser": 1}},
                **LAW,
            )
        )
    assert caught.value.field == "attacker.action_cards"
