"""Winnu flagship (Salai Sai Corian): when it makes a combat roll, it rolls as many dice as
the opponent has non-fighter ships in its system (ti4-combat-effects.md, flagships;
data/units.toml, whose combat dice are unset for it). Counted at each space combat roll
(ti4-space-combat.md step 3) from the opponent's ships in the space area then; with none left
it rolls no die (docs/rulings.md 14C-5). Its modifiers are those of any flagship roll. As
The Cavalry's ship (``cavalry_flagship``) it keeps this ability: it rolls that many dice at
the Nomad flagship's combat value, not the lent value's 2 dice (docs/rulings.md 14CV-3)."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import replace
from typing import TYPE_CHECKING

from spacecombat.core.pool import DiceGroup
from spacecombat.rulesets.ti4.abilities.base import Handler, Roll, register
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState

FLAGSHIP = "flagship"


@register
class WinnuFlagshipDice(Handler):
    id = "winnu_flagship_dice"
    #: it sets its owner's flagship's dice only: on the other player's path they hit nothing;
    #: on its owner's they fall with the opponent's non-fighter ships, to none while fighters
    #: are left, so that path may not end (24AF-1)
    never_stalls_on = frozenset({"other"})

    def sets_combat_dice(self, owner: Side, unit: str) -> bool:
        return owner is self.owner and unit == FLAGSHIP

    def _targets(self, setup: BattleSetup, state: BattleState, roller: Side) -> int:
        """The opponent's non-fighter ships in the space area."""
        opponent = roller.other
        cards = setup.side(opponent)
        counted = cards.ship_types - cards.fighter_types
        return state.side(opponent).space.total(lambda unit: unit in counted)

    def roll_key(self, setup: BattleSetup, state: BattleState, roller: Side) -> Hashable:
        if roller is not self.owner or setup.kind != "space":
            return None
        return self._targets(setup, state, roller)

    def combat_roll(
        self,
        setup: BattleSetup,
        state: BattleState,
        roller: Side,
        groups: tuple[DiceGroup, ...],
    ) -> tuple[DiceGroup, ...]:
        if roller is not self.owner or setup.kind != "space":
            return groups
        space = state.side(roller).space
        targets = self._targets(setup, state, roller)
        cards = setup.side(roller)
        # The Cavalry's ship: the lent combat value's group, with this ability's dice instead
        lent = tuple(
            replace(g, dice=space.count(g.unit) * targets)
            for g in groups
            if g.unit != FLAGSHIP and cards.is_a(g.unit, FLAGSHIP)
        )
        if lent:
            kept = tuple(
                g for g in groups if g.unit == FLAGSHIP or not cards.is_a(g.unit, FLAGSHIP)
            )
            groups = (*kept, *(g for g in lent if g.dice))
        flagships = space.count(FLAGSHIP)
        combat = cards.card(FLAGSHIP).combat
        if not flagships or combat is None:
            return groups
        dice = flagships * targets
        modifier = setup.modifier(roller, Roll.SPACE_COMBAT, FLAGSHIP)
        return (*groups, DiceGroup(FLAGSHIP, dice, combat.hit, modifier))
