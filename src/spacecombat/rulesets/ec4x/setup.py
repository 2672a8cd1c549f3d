"""Task Force Assignment (7.2): the scenario's fleets and colony turned into combat units.

Each house forms one Task Force of the fleets that join the combat (decided in the engagement
stage) and its colony's installations. Squadrons fight as one unit each (7.3.1.4, ruling E21);
fighter squadrons deploy as independent units (7.2); starbases are units of bucket 5 (7.4) and
set their Task Force's ROE to 10 and make it unable to cloak (7.2); spacelift ships and scouts
are screened and never targeted (7.2, ruling E47), unless option ``scout_targets`` makes
each fleet's scouts one targetable unit (ruling E58).

Units are numbered in this order (the documented draw order follows it): fleets in scenario
order, each squadron followed by the fighter squadrons its carriers carry, then (with
``scout_targets``) the fleet's scouts; then the colony's starbases and then its fighter
squadrons.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Literal

from spacecombat.rulesets.ec4x.options import Ec4xOptions, read_options, refuse_unimplemented
from spacecombat.rulesets.ec4x.tables import ShipClass, tables
from spacecombat.scenario.ec4x import Ec4xScenario, FleetSpec

if TYPE_CHECKING:
    from spacecombat.rulesets.ec4x.space_combat.rounds import Standing
    from spacecombat.rulesets.ec4x.space_combat.targeting import Candidates

UnitKind = Literal["squadron", "fighter", "starbase", "scouts"]

#: 6.2 orders that move a fleet on (a cloaked mover passing undetected continues, 7.2)
MOVEMENT_ORDERS = frozenset({1, 2, 13, 14})
#: 7.3.2.1 condition 2, 7.3 "Territorial Defense": orders that threaten a colony
THREAT_ORDERS = frozenset({5, 6, 7, 8, 12})
#: 7.3 "Guard Engagement", 6.2.5: the orders that bring a starbase guard (04) into combat
GUARD_TRIGGER_ORDERS = frozenset({5, 6, 7, 8})
PATROL = 3
GUARD_STARBASE = 4
GUARD_OR_BLOCKADE = 5
HOLD = 0


@dataclass(frozen=True, slots=True)
class Unit:
    """A combat unit: a squadron, a fighter squadron or a starbase."""

    index: int
    uid: str
    house: int
    #: its fleet's index; -1 for the colony's units
    fleet: int
    kind: UnitKind
    ships: tuple[str, ...]
    bucket: int
    size: int
    attack: int
    attack_crippled: int
    defense: int
    #: the flagship's CR (0: none)
    cr: int
    #: a squadron with a Raider flagship (7.3.2.2 bucket 1; phases 1 and 3)
    raider: bool
    #: a fighter squadron's carrier (a unit index), -1: colony-owned or not a fighter
    carrier: int
    start: int  # 0 undamaged, 1 crippled
    pc: int

    @property
    def uses_cer(self) -> bool:
        """7.3.3: "Fighters do NOT use CER"; scouts do not attack (ruling E58)."""
        return self.kind in ("squadron", "starbase")

    @property
    def fires(self) -> bool:
        """Whether the unit attacks at all: a fleet's scouts, when targetable, do not (E58)."""
        return self.kind != "scouts"

    @property
    def squadron_like(self) -> bool:
        """A squadron for the damage rules (7.3.3 restriction 2, force reduction): squadrons,
        and a fleet's scouts when they are targetable (7.3.3 "Destroyed squadrons ... (e.g.
        Scouts)"; ruling E58)."""
        return self.kind in ("squadron", "scouts")

    @property
    def label(self) -> str:
        return f"{self.uid} {'+'.join(_shorten(self.ships))}"


def _shorten(ships: tuple[str, ...]) -> list[str]:
    counts: dict[str, int] = {}
    for code in ships:
        counts[code] = counts.get(code, 0) + 1
    return [code if n == 1 else f"{n}{code}" for code, n in counts.items()]


@dataclass(frozen=True, slots=True)
class Fleet:
    """A fleet present in the system (6.2), as combat sees it."""

    index: int
    fid: str
    house: int
    order: int
    roe: int
    units: tuple[int, ...]
    #: the fleet's scout ELI levels, one per scout
    scouts: tuple[int, ...]
    spacelift: tuple[tuple[str, int], ...]
    #: contains an undamaged Raider (2.4.3 "Any fleet that includes a Raider is fully cloaked")
    has_cloak: bool
    #: the highest CLK of its undamaged raiders
    clk: int
    #: the unit of its scouts when they are targetable (option scout_targets), else -1
    scout_unit: int = -1


