"""Naaz-Rokha flagship (abilities/naazrokha_flagship_mech_extra_die.py): while it is in the
space area of the active system, each of its owner's mechs rolls 1 additional die in the
combat rolls of a ground combat there (ti4-ground-combat.md step 1; docs/rulings.md
14C-7).

The handler's roll is checked directly on a stand-in state, and end to end in an invasion
(mechs in the space area flip to Z-Grav Eidolons in a space combat:
abilities/naazrokha_mech_flip.py)."""

from __future__ import annotations

from fractions import Fraction
from types import SimpleNamespace
from typing import TYPE_CHECKING, cast

import pytest

from spacecombat import odds
from spacecombat.core.errors import RuleNotImplemented
from spacecombat.core.forces import Forces
from spacecombat.core.pool import DiceGroup, DicePool
from spacecombat.rulesets.ti4.abilities.base import HANDLERS
from spacecombat.rulesets.ti4.sides import Side
from tests.helpers import invasion

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState

A, D = Side.ATTACKER, Side.DEFENDER
MECHS = (DiceGroup("mech", 4, 6), DiceGroup("infantry", 1, 7))  # 2 Eidolons (x2), 1 infantry


def stand_in(space: str, planet: str) -> tuple[BattleSetup, BattleState]:
    side = SimpleNamespace(
        space=Forces.of(_counts(space)), area=lambda where: Forces.of(_counts(planet))
    )
    state = SimpleNamespace(side=lambda s: side, planet=0)
    # the unit types as printed (no unit became another type: SideSetup.count_of)
    cards = SimpleNamespace(count_of=lambda forces, unit_type: forces.count(unit_type))
    setup = SimpleNamespace(kind="invasion", side=lambda s: cards)
    return cast("BattleSetup", setup), cast("BattleState", state)


def _counts(text: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        count, unit = part.split()
        out[unit] = int(count)
    return out


def roll(roller: Side, space: str, planet: str) -> tuple[DiceGroup, ...]:
    setup, state = stand_in(space, planet)
    handler = HANDLERS["naazrokha_flagship_mech_extra_die"](A)
    return handler.combat_roll(setup, state, roller, MECHS)


def test_each_mech_rolls_one_more_die_with_the_flagship_in_space() -> None:
    groups = roll(A, "1 flagship, 1 carrier", "2 mech, 1 infantry")
    assert [(g.unit, g.dice) for g in groups] == [("mech", 6), ("infantry", 1)]


def test_nothing_without_the_flagship() -> None:
    assert roll(A, "1 carrier", "2 mech, 1 infantry") == MECHS


def test_nothing_for_the_opponent() -> None:
    assert roll(D, "1 flagship", "2 mech, 1 infantry") == MECHS


def test_the_extra_dice_by_hand() -> None:
    """1 mech (combat 6, 2 dice) with the extra die: 3 dice on 6 (1/2 each): no hit 1/8."""
    setup, state = stand_in("1 flagship", "1 mech")
    handler = HANDLERS["naazrokha_flagship_mech_extra_die"](A)
    [group] = handler.combat_roll(setup, state, A, (DiceGroup("mech", 2, 6),))
    assert DicePool.of([group]).distribution()[0] == Fraction(1, 8)


def test_end_to_end_once_a_naazrokha_side_is_accepted() -> None:
    """A damaged mech (3 dice on 6, at least one hit 7/8) against 1 infantry (on 8: 3/10):
    per round won 7/8 · 7/10, drawn 7/8 · 3/10, lost 1/8 · 3/10, again 1/8 · 7/10:
    won 49/73 (skipped while such a side is refused)."""
    scenario = invasion(
        {"faction": "naazrokha", "units": "1 flagship, 1 mech", "damaged": {"mech": 1}},
        {},
        planets=[{"name": "P", "defender": {"infantry": 1}}],
    )
    try:
        found = odds(scenario)
    except RuleNotImplemented as refused:
        pytest.skip(str(refused))
    assert found.attacker_win == pytest.approx(float(Fraction(49, 73)), abs=1e-12)
