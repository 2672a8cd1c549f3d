"""What every ruleset's battle process shares: the driver that hands each state to the
procedure its phase names, the first step (the forces set), the stock policies, and the views
of a state the odds engine needs (``canonical``, ``end_key``, ``describe``).

A ruleset's battle subclasses ``RulesetBattle`` with its setup and state types, gives its table
of procedures by phase, and adds only what its rules say: the notices before the battle, who
survived and what was lost (they read the ruleset's outcome), and rounds in product form.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, Generic, Protocol, Self, TypeVar

from spacecombat.core.decisions import Policy
from spacecombat.core.engine import Node, Step
from spacecombat.core.events import Event, event
from spacecombat.core.limits import shown
from spacecombat.core.policies import (
    PolicyConfig,
    last_round_looked_at,
    rounds_told_apart,
    stock_policies,
)
from spacecombat.core.sides import SIDES, Side, SideState


class ProcessState(Protocol):
    """What the driver reads of a ruleset's state: the phase, the combat round, the rounds of
    ground combat fought on each planet, and each player's units."""

    @property
    def phase(self) -> Hashable: ...

    @property
    def round(self) -> int: ...

    @property
    def ground_rounds(self) -> tuple[int, ...]: ...

    def side(self, side: Side) -> SideState: ...

    def __hash__(self) -> int: ...

    def _replace(self, *, round: int = ..., ground_rounds: tuple[int, ...] = ...) -> Self: ...


S = TypeVar("S", bound=ProcessState)
S_co = TypeVar("S_co", bound=ProcessState, covariant=True)


class PlayerSetup(Protocol):
    """What the driver reads of one player's fixed facts: their stock policy's switches."""

    @property
    def policy(self) -> PolicyConfig: ...


class ProcessSetup(Protocol[S_co]):
    """What the driver reads of a ruleset's fixed facts."""

    @property
    def kind(self) -> str: ...

    @property
    def planets(self) -> tuple[str, ...]: ...

    @property
    def initial(self) -> S_co: ...

    def side(self, side: Side) -> PlayerSetup: ...


Setup = TypeVar("Setup", bound=ProcessSetup[Any])


class RulesetBattle(ABC, Generic[Setup, S]):
    """One battle of a ruleset as a process for the resolver and the odds engine: each state
    is handed to the procedure its phase names (``procedures``)."""

    #: the procedure of each phase (a rules step), by phase
    procedures: Mapping[Any, Callable[[Setup, S], Node[S]]]
    #: the players, in the order their units are listed
    sides: tuple[Side, ...] = SIDES

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self._policies = {side.value: setup.side(side).policy for side in self.sides}
        # rules look at round 1, the stock policies at the rounds they name
        self.round_cap = last_round_looked_at(self._policies.values())
        #: the rounds from which the stock policies may answer differently (``round_cap``
        #: and round 1 besides)
        self.rounds_apart = rounds_told_apart(self._policies.values())

    @abstractmethod
    def _retreats_ruled_out(self) -> list[Event]:
        """The ``retreat_ruled_out`` events logged with the forces (``rulesets/notices.py``)."""

    def stock_policies(self) -> dict[str, Policy]:
        """Each side's stock policy, configured by the scenario."""
        return stock_policies(self._policies)

    def start(self) -> Step[S]:
        """The first step: the forces as set (``forces_set``), then the retreat policies that can
        never act."""
        initial: S = self.setup.initial
        forces = {side.value: initial.side(side).to_json() for side in self.sides}
        planets = list(self.setup.planets) if self.setup.kind == "invasion" else []
        return Step(
            initial,
            (
                event("forces_set", battle=self.setup.kind, **forces, planets=planets),
                *self._retreats_ruled_out(),
            ),
        )

    def advance(self, state: S) -> Node[S]:
        """The node that follows ``state``: what the procedure of its phase does."""
        return self.procedures[state.phase](self.setup, state)

    # --- what the odds engine needs (spacecombat.analysis.graph.Analysable) ---

    def canonical(self, state: S) -> S:
        """The same state with the round number capped where no rule looks any more, and the
        rounds fought on each planet already fought over as at the end (``end_key``): no rule
        looks at them, and an invasion of several planets would otherwise have a state for
        every number of rounds an earlier planet's combat took."""
        if state.round > self.round_cap:
            state = state._replace(round=self.round_cap)
        rounds = state.ground_rounds
        if rounds and max(rounds) > 1:  # (``max``: one call, where a generator is one a planet)
            state = state._replace(ground_rounds=tuple(min(r, 1) for r in rounds))
        return state

    def end_key(self, state: S) -> Hashable:
        """The final state, forgetting how many rounds it took (but not whether a combat
        happened at all: round 0 is "no combat")."""
        if state.round <= 1 and all(r <= 1 for r in state.ground_rounds):
            return state
        return state._replace(
            round=min(state.round, 1), ground_rounds=tuple(min(r, 1) for r in state.ground_rounds)
        )

    def describe(self, state: S) -> dict[str, object]:
        """The units of each side (for the state of a battle after some rounds)."""
        return {side.value: state.side(side).to_json() for side in self.sides}


#: systems named at most in a ``retreat_ruled_out`` reason
NAMED_SYSTEMS = 3


def no_destination(reasons: Sequence[tuple[str, str | None]], destination: str) -> str | None:
    """Why no adjacent system will take a retreat, from each system's ``(name, why not)``
    (``why not`` is ``None`` where it may go), or ``None`` if one will; ``destination`` names
    what a system would have to be ("an eligible destination")."""
    if any(why is None for _, why in reasons):
        return None
    named = "; ".join(f"{shown(name)} {why}" for name, why in reasons[:NAMED_SYSTEMS])
    more = len(reasons) - NAMED_SYSTEMS
    rest = f"; and {more} more" if more > 0 else ""
    return f"no adjacent system is {destination} ({named}{rest})"
