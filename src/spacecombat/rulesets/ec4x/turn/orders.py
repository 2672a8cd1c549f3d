"""EC4X fleet orders (ec4x-movement-and-combat.md 6.2): each order's requirement and effect.

One function per order, named with the rulebook's words, says what the order needs (6.2's
table) and where the fleet heads this turn: ``hold_position`` (00), ``move_fleet`` (01),
``seek_home`` (02), ``patrol_a_system`` (03), ``guard_a_starbase`` (04),
``guard_blockade_a_planet`` (05), ``bombard_a_planet`` (06), ``invade_a_planet`` (07),
``blitz_a_planet`` (08), ``spy_on_a_planet`` (09), ``hack_a_starbase`` (10),
``spy_on_a_system`` (11), ``colonize_a_planet`` (12), ``join_another_fleet`` (13),
``rendezvous_at_system`` (14), ``salvage`` (15). Each returns a ``Plan``; a refused order's
plan holds (00) and names the requirement. What an order does once the fleet is where it acts
(blockade, spying, colonising, merging, salvage) is done by the functions after them, which
the conflict phase (``conflict.py``) calls in its order of steps.

Rulings G11-G20 (docs/rulings.md); the choices are ``TurnOptions``, set in the game
state's ``options``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, ConfigDict

from spacecombat.core.dice import Dice
from spacecombat.core.limits import MAX_UNITS_PER_SIDE
from spacecombat.rulesets.ec4x.options import Ec4xOptions
from spacecombat.rulesets.ec4x.space_combat.detection import (
    MAX_ELI,
    detects,
    effective_eli,
    range_rule,
    starbase_eli,
    threshold,
    threshold_range,
)
from spacecombat.rulesets.ec4x.tables import tables
from spacecombat.rulesets.ec4x.turn.movement import (
    Routing,
    can_use,
    restricted_reason,
)
from spacecombat.rulesets.options import parse_options
from spacecombat.scenario.ec4x import SPY_ORDERS, OrderSpec, ScoutSpec, missing_requirement
from spacecombat.scenario.ec4x_game import ColonySpec, FleetSpec, GameState

#: 6.2's names of the orders
NAMES = {
    0: "Hold Position",
    1: "Move Fleet",
    2: "Seek home",
    3: "Patrol a System",
    4: "Guard a Starbase",
    5: "Guard/Blockade a Planet",
    6: "Bombard a Planet",
    7: "Invade a Planet",
    8: "Blitz a Planet",
    9: "Spy on a Planet",
    10: "Hack a Starbase",
    11: "Spy on a System",
    12: "Colonize a Planet",
    13: "Join another Fleet",
    14: "Rendezvous at System",
    15: "Salvage",
}
#: the section of each order
SECTIONS = {code: f"6.2.{code + 1}" for code in NAMES}
HOLD, MOVE, SEEK_HOME, PATROL, GUARD_STARBASE, GUARD_BLOCKADE = 0, 1, 2, 3, 4, 5
BOMBARD, INVADE, BLITZ, SPY_PLANET, HACK_STARBASE, SPY_SYSTEM = 6, 7, 8, 9, 10, 11
COLONIZE, JOIN, RENDEZVOUS, SALVAGE = 12, 13, 14, 15
PLANETARY_ORDERS = frozenset({BOMBARD, INVADE, BLITZ})
#: facts §11: "Blockade: −2 per turn"; "Scout detected and destroyed: −3"
BLOCKADE_PRESTIGE = -2
SPY_LOST_PRESTIGE = -3
#: 6.2.6 "Colonies under blockade reduce their GCO by 60%": the factor left
BLOCKADE_GCO_FACTOR = 0.4
#: facts other.salvage: "50% PC via order 15"
SALVAGE_SHARE = 2  # PC is halved
#: facts §4 spy-scout detection: 1D20 must meet or exceed; rows spy ELI 1-5, columns detector
#: ELI 1-5; None: NA (cannot detect)
SPY_DETECTION: tuple[tuple[tuple[int, int] | None, ...], ...] = (
    ((11, 13), (6, 8), (2, 4), (0, 2), (0, 1)),
    ((15, 17), (11, 13), (6, 8), (2, 4), (0, 2)),
    ((17, 19), (15, 17), (11, 13), (6, 8), (2, 4)),
    ((18, 20), (17, 19), (15, 17), (11, 13), (6, 8)),
    (None, (18, 20), (17, 19), (15, 17), (11, 13)),
)


class TurnOptions(BaseModel):
    """The conflict phase's named choices where the text is ambiguous (rulings G11-G20 and
    on), each set in the game state's ``options`` (``turn_options``) with its default."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    #: G12 seek home (6.2.3) and salvage (6.2.16): among friendly systems equally close (fewest
    #: turns, then fewest jumps), ``lowest_id`` takes the first by id; ``home_first`` prefers
    #: the homeworld, then the first by id
    closest_tie: Literal["lowest_id", "home_first"] = "lowest_id"
    #: G13 retreat (7.3.5): among friendly systems equally few jumps away, ``lowest_id`` takes
    #: the first by id; ``best_lane`` prefers a first lane major, then minor, then the first
    #: by id
    retreat_tie: Literal["lowest_id", "best_lane"] = "lowest_id"
    #: G15 spy detection (facts §4): ``each_unit``: every rival ELI unit in the system (fleets
    #: with scouts by id, then starbases) rolls in turn until one detects; ``best_unit``: only
    #: the rival unit of highest effective ELI rolls
    spy_detectors: Literal["each_unit", "best_unit"] = "each_unit"
    #: G16 hack a starbase (6.2.11) where the target has no rival starbase: ``fails`` (no
    #: report) or ``spy_on_planet`` (the scout reports as under order 09)
    hack_without_starbase: Literal["fails", "spy_on_planet"] = "fails"
    #: G37 a patrol's intelligence on cloaked fleets (6.2.4, 7.1.3 "Scouts and Starbases
    #: present in opposing forces have the opportunity to counter for cloaking"): who rolls
    #: detection. ``house_units``: every ELI unit of the patrol's house in the system (its
    #: fleets with scouts by id, spies apart, then its colony's starbases); ``patrol_fleet``:
    #: the patrol fleet's own scouts only
    patrol_detectors: Literal["house_units", "patrol_fleet"] = "house_units"
    #: G38 colonize a planet (6.2.13 "This mission is reserved for ETACs under fleet escort";
    #: 6.2's table "One ETAC"): ``combat_ships``: the ETAC's fleet must hold combat ship(s),
    #: its escort; ``none``: an ETAC alone may colonise (the table's requirement only)
    colonize_escort: Literal["combat_ships", "none"] = "combat_ships"
    #: G39 fleets of several houses colonising one empty system in the same turn (6.2.13 says
    #: nothing of it): ``roll``: one draw with equal weights among those houses (by name)
    #: picks the house that settles; ``lowest_fleet_id``: the house of the fleet whose id comes
    #: first; ``neither``: no house settles, every one of them holds
    colonize_contest: Literal["roll", "lowest_fleet_id", "neither"] = "roll"


