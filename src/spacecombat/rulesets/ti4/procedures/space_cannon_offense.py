"""Space Cannon Offense (tactical action step before space combat): starting with the active
player, each player fires the SPACE CANNON of their units at the other player's ships in the
active system; the player whose ships are hit assigns the hits before the next player fires
(docs/rulings.md R1).

Before each roll, every handler in play may act (``before_ability_roll``: play Solar Flare or
Experimental Battlestation), and may change the roll from the state (``ability_roll``).
``cursor`` steps through the handlers; it is ``len(handlers)`` once they have all been asked,
and 0 again when the roll is made. A handler may make a roll of its own just before
(``extra_ability_roll``: Experimental Battlestation). Before the hits are assigned, handlers
act through assign_hits.py (``before_assign_hits``: Maneuvering Jets). A handler may say that
the hits of a roll must be assigned to non-fighter ships if able (``aims_ability_hits``:
Graviton Laser System): the target then assigns them so (assign_hits.py ``aiming``).

When a handler in play acts after a roll (``after_ability_roll``: Scramble Frequency), the
roll's hits wait (``reviewed_roll``: the roller's mark ``ABILITY_ROLLED``) while each handler
is asked once, ``cursor`` from 0; one may have the roller roll the same dice again
(``Mark.REROLL``): the first hits are discarded, the second roll's are used.
The space cannon defense and bombardment rolls (invasion.py) are reviewed the same way."""

from __future__ import annotations

from collections.abc import Callable

from spacecombat.core.engine import Chance, Node, Step
from spacecombat.core.pool import DicePool
from spacecombat.core.state import ships
from spacecombat.rulesets.ti4.abilities.base import Roll
from spacecombat.rulesets.ti4.effects import (
    after_reviewed_roll,
    cannon_aimers,
    offense_pool,
    overriding,
    restricted_roll,
    with_cursor,
)

__all__ = ["after_reviewed_roll", "reviewed_roll", "space_cannon_offense"]
from spacecombat.rulesets.ti4.procedures.assign_hits import Targets, assign_hits
from spacecombat.rulesets.ti4.procedures.capacity import excess, remove_excess
from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import BattleState, Mark, Phase

A, D = Side.ATTACKER, Side.DEFENDER
SCO = Roll.SPACE_CANNON_OFFENSE


def reviewed_roll(
    setup: BattleSetup,
    state: BattleState,
    roller: Side,
    purpose: str,
    pool: DicePool,
    then: Callable[[BattleState, int], Step[BattleState]],
) -> Node[BattleState]:
    """``roller`` rolls ``pool`` from ``state``; ``then`` takes the state and the hits. When a
    handler in play acts after the roll (``after_ability_roll``), the hits first wait in the
    state (``ABILITY_ROLLED``, ``cursor`` 0) for ``after_reviewed_roll``; else nothing is added."""
    if not overriding(setup, "after_ability_roll"):
        return Chance(roller.value, purpose, pool, lambda hits: then(state, hits))

    def waiting(hits: int) -> Step[BattleState]:
        rolled = state.with_hits_on(roller.other, hits).marking(roller, Mark.ABILITY_ROLLED)
        return Step(rolled.changed(cursor=0))

    return Chance(roller.value, purpose, pool, waiting)


def _after(setup: BattleSetup, state: BattleState) -> BattleState:
    # The active player (attacker) fires first, then the defender; then space combat.
    if state.turn is A:
        return state.at(Phase.SPACE_CANNON_OFFENSE, turn=D, cursor=0)
    if state.marked(D, Mark.EXTRA_SPACE_CANNON):
        # an extra roll before the active player's: its roll follows (its handlers were asked)
        done = state.unmarking(D, Mark.EXTRA_SPACE_CANNON)
        return done.at(Phase.SPACE_CANNON_OFFENSE, turn=A, cursor=len(setup.handlers))
    return state.at(Phase.START_OF_COMBAT, turn=A, cursor=0)


def space_cannon_offense(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """The player whose turn it is rolls space cannon offense at the opponent's ships."""
    roller = state.turn
    target = roller.other
    handlers = setup.handlers
    if state.marked(roller, Mark.ABILITY_ROLLED):
        return after_reviewed_roll(
            setup,
            state,
            roller,
            SCO,
            "space_cannon_offense",
            lambda s: offense_pool(setup, s, roller),
            _offense_hits(setup, roller, cannon_aimers(setup, state, roller)),
        )
    reviewing = state.marked(target, Mark.ABILITY_ROLLED)  # the defender's extra roll, made
    # before this one (Experimental Battlestation), waits for the handlers after it: the
    # extra roll's handler goes on with it (``extra_ability_roll``; effects.extra_cannon_roll)
    if not reviewing and state.cursor < len(handlers) and overriding(setup, "before_ability_roll"):
        # asked even when the roll will not happen (Solar Flare is played when the active
        # player's turn begins, whether or not it has anything to fire)
        for index in range(state.cursor, len(handlers)):
            node = handlers[index].before_ability_roll(setup, state, roller, SCO)
            if node is not None:
                return with_cursor(node, index + 1)
        return Step(state.changed(cursor=len(handlers)))
    for handler in overriding(setup, "extra_ability_roll"):
        extra = handler.extra_ability_roll(setup, state, roller, SCO)
        if extra is not None:
            return extra
    if ships(setup, state, target) == 0:
        return Step(_after(setup, state))
    pool = offense_pool(setup, state, roller)
    if not pool.groups:
        return Step(_after(setup, state))

    then = _offense_hits(setup, roller, cannon_aimers(setup, state, roller))
    return reviewed_roll(setup, state, roller, "space_cannon_offense", pool, then)


def _offense_hits(
    setup: BattleSetup, roller: Side, aimers: tuple[str, ...]
) -> Callable[[BattleState, int], Step[BattleState]]:
    """What follows ``roller``'s space cannon offense roll of so many hits: the opponent
    assigns them (to non-fighter ships if able when ``aimers`` say so), or the next roll."""
    target = roller.other

    def then(state: BattleState, hits: int) -> Step[BattleState]:
        if hits == 0:
            return Step(_after(setup, state))
        hit = state.at(Phase.SPACE_CANNON_OFFENSE_HITS, cursor=0).with_hits_on(target, hits)
        return restricted_roll(hit, target, hits, aimers)

    return then


def space_cannon_offense_hits(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """The player whose ships were hit assigns the hits (ti4-combat-effects.md §0.1), then
    removes the fighters and ground forces beyond the capacity its ships have left, before the
    next player fires (docs/rulings.md R1 step 4) and before any combat (R14). A player left
    with no ships loses them at the end (space_combat.end_of_combat)."""
    target = state.turn.other
    if state.hits_on(target) or state.following:  # the handlers still to hear of the last one
        return assign_hits(
            setup,
            state,
            target,
            None,
            Targets.SHIPS,
            "space cannon offense",
            in_combat_round=False,
            done=lambda s: s,
        )
    over = excess(setup, state, target)
    if over and ships(setup, state, target):
        return remove_excess(
            setup, state, target, over, "beyond capacity after space cannon offense"
        )
    return Step(_after(setup, state))
