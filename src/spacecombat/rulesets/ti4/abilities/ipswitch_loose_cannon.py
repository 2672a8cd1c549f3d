"""Ipswitch, Loose Cannon (Mentak hero, "Sleeper Cell"): at the start of a space combat, purge
it; then, for each of the opponent's ships destroyed during this combat, place a ship of that
type from your reinforcements in the active system (ti4-combat-effects.md §4; data/cards.toml;
docs/rulings.md 14B3-4).

Offered in the "start of combat" window of a space combat (ti4-space-combat.md rule 2.1;
procedures/windows.py). Once purged, each of the opponent's ships destroyed is heard through
``after_destroyed``: while hits are assigned (anti-fighter barrage, combat rounds, Direct Hit,
the Yin flagship: procedures/assign_hits.py) and in timing windows (Ambush, Assault Cannon, ...:
procedures/windows.py ``_follow_destroyed``). The ship is placed at once, undamaged and free
(``units_placed``), as the Mentak's own unit of that type (a faction ship of the opponent gives
the generic one, a flagship the Mentak flagship); it fights from then on, and the combat goes
on even if the Mentak had no ships left. No ship is placed for a unit that is a ship only for
the opponent, nor when every piece of that type is already in the active system (the
attacker's command token is there: LRR 23.4a forbids taking one from it). What the scenario
cannot tell is refused by name (14B3-4). The stock policy plays it at the first chance."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.core.errors import RuleNotImplemented
from spacecombat.core.events import event
from spacecombat.core.state import ships
from spacecombat.rulesets.ti4.abilities.base import Card, register
from spacecombat.rulesets.ti4.abilities.sustain_damage import ActsOnHits
from spacecombat.rulesets.ti4.sides import SIDES, Side

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState

#: the window it is played in (procedures/windows.py)
START_OF_COMBAT = "start_of_combat"

#: the pieces of each ship type a player has (TI4 components; fighters have tokens: no limit)
PIECES = {"war_sun": 2, "dreadnought": 5, "cruiser": 8, "carrier": 4, "destroyer": 8, "flagship": 1}

#: handlers that destroy the holder's opponent's ships where no handler hears of it (a unit
#: rerolled in vain in the Roll Dice step: procedures/combat_round.py)
_UNHEARD = {
    "crown_of_thalnos": "The Crown of Thalnos",
    "crown_of_thalnos_relic": "The Crown of Thalnos",
}


def _count(state: BattleState, side: Side, unit: str) -> int:
    return state.side(side).space.total(unit.__eq__)


@register
class IpswitchLooseCannon(ActsOnHits, Card):
    id = "ipswitch_loose_cannon"
    card = "ipswitch_loose_cannon"

    def acts_first_in_window(self) -> bool:
        return True  # before Ambush: ships destroyed before the purge are not replaced

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[str]
    ) -> Node[BattleState] | None:
        owner = self.owner
        if owner is None or START_OF_COMBAT not in windows or not self.held(state):
            return None
        if setup.kind != "space" or not all(ships(setup, state, s) for s in SIDES):
            return None
        self._refuse_unknowns(setup, state, owner)

        def play(s: BattleState) -> Step[BattleState]:
            return Step(s)  # purged: from now on each enemy ship destroyed is replaced

        return self.offer(
            state,
            "Ipswitch, Loose Cannon: purge to place a ship for each enemy ship destroyed?",
            play,
        )

    def _refuse_unknowns(self, setup: BattleSetup, state: BattleState, owner: Side) -> None:
        """Refuse by name what the battle cannot decide faithfully (14B3-4)."""
        enemy = owner.other
        where = f"{owner.value}'s Ipswitch, Loose Cannon"
        for handler in setup.handlers:
            name = _UNHEARD.get(handler.id)
            if name is not None and handler.owner is enemy:
                raise RuleNotImplemented(
                    f"Ipswitch, Loose Cannon with {name} (ships destroyed unheard)", where
                )
        if _count(state, enemy, "war_sun") and not _count(state, owner, "war_sun"):
            raise RuleNotImplemented(
                "Ipswitch, Loose Cannon replacing a war sun (whether the Mentak player owns "
                "the War Sun technology is not in the scenario)",
                where,
            )
        if _count(state, enemy, "flagship") and "flagship" not in setup.side(owner).cards:
            raise RuleNotImplemented(
                "Ipswitch, Loose Cannon replacing a flagship without the Mentak faction set",
                where,
            )
        if owner is Side.DEFENDER:
            for unit, pieces in PIECES.items():
                if _count(state, owner, unit) + _count(state, enemy, unit) > pieces:
                    raise RuleNotImplemented(
                        f"Ipswitch, Loose Cannon for a defender that may run out of {unit} "
                        "pieces (taking one from the active system depends on a command "
                        "token the scenario does not state)",
                        where,
                    )

    def after_destroyed(
        self,
        setup: BattleSetup,
        state: BattleState,
        side: Side,
        where: int | None,
        unit: str,
        cause: str,
    ) -> Node[BattleState] | None:
        owner = self.owner
        if owner is None or side is not owner.other or where is not None or self.held(state):
            return None
        if unit not in setup.side(side).ship_types:
            return None
        mine = setup.side(owner).cards
        if unit not in mine or not mine[unit].is_ship:
            return None  # a ship only for the opponent: nothing of that type to place
        pieces = PIECES.get(unit)
        if pieces is not None and _count(state, owner, unit) >= pieces:
            return None  # every piece is in the active system, under the command token
        current = state.side(owner)
        placed = state.with_side(owner, current.with_space(current.space.add(unit)))
        said = event(
            "units_placed", player=owner.value, unit=unit, count=1, planet=None, by=self.card
        )
        return Step(placed, (said,))
