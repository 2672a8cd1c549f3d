"""The EC4X conflict phase (facts §1: Conflict → Income → Command → Maintenance): one turn's
orders carried out on a game state, giving the state of the next turn and one report per house.

``turn(state, orders, options=None) -> TurnResult``. The steps, in the order the text implies:

1. **Orders** (6.2): each fleet's order is the orders file's, else its standing order; its
   requirement is checked (``orders.plan``); a refused order holds (00) and the report names
   the requirement. An order's ``roe`` replaces the fleet's.
2. **Blockades begun**: colonies with a fleet of another house under order 05 in their system
   at the start of the turn (6.2.6 "each turn a colony begins under blockade").
3. **Morale crisis and movement**: each house at prestige 0 or less draws the one fleet that
   refuses orders and holds for the turn (7.1.4, G36). Then (6.1) every fleet with a goal
   makes the first move of its ``movement.route`` (judged on the start state, G2; the routes
   found with ``movement.Routing``, one search per house, source and lane permission); with
   ``pass_through: stops`` a two-jump move ends where Enemy fleets stand in the system passed
   through (G35). A fleet with no route holds; the report says why.
4. **Space combat** (7.3): systems where houses meet and one engages another (the battle
   ruleset's ``engagement``), in order of system id: an ``Ec4xScenario`` is built from the
   state and played with ``core.engine.play`` and the house's stock policy. Spies (09-11) take
   no part (E48). Each house's morale d20 is rolled once a turn (7.1.4) and reused.
5. **Retreats** (7.3.5): retreating fleets flee toward the closest friendly system
   (``orders.retreat_destination``), as far as one 6.1 move this turn (G30: short of it, they
   go on next turn under 01), and hold (00) there; where hostile forces are in the systems
   reached, those systems (by id) fight once more (no sanctuary); a fleet retreating from that
   second battle flees again without a third (G14).
6. **Planetary combat** (7.5, 7.6; E62): played inside the battles of step 4. A system where a
   fleet under 06-08 (its target this system, or none) is at another house's colony is
   resolved even when no space combat takes place; the scenario carries the colony's shield,
   batteries, armies, marines (each undamaged and crippled, as the state keeps them),
   spaceports, IU and PU, and its outcome's ``colony`` block (owner, IU, PU, shield,
   spaceports, ground units by state, the invaders) goes back to the colony:
   rulings G21-G23 (docs/rulings.md). Several attacking houses, or one house's 07 and 08,
   play their sieges one after another in that battle (G24, G25); each siege's fleets are
   applied in turn. A turn's battles take the game's limits, not a battle scenario's 200
   units a house (``MAX_GAME_BATTLE_UNITS``, docs/limits.md).
7. **Spies** (6.2.10-6.2.12): each spy at its target, by system then fleet id, is detected or
   not (facts §4; a detected spy is destroyed, −3 prestige) and reports; a spy on a system
   (11) reports a cloaked fleet only if its scout detects it (7.1.3, G37).
8. **Patrols** (6.2.4): each patrol, by fleet id, reports the foreign forces in its system; a
   cloaked fleet only if its house's ELI units there detect it (7.1.3, G37).
9. **Blockades** (6.2.6): colonies blockaded this turn (begun, or a blockading fleet holding
   after combat): the owner loses 2 prestige; the colony's report says ``blockaded`` and the
   GCO factor 0.4.
10. **Colonies** (6.2.13), **joins** (6.2.14), **rendezvous** (6.2.15; the host by id number,
    G31, waiting for late arrivals, G32) and **salvage** (6.2.16), fleets in id order; an ETAC
    colonises under fleet escort (G38); fleets of several houses colonising one system:
    ``colonize_contest`` (G39).
11. **The next state**: turn + 1, fleets and colonies as they are, standing orders (finished
    orders become 00; an order whose requirement no longer holds becomes 00), explored
    systems, prestige; checked by ``parse_game``.

Every draw of the turn comes from one ``SplitMixDice(ec4x_seed(game_id, turn))`` (or the
``dice`` given): the morale crisis of step 3 (houses by name), the battles of step 4 by system
id, those of step 5 by system id, then the spies of step 7 (each spy's detection by rival ELI,
then, if it spies on a system, its rolls against each cloaked fleet by id), then the patrols of
step 8 (their house's ELI units against each cloaked fleet by id, once a turn per house's units
and fleet), then step 10's colonising contests by system id (G39). docs/ec4x.md, "The order of
the draws", gives each draw.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from spacecombat.core.dice import Dice, SplitMixDice
from spacecombat.core.engine import play
from spacecombat.core.limits import MAX_GAME_BATTLE_UNITS
from spacecombat.rulesets import battle as battle_of
from spacecombat.rulesets.ec4x.options import parse_ec4x, read_options
from spacecombat.rulesets.ec4x.planetary.chain import Plan, Planetary
from spacecombat.rulesets.ec4x.planetary.siege import Assault, Siege
from spacecombat.rulesets.ec4x.seed import ec4x_seed
from spacecombat.rulesets.ec4x.setup import Setup
from spacecombat.rulesets.ec4x.space_combat.engagement import (
    THREAT_ORDERS,
    FleetPosture,
    engagement,
)
from spacecombat.rulesets.ec4x.state import (
    CRIPPLED,
    DESTROYED,
    GONE_CRIPPLED,
    GONE_UNDAMAGED,
    State,
)
from spacecombat.rulesets.ec4x.turn import orders as o
from spacecombat.rulesets.ec4x.turn.game import battle_options, parse_game
from spacecombat.rulesets.ec4x.turn.movement import NoRoute, Route
from spacecombat.rulesets.ec4x.turn.views import PLANETARY_KEYS, next_world
from spacecombat.rulesets.ec4x.turn.views import report as house_report
from spacecombat.scenario.ec4x import (
    SPY_ORDERS,
    Ec4xScenario,
    GroundSpec,
    SquadronSpec,
    StarbaseSpec,
)
from spacecombat.scenario.ec4x_game import ColonySpec, FleetSpec, GameState
from spacecombat.scenario.ec4x_orders import OrdersFile


@dataclass(frozen=True)
class TurnResult:
    """The state of the next turn, each house's report, every battle's record and the ships
    gone (``ledger``: destroyed, salvaged, consumed by class), each fleet's move."""

    state: GameState
    reports: dict[str, dict[str, Any]]
    battles: tuple[dict[str, Any], ...]
    ledger: dict[str, dict[str, int]]
    moves: dict[str, tuple[str, ...]]


