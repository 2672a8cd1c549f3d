"""Graviton Laser System (technology): you may exhaust this card before one or more of your units
use SPACE CANNON; hits produced by those units must then be assigned to non-fighter ships if
able (data/technologies.toml; ti4-combat-effects.md, technologies; docs/rulings.md
14G-1).

Offered through the "play_card" decision just before its owner's space cannon offense roll
(``before_ability_roll``, procedures/space_cannon_offense.py), when the roll has dice and the
opponent has both fighters and non-fighter ships in the active system (otherwise it changes
nothing); the stock policy exhausts it then (``policy.play: never`` keeps it). Exhausted, it
stays so for the battle (``used``), and every hit of that roll must go to non-fighter ships
while the opponent has any (``aims_ability_hits``; procedures/assign_hits.py ``aiming``). Not
against space cannon defense, which hits ground forces (14G-2). A space cannon roll made before
the active player's (Experimental Battlestation of the same player) is refused by name."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.core.errors import RuleNotImplemented
from spacecombat.rulesets.ti4.abilities.base import Card, Roll, register

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side
    from spacecombat.rulesets.ti4.state import BattleState

SCO = Roll.SPACE_CANNON_OFFENSE


@register
class GravitonLaserSystem(Card):
    id = "graviton_laser_system"
    card = "graviton_laser_system"

    def before_ability_roll(
        self, setup: BattleSetup, state: BattleState, roller: Side, roll: Roll
    ) -> Node[BattleState] | None:
        owner = self.owner
        if owner is None or roll is not SCO or not self.held(state):
            return None
        from spacecombat.rulesets.ti4.procedures.space_cannon_offense import (
            offense_pool,
            overriding,
        )

        extra = [h.id for h in overriding(setup, "extra_ability_roll") if h.owner is owner]
        if extra and self._worth(setup, state, owner):
            # its roll comes before the owner's turn to fire: the exhaust would have to be
            # offered then too (14G-1)
            raise RuleNotImplemented(
                f"Graviton Laser System with a space cannon roll of {', '.join(extra)}",
                f"{owner.value}'s space cannon offense",
            )
        if roller is not owner or not self._worth(setup, state, owner):
            return None
        if not offense_pool(setup, state, owner).groups:
            return None

        def play(s: BattleState) -> Step[BattleState]:
            return Step(s)

        return self.offer(
            state,
            "Graviton Laser System: exhaust it so that your SPACE CANNON hits must go to"
            " non-fighter ships?",
            play,
        )

    def _worth(self, setup: BattleSetup, state: BattleState, owner: Side) -> bool:
        """Whether the opponent has both fighters and non-fighter ships in the space area."""
        other = owner.other
        cards = setup.side(other)
        ships, fighters = cards.ship_types, cards.fighter_types
        space = state.side(other).space
        return bool(space.total(lambda u: u in fighters)) and bool(
            space.total(lambda u: u in ships and u not in fighters)
        )

    def aims_ability_hits(
        self, setup: BattleSetup, state: BattleState, roller: Side, roll: Roll
    ) -> bool:
        # exhausted for this roll: the owner fires space cannon offense once a battle
        return roller is self.owner and roll is SCO and state.has_used(roller, self.card)
