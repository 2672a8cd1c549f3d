"""Prophecy of Ixth (law, elects a player): the elected player's fighters get +1 on their
combat rolls (ti4-combat-effects.md §7; data/laws.toml). The scenario names the player with
``elected: {prophecy_of_ixth: attacker}`` and the setup makes them the handler's owner. Combat
rolls only (space combat, where fighters fight), not unit-ability rolls (docs/rulings.md T4).
Losing the law by producing too few fighters happens outside any battle."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.rulesets.ti4.abilities.base import Handler, Roll, register
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup


@register
class ProphecyOfIxth(Handler):
    id = "prophecy_of_ixth"

    def roll_modifier(self, setup: BattleSetup, roller: Side, roll: Roll, unit: str) -> int:
        if roller is not self.owner or not roll.is_combat_roll:
            return 0
        return 1 if setup.side(roller).card(unit).type == "fighter" else 0
