"""SUSTAIN DAMAGE: before hits are assigned, an undamaged unit with this ability may be damaged
to cancel a hit (ti4-space-combat.md step 4.1; ti4-ground-combat.md note 5). It works against
combat, space cannon and bombardment hits but not anti-fighter barrage hits, which only
fighters take (docs/rulings.md R4). How many hits one use cancels is 1 unless a handler says
otherwise (Non-Euclidean Shielding: 2)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from spacecombat.core.forces import Status
from spacecombat.rulesets.ti4.abilities.base import Handler
from spacecombat.rulesets.ti4.hooks import FollowUp
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.core.engine import Node
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState


_UNDAMAGED, _DAMAGED, _SUSTAINED = Status.UNDAMAGED, Status.DAMAGED, Status.SUSTAINED_THIS_ROUND


def can_sustain(setup: BattleSetup, side: Side, unit: str, status: Status) -> bool:
    """Whether this unit may use SUSTAIN DAMAGE now: it has the ability and is undamaged."""
    return sustainable(setup, side)(unit, status)


def sustainable(setup: BattleSetup, side: Side) -> Callable[[str, Status], bool]:
    """``can_sustain`` for ``side``'s units (type, status), the cards read once."""
    able = setup.side(side).sustainers
    return lambda unit, status: status is _UNDAMAGED and unit in able


def immune_to_direct_hit(setup: BattleSetup, side: Side) -> frozenset[str]:
    """``side``'s unit types that Direct Hit cannot destroy (Dreadnought II and the like):
    a policy that sustains "in order" lets them sustain first."""
    return setup.remembered(
        ("immune_to_direct_hit", side),
        lambda: frozenset(
            unit for unit, card in setup.side(side).cards.items() if card.immune_to_direct_hit
        ),
    )


def damaged_status(in_combat_round: bool) -> Status:
    """The status a unit takes when it sustains damage: within a combat round it is marked as
    sustained this round (Duranium Armor cannot repair it that round)."""
    return _SUSTAINED if in_combat_round else _DAMAGED


def hits_cancelled(setup: BattleSetup, side: Side, hits: int) -> int:
    """Hits one use cancels, never more than are left to assign."""
    return min(hits, setup.sustain_cancels(side))


def queued(state: BattleState, *entries: FollowUp) -> BattleState:
    """``state`` with what just happened queued for the handlers of hit assignment
    (``following``: procedures/assign_hits.py); they are asked from the first handler on when
    the queue was empty."""
    cursor = state.cursor if state.following else 0
    return state.changed(following=(*state.following, *entries), cursor=cursor)


class ActsOnHits(Handler):
    """A handler whose effect on hit assignment depends on the state or changes more than the
    assigning player's units (a card played, an enemy flagship still in the system, hits made
    to vanish): a combat round with it is more than two independent per-player steps, so it
    must not be computed in product form, nor may the stalemate check assume that hits only
    take units away. ``acts_in_rounds`` (abilities/base.py) reads that from an overridden
    ``after_assign_hits``: this one overrides it, doing nothing."""

    def after_assign_hits(
        self, setup: BattleSetup, state: BattleState, side: Side
    ) -> Node[BattleState] | None:
        return None
