"""Supercharge (Naaz-Rokha technology): at the start of a combat round, you may exhaust it: +1
to all of your combat rolls that round (ti4-combat-effects.md; data/technologies.toml). Offered
in the "start of combat round" window of a space or ground combat (ti4-space-combat.md rule
2.1, ti4-ground-combat.md 4.1) while its owner has units that roll; once exhausted it stays so
for the battle (``used``). The stock policy exhausts it in the first round it is offered.
(``round_boost.RoundBoost``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.rulesets.ti4.abilities.base import register
from spacecombat.rulesets.ti4.abilities.round_boost import RoundBoost, plus

if TYPE_CHECKING:
    from spacecombat.core.pool import DiceGroup
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side


@register
class Supercharge(RoundBoost):
    id = "supercharge"
    card = "supercharge"
    #: the +1 follows an exhaustion ("play") only (``RoundBoost``): it acts only once played
    played_as = card
    prompt = "Supercharge: exhaust for +1 to your combat rolls this round?"

    def boost(
        self, setup: BattleSetup, roller: Side, groups: tuple[DiceGroup, ...]
    ) -> tuple[DiceGroup, ...]:
        return plus(groups, 1)
