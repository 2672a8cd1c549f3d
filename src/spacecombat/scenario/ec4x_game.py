"""The state of an EC4X game between turns: the star map (systems, planets, colonies, jump
lanes), the houses (prestige, diplomacy, what each has explored, its home system) and the fleets
(where each is, what it holds, its standing order). Parsed strictly, like a battle scenario
(``scenario/ec4x.py``): ``parse_game`` raises ``ScenarioError(field, message)`` naming the first
bad field (``fleets[3].location``) and what is allowed. ``docs/ec4x.md`` documents
every key.

What only the ruleset knows is checked by the ruleset after this module: the named options
(movement's and space combat's) and each squadron against the ship classes and those options
(``rulesets/ec4x/turn/game.py``, whose ``parse_game`` and ``load_game`` do both).

Format (JSON; keys with a default may be left out)::

    {"ruleset": "ec4x", "game_id": "demo-game", "turn": 1,
     "systems": [
       {"id": "S00", "name": "Hub", "q": 0, "r": 0,
        "planets": [{"class": "benign", "resources": "abundant"}]},
       {"id": "S07", "q": 2, "r": -1,
        "planets": [{"class": "benign", "resources": "abundant",
                     "colony": {"owner": "alpha", "pu": 840, "iu": 420, "shield": 1,
                                "batteries": 2, "armies": {"undamaged": 1, "crippled": 1},
                                "marines": 2, "fighters": 0,
                                "starbases": [], "spaceports": 1, "shipyards": 1}}]}],
     "lanes": [{"systems": ["S00", "S07"], "class": "major"}],
     "houses": {"alpha": {"prestige": 50, "home": "S07", "explored": ["S00"],
                          "aco": 1, "fd": 1}},
     "diplomacy": [{"houses": ["alpha", "beta"], "status": "enemy"}],
     "fleets": [{"id": "alpha-1", "owner": "alpha", "location": "S07",
                 "squadrons": [{"flagship": "CA", "escorts": {"DD": 1}}],
                 "scouts": [{"eli": 1}], "spacelift": {"ET": 1},
                 "order": {"code": 1, "target": "S00"}, "roe": 6}],
     "options": {"owned_path": "start_and_through"}}
"""

from __future__ import annotations

from collections.abc import Container
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    StrictInt,
    StrictStr,
    StringConstraints,
    ValidationError,
)

from spacecombat.core.errors import ScenarioError
from spacecombat.core.limits import (
    MAX_COORD,
    MAX_FLEETS,
    MAX_STATE_BYTES,
    MAX_SYSTEMS,
    MAX_UNITS_PER_SIDE,
    MAX_WAYPOINTS,
    shown,
)
from spacecombat.scenario.ec4x import (
    DiplomacySpec,
    GroundSpec,
    OrderSpec,
    StarbaseSpec,
    check_diplomacy,
    missing_requirement,
)
from spacecombat.scenario.ec4x import FleetSpec as BattleFleetSpec
from spacecombat.scenario.schema import (
    Count,
    Name,
    Names,
    _model_in,
    _path,
    read_document,
    say,
)

#: EC4X planet classes, worst to best (Level I–VII; EC4X 2.x planet classes, not in our
#: reference text: the engine's ``PlanetClass``)
PlanetClass = Literal["extreme", "desolate", "hostile", "harsh", "benign", "lush", "eden"]
#: EC4X resource ratings, worst to best
Resources = Literal["very_poor", "poor", "abundant", "rich", "very_rich"]
#: facts §10: the three lane classes
LaneClass = Literal["major", "minor", "restricted"]

#: 6.2: orders that need a target system: move (01) and rendezvous (14)
ORDERS_TO_A_SYSTEM = (1, 14)
#: 6.2: orders carried out in a system (03-12): the target, if given, is where; default here
ORDERS_IN_A_SYSTEM = tuple(range(3, 13))
#: 6.2: orders that find their own destination (hold 00, seek home 02, salvage 15)
ORDERS_WITHOUT_TARGET = (0, 2, 15)
#: 6.2: join another fleet (13): the target is a fleet id
JOIN_ORDER = 13
#: 6.2.2: move (01), the one order that takes waypoints (ruling G34)
MOVE_ORDER = 1

