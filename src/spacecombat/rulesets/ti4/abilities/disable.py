"""Disable (action card): at the start of an invasion in a system holding your opponent's PDS,
those PDS lose PLANETARY SHIELD and SPACE CANNON for the rest of the invasion
(ti4-combat-effects.md §6; data/cards.toml). The invader (the attacker) plays it at the start
of the invasion (invasion.py ``bombardment``, ``at_invasion_start``) when the defender has a
PDS on a planet of the battle; from then on the defender's PDS neither stop the bombardment
(planetary_shield.py, Magen Defense Grid) nor fire SPACE CANNON DEFENSE
(invasion.py ``space_cannon_defense``), through ``loses_ability``. Other units with those
abilities keep them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.rulesets.ti4.abilities.base import INVASION_ONLY, Card, register
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState

#: the unit type that loses its abilities
PDS = "pds"
LOST = frozenset({"planetary_shield", "space_cannon"})


@register
class Disable(Card):
    id = "disable"
    #: played at the start of an invasion; its abilities are lost only once played (24AJ-1)
    battles = INVASION_ONLY
    card = "disable"

    def at_invasion_start(self, setup: BattleSetup, state: BattleState) -> Node[BattleState] | None:
        owner = self.owner
        if owner is not Side.ATTACKER or not self.held(state):
            return None
        opponent = state.side(owner.other)
        if not any(opponent.planet(p).count(PDS) for p in range(len(setup.planets))):
            return None  # no PDS: it would change nothing
        return self.offer(
            state, "Disable: your opponent's PDS lose PLANETARY SHIELD and SPACE CANNON?", Step
        )

    def loses_ability(
        self, setup: BattleSetup, state: BattleState, owner: Side, unit: str, ability: str
    ) -> bool:
        return (
            self.owner is not None
            and owner is self.owner.other
            and unit == PDS
            and ability in LOST
            and state.has_used(self.owner, self.card)
        )
