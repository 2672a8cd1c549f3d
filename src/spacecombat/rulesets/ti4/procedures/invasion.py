"""Invasion (tactical action step after space combat): 1 bombardment, 2 commit ground forces,
3 space cannon defense, 4 ground combat on each planet in the order the active player chooses
(ti4-ground-combat.md note 3), 5 establish control. The active player is the attacker."""

from __future__ import annotations

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.engine import Chance, Decision, End, Node, Step
from spacecombat.core.errors import RuleNotImplemented
from spacecombat.core.events import Event, event
from spacecombat.core.forces import Forces, Status
from spacecombat.core.hits import destroyed
from spacecombat.core.state import ground_forces
from spacecombat.rulesets.ti4.abilities.base import Roll
from spacecombat.rulesets.ti4.abilities.bombardment import bombardment_pool
from spacecombat.rulesets.ti4.abilities.planetary_shield import is_shielded
from spacecombat.rulesets.ti4.abilities.space_cannon import cannon_pool
from spacecombat.rulesets.ti4.outcome import invasion_outcome
from spacecombat.rulesets.ti4.procedures.assign_hits import Targets, assign_hits
from spacecombat.rulesets.ti4.procedures.stalemate import neither_can_win
from spacecombat.rulesets.ti4.procedures.windows import FIRST_ROUND, open_windows
from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import BattleState, Phase

A, D = Side.ATTACKER, Side.DEFENDER


def bombardment(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """Step 1: the attacker's units with BOMBARDMENT allotted to each planet roll at it, unless
    a planetary shield stops them; the defender assigns the hits to its ground forces there
    (docs/rulings.md R3, R9). A planet without defending ground forces is not bombarded."""
    p = state.planet
    if p >= len(setup.planets):
        return Step(state.at(Phase.COMMIT_GROUND_FORCES, planet=0))
    nxt = state.at(Phase.BOMBARDMENT, planet=p + 1)
    pool = bombardment_pool(setup, A, state.attacker.space, setup.bombarded_by[p])
    if not pool.groups or ground_forces(setup, state, D, p) == 0:
        return Step(nxt)
    if is_shielded(setup, D, state.defender.planet(p), state.attacker.space):
        return Step(
            nxt, (event("bombardment_blocked", planet=setup.planets[p], reason="planetary shield"),)
        )
    return Chance(
        A.value,
        "bombardment",
        pool,
        lambda hits: Step(state.at(Phase.BOMBARDMENT_HITS).with_hits_on(D, hits)),
    )


def bombardment_hits(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """The defender destroys its own ground forces on the bombarded planet (mechs may sustain)."""
    return _planet_hits(setup, state, D, "bombardment", Phase.BOMBARDMENT)


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
        done=lambda s: s.at(then, planet=s.planet + 1),
    )


def commit_ground_forces(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """Step 2: the attacker lands the ground forces the scenario commits to each planet
    (undamaged ones first when a type is split)."""
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
    return Step(
        state.with_side(A, attacker).at(Phase.SPACE_CANNON_DEFENSE, planet=0), tuple(events)
    )


def space_cannon_defense(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """Step 3: the defender's units with SPACE CANNON on each planet fire at the ground forces
    committed to that planet; the attacker assigns the hits (docs/rulings.md R10, R19)."""
    p = state.planet
    if p >= len(setup.planets):
        return Step(state.at(Phase.ORDER_PLANETS, planet=0, order=()))
    nxt = state.at(Phase.SPACE_CANNON_DEFENSE, planet=p + 1)
    if ground_forces(setup, state, A, p) == 0:
        return Step(nxt)
    pool = cannon_pool(setup, D, state.defender.planet(p), Roll.SPACE_CANNON_DEFENSE)
    if not pool.groups:
        return Step(nxt)
    return Chance(
        D.value,
        "space_cannon_defense",
        pool,
        lambda hits: Step(state.at(Phase.SPACE_CANNON_DEFENSE_HITS).with_hits_on(A, hits)),
    )


def space_cannon_defense_hits(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """The attacker destroys its own committed ground forces on that planet (R10)."""
    return _planet_hits(setup, state, A, "space cannon defense", Phase.SPACE_CANNON_DEFENSE)


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
            return Step(state.at(Phase.ESTABLISH_CONTROL))
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
    then the next planet's combat, or establishing control."""
    p = state.planet
    rounds = tuple(
        state.round if i == p else r
        for i, r in enumerate(state.ground_rounds or (0,) * len(setup.planets))
    )
    events = (event("combat_ended", kind="ground", planet=setup.planets[p], rounds=state.round),)
    nxt = state.at(Phase.ORDER_PLANETS, round=0, ground_rounds=rounds)
    if state.order:
        first, *rest = state.order
        nxt = state.at(
            Phase.GROUND_COMBAT, planet=first, order=tuple(rest), round=0, ground_rounds=rounds
        )
    return Step(nxt, events)


def establish_control(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """Step 5: the attacker gains control of each planet where it has ground forces; the
    defender's structures there are destroyed (docs/rulings.md R13, R19)."""
    defender = state.defender
    events: list[Event] = []
    cards = setup.side(D)
    for p, name in enumerate(setup.planets):
        if ground_forces(setup, state, A, p):
            events.append(event("control_established", player=A.value, planet=name))
            here = defender.planet(p)
            structures = here.keep(cards.is_structure)
            here = here.without(cards.is_structure)
            events += destroyed(D, structures, "control established")
            defender = defender.with_planet(p, here)
    return Step(state.with_side(D, defender).at(Phase.OVER), tuple(events))


def over(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    outcome = invasion_outcome(setup, state)
    return End(outcome, (event("battle_ended", **outcome),))
