"""Exotrireme II (Sardakk N'orr dreadnought upgrade): after a round of space combat, you may
destroy this unit to destroy up to 2 ships in its system (ti4-combat-effects.md;
data/units.toml). Offered in the "end of combat round" window of a space combat
(ti4-space-combat.md rule 9.1) as one "play_card" decision naming the Exotrireme given and the
enemy ships destroyed ("play sardakk_dreadnought2_sacrifice: destroy UNIT: UNIT and UNIT"); the
ships are destroyed, not hit (no SUSTAIN DAMAGE). The stock policy takes the dearest pair, and
uses it only when that pair costs at least the Exotrireme, or destroys every enemy ship while
it keeps another ship (docs/rulings.md 14B-4). With 2 or more Exotriremes II in the
fight, each may be given in the same window, one after the other: once one is given (and the
units destroyed are heard), the next is offered (a ``following`` entry of this handler's,
``follow_up``; docs/rulings.md 14K-6)."""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations_with_replacement
from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.core.forces import Status, describe
from spacecombat.rulesets.ti4.abilities.base import Acts, Card, register
from spacecombat.rulesets.ti4.effects import destroy_own, offer_choices, unit_value
from spacecombat.rulesets.ti4.hooks import FollowUp, Window

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side
    from spacecombat.rulesets.ti4.state import BattleState

CAUSE = "Exotrireme II"
UNIT = "dreadnought"

Act = Callable[["BattleState"], Step["BattleState"]]


@register
class SardakkDreadnought2Sacrifice(Card):
    id = "sardakk_dreadnought2_sacrifice"
    card = "sardakk_dreadnought2_sacrifice"
    acts = Acts(frozenset({Window.END_OF_COMBAT_ROUND}), battles=frozenset({"space"}))

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[Window]
    ) -> Node[BattleState] | None:
        return self._offer(setup, state)

    def follow_up(
        self, setup: BattleSetup, state: BattleState, side: Side, detail: str, where: int | None
    ) -> Node[BattleState] | None:
        """After one Exotrireme II was given: the next may be, in the same window."""
        return self._offer(setup, state)

    def _offer(self, setup: BattleSetup, state: BattleState) -> Node[BattleState] | None:
        owner = self.owner
        assert owner is not None
        space = state.side(owner).space
        cards = setup.side(owner)
        # The Cavalry's ship, if an Exotrireme II, is still one (docs/rulings.md 14CV-1)
        mine = [(u, st) for u, st, _ in space if cards.is_a(u, UNIT)]
        victim = owner.other
        theirs = state.side(victim).space
        ships = setup.side(victim).ship_types
        pool = [(u, st) for u, st, n in theirs if u in ships for _ in range(min(n, 2))]
        if not mine or not pool:
            return None
        again = FollowUp.own(self.id, owner)
        size = min(2, len(pool))
        kinds = sorted(set(pool), key=lambda t: (-unit_value(setup, victim, t[0]), t))
        sets = sorted(
            set(combinations_with_replacement(kinds, size)),
            key=lambda t: (-sum(unit_value(setup, victim, u) for u, _ in t), t),
        )
        sets = [t for t in sets if all(t.count(x) <= pool.count(x) for x in t)]

        def choice(
            given: tuple[str, Status], targets: tuple[tuple[str, Status], ...]
        ) -> tuple[str, Act]:
            def act(s: BattleState) -> Step[BattleState]:
                step = destroy_own(s, owner, *given, CAUSE)
                events = list(step.events)
                current = step.state
                for unit, status in targets:
                    step = destroy_own(current, victim, unit, status, CAUSE)
                    current = step.state
                    events += step.events
                if cards.count_of(current.side(owner).space, UNIT):  # another may be next
                    current = current.changed(following=(*current.following, again))
                return Step(current, tuple(events))

            named = " and ".join(describe(u, st) for u, st in targets)
            return f"destroy {describe(*given)}: {named}", act

        best = sets[0]
        worth = sum(unit_value(setup, victim, u) for u, _ in best) >= unit_value(setup, owner, UNIT)
        wipes = len(best) == theirs.total(ships.__contains__)
        keeps = space.total(setup.side(owner).ship_types.__contains__) > 1
        mine.sort(key=lambda t: t[1] is Status.UNDAMAGED)
        return offer_choices(
            self,
            state,
            "Exotrireme II: destroy it to destroy up to 2 enemy ships?",
            [choice(given, targets) for given in mine for targets in sets],
            once=False,
            pass_first=not (worth or (wipes and keeps)),
        )
