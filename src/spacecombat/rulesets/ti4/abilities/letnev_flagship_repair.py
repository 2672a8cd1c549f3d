"""Arc Secundus (Letnev flagship): at the start of every space combat round, repair this ship
(ti4-combat-effects.md; data/units.toml). It acts, with no choice to make, in the "start of
combat round" window of a space combat (ti4-space-combat.md rule 2.1, and the start of each
round, rule 8), before the round's other steps; a ground combat does not repair it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.core.events import event
from spacecombat.core.forces import Status
from spacecombat.rulesets.ti4.abilities.base import Acts, Handler, register
from spacecombat.rulesets.ti4.hooks import Window

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState

FLAGSHIP = "flagship"


@register
class LetnevFlagshipRepair(Handler):
    id = "letnev_flagship_repair"
    acts = Acts(frozenset({Window.START_OF_COMBAT_ROUND}), battles=frozenset({"space"}))
    #: it repairs its owner's flagship only, as Duranium Armor (24AF-2)
    never_stalls_for_owner = True

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[Window]
    ) -> Node[BattleState] | None:
        owner = self.player
        units = state.side(owner)
        space = units.space
        for status in (Status.DAMAGED, Status.SUSTAINED_THIS_ROUND):
            # the flagship, also as The Cavalry's ship (docs/rulings.md 14CV-1)
            for flagship in sorted(setup.side(owner).of_type(FLAGSHIP)):
                if space.count(flagship, status):
                    repaired = space.move(flagship, status, Status.UNDAMAGED)
                    done = event(
                        "unit_repaired", player=owner.value, unit=flagship, by="Arc Secundus"
                    )
                    return Step(state.with_side(owner, units.with_space(repaired)), (done,))
        return None