@dataclass(frozen=True)
class Setup:
    """Everything about a battle that does not change while it is fought."""

    scenario: Ec4xScenario
    options: Ec4xOptions
    houses: tuple[str, ...]
    #: statuses[a][b]: "enemy", "neutral" or "non_aggression"
    statuses: tuple[tuple[str, ...], ...]
    #: the house whose colony is here (8.1.5), -1: neutral space
    controller: int
    units: tuple[Unit, ...]
    fleets: tuple[Fleet, ...]
    #: the colony's units (starbases, then fighters)
    colony_units: tuple[int, ...]
    #: the colony's starbases' ELI levels
    starbase_eli: tuple[int, ...]
    #: build no events (Monte Carlo's quiet sampler, ``Ec4xBattle.quiet``): the procedures take
    #: the same steps and draws and skip only what the log alone reads
    quiet: bool = field(default=False, compare=False)
    # Memos of what depends only on the setup and a few parts of the state (never part of a
    # state; each emptied when it reaches MEMO_LIMIT entries):
    #: targeting.regards_hostile by (attacker, target, task_force_only, joined, refused, engaged)
    hostility: dict[tuple[int, ...], bool] = field(default_factory=dict, compare=False)
    #: space_combat.phases: each unit's attack step by (detected, refused, initiative, later)
    phase_memo: dict[tuple[int, ...], tuple[tuple[int, int], ...]] = field(
        default_factory=dict, compare=False
    )
    #: space_combat.attackers by (step, conditions, the phases' key)
    attacker_memo: dict[tuple[object, ...], tuple[int, ...]] = field(
        default_factory=dict, compare=False
    )
    #: targeting.candidates by (house, fighter, conditions, joined, refused, engaged)
    candidate_memo: dict[tuple[object, ...], Candidates | None] = field(
        default_factory=dict, compare=False
    )
    #: pre_combat.provisional by the refused orders
    provisional_memo: dict[int, int] = field(default_factory=dict, compare=False)
    #: space_combat.standing by the units' conditions
    standing_memo: dict[tuple[int, ...], Standing] = field(default_factory=dict, compare=False)

    @property
    def colony_group(self) -> int:
        """The colony's group number (after the fleets) in ``State.joined``."""
        return len(self.fleets)

    def house_index(self, name: str) -> int:
        return self.houses.index(name)

    def status(self, a: int, b: int) -> str:
        return self.statuses[a][b]

    def group_of(self, unit: Unit) -> int:
        return unit.fleet if unit.fleet >= 0 else self.colony_group

    def has_starbase(self, house: int) -> bool:
        return self.starbase_houses[house]

    @cached_property
    def starbase_houses(self) -> tuple[bool, ...]:
        """Per house: whether its colony here has a starbase."""
        based = any(self.units[u].kind == "starbase" for u in self.colony_units)
        return tuple(based and h == self.controller for h in range(len(self.houses)))

    @cached_property
    def present_houses(self) -> tuple[bool, ...]:
        """Per house: whether it has a fleet or colony units in the system."""
        return tuple(
            any(f.house == h for f in self.fleets)
            or (h == self.controller and bool(self.colony_units))
            for h in range(len(self.houses))
        )

    @cached_property
    def morale_slots(self) -> tuple[int, ...]:
        """Per house: the index of its record in ``State.morale`` (houses present, in order)."""
        slots, found = [], 0
        for here in self.present_houses:
            slots.append(found if here else -1)
            found += here
        return tuple(slots)

    @cached_property
    def house_units(self) -> tuple[tuple[Unit, ...], ...]:
        """Per house: its units, in unit order."""
        return tuple(tuple(u for u in self.units if u.house == h) for h in range(len(self.houses)))

    @cached_property
    def scout_fleets(self) -> tuple[tuple[Fleet, ...], ...]:
        """Per house: its fleets with scouts."""
        return tuple(
            tuple(f for f in self.fleets if f.house == h and f.scouts)
            for h in range(len(self.houses))
        )


#: the most entries a memo of ``Setup`` keeps before it is emptied
MEMO_LIMIT = 1 << 16


