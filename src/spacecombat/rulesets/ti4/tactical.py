"""A TI4 tactical action as one battle (``battle: tactical``; rulesets/tactical.py): space
cannon offense and the space combat, then the invasion of the planets with what is left.

What the space stage passes on besides the attacker's units: the cards and leaders played,
the technologies exhausted (``BattleState.used``: a card played in the space combat is not in
hand for the invasion), the trade goods and influence spent (``purse``) and the technologies
gained (``gained``). Effects that act at the end of the space combat act there, once; the
invasion's effects act in the invasion (docs/effects.md, "In a tactical action")."""

from __future__ import annotations

from collections.abc import Hashable

from spacecombat.rulesets.tactical import ScenarioStages, TacticalBattle
from spacecombat.rulesets.ti4.battle import Ti4Battle
from spacecombat.rulesets.ti4.setup import build
from spacecombat.rulesets.ti4.state import BattleState
from spacecombat.scenario.schema import Scenario

#: unit types that stand on a planet (a Saar floating factory stands in the space area, and a
#: space battle takes it among the ships: data/units.toml)
STRUCTURES = frozenset({"pds", "space_dock"})


class _Carry:
    """What a TI4 space combat passes to the invasion besides the units."""

    def carried(self, end: BattleState) -> Hashable:
        return (end.used, end.purse, end.gained)

    def first(self, initial: BattleState, carried: Hashable) -> BattleState:
        assert isinstance(carried, tuple)
        return initial.changed(used=carried[0], purse=carried[1], gained=carried[2])


def tactical_battle(scenario: Scenario) -> TacticalBattle:
    """The tactical action of a checked TI4 scenario (``battle: tactical``)."""
    orders = [
        layer.planet_order
        for layer in (scenario.attacker.policy, scenario.policy)
        if layer is not None and layer.planet_order
    ]
    stages = ScenarioStages(
        scenario,
        lambda part: Ti4Battle(build(part)),
        structures=STRUCTURES,
        space_fought=True,  # space cannon offense fires with no defending ships
        carry=_Carry(),
        planet_order=tuple(orders[0]) if orders else (),
    )
    return TacticalBattle(stages)
