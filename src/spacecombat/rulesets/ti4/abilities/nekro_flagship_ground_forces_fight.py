"""The Alastor (Nekro Virus flagship; data/units.toml ``nekro_flagship``): "At the start of a
space combat, choose any number of your ground forces in this system to participate in that
combat as if they were ships." (docs/rulings.md 14N-3, 14AL-1 to 14AL-4.)

In the "start of combat" window (ti4-space-combat.md rule 2.1), while the Alastor is in the
space area, its owner answers one ``participate_as_ships`` question for each kind of ground
force (type and damage, in the space area or on the system's planets: one area in a space
battle), one after the other: how many of that kind take part, or none. The stock answer is
every ground force in the space area and none from the planets; ``policy.play:
{nekro_flagship_ground_forces_fight: with_planets}`` takes those on the planets too, ``never``
none.

A participant becomes a unit type of its own for the combat, as The Cavalry's ship does
(the_cavalry.py ``relabel``): ``alastor_UNIT`` from the space area, ``alastor_planet_UNIT``
from a planet, whose card (``participant_cards``, added by the setup) is the side's own
infantry or mech card as a ship. They roll, can be assigned hits and count as non-fighter
ships; they need no capacity during the combat; they stay in it if the Alastor is destroyed.
Planet participants stay on their planet: they are kept in the space area only as a record
of the combat, never carried in a retreat. When their player's retreat begins, they stop
participating and are ground forces on their planet again (``before_retreat``). Once the
combat's result is decided (``at_end_of_combat``), space participants turn back into
infantry or mechs in the space area (their capacity is then checked), planet participants
onto their planet."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, ClassVar

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.engine import Decision, Node, Step
from spacecombat.core.events import Event
from spacecombat.core.forces import Status, describe
from spacecombat.core.rulesdata import UnitDef
from spacecombat.rulesets.ti4.abilities.base import Acts, Handler, register
from spacecombat.rulesets.ti4.effects import Item, change_units, changed_events
from spacecombat.rulesets.ti4.hooks import FollowUp, Window

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup, SideDraft
    from spacecombat.rulesets.ti4.sides import Side
    from spacecombat.rulesets.ti4.state import BattleState
    from spacecombat.scenario.schema import Scenario

ID = "nekro_flagship_ground_forces_fight"
FLAGSHIP = "flagship"
INFANTRY = "infantry"
#: the unit type of a participant during the combat: PREFIX + its own type (from the space
#: area), PLANET_PREFIX + its own type (from the system's planets)
PREFIX = "alastor_"
PLANET_PREFIX = "alastor_planet_"
#: the decision, and the ``policy.play`` value that has the stock policy take the planets'
#: ground forces too
DECISION = "participate_as_ships"
WITH_PLANETS = "with_planets"
#: the option fields: ``target`` says whether a choice takes ground forces from the planets
FROM_SPACE, FROM_PLANETS = "space", "planets"
#: the planets of a space battle are one area (scenario/checks.py ``space_battle_units``)
PLANETS = 0


def participant_cards(cards: Mapping[str, UnitDef]) -> dict[str, UnitDef]:
    """The unit types a ground force becomes while it participates, for a side whose flagship
    is the Alastor with its ability (else none): its own card, as a ship."""
    flagship = cards.get(FLAGSHIP)
    if flagship is None or not any(a.handler == ID for a in flagship.abilities):
        return {}
    made: dict[str, UnitDef] = {}
    for unit, card in cards.items():
        if not card.is_ground_force or card.is_ship:
            continue
        for prefix, origin in ((PREFIX, "space area"), (PLANET_PREFIX, "planet")):
            made[prefix + unit] = card.model_copy(
                update={"name": f"{card.name} (The Alastor, {origin})", "is_ship": True}
            )
    return made


def own_type(unit: str) -> str | None:
    """A participant's own type (``alastor_planet_mech`` -> ``mech``), or ``None``."""
    if unit.startswith(PLANET_PREFIX):
        return unit.removeprefix(PLANET_PREFIX)
    if unit.startswith(PREFIX):
        return unit.removeprefix(PREFIX)
    return None


