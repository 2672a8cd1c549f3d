"""EC4X engagement: which houses are hostile (7.3.2.1), which fleets and starbase take part in
a system's space combat (top of 7.3; 6.2.4-6.2.6; 7.4; facts §9 on 8.1), and what a Task
Force's ROE and cloak are (7.2). Pure rules, no dice.

A system holds at most one colony (facts §9, 8.1.5), controlled by ``controller``; an order
05-08 or 12 that is directed at a colony (``FleetPosture.threatens``) is therefore directed at
the controller's colony in this system. Cloaking is not considered here: the combat process
removes undetected cloaked fleets that continue their movement (7.2) before asking.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

Status = Literal["enemy", "neutral", "non_aggression"]
ThreatHostility = Literal["threatened_only", "both_ways"]
ColonizeUnderPact = Literal["threat", "no_threat"]
GuardTriggers = Literal["orders_05_08_12", "orders_05_08"]
GuardEngages = Literal["hostile", "enemy_only"]
StarbaseGuard = Literal["when_threatened", "with_starbase"]
BlockadeAttacked = Literal["fights", "held_back"]
EngageOn = Literal["mandate", "any_hostility"]

THREAT_ORDERS = frozenset({5, 6, 7, 8, 12})  # 7.3 rule 3: "orders 05 through 08 and 12"
ASSAULT_ORDERS = frozenset({5, 6, 7, 8})  # 6.2.5, 6.2.6, 7.4: "orders 05 to 08"
ORDERS = range(16)  # 6.2: orders 00..15
PATROL, GUARD_STARBASE, GUARD_OR_BLOCKADE, COLONIZE = 3, 4, 5, 12
MAX_ROE = 10


@dataclass(frozen=True, slots=True)
class FleetPosture:
    """What engagement needs to know of one fleet in the system: its house, its order (6.2)
    and, for an order 05-08 or 12 directed at another house's colony, that house."""

    house: str
    order: int
    threatens: str | None = None

    def __post_init__(self) -> None:
        if not self.house:
            raise ValueError("a fleet belongs to a house")
        if self.order not in ORDERS:
            raise ValueError(f"fleet orders are 00..15 (6.2), got {self.order}")
        if self.threatens is not None and self.order not in THREAT_ORDERS:
            raise ValueError(f"order {self.order:02d} is not directed at a colony")
        if self.threatens == self.house:
            raise ValueError(f"{self.house} cannot threaten its own colony")

    @property
    def guard_starbase(self) -> bool:
        """Order 04, Guard a Starbase (6.2.5)."""
        return self.order == GUARD_STARBASE

    @property
    def guards_planet(self) -> bool:
        """Order 05 at no other house's colony: Guard (6.2.6)."""
        return self.order == GUARD_OR_BLOCKADE and self.threatens is None

    @property
    def blockades(self) -> bool:
        """Order 05 directed at another house's colony: Blockade (6.2.6)."""
        return self.order == GUARD_OR_BLOCKADE and self.threatens is not None


def is_threat(
    fleet: FleetPosture,
    house: str,
    *,
    status: Status,
    colonize_under_pact: ColonizeUnderPact = "threat",
) -> bool:
    """7.3 rule 3 and 7.3.2.1 (2): the fleet's order 05-08 or 12 is directed at ``house``'s
    colony. ``status`` is between the two houses; ``colonize_under_pact`` (ruling E11):
    ``"no_threat"`` exempts order 12 between pact partners (6.2.13 "Houses without
    Non-Aggression Pacts will engage colonization attempts")."""
    if fleet.order not in THREAT_ORDERS or fleet.threatens != house:
        return False
    exempt = fleet.order == COLONIZE and status == "non_aggression"
    return not (exempt and colonize_under_pact == "no_threat")


def _check_colony(fleets: Sequence[FleetPosture], controller: str | None) -> None:
    for fleet in fleets:
        if fleet.threatens is not None and fleet.threatens != controller:
            raise ValueError(
                f"a {fleet.house} fleet threatens {fleet.threatens}'s colony, but the system "
                f"is controlled by {controller} (one colony per system, 8.1.5)"
            )


