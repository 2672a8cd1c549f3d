"""What the TI3 procedures share: building a roll's dice pool with its modifiers, and the
removal of casualties, one hit at a time, by the player who was hit."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from enum import StrEnum

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.dice import SIDES as FACES
from spacecombat.core.engine import Decision, Node, Step
from spacecombat.core.events import Event, event
from spacecombat.core.forces import Forces, Status
from spacecombat.core.hits import next_hit
from spacecombat.core.pool import DiceGroup, DicePool, hit_face
from spacecombat.core.sides import Side
from spacecombat.rulesets.ti3 import ion_storm
from spacecombat.rulesets.ti3.abilities import (
    alastor,
    graviton_negator,
    l1z1x_flagship,
    valkyrie_armor,
    van_hauge,
)
from spacecombat.rulesets.ti3.abilities.base import GROUND_FORCES, RollContext, RollKind
from spacecombat.rulesets.ti3.abilities.dacxive_animators import counts_fallen
from spacecombat.rulesets.ti3.abilities.duranium_armor import tracks_this_round
from spacecombat.rulesets.ti3.abilities.races import (
    FLAGSHIP,
    JolnarFlagship,
    MentakFlagship,
    NoneuclidianShielding,
    SardakkFlagship,
    WinnuFlagship,
)
from spacecombat.rulesets.ti3.cards import (
    beacon_of_hope,
    bonuses,
    courageous_to_the_end,
    direct_hit,
    into_the_breach,
    target_their_flagship,
)
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Phase, Ti3State


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
    as_fighter: bool = False,
) -> DicePool:
    """The dice ``roller`` rolls for ``units`` (type, count): each unit's dice at its value,
    with every handler's modifier and extra dice (ti3-facts.md section 1: a die hits on its
    value or more, +1 lowering the value). ``marks``: count natural 10s (Shock Troops);
    ``as_fighter``: the units fight as fighters (Van Hauge's ground forces: the modifiers of
    fighters reach them, docs/rulings.md 27T-12).

    A roll at the units' combat values depends only on what its dice see (handlers are pure
    and see the roll's context alone), so that pool is made once for them."""
    card = bonuses.key(setup, state, roller, kind)
    if value is not None or dice_each is not None:
        return _pool(setup, state, roller, kind, units, value, dice_each, marks, card, as_fighter)
    units = tuple(units)
    key = (
        roller,
        kind,
        units,
        state.round,
        _own_pds(setup, state, roller),
        marks,
        card,
        _own_flagship(setup, state, roller),
        _enemy_ships(setup, state, roller),
    )
    known = setup.pools.get(key)
    if known is None:
        known = setup.pools[key] = _pool(setup, state, roller, kind, units, None, None, marks, card)
    return known


def combat_pool(setup: Ti3Setup, state: Ti3State, side: Side) -> DicePool | None:
    """The dice ``side`` rolls in a space battle's combat round: every ship its combat dice (war
    suns 3); in an ion storm, fighters none (docs/rulings.md 27I-2)."""
    cards = setup.side(side)
    units = [(u, n) for u, n in state.side(side).space.by_type().items() if cards.is_ship(u)]
    units = [(u, n) for u, n in units if cards.card(u).combat is not None]
    if not ion_storm.fighters_roll(setup.anomaly):
        units = [(u, n) for u, n in units if u != "fighter"]
    # Target Their Flagship!: the ship that fired the card's die does not roll in round 1
    held = target_their_flagship.held_back(state, side)
    units = [(u, n - (u == held)) for u, n in units if n - (u == held) > 0]
    ships_dice = pool(setup, state, side, RollKind.SPACE_COMBAT, units) if units else None
    if not van_hauge.fighting(setup, state, side) or not ion_storm.van_hauge_rolls(setup):
        # in an ion storm they fight as fighters, which roll no dice there (27J-3)
        return ships_dice
    # Van Hauge: the ground forces in space fight as fighters, one die at 9 each (27S-43)
    fighters = pool(
        setup,
        state,
        side,
        RollKind.SPACE_COMBAT,
        van_hauge.aboard(state, side),
        value=lambda u: van_hauge.VALUE,
        dice_each=lambda u: 1,
        as_fighter=True,
    )
    return DicePool.of([*(ships_dice.groups if ships_dice else ()), *fighters.groups])


