"""Fighter Prototype (action card): at the start of the first round of a space combat, +2 to
the combat rolls of your fighters that round (ti4-combat-effects.md; data/cards.toml). Played
in the "start of combat round" window of round 1 of a space combat (ti4-space-combat.md rule
2.1) while its holder has fighters in the active system; the +2 lasts until the round ends
(the round's ``boosts``). The stock policy plays it (``policy.play: never`` keeps it).
(``round_boost.RoundBoost``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.rulesets.ti4.abilities.base import register
from spacecombat.rulesets.ti4.abilities.round_boost import RoundBoost, plus

if TYPE_CHECKING:
    from spacecombat.core.pool import DiceGroup
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side
    from spacecombat.rulesets.ti4.state import BattleState


@register
class FighterPrototype(RoundBoost):
    id = "fighter_prototype"
    card = "fighter_prototype"
    #: the +2 follows a "play" only (``RoundBoost``): it acts only once played
    played_as = card
    prompt = "Fighter Prototype: +2 to your fighters' rolls this round?"

    def worth(self, setup: BattleSetup, state: BattleState, owner: Side) -> bool:
        # the first round of a space combat, with a fighter to boost
        if setup.kind != "space" or state.round != 1:
            return False
        fighters = setup.side(owner).fighter_types
        return state.side(owner).space.total(lambda u: u in fighters) > 0

    def boost(
        self, setup: BattleSetup, roller: Side, groups: tuple[DiceGroup, ...]
    ) -> tuple[DiceGroup, ...]:
        return plus(groups, 2, setup.side(roller).fighter_types)