def turn(
    state: GameState,
    orders: OrdersFile,
    options: o.TurnOptions | None = None,
    *,
    dice: Dice | None = None,
) -> TurnResult:
    """Play the conflict phase of ``state.turn`` with ``orders`` (checked against the state).
    ``options``: the conflict phase's options (default: the state's ``options``, G12-G16 and
    on); ``dice``: the turn's draws (default ``SplitMixDice(ec4x_seed(game_id, turn))``; tests
    give ``ScriptedDice``)."""
    world = o.World.of(
        state,
        options if options is not None else o.turn_options(state),
        read_options(battle_options(state)),
    )
    if dice is None:
        dice = SplitMixDice(ec4x_seed(state.game_id, state.turn))
    begun = {s for s in world.colonies if o.blockaded(world, s)}
    orders_seen = _give_orders(world, orders.by_fleet())
    refusing = _morale_crisis(world, dice)
    moves = _move(world)
    battle = _Battles(world, dice)
    battle.fight(sorted({f.location for f in world.fleets.values()}))
    battle.fight(sorted(battle.arrivals), second=True)
    _spies(world, dice)
    _patrols(world, dice)
    blockades = _blockades(world, begun)
    _colonize_join_rendezvous_salvage(world, dice)
    new_state = _next_state(world, moves | battle.retreats, refusing)
    reports = _reports(world, new_state, orders_seen, moves, battle.records, blockades)
    return TurnResult(new_state, reports, tuple(battle.records), world.ledger, moves)


# --- step 1: orders ---------------------------------------------------------------------


def _give_orders(world: o.World, given: dict[str, Any]) -> dict[str, list[dict[str, object]]]:
    seen: dict[str, list[dict[str, object]]] = {}
    plans: dict[str, o.Plan] = {}
    for fid, fleet in world.fleets.items():
        entry = given.get(fid)
        code = entry.code if entry else fleet.order_code
        target = entry.target if entry else o.order_target(fleet)
        if entry is not None:
            fleet = fleet.model_copy(update={"order": entry.order})
        if entry is not None and entry.roe is not None:
            fleet = fleet.model_copy(update={"roe": entry.roe})
        found = o.plan(world, fleet, code, target)
        plans[fid] = found
        world.fleets[fid] = o.with_order(fleet, found.code, found.target, found.via)
        item: dict[str, object] = {"fleet": fid, "order": code, "name": o.NAMES[code]}
        if target is not None:
            item["target"] = target
        if found.refused:
            item["refused"] = found.refused
        seen.setdefault(fleet.owner, []).append(item)
    world.plans = plans
    return seen


# --- step 3: morale crisis and movement -------------------------------------------------


def _morale_crisis(world: o.World, dice: Dice) -> dict[str, FleetSpec]:
    """7.1.4 Morale Crisis (prestige 0 or less at the start of the turn): "One random fleet
    refuses orders and holds position for the turn" (G36). Houses in crisis by name, each
    draws ``pick`` among its fleets (by id, equal weights); that fleet holds (00) this turn,
    in movement and in combat, and keeps the order it refused for the next turn. With the
    battle option ``crisis_refusal: ignore`` no fleet refuses. Returns the refusing fleets
    with the orders they refused."""
    state = world.state
    refusing: dict[str, FleetSpec] = {}
    if read_options(battle_options(state)).crisis_refusal == "ignore":
        return refusing
    for house in sorted(state.houses):
        if state.houses[house].prestige > 0:
            continue
        fleets = sorted(fid for fid, f in world.fleets.items() if f.owner == house)
        if not fleets:
            continue
        fid = fleets[dice.pick([1] * len(fleets))]
        refusing[fid] = world.fleets[fid]
        world.fleets[fid] = o.with_order(world.fleets[fid], o.HOLD)
        world.plans[fid] = o.Plan(o.HOLD, None, None)
        world.note(house, event="refused_orders", fleet=fid, reason="morale crisis (7.1.4)")
    return refusing