#: the option names the conflict phase reads from the game state's ``options``
TURN_OPTIONS = tuple(TurnOptions.model_fields)


def read_turn_options(raw: Mapping[str, object] | None) -> TurnOptions:
    """The conflict phase's options checked (``ScenarioError`` names a bad one,
    ``options.NAME``, and the values it allows)."""
    return parse_options(TurnOptions, raw, "ec4x")


def turn_options(state: GameState) -> TurnOptions:
    """The conflict phase's options of a game state (its ``options`` that the turn reads)."""
    return read_turn_options({k: v for k, v in (state.options or {}).items() if k in TURN_OPTIONS})


@dataclass(frozen=True)
class Plan:
    """What a fleet does this turn: its order (after refusal), where it heads (``goal``: the
    system it moves toward, None: it stays) and, if refused, the requirement it lacked."""

    code: int
    target: str | None
    goal: str | None
    refused: str | None = None
    #: order 01's waypoints not yet reached (G34)
    via: tuple[str, ...] = ()


class FleetTable(dict[str, FleetSpec]):
    """The fleets by id (in the order they were added), keeping each system's fleets as they
    are set and deleted, so ``at`` does not read every fleet of the game."""

    def __init__(self, fleets: Mapping[str, FleetSpec]) -> None:
        super().__init__()
        self._added: dict[str, int] = {}
        self._where: dict[str, dict[str, None]] = {}
        self._count = 0
        for fid, fleet in fleets.items():
            self[fid] = fleet

    def __setitem__(self, fid: str, fleet: FleetSpec) -> None:
        old = self.get(fid)
        if old is None:
            self._added[fid] = self._count
            self._count += 1
        else:
            del self._where[old.location][fid]
        super().__setitem__(fid, fleet)
        self._where.setdefault(fleet.location, {})[fid] = None

    def __delitem__(self, fid: str) -> None:
        old = self[fid]
        super().__delitem__(fid)
        del self._where[old.location][fid]
        del self._added[fid]

    def at(self, system: str) -> list[FleetSpec]:
        """The fleets in ``system``, in the table's order."""
        here = self._where.get(system, {})
        return [self[fid] for fid in sorted(here, key=self._added.__getitem__)]


