"""Space combat rounds in product form, for the exact odds engine.

In a combat round each player's dice depend only on their own units, and the hits a player
takes are assigned (by that player) to their own units only. So when nothing in a round
depends on both players at once — no retreat can be announced, no handler acts in the round's
windows or after hits are assigned, every player always has a die that can hit (so the FAQ
stalemate cannot arise) — a round is two independent per-player steps. This module offers
those steps, computed by running the real procedures (assign_hits, the end of the round) on a
state where only that player's units matter; the odds engine combines them.
``tests/odds/test_product_form.py`` checks them against the full process.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import replace

from spacecombat.core.decisions import Policy
from spacecombat.core.engine import Chance, Decision, End, Step
from spacecombat.core.policies import StockPolicy
from spacecombat.core.pool import DicePool
from spacecombat.rulesets.ti4.abilities.base import Handler
from spacecombat.rulesets.ti4.procedures.common import combat_pool, ships
from spacecombat.rulesets.ti4.procedures.retreat import eligible_systems
from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.sides import SIDES, Side
from spacecombat.rulesets.ti4.state import BattleState, Phase, SideState

PLAYERS = {"attacker": Side.ATTACKER, "defender": Side.DEFENDER}


def _acts_in_rounds(handler: Handler) -> bool:
    cls = type(handler)
    return (
        cls.after_assign_hits is not Handler.after_assign_hits
        or cls.in_window is not Handler.in_window
    )


class ProductRounds:
    """The per-player steps of a TI4 space combat round (see the module docstring)."""

    def __init__(self, setup: BattleSetup, process: object) -> None:
        self.setup = setup
        self._process = process
        self._policies: dict[str, Policy] = {
            s.value: StockPolicy(setup.side(s).policy) for s in SIDES
        }
        self._walks: dict[tuple[Side, SideState], tuple[list[SideState], list[int]]] = {}
        self._after: dict[tuple[str, SideState, int], SideState] = {}

    @staticmethod
    def applies(setup: BattleSetup) -> bool:
        """Whether the battle's rounds are in product form (given every live player can hit,
        which the odds engine checks state by state)."""
        if setup.kind != "space":
            return False
        if any(_acts_in_rounds(h) for h in setup.handlers):
            return False
        for side in SIDES:
            policy = setup.side(side).policy
            never = policy.retreat_after_round is None and policy.retreat_when_outnumbered is None
            if not never and eligible_systems(setup, side):
                return False
        return True

    def round_start(self, state: BattleState) -> tuple[SideState, SideState] | None:
        """The two players' units, if ``state`` is the start of a round's dice (step 3)."""
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
        return ships(self.setup, template.with_side(side, units), side) > 0

    def after_hits(
        self, player: str, units: SideState, hits: int, template: BattleState
    ) -> SideState:
        """``player``'s units after assigning ``hits`` (step 4) and the end of the round."""
        key = (player, units, hits)
        known = self._after.get(key)
        if known is None:
            states, absorbed = self._walk(PLAYERS[player], units, template)
            # The first decisions that together absorb ``hits``; the last one may absorb
            # fewer than it could (a Non-Euclidean sustain with one hit left): same state.
            assigned = states[min(bisect_left(absorbed, hits), len(states) - 1)]
            known = assigned.with_space(assigned.space.settle_round())
            self._after[key] = known
        return known

    def _walk(
        self, side: Side, units: SideState, template: BattleState
    ) -> tuple[list[SideState], list[int]]:
        """Run the Assign Hits procedure for ``side`` with more hits than its units can take,
        recording the units after each decision and the hits absorbed so far. The stock
        policy decides from the units alone, never from how many hits are left (its answers
        are the same whatever the count: tests/odds/test_product_form.py), so this one walk
        gives the result for every number of hits."""
        key = (side, units)
        if key in self._walks:
            return self._walks[key]
        plenty = 1 + sum(
            count * (1 + 2 * self.setup.side(side).card(unit).sustain_damage)
            for unit, _, count in units.space
        )
        state = replace(
            template.with_side(side, units), phase=Phase.ASSIGN_HITS, turn=side, hits=(0, 0)
        ).with_hits_on(side, plenty)
        advance = self._process.advance  # type: ignore[attr-defined]
        states, absorbed = [units], [0]
        while state.phase is Phase.ASSIGN_HITS and state.turn is side:
            node = advance(state)
            if isinstance(node, Decision):
                request = node.request
                answer = self._policies[request.player].choose(request)
                state = node.then(request.option(answer)).state
                states.append(state.side(side))
                absorbed.append(plenty - state.hits_on(side))
            elif isinstance(node, Step):
                state = node.state
            else:  # pragma: no cover - assigning hits never rolls or ends the battle
                assert not isinstance(node, Chance | End)
        self._walks[key] = (states, absorbed)
        return states, absorbed

    def assign_directly(
        self, player: str, units: SideState, hits: int, template: BattleState
    ) -> SideState:
        """The same as ``after_hits`` by running Assign Hits with exactly ``hits`` (slow; for
        the tests that check the walk)."""
        side = PLAYERS[player]
        state = replace(
            template.with_side(side, units), phase=Phase.ASSIGN_HITS, turn=side, hits=(0, 0)
        ).with_hits_on(side, hits)
        advance = self._process.advance  # type: ignore[attr-defined]
        while state.phase is Phase.ASSIGN_HITS and state.turn is side:
            node = advance(state)
            if isinstance(node, Decision):
                request = node.request
                state = node.then(
                    request.option(self._policies[request.player].choose(request))
                ).state
            elif isinstance(node, Step):
                state = node.state
        mine = state.side(side)
        return mine.with_space(mine.space.settle_round())

    def rejoin(
        self, template: BattleState, attacker: SideState, defender: SideState
    ) -> BattleState:
        """The state after both players assigned hits, at the end of the round."""
        return replace(
            template,
            phase=Phase.END_OF_ROUND,
            attacker=attacker,
            defender=defender,
            turn=Side.ATTACKER,
            hits=(0, 0),
            cursor=0,
        )
