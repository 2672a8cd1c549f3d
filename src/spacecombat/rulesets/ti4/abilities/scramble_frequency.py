"""Scramble Frequency (action card): after another player makes a BOMBARDMENT, SPACE CANNON or
ANTI-FIGHTER BARRAGE roll, that player rerolls all of those dice (data/cards.toml;
ti4-combat-effects.md §6).

Offered to the holder right after the opponent's roll, before its results are used
(``after_ability_roll``): the anti-fighter barrage (procedures/space_combat.py; when the roll
produced a hit or destroys infantry: Strike Wing Alpha II marks), the SPACE CANNON offense
(procedures/space_cannon_offense.py), the SPACE CANNON defense and the BOMBARDMENT
(procedures/invasion.py; ``reviewed_roll``) when the roll produced a hit. The stock policy
plays it then (``policy.play`` may say ``never``). Played, the roll is discarded and the
opponent rolls the same dice again (state.py ``Mark.REROLL``): its results are the second
roll's. The decision is taken seeing the first roll's hits, so the outcome is exact
(docs/rulings.md 14D3-4, 14SF-1).

A roll whose misses the roller rerolled (Munitions Reserves, Ta Zern, War Funding) is rolled
again as a whole, and that result is final: the roller's own rerolls were made right after its
first roll (``ability_roll`` keeps them off the second; docs/rulings.md 14RR-9, 14SF-2).
The defender's Experimental Battlestation roll is a SPACE CANNON roll: the attacker holding
the card is asked after it as after any (effects.py ``extra_cannon_roll``; docs/rulings.md
27T-3). A BOMBARDMENT of several planets is one bombardment roll (LRR 15.1): while a handler
acts after the roll, every planet's dice are rolled before any hit is assigned, the card is
offered once, seeing the whole roll's hits, and played, every planet's dice are rolled again
(procedures/invasion.py ``joint_bombardment``; docs/rulings.md 27T-10)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.rulesets.ti4.abilities.base import Card, Roll, register
from spacecombat.rulesets.ti4.effects import final_die
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import Mark

if TYPE_CHECKING:
    from spacecombat.core.pool import DiceGroup
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState

#: the rolls the card answers, as the decision names them
ROLLS = {
    Roll.ANTI_FIGHTER_BARRAGE: "anti-fighter barrage",
    Roll.SPACE_CANNON_OFFENSE: "space cannon offense",
    Roll.SPACE_CANNON_DEFENSE: "space cannon defense",
    Roll.BOMBARDMENT: "bombardment",
}

#: recorded (``used``) when the card is played against another roll than the anti-fighter
#: barrage: the barrage's own rerolls are then kept
ELSEWHERE = "scramble_frequency:not_barrage"


@register
class ScrambleFrequency(Card):
    id = "scramble_frequency"
    card = "scramble_frequency"

    def after_ability_roll(
        self, setup: BattleSetup, state: BattleState, roller: Side, roll: Roll, marks: int
    ) -> Node[BattleState] | None:
        owner = self.owner
        if owner is None or roller is not owner.other or roll not in ROLLS:
            return None
        hits = state.hits_on(owner)
        if not self.held(state) or not (hits or marks):
            return None
        barrage = roll is Roll.ANTI_FIGHTER_BARRAGE

        def play(s: BattleState) -> Step[BattleState]:
            rerolled = s.marking(roller, Mark.REROLL)
            return Step(rerolled if barrage else rerolled.using(owner, ELSEWHERE))

        return self.offer(
            state,
            f"Scramble Frequency: the {roller.value}'s {ROLLS[roll]} produced {hits} "
            "hit(s); make them reroll all of those dice?",
            play,
            facts={"hits": hits, "roll": roll.value},
        )

    def ability_roll(
        self,
        setup: BattleSetup,
        state: BattleState,
        roller: Side,
        roll: Roll,
        groups: tuple[DiceGroup, ...],
    ) -> tuple[DiceGroup, ...]:
        owner = self.owner
        if owner is None or roller is not owner.other or roll is not Roll.ANTI_FIGHTER_BARRAGE:
            return groups
        if not state.has_used(owner, self.card) or state.has_used(owner, ELSEWHERE):
            return groups
        # the barrage rolled again for the card: that result is final, the roller's own rerolls
        # (Munitions Reserves, Ta Zern, War Funding) were made after the first roll (14RR-9);
        # the other rolls are made final where they are rolled again (``reviewed_roll``)
        return tuple(final_die(g) for g in groups)
