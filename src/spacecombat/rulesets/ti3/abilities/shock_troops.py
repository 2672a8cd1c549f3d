"""Shock Troops (Shattered Empire option ``shock_troops``; ti3-facts.md section 8): at the end
of an invasion combat round, a ground force that rolled a natural 10 may be promoted to a
Shock Troop, if a token is left; a Shock Troop must always be with at least one regular
ground force, or it reverts to one. (That Shock Troops are taken as casualties first is in
procedures/common.py.)"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.engine import Decision, Node, Step
from spacecombat.core.events import Event, event
from spacecombat.core.forces import Forces, Status
from spacecombat.core.sides import Side

if TYPE_CHECKING:
    from spacecombat.rulesets.ti3.setup import Ti3Setup
    from spacecombat.rulesets.ti3.state import Ti3State


def most(setup: Ti3Setup, state: Ti3State, side: Side) -> int:
    """How many of ``side``'s ground forces may be promoted now: no more than the natural 10s
    rolled, the tokens left, and the ground forces less one (one must stay regular)."""
    if not setup.options.shock_troops:
        return 0
    units = state.side(side)
    in_play = sum(f.count("shock_troop") for f in (units.space, *units.planets))
    tokens = max(0, setup.options.shock_troop_tokens - in_play)
    regular = units.planet(state.planet).count("ground_force")
    return max(0, min(state.tens_of(side), tokens, regular - 1))


def _revert(side: Side, planet: Forces) -> tuple[Forces, tuple[Event, ...]]:
    """Shock Troops without a regular ground force revert to ground forces."""
    shock = planet.count("shock_troop")
    if not shock or planet.count("ground_force"):
        return planet, ()
    reverted = planet.remove("shock_troop", Status.UNDAMAGED, shock).add(
        "ground_force", count=shock
    )
    return reverted, (event("shock_troops_reverted", player=side.value, count=shock),)


def revert_all(state: Ti3State, p: int) -> tuple[Ti3State, tuple[Event, ...]]:
    """Both players' lone Shock Troops on planet ``p`` revert (before combat rounds begin)."""
    events: tuple[Event, ...] = ()
    for side in (Side.ATTACKER, Side.DEFENDER):
        planet, reverted = _revert(side, state.side(side).planet(p))
        if reverted:
            state = state.with_side(side, state.side(side).with_planet(p, planet))
            events = (*events, *reverted)
    return state, events


def promote(
    setup: Ti3Setup, state: Ti3State, proceed: Callable[[Ti3State], Step[Ti3State]]
) -> Node[Ti3State]:
    """The attacker's promotions, then the defender's (``state.turn``), then ``proceed``."""
    side = state.turn
    p = state.planet

    def onward(after: Ti3State, events: tuple[Event, ...] = ()) -> Step[Ti3State]:
        planet, reverted = _revert(side, after.side(side).planet(p))
        after = after.with_side(side, after.side(side).with_planet(p, planet))
        events = (*events, *reverted)
        if side is Side.ATTACKER:
            return Step(after.changed(turn=Side.DEFENDER), events)
        nxt = proceed(after.changed(turn=Side.ATTACKER))
        return Step(nxt.state, (*events, *nxt.events))

    top = most(setup, state, side)
    if top == 0:
        return onward(state)
    request = DecisionRequest(
        decision="promote_shock_troops",
        player=side.value,
        prompt=f"{state.tens_of(side)} natural 10s: promote how many ground forces?",
        options=tuple(
            Option(f"promote {k}", "promote", "ground_force", count=k) for k in range(top + 1)
        ),
        facts={"tens": state.tens_of(side)},
    )

    def then(option: Option) -> Step[Ti3State]:
        k = option.count
        planet = state.side(side).planet(p)
        if k:
            planet = planet.remove("ground_force", Status.UNDAMAGED, k).add("shock_troop", count=k)
        after = state.with_side(side, state.side(side).with_planet(p, planet))
        said = (event("shock_troops_promoted", player=side.value, count=k),) if k else ()
        return onward(after, said)

    return Decision(request, then)
