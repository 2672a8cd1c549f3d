"""SPACE CANNON: a unit with the ability rolls its dice at the opponent's ships (space cannon
offense, before space combat) or at ground forces committed to its planet (space cannon
defense, during an invasion). The owner of the units hit assigns the hits (docs/rulings.md R1,
R10). Combat-roll modifiers do not apply; space cannon modifiers do (Antimass Deflectors).

Handlers may forbid the roll (``forbids_unit_ability``: L4 Disruptors, the Argent flagship), add
dice fired by a planet (``cannon_groups``: I.I.H.Q. Modernization, Ul the Progenitor) or change
its dice (``ability_dice``: Plasma Scoring), from the setup alone."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from spacecombat.core.forces import Forces
from spacecombat.core.pool import DiceGroup, DicePool
from spacecombat.rulesets.ti4.abilities.base import Roll
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup


def cannon_pool(setup: BattleSetup, side: Side, units: Forces, roll: Roll) -> DicePool:
    """The space cannon dice of ``units`` (one side's, in the system or on the planet)."""
    return setup.remembered(
        ("cannon_pool", side, units, roll), lambda: _pool(setup, side, units, roll)
    )


def _pool(setup: BattleSetup, side: Side, units: Forces, roll: Roll) -> DicePool:
    if forbidden(setup, side, roll):
        return DicePool(())
    cards = setup.side(side)
    groups = []
    for unit, count in units.by_type().items():
        cannon = cards.card(unit).space_cannon
        if cannon is not None:
            modifier = setup.modifier(side, roll, unit)
            groups.append(DiceGroup(unit, count * cannon.dice, cannon.hit, modifier))
    for handler in setup.handlers:
        groups.extend(handler.cannon_groups(setup, side, roll))
    return DicePool.of(list(ability_dice(setup, side, roll, tuple(groups))))


def forbidden(setup: BattleSetup, side: Side, roll: Roll) -> bool:
    """Whether a handler in play forbids ``side`` the unit ability of ``roll`` in this battle."""
    return any(h.forbids_unit_ability(setup, side, roll) for h in setup.handlers)


def ability_dice(
    setup: BattleSetup, side: Side, roll: Roll, groups: tuple[DiceGroup, ...]
) -> tuple[DiceGroup, ...]:
    """``side``'s dice of a unit-ability roll as the handlers in play change them from the
    setup alone (Plasma Scoring, Trrakan Aun Zulok). Bombardment calls this too."""
    if not groups:
        return groups
    for handler in setup.handlers:
        groups = handler.ability_dice(setup, side, roll, groups)
    return groups


#: groups of SPACE CANNON dice fired by a planet that is not "as if it were a unit" (Mecatol
#: Rex with I.I.H.Q. Modernization): effects on "your units" do not change them
NOT_UNITS = frozenset({"mecatol_rex"})


def one_more_die(groups: tuple[DiceGroup, ...]) -> tuple[DiceGroup, ...]:
    """The unit whose die is likeliest to hit (lowest face that hits; then the earlier in
    rolling order) rolls 1 additional die ("one of the firing units rolls 1 additional die").
    Another die can only add hits, so this choice is never worse for the roller
    (docs/rulings.md 14D1-1). A planet that is not a unit gets none."""
    units = [i for i, g in enumerate(groups) if g.unit not in NOT_UNITS]
    if not units:
        return groups
    best = min(units, key=lambda i: (groups[i].hit_on, groups[i].value, i))
    return tuple(replace(g, dice=g.dice + 1) if i == best else g for i, g in enumerate(groups))
