"""The facts of a TI4 battle that the set-up reads and builds: the systems, each side's unit
cards and what it holds (``SideSetup``), and a side as read from the scenario before the effects
in play adjust it (``SideDraft``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

from spacecombat.core.forces import Forces, Status
from spacecombat.core.policies import PolicyConfig
from spacecombat.core.rulesdata import UnitDef
from spacecombat.core.state import CountedCards
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.scenario.schema import SideSpec

#: technologies gained during a battle, each player's (``BattleState.gained``)
Gained = tuple[frozenset[str], frozenset[str]]
NOTHING_GAINED: Gained = (frozenset(), frozenset())

#: the name of the unit ability that puts a unit from reinforcements into the battle
DEPLOY = "DEPLOY"


@dataclass(frozen=True)
class AdjacentSystem:
    """A system a retreat might go to."""

    name: str
    anomaly: str
    units: frozenset[str]
    ships: frozenset[str]
    planets: frozenset[str]
    command_tokens: frozenset[str]


@dataclass(frozen=True)
class StarSystem:
    """The active system."""

    name: str
    anomaly: str
    adjacent: tuple[AdjacentSystem, ...]
    wormholes: tuple[str, ...] = ()
    features: frozenset[str] = frozenset()


@dataclass(frozen=True)
class SideSetup(CountedCards):
    """What one player brings that does not change during the battle."""

    side: Side
    faction: str | None
    cards: Mapping[str, UnitDef]
    technologies: tuple[str, ...]
    policy: PolicyConfig
    reinforcement_tokens: int | None
    #: action cards, promissory notes, leaders and relics held (data/cards.toml ids)
    held: tuple[str, ...] = ()
    #: facts about this player that effects read (data/cards.toml conditions)
    conditions: frozenset[str] = frozenset()
    #: unit types kept with the side's structures (the planets area) that stand in the space
    #: area: they hold its fighters and ground forces there with their capacity, retreat with
    #: its ships, and are destroyed when blockaded (LRR 14), each with the cause then (set at
    #: set-up by the effect that makes them so)
    floating: Mapping[str, str] = field(default_factory=dict)

    # Which unit types are what, from the cards once (procedures ask at every step).

    @cached_property
    def ship_types(self) -> frozenset[str]:
        return frozenset(u for u, card in self.cards.items() if card.is_ship)

    @cached_property
    def fighter_types(self) -> frozenset[str]:
        return frozenset(u for u, card in self.cards.items() if card.type == "fighter")

    @cached_property
    def ground_force_types(self) -> frozenset[str]:
        return frozenset(u for u, card in self.cards.items() if card.is_ground_force)

    @cached_property
    def sustainers(self) -> frozenset[str]:
        """The unit types with SUSTAIN DAMAGE."""
        return frozenset(u for u, card in self.cards.items() if card.sustain_damage)

    def is_fighter(self, unit: str) -> bool:
        return self.cards[unit].type == "fighter"

    def needs_transport(self, unit: str) -> bool:
        """Ground forces, and ships with no move value (Fighter I), must be carried."""
        card = self.cards[unit]
        return card.is_ground_force or (card.is_ship and card.move is None)

    def can_move(self, unit: str) -> bool:
        """Ships with a move value leave on their own in a retreat (step 5.2)."""
        card = self.cards[unit]
        return card.is_ship and card.move is not None

    # Effects that name a unit type ("cruiser", "flagship") name every unit of it, also one
    # that became a unit type of its own for the combat: The Cavalry's ship (``cavalry_cruiser``
    # is still a cruiser, docs/rulings.md 14CV-1) or a Z-Grav Eidolon (still a mech). Its card
    # keeps the type it was.

    @cached_property
    def _of_type(self) -> dict[str, frozenset[str]]:
        grouped: dict[str, set[str]] = {}
        for unit, card in self.cards.items():
            grouped.setdefault(card.type, set()).add(unit)
        return {kind: frozenset(units) for kind, units in grouped.items()}

    def of_type(self, unit_type: str) -> frozenset[str]:
        """The unit types that are ``unit_type`` for the effects naming it (itself among them)."""
        return self._of_type.get(unit_type, frozenset())

    def is_a(self, unit: str, unit_type: str) -> bool:
        """Whether ``unit`` is a ``unit_type`` for the effects naming that type."""
        return self.cards[unit].type == unit_type

    def count_of(self, forces: Forces, unit_type: str, status: Status | None = None) -> int:
        """How many of ``forces`` are ``unit_type`` units (of ``status``, if given)."""
        return sum(forces.count(unit, status) for unit in self.of_type(unit_type))


@dataclass(frozen=True)
class SideDraft:
    """One side as read and checked from the scenario, before the effects that act at set-up
    adjust it (``Handler.set_up_side``): what the side builds its ``SideSetup`` and its
    handlers in play from."""

    side: Side
    spec: SideSpec
    faction: str | None
    technologies: tuple[str, ...]
    #: unit cards by unit type: the printed ones first (``UNIT_TYPES`` order), then the unit
    #: types a unit becomes during the battle, in the order the effects added them
    cards: Mapping[str, UnitDef]
    held: tuple[str, ...]
    conditions: frozenset[str]
    #: the side's units in the battle, by type (space area, planets, an invasion's defenders)
    present: Mapping[str, int]
    #: the faction's abilities and faction technologies are out of play (neither checked nor
    #: put in play)
    faction_muted: bool = False
    #: handler ids of unit abilities in play though no unit with them is in the battle (a unit
    #: in an adjacent system)
    brought: frozenset[str] = frozenset()
    #: unit types kept with the side's structures (the planets area) that stand in the space
    #: area: they hold its fighters and ground forces there with their capacity, retreat with
    #: its ships, and are destroyed when blockaded (LRR 14), each with the cause then (set at
    #: set-up by the effect that makes them so)
    floating: Mapping[str, str] = field(default_factory=dict)
