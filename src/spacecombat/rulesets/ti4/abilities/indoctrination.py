"""Indoctrination (Yin faction ability): at the start of a ground combat, you may spend 2
influence to replace 1 of your opponent's participating infantry with 1 infantry from your
reinforcements (ti4-combat-effects.md §3; data/factions.toml). With the Yin mech's DEPLOY
(yin_mech_deploy.py) 1 more influence places a mech instead.

Offered through "play_card" in the "start of combat" window of each ground combat
(ti4-ground-combat.md rule 4.1, note 1; a faction ability is not exhausted) when the opponent
has infantry on the planet and the owner can pay: influence, or trade goods in its place (a
trade good may be spent as one influence), influence first (docs/rulings.md
14D2-6; ``influence_spent``, ``trade_goods_spent``). The opponent's infantry is removed
(``unit_removed``), the owner's unit placed (``units_placed``). Reinforcements are not
counted: one unit is taken to be available (14D2-5)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.core.events import Event, event
from spacecombat.core.forces import Status
from spacecombat.rulesets.ti4.abilities.base import INVASION_ONLY, Acts, Handler, register
from spacecombat.rulesets.ti4.abilities.invasion_effects import offer_ways, units_placed
from spacecombat.rulesets.ti4.abilities.yin_mech_deploy import YinMechDeploy
from spacecombat.rulesets.ti4.hooks import Window
from spacecombat.rulesets.ti4.reinforcements import in_reinforcements

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side
    from spacecombat.rulesets.ti4.state import BattleState

INFANTRY, MECH = "infantry", "mech"
#: influence it costs, and what the Yin mech's DEPLOY adds
COST, MECH_COST = 2, 1


def pay(
    state: BattleState, side: Side, influence: int, by: str
) -> tuple[BattleState, tuple[Event, ...]]:
    """``state`` with ``side`` having spent ``influence``: its influence first, then trade
    goods in its place; with the events that say so."""
    held = state.wealth(side)[1]
    from_influence = min(held, influence)
    from_goods = influence - from_influence
    events: list[Event] = []
    if from_influence:
        events.append(
            event(
                "influence_spent",
                player=side.value,
                influence=from_influence,
                by=by,
                round=state.round,
            )
        )
    if from_goods:
        events.append(
            event(
                "trade_goods_spent",
                player=side.value,
                trade_goods=from_goods,
                by=by,
                round=state.round,
            )
        )
    return state.spending(side, trade_goods=from_goods, influence=from_influence), tuple(events)


def can_pay(state: BattleState, side: Side, influence: int) -> bool:
    return sum(state.wealth(side)) >= influence


@register
class Indoctrination(Handler):
    id = "indoctrination"
    battles = INVASION_ONLY  # offered at the start of a ground combat (24AJ-1)
    card = "indoctrination"
    asks = card  # its play_card decisions (Handler.asks)
    acts = Acts(frozenset({Window.START_OF_COMBAT}), battles=frozenset({"invasion"}))

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[Window]
    ) -> Node[BattleState] | None:
        owner = self.player
        planet = state.planet
        opponent = owner.other
        if not state.side(opponent).planet(planet).count(INFANTRY, Status.UNDAMAGED):
            return None
        deploys = any(isinstance(h, YinMechDeploy) and h.owner is owner for h in setup.handlers)
        ways: list[tuple[str, str | None]] = []
        # DEPLOY needs a mech in reinforcements (27T-5); infantry have tokens
        mech_left = in_reinforcements(setup, state, owner, MECH) != 0
        if deploys and mech_left and can_pay(state, owner, COST + MECH_COST):
            ways.append(("with mech", MECH))
        if can_pay(state, owner, COST):
            ways.append(("", INFANTRY))
        if not ways:
            return None
        name = setup.planets[planet]

        def play(s: BattleState, unit: str | None) -> Step[BattleState]:
            placed = unit or INFANTRY
            s, spent = pay(s, owner, COST + (MECH_COST if placed == MECH else 0), self.id)
            theirs = s.side(opponent)
            theirs = theirs.with_planet(
                planet, theirs.planet(planet).remove(INFANTRY, Status.UNDAMAGED)
            )
            mine = s.side(owner)
            mine = mine.with_planet(planet, mine.planet(planet).add(placed))
            return Step(
                s.with_side(opponent, theirs).with_side(owner, mine),
                (
                    *spent,
                    event(
                        "unit_removed",
                        player=opponent.value,
                        unit=INFANTRY,
                        reason="replaced by Indoctrination",
                    ),
                    units_placed(owner, placed, 1, name, self.id),
                ),
            )

        return offer_ways(
            owner,
            self.card,
            state,
            "Indoctrination: spend 2 influence to replace 1 opposing infantry with yours?",
            ways,
            play,
            exhaust=False,
        )