def _move(world: o.World) -> dict[str, tuple[str, ...]]:
    moves: dict[str, tuple[str, ...]] = {}
    start = {f.id: f for f in world.state.fleets}
    goals = {fid: p.goal for fid, p in world.plans.items() if p.goal is not None}
    ways = _routes(world, {fid: start[fid] for fid in goals}, goals)
    stops = world.routing.options.pass_through == "stops"
    houses_at: dict[str, set[str]] = {}
    for f in world.state.fleets:
        houses_at.setdefault(f.location, set()).add(f.owner)
    for fid in goals:
        fleet = start[fid]
        way = ways[fid]
        if isinstance(way, NoRoute):
            world.fleets[fid] = o.with_order(world.fleets[fid], o.HOLD)
            world.note(fleet.owner, event="no_route", fleet=fid, reason=way.reason)
            continue
        leg = way.legs[0]
        if stops and len(leg) == 3:  # G35: Enemy fleets in the system passed through
            through = leg[1]
            if any(
                world.state.status(fleet.owner, h) == "enemy" for h in houses_at.get(through, set())
            ):
                leg = leg[:2]
                world.note(fleet.owner, event="stopped", fleet=fid, system=through)
        moves[fid] = leg
        world.fleets[fid] = world.fleets[fid].model_copy(update={"location": leg[-1]})
    return moves


def _routes(
    world: o.World, fleets: dict[str, FleetSpec], goals: dict[str, str]
) -> dict[str, Route | NoRoute]:
    """Each fleet's route to its goal (``movement.Routing``, one search per house, source and
    lane permission), found source by source so that each search's memory is let go once its
    fleets have their routes."""
    routing = world.routing
    out: dict[str, Route | NoRoute] = {}
    keys = {fid: routing.search_key(fleet) for fid, fleet in fleets.items()}
    order = sorted(fleets, key=lambda f: (keys[f], f))
    for n, fid in enumerate(order):
        fleet = fleets[fid]
        try:
            out[fid] = routing.route(fleet, goals[fid])
        except NoRoute as exc:
            out[fid] = exc
        if n + 1 == len(order) or keys[order[n + 1]] != keys[fid]:
            routing.release(fleet)
    return out


# --- steps 4 and 5: space combat and retreats ---------------------------------------------


