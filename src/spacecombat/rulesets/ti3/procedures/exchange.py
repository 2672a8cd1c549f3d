"""An exchange of fire: the shape every TI3 roll takes. One or both players roll; each player
hit then removes their casualties, the attacker first (ti3-combat.md, Remove casualties).

Simultaneous (combat rounds, anti-fighter barrage, PDS fire): the attacker rolls, the defender
rolls, then the attacker removes casualties, then the defender. Not simultaneous (an option for
Assault Cannon): the attacker rolls and the defender removes casualties at once, then the
defender's survivors roll and the attacker removes casualties.

The state's ``turn`` says who rolls (roll phase) or whose roll is being answered (hits phase);
``pending`` holds missed dice still to be re-rolled (Graviton Laser System); ``spec_ops`` the
progress of a roll made group by group to re-roll its 1s (Spec Ops Training, 27S-35; with the
``shock_troops`` option the 1s are re-rolled inside the roll, 27T-11).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from spacecombat.core.engine import Chance, Node, Step
from spacecombat.core.pool import DicePool
from spacecombat.core.sides import Side
from spacecombat.rulesets.ti3.abilities import (
    graviton_laser_system,
    l1z1x_flagship,
    spec_ops_training,
)
from spacecombat.rulesets.ti3.abilities.races import SpecOpsTraining
from spacecombat.rulesets.ti3.cards import (
    experimental_weaponry,
    faulty_targeting_systems,
    recheck,
    shields_holding,
)
from spacecombat.rulesets.ti3.procedures.common import Targets, remove_casualties
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Phase, Ti3State

A, D = Side.ATTACKER, Side.DEFENDER


@dataclass(frozen=True)
class Exchange:
    """One kind of exchange of fire."""

    #: what the dice are for (the ``purpose`` of the ``dice_rolled`` event)
    purpose: str
    roll_phase: Phase
    hits_phase: Phase
    #: the pool a player rolls now (``None``: they do not roll)
    pool: Callable[[Ti3Setup, Ti3State, Side], DicePool | None]
    #: which of the other player's units the hits may reach
    targets: Targets
    #: where the hits land: the space area (``None``) or the planet being fought over
    on_planet: bool = False
    simultaneous: bool = True
    #: the player may re-roll each missed die once
    rerolls: Callable[[Ti3Setup, Side], bool] = lambda setup, side: False
    #: count the natural 10s of each roll (Shock Troops)
    tens: bool = False
    #: the state once every hit is taken
    done: Callable[[Ti3Setup, Ti3State], Ti3State] = lambda setup, state: state
    #: the hits' cause in words (the ``cause`` of ``unit_destroyed``, ``damage_sustained`` and
    #: ``hits_lost``, as TI4 says it)
    cause: str = field(kw_only=True)


def roll(setup: Ti3Setup, state: Ti3State, fire: Exchange) -> Node[Ti3State]:
    """The roll phase: ``state.turn`` rolls (or re-rolls its misses)."""
    side = state.turn
    dice = fire.pool(setup, state, side)
    if state.pending:
        # the re-roll of the missed dice: the PDS's (one group; the Loncara Ssodu's dice
        # beside them are not re-rolled: 27Y-11)
        assert dice is not None
        dice = DicePool((replace(graviton_laser_system.pds_group(dice), dice=state.pending),))
    if dice is None or dice.dice == 0:
        return Step(_after_roll(state, fire, side))
    if recheck.applies(state, fire.purpose):
        # the roll made group by group, then Recheck asked (27S-38); the heavy units' groups
        # first, their hits counted apart ([0.0.1], Experimental Weaponry: 27S-40)
        heavy = _heavy_units(setup, state, side) if fire.purpose == "space_combat" else ()
        if heavy:
            first, rest = l1z1x_flagship.split(dice, heavy)
            dice = DicePool((*(first.groups if first else ()), *(rest.groups if rest else ())))
        # with Spec Ops Training each group's 1s re-rolled after it (27S-41)
        sol = fire.purpose == "invasion_combat" and setup.side(side).has(SpecOpsTraining.id)
        return recheck.roll(
            setup,
            state,
            side,
            dice,
            fire.purpose,
            lambda s: _after_roll(s, fire, side),
            heavy,
            spec_ops=sol,
        )
    if faulty_targeting_systems.applies(state, side, fire.purpose):
        # PDS fire made group by group, then Faulty Targeting Systems asked (27S-39)
        # (with Graviton Laser System its misses re-rolled first: 27S-44)
        return faulty_targeting_systems.roll(
            state,
            side,
            dice,
            fire.purpose,
            lambda s: _after_roll(s, fire, side),
            rerolls=fire.rerolls(setup, side) and graviton_laser_system.rerolled(dice),
        )
    if fire.purpose == "invasion_combat" and setup.side(side).has(SpecOpsTraining.id):
        if not fire.tens:
            return _spec_ops_roll(state, fire, side, dice)
        # with the shock_troops option its natural 10s are counted too: the 1s are re-rolled
        # inside the roll (abilities/spec_ops_training.py; docs/rulings.md 27T-11)
        dice = spec_ops_training.with_ones_rerolled(dice)
    if fire.purpose == "space_combat":
        heavy = _heavy_units(setup, state, side)
        if heavy:
            return _heavy_roll(state, fire, side, dice, heavy)
    # Graviton Laser System re-rolls the PDS's missed dice only (27Y-11)
    rerolls = fire.rerolls(setup, side) and graviton_laser_system.rerolled(dice)
    if rerolls and len(dice.groups) > 1 and not state.pending:
        # Graviton Laser System with the Loncara Ssodu firing too: its dice first, then the
        # PDS's, whose misses are re-rolled (27Y-11)
        if not state.split:
            return _others_first(state, fire, side, dice)
        dice = DicePool((graviton_laser_system.pds_group(dice),))

    def then(hits: int, tens: int = 0) -> Step[Ti3State]:
        pair_hits = state.with_hits_on(side.other, state.hits_on(side.other) + hits)
        if state.heavy != (0, 0):  # [0.0.1]'s heavy hits of an earlier roll are over
            pair_hits = l1z1x_flagship.with_heavy_on(pair_hits, side.other, 0)
        if fire.tens:
            pair_hits = pair_hits.changed(
                tens=(tens, state.tens[1]) if side is A else (state.tens[0], tens)
            )
        assert dice is not None
        misses = dice.dice - hits
        if rerolls and misses > 0 and not state.pending:
            return Step(pair_hits.changed(pending=misses))
        return Step(_after_roll(pair_hits.changed(pending=0, split=False), fire, side))

    return Chance(side.value, fire.purpose, dice, then, then if fire.tens else None)


def _others_first(state: Ti3State, fire: Exchange, side: Side, dice: DicePool) -> Node[Ti3State]:
    """The dice of a PDS fire that are not the PDS's (the Loncara Ssodu's), rolled first when
    the PDS's misses are re-rolled (27Y-11); ``split`` says they were."""
    others = graviton_laser_system.others(dice)
    assert others is not None

    def then(hits: int) -> Step[Ti3State]:
        target = side.other
        return Step(state.with_hits_on(target, state.hits_on(target) + hits).changed(split=True))

    return Chance(side.value, fire.purpose, others, then)


