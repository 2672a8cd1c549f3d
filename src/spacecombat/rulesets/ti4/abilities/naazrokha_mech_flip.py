"""Eidolon / Z-Grav Eidolon (Naaz-Rokha mech; data/units.toml ``naazrokha_mech`` and
``naazrokha_mech_space``): an Eidolon in the space area of the active system at the start of a
space combat flips to Z-Grav Eidolon (combat 8 x2, no SUSTAIN DAMAGE), which there is also a
ship; at the end of the space battle it flips back (docs/rulings.md 14N-2).

The flipped side is a unit type of its own, ``zgrav_eidolon``, whose card is the data's
``naazrokha_mech_space`` (added by the setup while the mech card has this ability: not under
Articles of War). In the "start of combat" window (ti4-space-combat.md rule 2.1), first among
its owner's handlers since it is mandatory, every mech in the owner's space area flips, keeping
its damage; Z-Gravs then fight, count as ships and may be assigned hits. Once the combat's
result is decided (procedures/space_combat.py ``end_of_combat``: a player left only with Z-Gravs
has ships and wins), they flip back to mechs, before units with no ships to carry them are
removed and capacity is checked (note 13). The Naaz-Rokha flagship's extra die for the owner's
mechs in its system applies to Z-Gravs too (``combat_roll``). docs/rulings.md 14S-3."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from spacecombat.core.engine import Node
from spacecombat.core.rulesdata import UnitDef
from spacecombat.rulesets.ti4.abilities.base import Acts, Handler, register
from spacecombat.rulesets.ti4.effects import change_units
from spacecombat.rulesets.ti4.hooks import Window
from spacecombat.rulesets.ti4.rules import load

if TYPE_CHECKING:
    from spacecombat.core.pool import DiceGroup
    from spacecombat.rulesets.ti4.rules import Ti4Data
    from spacecombat.rulesets.ti4.setup import BattleSetup, SideDraft
    from spacecombat.rulesets.ti4.sides import Side
    from spacecombat.rulesets.ti4.state import BattleState
    from spacecombat.scenario.schema import Scenario

ID = "naazrokha_mech_flip"
MECH = "mech"
#: the flipped side's unit type, and its data card
ZGRAV = "zgrav_eidolon"
FLIPPED_CARD = "naazrokha_mech_space"
FLAGSHIP = "flagship"
FLAGSHIP_DIE = "naazrokha_flagship_mech_extra_die"


def flipped_cards(data: Ti4Data, cards: Mapping[str, UnitDef]) -> dict[str, UnitDef]:
    """The flipped side's unit type, for a side whose mech card flips (else none)."""
    mech = cards.get(MECH)
    if mech is None or not any(a.handler == ID for a in mech.abilities):
        return {}
    return {ZGRAV: data.units[FLIPPED_CARD]}


@register
class NaazrokhaMechFlip(Handler):
    id = ID
    acts = Acts(frozenset({Window.START_OF_COMBAT}), battles=frozenset({"space"}))

    def set_up_side(self, scenario: Scenario, draft: SideDraft) -> SideDraft:
        """In a space battle, the flipped side's unit type for a side whose mech card flips."""
        if scenario.battle != "space" or draft.side is not self.owner:
            return draft
        flipped = flipped_cards(load(), draft.cards)
        return replace(draft, cards={**draft.cards, **flipped}) if flipped else draft

    def acts_first_in_window(self) -> bool:
        return True

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[Window]
    ) -> Node[BattleState] | None:
        owner = self.player
        if ZGRAV not in setup.side(owner).cards:
            return None
        return change_units(state, owner, lambda u: ZGRAV if u == MECH else None, ID)

    def at_end_of_combat(self, setup: BattleSetup, state: BattleState) -> Node[BattleState] | None:
        owner = self.owner
        if owner is None:
            return None

        def back(unit: str) -> str | None:
            return MECH if unit == ZGRAV else None

        return change_units(state, owner, back, ID)

    def roll_key(self, setup: BattleSetup, state: BattleState, roller: Side) -> Hashable:
        return roller is self.owner and self._flagship_die(setup, state)

    def combat_roll(
        self,
        setup: BattleSetup,
        state: BattleState,
        roller: Side,
        groups: tuple[DiceGroup, ...],
    ) -> tuple[DiceGroup, ...]:
        if roller is not self.owner or setup.kind != "space":
            return groups
        if not self._flagship_die(setup, state):
            return groups
        # a Z-Grav is still a mech, also as The Cavalry's ship (docs/rulings.md 14CV-5)
        space, cards = state.side(roller).space, setup.side(roller)
        return tuple(
            replace(g, dice=g.dice + space.count(g.unit)) if cards.is_a(g.unit, MECH) else g
            for g in groups
        )

    def _flagship_die(self, setup: BattleSetup, state: BattleState) -> bool:
        """Whether the owner's Naaz-Rokha flagship is in the space area, its ability in play (its
        mechs in its system roll 1 more die during combat: a Z-Grav is still a mech)."""
        owner = self.owner
        assert owner is not None
        in_play = setup.remembered(
            ("naazrokha_flagship_in_play", owner),
            lambda: any(h.id == FLAGSHIP_DIE and h.owner is owner for h in setup.handlers),
        )
        return in_play and bool(setup.side(owner).count_of(state.side(owner).space, FLAGSHIP))