class _Battles:
    def __init__(self, world: o.World, dice: Dice) -> None:
        self.world = world
        self.dice = dice
        self.records: list[dict[str, Any]] = []
        self.morale: dict[str, int] = {}
        self.auto_used: set[str] = set()
        self.arrivals: set[str] = set()
        self.retreats: dict[str, tuple[str, ...]] = {}
        self.second = False
        #: systems whose colony was attacked this turn (planetary combat once a turn, G21)
        self.sieged: set[str] = set()
        #: where each fleet began the turn
        self.began = {f.id: f.location for f in world.state.fleets}

    def fight(self, systems: list[str], *, second: bool = False) -> None:
        self.second = second
        for system in systems:
            scenario = self.scenario(system)
            if scenario is None:
                continue
            process = battle_of(scenario)
            played = play(process, self.dice, process.stock_policies())
            setup: Setup = process.setup  # type: ignore[attr-defined]
            for h, house in enumerate(setup.houses):
                if played.state.auto_used >> h & 1:
                    self.auto_used.add(house)
            for e in played.events:
                roll = e.get("roll")
                if e.get("event") == "morale_checked" and isinstance(roll, int) and roll > 0:
                    self.morale.setdefault(str(e["house"]), roll)
            self.apply(system, setup, played.state, second=second)
            self.apply_planetary(system, process, played.state, played.outcome)
            self.records.append(
                {
                    "system": system,
                    "houses": list(setup.houses),
                    "wave": 2 if second else 1,
                    "outcome": played.outcome,
                }
            )

    def acting(self, fleet: FleetSpec, system: str) -> int:
        """The order a fleet fights under in ``system`` (G21): 06-08 only where they act (the
        fleet's target, or none) and only once a turn; passing through, as 01 (move). A fleet
        waiting at its rendezvous since the turn began (14 at its target) fights as 00 (G32)."""
        code = fleet.order_code
        if code == o.RENDEZVOUS and o.order_target(fleet) == system == self.began.get(fleet.id):
            return o.HOLD  # G32: it waits at its rendezvous, its movement over
        if code not in o.PLANETARY_ORDERS:
            return code
        if o.order_target(fleet) not in (None, system):
            return o.MOVE
        owner = self.world.owner(system)
        if system in self.sieged or (code != o.BOMBARD and owner in (None, fleet.owner)):
            return o.HOLD
        return code

    def postures(self, system: str) -> tuple[list[FleetSpec], list[FleetPosture]]:
        owner = self.world.owner(system)
        fleets = [
            f.model_copy(update={"order": self.acting(f, system)})
            if self.acting(f, system) != f.order_code
            else f
            for f in self.world.fleets_at(system)
            if f.order_code not in SPY_ORDERS and (self.second or f.id not in self.retreats)
        ]
        postures = [
            FleetPosture(
                f.owner,
                f.order_code,
                owner if f.order_code in THREAT_ORDERS and owner not in (None, f.owner) else None,
            )
            for f in fleets
        ]
        return fleets, postures

    def scenario(self, system: str) -> Ec4xScenario | None:
        world, state = self.world, self.world.state
        fleets, postures = self.postures(system)
        owner = world.owner(system)
        houses = sorted({f.owner for f in fleets} | ({owner} if owner else set()))
        if len(houses) < 2 or not fleets:
            return None
        colony = world.colonies[system][1] if owner else None
        defended = bool(colony and (colony.starbases or colony.fighters))
        statuses: Any = {
            frozenset((a, b)): state.status(a, b) for a in houses for b in houses if a < b
        }
        options = read_options(battle_options(state))
        found = engagement(
            postures,
            statuses=statuses,
            controller=owner,
            starbase=defended,
            guard_triggers=options.guard_triggers,
            guard_engages=options.guard_engages,
            starbase_guard=options.starbase_guard,
            blockade_attacked=options.blockade_attacked,
            engage_on=options.engage_on,
            colonize_under_pact=options.colonize_under_pact,
        )
        attacked = any(
            f.order_code in o.PLANETARY_ORDERS and owner not in (None, f.owner) for f in fleets
        )
        if not (any(found.fleets) or found.starbase or attacked):
            return None
        data: dict[str, Any] = {
            "ruleset": "ec4x",
            "game_id": state.game_id,
            "turn": state.turn,
            "system": {"name": system, "controller": owner},
            "houses": {
                h: {
                    "prestige": state.houses[h].prestige,
                    "aco": state.houses[h].aco,
                    "retreat_lane": o.retreat_lane(world, h, system),
                    "auto_critical_used": h in self.auto_used,
                    **({"morale_roll": self.morale[h]} if h in self.morale else {}),
                }
                for h in houses
            },
            "diplomacy": [
                {"houses": [a, b], "status": state.status(a, b)}
                for a in houses
                for b in houses
                if a < b and state.status(a, b) != "neutral"
            ],
            "fleets": [_battle_fleet(f, owner) for f in fleets],
            # G36: the turn has drawn the fleet that refuses orders (7.1.4); no battle draws
            "options": {**battle_options(state), "crisis_refusal": "ignore"},
        }
        if colony is not None:
            kept = colony.model_dump(mode="json", include={"batteries", "armies", "marines"})
            data["colony"] = {
                "owner": colony.owner,
                "fighters": colony.fighters,
                "starbases": [b.model_dump() for b in colony.starbases],
                "pu": colony.pu,
                "fd": state.houses[colony.owner].fd,
                # planetary combat (7.5, 7.6): only a fleet under 06-08 makes the battle use
                # them; ground units as the state keeps them, crippled ones crippled (7.1.2)
                "shield": colony.shield,
                **kept,
                "spaceports": colony.spaceports,
                "iu": colony.iu,
            }
        # the game's limits, checked when the state was read (each fleet within 200 units),
        # not a battle scenario's 200 a house: fleets meet only after movement
        return parse_ec4x(data, max_units=MAX_GAME_BATTLE_UNITS)

    def apply(self, system: str, setup: Setup, end: State, *, second: bool) -> None:
        """The battle's end on the game: squadrons destroyed or crippled, fighters lost,
        screened ships lost, retreats (7.3.5), the colony's starbases and fighters."""
        world = self.world
        cond = end.cond
        for f in setup.fleets:
            fleet = world.fleets[f.fid]
            house = f.house
            kept: list[SquadronSpec] = []
            fled: list[SquadronSpec] = []
            lost: dict[str, int] = {}
            squadron_units = [u for u in f.units if setup.units[u].kind == "squadron"]
            for spec, u in zip(fleet.squadrons, squadron_units, strict=True):
                c = cond[u]
                fighters = sum(
                    1 for v in f.units if setup.units[v].carrier == u and cond[v] != DESTROYED
                )
                if fighters < spec.fighters:
                    lost["FS"] = lost.get("FS", 0) + spec.fighters - fighters
                if c == DESTROYED:
                    for code in spec.ships():
                        lost[code] = lost.get(code, 0) + 1
                    if fighters:  # 7.3.1.2 "If carrier destroyed: all carrier-owned fighters"
                        lost["FS"] = lost.get("FS", 0) + fighters
                    continue
                state = "crippled" if c in (CRIPPLED, GONE_CRIPPLED) else spec.state
                now = spec.model_copy(update={"state": state, "fighters": fighters})
                (fled if c in (GONE_UNDAMAGED, GONE_CRIPPLED) else kept).append(now)
            here = bool(end.screened_lost >> house & 1) and bool(end.joined >> f.index & 1)
            lift = dict(fleet.spacelift)
            scouts = fleet.scouts
            if here and not end.spacelift_left >> house & 1:
                for code, n in lift.items():
                    lost[code] = lost.get(code, 0) + n
                lift = {}
            scouts_lost = (f.scout_unit >= 0 and cond[f.scout_unit] == DESTROYED) or (
                f.scout_unit < 0 and here
            )
            if scouts_lost and scouts:
                lost["SC"] = lost.get("SC", 0) + fleet.scout_count()
                scouts = ()
            world.lose("destroyed", lost)
            retreating = bool(end.retreated >> house & 1) and bool(fled or not kept)
            rest = fleet.model_copy(
                update={
                    "squadrons": tuple(kept),
                    "scouts": scouts,
                    "spacelift": lift,
                    "loaded_tt": None
                    if fleet.loaded_tt is None
                    else min(fleet.loaded_tt, lift.get("TT", 0)),
                }
            )
            if lost:
                world.note(fleet.owner, event="losses", fleet=f.fid, system=system, ships=lost)
            leaving = rest.model_copy(update={"squadrons": tuple(fled)})
            if retreating and not kept and o.ships_of(leaving):
                self.retreat(leaving, system, second)
            elif fled:
                world.fleets[f.fid] = rest
                part = fleet.model_copy(
                    update={
                        "id": f"{f.fid}.r{world.state.turn}",
                        "squadrons": tuple(fled),
                        "scouts": (),
                        "spacelift": {},
                        "loaded_tt": None,
                    }
                )
                self.retreat(part, system, second)
            elif o.ships_of(rest):
                world.fleets[f.fid] = rest
            else:
                del world.fleets[f.fid]
                world.note(fleet.owner, event="fleet_destroyed", fleet=f.fid, system=system)
        self.apply_colony(system, setup, end)

    def apply_colony(self, system: str, setup: Setup, end: State) -> None:
        world = self.world
        if system not in world.colonies or not setup.colony_units:
            return
        planet, colony = world.colonies[system]
        bases: list[StarbaseSpec] = []
        fighters = 0
        lost: dict[str, int] = {}
        for u in setup.colony_units:
            unit = setup.units[u]
            c = end.cond[u]
            if unit.kind == "starbase":
                eli = colony.starbases[len(bases) + lost.get("SB", 0)].eli
                if c == DESTROYED:
                    lost["SB"] = lost.get("SB", 0) + 1
                else:
                    state = "crippled" if c == CRIPPLED else "undamaged"
                    bases.append(StarbaseSpec(state=state, eli=eli))
            elif c == DESTROYED:
                lost["FS"] = lost.get("FS", 0) + 1
            else:
                fighters += 1
        world.colonies[system] = (
            planet,
            colony.model_copy(update={"starbases": tuple(bases), "fighters": fighters}),
        )
        if lost:
            world.note(colony.owner, event="colony_losses", system=system, units=lost)

    def apply_planetary(
        self, system: str, process: Any, end: State, outcome: Mapping[str, Any]
    ) -> None:
        """The planetary steps' end on the game (G21-G25): the colony as the outcome's
        ``colony`` block leaves it, and for each siege that took place (one after another,
        G24) the transports that landed their marines emptied, those lost in a blitz gone,
        prestige on a conquest (facts §11), the attacker and the owner told."""
        planetary: Planetary | None = getattr(process, "planetary", None)
        block = outcome.get("colony")
        if planetary is None or not isinstance(block, dict) or "mission" not in block:
            return
        world = self.world
        self.sieged.add(system)
        planet, colony = world.colonies[system]
        defender = colony.owner
        for seen in block.get("sieges") or [block]:
            told = {k: seen[k] for k in PLANETARY_KEYS if k in seen}
            for house in (str(seen["attacker"]), defender):
                world.note(house, event="planetary_combat", system=system, **told)
        sieges = list(planetary.played(end))
        if all(siege is None for _, _, siege, _ in sieges):
            return
        fallen = bool(block["fallen"])
        ground = {k: _ground(block[k]) for k in ("batteries", "armies", "marines")}
        invaders = block["invaders"]
        if fallen:  # G22: the invaders still standing are the new garrison, in their state
            ground["marines"] = _ground(invaders)
        world.colonies[system] = (
            planet,
            colony.model_copy(
                update={
                    "owner": str(block["owner_after"]),
                    "iu": int(block["iu"]),
                    "pu": int(block["pu"]),
                    "shield": int(block["shield"]),
                    "spaceports": int(block["spaceports"]),
                    **ground,
                }
            ),
        )
        conqueror = str(block["attacker"]) if fallen else None
        if fallen:
            how = "invaded" if block["mission"] == "invade" else "blitzed"
            world.prestige.setdefault(str(conqueror), []).append(
                (f"colony in {system} {how}", CONQUEST_PRESTIGE)
            )
            world.prestige.setdefault(defender, []).append(
                (f"colony in {system} lost", LOST_COLONY_PRESTIGE)
            )
        for plan, assault, siege, _ in sieges:
            self.apply_siege(system, process, end, plan, assault, siege, conqueror)

    def apply_siege(
        self,
        system: str,
        process: Any,
        end: State,
        plan: Plan,
        assault: Assault,
        siege: Siege | None,
        conqueror: str | None,
    ) -> None:
        """One siege's fleets (G23): transports lost in a blitz, transports emptied where the
        marines landed; after a conquest the conqueror's fleets hold (00)."""
        world = self.world
        landed = siege is not None and (siege.landed_total > 0 or assault.mission == "blitz")
        gone: dict[str, int] = {}
        if siege is not None:
            for s, c in zip(assault.strikers, siege.cond, strict=True):
                if s.kind == "transport" and c == DESTROYED:
                    fid = s.uid.rsplit("-TT", 1)[0]
                    gone[fid] = gone.get(fid, 0) + 1
        for i in plan.fleets:
            fid = process.setup.fleets[i].fid
            fleet = world.fleets.get(fid)
            if fleet is None or end.refused >> i & 1:
                continue
            lift = dict(fleet.spacelift)
            tts = lift.get("TT", 0)
            lost = min(tts, gone.get(fid, 0))  # TTs lost in space are already gone (E63)
            if lost:
                lift["TT"] = tts - lost
                world.lose("destroyed", {"TT": lost})
                world.note(
                    fleet.owner, event="losses", fleet=fid, system=system, ships={"TT": lost}
                )
            loaded = fleet.loaded_tt
            if fleet.order_code in (o.INVADE, o.BLITZ) and landed:
                loaded = 0  # G23: the divisions went down; the transports are empty
                world.done.add(fid)
            elif loaded is not None:
                loaded = min(loaded, lift.get("TT", 0))
            if fleet.owner == conqueror:
                world.done.add(fid)
            rest = fleet.model_copy(
                update={"spacelift": {k: n for k, n in lift.items() if n}, "loaded_tt": loaded}
            )
            if o.ships_of(rest):
                world.fleets[fid] = rest
            else:  # a blitz of transports only, every one lost
                del world.fleets[fid]
                world.note(fleet.owner, event="fleet_destroyed", fleet=fid, system=system)

    def retreat(self, fleet: FleetSpec, system: str, second: bool) -> None:
        """7.3.5: toward the closest friendly system; it holds (00) there. With
        ``retreat_range: one_move`` (G30) it goes as far as one 6.1 move along the way this
        turn and, if short of the system, moves on to it next turn under order 01."""
        world = self.world
        whole = o.retreat_destination(world, fleet, system)
        if whole is None:  # the battle let it retreat only with a lane: keep it here
            world.fleets[fleet.id] = fleet
            return
        path = whole
        if world.routing.options.retreat_range == "one_move":
            path = world.routing.first_move(fleet, whole)
        if path == whole:
            world.fleets[fleet.id] = o.with_order(fleet, o.HOLD).model_copy(
                update={"location": path[-1]}
            )
            world.done.add(fleet.id)
        else:
            world.fleets[fleet.id] = o.with_order(fleet, o.MOVE, whole[-1]).model_copy(
                update={"location": path[-1]}
            )
            world.done.discard(fleet.id)
        self.retreats[fleet.id] = self.retreats.get(fleet.id, ())[:-1] + path
        world.note(fleet.owner, event="retreated", fleet=fleet.id, path=list(path))
        if path != whole:
            world.note(fleet.owner, event="retreat_continues", fleet=fleet.id, toward=whole[-1])
        if not second:
            self.arrivals.add(path[-1])


