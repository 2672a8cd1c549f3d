"""Iconoclast Ω (Naalu mech, Codex III; data/units.toml ``naalu_mech_omega``, chosen with the
side's ``cards``): other players cannot use ANTI-FIGHTER BARRAGE against the Naalu player's
units in the mech's system (ti4-space-combat.md step 1). While one of the owner's mechs is in
the active system (its space area or a planet) when the opponent would roll its barrage, the
opponent's roll has no dice: every unit a barrage could reach (fighters; any ship with
Waylay; infantry by Strike Wing Alpha II marks) is the owner's. Read from the state
(``ability_roll``), since a mech may be removed for capacity before the battle
(docs/rulings.md 14S-1)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.rulesets.ti4.abilities.base import Handler, Roll, register

if TYPE_CHECKING:
    from spacecombat.core.pool import DiceGroup
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side
    from spacecombat.rulesets.ti4.state import BattleState

MECH = "mech"


@register
class NaaluMechOmegaBlocksAfb(Handler):
    id = "naalu_mech_omega_blocks_afb"

    def ability_roll(
        self,
        setup: BattleSetup,
        state: BattleState,
        roller: Side,
        roll: Roll,
        groups: tuple[DiceGroup, ...],
    ) -> tuple[DiceGroup, ...]:
        owner = self.owner
        if owner is None or roller is not owner.other or roll is not Roll.ANTI_FIGHTER_BARRAGE:
            return groups
        units = state.side(owner)
        if units.space.count(MECH) or any(planet.count(MECH) for planet in units.planets):
            return ()
        return groups
