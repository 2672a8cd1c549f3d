"""Ipswitch, Loose Cannon (Mentak hero, "Sleeper Cell"): at the start of a space combat, purge
it; then, for each of the opponent's ships destroyed during this combat, place a ship of that
type from your reinforcements in the active system (ti4-combat-effects.md §4; data/cards.toml;
docs/rulings.md 14B3-4).

Offered in the "start of combat" window of a space combat (ti4-space-combat.md rule 2.1;
procedures/windows.py). Once purged, each of the opponent's ships destroyed is heard through
``after_destroyed``: while hits are assigned (anti-fighter barrage, combat rounds, Direct Hit,
the Yin flagship: procedures/assign_hits.py) and in timing windows (Ambush, Assault Cannon, ...:
effects.py ``follow_ups``). The ship is placed at once, undamaged and free
(``units_placed``), as the Mentak's own unit of that type (a faction ship of the opponent gives
the generic one, a flagship the Mentak flagship: the holder's faction must then be set); it
fights from then on, and the combat goes on even if the Mentak had no ships left. No ship is
placed for a unit that is a ship only for the opponent, nor for a war sun unless the Mentak
player owns the War Sun technology (a war sun of theirs in the battle, or the player condition
``war_sun_technology``). Pieces (docs/rulings.md 14K-7): a piece outside the active system is
taken to be available; when every piece of the type is in the active system, a piece may be
taken from there only by a player without a command token in it (the defender, unless its
condition ``command_token_in_active_system`` says otherwise): taking a damaged one and placing
it undamaged repairs it (``unit_repaired``), else nothing changes. Ships the Crown of Thalnos
destroys in the Roll Dice step are heard there too (14RR-7). The stock policy plays it at the
first chance."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.core.errors import RuleNotImplemented, ScenarioError
from spacecombat.core.events import event
from spacecombat.core.forces import Status
from spacecombat.core.state import ships
from spacecombat.rulesets.ti4.abilities.base import Acts, Card, register
from spacecombat.rulesets.ti4.abilities.sustain_damage import ActsOnHits
from spacecombat.rulesets.ti4.hooks import Window
from spacecombat.rulesets.ti4.reinforcements import plastic
from spacecombat.rulesets.ti4.sides import SIDES, Side

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState


MENTAK = "mentak"
WAR_SUN = "war_sun"
#: player conditions (data/cards.toml)
WAR_SUN_TECHNOLOGY = "war_sun_technology"
TOKEN_HERE = "command_token_in_active_system"


def _owns_war_sun(setup: BattleSetup, side: Side) -> bool:
    """Whether ``side`` owns the War Sun technology: a war sun of its at the start of the
    battle, or the player condition saying so."""
    if WAR_SUN_TECHNOLOGY in setup.side(side).conditions:
        return True
    return bool(setup.initial.side(side).space.total(WAR_SUN.__eq__))


def _token_in_active_system(setup: BattleSetup, side: Side) -> bool:
    """Whether ``side`` has a command token in the active system (the active player has)."""
    return side is Side.ATTACKER or TOKEN_HERE in setup.side(side).conditions


@register
class IpswitchLooseCannon(ActsOnHits, Card):
    id = "ipswitch_loose_cannon"
    card = "ipswitch_loose_cannon"
    acts = Acts(frozenset({Window.START_OF_COMBAT}), battles=frozenset({"space"}), held=True)

    def acts_first_in_window(self) -> bool:
        return True  # before Ambush: ships destroyed before the purge are not replaced

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[Window]
    ) -> Node[BattleState] | None:
        if not all(ships(setup, state, s) for s in SIDES):
            return None

        def play(s: BattleState) -> Step[BattleState]:
            return Step(s)  # purged: from now on each enemy ship destroyed is replaced

        return self.offer(
            state,
            "Ipswitch, Loose Cannon: purge to place a ship for each enemy ship destroyed?",
            play,
        )

    def refusal(self, setup: BattleSetup) -> RuleNotImplemented | None:
        """A flagship of the opponent's could be replaced only by the Mentak flagship: its
        holder's faction must be set (a scenario error naming the field otherwise)."""
        owner = self.owner
        if owner is None or setup.kind != "space":
            return None
        enemy = owner.other
        if (
            setup.initial.side(enemy).space.total("flagship".__eq__)
            and setup.side(enemy).is_ship("flagship")
            and setup.side(owner).faction != MENTAK
        ):
            raise ScenarioError(
                f"{owner.value}.faction",
                "Ipswitch, Loose Cannon (the Mentak hero) places the Mentak flagship for a "
                f"flagship destroyed: set faction: {MENTAK}",
            )
        return None

    def idle_while_assigning(self, setup: BattleSetup, state: BattleState, side: Side) -> bool:
        """It hears of the opponent's ships destroyed only: while its owner assigns it answers
        ``None`` (``Handler.idle_while_assigning``)."""
        return side is self.owner

    def places_while_assigning(self, setup: BattleSetup, state: BattleState, side: Side) -> bool:
        """While the opponent assigns, ``after_destroyed`` reads of its owner's part the ships
        in the space area alone (the pieces left, a damaged one to repair) and changes them
        only by placing or repairing a ship there; it reads neither the owner's purse nor the
        hits against the owner (``Handler.places_while_assigning``, 24X-3)."""
        return side is not self.owner

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
        # a ship of the destroyed one's type (The Cavalry's ship is still a ship of its type)
        kind = setup.side(side).card(unit).type
        cards = setup.side(owner)
        if kind not in cards.cards or not cards.cards[kind].is_ship:
            return None  # a ship only for the opponent: nothing of that type to place
        if kind == WAR_SUN and not _owns_war_sun(setup, owner):
            return None  # no war sun without the War Sun technology (tirules.com Mentak note)
        current = state.side(owner)
        pieces = plastic(kind)  # data/components.toml (fighters have tokens: no limit; 27T-5)
        if pieces is not None and cards.count_of(current.space, kind) >= pieces:
            # every piece is in the active system: one may be taken from it only without a
            # command token there; placed undamaged (as a new ship of that type), a damaged
            # one is repaired (14K-7)
            damaged = [
                (u, st)
                for u, st, _ in current.space
                if cards.is_a(u, kind) and st != Status.UNDAMAGED
            ]
            if not damaged or _token_in_active_system(setup, owner):
                return None
            space = current.space.remove(*damaged[0]).add(kind)
            said = event("unit_repaired", player=owner.value, unit=kind, by=self.card)
            return Step(state.with_side(owner, current.with_space(space)), (said,))
        unit = kind
        placed = state.with_side(owner, current.with_space(current.space.add(unit)))
        said = event(
            "units_placed", player=owner.value, unit=unit, count=1, planet=None, by=self.card
        )
        return Step(placed, (said,))
