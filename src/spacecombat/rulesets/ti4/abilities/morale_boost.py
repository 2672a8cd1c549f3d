"""Morale Boost (action card): at the start of a combat round, +1 to all of your combat rolls
that round (ti4-combat-effects.md §6; data/cards.toml). Played in the "start of combat round"
window of a space or ground combat (ti4-space-combat.md rule 2.1, ti4-ground-combat.md 4.1)
while its holder has dice to roll; the +1 lasts until the round ends (the round's ``boosts``;
``round_boost.RoundBoost``). The stock policy plays it in the first round (``policy.play`` may
say otherwise).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.rulesets.ti4.abilities.base import register
from spacecombat.rulesets.ti4.abilities.round_boost import RoundBoost, plus

if TYPE_CHECKING:
    from spacecombat.core.pool import DiceGroup
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side


@register
class MoraleBoost(RoundBoost):
    id = "morale_boost"
    card = "morale_boost"
    #: the +1 follows a "play" only (``RoundBoost``): it acts only once played
    played_as = card
    prompt = "Morale Boost: +1 to all your combat rolls this round?"

    def boost(
        self, setup: BattleSetup, roller: Side, groups: tuple[DiceGroup, ...]
    ) -> tuple[DiceGroup, ...]:
        return plus(groups, 1)
