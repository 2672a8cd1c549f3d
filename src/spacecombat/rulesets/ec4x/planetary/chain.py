"""Planetary combat chained after space combat (7.5, 7.6; rulings E62, G24, G25).

A scenario with a ``colony`` and fleets of other houses under orders 06 (bombard), 07 (invade)
or 08 (blitz) plays space combat first (7.3); then the planetary steps (``process.py``), one
siege at a time. A siege is one house's bombardment, invasion or blitz; it takes place if
that house holds orbit (it did not retreat, a unit of the siege's fleets still stands, and no
unit of the colony's owner is still fighting). Its mission: invasion if one of its fleets is
under 07, else blitz under 08, else bombardment; its squadrons in all these fleets bombard
together (fighters do not), and its loaded troop transports carry one Marine Division each
(facts §6, E63).

Several houses (ruling G24, option ``siege_order``): their sieges are played one after
another, each against the colony as the one before left it; once the colony has fallen the
sieges left are abandoned (``already_fallen``). The house that goes next is drawn among those
waiting (``drawn``, the draw ``siege_order``), or taken in the scenario's house order or fleet
order. One house under both 07 and 08 (ruling G25, option ``invade_and_blitz``): an invasion
(its fleets under 06 and 07) and then a blitz (its fleets under 08), or one blitz, or one
invasion, by all of them. A fleet that refuses orders (7.1.4) holds and takes no part; troop
transports lost in space combat (7.2) carry no marines down.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, replace

from spacecombat.core.engine import Decision, Draw, End, Node, Step
from spacecombat.core.events import Event, event
from spacecombat.rulesets.ec4x.planetary.colony import Colony
from spacecombat.rulesets.ec4x.planetary.process import advance as siege_advance
from spacecombat.rulesets.ec4x.planetary.siege import (
    MISSIONS,
    OUT,
    STANDING,
    Assault,
    Mission,
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

#: a siege's results when it did not take place
NOT_PLAYED = ("orbit_not_held", "already_fallen")
#: the order each mission's fleets give (6.2)
INVADE, BLITZ = 7, 8


@dataclass(frozen=True)
class Plan:
    """One siege: the house that attacks the colony and its fleets (under orders 06–08) that
    take part."""

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


def plans(setup: Setup) -> tuple[Plan, ...]:
    """The sieges the scenario orders (none: no colony, or no house other than its owner under
    orders 06–08), each house's in the order they are played, houses in scenario order. One
    house under 07 and 08 has two sieges with option ``invade_and_blitz:
    invasion_then_blitz`` (ruling G25): its fleets under 06 and 07, then those under 08."""
    start = colony_start(setup)
    if start is None:
        return ()
    owner = setup.house_index(start.owner)
    by_house: dict[int, list[int]] = {}
    for f in setup.fleets:
        if f.order in MISSIONS and f.house != owner:
            by_house.setdefault(f.house, []).append(f.index)
    found: list[Plan] = []
    split = setup.options.invade_and_blitz == "invasion_then_blitz"
    for house in sorted(by_house):
        fleets = by_house[house]
        orders = {setup.fleets[f].order for f in fleets}
        if split and {INVADE, BLITZ} <= orders:
            first = tuple(f for f in fleets if setup.fleets[f].order != BLITZ)
            then = tuple(f for f in fleets if setup.fleets[f].order == BLITZ)
            found += [Plan(house, first, start), Plan(house, then, start)]
        else:
            found.append(Plan(house, tuple(fleets), start))
    return tuple(found)


def mission_of(orders: set[int], invade_and_blitz: str) -> Mission:
    """A siege's mission from the orders of its fleets that take part (E62): invasion if one is
    under 07, else blitz under 08, else bombardment; with option ``invade_and_blitz:
    blitz_only`` (G25) a blitz whenever one is under 08."""
    if BLITZ in orders and (INVADE not in orders or invade_and_blitz == "blitz_only"):
        return MISSIONS[BLITZ]
    return MISSIONS[INVADE] if INVADE in orders else MISSIONS[6]


class Planetary:
    """The planetary part of one battle: its sieges' plans, their assaults (by the fleets that
    refused orders and the colony they find) and the nodes of the planetary stage, lifted into
    the battle's states."""

    def __init__(self, setup: Setup, found: tuple[Plan, ...]) -> None:
        self.setup = setup
        self.plans = found
        #: the colony at the battle's start
        self.start = found[0].start
        self._assaults: dict[tuple[int, int, Colony], Assault | None] = {}

    def assault(self, index: int, refused: int, colony: Colony | None = None) -> Assault | None:
        """Siege ``index``'s assault when the fleets in ``refused`` hold (7.1.4) and the colony
        is ``colony`` (default: as the battle began), or None: none of its fleets takes part."""
        plan = self.plans[index]
        mask = sum(1 << f for f in plan.fleets)
        key = (index, refused & mask, colony or plan.start)
        if key not in self._assaults:
            self._assaults[key] = self._build(plan, key[1], key[2])
        return self._assaults[key]

    def _build(self, plan: Plan, refused: int, colony: Colony) -> Assault | None:
        setup = self.setup
        fleets = [f for f in plan.fleets if not refused >> f & 1]
        if not fleets:
            return None
        orders = {setup.fleets[f].order for f in fleets}
        mission = mission_of(orders, setup.options.invade_and_blitz)
        classes = tables().classes
        strikers: list[Striker] = []
        for f in plan.fleets:  # every fleet of the siege, so a striker's index never changes
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
            attacker=setup.houses[plan.attacker],
            defender=colony.owner,
            colony_name=setup.scenario.system.name,
            strikers=tuple(strikers),
            start=colony,
            readings=setup.options,
        )

    def entry(self, state: State, plan: Plan, assault: Assault) -> tuple[int, ...]:
        """Each striker's condition when the siege begins."""
        setup, house = self.setup, plan.attacker
        fleet_of: dict[str, int] = {}
        for f in plan.fleets:
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

    def holds_orbit(self, state: State, plan: Plan, cond: tuple[int, ...]) -> bool:
        """The attacker did not retreat, one of the siege's units stands, and no unit of the
        colony's owner is still fighting (7.5 "After orbital supremacy is achieved")."""
        setup, house = self.setup, plan.attacker
        if state.retreated >> house & 1 or state.result == "cancelled":
            return False
        if not any(c in STANDING for c in cond):
            return False
        owner = setup.house_index(self.start.owner)
        return not any(state.cond[u.index] in IN_BATTLE for u in setup.house_units[owner])

    def enter(self, state: State) -> Node[State]:
        """At the end of space combat: the sieges whose attacker does not hold orbit are over
        at once (``orbit_not_held``); the first of the others begins."""
        idle: list[tuple[int, Siege]] = []
        for i, plan in enumerate(self.plans):
            assault = self.assault(i, state.refused)
            cond = () if assault is None else self.entry(state, plan, assault)
            if assault is None or not self.holds_orbit(state, plan, cond):
                idle.append((i, Siege(SiegeStage.DONE, self.start, cond, result="orbit_not_held")))
        return self._next(state.at(Stage.PLANETARY, siege=None, sieges=tuple(idle)))

    def colony_now(self, state: State) -> Colony:
        """The colony as the last siege over left it (as the battle began: none)."""
        return state.sieges[-1][1].colony if state.sieges else self.start

    def _next(self, state: State) -> Node[State]:
        """Between sieges: the next one begins, or planetary combat is over. The house of the
        siege just played goes on with its next siege (G25); otherwise the next house is taken
        by option ``siege_order`` (G24), drawn when several wait."""
        over = {i for i, _ in state.sieges}
        waiting = [i for i in range(len(self.plans)) if i not in over]
        colony = self.colony_now(state)
        if waiting and colony.owner != self.start.owner:
            return self._abandon(state, waiting, colony)
        if not waiting:
            return Step(state.at(Stage.OVER, siege=state.sieges[-1][1], siege_plan=-1))
        houses = list(dict.fromkeys(self.plans[i].attacker for i in waiting))
        played = [i for i, s in state.sieges if s.result not in NOT_PLAYED]
        last = self.plans[played[-1]].attacker if played else -1
        order = self.setup.options.siege_order

        def first_of(house: int) -> int:
            return next(i for i in waiting if self.plans[i].attacker == house)

        if last in houses or len(houses) == 1:
            return self._begin(state, first_of(last if last in houses else houses[0]))
        if order == "house_order":
            return self._begin(state, first_of(houses[0]))
        if order == "fleet_order":
            first = min(
                houses,
                key=lambda h: min(f for p in self.plans if p.attacker == h for f in p.fleets),
            )
            return self._begin(state, first_of(first))
        names = [self.setup.houses[h] for h in houses]
        return Draw.choice(
            self.start.owner,
            "siege_order",
            names,
            [1] * len(names),
            lambda k: self._begin(state, first_of(houses[k])),
        )

    def _begin(self, state: State, index: int) -> Step[State]:
        colony = self.colony_now(state)
        assault = self.assault(index, state.refused, colony)
        assert assault is not None, "a siege without fleets is over at the start"
        step = siege_start(assault, self.entry(state, self.plans[index], assault))
        return Step(state.at(Stage.PLANETARY, siege=step.state, siege_plan=index), step.events)

    def _abandon(self, state: State, waiting: list[int], colony: Colony) -> Step[State]:
        """The colony fell to an earlier siege this turn: the sieges left do not take place."""
        events: list[Event] = []
        done = list(state.sieges)
        for i in waiting:
            assault = self.assault(i, state.refused, colony)
            if assault is not None:
                events.append(
                    event(
                        "siege_abandoned",
                        attacker=assault.attacker,
                        mission=assault.mission,
                        owner=colony.owner,
                        reason="the colony fell to an earlier siege",
                    )
                )
            done.append((i, Siege(SiegeStage.DONE, colony, (), result="already_fallen")))
        last = done[-1][1]
        return Step(
            state.at(Stage.OVER, siege=last, siege_plan=-1, sieges=tuple(done)), tuple(events)
        )

    def node(self, state: State) -> Node[State]:
        """The planetary stage: the siege's next node, lifted; at its end, the squadrons'
        conditions go back to the battle's units and the next siege follows (or space
        combat's end)."""
        siege, index = state.siege, state.siege_plan
        if siege is None or index < 0:
            return self._next(state)
        assault = self.assault(index, state.refused, self.colony_now(state))
        assert assault is not None
        if siege.stage is SiegeStage.DONE:
            cond = list(state.cond)
            for s, c in zip(assault.strikers, siege.cond, strict=True):
                if s.unit >= 0 and c in (CRIPPLED, DESTROYED) and cond[s.unit] != c:
                    cond[s.unit] = c
            return Step(
                state.at(
                    Stage.PLANETARY,
                    cond=tuple(cond),
                    siege=None,
                    siege_plan=-1,
                    sieges=(*state.sieges, (index, siege)),
                )
            )
        return _lift(siege_advance(assault, siege), state)

    def played(self, state: State) -> Iterator[tuple[Plan, Assault, Siege | None, str]]:
        """Each siege over, in the order they ended: its plan, its assault (as it began), its
        last state (None: it did not take place) and its result."""
        colony = self.start
        for i, siege in state.sieges:
            assault = self.assault(i, state.refused, colony) or self._fallback(i, colony)
            took_place = siege.result not in NOT_PLAYED
            yield self.plans[i], assault, (siege if took_place else None), siege.result
            if took_place:
                colony = siege.colony

    def report(self, state: State) -> dict[str, object]:
        """The outcome's planetary part. One siege: its report (``siege.report``). Several:
        ``sieges``, each one's report in the order they ended, and, besides, the colony from
        the battle's start to its end with the mission, attacker, result and invaders of the
        last siege that took place (or of the first, if none did)."""
        sieges = list(self.played(state))
        reports = []
        for _, assault, siege, result in sieges:
            found = siege_report(assault, siege)
            found["result"] = result
            reports.append(found)
        if len(self.plans) == 1:
            return reports[0]
        took_place = [(a, s) for _, a, s, _ in sieges if s is not None]
        assault, last = took_place[-1] if took_place else (sieges[0][1], None)
        whole = siege_report(replace(assault, start=self.start), last)
        whole["sieges"] = reports
        return whole

    def _fallback(self, index: int, colony: Colony) -> Assault:
        built = self._build(self.plans[index], 0, colony)
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
