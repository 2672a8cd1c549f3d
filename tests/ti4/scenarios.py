"""Scenarios shared by the TI4 tests."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spacecombat import rulesets
from spacecombat.core.decisions import decide
from spacecombat.core.engine import Chance, Decision, Step
from spacecombat.rulesets import parse_scenario
from tests.helpers import space

#: The rule option that lets a fleet beyond capacity at the start fight whole, its excess
#: removed only after space cannon offense hits or at the end of combat (docs/rulings.md R31).
FIGHT_WHOLE = {"check_capacity_before_battle": False}


def space_over_capacity(
    attacker: Mapping[str, Any], defender: Mapping[str, Any], **extra: Any
) -> dict[str, Any]:
    """A TI4 space battle whose fleets fight whole even beyond capacity (tests of other rules
    that use fighters or ground forces without carriers, or of the check after combat)."""
    return space(attacker, defender, options=FIGHT_WHOLE, **extra)


def first_chance(scenario: Mapping[str, Any]) -> Chance[Any]:
    """The battle's first roll, every decision before it taken by the stock policies."""
    battle = rulesets.battle(parse_scenario(scenario))
    policies = battle.stock_policies()
    state = battle.start().state
    while True:
        node = battle.advance(state)
        if isinstance(node, Step):
            state = node.state
        elif isinstance(node, Decision):
            state = node.then(decide(node.request, policies)).state
        else:
            break
    assert isinstance(node, Chance)
    return node
