"""Emergency Repairs (action card): at the start or end of a combat round, repair all of your
units with SUSTAIN DAMAGE in the active system (ti4-combat-effects.md; data/cards.toml). Offered
in the "start of combat round" and "end of combat round" windows (ti4-space-combat.md rules 2.1
and 9.1; ti4-ground-combat.md 4.1, 4.2) of a space or ground combat, only while its holder has a
damaged unit in the active system (space area or a planet), since otherwise it changes
nothing; the stock policy then plays it. Units damaged this round are repaired too."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.core.events import Event, event
from spacecombat.core.forces import Forces, Status
from spacecombat.rulesets.ti4.abilities.base import Acts, Card, register
from spacecombat.rulesets.ti4.hooks import Window

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState

WINDOWS = frozenset({Window.START_OF_COMBAT_ROUND, Window.END_OF_COMBAT_ROUND})


def _repaired(area: Forces) -> Forces:
    for unit, status, count in area:
        if status is not Status.UNDAMAGED:
            area = area.move(unit, status, Status.UNDAMAGED, count)
    return area


@register
class EmergencyRepairs(Card):
    id = "emergency_repairs"
    card = "emergency_repairs"
    #: the repairs follow a "play" only: it acts only once played
    played_as = card
    acts = Acts(WINDOWS, held=True)
    #: it repairs its owner's units only, as Duranium Armor (24AF-2)
    never_stalls_for_owner = True

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[Window]
    ) -> Node[BattleState] | None:
        owner = self.player
        units = state.side(owner)
        areas = (units.space, *units.planets)
        damaged = [
            (unit, count)
            for area in areas
            for unit, status, count in area
            if status is not Status.UNDAMAGED
        ]
        if not damaged:
            return None

        def play(s: BattleState) -> Step[BattleState]:
            side = s.side(owner)
            side = side.with_space(_repaired(side.space))
            for index in range(len(side.planets)):
                side = side.with_area(index, _repaired(side.planets[index]))
            repaired: tuple[Event, ...] = tuple(
                event("unit_repaired", player=owner.value, unit=unit, by="Emergency Repairs")
                for unit, count in damaged
                for _ in range(count)
            )
            return Step(s.with_side(owner, side), repaired)

        return self.offer(
            state, "Emergency Repairs: repair all your damaged units in the active system?", play
        )
