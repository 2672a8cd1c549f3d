"""TI4 combat rounds in product form (``core/rounds.py``): when no handler acts in the round's
windows or after hits are assigned, and every player always has a die that can hit (so the FAQ
stalemate cannot arise), a round is two per-player steps. A retreat announced at the start of a
round (step 2) depends on both players' units, but only through what the decision reads of
each (``retreat_key``); the odds engine evaluates it once per pair of keys and carries it out,
at the end of the round, through the real Retreat procedure (step 5)."""

from __future__ import annotations

from collections.abc import Hashable

from spacecombat.core.engine import Step
from spacecombat.core.pool import DicePool
from spacecombat.core.rounds import (
    ATTACKER_ANNOUNCED,
    DEFENDER_ANNOUNCED,
    NOBODY,
    PLAYERS,
    Battle,
    NotInProductForm,
    PlayerRounds,
)
from spacecombat.core.sides import SideState
from spacecombat.core.state import ships
from spacecombat.rulesets.ti4.abilities.base import acts_in_rounds
from spacecombat.rulesets.ti4.effects import (
    arena,
    combat_dice,
    combat_pool,
    combatants,
    eligible_systems,
)
from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.sides import SIDES, Side
from spacecombat.rulesets.ti4.state import BattleState, Phase


class ProductRounds(PlayerRounds[BattleState]):
    """The per-player steps of a TI4 combat round."""

    def __init__(self, setup: BattleSetup, process: Battle) -> None:
        super().__init__(process)
        self.setup = setup
        #: whether a retreat can ever be announced (a space combat, a retreat policy, and an
        #: eligible system: eligibility depends on the setup alone)
        self.retreats = setup.kind == "space" and any(_may_announce(setup, side) for side in SIDES)

    @staticmethod
    def refusal(setup: BattleSetup) -> str | None:
        """Why the battle's rounds are not in product form, or ``None`` if they are."""
        acting = sorted({_owned(h.id, h.owner) for h in setup.handlers if acts_in_rounds(h)})
        if acting:
            return (
                f"{', '.join(acting)} {'acts' if len(acting) == 1 else 'act'} during the combat "
                "rounds, so a round is more than two independent per-player steps"
            )
        return None

    @staticmethod
    def applies(setup: BattleSetup) -> bool:
        """Whether the battle's rounds are in product form (given every live player can hit,
        which the odds engine checks state by state): no handler acts in the rounds. The
        ground combats of an invasion of several planets are fought one after another, and
        each only ever touches its own planet's units (``fights``)."""
        return ProductRounds.refusal(setup) is None

    def arena(self, template: BattleState) -> Hashable:
        return arena(self.setup, template)

    def round_start(self, state: BattleState) -> tuple[SideState, SideState] | None:
        if (
            state.phase is Phase.ROLL_DICE
            and state.turn is Side.ATTACKER
            and state.hits == (0, 0)
            and state.retreat is None
        ):
            return state.attacker, state.defender
        return None

    def fights(self, state: BattleState) -> list[BattleState]:
        """At the first round of an invasion's first ground combat: the start of each planet's
        ground combat, this one first, then those still to come in the order chosen (ground
        combat note 3), each as the procedure that starts it leaves it. Nothing a ground combat
        does reaches another planet, so each can be solved from the units the invasion
        brought there."""
        if self.setup.kind != "invasion" or not state.order:
            return [state]
        starts = [state]
        for planet in state.order:
            current = state._replace(phase=Phase.GROUND_COMBAT, planet=planet, order=(), round=0)
            while self.round_start(current) is None:
                node = self._process.advance(current)
                if not isinstance(node, Step):
                    raise NotInProductForm("a ground combat did not start with its dice")
                current = node.state
            starts.append(current)
        return starts

    def combine(self, ends: list[tuple[BattleState, SideState, SideState]]) -> BattleState:
        """The end of the last fight of ``fights``, each planet holding what its own ground
        combat left there (``ends``: each fight's start and the units it ended with): the end
        of the last round, so that the procedures go on to establish control."""
        last, attacker, defender = ends[-1]
        fought = set()
        for start, a_units, d_units in ends:
            fought.add(start.planet)
            attacker = attacker.with_planet(start.planet, a_units.planet(start.planet))
            defender = defender.with_planet(start.planet, d_units.planet(start.planet))
        rounds = tuple(
            1 if p in fought else r
            for p, r in enumerate(last.ground_rounds or (0,) * len(self.setup.planets))
        )
        return self.rejoin(last._replace(order=(), ground_rounds=rounds), attacker, defender)

    def announcing(
        self, template: BattleState, attacker: SideState, defender: SideState, round: int
    ) -> BattleState | None:
        """Step 2 of round ``round``, the defender first (nothing acts in the start of combat
        round window in product form)."""
        if not self.retreats:
            return None
        return template._replace(
            phase=Phase.ANNOUNCE_RETREATS,
            attacker=attacker,
            defender=defender,
            turn=Side.DEFENDER,
            round=round,
            hits=(0, 0),
            announced=(False, False),
            cursor=0,
        )

    def announced(self, state: BattleState) -> int:
        if state.announced[0]:
            return ATTACKER_ANNOUNCED
        return DEFENDER_ANNOUNCED if state.announced[1] else NOBODY

    def retreat_key(self, player: str, units: SideState, template: BattleState) -> Hashable:
        """The facts of the announce_retreat decision that come from one player's units: their
        combat dice and their ships (space_combat.announce_retreats)."""
        side = PLAYERS[player]
        state = template.with_side(side, units)
        return combat_dice(self.setup, state, side), ships(self.setup, state, side)

    def pool(self, player: str, units: SideState, template: BattleState) -> DicePool:
        side = PLAYERS[player]
        return combat_pool(self.setup, template.with_side(side, units), side)

    def alive(self, player: str, units: SideState, template: BattleState) -> bool:
        side = PLAYERS[player]
        return combatants(self.setup, template.with_side(side, units), side) > 0

    def taking(self, side: Side, units: SideState, hits: int, template: BattleState) -> BattleState:
        return (
            template.with_side(side, units)
            .at(Phase.ASSIGN_HITS, turn=side, hits=(0, 0))
            .with_hits_on(side, hits)
        )

    def still_taking(self, state: BattleState, side: Side) -> bool:
        return state.phase is Phase.ASSIGN_HITS and state.turn is side

    def most_absorbed(self, side: Side, units: SideState, template: BattleState) -> int:
        where = arena(self.setup, template)
        cards = self.setup.side(side)
        return 1 + sum(
            count * (3 if cards.card(unit).sustain_damage else 1)
            for unit, _, count in units.area(where)
        )

    def settled(self, units: SideState, template: BattleState) -> SideState:
        """The end of the round for one player: damage sustained this round is plain damage."""
        where = arena(self.setup, template)
        return units.with_area(where, units.area(where).settle_round())

    def rejoin(
        self,
        template: BattleState,
        attacker: SideState,
        defender: SideState,
        announced: int = NOBODY,
    ) -> BattleState:
        """The state after both players assigned hits: at the end of the round, or, with a
        retreat announced, at step 5 (nothing acts after hits are assigned in product form)."""
        return template.at(
            Phase.RETREAT if announced else Phase.END_OF_ROUND,
            attacker=attacker,
            defender=defender,
            turn=Side.ATTACKER,
            hits=(0, 0),
            announced=(announced == ATTACKER_ANNOUNCED, announced == DEFENDER_ANNOUNCED),
            cursor=0,
        )


def _owned(ability: str, owner: Side | None) -> str:
    return ability if owner is None else f"the {owner.value}'s {ability}"


def _may_announce(setup: BattleSetup, side: Side) -> bool:
    return setup.side(side).policy.may_retreat and bool(eligible_systems(setup, side))
