"""SUSTAIN DAMAGE: before hits are assigned, an undamaged unit with this ability may be damaged
to cancel a hit (ti4-space-combat.md step 4.1; ti4-ground-combat.md note 5). It works against
combat, space cannon and bombardment hits but not anti-fighter barrage hits, which only
fighters take (docs/rulings.md R4). How many hits one use cancels is 1 unless a handler says
otherwise (Non-Euclidean Shielding: 2)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.forces import Status
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup


def can_sustain(setup: BattleSetup, side: Side, unit: str, status: Status) -> bool:
    """Whether this unit may use SUSTAIN DAMAGE now: it has the ability and is undamaged."""
    return status is Status.UNDAMAGED and setup.side(side).card(unit).sustain_damage


def damaged_status(in_combat_round: bool) -> Status:
    """The status a unit takes when it sustains damage: within a combat round it is marked as
    sustained this round (Duranium Armor cannot repair it that round)."""
    return Status.SUSTAINED_THIS_ROUND if in_combat_round else Status.DAMAGED


def hits_cancelled(setup: BattleSetup, side: Side, hits: int) -> int:
    """Hits one use cancels, never more than are left to assign."""
    return min(hits, setup.sustain_cancels(side))
