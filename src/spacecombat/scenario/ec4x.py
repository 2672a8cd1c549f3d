"""The EC4X scenario: houses, diplomacy, the system and its colony, and the fleets present
(ec4x-movement-and-combat.md 6.2 and 7.0–7.4). Parsed strictly: ``read_ec4x`` raises
``ScenarioError(field, message)`` naming the first bad field (``fleets[1].squadrons[0].flagship``)
and what is allowed. What the rules' tables and options say of a colony and a squadron is checked
by the ruleset (``RuleChecks``, given by ``rulesets/ec4x/options.py`` ``parse_ec4x``), at its
place in the order of the checks made here.

Format (every key but ``ruleset``, ``game_id``, ``turn``, ``system``, ``houses`` and ``fleets``
optional)::

    ruleset: ec4x
    game_id: "demo-1"          # with turn, the seed's source (7.3.2.5)
    turn: 12
    seed: 42                   # overrides game_id/turn
    system: {name: Vega, controller: alpha}      # controller absent: neutral space
    houses:
      alpha: {prestige: 50, morale_roll: 14, aco: 1, retreat_lane: major, retreat: roe}
      beta:  {prestige: 30}
    diplomacy:                 # pairs not listed are neutral (8.1: Neutral is the default state)
      - {houses: [alpha, beta], status: enemy}
    colony: {owner: alpha, fighters: 2, starbases: [{state: undamaged, eli: 2}], pu: 400, fd: 1}
    fleets:
      - id: A1
        owner: alpha
        order: 3               # or {code: 7, target: Vega}: orders 00 and 03-12 act here,
                               # so their target is system.name; 01, 02, 13, 14, 15 may name
                               # a place or fleet elsewhere (not checked: combat ignores it)
        roe: 8
        squadrons:
          - {flagship: DN, escorts: {CA: 2}, state: undamaged}
          - {flagship: CV, fighters: 3}
          - {flagship: RR, clk: 2}
        scouts: [{eli: 2, count: 2}]
        spacelift: {TT: 2, ET: 1}
        loaded_tt: 2           # TTs carrying Marines (default: all)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal, Protocol

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    ValidationError,
)

from spacecombat.core.errors import ScenarioError
from spacecombat.core.limits import MAX_SEED, MAX_UNITS_PER_SIDE, shown
from spacecombat.scenario.schema import Count, Name, _path, say

Status = Literal["enemy", "neutral", "non_aggression"]
Condition = Literal["undamaged", "crippled"]
Lane = Literal["major", "minor", "restricted", "none"]
Level = Annotated[StrictInt, Field(ge=1, le=5)]

#: 6.2: orders whose fleets must contain combat ships
NEEDS_COMBAT_SHIPS = frozenset({4, 5, 6, 7})
#: 6.2: orders reserved for one scout operating alone
SPY_ORDERS = frozenset({9, 10, 11})
#: 6.2: orders carried out in the system where the fleet is (hold, patrol, guard, blockade,
#: bombard, invade, blitz, spy, hack, colonize): a target, if given, is the battle's system;
#: 01, 02, 13, 14 and 15 lead elsewhere (a destination, home, a fleet, a colony) (E59)
ORDERS_HERE = (0, *range(3, 13))


class _Spec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RetreatAfterRound(_Spec):
    """Retreat at the first ROE check at or after the end of round N (if the house may)."""

    after_round: Annotated[StrictInt, Field(ge=1, le=100)]


class HouseSpec(_Spec):
    """A house: its prestige (morale, 7.1.4), technology, and how it would retreat."""

    prestige: Annotated[StrictInt, Field(ge=-1000, le=1000)] = 50
    #: this turn's morale d20 if already rolled (7.1.4: one roll per turn)
    morale_roll: Annotated[StrictInt, Field(ge=1, le=20)] | None = None
    #: the auto-critical of prestige 61–80 was already used in an earlier combat this turn
    auto_critical_used: StrictBool = False
    #: ACO level: carrier capacity (facts 3)
    aco: Annotated[StrictInt, Field(ge=1, le=3)] = 1
    #: the class of the lane to the closest friendly system (7.3.5; "none": no retreat possible)
    retreat_lane: Lane = "major"
    #: the stock policy: follow the ROE (7.1.1), never retreat, or retreat after round N
    retreat: Literal["roe", "never"] | RetreatAfterRound = "roe"


class SystemSpec(_Spec):
    """Where the battle is: the house whose colony is here, if any (8.1.5)."""

    name: Name
    controller: Name | None = None


class DiplomacySpec(_Spec):
    """The status between two houses (8.1)."""

    houses: tuple[Name, Name]
    status: Status


class StarbaseSpec(_Spec):
    state: Condition = "undamaged"
    eli: Level = 1


class GroundSpec(_Spec):
    """Planet-side units of one kind, undamaged and crippled (7.5.3, 7.6.1)."""

    undamaged: Count = 0
    crippled: Count = 0


def _ground(value: object) -> object:
    """A plain count means that many undamaged units."""
    if isinstance(value, int) and not isinstance(value, bool):
        return {"undamaged": value}
    return value


Ground = Annotated[GroundSpec, BeforeValidator(_ground)]


class ColonySpec(_Spec):
    """The colony's space defences: colony-owned fighters and starbases (2.4.1, 7.4); its
    population (PU) and Fighter Doctrine level (FD I-III), for the fighter capacity check
    (7.3.4 step 2, 2.4.1)."""

    owner: Name
    fighters: Count = 0
    starbases: tuple[StarbaseSpec, ...] = ()
    #: population units; absent: unknown (only the starbase requirement is checked)
    pu: Annotated[StrictInt, Field(ge=0, le=1_000_000)] | None = None
    #: Fighter Doctrine level: capacity multiplier 1.0 / 1.5 / 2.0 (facts §3)
    fd: Annotated[StrictInt, Field(ge=1, le=3)] = 1
    # planetary combat (7.5, 7.6); absent (None, left out of a log's scenario): none or 0
    #: the shield's level, 0 none, 1-6 SLD1-SLD6
    shield: Annotated[StrictInt, Field(ge=0, le=6)] | None = None
    #: ground batteries, armies and the garrison's marines: a count or {undamaged, crippled}
    batteries: Ground | None = None
    armies: Ground | None = None
    marines: Ground | None = None
    spaceports: Count | None = None
    #: industrial units
    iu: Annotated[StrictInt, Field(ge=0, le=1_000_000)] | None = None


class OrderSpec(_Spec):
    code: Annotated[StrictInt, Field(ge=0, le=15)]
    target: Name | None = None
    #: order 01's waypoints in a game (ruling G34): systems it goes to in turn before its
    #: target; movement only, so a battle takes no notice of them
    #: (at most ``MAX_WAYPOINTS``, checked with the map: ``ec4x_game.waypoint_problem``)
    via: tuple[Name, ...] | None = None


class SquadronSpec(_Spec):
    """A flagship and the escorts under its command (7.3.1.4), fighting as one unit."""

    flagship: Name
    escorts: dict[Name, Count] = Field(default_factory=dict)
    state: Condition = "undamaged"
    #: fighter squadrons carried by the squadron's carriers (7.3.1.2)
    fighters: Count = 0
    #: the CLK level of the squadron's raiders (2.4.3)
    clk: Level | None = None

    def ships(self) -> tuple[str, ...]:
        """The squadron's ships, flagship first."""
        return (self.flagship, *(c for c, n in self.escorts.items() for _ in range(n)))


