"""Munitions Reserves (Barony of Letnev faction ability): at the start of each round of space
combat, the owner may spend 2 trade goods; if they do, they may reroll any number of their dice
during that round (ti4-combat-effects.md §3; data/factions.toml). Asked in the "start of combat
round" window of a space combat (ti4-space-combat.md rule 2.1) while the owner has 2 trade
goods and dice to roll, as a ``play_card`` decision (facts ``card = "munitions_reserves"``);
the stock policy pays every round it can. Paid, the owner's combat roll that round rerolls
every die that produced no hit, once (``DiceGroup.reroll``; docs/rulings-drafts/C.md 14C-8).
The dice of the first round include the owner's ANTI-FIGHTER BARRAGE (step 1), whose pool
cannot reroll yet: paying in a first round where that barrage could hit a fighter is refused
by name (against no fighters, leaving the barrage as rolled changes nothing)."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import replace
from typing import TYPE_CHECKING

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.engine import Decision, Node, Step
from spacecombat.core.errors import RuleNotImplemented
from spacecombat.core.events import event
from spacecombat.rulesets.ti4.abilities.base import Handler, register

if TYPE_CHECKING:
    from spacecombat.core.pool import DiceGroup
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side
    from spacecombat.rulesets.ti4.state import BattleState

START_OF_COMBAT = "start_of_combat"
START_OF_COMBAT_ROUND = "start_of_combat_round"
COST = 2


def _rerollable_barrage(setup: BattleSetup, state: BattleState, owner: Side) -> bool:
    """Whether the owner's anti-fighter barrage of the first round could hit something: its
    dice are dice of that round, which Munitions Reserves may reroll too (not implemented).
    Against no fighters its hits are lost, so leaving it as rolled changes nothing."""
    from spacecombat.rulesets.ti4.abilities.anti_fighter_barrage import barrage_pool

    if not barrage_pool(setup, owner, state.side(owner).space).groups:
        return False
    fighters = setup.side(owner.other).fighter_types
    return state.side(owner.other).space.total(lambda unit: unit in fighters) > 0


@register
class MunitionsReserves(Handler):
    id = "munitions_reserves"

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[str]
    ) -> Node[BattleState] | None:
        owner = self.owner
        if owner is None or setup.kind != "space" or START_OF_COMBAT_ROUND not in windows:
            return None
        if state.wealth(owner)[0] < COST or state.boosted(owner, self.id):
            return None
        from spacecombat.rulesets.ti4.procedures.common import combat_dice

        if not combat_dice(setup, state, owner):
            return None
        options = (Option(f"play {self.id}", "play", target=self.id), Option("pass", "pass"))
        request = DecisionRequest(
            "play_card",
            owner.value,
            f"Munitions Reserves: spend {COST} trade goods to reroll your misses this round?",
            options,
            facts={"card": self.id, "round": state.round},
        )

        barrage = START_OF_COMBAT in windows and _rerollable_barrage(setup, state, owner)

        def then(option: Option) -> Step[BattleState]:
            if option.action != "play":
                return Step(state)
            if barrage:
                # the round's dice include the owner's anti-fighter barrage against fighters
                raise RuleNotImplemented(
                    "Munitions Reserves rerolling ANTI-FIGHTER BARRAGE dice",
                    f"{owner.value}'s first round of space combat (pay it from round 2, "
                    "or give fewer than 2 trade goods)",
                )
            paid = state.spending(owner, trade_goods=COST).boosting(owner, self.id)
            spent = event(
                "trade_goods_spent",
                player=owner.value,
                trade_goods=COST,
                by=self.id,
                round=state.round,
            )
            return Step(paid, (spent,))

        return Decision(request, then)

    def roll_key(self, setup: BattleSetup, state: BattleState, roller: Side) -> Hashable:
        return roller is self.owner and state.boosted(roller, self.id)

    def combat_roll(
        self,
        setup: BattleSetup,
        state: BattleState,
        roller: Side,
        groups: tuple[DiceGroup, ...],
    ) -> tuple[DiceGroup, ...]:
        if not self.roll_key(setup, state, roller):
            return groups
        return tuple(g if g.reroll is not None else replace(g, reroll=0) for g in groups)
