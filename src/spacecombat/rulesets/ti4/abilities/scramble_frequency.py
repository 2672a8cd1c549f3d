"""Scramble Frequency (action card): after another player makes a BOMBARDMENT, SPACE CANNON or
ANTI-FIGHTER BARRAGE roll, that player rerolls all of those dice (data/cards.toml;
ti4-combat-effects.md §6).

Anti-fighter barrage (ti4-space-combat.md step 1): offered to the holder right after the
opponent's barrage roll, before its results are used (``after_ability_roll``, procedures/
space_combat.py), when the roll produced a hit or destroys infantry (Strike Wing Alpha II
marks); the stock policy plays it then (``policy.play`` may say ``never``). Played, the roll is
discarded and the opponent rolls the same dice again (``anti_fighter_barrage.REROLL``): its
results are the second roll's. The decision is taken seeing the first roll's hits, so the
outcome is exact (docs/rulings.md 14D3-4).

A barrage that rerolled its own misses (Munitions Reserves, Ta Zern, War Funding) is rolled
again as a whole, and that result is final: the roller's own rerolls were made right after its
first roll (``ability_roll`` keeps them off the second; docs/rulings.md 14RR-9). Refused by
name (14D3-4), while the holder still holds the card: the opponent's SPACE CANNON (offense,
defense, Experimental Battlestation) and BOMBARDMENT rolls, after which the engine asks no
decision yet."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.core.errors import RuleNotImplemented
from spacecombat.core.state import ground_forces, ships
from spacecombat.rulesets.ti4.abilities.anti_fighter_barrage import REROLL
from spacecombat.rulesets.ti4.abilities.base import Card, Roll, register
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.core.pool import DiceGroup
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState

#: the card whose roll (the defender's, before space cannon offense) is a SPACE CANNON roll
BATTLESTATION = "experimental_battlestation"


@register
class ScrambleFrequency(Card):
    id = "scramble_frequency"
    card = "scramble_frequency"

    def _refuse(self, what: str) -> RuleNotImplemented:
        owner = self.owner
        assert owner is not None
        return RuleNotImplemented(
            f"Scramble Frequency against {what}", f"{owner.value}.action_cards (scramble_frequency)"
        )

    def after_ability_roll(
        self, setup: BattleSetup, state: BattleState, roller: Side, roll: Roll, marks: int
    ) -> Node[BattleState] | None:
        owner = self.owner
        if owner is None or roller is not owner.other or roll is not Roll.ANTI_FIGHTER_BARRAGE:
            return None
        hits = state.hits_on(owner)
        if not self.held(state) or not (hits or marks):
            return None
        return self.offer(
            state,
            f"Scramble Frequency: the {roller.value}'s anti-fighter barrage produced {hits} "
            "hit(s); make them reroll all of those dice?",
            lambda s: Step(s.boosting(roller, REROLL)),
            facts={"hits": hits, "roll": roll.value},
        )

    def ability_roll(
        self,
        setup: BattleSetup,
        state: BattleState,
        roller: Side,
        roll: Roll,
        groups: tuple[DiceGroup, ...],
    ) -> tuple[DiceGroup, ...]:
        owner = self.owner
        if owner is None or roller is not owner.other or roll is not Roll.ANTI_FIGHTER_BARRAGE:
            return groups
        if not state.has_used(owner, self.card):
            return groups
        # the dice rolled again for the card: that result is final, the roller's own rerolls
        # (Munitions Reserves, Ta Zern, War Funding) were made after the first roll (14RR-9)
        return tuple(replace(g, reroll=None, before=(), rerollable=False) for g in groups)

    def before_ability_roll(
        self, setup: BattleSetup, state: BattleState, roller: Side, roll: Roll
    ) -> Node[BattleState] | None:
        owner = self.owner
        if owner is None or roll is not Roll.SPACE_CANNON_OFFENSE or not self.held(state):
            return None
        if not ships(setup, state, owner):
            return None
        if roller is owner:
            # the defender's Experimental Battlestation fires before the attacker's roll
            if any(
                h.id == BATTLESTATION
                and h.owner is owner.other
                and not state.has_used(h.owner, h.id)
                for h in setup.handlers
            ):
                raise self._refuse("an Experimental Battlestation SPACE CANNON roll")
            return None
        from spacecombat.rulesets.ti4.procedures.space_cannon_offense import offense_pool

        if offense_pool(setup, state, roller).groups:
            raise self._refuse("a SPACE CANNON offense roll")
        return None

    def at_invasion_start(self, setup: BattleSetup, state: BattleState) -> Node[BattleState] | None:
        owner = self.owner
        if owner is not Side.DEFENDER or not self.held(state):
            return None
        from spacecombat.rulesets.ti4.abilities.bombardment import (
            bombardment_dice,
            bombardment_pool,
        )

        planets = range(len(setup.planets))
        if not any(ground_forces(setup, state, owner, p) for p in planets):
            return None
        bombarder = owner.other
        space = state.side(bombarder).space
        # the units allotted to each planet (Blitz included), and any unit that may bombard
        # later (Harrow)
        if (
            any(
                bombardment_dice(setup, state, bombarder, p, setup.bombarded_by[p]).groups
                for p in planets
            )
            or bombardment_pool(setup, bombarder, space, space.by_type()).groups
        ):
            raise self._refuse("a BOMBARDMENT roll")
        return None

    def after_commit(
        self, setup: BattleSetup, state: BattleState, planet: int
    ) -> Node[BattleState] | None:
        owner = self.owner
        if owner is not Side.ATTACKER or not self.held(state):
            return None
        if not ground_forces(setup, state, owner, planet):
            return None
        from spacecombat.rulesets.ti4.abilities.space_cannon import cannon_pool

        firing = state.side(owner.other).planet(planet)
        if cannon_pool(setup, owner.other, firing, Roll.SPACE_CANNON_DEFENSE).groups:
            raise self._refuse("a SPACE CANNON defense roll")
        return None