#: facts §11: "successful invasion or blitz +10", "lose a planet −10"
CONQUEST_PRESTIGE = 10
LOST_COLONY_PRESTIGE = -10


def _ground(units: Mapping[str, Any]) -> GroundSpec:
    """Ground units of one kind as an outcome's ``colony`` block leaves them: the undamaged and
    the crippled, each kept in its state for the next turn (7.1.2, G22)."""
    return GroundSpec(undamaged=int(units["undamaged"]), crippled=int(units["crippled"]))


def _battle_fleet(fleet: FleetSpec, owner: str | None) -> dict[str, Any]:
    data = fleet.model_dump(mode="json", exclude_none=True, exclude={"location", "order"})
    code = fleet.order_code
    if code == o.SALVAGE and owner != fleet.owner:
        code = o.HOLD  # salvage is carried out at a friendly colony (step 10); en route it holds
    data["order"] = code
    return data


# --- steps 7 and 8: intelligence --------------------------------------------------------


def _spies(world: o.World, dice: Dice) -> None:
    """Step 7 (6.2.10-6.2.12, G15-G16, G37): each spy at its target, by system then fleet id:
    its detection by rival ELI (``detect_spy``); if it survives, its report, with the
    detection rolls of its own scout against each cloaked fleet there (order 11)."""
    spies = sorted(
        (f for f in world.fleets.values() if f.order_code in SPY_ORDERS),
        key=lambda f: (f.location, f.id),
    )
    known: dict[tuple[tuple[tuple[str, int], ...], str], bool] = {}
    for spy in spies:
        if o.order_target(spy) not in (None, spy.location):
            continue  # still on its way
        detector = o.detect_spy(world, dice, spy)
        if detector is not None:
            del world.fleets[spy.id]
            world.lose("destroyed", o.ships_of(spy))
            world.prestige.setdefault(spy.owner, []).append(("scout detected", o.SPY_LOST_PRESTIGE))
            world.note(spy.owner, event="spy_destroyed", fleet=spy.id, system=spy.location)
            continue
        report = o.spy_report(world, dice, spy, spy.order_code, known)
        if report is not None:
            world.intel.setdefault(spy.owner, []).append(report)


