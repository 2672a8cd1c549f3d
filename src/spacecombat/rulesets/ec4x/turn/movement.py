"""EC4X movement along jump lanes (ec4x-movement-and-combat.md 6.1):

- "If a player owns all systems along the travel path, fleets can jump two major lanes in one
  turn."
- "Minor and restricted jump lanes enable a single jump per turn, regardless of the
  destination."
- "If jumping into an unexplored or rival system, the maximum number of jumps is one."
- "Fleets containing crippled ships or Spacelift Command ships can not jump across restricted
  lanes."

``legal_moves`` lists one turn's moves of a fleet; ``route`` finds the fewest turns to a system.
Both judge ownership (8.1.5) and exploration as they stand in the state given (ruling G2).
Rulings G1-G8 are in docs/rulings.md; the one reading that is a choice is the option
``owned_path`` (G1).
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import pairwise
from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict

from spacecombat.core.errors import SpacecombatError
from spacecombat.rulesets.ec4x.turn.starmap import explored, lanes_of, territory
from spacecombat.rulesets.options import parse_options
from spacecombat.scenario.ec4x_game import FleetSpec, GameState, LaneClass

#: 6.1: the most jumps a fleet makes in one turn (two major lanes through its own systems)
MAX_JUMPS = 2


class MovementOptions(BaseModel):
    """Movement's named rule options (the game state's ``options``), each with its default."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    #: G1. 6.1 "If a player owns all systems along the travel path, fleets can jump two major
    #: lanes": which systems of a two-jump move A → B → C the house must own. The system passed
    #: through (B) always. ``start_and_through``: A and B; C need only be explored and not a
    #: rival's (6.1's third sentence, which would say nothing if C had to be owned).
    #: ``through``: B only. ``through_and_destination``: B and C. ``whole_path``: A, B and C.
    owned_path: Literal["start_and_through", "through", "through_and_destination", "whole_path"] = (
        "start_and_through"
    )


#: the option names movement reads from the state's ``options``
MOVEMENT_OPTIONS = tuple(MovementOptions.model_fields)


def read_movement_options(raw: Mapping[str, object] | None) -> MovementOptions:
    """Movement's options checked (``ScenarioError`` names a bad one, ``options.NAME``)."""
    return parse_options(MovementOptions, raw, "ec4x")


def movement_options(state: GameState) -> MovementOptions:
    """The movement options of a game state (its ``options`` that movement reads)."""
    raw = {k: v for k, v in (state.options or {}).items() if k in MOVEMENT_OPTIONS}
    return read_movement_options(raw)


class Move(NamedTuple):
    """One turn's move: where the fleet ends, and the systems it is in on the way, its start
    first and ``destination`` last (2 or 3 systems: 1 or 2 jumps)."""

    destination: str
    path: tuple[str, ...]


@dataclass(frozen=True)
class Route:
    """The fewest turns from a fleet's system to a destination: ``path`` every system from the
    start to the destination, ``legs`` the path of each turn's move, ``turns`` how many,
    ``arrival_turn`` the turn of the first state with the fleet there (``state.turn + turns``:
    turn N's orders move fleets into the state of turn N + 1; ruling G7)."""

    path: tuple[str, ...]
    legs: tuple[tuple[str, ...], ...]
    turns: int
    arrival_turn: int

    @property
    def jumps(self) -> int:
        return len(self.path) - 1


#: a route's cost while searching: turns, jumps, every system, each turn's path
_Cost = tuple[int, int, tuple[str, ...], tuple[tuple[str, ...], ...]]


class NoRoute(SpacecombatError):
    """A destination the fleet cannot reach; the message says why."""

    def __init__(self, fleet: str, destination: str, reason: str) -> None:
        super().__init__(f"fleet {fleet} cannot reach {destination}: {reason}")
        self.fleet = fleet
        self.destination = destination
        self.reason = reason


# --- what a fleet may do -----------------------------------------------------------------------


def restricted_reason(fleet: FleetSpec) -> str | None:
    """Why the fleet may not cross restricted lanes (6.1: "Fleets containing crippled ships or
    Spacelift Command ships"), or None if it may. Any crippled squadron counts: crippling a
    squadron cripples every ship in it (7.1.2; ruling G3). Any TT or ETAC counts, loaded or not."""
    crippled = [i for i, s in enumerate(fleet.squadrons) if s.state == "crippled"]
    if crippled:
        return f"it has crippled ships (squadrons[{crippled[0]}])"
    lift = {k: n for k, n in fleet.spacelift.items() if n > 0}
    if lift:
        return f"it has Spacelift Command ships ({', '.join(lift)})"
    return None


