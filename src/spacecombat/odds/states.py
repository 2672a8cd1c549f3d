"""The battle's state after N rounds (to decide on a retreat)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, Protocol, TypeVar

from spacecombat.odds.graph import Entry, StateGraph, Terminal
from spacecombat.odds.solve import push_rounds

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
    if isinstance(start.target, Terminal):
        result = str(start.target.outcome.get("result"))
        return {"rounds": rounds, "over": {result: 1.0}, "states": []}
    assert not isinstance(start.target, Entry), "state_after needs the whole graph"
    if rounds < start.rounds:
        # The first dice come in a later round than asked about (round 1 has begun before
        # them): after that many rounds the battle stands as it starts.
        described = _describe_key(battle.describe(graph.states[start.target]))
        return {"rounds": rounds, "over": {}, "states": [{"state": described, "probability": 1.0}]}
    exits, frontier = push_rounds(graph, until=rounds)
    for target, at, flow in exits:
        assert isinstance(target, Terminal), "state_after needs the whole graph"
        if at <= rounds:
            result = str(target.outcome.get("result"))
            over[result] = over.get(result, 0.0) + flow
        else:  # the battle ends in the next round, which has begun
            ongoing["next round begins"] = ongoing.get("next round begins", 0.0) + flow
    for bucket in frontier.values():
        for state, flow in bucket.items():
            text = _describe_key(battle.describe(graph.states[state]))
            ongoing[text] = ongoing.get(text, 0.0) + flow
    states = [
        {"state": text, "probability": p}
        for text, p in sorted(ongoing.items(), key=lambda item: -item[1])
    ]
    return {"rounds": rounds, "over": over, "states": states}


def _describe_key(described: dict[str, Any]) -> str:
    import json

    return json.dumps(described, sort_keys=True)
