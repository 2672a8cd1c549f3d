"""Sardakk N'orr flagship (C'morran N'orr): +1 to the combat rolls of each of its owner's OTHER
ships in its system (ti4-combat-effects.md, flagships; data/units.toml). Ships roll only in
space combat, so it changes the space combat rolls (ti4-space-combat.md step 3) of the owner's
ships other than the flagship, in every round that starts with the flagship in the space area;
once it is destroyed the bonus ends (docs/rulings.md 14C-1)."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import replace
from typing import TYPE_CHECKING

from spacecombat.rulesets.ti4.abilities.base import Handler, register

if TYPE_CHECKING:
    from spacecombat.core.pool import DiceGroup
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side
    from spacecombat.rulesets.ti4.state import BattleState

FLAGSHIP = "flagship"


@register
class SardakkFlagshipBonus(Handler):
    id = "sardakk_flagship_bonus"
    #: reads the set-up and the roller's units alone (product form kept)
    keeps_product_form = frozenset({"combat_roll"})

    def roll_key(self, setup: BattleSetup, state: BattleState, roller: Side) -> Hashable:
        # the roller's units (which key the pool already) say whether the flagship is there
        return None

    def combat_roll(
        self,
        setup: BattleSetup,
        state: BattleState,
        roller: Side,
        groups: tuple[DiceGroup, ...],
    ) -> tuple[DiceGroup, ...]:
        if roller is not self.owner or setup.kind != "space":
            return groups
        cards = setup.side(roller)  # the flagship also as The Cavalry's ship (14CV-1)
        if not cards.count_of(state.side(roller).space, FLAGSHIP):
            return groups
        return tuple(
            g if cards.is_a(g.unit, FLAGSHIP) else replace(g, modifier=g.modifier + 1)
            for g in groups
        )