def _pool(
    setup: Ti3Setup,
    state: Ti3State,
    roller: Side,
    kind: RollKind,
    units: Iterable[tuple[str, int]],
    value: Callable[[str], int] | None,
    dice_each: Callable[[str], int] | None,
    marks: bool,
    bonus: bonuses.CardBonuses = bonuses.NONE,
    as_fighter: bool = False,
) -> DicePool:
    """``bonus``: the action cards in play on the roller's dice (cards/bonuses.py);
    ``as_fighter``: the units fight as fighters (``pool``)."""
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
            own_flagship=_own_flagship(setup, state, roller),
            as_fighter=as_fighter,
        )
        printed = value(unit) if value else (card.combat.hit if card.combat else FACES + 1)
        each = dice_each(unit) if dice_each else _combat_dice(setup, state, roller, kind, unit)
        modifier = setup.modifier(roll)
        if bonus is not bonuses.NONE:
            modifier += bonuses.modifier(setup, roller, roll, bonus)
        if setup.options.natural_ten_always_hits and hit_face(printed, modifier) > FACES:
            modifier = printed - FACES  # the natural 10 still hits (rule option)
        extra_on, extra_hits = _extra_hits(setup, roller, kind, unit)
        if bonus.beacon:  # A Beacon of Hope: a 10 one hit more (27S-7)
            extra_on, extra_hits = beacon_of_hope.FACE, extra_hits + 1
        groups.append(
            DiceGroup(
                unit,
                count * (each + setup.extra_dice(roll)),
                printed,
                modifier,
                mark_on=FACES if marks and unit == "ground_force" else None,
                extra_on=extra_on,
                extra_hits=extra_hits,
            )
        )
    return DicePool.of(groups)


def _combat_dice(setup: Ti3Setup, state: Ti3State, roller: Side, kind: RollKind, unit: str) -> int:
    """The dice ``unit`` of ``roller`` rolls at its combat value (its own card's: each race has
    its flagship)."""
    if unit == "mechanized_unit":
        return setup.options.mechanized_unit_dice
    if unit == FLAGSHIP and setup.side(roller).has(WinnuFlagship.id):
        # Salai Sai Corian: a die per non-fighter ship of the opponent (27R-10)
        return _enemy_ships(setup, state, roller) if kind is RollKind.SPACE_COMBAT else 0
    card = setup.side(roller).card(unit)
    return card.combat.dice or 1 if card.combat else 0


def _extra_hits(setup: Ti3Setup, roller: Side, kind: RollKind, unit: str) -> tuple[int | None, int]:
    """J.N.S. Hylarim: a natural 10 of its combat dice produces 3 hits (27R-7)."""
    if (
        unit == FLAGSHIP
        and kind is RollKind.SPACE_COMBAT
        and setup.side(roller).has(JolnarFlagship.id)
    ):
        return JolnarFlagship.FACE, JolnarFlagship.EXTRA_HITS
    return None, 0


def _own_flagship(setup: Ti3Setup, state: Ti3State, side: Side) -> bool:
    """Whether ``side``'s flagship is in the space area, for a side whose flagship's ability
    reads it (C'morran N'orr); ``False`` for the others (the pool is the same)."""
    if not setup.side(side).has(SardakkFlagship.id):
        return False
    return bool(state.side(side).space.count(FLAGSHIP))


def _enemy_ships(setup: Ti3Setup, state: Ti3State, side: Side) -> int:
    """The opponent's non-fighter ships in the space area, for a side with Salai Sai Corian
    (its dice); 0 for the others."""
    if not setup.side(side).has(WinnuFlagship.id):
        return 0
    cards = setup.side(side.other)
    return state.side(side.other).space.total(lambda u: cards.is_ship(u) and u != "fighter")


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
            # and Graviton Negator's fighters that joined the invasion combat (27Y-4)
            return cards.is_ground_force(unit) or graviton_negator.joins(cards, unit)
        return unit in ("ground_force", "shock_troop")