class ColonyTable(dict[str, tuple[int, ColonySpec]]):
    """The colonies by system, counting its changes (``version``) so that what is derived
    from them (each house's friendly systems) is found again only after a change."""

    def __init__(self, colonies: Mapping[str, tuple[int, ColonySpec]]) -> None:
        super().__init__(colonies)
        self.version = 0
        self._friendly: dict[str, tuple[int, list[str]]] = {}

    def __setitem__(self, system: str, colony: tuple[int, ColonySpec]) -> None:
        super().__setitem__(system, colony)
        self.version += 1

    def __delitem__(self, system: str) -> None:
        super().__delitem__(system)
        self.version += 1

    def friendly(self, house: str) -> list[str]:
        """The systems of the house's colonies, by id."""
        found = self._friendly.get(house)
        if found is None or found[0] != self.version:
            systems = sorted(s for s, (_, c) in self.items() if c.owner == house)
            found = self._friendly[house] = (self.version, systems)
        return list(found[1])


@dataclass
class World:
    """The game as the conflict phase changes it: the start state (read only), the fleets
    now, the colonies now, and what each house gains, loses and learns."""

    state: GameState
    options: TurnOptions
    fleets: dict[str, FleetSpec]
    #: system -> (planet index, colony)
    colonies: dict[str, tuple[int, ColonySpec]]
    #: per house: [(reason, prestige change)]
    prestige: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    #: per house: production points credited (salvage)
    credits: dict[str, int] = field(default_factory=dict)
    #: per house: report items (what happened to its fleets and colonies)
    notes: dict[str, list[dict[str, object]]] = field(default_factory=dict)
    #: per house: intelligence gathered (spies, patrols)
    intel: dict[str, list[dict[str, object]]] = field(default_factory=dict)
    #: ships gone this turn: "destroyed", "salvaged", "consumed" -> {class: n}
    ledger: dict[str, dict[str, int]] = field(default_factory=dict)
    #: fleets that finished their order this turn (their next standing order is 00)
    done: set[str] = field(default_factory=set)
    #: each fleet's plan for the turn (step 1)
    plans: dict[str, Plan] = field(default_factory=dict)
    #: the state's space combat options (detection out of combat reads E1, E3, E4)
    battle: Ec4xOptions = field(default_factory=Ec4xOptions)
    #: the turn's routes on the start state (6.1, G2), each search made once
    routing: Routing = field(init=False)
    #: retreat paths found this turn: (house, may cross restricted lanes, start, friendly
    #: systems, retreat_tie) -> path
    retreats: dict[tuple[str, bool, str, tuple[str, ...], str], tuple[str, ...] | None] = field(
        default_factory=dict
    )

    def __post_init__(self) -> None:
        self.routing = Routing(self.state)
        self.fleets = FleetTable(self.fleets)
        self.colonies = ColonyTable(self.colonies)

    @classmethod
    def of(cls, state: GameState, options: TurnOptions, battle: Ec4xOptions | None = None) -> World:
        """The world of ``state`` as it is read: its fleets by id, its colonies by system."""
        return cls(
            state=state,
            options=options,
            battle=battle if battle is not None else Ec4xOptions(),
            fleets={f.id: f for f in sorted(state.fleets, key=lambda f: f.id)},
            colonies={
                s.id: (i, p.colony)
                for s in state.systems
                for i, p in enumerate(s.planets)
                if p.colony is not None
            },
        )

    def owner(self, system: str) -> str | None:
        found = self.colonies.get(system)
        return found[1].owner if found else None

    def friendly(self, house: str) -> list[str]:
        """The systems the house controls now (8.1.5)."""
        if isinstance(self.colonies, ColonyTable):
            return self.colonies.friendly(house)
        return sorted(s for s, (_, c) in self.colonies.items() if c.owner == house)

    def note(self, house: str, **item: object) -> None:
        self.notes.setdefault(house, []).append(item)

    def lose(self, kind: str, ships: Mapping[str, int]) -> None:
        book = self.ledger.setdefault(kind, {})
        for code, n in ships.items():
            if n:
                book[code] = book.get(code, 0) + n

    def fleets_at(self, system: str) -> list[FleetSpec]:
        fleets = self.fleets
        if isinstance(fleets, FleetTable):
            return fleets.at(system)
        return [f for f in fleets.values() if f.location == system]


def ships_of(fleet: FleetSpec) -> dict[str, int]:
    """Every ship of a fleet by class: squadrons' ships, carried fighters (FS), scouts (SC),
    spacelift (TT, ET)."""
    out: dict[str, int] = {}
    for squadron in fleet.squadrons:
        for code in squadron.ships():
            out[code] = out.get(code, 0) + 1
        if squadron.fighters:
            out["FS"] = out.get("FS", 0) + squadron.fighters
    if fleet.scout_count():
        out["SC"] = fleet.scout_count()
    for code, n in fleet.spacelift.items():
        if n:
            out[code] = out.get(code, 0) + n
    return out


