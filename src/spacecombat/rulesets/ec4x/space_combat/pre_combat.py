"""Before the first round: morale (7.1.4), pre-combat detection (7.1.3, 7.3.1.1) and who joins
the combat (7.3 engagement rules, 7.2 Task Force Assignment).

Draws, in this order:

1. Morale, house by house in the scenario's order (houses with no fleet or colony here are
   skipped). A house in crisis (prestige <= 0) rolls nothing; with option ``crisis_refusal:
   hold_position`` it draws ``refuses_orders`` (a choice among its fleets here, equal weights)
   and that fleet holds (order 00) this turn. Any other house draws ``morale`` (d20) unless the
   scenario gives its ``morale_roll``; with option ``morale_roll: shared`` one d20 drawn by the
   game ("") before the first house serves every house without a given roll. A successful
   Average band draws ``morale_squadron`` (a choice among the house's squadrons here, equal
   weights). Both draws are among everything of the house present, fleets that will stay out
   of the combat included (rulings E35, E44).
2. Detection: for each cloaked fleet in scenario order, for each opposing house in scenario
   order, for each of its ELI units (fleets with scouts in scenario order, then starbases;
   with option ``detection_units: in_combat`` only those taking part, ruling E57): a
   ``detection_range`` d3 when the range rule says so, then a ``detection`` d20; the first
   success detects the fleet and ends its checks. A pairing whose cell is NA draws nothing.
"""

from __future__ import annotations

from spacecombat.core.engine import Draw, Node, Step
from spacecombat.core.events import Event, event
from spacecombat.rulesets.ec4x.setup import GUARD_OR_BLOCKADE, MOVEMENT_ORDERS, Setup
from spacecombat.rulesets.ec4x.space_combat import detection
from spacecombat.rulesets.ec4x.space_combat.engagement import engagement, task_force_cloaked
from spacecombat.rulesets.ec4x.space_combat.engagement import task_force_roe as roe_of
from spacecombat.rulesets.ec4x.space_combat.morale import morale_effect, needs_roll
from spacecombat.rulesets.ec4x.space_combat.targeting import order_of, posture, regards_hostile
from spacecombat.rulesets.ec4x.state import ABSENT, Morale, Stage, State
from spacecombat.scenario.ec4x import SPY_ORDERS


def present(setup: Setup, house: int) -> bool:
    """Whether the house has a fleet or colony units in the system (``Setup.present_houses``)."""
    return setup.present_houses[house]


# ---- 7.1.4 Morale ----------------------------------------------------------------------------


