"""Ragh's Call (Saar promissory note): after you commit 1 or more units to land on a planet,
remove all of the Saar player's ground forces from that planet and place them on a planet the
Saar player controls (ti4-combat-effects.md §5; data/cards.toml).

Held by the invader (the attacker) against a Saar defender. Offered through "play_card" after
step 2 of the invasion (invasion.py ``commit_ground_forces``, ``after_commit``) for a planet
the attacker committed units to and the defender has ground forces on; played once (the note
then goes back to the Saar player). The Saar ground forces leave the battle
(``ground_forces_returned``, by "Ragh's Call"): in an invasion of one planet no planet of the
Saar player's is in the battle. With several planets the Saar player could place them on
another planet of the battle, a choice the engine does not ask: that battle is refused by name
(docs/rulings.md 14D2-9)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.core.errors import RuleNotImplemented
from spacecombat.core.events import event
from spacecombat.core.state import ground_forces
from spacecombat.rulesets.ti4.abilities.base import Card, register
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState

SAAR = "saar"


@register
class RaghsCall(Card):
    id = "raghs_call"
    card = "raghs_call"

    def after_commit(
        self, setup: BattleSetup, state: BattleState, planet: int
    ) -> Node[BattleState] | None:
        owner = self.owner
        if owner is not Side.ATTACKER or not self.held(state):
            return None
        saar = owner.other
        if setup.side(saar).faction != SAAR:
            return None  # the note acts only against the Saar player
        if not state.side(owner).planet(planet) or not ground_forces(setup, state, saar, planet):
            return None
        if len(setup.planets) > 1:
            raise RuleNotImplemented(
                "Ragh's Call in an invasion of several planets (the Saar player may place its "
                "ground forces on another planet of the battle)",
                "attacker.promissory_notes (raghs_call)",
            )
        name = setup.planets[planet]
        cards = setup.side(saar)

        def play(s: BattleState) -> Step[BattleState]:
            theirs = s.side(saar)
            here = theirs.planet(planet)
            leaving = here.keep(cards.is_ground_force)
            gone = theirs.with_planet(planet, here.without(cards.is_ground_force))
            moved = event(
                "ground_forces_returned", planet=name, units=leaving.to_json(), by=self.id
            )
            return Step(s.with_side(saar, gone), (moved,))

        return self.offer(
            state,
            f"Ragh's Call: remove the Saar player's ground forces from {name}?",
            play,
            facts={"planet": name},
        )
