"""Units whose presence forbids the opponent's SUSTAIN DAMAGE where they are (the Mentak
flagship in the space area, the Mentak mech on its planet): one pattern, written once.

SUSTAIN DAMAGE is used before hits are assigned (ti4-space-combat.md step 4.1), so such a unit
there when an Assign Hits step begins forbids it for the whole step, even when its owner's own
assignment, made first, destroys it (docs/rulings.md 14A-1): the owner notes it (the round's
``boosts``) before assigning."""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, ClassVar

from spacecombat.core.engine import Node, Step
from spacecombat.rulesets.ti4.abilities.sustain_damage import ActsOnHits
from spacecombat.rulesets.ti4.state import Phase

if TYPE_CHECKING:
    from spacecombat.core.forces import Forces
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side
    from spacecombat.rulesets.ti4.state import BattleState


class NoEnemySustain(ActsOnHits):
    """While one of the owner's ``unit`` is in the area (the space area when ``in_space``, else
    the planet being fought over), the opponent's units there that the hits reach (ships, or
    ground forces) cannot use SUSTAIN DAMAGE."""

    #: the owner's unit type whose presence forbids it
    unit: ClassVar[str]
    #: whether it acts in the space area (else on a planet)
    in_space: ClassVar[bool]

    def _here(self, state: BattleState, owner: Side, where: int | None) -> Forces:
        side = state.side(owner)
        return side.space if where is None else side.planet(where)

    def _acts(self, where: int | None) -> bool:
        return (where is None) == self.in_space

    def forbids_sustain(
        self, setup: BattleSetup, state: BattleState, side: Side, where: int | None, unit: str
    ) -> bool:
        owner = self.owner
        if owner is None or side is owner or not self._acts(where):
            return False
        cards = setup.side(side)
        if unit not in (cards.ship_types if self.in_space else cards.ground_force_types):
            return False
        if setup.side(owner).count_of(self._here(state, owner, where), self.unit):
            return True
        # destroyed by the owner's own assignment earlier in this Assign Hits step: it was
        # there when the step began, when SUSTAIN DAMAGE is used (14A-1)
        return state.phase is Phase.ASSIGN_HITS and state.boosted(owner, self.id)

    def reads_while_assigning(
        self, setup: BattleSetup, state: BattleState, side: Side, where: int | None
    ) -> Hashable | None:
        """While the opponent assigns, ``forbids_sustain`` reads whether the owner's unit is
        there or was when the step began (both unchanged: the opponent's assignment does not
        touch the owner's units) and ``before_assign_hits`` does nothing; while the owner
        assigns, it does nothing once the step's note is made or with no such unit there
        (else it makes the note: ``None``)."""
        owner = self.owner
        if owner is None or not self._acts(where):
            return ()
        there = bool(setup.side(owner).count_of(self._here(state, owner, where), self.unit))
        noted = state.boosted(owner, self.id)
        if side is not owner:
            return (there, noted)
        return () if noted or not there else None

    def before_assign_hits(
        self, setup: BattleSetup, state: BattleState, side: Side, where: int | None, cause: str
    ) -> Node[BattleState] | None:
        """Before the owner assigns hits in a combat round (the attacker assigns first): note
        that the unit is there at the start of the step, for the opponent's assignment after."""
        owner = self.owner
        if side is not owner or state.phase is not Phase.ASSIGN_HITS or not self._acts(where):
            return None
        here = self._here(state, owner, where)
        if state.boosted(owner, self.id) or not setup.side(owner).count_of(here, self.unit):
            return None
        return Step(state.boosting(owner, self.id))
