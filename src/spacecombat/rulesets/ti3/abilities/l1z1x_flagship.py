"""[0.0.1], the L1Z1X Mindnet flagship (Shards of the Throne; data/units.toml; docs/rulings.md
27S-9): in each combat round of a space battle where it is, the hits it and its owner's
dreadnoughts produce must be assigned to the opponent's non-fighter ships (PC_Twi
GameEffects/races/r_L1z1x.cpp e_L1z1xFlagship gives them uaHeavyDamage before each round;
CombatInterface.cpp assigns those hits to capital ships first, and what they cannot take with
the other hits).

The roll of such a side is made in two parts, the heavy units' dice (flagship, dreadnoughts)
first, then the others' (``split``), so the heavy hits are counted apart
(``Ti3State.heavy``); when the opponent removes casualties, the heavy hits are taken first and
only by non-fighter ships while it has any (``eligible``)."""

from __future__ import annotations

from spacecombat.core.forces import Status
from spacecombat.core.pool import DicePool
from spacecombat.core.sides import Side
from spacecombat.rulesets.ti3.abilities.base import GROUND_FORCES
from spacecombat.rulesets.ti3.abilities.races import FLAGSHIP, L1z1xFlagship
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Ti3State

#: the units whose hits must go on non-fighter ships while the flagship is there
HEAVY = (FLAGSHIP, "dreadnought")


def acts(setup: Ti3Setup, state: Ti3State, roller: Side) -> bool:
    """Whether ``roller``'s [0.0.1] is in the space area now."""
    return setup.side(roller).has(L1z1xFlagship.id) and bool(
        state.side(roller).space.count(FLAGSHIP)
    )


def split(
    dice: DicePool, units: tuple[str, ...] = HEAVY
) -> tuple[DicePool | None, DicePool | None]:
    """The heavy units' dice (those of ``units``) and the others', each ``None`` when empty."""
    heavy = tuple(g for g in dice.groups if g.unit in units)
    rest = tuple(g for g in dice.groups if g.unit not in units)
    return (DicePool(heavy) if heavy else None), (DicePool(rest) if rest else None)


def heavy_on(state: Ti3State, side: Side) -> int:
    """The heavy hits still to be taken by ``side`` (at most its hits left)."""
    return min(state.heavy[0 if side is Side.ATTACKER else 1], state.hits_on(side))


def with_heavy_on(state: Ti3State, side: Side, value: int) -> Ti3State:
    heavy = (value, state.heavy[1]) if side is Side.ATTACKER else (state.heavy[0], value)
    return state.changed(heavy=heavy)


def eligible(
    setup: Ti3Setup, state: Ti3State, side: Side, found: list[tuple[str, Status]]
) -> list[tuple[str, Status]]:
    """The units ``side`` may take the next hit on: while heavy hits are left, its non-fighter
    ships if it has any."""
    if not heavy_on(state, side):
        return found
    # Van Hauge's ground forces are among ``found`` only while they fight as fighters: not
    # non-fighter ships (docs/rulings.md 27T-12)
    capital = [(u, s) for u, s in found if u != "fighter" and u not in GROUND_FORCES]
    return capital or found


def after_hit(before: Ti3State, after: Ti3State, side: Side) -> Ti3State:
    """The hits ``side`` just took (or cancelled) come off its heavy hits first."""
    left = heavy_on(before, side)
    if not left:
        return after
    taken = before.hits_on(side) - after.hits_on(side)
    return with_heavy_on(after, side, max(0, left - taken))
