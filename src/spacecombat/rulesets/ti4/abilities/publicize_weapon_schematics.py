"""Publicize Weapon Schematics (law, "for"): war suns have no SUSTAIN DAMAGE (data/laws.toml;
ti4-combat-effects.md, laws). A law in play is a handler of no player (``owner`` None): it
forbids SUSTAIN DAMAGE to every war sun, of either player, against any hit (combat, space
cannon, bombardment). The rest of the law (researching war suns) has no effect in a battle."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.rulesets.ti4.abilities.base import Handler, register

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side
    from spacecombat.rulesets.ti4.state import BattleState

WAR_SUN = "war_sun"


@register
class PublicizeWeaponSchematics(Handler):
    id = "publicize_weapon_schematics"
    #: reads the set-up alone (the unit's type) (product form kept)
    keeps_product_form = frozenset({"forbids_sustain"})

    def forbids_sustain(
        self, setup: BattleSetup, state: BattleState, side: Side, where: int | None, unit: str
    ) -> bool:
        return setup.side(side).card(unit).type == WAR_SUN