def morale(setup: Setup, state: State) -> Node[State]:
    """One house's morale check at a time; cursor: (house, sub-step, roll, shared roll)."""
    options = setup.options
    house, sub, roll, shared = state.cursor or (0, 0, 0, 0)
    if house >= len(setup.houses):
        return Step(state.at(Stage.DETECTION, cursor=()))
    spec = setup.scenario.houses[setup.houses[house]]
    name = setup.houses[house]

    def goto(**cursor: int) -> State:
        values = {"house": house, "sub": sub, "roll": roll, "shared": shared} | cursor
        return state.at(
            Stage.MORALE,
            cursor=(values["house"], values["sub"], values["roll"], values["shared"]),
        )

    if options.morale_roll == "shared" and shared == 0:
        if any(
            present(setup, h) and needs_roll(s.prestige) and s.morale_roll is None
            for h, s in enumerate(setup.scenario.houses.values())
        ):
            return Draw.die("", "morale", 20, lambda d20: Step(goto(shared=d20)))
        shared = -1
    if not present(setup, house):
        return Step(goto(house=house + 1, sub=0, roll=0))
    crisis = not needs_roll(spec.prestige)
    if sub == 0:
        fleets = [f for f in setup.fleets if f.house == house]
        if crisis and options.crisis_refusal == "hold_position" and fleets:

            def refuse(index: int) -> Step[State]:
                fleet = fleets[index]
                moved = goto(sub=1)
                return Step(
                    moved.at(Stage.MORALE, refused=state.refused | 1 << fleet.index),
                    (event("orders_refused", house=name, fleet=fleet.fid, order=0),),
                )

            return Draw.choice(
                name, "refuses_orders", [f.fid for f in fleets], [1] * len(fleets), refuse
            )
        return Step(goto(sub=1))
    if sub == 1:
        if crisis:
            return Step(goto(sub=2, roll=0))
        if spec.morale_roll is not None:
            return Step(goto(sub=2, roll=spec.morale_roll))
        if options.morale_roll == "shared" and shared > 0:
            return Step(goto(sub=2, roll=shared))
        return Draw.die(name, "morale", 20, lambda d20: Step(goto(sub=2, roll=d20)))
    effect = morale_effect(spec.prestige, None if crisis else roll)
    checked = event(
        "morale_checked",
        house=name,
        prestige=spec.prestige,
        band=effect.band,
        roll=effect.rolled,
        success=effect.success,
        all_cer=effect.all_cer,
        one_squadron_cer=effect.one_squadron_cer,
        auto_critical=effect.auto_critical and not spec.auto_critical_used,
        crisis=effect.crisis,
    )
    record = Morale(
        effect.band,
        effect.all_cer,
        -1,
        effect.one_squadron_cer,
        effect.auto_critical and not spec.auto_critical_used,
    )
    squadrons = [u.index for u in setup.units if u.house == house and u.kind == "squadron"]
    if effect.one_squadron_cer and squadrons:

        def boost(index: int) -> Step[State]:
            unit = squadrons[index]
            done = state.at(
                Stage.MORALE,
                morale=(*state.morale, record._replace(boosted=unit)),
                cursor=(house + 1, 0, 0, shared),
            )
            return Step(
                done,
                (
                    checked,
                    event(
                        "morale_squadron_chosen",
                        house=name,
                        unit=setup.units[unit].uid,
                        cer=effect.one_squadron_cer,
                    ),
                ),
            )

        labels = [setup.units[u].uid for u in squadrons]
        return Draw.choice(name, "morale_squadron", labels, [1] * len(labels), boost)
    return Step(
        state.at(Stage.MORALE, morale=(*state.morale, record), cursor=(house + 1, 0, 0, shared)),
        (checked,),
    )


def house_morale(setup: Setup, state: State, house: int) -> Morale:
    """The house's morale record (houses not present have none)."""
    index = setup.morale_slots[house]
    if index < 0 or index >= len(state.morale):
        return NO_MORALE
    return state.morale[index]


NO_MORALE = Morale("", 0, -1, 0, False)


# ---- 7.1.3 Cloaking, 7.3.1.1 Pre-Combat Detection ----------------------------------------------


def is_cloaked(setup: Setup, state: State, fleet: int) -> bool:
    """2.4.3: a fleet with an undamaged Raider is cloaked; 7.2: "Task Forces including
    Starbases cannot cloak", so a fleet of the starbase's house is not, except a guard (05),
    which "do[es] not auto-join a Starbase's Task Force" (6.2.6; ruling E50)."""
    f = setup.fleets[fleet]
    if not f.has_cloak:
        return False
    return not (setup.has_starbase(f.house) and order_of(setup, state, fleet) != GUARD_OR_BLOCKADE)


def _eli_units(setup: Setup, state: State, house: int) -> list[tuple[str, int]]:
    """A house's ELI units (7.3.1.1 "all ELI-equipped units (Scouts and Starbases) in the
    defending force"): each fleet with scouts, then each starbase (+2). With option
    ``detection_units: in_combat`` (default, ruling E57) only those of the fleets and colony
    that take part in the combat, judged before detection as if no cloaked fleet passed
    undetected (``provisional``): fleets on spy missions (E48) and fleets held back (guards,
    E12-E15) do not detect; ``present``: every ELI unit of the house in the system."""
    options = setup.options
    taking_part = provisional(setup, state) if options.detection_units == "in_combat" else None
    found = [
        (f.fid, detection.effective_eli(f.scouts, dominant_penalty=options.dominant_penalty))
        for f in setup.fleets
        if f.house == house and f.scouts and (taking_part is None or taking_part >> f.index & 1)
    ]
    colony = taking_part is None or taking_part >> setup.colony_group & 1
    if house == setup.controller and colony:
        starbases = [u for u in setup.colony_units if setup.units[u].kind == "starbase"]
        for unit, level in zip(starbases, setup.starbase_eli, strict=True):
            eli = detection.starbase_eli(level, cap=options.starbase_eli_cap)
            found.append((setup.units[unit].uid, eli))
    return found