class ScoutSpec(_Spec):
    eli: Level
    count: Annotated[StrictInt, Field(ge=1, le=MAX_UNITS_PER_SIDE)] = 1


class FleetSpec(_Spec):
    """A fleet present in the system, with its standing order (6.2) and ROE (7.1.1)."""

    id: Name
    owner: Name
    order: Annotated[StrictInt, Field(ge=0, le=15)] | OrderSpec = 0
    roe: Annotated[StrictInt, Field(ge=0, le=10)] = 6
    squadrons: tuple[SquadronSpec, ...] = ()
    scouts: tuple[ScoutSpec, ...] = ()
    spacelift: dict[Literal["TT", "ET"], Count] = Field(default_factory=dict)
    loaded_tt: Count | None = None

    @property
    def order_code(self) -> int:
        return self.order if isinstance(self.order, int) else self.order.code

    def scout_count(self) -> int:
        return sum(s.count for s in self.scouts)

    def loaded_tts(self) -> int:
        tts = self.spacelift.get("TT", 0)
        return tts if self.loaded_tt is None else self.loaded_tt

    def unit_count(self) -> int:
        return (
            sum(len(s.ships()) + s.fighters for s in self.squadrons)
            + self.scout_count()
            + sum(self.spacelift.values())
        )


class Ec4xScenario(_Spec):
    """An EC4X space battle to resolve."""

    ruleset: Literal["ec4x"]
    game_id: Name
    turn: Annotated[StrictInt, Field(ge=0, le=1_000_000)]
    seed: Annotated[StrictInt, Field(ge=0, le=MAX_SEED)] | None = None
    system: SystemSpec
    houses: dict[Name, HouseSpec]
    diplomacy: tuple[DiplomacySpec, ...] = ()
    colony: ColonySpec | None = None
    fleets: tuple[FleetSpec, ...]
    #: the named rule options (rulesets/ec4x/options.py)
    options: dict[Name, Any] | None = None

    def status(self, a: str, b: str) -> str:
        """The diplomatic status of two houses; pairs not listed are neutral."""
        for d in self.diplomacy:
            if set(d.houses) == {a, b}:
                return d.status
        return "neutral"