def with_order(
    fleet: FleetSpec, code: int, target: str | None = None, via: tuple[str, ...] = ()
) -> FleetSpec:
    order: int | OrderSpec = (
        code if target is None else OrderSpec(code=code, target=target, via=via or None)
    )
    return fleet.model_copy(update={"order": order})


def order_via(fleet: FleetSpec) -> tuple[str, ...]:
    """Order 01's waypoints (G34), none for another order."""
    return (fleet.order.via or ()) if isinstance(fleet.order, OrderSpec) else ()


def order_target(fleet: FleetSpec) -> str | None:
    return fleet.order.target if isinstance(fleet.order, OrderSpec) else None


# --- requirements (6.2's table) --------------------------------------------------------------


def _refuse(fleet: FleetSpec, code: int, target: str | None, need: str) -> Plan:
    return Plan(HOLD, None, None, f"order {code:02d} needs {need} ({SECTIONS[code]})")


def _toward(fleet: FleetSpec, code: int, target: str | None) -> Plan:
    """An order that acts in ``target`` (default: where the fleet is): go there first."""
    goal = target if target is not None and target != fleet.location else None
    return Plan(code, target, goal)


# --- the orders --------------------------------------------------------------------------


def hold_position(world: World, fleet: FleetSpec, target: str | None) -> Plan:
    """6.2.1: "hold position and standby for new orders". No requirement."""
    return Plan(HOLD, None, None)


def move_fleet(world: World, fleet: FleetSpec, target: str | None) -> Plan:
    """6.2.2: "Move to a new solar system and hold position (00)". With waypoints (G34) it
    heads for the first not yet reached (those where it is are reached), then the target."""
    via = order_via(fleet)
    while via and via[0] == fleet.location:
        via = via[1:]
    if via:
        return Plan(MOVE, target, via[0], via=via)
    return Plan(MOVE, target, target if target != fleet.location else None)


def seek_home(world: World, fleet: FleetSpec, target: str | None) -> Plan:
    """6.2.3: "seek the closest friendly solar system and hold position (00). Should that
    planet be taken over by an enemy, the fleet will move to the next closest planet you own":
    the closest is found again each turn from the colonies as they stand (G12)."""
    goal = closest_friendly(world, fleet)
    if goal is None:
        return Plan(HOLD, None, None, "order 02 needs a friendly system it can reach (6.2.3)")
    return Plan(SEEK_HOME, None, goal if goal != fleet.location else None)


def patrol_a_system(world: World, fleet: FleetSpec, target: str | None) -> Plan:
    """6.2.4: patrol the target system (default: where it is); engagement as 6.2.4 and 7.3
    say (the battle ruleset's ``engagement``); intelligence on foreign forces met."""
    return _toward(fleet, PATROL, target)


def guard_a_starbase(world: World, fleet: FleetSpec, target: str | None) -> Plan:
    """6.2.5: requires combat ship(s)."""
    if need := missing_requirement(GUARD_STARBASE, fleet):
        return _refuse(fleet, GUARD_STARBASE, target, need)
    return _toward(fleet, GUARD_STARBASE, target)


def guard_blockade_a_planet(world: World, fleet: FleetSpec, target: str | None) -> Plan:
    """6.2.6: requires combat ship(s). At its own (or an empty) planet it guards; at another
    house's colony it blockades (``blockades``)."""
    if need := missing_requirement(GUARD_BLOCKADE, fleet):
        return _refuse(fleet, GUARD_BLOCKADE, target, need)
    return _toward(fleet, GUARD_BLOCKADE, target)


def bombard_a_planet(world: World, fleet: FleetSpec, target: str | None) -> Plan:
    """6.2.7: requires combat ship(s); bombardment follows space combat (7.5)."""
    if need := missing_requirement(BOMBARD, fleet):
        return _refuse(fleet, BOMBARD, target, need)
    return _toward(fleet, BOMBARD, target)


def invade_a_planet(world: World, fleet: FleetSpec, target: str | None) -> Plan:
    """6.2.8: requires combat ship(s) and loaded Troop Transports (7.6.1)."""
    if need := missing_requirement(INVADE, fleet):
        return _refuse(fleet, INVADE, target, need)
    return _toward(fleet, INVADE, target)


def blitz_a_planet(world: World, fleet: FleetSpec, target: str | None) -> Plan:
    """6.2.9: requires loaded Troop Transports (7.6.2)."""
    if need := missing_requirement(BLITZ, fleet):
        return _refuse(fleet, BLITZ, target, need)
    return _toward(fleet, BLITZ, target)


