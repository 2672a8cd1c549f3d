"""Planetary combat chained after space combat (7.5, 7.6; ruling E62).

A scenario with a ``colony`` and fleets of another house under orders 06 (bombard), 07 (invade)
or 08 (blitz) plays space combat first (7.3); then, if that house holds orbit (it did not
retreat, a unit of its planetary fleets still stands, and no unit of the colony's owner is
still fighting), the planetary steps (``process.py``): a bombardment, an invasion or a blitz.
The house's mission: invasion if one of its fleets is under 07, else blitz under 08, else
bombardment; its squadrons in all these fleets bombard together (fighters do not), and its
loaded troop transports carry one Marine Division each (facts §6, E63).

Several houses under planetary orders against one colony, or orders 07 and 08 in one house,
are refused (``RuleNotImplemented``). A fleet that refuses orders (7.1.4) holds and takes no
part; troop transports lost in space combat (7.2) carry no marines down.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

from spacecombat.core.engine import Decision, Draw, End, Node, Step
from spacecombat.core.errors import RuleNotImplemented
from spacecombat.rulesets.ec4x.planetary.colony import Colony
from spacecombat.rulesets.ec4x.planetary.process import advance as siege_advance
from spacecombat.rulesets.ec4x.planetary.siege import (
    MISSIONS,
    OUT,
    STANDING,
    Assault,
    Siege,
    Striker,
)
from spacecombat.rulesets.ec4x.planetary.siege import (
    Stage as SiegeStage,
)
from spacecombat.rulesets.ec4x.planetary.siege import report as siege_report
from spacecombat.rulesets.ec4x.planetary.siege import (
    start as siege_start,
)
from spacecombat.rulesets.ec4x.setup import Setup
from spacecombat.rulesets.ec4x.state import (
    ABSENT,
    CRIPPLED,
    DESTROYED,
    IN_BATTLE,
    UNDAMAGED,
    Stage,
    State,
)
from spacecombat.rulesets.ec4x.tables import tables
from spacecombat.scenario.ec4x import GroundSpec


@dataclass(frozen=True)
class Plan:
    """The house that attacks the colony and its fleets under orders 06–08."""

    attacker: int
    fleets: tuple[int, ...]
    start: Colony


def colony_start(setup: Setup) -> Colony | None:
    spec = setup.scenario.colony
    if spec is None:
        return None
    none = GroundSpec()
    batteries, armies, marines = (spec.batteries or none, spec.armies or none, spec.marines or none)
    return Colony(
        owner=spec.owner,
        shield=spec.shield or 0,
        batteries=batteries.undamaged,
        batteries_crippled=batteries.crippled,
        armies=armies.undamaged,
        armies_crippled=armies.crippled,
        marines=marines.undamaged,
        marines_crippled=marines.crippled,
        spaceports=spec.spaceports or 0,
        iu=spec.iu or 0,
        pu=spec.pu or 0,
    )


def plan(setup: Setup) -> Plan | None:
    """The planetary attack the scenario orders, or None (no colony, or no house other than its
    owner under orders 06–08)."""
    start = colony_start(setup)
    if start is None:
        return None
    owner = setup.house_index(start.owner)
    by_house: dict[int, list[int]] = {}
    for f in setup.fleets:
        if f.order in MISSIONS and f.house != owner:
            by_house.setdefault(f.house, []).append(f.index)
    if not by_house:
        return None
    if len(by_house) > 1:
        names = ", ".join(setup.houses[h] for h in by_house)
        raise RuleNotImplemented(
            f"planetary combat by several houses ({names}) against one colony (7.5, 7.6, "
            "ruling E62)",
            "fleets",
        )
    (house, fleets), *_ = by_house.items()
    orders = {setup.fleets[f].order for f in fleets}
    if {7, 8} <= orders:
        raise RuleNotImplemented(
            f"an invasion (07) and a blitz (08) by one house ({setup.houses[house]}) in one "
            "turn (ruling E62)",
            "fleets",
        )
    return Plan(house, tuple(fleets), start)


class Planetary:
    """The planetary part of one battle: its plan, the assault (by the fleets that refused
    orders) and the nodes of the planetary stage, lifted into the battle's states."""

    def __init__(self, setup: Setup, found: Plan) -> None:
        self.setup = setup
        self.plan = found
        self._assaults: dict[int, Assault | None] = {}

    @cached_property
    def refusals_mask(self) -> int:
        return sum(1 << f for f in self.plan.fleets)

    def assault(self, refused: int) -> Assault | None:
        """The assault when the fleets in ``refused`` hold (7.1.4), or None: none takes part."""
        key = refused & self.refusals_mask
        if key not in self._assaults:
            self._assaults[key] = self._build(key)
        return self._assaults[key]

    def _build(self, refused: int) -> Assault | None:
        setup, found = self.setup, self.plan
        fleets = [f for f in found.fleets if not refused >> f & 1]
        if not fleets:
            return None
        orders = {setup.fleets[f].order for f in fleets}
        mission = MISSIONS[7] if 7 in orders else MISSIONS[8] if 8 in orders else MISSIONS[6]
        classes = tables().classes
        strikers: list[Striker] = []
        for f in found.fleets:  # every planetary fleet, so a striker's index never changes
            fleet = setup.fleets[f]
            spec = setup.scenario.fleets[f]
            for u in fleet.units:
                unit = setup.units[u]
                if unit.kind != "squadron":
                    continue
                breaker = sum(classes[c].attack for c in unit.ships if c == "PB")
                conventional = unit.attack - breaker
                crippled = unit.attack_crippled
                if breaker:
                    crippled = math.ceil(conventional / 2)
                strikers.append(
                    Striker(
                        uid=unit.uid,
                        kind="squadron",
                        attack=conventional,
                        attack_crippled=crippled,
                        breaker=breaker,
                        breaker_crippled=math.ceil(breaker / 2),
                        defense=unit.defense,
                        unit=u,
                        ships=unit.ships,
                    )
                )
            loaded = spec.loaded_tts()
            for n in range(1, spec.spacelift.get("TT", 0) + 1):
                strikers.append(
                    Striker(
                        uid=f"{fleet.fid}-TT{n}",
                        kind="transport",
                        attack=0,
                        attack_crippled=0,
                        breaker=0,
                        breaker_crippled=0,
                        defense=classes["TT"].defense,
                        marines=int(n <= loaded),
                        ships=("TT",),
                    )
                )
        return Assault(
            mission=mission,
            attacker=setup.houses[found.attacker],
            defender=found.start.owner,
            colony_name=setup.scenario.system.name,
            strikers=tuple(strikers),
            start=found.start,
            readings=setup.options,
        )

    def entry(self, state: State, assault: Assault) -> tuple[int, ...]:
        """Each striker's condition when the planetary steps begin."""
        setup, house = self.setup, self.plan.attacker
        fleet_of: dict[str, int] = {}
        for f in self.plan.fleets:
            fleet_of[setup.fleets[f].fid] = f
        lost = bool(state.screened_lost >> house & 1)
        left = bool(state.spacelift_left >> house & 1)
        cond: list[int] = []
        for s in assault.strikers:
            if s.kind == "squadron":
                unit = setup.units[s.unit]
                out = state.refused >> unit.fleet & 1
                c = state.cond[s.unit]
                if out:
                    cond.append(OUT)
                elif c in IN_BATTLE:
                    cond.append(c)
                elif c == ABSENT:
                    cond.append(CRIPPLED if unit.start else UNDAMAGED)
                elif c == DESTROYED:
                    cond.append(DESTROYED)
                else:
                    cond.append(OUT)
                continue
            f = fleet_of[s.uid.rsplit("-TT", 1)[0]]
            joined = bool(state.joined >> f & 1)
            if state.refused >> f & 1 or (left and joined):
                cond.append(OUT)
            elif lost and joined:
                cond.append(DESTROYED)
            else:
                cond.append(UNDAMAGED)
        return tuple(cond)

    def holds_orbit(self, state: State, cond: tuple[int, ...]) -> bool:
        """The attacker did not retreat, one of its planetary units stands, and no unit of the
        colony's owner is still fighting (7.5 "After orbital supremacy is achieved")."""
        setup, house = self.setup, self.plan.attacker
        if state.retreated >> house & 1 or state.result == "cancelled":
            return False
        if not any(c in STANDING for c in cond):
            return False
        owner = setup.house_index(self.plan.start.owner)
        return not any(state.cond[u.index] in IN_BATTLE for u in setup.house_units[owner])

    def enter(self, state: State) -> Step[State]:
        """At the end of space combat: the planetary steps begin, or the attacker does not hold
        orbit (a siege ``DONE`` at once with result ``orbit_not_held``)."""
        assault = self.assault(state.refused)
        cond = () if assault is None else self.entry(state, assault)
        if assault is None or not self.holds_orbit(state, cond):
            idle = Siege(SiegeStage.DONE, self.plan.start, cond, result="orbit_not_held")
            return Step(state.at(Stage.OVER, siege=idle))
        step = siege_start(assault, cond)
        return Step(state.at(Stage.PLANETARY, siege=step.state), step.events)

    def node(self, state: State) -> Node[State]:
        """The planetary stage: the siege's next node, lifted; at its end, the squadrons'
        conditions go back to the battle's units and space combat's end follows."""
        siege = state.siege
        assert siege is not None
        assault = self.assault(state.refused)
        assert assault is not None
        if siege.stage is SiegeStage.DONE:
            cond = list(state.cond)
            for s, c in zip(assault.strikers, siege.cond, strict=True):
                if s.unit >= 0 and c in (CRIPPLED, DESTROYED) and cond[s.unit] != c:
                    cond[s.unit] = c
            return Step(state.at(Stage.OVER, cond=tuple(cond)))
        return _lift(siege_advance(assault, siege), state)

    def report(self, state: State) -> dict[str, object]:
        assault = self.assault(state.refused) or self._fallback()
        siege = state.siege
        if siege is not None and siege.result == "orbit_not_held":
            siege = None
        return siege_report(assault, siege)

    def _fallback(self) -> Assault:
        built = self._build(0)
        assert built is not None
        return built


def _lift(node: Node[Siege], state: State) -> Node[State]:
    """A siege's node as a node of the battle (its state the battle's, with the siege in it)."""
    if isinstance(node, Step):
        return Step(state.at(Stage.PLANETARY, siege=node.state), node.events)
    if isinstance(node, Draw):
        then = node.then
        return Draw(
            node.player,
            node.purpose,
            node.kind,
            node.labels,
            node.weights,
            node.values,
            lambda value: _step(then(value), state),
        )
    if isinstance(node, Decision):
        decided = node.then
        return Decision(node.request, lambda option: _step(decided(option), state))
    assert not isinstance(node, End), "a siege ends by reaching DONE"
    raise AssertionError("a siege rolls no dice pools")


def _step(step: Step[Siege], state: State) -> Step[State]:
    return Step(state.at(Stage.PLANETARY, siege=step.state), step.events)
