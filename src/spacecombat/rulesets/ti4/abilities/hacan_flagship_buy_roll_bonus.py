"""Wrath of Kenara (Hacan flagship; data/units.toml): after the owner rolls a die during a space
combat in the flagship's system, they may spend 1 trade good to add +1 to that die's result, as
often as they like (ti4-combat-effects.md §4).

Asked in the "start of combat round" window of a space combat (ti4-space-combat.md rule 2.1)
while the flagship is in the fight and its owner has trade goods, as a ``play_card`` decision
naming the most trade goods to spend on that round's combat roll ("play
hacan_flagship_buy_roll_bonus: up to N trade goods", N from all of them down to 1, or
``pass``; facts ``card = "hacan_flagship_buy_roll_bonus"``). The roll then turns misses into
hits, the miss closest to hitting first, while the trade goods allowed last
(``DiceGroup.budget``): the roll's outcome is its hits and the trade goods spent, which leave
the owner's purse (procedures/combat_round.py ``roll_dice``: ``trade_goods_spent``). The stock
policy allows all of them. ANTI-FIGHTER BARRAGE dice are not offered. Dice another effect
rerolls (War Funding) are rerolled first, and the trade goods raise the misses left (docs/rulings.md
14RR-3); after the Crown of Thalnos's reroll, a unit whose die they make hit is saved
(14RR-11); several units of several dice the Crown may destroy are then one group a unit
(``_by_unit``; docs/rulings.md 27V-2, 27V-3). A roll whose dice make extra hits or count
natural faces is refused by name (14C2-3)."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import replace
from typing import TYPE_CHECKING

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.engine import Decision, Node, Step
from spacecombat.core.errors import RuleNotImplemented
from spacecombat.rulesets.ti4.abilities.base import Acts, Handler, register
from spacecombat.rulesets.ti4.effects import combat_pool
from spacecombat.rulesets.ti4.hooks import Window
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.core.pool import DiceGroup
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState

FLAGSHIP = "flagship"


@register
class HacanFlagshipBuyRollBonus(Handler):
    id = "hacan_flagship_buy_roll_bonus"
    asks = id  # its decisions are named by its id (Handler.asks)
    acts = Acts(frozenset({Window.START_OF_COMBAT_ROUND}), battles=frozenset({"space"}))
    #: on the stalemate check's paths it only allows trade goods, none spent: it adds to its
    #: owner's dice only (docs/rulings.md 24Y-3)
    never_stalls = True

    def _allowed(self, state: BattleState, side: Side) -> int:
        """The trade goods the owner allowed for this round's roll (0: none)."""
        marks = state.boosts[0 if side is Side.ATTACKER else 1]
        prefix = self.id + ":"
        return max((int(m[len(prefix) :]) for m in marks if m.startswith(prefix)), default=0)

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[Window]
    ) -> Node[BattleState] | None:
        owner = self.player
        trade_goods = state.wealth(owner)[0]
        if not trade_goods or not setup.side(owner).count_of(state.side(owner).space, FLAGSHIP):
            return None
        pool = combat_pool(setup, state, owner)
        if all(g.hit_on <= 1 for g in pool.groups):
            return None  # no die can miss (or none is rolled): nothing to buy
        options = [
            Option(f"play {self.id}: up to {n} trade goods", "play", count=n)
            for n in range(trade_goods, 0, -1)
        ]
        options.append(Option("pass", "pass"))
        request = DecisionRequest(
            "play_card",
            owner.value,
            "Wrath of Kenara: spend trade goods for +1 on your missed dice this round "
            "(the misses closest to hitting first)?",
            tuple(options),
            facts={"card": self.id, "round": state.round, "trade_goods": trade_goods},
        )

        def then(option: Option) -> Step[BattleState]:
            if option.action != "play":
                return Step(state)
            return Step(state.boosting(owner, f"{self.id}:{option.count}"))

        return Decision(request, then)

    def roll_key(self, setup: BattleSetup, state: BattleState, roller: Side) -> Hashable:
        if roller is not self.owner or setup.kind != "space":
            return None
        return min(self._allowed(state, roller), state.wealth(roller)[0])

    def combat_roll(
        self,
        setup: BattleSetup,
        state: BattleState,
        roller: Side,
        groups: tuple[DiceGroup, ...],
    ) -> tuple[DiceGroup, ...]:
        budget = self.roll_key(setup, state, roller)
        if not budget or not setup.side(roller).count_of(state.side(roller).space, FLAGSHIP):
            return groups
        assert isinstance(budget, int)
        try:
            # dice rerolled at +0 first (War Funding): the trade goods raise the misses left
            return tuple(
                replace(unit, budget=budget, effect=self.id) for g in groups for unit in _by_unit(g)
            )
        except ValueError:
            raise RuleNotImplemented(
                "the Hacan flagship's trade goods on dice that make extra hits or count natural"
                " faces",
                f"{roller.value}'s roll in round {state.round}",
            ) from None


def _by_unit(group: DiceGroup) -> list[DiceGroup]:
    """``group`` as the groups the trade goods raise: itself, or, when the Crown of Thalnos
    may destroy its units of several dice, one group a unit, so that the roll's tally tells
    which units are at risk and a trade good saves one of them first (docs/rulings.md 14RR-11,
    27V-2, 27V-3)."""
    if group.doom < 2 or group.dice <= group.doom:
        return [group]
    return [replace(group, dice=group.doom)] * (group.dice // group.doom)
