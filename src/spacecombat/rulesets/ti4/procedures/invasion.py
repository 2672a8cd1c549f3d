"""Invasion (tactical action step after space combat): 1 bombardment, 2 commit ground forces,
3 space cannon defense, 4 ground combat on each planet in the order the active player chooses
(ti4-ground-combat.md note 3), 5 establish control. The active player is the attacker."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.engine import Chance, Decision, End, Node, Step
from spacecombat.core.errors import RuleNotImplemented
from spacecombat.core.events import Event, event
from spacecombat.core.forces import Forces, Status
from spacecombat.core.hits import destroyed, next_hit
from spacecombat.core.pool import DicePool
from spacecombat.core.sides import SideState
from spacecombat.core.state import ground_forces
from spacecombat.rulesets.ti4.abilities.base import Handler, Roll, overrides
from spacecombat.rulesets.ti4.abilities.bombardment import bombardment_dice, bombardment_forbidden
from spacecombat.rulesets.ti4.abilities.planetary_shield import stops_bombardment
from spacecombat.rulesets.ti4.abilities.sustain_damage import (
    damaged_status,
    hits_cancelled,
    sustainable,
)
from spacecombat.rulesets.ti4.effects import defense_pool, final_die, follow_ups, with_cursor
from spacecombat.rulesets.ti4.outcome import invasion_outcome
from spacecombat.rulesets.ti4.procedures.assign_hits import Targets, assign_hits
from spacecombat.rulesets.ti4.procedures.space_cannon_offense import (
    after_reviewed_roll,
    reviewed_roll,
)
from spacecombat.rulesets.ti4.procedures.stalemate import neither_can_win
from spacecombat.rulesets.ti4.procedures.windows import FIRST_ROUND, open_windows
from spacecombat.rulesets.ti4.reinforcements import plastic
from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import NO_AIM, BattleState, Mark, Phase

A, D = Side.ATTACKER, Side.DEFENDER


def bombardment(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """Step 1: the attacker's units with BOMBARDMENT allotted to each planet roll at it, unless
    a planetary shield stops them; the defender assigns the hits to its ground forces there
    (docs/rulings.md R3, R9). A planet without defending ground forces is not bombarded.

    Before the first planet, the start of the invasion: each handler in order may act
    (``at_invasion_start``: Bunker, Blitz, Disable), ``cursor`` stepping through them.

    During a ground combat (``round`` > 0) this phase is a bombardment that a handler started
    in a timing window (Harrow: ``bombards_in_combat``): every unit it names rolls at the
    planet of the combat, then the window goes on after that handler.

    When a handler acts after the roll (``after_ability_roll``: Scramble Frequency), it is
    asked before the hits are assigned, and may have the roll made again
    (space_cannon_offense.py ``reviewed_roll``)."""
    p = state.planet
    if state.mark_count(A, Mark.JOINT_BOMBARDMENT) is not None:
        return joint_bombardment(setup, state)
    if state.marked(A, Mark.ABILITY_ROLLED):
        allotted = _allotted(setup, state)
        return after_reviewed_roll(
            setup,
            state,
            A,
            Roll.BOMBARDMENT,
            "bombardment",
            lambda s: bombardment_dice(setup, s, A, p, allotted),
            _bombarded(setup),
        )
    if state.round:
        return _bombardment_in_combat(setup, state)
    if p == 0 and state.cursor < len(setup.handlers):
        for index in range(state.cursor, len(setup.handlers)):
            node = setup.handlers[index].at_invasion_start(setup, state)
            if node is not None:
                return with_cursor(node, index + 1)
    if p >= len(setup.planets):
        return Step(state.at(Phase.COMMIT_GROUND_FORCES, planet=0, cursor=0))
    state = state.changed(cursor=0)  # past the start of the invasion: hits use the cursor
    if p == 0 and _one_roll(setup):
        return Step(state.marking(A, Mark.JOINT_BOMBARDMENT, _ROLLING))
    return _bombard(setup, state, setup.bombarded_by[p], state.at(Phase.BOMBARDMENT, planet=p + 1))


#: the stages of a bombardment of several planets made as one roll (``Mark.JOINT_BOMBARDMENT``)
_ROLLING, _ROLLING_AGAIN, _ASSIGNING = 0, 1, 2


def _one_roll(setup: BattleSetup) -> bool:
    """Whether step 1's bombardment must be made as one roll before any hit is assigned: units
    bombard more than one planet and a handler acts after the roll (Scramble Frequency may
    have "all of those dice" rolled again: docs/rulings.md 27T-10). Otherwise each planet is
    rolled and its hits assigned in turn, which is the same when nothing acts between."""
    return sum(1 for allotted in setup.bombarded_by if allotted) > 1 and bool(
        overriding_after_roll(setup)
    )


def overriding_after_roll(setup: BattleSetup) -> tuple[Handler, ...]:
    """The handlers in play acting after a unit-ability roll (``after_ability_roll``)."""
    return setup.answering("after_ability_roll")


def joint_bombardment(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """Step 1 when units bombard several planets and a handler acts after the roll: LRR 15.1,
    the active player rolls for each of its units at the planets they bombard, "this is called
    a bombardment roll": one roll. Each planet's dice are rolled in planet order and their hits
    kept (``BattleState.bombarded``); then the handlers acting after the roll are asked once,
    seeing all its hits (``after_ability_roll``: Scramble Frequency); if one had it rolled
    again (``Mark.REROLL``), every planet's dice are rolled again, final (14SF-2); then the
    defender assigns the hits planet by planet (``bombardment_hits``). docs/rulings.md 27T-10."""
    stage = state.mark_count(A, Mark.JOINT_BOMBARDMENT)
    p, planets = state.planet, len(setup.planets)
    if stage == _ASSIGNING:
        while p < planets and not state.bombarded[p]:
            p += 1
        if p >= planets:
            done = state.unmarking(A, Mark.JOINT_BOMBARDMENT).changed(bombarded=())
            return Step(done.at(Phase.COMMIT_GROUND_FORCES, planet=0, cursor=0))
        return _bombarded(setup)(state.changed(planet=p), state.bombarded[p])
    if len(state.bombarded) < planets:
        return _roll_at(setup, state, final=stage == _ROLLING_AGAIN)
    if stage == _ROLLING_AGAIN:
        assigning = state.marking(A, Mark.JOINT_BOMBARDMENT, _ASSIGNING)
        return Step(assigning.changed(planet=0, cursor=0))
    # the whole roll is made: the handlers acting after it are asked, seeing its hits
    if not state.marked(A, Mark.ABILITY_ROLLED):
        rolled = state.marking(A, Mark.ABILITY_ROLLED).with_hits_on(D, sum(state.bombarded))
        return Step(rolled.changed(cursor=0))
    handlers = setup.handlers
    for index in range(state.cursor, len(handlers)):
        node = handlers[index].after_ability_roll(setup, state, A, Roll.BOMBARDMENT, 0)
        if node is not None:
            return with_cursor(node, index + 1)
    again = state.marked(A, Mark.REROLL)
    cleared = state.unmarking(A, Mark.ABILITY_ROLLED, Mark.REROLL).with_hits_on(D, 0)
    if again:
        rolling = cleared.marking(A, Mark.JOINT_BOMBARDMENT, _ROLLING_AGAIN)
        return Step(rolling.changed(bombarded=(), planet=0, cursor=0))
    assigning = cleared.marking(A, Mark.JOINT_BOMBARDMENT, _ASSIGNING)
    return Step(assigning.changed(planet=0, cursor=0))


def _roll_at(setup: BattleSetup, state: BattleState, *, final: bool) -> Node[BattleState]:
    """The dice of the joint bombardment at the next planet (``len(state.bombarded)``), rolled
    and kept; a planet not bombarded keeps 0 (the reason told the first time only). ``final``:
    the roll made again, without the roller's own rerolls (14SF-2)."""
    p = len(state.bombarded)
    at = state.changed(planet=p)

    def kept(hits: int) -> Step[BattleState]:
        return Step(state.changed(bombarded=(*state.bombarded, hits), planet=p + 1))

    nothing = state.changed(bombarded=(*state.bombarded, 0), planet=p + 1)
    allotted = setup.bombarded_by[p]
    pool = bombardment_dice(setup, at, A, p, allotted) if allotted else DicePool.of([])
    if not pool.groups or ground_forces(setup, at, D, p) == 0:
        return Step(nothing)
    forbidden = bombardment_forbidden(setup, p)
    if forbidden is None and stops_bombardment(setup, at, D, p):
        forbidden = "planetary shield"
    if forbidden is not None:
        told = (
            ()
            if final
            else (event("bombardment_blocked", planet=setup.planets[p], reason=forbidden),)
        )
        return Step(nothing, told)
    if final:
        pool = DicePool.of([final_die(g) for g in pool.groups])
    return Chance(A.value, "bombardment", pool, kept)


