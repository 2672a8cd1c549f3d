"""The state both assignments lead to, put together at the round's end from the players' parts
where a handler acts after hits are assigned on its owner's part alone (issue 24, 24AG-4;
docs/architecture.md, "The odds engine", 24AG).

Once a round's rolls are taken player by player (rulesets/ti4/split_rolls.py), the explorer
walks on from each pair of players' parts after their assignments, from the defender's Assign
Hits step with no hit left. Where no handler acts after hits are assigned but those whose
``after_assign_hits`` is only a marker, the steps to the round's end read nothing of the parts
and are walked once for each chance state (round_end_reached.py, 24AC-6). Where a handler acts
then that reads and changes of the players' parts its owner's alone
(``Handler.own_part_after_assigning``: Duranium Armor repairs one of its owner's damaged units,
its owner's stock policy choosing which from the units offered, docs/architecture.md 24Y-4),
the same steps (the defender's step moves on, ti4-space-combat.md step 4; the window after hits
are assigned, procedures/combat_round.py ``after_assign_hits``; Retreat with nothing announced
moves on to the round's end, step 5) read of the parts the owners' alone: the state they reach
at the round's end is a function of the chance state's and of the owners' parts, the other
player's part carried as it was. They are walked, by the real procedure and decided by the
policies, once for each of the owners' parts met in a chance state's pairs, and every pair is
put together at the state reached, with its other player's part. Checked as it is walked: each
step a plain step or a decision beginning no round, the other player's part and purse as they
were, the round's end reached with no hit left. There the round's notes (``boosts``: the Crown
of Thalnos's units rerolled, the Mentak flagship's presence noted) and marks are cleared
already (``NOTES_CLEARED``), as the round's end clears them before it reads anything else: the
pairs alike but for them are then one state for the explorer.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import TYPE_CHECKING

from spacecombat.core.decisions import Policy
from spacecombat.rulesets.ti4.procedures.marker_hooks import marker_only
from spacecombat.rulesets.ti4.round_end_reached import walked_to_round_end
from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import NO_MARKS, BattleState, Phase

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.battle import Ti4Battle

#: whether the pairs of parts after are put together at the round's end where handlers act
#: after hits are assigned on their owners' parts alone (``RoundEndByParts``); off: at the
#: defender's Assign Hits step, as before (24AG-4; tests/odds/test_graph_round_end_parts.py)
BY_PARTS = True

#: the steps walked (round_end_reached.py ``walked_to_round_end``): the defender's Assign Hits
#: with no hit left, the window after hits are assigned (a step for each handler acting, a
#: decision where one chooses), Retreat with nothing announced
#: the most steps walked
_MOST = 16

_NO_HITS = (0, 0)

#: whether the state put together at the round's end has the round's notes and marks cleared
#: already: the round's end (procedures/combat_round.py ``end_of_round``, space rule 9.1,
#: ground rule 4.2) clears them before it reads anything but the arena and the units, and the
#: canonical form there reads neither (off: as the walk left them;
#: tests/odds/test_graph_round_end_parts.py; 24AG-5)
NOTES_CLEARED = True

_NO_BOOSTS: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())
_NO_MARKS = (NO_MARKS, NO_MARKS)


def owners(setup: BattleSetup, some: BattleState) -> tuple[Side, ...] | None:
    """The players whose handlers act after hits are assigned, each on its owner's part alone
    (``Handler.own_part_after_assigning``), where ``some`` (a pair of parts after put together
    at the defender's Assign Hits step) has no hit left, nothing queued or pending and no
    retreat announced, and every other handler answering ``after_assign_hits`` is only a
    marker; ``None`` elsewhere, or where no handler acts then (round_end_reached.py takes
    those), or with ``BY_PARTS`` off."""
    if (
        not BY_PARTS
        or some.phase is not Phase.ASSIGN_HITS
        or some.turn is not Side.DEFENDER
        or some.hits != _NO_HITS
        or some.following
        or some.pending is not None
        or some.retreat is not None
        or some.announced != (False, False)
    ):
        return None
    acting = [h for h in setup.answering("after_assign_hits") if not marker_only(h)]
    if not acting or not all(
        type(h).own_part_after_assigning and h.owner is not None for h in acting
    ):
        return None
    sides = {h.owner for h in acting}
    return tuple(side for side in (Side.ATTACKER, Side.DEFENDER) if side in sides)


class RoundEndByParts:
    """The states a chance state's pairs of parts after reach at the round's end, by the
    owners' parts (``owners``): walked once for each, the other player's part put back."""

    def __init__(
        self, battle: Ti4Battle, policies: Mapping[str, Policy], acting: tuple[Side, ...]
    ) -> None:
        self._battle = battle
        self._policies = policies
        self._acting = acting
        #: the other players (whose parts the steps carry as they were)
        self._carried = tuple(side for side in (Side.ATTACKER, Side.DEFENDER) if side not in acting)
        self._reached: dict[Hashable, BattleState] = {}

    def reached(self, some: BattleState) -> BattleState:
        """The state ``some`` (a pair of parts after put together at the defender's Assign
        Hits step) reaches at the round's end, or ``some`` itself where the walk is refused
        (the explorer then walks from it, as before)."""
        key = tuple((some.side(side), some.wealth(side)) for side in self._acting)
        known = self._reached.get(key)
        if known is not None:
            for side in self._carried:
                known = known.with_part(side, some.side(side), some.wealth(side))
            return known
        at = self._walked(some)
        if at is None:
            return some
        self._reached[key] = at
        return at

    def _walked(self, some: BattleState) -> BattleState | None:
        """The walk from ``some`` to the round's end by the real procedure, decided by the
        policies; ``None`` if it meets anything but steps and decisions beginning no round,
        changes a carried player's part, or does not reach the round's end with no hit
        left."""
        at = walked_to_round_end(self._battle, some, _MOST, self._policies)
        if at is None or at.hits != _NO_HITS:
            return None
        for side in self._carried:
            if at.side(side) != some.side(side) or at.wealth(side) != some.wealth(side):
                return None
        if NOTES_CLEARED and at.pending is None:
            # the round's end makes them so before it reads anything else: the states alike
            # but for them play out alike from here on
            at = at.changed(boosts=_NO_BOOSTS, marks=_NO_MARKS)
        return at