def hostile(
    attacker: str,
    target: str,
    *,
    status: Status,
    target_fleets: Sequence[FleetPosture],
    controller: str | None,
    engaged_before: bool,
    threat_hostility: ThreatHostility = "threatened_only",
    attacker_fleets: Sequence[FleetPosture] | None = None,
    colonize_under_pact: ColonizeUnderPact = "threat",
) -> bool:
    """7.3.2.1 Hostile Force Identification: whether ``attacker``'s units may target
    ``target``'s Task Force (made of ``target_fleets``). ``status`` is between the two houses;
    ``controller`` controls the system (None: neutral space). Hostile if any of:

    1. the houses have Enemy status;
    2. the target has fleets with orders 05-08 or 12 directed at the attacker's colony here
       (``is_threat``);
    3. the target patrols (order 03) in the attacker's territory without a Non-Aggression Pact;
    4. the target engaged the attacker's forces in previous rounds (``engaged_before``; the
       facts' 8.1.4 "returns fire when attacked").

    ``threat_hostility`` (ruling E10): ``"threatened_only"`` reads (2) as written, one way;
    ``"both_ways"`` also lets a house whose fleets threaten the target's colony
    (``attacker_fleets``, required then) target it from the first round.
    """
    if attacker == target:
        raise ValueError("a house is never hostile to itself")
    if any(fleet.house != target for fleet in target_fleets):
        raise ValueError(f"target_fleets must all belong to {target}")
    _check_colony(target_fleets, controller)
    if status == "enemy" or engaged_before:
        return True
    if controller == attacker:
        if any(
            is_threat(fleet, attacker, status=status, colonize_under_pact=colonize_under_pact)
            for fleet in target_fleets
        ):
            return True
        if status != "non_aggression" and any(f.order == PATROL for f in target_fleets):
            return True
    if threat_hostility == "both_ways" and controller == target:
        if attacker_fleets is None:
            raise ValueError('threat_hostility="both_ways" needs attacker_fleets')
        if any(fleet.house != attacker for fleet in attacker_fleets):
            raise ValueError(f"attacker_fleets must all belong to {attacker}")
        _check_colony(attacker_fleets, controller)
        return any(
            is_threat(fleet, target, status=status, colonize_under_pact=colonize_under_pact)
            for fleet in attacker_fleets
        )
    return False


@dataclass(frozen=True, slots=True)
class Engagement:
    """Who takes part in a system's space combat: ``fleets[i]`` for the i-th fleet given to
    ``engagement``; ``starbase`` for the controller's starbase."""

    fleets: tuple[bool, ...]
    starbase: bool


@dataclass(frozen=True, slots=True)
class _Rules:
    guard_triggers: GuardTriggers
    guard_engages: GuardEngages
    starbase_guard: StarbaseGuard
    blockade_attacked: BlockadeAttacked
    engage_on: EngageOn
    colonize_under_pact: ColonizeUnderPact


def _status(statuses: Mapping[frozenset[str], Status], one: str, other: str) -> Status:
    try:
        return statuses[frozenset((one, other))]
    except KeyError:
        raise ValueError(f"no diplomatic status given between {one} and {other}") from None


