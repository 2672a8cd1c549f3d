"""Duranium Armor (red technology): during each combat round, after you assign hits to your
units, repair 1 of your damaged units that did not use SUSTAIN DAMAGE this round. It acts every
round, in space and ground combat, even when no hit was assigned, and may repair damage taken
before the combat; only units taking part in that combat are repaired (docs/rulings.md R7).
Which unit to repair is the owner's decision."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.engine import Decision, Node, Step
from spacecombat.core.events import event
from spacecombat.core.forces import Status
from spacecombat.rulesets.ti4.abilities.base import Handler, register
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState


@register
class DuraniumArmor(Handler):
    id = "duranium_armor"
    #: it repairs its owner's units only: on its owner's path of the stalemate check, where
    #: they are never hit, it takes no hit point from the other side back (docs/rulings.md
    #: 24Y-3)
    never_stalls_for_owner = True
    #: after hits are assigned it reads and repairs its owner's units alone (docs/architecture.md
    #: 24Y-4)
    own_part_after_assigning = True

    def after_assign_hits(
        self, setup: BattleSetup, state: BattleState, side: Side
    ) -> Node[BattleState] | None:
        if side is not self.owner:
            return None
        where = None if setup.kind == "space" else state.planet
        area = state.side(side).area(where)
        # R7 "participants only": ships fight a space combat, ground forces a ground combat (a
        # damaged mech carried in the space area takes no part in the space combat).
        cards = setup.side(side)
        fights = cards.is_ship if where is None else cards.is_ground_force
        repairable = [u for u in area.types() if fights(u) and area.count(u, Status.DAMAGED)]
        if not repairable:
            return None
        options = tuple(Option(f"repair {u}", "repair", u) for u in repairable)
        request = DecisionRequest(
            "repair", side.value, "Duranium Armor: repair 1 damaged unit", options
        )

        def then(option: Option) -> Step[BattleState]:
            unit = option.unit or ""
            forces = area.move(unit, Status.DAMAGED, Status.UNDAMAGED)
            new = state.with_side(side, state.side(side).with_area(where, forces))
            return Step(
                new, (event("unit_repaired", player=side.value, unit=unit, by="Duranium Armor"),)
            )

        return Decision(request, then)
