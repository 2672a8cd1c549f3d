"""The routes and retreats of the EC4X turn engine as they were before issue 23 made them
scale (one search per fleet and destination, the state's lanes read afresh each time): kept
as the reference the faster ``movement.Routing`` and ``orders.retreat_destination`` are
checked against (tests/ec4x/game/test_routing_reference.py). Copied verbatim from
``movement.py`` and ``orders.py`` at commit 8c19657 (only the names and the imports differ);
what issue 23 left unchanged there (6.1's checks of one move) is imported, not copied.
"""

from __future__ import annotations

import heapq
from collections import deque

from spacecombat.rulesets.ec4x.turn.movement import (  # unchanged since: shared, not copied
    Move,
    MovementOptions,
    NoRoute,
    Route,
    _fleet,
    _problem,
    _View,
    _view,
    _why_not,
    can_use,
    movement_options,
)
from spacecombat.rulesets.ec4x.turn.orders import World
from spacecombat.rulesets.ec4x.turn.starmap import lanes_of
from spacecombat.scenario.ec4x_game import FleetSpec, GameState

#: a route's cost while searching: turns, jumps, every system, each turn's path
_Cost = tuple[int, int, tuple[str, ...], tuple[tuple[str, ...], ...]]


def _moves_from(view: _View, fleet: FleetSpec, here: str, opts: MovementOptions) -> set[Move]:
    """One turn's legal moves of ``fleet`` as if it were at ``here``."""
    at_here = fleet.model_copy(update={"location": here})
    out: set[Move] = set()
    for b, lane in view.lanes[here].items():
        if not can_use(fleet, lane):
            continue
        out.add(Move(b, (here, b)))
        if lane != "major":
            continue
        for c in view.lanes[b]:
            if _problem(view, at_here, (here, b, c), opts) is None:
                out.add(Move(c, (here, b, c)))
    return out


def reference_route(
    state: GameState,
    fleet: FleetSpec | str,
    destination: str,
    options: MovementOptions | None = None,
) -> Route:
    """The route of fewest turns to ``destination``, each turn a legal move (6.1); among those
    of equally few turns the one of fewest jumps, then the first by its list of system ids,
    then the first by each turn's path (ruling G8). Ownership and exploration are taken as
    they stand in ``state`` for every turn (ruling G2). ``NoRoute`` says why there is none."""
    fleet = _fleet(state, fleet)
    opts = options or movement_options(state)
    try:
        state.system(destination)
    except KeyError:
        raise NoRoute(fleet.id, destination, "it is not a system of the map") from None
    start = fleet.location
    if destination == start:
        return Route((start,), (), 0, state.turn)
    view = _view(state, fleet.owner)
    # Dijkstra over systems with the cost (turns, jumps, path, legs): an extension adds the same
    # to every cost, and costs with equal turns and jumps have paths and legs of equal length,
    # so comparing them in order stays consistent
    best: dict[str, _Cost] = {start: (0, 0, (start,), ())}
    queue: list[_Cost] = [best[start]]
    done: set[str] = set()
    while queue:
        turns, jumps, path, taken = heapq.heappop(queue)
        here = path[-1]
        if here in done:
            continue
        done.add(here)
        if here == destination:
            return Route(path, taken, turns, state.turn + turns)
        for move in _moves_from(view, fleet, here, opts):
            if move.destination in done:
                continue
            cost: _Cost = (
                turns + 1,
                jumps + len(move.path) - 1,
                path + move.path[1:],
                (*taken, move.path),
            )
            if move.destination not in best or cost < best[move.destination]:
                best[move.destination] = cost
                heapq.heappush(queue, cost)
    raise NoRoute(fleet.id, destination, _why_not(lanes_of(state), fleet, destination))


def reference_retreat_destination(
    world: World, fleet: FleetSpec, start: str
) -> tuple[str, ...] | None:
    """7.3.5: "flee to the closest friendly star system via available jump lanes": the path
    of fewest jumps over lanes the fleet may use (6.1: not restricted ones with crippled or
    spacelift ships) to a system its house controls, not ``start``; ties by ``retreat_tie``
    (G13). None: no friendly system can be reached."""
    lanes = lanes_of(world.state)
    friendly = set(world.friendly(fleet.owner)) - {start}
    rank = {"major": 0, "minor": 1, "restricted": 2}
    paths: dict[str, tuple[str, ...]] = {start: (start,)}
    todo = deque([start])
    while todo:
        here = todo.popleft()
        for there, lane in lanes[here].items():
            if there in paths or not can_use(fleet, lane):
                continue
            paths[there] = (*paths[here], there)
            todo.append(there)
    found = [p for s, p in paths.items() if s in friendly]
    if not found:
        return None

    def key(p: tuple[str, ...]) -> tuple[int, int, str]:
        lane = rank[lanes[p[0]][p[1]]] if world.options.retreat_tie == "best_lane" else 0
        return (len(p), lane, p[-1])

    return min(found, key=key)