def _patrols(world: o.World, dice: Dice) -> None:
    """Step 8 (6.2.4 "Patrol operations automatically gather intelligence on all foreign
    forces encountered"): each patrol at its target, by fleet id, reports the foreign fleets
    in its system; a cloaked fleet only if its house's ELI units there detect it (G37,
    ``patrol_detectors``), each house's units rolling once a turn against one fleet."""
    known: dict[tuple[tuple[tuple[str, int], ...], str], bool] = {}
    for fid in sorted(world.fleets):
        fleet = world.fleets[fid]
        if fleet.order_code != o.PATROL or o.order_target(fleet) not in (None, fleet.location):
            continue
        if world.options.patrol_detectors == "patrol_fleet":
            units = [(fid, o.fleet_eli(fleet, world.battle))] if fleet.scouts else []
        else:
            units = o.eli_units(world, fleet.owner, fleet.location, world.battle)
        seen = o.fleets_seen(world, dice, fleet.owner, fleet.location, units, known)
        if seen:
            world.intel.setdefault(fleet.owner, []).append(
                {
                    "source": "Patrol a System",
                    "fleet": fleet.id,
                    "system": fleet.location,
                    "turn": world.state.turn,
                    "fleets": seen,
                }
            )


# --- step 9: blockades ------------------------------------------------------------------


