"""ROE check and Retreat (7.3.4 step 4, 7.1.1, 7.3.5).

After each round, each Task Force that could retreat (not before round 1 ends: it is checked
only at the end of a round) decides, house by house in scenario order: a ``retreat`` decision
with options ``stay`` and ``retreat``; its facts give the ROE, the Task Force's total AS, the
combined AS of the hostile Task Forces and whether the ROE allows staying (``tables.roe_allows``).
The stock policy follows the ROE (or the house's ``retreat`` setting).

A retreating Task Force's fleet squadrons leave, carrier-owned fighters with their carrier
(7.3.5); colony-owned fighters and starbases stay and fight on (7.3.5, 7.2); crippled squadrons
cannot take a restricted lane (7.3.5; option ``stranded_crippled``), and with option
``restricted_lane_retreat: per_fleet`` a fleet with crippled squadrons (or spacelift ships,
under ``spacelift_on_retreat: retreats``) stays whole (6.1; ruling E41); a carrier's fighters
whose carrier was lost are left behind and destroyed; spacelift ships per option
``spacelift_on_retreat`` (7.2; ruling E40).
"""

from __future__ import annotations

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.engine import Decision, Node, Step
from spacecombat.core.events import Event, event
from spacecombat.rulesets.ec4x.setup import Setup
from spacecombat.rulesets.ec4x.space_combat.pre_combat import task_force_roe
from spacecombat.rulesets.ec4x.space_combat.rounds import (
    combat_continues,
    remaining,
    screened_check,
    standing,
    strength,
)
from spacecombat.rulesets.ec4x.space_combat.targeting import regards_hostile
from spacecombat.rulesets.ec4x.state import (
    CRIPPLED,
    DESTROYED,
    GONE_CRIPPLED,
    GONE_UNDAMAGED,
    IN_BATTLE,
    UNDAMAGED,
    Stage,
    State,
)
from spacecombat.rulesets.ec4x.tables import roe_allows

STAY = "stay"
RETREAT = "retreat"


def why_not(setup: Setup, state: State, house: int) -> str | None:
    """Why the house cannot retreat now, or None."""
    if state.retreated >> house & 1:
        return "it has retreated"
    spec = setup.scenario.houses[setup.houses[house]]
    if spec.retreat_lane == "none":
        return "it has no lane to a friendly system (retreat_lane: none)"
    cond = state.cond
    if not any(u.fleet >= 0 and cond[u.index] in IN_BATTLE for u in setup.house_units[house]):
        return "it has no fleet units here (colony fighters and starbases never retreat)"
    return None


def hostile_strength(setup: Setup, state: State, house: int) -> int:
    """7.3.4 Multi-Faction Retreat Evaluation: the combined AS of the hostile Task Forces
    (option ``roe_hostile_strength``, ruling E45)."""
    either = setup.options.roe_hostile_strength == "either_way"
    now = standing(setup, state.cond)
    return sum(
        now.strength[g]
        for g in now.remaining
        if g != house
        and (
            regards_hostile(setup, state, house, g)
            or (either and regards_hostile(setup, state, g, house))
        )
    )


def roe_check(setup: Setup, state: State) -> Node[State]:
    """Ask each house that may retreat (cursor: house); then carry out the retreats."""
    (house,) = state.cursor
    if house >= len(setup.houses):
        return _retreat(setup, state)
    nxt = state.at(Stage.ROE_CHECK, cursor=(house + 1,))
    if house not in remaining(setup, state) or why_not(setup, state, house) is not None:
        return Step(nxt)
    name = setup.houses[house]
    roe = task_force_roe(setup, state, house)
    own = strength(setup, state, house)
    hostile = hostile_strength(setup, state, house)
    allows = roe_allows(roe, own, hostile, roe0_defenseless=setup.options.roe0_defenseless)
    facts = {
        "round": state.round,
        "roe": roe,
        "own_strength": own,
        "hostile_strength": hostile,
        "roe_allows": allows,
    }
    request = DecisionRequest(
        "retreat",
        name,
        f"end of round {state.round}: stay in the combat or retreat? (ROE {roe}, own AS "
        f"{own} against hostile AS {hostile}: the ROE says {STAY if allows else RETREAT})",
        (Option(STAY, STAY), Option(RETREAT, RETREAT)),
        facts=facts,
    )

    def then(option: Option) -> Step[State]:
        bit = 1 << house if option.action == RETREAT else 0
        decided = nxt.at(Stage.ROE_CHECK, retreating=state.retreating | bit)
        if setup.quiet:
            return Step(decided)
        return Step(decided, (event("roe_checked", house=name, **facts, choice=option.text),))

    return Decision(request, then)


