"""The battle's state graph, as the exact engine sees it.

Deterministic steps and policy decisions are followed at once ("settled"), so the graph's nodes
are the states where dice must be rolled (chance states) and the battle's ends. Each edge
carries the probability of one outcome of the roll and the number of combat rounds that began
on the way (from ``round_started`` events). The ruleset's ``canonical`` maps states that play
out alike to one key (e.g. round numbers past the last one any rule looks at), so the graph is
finite even though a battle may last for ever.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Generic, Protocol, TypeVar

from spacecombat.core.decisions import Policy
from spacecombat.core.engine import Chance, Decision, End, Node, Process
from spacecombat.core.events import Event

S = TypeVar("S", bound=Hashable)
Weight = Fraction | float


class Analysable(Process[S], Protocol):
    """What a ruleset's battle offers the odds engine, beyond being a process."""

    def canonical(self, state: S) -> S:
        """A state that plays out exactly like ``state`` from here on (the graph's key)."""
        ...

    def end_key(self, outcome: Mapping[str, object]) -> Hashable:
        """What distinguishes battle ends for the report (result and survivors, not rounds)."""
        ...


@dataclass(frozen=True)
class Terminal:
    """A battle end: its key and its outcome (from one of the paths that reach it)."""

    key: Hashable
    outcome: Mapping[str, object] = field(compare=False, hash=False)


Target = int | Terminal  # a chance-state index, or a battle end


@dataclass
class Edge:
    target: Target
    weight: Weight
    rounds: int


@dataclass
class StateGraph(Generic[S]):
    """Chance states (by index) with their outgoing edges, and where the battle starts."""

    states: list[S] = field(default_factory=list)
    edges: list[list[Edge]] = field(default_factory=list)
    start: Edge | None = None


def _rounds_begun(events: tuple[Event, ...]) -> int:
    return sum(1 for e in events if e.get("event") == "round_started")


def build_graph(
    process: Analysable[S],
    policies: Mapping[str, Policy],
    *,
    exact: bool,
    prune: float = 0.0,
) -> StateGraph[S]:
    """Explore every state the battle can reach, weighting chance outcomes exactly
    (``Fraction``) or as floats. Outcomes of probability below ``prune`` (floats only) are
    dropped; their mass shows up as the report's residual."""
    graph: StateGraph[S] = StateGraph()
    index: dict[S, int] = {}
    settled: dict[S, tuple[Target, int]] = {}
    terminals: dict[Hashable, Terminal] = {}
    pending: list[int] = []

    def node_of(state: S) -> Target:
        if state not in index:
            index[state] = len(graph.states)
            graph.states.append(state)
            graph.edges.append([])
            pending.append(index[state])
        return index[state]

    def settle(state: S) -> tuple[Target, int]:
        """Follow steps and decisions to the next chance state or end; count rounds begun."""
        start = process.canonical(state)
        if start in settled:
            return settled[start]
        rounds = 0
        current = start
        while True:
            node: Node[S] = process.advance(current)
            if isinstance(node, Chance):
                target: Target = node_of(current)
                break
            if isinstance(node, End):
                key = process.end_key(node.outcome)
                target = terminals.setdefault(key, Terminal(key, node.outcome))
                break
            if isinstance(node, Decision):
                request = node.request
                option = (
                    request.options[0]
                    if len(request.options) == 1
                    else request.option(policies[request.player].choose(request))
                )
                step = node.then(option)
            else:
                step = node
            rounds += _rounds_begun(step.events)
            current = process.canonical(step.state)
            if current in settled:
                target, more = settled[current]
                rounds += more
                break
        result = (target, rounds)
        settled[start] = result
        return result

    first = process.start()
    target, rounds = settle(first.state)
    graph.start = Edge(target, Fraction(1) if exact else 1.0, rounds + _rounds_begun(first.events))
    while pending:
        at = pending.pop()
        node = process.advance(graph.states[at])
        assert isinstance(node, Chance)
        edges: dict[tuple[Target, int], Weight] = {}
        for hits, chance in node.pool.distribution().items():
            weight: Weight = chance if exact else float(chance)
            if not exact and weight < prune:
                continue
            step = node.then(hits)
            target, more = settle(step.state)
            key = (target, more + _rounds_begun(step.events))
            edges[key] = edges.get(key, 0) + weight
        graph.edges[at] = [Edge(t, w, r) for (t, r), w in edges.items()]
    return graph
