"""Munitions Reserves (Barony of Letnev faction ability): at the start of each round of space
combat, the owner may spend 2 trade goods; if they do, they may reroll any number of their dice
during that round (ti4-combat-effects.md §3; data/factions.toml). Asked in the "start of combat
round" window of a space combat (ti4-space-combat.md rule 2.1) while the owner has 2 trade
goods and dice to roll, as a ``play_card`` decision (facts ``card = "munitions_reserves"``);
the stock policy pays every round it can. Paid, the owner's combat roll that round rerolls
every die that produced no hit, once (``DiceGroup.reroll``; docs/rulings.md 14C-8).
The dice of the first round include the owner's ANTI-FIGHTER BARRAGE (step 1): paid in that
round, the barrage rerolls its misses too (``ability_roll``; docs/rulings.md
14D3-5)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.engine import Decision, Node, Step
from spacecombat.core.events import event
from spacecombat.rulesets.ti4.abilities.base import Acts, register
from spacecombat.rulesets.ti4.abilities.round_boost import RerollsThisRound
from spacecombat.rulesets.ti4.effects import combat_dice
from spacecombat.rulesets.ti4.hooks import Window

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState

COST = 2


@register
class MunitionsReserves(RerollsThisRound):
    id = "munitions_reserves"
    asks = id  # its decisions are named by its id (Handler.asks)
    reroller = "Munitions Reserves"
    barrage = True
    acts = Acts(frozenset({Window.START_OF_COMBAT_ROUND}), battles=frozenset({"space"}))
    #: it rerolls its owner's misses for 2 of the owner's trade goods, which no declared
    #: handler's reading rests on: it adds to its owner's dice only (24AF-2)
    never_stalls = True

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[Window]
    ) -> Node[BattleState] | None:
        owner = self.player
        if state.wealth(owner)[0] < COST or state.boosted(owner, self.id):
            return None
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

        def then(option: Option) -> Step[BattleState]:
            if option.action != "play":
                return Step(state)
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
