"""Anti-fighter barrage hits that can only be lost, for the odds engine's canonical states
(ti4-space-combat.md Step 1; docs/rulings.md R15 and 26F-1).

Both players roll their barrage before either assigns hits (R15), so the hits of the
attacker's roll wait in the state while the defender rolls, and the defender's roll is a chance
state of its own for every number of hits the attacker scored. Each hit destroys one of the
opponent's fighters; hits beyond the fighters present have no effect (R15: "Excess hits"), so
against a player with no fighters every number of hits leads to the same state once assigned:
``next_hit`` finds no unit to take them and drops them. Only an ability can make them matter
(R15: Raid Formation, Waylay; Shields Holding cancels them), and each is a handler in play that
says which hook it answers.

``without_lost_hits`` gives the state with such hits already dropped, where nothing in play can
read them before they are assigned: no handler answers ``before_ability_roll``,
``after_ability_roll`` or ``widens_barrage`` (the steps of the rolls), none is asked about the
assignment of barrage hits (``assign_hits.alone``), no card is pending and nothing is queued
for the handlers. Between the rolls and the assignment the procedures read the hits only to
assign them, so the two states have the same future step for step (the hits' own
``hits_lost`` event aside), and the odds engine walks it once (``Ti4Battle.canonical``). The
resolver and Monte Carlo's sampler do not use canonical states: their logs keep the event.
tests/ti4/test_lost_barrage_hits.py compares the odds with and without it.
"""

from __future__ import annotations

from spacecombat.rulesets.ti4.effects import overriding
from spacecombat.rulesets.ti4.procedures.assign_hits import alone
from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.sides import SIDES, Side
from spacecombat.rulesets.ti4.state import BattleState, Phase

#: whether canonical states drop barrage hits that can only be lost (the tests switch it off
#: to compare)
DROP = True

#: the phases from the first barrage roll to the end of the barrage's assignment of hits
PHASES = frozenset((Phase.ANTI_FIGHTER_BARRAGE, Phase.ANTI_FIGHTER_BARRAGE_HITS))
#: the cause of the barrage's hits (``space_combat.anti_fighter_barrage_hits``)
_CAUSE = "anti-fighter barrage"
#: the hooks of the barrage's rolls whose handlers might read the hits waiting
_ROLL_HOOKS = ("before_ability_roll", "after_ability_roll", "widens_barrage")


def without_lost_hits(setup: BattleSetup, state: BattleState) -> BattleState:
    """``state`` with the barrage hits against a player who has no fighters dropped, where
    nothing in play can read them before they are assigned; else ``state`` itself."""
    if not DROP or state.phase not in PHASES or state.pending is not None or state.following:
        return state
    if not any(state.hits_on(side) for side in SIDES):
        return state
    if not setup.remembered(("lost_barrage_hits_unheard",), lambda: _unheard(setup)):
        return state
    for side in SIDES:
        if state.hits_on(side) and not _has_fighters(setup, state, side):
            state = state.with_hits_on(side, 0)
    return state


def _unheard(setup: BattleSetup) -> bool:
    """No handler in play acts on a barrage roll's hits before they are assigned, or on their
    assignment."""
    return not any(overriding(setup, hook) for hook in _ROLL_HOOKS) and alone(setup, _CAUSE)


def _has_fighters(setup: BattleSetup, state: BattleState, side: Side) -> bool:
    """Whether ``side`` has any unit the barrage's hits can reach in the space area (its
    fighter types: ``Targets.FIGHTERS``)."""
    fighters = setup.side(side).fighter_types
    return any(unit in fighters for unit, _, _ in state.side(side).space)
