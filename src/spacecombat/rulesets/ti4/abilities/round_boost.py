"""Cards and exhaustible technologies played at the start of a combat round whose effect lasts
that round (Morale Boost, Supercharge, Fighter Prototype): one pattern, written once.

Played in the "start of combat round" window (ti4-space-combat.md rule 2.1; ti4-ground-combat.md
rule 4.1) through the holder's ``play_card`` decision, and only when it can change something
(``worth``); while it acts (the round's ``boosts``), ``boost`` changes the holder's combat
roll."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import replace
from typing import TYPE_CHECKING, ClassVar

from spacecombat.core.engine import Node, Step
from spacecombat.rulesets.ti4.abilities.base import (
    Acts,
    Card,
    Handler,
    Roll,
    offer_plays,
    rerolling_misses,
)
from spacecombat.rulesets.ti4.effects import combat_dice, combat_pool
from spacecombat.rulesets.ti4.hooks import Window
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.core.pool import DiceGroup
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState


class StopsRolls(Handler):
    """An effect its owner plays in the "start of combat round" window so that the opponent
    makes no combat roll that round (Magen Defense Grid)."""

    def will_stop_rolls(self, setup: BattleSetup, state: BattleState) -> bool:
        """Whether, still to act in this window, it will be offered and its owner's stock
        policy (its ``policy.play``) will play it."""
        raise NotImplementedError


def rolls_stopped(setup: BattleSetup, state: BattleState, owner: Side) -> bool:
    """Whether an opponent's effect still to act in this "start of combat round" window will
    leave ``owner`` no combat roll this round (``StopsRolls``): a card whose whole effect is
    on ``owner``'s combat roll this round is then worthless, and ``owner``'s stock policy
    passes it (its ``play_card`` decision lists "pass" first; docs/rulings.md 27T-2). In a
    window the attacker's effects act before the defender's (procedures/windows.py
    ``_window_order``), so only the defender's are still to act when the attacker is asked;
    an effect already played has taken the dice away, and the card is not offered."""
    if owner is not Side.ATTACKER:
        return False
    return any(
        isinstance(h, StopsRolls) and h.owner is owner.other and h.will_stop_rolls(setup, state)
        for h in setup.handlers
    )


def stock_plays(setup: BattleSetup, state: BattleState, owner: Side, card: str) -> bool:
    """Whether ``owner``'s stock policy plays ``card`` when offered in this round (its
    ``policy.play``: not ``never``, nor a later round; core/policies.py ``_play_card``)."""
    when = dict(setup.side(owner).policy.play).get(card)
    if isinstance(when, int):
        return state.round >= when
    return when != "never"


class RoundBoost(Card):
    """A card whose effect on its holder's combat roll lasts the round it is played in."""

    #: the question asked of the holder
    prompt: ClassVar[str]
    acts = Acts(frozenset({Window.START_OF_COMBAT_ROUND}), held=True)
    #: its ``boost`` only adds to its holder's dice (Morale Boost, Supercharge +1, Fighter
    #: Prototype +2 to fighters) for the round it is played in: on the stalemate check's paths
    #: it keeps no combat from ending (docs/rulings.md 24Y-3, 24AC-3)
    never_stalls = True

    def worth(self, setup: BattleSetup, state: BattleState, owner: Side) -> bool:
        """Whether playing it now can change something (default: the holder rolls dice)."""
        return combat_dice(setup, state, owner) > 0

    def boost(
        self, setup: BattleSetup, roller: Side, groups: tuple[DiceGroup, ...]
    ) -> tuple[DiceGroup, ...]:
        """The holder's roll while the card acts."""
        raise NotImplementedError

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[Window]
    ) -> Node[BattleState] | None:
        owner = self.player
        if not self.worth(setup, state, owner):
            return None

        def play(s: BattleState) -> Step[BattleState]:
            return Step(s.boosting(owner, self.card))

        return self.offer(state, self.prompt, play, pass_first=rolls_stopped(setup, state, owner))

    def roll_key(self, setup: BattleSetup, state: BattleState, roller: Side) -> Hashable:
        return state.boosted(roller, self.card)

    def combat_roll(
        self,
        setup: BattleSetup,
        state: BattleState,
        roller: Side,
        groups: tuple[DiceGroup, ...],
    ) -> tuple[DiceGroup, ...]:
        if roller is not self.owner or not state.boosted(roller, self.card):
            return groups
        return self.boost(setup, roller, groups)


