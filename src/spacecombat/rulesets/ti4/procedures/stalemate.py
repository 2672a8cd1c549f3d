"""Combats that can never end.

ti4-space-combat-wiki.md FAQ: if neither side can possibly win (e.g. Non-Euclidean Shielding
with Duranium Armor), the attacker must retreat, and if it cannot, its units in the combat are
destroyed. We test this at each Announce Retreats step (docs/rulings.md R20): a side "can win"
if the combat ends when that side hits with every die and the other side never hits, each
player deciding as its stock policy would. Since more hits never help the side that takes
them, if even that path never ends (its round-start states repeat), nothing can end it.
"""

from __future__ import annotations

from collections.abc import Callable

from spacecombat.core.battle import RulesetBattle
from spacecombat.core.policies import StockPolicy
from spacecombat.core.sides import SideState
from spacecombat.core.stalemate import PathCheck, favoured_path
from spacecombat.rulesets.ti4.abilities.base import acts_in_rounds
from spacecombat.rulesets.ti4.effects import combat_pool
from spacecombat.rulesets.ti4.procedures import stalemate_bounded, stalemate_paths
from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.sides import SIDES, Side
from spacecombat.rulesets.ti4.state import BattleState, Phase

_check: PathCheck[tuple[SideState, SideState, int]] = PathCheck("simulating")

#: whether a check from a state met on a favoured path that ended is answered from that path
#: (``_neither``, 24W-5); off: every check follows its own paths, the old way
#: (tests/ti4/test_stalemate_ended_paths.py)
ON_ENDED_PATHS = True

#: whether a check in a battle whose handlers acting in the rounds all declare they never keep
#: a combat from ending (``Handler.never_stalls``) is answered as without handlers where a side
#: has a die that can hit (``_neither``, docs/rulings.md 24Y-3); off: its paths are followed,
#: the old way (tests/ti4/test_stalemate_never_stalls.py)
DECLARED = True
#: whether a setup's handlers acting in the rounds are found once per setup (``_acting``,
#: 24Z-4); off: at each check, the old way (tests/ti4/test_stalemate_acting_remembered.py)
REMEMBER = True

#: the battle of a setup (battle.py ``Ti4Battle``), whose steps the path is followed through:
#: the battle dispatches to the procedures, so they cannot import it; battle.py hands it over
#: when it is loaded (``played_by``)
_BATTLE: list[Callable[[BattleSetup], RulesetBattle[BattleSetup, BattleState]]] = []


def played_by(battle: Callable[[BattleSetup], RulesetBattle[BattleSetup, BattleState]]) -> None:
    """The battle whose steps ``neither_can_win`` follows (battle.py, once loaded)."""
    _BATTLE[:] = [battle]


def neither_can_win(setup: BattleSetup, state: BattleState) -> bool:
    """Whether no sequence of dice can end the current combat."""
    if _check.running:
        return False
    if not _acting(setup):
        # Hits only ever take units away: a side with a die that can hit wins on the path
        # where it always hits and the other never does. Only two sides that cannot hit at all
        # are stuck (their dice would need more than 10).
        return all(combat_pool(setup, state, side).max_hits == 0 for side in SIDES)
    key = (state.attacker, state.defender, state.planet)
    return _check.answer(setup, key, lambda: _neither(setup, state))


def _acting(setup: BattleSetup) -> bool:
    """Whether a handler in play may change what happens during the combat rounds
    (``acts_in_rounds``): a value of the setup alone, found once for it (24Z-4: asked at each
    check, a twentieth of no. 51's CPU of the faction mix)."""
    if not REMEMBER:
        return any(acts_in_rounds(h) for h in setup.handlers)
    return setup.remembered(
        ("stalemate", "acting in rounds"), lambda: any(acts_in_rounds(h) for h in setup.handlers)
    )


def _neither(setup: BattleSetup, state: BattleState) -> bool:
    """Whether neither side's favoured path from ``state`` ends: not when ``state`` itself was
    met on a path that ended (the path from it is that path's rest, 24W-5), nor where a side
    has a die that can hit and no handler acting in the rounds may keep its path from ending
    (24Y-3: its path ends as without handlers, ``_never_stalling``)."""
    if ON_ENDED_PATHS and state in _ended(setup):
        return False
    if DECLARED and any(
        (_never_stalling(setup, side) and combat_pool(setup, state, side).max_hits > 0)
        or stalemate_bounded.ends_where_all_hit(setup, state, side)
        for side in SIDES
    ):
        return False
    return not any(_can_end(setup, state, s) for s in SIDES)


def _never_stalling(setup: BattleSetup, favoured: Side) -> bool:
    """Whether every handler in play acting in the rounds declares it never keeps a combat from
    ending (``Handler.never_stalls``), or not on its owner's path where ``favoured`` is its
    owner (``Handler.never_stalls_for_owner``): on ``favoured``'s path its units and dice are
    then as the plain rules leave them, each of its rounds takes at least one hit point (a
    unit, or a SUSTAIN DAMAGE) from the other side, which nothing gives back, so the path
    ends wherever it has a die that can hit (24Y-3); the same where a handler declares it
    keeps ``favoured``'s path ending (``Handler.never_stalls_on``, stalemate_paths.py, 24AF-1)."""

    def declared() -> bool:
        return all(
            type(h).never_stalls
            or (type(h).never_stalls_for_owner and h.owner is favoured)
            or stalemate_paths.passed_over(setup, h, favoured)
            for h in setup.handlers
            if acts_in_rounds(h)
        )

    return setup.remembered(("stalemate", "never stalls", favoured), declared)


def _ended(setup: BattleSetup) -> set[BattleState]:
    """The states, at a phase a check began at, met after the first on favoured paths that
    ended (``_can_end``), in the battle of ``setup``: a path is the same from each of them on
    (the battle's steps and the stock policies decide it from the state alone)."""
    return setup.remembered(("stalemate", "ended paths"), set)


def _can_end(setup: BattleSetup, state: BattleState, favoured: Side) -> bool:
    battle = _BATTLE[0](setup)
    policies = {side.value: StockPolicy(setup.side(side).policy) for side in SIDES}
    seen: set[tuple[SideState, SideState]] = set()
    start_planet = state.planet
    met: list[BattleState] = []  # after the first, at its phase and planet
    for current in favoured_path(battle.advance, state, favoured.value, policies):
        if current.phase is Phase.END_OF_ROUND:
            key = (current.attacker, current.defender)
            if key in seen:
                return False
            seen.add(key)
        if setup.kind == "invasion" and (
            current.planet != start_planet or current.phase in (Phase.ESTABLISH_CONTROL, Phase.OVER)
        ):
            _ended(setup).update(met)
            return True
        if current is not state and current.phase is state.phase and current.planet == start_planet:
            met.append(battle.canonical(current))  # (as the explorer meets it)
    _ended(setup).update(met)
    return True
