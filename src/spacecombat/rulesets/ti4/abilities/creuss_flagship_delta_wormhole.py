"""Hil Colish (Creuss flagship): "this ship's system contains a delta wormhole" (units.toml).
In a battle it matters only to effects that ask whether the active system contains a wormhole
(Dimensional Splicer at the start of a space combat, ti4-space-combat.md rule 2.1): the system
contains one while the flagship is in its space area, so one destroyed before (by space cannon
offense) takes its wormhole with it (docs/rulings.md 14N-1). The handler acts in no
window; ``wormhole_in_system`` is the check those effects read."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.rulesets.ti4.abilities.base import Handler, register

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState

FLAGSHIP = "flagship"


@register
class CreussFlagshipDeltaWormhole(Handler):
    id = "creuss_flagship_delta_wormhole"

    def brings_wormhole(self, setup: BattleSetup, state: BattleState) -> bool:
        """Whether its owner's flagship (also as The Cavalry's ship) is in the space area of the
        active system now."""
        owner = self.owner
        return (
            owner is not None and setup.side(owner).count_of(state.side(owner).space, FLAGSHIP) > 0
        )


def wormhole_in_system(setup: BattleSetup, state: BattleState) -> bool:
    """Whether the active system contains a wormhole now: one the scenario states
    (``system.wormholes``), or the delta wormhole of a Creuss flagship in its space area."""
    return bool(setup.system.wormholes) or any(
        isinstance(h, CreussFlagshipDeltaWormhole) and h.brings_wormhole(setup, state)
        for h in setup.handlers
    )