def check_diplomacy(
    diplomacy: tuple[DiplomacySpec, ...], known: Callable[[str, str], None]
) -> None:
    """Each pair of diplomacy names two different known houses (``known(field, house)``
    refuses an unknown one) and is listed once (8.1: one status between two houses)."""
    pairs: dict[frozenset[str], int] = {}
    for i, d in enumerate(diplomacy):
        for j, house in enumerate(d.houses):
            known(f"diplomacy[{i}].houses[{j}]", house)
        pair = frozenset(d.houses)
        if len(pair) == 1:
            raise ScenarioError(f"diplomacy[{i}].houses", "a pair of two different houses")
        if pair in pairs:
            raise ScenarioError(
                f"diplomacy[{i}].houses",
                f"{' and '.join(d.houses)} are also diplomacy[{pairs[pair]}]; "
                "each pair at most once",
            )
        pairs[pair] = i


class RuleChecks(Protocol):
    """The ruleset's checks of a scenario's colony and squadrons against its rule options and
    tables (``rulesets/ec4x/options.py``), made once the options are read."""

    def colony(self, colony: ColonySpec) -> None: ...

    def squadron(self, at: str, squadron: SquadronSpec, aco: int) -> None: ...


def read_ec4x(
    data: dict[str, object],
    rules: Callable[[Ec4xScenario], RuleChecks],
    *,
    max_units: int = MAX_UNITS_PER_SIDE,
) -> Ec4xScenario:
    """Validate a decoded EC4X scenario; ``ScenarioError`` names the first bad field.
    ``rules(scenario)`` reads the rule options (refusing a bad one first) and gives the
    ruleset's checks of the colony and of each squadron. ``max_units``: the units one house
    may have (a battle scenario's limit; a game turn's battles take the game's,
    ``MAX_GAME_BATTLE_UNITS``)."""
    if not isinstance(data, dict):
        raise ScenarioError("scenario", "a scenario is a mapping of keys to values")
    try:
        scenario = Ec4xScenario.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise ScenarioError(_path(first["loc"]), say(first, Ec4xScenario)) from exc
    _check(scenario, rules(scenario), max_units)
    return scenario


def house_units(s: Ec4xScenario) -> dict[str, int]:
    """Each house's units in the battle: its fleets' and, for the colony's owner, the colony's
    fighters and starbases."""
    units = dict.fromkeys(s.houses, 0)
    if s.colony is not None and s.colony.owner in units:
        units[s.colony.owner] += s.colony.fighters + len(s.colony.starbases)
    for fleet in s.fleets:
        if fleet.owner in units:
            units[fleet.owner] += fleet.unit_count()
    return units


def check_house_units(s: Ec4xScenario, limit: int = MAX_UNITS_PER_SIDE) -> None:
    """Each house within ``limit`` units (``ScenarioError`` on the first over it)."""
    for house, count in house_units(s).items():
        if count > limit:
            raise ScenarioError(
                f"houses.{house}",
                f"{count} units in one house; the limit is {limit}",
            )


