"""Twilight Imperium 4th edition with Prophecy of Kings."""

from __future__ import annotations

from spacecombat.core.decisions import Policy
from spacecombat.core.errors import ScenarioError
from spacecombat.rulesets.tactical import TacticalBattle
from spacecombat.rulesets.ti4.battle import Ti4Battle
from spacecombat.rulesets.ti4.setup import BattleSetup, build
from spacecombat.rulesets.ti4.tactical import tactical_battle
from spacecombat.scenario.schema import Scenario

NAME = "ti4"


def battle_process(scenario: Scenario) -> Ti4Battle | TacticalBattle:
    """The battle process for a checked scenario (the registry's): a tactical action is its
    two stages chained (rulesets/ti4/tactical.py)."""
    if scenario.battle == "tactical":
        return tactical_battle(scenario)
    return one_battle(scenario)


def one_battle(scenario: Scenario) -> Ti4Battle:
    """The battle process of a checked space battle or invasion scenario."""
    if scenario.battle == "tactical":
        raise ScenarioError("battle", "a tactical action is two battles: see battle_process")
    return Ti4Battle(build(scenario))


def stock_policies(setup: BattleSetup) -> dict[str, Policy]:
    """Each side's stock policy, configured by the scenario."""
    return Ti4Battle(setup).stock_policies()


__all__ = [
    "NAME",
    "BattleSetup",
    "Ti4Battle",
    "battle_process",
    "build",
    "one_battle",
    "stock_policies",
]