#: the ids of houses, systems and fleets: 1 to 100 ASCII letters, digits, ``-``, ``_`` and
#: ``.``, the first a letter or a digit (a house's name is part of its report's file name; an
#: id is written in messages and orders as it is)
ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$"
ID_RULE = (
    "an id is 1 to 100 letters (A-Z, a-z), digits, '-', '_' or '.', the first a letter or a digit"
)
Id = Annotated[StrictStr, StringConstraints(pattern=ID_PATTERN)]
#: a system's display name: 1 to 100 characters, none of them a control character (a line
#: break, a tab)
DISPLAY_PATTERN = r"^[^\x00-\x1f\x7f]{1,100}$"
DisplayName = Annotated[StrictStr, StringConstraints(pattern=DISPLAY_PATTERN)]

Coord = Annotated[StrictInt, Field(ge=-MAX_COORD, le=MAX_COORD)]
Amount = Annotated[StrictInt, Field(ge=0, le=1_000_000)]


def _ground_in(value: object) -> object:
    """A plain count means that many undamaged units (the state's earlier form)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return {"undamaged": value}
    return value


def _ground_out(ground: GroundSpec) -> int | dict[str, int]:
    """A count when none is crippled (as states without crippled units were written), else
    ``{"undamaged": n, "crippled": m}``."""
    if ground.crippled == 0:
        return ground.undamaged
    return {"undamaged": ground.undamaged, "crippled": ground.crippled}


#: ground units of one kind (7.5.3, 7.6), undamaged and crippled (7.1.2: a crippled unit stays
#: crippled from turn to turn, as squadrons do): a count (all undamaged) or
#: ``{undamaged: n, crippled: m}``
Ground = Annotated[GroundSpec, BeforeValidator(_ground_in), PlainSerializer(_ground_out)]


class _Spec(BaseModel):
    model_config = ConfigDict(
        extra="forbid", frozen=True, validate_by_alias=True, serialize_by_alias=True
    )


class ColonySpec(_Spec):
    """A house's colony on a planet: what income, space combat, bombardment and invasion need.
    8.1.5: the owner controls the system."""

    owner: Name
    #: population units (income; fighter capacity floor(PU/100) x FD, facts §3)
    pu: Amount = 0
    #: industrial units (income)
    iu: Amount = 0
    #: planetary shield level SLD 1-6 (facts §6, 7.5.2); 0: no shield
    shield: Annotated[StrictInt, Field(ge=0, le=6)] = 0
    #: ground batteries (GB, 7.5.3): a count, or ``{undamaged: n, crippled: m}``
    batteries: Ground = GroundSpec()
    #: armies (AA, garrison) and space marines (MD) on the planet (7.6), the same two forms
    armies: Ground = GroundSpec()
    marines: Ground = GroundSpec()
    #: colony-owned fighter squadrons (2.4.1)
    fighters: Count = 0
    #: starbases (2.4.4, 7.4)
    starbases: tuple[StarbaseSpec, ...] = ()
    #: spaceports and shipyards (facts §6; 7.5 bombards spaceports)
    spaceports: Count = 0
    shipyards: Count = 0


class PlanetSpec(_Spec):
    """A planet: its class, its resources and the colony on it, if any."""

    planet_class: PlanetClass = Field(alias="class")
    resources: Resources = "abundant"
    colony: ColonySpec | None = None


class SystemSpec(_Spec):
    """A solar system on a hex of the map (axial coordinates ``q``, ``r``)."""

    id: Id
    name: DisplayName | None = None
    q: Coord
    r: Coord
    planets: tuple[PlanetSpec, ...] = ()

    def colony(self) -> ColonySpec | None:
        """The system's colony (8.1.5: at most one)."""
        return next((p.colony for p in self.planets if p.colony is not None), None)


class LaneSpec(_Spec):
    """A jump lane between two systems, usable both ways (facts §10)."""

    systems: tuple[Name, Name]
    lane_class: LaneClass = Field(alias="class")


class HouseSpec(_Spec):
    """A house: prestige (facts §11: 50 at the start), its home system, what it has explored,
    and the technology levels its battles need."""

    prestige: Annotated[StrictInt, Field(ge=-1000, le=1000)] = 50
    #: the system of its homeworld colony; null once the homeworld is lost
    home: Name | None = None
    #: systems explored besides those where it has a colony or a fleet (those always count)
    explored: Names = ()
    #: ACO level: carrier capacity (facts §3)
    aco: Annotated[StrictInt, Field(ge=1, le=3)] = 1
    #: Fighter Doctrine level: colony fighter capacity x1 / x1.5 / x2 (facts §3)
    fd: Annotated[StrictInt, Field(ge=1, le=3)] = 1
    #: production points in the house's treasury; salvage (order 15, 6.2.16) credits 50% of
    #: the production cost of the ships disbanded
    treasury: Annotated[StrictInt, Field(ge=0, le=10**12)] = 0


