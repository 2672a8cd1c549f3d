"""Twilight Imperium 3rd edition (with Shattered Empire and Shards of the Throne options):
space battles and invasion combat (../shared/spec/ti3-combat.md)."""

from __future__ import annotations

from spacecombat.core.errors import ScenarioError
from spacecombat.rulesets.tactical import TacticalBattle
from spacecombat.rulesets.ti3.battle import Ti3Battle
from spacecombat.rulesets.ti3.setup import Ti3Setup, build
from spacecombat.rulesets.ti3.tactical import tactical_battle
from spacecombat.scenario.schema import Scenario

NAME = "ti3"


def battle_process(scenario: Scenario) -> Ti3Battle | TacticalBattle:
    """The battle process for a checked scenario (the registry's): a tactical action is its
    two stages chained (rulesets/ti3/tactical.py)."""
    if scenario.battle == "tactical":
        return tactical_battle(scenario)
    return one_battle(scenario)


def one_battle(scenario: Scenario) -> Ti3Battle:
    """The battle process of a checked space battle or invasion scenario."""
    if scenario.battle == "tactical":
        raise ScenarioError("battle", "a tactical action is two battles: see battle_process")
    return Ti3Battle(build(scenario))


__all__ = ["NAME", "Ti3Battle", "Ti3Setup", "battle_process", "build", "one_battle"]