def _provokes(
    fleet: FleetPosture,
    theirs: Sequence[FleetPosture],
    status: Status,
    *,
    controller: str | None,
    starbase: bool,
    rules: _Rules,
) -> bool:
    """Whether ``fleet`` engages the house whose fleets here are ``theirs``, on its own."""
    house = fleet.house
    threats = [
        other
        for other in theirs
        if is_threat(other, house, status=status, colonize_under_pact=rules.colonize_under_pact)
    ]
    if fleet.guard_starbase:
        # 6.2.5: "join in a combined Task Force, when confronting hostile ships with orders 05
        # to 08"; only with its own starbase (7.4).
        has_starbase = starbase and controller == house
        return has_starbase and any(
            other.order in ASSAULT_ORDERS and (status == "enemy" or other in threats)
            for other in theirs
        )
    if fleet.guards_planet:
        # 7.3 rule 2: "will engage only enemy fleets with orders ranging from 05 to 08 and 12";
        # 6.2.6: "do not join Space Combat unless confronted by hostile ships with orders 05
        # to 08"; 7.3 rule 3: colonies are defended "Regardless of diplomatic status".
        triggers = THREAT_ORDERS if rules.guard_triggers == "orders_05_08_12" else ASSAULT_ORDERS
        return any(
            other.order in triggers
            and (status == "enemy" or (rules.guard_engages == "hostile" and other in threats))
            for other in theirs
        )
    if fleet.blockades:
        # 7.3 rule 1: "will engage only with enemy fleets ordered to Guard that same planet";
        # 6.2.6: "unless confronted by enemy ships under order 05".
        return status == "enemy" and any(
            other.guards_planet and other.house == fleet.threatens for other in theirs
        )
    if status == "enemy":
        # 7.3: "All fleets within a solar system are mandated to engage forces from houses
        # with Enemy diplomatic status"; 6.2.4 patrol: "Encountering Enemy-status forces".
        return True
    if controller == house and threats:
        # 7.3 rule 3 Territorial Defense; 6.2.4 "unless they execute threatening fleet orders
        # (05-08, 12) in your controlled territory"; 6.2.13.
        return True
    # ruling E16: a foreign patrol in the controller's territory without a pact (7.3.2.1 (3)).
    return (
        rules.engage_on == "any_hostility"
        and controller == house
        and status == "neutral"
        and any(other.order == PATROL for other in theirs)
    )


def engagement(
    fleets: Sequence[FleetPosture],
    *,
    statuses: Mapping[frozenset[str], Status],
    controller: str | None,
    starbase: bool,
    guard_triggers: GuardTriggers = "orders_05_08_12",
    guard_engages: GuardEngages = "hostile",
    starbase_guard: StarbaseGuard = "when_threatened",
    blockade_attacked: BlockadeAttacked = "fights",
    engage_on: EngageOn = "mandate",
    colonize_under_pact: ColonizeUnderPact = "threat",
) -> Engagement:
    """Which of the system's ``fleets`` (every fleet of every house here) and whether the
    controller's starbase (``starbase``: it has one here) take part in the space combat.

    ``statuses`` maps each pair of houses present (``frozenset({a, b})``) to its status. A
    house *engages* another when one of its fleets provokes it, or its starbase does:

    - orders other than 04 and 05 engage every Enemy house (7.3: "mandated to engage forces
      from houses with Enemy diplomatic status, with the following exceptions: ... 04 ...
      05"), and, in the controller's system, every house with a fleet directed at its colony
      with orders 05-08 or 12 (7.3 rule 3; 6.2.4; 6.2.13); with
      ``engage_on="any_hostility"`` (E16) also a neutral house patrolling there (7.3.2.1 (3));
    - order 05 Guard engages a house with a fleet under orders 05-08 and 12 that is Enemy or
      threatens its colony (7.3 rule 2, 6.2.6; ``guard_triggers`` E12, ``guard_engages`` E13);
    - order 05 Blockade engages an Enemy house whose fleets guard that planet (7.3 rule 1);
    - order 04 engages, if its house's starbase is here, a house with a fleet under orders
      05-08 that is Enemy or threatens its colony (6.2.5);
    - the starbase engages a house threatening its colony (7.4: "primary defense if a hostile
      fleet aims to blockade, bombard, invade, or blitz a colony"; 7.3 rule 3).

    A house is present by its fleets here, and the controller also by its colony's defences
    (``starbase``): the Enemy mandate applies against a controller present only by them (7.3
    "engage forces from houses with Enemy diplomatic status"; 7.2 "All applicable fleets and
    Starbases"; ruling E54).

    Every house in an engaging pair, either side, is in the combat (facts 8.1.4: "returns fire
    when attacked"; E17). A fleet takes part if it provokes, or if its house is in the combat
    and it is not held back: Guard fleets always are ("held in rear guard ... do not join Space
    Combat unless confronted", 6.2.6); order 04 fleets are, unless
    ``starbase_guard="with_starbase"`` (E14: 7.4 "Fleets with orders to guard the Starbase
    ... also join the Task Force") and the starbase fights; Blockade fleets are only with
    ``blockade_attacked="held_back"`` (E15). The starbase takes part if its house is in the
    combat (7.2: "All applicable fleets and Starbases ... merge into a single Task Force").
    Taking part does not make a battle: the process fights only between hostile Task Forces.
    """
    if starbase and controller is None:
        raise ValueError("a starbase stands at a colony: give the controller")
    _check_colony(fleets, controller)
    rules = _Rules(
        guard_triggers,
        guard_engages,
        starbase_guard,
        blockade_attacked,
        engage_on,
        colonize_under_pact,
    )
    houses = {fleet.house for fleet in fleets} | ({controller} if controller else set())
    by_house = {house: [f for f in fleets if f.house == house] for house in houses}

    pairs: set[frozenset[str]] = set()
    provokes: list[bool] = []
    for fleet in fleets:
        engaged = [
            house
            for house in sorted(houses - {fleet.house})
            if (by_house[house] or (house == controller and starbase))
            and _provokes(
                fleet,
                by_house[house],
                _status(statuses, fleet.house, house),
                controller=controller,
                starbase=starbase,
                rules=rules,
            )
        ]
        provokes.append(bool(engaged))
        pairs.update(frozenset((fleet.house, house)) for house in engaged)
    if starbase and controller is not None:
        for house in sorted(houses - {controller}):
            status = _status(statuses, controller, house)
            if any(
                is_threat(f, controller, status=status, colonize_under_pact=colonize_under_pact)
                for f in by_house[house]
            ):
                pairs.add(frozenset((controller, house)))
    in_combat = {house for pair in pairs for house in pair}
    starbase_fights = starbase and controller in in_combat

    def held_back(fleet: FleetPosture) -> bool:
        if fleet.guards_planet:
            return True
        if fleet.guard_starbase:
            return not (
                starbase_guard == "with_starbase" and starbase_fights and fleet.house == controller
            )
        return fleet.blockades and blockade_attacked == "held_back"

    joins = tuple(
        provoked or (fleet.house in in_combat and not held_back(fleet))
        for fleet, provoked in zip(fleets, provokes, strict=True)
    )
    return Engagement(fleets=joins, starbase=starbase_fights)