class FleetSpec(BattleFleetSpec):
    """A fleet of the battle scenario's shape (squadrons, scouts, spacelift, order, roe) with
    the system it is in. The order's target is a system id (orders 01, 03-12, 14) or a fleet
    id (13). Its id is an id (``ID_PATTERN``)."""

    id: Id
    location: Name


class GameState(_Spec):
    """An EC4X game between turns."""

    ruleset: Literal["ec4x"]
    game_id: Name
    #: the turn about to be played (its orders are orders-turn-N.json)
    turn: Annotated[StrictInt, Field(ge=1, le=1_000_000)]
    systems: tuple[SystemSpec, ...]
    lanes: tuple[LaneSpec, ...] = ()
    houses: dict[Id, HouseSpec]
    diplomacy: tuple[DiplomacySpec, ...] = ()
    fleets: tuple[FleetSpec, ...] = ()
    #: named rule options: movement's (rulesets/ec4x/turn/movement.py) and space combat's
    options: dict[Name, Any] | None = None

    def system(self, system_id: str) -> SystemSpec:
        """The system with this id (``KeyError`` if none)."""
        for system in self.systems:
            if system.id == system_id:
                return system
        raise KeyError(system_id)

    def fleet(self, fleet_id: str) -> FleetSpec:
        """The fleet with this id (``KeyError`` if none)."""
        for fleet in self.fleets:
            if fleet.id == fleet_id:
                return fleet
        raise KeyError(fleet_id)

    def status(self, a: str, b: str) -> str:
        """The diplomatic status of two houses; pairs not listed are neutral (8.1)."""
        for d in self.diplomacy:
            if set(d.houses) == {a, b}:
                return d.status
        return "neutral"

    def to_json(self) -> dict[str, Any]:
        """The state as decoded JSON, every key spelt as in the file (``parse_game`` reads it
        back to an equal state)."""
        return self.model_dump(mode="json", exclude_none=True)


def parse_game(data: object) -> GameState:
    """Validate a decoded game state; ``ScenarioError`` names the first bad field."""
    if not isinstance(data, dict):
        raise ScenarioError("state", "a game state is a mapping of keys to values")
    _within_size(data)
    try:
        state = GameState.model_validate(data)
    except ValidationError as exc:
        first = first_error(exc.errors())
        raise ScenarioError(_path(first["loc"]), _say(first)) from exc
    _check(state)
    return state


def load_game(path: str | Path) -> GameState:
    """Read a JSON (or YAML) game state file, within ``MAX_STATE_BYTES``."""
    return parse_game(read_document(path, MAX_STATE_BYTES))


def _within_size(data: dict[Any, Any]) -> None:
    """Refuse huge lists before pydantic builds them."""
    for key, limit in (
        ("systems", MAX_SYSTEMS),
        ("fleets", MAX_FLEETS),
        ("lanes", 6 * MAX_SYSTEMS),
    ):
        value = data.get(key)
        if isinstance(value, list) and len(value) > limit:
            raise ScenarioError(key, f"{len(value)} entries; the limit is {limit:,}")


def _say(error: Any) -> str:
    """``say`` for the game state, whose keys ``class`` are spelt differently in Python."""
    kind = error["type"]
    if kind == "string_pattern_mismatch":
        return pattern_message(error)
    if kind == "extra_forbidden":
        return f"unknown key; allowed: {', '.join(_keys_at(error['loc'][:-1]))}"
    if kind in ("model_type", "model_attributes_type"):
        keys = ", ".join(_keys_at(error["loc"]))
        return f"must be a mapping with the keys {keys} (got {shown(error.get('input'))})"
    if kind == "order_kind":
        return str(error["msg"])
    return say(error, GameState)


def pattern_message(error: Any) -> str:
    """What an id or a display name must be, for a value that is not one."""
    got = shown(error.get("input"))
    if error.get("ctx", {}).get("pattern") == DISPLAY_PATTERN:
        return f"a name is 1 to 100 characters, without line breaks or tabs (got {got})"
    return f"{ID_RULE} (got {got})"


#: the names pydantic gives the two kinds of an order (a code, or ``{code, target}``) in an
#: error's location
ORDER_KINDS = ("constrained-int", "OrderSpec")


