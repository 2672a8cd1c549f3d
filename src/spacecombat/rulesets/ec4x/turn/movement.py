"""EC4X movement along jump lanes (ec4x-movement-and-combat.md 6.1):

- "If a player owns all systems along the travel path, fleets can jump two major lanes in one
  turn."
- "Minor and restricted jump lanes enable a single jump per turn, regardless of the
  destination."
- "If jumping into an unexplored or rival system, the maximum number of jumps is one."
- "Fleets containing crippled ships or Spacelift Command ships can not jump across restricted
  lanes."

``legal_moves`` lists one turn's moves of a fleet; ``route`` finds the fewest turns to a system;
``Routing`` finds a whole turn's routes with one search per house, start system and lane
permission. All judge ownership (8.1.5) and exploration as they stand in the state given
(ruling G2). Rulings G1-G8, G30, G33 and G35 are in docs/rulings.md; the readings that are
choices are the options ``owned_path`` (G1), ``route_tie`` (G33), ``retreat_range`` (G30, read
by the conflict phase's retreats) and ``pass_through`` (G35, read by its movement step).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Collection, Mapping
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
    #: G8, G33. Among routes of equally few turns (6.1 says nothing of which): ``fewest_jumps``
    #: (G8) fewest jumps, then the first list of system ids, then the first list of turns'
    #: paths; ``own_systems``: fewest systems entered that the house does not own, then as
    #: ``fewest_jumps``
    route_tie: Literal["fewest_jumps", "own_systems"] = "fewest_jumps"
    #: G30. 7.3.5 "flee to the closest friendly star system via available jump lanes", read
    #: with 6.1: ``one_move`` a retreat goes as far along its path as one turn's move may (one
    #: jump, two where 6.1 allows two) and goes on next turn under order 01;
    #: ``whole_way`` it reaches the friendly system in the same turn, however far
    retreat_range: Literal["one_move", "whole_way"] = "one_move"
    #: G35. 6.1 says nothing of a two-jump move A → B → C where fleets of an Enemy house stand
    #: in B (the house's own system) at the start of the turn: ``passes`` the fleet goes on to
    #: C (6.1 names only ownership and exploration); ``stops`` it ends its move in B, where
    #: combat follows the usual engagement rules, and goes on next turn
    pass_through: Literal["passes", "stops"] = "passes"


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


def legal_moves(
    state: GameState, fleet: FleetSpec | str, options: MovementOptions | None = None
) -> set[Move]:
    """Every move the fleet may make in one turn (6.1): each as (destination, path). Staying
    put is not a move. A fleet allowed two jumps may also stop after one (ruling G4): every
    one-jump move over a lane it may use is here."""
    fleet = _fleet(state, fleet)
    sound = restricted_reason(fleet) is None
    return set(Routing(state, options).moves(fleet.owner, sound, fleet.location))


def route(
    state: GameState,
    fleet: FleetSpec | str,
    destination: str,
    options: MovementOptions | None = None,
) -> Route:
    """The route of fewest turns to ``destination``, each turn a legal move (6.1); among those
    of equally few turns the one of fewest jumps, then the first by its list of system ids,
    then the first by each turn's path (ruling G8; option ``route_tie``). Ownership and
    exploration are taken as they stand in ``state`` for every turn (ruling G2). ``NoRoute``
    says why there is none. Many routes on one state: ``Routing``, which searches once per
    house, source and lane permission."""
    return Routing(state, options).route(_fleet(state, fleet), destination)


#: a route's cost while searching: turns, systems entered that the house does not own (only
#: with ``route_tie: own_systems``, else 0), jumps, every system (``Routing.code``: one
#: character per system, in the order of their ids, so comparing these compares the lists of
#: ids as text), the jumps of each turn's move ("1" or "2": among routes of one list of
#: systems, this compares their lists of turns' paths, a shorter first leg first)
_Cost = tuple[int, int, int, str, str]
#: one move as a search uses it: destination, systems entered, the house's unowned systems
#: among them, jumps
_Step = tuple[str, str, int, str]


class _Search:
    """Dijkstra's algorithm from one system over one house's 6.1 moves, for fleets of one lane
    permission, with the cost ``_Cost`` (G8): an extension adds the same to every cost, and
    costs with equal turns and jumps have paths and legs of equal length, so comparing them in
    order stays consistent. It settles systems only as far as asked (``settle``) and keeps its
    queue, so every route from the source this turn comes from one search."""

    def __init__(self, routing: Routing, house: str, sound: bool, start: str) -> None:
        self.routing = routing
        self.house = house
        self.sound = sound
        first: _Cost = (0, 0, 0, routing.code[start], "")
        self.best: dict[str, _Cost] = {first[3]: first}
        self.queue: list[_Cost] = [first]
        #: the settled systems' costs, by their code
        self.done: dict[str, _Cost] = {}
        #: the moves of each system (by code) as the search uses them, shared by the searches
        #: of the house and permission
        self.table = routing.step_table(house, sound)

    def settle(self, destination: str) -> _Cost | None:
        """The cost of the best route to ``destination`` (None: unreachable)."""
        code = self.routing.code[destination]
        while code not in self.done and self.step():
            pass
        return self.done.get(code)

    def step(self) -> _Cost | None:
        """Settle the next system; None once every reachable system is settled."""
        queue, done, best = self.queue, self.done, self.best
        table = self.table
        while queue:
            cost = heapq.heappop(queue)
            turns, foreign, jumps, path, legs = cost
            here = path[-1]
            if here in done:
                continue
            done[here] = cost
            steps = table.get(here)
            if steps is None:
                steps = self.routing.steps(self.house, self.sound, here)
            for there, entered, unowned, leg in steps:
                if there in done:
                    continue
                new: _Cost = (
                    turns + 1,
                    foreign + unowned,
                    jumps + len(entered),
                    path + entered,
                    legs + leg,
                )
                old = best.get(there)
                if old is None or new < old:
                    best[there] = new
                    heapq.heappush(queue, new)
            return cost
        return None

    def next_level(self) -> tuple[int, int, int] | None:
        """The (turns, foreign, jumps) of the next system to settle, or None."""
        queue = self.queue
        while queue and queue[0][3][-1] in self.done:
            heapq.heappop(queue)
        return queue[0][:3] if queue else None


class Routing:
    """6.1's routes on one state (ruling G2: ownership and exploration as they stand), for a
    whole turn: each house's view of the map is read once, each system's moves once per house
    and lane permission (fleets that may cross restricted lanes, and those that may not: 6.1's
    fourth sentence is the only thing of a fleet a move depends on besides its house), and one
    search (``_Search``) per house, permission and source serves every destination."""

    def __init__(self, state: GameState, options: MovementOptions | None = None) -> None:
        self.state = state
        self.options = options or movement_options(state)
        self.lanes = lanes_of(state)
        self.owner = territory(state)
        self._views: dict[str, _View] = {}
        self._moves: dict[tuple[str, bool, str], tuple[Move, ...]] = {}
        self._steps: dict[tuple[str, bool], dict[str, tuple[_Step, ...]]] = {}
        self._searches: dict[tuple[str, bool, str], _Search] = {}
        #: each system's one-character code, in the order of the ids (fewer than 55,296
        #: systems, below the surrogates; the limit is 2,000) and back
        self.ids = sorted(self.lanes)
        self.code = {system: chr(i) for i, system in enumerate(self.ids)}

    def view(self, house: str) -> _View:
        found = self._views.get(house)
        if found is None:
            found = self._views[house] = _View(
                self.lanes, self.owner, explored(self.state, house), house
            )
        return found

    def moves(self, house: str, sound: bool, here: str) -> tuple[Move, ...]:
        """One turn's legal moves from ``here`` of a fleet of ``house`` (``sound``: it may
        cross restricted lanes): the moves ``legal_moves`` gives, in the lanes' order."""
        key = (house, sound, here)
        found = self._moves.get(key)
        if found is not None:
            return found
        view = self.view(house)
        lanes, owner, seen = self.lanes, self.owner, view.explored
        # which of the start and the destination G1 needs owned (the system passed through,
        # always)
        start, destination = {
            "start_and_through": (True, False),
            "through": (False, False),
            "through_and_destination": (False, True),
            "whole_path": (True, True),
        }[self.options.owned_path]
        out: list[Move] = []
        for b, lane in lanes[here].items():
            if lane == "restricted" and not sound:
                continue
            out.append(Move(b, (here, b)))
            # _problem's two-jump conditions (6.1; G1): two major lanes, the systems G1 names
            # the house's, the destination not a rival's and explored, and not the start
            if lane != "major" or (start and owner[here] != house) or owner[b] != house:
                continue
            for c, second in lanes[b].items():
                if c == here or second != "major" or c not in seen:
                    continue
                if owner[c] not in (None, house) or (destination and owner[c] != house):
                    continue
                out.append(Move(c, (here, b, c)))
        found = self._moves[key] = tuple(out)
        return found

    def first_move(self, fleet: FleetSpec, path: tuple[str, ...]) -> tuple[str, ...]:
        """The part of ``path`` (the fleet's system first, each lane one the fleet may use) a
        fleet covers in one turn's move (6.1): two jumps if that is a legal move, else one."""
        if len(path) >= 3:
            sound = restricted_reason(fleet) is None
            if Move(path[2], path[:3]) in self.moves(fleet.owner, sound, path[0]):
                return path[:3]
        return path[:2]

    def step_table(self, house: str, sound: bool) -> dict[str, tuple[_Step, ...]]:
        """The moves found so far for the house and permission, by system code (``steps``)."""
        return self._steps.setdefault((house, sound), {})

    def steps(self, house: str, sound: bool, here_code: str) -> tuple[_Step, ...]:
        """``moves`` from the system of this code, as the search uses them."""
        table = self.step_table(house, sound)
        found = table.get(here_code)
        if found is None:
            code = self.code
            own = self.options.route_tie == "own_systems"
            out: list[_Step] = []
            for move in self.moves(house, sound, self.ids[ord(here_code)]):
                entered = move.path[1:]
                unowned = sum(1 for x in entered if self.owner[x] != house) if own else 0
                out.append(
                    (
                        code[move.destination],
                        "".join(code[x] for x in entered),
                        unowned,
                        str(len(entered)),
                    )
                )
            found = table[here_code] = tuple(out)
        return found

    @staticmethod
    def search_key(fleet: FleetSpec) -> tuple[str, bool, str]:
        """What a fleet's routes depend on: its house, whether it may cross restricted lanes,
        where it is."""
        return (fleet.owner, restricted_reason(fleet) is None, fleet.location)

    def release(self, fleet: FleetSpec) -> None:
        """Forget the search from where ``fleet`` is (its memory), once no more routes from
        there are wanted; a later route from there searches afresh, with the same answers."""
        self._searches.pop(self.search_key(fleet), None)

    def forget_searches(self, house: str) -> None:
        """Forget every search of ``house`` (their memory), once no more of its routes are
        wanted; a later route searches afresh, with the same answers."""
        for key in [k for k in self._searches if k[0] == house]:
            del self._searches[key]

    def search(self, fleet: FleetSpec) -> _Search:
        """The search from where ``fleet`` is, shared by its house and lane permission."""
        key = self.search_key(fleet)
        found = self._searches.get(key)
        if found is None:
            found = self._searches[key] = _Search(self, key[0], key[1], key[2])
        return found

    def route(self, fleet: FleetSpec, destination: str) -> Route:
        """``route`` for one fleet (``NoRoute`` says why there is none)."""
        if destination not in self.lanes:
            raise NoRoute(fleet.id, destination, "it is not a system of the map")
        start = fleet.location
        if destination == start:
            return Route((start,), (), 0, self.state.turn)
        cost = self.search(fleet).settle(destination)
        if cost is None:
            raise NoRoute(fleet.id, destination, _why_not(self.lanes, fleet, destination))
        turns, _, _, codes, legs = cost
        path = tuple(self.ids[ord(c)] for c in codes)
        taken: list[tuple[str, ...]] = []
        at = 0
        for leg in legs:
            taken.append(path[at : at + int(leg) + 1])
            at += int(leg)
        return Route(path, tuple(taken), turns, self.state.turn + turns)

    def closest(
        self, fleet: FleetSpec, targets: Collection[str], tie: Callable[[str], bool]
    ) -> str | None:
        """The target of fewest turns, then fewest jumps (as ``route`` finds them), then
        ``tie`` false before true, then the first by id (G12); None if none can be reached.
        Where the fleet is wins if it is a target. The search stops once the next system to
        settle needs more turns than the first target reached: none after it can tie."""
        wanted = set(targets)
        if fleet.location in wanted:
            return fleet.location
        search = self.search(fleet)
        ids = self.ids
        found = [(c[0], c[2], ids[ord(s)]) for s, c in search.done.items() if ids[ord(s)] in wanted]
        while True:
            nxt = search.next_level()
            if nxt is None or (found and nxt[0] > min(found)[0]):
                break
            cost = search.step()
            if cost is not None and ids[ord(cost[3][-1])] in wanted:
                found.append((cost[0], cost[2], ids[ord(cost[3][-1])]))
        if not found:
            return None
        return min(found, key=lambda f: (f[0], f[1], tie(f[2]), f[2]))[2]


def _why_not(
    lanes: Mapping[str, Mapping[str, LaneClass]], fleet: FleetSpec, destination: str
) -> str:
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