def is_participant(unit: str) -> bool:
    """Whether ``unit`` is a ground force participating with the Alastor."""
    return own_type(unit) is not None


#: one kind of ground force that may participate: (place, type, status, how many there are)
Kind = tuple[str, str, Status, int]


@register
class NekroFlagshipGroundForcesFight(Handler):
    id = ID
    asks = id  # its decisions are named by its id (Handler.asks)
    acts = Acts(frozenset({Window.START_OF_COMBAT}), battles=frozenset({"space"}))
    play_values: ClassVar[Mapping[str, str]] = {
        WITH_PLANETS: "its ground forces on planets participate too"
    }

    def set_up_side(self, scenario: Scenario, draft: SideDraft) -> SideDraft:
        """In a space battle, the unit types the side's ground forces become as they
        participate, for a side whose flagship is the Alastor with its ability."""
        if scenario.battle != "space" or draft.side is not self.owner:
            return draft
        made = participant_cards(draft.cards)
        return replace(draft, cards={**draft.cards, **made}) if made else draft

    def acts_first_in_window(self) -> bool:
        """First among its owner's start-of-combat effects, the order its owner would choose:
        participants then count as ships for the others (Assault Cannon; 14AL-1)."""
        return True

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[Window]
    ) -> Node[BattleState] | None:
        owner = self.player
        if state.has_used(owner, ID) or not _can_participate(setup, owner):
            return None
        # also as The Cavalry's ship
        if not setup.side(owner).count_of(state.side(owner).space, FLAGSHIP):
            return None
        kinds = _kinds(setup, state, owner)
        if not kinds:
            return None
        return _choose(owner, state.using(owner, ID), kinds, 0)

    def follow_up(
        self, setup: BattleSetup, state: BattleState, side: Side, detail: str, where: int | None
    ) -> Node[BattleState] | None:
        """The next kind of ground force to ask about (``detail`` names it)."""
        if side is not self.owner:
            return None
        kinds = _kinds(setup, state, side)
        named = [_named(k) for k in kinds]
        if detail not in named:
            return None
        return _choose(side, state, kinds, named.index(detail))

    def before_retreat(
        self, setup: BattleSetup, state: BattleState, side: Side
    ) -> Node[BattleState] | None:
        if side is not self.owner:
            return None
        landed, events = _land(state, side)
        return Step(landed, events) if events else None

    def at_end_of_combat(self, setup: BattleSetup, state: BattleState) -> Node[BattleState] | None:
        owner = self.owner
        if owner is None:
            return None
        landed, events = _land(state, owner)
        turned = change_units(landed, owner, _back, ID)
        if turned is None:
            return Step(landed, events) if events else None
        return Step(turned.state, (*events, *turned.events))


def _can_participate(setup: BattleSetup, owner: Side) -> bool:
    """Whether ``owner`` has the participants' unit types (its Alastor has the ability)."""
    return any(is_participant(u) for u in setup.side(owner).cards)


def _back(unit: str) -> str | None:
    """A space participant's own type (planet participants go back to their planet)."""
    if unit.startswith(PREFIX) and not unit.startswith(PLANET_PREFIX):
        return unit.removeprefix(PREFIX)
    return None


def _land(state: BattleState, owner: Side) -> tuple[BattleState, tuple[Event, ...]]:
    """``owner``'s planet participants ground forces on their planet again, and the events."""
    mine = state.side(owner)
    space, planet = mine.space, mine.planets[PLANETS]
    changed: list[Item] = []
    for unit, status, count in mine.space:
        if unit.startswith(PLANET_PREFIX):
            own = unit.removeprefix(PLANET_PREFIX)
            space = space.remove(unit, status, count)
            planet = planet.add(own, status, count)
            changed.append((unit, status, count, own))
    if not changed:
        return state, ()
    landed = state.with_side(owner, mine.with_space(space).with_planet(PLANETS, planet))
    return landed, changed_events(owner, changed, ID)