def spy_on_a_planet(world: World, fleet: FleetSpec, target: str | None) -> Plan:
    """6.2.10: "reserved for solo operating Scouts"; military intelligence from the surface."""
    if need := missing_requirement(SPY_PLANET, fleet):
        return _refuse(fleet, SPY_PLANET, target, need)
    return _toward(fleet, SPY_PLANET, target)


def hack_a_starbase(world: World, fleet: FleetSpec, target: str | None) -> Plan:
    """6.2.11: a solo Scout hacks a rival's Starbase network: economic and R&D intelligence."""
    if need := missing_requirement(HACK_STARBASE, fleet):
        return _refuse(fleet, HACK_STARBASE, target, need)
    return _toward(fleet, HACK_STARBASE, target)


def spy_on_a_system(world: World, fleet: FleetSpec, target: str | None) -> Plan:
    """6.2.12: a solo Scout loiters and collects military asset intelligence."""
    if need := missing_requirement(SPY_SYSTEM, fleet):
        return _refuse(fleet, SPY_SYSTEM, target, need)
    return _toward(fleet, SPY_SYSTEM, target)


def colonize_a_planet(world: World, fleet: FleetSpec, target: str | None) -> Plan:
    """6.2.13: "reserved for ETACs under fleet escort": requires one ETAC (6.2's table) and,
    with ``colonize_escort: combat_ships`` (G38), combat ship(s) in its fleet; it lands one
    PTU on an unoccupied planet (``establish_colony``)."""
    if need := missing_requirement(COLONIZE, fleet) or escort_missing(world, fleet):
        return _refuse(fleet, COLONIZE, target, need)
    return _toward(fleet, COLONIZE, target)


def escort_missing(world: World, fleet: FleetSpec) -> str | None:
    """6.2.13 "reserved for ETACs under fleet escort" (G38): what the fleet lacks, or None."""
    if world.options.colonize_escort == "combat_ships" and not fleet.squadrons:
        return "one ETAC under fleet escort: combat ship(s) in its fleet"
    return None


def join_another_fleet(world: World, fleet: FleetSpec, target: str | None) -> Plan:
    """6.2.14: "Seek out the location of a fleet and merge"; "If the host fleet is destroyed,
    all joining fleets will abandon their mission and hold position (00)"."""
    host = world.fleets.get(target or "")
    if host is None:
        world.done.add(fleet.id)
        return Plan(HOLD, None, None, f"order 13's host {target} no longer exists (6.2.14)")
    return Plan(JOIN, target, host.location if host.location != fleet.location else None)


def rendezvous_at_system(world: World, fleet: FleetSpec, target: str | None) -> Plan:
    """6.2.15: move to the system and merge with the fleets ordered there (``rendezvous``)."""
    return Plan(RENDEZVOUS, target, target if target != fleet.location else None)


def salvage(world: World, fleet: FleetSpec, target: str | None) -> Plan:
    """6.2.16: requires a friendly colony system; "Salvage a fleet at the closest colony"."""
    goal = closest_friendly(world, fleet)
    if goal is None:
        return _refuse(fleet, SALVAGE, target, "a friendly colony system it can reach")
    return Plan(SALVAGE, None, goal if goal != fleet.location else None)


ORDERS: dict[int, Callable[[World, FleetSpec, str | None], Plan]] = {
    HOLD: hold_position,
    MOVE: move_fleet,
    SEEK_HOME: seek_home,
    PATROL: patrol_a_system,
    GUARD_STARBASE: guard_a_starbase,
    GUARD_BLOCKADE: guard_blockade_a_planet,
    BOMBARD: bombard_a_planet,
    INVADE: invade_a_planet,
    BLITZ: blitz_a_planet,
    SPY_PLANET: spy_on_a_planet,
    HACK_STARBASE: hack_a_starbase,
    SPY_SYSTEM: spy_on_a_system,
    COLONIZE: colonize_a_planet,
    JOIN: join_another_fleet,
    RENDEZVOUS: rendezvous_at_system,
    SALVAGE: salvage,
}


def plan(world: World, fleet: FleetSpec, code: int, target: str | None) -> Plan:
    """The fleet's plan for the turn under order ``code`` (its requirement checked)."""
    return ORDERS[code](world, fleet, target)


# --- where to go ----------------------------------------------------------------------------


def closest_friendly(world: World, fleet: FleetSpec) -> str | None:
    """The closest system the fleet's house controls (G12): fewest turns, then fewest jumps
    (``movement.route``), then ``closest_tie``. Where it is counts, if friendly."""
    home = world.state.houses[fleet.owner].home
    home_first = world.options.closest_tie == "home_first"
    return world.routing.closest(
        fleet, world.friendly(fleet.owner), lambda system: home_first and system != home
    )


