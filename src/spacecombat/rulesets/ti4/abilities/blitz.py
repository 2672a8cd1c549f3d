"""Blitz (action card): at the start of an invasion, each of your non-fighter ships in the
active system without BOMBARDMENT gains BOMBARDMENT 6 until the invasion ends
(ti4-combat-effects.md §6; data/cards.toml). Only the invader (the attacker) bombards; the card
is offered at the start of the invasion (invasion.py ``bombardment``, ``at_invasion_start``)
when a ship it arms is allotted to a planet that holds the defender's ground forces, and adds
one die hitting on 6 per such ship to the bombardment (``bombardment_roll``), with the
player's BOMBARDMENT modifiers (docs/rulings.md 14D2-2).

The ships it arms are allotted to planets as the printed bombarders are: by the scenario's
``bombarded_by`` (which may name them when the attacker holds Blitz: ``gives_bombardment``),
every one of them bombarding the planet of a one-planet invasion by default
(docs/rulings.md 14K-1). Under Harrow (a bombardment during a ground combat) every ship it
armed bombards that planet."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.core.pool import DiceGroup
from spacecombat.core.state import ground_forces
from spacecombat.rulesets.ti4.abilities.base import INVASION_ONLY, Card, Roll, register
from spacecombat.rulesets.ti4.abilities.bombardment import bombardment_forbidden
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup, SideSetup
    from spacecombat.rulesets.ti4.state import BattleState

#: the BOMBARDMENT value Blitz gives
BLITZ_VALUE = 6


def can_arm(cards: SideSetup, unit: str) -> bool:
    """Whether Blitz gives ``unit`` BOMBARDMENT: a non-fighter ship without it."""
    return (
        cards.is_ship(unit) and not cards.is_fighter(unit) and cards.card(unit).bombardment is None
    )


def armed(
    setup: BattleSetup, state: BattleState, side: Side, allotted: Mapping[str, int] | None = None
) -> dict[str, int]:
    """``side``'s non-fighter ships in the space area without BOMBARDMENT, by type (only as many
    of each as ``allotted`` names, when given)."""
    cards = setup.side(side)
    found = {
        unit: count
        for unit, count in state.side(side).space.by_type().items()
        if can_arm(cards, unit)
    }
    if allotted is None:
        return found
    return {
        unit: firing
        for unit, count in found.items()
        if (firing := min(count, allotted.get(unit, 0)))
    }


@register
class Blitz(Card):
    id = "blitz"
    battles = (
        INVASION_ONLY  # played at the start of an invasion; its hooks arm a bombardment (24AJ-1)
    )
    card = "blitz"

    def gives_bombardment(self, cards: SideSetup, unit: str) -> bool:
        return can_arm(cards, unit)

    def at_invasion_start(self, setup: BattleSetup, state: BattleState) -> Node[BattleState] | None:
        owner = self.owner
        if owner is not Side.ATTACKER or not self.held(state):
            return None
        if not any(
            armed(setup, state, owner, setup.bombarded_by[p])
            and ground_forces(setup, state, owner.other, p)
            and bombardment_forbidden(setup, p) is None
            for p in range(len(setup.planets))
        ):
            return None  # no armed ship would bombard: it would change nothing
        return self.offer(
            state, "Blitz: your non-fighter ships without BOMBARDMENT gain BOMBARDMENT 6?", Step
        )

    def bombardment_roll(
        self,
        setup: BattleSetup,
        state: BattleState,
        roller: Side,
        planet: int,
        groups: tuple[DiceGroup, ...],
    ) -> tuple[DiceGroup, ...]:
        if roller is not self.owner or not state.has_used(roller, self.card):
            return groups
        # step 1: the ships allotted to this planet; during a ground combat (Harrow): every one
        allotted = None if state.round else setup.bombarded_by[planet]
        added = tuple(
            DiceGroup(unit, count, BLITZ_VALUE, setup.modifier(roller, Roll.BOMBARDMENT, unit))
            for unit, count in armed(setup, state, roller, allotted).items()
        )
        return groups + added
