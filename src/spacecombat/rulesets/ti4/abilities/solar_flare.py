"""Solar Flare (action card): after you activate a system, other players cannot use SPACE CANNON
against your ships during this movement (ti4-combat-effects.md §7; data/cards.toml). Space
cannon offense is part of the movement step (LRR 58: movement, then space cannon offense), so
the card stops the opponent's space cannon offense; it is played by the active player (the
attacker) before the first space cannon offense roll (``before_ability_roll``), and empties
the opponent's roll (``ability_roll``). An invasion's space cannon defense is not during the
movement and is not affected (docs/rulings.md 14D1-4). Offered only when the
opponent has space cannon dice to fire, or holds a card that may fire some (Experimental
Battlestation); the stock policy plays it then."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.rulesets.ti4.abilities.base import Card, Roll, register
from spacecombat.rulesets.ti4.effects import offense_pool, overriding
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.core.pool import DiceGroup
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState


@register
class SolarFlare(Card):
    id = "solar_flare"
    card = "solar_flare"

    def before_ability_roll(
        self, setup: BattleSetup, state: BattleState, roller: Side, roll: Roll
    ) -> Node[BattleState] | None:
        owner = self.owner
        if (
            owner is not Side.ATTACKER  # only the active player activates the system
            or roll is not Roll.SPACE_CANNON_OFFENSE
            or roller is not owner  # the active player's turn comes first: played then
            or not self.held(state)
        ):
            return None
        other = owner.other
        extra = any(h.owner is other for h in overriding(setup, "extra_ability_roll"))
        if not extra and not offense_pool(setup, state, other).groups:
            return None  # the opponent has no space cannon to fire: it would change nothing

        def play(s: BattleState) -> Step[BattleState]:
            return Step(s)

        return self.offer(
            state, "Solar Flare: no SPACE CANNON against your ships during this movement?", play
        )

    def ability_roll(
        self,
        setup: BattleSetup,
        state: BattleState,
        roller: Side,
        roll: Roll,
        groups: tuple[DiceGroup, ...],
    ) -> tuple[DiceGroup, ...]:
        owner = self.owner
        if (
            owner is None
            or roller is not owner.other
            or roll is not Roll.SPACE_CANNON_OFFENSE
            or not state.has_used(owner, self.card)
        ):
            return groups
        return ()
