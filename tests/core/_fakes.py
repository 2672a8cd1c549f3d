"""A tiny battle for the tests of the shared core modules: two players, a state with the
fields the core reads, unit cards with a ship, a ground force and a structure."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from spacecombat.core.forces import Forces
from spacecombat.core.policies import PolicyConfig
from spacecombat.core.rulesdata import UnitCards, UnitDef
from spacecombat.core.sides import Side, SideState

CARDS = {
    "cruiser": UnitDef(id="cruiser", name="Cruiser", type="cruiser", is_ship=True, cost=2),
    "fighter": UnitDef(
        id="fighter", name="Fighter", type="fighter", is_ship=True, cost=1, units_per_cost=2
    ),
    "infantry": UnitDef(
        id="infantry", name="Infantry", type="infantry", is_ground_force=True, cost=1
    ),
    "pds": UnitDef(id="pds", name="PDS", type="pds", is_structure=True),
}


class FakeState(NamedTuple):
    phase: str
    attacker: SideState
    defender: SideState
    round: int = 0
    hits: tuple[int, int] = (0, 0)
    ground_rounds: tuple[int, ...] = ()

    def side(self, side: Side) -> SideState:
        return self.attacker if side is Side.ATTACKER else self.defender

    def hits_on(self, side: Side) -> int:
        return self.hits[0] if side is Side.ATTACKER else self.hits[1]

    def with_hits_on(self, side: Side, hits: int) -> FakeState:
        pair = (hits, self.hits[1]) if side is Side.ATTACKER else (self.hits[0], hits)
        return self._replace(hits=pair)

    def with_units_and_hits(
        self, side: Side, where: int | None, forces: Forces, hits: int
    ) -> FakeState:
        units = self.side(side).with_area(where, forces)
        if side is Side.ATTACKER:
            return self._replace(attacker=units).with_hits_on(side, hits)
        return self._replace(defender=units).with_hits_on(side, hits)


@dataclass(frozen=True)
class FakeSide(UnitCards):
    cards: Mapping[str, UnitDef] = field(default_factory=lambda: CARDS)
    policy: PolicyConfig = field(default_factory=PolicyConfig)


@dataclass(frozen=True, eq=False)
class FakeSetup:
    initial: FakeState
    kind: str = "space"
    planets: tuple[str, ...] = ("planets",)

    def side(self, side: Side) -> FakeSide:
        return FakeSide(
            policy=PolicyConfig(retreat_after_round=3 if side is Side.DEFENDER else None)
        )


def units(space: str = "", *planets: str) -> SideState:
    """A player's units from ``"2 cruiser, 1 fighter"``-like counts."""
    return SideState(_forces(space), tuple(_forces(p) for p in planets))


def _forces(text: str) -> Forces:
    counts = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        n, unit = part.split()
        counts[unit] = int(n)
    return Forces.of(counts)