def _check(s: Ec4xScenario, rules: RuleChecks, max_units: int) -> None:
    houses = s.houses
    if not houses:
        raise ScenarioError("houses", "list at least one house")
    listed = ", ".join(houses)

    def known(field: str, house: str) -> None:
        if house not in houses:
            raise ScenarioError(field, f"{shown(house)} is not a house listed in houses ({listed})")

    if s.system.controller is not None:
        known("system.controller", s.system.controller)
    check_diplomacy(s.diplomacy, known)
    if s.colony is not None:
        known("colony.owner", s.colony.owner)
        if s.system.controller != s.colony.owner:
            raise ScenarioError(
                "colony.owner",
                "the colony's owner controls the system (8.1.5): system.controller must be "
                f"{shown(s.colony.owner)}",
            )
        rules.colony(s.colony)
    ids: dict[str, int] = {}
    for f, fleet in enumerate(s.fleets):
        at = f"fleets[{f}]"
        if fleet.id in ids:
            raise ScenarioError(f"{at}.id", f"{shown(fleet.id)} is also fleet {ids[fleet.id]}")
        ids[fleet.id] = f
        known(f"{at}.owner", fleet.owner)
        if not (fleet.squadrons or fleet.scouts or fleet.spacelift):
            raise ScenarioError(at, "a fleet has squadrons, scouts or spacelift ships")
        for q, squadron in enumerate(fleet.squadrons):
            rules.squadron(f"{at}.squadrons[{q}]", squadron, houses[fleet.owner].aco)
        if fleet.loaded_tt is not None and fleet.loaded_tt > fleet.spacelift.get("TT", 0):
            raise ScenarioError(
                f"{at}.loaded_tt",
                f"{fleet.loaded_tt} loaded TTs but the fleet has {fleet.spacelift.get('TT', 0)}",
            )
        _check_order(at, fleet, s)
    check_house_units(s, max_units)


def missing_requirement(code: int, fleet: FleetSpec) -> str | None:
    """What 6.2's requirements table asks of the fleet itself for order ``code`` and the fleet
    lacks, in the table's words, or ``None``. Where an order may be carried out (15: a friendly
    colony system; 07 and 08: a colony to land on) is for the caller to judge. The one
    statement of the table: battle scenarios, game states and the turn's orders all use it."""
    combat = bool(fleet.squadrons)
    loaded = fleet.loaded_tts() > 0
    if code == 7 and not (combat and loaded):
        return "combat ship(s) and loaded Troop Transports"
    if code in NEEDS_COMBAT_SHIPS and not combat:
        return "combat ship(s)"
    if code == 8 and not loaded:
        return "loaded Troop Transports"
    alone = fleet.scout_count() == 1 and not combat and not sum(fleet.spacelift.values())
    if code in SPY_ORDERS and not alone:
        return "exactly one Scout ship and nothing else"
    if code == 12 and fleet.spacelift.get("ET", 0) < 1:
        return "one ETAC"
    return None


def _check_order(at: str, fleet: FleetSpec, s: Ec4xScenario) -> None:
    """6.2's requirements table, and the order's target (ruling E59)."""
    code = fleet.order_code
    field = f"{at}.order"
    target = fleet.order.target if isinstance(fleet.order, OrderSpec) else None
    if target is not None and code in ORDERS_HERE and target != s.system.name:
        raise ScenarioError(
            f"{field}.target",
            f"order {code:02d} acts in the system of the battle: its target must be "
            f"{shown(s.system.name)} (system.name) or left out, got {shown(target)}; only "
            "orders 01, 02, 13, 14 and 15 may name a place or fleet elsewhere",
        )
    need = missing_requirement(code, fleet)
    if need is None and code in (7, 8) and s.colony is None:
        need = "a colony in the system to land on (colony; ruling E62)"
    elif code in (7, 8) and s.colony is not None and s.colony.owner == fleet.owner:
        raise ScenarioError(
            field, f"order {code:02d}: {fleet.owner} cannot invade or blitz its own colony"
        )
    if code == 15 and s.system.controller != fleet.owner:
        need = f"a friendly colony system ({s.system.name} is not controlled by {fleet.owner})"
    if need is not None:
        raise ScenarioError(field, f"order {code:02d} needs {need} (6.2)")
