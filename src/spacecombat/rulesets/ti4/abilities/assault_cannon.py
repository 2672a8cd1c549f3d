"""Assault Cannon (red technology): at the start of a space combat in a system where its owner
has 3 or more non-fighter ships, the opponent must destroy 1 of their own non-fighter ships,
which one being their choice (ti4-combat-effects.md; data/technologies.toml). It acts in the
"start of combat" window (ti4-space-combat.md rule 2.1, round 1), before anti-fighter barrage;
the ship is destroyed, not hit, so SUSTAIN DAMAGE cannot save it. The choice is the opponent's
"assign_hit" decision with "destroy UNIT" options only (the stock policy follows its casualty
order). An opponent with only fighters loses nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.engine import Decision, Node, Step
from spacecombat.core.forces import Status, describe
from spacecombat.rulesets.ti4.abilities.base import Acts, Handler, register
from spacecombat.rulesets.ti4.effects import destroy_own
from spacecombat.rulesets.ti4.hooks import Window

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState

CAUSE = "Assault Cannon"


@register
class AssaultCannon(Handler):
    id = "assault_cannon"
    #: acts at the start of combat, before the first round's dice (product form kept)
    keeps_product_form = frozenset({"in_window"})
    acts = Acts(frozenset({Window.START_OF_COMBAT}), battles=frozenset({"space"}))

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[Window]
    ) -> Node[BattleState] | None:
        owner = self.player
        mine = setup.side(owner)
        big = state.side(owner).space.total(
            lambda u: u in mine.ship_types and u not in mine.fighter_types
        )
        if big < 3:
            return None
        victim = owner.other
        theirs = setup.side(victim)
        space = state.side(victim).space
        targets = [
            (u, st)
            for u, st, _ in space
            if u in theirs.ship_types and u not in theirs.fighter_types
        ]
        if not targets:
            return None
        options = tuple(Option(f"destroy {describe(u, st)}", "destroy", u, st) for u, st in targets)
        request = DecisionRequest(
            "assign_hit",
            victim.value,
            "Assault Cannon: destroy 1 of your non-fighter ships",
            options,
            facts={"hits": 1, "cause": CAUSE, "area": space},
        )

        def then(option: Option) -> Step[BattleState]:
            return destroy_own(state, victim, option.unit or "", Status(option.status or 0), CAUSE)

        return Decision(request, then)
