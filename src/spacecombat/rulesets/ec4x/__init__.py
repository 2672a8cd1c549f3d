"""EC4X space combat (ec4x-movement-and-combat.md 7.0–7.4), ruleset ``spec_2025_11_19``."""

from __future__ import annotations

from spacecombat.rulesets.ec4x.battle import Ec4xBattle, RoePolicy
from spacecombat.rulesets.ec4x.options import Ec4xOptions, read_options
from spacecombat.rulesets.ec4x.setup import Setup, build
from spacecombat.scenario.ec4x import Ec4xScenario

NAME = "ec4x"


def battle(scenario: Ec4xScenario) -> Ec4xBattle:
    """The battle process of a checked EC4X scenario."""
    return Ec4xBattle(build(scenario))


__all__ = [
    "NAME",
    "Ec4xBattle",
    "Ec4xOptions",
    "RoePolicy",
    "Setup",
    "battle",
    "build",
    "read_options",
]
