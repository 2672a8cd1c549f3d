"""The battle's state after N rounds (to decide on a retreat).

``state_after`` gives ``{"rounds": N, "over": {result: probability}, "states": [...]}``: the
chance that the battle is already over, by result, and every state it may be in as the next
round begins, most likely first, each an object ``{"round", "attacker", "defender",
"probability"}`` where a player's units are ``{"space": [...], "planets": [[...], ...]}`` in the
log's unit records (``{"unit", "count", "status"}``, status only when not undamaged). Two states
that differ only in what no player sees (a cursor in a timing window) are one.
"""

from __future__ import annotations

import json
from collections.abc import Hashable
from typing import Any, Protocol, TypeVar

from spacecombat.analysis.graph import Entry, StateGraph, Terminal
from spacecombat.analysis.solve import push_rounds

S = TypeVar("S", bound=Hashable)
S_contra = TypeVar("S_contra", bound=Hashable, contravariant=True)


class Describer(Protocol[S_contra]):
    def describe(self, state: S_contra) -> dict[str, object]: ...


def state_after(battle: Describer[S], graph: StateGraph[S], rounds: int) -> dict[str, Any]:
    """Where the probability stands once ``rounds`` combat rounds have been fought: the chance
    that the battle is already over (by result) and each state it may be in, as the next round
    begins. A battle that ends as the next round begins, before any die (a stalemate found at
    the start of a round, say), is counted as over."""
    start = graph.start
    assert start is not None
    over: dict[str, float] = {}
    ongoing: dict[str, dict[str, Any]] = {}
    if isinstance(start.target, Terminal):
        result = str(start.target.outcome.get("result"))
        return {"rounds": rounds, "over": {result: 1.0}, "states": []}
    assert not isinstance(start.target, Entry), "state_after needs the whole graph"
    if rounds < start.rounds:
        # The first dice come in a later round than asked about (round 1 has begun before
        # them): after that many rounds the battle stands as it starts.
        state = _state(battle, graph.states[start.target], start.rounds, 1.0)
        return {"rounds": rounds, "over": {}, "states": [state]}
    exits, frontier = push_rounds(graph, until=rounds)
    for target, _, flow in exits:
        assert isinstance(target, Terminal), "state_after needs the whole graph"
        result = str(target.outcome.get("result"))
        over[result] = over.get(result, 0.0) + flow
    for at, bucket in frontier.items():
        for index, flow in bucket.items():
            state = _state(battle, graph.states[index], at, flow)
            key = json.dumps({k: v for k, v in state.items() if k != "probability"})
            if key in ongoing:
                ongoing[key]["probability"] += flow
            else:
                ongoing[key] = state
    states = sorted(ongoing.values(), key=lambda s: -float(s["probability"]))
    return {"rounds": rounds, "over": over, "states": states}


def _state(battle: Describer[S], state: S, at: int, probability: float) -> dict[str, Any]:
    """One state as the report shows it: the round under way, each player's units, its
    probability."""
    described = battle.describe(state)
    shown: dict[str, Any] = {"round": at}
    for player in described:  # attacker and defender (TI), or each house (EC4X)
        units = described.get(player)
        if isinstance(units, str):  # a fact of the state: a tactical action's stage
            shown[player] = units
            continue
        space = units.get("space", []) if isinstance(units, dict) else []
        planets = units.get("planets", []) if isinstance(units, dict) else []
        shown[player] = {"space": space, "planets": planets}
    shown["probability"] = probability
    return shown
