"""Combat rounds in product form, for the exact odds engine.

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

from spacecombat.core.decisions import Policy
from spacecombat.core.engine import Decision, Step
from spacecombat.core.policies import StockPolicy
from spacecombat.core.pool import DicePool
from spacecombat.core.sides import SideState
from spacecombat.rulesets.ti4.abilities.base import acts_in_rounds
from spacecombat.rulesets.ti4.procedures.common import arena, combat_pool, combatants
from spacecombat.rulesets.ti4.procedures.retreat import eligible_systems
from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.sides import SIDES, Side
from spacecombat.rulesets.ti4.state import BattleState, Phase

PLAYERS = {"attacker": Side.ATTACKER, "defender": Side.DEFENDER}
Walk = tuple[list[SideState], list[int]]


class ProductRounds:
    """The per-player steps of a TI4 combat round (see the module docstring)."""

    def __init__(self, setup: BattleSetup, process: object) -> None:
        self.setup = setup
        self._process = process
        self._policies: dict[str, Policy] = {
            s.value: StockPolicy(setup.side(s).policy) for s in SIDES
        }
        self._walks: dict[tuple[Side, SideState], Walk] = {}
        self._links: dict[tuple[Side, SideState], tuple[SideState, int] | None] = {}
        self._after: dict[tuple[str, SideState, int], SideState] = {}
        self._settled_walks: dict[tuple[Side, SideState], list[SideState]] = {}
        self._settled_states: dict[SideState, SideState] = {}

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
        """The two players' units, if ``state`` is the start of a round's dice."""
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

    def after_hits(
        self, player: str, units: SideState, hits: int, template: BattleState
    ) -> SideState:
        """``player``'s units after assigning ``hits`` and the end of the round."""
        key = (player, units, hits)
        known = self._after.get(key)
        if known is None:
            states, absorbed = self._walk(PLAYERS[player], units, template)
            # The first decisions that together absorb ``hits``; the last one may absorb
            # fewer than it could (a Non-Euclidean sustain with one hit left): same state.
            assigned = states[min(bisect_left(absorbed, hits), len(states) - 1)]
            known = self._settled(assigned, template)
            self._after[key] = known
        return known

    def after_hits_row(
        self, player: str, units: SideState, most: int, template: BattleState
    ) -> list[SideState]:
        """``after_hits`` for 1, 2, ..., ``most`` hits, from one walk."""
        states, absorbed = self._walk(PLAYERS[player], units, template)
        settled = self._settled_walk(PLAYERS[player], units, template)
        last = len(states) - 1
        return [settled[min(bisect_left(absorbed, h), last)] for h in range(1, most + 1)]

    def _settled_walk(self, side: Side, units: SideState, template: BattleState) -> list[SideState]:
        key = (side, units)
        known = self._settled_walks.get(key)
        if known is None:
            cache = self._settled_states
            known = []
            for state in self._walk(side, units, template)[0]:
                settled = cache.get(state)
                if settled is None:
                    settled = cache[state] = self._settled(state, template)
                known.append(settled)
            self._settled_walks[key] = known
        return known

    def _walk(self, side: Side, units: SideState, template: BattleState) -> Walk:
        """The units after each decision of the Assign Hits procedure when ``side`` takes more
        hits than its units can absorb, with the hits absorbed so far. The stock policy decides
        from the units alone, never from how many hits are left (tests/odds/
        test_product_form.py checks the shortcut), so one walk gives the result for every
        number of hits. Each decision is remembered by the units it starts from, so walks from
        different units share the decisions they have in common; the states of the walk are
        settled as at the end of the round (see below)."""
        key = (side, units)
        walk = self._walks.get(key)
        if walk is not None:
            return walk
        links = self._links
        states, absorbed = [units], [0]
        current = units
        while True:
            link = (side, current)
            if link in links:
                step = links[link]
            else:
                decided = self._decide(side, current, template)
                # In product form nothing acts during the round, so "sustained this round"
                # differs from "damaged" only until the round ends, when it becomes "damaged";
                # the stock policy ranks both the same way against undamaged units. So the walk
                # goes on from the settled units, which other walks reach too (they share the
                # decisions).
                step = (
                    None if decided is None else (self._settled(decided[0], template), decided[1])
                )
                links[link] = step
            if step is None:
                break
            current = step[0]
            states.append(current)
            absorbed.append(absorbed[-1] + step[1])
        walk = self._walks[key] = (states, absorbed)
        return walk

    def _decide(
        self, side: Side, units: SideState, template: BattleState
    ) -> tuple[SideState, int] | None:
        """One decision of Assign Hits with plenty of hits left: the units it leaves and the
        hits it absorbed; ``None`` if no unit can take a hit."""
        where = arena(self.setup, template)
        cards = self.setup.side(side)
        plenty = 1 + sum(
            count * (3 if cards.card(unit).sustain_damage else 1)
            for unit, _, count in units.area(where)
        )
        hits = (plenty, 0) if side is Side.ATTACKER else (0, plenty)
        if side is Side.ATTACKER:
            state = template._replace(attacker=units, phase=Phase.ASSIGN_HITS, turn=side, hits=hits)
        else:
            state = template._replace(defender=units, phase=Phase.ASSIGN_HITS, turn=side, hits=hits)
        node = self._process.advance(state)  # type: ignore[attr-defined]
        if not isinstance(node, Decision):
            return None
        request = node.request
        after = node.then(request.option(self._policies[request.player].choose(request))).state
        return after.side(side), plenty - after.hits_on(side)

    def assign_directly(
        self, player: str, units: SideState, hits: int, template: BattleState
    ) -> SideState:
        """The same as ``after_hits`` by running Assign Hits with exactly ``hits`` (slow; for
        the tests that check the walk)."""
        side = PLAYERS[player]
        state = (
            template.with_side(side, units)
            ._replace(phase=Phase.ASSIGN_HITS, turn=side, hits=(0, 0))
            .with_hits_on(side, hits)
        )
        advance = self._process.advance  # type: ignore[attr-defined]
        while state.phase is Phase.ASSIGN_HITS and state.turn is side:
            node = advance(state)
            if isinstance(node, Decision):
                request = node.request
                answer = self._policies[request.player].choose(request)
                state = node.then(request.option(answer)).state
            elif isinstance(node, Step):
                state = node.state
        return self._settled(state.side(side), template)

    def _settled(self, units: SideState, template: BattleState) -> SideState:
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
