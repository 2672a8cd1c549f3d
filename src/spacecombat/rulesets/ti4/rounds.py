"""TI4 combat rounds in product form (``core/rounds.py``): when no retreat can be announced,
no handler acts in the round's windows or after hits are assigned, and every player always has
a die that can hit (so the FAQ stalemate cannot arise), a round is two per-player steps."""

from __future__ import annotations

from spacecombat.core.pool import DicePool
from spacecombat.core.rounds import PLAYERS, Battle, PlayerRounds
from spacecombat.core.sides import SideState
from spacecombat.rulesets.ti4.abilities.base import acts_in_rounds
from spacecombat.rulesets.ti4.procedures.common import arena, combat_pool, combatants
from spacecombat.rulesets.ti4.procedures.retreat import eligible_systems
from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.sides import SIDES, Side
from spacecombat.rulesets.ti4.state import BattleState, Phase


class ProductRounds(PlayerRounds[BattleState]):
    """The per-player steps of a TI4 combat round."""

    def __init__(self, setup: BattleSetup, process: Battle) -> None:
        super().__init__(process)
        self.setup = setup

    @staticmethod
    def applies(setup: BattleSetup) -> bool:
        """Whether the battle's rounds are in product form (given every live player can hit,
        which the odds engine checks state by state): a space combat where no retreat can be
        announced, or the ground combat of an invasion of one planet (no retreat there)."""
        if any(acts_in_rounds(h) for h in setup.handlers):
            return False
        if setup.kind == "invasion":
            return len(setup.planets) == 1
        for side in SIDES:
            policy = setup.side(side).policy
            never = policy.retreat_after_round is None and policy.retreat_when_outnumbered is None
            if not never and eligible_systems(setup, side):
                return False
        return True

    def round_start(self, state: BattleState) -> tuple[SideState, SideState] | None:
        if (
            state.phase is Phase.ROLL_DICE
            and state.turn is Side.ATTACKER
            and state.hits == (0, 0)
            and state.announced == (False, False)
            and state.retreat is None
        ):
            return state.attacker, state.defender
        return None

    def pool(self, player: str, units: SideState, template: BattleState) -> DicePool:
        side = PLAYERS[player]
        return combat_pool(self.setup, template.with_side(side, units), side)

    def alive(self, player: str, units: SideState, template: BattleState) -> bool:
        side = PLAYERS[player]
        return combatants(self.setup, template.with_side(side, units), side) > 0

    def taking(self, side: Side, units: SideState, hits: int, template: BattleState) -> BattleState:
        return (
            template.with_side(side, units)
            ._replace(phase=Phase.ASSIGN_HITS, turn=side, hits=(0, 0))
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
        self, template: BattleState, attacker: SideState, defender: SideState
    ) -> BattleState:
        """The state after both players assigned hits, at the end of the round."""
        return template._replace(
            phase=Phase.END_OF_ROUND,
            attacker=attacker,
            defender=defender,
            turn=Side.ATTACKER,
            hits=(0, 0),
            cursor=0,
        )