def _bombard(
    setup: BattleSetup, state: BattleState, allotted: Mapping[str, int], nxt: BattleState
) -> Node[BattleState]:
    """The attacker's ``allotted`` units roll BOMBARDMENT at ``state.planet`` (the hits are
    assigned in BOMBARDMENT_HITS), or the reason they do not; ``nxt`` follows if they do not."""
    p = state.planet
    pool = bombardment_dice(setup, state, A, p, allotted)
    if not pool.groups or ground_forces(setup, state, D, p) == 0:
        return Step(nxt)
    forbidden = bombardment_forbidden(setup, p)
    if forbidden is not None:
        return Step(nxt, (event("bombardment_blocked", planet=setup.planets[p], reason=forbidden),))
    if stops_bombardment(setup, state, D, p):
        return Step(
            nxt, (event("bombardment_blocked", planet=setup.planets[p], reason="planetary shield"),)
        )
    return reviewed_roll(setup, state, A, "bombardment", pool, _bombarded(setup))


def _bombarded(setup: BattleSetup) -> Callable[[BattleState, int], Step[BattleState]]:
    """After a bombardment roll of so many hits: the defender assigns them."""

    def then(state: BattleState, hits: int) -> Step[BattleState]:
        rolled = _remember_infantry(setup, state.at(Phase.BOMBARDMENT_HITS, cursor=0))
        return Step(rolled.with_hits_on(D, hits))

    return then


