"""Space Cannon Offense (tactical action step before space combat): starting with the active
player, each player fires the SPACE CANNON of their units at the other player's ships in the
active system; the player whose ships are hit assigns the hits before the next player fires
(docs/rulings.md R1)."""

from __future__ import annotations

from spacecombat.core.engine import Chance, Node, Step
from spacecombat.core.state import ships
from spacecombat.rulesets.ti4.abilities.base import Roll
from spacecombat.rulesets.ti4.abilities.space_cannon import cannon_pool
from spacecombat.rulesets.ti4.procedures.assign_hits import Targets, assign_hits
from spacecombat.rulesets.ti4.procedures.capacity import excess, remove_excess
from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import BattleState, Phase

A, D = Side.ATTACKER, Side.DEFENDER


def _after(state: BattleState) -> BattleState:
    # The active player (attacker) fires first, then the defender; then space combat.
    if state.turn is A:
        return state.at(Phase.SPACE_CANNON_OFFENSE, turn=D)
    return state.at(Phase.START_OF_COMBAT, turn=A)


def space_cannon_offense(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """The player whose turn it is rolls space cannon offense at the opponent's ships."""
    roller = state.turn
    target = roller.other
    if ships(setup, state, target) == 0:
        return Step(_after(state))
    side = state.side(roller)
    units = side.space.plus(side.planets[0])
    pool = cannon_pool(setup, roller, units, Roll.SPACE_CANNON_OFFENSE)
    if not pool.groups:
        return Step(_after(state))

    def then(hits: int) -> Step[BattleState]:
        if hits == 0:
            return Step(_after(state))
        return Step(state.at(Phase.SPACE_CANNON_OFFENSE_HITS).with_hits_on(target, hits))

    return Chance(roller.value, "space_cannon_offense", pool, then)


def space_cannon_offense_hits(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """The player whose ships were hit assigns the hits (ti4-combat-effects.md §0.1), then
    removes the fighters and ground forces beyond the capacity its ships have left, before the
    next player fires (docs/rulings.md R1 step 4) and before any combat (R14). A player left
    with no ships loses them at the end (space_combat.end_of_combat)."""
    target = state.turn.other
    if state.hits_on(target):
        return assign_hits(
            setup,
            state,
            target,
            None,
            Targets.SHIPS,
            "space cannon offense",
            in_combat_round=False,
            done=lambda s: s,
        )
    over = excess(setup, state, target)
    if over and ships(setup, state, target):
        return remove_excess(
            setup, state, target, over, "beyond capacity after space cannon offense"
        )
    return Step(_after(state))