def can_use(fleet: FleetSpec, lane: LaneClass) -> bool:
    """Whether the fleet may jump across a lane of this class (6.1's fourth sentence)."""
    return lane != "restricted" or restricted_reason(fleet) is None


@dataclass(frozen=True)
class _View:
    """What 6.1 reads of the state for one house, computed once."""

    lanes: dict[str, dict[str, LaneClass]]
    owner: dict[str, str | None]
    explored: frozenset[str]
    house: str

    def owns(self, system: str) -> bool:
        return self.owner[system] == self.house

    def is_rival(self, system: str) -> bool:
        owner = self.owner[system]
        return owner is not None and owner != self.house


def _view(state: GameState, house: str) -> _View:
    return _View(lanes_of(state), territory(state), explored(state, house), house)


def _fleet(state: GameState, fleet: FleetSpec | str) -> FleetSpec:
    return state.fleet(fleet) if isinstance(fleet, str) else fleet


def move_problem(
    state: GameState,
    fleet: FleetSpec | str,
    path: tuple[str, ...],
    options: MovementOptions | None = None,
) -> str | None:
    """Why one turn's move along ``path`` (start first) breaks 6.1, or None if it is legal."""
    fleet = _fleet(state, fleet)
    opts = options or movement_options(state)
    return _problem(_view(state, fleet.owner), fleet, path, opts)


def _problem(
    view: _View, fleet: FleetSpec, path: tuple[str, ...], opts: MovementOptions
) -> str | None:
    if not path or path[0] != fleet.location:
        return f"a move starts where the fleet is ({fleet.location})"
    jumps = len(path) - 1
    if jumps < 1:
        return "a move makes at least one jump"
    if jumps > MAX_JUMPS:
        return f"at most {MAX_JUMPS} jumps in a turn (6.1)"
    classes: list[LaneClass] = []
    for a, b in pairwise(path):
        lane = view.lanes.get(a, {}).get(b)
        if lane is None:
            return f"no jump lane joins {a} and {b}"
        if lane == "restricted" and (why := restricted_reason(fleet)) is not None:
            return f"the lane {a}-{b} is restricted and {why} (6.1)"
        classes.append(lane)
    if jumps == 1:
        return None
    start, through, destination = path
    if destination == start:
        return "a move ends somewhere else than it starts"
    if any(c != "major" for c in classes):
        return "minor and restricted lanes allow a single jump per turn (6.1)"
    must_own = {
        "start_and_through": (start, through),
        "through": (through,),
        "through_and_destination": (through, destination),
        "whole_path": (start, through, destination),
    }[opts.owned_path]
    for system in must_own:
        if not view.owns(system):
            return (
                f"two jumps need the house to own the systems on the path, and {system} is not "
                f"{view.house}'s (6.1; owned_path: {opts.owned_path})"
            )
    if view.is_rival(destination):
        return f"{destination} is a rival system: one jump at most into it (6.1)"
    if destination not in view.explored:
        return f"{destination} is unexplored: one jump at most into it (6.1)"
    return None


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


def legal_moves(
    state: GameState, fleet: FleetSpec | str, options: MovementOptions | None = None
) -> set[Move]:
    """Every move the fleet may make in one turn (6.1): each as (destination, path). Staying
    put is not a move. A fleet allowed two jumps may also stop after one (ruling G4): every
    one-jump move over a lane it may use is here."""
    fleet = _fleet(state, fleet)
    opts = options or movement_options(state)
    return _moves_from(_view(state, fleet.owner), fleet, fleet.location, opts)


def route(
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
    raise NoRoute(fleet.id, destination, _why_not(state, fleet, destination))


def _why_not(state: GameState, fleet: FleetSpec, destination: str) -> str:
    lanes = lanes_of(state)
    reach = {fleet.location}
    todo = [fleet.location]
    while todo:
        here = todo.pop()
        for there in lanes[here]:
            if there not in reach:
                reach.add(there)
                todo.append(there)
    if destination not in reach:
        return f"no chain of jump lanes joins {fleet.location} to it"
    why = restricted_reason(fleet)
    return f"every chain of lanes to it crosses a restricted lane, and {why} (6.1)"
