"""Brother Milor (Yin agent): after a player's unit is destroyed, exhaust: that player places 2
fighters (a ship was destroyed) or 2 infantry (a ground force was destroyed) from their
reinforcements in that unit's system or on its planet (data/cards.toml; ti4-combat-effects.md,
leaders). Offered to its holder after one of their own units is destroyed while hits are
assigned (any hits: space cannon, anti-fighter barrage, combat rounds, bombardment, ground
combat; or by an effect acting then); the fighters go to the space area, the infantry to the
planet where the ground force was, and take part in the combat from then on. Not offered for
the opponent's units, nor for a unit that is neither a ship nor a ground force
(docs/rulings.md 14A-12). The stock policy exhausts it the first time it is offered
(``policy.play`` may restrict)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.core.events import event
from spacecombat.rulesets.ti4.abilities.base import Card, register
from spacecombat.rulesets.ti4.abilities.sustain_damage import ActsOnHits

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side
    from spacecombat.rulesets.ti4.state import BattleState

FIGHTER, INFANTRY = "fighter", "infantry"
PLACED = 2


@register
class BrotherMilor(ActsOnHits, Card):
    id = "brother_milor"
    card = "brother_milor"
    #: once exhausted it acts no more: at most 2 fighters (space) or infantry (a planet) placed
    #: for its holder in the combat (docs/rulings.md 24AC-3)
    never_stalls_where_all_hit = frozenset({FIGHTER, INFANTRY})

    def idle_while_assigning(self, setup: BattleSetup, state: BattleState, side: Side) -> bool:
        """Its hooks of hit assignment act on its holder's assignment only, and only while the
        card is held (not yet played, nor cancelled): else they answer ``None``
        (``Handler.idle_while_assigning``)."""
        return side is not self.owner or not self.held(state)

    def after_destroyed(
        self,
        setup: BattleSetup,
        state: BattleState,
        side: Side,
        where: int | None,
        unit: str,
        cause: str,
    ) -> Node[BattleState] | None:
        if side is not self.owner or not self.held(state):
            return None
        cards = setup.side(side)
        if unit in cards.ship_types and where is None:
            placed, at = FIGHTER, None
        elif unit in cards.ground_force_types and where is not None:
            placed, at = INFANTRY, where
        else:
            return None
        if placed not in cards.cards:
            return None
        place = "the space area" if at is None else setup.planets[at]

        def play(s: BattleState) -> Step[BattleState]:
            current = s.side(side)
            forces = current.area(at).add(placed, count=PLACED)
            done = event(
                "units_placed",
                player=side.value,
                unit=placed,
                count=PLACED,
                planet=None if at is None else setup.planets[at],
                by=self.card,
            )
            return Step(s.with_side(side, current.with_area(at, forces)), (done,))

        return self.offer(
            state,
            f"Brother Milor: your {unit} was destroyed; place {PLACED} {placed} in {place}?",
            play,
            facts={"unit": unit},
        )
