"""L4 Disruptors (Letnev yellow technology): during your invasions, no unit may use SPACE CANNON
against your units (ti4-combat-effects.md §3; data/technologies.toml). In an invasion led by
its owner (the attacker), the defender's space cannon defense (ti4-ground-combat.md invasion
step 3) has no dice: ``forbids_unit_ability``, read by ``space_cannon.cannon_pool``. Space
cannon offense happens in the movement step, not during an invasion, so it is not affected
(docs/rulings.md 14D1-2)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.rulesets.ti4.abilities.base import Handler, Roll, register

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side


@register
class L4Disruptors(Handler):
    id = "l4_disruptors"

    def forbids_unit_ability(self, setup: BattleSetup, roller: Side, roll: Roll) -> bool:
        return (
            setup.kind == "invasion"
            and self.owner is not None
            and self.owner.value == "attacker"
            and roller is self.owner.other
            and roll is Roll.SPACE_CANNON_DEFENSE
        )
