"""Experimental Battlestation (action card): after another player moves ships into a system
during a tactical action, one of your space docks in or next to that system uses SPACE CANNON
5 (x3) against the ships in the active system (ti4-combat-effects.md §7; data/cards.toml).

Played by the defender (the active player moved the ships in) when the movement ends, before
any space cannon offense roll (``before_ability_roll`` on the active player's turn, after the
active player's own cards such as Solar Flare); it then fires at once, before the active
player's space cannon offense (``extra_ability_roll``,
``space_cannon_offense.extra_cannon_roll``), and the active player assigns its hits. It is a
SPACE CANNON roll: Plasma Scoring, Antimass Deflectors, Solar Flare, Maneuvering Jets and the
Argent flagship act on it as on any. The space dock is one of the defender's units in the
active system, or, next to it, the player condition ``space_dock_adjacent`` (data/cards.toml)
says so; without either the card is not offered (docs/rulings.md 14D1-8)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.core.pool import DiceGroup, DicePool
from spacecombat.core.state import ships
from spacecombat.rulesets.ti4.abilities.base import Card, Roll, register
from spacecombat.rulesets.ti4.abilities.space_cannon import forbidden
from spacecombat.rulesets.ti4.effects import changed_pool, extra_cannon_roll
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState

#: the space dock's SPACE CANNON 5 (x3)
HIT, DICE = 5, 3
DOCK = "space_dock"
#: the player condition (data/cards.toml) of a space dock in a system next to the active one
ADJACENT_DOCK = "space_dock_adjacent"
#: a boost set on the holder once the dock has fired
FIRED = "experimental_battlestation_fired"


@register
class ExperimentalBattlestation(Card):
    id = "experimental_battlestation"
    card = "experimental_battlestation"

    def _groups(self, setup: BattleSetup) -> tuple[DiceGroup, ...]:
        owner = self.owner
        assert owner is not None
        modifier = setup.modifier(owner, Roll.SPACE_CANNON_OFFENSE, DOCK)
        return (DiceGroup(DOCK, DICE, HIT, modifier),)

    def _may_fire(self, setup: BattleSetup, state: BattleState, roller: Side) -> bool:
        owner = self.owner
        if owner is not Side.DEFENDER or roller is not owner.other:
            return False
        if setup.kind != "space" or ships(setup, state, roller) == 0:
            return False
        mine = state.side(owner)
        docked = bool(mine.space.plus(mine.planets[0]).count(DOCK)) or (
            ADJACENT_DOCK in setup.side(owner).conditions
        )
        return docked and not forbidden(setup, owner, Roll.SPACE_CANNON_OFFENSE)

    def may_be_played(
        self, setup: BattleSetup, state: BattleState, roller: Side, roll: Roll
    ) -> bool:
        """Whether the card may be played now, before ``roller``'s ``roll``, and its dock
        could fire (also asked by Graviton Laser System, offered before the dock fires)."""
        owner = self.owner
        if (
            owner is None
            or roll is not Roll.SPACE_CANNON_OFFENSE
            or not self.held(state)
            or not self._may_fire(setup, state, roller)
        ):
            return False
        # Solar Flare played: the dock could not fire
        return bool(
            changed_pool(setup, state, owner, DicePool.of(list(self._groups(setup)))).groups
        )

    def before_ability_roll(
        self, setup: BattleSetup, state: BattleState, roller: Side, roll: Roll
    ) -> Node[BattleState] | None:
        if not self.may_be_played(setup, state, roller, roll):
            return None

        def play(s: BattleState) -> Step[BattleState]:
            return Step(s)

        return self.offer(
            state, "Experimental Battlestation: your space dock fires SPACE CANNON 5 (x3)?", play
        )

    def extra_ability_roll(
        self, setup: BattleSetup, state: BattleState, roller: Side, roll: Roll
    ) -> Node[BattleState] | None:
        owner = self.owner
        if (
            owner is None
            or roll is not Roll.SPACE_CANNON_OFFENSE
            or not state.has_used(owner, self.card)
            or state.boosted(owner, FIRED)
            or not self._may_fire(setup, state, roller)
        ):
            return None
        return extra_cannon_roll(setup, state, owner, self._groups(setup), FIRED)
