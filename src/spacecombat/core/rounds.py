"""Combat rounds in product form: the per-player steps, shared by the rulesets (the protocol
they implement for the odds engine, which imports it from here).

In a combat round each player's dice depend only on their own units, and the hits a player
takes are assigned (by that player) to their own units only. So when nothing in a round
depends on both players at once, a round is two independent per-player steps: roll (a dice
pool from one's own units) and take the other's hits. ``PlayerRounds`` offers those steps to the
odds engine (``analysis/product.py``), computed by running the ruleset's real procedures on a state
where only that player's units matter. A ruleset says, through the hooks below, where a
round's dice start, how to pose "``side`` must take ``hits``", and what the end of a round does
to one player's units.

``tests/odds/test_product_form.py`` checks the shortcut against the full process.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from bisect import bisect_left
from collections.abc import Hashable
from typing import Any, Generic, Protocol, TypeVar

from spacecombat.core.decisions import Policy, decide
from spacecombat.core.engine import Decision, Node, Step
from spacecombat.core.pool import DicePool
from spacecombat.core.sides import SIDES, Side, SideState

#: each player's ``Side`` by the name the events and policies use
PLAYERS = {side.value: side for side in SIDES}
Walk = tuple[list[SideState], list[int]]


class RoundState(Protocol):
    """What the walk reads of a ruleset's state."""

    def side(self, side: Side) -> SideState: ...

    def hits_on(self, side: Side) -> int: ...


S = TypeVar("S", bound=RoundState)


#: who announced a retreat at the start of a round, as the arrays of the odds engine hold it
NOBODY, ATTACKER_ANNOUNCED, DEFENDER_ANNOUNCED = 0, 1, 2
ANNOUNCERS = {ATTACKER_ANNOUNCED: "attacker", DEFENDER_ANNOUNCED: "defender"}


class NotInProductForm(Exception):
    """The battle turned out not to be in product form (e.g. a player who cannot hit)."""


class Battle(Protocol):
    """What the per-player steps need of the battle: its procedures, its stock policies and
    the last round number any rule or policy looks at (``RulesetBattle.round_cap``)."""

    round_cap: int
    rounds_apart: tuple[int, ...]

    def advance(self, state: Any) -> Node[Any]: ...

    def stock_policies(self) -> dict[str, Policy]: ...


