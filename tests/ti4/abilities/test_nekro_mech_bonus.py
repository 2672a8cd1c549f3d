"""Nekro mech (abilities/nekro_mech_bonus.py): +2 to its combat rolls (ground combat,
ti4-ground-combat.md step 1) against an opponent with an X or Y assimilator token on one of
their technologies, the opponent's condition ``assimilator_token``.

The handler is checked directly (its modifier enters a pool as any modifier does:
procedures/common.py ``_combat_pool``, and the hand-derived chance is that pool's) and end to
end."""

from __future__ import annotations

from fractions import Fraction
from types import SimpleNamespace
from typing import TYPE_CHECKING, cast

import pytest

from spacecombat import odds
from spacecombat.core.errors import RuleNotImplemented
from spacecombat.core.pool import DiceGroup, DicePool
from spacecombat.rulesets.ti4.abilities.base import HANDLERS, Roll
from spacecombat.rulesets.ti4.sides import Side
from tests.helpers import invasion

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup

A, D = Side.ATTACKER, Side.DEFENDER


def setup_with(defender: frozenset[str], attacker: frozenset[str] = frozenset()) -> BattleSetup:
    sides = {A: SimpleNamespace(conditions=attacker), D: SimpleNamespace(conditions=defender)}
    return cast("BattleSetup", SimpleNamespace(side=lambda side: sides[side]))


def modifier(setup: BattleSetup, roller: Side, roll: Roll, unit: str) -> int:
    return HANDLERS["nekro_mech_bonus"](A).roll_modifier(setup, roller, roll, unit)


def test_plus_two_against_an_assimilated_opponent() -> None:
    setup = setup_with(frozenset({"assimilator_token"}))
    assert modifier(setup, A, Roll.GROUND_COMBAT, "mech") == 2
    assert modifier(setup, A, Roll.SPACE_COMBAT, "mech") == 2


def test_not_for_other_units_rolls_or_players() -> None:
    setup = setup_with(frozenset({"assimilator_token"}))
    assert modifier(setup, A, Roll.GROUND_COMBAT, "infantry") == 0
    assert modifier(setup, A, Roll.BOMBARDMENT, "mech") == 0
    assert modifier(setup, D, Roll.GROUND_COMBAT, "mech") == 0


def test_nothing_without_the_token() -> None:
    assert modifier(setup_with(frozenset()), A, Roll.GROUND_COMBAT, "mech") == 0
    own = setup_with(frozenset(), attacker=frozenset({"assimilator_token"}))
    assert modifier(own, A, Roll.GROUND_COMBAT, "mech") == 0


def test_the_pool_a_nekro_mech_rolls() -> None:
    """The mech (combat 6) with +2 hits on 4: 7/10 (hand: faces 4..10)."""
    setup = setup_with(frozenset({"assimilator_token"}))
    group = DiceGroup("mech", 1, 6, modifier(setup, A, Roll.GROUND_COMBAT, "mech"))
    assert DicePool.of([group]).distribution() == {1: Fraction(7, 10), 0: Fraction(3, 10)}


def test_end_to_end_once_a_nekro_side_is_accepted() -> None:
    """A damaged Nekro mech alone (on 4: 7/10) against 1 infantry (on 8: 3/10): per round won
    49/100, drawn 21/100, lost 9/100, again 21/100: won 49/79 (skipped while a Nekro side is
    refused for its faction ability)."""
    scenario = invasion(
        {"faction": "nekro", "units": "1 carrier, 1 mech", "damaged": {"mech": 1}},
        {"conditions": ["assimilator_token"]},
        planets=[{"name": "P", "defender": {"infantry": 1}}],
    )
    try:
        found = odds(scenario)
    except RuleNotImplemented as refused:
        pytest.skip(str(refused))
    assert found.attacker_win == pytest.approx(float(Fraction(49, 79)), abs=1e-12)