def _held_fleets(setup: Setup, state: State, house: int) -> int:
    """6.1 "Fleets containing crippled ships or Spacelift Command ships can not jump across
    restricted lanes"; 7.3.5 "fall back to their original fleet formations". With option
    ``restricted_lane_retreat: per_fleet`` (default, ruling E41) the house's fleets that
    cannot take its restricted lane (bit f): those with a crippled squadron (when
    ``stranded_crippled: stay``) and, when ``spacelift_on_retreat: retreats``, those with
    spacelift ships. Such a fleet stays whole and fights on; with ``per_squadron`` none does
    (its crippled squadrons stay or are destroyed, its spacelift ships stay)."""
    options = setup.options
    if options.restricted_lane_retreat != "per_fleet":
        return 0
    held = 0
    for f in setup.fleets:
        if f.house != house or not state.joined >> f.index & 1:
            continue
        crippled = options.stranded_crippled == "stay" and any(
            state.cond[u] == CRIPPLED and setup.units[u].kind != "fighter" for u in f.units
        )
        lift = options.spacelift_on_retreat == "retreats" and bool(f.spacelift)
        if (crippled or lift) and any(state.cond[u] in IN_BATTLE for u in f.units):
            held |= 1 << f.index
    return held


def _retreat(setup: Setup, state: State) -> Step[State]:
    events: list[Event] = []
    cond = list(state.cond)
    retreated = state.retreated
    spacelift_left = state.spacelift_left
    stranded = state.stranded
    options = setup.options
    for house in range(len(setup.houses)):
        if not state.retreating >> house & 1:
            continue
        lane = setup.scenario.houses[setup.houses[house]].retreat_lane
        left: list[str] = []
        stayed: list[str] = []
        lost: list[str] = []
        held = _held_fleets(setup, state, house) if lane == "restricted" else 0
        stranded |= held
        for u in setup.units:
            if u.house != house or u.fleet < 0 or u.kind == "fighter":
                continue
            if held >> u.fleet & 1:
                if cond[u.index] in IN_BATTLE:
                    stayed.append(u.uid)
                continue
            if cond[u.index] == UNDAMAGED:
                cond[u.index] = GONE_UNDAMAGED
                left.append(u.uid)
            elif cond[u.index] == CRIPPLED:
                if lane != "restricted":
                    cond[u.index] = GONE_CRIPPLED
                    left.append(u.uid)
                elif options.stranded_crippled == "destroyed":
                    cond[u.index] = DESTROYED
                    lost.append(u.uid)
                else:
                    stayed.append(u.uid)
        for u in setup.units:
            if u.house != house or u.kind != "fighter" or u.carrier < 0:
                continue
            if cond[u.index] not in IN_BATTLE:
                continue
            carrier = cond[u.carrier]
            if carrier in (GONE_UNDAMAGED, GONE_CRIPPLED):
                cond[u.index] = GONE_UNDAMAGED
                left.append(u.uid)
            elif carrier == DESTROYED:
                cond[u.index] = DESTROYED
                lost.append(u.uid)
            else:
                stayed.append(u.uid)
        stayed += [
            setup.units[u].uid
            for u in setup.colony_units
            if cond[u] in IN_BATTLE and setup.units[u].house == house
        ]
        retreated |= 1 << house
        spacelift = "stayed"
        if options.spacelift_on_retreat == "retreats" and lane != "restricted":
            spacelift_left |= 1 << house
            spacelift = "left"
        events.append(
            event(
                "retreated",
                house=setup.houses[house],
                round=state.round,
                lane=lane,
                units=left,
                stayed=stayed,
                destroyed=lost,
                spacelift=spacelift,
            )
        )
        for uid in lost:
            unit = next(u for u in setup.units if u.uid == uid)
            events.append(
                event(
                    "unit_destroyed",
                    unit=uid,
                    house=setup.houses[house],
                    ships=list(unit.ships),
                    reason="left behind in the retreat (7.3.5)",
                )
            )
    state = state.at(
        Stage.ROE_CHECK,
        cond=tuple(cond),
        retreated=retreated,
        spacelift_left=spacelift_left,
        stranded=stranded,
        retreating=0,
    )
    state, lost_screened = screened_check(setup, state)
    events.extend(lost_screened)
    if not combat_continues(setup, state):
        return Step(state.at(Stage.OVER, cursor=()), tuple(events))
    return Step(state.at(Stage.ROUND_START, cursor=()), tuple(events))