def _heavy_units(setup: Ti3Setup, state: Ti3State, side: Side) -> tuple[str, ...]:
    """The units whose combat hits ``side``'s opponent must take on non-fighter ships first
    this round: [0.0.1]'s (27S-9) and Experimental Weaponry's (27S-26); none: a plain roll."""
    units: tuple[str, ...] = ()
    if l1z1x_flagship.acts(setup, state, side):
        units += l1z1x_flagship.HEAVY
    if experimental_weaponry.in_play(state, side):
        units += tuple(u for u in experimental_weaponry.HEAVY if u not in units)
    return units


def _heavy_roll(
    state: Ti3State, fire: Exchange, side: Side, dice: DicePool, units: tuple[str, ...]
) -> Node[Ti3State]:
    """A roll of a side with [0.0.1] or Experimental Weaponry in a combat round: the heavy
    units' dice (``units``: its flagship's and dreadnoughts', its dreadnoughts' and war suns')
    first, their hits counted apart (they go on non-fighter ships), then its other dice
    (abilities/l1z1x_flagship.py; docs/rulings.md 27S-9, 27S-26)."""
    heavy, rest = l1z1x_flagship.split(dice, units)
    target = side.other
    if not state.split and heavy is not None:

        def heavy_hits(hits: int) -> Step[Ti3State]:
            after = state.with_hits_on(target, state.hits_on(target) + hits)
            after = l1z1x_flagship.with_heavy_on(after, target, hits)
            if rest is None:
                return Step(_after_roll(after, fire, side))
            return Step(after.changed(split=True))

        return Chance(side.value, fire.purpose, heavy, heavy_hits)
    assert rest is not None

    def other_hits(hits: int) -> Step[Ti3State]:
        after = state.with_hits_on(target, state.hits_on(target) + hits).changed(split=False)
        return Step(_after_roll(after, fire, side))

    return Chance(side.value, fire.purpose, rest, other_hits)