def provisional(setup: Setup, state: State) -> int:
    """The groups (bit f: fleet f; bit ``colony_group``: the colony) that take part in the
    combat if no cloaked fleet passes undetected: ``engagement`` over every fleet but those
    on spy missions (memoised by the refused orders, the only part of the state it reads)."""
    memo = setup.provisional_memo
    found = memo.get(state.refused)
    if found is None:
        asked = [f.index for f in setup.fleets if order_of(setup, state, f.index) not in SPY_ORDERS]
        found = _joined(setup, state, asked)
        memo[state.refused] = found
    return found


def _joined(setup: Setup, state: State, asked: list[int]) -> int:
    """``engagement.engagement`` of the ``asked`` fleets, as ``State.joined`` bits."""
    options = setup.options
    houses = setup.houses
    statuses = {
        frozenset((houses[a], houses[b])): setup.status(a, b)
        for a in range(len(houses))
        for b in range(a + 1, len(houses))
    }
    result = engagement(
        [posture(setup, state, f) for f in asked],
        statuses=statuses,  # type: ignore[arg-type]
        controller=houses[setup.controller] if setup.controller >= 0 else None,
        starbase=bool(setup.colony_units),
        guard_triggers=options.guard_triggers,
        guard_engages=options.guard_engages,
        starbase_guard=options.starbase_guard,
        blockade_attacked=options.blockade_attacked,
        engage_on=options.engage_on,
        colonize_under_pact=options.colonize_under_pact,
    )
    joined = 0
    for index, joins in zip(asked, result.fleets, strict=True):
        if joins:
            joined |= 1 << index
    if result.starbase:
        joined |= 1 << setup.colony_group
    return joined


def _attempts(setup: Setup, state: State, fleet: int) -> list[tuple[int, str, int]]:
    """The detection attempts against a cloaked fleet: (house, ELI unit, ELI)."""
    owner = setup.fleets[fleet].house
    found: list[tuple[int, str, int]] = []
    for house in range(len(setup.houses)):
        if house == owner:
            continue
        opposing = regards_hostile(
            setup, state, house, owner, task_force_only=False
        ) or regards_hostile(setup, state, owner, house, task_force_only=False)
        if opposing:
            found.extend((house, uid, eli) for uid, eli in _eli_units(setup, state, house))
    return found


def detect(setup: Setup, state: State) -> Node[State]:
    """Roll detection; cursor: (cloaked fleet, attempt, d3)."""
    cloaked = [f.index for f in setup.fleets if is_cloaked(setup, state, f.index)]
    k, j, d3 = state.cursor or (0, 0, 0)
    if k >= len(cloaked):
        return Step(state.at(Stage.ENGAGEMENT, cursor=()))
    fleet = cloaked[k]
    attempts = _attempts(setup, state, fleet)
    if j >= len(attempts):
        return Step(state.at(Stage.DETECTION, cursor=(k + 1, 0, 0)))
    house, uid, eli = attempts[j]
    clk = setup.fleets[fleet].clk
    name = setup.houses[house]
    if detection.threshold_range(min(eli, detection.MAX_ELI), clk) is None:
        return Step(state.at(Stage.DETECTION, cursor=(k, j + 1, 0)))
    rule = detection.range_rule(eli, clk)
    if rule == "d3" and d3 == 0:
        return Draw.die(
            name,
            "detection_range",
            3,
            lambda roll: Step(state.at(Stage.DETECTION, cursor=(k, j, roll))),
        )
    needed = detection.threshold(eli, clk, d3 if rule == "d3" else None)
    assert needed is not None

    def then(d20: int) -> Step[State]:
        found = detection.detects(d20, needed, comparison=setup.options.detection_comparison)
        rolled = event(
            "detection_rolled",
            house=name,
            unit=uid,
            eli=eli,
            fleet=setup.fleets[fleet].fid,
            clk=clk,
            threshold=needed,
            roll=d20,
            detected=found,
        )
        if found:
            return Step(
                state.at(
                    Stage.DETECTION, detected=state.detected | 1 << fleet, cursor=(k + 1, 0, 0)
                ),
                (rolled,),
            )
        return Step(state.at(Stage.DETECTION, cursor=(k, j + 1, 0)), (rolled,))

    return Draw.die(name, "detection", 20, then)