def _kinds(setup: BattleSetup, state: BattleState, owner: Side) -> list[Kind]:
    """The kinds of ``owner``'s ground forces that may still be chosen, in the order they are
    asked about: the space area's, then the planets'; by type, then status."""
    mine = state.side(owner)
    cards = setup.side(owner).cards
    kinds: list[Kind] = [(FROM_SPACE, u, st, n) for u, st, n in mine.space if PREFIX + u in cards]
    kinds += [
        (FROM_PLANETS, u, st, n) for u, st, n in mine.planets[PLANETS] if PLANET_PREFIX + u in cards
    ]
    return sorted(kinds, key=_order)


def _order(kind: Kind) -> tuple[int, str, str]:
    place, unit, status, _ = kind
    return (place != FROM_SPACE, unit, str(status))


def _named(kind: Kind) -> str:
    """A kind as a ``following`` entry names it (its place, type and status)."""
    place, unit, status, _ = kind
    return f"{place}|{unit}|{status}"


def _choose(
    owner: Side, state: BattleState, kinds: Sequence[Kind], at: int
) -> Decision[BattleState]:
    """The question about one kind of ground force (``kinds[at]``): how many of them
    participate, most first, or none (``pass``). One question a kind keeps each list short
    (a choice over every kind at once would list the product of the counts); the next kind is
    asked next (a ``following`` entry, ``follow_up``)."""
    kind = kinds[at]
    place, unit, status, count = kind
    options = tuple(
        Option(_label([kind], [n]), "participate", target=place, count=n)
        for n in range(count, 0, -1)
    )
    request = DecisionRequest(
        DECISION,
        owner.value,
        "The Alastor: choose any number of your ground forces in this system to participate "
        f"in this combat as if they were ships: how many {describe(unit, status)} from the "
        f"{'space area' if place == FROM_SPACE else 'planets'}?",
        (*options, Option("pass", "pass", count=0)),
        facts={"card": ID, "round": state.round},
    )
    later = kinds[at + 1 :]

    def then(option: Option) -> Step[BattleState]:
        step = Step(state)
        if option.action == "participate":
            step = _participate(state, owner, [kind], [option.count])
        if not later:
            return step
        asked = FollowUp.own(ID, owner, _named(later[0]))
        return Step(step.state.changed(following=(*step.state.following, asked)), step.events)

    return Decision(request, then)


def _label(kinds: Sequence[Kind], pick: Sequence[int]) -> str:
    """``space: 2 infantry, 1 mech (damaged); planets: 1 infantry``."""
    parts = []
    for place in (FROM_SPACE, FROM_PLANETS):
        chosen = [
            f"{n} {describe(unit, status)}"
            for (where, unit, status, _), n in zip(kinds, pick, strict=True)
            if where == place and n
        ]
        if chosen:
            parts.append(f"{place}: {', '.join(chosen)}")
    return "; ".join(parts)


def _participate(
    state: BattleState, owner: Side, kinds: Sequence[Kind], pick: Sequence[int]
) -> Step[BattleState]:
    """The chosen ground forces become participants (planet ones leave their planet's count
    for the combat's record in the space area)."""
    mine = state.side(owner)
    space, planet = mine.space, mine.planets[PLANETS]
    changed: list[Item] = []
    for (where, unit, status, _), n in zip(kinds, pick, strict=True):
        if not n:
            continue
        if where == FROM_SPACE:
            space = space.remove(unit, status, n).add(PREFIX + unit, status, n)
            changed.append((unit, status, n, PREFIX + unit))
        else:
            planet = planet.remove(unit, status, n)
            space = space.add(PLANET_PREFIX + unit, status, n)
            changed.append((unit, status, n, PLANET_PREFIX + unit))
    chosen = state.with_side(owner, mine.with_space(space).with_planet(PLANETS, planet))
    return Step(chosen, changed_events(owner, changed, ID))