def _spec_ops_roll(state: Ti3State, fire: Exchange, side: Side, dice: DicePool) -> Node[Ti3State]:
    """An invasion combat roll of a side with Spec Ops Training (27S-35): "Each time you roll
    a 1 during Invasion Combat, you may reroll the die. You must use the second result" (PC_Twi
    r_Sol.cpp). A die that rolled a 1 and missed is re-rolled once (always: the second result
    can only be as good), at its group's value and modifiers. The roll is made group by group
    (groups differ in value), each counting its natural faces of 2 or more as marks, so that
    its 1s are its dice less its marks; then the 1s of that group are re-rolled (their own
    ``dice_rolled`` event). ``state.spec_ops``: (groups done, 1s of the last still to
    re-roll). With the ``shock_troops`` option (its natural 10s are marks too) the 1s are
    re-rolled inside the roll instead (``roll``; abilities/spec_ops_training.py, 27T-11)."""
    done, ones = state.spec_ops
    target = side.other

    def add(hits: int, progress: tuple[int, int]) -> Ti3State:
        return state.with_hits_on(target, state.hits_on(target) + hits).changed(spec_ops=progress)

    if ones:
        group = dice.groups[done - 1]
        again = DicePool((replace(group, dice=ones, mark_on=None),))
        return Chance(side.value, fire.purpose, again, lambda hits: Step(add(hits, (done, 0))))
    if done == len(dice.groups):
        return Step(_after_roll(state.changed(spec_ops=(0, 0)), fire, side))
    group = dice.groups[done]
    if group.hit_on <= 1:  # a 1 hits: nothing to re-roll
        plain = DicePool((replace(group, mark_on=None),))
        return Chance(side.value, fire.purpose, plain, lambda h: Step(add(h, (done + 1, 0))))
    marked = DicePool((replace(group, mark_on=2),))

    def counted(hits: int, marks: int = group.dice) -> Step[Ti3State]:
        # (hits alone, as the stalemate check's paths give them: no 1 to re-roll)
        return Step(add(hits, (done + 1, group.dice - marks)))

    return Chance(side.value, fire.purpose, marked, counted, counted)


def _after_roll(state: Ti3State, fire: Exchange, side: Side) -> Ti3State:
    if fire.simultaneous:
        if side is A:
            return state.at(fire.roll_phase, turn=D)
        return state.at(fire.hits_phase, turn=A)
    return state.at(fire.hits_phase, turn=side)


def hits(setup: Ti3Setup, state: Ti3State, fire: Exchange) -> Node[Ti3State]:
    """The hits phase: the player hit removes casualties."""
    where = state.planet if fire.on_planet else None
    if fire.simultaneous:
        taker = state.turn
        if shields_holding.applies(setup, state, taker):
            return shields_holding.ask(setup, state, taker)

        def next_simultaneous(s: Ti3State) -> Ti3State:
            if taker is A:
                return s.at(fire.hits_phase, turn=D)
            return fire.done(setup, s.changed(turn=A))

        return remove_casualties(
            setup, state, taker, where, fire.targets, fire.cause, next_simultaneous
        )
    roller = state.turn

    def next_sequential(s: Ti3State) -> Ti3State:
        if roller is A:
            return s.at(fire.roll_phase, turn=D)
        return fire.done(setup, s.changed(turn=A))

    return remove_casualties(
        setup, state, roller.other, where, fire.targets, fire.cause, next_sequential
    )