def first_error(errors: list[Any]) -> Any:
    """The error to report of a failed validation: the first, except that an order (a code
    0-15 or ``{code, target}``) is judged as the kind it was written as, never named by the
    library's name of that kind."""
    first = errors[0]
    loc = tuple(first["loc"])
    cut = next((i for i, part in enumerate(loc) if part in ORDER_KINDS), None)
    if cut is None:
        return first
    at = loc[:cut]
    got = first.get("input")
    if isinstance(got, dict):
        for error in errors:
            if tuple(error["loc"][: cut + 1]) == (*at, "OrderSpec"):
                return {**error, "loc": (*at, *error["loc"][cut + 1 :])}
        return first  # pragma: no cover  (a mapping is always judged as OrderSpec)
    if first["type"] in ("less_than_equal", "greater_than_equal"):
        return {**first, "loc": at}
    return {
        "type": "order_kind",
        "loc": at,
        "msg": f"an order is a code 0-15 or a mapping {{code, target}} (got {shown(got)})",
        "input": got,
    }


def _keys_at(loc: tuple[int | str, ...]) -> list[str]:
    """The keys (as written in the file) of the mapping at ``loc``."""
    model: type[BaseModel] | None = GameState
    for part in loc:
        if isinstance(part, int) or model is None:
            continue
        by_key = {f.alias or name: f for name, f in model.model_fields.items()}
        model = _model_in(by_key[part].annotation) if part in by_key else None
    if model is None:
        return []
    return [f.alias or name for name, f in model.model_fields.items()]


def _check(s: GameState) -> None:
    """What the shape cannot say: references between entries, 8.1.5, and 6.2's table."""
    if not s.systems:
        raise ScenarioError("systems", "list at least one system")
    if not s.houses:
        raise ScenarioError("houses", "list at least one house")
    houses = ", ".join(s.houses)

    def house_known(field: str, house: str) -> None:
        if house not in s.houses:
            raise ScenarioError(field, f"{shown(house)} is not a house listed in houses ({houses})")

    where: dict[str, int] = {}
    hexes: dict[tuple[int, int], int] = {}
    colonies: dict[str, str] = {}  # system id -> owner
    for i, system in enumerate(s.systems):
        at = f"systems[{i}]"
        if system.id in where:
            raise ScenarioError(
                f"{at}.id", f"{shown(system.id)} is also systems[{where[system.id]}]"
            )
        where[system.id] = i
        if (system.q, system.r) in hexes:
            raise ScenarioError(
                at,
                f"hex q={system.q}, r={system.r} is also systems[{hexes[system.q, system.r]}]'s; "
                "one system per hex",
            )
        hexes[system.q, system.r] = i
        first: int | None = None
        for p, planet in enumerate(system.planets):
            if planet.colony is None:
                continue
            field = f"{at}.planets[{p}].colony"
            house_known(f"{field}.owner", planet.colony.owner)
            if first is not None:
                raise ScenarioError(
                    field,
                    f"a system can hold only one colony (8.1.5); planets[{first}] holds "
                    f"{shown(colonies[system.id])}'s",
                )
            first = p
            colonies[system.id] = planet.colony.owner

    def system_known(field: str, system_id: str) -> None:
        if system_id not in where:
            raise ScenarioError(field, f"{shown(system_id)} is not a system id listed in systems")

    lanes: dict[frozenset[str], int] = {}
    for i, lane in enumerate(s.lanes):
        at = f"lanes[{i}].systems"
        for j, end in enumerate(lane.systems):
            system_known(f"{at}[{j}]", end)
        pair = frozenset(lane.systems)
        if len(pair) == 1:
            raise ScenarioError(
                at, f"a lane joins two different systems (got {lane.systems[0]} twice)"
            )
        if pair in lanes:
            raise ScenarioError(
                at,
                f"{' and '.join(lane.systems)} are already joined by lanes[{lanes[pair]}]; "
                "one lane per pair of systems",
            )
        lanes[pair] = i

    for name, house in s.houses.items():
        at = f"houses.{name}" if name.isidentifier() and len(name) <= 40 else "houses"
        if house.home is not None:
            system_known(f"{at}.home", house.home)
            owner = colonies.get(house.home)
            if owner != name:
                holds = f"the colony of {shown(owner)}" if owner is not None else "no colony"
                raise ScenarioError(
                    f"{at}.home",
                    f"a home system holds the house's own colony; {house.home} holds {holds}",
                )
        for j, system_id in enumerate(house.explored):
            system_known(f"{at}.explored[{j}]", system_id)

    check_diplomacy(s.diplomacy, house_known)

    _check_fleets(s, where, colonies, house_known, system_known)


