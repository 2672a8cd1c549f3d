"""Each house's report of a turn: only what that house saw (docs/ec4x.md, "Turn
reports").

- its orders and whether each was carried out or refused (and the requirement it lacked);
- its fleets' moves and its fleets and colonies at the end of the turn; for each of its
  colonies whether it was blockaded (6.2.6) and the GCO factor for this turn's income (0.4
  under blockade, else 1);
- its prestige before and after, with each change; production points credited (salvage);
- the battles it fought in: the system, the result, the rounds, and for each house that
  engaged there its fate, losses, survivors and crippled ships (what the battle showed);
  after planetary combat (7.5, 7.6) the colony's fate (``planetary``: the mission, the result,
  the owner after, what is left of it, the invaders);
  houses present but not engaged (cloaked movers passing by) are left out;
- the intelligence of its spies and patrols; what happened to its fleets (losses,
  retreats, merges, colonies founded, salvage);
- what it knows of the map (ruling G44): the systems it has explored with their planets and
  the owner of their colony, the lanes out of them and the systems at their other end
  (position only); the foreign forces it met in battle or its spies and patrols reported
  (``contacts``); its fleets' routes for their standing orders, with the turn each arrives
  (``routes``, G45) and this turn's retreats.

A house that did not fight in a battle it is listed in (``not_engaged``) gets no
``survivors``: only its fate. Numbers are JSON numbers (``repairs``: 37.5, never "75/2").
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from spacecombat.rulesets.ec4x.turn import orders as o
from spacecombat.rulesets.ec4x.turn.movement import NoRoute, restricted_reason
from spacecombat.rulesets.ec4x.turn.starmap import explored, lanes_of
from spacecombat.scenario.ec4x_game import ColonySpec, FleetSpec, GameState

#: the planetary part of a battle outcome's ``colony`` block (siege.report), as reported
PLANETARY_KEYS = (
    "mission",
    "attacker",
    "result",
    "owner_after",
    "fallen",
    "seized",
    "iu",
    "pu",
    "shield",
    "spaceports",
    "batteries",
    "armies",
    "marines",
    "invaders",
    # several sieges at one colony (ruling G24): each one's own block, in the order played
    "sieges",
)


#: the colony's ground units (7.5.3, 7.6), reported by state
GROUND_UNITS = ("batteries", "armies", "marines")


def colony_by_state(colony: ColonySpec) -> dict[str, Any]:
    """A colony as its owner's report gives it: the state's fields, with each kind of ground
    unit as ``{"undamaged": n, "crippled": m}`` (7.1.2; the state writes a plain count when
    none is crippled)."""
    seen = colony.model_dump(mode="json", exclude_none=True)
    for kind in GROUND_UNITS:
        seen[kind] = getattr(colony, kind).model_dump(mode="json")
    return seen


def report(
    world: o.World,
    new: GameState,
    house: str,
    orders_seen: Mapping[str, list[dict[str, object]]],
    moves: Mapping[str, tuple[str, ...]],
    battles: list[dict[str, Any]],
    blockades: Mapping[str, list[str]],
    later: o.World,
) -> dict[str, Any]:
    """The report of ``house`` for the turn ``world.state.turn`` (``later``: the next state's
    ``next_world``, shared by every house's report)."""
    before = world.state.houses[house].prestige
    own_fleets = [f for f in new.fleets if f.owner == house]
    start_fleets = {f.id for f in world.state.fleets if f.owner == house}
    colonies = []
    for system in new.systems:
        colony = system.colony()
        if colony is None or colony.owner != house:
            continue
        under = system.id in blockades
        colonies.append(
            {
                "system": system.id,
                "colony": colony_by_state(colony),
                "blockaded": under,
                "gco_factor": o.BLOCKADE_GCO_FACTOR if under else 1.0,
            }
        )
    blockading = sorted(
        system for system, fleets in blockades.items() if any(fid in start_fleets for fid in fleets)
    )
    fought = []
    for record in battles:
        if house not in record["houses"]:
            continue
        outcome = record["outcome"]
        seen = {
            h: _as_seen(block)
            for h, block in outcome.get("houses", {}).items()
            if h == house or block.get("fate") != "not_engaged"
        }
        entry: dict[str, Any] = {
            "system": record["system"],
            "wave": record["wave"],
            "result": outcome.get("result"),
            "rounds": outcome.get("rounds"),
            "houses": seen,
        }
        colony = outcome.get("colony")
        if isinstance(colony, dict) and "mission" in colony:
            # planetary combat (7.5, 7.6): every house there sees the colony's fate
            entry["planetary"] = {k: colony[k] for k in PLANETARY_KEYS if k in colony}
        fought.append(entry)
    return {
        "game_id": world.state.game_id,
        "turn": world.state.turn,
        "house": house,
        "prestige": {
            "before": before,
            "after": new.houses[house].prestige,
            "changes": [{"reason": r, "change": n} for r, n in world.prestige.get(house, [])],
        },
        "credited_pp": world.credits.get(house, 0),
        "orders": orders_seen.get(house, []),
        "moves": {fid: list(p) for fid, p in sorted(moves.items()) if fid in start_fleets},
        "fleets": [f.model_dump(mode="json", exclude_none=True) for f in own_fleets],
        "colonies": colonies,
        "blockading": blockading,
        "battles": fought,
        "intelligence": world.intel.get(house, []),
        "events": world.notes.get(house, []),
        "retreats": {
            str(e["fleet"]): list(e["path"])  # type: ignore[call-overload]
            for e in world.notes.get(house, [])
            if e.get("event") == "retreated"
        },
        "routes": routes(later, house),
        "contacts": contacts(house, fought, world.intel.get(house, [])),
        "map": known_map(new, house),
    }


def _as_seen(block: Mapping[str, Any]) -> dict[str, Any]:
    """A house's block of a battle outcome as a report shows it: ``survivors``, ``crippled``
    and ``repairs`` only if it fought; ``repairs`` a number (the outcome writes a fraction of
    PC as text, "75/2": 37.5 here, exact in binary since PC x 25% is a whole number of
    quarters)."""
    if block.get("fate") == "not_engaged":
        return {k: v for k, v in block.items() if k not in ("survivors", "crippled", "repairs")}
    out = dict(block)
    repairs = out.get("repairs")
    if isinstance(repairs, str):
        exact = Fraction(repairs)
        out["repairs"] = int(exact) if exact.denominator == 1 else float(exact)
    return out


def known_map(state: GameState, house: str) -> dict[str, Any]:
    """What ``house`` knows of the map at the end of the turn (ruling G44): each system it has
    explored (G6: listed, colonised or visited) with its planets and its colony's owner (or
    null); each lane with an explored end and the system at its other end (its id and hex
    only: the house knows the lane leads there, not what is there)."""
    known = explored(state, house)
    lanes = lanes_of(state)
    ends = {b for a in known for b in lanes[a]}
    systems: list[dict[str, Any]] = []
    for system in state.systems:
        if system.id in known:
            colony = system.colony()
            systems.append(
                {
                    "id": system.id,
                    **({"name": system.name} if system.name is not None else {}),
                    "q": system.q,
                    "r": system.r,
                    "explored": True,
                    "owner": colony.owner if colony is not None else None,
                    "planets": [
                        {"class": p.planet_class, "resources": p.resources} for p in system.planets
                    ],
                }
            )
        elif system.id in ends:
            systems.append({"id": system.id, "q": system.q, "r": system.r, "explored": False})
    seen_lanes = [
        {"systems": sorted(lane.systems), "class": lane.lane_class}
        for lane in state.lanes
        if lane.systems[0] in known or lane.systems[1] in known
    ]
    seen_lanes.sort(key=lambda lane: lane["systems"])
    return {"systems": systems, "lanes": seen_lanes}


def next_world(world: o.World, new: GameState) -> o.World:
    """The next state as the orders see it (its fleets, colonies and routes: ``Routing``, one
    search per house, start and lane permission), made once for every house's ``routes``."""
    return o.World.of(new, world.options, world.battle)


def routes(later: o.World, house: str) -> dict[str, dict[str, Any]]:
    """Each of the house's fleets whose standing order takes it elsewhere: where it heads
    (the order's ``plan`` on the next state ``later``, ``next_world``), the route of fewest
    turns (6.1, G8) and the turn of the first state with the fleet there (``arrival_turn``,
    G7), judged on the next state as it stands (G2: later turns may change it; ruling G45); or
    why it has none."""
    out: dict[str, dict[str, Any]] = {}
    # a route depends on the fleet only through its house, its system and whether it may
    # cross restricted lanes (6.1): fleets alike share one search
    known: dict[tuple[str, str, bool], dict[str, Any]] = {}
    for fid, fleet in later.fleets.items():
        if fleet.owner != house:
            continue
        code = fleet.order_code
        if code in (o.SEEK_HOME, o.SALVAGE) and later.owner(fleet.location) == house:
            continue  # already at the closest friendly system (its own, 0 turns): no goal
        found = o.plan(later, fleet, code, o.order_target(fleet))
        if found.goal is None:
            continue
        key = (fleet.location, found.goal, restricted_reason(fleet) is None)
        if key not in known:
            known[key] = _route(later, fleet, found.goal)
        out[fid] = {"order": found.code, "goal": found.goal, **known[key]}
    later.routing.forget_searches(house)  # no other report needs them: their memory goes
    return out


def _route(later: o.World, fleet: FleetSpec, goal: str) -> dict[str, Any]:
    try:
        way = later.routing.route(fleet, goal)
    except NoRoute as exc:
        return {"no_route": exc.reason}
    return {
        "path": list(way.path),
        "legs": [list(leg) for leg in way.legs],
        "turns": way.turns,
        "arrival_turn": way.arrival_turn,
    }


def contacts(
    house: str, fought: list[dict[str, Any]], intel: list[dict[str, object]]
) -> list[dict[str, Any]]:
    """Foreign forces the house knows of this turn, where they were: the houses that fought it
    (their survivors, if they held the system) and the fleets its spies and patrols reported.
    Nothing else: a fleet it did not meet or spy on is never here."""
    out: list[dict[str, Any]] = []
    for battle in fought:
        for other, block in battle["houses"].items():
            if other == house or block.get("fate") != "holds":
                continue
            out.append(
                {
                    "system": battle["system"],
                    "owner": other,
                    "ships": block.get("survivors", {}),
                    "source": "battle",
                }
            )
    for item in intel:
        for seen in item.get("fleets", []) or []:  # type: ignore[attr-defined]
            out.append(
                {
                    "system": item["system"],
                    "owner": seen["owner"],
                    "fleet": seen["fleet"],
                    "ships": seen["ships"],
                    "source": item["source"],
                }
            )
    return out