def undetected(setup: Setup, state: State, fleet: int) -> bool:
    return is_cloaked(setup, state, fleet) and not state.detected >> fleet & 1


# ---- 7.3 engagement, 7.2 Task Force Assignment ------------------------------------------------


def engage(setup: Setup, state: State) -> Node[State]:
    """Who joins the combat (engagement.engagement), the Task Forces, and the all-cloaked case
    of 7.1.3. Undetected cloaked fleets with movement orders continue (7.2) and fleets on scout
    missions (09–11) are not part of space combat (ruling E48): neither is asked."""
    events: list[Event] = []
    asked: list[int] = []
    for f in setup.fleets:
        order = order_of(setup, state, f.index)
        if order in SPY_ORDERS:
            continue
        if order in MOVEMENT_ORDERS and undetected(setup, state, f.index):
            events.append(
                event("fleet_passed_undetected", house=setup.houses[f.house], fleet=f.fid)
            )
            continue
        asked.append(f.index)
    houses = setup.houses
    joined = _joined(setup, state, asked)
    colony_fights = bool(joined >> setup.colony_group & 1)
    cond = tuple(
        c if joined >> setup.group_of(u) & 1 else ABSENT
        for u, c in zip(setup.units, state.cond, strict=True)
    )
    state = state.at(Stage.ENGAGEMENT, joined=joined, cond=cond)
    in_combat = sorted(
        {setup.fleets[f].house for f in range(len(setup.fleets)) if joined >> f & 1}
        | ({setup.controller} if colony_fights else set())
    )
    cloaks: dict[int, bool] = {}
    for house in in_combat:
        fleets = [
            f
            for f in range(len(setup.fleets))
            if joined >> f & 1 and setup.fleets[f].house == house
        ]
        starbase = colony_fights and house == setup.controller and setup.has_starbase(house)
        cloaks[house] = task_force_cloaked(
            [undetected(setup, state, f) for f in fleets], has_starbase=starbase
        )
        events.append(
            event(
                "task_force_formed",
                house=houses[house],
                fleets=[setup.fleets[f].fid for f in fleets],
                units=[u.uid for u in setup.units if u.house == house and cond[u.index] != ABSENT],
                roe=task_force_roe(setup, state, house),
                cloaked=cloaks[house],
            )
        )
    if len(in_combat) >= 2 and all(cloaks.values()):
        # 7.1.3: "If cloaked fleets on all sides pass undetected from one another, the player
        # defending their solar system wins initiative. If opposing forces are meeting in
        # neutral territory and all pass undetected, they carry on with movement orders and
        # combat is cancelled."
        if setup.controller in in_combat:
            # the initiative is the text's (7.1.3); option surprise says only whether its
            # raiders' phase-1 attack takes Surprise +3 or Ambush +4 (ruling E42)
            events.append(event("initiative_won", house=houses[setup.controller]))
            state = state.at(Stage.ENGAGEMENT, initiative=setup.controller)
        else:
            events.append(event("combat_cancelled", reason="every side passed undetected"))
            return Step(state.at(Stage.OVER, result="cancelled"), tuple(events))
    return Step(state.at(Stage.ROUND_START, cursor=()), tuple(events))


def task_force_roe(setup: Setup, state: State, house: int) -> int:
    """7.2: the highest ROE of any joining fleet; 10 with a starbase (engagement.task_force_roe).
    A Task Force of colony fighters alone never retreats (7.3.5): 10."""
    starbase = house == setup.controller and any(
        setup.units[u].kind == "starbase" and state.cond[u] != ABSENT for u in setup.colony_units
    )
    roes = [f.roe for f in setup.fleets if f.house == house and state.joined >> f.index & 1]
    if not roes and not starbase:
        return 10
    return roe_of(roes, has_starbase=starbase)
