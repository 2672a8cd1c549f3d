"""The TI4 battle as a process: each phase handled by the procedure that the rules name."""

from __future__ import annotations

from collections.abc import Callable

from spacecombat.core.engine import Node, Step
from spacecombat.core.events import event
from spacecombat.rulesets.ti4.procedures import (
    combat_round,
    invasion,
    retreat,
    space_cannon_offense,
    space_combat,
)
from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.state import BattleState, Phase

Procedure = Callable[[BattleSetup, BattleState], Node[BattleState]]

PROCEDURES: dict[Phase, Procedure] = {
    Phase.SPACE_CANNON_OFFENSE: space_cannon_offense.space_cannon_offense,
    Phase.SPACE_CANNON_OFFENSE_HITS: space_cannon_offense.space_cannon_offense_hits,
    Phase.START_OF_COMBAT: space_combat.start_of_combat,
    Phase.ANTI_FIGHTER_BARRAGE: space_combat.anti_fighter_barrage,
    Phase.ANTI_FIGHTER_BARRAGE_HITS: space_combat.anti_fighter_barrage_hits,
    Phase.ANNOUNCE_RETREATS: space_combat.announce_retreats,
    Phase.ROLL_DICE: combat_round.roll_dice,
    Phase.ASSIGN_HITS: combat_round.assign_combat_hits,
    Phase.AFTER_ASSIGN_HITS: combat_round.after_assign_hits,
    Phase.RETREAT: retreat.retreat,
    Phase.END_OF_ROUND: combat_round.end_of_round,
    Phase.END_OF_COMBAT: space_combat.end_of_combat,
    Phase.BOMBARDMENT: invasion.bombardment,
    Phase.BOMBARDMENT_HITS: invasion.bombardment_hits,
    Phase.COMMIT_GROUND_FORCES: invasion.commit_ground_forces,
    Phase.SPACE_CANNON_DEFENSE: invasion.space_cannon_defense,
    Phase.SPACE_CANNON_DEFENSE_HITS: invasion.space_cannon_defense_hits,
    Phase.ORDER_PLANETS: invasion.order_planets,
    Phase.GROUND_COMBAT: invasion.start_ground_combat,
    Phase.GROUND_COMBAT_ENDS: invasion.ground_combat_ends,
    Phase.ESTABLISH_CONTROL: invasion.establish_control,
    Phase.OVER: invasion.over,
}


class Ti4Battle:
    """One TI4 battle (space, or invasion) as a process for the resolver and the odds engine."""

    def __init__(self, setup: BattleSetup) -> None:
        self.setup = setup

    def start(self) -> Step[BattleState]:
        initial = self.setup.initial
        return Step(
            initial,
            (
                event(
                    "forces_set",
                    battle=self.setup.kind,
                    attacker={
                        "space": initial.attacker.space.to_json(),
                        "planets": [p.to_json() for p in initial.attacker.planets],
                    },
                    defender={
                        "space": initial.defender.space.to_json(),
                        "planets": [p.to_json() for p in initial.defender.planets],
                    },
                    planets=list(self.setup.planets) if self.setup.kind == "invasion" else [],
                ),
            ),
        )

    def advance(self, state: BattleState) -> Node[BattleState]:
        return PROCEDURES[state.phase](self.setup, state)
