"""TI3 combat rounds in product form (``core/rounds.py``): a space battle, or the invasion
combat of one planet, with no ability that acts across players or depends on the round
(Xxcha's first round, Duranium Armor, Shock Troop promotion, Dacxive Animators' count of the
fallen). A withdrawal (the attacker) or retreat (the defender) is announced before the round's
dice and carried out after them, as in TI4: the odds engine evaluates the announcement once
per pair of what the decision reads of each player (``retreat_key``) and carries it out
through the real Execute Withdrawals step."""

from __future__ import annotations

from collections.abc import Hashable

from spacecombat.core.pool import DicePool
from spacecombat.core.rounds import (
    ATTACKER_ANNOUNCED,
    DEFENDER_ANNOUNCED,
    NOBODY,
    PLAYERS,
    Battle,
    PlayerRounds,
)
from spacecombat.core.sides import SIDES, Side, SideState
from spacecombat.core.state import ground_forces, ships
from spacecombat.rulesets.ti3.abilities.base import GROUND_FORCES
from spacecombat.rulesets.ti3.abilities.dacxive_animators import counts_fallen
from spacecombat.rulesets.ti3.abilities.races import NoneuclidianShielding
from spacecombat.rulesets.ti3.cards import IN_ROUNDS
from spacecombat.rulesets.ti3.procedures import stalemate
from spacecombat.rulesets.ti3.procedures.common import combat_pool
from spacecombat.rulesets.ti3.procedures.invasion import ground_pool
from spacecombat.rulesets.ti3.procedures.space_battle import destinations
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Phase, Ti3State

#: abilities that act across players or on one round only (the Fourth Moon takes the
#: defender's SUSTAIN DAMAGE while the attacker's flagship lives; Salai Sai Corian rolls a
#: die per opposing ship)
_NOT_IN_PRODUCT_FORM = (
    "xxcha",
    "duranium_armor",
    "mentak_flagship",
    "winnu_flagship",
    # Arc Secundus repairs itself at the end of each round
    "letnev_flagship",
    # the Alastor's destruction destroys the attacker's ships too
    "nekro_flagship",
    # [0.0.1]'s hits go on the opponent's non-fighter ships first
    "l1z1x_flagship",
    # Valkyrie Armor rolls at each invasion round's end for the casualties taken
    "valkyrie_armor",
    # Exotrireme destroys ships of both players before round 2
    "exotrireme",
    # the Yin sacrifice puts a hit on an enemy ship before round 2
    "yin_sacrifice",
    # Spec Ops Training re-rolls the 1s of its owner's invasion combat rolls, group by group
    "spec_ops_training",
)


