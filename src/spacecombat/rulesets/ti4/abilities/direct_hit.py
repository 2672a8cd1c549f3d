"""Direct Hit (action card): after a ship of your opponent uses SUSTAIN DAMAGE to cancel a hit
you produced, destroy that ship (data/cards.toml; ti4-combat-effects.md, action cards). Offered
to its holder right after each SUSTAIN DAMAGE of an opponent's ship (ti4-space-combat.md step
4.1; space cannon offense hits too, anti-fighter barrage hits widened by Waylay, and hits
produced in a timing window: Ambush, Dimensional Splicer; docs/rulings.md 14H-2), except a
ship Direct Hit cannot destroy
(``immune_to_direct_hit`` in units.toml: Dreadnought II and the like). The stock policy plays
it on the first ship it is offered for (``policy.play`` may say ``never`` or name the round;
``policy.sustain: in_order`` lets the immune ships sustain first). The destroyed ship is
queued for the effects that follow a unit's destruction (``after_destroyed``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.core.forces import Status
from spacecombat.core.hits import unit_destroyed
from spacecombat.rulesets.ti4.abilities.base import Card, register
from spacecombat.rulesets.ti4.abilities.sustain_damage import (
    ActsOnHits,
    immune_to_direct_hit,
    queued,
)
from spacecombat.rulesets.ti4.hooks import FollowUp

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side
    from spacecombat.rulesets.ti4.state import BattleState

#: the ``cause`` of the ``unit_destroyed`` event
CAUSE = "direct hit"


@register
class DirectHit(ActsOnHits, Card):
    id = "direct_hit"
    card = "direct_hit"
    #: offered after the opponent's ship uses SUSTAIN DAMAGE, "pass" changes nothing, and the
    #: ship is destroyed after a "play" only: it acts only once played (24B-1, 24U-4)
    played_as = card
    #: it destroys a ship of its owner's opponent that sustained a hit the owner produced: on
    #: its owner's path one of the other side's; on the other's, one another effect's hit
    #: reached (the owner's dice hit nothing there) (24AF-1)
    never_stalls_on = frozenset({"owner", "other"})

    def idle_while_assigning(self, setup: BattleSetup, state: BattleState, side: Side) -> bool:
        """It acts on the opponent's assignment only, and only while the card is held (not yet
        played, nor cancelled): else it answers ``None`` (``Handler.idle_while_assigning``)."""
        return side is self.owner or not self.held(state)

    def blind_while_assigning(self, setup: BattleSetup, state: BattleState, side: Side) -> bool:
        """While the opponent assigns, it reads the ship that just sustained, the opponent's
        units in space and whether its owner still holds the card; played, it destroys that
        ship and queues it for those who hear of units destroyed: nothing of its owner's part
        (``Handler.blind_while_assigning``)."""
        return True

    def after_sustain(
        self, setup: BattleSetup, state: BattleState, side: Side, where: int | None, cause: str
    ) -> Node[BattleState] | None:
        owner = self.owner
        if owner is None or side is owner or where is not None or not self.held(state):
            return None
        unit = state.sustained[-1]
        if unit not in setup.side(side).ship_types or unit in immune_to_direct_hit(setup, side):
            return None
        area = state.side(side).space
        # the ship that just sustained: "sustained this round" in a combat round, else damaged
        status = Status.SUSTAINED_THIS_ROUND
        if not area.count(unit, status):
            status = Status.DAMAGED

        def play(s: BattleState) -> Step[BattleState]:
            current = s.side(side)
            forces = current.space.remove(unit, status)
            destroyed = unit_destroyed(side, unit, status, CAUSE)
            gone = s.with_side(side, current.with_space(forces))
            return Step(queued(gone, FollowUp.destroyed(side, unit)), (destroyed,))

        return self.offer(
            state,
            f"Direct Hit: destroy the {side.value}'s {unit} that just sustained damage?",
            play,
            facts={"unit": unit},
        )
