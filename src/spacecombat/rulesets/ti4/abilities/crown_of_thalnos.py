"""The Crown of Thalnos (base-game law, elect player; data/laws.toml): during each combat round
the elected player may reroll any number of their dice; each of their units that did not
produce a hit with its reroll is destroyed (ti4-combat-effects.md §7). No bonus on the rerolls
(the Prophecy of Kings relic that replaces it adds +1: ``crown_of_thalnos_relic``).

Asked in the "start of combat round" window of a space or ground combat (ti4-space-combat.md
rule 2.1, ti4-ground-combat.md 4.1) as a ``play_card`` decision naming the unit types whose
misses are rerolled ("play crown_of_thalnos: reroll cruiser, dreadnought"; facts
``card = "crown_of_thalnos"``). That round's combat roll then rerolls once every die of those
types that produced no hit (``DiceGroup.reroll``, ``doom``), and each unit whose rerolled dice
produced no hit is destroyed right after the roll, before the opponent rolls or hits are
assigned (procedures/combat_round.py ``roll_dice``: ``unit_destroyed``, cause
``"crown of thalnos"``). The stock policy rerolls the types whose reroll hits at least half the
time (docs/rulings.md 14C2-1). ANTI-FIGHTER BARRAGE dice are not offered. Dice another effect
rerolls this round (Munitions Reserves, Fire Team, War Funding) are rerolled by it first and by
the Crown last, on the misses left (``DiceGroup.dooming``; docs/rulings.md 14RR-1, 14RR-2).
Trade goods (the Hacan flagship) are spent after the Crown's reroll, and a unit whose die they
make hit is saved (14RR-11); units of several dice are then one group a unit (``_by_unit``;
docs/rulings.md 27V-2, 27V-3). One unit of a
type rolling 1 more die (Viscount Unlenn, Evelyn Delouis) is doomed as a group of its own
(14RR-12); other unequal dice are refused by name."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import replace
from fractions import Fraction
from itertools import combinations
from typing import TYPE_CHECKING, ClassVar

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.engine import Decision, Node, Step
from spacecombat.core.errors import RuleNotImplemented
from spacecombat.core.pool import DiceGroup
from spacecombat.rulesets.ti4.abilities.base import Acts, Handler, card_played, register
from spacecombat.rulesets.ti4.effects import arena, combat_pool
from spacecombat.rulesets.ti4.hooks import Window
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState

#: the ``boosts`` mark of a unit type whose misses are rerolled this round
MARK = "crown_of_thalnos:"
#: the options offered remembered per setup by the unit types' dice (``_offer``,
#: docs/architecture.md 24W-6); off: made afresh at each offer, the old way
#: (tests/ti4/test_crown_offer_remembered.py)
REMEMBER = True
_OFFER = "crown_of_thalnos.offer"
EFFECT = "crown_of_thalnos"


@register
class CrownOfThalnos(Handler):
    id = "crown_of_thalnos"
    #: added to the rerolled dice
    bonus: ClassVar[int] = 0
    #: whether a unit is destroyed when its rerolls produced no hit (the law), rather than when
    #: it produced no hit at all (the relic)
    strict: ClassVar[bool] = True
    name: ClassVar[str] = "The Crown of Thalnos"
    #: the law's or the card's id (``policy.play`` names it)
    card: ClassVar[str] = "crown_of_thalnos"
    acts = Acts(frozenset({Window.START_OF_COMBAT_ROUND}))
    #: the decision's "pass" changes nothing, and without the marks a "play" leaves (``MARK``)
    #: ``combat_roll`` changes no die: it acts only once played (``Handler.played_as``)
    played_as = card
    asks = card  # its play_card decisions (Handler.asks)
    #: on the stalemate check's paths it only marks the types whose misses are rerolled: the
    #: favoured side's dice all hit, and the other's roll loses no unit (docs/rulings.md 24Y-3)
    never_stalls = True

    def _types(self, setup: BattleSetup, state: BattleState, owner: Side) -> list[DiceGroup]:
        return [g for g in combat_pool(setup, state, owner).groups if g.mark_on is None]

    def _offer(
        self, groups: list[DiceGroup]
    ) -> tuple[tuple[Option, ...], tuple[tuple[str, str], ...]]:
        """The options offered for the unit types of ``groups`` (every set of them, the stock
        policy's first, and "pass": first when no type's reroll hits at least half the
        time), and each type's chance to hit with its reroll, the best first."""
        chance = {g.unit: replace(g, modifier=g.modifier + self.bonus).hit_chance for g in groups}
        units = sorted(chance, key=lambda u: (-chance[u], u))
        stock = tuple(u for u in units if chance[u] >= Fraction(1, 2))
        subsets = [c for size in range(len(units), 0, -1) for c in combinations(units, size)]
        subsets.sort(key=lambda c: c != stock)
        options = [
            Option(f"play {self.card}: reroll {', '.join(c)}", "play", target=",".join(c))
            for c in subsets
        ]
        passing = Option("pass", "pass")
        options.insert(0 if not stock else len(options), passing)
        return tuple(options), tuple((u, str(chance[u])) for u in units)

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[Window]
    ) -> Node[BattleState] | None:
        owner = self.player
        groups = self._types(setup, state, owner)
        if not groups:
            return None
        if REMEMBER:
            # a value of the unit types' dice alone (24W-6)
            key = (_OFFER, type(self), tuple(groups))
            options, chances = setup.remembered(key, lambda: self._offer(groups))
        else:
            options, chances = self._offer(groups)
        request = DecisionRequest(
            "play_card",
            owner.value,
            f"{self.name}: reroll the misses of which unit types this round "
            f"({'+1 on the rerolls; ' if self.bonus else ''}a unit whose "
            f"{'rerolls produce' if self.strict else 'dice produce'} no hit is destroyed)?",
            options,
            facts={
                "card": self.card,
                "round": state.round,
                "reroll_hit_chance": dict(chances),
            },
        )

        def then(option: Option) -> Step[BattleState]:
            if option.action != "play" or not option.target:
                return Step(state)
            chosen = state
            for unit in option.target.split(","):
                chosen = chosen.boosting(owner, MARK + unit)
            return Step(chosen, (card_played(owner, self.card, state.round),))

        return Decision(request, then)

    def roll_key(self, setup: BattleSetup, state: BattleState, roller: Side) -> Hashable:
        if roller is not self.owner:
            return None
        marks = state.boosts[0 if roller is Side.ATTACKER else 1]
        return tuple(sorted(m for m in marks if m.startswith(MARK)))

    def combat_roll(
        self,
        setup: BattleSetup,
        state: BattleState,
        roller: Side,
        groups: tuple[DiceGroup, ...],
    ) -> tuple[DiceGroup, ...]:
        chosen = self.roll_key(setup, state, roller)
        if not chosen:
            return groups
        assert isinstance(chosen, tuple)
        doomed = {mark[len(MARK) :] for mark in chosen}
        units = state.side(roller).area(arena(setup, state))
        changed = []
        for g in groups:
            if g.unit not in doomed or g.mark_on is not None:
                changed.append(g)
                continue
            count = units.count(g.unit)
            per, extra = divmod(g.dice, count) if count else (0, 2)
            if extra > 1:
                raise RuleNotImplemented(
                    f"{self.name} on units of one type rolling unequal dice",
                    f"{roller.value}'s {g.unit} in round {state.round}",
                )
            # one unit rolling 1 more die (Viscount Unlenn, Evelyn Delouis): a group of its own
            # (docs/rulings.md 14RR-12); after the rerolls of other effects, made first (14RR-2);
            # trade goods are spent after it (14RR-11)
            parts = [(g, per)] if not extra else [(replace(g, dice=per + 1), per + 1)]
            if extra and count > 1 and per:
                parts.append((replace(g, dice=g.dice - per - 1), per))
            for part, dice in parts:
                try:
                    changed += [
                        unit.dooming(self.bonus, dice, self.strict, EFFECT)
                        for unit in _by_unit(part, dice)
                    ]
                except ValueError as exc:
                    # a group no reroll of this kind can follow exactly (none found with the
                    # effects implemented: trade goods on dice with extra hits or marks are
                    # refused by the Hacan flagship's handler; units of several dice with trade
                    # goods are one group a unit, 27V-2, 27V-3): refused, naming why
                    raise RuleNotImplemented(
                        f"{self.name} on dice it cannot reroll exactly ({exc})",
                        f"{roller.value}'s {g.unit} in round {state.round}",
                    ) from None
        return tuple(changed)


def _by_unit(group: DiceGroup, per_unit: int) -> list[DiceGroup]:
    """``group`` (``per_unit`` dice to a unit) as the groups the Crown dooms: itself, or, when
    trade goods are spent on its roll (the Hacan flagship) and the Crown may destroy its units
    of several dice, one group a unit, so that the roll's tally tells which units are at risk
    and a trade good saves one of them first (docs/rulings.md 14RR-11, 27V-2, 27V-3)."""
    if not group.budget or per_unit < 2 or group.dice <= per_unit:
        return [group]
    return [replace(group, dice=per_unit)] * (group.dice // per_unit)