def plus(
    groups: tuple[DiceGroup, ...], modifier: int, units: frozenset[str] | None = None
) -> tuple[DiceGroup, ...]:
    """``groups`` with ``modifier`` added to each die (of ``units`` only, when given)."""
    return tuple(
        replace(g, modifier=g.modifier + modifier) if units is None or g.unit in units else g
        for g in groups
    )


class RerollsThisRound(Handler):
    """While its round boost (its ``id`` in the round's ``boosts``) acts, its owner's combat
    dice reroll their misses once (the stock choice: every miss; ``base.rerolling_misses``),
    and, with ``barrage``, the dice of the round's anti-fighter barrage too (Munitions Reserves,
    War Funding, Fire Team)."""

    #: the effect's name in a refusal
    reroller: ClassVar[str]
    #: whether the first round's anti-fighter barrage rerolls too (it is rolled in that round)
    barrage: ClassVar[bool] = False

    def roll_key(self, setup: BattleSetup, state: BattleState, roller: Side) -> Hashable:
        return roller is self.owner and state.boosted(roller, self.id)

    def combat_roll(
        self,
        setup: BattleSetup,
        state: BattleState,
        roller: Side,
        groups: tuple[DiceGroup, ...],
    ) -> tuple[DiceGroup, ...]:
        if not self.roll_key(setup, state, roller):
            return groups
        return rerolling_misses(groups, self.reroller)

    def ability_roll(
        self,
        setup: BattleSetup,
        state: BattleState,
        roller: Side,
        roll: Roll,
        groups: tuple[DiceGroup, ...],
    ) -> tuple[DiceGroup, ...]:
        if not self.barrage or roll is not Roll.ANTI_FIGHTER_BARRAGE:
            return groups
        return self.combat_roll(setup, state, roller, groups)


class ExtraDieThisRound(Card):
    """An agent exhausted at the start of a combat round so that one of its holder's unit types
    in the combat rolls 1 additional die that round (Viscount Unlenn in a space combat, Evelyn
    Delouis in a ground combat): one ``play_card`` decision naming the type, the likeliest to
    hit first (which the stock policy takes); the die is added to that type's group for the
    round (its ``boosts`` entry ``CARD:UNIT``)."""

    #: the battle whose combat rounds it is played in ("space" or "invasion")
    battle: ClassVar[str]
    #: the question asked of the holder
    prompt: ClassVar[str]
    #: what comes before the unit in an option's label ("play CARD: LABELUNIT")
    label: ClassVar[str] = ""
    acts = Acts(frozenset({Window.START_OF_COMBAT_ROUND}), held=True)
    #: its die is added to its holder's dice for the round only (Viscount Unlenn, Evelyn
    #: Delouis): on the stalemate check's paths it keeps no combat from ending (24AF-2)
    never_stalls = True

    def _boost(self, unit: str) -> str:
        return f"{self.card}:{unit}"

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[Window]
    ) -> Node[BattleState] | None:
        owner = self.player
        if setup.kind != self.battle:
            return None
        groups = combat_pool(setup, state, owner).groups
        if not groups:
            return None

        def extra(unit: str) -> Callable[[BattleState], Step[BattleState]]:
            return lambda s: Step(s.boosting(owner, self._boost(unit)))

        best_first = sorted(groups, key=lambda g: (g.hit_on, g.unit))
        choices = [(f"{self.label}{g.unit}", extra(g.unit)) for g in best_first]
        stopped = rolls_stopped(setup, state, owner)
        return offer_plays(owner, self.card, state, self.prompt, choices, pass_first=stopped)

    def roll_key(self, setup: BattleSetup, state: BattleState, roller: Side) -> Hashable:
        if roller is not self.owner:
            return None
        prefix = f"{self.card}:"
        return frozenset(
            e for e in state.boosts[0 if roller is Side.ATTACKER else 1] if e.startswith(prefix)
        )

    def combat_roll(
        self,
        setup: BattleSetup,
        state: BattleState,
        roller: Side,
        groups: tuple[DiceGroup, ...],
    ) -> tuple[DiceGroup, ...]:
        if roller is not self.owner:
            return groups
        return tuple(
            replace(g, dice=g.dice + 1) if state.boosted(roller, self._boost(g.unit)) else g
            for g in groups
        )
