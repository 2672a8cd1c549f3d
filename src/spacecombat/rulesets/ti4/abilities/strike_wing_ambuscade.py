"""Strike Wing Ambuscade (Argent promissory note): when one or more of your units make a roll for a
unit ability, one of them rolls 1 additional die; the note is then returned, so once a battle
(data/cards.toml; ti4-combat-effects.md §5). As for Trrakan Aun Zulok, the die goes to the
firing unit likeliest to hit (``space_cannon.one_more_die``; docs/rulings.md
14D1-1), but only on the roll it is played for, by the holder's "play_card" decision just
before that roll. The stock policy plays it at the first useful roll (``policy.play`` may say
``never``; a scripted "pass" keeps it for a later roll):

- space cannon offense (``before_ability_roll``, procedures/space_cannon_offense.py): when the
  holder fires at the opponent's ships;
- anti-fighter barrage (``before_ability_roll``, procedures/space_combat.py): when the
  opponent has fighters in the space area or the hits may reach its other ships (Waylay);
- bombardment, at the start of the invasion (``at_invasion_start``) for the bombardment that
  follows (``bombardment_roll``, not the later ones of Harrow): when the holder's units roll at
  a planet there.

Played, a boost names the roll (``strike_wing_ambuscade:<roll>``) and that roll's dice get the
die from the state (``ability_roll``, ``bombardment_roll``). Refused by name (docs/rulings-
drafts/D3.md 14D3-3): a bombardment of several planets (which roll is unsettled) and space
cannon defense (the engine has no decision before that roll), each when the holder still holds
the note and would roll."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.core.errors import RuleNotImplemented
from spacecombat.core.state import ground_forces, ships
from spacecombat.rulesets.ti4.abilities.base import Card, Roll, register
from spacecombat.rulesets.ti4.abilities.space_cannon import cannon_pool, one_more_die
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.core.pool import DiceGroup
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState

SCO, AFB, BOMBARD = Roll.SPACE_CANNON_OFFENSE, Roll.ANTI_FIGHTER_BARRAGE, Roll.BOMBARDMENT


@register
class StrikeWingAmbuscade(Card):
    id = "strike_wing_ambuscade"
    card = "strike_wing_ambuscade"

    def _boost(self, roll: Roll) -> str:
        return f"{self.card}:{roll.value}"

    def _offer(self, state: BattleState, roll: Roll) -> Node[BattleState]:
        owner = self.owner
        assert owner is not None
        boost = self._boost(roll)
        return self.offer(
            state,
            f"Strike Wing Ambuscade: one of your units rolls 1 additional {roll.value} die?",
            lambda s: Step(s.boosting(owner, boost)),
            facts={"roll": roll.value},
        )

    def before_ability_roll(
        self, setup: BattleSetup, state: BattleState, roller: Side, roll: Roll
    ) -> Node[BattleState] | None:
        if roller is not self.owner or roll not in (SCO, AFB) or not self.held(state):
            return None
        opponent = roller.other
        if roll is SCO:
            from spacecombat.rulesets.ti4.procedures.space_cannon_offense import offense_pool

            if not ships(setup, state, opponent):
                return None
            groups = offense_pool(setup, state, roller).groups
        else:
            from spacecombat.rulesets.ti4.abilities.anti_fighter_barrage import barrage_roll

            fighters = setup.side(opponent).fighter_types
            widened = any(h.widens_barrage(setup, state, opponent) for h in setup.handlers)
            if not widened and not any(u in fighters for u in state.side(opponent).space.types()):
                return None  # its hits would be lost
            groups = barrage_roll(setup, state, roller).groups
        if one_more_die(groups) == groups:
            return None  # no unit fires
        return self._offer(state, roll)

    def ability_roll(
        self,
        setup: BattleSetup,
        state: BattleState,
        roller: Side,
        roll: Roll,
        groups: tuple[DiceGroup, ...],
    ) -> tuple[DiceGroup, ...]:
        if roller is not self.owner or not state.boosted(roller, self._boost(roll)):
            return groups
        return one_more_die(groups)

    def at_invasion_start(self, setup: BattleSetup, state: BattleState) -> Node[BattleState] | None:
        owner = self.owner
        if owner is not Side.ATTACKER or not self.held(state):
            return None
        from spacecombat.rulesets.ti4.abilities.bombardment import (
            bombardment_dice,
            bombardment_forbidden,
        )
        from spacecombat.rulesets.ti4.abilities.planetary_shield import stops_bombardment

        rolling = [
            p
            for p in range(len(setup.planets))
            if ground_forces(setup, state, owner.other, p)
            and bombardment_forbidden(setup, p) is None
            and not stops_bombardment(setup, state, owner.other, p)
            and (
                (groups := bombardment_dice(setup, state, owner, p, setup.bombarded_by[p]).groups)
                and one_more_die(groups) != groups
            )
        ]
        if not rolling:
            return None
        if len(rolling) > 1:
            raise RuleNotImplemented(
                "Strike Wing Ambuscade with BOMBARDMENT of several planets",
                "attacker.promissory_notes (strike_wing_ambuscade)",
            )
        return self._offer(state, BOMBARD)

    def bombardment_roll(
        self,
        setup: BattleSetup,
        state: BattleState,
        roller: Side,
        planet: int,
        groups: tuple[DiceGroup, ...],
    ) -> tuple[DiceGroup, ...]:
        if state.round or not groups:
            return groups  # a bombardment during a ground combat (Harrow): not this one
        return self.ability_roll(setup, state, roller, BOMBARD, groups)

    def after_commit(
        self, setup: BattleSetup, state: BattleState, planet: int
    ) -> Node[BattleState] | None:
        owner = self.owner
        if owner is not Side.DEFENDER or not self.held(state):
            return None
        if not ground_forces(setup, state, owner.other, planet):
            return None
        firing = state.side(owner).planet(planet)
        groups = cannon_pool(setup, owner, firing, Roll.SPACE_CANNON_DEFENSE).groups
        if one_more_die(groups) != groups:
            raise RuleNotImplemented(
                "Strike Wing Ambuscade on a SPACE CANNON defense roll",
                "defender.promissory_notes (strike_wing_ambuscade)",
            )
        return None
