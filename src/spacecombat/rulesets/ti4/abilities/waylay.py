"""Waylay (action card): before you roll dice for ANTI-FIGHTER BARRAGE, the hits of that roll may
be assigned to any of your opponent's ships, not only fighters (data/cards.toml;
ti4-combat-effects.md §6; ti4-space-combat.md step 1).

Offered to its holder just before its barrage roll (``before_ability_roll``, procedures/
space_combat.py ``anti_fighter_barrage``) when it has barrage dice to roll and the opponent
has a ship in the space area that is not a fighter (otherwise the card changes nothing); the
stock policy plays it (``policy.play`` may say ``never``). Played, the opponent assigns the
hits of that roll as usual, but to any of its ships (``widens_barrage``), and a ship with
SUSTAIN DAMAGE may cancel one of them: it may legally take the hit (docs/rulings.md
14D3-1); the cards that answer hits are offered against them as against other hits
(docs/rulings.md 14H-5). With its holder's Raid Formation, the hits beyond the opponent's
fighters damage ships and every hit is still assigned (docs/rulings.md 27T-4)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.rulesets.ti4.abilities.anti_fighter_barrage import barrage_roll
from spacecombat.rulesets.ti4.abilities.base import Card, Roll, register

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side
    from spacecombat.rulesets.ti4.state import BattleState


@register
class Waylay(Card):
    id = "waylay"
    card = "waylay"

    def before_ability_roll(
        self, setup: BattleSetup, state: BattleState, roller: Side, roll: Roll
    ) -> Node[BattleState] | None:
        owner = self.owner
        if owner is None or roller is not owner or roll is not Roll.ANTI_FIGHTER_BARRAGE:
            return None
        if not self.held(state) or not barrage_roll(setup, state, owner).groups:
            return None
        opponent = owner.other
        cards = setup.side(opponent)
        others = [u for u in state.side(opponent).space.types() if u in cards.ship_types]
        if all(cards.is_fighter(u) for u in others):
            return None  # only fighters (or nothing): the hits reach them anyway

        return self.offer(
            state,
            "Waylay: your anti-fighter barrage hits may be assigned to any of your opponent's "
            "ships?",
            Step,
        )

    def widens_barrage(self, setup: BattleSetup, state: BattleState, side: Side) -> bool:
        owner = self.owner
        return owner is not None and side is owner.other and state.has_used(owner, self.card)