def joins_combat(
    fleet: FleetPosture,
    *,
    fleets: Sequence[FleetPosture],
    statuses: Mapping[frozenset[str], Status],
    controller: str | None,
    starbase: bool,
    guard_triggers: GuardTriggers = "orders_05_08_12",
    guard_engages: GuardEngages = "hostile",
    starbase_guard: StarbaseGuard = "when_threatened",
    blockade_attacked: BlockadeAttacked = "fights",
    engage_on: EngageOn = "mandate",
    colonize_under_pact: ColonizeUnderPact = "threat",
) -> bool:
    """Whether ``fleet`` (one of ``fleets``, every fleet in the system) takes part in the
    space combat; see ``engagement`` for each case, the sentence it rests on, and the options.
    """
    if fleet not in fleets:
        raise ValueError("fleet must be one of fleets (every fleet in the system)")
    result = engagement(
        fleets,
        statuses=statuses,
        controller=controller,
        starbase=starbase,
        guard_triggers=guard_triggers,
        guard_engages=guard_engages,
        starbase_guard=starbase_guard,
        blockade_attacked=blockade_attacked,
        engage_on=engage_on,
        colonize_under_pact=colonize_under_pact,
    )
    return result.fleets[list(fleets).index(fleet)]


def task_force_roe(fleet_roes: Sequence[int], *, has_starbase: bool) -> int:
    """7.2: "Task Forces adopt the highest ROE of any joining fleet"; "Starbases do not
    retreat; the Task Force's ROE is set to 10"."""
    if any(not 0 <= roe <= MAX_ROE for roe in fleet_roes):
        raise ValueError(f"ROE is 0..10 (7.1.1), got {list(fleet_roes)}")
    if has_starbase:
        return MAX_ROE
    if not fleet_roes:
        raise ValueError("a Task Force without a starbase has at least one fleet")
    return max(fleet_roes)


def task_force_cloaked(fleets_hidden: Sequence[bool], *, has_starbase: bool) -> bool:
    """7.2: "Task Forces including Starbases cannot cloak"; "All joining fleets must remain
    undetected for Task Force cloaking". ``fleets_hidden[i]``: the i-th joining fleet is
    cloaked (it has a Raider, facts §4) and undetected."""
    return not has_starbase and bool(fleets_hidden) and all(fleets_hidden)
