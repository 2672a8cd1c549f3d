"""Raid Formation (Argent faction ability): when your units use ANTI-FIGHTER BARRAGE, each hit
beyond the number of your opponent's fighters damages one of their ships that has SUSTAIN
DAMAGE, you choosing which (ti4-combat-effects.md §4; data/factions.toml).

It acts before the opponent assigns the barrage hits (``before_assign_hits``, cause
"anti-fighter barrage"; ti4-space-combat.md step 1): the hits beyond the opponent's fighters
each damage one of its undamaged ships with SUSTAIN DAMAGE (a damaged ship cannot become
damaged again). The Argent player chooses the set of ships in one "play_card" decision,
"play raid_formation: damage UNIT, ...", without "pass" (the ability is not optional), the
costliest set first (the stock policy takes it). The damage is not a use of SUSTAIN DAMAGE:
the ships become damaged, not "sustained this round" (docs/rulings.md 14D1-7). The
hits used so are taken off; the others go to the fighters as usual, and those left over are
lost. With Waylay played by the Argent player (its hits may be assigned to any ship:
``widens_barrage``) the hits beyond the fighters still damage ships, and then every hit of
the roll is assigned by the opponent to any of its ships (docs/rulings.md 27T-4): Raid
Formation is triggered by the count of those hits, it does not spend them."""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import TYPE_CHECKING

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.engine import Decision, Node, Step
from spacecombat.core.events import event
from spacecombat.core.forces import Status
from spacecombat.rulesets.ti4.abilities.base import Handler, register

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side
    from spacecombat.rulesets.ti4.state import BattleState

#: the cause of anti-fighter barrage hits (procedures/space_combat.py)
BARRAGE = "anti-fighter barrage"


@register
class RaidFormation(Handler):
    id = "raid_formation"
    asks = id  # its decisions are named by its id (Handler.asks)
    assigns_for = frozenset({BARRAGE})
    #: its owner's barrage hits damage the other side's ships: on the other's path the owner's
    #: barrage hits nothing (24AF-1)
    never_stalls_on = frozenset({"owner", "other"})

    def before_assign_hits(
        self, setup: BattleSetup, state: BattleState, side: Side, where: int | None, cause: str
    ) -> Node[BattleState] | None:
        owner = self.owner
        if owner is None or side is not owner.other or cause != BARRAGE or where is not None:
            return None
        cards = setup.side(side)
        space = state.side(side).space
        beyond = state.hits_on(side) - space.total(cards.is_fighter)
        if beyond <= 0:
            return None
        able = {
            unit: n
            for unit in space.types()
            if unit in cards.ship_types
            and unit in cards.sustainers
            and (n := space.count(unit, Status.UNDAMAGED))
        }
        if not able:
            return None
        pool = [unit for unit, n in sorted(able.items()) for _ in range(n)]
        picks = sorted(set(combinations_with_replacement(sorted(able), min(beyond, len(pool)))))
        picks = [p for p in picks if all(p.count(u) <= able[u] for u in set(p))]
        # the costliest ships first (the first option is the one a stock player would take)
        picks.sort(key=lambda p: (-sum(cards.card(u).cost or 0 for u in p), p))
        options = tuple(
            Option(f"play {self.id}: damage " + ", ".join(p), "play", target=",".join(p))
            for p in picks
        )
        widened = any(h.widens_barrage(setup, state, side) for h in setup.handlers)
        request = DecisionRequest(
            "play_card",
            owner.value,
            f"Raid Formation: {beyond} barrage hits beyond the fighters; damage which ships?",
            options,
            facts={"card": self.id, "round": state.round, "hits_beyond_fighters": beyond},
        )

        def then(option: Option) -> Step[BattleState]:
            chosen = (option.target or "").split(",")
            forces = space
            events = []
            for unit in chosen:
                forces = forces.move(unit, Status.UNDAMAGED, Status.DAMAGED)
                events.append(
                    event("unit_damaged", player=side.value, unit=unit, by="Raid Formation")
                )
            # the hits beyond the fighters have no other use and are spent; with Waylay the
            # hits may be assigned to any ship, so all of them are still assigned (27T-4)
            hits = state.hits_on(side) - (0 if widened else len(chosen))
            new = state.with_units_and_hits(side, None, forces, hits)
            return Step(new, tuple(events))

        return Decision(request, then)
