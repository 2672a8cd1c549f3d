"""Empyrean flagship (Dynamo): after any player's unit in its system or an adjacent system uses
SUSTAIN DAMAGE, you may spend 2 influence to repair that unit (data/units.toml;
ti4-combat-effects.md, flagships). While the flagship is in the active system's space area,
its owner is asked right after each SUSTAIN DAMAGE of one of their own units there (any hits;
space area or planet), if they still have 2 influence (the purse): a "play_card" decision
naming this ability ("play empyrean_flagship_repair" / "pass"), which the stock policy plays.
The repaired unit is undamaged and may sustain damage again, even against the next hit of
the same assignment. The opponent's units are not offered (docs/rulings.md
14A-13)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.engine import Decision, Node, Step
from spacecombat.core.events import event
from spacecombat.core.forces import Status
from spacecombat.rulesets.ti4.abilities.base import register
from spacecombat.rulesets.ti4.abilities.sustain_damage import ActsOnHits

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side
    from spacecombat.rulesets.ti4.state import BattleState

FLAGSHIP = "flagship"
COST = 2


@register
class EmpyreanFlagshipRepair(ActsOnHits):
    id = "empyrean_flagship_repair"
    asks = id  # its decisions are named by its id (Handler.asks)
    #: it repairs its owner's units only, for its owner's influence, as Duranium Armor
    #: (24AF-2)
    never_stalls_for_owner = True

    def idle_while_assigning(self, setup: BattleSetup, state: BattleState, side: Side) -> bool:
        """It repairs its owner's units only, for influence, which is only ever spent in a
        battle: while the opponent assigns, or with less influence left than the repair costs,
        it answers ``None`` (``Handler.idle_while_assigning``)."""
        return side is not self.owner or state.wealth(side)[1] < COST

    def blind_while_assigning(self, setup: BattleSetup, state: BattleState, side: Side) -> bool:
        """While its owner assigns, it reads the flagship's presence, the unit that just
        sustained, the round and its owner's influence; played, it repairs that unit and spends
        the influence: nothing of the opponent's part nor the hits against the opponent
        (``Handler.blind_while_assigning``; 24Z-2)."""
        return True

    def after_sustain(
        self, setup: BattleSetup, state: BattleState, side: Side, where: int | None, cause: str
    ) -> Node[BattleState] | None:
        owner = self.owner
        if side is not owner or not setup.side(owner).count_of(state.side(owner).space, FLAGSHIP):
            return None
        if state.wealth(owner)[1] < COST:
            return None
        unit = state.sustained[-1]
        area = state.side(side).area(where)
        status = Status.SUSTAINED_THIS_ROUND
        if not area.count(unit, status):
            status = Status.DAMAGED
            if not area.count(unit, status):
                return None  # destroyed meanwhile (Direct Hit)
        options = (Option(f"play {self.id}", "play", target=self.id), Option("pass", "pass"))
        request = DecisionRequest(
            "play_card",
            side.value,
            f"Empyrean flagship: spend {COST} influence to repair your {unit}?",
            options,
            facts={"card": self.id, "round": state.round, "unit": unit},
        )

        def then(option: Option) -> Step[BattleState]:
            if option.action != "play":
                return Step(state)
            current = state.side(side)
            repaired = current.with_area(where, area.move(unit, status, Status.UNDAMAGED))
            paid = state.spending(side, influence=COST).with_side(side, repaired)
            done = event("unit_repaired", player=side.value, unit=unit, by="Empyrean flagship")
            return Step(paid, (done,))

        return Decision(request, then)