def retreat_destination(world: World, fleet: FleetSpec, start: str) -> tuple[str, ...] | None:
    """7.3.5: "flee to the closest friendly star system via available jump lanes": the path
    of fewest jumps over lanes the fleet may use (6.1: not restricted ones with crippled or
    spacelift ships) to a system its house controls, not ``start``; ties by ``retreat_tie``
    (G13). None: no friendly system can be reached. A breadth-first search from ``start`` (in
    the lanes' order) that stops once the layer holding the first friendly system is found;
    found once per house, lane permission and start while the friendly systems stay the
    same."""
    friendly = tuple(s for s in world.friendly(fleet.owner) if s != start)
    sound = restricted_reason(fleet) is None
    key = (fleet.owner, sound, start, friendly, world.options.retreat_tie)
    if key in world.retreats:
        return world.retreats[key]
    found = _retreat_search(world, fleet, start, set(friendly)) if friendly else None
    world.retreats[key] = found
    return found


def _retreat_search(
    world: World, fleet: FleetSpec, start: str, friendly: set[str]
) -> tuple[str, ...] | None:
    lanes = world.routing.lanes
    paths: dict[str, tuple[str, ...]] = {start: (start,)}
    layer = [start]
    found: list[tuple[str, ...]] = []
    while layer and not found:
        nxt: list[str] = []
        for here in layer:
            for there, lane in lanes[here].items():
                if there in paths or not can_use(fleet, lane):
                    continue
                paths[there] = (*paths[here], there)
                nxt.append(there)
                if there in friendly:
                    found.append(paths[there])
        layer = nxt
    if not found:
        return None
    rank = {"major": 0, "minor": 1, "restricted": 2}

    def key(p: tuple[str, ...]) -> tuple[int, int, str]:
        lane = rank[lanes[p[0]][p[1]]] if world.options.retreat_tie == "best_lane" else 0
        return (len(p), lane, p[-1])

    return min(found, key=key)


def retreat_lane(world: World, house: str, start: str) -> str:
    """The class of the first lane of the house's retreat from ``start`` (for the battle's
    ``retreat_lane``), judged for a fleet that may use every lane; "none" if none."""
    probe = FleetSpec(id="probe", owner=house, location=start, scouts=(ScoutSpec(eli=1),))
    path = retreat_destination(world, probe, start)
    if path is None:
        return "none"
    return world.routing.lanes[path[0]][path[1]]


# --- effects after combat -----------------------------------------------------------------


def blockaded(world: World, system: str) -> list[str]:
    """6.2.6 Blockade: the fleets of other houses under order 05 in the system of a colony."""
    owner = world.owner(system)
    if owner is None:
        return []
    return sorted(
        f.id
        for f in world.fleets_at(system)
        if f.owner != owner and f.order_code == GUARD_BLOCKADE and f.squadrons
    )


