"""Ragh's Call (Saar promissory note): after you commit 1 or more units to land on a planet,
remove all of the Saar player's ground forces from that planet and place them on a planet the
Saar player controls (ti4-combat-effects.md §5; data/cards.toml).

Held by the invader (the attacker) against a Saar defender. Offered through "play_card" after
step 2 of the invasion (invasion.py ``commit_ground_forces``, ``after_commit``) for a planet
the attacker committed units to and the defender has ground forces on; played once (the note
then goes back to the Saar player). The Saar ground forces leave that planet
(``ground_forces_returned``, by "Ragh's Call"). In an invasion of one planet no other planet of
the Saar player's is in the battle: they leave the battle. With several planets, the Saar
player chooses where they go (decision ``place_ground_forces``, queued in ``following`` and
asked in ``follow_up``): another planet of the battle (every one is the Saar player's until
control is established), where they fight or defend with the units there, or a planet outside
the battle (docs/rulings.md 14K-3). The stock player sends them to the first planet of the
battle where the invader landed ground forces, else to the first other planet of the battle."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.engine import Decision, Node, Step
from spacecombat.core.events import event
from spacecombat.core.state import ground_forces
from spacecombat.rulesets.ti4.abilities.base import Card, register
from spacecombat.rulesets.ti4.hooks import FollowUp
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState

SAAR = "saar"
#: the ``place_ground_forces`` option that takes them out of the battle
OUTSIDE = "place outside the battle"


@register
class RaghsCall(Card):
    id = "raghs_call"
    #: acts after the ground forces are committed, before the rounds (product form kept)
    keeps_product_form = frozenset({"follow_up"})
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
        name = setup.planets[planet]

        def play(s: BattleState) -> Step[BattleState]:
            if len(setup.planets) > 1:  # the Saar player chooses where they go (follow_up)
                return Step(s.changed(following=(FollowUp.own(self.id, owner, str(planet), saar),)))
            return self._placed(setup, s, planet, None)

        return self.offer(
            state,
            f"Ragh's Call: remove the Saar player's ground forces from {name}?",
            play,
            facts={"planet": name},
        )

    def _placed(
        self, setup: BattleSetup, state: BattleState, planet: int, to: int | None
    ) -> Step[BattleState]:
        """The Saar ground forces on ``planet`` leave it, for planet ``to`` of the battle
        (``None``: a planet outside the battle)."""
        owner = self.owner
        assert owner is not None
        saar = owner.other
        cards = setup.side(saar)
        theirs = state.side(saar)
        here = theirs.planet(planet)
        leaving = here.keep(cards.is_ground_force)
        gone = theirs.with_planet(planet, here.without(cards.is_ground_force))
        facts: dict[str, object] = {}
        if to is not None:
            gone = gone.with_planet(to, gone.planet(to).plus(leaving))
            facts["to"] = setup.planets[to]
        moved = event(
            "ground_forces_returned",
            planet=setup.planets[planet],
            units=leaving.to_json(),
            by=self.id,
            **facts,
        )
        return Step(state.with_side(saar, gone), (moved,))

    def follow_up(
        self, setup: BattleSetup, state: BattleState, side: Side, detail: str, where: int | None
    ) -> Node[BattleState] | None:
        planet = int(detail)
        owner = self.owner
        assert owner is not None
        others = [p for p in range(len(setup.planets)) if p != planet]
        # the stock order: where the invader landed ground forces first, then the others
        others.sort(key=lambda p: not ground_forces(setup, state, owner, p))
        options = (
            *(
                Option(f"place on {setup.planets[p]}", "place", target=setup.planets[p])
                for p in others
            ),
            Option(OUTSIDE, "place"),
        )
        request = DecisionRequest(
            "place_ground_forces",
            side.value,
            f"Ragh's Call: where do your ground forces from {setup.planets[planet]} go?",
            options,
            facts={"planet": setup.planets[planet], "by": self.id},
        )

        def then(option: Option) -> Step[BattleState]:
            to = None if option.target is None else setup.planets.index(option.target)
            return self._placed(setup, state, planet, to)

        return Decision(request, then)
