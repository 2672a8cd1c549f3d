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
  a planet there;
- space cannon defense (``before_ability_roll``, procedures/invasion.py
  ``space_cannon_defense``): the defender's roll at a planet where ground forces landed
  (docs/rulings.md 14K-2).

Played, a boost names the roll (``strike_wing_ambuscade:<roll>``; for a bombardment or a space
cannon defense roll, also its planet: ``...:<roll>:<planet>``) and that roll's dice get the
die from the state (``ability_roll``, ``bombardment_roll``). A bombardment of several planets
is several rolls, one per planet: the holder chooses the planet whose roll gets the die (a way
of playing per planet, ``play strike_wing_ambuscade: at PLANET``; the stock policy takes the
first listed; docs/rulings.md 14K-2)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.core.state import ships
from spacecombat.rulesets.ti4.abilities.anti_fighter_barrage import barrage_roll
from spacecombat.rulesets.ti4.abilities.base import Card, Roll, offer_plays, register
from spacecombat.rulesets.ti4.abilities.bombardment import bombarded_planets
from spacecombat.rulesets.ti4.abilities.space_cannon import one_more_die
from spacecombat.rulesets.ti4.effects import defense_pool, offense_pool
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.core.pool import DiceGroup
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState

SCO, AFB, BOMBARD = Roll.SPACE_CANNON_OFFENSE, Roll.ANTI_FIGHTER_BARRAGE, Roll.BOMBARDMENT
SCD = Roll.SPACE_CANNON_DEFENSE


@register
class StrikeWingAmbuscade(Card):
    id = "strike_wing_ambuscade"
    card = "strike_wing_ambuscade"

    def _boost(self, roll: Roll, planet: int | None = None) -> str:
        where = "" if planet is None else f":{planet}"
        return f"{self.card}:{roll.value}{where}"

    def _boosting(
        self, owner: Side, roll: Roll, planet: int | None = None
    ) -> Callable[[BattleState], Step[BattleState]]:
        boost = self._boost(roll, planet)
        return lambda s: Step(s.boosting(owner, boost))

    def _offer(
        self, state: BattleState, roll: Roll, planet: int | None = None
    ) -> Node[BattleState]:
        owner = self.owner
        assert owner is not None
        return self.offer(
            state,
            f"Strike Wing Ambuscade: one of your units rolls 1 additional {roll.value} die?",
            self._boosting(owner, roll, planet),
            facts={"roll": roll.value},
        )

    def before_ability_roll(
        self, setup: BattleSetup, state: BattleState, roller: Side, roll: Roll
    ) -> Node[BattleState] | None:
        if roller is not self.owner or roll not in (SCO, AFB, SCD) or not self.held(state):
            return None
        opponent = roller.other
        if roll is SCD:
            groups = defense_pool(setup, state, state.planet).groups
            if one_more_die(groups) == groups:
                return None  # no unit fires
            return self._offer(state, roll, planet=state.planet)
        if roll is SCO:
            if not ships(setup, state, opponent):
                return None
            groups = offense_pool(setup, state, roller).groups
        else:
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
        planet = state.planet if roll is SCD else None
        if roller is not self.owner or not state.boosted(roller, self._boost(roll, planet)):
            return groups
        return one_more_die(groups)

    def at_invasion_start(self, setup: BattleSetup, state: BattleState) -> Node[BattleState] | None:
        owner = self.owner
        if owner is not Side.ATTACKER or not self.held(state):
            return None
        rolling = [
            p
            for p, pool in bombarded_planets(setup, state)
            if one_more_die(pool.groups) != pool.groups
        ]
        if not rolling:
            return None
        if len(setup.planets) == 1:
            return self._offer(state, BOMBARD, planet=0)
        return offer_plays(
            owner,
            self.card,
            state,
            "Strike Wing Ambuscade: which planet's bombardment roll gets 1 additional die?",
            [(f"at {setup.planets[p]}", self._boosting(owner, BOMBARD, p)) for p in rolling],
        )

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
        if roller is not self.owner or not state.boosted(roller, self._boost(BOMBARD, planet)):
            return groups
        return one_more_die(groups)