def remove_casualties(
    setup: Ti3Setup,
    state: Ti3State,
    side: Side,
    where: int | None,
    targets: Targets,
    cause: str,
    done: Callable[[Ti3State], Ti3State],
    *,
    owed: bool = False,
) -> Node[Ti3State]:
    """Ask ``side`` to take the next hit against it on one of its units, or go on with
    ``done`` when none is left (ti3-combat.md, Remove casualties).

    A unit with SUSTAIN DAMAGE may take a hit by being damaged (not against fighter-only
    hits); Shock Troops must be taken before other ground units (ti3-facts.md section 8);
    hits no unit can take are lost. ``owed``: these are Courageous to the End's hits (27S-31).
    """
    if state.alastor:
        # the defender's Alastor was just destroyed: so is every unit in the space area
        return alastor.destroy_all(state)
    if state.courage is not None and not owed:
        # a ship of its holder was just destroyed: Courageous to the End (27S-31)
        holder, stage, _, _ = state.courage
        if stage == courageous_to_the_end.ASK:
            return courageous_to_the_end.ask(setup, state)
        if stage == courageous_to_the_end.ROLL:
            return courageous_to_the_end.roll(setup, state)
        return remove_casualties(
            setup,
            state,
            Side(holder).other,
            None,
            Targets.SHIPS,
            "Courageous to the End",
            courageous_to_the_end.settled,
            owed=True,
        )
    if state.sustained is not None:
        # a ship of ``side`` was just damaged: its opponent may play Direct Hit on it first
        return direct_hit.offer(setup, state, side)
    shock_first = targets in (Targets.GROUND_UNITS, Targets.GROUND_FORCES)
    damaged = Status.SUSTAINED_THIS_ROUND if tracks_this_round(setup) else Status.DAMAGED
    # Noneuclidian Shielding: a sustain cancels two hits (27R-11)
    cancelled = 2 if setup.side(side).has(NoneuclidianShielding.id) else 1
    no_sustain = _fourth_moon(setup, state, side)

    def eligible(area: Forces) -> list[tuple[str, Status]]:
        found = [(u, s) for u, s, _ in area if targets.admits(setup, side, u)]
        if shock_first and any(u == "shock_troop" for u, _ in found):
            # before other ground units; a fighter that joined the combat is none (27Y-4)
            found = [(u, s) for u, s in found if u == "shock_troop" or u == "fighter"]
        if targets in (Targets.SHIPS, Targets.FIGHTERS) and where is None:
            # Van Hauge: its ground forces in space are fighters while they fight (27S-43)
            found = van_hauge.eligible(setup, state, side, found)
        if targets is Targets.SHIPS:
            found = into_the_breach.eligible(state, side, found)
            found = l1z1x_flagship.eligible(setup, state, side, found)
        return found

    def fallen(after: Ti3State, option: Option) -> Ti3State:
        fell = option.action == "destroy" and option.unit in GROUND_FORCES and counts_fallen(setup)
        if fell:
            after = after.changed(fallen=after.fallen + fell)
        after = valkyrie_armor.count(state, after, side)
        if targets is Targets.SHIPS:
            after = l1z1x_flagship.after_hit(state, after, side)
            after = into_the_breach.after_hit(setup, after, side, option)
            if option.action == "destroy":
                after = alastor.fell(setup, after, side, option.unit or "")
                after = van_hauge.fell(setup, after, side, option.unit or "")
        if option.action == "destroy" and where is None:
            after = courageous_to_the_end.mark(setup, after, side, option.unit or "")
        return direct_hit.mark(setup, after, side, option, damaged)

    return next_hit(
        state,
        side,
        where,
        eligible=eligible,
        targets=targets.value,
        cause=cause,
        verb="take",
        may_sustain=lambda unit, status: (
            targets is not Targets.FIGHTERS
            and status is Status.UNDAMAGED
            and setup.side(side).card(unit).sustain_damage
            and not no_sustain
        ),
        cancels=lambda left: min(left, cancelled),
        damaged=damaged,
        # Van Hauge's ground forces are ground forces again once the hits are taken (27S-43)
        done=lambda s: done(van_hauge.settle(s, side)),
        after=fallen,
    )


#: the steps of a space battle proper whose hits the Fourth Moon reaches (not PDS fire,
#: which is its own tactical-action step before the battle: ti3-facts.md section 5)
_BATTLE_HITS = (Phase.PRE_COMBAT_HITS, Phase.REMOVE_CASUALTIES)


def _fourth_moon(setup: Ti3Setup, state: Ti3State, side: Side) -> bool:
    """Whether ``side`` may not use SUSTAIN DAMAGE now: it defends a space battle against a
    Mentak attacker whose Fourth Moon is in the system (27R-6)."""
    attacker = setup.side(Side.ATTACKER)
    return (
        side is Side.DEFENDER
        and attacker.has(MentakFlagship.id)
        and state.phase in _BATTLE_HITS
        and bool(state.attacker.space.count(FLAGSHIP))
    )


def fleet_withdraws(
    state: Ti3State, side: Side, to: str | None, phase: Phase, **changes: object
) -> tuple[Ti3State, Event]:
    """``side``'s whole fleet leaves the space battle for the system ``to`` (a retreat's
    movement, ti3-facts.md section 11, or Skilled Retreat's, docs/rulings.md 27S-6): its ships
    are taken out of the system and kept as ``away``, the state moved to ``phase`` (with other
    fields changed), with its ``withdrawal_executed`` event."""
    # Van Hauge's units taken up from the planets land on them first (27T-15)
    state = van_hauge.land(state, side)
    fleet = state.side(side).space
    moved = state.with_side(side, state.side(side).with_space(Forces()))
    done = moved.at(phase, withdrew=(side, to or ""), away=fleet, **changes)
    said = event("withdrawal_executed", player=side.value, to=to, units=fleet.to_json())
    return done, said


def retreat_destination(
    state: Ti3State, side: Side, names: Iterable[str], phase: Phase, **changes: object
) -> Node[Ti3State]:
    """``side`` chooses the system, among ``names``, its fleet moves to (``retreat_destination``
    decision, one "move" option per system); then its fleet withdraws there
    (``fleet_withdraws``, the state moved to ``phase`` with ``changes``): a retreat's, the
    Naalu's before combat (27S-14) and Rule of Terror's."""
    request = DecisionRequest(
        decision="retreat_destination",
        player=side.value,
        prompt="choose the system your fleet moves to",
        options=tuple(Option(f"to {name}", "move", target=name) for name in names),
    )

    def then(option: Option) -> Step[Ti3State]:
        done, said = fleet_withdraws(state, side, option.target, phase, **changes)
        return Step(done, (said,))

    return Decision(request, then)