class Ti3ProductRounds(PlayerRounds[Ti3State]):
    """The per-player steps of a TI3 combat round."""

    def __init__(self, setup: Ti3Setup, process: Battle) -> None:
        super().__init__(process)
        self.setup = setup
        self._space = setup.kind == "space"
        #: whether a withdrawal or retreat can ever be announced (a policy, and somewhere to go:
        #: the destinations depend on the setup alone)
        self.retreats = self._space and any(_may_announce(setup, side) for side in SIDES)

    @staticmethod
    def applies(setup: Ti3Setup) -> bool:
        return Ti3ProductRounds.refusal(setup) is None

    @staticmethod
    def refusal(setup: Ti3Setup) -> str | None:
        """Why the battle's rounds are not in product form, or ``None`` if they are."""
        acting = sorted({h.id for h in setup.handlers if h.id in _NOT_IN_PRODUCT_FORM})
        if acting:
            return f"{', '.join(acting)} acts across both players' units during the rounds"
        held = sorted(
            {
                c
                for s in SIDES
                for c in (*setup.side(s).held, *setup.side(s).genius)  # Touch of Genius: 27S-36
                if c in IN_ROUNDS
            }
        )
        if held:
            return f"the action card {', '.join(held)} may be played during the rounds"
        if setup.kind == "space" and any(
            setup.side(s).has("yin_flagship")
            and any(
                area.count(u)
                for area in (setup.initial.side(s).space, *setup.initial.side(s).planets)
                for u in GROUND_FORCES
            )
            for s in SIDES
        ):
            # Van Hauge's ground forces fight as fighters until its flagship falls (27S-43)
            return "Van Hauge's ground forces may fight as fighters until it falls"
        if setup.kind == "space" and stalemate.fighters_may_be_left_alone(setup):
            # fighters alone on both sides in an ion storm never hit: the battle may end as a
            # stalemate (procedures/stalemate.py; docs/rulings.md 27I-2)
            return "fighters left alone on both sides in an ion storm end the battle as a stalemate"
        if setup.kind == "invasion":
            if len(setup.planets) > 1:
                return "several planets are invaded (TI3 solves them state by state)"
            if setup.options.shock_troops:
                return "Shock Troops may be promoted during the rounds"
            if counts_fallen(setup):
                return "fallen ground forces are counted during the rounds"
            return None
        return None

    def round_start(self, state: Ti3State) -> tuple[SideState, SideState] | None:
        phase = Phase.ROLL_COMBAT_DICE if self._space else Phase.INVASION_ROUND
        if (
            state.phase is phase
            and state.turn is Side.ATTACKER
            and state.hits == (0, 0)
            and not state.pending
            and state.step == ""
        ):
            return state.attacker, state.defender
        return None

    def announcing(
        self, template: Ti3State, attacker: SideState, defender: SideState, round: int
    ) -> Ti3State | None:
        """Announce withdrawals of round ``round``, the attacker first."""
        if not self.retreats:
            return None
        return template.at(
            Phase.ANNOUNCE_WITHDRAWALS,
            attacker=attacker,
            defender=defender,
            round=round,
            turn=Side.ATTACKER,
            announced=None,
            hits=(0, 0),
            tens=(0, 0),
            pending=0,
        )

    def announced(self, state: Ti3State) -> int:
        if state.announced is Side.ATTACKER:
            return ATTACKER_ANNOUNCED
        return DEFENDER_ANNOUNCED if state.announced is Side.DEFENDER else NOBODY

    def retreat_key(self, player: str, units: SideState, template: Ti3State) -> Hashable:
        """What the announce decision reads of one player's units: their combat dice
        (space_battle.announce_withdrawals)."""
        return self.pool(player, units, template).dice

    def pool(self, player: str, units: SideState, template: Ti3State) -> DicePool:
        side = PLAYERS[player]
        state = template.with_side(side, units)
        dice = (
            combat_pool(self.setup, state, side)
            if self._space
            else ground_pool(self.setup, state, side)
        )
        return dice if dice is not None else DicePool(())

    def alive(self, player: str, units: SideState, template: Ti3State) -> bool:
        side = PLAYERS[player]
        state = template.with_side(side, units)
        if self._space:
            return ships(self.setup, state, side) > 0
        return ground_forces(self.setup, state, side, state.planet) > 0

    def taking(self, side: Side, units: SideState, hits: int, template: Ti3State) -> Ti3State:
        phase = Phase.REMOVE_CASUALTIES if self._space else Phase.INVASION_CASUALTIES
        return (
            template.with_side(side, units)
            ._replace(phase=phase, turn=side, hits=(0, 0), pending=0)
            .with_hits_on(side, hits)
        )

    def still_taking(self, state: Ti3State, side: Side) -> bool:
        phases = (Phase.REMOVE_CASUALTIES, Phase.INVASION_CASUALTIES)
        return state.phase in phases and state.turn is side

    def _area(self, template: Ti3State) -> int | None:
        return None if self._space else template.planet

    def most_absorbed(self, side: Side, units: SideState, template: Ti3State) -> int:
        cards = self.setup.side(side)
        # a sustain cancels two hits with Noneuclidian Shielding (27R-11)
        sustained = 3 if cards.has(NoneuclidianShielding.id) else 2
        return 1 + sum(
            count * (sustained if cards.card(unit).sustain_damage else 1)
            for unit, _, count in units.area(self._area(template))
        )

    def settled(self, units: SideState, template: Ti3State) -> SideState:
        where = self._area(template)
        return units.with_area(where, units.area(where).settle_round())

    def rejoin(
        self,
        template: Ti3State,
        attacker: SideState,
        defender: SideState,
        announced: int = NOBODY,
    ) -> Ti3State:
        """The state after both players took their hits: a withdrawal announced at the round's
        start is carried out next (space), then the round ends."""
        phase = Phase.EXECUTE_WITHDRAWALS if self._space else Phase.INVASION_END_OF_ROUND
        who = {ATTACKER_ANNOUNCED: Side.ATTACKER, DEFENDER_ANNOUNCED: Side.DEFENDER}
        return template.at(
            phase,
            attacker=attacker,
            defender=defender,
            turn=Side.ATTACKER,
            hits=(0, 0),
            tens=(0, 0),
            pending=0,
            announced=who.get(announced),
        )


def _may_announce(setup: Ti3Setup, side: Side) -> bool:
    return setup.side(side).policy.may_retreat and bool(destinations(setup, setup.initial, side))