def build(scenario: Ec4xScenario, options: Ec4xOptions | None = None) -> Setup:
    """The setup of a checked scenario."""
    options = options or read_options(scenario.options)
    refuse_unimplemented(options)
    classes = tables().classes
    houses = tuple(scenario.houses)
    statuses = tuple(tuple(scenario.status(a, b) for b in houses) for a in houses)
    controller = houses.index(scenario.system.controller) if scenario.system.controller else -1
    units: list[Unit] = []
    fleets: list[Fleet] = []

    def add(**fields: object) -> int:
        index = len(units)
        units.append(Unit(index=index, **fields))  # type: ignore[arg-type]
        return index

    def add_fighter(uid: str, house: int, fleet: int, *, carrier: int) -> int:
        """A fighter squadron, carrier-owned (``carrier``: its carrier squadron's index) or
        colony-owned (``carrier`` -1): full AS until destroyed, no crippled state (7.1.2)."""
        fighter = classes["FS"]
        return add(
            uid=uid,
            house=house,
            fleet=fleet,
            kind="fighter",
            ships=("FS",),
            bucket=fighter.bucket or 4,
            size=1,
            attack=fighter.attack,
            attack_crippled=fighter.attack,
            defense=fighter.defense,
            cr=0,
            raider=False,
            carrier=carrier,
            start=0,
            pc=fighter.pc,
        )

    for f, spec in enumerate(scenario.fleets):
        house = houses.index(spec.owner)
        members: list[int] = []
        for q, squadron in enumerate(spec.squadrons, start=1):
            ships = squadron.ships()
            flagship = classes[squadron.flagship]
            attack = sum(classes[c].attack for c in ships)
            index = add(
                uid=f"{spec.id}-{q}",
                house=house,
                fleet=f,
                kind="squadron",
                ships=ships,
                bucket=_bucket(flagship, options),
                size=len(ships),
                attack=attack,
                attack_crippled=_crippled_attack(ships, classes, options),
                defense=sum(classes[c].defense for c in ships),
                cr=flagship.cr or 0,
                raider=squadron.flagship == "RR",
                carrier=-1,
                start=int(squadron.state == "crippled"),
                pc=sum(classes[c].pc for c in ships),
            )
            members.append(index)
            for n in range(1, squadron.fighters + 1):
                members.append(add_fighter(f"{spec.id}-{q}F{n}", house, f, carrier=index))
        scout_unit = -1
        count = spec.scout_count()
        if count and options.scout_targets != "screened":
            # ruling E58: the fleet's scouts as one targetable unit, after its squadrons
            scout = classes["SC"]
            scout_unit = add(
                uid=f"{spec.id}-SC",
                house=house,
                fleet=f,
                kind="scouts",
                ships=("SC",) * count,
                bucket=int(options.scout_targets[-1]),
                size=count,
                attack=scout.attack * count,
                attack_crippled=math.ceil(scout.attack * count / 2),
                defense=scout.defense * count,
                cr=0,
                raider=False,
                carrier=-1,
                start=0,
                pc=scout.pc * count,
            )
            members.append(scout_unit)
        fleets.append(_fleet(f, spec, house, tuple(members), scenario, scout_unit))
    colony_units: list[int] = []
    starbase_eli: list[int] = []
    colony = scenario.colony
    if colony is not None:
        owner = houses.index(colony.owner)
        base = classes["SB"]
        for n, starbase in enumerate(colony.starbases, start=1):
            colony_units.append(
                add(
                    uid=f"{scenario.system.name}-SB{n}",
                    house=owner,
                    fleet=-1,
                    kind="starbase",
                    ships=("SB",),
                    bucket=base.bucket or 5,
                    size=1,  # 7.3.2.5 "or 1 for Starbases"
                    attack=base.attack,
                    attack_crippled=math.ceil(base.attack / 2),
                    defense=base.defense,
                    cr=0,
                    raider=False,
                    carrier=-1,
                    start=int(starbase.state == "crippled"),
                    pc=base.pc,
                )
            )
            starbase_eli.append(starbase.eli)
        for n in range(1, colony.fighters + 1):
            colony_units.append(add_fighter(f"{scenario.system.name}-F{n}", owner, -1, carrier=-1))
    return Setup(
        scenario=scenario,
        options=options,
        houses=houses,
        statuses=statuses,
        controller=controller,
        units=tuple(units),
        fleets=tuple(fleets),
        colony_units=tuple(colony_units),
        starbase_eli=tuple(starbase_eli),
    )


def _bucket(flagship: ShipClass, options: Ec4xOptions) -> int:
    """7.3.2.2 by flagship; classes it does not name by option (ruling E33)."""
    return flagship.bucket if flagship.bucket is not None else options.unnamed_flagship_bucket


def _crippled_attack(
    ships: tuple[str, ...], classes: Mapping[str, ShipClass], options: Ec4xOptions
) -> int:
    """7.3.3 "Crippled squadrons … multiply their AS by 0.5, rounded up" (ruling E31)."""
    if options.crippled_as_rounding == "per_ship":
        return sum(math.ceil(classes[c].attack / 2) for c in ships)
    return math.ceil(sum(classes[c].attack for c in ships) / 2)


def _fleet(
    f: int,
    spec: FleetSpec,
    house: int,
    members: tuple[int, ...],
    scenario: Ec4xScenario,
    scout_unit: int,
) -> Fleet:
    raiders = [s.clk or 1 for s in spec.squadrons if "RR" in s.ships() and s.state == "undamaged"]
    return Fleet(
        index=f,
        fid=spec.id,
        house=house,
        order=spec.order_code,
        roe=spec.roe,
        units=members,
        scouts=tuple(s.eli for s in spec.scouts for _ in range(s.count)),
        spacelift=tuple(sorted(spec.spacelift.items())),
        has_cloak=bool(raiders),
        clk=max(raiders, default=0),
        scout_unit=scout_unit,
    )
