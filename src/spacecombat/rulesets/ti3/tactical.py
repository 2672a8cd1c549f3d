"""A TI3 tactical action as one battle (``battle: tactical``; rulesets/tactical.py): the space
battle, then, if the attacker holds the system, its invasion combat (bombardment, PDS fire at
the landing ground forces, invasion combat on each planet: ti3-combat.md). Where the defender
has no ships no space battle is fought (ti3-combat.md: a space battle needs ships on both
sides), and the invasion starts at once. Nothing but the units passes from one to the other:
a TI3 battle keeps no cards played or goods spent in its state."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from spacecombat.rulesets.tactical import ScenarioStages, TacticalBattle
from spacecombat.rulesets.ti3.battle import Ti3Battle
from spacecombat.rulesets.ti3.setup import build
from spacecombat.scenario.schema import Scenario

#: unit types that stand on a planet
STRUCTURES = frozenset({"pds", "space_dock"})


class _Carry:
    """A TI3 space battle passes nothing but the units to the invasion."""

    def carried(self, end: Any) -> Hashable:
        return None

    def first(self, initial: Any, carried: Hashable) -> Any:
        return initial


def tactical_battle(scenario: Scenario) -> TacticalBattle:
    """The tactical action of a checked TI3 scenario (``battle: tactical``); TI3 fights its
    planets in the order listed (docs/rulings.md), so the ground forces left are committed in
    that order."""
    stages = ScenarioStages(
        scenario,
        lambda part: Ti3Battle(build(part)),
        structures=STRUCTURES,
        space_fought=False,
        carry=_Carry(),
    )
    return TacticalBattle(stages)