def _allotted(setup: BattleSetup, state: BattleState) -> Mapping[str, int]:
    """The attacker's units that bombard ``state.planet`` now: those allotted to it, or during
    a ground combat those the handler that started the bombardment names (Harrow)."""
    if not state.round:
        return setup.bombarded_by[state.planet]
    index = _in_combat_bombarder(setup)
    assert index is not None, "a bombardment during a ground combat needs a handler for it"
    return setup.handlers[index].bombards_in_combat(setup, state)


def _bombardment_in_combat(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """A bombardment a handler starts during a ground combat (Harrow), by the units it names."""
    return _bombard(setup, state, _allotted(setup, state), _resumed(setup, state))


def _in_combat_bombarder(setup: BattleSetup) -> int | None:
    """The position of the handler that bombards during ground combat (Harrow), if any."""
    return next(
        (i for i, h in enumerate(setup.handlers) if overrides(h, "bombards_in_combat")),
        None,
    )


def _resumed(setup: BattleSetup, state: BattleState) -> BattleState:
    """After a bombardment during a ground combat: back to its timing window, after the handler
    that started it."""
    index = _in_combat_bombarder(setup)
    assert index is not None
    return state.at(Phase.TIMING_WINDOW, cursor=index + 1)


INFANTRY = "infantry"


def _after_bombardment_hooks(setup: BattleSetup) -> tuple[Handler, ...]:
    return setup.remembered(
        "after_bombardment",
        lambda: tuple(h for h in setup.handlers if overrides(h, "after_bombardment")),
    )


def _remember_infantry(setup: BattleSetup, state: BattleState) -> BattleState:
    if not _after_bombardment_hooks(setup):
        return state
    count = state.defender.planet(state.planet).count(INFANTRY)
    return state.marking(A, Mark.INFANTRY_BEFORE_BOMBARDMENT, count)


def bombardment_hits(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """The defender destroys its own ground forces on the bombarded planet (mechs may sustain).
    Then the handlers acting after a bombardment are asked (``after_bombardment``: X-89
    Bacterial Weapon Ω), told how many of the defender's infantry it destroyed; then the next
    planet, or (during a ground combat) the timing window again."""
    if state.hits_on(D) or state.following:  # the handlers still to hear of the last one
        return assign_hits(
            setup,
            state,
            D,
            state.planet,
            Targets.GROUND_FORCES,
            "bombardment",
            in_combat_round=False,
            done=lambda s: s.at(Phase.BOMBARDMENT_HITS),
        )
    before = state.mark_count(A, Mark.INFANTRY_BEFORE_BOMBARDMENT)
    if before is not None:
        state = state.unmarking(A, Mark.INFANTRY_BEFORE_BOMBARDMENT)
        killed = before - state.defender.planet(state.planet).count(INFANTRY)
        for handler in _after_bombardment_hooks(setup):
            node = handler.after_bombardment(setup, state, state.planet, killed)
            if node is not None:
                return node
    if state.round:
        return Step(_resumed(setup, state))
    return Step(state.at(Phase.BOMBARDMENT, planet=state.planet + 1))


def _planet_hits(
    setup: BattleSetup, state: BattleState, side: Side, cause: str, then: Phase
) -> Node[BattleState]:
    """``side`` assigns the hits of a roll at one planet to its ground forces there (outside a
    combat round), then the step goes on to the next planet."""
    return assign_hits(
        setup,
        state,
        side,
        state.planet,
        Targets.GROUND_FORCES,
        cause,
        in_combat_round=False,
        done=lambda s: s.at(then, planet=s.planet + 1, cursor=0),
    )


def commit_ground_forces(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """Step 2: the attacker lands the ground forces the scenario commits to each planet
    (undamaged ones first when a type is split).

    Then, planet by planet, the handlers acting after ground forces are committed (Parley,
    Ragh's Call: ``after_commit``): ``planet`` 0 is the commitment itself, ``planet`` k + 1 the
    handlers asked about planet k (``cursor`` stepping through them). A handler that queued
    the rest of its effect in ``following`` (Ragh's Call: the Saar player places its ground
    forces) goes on with it first (``follow_up``)."""
    if state.planet:
        return _after_commit(setup, state)
    space = state.attacker.space
    attacker = state.attacker
    events: list[Event] = []
    for p, commit in enumerate(setup.commits):
        landed = Forces()
        for unit, count in commit.items():
            left = count
            for status in (Status.UNDAMAGED, Status.DAMAGED):
                take = min(left, space.count(unit, status))
                if take:
                    space = space.remove(unit, status, take)
                    landed = landed.add(unit, status, take)
                    left -= take
        if landed:
            attacker = attacker.with_planet(p, attacker.planet(p).plus(landed))
            events.append(
                event("ground_forces_committed", planet=setup.planets[p], units=landed.to_json())
            )
    attacker = attacker.with_space(space)
    committed = state.with_side(A, attacker)
    if not _after_commit_hooks(setup):
        return Step(committed.at(Phase.SPACE_CANNON_DEFENSE, planet=0, cursor=0), tuple(events))
    return Step(committed.at(Phase.COMMIT_GROUND_FORCES, planet=1, cursor=0), tuple(events))


def _after_commit_hooks(setup: BattleSetup) -> bool:
    return setup.remembered(
        "after_commit",
        lambda: any(overrides(h, "after_commit") for h in setup.handlers),
    )


def _after_commit(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    p = state.planet - 1
    # a handler goes on with its effect (Ragh's Call: where they go)
    pending = follow_ups(setup, state, p, "", during="after ground forces are committed")
    if pending is not None:
        return pending
    if p >= len(setup.planets):
        return Step(state.at(Phase.SPACE_CANNON_DEFENSE, planet=0, cursor=0))
    if ground_forces(setup, state, A, p) or state.attacker.planet(p):
        for index in range(state.cursor, len(setup.handlers)):
            node = setup.handlers[index].after_commit(setup, state, p)
            if node is not None:
                return with_cursor(node, index + 1)
    return Step(state.at(Phase.COMMIT_GROUND_FORCES, planet=p + 2, cursor=0))


def space_cannon_defense(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """Step 3: the defender's units with SPACE CANNON on each planet fire at the ground forces
    committed to that planet; the attacker assigns the hits (docs/rulings.md R10, R19).

    Before each roll, every handler may act (``before_ability_roll``: Strike Wing Ambuscade;
    ``cursor`` steps through them, ``len(handlers)`` once all were asked) and may change the
    roll from the state (``ability_roll``). Handlers acting after the roll
    (``after_ability_roll``: Scramble Frequency) are asked before the hits are assigned, and
    may have the roll made again (space_cannon_offense.py ``reviewed_roll``)."""
    p = state.planet
    if state.marked(D, Mark.ABILITY_ROLLED):
        return after_reviewed_roll(
            setup,
            state,
            D,
            Roll.SPACE_CANNON_DEFENSE,
            "space_cannon_defense",
            lambda s: _defense_roll(setup, s, defense_pool(setup, s, p)),
            _defended,
        )
    if p >= len(setup.planets):
        return Step(state.at(Phase.ORDER_PLANETS, planet=0, order=()))
    nxt = state.at(Phase.SPACE_CANNON_DEFENSE, planet=p + 1, cursor=0)
    if ground_forces(setup, state, A, p) == 0:
        return Step(nxt)
    pool = defense_pool(setup, state, p)
    if not pool.groups:
        return Step(nxt)
    handlers = setup.handlers
    if state.cursor < len(handlers):
        for index in range(state.cursor, len(handlers)):
            node = handlers[index].before_ability_roll(setup, state, D, Roll.SPACE_CANNON_DEFENSE)
            if node is not None:
                return with_cursor(node, index + 1)
    roll = _defense_roll(setup, state, pool)
    return reviewed_roll(setup, state, D, "space_cannon_defense", roll, _defended)


def _defense_roll(setup: BattleSetup, state: BattleState, pool: DicePool) -> DicePool:
    """``pool`` as every handler changes it from the state (``ability_roll``)."""
    groups = pool.groups
    for handler in setup.handlers:
        groups = handler.ability_roll(setup, state, D, Roll.SPACE_CANNON_DEFENSE, groups)
    return DicePool.of(list(groups))


def _defended(state: BattleState, hits: int) -> Step[BattleState]:
    """After a space cannon defense roll of so many hits: the attacker assigns them."""
    return Step(state.at(Phase.SPACE_CANNON_DEFENSE_HITS, cursor=0).with_hits_on(A, hits))


def space_cannon_defense_hits(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """The attacker destroys its own committed ground forces on that planet (R10).

    During a ground combat (``round`` > 0) this phase holds instead the hits a handler produced
    in a timing window and aimed at one unit type and status of the opponent's ground forces
    there (Magen Defense Grid Ω: ``state.aim``): that player takes them (its unit may use
    SUSTAIN DAMAGE), then the window goes on (``cursor`` is kept)."""
    if state.round:
        return _aimed_ground_hits(setup, state)
    return _planet_hits(setup, state, A, "space cannon defense", Phase.SPACE_CANNON_DEFENSE)


def _aimed_ground_hits(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    side = A if state.hits_on(A) else D
    cause = state.aim.cause
    unit, status = state.aim.unit or ("", Status.UNDAMAGED)
    able = sustainable(setup, side)
    forbid = [h for h in setup.handlers if overrides(h, "forbids_sustain")]
    where = state.planet

    def may_sustain(u: str, st: Status) -> bool:
        return able(u, st) and not any(
            h.forbids_sustain(setup, state, side, where, u) for h in forbid
        )

    return next_hit(
        state,
        side,
        where,
        eligible=lambda area: [(u, st) for u, st, _ in area if u == unit and st == status],
        targets="ground forces",
        cause=cause,
        verb="assign",
        may_sustain=may_sustain,
        cancels=lambda hits: hits_cancelled(setup, side, hits),
        damaged=damaged_status(True),
        done=lambda s: s.at(Phase.TIMING_WINDOW, aim=NO_AIM),
    )


def order_planets(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """Ground combat note 3: the active player chooses the order of the planets' combats."""
    contested = [
        p
        for p in range(len(setup.planets))
        if p not in state.order
        and ground_forces(setup, state, A, p)
        and ground_forces(setup, state, D, p)
    ]
    if not contested:
        if not state.order:
            return Step(state.at(Phase.ESTABLISH_CONTROL, cursor=0))
        first, *rest = state.order
        return Step(state.at(Phase.GROUND_COMBAT, planet=first, order=tuple(rest)))
    options = tuple(
        Option(f"fight on {setup.planets[p]}", "fight", target=setup.planets[p]) for p in contested
    )
    request = DecisionRequest(
        "planet_order", A.value, "choose the planet whose ground combat comes next", options
    )

    def then(option: Option) -> Step[BattleState]:
        chosen = setup.planets.index(option.target or "")
        return Step(state.at(Phase.ORDER_PLANETS, order=(*state.order, chosen)))

    return Decision(request, then)


def start_ground_combat(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """Begin the ground combat on ``state.planet`` (ti4-ground-combat.md)."""
    started = state.at(Phase.ROLL_DICE, round=1, turn=A, hits=(0, 0))
    if neither_can_win(setup, started):
        raise RuleNotImplemented(
            "a ground combat that neither side can ever win (the rules give no way out)",
            f"ground combat on {setup.planets[state.planet]}",
        )
    opened = open_windows(setup, started, (FIRST_ROUND,), Phase.ROLL_DICE)
    return Step(
        opened.state,
        (
            event("combat_started", kind="ground", planet=setup.planets[state.planet]),
            event("round_started", round=1),
            *opened.events,
        ),
    )


def ground_combat_ends(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """Ground combat ends when one player, or neither, has ground forces on the planet (rule 4);
    the handlers acting after it are asked (``after_ground_combat``: Dacxive Animators;
    ``cursor`` 1 + the next handler's position, once the end is told); then the next planet's
    combat, or establishing control."""
    p = state.planet
    hooks = _after_ground_combat_hooks(setup)
    if hooks and state.cursor == 0:
        ended = event("combat_ended", kind="ground", planet=setup.planets[p], rounds=state.round)
        return Step(state.changed(cursor=1), (ended,))
    if hooks:
        winner = _winner(setup, state)
        for index in range(state.cursor - 1, len(setup.handlers)):
            node = setup.handlers[index].after_ground_combat(setup, state, winner)
            if node is not None:
                return with_cursor(node, index + 2)
    rounds = tuple(
        state.round if i == p else r
        for i, r in enumerate(state.ground_rounds or (0,) * len(setup.planets))
    )
    events: tuple[Event, ...] = ()
    if not hooks:
        events = (
            event("combat_ended", kind="ground", planet=setup.planets[p], rounds=state.round),
        )
    nxt = state.at(Phase.ORDER_PLANETS, round=0, ground_rounds=rounds, cursor=0)
    if state.order:
        first, *rest = state.order
        nxt = state.at(
            Phase.GROUND_COMBAT,
            planet=first,
            order=tuple(rest),
            round=0,
            ground_rounds=rounds,
            cursor=0,
        )
    return Step(nxt, events)


def _after_ground_combat_hooks(setup: BattleSetup) -> bool:
    return setup.remembered(
        "after_ground_combat",
        lambda: any(overrides(h, "after_ground_combat") for h in setup.handlers),
    )


def _winner(setup: BattleSetup, state: BattleState) -> Side | None:
    """The player with ground forces left on the planet of the combat, if only one has."""
    left = [side for side in (A, D) if ground_forces(setup, state, side, state.planet)]
    return left[0] if len(left) == 1 else None


def establish_control(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """Step 5: the attacker gains control of each planet where it has ground forces; the
    defender's structures there are destroyed (docs/rulings.md R13, R19), or become the
    attacker's when a handler says so (Assimilate, Infiltrate: ``takes_structures``). Handlers
    act first, in order (``before_establishing_control``: Infiltrate is played then)."""
    handlers = setup.handlers
    for index in range(state.cursor, len(handlers)):
        node = handlers[index].before_establishing_control(setup, state)
        if node is not None:
            return with_cursor(node, index + 1)
    defender, attacker = state.defender, state.attacker
    events: list[Event] = []
    cards = setup.side(D)
    taken = any(h.takes_structures(setup, state, A) for h in handlers)
    for p, name in enumerate(setup.planets):
        if ground_forces(setup, state, A, p):
            events.append(event("control_established", player=A.value, planet=name))
            here = defender.planet(p)
            structures = here.keep(cards.is_structure)
            here = here.without(cards.is_structure)
            if taken and structures:
                # the matching units come from the attacker's reinforcements: as many as are
                # there (27T-5); the others are destroyed
                fresh, lost = _matching(setup, attacker, _fresh(structures))
                attacker = attacker.with_planet(p, attacker.planet(p).plus(fresh))
                events += [
                    event("unit_replaced", player=D.value, unit=unit, by=A.value, planet=name)
                    for unit, _, count in fresh
                    for _ in range(count)
                ]
                events += destroyed(D, lost, "control established")
            else:
                events += destroyed(D, structures, "control established")
            defender = defender.with_planet(p, here)
    done = state.with_side(D, defender).with_side(A, attacker).at(Phase.OVER, cursor=0)
    return Step(done, tuple(events))


def _matching(setup: BattleSetup, attacker: SideState, units: Forces) -> tuple[Forces, Forces]:
    """``units`` split into those the attacker has matching units for in its reinforcements
    (its plastic less its units of that type in this battle: reinforcements.py) and the
    rest."""
    cards = setup.side(A)
    fresh, lost = Forces(), Forces()
    for unit, status, count in units:
        total = plastic(unit)
        if total is None:
            fresh = fresh.add(unit, status, count)
            continue
        here = cards.count_of(attacker.space, unit) + sum(
            cards.count_of(planet, unit) for planet in attacker.planets
        )
        placed = min(count, max(0, total - here - fresh.count(unit)))
        if placed:
            fresh = fresh.add(unit, status, placed)
        if count - placed:
            lost = lost.add(unit, status, count - placed)
    return fresh, lost


def _fresh(units: Forces) -> Forces:
    """The same units, undamaged (the matching units come from the new owner's
    reinforcements)."""
    return Forces.of(units.by_type())


def over(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    outcome = invasion_outcome(setup, state)
    return End(outcome, (event("battle_ended", **outcome),))
