"""Strike Wing Alpha II (Argent destroyer upgrade): each ANTI-FIGHTER BARRAGE die that shows a 9
or 10 also destroys 1 of the opponent's infantry in the space area of the active system
(data/units.toml; ti4-space-combat.md step 1).

The owner's barrage dice of those destroyers count marks at a natural 9 (``mark_on = 9``: the
face as rolled, so modifiers do not count) when the roll is formed from the state
(``ability_roll``); the barrage step destroys one infantry of the opponent's in the space area
per mark, at once, whether the die hit or not (procedures/space_combat.py
``anti_fighter_barrage``; ``anti_fighter_barrage.infantry_destroyed``); marks beyond the
infantry there are lost. The extra die Trrakan Aun Zulok or Strike Wing Ambuscade gives a
destroyer is one of its dice, so it counts too. Dice rerolled (Ta Zern, War Funding, Munitions
Reserves) count the marks of their last result: only misses are rerolled, and a miss cannot
show a 9 while a 9 hits (docs/rulings.md 14RR-4); a roll whose 9 may miss (modifiers) and is
rerolled is refused by name."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from spacecombat.core.errors import RuleNotImplemented
from spacecombat.rulesets.ti4.abilities.base import Handler, Roll, register

if TYPE_CHECKING:
    from spacecombat.core.pool import DiceGroup
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side
    from spacecombat.rulesets.ti4.state import BattleState

#: the natural face from which a barrage die also destroys an infantry
MARK_ON = 9


@register
class ArgentDestroyer2AfbKillsInfantry(Handler):
    id = "argent_destroyer2_afb_kills_infantry"

    def ability_roll(
        self,
        setup: BattleSetup,
        state: BattleState,
        roller: Side,
        roll: Roll,
        groups: tuple[DiceGroup, ...],
    ) -> tuple[DiceGroup, ...]:
        if roller is not self.owner or roll is not Roll.ANTI_FIGHTER_BARRAGE:
            return groups
        cards = setup.side(roller)
        changed = []
        for group in groups:
            if any(a.handler == self.id for a in cards.card(group.unit).abilities):
                try:
                    group = replace(group, mark_on=MARK_ON)
                except ValueError:
                    # rerolled dice whose 9 may miss: rerolling that miss would lose a mark
                    raise RuleNotImplemented(
                        "rerolling Strike Wing Alpha II's ANTI-FIGHTER BARRAGE dice whose natural"
                        " 9 may miss",
                        f"{roller.value}'s anti-fighter barrage",
                    ) from None
            changed.append(group)
        return tuple(changed)
