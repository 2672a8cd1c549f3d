"""War Funding (Barony of Letnev promissory note, Prophecy of Kings printing; data/cards.toml):
at the start of a round of space combat, the Letnev player loses 2 trade goods and the holder
may reroll any number of their dice during that round; then the card returns to the Letnev
player (ti4-combat-effects.md §5; docs/rulings.md 14C2-4). The Ω revision, played
after both players roll, is another card (``war_funding_omega``).

Offered in the "start of combat round" window of a space combat (ti4-space-combat.md rule 2.1)
to a holder who is not the Letnev player and has dice to roll, as a ``play_card`` decision
(facts ``card = "war_funding"``); once a battle (it leaves the holder). Played, the Letnev
player, if they are the opponent, loses 2 trade goods, or all they have if fewer (tirules.com:
it may be played when they have 0 or 1; ``trade_goods_lost``), and the holder's combat roll that
round rerolls every die that produced no hit, once (``DiceGroup.reroll``; as Munitions Reserves,
docs/rulings.md 14C-8). As there, the first round's dice include the holder's
ANTI-FIGHTER BARRAGE, whose misses are rerolled too (``ability_roll``; docs/rulings.md
14D3-5). The stock policy plays it in the first round."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.core.events import event
from spacecombat.rulesets.ti4.abilities.base import Acts, Card, register
from spacecombat.rulesets.ti4.abilities.round_boost import RerollsThisRound
from spacecombat.rulesets.ti4.effects import combat_dice
from spacecombat.rulesets.ti4.hooks import Window

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState

LETNEV = "letnev"
LOSS = 2


@register
class WarFunding(RerollsThisRound, Card):
    id = "war_funding"
    card = "war_funding"
    #: the Letnev's loss and the rerolls follow a "play" only (the round's boost, which its
    #: barrage reads too): it acts only once played
    played_as = card
    reroller = "War Funding"
    barrage = True
    #: on the stalemate check's paths it only makes its holder's misses rolled again: the
    #: favoured side's dice all hit, the other's never do; the Letnev's trade goods lost give
    #: or take no die of a handler that declares this (docs/rulings.md 24AA-3)
    never_stalls = True
    acts = Acts(frozenset({Window.START_OF_COMBAT_ROUND}), battles=frozenset({"space"}), held=True)

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[Window]
    ) -> Node[BattleState] | None:
        owner = self.player
        if setup.side(owner).faction == LETNEV:
            return None
        if not combat_dice(setup, state, owner):
            return None
        letnev = owner.other if setup.side(owner.other).faction == LETNEV else None

        def play(s: BattleState) -> Step[BattleState]:
            s = s.boosting(owner, self.card)
            if letnev is None:
                return Step(s)
            lost = min(LOSS, s.wealth(letnev)[0])
            if not lost:
                return Step(s)
            gone = event(
                "trade_goods_lost",
                player=letnev.value,
                trade_goods=lost,
                by=self.card,
                round=state.round,
            )
            return Step(s.spending(letnev, trade_goods=lost), (gone,))

        return self.offer(
            state, "War Funding: reroll your dice that miss this round (Letnev loses 2)?", play
        )
