"""The battle's state after N rounds (to decide on a retreat)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, Protocol, TypeVar

from spacecombat.odds.graph import Entry, StateGraph, Terminal
from spacecombat.odds.solve import _within_round_order

S = TypeVar("S", bound=Hashable)
S_contra = TypeVar("S_contra", bound=Hashable, contravariant=True)


class Describer(Protocol[S_contra]):
    def describe(self, state: S_contra) -> dict[str, object]: ...


def state_after(battle: Describer[S], graph: StateGraph[S], rounds: int) -> dict[str, Any]:
    """Where the probability stands once ``rounds`` combat rounds have been fought: the chance
    that the battle is already over (by result) and each state it may be in, as the next round
    begins."""
    start = graph.start
    assert start is not None
    over: dict[str, float] = {}
    ongoing: dict[str, float] = {}
    order = _within_round_order(graph)
    if isinstance(start.target, Terminal):
        result = str(start.target.outcome.get("result"))
        return {"rounds": rounds, "over": {result: 1.0}, "states": []}
    assert not isinstance(start.target, Entry), "state_after needs the whole graph"
    if rounds < start.rounds:
        # The first dice come in a later round than asked about (round 1 has begun before
        # them): after that many rounds the battle stands as it starts.
        described = _describe_key(battle.describe(graph.states[start.target]))
        return {"rounds": rounds, "over": {}, "states": [{"state": described, "probability": 1.0}]}
    frontier: dict[int, dict[int, float]] = {start.rounds: {start.target: float(start.weight)}}
    played = start.rounds
    while played <= rounds and frontier:
        current = frontier.pop(played, {})
        for state in order:
            amount = current.pop(state, 0.0)
            if not amount:
                continue
            for edge in graph.edges[state]:
                flow = amount * float(edge.weight)
                at = played + edge.rounds
                assert not isinstance(edge.target, Entry), "state_after needs the whole graph"
                if isinstance(edge.target, Terminal):
                    if at <= rounds:
                        result = str(edge.target.outcome.get("result"))
                        over[result] = over.get(result, 0.0) + flow
                    else:
                        key = "next round begins"
                        ongoing[key] = ongoing.get(key, 0.0) + flow
                elif at == played:
                    current[edge.target] = current.get(edge.target, 0.0) + flow
                elif at <= rounds:
                    frontier.setdefault(at, {})
                    frontier[at][edge.target] = frontier[at].get(edge.target, 0.0) + flow
                else:
                    text = _describe_key(battle.describe(graph.states[edge.target]))
                    ongoing[text] = ongoing.get(text, 0.0) + flow
        played += 1
    states = [
        {"state": text, "probability": p}
        for text, p in sorted(ongoing.items(), key=lambda item: -item[1])
    ]
    return {"rounds": rounds, "over": over, "states": states}


def _describe_key(described: dict[str, Any]) -> str:
    import json

    return json.dumps(described, sort_keys=True)