class PlayerRounds(ABC, Generic[S]):
    """The per-player steps of a combat round (see the module docstring)."""

    def __init__(self, process: Battle) -> None:
        self._process = process
        self._policies = process.stock_policies()
        # Walks are remembered by the units and the arena (an invasion's planets are fought
        # one after another, with the same units in a different arena).
        self._walks: dict[tuple[Side, SideState, Hashable], Walk] = {}
        self._links: dict[tuple[Side, SideState, Hashable], tuple[SideState, int] | None] = {}
        self._after: dict[tuple[str, SideState, int, Hashable], SideState] = {}
        self._settled_walks: dict[tuple[Side, SideState, Hashable], list[SideState]] = {}
        self._settled_states: dict[tuple[SideState, Hashable], SideState] = {}

    def share_walks(self, shared: dict[str, Any]) -> None:
        """Remember the walks of taking hits (the decisions they are made of, and the units
        they leave, settled) in ``shared`` instead of this battle's own tables; an empty
        ``shared`` takes this battle's. A sweep's battles of one setup share them
        (analysis/chain_cache.py, inside ``sharing``): a walk reads a player's units, the
        arena and the setup, the same for every battle the chain cache's key gathers (its
        rows of ``after_hits_row`` are already shared by units), so a battle whose fleet is
        new meets the decisions other battles made after their first hits."""
        self._walks = shared.setdefault("walks", self._walks)
        self._links = shared.setdefault("links", self._links)
        self._after = shared.setdefault("after", self._after)
        self._settled_walks = shared.setdefault("settled_walks", self._settled_walks)
        self._settled_states = shared.setdefault("settled_states", self._settled_states)

    # --- the ruleset's hooks ---

    def arena(self, template: S) -> Hashable:
        """Where the round's combat is fought (the walks of taking hits depend on it)."""
        return None

    @abstractmethod
    def round_start(self, state: S) -> tuple[SideState, SideState] | None:
        """The two players' units, if ``state`` is the start of a round's dice."""

    @abstractmethod
    def pool(self, player: str, units: SideState, template: S) -> DicePool:
        """The combat dice of ``player`` with ``units``."""

    @abstractmethod
    def alive(self, player: str, units: SideState, template: S) -> bool:
        """Whether ``player`` still has units in the fight."""

    @abstractmethod
    def taking(self, side: Side, units: SideState, hits: int, template: S) -> S:
        """The state where ``side``, with ``units``, must take ``hits`` hits."""

    @abstractmethod
    def still_taking(self, state: S, side: Side) -> bool:
        """Whether ``side`` is still taking hits in ``state``."""

    @abstractmethod
    def most_absorbed(self, side: Side, units: SideState, template: S) -> int:
        """More hits than ``units`` can ever absorb."""

    @abstractmethod
    def settled(self, units: SideState, template: S) -> SideState:
        """One player's units at the end of the round."""

    @abstractmethod
    def rejoin(
        self, template: S, attacker: SideState, defender: SideState, announced: int = NOBODY
    ) -> S:
        """The state after both players took their hits, at the end of the round; with a
        retreat ``announced`` (``ATTACKER_ANNOUNCED``...) at its start, where it is carried
        out."""

    # --- fights one after another (an invasion's planets; rulesets that have them override) ---

    def fights(self, state: S) -> list[S]:
        """At the start of a battle's first fight: the start of each fight the battle will have,
        this one first, when they are fought one after another and none touches another's
        units (so each can be solved alone); just ``[state]`` otherwise."""
        return [state]

    def combine(self, ends: list[tuple[S, SideState, SideState]]) -> S:
        """The state after the last of ``fights``, each fight's units as it ended (``ends``:
        each fight's start, and the attacker's and defender's units it ended with)."""
        raise NotImplementedError("a battle with several fights combines their ends")

    # --- announced retreats (rulesets whose rounds may have them override these) ---

    @property
    def last_round(self) -> int:
        """The last round number any rule or stock policy looks at: later rounds play alike."""
        return self._process.round_cap

    def round_differs(self, round: int) -> bool:
        """Whether the stock policies may decide differently in ``round`` than in the round
        before (``core/policies.rounds_told_apart``; round 1 and ``last_round`` always)."""
        return round in (1, self.last_round) or round in self._process.rounds_apart

    #: whether a retreat can ever be announced in this battle (rulesets that allow it set it)
    retreats: bool = False

    def announcing(
        self, template: S, attacker: SideState, defender: SideState, round: int
    ) -> S | None:
        """The state where the players may announce retreats at the start of round ``round``
        (before its dice), or ``None`` if no retreat can be announced in this battle."""
        return None

    def announced(self, state: S) -> int:
        """Who announced a retreat in ``state`` (``NOBODY``, ``ATTACKER_ANNOUNCED``...)."""
        return NOBODY

    def retreat_key(self, player: str, units: SideState, template: S) -> Hashable:
        """What announcing a retreat reads of ``player``'s units (the decision's facts): two
        pairs of units with the same keys get the same announcements."""
        return units

    def announcement(
        self, attacker: SideState, defender: SideState, round: int, template: S
    ) -> int:
        """Who announces a retreat at the start of round ``round`` with these units: the
        battle's own procedure, its decisions answered by the stock policies."""
        state = self.announcing(template, attacker, defender, round)
        if state is None:
            return NOBODY
        while self.round_start(state) is None:
            node = self._process.advance(state)
            if isinstance(node, Decision):
                state = node.then(decide(node.request, self._policies)).state
            elif isinstance(node, Step):
                state = node.state
            else:
                raise NotInProductForm("announcing a retreat did not lead to the round's dice")
        return self.announced(state)

    # --- the steps ---

    def after_hits(self, player: str, units: SideState, hits: int, template: S) -> SideState:
        """``player``'s units after taking ``hits`` and the end of the round."""
        key = (player, units, hits, self.arena(template))
        known = self._after.get(key)
        if known is None:
            states, absorbed = self._walk(PLAYERS[player], units, template)
            # The first decisions that together absorb ``hits``; the last one may absorb
            # fewer than it could (a Non-Euclidean sustain with one hit left): same state.
            assigned = states[min(bisect_left(absorbed, hits), len(states) - 1)]
            known = self.settled(assigned, template)
            self._after[key] = known
        return known

    def after_hits_row(
        self, player: str, units: SideState, most: int, template: S
    ) -> list[SideState]:
        """``after_hits`` for 1, 2, ..., ``most`` hits, from one walk."""
        states, absorbed = self._walk(PLAYERS[player], units, template)
        settled = self._settled_walk(PLAYERS[player], units, template)
        last = len(states) - 1
        return [settled[min(bisect_left(absorbed, h), last)] for h in range(1, most + 1)]

    def _settled_walk(self, side: Side, units: SideState, template: S) -> list[SideState]:
        where = self.arena(template)
        key = (side, units, where)
        known = self._settled_walks.get(key)
        if known is None:
            cache = self._settled_states
            known = []
            for state in self._walk(side, units, template)[0]:
                settled = cache.get((state, where))
                if settled is None:
                    settled = cache[(state, where)] = self.settled(state, template)
                known.append(settled)
            self._settled_walks[key] = known
        return known

    def _walk(self, side: Side, units: SideState, template: S) -> Walk:
        """The units after each decision of taking hits when ``side`` takes more hits than its
        units can absorb, with the hits absorbed so far. The stock policy decides from the
        units alone, never from how many hits are left (tests/odds/test_product_form.py
        checks the shortcut), so one walk gives the result for every number of hits. Each
        decision is remembered by the units it starts from, so walks from different units
        share the decisions they have in common; the states of the walk are settled as at
        the end of the round (see below)."""
        where = self.arena(template)
        key = (side, units, where)
        walk = self._walks.get(key)
        if walk is not None:
            return walk
        links = self._links
        states, absorbed = [units], [0]
        current = units
        while True:
            link = (side, current, where)
            if link in links:
                step = links[link]
            else:
                decided = self._decide(side, current, template)
                # In product form nothing acts during the round, so "sustained this round"
                # differs from "damaged" only until the round ends, when it becomes "damaged";
                # the stock policy ranks both the same way against undamaged units. So the walk
                # goes on from the settled units, which other walks reach too (they share the
                # decisions).
                step = None if decided is None else (self.settled(decided[0], template), decided[1])
                links[link] = step
            if step is None:
                break
            current = step[0]
            states.append(current)
            absorbed.append(absorbed[-1] + step[1])
        walk = self._walks[key] = (states, absorbed)
        return walk

    def _decide(self, side: Side, units: SideState, template: S) -> tuple[SideState, int] | None:
        """One decision with plenty of hits left: the units it leaves and the hits it
        absorbed; ``None`` if no unit can take a hit. Steps before the decision that leave
        the units and the hits as they are (handlers asked before hits are assigned that have
        nothing to do in a combat round: Maneuvering Jets) are followed."""
        plenty = self.most_absorbed(side, units, template)
        node = self._process.advance(self.taking(side, units, plenty, template))
        while (
            isinstance(node, Step)
            and self.still_taking(node.state, side)
            and node.state.side(side) == units
            and node.state.hits_on(side) == plenty
        ):
            node = self._process.advance(node.state)
        if not isinstance(node, Decision):
            return None
        request = node.request
        after = node.then(request.option(self._policies[request.player].choose(request))).state
        return after.side(side), plenty - after.hits_on(side)

    def assign_directly(self, player: str, units: SideState, hits: int, template: S) -> SideState:
        """The same as ``after_hits`` by running the procedure with exactly ``hits`` (slow;
        for the tests that check the walk)."""
        side = PLAYERS[player]
        state = self.taking(side, units, hits, template)
        while self.still_taking(state, side):
            node = self._process.advance(state)
            if isinstance(node, Decision):
                request = node.request
                answer = self._policies[request.player].choose(request)
                state = node.then(request.option(answer)).state
            elif isinstance(node, Step):
                state = node.state
            else:
                break
        return self.settled(state.side(side), template)