def _check_fleets(
    s: GameState,
    where: dict[str, int],
    colonies: dict[str, str],
    house_known: Any,
    system_known: Any,
) -> None:
    ids: dict[str, int] = {}
    for f, fleet in enumerate(s.fleets):
        at = f"fleets[{f}]"
        if fleet.id in ids:
            raise ScenarioError(f"{at}.id", f"{shown(fleet.id)} is also fleets[{ids[fleet.id]}]")
        ids[fleet.id] = f
    for f, fleet in enumerate(s.fleets):
        at = f"fleets[{f}]"
        house_known(f"{at}.owner", fleet.owner)
        system_known(f"{at}.location", fleet.location)
        if not (fleet.squadrons or fleet.scouts or sum(fleet.spacelift.values())):
            raise ScenarioError(at, "a fleet has squadrons, scouts or spacelift ships")
        if fleet.unit_count() > MAX_UNITS_PER_SIDE:
            raise ScenarioError(
                at, f"{fleet.unit_count()} units in one fleet; the limit is {MAX_UNITS_PER_SIDE}"
            )
        if fleet.loaded_tt is not None and fleet.loaded_tt > fleet.spacelift.get("TT", 0):
            raise ScenarioError(
                f"{at}.loaded_tt",
                f"{fleet.loaded_tt} loaded TTs but the fleet has {fleet.spacelift.get('TT', 0)}",
            )
        _check_order(at, fleet, s, where, colonies, ids)


def waypoint_problem(order: OrderSpec, systems: Container[str]) -> tuple[str, str] | None:
    """What is wrong with an order's waypoints (``via``, ruling G34), as (the field under the
    order, the message), or None: only order 01 takes them, each a system of the map, never
    the one just before it."""
    if not order.via:
        return None
    if order.code != MOVE_ORDER:
        return ("via", f"only order 01 (move) takes waypoints, not order {order.code:02d} (G34)")
    if len(order.via) > MAX_WAYPOINTS:
        return ("via", f"{len(order.via)} waypoints; the limit is {MAX_WAYPOINTS}")
    for i, system in enumerate(order.via):
        if system not in systems:
            return (f"via[{i}]", f"{shown(system)} is not a system of the map")
        if i and order.via[i - 1] == system:
            return (f"via[{i}]", f"{system} is also the waypoint before it")
    return None


def _check_order(
    at: str,
    fleet: FleetSpec,
    s: GameState,
    where: dict[str, int],
    colonies: dict[str, str],
    ids: dict[str, int],
) -> None:
    """6.2's requirements table, and what the order's target names."""
    code = fleet.order_code
    field = f"{at}.order"
    target = fleet.order.target if isinstance(fleet.order, OrderSpec) else None
    if code in ORDERS_WITHOUT_TARGET and target is not None:
        raise ScenarioError(
            f"{field}.target",
            f"order {code:02d} finds its own place (6.2); leave its target out "
            f"(got {shown(target)})",
        )
    if code in (*ORDERS_TO_A_SYSTEM, JOIN_ORDER) and target is None:
        what = "the fleet to join" if code == JOIN_ORDER else "the system to go to"
        raise ScenarioError(field, f"order {code:02d} needs a target: {what} (6.2)")
    if target is not None and code == JOIN_ORDER:
        host = ids.get(target)
        if host is None:
            raise ScenarioError(f"{field}.target", f"{shown(target)} is not a fleet id in fleets")
        if s.fleets[host].owner != fleet.owner or target == fleet.id:
            raise ScenarioError(
                f"{field}.target", "order 13 joins another fleet of the same house (6.2.14)"
            )
    elif target is not None and target not in where:
        raise ScenarioError(
            f"{field}.target", f"{shown(target)} is not a system id listed in systems"
        )
    if isinstance(fleet.order, OrderSpec) and (found := waypoint_problem(fleet.order, where)):
        raise ScenarioError(f"{field}.{found[0]}", found[1])
    need = missing_requirement(code, fleet)
    if code == 15 and fleet.owner not in colonies.values():
        need = f"a friendly colony system ({fleet.owner} has no colony)"
    if need is not None:
        raise ScenarioError(field, f"order {code:02d} needs {need} (6.2)")
