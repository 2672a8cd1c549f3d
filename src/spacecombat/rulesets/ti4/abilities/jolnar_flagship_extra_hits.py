"""Jol-Nar flagship (J.N.S. Hylarim): each of its combat dice showing a natural 9 or 10 (before
modifiers) produces 2 additional hits (ti4-combat-effects.md, flagships; data/units.toml). Its
group of the space combat roll (ti4-space-combat.md step 3) counts them (``DiceGroup.extra_on``
and ``extra_hits``, core/pool.py): a die showing 9 or 10 produces 3 hits when it hits, and its
2 additional hits even if modifiers made it miss (docs/rulings.md 14C-6).

The change reads the set-up alone (which unit type is the flagship): the roller's pool is a
function of its units, as rounds in product form need (``keeps_product_form``)."""

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
#: a natural face at or above this produces ``EXTRA`` additional hits
NATURAL = 9
EXTRA = 2


@register
class JolnarFlagshipExtraHits(Handler):
    id = "jolnar_flagship_extra_hits"
    keeps_product_form = frozenset({"combat_roll"})

    def roll_key(self, setup: BattleSetup, state: BattleState, roller: Side) -> Hashable:
        return None  # reads nothing of the state

    def combat_roll(
        self,
        setup: BattleSetup,
        state: BattleState,
        roller: Side,
        groups: tuple[DiceGroup, ...],
    ) -> tuple[DiceGroup, ...]:
        if roller is not self.owner:
            return groups
        cards = setup.side(roller)  # The Cavalry's ship, if the flagship, is still it (14CV-1)
        return tuple(
            replace(g, extra_on=NATURAL, extra_hits=EXTRA) if cards.is_a(g.unit, FLAGSHIP) else g
            for g in groups
        )
