"""Reveal Prototype (action card, PoK): "At the start of a combat: Spend 4 resources to research a
unit upgrade technology of the same type as 1 of your units that is participating in this
combat." (data/cards.toml; ti4-combat-effects.md §6.)

Played in the "start of combat" window of a space combat (ti4-space-combat.md rule 2.1, before
anti-fighter barrage) or of a ground combat (ti4-ground-combat.md rule 4.1), through one
``play_card`` decision naming the unit type (``play reveal_prototype: cruiser``). Offered only
for a type of the holder's units participating in that combat (ships in the space area,
fighters included; ground forces on the planet) whose card the holder has not upgraded yet and
whose upgrade's prerequisites the holder's technologies meet (``technology_colours``; each
readied planet with a technology specialty, ``technology_specialties``, ignores one of its
colour: docs/rulings.md 27T-6), and
only while the holder can pay 4: the resources of its planets (``resources``) first, then
trade goods. The upgrade researched is the one of the holder's card for that type (a faction
unit's own upgrade: Sardakk's Exotrireme II); it is gained for the rest of the battle
(``BattleState.gaining``, ``upgrade:UNIT``), so from this window on every procedure reads the
upgraded card (``BattleSetup.having``). The stock policy plays it for the type whose upgrade
adds most expected hits (``gain``), and passes when none adds any. docs/rulings.md 14R-1..6.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.core.events import Event, event
from spacecombat.rulesets.setup import side_spec
from spacecombat.rulesets.ti4.abilities.base import Acts, Card, offer_plays, register
from spacecombat.rulesets.ti4.effects import arena
from spacecombat.rulesets.ti4.hooks import Window
from spacecombat.rulesets.ti4.rules import UPGRADE, load, upgraded_card
from spacecombat.scenario.schema import TechnologyColours

if TYPE_CHECKING:
    from spacecombat.core.rulesdata import UnitDef
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side
    from spacecombat.rulesets.ti4.state import BattleState

CARD = "reveal_prototype"
#: what researching with the card costs, in resources (trade goods count as resources)
COST = 4
#: the Nekro Virus cannot research technology (Propagation): the card researches nothing
CANNOT_RESEARCH = frozenset({"nekro"})
#: the letters of upgrade_tech_prereqs (units.toml) and the colours they name
_PREREQUISITE = {"B": "blue", "G": "green", "R": "red", "Y": "yellow"}


def upgrade_of(card: UnitDef) -> UnitDef | None:
    """The card ``card`` becomes with its unit upgrade technology, or ``None`` if it has none
    (already upgraded, or a unit without an upgrade): the card its ``upgrades_to`` names, or
    for a faction unit replacing a generic card, the faction's card replacing that generic
    card's upgrade (Exotrireme I, which replaces the Dreadnought I: Exotrireme II, which
    replaces the Dreadnought II)."""
    data = load()
    if card.upgrades_to is not None:
        return data.units[card.upgrades_to]
    if card.faction is None or card.replaces is None:
        return None
    upgraded = data.units[card.replaces].upgrades_to
    if upgraded is None:
        # a faction unit whose generic card has no upgrade (the war sun): the faction's other
        # card of that type with prerequisites (Prototype War Sun II)
        found = upgraded_card(data, card.faction, card.type)
        return found if found is not None and found.id != card.id else None
    for unit in data.units.values():
        if unit.faction == card.faction and unit.replaces == upgraded:
            return unit
    return None


def prerequisites_met(
    upgrade: UnitDef, colours: dict[str, int], specialties: dict[str, int] | None = None
) -> bool:
    """Whether a player owning ``colours`` technologies of each colour meets the prerequisites
    of ``upgrade`` (one technology of a colour per letter: "GYR" needs a green, a yellow and a
    red one; rules reference 90.11), each of its ``specialties`` (readied planets with a
    technology specialty of a colour) ignoring one prerequisite of its colour (90.12)."""
    needed: dict[str, int] = {}
    for letter in upgrade.upgrade_tech_prereqs or "":
        colour = _PREREQUISITE[letter]
        needed[colour] = needed.get(colour, 0) + 1
    ignored = specialties or {}
    return all(
        colours.get(colour, 0) + ignored.get(colour, 0) >= count for colour, count in needed.items()
    )


def _expected(roll: object) -> Fraction:
    """Expected hits of one roll of a unit (``dice`` dice hitting on ``hit`` or more), from its
    printed values (modifiers apply to both cards alike)."""
    dice, hit = getattr(roll, "dice", None), getattr(roll, "hit", None)
    if dice is None or hit is None:
        return Fraction(0)
    return Fraction(dice * min(10, max(0, 11 - hit)), 10)


def gain(card: UnitDef, upgrade: UnitDef, count: int, barrage: bool) -> Fraction:
    """What researching ``upgrade`` adds, in expected hits of one combat round, for ``count``
    units with ``card``: their combat rolls, and (``barrage``: the opponent has fighters in a
    space combat) their ANTI-FIGHTER BARRAGE. Exact, so that equal gains tie."""
    per_unit = _expected(upgrade.combat) - _expected(card.combat)
    if barrage:
        per_unit += _expected(upgrade.anti_fighter_barrage) - _expected(card.anti_fighter_barrage)
    return count * per_unit


@register
class RevealPrototype(Card):
    id = CARD
    card = CARD
    acts = Acts(frozenset({Window.START_OF_COMBAT}), held=True)
    #: it upgrades its owner's unit cards only, none the worse, paying with its owner's
    #: resources: on its owner's path it adds at most to their dice (24AF-2)
    never_stalls_for_owner = True

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[Window]
    ) -> Node[BattleState] | None:
        owner = self.player
        cards = setup.side(owner)
        if cards.faction in CANNOT_RESEARCH:
            return None
        spec = side_spec(setup.scenario, owner)
        resources = spec.resources or 0
        if resources + state.wealth(owner)[0] < COST:
            return None
        assert spec.technology_colours is not None  # a holder must give it (cards.toml needs)
        colours = spec.technology_colours.model_dump()
        specialties = (spec.technology_specialties or TechnologyColours()).model_dump()
        where = arena(setup, state)
        participating = cards.ship_types if where is None else cards.ground_force_types
        area = state.side(owner).area(where)
        enemy = state.side(owner.other).space
        fighters = setup.side(owner.other).fighter_types
        barrage = where is None and enemy.total(fighters.__contains__) > 0
        ranked: list[tuple[Fraction, int, str, UnitDef]] = []
        for unit, count in area.by_type().items():
            if unit not in participating or count == 0:
                continue
            card = cards.card(unit)
            upgrade = upgrade_of(card)
            if upgrade is None or not prerequisites_met(upgrade, colours, specialties):
                continue
            ranked.append((gain(card, upgrade, count, barrage), count, unit, upgrade))
        if not ranked:
            return None
        ranked.sort(key=lambda r: (-r[0], -r[1], r[2]))

        def research(unit: str, upgrade: UnitDef) -> Callable[[BattleState], Step[BattleState]]:
            def act(s: BattleState) -> Step[BattleState]:
                from_resources = min(resources, COST)
                trade_goods = COST - from_resources
                paid = s.spending(owner, trade_goods=trade_goods) if trade_goods else s
                done = paid.gaining(owner, UPGRADE + unit)
                return Step(
                    done, _events(owner, s.round, from_resources, trade_goods, unit, upgrade)
                )

            return act

        return offer_plays(
            owner,
            CARD,
            state,
            f"Reveal Prototype: spend {COST} resources (trade goods count) to research the unit "
            "upgrade of one of your unit types in this combat",
            [(unit, research(unit, upgrade)) for _, _, unit, upgrade in ranked],
            pass_first=ranked[0][0] <= 0,
            watcher=self.watcher,
        )


def _events(
    owner: Side, round_number: int, resources: int, trade_goods: int, unit: str, upgrade: UnitDef
) -> tuple[Event, ...]:
    """What playing the card did: resources and trade goods spent, the upgrade researched."""
    out: list[Event] = []
    if resources:
        out.append(
            event(
                "resources_spent",
                player=owner.value,
                resources=resources,
                by=CARD,
                round=round_number,
            )
        )
    if trade_goods:
        out.append(
            event(
                "trade_goods_spent",
                player=owner.value,
                trade_goods=trade_goods,
                by=CARD,
                round=round_number,
            )
        )
    out.append(
        event(
            "technology_gained",
            player=owner.value,
            technology=f"upgrade:{unit}",
            name=upgrade.name,
            unit=unit,
            by=CARD,
            round=round_number,
        )
    )
    return tuple(out)
