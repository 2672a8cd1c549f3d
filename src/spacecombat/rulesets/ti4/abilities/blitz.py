"""Blitz (action card): at the start of an invasion, each of your non-fighter ships in the
active system without BOMBARDMENT gains BOMBARDMENT 6 until the invasion ends
(ti4-combat-effects.md §6; data/cards.toml). Only the invader (the attacker) bombards; the card
is offered at the start of the invasion (invasion.py ``bombardment``, ``at_invasion_start``)
when such a ship is in the space area and a planet holds the defender's ground forces, and
adds one die hitting on 6 per such ship to the bombardment (``bombardment_roll``), with the
player's BOMBARDMENT modifiers (docs/rulings.md 14D2-2).

The scenario allots bombarding units to planets (``bombarded_by``) only among units with a
printed BOMBARDMENT, so the ships Blitz arms fire only in an invasion of one planet whose
bombardment is not allotted by hand (then every unit bombards it); otherwise the battle is
refused by name."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.core.errors import RuleNotImplemented
from spacecombat.core.pool import DiceGroup
from spacecombat.core.state import ground_forces
from spacecombat.rulesets.ti4.abilities.base import Card, Roll, register
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState

#: the BOMBARDMENT value Blitz gives
BLITZ_VALUE = 6


def armed(setup: BattleSetup, state: BattleState, side: Side) -> dict[str, int]:
    """``side``'s non-fighter ships in the space area without BOMBARDMENT, by type."""
    cards = setup.side(side)
    return {
        unit: count
        for unit, count in state.side(side).space.by_type().items()
        if cards.is_ship(unit)
        and not cards.is_fighter(unit)
        and cards.card(unit).bombardment is None
    }


@register
class Blitz(Card):
    id = "blitz"
    card = "blitz"

    def at_invasion_start(self, setup: BattleSetup, state: BattleState) -> Node[BattleState] | None:
        owner = self.owner
        if owner is not Side.ATTACKER or not self.held(state) or not armed(setup, state, owner):
            return None
        from spacecombat.rulesets.ti4.abilities.bombardment import bombardment_forbidden

        if not any(
            ground_forces(setup, state, owner.other, p) and bombardment_forbidden(setup, p) is None
            for p in range(len(setup.planets))
        ):
            return None  # nothing to bombard: it would change nothing
        planets = setup.scenario.planets
        if len(setup.planets) != 1 or (planets and planets[0].bombarded_by is not None):
            raise RuleNotImplemented(
                "Blitz in an invasion of several planets or with bombarded_by given: the "
                "scenario cannot allot the ships Blitz gives BOMBARDMENT to a planet",
                "attacker.action_cards (blitz)",
            )
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
        added = tuple(
            DiceGroup(unit, count, BLITZ_VALUE, setup.modifier(roller, Roll.BOMBARDMENT, unit))
            for unit, count in armed(setup, state, roller).items()
        )
        return groups + added
