"""Yin flagship (Van Hauge): when it is destroyed, destroy all ships in its system, both
players' (data/units.toml; ti4-combat-effects.md, flagships). It acts when the flagship is
destroyed while hits are assigned (any hits: space cannon offense, combat rounds; or Direct
Hit): every ship left in the space area of both players is destroyed at once (``unit_destroyed``
with cause "yin flagship"), each queued for the effects that follow a unit's destruction.
Ground forces and fighters in the space area: fighters are ships and are destroyed; ground
forces are not (docs/rulings.md 14A-10). It is not optional: no decision."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.core.events import Event
from spacecombat.core.hits import unit_destroyed
from spacecombat.rulesets.ti4.abilities.base import register
from spacecombat.rulesets.ti4.abilities.sustain_damage import ActsOnHits, queued
from spacecombat.rulesets.ti4.hooks import FollowUp
from spacecombat.rulesets.ti4.sides import SIDES

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side
    from spacecombat.rulesets.ti4.state import BattleState

FLAGSHIP = "flagship"
#: the ``cause`` of the ``unit_destroyed`` events
CAUSE = "yin flagship"


@register
class YinFlagshipDestroysAll(ActsOnHits):
    id = "yin_flagship_destroys_all"
    #: destroyed, it destroys every ship in the space area: the space combat ends (24AF-1)
    never_stalls_on = frozenset({"owner", "other"})

    def after_destroyed(
        self,
        setup: BattleSetup,
        state: BattleState,
        side: Side,
        where: int | None,
        unit: str,
        cause: str,
    ) -> Node[BattleState] | None:
        if side is not self.owner or not setup.side(side).is_a(unit, FLAGSHIP):
            return None
        events: list[Event] = []
        entries: list[FollowUp] = []
        new = state
        for player in SIDES:
            ships = setup.side(player).ship_types
            current = new.side(player)
            area = current.space
            doomed = [(u, s, n) for u, s, n in area if u in ships]
            if not doomed:
                continue
            for u, s, n in doomed:
                events += [unit_destroyed(player, u, s, CAUSE) for _ in range(n)]
                entries += [FollowUp.destroyed(player, u)] * n
            new = new.with_side(player, current.with_space(area.without(ships.__contains__)))
        if not events:
            return None
        return Step(queued(new, *entries), tuple(events))