def detect_spy(world: World, dice: Dice, spy: FleetSpec) -> str | None:
    """Facts §4 spy-scout detection "each turn a spy operates in a system with rival ELI": a
    detecting unit rolls 1D3 for the threshold in its range (lower, middle, upper), then 1D20,
    detected if at least the threshold. The detectors: rival fleets' scouts (effective ELI)
    and starbases (ELI + 2), per ``spy_detectors`` (G15). Returns the detector, or None."""
    level = max(s.eli for s in spy.scouts)
    units: list[tuple[str, int]] = []
    for other in sorted(world.fleets_at(spy.location), key=lambda f: f.id):
        if other.owner != spy.owner and other.scouts:
            levels = [s.eli for s in other.scouts for _ in range(s.count)]
            units.append((other.id, effective_eli(levels)))
    found = world.colonies.get(spy.location)
    if found is not None and found[1].owner != spy.owner:
        for n, base in enumerate(found[1].starbases, start=1):
            if base.state == "undamaged":
                units.append((f"{spy.location}-SB{n}", starbase_eli(base.eli)))
    if world.options.spy_detectors == "best_unit" and units:
        units = [max(units, key=lambda u: u[1])]
    for name, eli in units:
        span = SPY_DETECTION[level - 1][eli - 1]
        if span is None:
            continue
        low, high = span
        d3 = dice.pick((1, 1, 1))
        needed = (low, (low + high) // 2, high)[d3]
        d20 = dice.pick((1,) * 20) + 1
        if d20 >= needed:
            return name
    return None


def cloak(fleet: FleetSpec) -> int | None:
    """2.4.3 (facts §4) "Any fleet that includes a Raider is fully cloaked"; "A crippled
    Raider loses its cloak until repaired": the highest CLK among the fleet's undamaged
    squadrons with a Raider (a squadron without ``clk`` is CLK1, as in battle), or None if the
    fleet is not cloaked. Out of combat no Task Force forms, so 7.2's "Task Forces including
    Starbases cannot cloak" does not apply (G37)."""
    levels = [s.clk or 1 for s in fleet.squadrons if "RR" in s.ships() and s.state == "undamaged"]
    return max(levels, default=None)


def eli_units(world: World, house: str, system: str, options: Ec4xOptions) -> list[tuple[str, int]]:
    """The house's ELI units in ``system`` for detecting cloaked fleets (7.1.3 "Scouts and
    Starbases present in opposing forces"; 7.3.1.1): each of its fleets with scouts, by id,
    at its effective ELI (facts §4; option ``dominant_penalty``, E1), fleets on spy missions
    apart (E48); then each starbase of its colony there at ELI + 2 (``starbase_eli_cap``,
    E3), as the battle's pre-combat detection counts them."""
    units = [
        (f.id, fleet_eli(f, options))
        for f in sorted(world.fleets_at(system), key=lambda f: f.id)
        if f.owner == house and f.scouts and f.order_code not in SPY_ORDERS
    ]
    found = world.colonies.get(system)
    if found is not None and found[1].owner == house:
        for n, base in enumerate(found[1].starbases, start=1):
            units.append((f"{system}-SB{n}", starbase_eli(base.eli, cap=options.starbase_eli_cap)))
    return units


def fleet_eli(fleet: FleetSpec, options: Ec4xOptions) -> int:
    """The effective ELI of a fleet's scouts (facts §4 steps 1-4; ``dominant_penalty``, E1)."""
    levels = [s.eli for s in fleet.scouts for _ in range(s.count)]
    return effective_eli(levels, dominant_penalty=options.dominant_penalty)


def detect_cloaked(
    dice: Dice, units: list[tuple[str, int]], clk: int, options: Ec4xOptions
) -> str | None:
    """Facts §4 raider detection, as before combat (7.1.3, 7.3.1.1): each ELI unit in turn
    rolls against the fleet's highest CLK, stopping at the first success. Per unit: where
    the table's cell is NA nothing is drawn; where the range rule says so a 1D3
    (``pick([1, 1, 1])``: lower, middle, upper), then a 1D20 (``pick([1] * 20) + 1``),
    detected at or above the threshold (``detection_comparison``, E4). Returns the unit that
    detected, or None."""
    for name, eli in units:
        if threshold_range(min(eli, MAX_ELI), clk) is None:
            continue
        d3 = dice.pick((1, 1, 1)) + 1 if range_rule(eli, clk) == "d3" else None
        needed = threshold(eli, clk, d3)
        assert needed is not None
        d20 = dice.pick((1,) * 20) + 1
        if detects(d20, needed, comparison=options.detection_comparison):
            return name
    return None


def fleets_seen(
    world: World,
    dice: Dice,
    house: str,
    system: str,
    units: list[tuple[str, int]],
    known: dict[tuple[tuple[tuple[str, int], ...], str], bool],
) -> list[dict[str, object]]:
    """The foreign fleets in ``system`` that ``house``'s intelligence reports (6.2.4,
    6.2.12), by fleet id: every fleet not cloaked, and each cloaked fleet ``units`` detect
    (``detect_cloaked``; G37). ``known`` keeps each detection's result for the turn, so the
    same units never roll twice against one fleet."""
    options = world.battle
    seen: list[dict[str, object]] = []
    for other in sorted(world.fleets_at(system), key=lambda f: f.id):
        if other.owner == house:
            continue
        clk = cloak(other)
        if clk is not None:
            key = (tuple(units), other.id)
            if key not in known:
                known[key] = detect_cloaked(dice, units, clk, options) is not None
            if not known[key]:
                continue
        seen.append(fleet_seen(other))
    return seen


def fleet_seen(fleet: FleetSpec) -> dict[str, object]:
    """What intelligence tells of a foreign fleet: its id, house and ships (not its orders)."""
    return {"fleet": fleet.id, "owner": fleet.owner, "ships": ships_of(fleet)}


def colony_seen(world: World, system: str) -> dict[str, object] | None:
    found = world.colonies.get(system)
    if found is None:
        return None
    return found[1].model_dump(mode="json", exclude_none=True)


def spy_report(
    world: World,
    dice: Dice,
    spy: FleetSpec,
    code: int,
    known: dict[tuple[tuple[tuple[str, int], ...], str], bool],
) -> dict[str, object] | None:
    """The intelligence of a spy that was not detected (6.2.10-6.2.12). Spying on a system
    (11) reports the foreign fleets there; a cloaked one only if the spy's own scout detects
    it (``fleets_seen``, G37)."""
    system = spy.location
    base: dict[str, object] = {
        "source": NAMES[code],
        "fleet": spy.id,
        "system": system,
        "turn": world.state.turn,
    }
    found = world.colonies.get(system)
    if code == HACK_STARBASE:
        if found is None or found[1].owner == spy.owner or not found[1].starbases:
            if world.options.hack_without_starbase == "fails":
                return base | {"result": "no rival starbase to hack"}
            code = SPY_PLANET
        else:
            colony = found[1]
            house = world.state.houses[colony.owner]
            return base | {
                "owner": colony.owner,
                "economy": {"pu": colony.pu, "iu": colony.iu},
                "research": {"aco": house.aco, "fd": house.fd},
            }
    if code == SPY_PLANET:
        return base | {"colony": colony_seen(world, system)}
    units = [(spy.id, fleet_eli(spy, world.battle))]
    return base | {"fleets": fleets_seen(world, dice, spy.owner, system, units, known)}


def colonize_contest(world: World, dice: Dice, settlers: list[FleetSpec]) -> str | None:
    """G39: the house that settles the empty system where ``settlers``, fleets of two or more
    houses carrying out order 12 there, colonise in the same turn, or None (``neither``).
    ``roll``: one ``pick`` with equal weights over their houses by name; ``lowest_fleet_id``:
    the house of the settler whose id comes first."""
    rule = world.options.colonize_contest
    if rule == "neither":
        return None
    if rule == "roll":
        houses = sorted({f.owner for f in settlers})
        return houses[dice.pick((1,) * len(houses))]
    return min(settlers, key=lambda f: f.id).owner


def establish_colony(world: World, fleet: FleetSpec) -> FleetSpec | None:
    """6.2.13: "The ETAC will land one PTU on an unoccupied planet and establish a colony.
    ... New colonies start at Level I"; "If the planet is already occupied, the fleet will
    hold position (Order 00)". A system holds one colony (8.1.5), so a system with a colony is
    occupied; the first planet of the system is settled (G17) with PU 1 (one PTU). The ETAC
    is broken down (consumed). Returns the fleet left (None if nothing is left)."""
    system = world.state.system(fleet.location)
    world.done.add(fleet.id)
    why = None
    if fleet.location in world.colonies or not system.planets:
        occupied = "occupied" if fleet.location in world.colonies else "without planets"
        why = f"the system is {occupied}; the fleet holds (6.2.13)"
    elif need := escort_missing(world, fleet):  # its escort was lost in this turn's combat
        why = f"order 12 needs {need} (6.2.13); the fleet holds"
    if why is not None:
        world.note(
            fleet.owner, event="colonize_failed", fleet=fleet.id, system=fleet.location, reason=why
        )
        return fleet
    world.colonies[fleet.location] = (0, ColonySpec(owner=fleet.owner, pu=1))
    world.lose("consumed", {"ET": 1})
    world.note(fleet.owner, event="colonized", fleet=fleet.id, system=fleet.location, pu=1)
    lift = dict(fleet.spacelift)
    lift["ET"] -= 1
    left = fleet.model_copy(update={"spacelift": {k: n for k, n in lift.items() if n}})
    if not ships_of(left):
        return None
    return left


def merge(host: FleetSpec, joiner: FleetSpec) -> FleetSpec | None:
    """6.2.14 "squadrons will join the existing one": the host with the joiner's squadrons,
    scouts and spacelift; None if the merged fleet would pass the unit limit."""
    if host.unit_count() + joiner.unit_count() > MAX_UNITS_PER_SIDE:
        return None
    lift = dict(host.spacelift)
    for code, n in joiner.spacelift.items():
        lift[code] = lift.get(code, 0) + n
    loaded = host.loaded_tts() + joiner.loaded_tts()
    return host.model_copy(
        update={
            "squadrons": host.squadrons + joiner.squadrons,
            "scouts": host.scouts + joiner.scouts,
            "spacelift": {k: n for k, n in lift.items() if n},
            "loaded_tt": None if loaded == lift.get("TT", 0) else loaded,
        }
    )


def id_number_order(fleet_id: str) -> tuple[tuple[int | str, ...], str]:
    """6.2.15 "The fleet with the lowest ID Number" (G31): ids in natural order, each run of
    the digits 0-9 compared as the number it writes (``alpha-2`` before ``alpha-10``) and the
    text between as text; ids equal so (``alpha-02``, ``alpha-2``) by their text. Splitting
    on the runs of digits puts text at even places and numbers at odd ones, so two ids'
    parts always compare like with like."""
    parts = re.split(r"([0-9]+)", fleet_id)
    return (tuple(int(p) if i % 2 else p for i, p in enumerate(parts)), fleet_id)


def salvage_value(fleet: FleetSpec) -> int:
    """6.2.16: "all the ships are salvaged for 50% of their PC" (rounded down, G19)."""
    classes = tables().classes
    return sum(classes[c].pc * n for c, n in ships_of(fleet).items()) // SALVAGE_SHARE