def _blockades(world: o.World, begun: set[str]) -> dict[str, list[str]]:
    """Each colony blockaded this turn and the fleets blockading it."""
    out: dict[str, list[str]] = {}
    for system in sorted(world.colonies):
        now = o.blockaded(world, system)
        if system in begun or now:
            out[system] = now
            owner = world.colonies[system][1].owner
            before = world.state.system(system).colony()
            if not now and before is not None and before.owner != owner:
                owner = before.owner  # it began blockaded, then fell (G21): its former owner
            world.prestige.setdefault(owner, []).append(
                (f"colony in {system} blockaded", o.BLOCKADE_PRESTIGE)
            )
    return out


# --- step 10: colonies, joins, rendezvous, salvage --------------------------------------


def _colonize_join_rendezvous_salvage(world: o.World, dice: Dice) -> None:
    settling = [
        fleet
        for fid, fleet in sorted(world.fleets.items())
        if fleet.order_code == o.COLONIZE and o.order_target(fleet) in (None, fleet.location)
    ]
    barred = _contests(world, dice, settling)
    for settler in settling:
        fid = settler.id
        if fid in barred:
            world.done.add(fid)
            world.fleets[fid] = o.with_order(settler, o.HOLD)
            world.note(
                settler.owner,
                event="colonize_failed",
                fleet=fid,
                system=settler.location,
                reason=barred[fid],
            )
            continue
        left = o.establish_colony(world, settler)
        if left is None:
            del world.fleets[fid]
        else:
            world.fleets[fid] = o.with_order(left, o.HOLD)
    for fid in sorted(world.fleets):
        fleet = world.fleets.get(fid)
        if fleet is None or fleet.order_code != o.JOIN:
            continue
        host = world.fleets.get(o.order_target(fleet) or "")
        if host is None:
            world.fleets[fid] = o.with_order(fleet, o.HOLD)
            world.note(
                fleet.owner,
                event="join_abandoned",
                fleet=fid,
                reason="its host fleet was destroyed; it holds (6.2.14)",
            )
        elif host.location == fleet.location:
            _merge_into(world, host.id, fleet)
    _rendezvous_at_system(world)
    for fid in sorted(world.fleets):
        fleet = world.fleets[fid]
        if fleet.order_code == o.SALVAGE and world.owner(fleet.location) == fleet.owner:
            value = o.salvage_value(fleet)
            del world.fleets[fid]
            world.lose("salvaged", o.ships_of(fleet))
            world.credits[fleet.owner] = world.credits.get(fleet.owner, 0) + value
            world.note(fleet.owner, event="salvaged", fleet=fid, system=fleet.location, pp=value)


def _contests(world: o.World, dice: Dice, settling: list[FleetSpec]) -> dict[str, str]:
    """G39: empty systems that fleets of several houses colonise this turn, by system id: the
    house that settles (``colonize_contest``; a ``roll`` draws here); the other houses'
    fleets there are barred (fleet id -> the reason)."""
    by_system: dict[str, list[FleetSpec]] = {}
    for fleet in settling:
        by_system.setdefault(fleet.location, []).append(fleet)
    barred: dict[str, str] = {}
    for system, settlers in sorted(by_system.items()):
        rivals = sorted({f.owner for f in settlers})
        if len(rivals) < 2 or system in world.colonies:
            continue
        winner = o.colonize_contest(world, dice, settlers)
        who = f"{winner} settles it" if winner else "no house settles it"
        for fleet in settlers:
            if fleet.owner != winner:
                barred[fleet.id] = (
                    f"houses {', '.join(rivals)} colonise {system} in the same turn: {who} "
                    f"(G39, colonize_contest: {world.options.colonize_contest}); the fleet holds"
                )
    return barred


