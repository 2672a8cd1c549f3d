"""What the TI3 procedures share: building a roll's dice pool with its modifiers, and the
removal of casualties, one hit at a time, by the player who was hit."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from enum import StrEnum

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.dice import SIDES as FACES
from spacecombat.core.engine import Decision, Node, Step
from spacecombat.core.events import event
from spacecombat.core.forces import Status, describe
from spacecombat.core.pool import DiceGroup, DicePool, hit_face
from spacecombat.core.sides import Side
from spacecombat.rulesets.ti3.abilities.base import GROUND_FORCES, RollContext, RollKind
from spacecombat.rulesets.ti3.abilities.dacxive_animators import counts_fallen
from spacecombat.rulesets.ti3.abilities.duranium_armor import tracks_this_round
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Ti3State


def pool(
    setup: Ti3Setup,
    state: Ti3State,
    roller: Side,
    kind: RollKind,
    units: Iterable[tuple[str, int]],
    *,
    value: Callable[[str], int] | None = None,
    dice_each: Callable[[str], int] | None = None,
    marks: bool = False,
) -> DicePool:
    """The dice ``roller`` rolls for ``units`` (type, count): each unit's dice at its value,
    with every handler's modifier and extra dice (ti3-facts.md section 1: a die hits on its
    value or more, +1 lowering the value). ``marks``: count natural 10s (Shock Troops)."""
    groups = []
    for unit, count in units:
        card = setup.side(roller).card(unit)
        roll = RollContext(
            kind,
            roller,
            unit,
            round=state.round,
            defending=roller is Side.DEFENDER,
            planet_has_own_pds=_own_pds(setup, state, roller),
            in_nebula=setup.anomaly == "nebula",
        )
        printed = value(unit) if value else (card.combat.hit if card.combat else FACES + 1)
        each = dice_each(unit) if dice_each else _combat_dice(setup, unit)
        modifier = setup.modifier(roll)
        if setup.options.natural_ten_always_hits and hit_face(printed, modifier) > FACES:
            modifier = printed - FACES  # the natural 10 still hits (rule option)
        groups.append(
            DiceGroup(
                unit,
                count * (each + setup.extra_dice(roll)),
                printed,
                modifier,
                mark_on=FACES if marks and unit == "ground_force" else None,
            )
        )
    return DicePool.of(groups)


def _combat_dice(setup: Ti3Setup, unit: str) -> int:
    if unit == "mechanized_unit":
        return setup.options.mechanized_unit_dice
    card = setup.side(Side.ATTACKER).card(unit)
    return card.combat.dice or 1 if card.combat else 0


def _own_pds(setup: Ti3Setup, state: Ti3State, side: Side) -> bool:
    if setup.kind != "invasion":
        return False
    return bool(state.side(side).planet(state.planet).count("pds"))


def pds_pool(setup: Ti3Setup, state: Ti3State, side: Side, count: int, kind: RollKind) -> DicePool:
    """``count`` PDS of ``side`` fire: each its PDS-fire dice at its value (one die at 6)."""
    cannon = setup.side(side).card("pds").space_cannon
    assert cannon is not None
    return pool(
        setup,
        state,
        side,
        kind,
        [("pds", count)],
        value=lambda _: cannon.hit,
        dice_each=lambda _: cannon.dice,
    )


class Targets(StrEnum):
    """Which of a player's units a kind of hit may reach."""

    SHIPS = "ships"
    FIGHTERS = "fighters"
    #: ground units in invasion combat: ground forces, shock troops, mechanized units
    GROUND_UNITS = "ground units"
    #: bombardment and PDS fire: ground forces and shock troops (Mechanized Units are immune)
    GROUND_FORCES = "ground forces"

    def admits(self, setup: Ti3Setup, side: Side, unit: str) -> bool:
        cards = setup.side(side)
        if self is Targets.SHIPS:
            return cards.is_ship(unit)
        if self is Targets.FIGHTERS:
            return unit == "fighter"
        if self is Targets.GROUND_UNITS:
            return cards.is_ground_force(unit)
        return unit in ("ground_force", "shock_troop")


def remove_casualties(
    setup: Ti3Setup,
    state: Ti3State,
    side: Side,
    where: int | None,
    targets: Targets,
    cause: str,
    done: Callable[[Ti3State], Ti3State],
) -> Node[Ti3State]:
    """Ask ``side`` to take the next hit against it on one of its units, or go on with
    ``done`` when none is left (ti3-combat.md, Remove casualties).

    A unit with SUSTAIN DAMAGE may take a hit by being damaged (not against fighter-only
    hits); Shock Troops must be taken before other ground units (ti3-facts.md section 8);
    hits no unit can take are lost.
    """
    hits = state.hits_on(side)
    if hits == 0:
        return Step(done(state))
    area = state.side(side).area(where)
    eligible = [(u, s) for u, s, _ in area if targets.admits(setup, side, u)]
    if targets in (Targets.GROUND_UNITS, Targets.GROUND_FORCES) and any(
        u == "shock_troop" for u, _ in eligible
    ):
        eligible = [(u, s) for u, s in eligible if u == "shock_troop"]
    if not eligible:
        lost = event(
            "hits_lost",
            player=side.value,
            hits=hits,
            cause=cause,
            reason=f"no {targets.value} left to take them",
        )
        return Step(done(state.with_hits_on(side, 0)), (lost,))
    damaged = Status.SUSTAINED_THIS_ROUND if tracks_this_round(setup) else Status.DAMAGED
    options: list[Option] = []
    for unit, status in eligible:
        if (
            targets is not Targets.FIGHTERS
            and status is Status.UNDAMAGED
            and setup.side(side).card(unit).sustain_damage
        ):
            options.append(Option(f"sustain {unit}", "sustain", unit, status))
        options.append(Option(f"destroy {describe(unit, status)}", "destroy", unit, status))
    request = DecisionRequest(
        decision="assign_hit",
        player=side.value,
        prompt=f"{hits} {cause} hit(s) against your {targets.value}: take the next one",
        options=tuple(options),
        facts={"hits": hits, "cause": cause},
    )

    def then(option: Option) -> Step[Ti3State]:
        unit, status = option.unit or "", Status(option.status or 0)
        if option.action == "sustain":
            forces = area.move(unit, status, damaged)
            happened = event(
                "damage_sustained", player=side.value, unit=unit, hits_cancelled=1, cause=cause
            )
        else:
            forces = area.remove(unit, status)
            happened = event(
                "unit_destroyed",
                player=side.value,
                unit=unit,
                status=status.label or "undamaged",
                cause=cause,
            )
        units = state.side(side).with_area(where, forces)
        fallen = state.fallen
        if option.action == "destroy" and unit in GROUND_FORCES and counts_fallen(setup):
            fallen += 1
        after = state.with_side(side, units).with_hits_on(side, hits - 1)
        return Step(after._replace(fallen=fallen), (happened,))

    return Decision(request, then)


def ships(setup: Ti3Setup, state: Ti3State, side: Side) -> int:
    """``side``'s ships in the space area."""
    return state.side(side).space.total(setup.side(side).is_ship)


def ground_units(setup: Ti3Setup, state: Ti3State, side: Side, planet: int) -> int:
    """``side``'s ground units on a planet."""
    return state.side(side).planet(planet).total(setup.side(side).is_ground_force)
