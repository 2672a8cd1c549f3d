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
against space cannon defense, which hits ground forces (14G-2).

Its owner's Experimental Battlestation fires before the active player's space cannon offense
(``space_cannon_offense.extra_cannon_roll``): on the active player's turn, when the owner may
play that card, the exhaust is offered for the next roll of the owner's units, the dock's
(docs/rulings.md 14K-4); that roll's hits are then restricted, and the owner's own space
cannon offense afterwards is not, unless the dock did not fire (the card was passed, or Solar
Flare stopped it): the exhaust then covers that roll. A boost (``FOR_BATTLESTATION``) records
which roll it was exhausted for."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.rulesets.ti4.abilities.base import Card, Roll, register
from spacecombat.rulesets.ti4.abilities.experimental_battlestation import (
    FIRED,
    ExperimentalBattlestation,
)
from spacecombat.rulesets.ti4.effects import offense_pool

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side
    from spacecombat.rulesets.ti4.state import BattleState

SCO = Roll.SPACE_CANNON_OFFENSE
#: a boost of the owner's: exhausted before its Experimental Battlestation's dock fired
FOR_BATTLESTATION = "graviton_laser_system:battlestation"


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
        if roller is owner.other:
            # on the active player's turn: before the owner's Battlestation dock fires
            if not self._worth(setup, state, owner) or not self._dock_may_fire(
                setup, state, roller
            ):
                return None
            return self.offer(
                state,
                "Graviton Laser System: exhaust it so that the SPACE CANNON hits of your next"
                " roll (Experimental Battlestation's dock) must go to non-fighter ships?",
                lambda s: Step(s.boosting(owner, FOR_BATTLESTATION)),
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

    def _dock_may_fire(self, setup: BattleSetup, state: BattleState, roller: Side) -> bool:
        """Whether the owner may still play Experimental Battlestation before ``roller``'s
        space cannon offense (its dock would fire)."""
        return any(
            isinstance(h, ExperimentalBattlestation)
            and h.owner is self.owner
            and h.may_be_played(setup, state, roller, SCO)
            for h in setup.handlers
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
        if roller is not self.owner or roll is not SCO or not state.has_used(roller, self.card):
            return False
        # exhausted for this roll: the owner fires space cannon offense once a battle, and its
        # Battlestation dock once, on the active player's turn
        for_dock = state.boosted(roller, FOR_BATTLESTATION)
        if state.turn is not roller:  # the dock's roll
            return for_dock
        return not for_dock or not state.boosted(roller, FIRED)
