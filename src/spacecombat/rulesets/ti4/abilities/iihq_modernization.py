"""I.I.H.Q. Modernization (Keleres yellow technology): its owner holds the Custodia Vigilia
planet and legendary cards: while it controls Mecatol Rex, Mecatol Rex has SPACE CANNON 5
(ti4-combat-effects.md §3 and §8; data/technologies.toml; Custodia Vigilia's text on
ti4.dronz.co/systems). In a battle in the Mecatol Rex system (system feature ``mecatol_rex``),
the owner's space cannon offense, and its space cannon defense when Mecatol Rex is invaded,
roll 1 more die hitting on 5 (``cannon_groups``). The owner is taken to control Mecatol Rex
(docs/rulings.md 14D1-10). The planet is not a unit: Plasma Scoring, Trrakan Aun
Zulok and Ta Zern do not act on its die (``space_cannon.NOT_UNITS``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.pool import DiceGroup
from spacecombat.rulesets.ti4.abilities.base import Handler, register

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.abilities.base import Roll
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side

#: the system feature (data/cards.toml condition) and the dice group's name
MECATOL_REX = "mecatol_rex"
HIT = 5


@register
class IihqModernization(Handler):
    id = "iihq_modernization"

    def cannon_groups(self, setup: BattleSetup, roller: Side, roll: Roll) -> tuple[DiceGroup, ...]:
        if roller is not self.owner or MECATOL_REX not in setup.system.features:
            return ()
        return (DiceGroup(MECATOL_REX, 1, HIT, setup.modifier(roller, roll, MECATOL_REX)),)
