"""Quetzecoatl (Argent flagship): other players cannot use SPACE CANNON against your ships in
this system (ti4-combat-effects.md §4; data/units.toml). With the flagship in the active
system, the opponent's space cannon offense (ti4-space-combat.md, the step before combat) has
no dice: ``forbids_unit_ability``, read by ``space_cannon.cannon_pool``. The flagship is there
when space cannon offense begins and no hit can take it away before the opponent fires: the
owner's own hits go to the opponent's ships, and the opponent fires only after them
(docs/rulings.md 14D1-3). Space cannon defense targets ground forces, not ships."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.rulesets.ti4.abilities.base import Handler, Roll, register

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side


@register
class ArgentFlagshipBlocksSpaceCannon(Handler):
    id = "argent_flagship_blocks_space_cannon"

    def forbids_unit_ability(self, setup: BattleSetup, roller: Side, roll: Roll) -> bool:
        return (
            self.owner is not None
            and roller is self.owner.other
            and roll is Roll.SPACE_CANNON_OFFENSE
        )