def _rendezvous_at_system(world: o.World) -> None:
    """6.2.15 "Move to the specified system and merge with any other fleets ordered to
    rendezvous there. The fleet with the lowest ID Number becomes the host fleet": the fleets
    of one house under 14 at their target merge into the lowest by id number (G31); the host
    keeps its order 14 and waits there, so a fleet arriving a turn later still merges (G32)."""
    groups: dict[tuple[str, str], list[str]] = {}
    for fid, fleet in sorted(world.fleets.items()):
        if fleet.order_code == o.RENDEZVOUS and o.order_target(fleet) == fleet.location:
            groups.setdefault((fleet.owner, fleet.location), []).append(fid)
    for members in groups.values():
        first, *others = sorted(members, key=o.id_number_order)
        for fid in others:
            _merge_into(world, first, world.fleets[fid])


def _merge_into(world: o.World, host_id: str, joiner: FleetSpec) -> None:
    merged = o.merge(world.fleets[host_id], joiner)
    if merged is None:
        world.fleets[joiner.id] = o.with_order(joiner, o.HOLD)
        world.note(
            joiner.owner,
            event="merge_refused",
            fleet=joiner.id,
            host=host_id,
            reason="the merged fleet would pass the unit limit",
        )
        return
    world.fleets[host_id] = merged
    del world.fleets[joiner.id]
    world.note(joiner.owner, event="merged", fleet=joiner.id, host=host_id)


# --- step 11: the next state ------------------------------------------------------------


def _standing(world: o.World, fleet: FleetSpec) -> FleetSpec:
    """The order a fleet keeps for the next turn."""
    code, target = fleet.order_code, o.order_target(fleet)
    arrived = target in (None, fleet.location)
    if code == o.MOVE:  # G34: the waypoints reached are dropped; arrived once none is left
        via = o.move_fleet(world, fleet, target).via
        arrived = arrived and not via
        fleet = o.with_order(fleet, code, target, via)
    if fleet.id in world.done or (code == o.MOVE and arrived):
        return o.with_order(fleet, o.HOLD)
    if code == o.SEEK_HOME and world.owner(fleet.location) == fleet.owner:
        return o.with_order(fleet, o.HOLD)
    again = o.plan(world, fleet, code, target)
    if again.refused:
        return o.with_order(fleet, o.HOLD)
    return fleet


def _next_state(
    world: o.World, paths: dict[str, tuple[str, ...]], refusing: dict[str, FleetSpec]
) -> GameState:
    state = world.state
    for fid, given in refusing.items():  # G36: the order refused for the turn stands
        fleet = world.fleets.get(fid)
        if fleet is not None and fleet.order_code == o.HOLD and fid not in world.done:
            world.fleets[fid] = fleet.model_copy(update={"order": given.order})
    data = state.to_json()
    data["turn"] = state.turn + 1
    for s in data["systems"]:
        found = world.colonies.get(s["id"])
        for i, planet in enumerate(s.get("planets", [])):
            planet.pop("colony", None)
            if found is not None and found[0] == i:
                planet["colony"] = found[1].model_dump(mode="json", exclude_none=True)
    fleets = [_standing(world, f) for f in world.fleets.values()]
    owners = {f.id: f.owner for f in state.fleets} | {f.id: f.owner for f in world.fleets.values()}
    data["fleets"] = [f.model_dump(mode="json", exclude_none=True) for f in fleets]
    for house, spec in data["houses"].items():
        change = sum(n for _, n in world.prestige.get(house, []))
        spec["prestige"] = max(-1000, min(1000, spec.get("prestige", 50) + change))
        if spec.get("home") and world.owner(spec["home"]) != house:
            spec["home"] = None
        explored = list(spec.get("explored", []))
        visited = sorted({s for fid, p in paths.items() if owners.get(fid) == house for s in p})
        explored += [s for s in visited if s not in explored]
        spec["explored"] = explored
        spec["treasury"] = spec.get("treasury", 0) + world.credits.get(house, 0)
    return parse_game(data)


# --- reports ------------------------------------------------------------------------------


def _reports(
    world: o.World,
    new: GameState,
    orders_seen: dict[str, list[dict[str, object]]],
    moves: dict[str, tuple[str, ...]],
    battles: list[dict[str, Any]],
    blockades: dict[str, list[str]],
) -> dict[str, dict[str, Any]]:
    later = next_world(world, new)
    return {
        house: house_report(world, new, house, orders_seen, moves, battles, blockades, later)
        for house in sorted(new.houses)
    }


__all__ = ["ColonySpec", "TurnResult", "turn"]
